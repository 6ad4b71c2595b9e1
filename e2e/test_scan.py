"""Scan a board, end to end in Chromium: the built app and the real companion on one origin.

A committed test photo goes through the page's file chooser to POST /api/read (the real
OpenCV pipeline), and what the page draws over the photo is compared with the photo's
ground truth: every marker, measured on screen, sits on a true location and shows
what lies there. Then one cell is corrected from its palette, Score must show the engine's
score of the corrected board, and Continue opens that board as a saved game. A file
that is not a photo gets the companion's reason; an app served without the companion
says what to start before any photo is taken.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from e2e_support import DIST, LOCAL_SCHEMES, ROOT, ensure_built, open_app, serving, stones

from engine import score_position

pytestmark = pytest.mark.browser

PHOTOS = ROOT / "tests" / "vision" / "photos"
READ_TIMEOUT = 90_000  # ms: the companion reads a photo in 2-5 s on two busy cores

# Each marker as shown: its location, colour, classes and centre in the photo's own pixels
# (measured from the screen, so the overlay's scaling onto the photo is part of the check).
MARKERS_JS = """() => {
  const svg = document.querySelector('#scan-overlay');
  const box = svg.getBoundingClientRect();
  const view = svg.viewBox.baseVal;
  return [...svg.querySelectorAll('[data-cell]')].map((g) => {
    const hit = g.querySelector('.hit').getBoundingClientRect();
    return {cell: g.dataset.cell, colour: g.dataset.colour, doubt: g.classList.contains('doubt'),
            checked: g.classList.contains('checked'),
            x: view.x + (hit.x + hit.width / 2 - box.x) / box.width * view.width,
            y: view.y + (hit.y + hit.height / 2 - box.y) / box.height * view.height};
  });
}"""


def set_cell(page: Any, cell: str, colour: str) -> None:
    """Tap a location, pick what is there from its palette."""
    page.click(f'#scan-overlay [data-cell="{cell}"]')
    page.click(f'#scan-palette [data-colour="{colour}"]')
    assert page.query_selector("#scan-palette") is None


@pytest.fixture(scope="module")
def companion() -> Iterator[str]:
    """The app as `./stones start` serves it: the built files and the photo API."""
    from vision.api import routes
    from server.app import create_app

    ensure_built()
    with serving(create_app(DIST, api_routes=routes)) as url:
        yield url


@pytest.fixture(scope="module")
def static_only() -> Iterator[str]:
    """The same built app with no photo API behind it (any static file server)."""
    from server.app import create_app

    ensure_built()
    with serving(create_app(DIST)) as url:
        yield url


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """open_page(origin, width, height): a fresh page on the app; fails the test on any non-local request."""
    contexts: list[tuple[Any, str, list[str], list[str]]] = []

    def make(origin: str, width: int = 390, height: int = 844) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=origin)
        remote: list[str] = []
        errors: list[str] = []
        context.on(
            "request",
            lambda r: remote.append(r.url)
            if not (r.url.startswith(origin + "/") or r.url.startswith(LOCAL_SCHEMES))
            else None,
        )
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        contexts.append((context, origin, remote, errors))
        open_app(page, origin + "/")
        return page

    yield make
    for context, _, remote, errors in contexts:
        context.close()
        assert not remote, f"the page requested non-local URLs: {remote[:10]}"
        assert not errors, f"the page threw: {errors[:3]}"


def truth_of(name: str) -> dict[str, Any]:
    return json.loads((PHOTOS / f"{name}.json").read_text())


def scan_photo(page: Any, game: str, photo: Path | dict[str, Any]) -> None:
    """Home -> Scan a board -> the game -> a photo through the file chooser."""
    page.click("[data-action=home]")
    page.click("button[data-action=scan]")
    page.wait_for_selector('[data-companion="ready"]')
    page.check(f'input[name="scan-game"][value="{game}"]')
    page.set_input_files("#scan-file", photo if isinstance(photo, dict) else str(photo))


def markers_against_truth(page: Any, truth: dict[str, Any]) -> dict[str, str | None]:
    """Check every marker sits on a true location and shows its colour; returns location -> true colour."""
    shown = page.evaluate(MARKERS_JS)
    ids = list(truth["cell_px"])
    px = truth["cell_px"]
    pitch = min(math.dist(px[a], px[b]) for a in ids[:6] for b in ids if a != b)
    true_colour: dict[str, str | None] = {}
    for marker in shown:
        nearest = min(ids, key=lambda i: math.dist(px[i], (marker["x"], marker["y"])))
        off = math.dist(px[nearest], (marker["x"], marker["y"]))
        assert off < 0.25 * pitch, f"{marker['cell']} is drawn {off:.0f} px from every true location"
        true_colour[marker["cell"]] = truth["cells"][nearest]
        assert marker["colour"] == (truth["cells"][nearest] or "empty"), (marker, nearest)
    assert len(shown) == len(truth["cells"]) and len(set(true_colour)) == len(shown)
    return true_colour


def test_scan_check_correct_score_and_play_on_from_a_phone(open_page, companion: str, shot) -> None:
    page = open_page(companion, 390, 844)
    page.click("button[data-action=scan]")
    page.wait_for_selector('[data-companion="ready"]')
    shot(page, "pick")
    truth = truth_of("three-stones_3000")
    scan_photo(page, "three-stones", PHOTOS / truth["image"])
    page.wait_for_selector("text=Reading the board…")
    page.wait_for_selector("#scan-overlay", timeout=READ_TIMEOUT)
    width, height = truth["size"]  # the photo is drawn in its own pixels
    assert page.get_attribute("#scan-overlay", "data-fit") == f"0.0 0.0 {width:.1f} {height:.1f}"
    assert page.get_attribute("#scan-overlay image", "width") == str(width)
    # the photo and its overlay fit the phone's width
    photo_box = page.locator(".scan-photo").bounding_box()
    assert photo_box["x"] >= 0 and photo_box["x"] + photo_box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cells = markers_against_truth(page, truth)
    doubtful = page.eval_on_selector_all("#scan-overlay .doubt", "els => els.length")
    assert page.get_attribute(".scan-count", "data-to-check") == str(doubtful)
    shot(page, "read")

    # tap an empty location: its palette offers empty and each colour; white is picked, marked as checked
    empty = sorted(loc for loc, colour in cells.items() if colour is None)[0]
    page.click(f'#scan-overlay [data-cell="{empty}"]')
    assert page.eval_on_selector_all("#scan-palette [data-colour]", "els => els.map(e => e.dataset.colour)") == [
        "empty",
        "white",
        "black",
        "clear",
    ]
    assert page.get_attribute('#scan-palette [data-colour="empty"]', "aria-pressed") == "true"
    page.click('#scan-palette [data-colour="white"]')
    marker = page.locator(f'#scan-overlay [data-cell="{empty}"]')
    assert marker.get_attribute("data-colour") == "white"
    assert "checked" in marker.get_attribute("class").split()
    assert "1 corrected" in page.text_content(".scan-counts")
    corrected = {**cells, empty: "white"}

    page.click("button[data-action=scan-score]")
    page.wait_for_selector("[data-scan-score]")
    expected = score_position({"game": "three-stones", "cells": corrected})
    shown = {side: int(page.text_content(f'[data-scan-score="{side}"]')) for side in expected["scores"]}
    assert shown == expected["scores"]
    shot(page, "scored")
    # the score follows a further correction
    set_cell(page, empty, "black")
    corrected[empty] = "black"
    expected = score_position({"game": "three-stones", "cells": corrected})
    assert {s: int(page.text_content(f'[data-scan-score="{s}"]')) for s in expected["scores"]} == expected["scores"]

    page.click("button[data-action=scan-play]")
    page.wait_for_selector("svg.board-three-stones")
    message = page.text_content("#message")
    assert "Playing on from the scanned board" in message and "not given" not in message and "_" not in message
    on_board = {loc: colour for loc, colour in corrected.items() if colour}
    assert stones(page) == on_board
    saved = json.loads(page.evaluate("localStorage.getItem('stones/current-game')"))
    assert saved["start"]["cells"] == corrected
    shot(page, "playing")


def test_many_colour_board_on_a_desktop(open_page, companion: str, shot) -> None:
    page = open_page(companion, 1280, 800)
    truth = truth_of("rings_3000")
    scan_photo(page, "rings", PHOTOS / truth["image"])
    page.wait_for_selector("#scan-overlay", timeout=READ_TIMEOUT)
    cells = markers_against_truth(page, truth)
    # the photo fits the window's height, with the panel beside it
    photo_box = page.locator(".scan-photo").bounding_box()
    side_box = page.locator("#scan-side").bounding_box()
    assert photo_box["height"] <= 800 and side_box["x"] >= photo_box["x"] + photo_box["width"]
    stone = sorted(loc for loc, colour in cells.items() if colour)[0]
    page.click(f'#scan-overlay [data-cell="{stone}"]')
    assert page.eval_on_selector_all("#scan-palette [data-colour]", "els => els.length") == 10  # no cycling through
    other = next(c for c in ("red", "blue", "green") if c != cells[stone])
    page.click(f'#scan-palette [data-colour="{other}"]')
    assert page.get_attribute(f'#scan-overlay [data-cell="{stone}"]', "data-colour") == other
    # from the keyboard: Enter opens the palette on the colour there now; a choice keeps the focus on the location
    empty = sorted(loc for loc, colour in cells.items() if colour is None)[0]
    page.focus(f'#scan-overlay [data-cell="{empty}"]')
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.colour") == "empty"
    page.focus('#scan-palette [data-colour="black"]')
    page.keyboard.press("Enter")
    assert page.get_attribute(f'#scan-overlay [data-cell="{empty}"]', "data-colour") == "black"
    assert page.evaluate("document.activeElement.getAttribute('data-cell')") == empty
    # a colour misnamed on every stone (dark blue glass read black): its count sets them all at once
    shown = {marker["cell"]: marker["colour"] for marker in page.evaluate(MARKERS_JS)}
    colour = max((c for c in set(shown.values()) if c != "empty"), key=list(shown.values()).count)
    into = next(c for c in ("purple", "yellow", "orange", "white", "clear") if c not in shown.values())
    page.click(f'#scan-side button[data-action="scan-group"][data-colour="{colour}"]')
    assert page.evaluate("document.activeElement.closest('#scan-group') !== null")  # the choices take the focus
    shot(page, "group")
    page.click(f'#scan-group [data-colour="{into}"]')
    assert page.query_selector("#scan-group") is None
    after = {marker["cell"]: marker for marker in page.evaluate(MARKERS_JS)}
    moved = [cell for cell, c in shown.items() if c == colour]
    assert all(after[cell]["colour"] == into and after[cell]["checked"] for cell in moved)
    assert all(after[cell]["colour"] == c for cell, c in shown.items() if c != colour)
    assert f"{len(moved)} stones set from {colour} to {into}." in page.text_content("#scan-message")
    assert page.evaluate("document.activeElement.dataset.colour") == into  # the focus on the count it became
    page.click("button[data-action=scan-score]")
    page.wait_for_selector("[data-scan-score]")
    shot(page)


def test_a_file_that_is_no_photo_gets_the_companions_reason(open_page, companion: str, shot) -> None:
    page = open_page(companion)
    scan_photo(
        page, "morris", {"name": "board.jpg", "mimeType": "image/jpeg", "buffer": b"a shopping list, not a photo"}
    )
    page.wait_for_selector("#scan-error", timeout=READ_TIMEOUT)
    text = page.text_content("#scan-error")
    assert "could not read this photo: not an image" in text and "Choose a photo" in text
    assert page.is_enabled("button[data-action=scan-file]")  # try again at once
    assert page.is_checked('input[name="scan-game"][value="morris"]')
    shot(page)


def test_a_position_that_cannot_be_played_says_why(open_page, companion: str, shot) -> None:
    page = open_page(companion)
    truth = truth_of("morris_3002")  # white has all nine pieces on the board
    assert sum(colour == "white" for colour in truth["cells"].values()) == 9
    scan_photo(page, "morris", PHOTOS / truth["image"])
    page.wait_for_selector("#scan-overlay", timeout=READ_TIMEOUT)
    cells = markers_against_truth(page, truth)
    empty = sorted(loc for loc, colour in cells.items() if colour is None)[0]
    set_cell(page, empty, "white")  # a tenth white piece
    page.click("button[data-action=scan-play]")
    message = page.text_content("#scan-message")
    assert "cannot start a game" in message and "white has 9 pieces, the position shows 10" in message
    assert page.query_selector("#scan-overlay") is not None  # still on the scan, the correction kept
    assert page.get_attribute(f'#scan-overlay [data-cell="{empty}"]', "data-colour") == "white"
    shot(page)


def test_without_the_companion_the_page_says_what_to_start(open_page, static_only: str, shot) -> None:
    page = open_page(static_only)
    page.click("button[data-action=scan]")
    page.wait_for_selector('[data-companion="missing"]')
    assert "The scanner runs on the computer that started Stones; open this page from there" in page.text_content(
        "#scan-status"
    )
    assert not page.is_enabled("button[data-action=scan-camera]")
    assert not page.is_enabled("button[data-action=scan-file]")
    shot(page)


def test_a_companion_gone_by_the_time_of_the_photo_says_what_to_start(open_page, companion: str, shot) -> None:
    page = open_page(companion)
    truth = truth_of("morris_3002")
    page.route("**/api/read", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    scan_photo(page, "morris", PHOTOS / truth["image"])  # the check found it; the upload finds nobody
    page.wait_for_selector('[data-companion="missing"]', timeout=READ_TIMEOUT)
    assert "The scanner runs on the computer that started Stones; open this page from there" in page.text_content(
        "#scan-status"
    )
    assert page.query_selector("#scan-error") is None  # said once, in the box
    assert not page.is_enabled("button[data-action=scan-file]")
    page.unroute("**/api/read")
    page.click("button[data-action=scan-recheck]")
    page.wait_for_selector('[data-companion="ready"]')
    assert page.is_checked('input[name="scan-game"][value="morris"]')
    shot(page)
