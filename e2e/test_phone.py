"""Every game on a phone (390×844, touch), as a new player meets it: the page holds still, every target
fits a finger (or the board zooms until it does), the focus goes where the keyboard needs it and shows
only for the keyboard, an earlier position cannot pass for the live game, and the words are a player's."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest
from e2e_support import PHONE, ROOT, app_page, open_app

pytestmark = pytest.mark.browser

FINGER = 44  # CSS px: the least a tap target may measure each way
BUTTONS = "header button, #app button, #app summary, #app select"  # everything tapped that is not the board
GAMES = ("three-stones", "morris", "rings", "sage-stones", "triple-domino")
ZOOMED_BOARDS = ("three-stones", "rings", "triple-domino")  # too dense for 44 px at a phone's width: they zoom
HUMAN_TURN = (
    "document.body.dataset.state === 'over' || !!document.querySelector('button[data-action=hint]:not([disabled])')"
)
AI_TIMEOUT = 60_000  # ms: the computer's first reply may come while its worker starts
SCAN_TIMEOUT = 90_000  # ms: the companion reads a photo in 2-5 s on two busy cores

# every target's hit box on screen: a board location's hit area (or the element), a button, a menu's summary
HIT_BOXES_JS = """(scope) => [...document.querySelectorAll(scope)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  }).map((e) => {
    const hit = e.matches('[data-target]') && e.querySelector('.hit') ? e.querySelector('.hit') : e;
    const r = hit.getBoundingClientRect();
    return {name: e.getAttribute('data-target') || e.getAttribute('data-action') || e.textContent.trim().slice(0, 20),
            x: r.x, y: r.y, width: r.width, height: r.height};
  })"""
IN_VIEW_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }"""


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    with app_page(browser, live_server + "/", **PHONE) as page:
        yield page


def start(page: Any, game: str) -> None:
    """The game from its card, set up as it comes (you against the computer, medium), by taps."""
    page.tap("[data-action=home]")
    page.tap(f'[data-game="{game}"]')
    assert page.input_value("#match") == "medium"
    page.tap("button[data-action=start]")
    page.wait_for_selector("#board svg")
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)


def tap_a_move(page: Any, game: str, rng: random.Random) -> None:
    """One move of the person's, by taps (zooming in first where the board wants it); waits for the replies."""
    before = page.eval_on_selector_all("#moves .mv", "els => els.length")
    if game == "triple-domino":
        fitting = page.query_selector_all("button.td-tile.fits")
        if fitting:
            rng.choice(fitting).tap()
        places = page.eval_on_selector_all("#board .open.fits", "els => els.map(e => e.dataset.target)")
        target = f'#board [data-target="{rng.choice(places)}"]' if places else "[data-target=draw]:not(.muted)"
        if not places and not page.query_selector(target):
            target = "[data-target=pass]"
    else:  # a legal target well inside the board as shown (a zoomed board shows part of itself)
        legal = page.eval_on_selector_all(
            "#board [data-target].legal, #board .forced.live",
            """els => {
            const box = document.querySelector('#board svg').getBoundingClientRect();
            return els.filter((e) => { const r = e.getBoundingClientRect();
                const x = r.x + r.width / 2, y = r.y + r.height / 2;
                return x > box.x + 30 && x < box.right - 30 && y > box.y + 30 && y < box.bottom - 30; })
              .map(e => e.dataset.target); }""",
        )
        target = f'#board [data-target="{rng.choice(legal)}"]'
    page.tap(target)
    if (
        game == "rings"
        and page.query_selector("#board svg.zoomed")
        and not page.query_selector("#board [data-target=end]")
    ):
        page.tap(target)  # the first tap zoomed in there: this one plays
    if page.query_selector("#board [data-target=end]"):
        page.tap("#board [data-target=end]")
    if page.query_selector('#board svg[data-stage="remove"]'):  # a morris mill: take a man
        page.tap(f'#board [data-target="{page.eval_on_selector("#board .point.legal", "e => e.dataset.target")}"]')
    page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")
    page.wait_for_function(HUMAN_TURN, timeout=AI_TIMEOUT)


