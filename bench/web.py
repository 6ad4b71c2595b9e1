"""Page start-up and the computer's move time in a real Chromium.

    python bench/web.py [--runs 5] [--ai-positions 4] [--think 1.0]

Start-up, the app against bare Pyodide from the same server: cold start = a
fresh browser profile (nothing cached) until the home screen is drawn by
Python; warm start = the same profile opening the page again (HTTP cache and
service worker). Bare Pyodide is a page that only loads Pyodide from the same
built folder and runs one line of Python. Each figure is the median of `--runs`
runs; the ratios are app / bare. Target: cold start within 1.3× bare.

AI latency: positions from seeded random play in every game, each opened in
the page (Import) with the side to move set to the hard computer with a
`--think` budget; the time from the page's request to the move drawn on the
page (the search runs in the Web Worker), as median and max, and as a ratio of
the budget. Target: within the budget allowing message overhead (≤ 1.10).
`--runs 0` or `--ai-positions 0` skips a part.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))
sys.path.insert(0, str(ROOT / "web"))

from e2e_support import CHROMIUM, CHROMIUM_ARGS, DIST, ensure_built, serving  # noqa: E402

# the script in a file of its own: the server's Content-Security-Policy runs no inline script
BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module" src="./bare.js"></script><body></body>"""
BARE_SCRIPT = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
pyodide.runPython("import sys; sys.version");
document.body.dataset.ready = "1";
"""
READY = "body[data-ready]"
TIMEOUT_MS = 120_000
AI_GAMES = ("morris", "three-stones", "rings", "sage-stones", "triple-domino")
AI_PLIES = (3, 12, 24, 36, 50, 70)  # random play to about these plies gives the positions
AI_TARGET = 1.10


def site_with_bare_page(tmp: Path) -> Path:
    """The built app plus bare.html, in one folder served by the same server."""
    site = tmp / "site"
    shutil.copytree(DIST, site)
    (site / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
    (site / "bare.js").write_text(BARE_SCRIPT, encoding="utf-8")
    return site


def time_load(context, url: str) -> float:
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    elapsed = time.perf_counter() - started
    page.close()
    return elapsed


def measure(playwright, url: str, tmp: Path) -> tuple[float, float]:
    """(cold, warm) seconds of one fresh browser profile."""
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=tmp))
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        cold = time_load(context, url)
        time.sleep(0.5)  # let the service worker finish installing and caching
        return cold, time_load(context, url)
    finally:
        context.close()


# ----- the computer's move time --------------------------------------------------------------
def ai_positions(game_id: str, count: int, seconds: float) -> list[dict]:
    """Saved games (records with the page's seats) where the hard computer is to move."""
    from ui.session import HUMAN, Session

    out = []
    for index, target in enumerate(AI_PLIES[:count]):
        rng = random.Random(f"{game_id}/{index}")
        session = Session.new(game_id, {}, 100 + index, {})
        while session.state.ply < target and not session.state.is_over():
            session.play(rng.choice(list(session.state.legal_moves())))
        if session.state.is_over():
            continue
        session.seats = {p: HUMAN for p in session.seats}
        session.seats[session.state.current_player] = "hard"
        session.think_seconds = seconds
        out.append(session.to_record())
    return out


def ai_move_ms(page, record: dict) -> float:
    """Open the game in the page and wait for the computer's move: the page's own request-to-move time."""
    page.evaluate("window.stonesLastAIMove = null")
    page.set_input_files("#import-file", files=[{"name": "position.json", "mimeType": "application/json",
                                                 "buffer": json.dumps(record).encode()}])
    page.wait_for_function("window.stonesLastAIMove", timeout=TIMEOUT_MS)
    return page.evaluate("window.stonesLastAIMove.ms")


def measure_ai(playwright, url: str, tmp: Path, count: int, seconds: float) -> dict[str, list[float]]:
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=tmp))
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        page.wait_for_function("window.stonesAI.status === 'ready'", timeout=TIMEOUT_MS)
        return {game: [ai_move_ms(page, record) for record in ai_positions(game, count, seconds)]
                for game in AI_GAMES}
    finally:
        context.close()


def report_ai(times: dict[str, list[float]], seconds: float) -> None:
    print(f"\nhard computer's move, request to move on the page (worker), budget {seconds:g} s:")
    print(f"{'game':<16}{'moves':>6}{'median':>9}{'max':>9}{'max/budget':>12}")
    worst = 0.0
    for game, values in times.items():
        if not values:
            continue
        med, top = statistics.median(values) / 1000, max(values) / 1000
        worst = max(worst, top / seconds)
        print(f"{game:<16}{len(values):>6}{med:>8.2f}s{top:>8.2f}s{top / seconds:>12.2f}")
    print(f"target: every move within {AI_TARGET:.2f}× the budget → {'met' if worst <= AI_TARGET else 'NOT met'}"
          f" (worst {worst:.2f}×)")


def report_start(app_cold: list[float], app_warm: list[float], bare_cold: list[float],
                 bare_warm: list[float], runs: int) -> None:
    med = statistics.median
    print(f"runs: {runs} (median seconds; cold = fresh profile, warm = second visit)")
    print(f"{'page':<16}{'cold':>8}{'warm':>8}")
    print(f"{'app (PyScript)':<16}{med(app_cold):>8.2f}{med(app_warm):>8.2f}")
    print(f"{'bare Pyodide':<16}{med(bare_cold):>8.2f}{med(bare_warm):>8.2f}")
    print(f"{'ratio app/bare':<16}{med(app_cold) / med(bare_cold):>8.2f}{med(app_warm) / med(bare_warm):>8.2f}")
    print(f"target: cold ratio ≤ 1.30 → {'met' if med(app_cold) / med(bare_cold) <= 1.3 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-up runs (0: skip)")
    parser.add_argument("--ai-positions", type=int, default=4, help=f"positions per game (0: skip, max {len(AI_PLIES)})")
    parser.add_argument("--think", type=float, default=1.0, help="the computer's budget per move in seconds")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from server.app import create_app

    ensure_built()
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as playwright:
        tmp = Path(tmp_name)
        site = site_with_bare_page(tmp)
        with serving(create_app(site)) as base:
            # Interleave the two pages run by run so machine load affects both alike.
            app_cold, app_warm, bare_cold, bare_warm = [], [], [], []
            for _ in range(args.runs):
                cold, warm = measure(playwright, f"{base}/", tmp)
                app_cold.append(cold)
                app_warm.append(warm)
                cold, warm = measure(playwright, f"{base}/bare.html", tmp)
                bare_cold.append(cold)
                bare_warm.append(warm)
            ai_times = measure_ai(playwright, f"{base}/", tmp, args.ai_positions, args.think) if args.ai_positions else {}
    if args.runs:
        report_start(app_cold, app_warm, bare_cold, bare_warm, args.runs)
    if ai_times:
        report_ai(ai_times, args.think)


if __name__ == "__main__":
    main()
