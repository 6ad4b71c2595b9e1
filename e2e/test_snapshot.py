"""Python restored from the snapshot build.py made of its memory (web/pyodide-start.js): the page and the computer
players' worker start from it, every start draws its own random numbers, and a page without it still starts."""

from __future__ import annotations

import gzip
from typing import Any

from e2e_support import READY_TIMEOUT, open_app

# A page of the built site's origin that starts Python as python.js and ai-worker.js do, then answers what a start from
# the snapshot could get wrong. Served by Playwright (route.fulfill) beside the real files.
PROBE_PAGE = '<!doctype html><meta charset="utf-8"><title>probe</title><script type="module" src="./probe.js"></script>'
PROBE_SCRIPT = """import { startPython } from "./pyodide-start.js";
const { python, from, why } = await startPython(new URL("./pyodide/", location.href).href);
window.probe = {
  from, why,
  draws: python.runPython("import random; [random.random() for _ in range(3)]").toJs(),
  lang: python.runPython("import os; os.environ['LANG']"),
  executable: python.runPython("import sys; sys.executable"),
  title: python.runPython("import js; js.document.title"),
};
"""


def probe(context: Any, url: str) -> dict[str, Any]:
    """What Python started by pyodide-start.js in a fresh page of `context` says of itself."""
    page = context.new_page()
    page.route("**/probe.html", lambda route: route.fulfill(body=PROBE_PAGE, content_type="text/html"))
    page.route("**/probe.js", lambda route: route.fulfill(body=PROBE_SCRIPT, content_type="text/javascript"))
    page.goto(url + "/probe.html")
    page.wait_for_function("window.probe", timeout=READY_TIMEOUT)
    answer = page.evaluate("window.probe")
    page.close()
    return answer


def answering(answer: dict[str, Any]) -> Any:
    """A route handler that gives every request `answer` (Playwright calls it with the route and the request)."""
    return lambda route, _request: route.fulfill(**answer)


def test_the_page_and_the_worker_start_python_from_its_snapshot(page: Any, base_url: str) -> None:
    open_app(page, base_url)
    assert page.evaluate("window.stonesPython") == {"from": "snapshot", "why": None}
    page.wait_for_function("window.stonesAI.status === 'ready'", timeout=READY_TIMEOUT)
    assert page.evaluate("window.stonesAI.python") == "snapshot"


def test_every_start_from_the_snapshot_draws_its_own_random_numbers(browser: Any, live_server: str) -> None:
    """The snapshot froze the random module's state: unseeded, every visit would deal the same dice and seeds."""
    starts = []
    for _ in range(2):
        context = browser.new_context(locale="de-DE")
        try:
            starts.append(probe(context, live_server))
        finally:
            context.close()
    assert [start["from"] for start in starts] == ["snapshot", "snapshot"]
    assert starts[0]["draws"] != starts[1]["draws"]
    # as a fresh start has them: the browser's language, and no path of the machine that made the snapshot
    assert {start["lang"] for start in starts} == {"de_DE.UTF-8"}
    assert {start["executable"] for start in starts} == {"/home/pyodide/this.program"}
    assert {start["title"] for start in starts} == {"probe"}


def test_without_its_snapshot_python_starts_afresh(browser: Any, live_server: str) -> None:
    """A snapshot missing, or not Pyodide's (a stale cache, a damaged download): Python starts as it would without
    one, and says why."""
    not_a_snapshot = gzip.compress(b"\0" * (1 << 20))
    for answer, said in (
        ({"status": 404, "body": "gone"}, "HTTP 404"),
        ({"status": 200, "body": not_a_snapshot, "content_type": "application/gzip"}, "magic number"),
    ):
        context = browser.new_context()
        try:
            context.route("**/pyodide/snapshot.bin.gz", answering(answer))
            start = probe(context, live_server)
        finally:
            context.close()
        assert start["from"] == "fresh", start
        assert said in start["why"]
        assert start["title"] == "probe" and len(start["draws"]) == 3
