"""The app around the games: start-up, home and set-up screens, phone and desktop layouts, offline."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from e2e_support import DIST, open_app, play_moves, record_timing, serving, start_three_stones, stones

from engine import get_game

pytestmark = pytest.mark.browser


def test_cold_start_home_lists_the_five_games(page, base_url, shot, console_errors) -> None:
    seconds = open_app(page, base_url)
    ready_ms = page.evaluate("window.stonesReadyAt")
    record_timing("cold_start_s", ready_ms / 1000)
    print(f"cold start: page ready {ready_ms / 1000:.2f} s after navigation ({seconds:.2f} s seen by the test)")
    cards = page.eval_on_selector_all(".game-card", "els => els.map(e => e.getAttribute('data-game'))")
    assert cards == ["three-stones", "morris", "rings", "sage-stones", "triple-domino"]
    assert page.is_enabled('button.game-card[data-game="three-stones"]')
    for soon in page.query_selector_all(".game-card.soon"):
        assert "coming soon" in soon.text_content()
    shot(page)
    assert not console_errors


# What the first screen (the list of games) must not wait for: it shows no board, scan or computer player.
NOT_FOR_THE_FIRST_SCREEN_FILES = {"ai-worker.js", "zoom.js"}
NOT_FOR_THE_FIRST_SCREEN_MODULES = (
    "boards",
    "engine",
    "ui.pages",
    "ui.scan",
    "ui.session",
    "ui.think",
    "controllers.page",
    "controllers.computer",
    "html",
    "pyscript.display",
    "pyscript.fetch",
    "pyscript.storage",
    "pyscript.websocket",
    "pyscript.events",
    "pyscript.workers",
)


def test_the_first_screen_waits_for_nothing_it_does_not_show(page, base_url) -> None:
    """Issue 20, item 16: the home screen is drawn and ready before any board, engine, scan or worker module is
    loaded, nor `html` (its entity table) or the parts of PyScript's package the page does not use (PyScript imported
    them with `import pyscript`, build.py made them lazy): Python's own modules as imported then, the page's requests
    from the browser's resource timing."""
    open_app(page, base_url)
    early = page.evaluate("""performance.getEntriesByType('resource')
        .filter((e) => e.startTime < window.stonesReadyAt).map((e) => e.name.split('/').pop())""")
    assert "engine.zip" in early  # the timing sees the start's own requests
    assert not NOT_FOR_THE_FIRST_SCREEN_FILES & set(early), early
    imported = page.evaluate("window.stonesStartModules") or []
    assert "ui.home" in imported, "the page lists what its first screen imported"
    assert not [m for m in imported if m.split(".")[0] == "boards" or m.startswith(NOT_FOR_THE_FIRST_SCREEN_MODULES)]
    # the rest comes after: in the browser's idle time, and the zoom and the worker are asked for
    page.wait_for_function("performance.getEntriesByType('resource').some((e) => e.name.endsWith('/zoom.js'))")
    page.wait_for_function("window.stonesAI.status !== 'idle'")
    page.click('[data-game="morris"]')
    page.wait_for_selector("#setup")


def test_pyscript_fetches_no_config(page, base_url) -> None:
    """Issue 20, item 16: PyScript's config is on the page (index.html's script tag), not a file fetched first."""
    open_app(page, base_url)
    fetched = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name.split('/').pop())")
    assert any(name.startswith("core-") for name in fetched)  # PyScript itself is loaded
    assert "pyscript.json" not in fetched, fetched


def test_pyscript_opens_no_package_cache(page, base_url) -> None:
    """Issue 20, item 16: PyScript's Pyodide engine opened its cache of installed packages (an IndexedDB database)
    at every start and waited for it before taking the interpreter, between Pyodide up and the first screen; the
    page installs no packages, so build.py has it open none."""
    open_app(page, base_url)
    listed = "indexedDB.databases().then((found) => found.map((database) => database.name))"
    page.wait_for_function(f"() => {listed}.then((names) => names.includes('IDBMap/@pyscript.fs'))")  # its other one
    databases = page.evaluate(listed)
    assert not [name for name in databases if re.search(r"@\d+\.\d+\.\d+$", name)], databases  # origin@version


