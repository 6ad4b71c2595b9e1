"""Page start-up and the computer's move time in a real Chromium.

    python bench/web.py [--runs 5] [--ai-positions 4] [--think 1.0]

Start-up, the app against bare Pyodide from the same server (and against Pyodide restored from the app's
start-up snapshot, web/pyodide-start.js, with nothing else: what the app adds to its own Python): cold start = a
fresh browser profile (nothing cached) until the home screen is drawn by
Python; warm start = the same profile opening the page again (HTTP cache and
service worker). A start ends when a check in the page (every 10 ms) sees
body[data-ready] and the browser has painted its next frame; `--wait selector` ends it when Playwright's wait_for_selector
does, as starts were timed until 2026-11-26's fourth session (up to 500 ms late
for the app, see wait_until_ready). Bare Pyodide is a page that only loads Pyodide from the same
built folder and runs one line of Python. Each figure is the median of `--runs`
runs; the ratios are app / bare. Target: cold start within 1.15× bare.

AI latency: positions from seeded random play in every game, each opened in
the page (Import) with the side to move set to the hard computer with a
`--think` budget; the time from the page's request to the move drawn on the
page (the search runs in the Web Worker), as median and max, and as a ratio of
the budget. Target: within the budget allowing message overhead (≤ 1.10).
Whole games (`--play N`): N games per game in a fresh page each, the first seat
a person whose moves are clicks on the board (random legal moves, after a
`--pause` like a person's), every other seat the hard computer with the
`--think` budget. A reply is timed as a player waits for it: from the click
that ends the person's move (or from the previous computer move drawn) to the
computer's move drawn and painted on the page, worker start-up, replaying the
record, the search and both redraws included. The page's first reply is shown apart
(the worker may still be starting). Target: every reply within 1.10× the budget.
`--runs 0` or `--ai-positions 0` skips a part.

`--timeline` shows what one cold start and the warm start after it wait for: when
each file was fetched (and whether the service worker answered), the marks python.js
sets (Pyodide asked for and started, the first screen's files written), PyScript's own
steps and the first screen drawn, in ms after navigation; and whether V8 compiled
Pyodide's WebAssembly or took its compiled code from its cache (Chrome's trace events).
"""

from __future__ import annotations

import argparse
import json
import random
import re
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
# bare Pyodide restored from the snapshot build.py made, as the app's python.js starts it
RESTORED_PAGE = BARE_PAGE.replace("bare.js", "restored.js").replace("bare Pyodide", "restored Pyodide")
RESTORED_SCRIPT = """import { startPython } from "./pyodide-start.js";
const { python, from, why } = await startPython(new URL("./pyodide/", location.href).href);
python.runPython("import sys; sys.version");
// a fresh start would time another thing: the page says why instead, and the bench stops with it
if (from === "snapshot") document.body.dataset.ready = "1";
else document.body.dataset.failed = `started afresh, not from the snapshot: ${why}`;
"""
READY = "body[data-ready], body[data-failed]"  # a page that cannot time its start says why (body[data-failed])
TIMEOUT_MS = 120_000
# A start ends when the page is seen ready (body[data-ready]) by a check that runs in the page every READY_POLL_MS.
# Playwright's wait_for_selector (1.65) checks from the test's side at 0, 20, 50, 100, 100 ms and then every 500 ms:
# its check, held up while Pyodide starts on the page's thread, answers as Pyodide comes up, so bare Pyodide (ready
# then) was seen at once and the app (ready 0.1-0.2 s later) at the next check, up to 500 ms on: 17-44 ms after
# ready against 71-552 ms (4 cold starts each, load 7). `--wait selector` times starts as before, to compare with
# older rows.
READY_CHECK = "() => !!(document.body && (document.body.dataset.ready || document.body.dataset.failed))"
READY_POLL_MS = 10  # the check's period in the page (timers: animation frames come late to a page drawing nothing)
# ... and then the browser's next frame, painted: what a person sees. The app's first screen takes its style, layout
# and paint there (about 60 ms after ready against bare Pyodide's 12: medians of 4 cold starts each, load 14).
PAINTED = "() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)))"
WAITS = ("page", "selector")
AI_GAMES = ("morris", "three-stones", "rings", "sage-stones", "triple-domino")
AI_PLIES = (3, 12, 24, 36, 50, 70)  # random play to about these plies gives the positions
AI_TARGET = 1.10
START_TARGET = 1.15  # cold start / bare Pyodide's: the first screen waits for nothing it does not show


