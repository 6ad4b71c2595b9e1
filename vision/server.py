"""The companion server: serves the built web app (and, later, the photo-reading API).

    python -m vision server [--port 8000] [--lan] [--dist dist]

A Starlette app under uvicorn. It serves `dist/` exactly as built, with the
MIME types Pyodide and the manifest need and `Cache-Control: no-cache` on the
files that must always be revalidated (the service worker, the page itself,
the PyScript config). The `api_routes` of `create_app` is where live endpoints
such as `POST /api/read` (a board photo in, a scored position out) plug in.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any, Sequence

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

DEFAULT_PORT = 8000

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}
# Files a browser must revalidate every time: a stale copy would pin an old release.
NO_CACHE = {"sw.js", "index.html", "pyscript.json", "manifest.webmanifest"}


class BuiltFiles(StaticFiles):
    """StaticFiles with explicit MIME types and cache rules for the built web app."""

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope, status_code: int = 200) -> Response:
        path = Path(full_path)
        media_type = MIME_TYPES.get(path.suffix.lower())
        headers = {"Cache-Control": "no-cache"} if path.name in NO_CACHE else None
        response = FileResponse(path, status_code=status_code, stat_result=stat_result, media_type=media_type,
                                headers=headers)
        if self.is_not_modified(response.headers, self._request_headers(scope)):
            return NotModifiedResponse(response.headers)
        return response

    @staticmethod
    def _request_headers(scope: Scope) -> Any:
        from starlette.datastructures import Headers
        return Headers(scope=scope)


def create_app(dist_dir: Path | str, api_routes: Sequence[BaseRoute] = ()) -> Starlette:
    """The ASGI app: `api_routes` (e.g. POST /api/read) first, then the built folder at /.

    Raises FileNotFoundError when `dist_dir` holds no built app (run build.py first).
    """
    dist = Path(dist_dir).resolve()
    if not (dist / "index.html").is_file():
        raise FileNotFoundError(f"{dist} holds no built web app (no index.html): run `python build.py` first")

    async def health(request: Any) -> JSONResponse:
        return JSONResponse({"ok": True, "app": "stones", "dist": dist.name})

    routes: list[BaseRoute] = [Route("/api/health", health, methods=["GET"])]
    routes.extend(api_routes)
    routes.append(Mount("/", app=BuiltFiles(directory=dist, html=True), name="app"))
    return Starlette(routes=routes)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (what a phone on the same network dials)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


def serve(dist: Path | str = "dist", port: int = DEFAULT_PORT, lan: bool = False,
          api_routes: Sequence[BaseRoute] = ()) -> None:
    """Run the server in the foreground until interrupted."""
    import uvicorn

    app = create_app(dist, api_routes)
    host = "0.0.0.0" if lan else "127.0.0.1"
    print(f"Stones: serving {Path(dist).resolve()} on http://127.0.0.1:{port}/", flush=True)
    if lan:
        addresses = lan_addresses()
        if addresses:
            for address in addresses:
                print(f"  on your network (phones on the same Wi-Fi): http://{address}:{port}/", flush=True)
        else:
            print("  no network address found: is this machine on a network?", flush=True)
        print("  note: browsers allow offline mode (service worker) only on localhost or https", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def main(argv: list[str] | None = None) -> int:
    from .__main__ import main as cli
    return cli(["server", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
