"""sage-stones through the page: a whole game against the random AI, dice and announcements, keyboard, layouts."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from e2e_support import open_app, open_app_offline, set_up

from engine import get_game, load_record, score_position

pytestmark = pytest.mark.browser
GAME = get_game("sage-stones")
BOARD = "svg.board-sage-stones"


def start_sage(page: Any, seed: int, stones: int = 10, seats: dict[str, str] | None = None) -> None:
    set_up(page, "sage-stones", seats, seed, {"stones_per_colour": stones})
    page.wait_for_selector(BOARD)


def ply(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-ply"))


def phase(page: Any) -> str:
    return page.get_attribute(BOARD, "data-phase")


def legal(page: Any) -> list[str]:
    return page.eval_on_selector_all("#board .pocket.legal", "els => els.map(e => e.getAttribute('data-target'))")


def wait_for_human_or_end(page: Any) -> None:
    page.wait_for_function(
        "document.body.dataset.state === 'over' || document.querySelector('#board [data-target]') !== null",
        timeout=15_000,
    )


def saved_record(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate("localStorage.getItem('stones/current-game')"))


def test_sage_whole_game_against_the_random_ai(page, context, base_url, shot, console_errors) -> None:
    """p1 (red and green) clicks, p2 (blue and yellow) is the random AI; 4 stones a colour keep it short;
    the network is cut after a first visit."""
    open_app_offline(page, context, base_url)
    start_sage(page, seed=56, stones=4, seats={"p2": "random"})
    rng = random.Random(56)
    seen: set[str] = set()
    while True:
        wait_for_human_or_end(page)
        if page.get_attribute("body", "data-state") == "over":
            break
        before = ply(page)
        tray = page.text_content(f"{BOARD} .tray")
        dice = page.eval_on_selector_all(f"{BOARD} .die", "els => els.map(e => +e.dataset.face)")
        assert len(dice) == 3 and all(1 <= d <= 3 for d in dice)
        seat = page.get_attribute(BOARD, "data-seat")
        assert seat in ("red", "green"), "p1 plays red and green"
        assert f"plays {seat}" in page.text_content("#panel")
        if phase(page) == "pass":
            assert sorted(dice) == [1, 2, 3] and "1-2-3: turn lost" in tray
            assert legal(page) == []
            if "pass" not in seen:
                shot(page, "turn-lost")
            # the tray's button on the board the first time, the panel's button after
            page.click('#board [data-target="pass"]' if "pass" not in seen else '#panel [data-target="pass"]')
            seen.add("pass")
        elif phase(page) == "wipe":
            page.click('#panel [data-target="wipe"]')
            seen.add("wipe")
        else:
            column = int(page.text_content(f"{BOARD} .num.rolled"))
            targets = legal(page)
            assert targets and all(t.startswith(f"c{column}r") for t in targets)
            if len(set(dice)) == 1 and sum(dice) == column:
                assert "triple" in tray
                seen.add("triple")
            if sum(dice) != column:
                assert f"column {sum(dice)} full: column 6" in tray
                seen.add("redirect")
            page.click(f'#board [data-target="{rng.choice(targets)}"]')
        page.wait_for_function(f"+document.querySelector('{BOARD}').dataset.ply > {before}")
        latest = page.text_content("#panel .turn-log li:first-child")
        if "took" in latest:
            assert page.eval_on_selector_all("#board .captured", "els => els.length") >= 1
            if "capture" not in seen:
                shot(page, "capture")
            seen.add("capture")
    shot(page, "final")
    assert {"pass", "triple", "capture"} <= seen, seen

    state = load_record(saved_record(page))
    assert state.is_over()
    engine = score_position(state.to_position())
    shown = {p: int(page.text_content(f'[data-score="{p}"]')) for p in ("p1", "p2")}
    per_player = {p: sum(n for c, n in engine["scores"].items() if engine["owners"][c] == p) for p in ("p1", "p2")}
    assert shown == per_player == state.scores()
    for colour, left in engine["stones_left"].items():
        assert page.text_content(f'[data-left="{colour}"]') == str(left)
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.winners[0]
    assert "Game over" in page.text_content("#status")
    assert f"{winner} wins the game" in page.text_content(f"{BOARD} .tray")
    assert "placed its last stone" in page.text_content("#panel")
    assert not console_errors


def test_sage_keyboard_play_and_a_refusal_explained(page, base_url) -> None:
    open_app(page, base_url)
    start_sage(page, seed=56, stones=4)  # both players human
    labels = page.eval_on_selector_all("#board .pocket", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 63 and all(": " in label for label in labels)
    # keyboard only: the cursor starts on a legal pocket (or on the tray's Pass button); Enter plays it
    page.focus('#board [data-target][tabindex="0"]')
    for _ in range(8):
        focused = page.evaluate("document.activeElement.getAttribute('data-target')")
        assert focused in legal(page) or focused == "pass"
        before = ply(page)
        if focused != "pass":  # one step along the column and back
            there, back = ("ArrowUp", "ArrowDown") if not focused.endswith("r9") else ("ArrowDown", "ArrowUp")
            page.keyboard.press(there)
            assert page.evaluate("document.activeElement.getAttribute('data-target')") != focused
            page.keyboard.press(back)
            assert page.evaluate("document.activeElement.getAttribute('data-target')") == focused
        page.keyboard.press("Enter" if focused != "pass" else "p")  # P passes a lost turn
        assert ply(page) > before
        assert page.evaluate("document.activeElement.closest('#board') !== null"), "focus stays on the board"
    stones = page.eval_on_selector_all("#board .stone:not(.ghost)", "els => els.length")
    assert stones >= 1
    for _ in range(6):
        if phase(page) == "place":
            break
        page.click("#panel [data-target]")  # a lost turn: pass
    column = int(page.text_content(f"{BOARD} .num.rolled"))
    wrong = 3 if column != 3 else 4
    page.click(f'#board [data-target="c{wrong}r5"]')
    assert f"places in column {column}" in page.text_content("#message")
    page.click("button[data-action=undo]")
    assert page.eval_on_selector_all("#board .stone:not(.ghost)", "els => els.length") <= stones


def test_sage_phone_and_desktop(browser, live_server, shot) -> None:
    """One game looked at on a phone (390×844) and then on a desktop (1280×800)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        open_app(page, live_server + "/")
        start_sage(page, seed=3, stones=10, seats={"p2": "random"})
        rng = random.Random(3)
        for _ in range(6):
            wait_for_human_or_end(page)
            before = ply(page)
            targets = legal(page)
            page.click(f'#board [data-target="{rng.choice(targets)}"]' if targets else "#panel [data-target]")
            page.wait_for_function(f"+document.querySelector('{BOARD}').dataset.ply > {before}")
        wait_for_human_or_end(page)
        for width, height in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            shot(page, f"{width}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0
            box = page.locator(BOARD).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["y"] + box["height"] <= height, "board and dice fit on the screen"
            hit = page.locator('#board [data-target="c6r5"] .hit').bounding_box()
            assert hit["width"] >= 30 and hit["height"] >= 30, "pockets must be big enough to tap"
    finally:
        context.close()