def site_with_bare_page(tmp: Path) -> Path:
    """The built app plus bare.html and restored.html, in one folder served by the same server."""
    site = tmp / "site"
    shutil.copytree(DIST, site)
    (site / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
    (site / "bare.js").write_text(BARE_SCRIPT, encoding="utf-8")
    (site / "restored.html").write_text(RESTORED_PAGE, encoding="utf-8")
    (site / "restored.js").write_text(RESTORED_SCRIPT, encoding="utf-8")
    return site


class StartFailed(RuntimeError):
    """A page that could not start as it is meant to be timed (the restored page without its snapshot)."""


def wait_until_ready(page, wait: str = "page") -> None:
    """Until Python has drawn the first screen (body[data-ready]) and the browser has painted it, as the page's
    own check sees it, or until Playwright's wait_for_selector sees it ready (`wait="selector"`, how starts were
    timed before 2026-11-26, fourth session)."""
    if wait == "selector":
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    else:
        page.wait_for_function(READY_CHECK, polling=READY_POLL_MS, timeout=TIMEOUT_MS)
    failed = page.evaluate("document.body.dataset.failed")
    if failed:
        raise StartFailed(f"{page.url}: {failed}")
    if wait != "selector":
        page.evaluate(PAINTED)


def time_load(context, url: str, wait: str = "page") -> float:
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    wait_until_ready(page, wait)
    elapsed = time.perf_counter() - started
    page.close()
    return elapsed


def fresh_browser(playwright, tmp: Path):
    """Chromium with a profile of its own in `tmp`: nothing cached, no service worker."""
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=tmp))
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )


def measure(playwright, url: str, tmp: Path, wait: str = "page") -> tuple[float, float]:
    """(cold, warm) seconds of one fresh browser profile."""
    context = fresh_browser(playwright, tmp)
    try:
        cold = time_load(context, url, wait)
        time.sleep(0.5)  # let the service worker finish installing and caching
        return cold, time_load(context, url, wait)
    finally:
        context.close()


# ----- what a cold start waits for ---------------------------------------------------------------
PYSCRIPT_STEPS = (
    "window.stonesSteps = []; addEventListener('py:progress', (e) => stonesSteps.push([e.detail, performance.now()]));"
)
TIMELINE = """() => [
    ...performance.getEntriesByType('resource').map((e) => [e.startTime, e.responseEnd,
        new URL(e.name).pathname + (e.workerStart > 0 ? ' (service worker)' : '')]),
    ...performance.getEntriesByType('mark').map((m) => [m.startTime, null, m.name]),
    ...window.stonesSteps.map(([step, at]) => [at, null, 'PyScript: ' + step]),
    [window.stonesReadyAt, null, 'the first screen drawn (stones:ready)'],
]"""


# Chrome's trace events for a WebAssembly module compiled from a fetched response (wasm_response_extensions.cc)
WASM_FROM_CACHE = "v8.wasm.moduleCacheHit"  # its compiled code came from V8's code cache
WASM_COMPILED = "v8.wasm.compiledModule"  # compiled here, from the bytes
TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.wasm"]  # where they are
TRACE_WAIT_S = 20  # for Chrome to hand over the trace after the load


