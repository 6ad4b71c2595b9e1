"""triple-domino through the page: a whole game against the random AI, solitaire by keyboard, hidden hands."""

from __future__ import annotations

import random
from typing import Any

import pytest
from e2e_support import export_record, move_count, open_app, open_app_offline, set_up

from engine import load_record
from engine.games.triple_domino import TripleDominoState

pytestmark = pytest.mark.browser


def start_triple_domino(
    page: Any, players: int, seed: int, seats: dict[str, str] | None = None, options: dict[str, str] | None = None
) -> None:
    set_up(page, "triple-domino", seats, seed, {"players": players, **(options or {})})
    page.wait_for_selector("svg.board-triple-domino")


def shown_scores(page: Any, players: list[str]) -> dict[str, int]:
    return {p: int(page.text_content(f'#status [data-score="{p}"]')) for p in players}


def hand(page: Any) -> list[str]:
    return page.eval_on_selector_all("#panel .td-tile", "els => els.map(e => e.getAttribute('data-value'))")


def wait_for_human(page: Any, player: str = "p1") -> bool:
    """Wait until `player` is to play (True) or the game is over (False)."""
    page.wait_for_function(
        f"document.body.dataset.state === 'over' || (!!document.querySelector('#status [data-turn=\"{player}\"]') "
        f"&& !!document.querySelector('#panel .td-actions'))",
        timeout=20_000,
    )
    return page.get_attribute("body", "data-state") != "over"


def act_and_wait(page: Any, selector: str) -> None:
    before = move_count(page)
    page.click(selector)
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")


def test_triple_domino_whole_hot_seat_game_ends_with_the_engines_score(
    page, context, base_url, shot, console_errors
) -> None:
    open_app_offline(page, context, base_url)
    page.set_viewport_size({"width": 1280, "height": 800})
    start_triple_domino(page, 2, seed=6, options={"target_score": "1"})
    rng = random.Random(6)
    refused = False
    decisions = laid = 0
    while page.get_attribute("body", "data-state") != "over":
        decisions += 1
        me = page.get_attribute("#status [data-turn]", "data-turn")
        assert (
            page.get_attribute("#panel [data-hand-of]", "data-hand-of") == me
        )  # hot seat: the hand of the player to move
        if decisions == 12:
            shot(page, "midgame")
            page.set_viewport_size({"width": 390, "height": 844})
            shot(page, "midgame-phone")
            page.set_viewport_size({"width": 1280, "height": 800})
        if page.query_selector("#board .open.fits") is None:
            fits = page.query_selector_all("#panel .td-tile.fits")
            if fits:
                rng.choice(fits).click()
        places = page.query_selector_all("#board .open.fits")
        if places:
            if not refused and page.query_selector("#board .open:not(.fits)"):
                page.click("#board .open:not(.fits)")  # a place the tile does not fit: the engine says why
                assert "must match" in page.text_content("#message") or "must share" in page.text_content("#message")
                refused = True
            at = rng.choice(places).get_attribute("data-target")
            ghost = page.text_content(f'#board [data-target="{at}"] .ghost')  # the tile, turned the way it fits
            act_and_wait(page, f'#board [data-target="{at}"]')
            assert page.text_content(f'#board .laid-tile[data-tile-at="{at}"]') == ghost
            laid += 1
            assert page.query_selector("#board .laid-tile.last") and page.query_selector(
                "#board .score-marks .last-outline"
            )
        elif not page.query_selector("#panel [data-target=draw].muted"):
            act_and_wait(page, "#panel [data-target=draw]")
            assert "-5 draw" in page.text_content("#panel .td-last")
        else:
            act_and_wait(page, "#panel [data-target=pass]")
        assert decisions < 150
    assert "Game over" in page.text_content("#status") and refused and laid > 10
    shot(page, "final")

    record = export_record(page)
    state = load_record(record)
    assert isinstance(state, TripleDominoState) and state.is_over()
    assert shown_scores(page, ["p1", "p2"]) == state.scores() == state.recount_scores()
    for p, total in state.scores().items():
        assert page.text_content(f'#panel [data-total="{p}"]') == str(total)
    assert page.eval_on_selector_all("#board .laid-tile", "els => els.length") == len(state.layout_tiles())
    moves_text = page.text_content("#moves")
    assert "deal: 10 tiles each" in moves_text and "|" not in moves_text  # the deal shows no hands
    assert not console_errors


