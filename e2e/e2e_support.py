"""What the browser tests share: the build and server helpers, and steps in the page
(open the app, set up a three-stones game, play through the UI)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
DIST = Path(os.environ.get("STONES_DIST", ROOT / "dist")).resolve()  # one build folder per checkout or worker
ARTIFACTS = ROOT / "e2e" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SOURCES = ("build.py", "package-lock.json", "package.json", "web", "engine")
READY_TIMEOUT = 60_000  # ms: Pyodide needs 3–8 s on two busy cores
LOCAL_SCHEMES = ("data:", "blob:", "about:")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


# ----- the built app and its server ---------------------------------------------------------
def newest_source() -> float:
    newest = 0.0
    for name in SOURCES:
        path = ROOT / name
        files = (
            [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        )
        newest = max([newest, *(p.stat().st_mtime for p in files)])
    return newest


def ensure_built() -> None:
    marker = DIST / ".stones-build.json"
    if marker.exists() and marker.stat().st_mtime >= newest_source():
        return
    subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(DIST)], cwd=ROOT, check=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """Run the companion app under uvicorn in a thread, as `python -m server` does; yields its base URL."""
    import uvicorn

    from server.serve import uvicorn_config

    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# ----- steps in the page -----------------------------------------------------------------------
@contextlib.contextmanager
def app_page(browser: Any, url: str, **device: Any) -> Iterator[Any]:
    """The app open in a browser context of its own (`device`: viewport, touch...); an error the page
    throws fails the caller when it is done."""
    context = browser.new_context(**device)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, url)
    yield page
    context.close()
    assert not errors, errors[:3]


def open_app(page: Any, url: str) -> float:
    """Load the page and wait until Python has drawn the first screen; returns the seconds it took."""
    started = time.monotonic()
    page.goto(url)
    page.wait_for_selector("body[data-ready]", timeout=READY_TIMEOUT)
    return time.monotonic() - started


def open_app_offline(page: Any, context: Any, url: str) -> None:
    """A first visit (the service worker takes control and caches every file), then the network cut and the
    page opened again: from here on the test plays with nothing but the cache. The context is the test's
    own, so the network comes back with the next test."""
    open_app(page, url)
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=READY_TIMEOUT
    )
    context.set_offline(True)
    open_app(page, url)


def set_option(page: Any, name: str, value: Any) -> None:
    """One rule option on the set-up screen, whatever its control (menu, checkbox, number or text)."""
    field = page.locator(f"#opt-{name}")
    kind = field.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
    if kind == "select":
        field.select_option(str(value))
    elif kind == "checkbox":
        field.set_checked(bool(value))
    else:
        field.fill(str(value))
        field.dispatch_event("change")


def set_up(
    page: Any,
    game: str,
    seats: dict[str, str] | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    think: float | None = None,
    match: str = "people",
) -> None:
    """Home → the game's set-up → Start: the players first ("Who plays": `match`, every seat a person unless
    `seats` says otherwise), then under More options the rule `options`, the thinking time and the seed
    (the seed only where the game so set up has chance)."""
    page.click("[data-action=home]")
    page.click(f'[data-game="{game}"]')
    options = dict(options or {})
    if "players" in options:
        players = options.pop("players")
        set_option(page, "players", players)
        page.wait_for_function(f"document.querySelectorAll('#seats .seat select').length === {players}")
    page.select_option("#match", match)
    for player, kind in (seats or {}).items():
        page.select_option(f"#seat-{player}", kind)
    if options or think is not None or seed is not None:
        if page.get_attribute("#more-options", "open") is None:
            page.click("#more-options summary")
    for name, value in options.items():
        set_option(page, name, value)
    if think is not None:
        page.fill("#think", str(think))
    if seed is not None and page.query_selector("#seed"):
        page.fill("#seed", str(seed))
    page.click("button[data-action=start]")
    page.wait_for_selector("#board svg")


def menu_action(page: Any, action: str) -> None:
    """A game action from the play screen's "More" menu (New game, Export, Open a saved game)."""
    if page.get_attribute("#game-menu", "open") is None:
        page.click("#game-menu summary")
    page.click(f"#game-menu button[data-action={action}]")


def start_three_stones(page: Any, mode: str = "pure-skill", seed: int = 1, seats: dict[str, str] | None = None) -> None:
    set_up(page, "three-stones", seats, seed, {"mode": mode})


def legal_targets(page: Any) -> list[str]:
    return page.eval_on_selector_all("#board .pocket.legal", "els => els.map(e => e.getAttribute('data-target'))")


def move_count(page: Any) -> int:
    """Player moves in the move list (chance-only rows and 'Start' excluded)."""
    return page.eval_on_selector_all("#moves .mv", "els => els.length")


def stones(page: Any) -> dict[str, str]:
    """Location → stone colour, read from the drawn board."""
    return page.eval_on_selector_all(
        "#board .pocket",
        """els => Object.fromEntries(els.filter(e => e.querySelector('.stone')).map(e => [
              (e.getAttribute('data-target') || e.getAttribute('aria-label').split(':')[0]),
              [...e.querySelector('.stone').classList].find(c => c.startsWith('stone-')).slice(6)]))""",
    )


def shown_scores(page: Any) -> dict[str, int]:
    return {p: int(page.text_content(f'[data-score="{p}"]')) for p in ("white", "black")}


def play_moves(page: Any, count: int, rng: random.Random | None = None, colours: bool = True) -> None:
    """Play `count` pure-skill moves by clicking legal pockets (sometimes choosing another stone)."""
    rng = rng or random.Random(0)
    for _ in range(count):
        before = move_count(page)
        if colours and rng.random() < 0.4:
            buttons = page.query_selector_all("button.choose:not([disabled])")
            if buttons:
                rng.choice(buttons).click()
        targets = legal_targets(page)
        page.click(f'#board [data-target="{rng.choice(targets)}"]')
        page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")


def export_record(page: Any) -> dict[str, Any]:
    with page.expect_download() as download:
        menu_action(page, "export")
    return json.loads(open(download.value.path(), encoding="utf-8").read())


def record_timing(name: str, seconds: float) -> None:
    """Keep start-up timings in e2e/artifacts/timings.json for the bench and the report."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "timings.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault(name, []).append(round(seconds, 2))
    path.write_text(json.dumps(data, indent=1))