def traced_load(context, url: str) -> tuple[list[tuple[float, float | None, str]], str]:
    """One start in `context` until the first screen is drawn: its timeline, and where Pyodide's compiled
    WebAssembly came from."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    names: list[str] = []
    finished: list[bool] = []
    session.on("Tracing.dataCollected", lambda data: names.extend(event["name"] for event in data["value"]))
    session.on("Tracing.tracingComplete", lambda _: finished.append(True))
    session.send("Tracing.start", {"traceConfig": {"includedCategories": TRACE_CATEGORIES}})
    page.goto(url)
    wait_until_ready(page)
    events = page.evaluate(TIMELINE)
    session.send("Tracing.end")
    deadline = time.monotonic() + TRACE_WAIT_S
    while not finished and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.close()
    ready = events[-1][0]
    if WASM_FROM_CACHE in names:
        wasm = "taken from V8's code cache"
    elif WASM_COMPILED in names:
        wasm = "compiled from its bytes (V8's code cache not used)"
    else:
        wasm = "not seen in the trace"
    return sorted((start, end, what) for start, end, what in events if start <= ready), wasm


def timeline(playwright, url: str, tmp: Path) -> dict[str, tuple[list[tuple[float, float | None, str]], str]]:
    """The timeline of a cold start and of the warm start after it (see traced_load), by name."""
    context = fresh_browser(playwright, tmp)
    context.add_init_script(PYSCRIPT_STEPS)
    try:
        cold = traced_load(context, url)
        time.sleep(0.5)  # let the service worker finish installing and caching
        return {"cold": cold, "warm": traced_load(context, url)}
    finally:
        context.close()


def report_timeline(starts: dict[str, tuple[list[tuple[float, float | None, str]], str]]) -> None:
    for name, (events, wasm) in starts.items():
        print(f"one {name} start, ms after navigation (a file: fetched from–to); Pyodide's WebAssembly {wasm}:")
        for start, end, what in events:
            print(f"{start:8.0f}{'' if end is None else f'–{end:.0f}':>8}  {what}")


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
    page.evaluate("window.stonesAIMoves.length = 0")
    page.set_input_files(
        "#import-file",
        files=[{"name": "position.json", "mimeType": "application/json", "buffer": json.dumps(record).encode()}],
    )
    page.wait_for_function("window.stonesAIMoves.length", timeout=TIMEOUT_MS)
    return page.evaluate("window.stonesAIMoves[0].ms")


def measure_ai(playwright, url: str, tmp: Path, count: int, seconds: float) -> dict[str, list[float]]:
    context = fresh_browser(playwright, tmp)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        page.wait_for_function("window.stonesAI.status === 'ready'", timeout=TIMEOUT_MS)
        return {game: [ai_move_ms(page, record) for record in ai_positions(game, count, seconds)] for game in AI_GAMES}
    finally:
        context.close()


# ----- whole games: the person clicks, the computer replies ----------------------------------------
HUMAN_TURN = (
    "document.body.dataset.state === 'over' || !!document.querySelector('button[data-action=hint]:not([disabled])')"
)
CLICK_CLOCK = "addEventListener('click', () => { window.benchClickAt = performance.now(); }, true);"
MORRIS_POINT = re.compile(r"[a-g][1-7]")


def whole_game_record(game_id: str, options: dict, seed: int, seconds: float) -> dict:
    """A new game as the page saves it: the first seat a person, the others the hard computer."""
    from ui.session import HUMAN, Session

    from engine import get_game

    players = get_game(game_id).new_state(options, seed=seed).players
    seats = {p: HUMAN if i == 0 else "hard" for i, p in enumerate(players)}
    return Session.new(game_id, options, seed, seats, seconds).to_record()


def person_move(state, person: str, seed: int) -> str:
    """The person's move: a random legal one, or what a computer level would play (a likelier game)."""
    from engine.ai import Budget, get_player

    if person == "random":
        return str(random.Random(f"{seed}/{state.ply}").choice(list(state.legal_moves())))
    view = state.view(state.current_player)
    return str(get_player(state.game.id, person, seed=seed).choose(view, Budget(seconds=0.5, nodes=20_000)))


def saved_record(page) -> dict:
    return json.loads(page.evaluate("localStorage.getItem('stones/current-game')"))


def click_move(page, game_id: str, move: str) -> None:
    """The person's move as clicks on the board (and panel), the last click ending the turn."""
    if game_id == "morris":
        clicks = [f'#board [data-target="{p}"]' for p in MORRIS_POINT.findall(move)]
    elif game_id == "three-stones":
        clicks = [f'#board [data-target="{move.split("@")[-1]}"]']
    elif game_id == "rings":
        clicks = [f'#board [data-target="{move.split()[0]}"]']
    elif game_id == "triple-domino" and move.startswith("lay "):
        lay = re.match(r"lay (\S+) @ (\S+)", move)
        if lay is None:
            raise ValueError(f"{move!r} is not a triple-domino lay (lay TILE @ WHERE)")
        tile, at = lay.groups()
        clicks = [f'[data-board-action=tile][data-value="{tile}"]', f'#board [data-target="{at}"]']
        if not page.query_selector(clicks[0]):  # the round's opening tile is chosen already
            clicks = clicks[1:]
    else:
        clicks = [f'[data-target="{move}"]']
    for selector in clicks:
        page.click(selector)
    if game_id == "rings" and page.query_selector("#board [data-target=end]"):
        if page.query_selector("#board [data-target=all]:not([disabled])"):
            page.click("#board [data-target=all]")
        page.click("#board [data-target=end]")


