"""What stands between Pyodide up and the first screen, cold start by cold start: PyScript's steps, python.js's marks.

    python bench/web_steps.py [--runs 8] [--seed 1] [--compare OTHER_DIST]

Each run opens the app cold (a fresh browser profile) and, with `--compare`, another build of it (say, the
commit before a change) from the same server, in an order shuffled per run. From each start it reads
python.js's marks and PyScript's progress events, in ms after navigation, and reports per build the medians
of: Pyodide asked for, Pyodide started, PyScript's storage step (Loading Storage to Loaded Storage: its
package cache opened), Pyodide started to the first screen drawn, from there to the next frame painted (as
bench/web.py waits for it) and Pyodide started to painted, with each span's paired difference from the other
build's (`--compare`, same run); and in how many starts PyScript reached
for the interpreter (Loading Pyodide) only once Pyodide was up, where its steps stand before the first
screen. These are spans of one start's own clock: on a loaded machine they move less than whole starts do.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import PYSCRIPT_STEPS, READY, TIMEOUT_MS, fresh_browser  # noqa: E402
from bench.web_ablation import (  # noqa: E402
    AFTER_READY_HELD,
    add_other_build,
    cold_starts_interleaved,
    interleaving_arguments,
)

# The frame after ready, painted (as bench/web.py waits for it), timed in the page: when body[data-ready] appears, the
# next animation frame and a task after it.
PAINTED_MARK = """new MutationObserver((changes, observer) => {
    if (!document.body?.dataset.ready) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.stonesPaintedAt = performance.now(); }, 0));
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });"""
MARKS = """() => Object.fromEntries([
    ...performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]),
    ...window.stonesSteps.map(([step, at]) => ['PyScript: ' + step, at]),
    ['ready', window.stonesReadyAt],
    ['painted', window.stonesPaintedAt],
])"""
ASKED, STARTED = "stones: Pyodide asked for", "stones: Pyodide started"
SPANS = {  # name → the span of one start's marks it reports
    "asked for": lambda m: m[ASKED],
    "started": lambda m: m[STARTED],
    "storage step": lambda m: m["PyScript: Loaded Storage"] - m["PyScript: Loading Storage"],
    "started → first screen": lambda m: m["ready"] - m[STARTED],
    "first screen → painted": lambda m: m["painted"] - m["ready"],
    "started → painted": lambda m: m["painted"] - m[STARTED],
}


def cold_marks(playwright, url: str, tmp: Path) -> dict[str, float]:
    """One cold start's marks, ms after navigation (what the page does once ready is held back)."""
    context = fresh_browser(playwright, tmp)
    context.add_init_script(PYSCRIPT_STEPS)
    context.add_init_script(AFTER_READY_HELD)
    context.add_init_script(PAINTED_MARK)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        page.wait_for_function("window.stonesPaintedAt !== undefined", timeout=TIMEOUT_MS)
        return page.evaluate(MARKS)
    finally:
        context.close()


def report(marks: dict[str, list[dict[str, float]]]) -> None:
    print(f"\nmedians, ms ({len(next(iter(marks.values())))} cold starts per build; min–max in brackets):")
    for name, starts in marks.items():
        spans = ", ".join(
            f"{span} {statistics.median(values):.0f} [{min(values):.0f}–{max(values):.0f}]"
            for span, how in SPANS.items()
            for values in [[how(m) for m in starts]]
        )
        late = sum(m["PyScript: Loading Pyodide"] > m[STARTED] for m in starts)
        print(f"{name}: {spans}; PyScript reached for the interpreter after Pyodide was up in {late}")
    if "other build" in marks:
        paired = ", ".join(
            f"{span} {statistics.median(how(a) - how(b) for a, b in zip(marks['app'], marks['other build'])):+.0f}"
            for span, how in SPANS.items()
        )
        print(f"app - other build, paired medians: {paired}")


def main() -> None:
    args = interleaving_arguments(__doc__.splitlines()[0], runs=8)
    marks = cold_starts_interleaved(
        lambda site: {"app": ""} | (add_other_build(site, args.compare) if args.compare else {}),
        args.runs,
        random.Random(args.seed),
        cold_marks,
        lambda run: ": "
        + "  ".join(
            f"{name} " + " / ".join(f"{span} {how(start):.0f}" for span, how in SPANS.items())
            for name, start in run.items()
        ),
    )
    report(marks)


if __name__ == "__main__":
    main()
