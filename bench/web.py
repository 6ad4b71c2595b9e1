"""Page start-up in a real Chromium: the app against bare Pyodide from the same server.

    python bench/web.py [--runs 5]

Cold start = a fresh browser profile (nothing cached) until the home screen is
drawn by Python; warm start = the same profile opening the page again (HTTP
cache and service worker). Bare Pyodide is a page that only loads Pyodide from
the same built folder and runs one line of Python. Each figure is the median of
`--runs` runs; the ratios are app / bare. Target: cold start within 1.3× bare.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from e2e_support import CHROMIUM, CHROMIUM_ARGS, DIST, ensure_built, serving  # noqa: E402

BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
pyodide.runPython("import sys; sys.version");
document.body.dataset.ready = "1";
</script><body></body>"""
READY = "body[data-ready]"
TIMEOUT_MS = 120_000


def site_with_bare_page(tmp: Path) -> Path:
    """The built app plus bare.html, in one folder served by the same server."""
    site = tmp / "site"
    shutil.copytree(DIST, site)
    (site / "bare.html").write_text(BARE_PAGE, encoding="utf-8")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from vision.server import create_app

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
    med = statistics.median
    print(f"runs: {args.runs} (median seconds; cold = fresh profile, warm = second visit)")
    print(f"{'page':<16}{'cold':>8}{'warm':>8}")
    print(f"{'app (PyScript)':<16}{med(app_cold):>8.2f}{med(app_warm):>8.2f}")
    print(f"{'bare Pyodide':<16}{med(bare_cold):>8.2f}{med(bare_warm):>8.2f}")
    print(f"{'ratio app/bare':<16}{med(app_cold) / med(bare_cold):>8.2f}{med(app_warm) / med(bare_warm):>8.2f}")
    print(f"target: cold ratio ≤ 1.30 → {'met' if med(app_cold) / med(bare_cold) <= 1.3 else 'NOT met'}")


if __name__ == "__main__":
    main()
