"""Accessibility, checked by axe-core (pinned in package.json, injected from node_modules: nothing from a CDN)
on every screen of every game, on a desktop and on a 390×844 phone: no serious or critical violation."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from e2e_support import ROOT, open_app, set_up

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ("three-stones", "morris", "rings", "sage-stones", "triple-domino")
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
BLOCKING = ("serious", "critical")  # axe's impacts this app allows none of
WATCHED_MOVES = 4  # moves the computer plays against itself before the screen is checked
AI_TIMEOUT = 60_000  # ms: the computer's first reply may come while its worker starts
CLICKS_FOR_A_MOVE = 12  # bounded: clicks on board targets until one makes a move (or a refusal shows)


@pytest.fixture(params=list(VIEWPORTS))
def screen(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Any]:
    """A page of the app on a desktop or a phone; the page's errors fail the test."""
    context = browser.new_context(**VIEWPORTS[request.param])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, live_server + "/")
    yield page
    context.close()
    assert not errors, errors[:3]


def axe_problems(page: Any, where: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each.

    axe runs in the page through the test driver (the app's content security policy lets no inline
    script in, and the app never loads axe itself)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => JSON.stringify(await axe.run(document, {resultTypes: ['violations']}))")
    problems = []
    for rule in json.loads(result)["violations"]:
        if rule["impact"] in BLOCKING:
            nodes = "; ".join(" ".join(node["target"]) for node in rule["nodes"][:4])
            problems.append(f"{where}: {rule['id']} ({rule['impact']}): {rule['help']} at {nodes}")
    return problems


def move_count(page: Any) -> int:
    return page.eval_on_selector_all("#moves .mv", "els => els.length")


def click_until_a_move(page: Any, rng: random.Random) -> None:
    """A person's clicks on the board's targets (legal first) until one makes a move: a turn half done
    (a selected man, a ring placed, a chosen tile) and a refusal's message are checked on the way."""
    for _ in range(CLICKS_FOR_A_MOVE):
        if move_count(page):
            return
        legal = page.eval_on_selector_all(
            "#board .legal[data-target], #board .fits[data-target], #board .can[data-target], "
            "#board [data-target=end], button.td-tile.fits",
            'els => els.map(e => e.dataset.target ? `[data-target="${e.dataset.target}"]` : '
            '`button.td-tile[data-tile="${e.dataset.tile}"]`)',
        )
        anywhere = page.eval_on_selector_all(
            "#board [data-target]", 'els => els.map(e => `[data-target="${e.dataset.target}"]`)'
        )
        choices = legal or anywhere
        if not choices:
            return
        page.locator(rng.choice(choices)).first.dispatch_event("click")
        page.wait_for_timeout(100)


def test_home_and_scan_screens_have_no_serious_violations(screen: Any) -> None:
    page = screen
    problems = axe_problems(page, "home")
    page.click("[data-action=scan]")
    page.wait_for_selector("#scan-game, [data-action=scan-recheck], [data-action=scan-camera]")
    problems += axe_problems(page, "scan")
    page.click("[data-action=home]")
    page.set_input_files(
        "#import-file", files=[{"name": "broken.json", "mimeType": "application/json", "buffer": b"{not json"}]
    )
    page.wait_for_selector(".msg-error")
    problems += axe_problems(page, "home after a refused import")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_a_game_has_no_serious_violations(screen: Any, game: str) -> None:
    page = screen
    page.click(f'[data-game="{game}"]')
    page.click("#more-options summary")
    problems = axe_problems(page, f"{game} set-up")
    page.click("[data-action=home]")

    set_up(page, game, think=0.1, match="watch")
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length >= {WATCHED_MOVES}", timeout=AI_TIMEOUT)
    page.click("#rules summary")
    problems += axe_problems(page, f"{game} watched, rules open")
    page.click("#moves li:nth-child(2) button")  # the first move (a draw before it shares its row)
    page.wait_for_selector(".viewing-note")
    problems += axe_problems(page, f"{game} an earlier position")
    page.click("#game-menu summary")
    problems += axe_problems(page, f"{game} the game menu open")

    set_up(page, game, match="people")
    problems += axe_problems(page, f"{game} a person to play")
    click_until_a_move(page, random.Random(game))
    problems += axe_problems(page, f"{game} after a person's clicks")
    assert not problems, "\n".join(problems)
