"""The companion server's parts without a network: who it answers, the headers it sends, how it
refuses, and the addresses `--lan` finds (the real server is tested in e2e/test_server.py)."""

from __future__ import annotations

import asyncio
import re
import ipaddress
import json
import socket
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from server.app import CACHE_HASHED, CACHE_REVALIDATE, CONTENT_SECURITY_POLICY, create_app  # noqa: E402
from server.errors import STATUS_BY_CODE, refusal  # noqa: E402
from server.hosts import LOOPBACK_NAMES, host_name, lan_addresses  # noqa: E402
from server.serve import announce  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def request(
    app: Any,
    path: str = "/",
    method: str = "GET",
    host: str | None = "127.0.0.1:8000",
    headers: dict[str, str] | None = None,
    body: bytes = b"",
) -> tuple[int, dict[str, str], bytes]:
    """One request straight into the ASGI app: (status, headers, body)."""
    raw = [(b"host", host.encode())] if host is not None else []
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    if body:
        raw.append((b"content-length", str(len(body)).encode()))

    async def run() -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        pending = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            return pending.pop() if pending else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": raw,
            "http_version": "1.1",
            "scheme": "http",
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 40000),
            "root_path": "",
        }
        await app(scope, receive, send)
        return sent

    sent = asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers_out = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], headers_out, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>Stones</title>")
    (tmp_path / "pyscript").mkdir()
    (tmp_path / "pyscript" / "core-C9KDLldu.js").write_text("export {}")
    (tmp_path / "pyscript" / "core.js").write_text("export {}")
    return tmp_path


# ----- hosts and origins -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "header, name",
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("LocalHost:8000", "localhost"),
        ("localhost", "localhost"),
        ("[::1]:8000", "::1"),
        ("192.168.1.20:8000", "192.168.1.20"),
        ("evil.example", "evil.example"),
    ],
)
def test_host_name_drops_the_port(header: str, name: str) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize("host", ["evil.example:8000", "127.0.0.1.evil.example", "192.168.1.20:8000", ""])
def test_a_host_the_server_does_not_serve_is_refused(dist: Path, host: str) -> None:
    status, headers, body = request(create_app(dist), host=host)
    assert status == 400 and json.loads(body)["code"] == "bad_host"
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_a_request_without_a_host_is_refused(dist: Path) -> None:
    assert request(create_app(dist), host=None)[0] == 400


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_the_loopback_names_are_served(dist: Path, host: str) -> None:
    assert request(create_app(dist), host=host)[0] == 200


def test_with_the_lan_the_printed_addresses_are_served_too(dist: Path) -> None:
    app = create_app(dist, hosts=(*LOOPBACK_NAMES, "192.168.1.20"))
    assert request(app, host="192.168.1.20:8000")[0] == 200
    assert request(app, host="192.168.1.21:8000")[0] == 400


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:9000", "https://127.0.0.1:8000"])
def test_a_cross_origin_call_is_refused_before_the_route_runs(dist: Path, origin: str) -> None:
    called = []

    async def read(request: Any) -> Any:
        called.append(await request.body())
        from starlette.responses import JSONResponse

        return JSONResponse({})

    from starlette.routing import Route

    app = create_app(dist, api_routes=[Route("/api/read", read, methods=["POST"])])
    status, _, body = request(app, "/api/read", "POST", headers={"Origin": origin}, body=b"photo")
    assert status == 403 and json.loads(body)["code"] == "cross_origin" and not called


def test_the_servers_own_pages_may_call_it(dist: Path) -> None:
    status, _, _ = request(create_app(dist), "/api/health", headers={"Origin": "http://127.0.0.1:8000"})
    assert status == 200


# ----- headers -----------------------------------------------------------------------------------
def test_every_answer_carries_the_security_headers(dist: Path) -> None:
    app = create_app(dist)
    for path in ("/", "/api/health", "/missing.js"):
        _, headers, _ = request(app, path)
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_the_policy_loads_nothing_from_elsewhere_and_runs_no_inline_script() -> None:
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == "'none'"
    for name, sources in directives.items():
        assert "http" not in sources and "*" not in sources, name
    assert "'unsafe-inline'" not in directives["script-src"]
    assert directives["script-src-attr"] == "'none'"


def test_no_page_or_board_writes_an_inline_event_handler() -> None:
    """The policy allows none (`script-src-attr 'none'`): a handler written into the markup would
    silently do nothing in the browser."""
    handler = re.compile(r"""\son[a-z]+\s*=\s*["'{]""")
    for path in sorted((ROOT / "web").rglob("*.py")) + sorted((ROOT / "web").rglob("*.html")):
        assert not handler.search(path.read_text()), path


def test_hashed_files_are_cached_for_good_and_others_revalidated(dist: Path) -> None:
    app = create_app(dist)
    assert request(app, "/pyscript/core-C9KDLldu.js")[1]["cache-control"] == CACHE_HASHED
    assert request(app, "/pyscript/core.js")[1]["cache-control"] == CACHE_REVALIDATE
    assert request(app, "/")[1]["cache-control"] == CACHE_REVALIDATE
    assert request(app, "/api/health")[1]["cache-control"] == "no-store"


@pytest.mark.parametrize(
    "name, hashed",
    [
        ("core-C9KDLldu.js", True),
        ("codemirror_lang-python-r-dBg-Wd.js", True),
        ("xterm_addon-fit-43qXDVCl.js", True),
        ("core.js", False),
        ("service-worker.js", False),
        ("ai-worker.js", False),
        ("xterm-readline.js", False),
        ("pyodide.asm.wasm", False),
        ("engine.zip", False),
        ("index.html", False),
    ],
)
def test_a_content_hash_is_told_from_a_word(name: str, hashed: bool) -> None:
    from server.app import cache_control

    assert (cache_control(Path(name)) == CACHE_HASHED) is hashed


# ----- refusals ----------------------------------------------------------------------------------
def test_the_reader_says_nothing_of_http_and_the_server_maps_its_codes() -> None:
    from vision.errors import VisionError

    error = VisionError("image too large", "too_many_pixels")
    assert not hasattr(error, "status")
    assert refusal(str(error), error.code).status_code == 413
    assert refusal("no board found", "no_board").status_code == 422  # any code not listed: unreadable
    assert STATUS_BY_CODE["not_an_image"] == 415 and STATUS_BY_CODE["cross_origin"] == 403


# ----- the addresses --lan prints --------------------------------------------------------------
def has_a_network() -> bool:
    """A default route on a non-loopback interface (Linux)."""
    try:
        rows = Path("/proc/net/route").read_text().splitlines()[1:]
    except OSError:
        return False
    return any(row.split()[1] == "00000000" and row.split()[0] != "lo" for row in rows)


@pytest.mark.skipif(not has_a_network(), reason="this machine has no network besides loopback")
def test_lan_addresses_come_from_the_interfaces_when_the_host_name_says_loopback(monkeypatch) -> None:
    """Containers and some distributions resolve the host name to 127.0.0.1 alone."""
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("127.0.0.1", 0))])
    found = lan_addresses()
    assert found
    for address in found:
        assert not ipaddress.ip_address(address).is_loopback
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((address, 0))  # only an address of this machine can be bound


def test_announce_prints_every_address(capsys) -> None:
    announce(Path("/srv/dist"), 8000, ["192.168.1.20", "10.0.0.5"])
    out = capsys.readouterr().out
    assert "http://192.168.1.20:8000/" in out and "http://10.0.0.5:8000/" in out
    announce(Path("/srv/dist"), 8000, [])
    assert "no network address found" in capsys.readouterr().out
