"""Accessibility, checked by axe-core (pinned in package.json, injected from node_modules: nothing from a CDN)
on every screen of every game, on a desktop and on a 390×844 phone: no serious or critical violation."""

from __future__ import annotations

import json
import random
import sys
from collections import deque
from types import SimpleNamespace
from typing import Any, Iterator

import pytest
from e2e_support import PHONE, ROOT, app_page, open_app, set_up

sys.path.insert(0, str(ROOT / "web"))
from ui.session import Session  # noqa: E402  (the page's own rule for the arrow keys)

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ("three-stones", "morris", "rings", "sage-stones", "triple-domino")
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": PHONE,
}
BLOCKING = ("serious", "critical")  # axe's impacts this app allows none of
WATCHED_MOVES = 4  # moves the computer plays against itself before the screen is checked
AI_TIMEOUT = 60_000  # ms: the computer's first reply may come while its worker starts
CLICKS_FOR_A_MOVE = 12  # bounded: clicks on board targets until one makes a move (or a refusal shows)


@pytest.fixture(params=list(VIEWPORTS))
def screen(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Any]:
    """A page of the app on a desktop or a phone; the page's errors fail the test."""
    with app_page(browser, live_server + "/", **VIEWPORTS[request.param]) as page:
        yield page


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
            '`button.td-tile[data-value="${e.dataset.value}"]`)',
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


# ----- the keyboard alone, and what a listener hears -------------------------------------------------------
ARROWS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
TABS_TO_THE_TOOLBAR = 12  # from the board, past the zoom buttons, to Undo
WALK_LIMIT = 60  # arrow presses allowed to reach one location (the rings board is 20 points across)
KEYBOARD_MOVES = 80  # a person's moves allowed for a whole morris game against the computer
HUMAN_TURN = (
    "document.body.dataset.state === 'over' || !!document.querySelector('button[data-action=hint]:not([disabled])')"
)
# every text the live region says, kept in order (a screen reader would queue them the same way)
LISTEN_JS = """() => { window.heardNews = [];
  new MutationObserver(() => window.heardNews.push(document.querySelector('#announce').textContent))
    .observe(document.querySelector('#announce'), {childList: true, characterData: true, subtree: true}); }"""
ALL_CENTRES_JS = """() => [...document.querySelectorAll('#board [data-target]')].map((e) => {
  const r = e.getBoundingClientRect(); return [e.dataset.target, r.x + r.width / 2, r.y + r.height / 2]; })"""


