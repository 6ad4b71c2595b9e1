"""morris through the page: a whole game by clicks, the mill-and-removal flow, keyboard play, phone layout."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from e2e_support import open_app, open_app_offline, set_up

from engine import get_game, load_record, save_record, score_position
from engine.games.morris import POINT_NAMES

pytestmark = pytest.mark.browser
GAME = get_game("morris")


def start_morris(page: Any, seed: int = 1, seats: dict[str, str] | None = None, flying: bool = False) -> None:
    set_up(page, "morris", seats, seed, {"flying": True} if flying else {})
    page.wait_for_selector("svg.board-morris")


def ply(page: Any) -> int:
    return int(page.get_attribute("svg.board-morris", "data-ply"))


def legal(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("#board .point.legal", "els => els.map(e => e.getAttribute('data-target'))"))


def men(page: Any) -> dict[str, str]:
    return page.eval_on_selector_all(
        "#board .point",
        """els => Object.fromEntries(els.filter(e => e.querySelector('.man')).map(e => [
              e.getAttribute('data-target') || e.getAttribute('aria-label').split(':')[0],
              [...e.querySelector('.man').classList].find(c => c.startsWith('man-')).slice(4)]))""",
    )


def click_point(page: Any, name: str) -> None:
    page.click(f'#board [data-target="{name}"]')


def clicks_for(move: Any) -> list[str]:
    out = [] if move.source is None else [POINT_NAMES[move.source]]
    out.append(POINT_NAMES[move.target])
    if move.take is not None:
        out.append(POINT_NAMES[move.take])
    return out


def saved_record(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate("localStorage.getItem('stones/current-game')"))


def test_morris_whole_game_by_clicks_ends_with_the_engines_score(page, context, base_url, shot, console_errors) -> None:
    """Both seats human: white takes whenever it can, black plays at random; every step through the board,
    with the network cut after a first visit."""
    open_app_offline(page, context, base_url)
    start_morris(page, seed=5)
    mirror = GAME.new_state({}, seed=5)
    rng = random.Random(5)
    shots = {12: "placing", 24: "moving"}
    mill_shot = False
    while not mirror.is_over():
        moves = list(mirror.legal_moves())
        if mirror.current_player == "white":
            moves = [m for m in moves if m.take is not None] or moves
        move = rng.choice(moves)
        steps = clicks_for(move)
        before = ply(page)
        for i, point in enumerate(steps):
            # what the board offers at each step is what the engine allows
            if i == 0:
                expected = {POINT_NAMES[m.source if m.source is not None else m.target] for m in mirror.legal_moves()}
                assert legal(page) == expected
            if i == len(steps) - 1 and move.take is not None:
                assert page.get_attribute("svg.board-morris", "data-stage") == "remove"
                assert point in legal(page)
                if not mill_shot:
                    mill_shot = bool(shot(page, "mill"))
            click_point(page, point)
        page.wait_for_function(f"document.querySelector('svg.board-morris').dataset.ply > {before}")
        mirror.push(move)
        if mirror.ply in shots:
            shot(page, shots[mirror.ply])
        assert men(page) == {k: v for k, v in mirror.to_position()["cells"].items() if v}
    assert page.get_attribute("body", "data-state") == "over"
    shot(page, "final")

    state = load_record(saved_record(page))
    assert state.moves_text() == mirror.moves_text() and state.is_over()
    engine = score_position(state.to_position())
    shown = {p: int(page.text_content(f'[data-score="{p}"]')) for p in ("white", "black")}
    assert shown == engine["scores"] == state.scores()
    assert page.eval_on_selector_all("#board .mill", "els => els.length") == len(engine["items"])
    assert "Game over" in page.text_content("#status")
    why = page.text_content("#status .turn.over").split("Game over. ", 1)[1]
    assert why and why in page.text_content("#panel")  # the panel says why in the status bar's words
    assert not console_errors


def test_morris_mill_asks_for_a_removal_and_refusals_are_explained(page, base_url, shot) -> None:
    open_app(page, base_url)
    start_morris(page, seed=2)
    for point in ("a1", "b2", "a4", "b4"):  # white a1 a4, black b2 b4
        click_point(page, point)
    assert page.text_content('[data-in-hand="white"]') == "7"
    click_point(page, "a7")  # closes a1-a4-a7: the removal is asked for, nothing played yet
    assert page.get_attribute("svg.board-morris", "data-stage") == "remove"
    assert legal(page) == {"b2", "b4"}
    assert ply(page) == 4 and men(page)["a7"] == "white"
    assert page.eval_on_selector_all("#board .mill.fresh", "els => els.length") == 1
    assert "Mill!" in page.text_content("#panel")
    click_point(page, "a4")  # own man
    assert "own white piece" in page.text_content("#message")
    click_point(page, "a7")  # take the placement back
    assert page.get_attribute("svg.board-morris", "data-stage") == "place" and "a7" not in men(page)
    click_point(page, "a7")
    click_point(page, "b4")
    assert ply(page) == 5
    assert "b4" not in men(page) and page.text_content('[data-lost="black"]') == "1"
    assert page.eval_on_selector_all("#board .taken", "els => els.length") == 1  # the taken man, fading
    shot(page, "after-removal")
    moves = page.text_content("#moves")
    assert "a7xb4" in moves
    click_point(page, "a1")  # taken point
    assert "already taken" in page.text_content("#message")
    page.click("button[data-action=undo]")
    assert ply(page) == 4 and men(page)["b4"] == "black"


def test_morris_keyboard_selects_moves_and_cancels(page, base_url) -> None:
    open_app(page, base_url)
    start_morris(page, seed=3)
    labels = page.eval_on_selector_all("#board [data-target]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 24 and all(": " in label for label in labels)
    board = page.locator("#board")
    # placing from the keyboard: arrows, then Enter on whatever point the cursor reaches
    page.focus('#board [data-target][tabindex="0"]')
    rng = random.Random(3)
    while ply(page) < 6:
        before = ply(page)
        for _ in range(rng.randrange(1, 4)):
            page.keyboard.press(rng.choice(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]))
        focused = page.evaluate("document.activeElement.getAttribute('data-target')")
        page.keyboard.press("Enter")
        if ply(page) == before and page.get_attribute("svg.board-morris", "data-stage") != "remove":
            assert "already taken" in page.text_content("#message"), focused
            continue
        if page.get_attribute("svg.board-morris", "data-stage") == "remove":
            board.locator(f'[data-target="{sorted(legal(page))[0]}"]').focus()
            page.keyboard.press("Space")
        assert ply(page) == before + 1
        assert men(page).get(focused), "the man stands where Enter was pressed"

    # the moving phase, from a record of eighteen placements opened in the page
    state = GAME.new_state({}, seed=3)
    pick = random.Random(30)
    while state.pieces_in_hand("black"):
        state.push(pick.choice(list(state.legal_moves())))
    record = json.dumps(save_record(state)).encode()
    page.set_input_files(
        "#import-file", files=[{"name": "placed.json", "mimeType": "application/json", "buffer": record}]
    )
    page.wait_for_function("document.querySelector('svg.board-morris').dataset.ply == 18")
    assert page.get_attribute("svg.board-morris", "data-stage") == "pick"
    source = sorted(legal(page))[0]
    board.locator(f'[data-target="{source}"]').focus()
    page.keyboard.press("Enter")  # selects the man
    assert page.get_attribute("svg.board-morris", "data-stage") == "dest"
    page.keyboard.press("c")  # lets go of it
    assert page.get_attribute("svg.board-morris", "data-stage") == "pick"
    page.keyboard.press("Enter")
    destination = sorted(legal(page))[0]
    board.locator(f'[data-target="{destination}"]').focus()
    page.keyboard.press("Enter")
    if page.get_attribute("svg.board-morris", "data-stage") == "remove":
        board.locator(f'[data-target="{sorted(legal(page))[0]}"]').focus()
        page.keyboard.press("Enter")
    assert ply(page) == 19
    assert men(page)[destination] in ("white", "black") and source not in men(page)


def test_morris_phone_and_desktop_against_the_random_ai(browser, live_server, shot) -> None:
    """One game looked at on a phone (390×844) and then on a desktop (1280×800)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        open_app(page, live_server + "/")
        start_morris(page, seed=7, seats={"white": "human", "black": "random"})
        rng = random.Random(7)
        for _ in range(7):
            before = ply(page)
            click_point(page, rng.choice(sorted(legal(page))))
            if page.get_attribute("svg.board-morris", "data-stage") == "remove":
                click_point(page, sorted(legal(page))[0])
            page.wait_for_function(
                f"document.querySelector('svg.board-morris').dataset.ply >= {before + 2}"
                " && document.querySelector('#board .point.legal')",
                timeout=10_000,
            )
        assert page.get_attribute("[data-turn]", "data-turn") == "white"
        for width, height in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            shot(page, f"{width}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0
            box = page.locator("svg.board-morris").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["y"] + box["height"] <= height, "the whole board fits on the screen"
            hit = page.locator('#board [data-target="d2"] .hit').bounding_box()
            assert hit["width"] >= 30, "points must be big enough to tap"
            if width < 600:
                assert box["width"] >= width * 0.9
    finally:
        context.close()
