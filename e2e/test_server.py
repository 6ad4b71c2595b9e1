"""The companion server for real, on 127.0.0.1: MIME types and cache headers, API routes, the
command, and what it holds for hostile or careless clients (issue 20): deadlines on a request's
head and body, caps on uploads and connections, in all and per client, with the memory they
cost measured; Host and Origin checks; a Content-Security-Policy the app runs under in Chromium.

The deadline tests run the app with short limits; the memory test runs `python -m server` as
`./stones start` does, with the real ones.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from e2e_support import DIST, ROOT, ensure_built, free_port, open_app, serving
from hostile import connect, dribble, exchange, read_answer, request_head, seconds_until_closed, status_of, upload_head
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from server.app import CACHE_HASHED, CONTENT_SECURITY_POLICY, create_app
from server.limits import Limits


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.mark.parametrize(
    "path, mime",
    [
        ("/", "text/html"),
        ("/index.html", "text/html"),
        ("/sw.js", "text/javascript"),
        ("/ui/catalogue.json", "application/json"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/pyodide/pyodide.mjs", "text/javascript"),
        ("/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/pyodide/pyodide-lock.json", "application/json"),
        ("/pyodide/snapshot.bin.gz", "application/gzip"),
        ("/engine.zip", "application/zip"),
        ("/locale/de/LC_MESSAGES/stones.mo", "application/octet-stream"),
        ("/python.js", "text/javascript"),
        ("/icon-512.png", "image/png"),
    ],
)
def test_built_files_are_served_with_their_types(live_server: str, path: str, mime: str) -> None:
    """Every file whose name does not change with its content is revalidated before use."""
    status, headers, _ = fetch(live_server + path, method="HEAD")
    assert status == 200
    assert headers["content-type"].startswith(mime)
    assert headers["cache-control"] == "no-cache"
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert headers["x-content-type-options"] == "nosniff"


def test_pyscripts_hashed_chunks_are_cached_for_good(live_server: str) -> None:
    info = json.loads((DIST / ".stones-build.json").read_text())
    hashed = [name for name in info["files"] if name.startswith("pyscript/core-")]
    assert hashed
    assert fetch(f"{live_server}/{hashed[0]}", method="HEAD")[1]["cache-control"] == CACHE_HASHED
    assert fetch(f"{live_server}/pyscript/core.js", method="HEAD")[1]["cache-control"] == "no-cache"


def test_unknown_paths_and_escapes_are_404(live_server: str) -> None:
    assert fetch(live_server + "/nothing-here.js")[0] == 404
    assert fetch(live_server + "/../pyproject.toml")[0] == 404
    assert fetch(live_server + "/%2e%2e/pyproject.toml")[0] == 404


def test_service_worker_precaches_every_built_file(live_server: str) -> None:
    _, _, body = fetch(live_server + "/sw.js")
    text = body.decode()
    info = json.loads((DIST / ".stones-build.json").read_text())
    listed = [f for f in info["files"] if f != "sw.js"]
    for name in listed + ["pyodide/pyodide-lock.json"]:
        assert f'"./{name}"' in text, name
    assert '"./"' in text and info["hash"] in text
    assert "http" not in text.replace("self.location", "")


def test_api_routes_come_before_the_static_files() -> None:
    ensure_built()

    async def read(request):  # what the vision pipeline will plug in as POST /api/read
        return JSONResponse({"received": len(await request.body())})

    app = create_app(DIST, api_routes=[Route("/api/read", read, methods=["POST"])])
    with serving(app) as url:
        request = urllib.request.Request(url + "/api/read", data=b"12345", method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.loads(response.read()) == {"received": 5}
        status, _, body = fetch(url + "/api/health")
        assert status == 200 and json.loads(body)["ok"] is True
        assert fetch(url + "/")[0] == 200


def test_create_app_refuses_a_folder_without_a_build(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="build.py"):
        create_app(tmp_path)


def test_cli_reports_a_missing_build(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "server", "--dist", str(tmp_path / "none"), "--port", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "build.py" in result.stderr and "Traceback" not in result.stderr


# ----- the command ------------------------------------------------------------------------------
@contextlib.contextmanager
def server_process(*args: str) -> Iterator[tuple[subprocess.Popen, int]]:
    """`python -m server --port P --dist DIST ARGS` as `./stones start` runs it; yields (process, port)."""
    ensure_built()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--dist", str(DIST), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                    break
            except OSError as exc:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"python -m server did not start: {process.stdout.read() if process.stdout else ''}"
                    ) from exc
                time.sleep(0.2)
        yield process, port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def test_python_m_server_serves_the_app_and_the_photo_api() -> None:
    with server_process() as (_, port):
        status, headers, body = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200 and b"<title>Stones</title>" in body
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        status, _, body = fetch(f"http://127.0.0.1:{port}/api/read")
        assert status == 200 and json.loads(body)["ok"] is True


def test_stones_start_runs_the_server_package() -> None:
    script = (ROOT / "stones").read_text()
    assert 'exec "$PY" -m server "$@"' in script and "-m vision server" not in script


# ----- hosts and origins, for real ---------------------------------------------------------------
def test_a_rebinding_host_or_a_foreign_origin_gets_nothing(live_server: str) -> None:
    port = int(live_server.rsplit(":", 1)[1])
    closing = {"Connection": "close"}
    assert status_of(exchange(port, request_head(port, headers=closing, host="evil.example"))) == 400
    assert status_of(exchange(port, request_head(port, headers=closing))) == 200
    foreign = request_head(
        port, "POST", "/api/health", {**closing, "Origin": "http://evil.example", "Content-Length": "0"}
    )
    assert status_of(exchange(port, foreign)) == 403


# ----- deadlines --------------------------------------------------------------------------------
QUICK = Limits(idle_seconds=1.0, head_seconds=1.5, body_gap_seconds=1.0, body_seconds=3.0)
SLACK = 2.0  # seconds a busy machine may add to a deadline before the test calls it missed


async def swallow(request: Request) -> JSONResponse:
    """An upload route that reads the whole body, as /api/read does."""
    return JSONResponse({"received": len(await request.body())})


@pytest.fixture(scope="module")
def quick_server() -> Iterator[int]:
    ensure_built()
    app = create_app(DIST, api_routes=[Route("/api/read", swallow, methods=["POST"])], limits=QUICK)
    with serving(app) as url:
        yield int(url.rsplit(":", 1)[1])


def test_an_idle_connection_is_closed(quick_server: int) -> None:
    with connect(quick_server) as sock:
        assert seconds_until_closed(sock, 10) < QUICK.head_seconds + SLACK


def test_a_head_sent_a_byte_at_a_time_is_cut_off(quick_server: int) -> None:
    head = request_head(quick_server, headers={"X-Padding": "a" * 200})  # 12 s at 20 bytes a second
    with connect(quick_server) as sock:
        started = time.monotonic()
        closed = threading.Event()

        def watch() -> None:
            seconds_until_closed(sock, 15)
            closed.set()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        sent = dribble(sock, head, 0.05, closed.is_set)
        closed.wait(15)
        assert closed.is_set() and time.monotonic() - started < QUICK.head_seconds + SLACK
        assert sent < len(head)


def test_a_body_that_stalls_is_answered_408_and_closed(quick_server: int) -> None:
    with connect(quick_server) as sock:
        sock.sendall(upload_head(quick_server, 1000, "application/octet-stream") + b"abc")
        started = time.monotonic()
        sock.settimeout(QUICK.body_seconds + 2 * SLACK)
        answer = read_answer(sock)
        assert status_of(answer) == 408 and b'"code":"timeout"' in answer
        assert time.monotonic() - started < QUICK.body_gap_seconds + SLACK


def test_a_body_that_trickles_is_cut_off_at_the_upload_deadline(quick_server: int) -> None:
    with connect(quick_server) as sock:
        sock.sendall(upload_head(quick_server, 10_000, "application/octet-stream"))
        started = time.monotonic()
        closed = threading.Event()
        answers: list[bytes] = []

        def read() -> None:
            sock.settimeout(20)
            answers.append(read_answer(sock))
            closed.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        dribble(sock, b"x" * 10_000, 0.25, closed.is_set)  # 4 B/s, never a pause of a second
        closed.wait(20)
        took = time.monotonic() - started
        assert closed.is_set() and status_of(answers[0]) == 408
        assert QUICK.body_seconds - 0.5 < took < QUICK.body_seconds + SLACK


def test_a_whole_upload_in_time_is_read(quick_server: int) -> None:
    body = b"x" * 200_000
    answer = exchange(
        quick_server, upload_head(quick_server, len(body), "application/octet-stream", {"Connection": "close"}) + body
    )
    assert status_of(answer) == 200 and b'"received":200000' in answer


# ----- caps on uploads and connections -----------------------------------------------------------
def test_uploads_take_turns_and_each_client_has_its_share() -> None:
    """One slot, one place in the queue, one upload per client: the rest refused at once."""
    ensure_built()
    limits = Limits(uploads=1, waiting_uploads=1, uploads_per_client=1, body_gap_seconds=30, body_seconds=60)
    app = create_app(DIST, api_routes=[Route("/api/read", swallow, methods=["POST"])], limits=limits)
    with serving(app) as url:
        port = int(url.rsplit(":", 1)[1])
        head = upload_head(port, 100, "application/octet-stream")
        with connect(port, "127.0.0.2") as holding, connect(port, "127.0.0.3") as queued:
            holding.sendall(head + b"x" * 10)  # in the slot, its body stalled
            time.sleep(0.3)
            queued.sendall(head + b"x" * 10)  # waits for the slot
            time.sleep(0.3)
            assert status_of(exchange(port, head, "127.0.0.2", timeout=5)) == 429  # its client has one going
            assert status_of(exchange(port, head, "127.0.0.4", timeout=5)) == 503  # the queue is full
            assert status_of(exchange(port, request_head(port, headers={"Connection": "close"}), "127.0.0.4")) == 200
            holding.sendall(b"x" * 90)
            holding.settimeout(10)
            assert status_of(read_answer(holding)) == 200
            queued.sendall(b"x" * 90)
            queued.settimeout(10)
            assert status_of(read_answer(queued)) == 200


def test_an_upload_waits_for_a_slot_only_so_long() -> None:
    ensure_built()
    limits = Limits(uploads=1, queue_seconds=1.0, body_gap_seconds=30, body_seconds=60)
    app = create_app(DIST, api_routes=[Route("/api/read", swallow, methods=["POST"])], limits=limits)
    with serving(app) as url:
        port = int(url.rsplit(":", 1)[1])
        head = upload_head(port, 100, "application/octet-stream", {"Connection": "close"})
        with connect(port, "127.0.0.2") as holding:
            holding.sendall(head + b"x" * 10)
            time.sleep(0.3)
            started = time.monotonic()
            answer = exchange(port, head + b"x" * 100, "127.0.0.3", timeout=10)
            assert status_of(answer) == 503 and b"no upload slot came free" in answer
            assert limits.queue_seconds <= time.monotonic() - started < limits.queue_seconds + SLACK
            holding.sendall(b"x" * 90)
            holding.settimeout(10)
            assert status_of(read_answer(holding)) == 200
        assert status_of(exchange(port, head + b"x" * 100, "127.0.0.3", timeout=10)) == 200  # the slot came back


def test_one_client_cannot_hold_every_connection() -> None:
    ensure_built()
    with serving(create_app(DIST, limits=Limits(connections_per_client=3))) as url:
        port = int(url.rsplit(":", 1)[1])
        held = [connect(port) for _ in range(3)]
        try:
            time.sleep(0.2)
            with connect(port, timeout=5) as extra:
                assert status_of(read_answer(extra)) == 429
            assert status_of(exchange(port, request_head(port, headers={"Connection": "close"}), "127.0.0.5")) == 200
        finally:
            for sock in held:
                sock.close()


def resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024


def test_twenty_stalled_uploads_of_19_mb_hold_little_memory() -> None:
    """Each client a different address (so no per-client limit steps in): only `uploads` are read at once."""
    body_size, sent_size = 19_500_000, 19_000_000
    with server_process() as (process, port):
        fetch(f"http://127.0.0.1:{port}/")
        before = resident_mb(process.pid)
        payload = b"\xff" * sent_size
        sockets = [connect(port, f"127.0.1.{n + 1}", timeout=3) for n in range(20)]

        def stall(sock: Any) -> None:
            try:
                sock.sendall(upload_head(port, body_size, "image/jpeg") + payload)
            except OSError:  # the server stopped reading: this upload waits its turn
                pass

        senders = [threading.Thread(target=stall, args=(sock,), daemon=True) for sock in sockets]
        try:
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join(10)
            time.sleep(1.0)
            held = resident_mb(process.pid) - before
            assert fetch(f"http://127.0.0.1:{port}/api/health")[0] == 200  # and it still answers
        finally:
            for sock in sockets:
                sock.close()
    assert held < 150, f"twenty stalled uploads hold {held:.0f} MB"


# ----- the policy the app runs under ----------------------------------------------------------------
VIOLATIONS_JS = (
    "window.cspViolations = [];"
    "document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push("
    "`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"
)
GAMES = ("three-stones", "morris", "rings", "sage-stones", "triple-domino")


@pytest.mark.browser
def test_the_app_runs_under_its_content_security_policy(browser: Any) -> None:
    """Every board (triple-domino's dragged and zoomed), the computer player's worker and a scan: no violation."""
    from vision.api import routes

    ensure_built()
    with serving(create_app(DIST, api_routes=routes)) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(VIOLATIONS_JS)
        try:
            page = context.new_page()
            open_app(page, url + "/")
            for game in GAMES:
                page.click("[data-action=home]")
                page.click(f'[data-game="{game}"]')
                page.click("button[data-action=start]")
                page.wait_for_selector(f"svg.board-{game}")
            box = page.locator("svg.board-triple-domino").bounding_box()
            page.mouse.move(box["x"] + 100, box["y"] + 100)
            page.mouse.down()
            page.mouse.move(box["x"] + 160, box["y"] + 140, steps=5)
            page.mouse.up()
            page.mouse.wheel(0, 300)
            page.wait_for_function("window.stonesAI && window.stonesAI.status === 'ready'", timeout=60_000)
            page.click("[data-action=home]")
            page.click("button[data-action=scan]")
            page.wait_for_selector('[data-companion="ready"]')
            page.check('input[name="scan-game"][value="morris"]')
            page.set_input_files("#scan-file", str(ROOT / "tests" / "vision" / "photos" / "morris_3002.jpg"))
            page.wait_for_selector("#scan-overlay", timeout=90_000)
            assert page.evaluate("window.cspViolations") == []
        finally:
            context.close()
