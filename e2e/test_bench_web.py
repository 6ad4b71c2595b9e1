"""bench/web.py's clock: a start ends when the page is ready, not when a late check happens to look.

Playwright's wait_for_selector checks at 0, 20, 50, 100, 100 ms and then every 500 ms; a check sent while
the page's thread is busy (Pyodide starting) answers when it is free, and the next one comes 500 ms later.
A page ready 150 ms after its thread is free was seen about 350 ms late, a page ready at once on time: the
app (ready 0.1-0.2 s after Pyodide is up) against bare Pyodide (ready as it comes up). The page here does
just that: its thread busy for a while, then ready 150 ms later.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_support import serving

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.web import StartFailed, fresh_browser, site_with_bare_page, wait_until_ready  # noqa: E402

BUSY_MS, READY_AFTER_MS = 1500, 150
SEEN_WITHIN_MS = 250  # the page's check runs every 10 ms; wait_for_selector's next check came 350-510 ms after
PAGE = '<!doctype html><meta charset="utf-8"><title>busy, then ready</title><script src="./busy.js"></script><body>'
BUSY_FROM_MS = 400  # after the load event, when Playwright's checks have slowed to one every 500 ms
SCRIPT = f"""
addEventListener("load", () => setTimeout(() => {{
  const until = performance.now() + {BUSY_MS};
  while (performance.now() < until) {{}}  // the page's thread held, as Pyodide's start holds it
  setTimeout(() => {{ window.readyAt = performance.now(); document.body.dataset.ready = "1"; }}, {READY_AFTER_MS});
}}, {BUSY_FROM_MS}));
"""


def test_a_start_is_timed_to_when_the_page_is_ready(playwright: Any, tmp_path: Path) -> None:
    """In a browser as bench/web.py starts it (fresh profile, headless)."""
    from server.app import create_app

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE)
    (site / "busy.js").write_text(SCRIPT)
    with serving(create_app(site)) as url:
        context = fresh_browser(playwright, tmp_path)
        try:
            page = context.new_page()
            page.goto(url + "/")
            wait_until_ready(page)
            late = page.evaluate("performance.now() - window.readyAt")
        finally:
            context.close()
    assert late < SEEN_WITHIN_MS, f"the start was seen {late:.0f} ms after the page was ready"


def test_the_restored_page_without_its_snapshot_stops_the_bench_with_why(playwright: Any, tmp_path: Path) -> None:
    """The restored page times Pyodide brought back from the app's snapshot; without it the page starts Python
    afresh, which is another thing to time: the bench stops at once and says why, not at its 120 s timeout."""
    from server.app import create_app

    site = site_with_bare_page(tmp_path)
    (site / "pyodide" / "snapshot.bin.gz").unlink()
    with serving(create_app(site)) as url:
        context = fresh_browser(playwright, tmp_path)
        try:
            page = context.new_page()
            page.goto(url + "/restored.html")
            with pytest.raises(StartFailed, match="started afresh, not from the snapshot"):
                wait_until_ready(page)
        finally:
            context.close()
