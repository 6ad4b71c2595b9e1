"""How late Playwright's wait_for_selector sees a start end, against the page's own record of it, start by start.

    python bench/web_wait.py [--runs 8] [--seed 1] [--compare OTHER_DIST]

Each run opens bare Pyodide and the app cold (a fresh browser profile each; with `--compare`, another build
too), in an order shuffled per run, and times every start twice: from navigation until wait_for_selector sees
body[data-ready] (how bench/web.py timed starts until 2026-11-26's fourth session), and until the page set it
(a MutationObserver in the page stamps the moment; bench/web.py's check in the page sees it within 10 ms). It
reports per page the medians of both, of the lateness (the difference, start by start) and the ratios to bare
Pyodide both ways. Playwright checks at 0, 20, 50, 100, 100 ms and then every 500 ms from the test's side, and a
check sent while Pyodide holds the page's thread answers when it lets go: a page ready a little later is seen at
the next check.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import READY, TIMEOUT_MS, fresh_browser  # noqa: E402
from bench.web_ablation import add_other_build, cold_starts_interleaved, interleaving_arguments  # noqa: E402

# The moment body[data-ready] is set, in the page's clock (ms after navigation).
READY_STAMP = """new MutationObserver((_, observer) => {
  if (document.body && document.body.dataset.ready) { window.benchReadyAt = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });"""


def cold_start_both_ways(playwright: Any, url: str, tmp: Path) -> dict[str, float]:
    """One cold start, ms from the test's call to navigate: until wait_for_selector returned, and until the page
    was ready (the page's stamp, moved onto the test's clock through the navigation's start)."""
    context = fresh_browser(playwright, tmp)
    context.add_init_script(READY_STAMP)
    try:
        page = context.new_page()
        asked = time.time()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        seen = time.time()
        origin, ready = page.evaluate("[performance.timeOrigin, window.benchReadyAt]")
        return {"selector": 1000 * (seen - asked), "page": origin - 1000 * asked + ready}
    finally:
        context.close()


def report(starts: dict[str, list[dict[str, float]]]) -> None:
    runs = len(starts["bare"])
    print(f"\nmedians of {runs} cold starts, ms (lateness: wait_for_selector minus the page's moment, start by start)")
    for how in ("selector", "page"):
        bare = statistics.median(start[how] for start in starts["bare"])
        line = ", ".join(
            f"{name} {statistics.median(s[how] for s in runs_of):.0f} "
            f"(/ bare {statistics.median(s[how] for s in runs_of) / bare:.3f})"
            for name, runs_of in starts.items()
        )
        print(f"timed by {how}: {line}")
    for name, runs_of in starts.items():
        late = [start["selector"] - start["page"] for start in runs_of]
        print(f"{name}: seen late by {statistics.median(late):.0f} ms (median; {min(late):.0f}–{max(late):.0f})")


def main() -> None:
    args = interleaving_arguments(__doc__.splitlines()[0], runs=8)
    starts = cold_starts_interleaved(
        lambda site: {"bare": "bare.html", "app": ""} | (add_other_build(site, args.compare) if args.compare else {}),
        args.runs,
        random.Random(args.seed),
        cold_start_both_ways,
        lambda run: ": " + "  ".join(f"{n} {s['selector']:.0f}/{s['page']:.0f}" for n, s in run.items()),
    )
    report(starts)


if __name__ == "__main__":
    main()