def play_whole_game(
    page, url: str, game_id: str, options: dict, seed: int, seconds: float, pause: float, person: str
) -> list[dict]:
    """One game in a fresh page; each reply with how long the player waited for it ("s") and whether
    it was the page's first ("first")."""
    from engine import load_record

    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    page.evaluate(
        "text => localStorage.setItem('stones/current-game', text)",
        json.dumps(whole_game_record(game_id, options, seed, seconds)),
    )
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    turn_start = page.evaluate("window.stonesReadyAt")
    replies: list[dict] = []
    while True:
        page.wait_for_function(HUMAN_TURN, timeout=TIMEOUT_MS)
        page.wait_for_function("window.stonesAIMoves.every(m => m.painted_at)")
        drawn = page.evaluate("window.stonesAIMoves.slice()")
        for answer in drawn[len(replies) :]:
            waited = (answer["painted_at"] - turn_start) / 1000  # until the frame with the move was painted
            before = (answer["asked_at"] - turn_start) / 1000  # the person's move drawn, the request made
            replies.append(
                {
                    "s": waited,
                    "first": not replies,
                    "search_s": answer["search_s"],
                    "ply": len(replies),
                    "before": before,
                    "after": waited - before - (answer["search_s"] or 0),
                    "drawing": (answer["painted_at"] - answer["arrived_at"]) / 1000,
                }
            )
            turn_start = answer["painted_at"]
        state = load_record(saved_record(page))
        if state.is_over():
            return replies
        time.sleep(pause)
        click_move(page, game_id, person_move(state, person, seed))
        turn_start = page.evaluate("window.benchClickAt")


def measure_play(
    playwright,
    url: str,
    tmp: Path,
    games: int,
    seconds: float,
    pause: float,
    game_ids: list[str],
    person: str,
    options: dict[str, dict],
) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for game_id in game_ids:
        for seed in range(1, games + 1):
            context = fresh_browser(playwright, tmp)
            context.add_init_script(CLICK_CLOCK)
            try:
                replies = play_whole_game(
                    context.new_page(), url, game_id, options.get(game_id, {}), seed, seconds, pause, person
                )
            finally:
                context.close()
            out.setdefault(game_id, []).extend(replies)
            slow = sorted(replies, key=lambda r: -r["s"])[:3]
            print(
                f"  {game_id} game {seed}: {len(replies)} replies, slowest "
                + ", ".join(
                    f"{r['s']:.2f} s (reply {r['ply'] + 1}: {r['before']:.2f} before the request, "
                    f"{r['search_s']} in the worker, {r['after']:.2f} after it, of which "
                    f"{r['drawing']:.2f} from the answer's arrival to the reply painted)"
                    for r in slow
                ),
                flush=True,
            )
    return out


def report_play(replies: dict[str, list[dict]], seconds: float) -> None:
    print(f"\nwhole games, the hard computer's replies as the player waits for them, budget {seconds:g} s:")
    print(f"{'game':<16}{'replies':>8}{'first':>8}{'median':>9}{'p90':>8}{'max':>8}{'max/budget':>12}")
    worst = 0.0
    for game, values in replies.items():
        first = [r["s"] for r in values if r["first"]]
        rest = sorted(r["s"] for r in values if not r["first"]) or [0.0]
        top = max(rest + first)
        worst = max(worst, top / seconds)
        p90 = rest[min(len(rest) - 1, int(0.9 * len(rest)))]
        print(
            f"{game:<16}{len(values):>8}{max(first, default=0):>7.2f}s{statistics.median(rest):>8.2f}s"
            f"{p90:>7.2f}s{top:>7.2f}s{top / seconds:>12.2f}"
        )
    print(
        f"target: every reply within {AI_TARGET:.2f}× the budget → {'met' if worst <= AI_TARGET else 'NOT met'}"
        f" (worst {worst:.2f}×)"
    )


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
    print(
        f"target: every move within {AI_TARGET:.2f}× the budget → {'met' if worst <= AI_TARGET else 'NOT met'}"
        f" (worst {worst:.2f}×)"
    )