def focused_target(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.target || null")


def focus_is_on_the_board(page: Any) -> bool:
    """On a location, or (while the computer thinks, nothing there to play) on the board itself."""
    return page.evaluate("!!document.activeElement.closest('#board')")


def arrow_step(positions: dict[str, tuple[float, float]], here: str, arrow: str) -> str | None:
    """Where an arrow key takes the cursor: the page's own rule (ui.session), on the locations as drawn."""
    probe = SimpleNamespace(drawing=SimpleNamespace(targets=positions), ui={"cursor": here})
    return Session.move_cursor(probe, arrow)  # type: ignore[arg-type]


def arrow_path(positions: dict[str, tuple[float, float]], start: str, goal: str) -> list[str]:
    """The fewest arrow presses from `start` to `goal` (breadth first over where each key leads)."""
    came: dict[str, tuple[str, str] | None] = {start: None}
    queue = deque([start])
    while queue and goal not in came:
        here = queue.popleft()
        for arrow in ARROWS:
            there = arrow_step(positions, here, arrow)
            if there and there not in came:
                came[there] = (here, arrow)
                queue.append(there)
    assert goal in came, f"no arrow keys lead from {start} to {goal}"
    path = []
    node = goal
    while came[node] is not None:
        node, arrow = came[node]  # type: ignore[misc]
        path.append(arrow)
    return path[::-1]


def walk_to(page: Any, name: str) -> None:
    """Arrow keys from the focused location to `name`, planned on the board as drawn and re-planned
    after every press (a rounding of the drawing may send one press elsewhere)."""
    for _ in range(WALK_LIMIT):
        here = focused_target(page)
        assert here is not None, "the focus left the board"
        if here == name:
            return
        positions = {n: (x, y) for n, x, y in page.evaluate(ALL_CENTRES_JS)}
        page.keyboard.press(arrow_path(positions, here, name)[0])
    raise AssertionError(f"the arrow keys did not reach {name} in {WALK_LIMIT} presses")


def press_on(page: Any, name: str, key: str = "Enter") -> None:
    walk_to(page, name)
    page.keyboard.press(key)


def heard(page: Any) -> list[str]:
    return page.evaluate("window.heardNews")


def test_a_whole_morris_game_by_keyboard_alone_is_heard_move_by_move(page: Any, base_url: str, shot: Any) -> None:
    """Placing, moving and taking men with arrows, Enter and Space against the computer until the game ends;
    every move, the computer's too, is said in the live region, and the focus stays on the board."""
    open_app(page, base_url)
    set_up(page, "morris", think=0.1, match="easy")
    page.evaluate(LISTEN_JS)
    assert focus_is_on_the_board(page), "Start puts the focus on the board"
    rng = random.Random(19)
    for turn in range(KEYBOARD_MOVES):
        page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
        if page.evaluate("document.body.dataset.state") == "over":  # the summary's heading has the focus
            assert page.evaluate("document.activeElement.id") == "summary-title", "the game's end is not announced"
            break
        assert focus_is_on_the_board(page), f"turn {turn}: the focus left the board after the computer's reply"
        before = move_count(page)
        stage = page.get_attribute("svg.board-morris", "data-stage")
        press_on(
            page,
            rng.choice(page.eval_on_selector_all("#board .point.legal", "els => els.map(e => e.dataset.target)")),
            rng.choice(["Enter", " "]),
        )
        if stage == "pick":  # the man chosen: now where it goes
            assert page.get_attribute("svg.board-morris", "data-stage") == "dest"
            press_on(
                page,
                rng.choice(page.eval_on_selector_all("#board .point.legal", "els => els.map(e => e.dataset.target)")),
            )
        if page.get_attribute("svg.board-morris", "data-stage") == "remove":  # a mill: take a man
            press_on(
                page,
                rng.choice(page.eval_on_selector_all("#board .point.legal", "els => els.map(e => e.dataset.target)")),
                " ",
            )
        page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")
        assert focus_is_on_the_board(page), f"turn {turn}: the focus left the board after a move"
    else:
        raise AssertionError(f"no end after {KEYBOARD_MOVES} moves of the person's")
    shot(page, "over")
    news = " ".join(heard(page))
    words = page.eval_on_selector_all("#moves li .words", "els => els.map(e => e.textContent)")
    assert "White: places a man on" in news and "Black: places a man on" in news, news[:300]
    assert "White: moves " in news and ", takes " in news, news[-300:]  # moving, and a mill's man taken
    spoken = sum(news.count(f"{who}: ") for who in ("White", "Black"))
    assert spoken == len(words) - 1, "every move (the start row aside) was said once"

    # undo by the keyboard: the U key, and the Undo button reached with Tab; the focus is never lost
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#announce').textContent.includes('taken back')")
    assert focus_is_on_the_board(page)
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)
    for _ in range(TABS_TO_THE_TOOLBAR):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "undo":
            break
    else:
        raise AssertionError("Tab never reached the Undo button")
    said = len(heard(page))
    page.keyboard.press("Enter")
    page.wait_for_function("(said) => window.heardNews.length > said", arg=said)
    assert "taken back" in heard(page)[-1]
    on = page.evaluate("document.activeElement.dataset.action || document.activeElement.closest('#board') && 'board'")
    assert on in ("undo", "board"), f"the focus went to {on} after Undo"


