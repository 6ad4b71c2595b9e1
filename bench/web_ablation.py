"""Where the app's cold start spends its time beyond bare Pyodide's: pages between the two, run by run.

    python bench/web_ablation.py [--runs 15] [--seed 1] [--compare OTHER_DIST]

Each run opens every page below once, cold (a fresh browser profile), in an order shuffled per run so
that the machine's load falls on all alike, from navigation to `body[data-ready]`, and records four
costs: the wall-clock seconds, the page's main-thread CPU seconds, its renderer process's CPU
seconds (Chrome's Performance.getMetrics: ThreadTime, ProcessTime; Pyodide's WebAssembly compiles
on the renderer's other threads), and the whole browser's CPU seconds (every process it runs,
the compositor's included, from /proc). The CPU seconds move much less with the machine's load
than the wall clock does: on a busy machine read the steps from the CPU. The pages, each the one
before plus one part of the app:

- bare: only Pyodide from the same built folder, one line of Python (bench/web.py's page),
- head: the app's index.html without its `<script type=py>`: every file it loads (styles, preloads,
  python.js, start.js with ai.js, PyScript's modules), Pyodide started by python.js and one line
  of Python run there (ablation-head.js), PyScript with no script to run,
- no-pyscript: as head, then main.py run by ablation-main.js (its `pyscript` names given from JS):
  the app's own Python without PyScript's bootstrap,
- empty main: the whole app with a main.py that only marks the page ready: PyScript's own cost,
- app: the app as built,
- other build (`--compare`): another build of the app (say, the commit before a change), served
  from a folder of the same site: before and after a change, measured under the same load.

For each cost and page: the median, and each page's paired difference from the one before it (same
run) as a median with a bootstrap 90% interval of that median; and app / bare as bench/web.py reports it
(ratio of medians) and as the median of the runs' paired ratios with its interval. Run it at normal
priority on a machine as quiet as you can have: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import START_TARGET, fresh_browser, site_with_bare_page, wait_until_ready  # noqa: E402
from e2e_support import ensure_built, serving  # noqa: E402

BOOTSTRAP_SAMPLES = 2000  # resamples for an interval of a median: enough that it moves by < 10 ms between seeds
INTERVAL = 0.90  # the share of resampled medians the interval holds
Start = TypeVar("Start")  # what one cold start records

PY_SCRIPT = re.compile(r'<script type="py" src="\./main\.py"[^>]*></script>')
HEAD_SCRIPT = """import { loadPyodide } from "./python.js";
const python = await loadPyodide();
python.runPython("import sys; sys.version");
document.body.dataset.ready = "1";
"""
MAIN_SCRIPT = """import { loadPyodide } from "./python.js";
const python = await loadPyodide();
python.registerJsModule("pyscript", { document, window });
python.runPython(await (await fetch("./main.py")).text());
"""
EMPTY_MAIN = "import js\n\njs.document.body.dataset.ready = '1'\n"


def page_without_pyscript_run(index: str, runner: str) -> str:
    """index.html with its `<script type=py>` replaced by the module `runner`."""
    if not PY_SCRIPT.search(index):
        raise SystemExit(f"web_ablation: the built index.html has no {PY_SCRIPT.pattern}: update the bench")
    return PY_SCRIPT.sub(f'<script type="module" src="./{runner}"></script>', index)


def add_pages(site: Path) -> dict[str, str]:
    """Write the pages between bare Pyodide and the app into `site`; their names and paths, bare first."""
    index = (site / "index.html").read_text("utf-8")
    (site / "ablation-head.js").write_text(HEAD_SCRIPT, "utf-8")
    (site / "ablation-head.html").write_text(page_without_pyscript_run(index, "ablation-head.js"), "utf-8")
    (site / "ablation-main.js").write_text(MAIN_SCRIPT, "utf-8")
    (site / "ablation-main.html").write_text(page_without_pyscript_run(index, "ablation-main.js"), "utf-8")
    (site / "ablation_empty.py").write_text(EMPTY_MAIN, "utf-8")
    (site / "ablation-empty.html").write_text(index.replace("./main.py", "./ablation_empty.py"), "utf-8")
    return {
        "bare": "bare.html",
        "head": "ablation-head.html",
        "no-pyscript": "ablation-main.html",
        "empty main": "ablation-empty.html",
        "app": "",
    }


def median_interval(values: list[float], rng: random.Random) -> tuple[float, float, float]:
    """The median of `values` and a bootstrap interval of it holding INTERVAL of the resampled medians."""
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(BOOTSTRAP_SAMPLES))
    cut = int((1 - INTERVAL) / 2 * BOOTSTRAP_SAMPLES)
    return statistics.median(values), medians[cut], medians[-cut - 1]


def paired(first: list[float], second: list[float], how: Callable[[float, float], float]) -> list[float]:
    return [how(a, b) for a, b in zip(first, second)]


COSTS = {  # what is recorded of each start: name → Performance.getMetrics' metric (None: measured here)
    "wall": None,
    "main-thread CPU": "ThreadTime",
    "renderer CPU": "ProcessTime",
    "browser CPU": None,
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")  # /proc/<pid>/stat counts CPU time in these


def browser_cpu_seconds() -> float:
    """CPU seconds used so far by every process this one started (Playwright's driver and each Chromium
    process: renderer, GPU/compositor, network), from /proc; 0 where there is no /proc."""
    parent_of: dict[int, int] = {}
    cpu_of: dict[int, float] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that ended meanwhile
            continue
        parent_of[int(entry.name)] = int(fields[1])
        cpu_of[int(entry.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime

    def ours(pid: int) -> bool:
        while pid > 1:
            pid = parent_of.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return sum(cpu for pid, cpu in cpu_of.items() if ours(pid))


# What the app does once its first screen is drawn (start.js's service worker and AI worker, main.py's
# import of the page when the browser is idle) would land in the CPU read just after: it is held back.
AFTER_READY_HELD = """
addEventListener("stones:ready", (event) => event.stopImmediatePropagation(), true);
window.requestIdleCallback = () => 0;
"""


def cold_start(playwright, url: str, tmp: Path) -> dict[str, float]:
    """One cold start's costs in seconds (COSTS), from navigation to the page ready."""
    context = fresh_browser(playwright, tmp)
    context.add_init_script(AFTER_READY_HELD)
    try:
        page = context.new_page()
        session = context.new_cdp_session(page)
        session.send("Performance.enable", {"timeDomain": "threadTicks"})
        before = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
        browser_before = browser_cpu_seconds()
        started = time.perf_counter()
        page.goto(url)
        wait_until_ready(page)
        before |= {"wall": started, "browser CPU": browser_before}
        after = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
        after |= {"wall": time.perf_counter(), "browser CPU": browser_cpu_seconds()}
        return {cost: after[metric or cost] - before.get(metric or cost, 0.0) for cost, metric in COSTS.items()}
    finally:
        context.close()