START_PAGES = {  # name: (path, label), each measured once a run, in this order
    "app": ("/", "app (PyScript)"),
    "bare": ("/bare.html", "bare Pyodide"),
    "restored": ("/restored.html", "restored Pyodide"),
}


def report_start(starts: dict[str, tuple[list[float], list[float]]], runs: int) -> None:
    """The medians of each page's (cold, warm) starts, and the app's ratios to the other two."""
    med = statistics.median
    print(f"runs: {runs} (median seconds; cold = fresh profile, warm = second visit)")
    print(f"{'page':<22}{'cold':>8}{'warm':>8}")
    for name, (cold, warm) in starts.items():
        print(f"{START_PAGES[name][1]:<22}{med(cold):>8.2f}{med(warm):>8.2f}")
    (app_cold, app_warm) = starts["app"]
    for other in ("bare", "restored"):
        cold, warm = starts[other]
        print(f"{'ratio app/' + other:<22}{med(app_cold) / med(cold):>8.2f}{med(app_warm) / med(warm):>8.2f}")
    print(
        "cold runs:", " | ".join(f"{name}: " + " ".join(f"{t:.2f}" for t in cold) for name, (cold, _) in starts.items())
    )
    ratio = med(app_cold) / med(starts["bare"][0])
    print(f"target: cold ratio app/bare ≤ {START_TARGET:.2f} → {'met' if ratio <= START_TARGET else 'NOT met'}")


def play_options(words: list[str]) -> dict[str, dict]:
    """GAME:NAME=VALUE words → options per game (values as JSON where they parse, else text)."""
    out: dict[str, dict] = {}
    for word in words:
        game_id, _, assignment = word.partition(":")
        name, _, value = assignment.partition("=")
        try:
            out.setdefault(game_id, {})[name] = json.loads(value)
        except ValueError:
            out.setdefault(game_id, {})[name] = value
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-up runs (0: skip)")
    parser.add_argument(
        "--ai-positions", type=int, default=4, help=f"positions per game (0: skip, max {len(AI_PLIES)})"
    )
    parser.add_argument("--timeline", action="store_true", help="also show what a cold and a warm start wait for")
    parser.add_argument(
        "--wait",
        default="page",
        choices=WAITS,
        help="a start ends when a check in the page sees it ready (page), or when Playwright's wait_for_selector "
        "does (selector: up to 500 ms late, how starts were timed before 2026-11-26's fourth session)",
    )
    parser.add_argument("--think", type=float, default=1.0, help="the computer's budget per move in seconds")
    parser.add_argument("--play", type=int, default=0, help="whole games per game against the hard computer")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds the person waits before each move")
    parser.add_argument("--games", nargs="+", default=list(AI_GAMES), choices=AI_GAMES, help="the games to play")
    parser.add_argument(
        "--person",
        default="medium",
        choices=("random", "easy", "medium", "hard"),
        help="how the person's moves are chosen (a computer level computed here, or random)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="GAME:NAME=VALUE",
        help="a rule option for one game's whole games, e.g. rings:players=3",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from server.app import create_app

    ensure_built()
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as playwright:
        tmp = Path(tmp_name)
        site = site_with_bare_page(tmp)
        with serving(create_app(site)) as base:
            # Interleave the pages run by run so machine load affects them alike.
            start_times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in START_PAGES}
            for _ in range(args.runs):
                for name, (path, _label) in START_PAGES.items():
                    cold, warm = measure(playwright, base + path, tmp, args.wait)
                    start_times[name][0].append(cold)
                    start_times[name][1].append(warm)
            starts = timeline(playwright, f"{base}/", tmp) if args.timeline else {}
            ai_times = (
                measure_ai(playwright, f"{base}/", tmp, args.ai_positions, args.think) if args.ai_positions else {}
            )
            play = (
                measure_play(
                    playwright,
                    f"{base}/",
                    tmp,
                    args.play,
                    args.think,
                    args.pause,
                    args.games,
                    args.person,
                    play_options(args.option),
                )
                if args.play
                else {}
            )
    if starts:
        report_timeline(starts)
    if args.runs:
        report_start(start_times, args.runs)
    if ai_times:
        report_ai(ai_times, args.think)
    if play:
        report_play(play, args.think)


if __name__ == "__main__":
    main()
