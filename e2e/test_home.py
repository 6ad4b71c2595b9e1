"""The home screen and the end of a game (issue 19): each game shown by a drawing of its board, and a
finished game summed up (who won and why, the score sheet, replay, export, play again), on a desktop
and on a phone."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any, Iterator

import pytest
from e2e_support import legal_targets, open_app, set_up
from test_phone import PHONE, too_small

from engine import get_game, load_record, save_record

pytestmark = pytest.mark.browser

GAMES = ("three-stones", "morris", "rings", "sage-stones", "triple-domino")
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
SUMMARY_BUTTONS = "#summary-box button"
OPTIONS = {"mode": "pure-skill", "handicap_black": 2}  # a short game with a rule switch "play again" must keep


@dataclasses.dataclass
class Screen:
    """The app open on a desktop or a phone: a finger taps on the phone, a mouse clicks on the desktop."""

    page: Any
    url: str
    phone: bool

    def press(self, selector: str) -> None:
        if self.phone:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def reload(self) -> None:
        open_app(self.page, self.url)


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    """The app on a desktop or a phone; fails the test on any error the page throws."""
    context = browser.new_context(**SCREENS[request.param], accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, live_server + "/")
    yield Screen(page, live_server + "/", request.param == "phone")
    context.close()
    assert not errors, errors[:3]


def one_move_from_the_end(last_seat: str) -> dict[str, Any]:
    """A pure-skill three-stones record one stone from its end; the player to place it sits in `last_seat`."""
    game = get_game("three-stones")
    state = game.new_state(OPTIONS, seed=5)
    rng = random.Random(5)
    while True:
        probe = state.copy()
        probe.push(rng.choice(list(probe.legal_moves())))
        if probe.is_over():
            break
        state = probe
    record = save_record(state)
    other = next(p for p in state.players if p != state.current_player)
    record["app"] = {"seats": {state.current_player: last_seat, other: "human"}, "think": 0.2}
    return record


def open_record(page: Any, record: dict[str, Any]) -> None:
    """The record opened as a person opens a saved game (the file input of "open a saved game…")."""
    page.set_input_files(
        "#import-file",
        files=[{"name": "nearly.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    page.wait_for_selector("svg.board-three-stones")


def summary_shown(page: Any) -> bool:
    return page.is_visible("#summary-box")


def test_the_home_screen_shows_each_game_by_a_drawing_of_its_board(screen: Screen, shot: Any) -> None:
    page = screen.page
    cards = page.locator("button.game-card")
    assert cards.count() == 5
    for index, game_id in enumerate(GAMES):
        card = cards.nth(index)
        assert card.get_attribute("data-game") == game_id
        picture = card.locator("svg")
        assert picture.count() == 1 and picture.locator(f"g.board-{game_id}").count() == 1
        assert picture.get_attribute("aria-hidden") == "true"
        box = picture.bounding_box()
        assert box["width"] >= 48 and box["height"] >= 48, f"{game_id}: the drawing is too small to see"
    assert page.query_selector_all(".home [data-target], .home svg [tabindex], .home svg [role]") == []
    assert page.query_selector_all("svg.board, [class*=board-] svg") == []  # what the tests take for the live board
    # drawn at build time: the first screen imported no board module and asked for none
    imported = page.evaluate("window.stonesStartModules") or []
    assert not [m for m in imported if m.split(".")[0] == "boards"], imported
    if screen.phone:
        assert not too_small(page, "button.game-card")
    shot(page, "phone" if screen.phone else "desktop")


def test_a_finished_game_is_summed_up_and_played_again(screen: Screen, shot: Any) -> None:
    page, press = screen.page, screen.press
    record = one_move_from_the_end("human")
    open_record(page, record)
    assert not summary_shown(page)
    last = legal_targets(page)[0]
    press(f'#board [data-target="{last}"]')
    page.wait_for_selector("#summary-box")

    # who won and why, and the score sheet, as the engine has them
    ended = page.locator("#summary-box")
    final = load_record({**record, "moves": record["moves"] + [page.text_content("#moves li:last-child .mv")]})
    outcome = final.outcome()
    assert outcome is not None
    assert ended.get_attribute("data-termination") == outcome.termination.value
    assert ended.get_attribute("data-outcome") == (outcome.winner or "draw")
    words = page.text_content(".summary-ending")
    assert outcome.winner and f"{outcome.winner.capitalize()} wins" in words and "last stone" in words
    for player, score in outcome.scores.items():
        assert page.text_content(f'[data-final-score="{player}"]') == str(score)
    if screen.phone:
        assert not too_small(page, SUMMARY_BUTTONS), "the summary's buttons fit a finger"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "summary")

    # export offers the record of the finished game
    with page.expect_download() as download:
        press("#summary-box [data-action=export]")
    exported_then = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert exported_then["result"]["termination"] == outcome.termination.value
    assert exported_then["moves"] == save_record(final)["moves"]

    # a reload keeps the summary; put aside, the final board shows, and the summary comes back
    screen.reload()
    page.wait_for_selector("#summary-box")
    press("#summary-box [data-action=close-summary]")
    assert not summary_shown(page) and page.is_visible("#board svg")
    screen.reload()  # put aside stays put aside
    page.wait_for_selector("#status [data-action=summary]")
    assert not summary_shown(page)
    press("#status [data-action=summary]")
    page.wait_for_selector("#summary-box")

    # replay from the start, move by move
    press("#summary-box [data-action=replay]")
    page.wait_for_selector("#board-area.past")
    assert page.get_attribute("#moves [aria-current=step]", "data-ply") == "0"
    press('#status [aria-label="one move on"]')
    page.wait_for_function("document.querySelector('#moves [aria-current=step]').dataset.ply === '1'")
    press('#status [aria-label="one move on"]')
    page.wait_for_function("document.querySelector('#moves [aria-current=step]').dataset.ply === '2'")
    press('#status [aria-label="one move back"]')
    page.wait_for_function("document.querySelector('#moves [aria-current=step]').dataset.ply === '1'")
    assert not summary_shown(page)
    press("#status [data-action=live]")
    press("#status [data-action=summary]")
    page.wait_for_selector("#summary-box")

    # play again: a new game, the same options and seats
    press("#summary-box [data-action=again]")
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 0")
    assert not summary_shown(page) and page.get_attribute("body", "data-state") == "playing"
    with page.expect_download() as download:
        if page.get_attribute("#game-menu", "open") is None:
            press("#game-menu summary")
        press("#game-menu button[data-action=export]")
    again = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert again["game"] == "three-stones" and again["moves"] == []
    assert again["options"] == record["options"] and again["options"]["handicap_black"] == 2
    assert again["app"]["seats"] == record["app"]["seats"] and again["app"]["think"] == 0.2


def test_the_computers_last_move_ends_on_the_summary(screen: Screen) -> None:
    page = screen.page
    open_record(page, one_move_from_the_end("easy"))
    page.wait_for_selector("#summary-box", timeout=60_000)  # the computer places the last stone
    assert "last stone" in page.text_content(".summary-ending")


def test_a_flag_falling_ends_on_the_summary(page: Any, base_url: str) -> None:
    """The clock runs out (the browser's clock moved on a minute and more): the game ends on its summary."""
    open_app(page, base_url)
    set_up(page, "three-stones", options={"mode": "pure-skill", "clock_white_minutes": 1, "clock_black_minutes": 1})
    page.clock.install()  # from here the page's Date and performance.now are the test's to move
    page.clock.fast_forward("01:05")
    page.wait_for_selector("#summary-box", timeout=30_000)
    assert page.get_attribute("#summary-box", "data-termination") == "time-forfeit"
    assert "White ran out of time: Black wins." in page.text_content(".summary-ending")