def report(times: dict[str, list[dict[str, float]]], rng: random.Random) -> None:
    names = list(times)
    runs = len(times["bare"])
    for cost in COSTS:
        print(f"\n{cost}: {runs} cold runs per page, seconds (paired step: median [{INTERVAL:.0%} interval])")
        print(f"{'page':<14}{'median':>8}{'min':>7}{'max':>7}   step from the page above")
        for before, name in zip([None, *names], names):
            values = [run[cost] for run in times[name]]
            step = ""
            if before is not None:
                earlier = [run[cost] for run in times[before]]
                median, low, high = median_interval(paired(values, earlier, float.__sub__), rng)
                step = f"{median:+.3f} [{low:+.3f}, {high:+.3f}]"
            print(f"{name:<14}{statistics.median(values):>8.2f}{min(values):>7.2f}{max(values):>7.2f}   {step}")
        app, bare = [run[cost] for run in times["app"]], [run[cost] for run in times["bare"]]
        ratio, low, high = median_interval(paired(app, bare, float.__truediv__), rng)
        of_medians = statistics.median(app) / statistics.median(bare)
        print(f"app / bare: {of_medians:.2f} (ratio of medians); paired ratios {ratio:.2f} [{low:.2f}, {high:.2f}]")
    of_medians = statistics.median(run["wall"] for run in times["app"]) / statistics.median(
        run["wall"] for run in times["bare"]
    )
    print(
        f"\ntarget: wall ≤ {START_TARGET:.2f} → {'met' if of_medians <= START_TARGET else 'NOT met'} (ratio of medians)"
    )


def add_other_build(site: Path, other: Path) -> dict[str, str]:
    """Serve another build of the app beside this one (`--compare`), as the page "other build"."""
    if not (other / "index.html").is_file():
        raise SystemExit(f"web_ablation: {other} holds no built app (no index.html)")
    shutil.copytree(other, site / "other-build")
    return {"other build": "other-build/"}


def cold_starts_interleaved(
    make_pages: Callable[[Path], dict[str, str]],
    runs: int,
    rng: random.Random,
    one_start: Callable[[Any, str, Path], Start],
    describe: Callable[[dict[str, Start]], str],
) -> dict[str, list[Start]]:
    """`runs` cold starts of each page that `make_pages` writes into the served site (name -> path), one
    `one_start` each, in an order shuffled per run so that the machine's load falls on all alike; after
    each run a line: "run N" and what `describe` says of the run's starts, by page."""
    from playwright.sync_api import sync_playwright

    from server.app import create_app

    ensure_built()
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)
    with tempfile.TemporaryDirectory() as tmp_name, sync_playwright() as playwright:
        tmp = Path(tmp_name)
        site = site_with_bare_page(tmp)
        pages = make_pages(site)
        starts: dict[str, list[Start]] = {name: [] for name in pages}
        with serving(create_app(site)) as base:
            for run in range(runs):
                order = list(pages)
                rng.shuffle(order)
                for name in order:
                    starts[name].append(one_start(playwright, f"{base}/{pages[name]}", tmp))
                print(f"run {run + 1}{describe({name: starts[name][-1] for name in pages})}", flush=True)
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return starts


def interleaving_arguments(description: str, runs: int) -> argparse.Namespace:
    """The command line of a bench of interleaved cold starts: --runs (default `runs`), --seed, --compare."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs, help="cold starts of each page")
    parser.add_argument("--seed", type=int, default=1, help="the pages' order in each run (and the bootstrap)")
    parser.add_argument("--compare", type=Path, help="another build folder to measure beside the app")
    return parser.parse_args()


def main() -> None:
    args = interleaving_arguments(__doc__.splitlines()[0], runs=15)
    rng = random.Random(args.seed)
    times = cold_starts_interleaved(
        lambda site: add_pages(site) | (add_other_build(site, args.compare) if args.compare else {}),
        args.runs,
        rng,
        cold_start,
        lambda run: " (seconds: wall/main-thread/renderer/browser): "
        + "  ".join(f"{n} " + "/".join(f"{v:.2f}" for v in costs.values()) for n, costs in run.items()),
    )
    report(times, rng)


if __name__ == "__main__":
    main()