USUAL_COLD_START_MS = 5000  # the app's cold start on two quiet cores (bench/web.py): about 4.9 s


def test_the_loading_screen_moves_nothing_through_a_usual_start(page, base_url) -> None:
    """Issue 20, item 16: an animation's every frame costs CPU while Pyodide starts on the same cores, so the
    loading screen's spinner holds still for a usual start (and turns once a start takes longer)."""
    page.route("**/pyodide.asm.wasm", lambda route: None)  # never answered: the page stays on its loading screen
    page.goto(base_url, wait_until="domcontentloaded")
    page.wait_for_selector("#loading .spinner")
    delays = page.evaluate("document.getAnimations().map((a) => a.effect.getComputedTiming().delay)")
    assert delays, "the spinner is animated (later)"
    assert min(delays) >= USUAL_COLD_START_MS, delays


HOLD_SECONDS = 1.5  # long enough that a file held back cannot arrive before Pyodide is asked for, even on busy cores
# what python.js needs to ask for Pyodide (pyodide-start.js: Python from its snapshot; the last is a folder)
PYTHONS_OWN = ("/", "/index.html", "/python.js", "/pyodide-start.js", "/pyodide/")


class HeldBack:
    """The app's server, answering every request but the page, python.js and Pyodide's files HOLD_SECONDS late."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.limits = app.limits  # the connection limits uvicorn is run with (server.serve)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and not (path in PYTHONS_OWN or path.startswith(PYTHONS_OWN[-1])):
            await asyncio.sleep(HOLD_SECONDS)
        await self.app(scope, receive, send)


def test_pyodide_is_asked_for_before_any_other_file_arrives(browser) -> None:
    """Issue 20, item 16: nothing stands between the page and loadPyodide: not start.js or ai.js, not PyScript,
    not the first screen's files (all held back here), so Python starts as soon as python.js and Pyodide's
    loader arrive."""
    from server.app import create_app

    with serving(HeldBack(create_app(DIST))) as url:
        context = browser.new_context()
        try:
            page = context.new_page()
            open_app(page, url + "/")  # the page still starts when the rest comes late
            asked = page.evaluate("performance.getEntriesByName('stones: Pyodide asked for')[0].startTime")
            held = page.evaluate("""[...performance.getEntriesByType('resource')]
                .filter((e) => !e.name.includes('/pyodide/') && !['python.js', 'pyodide-start.js']
                    .some((own) => e.name.endsWith('/' + own)))
                .map((e) => [new URL(e.name).pathname, e.responseEnd])""")
        finally:
            context.close()
    first_held = min(held, key=lambda entry: entry[1])
    assert asked < first_held[1], f"Pyodide asked for at {asked:.0f} ms, after {first_held[0]} arrived"


# every label and control of the "Who plays" box: [what, left, top, right, bottom]
WHO_PLAYS_BOXES = """() => [...document.querySelectorAll('#seats label:not(.sr-only), #seats select, #seats input')]
    .map((e) => { const r = e.getBoundingClientRect();
        return [e.id || e.htmlFor || e.textContent, r.left, r.top, r.right, r.bottom]; })"""


# each menu of the box: its width, the choice it shows and that text's width in the menu's font
MENUS_SHOWN = """() => { const c = document.createElement('canvas').getContext('2d');
    return [...document.querySelectorAll('#seats select')].map((e) => { c.font = getComputedStyle(e).font;
        const text = e.selectedOptions[0].text; return [e.id, e.getBoundingClientRect().width, text, c.measureText(text).width];
    }); }"""


@pytest.mark.parametrize("width", [1100, 800])
def test_who_plays_fits_its_box_and_shows_each_choice_whole(page, base_url, shot, width: int) -> None:
    """The seat menus and their names side by side: none runs into the next or out of the box, and the line-up
    menu is wide enough for its choices ("You against the computer (medium)" was cut to "You against the c")."""
    page.set_viewport_size({"width": width, "height": 900})
    open_app(page, base_url)
    page.click('[data-game="sage-stones"]')
    box = page.eval_on_selector("#seats", "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }")
    controls = page.evaluate(WHO_PLAYS_BOXES)
    for name, left, _top, right, _bottom in controls:
        assert box[0] <= left and right <= box[1] + 0.5, f"{name} runs out of the box: {left:.0f}-{right:.0f} of {box}"
    for i, (a, al, at, ar, ab) in enumerate(controls):
        for b, bl, bt, br, bb in controls[i + 1 :]:
            apart = ar <= bl + 0.5 or br <= al + 0.5 or ab <= bt + 0.5 or bb <= at + 0.5
            assert apart, f"{a} and {b} overlap"
    for name, width_shown, text, text_width in page.evaluate(MENUS_SHOWN):
        assert width_shown > text_width + 20, f"{name} ({width_shown:.0f} px) cuts {text!r} ({text_width:.0f} px)"
    shot(page, f"who-plays-{width}")


def test_setup_form_follows_the_options_schema(page, base_url, shot) -> None:
    open_app(page, base_url)
    page.click('[data-game="three-stones"]')
    for opt in get_game("three-stones").describe()["options"]:
        field = page.locator(f'[name="opt:{opt["name"]}"]')
        if opt["choices"]:
            assert field.evaluate("e => e.tagName") == "SELECT"
            assert field.input_value() == str(opt["default"])
        elif opt["type"] == "int":
            assert field.get_attribute("type") == "number"
            assert field.input_value() == str(opt["default"])
            if opt["minimum"] is not None:
                assert field.get_attribute("min") == str(opt["minimum"])
            if opt["maximum"] is not None:
                assert field.get_attribute("max") == str(opt["maximum"])
    # the usual line-up first: you against the computer (medium); the rule switches wait under More options
    assert page.input_value("#match") == "medium"
    assert page.eval_on_selector_all("#seats .seat select", "els => els.map(e => e.value)") == ["human", "medium"]
    assert not page.is_visible('[name="opt:mode"]') and not page.is_visible("#seed")
    page.click("#more-options summary")
    assert page.is_visible('[name="opt:mode"]') and page.is_visible("#seed")  # the pouch deals by chance
    page.select_option("#match", "people")
    assert page.eval_on_selector_all("#seats .seat select", "els => els.map(e => e.value)") == ["human", "human"]
    page.select_option("#seat-white", "hard")
    assert page.input_value("#match") == "custom"
    # a bad combination is explained before starting
    page.fill('[name="opt:clock_white_minutes"]', "30")
    page.dispatch_event('[name="opt:clock_white_minutes"]', "change")
    assert "clock" in page.text_content("#setup-error")
    page.click("button[data-action=start]")
    assert page.query_selector("svg.board-three-stones") is None
    shot(page)


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_layout_fits_phone_and_desktop(browser, live_server, width, height, shot) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_server)
    page = context.new_page()
    remote: list[str] = []
    context.on(
        "request", lambda r: remote.append(r.url) if not r.url.startswith((live_server, "data:", "blob:")) else None
    )
    try:
        open_app(page, live_server + "/")
        shot(page, "home")
        start_three_stones(page, mode="pure-skill", seed=12)
        play_moves(page, 9)
        shot(page, "play")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
        board = page.locator("svg.board-three-stones").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= width
        pocket = page.locator('#board [data-target="c4"] .hit').bounding_box()
        assert pocket["width"] >= 30, "pockets must be big enough to tap"
        if width < 600:  # the board takes the phone's width
            assert board["width"] >= width * 0.9
        assert not remote
    finally:
        context.close()


def test_offline_after_the_first_visit(page, context, base_url, shot) -> None:
    open_app(page, base_url)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=60_000)
    cached = page.evaluate("""async () => {
        const keys = await caches.keys();
        const cache = await caches.open(keys.find(k => k.startsWith('stones-')));
        return (await cache.keys()).length; }""")
    assert cached > 20
    context.set_offline(True)
    try:
        open_app(page, base_url)  # reload with no network: every file from the service worker
        start_three_stones(page, mode="pure-skill", seed=14)
        play_moves(page, 3)
        assert len(stones(page)) == 3
        shot(page)
    finally:
        context.set_offline(False)
