"""rings through the page: a whole three-player game by clicks and keys, conversions, labels, refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from e2e_support import export_record, move_count, open_app, open_app_offline, set_up

from engine import load_record, score_position
from engine.games.rings import CIRCLE_INDEX, CIRCLE_POINTS, POINT_NAMES, RingsState

pytestmark = pytest.mark.browser

COUNT_OR_TURN = (
    "document.querySelectorAll('#moves .mv').length > {n} || !!document.querySelector('#board [data-target=end]')"
)


def circle_points(circle: str) -> list[str]:
    return [POINT_NAMES[p] for p in CIRCLE_POINTS[CIRCLE_INDEX[circle]]]


def start_rings(page: Any, players: int = 2, seed: int = 1) -> None:
    set_up(page, "rings", seed=seed, options={"players": players})
    page.wait_for_selector("svg.board-rings")


def stones(page: Any) -> dict[str, str]:
    """Point → stone colour, read from the drawn board (the new colour of a stone being flipped)."""
    return page.eval_on_selector_all(
        "#board .pt.filled",
        """els => Object.fromEntries(els.map(e => {
              const all = e.querySelectorAll('.stone');
              const colour = [...all[all.length - 1].classList].find(c => c.startsWith('stone-')).slice(6);
              return [e.getAttribute('aria-label').split(':')[0].slice(6), colour];
           }))""",
    )


def shown_scores(page: Any, players: list[str]) -> dict[str, int]:
    return {p: int(page.text_content(f'#status [data-score="{p}"]')) for p in players}


def to_move(page: Any) -> str:
    return page.get_attribute("#status [data-turn]", "data-turn")


def click_and_wait(page: Any, selector: str) -> None:
    """Click a board target; wait until the turn is played or the conversions are offered."""
    before = move_count(page)
    page.click(selector)
    page.wait_for_function(COUNT_OR_TURN.format(n=before))


def finish_turn(page: Any) -> None:
    """If conversions are on offer: convert them all, then end the turn."""
    if page.query_selector("#board [data-target=end]"):
        before = move_count(page)
        if page.query_selector("#board [data-target=all]:not([disabled])"):
            page.click("#board [data-target=all]")
        page.click("#board [data-target=end]")
        page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")


def test_rings_whole_game_ends_with_the_engines_score(page, context, base_url, shot, console_errors) -> None:
    open_app_offline(page, context, base_url)
    page.set_viewport_size({"width": 1280, "height": 800})
    start_rings(page, players=3, seed=11)
    players = ["black", "white", "red"]
    assert page.eval_on_selector_all("#board .pt[data-target]", "els => els.length") == 216
    assert page.eval_on_selector_all("#board .grooves circle.groove", "els => els.length") == 91
    assert page.eval_on_selector_all("#board .grooves circle.partial", "els => els.length") == 36

    # black closes in on circle 0,0 where white has one stone: four black stones give black the majority
    c0 = circle_points("0,0")
    opening = [c0[0], c0[1], "U3,1", c0[2], "D2,-1", "D-3,2", c0[3], "U2,-1", "U-3,4"]
    for point in opening:
        click_and_wait(page, f'#board [data-target="{point}"]')
    assert to_move(page) == "black"
    click_and_wait(page, f'#board [data-target="{c0[4]}"]')  # black's 4th stone: conversions offered
    assert page.query_selector('#board .centre.can[data-target="x0,0"]')
    assert page.query_selector('#board .pt.placed[data-target="%s"]' % c0[4])
    assert "→ 1" in page.text_content("#panel")  # the score after this turn, live
    page.click('#board [data-target="x2,0"]')  # a circle black does not hold: the engine's reason is shown
    assert "majority" in page.text_content("#message")
    page.click('#board [data-target="x0,0"]')
    page.wait_for_selector("#board .flip-new")  # the white stone turns black (animated)
    assert stones(page)[c0[1]] == "black"
    shot(page, "converting")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "converting-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.focus("#board [data-target=end]")
    page.keyboard.press("x")  # take the conversion back …
    page.wait_for_function(
        "!document.querySelector('#board .flip-new') && !!document.querySelector('#board [data-target=end]')"
    )
    assert stones(page)[c0[1]] == "white"
    page.keyboard.press("a")  # … convert everything there is …
    page.wait_for_function("!!document.querySelector('#board .flip-new')")
    before = move_count(page)
    page.keyboard.press("e")  # … and end the turn
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")
    assert page.text_content("#moves .current .mv") == f"{c0[4]} x0,0"
    assert shown_scores(page, players)["black"] >= 1
    assert page.query_selector('#board .held[data-held="0,0"][data-holder="black"]')
    assert page.query_selector(f'#board .pt.last[data-target="{c0[4]}"]')

    # then each player builds on a circle of their own (rings form), then everybody passes
    goals = {"black": circle_points("-3,3"), "white": circle_points("3,-2"), "red": circle_points("-2,-2")}
    rng = random.Random(11)
    for turn in range(27):
        if turn == 12:
            shot(page, "midgame")
        me = to_move(page)
        taken = stones(page)
        free = [p for p in goals[me] if p not in taken]
        if not free:
            free = [p for p in POINT_NAMES if p not in taken]
        click_and_wait(page, f'#board [data-target="{rng.choice(free) if len(free) > 6 else free[0]}"]')
        finish_turn(page)
    for _ in range(3):
        before = move_count(page)
        page.click("#board [data-target=pass]")
        page.wait_for_function(COUNT_OR_TURN.format(n=before))
        finish_turn(page)
    page.wait_for_function("document.body.dataset.state === 'over'")
    assert "Game over" in page.text_content("#status")
    shot(page, "final")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "final-phone")

    record = export_record(page)
    state = load_record(record)
    assert isinstance(state, RingsState) and state.is_over()
    engine = score_position(state.to_position())
    assert shown_scores(page, players) == engine["scores"] == state.scores()
    assert sum(engine["scores"].values()) > 3
    assert page.eval_on_selector_all("#board .held", "els => els.length") == len(engine["items"])
    for item in engine["items"]:
        assert page.query_selector(f'#board .held[data-held="{item["circle"]}"][data-holder="{item["side"]}"]')
    rings = page.eval_on_selector_all("#board .ring[data-ring]", "els => els.map(e => e.getAttribute('data-ring'))")
    assert sorted(rings) == sorted(state.rings()) and rings
    for p in players:
        assert page.text_content(f'#panel [data-held-count="{p}"]') == str(engine["scores"][p])
    assert stones(page) == {k: v for k, v in state.to_position()["cells"].items() if v}
    assert not console_errors


def test_rings_keyboard_labels_and_refusals(page, base_url, shot) -> None:
    open_app(page, base_url)
    start_rings(page, players=2, seed=3)
    labels = page.eval_on_selector_all("#board .pt[data-target]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 216 and all(label.startswith("point ") and "on circles" in label for label in labels)
    page.focus('#board [data-target][tabindex="0"]')
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    target = page.evaluate("document.activeElement.getAttribute('data-target')")
    assert target in POINT_NAMES
    page.keyboard.press("Enter")
    assert stones(page) == {target: "black"}
    assert page.evaluate("document.activeElement.getAttribute('data-target')") == target  # focus kept
    assert "black stone, the last stone played" in page.get_attribute(f'#board [data-target="{target}"]', "aria-label")
    page.click(f'#board [data-target="{target}"]')  # white on a taken point: the engine explains
    assert "is taken" in page.text_content("#message")
    page.keyboard.press("p")  # white passes
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 2")
    assert "pass" in page.text_content("#moves")
    assert "1 pass in a row" in page.text_content("#panel")
    page.keyboard.press("p")  # black passes too: every player passed in turn
    page.wait_for_function("document.body.dataset.state === 'over'")
    assert page.eval_on_selector_all("#board [data-target]", "els => els.length") == 0
    shot(page)