def test_triple_domino_solitaire_by_keyboard(page, base_url, shot) -> None:
    open_app(page, base_url)
    start_triple_domino(page, 1, seed=2, options={"solitaire_hand_size": "5", "solitaire_draw_limit": "4"})
    assert page.eval_on_selector_all("#board .laid-tile", "els => els.length") == 1  # the start tile
    page.click("#panel [data-target=pass]", force=True)  # passing while you can draw: refused, with the rule
    assert "pass" in page.text_content("#message") and "draw" in page.text_content("#message")
    page.focus('#board [data-target][tabindex="0"]')
    for _ in range(20):
        if page.get_attribute("body", "data-state") == "over":
            break
        tiles = hand(page)
        fitting = page.eval_on_selector_all(
            "#panel .td-tile", "els => els.map((e, i) => e.classList.contains('fits') ? i : -1).filter(i => i >= 0)"
        )
        before = move_count(page)
        if fitting:
            page.keyboard.press("1234567890"[fitting[-1]])
            assert page.get_attribute("#panel .td-tile[aria-pressed=true]", "data-value") == tiles[fitting[-1]]
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.getAttribute('data-target')")
            assert page.query_selector(f'#board .open.fits[data-target="{focused}"]')
            page.keyboard.press("t")  # turn it (a no-op where it fits one way only)
            page.keyboard.press("Enter")
        elif not page.query_selector("#panel [data-target=draw].muted"):
            page.keyboard.press("d")
        else:
            page.keyboard.press("p")
        page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")
    page.wait_for_function("document.body.dataset.state === 'over'")
    shot(page, "final")
    state = load_record(export_record(page))
    assert state.is_over()
    assert shown_scores(page, ["p1"]) == state.scores()
    assert "solitaire over" in page.text_content("#panel")


def test_triple_domino_zoom_drag_and_labels(page, base_url, shot) -> None:
    open_app(page, base_url)
    start_triple_domino(page, 2, seed=6, seats={"p1": "human", "p2": "random"}, options={"target_score": "1"})
    for _ in range(3):  # p1 plays; while the AI thinks, the panel still shows p1's hand, never the AI's
        wait_for_human(page)
        page.click("#panel .td-tile.fits") if page.query_selector("#panel .td-tile.fits") else None
        target = "#board .open.fits" if page.query_selector("#board .open.fits") else "#panel [data-target=draw]"
        act_and_wait(page, target)
        # one look at the page: the random player may move between two queries, and p1's own actions come back
        seen = page.evaluate(
            """() => ({
                turn: document.querySelector('#status [data-turn]')?.dataset.turn,
                hand: document.querySelector('#panel [data-hand-of]')?.dataset.handOf,
                actions: !!document.querySelector('#panel .td-actions'),
            })"""
        )
        if seen["turn"] == "p2":
            assert seen["hand"] == "p1"
            assert not seen["actions"]
    wait_for_human(page)
    labels = page.eval_on_selector_all("#board [data-target]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(":" in label for label in labels)
    fitted = page.get_attribute("svg.board-triple-domino", "viewBox")
    page.click("[data-board-action=zoom][data-value=in]")
    zoomed = page.get_attribute("svg.board-triple-domino", "viewBox")
    assert float(zoomed.split()[2]) < float(fitted.split()[2])
    page.click("[data-board-action=zoom][data-value=in]")
    panned = page.get_attribute("svg.board-triple-domino", "viewBox")
    assert float(panned.split()[2]) < float(zoomed.split()[2])
    box = page.query_selector("svg.board-triple-domino").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 300)  # the wheel zooms out, and the view is kept once it stops
    page.wait_for_function(f"document.querySelector('svg.board-triple-domino').getAttribute('viewBox') !== '{panned}'")
    page.wait_for_timeout(500)
    wheeled = page.get_attribute("svg.board-triple-domino", "viewBox")
    assert float(wheeled.split()[2]) > float(panned.split()[2])
    moves = move_count(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y + 10, steps=4)
    page.mouse.move(x + 90, y + 20, steps=4)
    page.mouse.up()  # a drag pans (and is not a click on a place)
    page.wait_for_timeout(300)
    dragged = page.get_attribute("svg.board-triple-domino", "viewBox")
    assert float(dragged.split()[0]) < float(wheeled.split()[0]) and dragged.split()[2] == wheeled.split()[2]
    assert move_count(page) == moves and not page.text_content("#message").strip()
    page.focus("#board [data-target]")
    page.keyboard.press("f")  # fit again
    assert page.get_attribute("svg.board-triple-domino", "viewBox") == fitted
    shot(page)