def test_a_rings_turn_by_keyboard_alone(page: Any, base_url: str) -> None:
    """Turns played with keys only, both seats people: stones placed with arrows and Enter, then black's
    fourth stone on circle 0,0 holds it, the circle (named with who holds it and by how much) is converted
    and the turn ended with E; every turn is said in the live region."""
    from engine.games.rings import CIRCLE_INDEX, CIRCLE_POINTS, POINT_NAMES

    circle = [POINT_NAMES[p] for p in CIRCLE_POINTS[CIRCLE_INDEX["0,0"]]]
    placements = [circle[0], circle[1], circle[2], "U3,1", circle[3], "D2,-1", circle[4]]  # black, white, ...
    open_app(page, base_url)
    set_up(page, "rings", seed=4)
    page.evaluate(LISTEN_JS)
    labels = page.eval_on_selector_all("#board .pt[data-target]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) > 200 and all(label.startswith("point ") and ": empty" in label for label in labels)
    for point in placements:
        before = move_count(page)
        assert focus_is_on_the_board(page)
        press_on(page, point, "Enter")
        page.wait_for_function(
            f"document.querySelectorAll('#moves .mv').length > {before} || "
            "!!document.querySelector('#board [data-target=end]')"
        )
    # black's last stone gives black the circle: its conversion is offered, and the circle says so
    label = page.get_attribute('#board [data-target="x0,0"]', "aria-label")
    assert label.startswith("circle 0,0, held by black 4 to 1, convert it"), label
    press_on(page, "x0,0", " ")
    page.wait_for_function("!document.querySelector('#board [data-target=\"x0,0\"].can')")
    page.keyboard.press("e")  # end the turn
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length === {len(placements)}")
    assert focus_is_on_the_board(page)
    news = heard(page)
    turns = [line for line in news if line.startswith(("Black: ", "White: "))]
    assert len(turns) == len(placements), news
    assert "convert" in turns[-1], turns[-1]


# ----- the colour-blind switch -----------------------------------------------------------------------------
SHOWN_LETTERS_JS = """() => [...document.querySelectorAll('#board .stone-letter, #panel .stone-letter')]
  .filter((t) => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
  .map((t) => t.textContent)"""


def letters_switch(page: Any) -> Any:
    if page.get_attribute("#game-menu", "open") is None:
        page.click("#game-menu summary")
    return page.locator("#game-menu [data-action=letters]")


def test_the_colour_blind_switch_letters_every_stone_and_is_remembered(page: Any, base_url: str) -> None:
    open_app(page, base_url)
    set_up(page, "sage-stones", seed=2)
    assert page.query_selector("#panel .stone, #board .stone"), "the seats' stones are drawn beside the board"
    assert page.evaluate(SHOWN_LETTERS_JS) == [], "no letters until asked for"
    switch = letters_switch(page)
    assert switch.get_attribute("aria-checked") == "false"
    switch.click()
    shown = page.evaluate(SHOWN_LETTERS_JS)
    assert shown and set(shown) <= set("RUGYOPWBC"), shown
    assert page.get_attribute("#game-menu [data-action=letters]", "aria-checked") == "true"
    assert page.evaluate("document.activeElement.id") == "game-menu-button", "the closed menu keeps the focus"
    # remembered: the next visit (the saved game opens on its board) shows them at once
    open_app(page, base_url)
    page.wait_for_selector("#board svg")
    assert page.evaluate(SHOWN_LETTERS_JS) == shown
    set_up(page, "triple-domino", seed=2)
    weight = page.eval_on_selector("#panel .td-icon .num", "e => getComputedStyle(e).fontWeight")
    assert weight == "900", "triple-domino's numbers stand out while the switch is on"
    letters_switch(page).click()
    assert page.eval_on_selector("#panel .td-icon .num", "e => getComputedStyle(e).fontWeight") != "900"
    open_app(page, base_url)
    page.wait_for_selector("#board svg")
    assert page.evaluate("document.documentElement.hasAttribute('data-letters')") is False


# ----- motion, the dark theme, large text ------------------------------------------------------------------
def test_reduced_motion_stops_every_animation(page: Any, base_url: str) -> None:
    open_app(page, base_url)
    set_up(page, "morris", think=0.1, match="easy")
    page.keyboard.press("h")
    page.wait_for_selector("#board .hint-target", timeout=AI_TIMEOUT)
    assert page.eval_on_selector("#board .hint-target", "e => getComputedStyle(e).animationName") == "hint-glow"
    page.emulate_media(reduced_motion="reduce")
    moving = page.evaluate("""() => [...document.querySelectorAll('*')].filter((e) => {
        const s = getComputedStyle(e);
        return s.animationName !== 'none' || parseFloat(s.transitionDuration) > 0; }).map((e) => e.className)""")
    assert moving == []


def test_the_dark_theme_turns_the_page_and_keeps_it_readable(screen: Any, shot: Any) -> None:
    page = screen
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(27, 25, 21)"
    problems = axe_problems(page, "home, dark")
    set_up(page, "rings", think=0.1, match="watch")
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length >= {WATCHED_MOVES}", timeout=AI_TIMEOUT)
    problems += axe_problems(page, "rings, dark")
    shot(page, "dark")
    assert not problems, "\n".join(problems)


CONTROLS = "header button, #status button, #toolbar > button, #toolbar summary, .status .turn, .status .scores"


def test_text_at_twice_the_size_loses_nothing_in_the_header_and_controls(screen: Any, shot: Any) -> None:
    """The root font at 200% (what a browser's text zoom does): every control is whole on screen and none
    lies over another."""
    page = screen
    set_up(page, "three-stones", match="people")
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    boxes = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map((e) => { const r = e.getBoundingClientRect();
           return {name: e.dataset.action || e.className || e.tagName, x: r.x, y: r.y, w: r.width, h: r.height,
                   clipped: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1}; })""",
        CONTROLS,
    )
    width = page.evaluate("document.documentElement.clientWidth")
    assert len(boxes) >= 6
    assert not [b for b in boxes if b["x"] < 0 or b["x"] + b["w"] > width + 0.5], "a control runs off the screen"
    assert not [b["name"] for b in boxes if b["clipped"]], "a control's text is cut off"
    overlaps = [
        (a["name"], b["name"])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a["x"] < b["x"] + b["w"] - 0.5
        and b["x"] < a["x"] + a["w"] - 0.5
        and a["y"] < b["y"] + b["h"] - 0.5
        and b["y"] < a["y"] + a["h"] - 0.5
    ]
    assert not overlaps
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page grew sideways"
    shot(page, "text-200")
