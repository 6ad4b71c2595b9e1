"""The companion server without a browser: MIME types, cache headers, API routes, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from e2e_support import DIST, ROOT, ensure_built, serving
from starlette.responses import JSONResponse
from starlette.routing import Route

from vision.server import create_app


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.mark.parametrize("path, mime, no_cache", [
    ("/", "text/html", True),
    ("/index.html", "text/html", True),
    ("/sw.js", "text/javascript", True),
    ("/pyscript.json", "application/json", True),
    ("/manifest.webmanifest", "application/manifest+json", True),
    ("/pyodide/pyodide.mjs", "text/javascript", False),
    ("/pyodide/pyodide.asm.wasm", "application/wasm", False),
    ("/pyodide/pyodide-lock.json", "application/json", False),
    ("/engine.zip", "application/zip", False),
    ("/icon-512.png", "image/png", False),
])
def test_built_files_are_served_with_their_types(live_server: str, path: str, mime: str, no_cache: bool) -> None:
    status, headers, _ = fetch(live_server + path, method="HEAD")
    assert status == 200
    assert headers["content-type"].startswith(mime)
    assert (headers.get("cache-control") == "no-cache") is no_cache


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
    result = subprocess.run([sys.executable, "-m", "vision", "server", "--dist", str(tmp_path / "none"), "--port", "0"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "build.py" in result.stderr and "Traceback" not in result.stderr