def too_small(page: Any, scope: str, inside: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """The targets in `scope` (within the box `inside`, if given) smaller than a finger either way."""
    boxes = page.evaluate(HIT_BOXES_JS, scope)
    if inside:
        boxes = [
            b
            for b in boxes
            if inside["x"] <= b["x"] + b["width"] / 2 <= inside["x"] + inside["width"]
            and inside["y"] <= b["y"] + b["height"] / 2 <= inside["y"] + inside["height"]
        ]
    return [b for b in boxes if b["width"] < FINGER - 0.5 or b["height"] < FINGER - 0.5]


def zoom_until_a_finger_fits(page: Any, game: str) -> None:
    """Zoom the board in: a tap where points are far too small (rings), else the + button."""
    if game == "rings":
        page.tap("#board svg", position={"x": 190, "y": 220})
    for _ in range(6):
        board = page.locator("#board svg").bounding_box()
        if not too_small(page, "#board [data-target]", board):
            return
        page.tap("#board .zoom-in")
    raise AssertionError(f"{game}: still too small at the closest zoom")


@pytest.mark.parametrize("game", GAMES)
def test_the_page_holds_still_and_every_target_fits_a_finger(phone: Any, game: str, shot: Any) -> None:
    page = phone
    start(page, game)
    assert page.evaluate("scrollY") == 0, "Start left the page scrolled"
    assert page.evaluate(IN_VIEW_JS, "#status")
    rng = random.Random(game)
    for _ in range(3):
        tap_a_move(page, game, rng)
        page.wait_for_timeout(300)  # any scrolling the page did would be done by now
        assert page.evaluate("scrollY") == 0, "a move scrolled the page"
        assert page.evaluate(IN_VIEW_JS, "#status"), "the status bar left the screen"
        assert page.evaluate(IN_VIEW_JS, "#board svg") or game == "sage-stones"
    if game == "sage-stones":  # the tray shows what was rolled, and it stayed on screen
        assert page.evaluate("document.querySelector('#board .tray').getBoundingClientRect().top") >= 0
    shot(page, "played")

    # every button and menu on the screen is at least 44 × 44
    assert not too_small(page, BUTTONS)
    page.tap("#game-menu summary")
    assert page.is_visible("#game-menu [data-action=letters]"), "the colour-blind switch is measured with the menu"
    assert not too_small(page, "#game-menu button")
    page.tap("#game-menu summary")
    # every board location: at the board's size, or zoomed in where it is too dense for that
    if game in ZOOMED_BOARDS:
        assert page.query_selector("#board svg[data-zoom]")
        zoom_until_a_finger_fits(page, game)
        if game != "triple-domino":  # a young layout fits a finger unzoomed; these boards never do
            assert page.query_selector("#board svg.zoomed")
        shot(page, "zoomed")
    board = page.locator("#board svg").bounding_box()
    assert not too_small(page, "#board [data-target]", board)
    # the page is no wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_every_button_of_every_screen_fits_a_finger(phone: Any) -> None:
    """Home, set-up (every option shown), the scan screen and a game's history view: no button under 44 × 44."""
    page = phone
    assert not too_small(page, BUTTONS), "home"
    page.tap('[data-game="sage-stones"]')
    page.tap("#more-options summary")
    assert page.is_visible("#seed")
    assert not too_small(page, BUTTONS), "set-up"
    page.tap("[data-action=home]")
    page.tap("[data-action=scan]")
    page.wait_for_selector("[data-action^=scan]")
    assert not too_small(page, BUTTONS), "scan"
    start(page, "morris")
    tap_a_move(page, "morris", random.Random(1))
    page.locator("#moves li button").nth(1).tap()
    page.wait_for_selector("#board-area.past")
    assert page.query_selector("#status button[data-action=continue]")
    assert not too_small(page, BUTTONS), "history view"


@pytest.mark.parametrize("game", GAMES)
def test_an_earlier_position_is_unmistakable(phone: Any, game: str, shot: Any) -> None:
    page = phone
    start(page, game)
    rng = random.Random(game)
    for _ in range(2):
        tap_a_move(page, game, rng)
    total = page.eval_on_selector_all("#moves .mv", "els => els.length")
    page.locator("#moves li button").nth(1).tap()  # the first move
    page.wait_for_selector("#board-area.past")
    assert page.text_content("#viewing .viewing-badge").startswith(
        "Viewing move 1 of"
    ) and f"of {total}" in page.text_content("#status")
    assert page.evaluate(IN_VIEW_JS, "#status")  # the way back is in the pinned status bar
    assert page.query_selector("#status [data-turn]") is None  # no "… to play", no "Drawing…"
    assert "Drawing" not in page.text_content("#status") and "rolls…" not in page.text_content("#board-area")
    assert not page.query_selector("#board [data-target]")  # nothing to play on a past position
    if game == "sage-stones":
        assert not page.query_selector("#board .tray .die") and "rolled" not in page.text_content("#status")
    if game == "three-stones":
        assert not page.query_selector("#panel [data-drawn]")
    filter_ = page.evaluate("getComputedStyle(document.querySelector('#board')).filter")
    assert "saturate" in filter_, "the past is drawn dimmed"
    shot(page, "past")
    page.tap("#status button[data-action=live]")
    page.wait_for_selector("#board-area:not(.past)")
    assert page.query_selector("#status [data-turn]") and not page.query_selector("#viewing .viewing-badge")


def test_focus_goes_to_the_board_and_shows_only_for_the_keyboard(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_app(page, live_server + "/")
        page.click('[data-game="morris"]')
        page.select_option("#match", "people")
        page.focus("button[data-action=start]")
        page.keyboard.press("Enter")  # started from the keyboard: the board has the focus, no Tabs needed
        page.wait_for_selector("svg.board-morris")
        assert page.evaluate("document.activeElement.closest('#board') !== null")
        assert page.evaluate("document.activeElement.matches(':focus-visible')")
        page.keyboard.press("Enter")  # plays where the cursor stands
        page.wait_for_function("document.querySelectorAll('#moves .mv').length === 1")
        assert page.evaluate("document.activeElement.closest('#board') !== null")  # still on the board
        # a click plays and leaves no focus ring beside the last-move ring
        target = page.eval_on_selector("#board .point.legal", "e => e.dataset.target")
        page.click(f'#board [data-target="{target}"]')
        page.wait_for_function("document.querySelectorAll('#moves .mv').length === 2")
        assert page.evaluate("document.activeElement.closest('#board') !== null")
        assert not page.evaluate("document.activeElement.matches(':focus-visible')")
        ring = page.evaluate(
            "getComputedStyle(document.activeElement.querySelector('.focus-ring') || document.activeElement).stroke"
        )
        assert ring in ("none", ""), "a blue ring stays where the mouse played"
    finally:
        context.close()


def test_set_up_reads_as_a_choice_and_keyboard_help_is_for_keyboards(
    phone: Any, browser: Any, live_server: str
) -> None:
    page = phone
    page.tap('[data-game="morris"]')
    assert page.input_value("#match") == "medium"
    assert "You against the computer (medium)" in page.text_content("#match")
    assert not page.is_visible("#opt-no_removal_draw")  # rule switches wait under More options
    assert page.query_selector("#seed") is None  # morris has no chance: no seed anywhere
    page.tap("#more-options summary")
    assert page.is_visible("#opt-no_removal_draw") and page.query_selector("#seed") is None
    assert page.eval_on_selector_all(".how-to-play h4", "els => els.length") >= 3
    assert page.query_selector(".how-to-play svg.rules-diagram")
    page.tap("[data-action=home]")
    page.tap('[data-game="sage-stones"]')
    page.tap("#more-options summary")
    assert page.is_visible("#seed")  # dice: the seed matters here
    page.tap("button[data-action=start]")
    page.wait_for_selector("#board svg")
    # the toolbar is one row; keyboard help is not shown to a touch screen
    tops = page.eval_on_selector_all("#toolbar > *", "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(tops) == 4 and len(set(tops)) == 1
    page.tap("#rules summary")
    assert not page.is_visible("#rules .keys")
    desktop = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        other = desktop.new_page()
        open_app(other, live_server + "/")
        other.click('[data-game="sage-stones"]')
        other.click("button[data-action=start]")
        other.click("#rules summary")
        assert other.is_visible("#rules .keys")
    finally:
        desktop.close()


def test_the_move_list_reads_in_words(phone: Any) -> None:
    page = phone
    page.tap('[data-game="three-stones"]')
    page.select_option("#match", "people")
    page.tap("#more-options summary")
    page.select_option("#opt-mode", "pure-skill")
    page.tap("button[data-action=start]")
    page.wait_for_selector("svg.board-three-stones")
    page.tap("#panel button.choose[data-value=clear]")
    target = page.eval_on_selector("#board .pocket.legal", "e => e.dataset.target")
    page.tap(f'#board [data-target="{target}"]')
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 1")
    row = page.text_content("#moves li:nth-child(2)")
    assert f"White: clear stone on {target}" in row and f"clear@{target}" in row  # the colon is for a listener only
    assert not page.query_selector("#moves li:nth-child(2) .dot")  # no white dot beside a clear stone


@pytest.fixture
def phone_with_scanner(browser: Any) -> Iterator[Any]:
    """A phone on the app as `./stones start` serves it: the photo API behind the page."""
    from e2e_support import DIST, ensure_built, serving
    from server.app import create_app
    from vision.api import routes

    ensure_built()
    with serving(create_app(DIST, api_routes=routes)) as url:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        open_app(page, url + "/")
        yield page
        context.close()


def test_the_scanned_board_zooms_until_a_finger_fits(phone_with_scanner: Any) -> None:
    """The rings photo's locations are far smaller than a finger on a phone: a tap zooms there, and then every
    location in view, and every colour of its palette, is at least 44 × 44."""
    page = phone_with_scanner
    page.tap("button[data-action=scan]")
    page.wait_for_selector('[data-companion="ready"]')
    page.check('input[name="scan-game"][value="rings"]')
    page.set_input_files("#scan-file", str(ROOT / "tests" / "vision" / "photos" / "rings_3000.jpg"))
    page.wait_for_selector("#scan-overlay", timeout=SCAN_TIMEOUT)
    photo = page.locator("#scan-overlay").bounding_box()
    assert too_small(page, "#scan-overlay [data-cell]", photo), "at the fitted size no finger fits (else no zoom)"
    assert page.get_attribute("#scan-overlay", "data-zoom-tap")
    page.tap("#scan-overlay", position={"x": photo["width"] / 2, "y": min(photo["height"] / 2, 150)})
    page.wait_for_selector("#scan-overlay.zoomed")
    photo = page.locator("#scan-overlay").bounding_box()
    in_view = page.evaluate(HIT_BOXES_JS, "#scan-overlay [data-cell]")
    assert in_view and not too_small(page, "#scan-overlay [data-cell]", photo)
    cell = page.eval_on_selector_all(
        "#scan-overlay [data-cell]",
        """els => {  // one well inside the view
        const box = document.querySelector('#scan-overlay').getBoundingClientRect();
        const top = Math.max(box.top, 0) + 30, bottom = Math.min(box.bottom, innerHeight) - 30;
        return els.map((e) => [e.dataset.cell, e.getBoundingClientRect()]).filter(([, r]) =>
          r.x > box.x + 30 && r.right < box.right - 30 && r.y > top && r.bottom < bottom)[0][0]; }""",
    )
    page.tap(f'#scan-overlay [data-cell="{cell}"]')
    page.wait_for_selector("#scan-palette")
    assert not too_small(page, "#scan-palette [data-colour]")
