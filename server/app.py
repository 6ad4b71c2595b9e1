"""The companion's ASGI app: the built web app at /, the routes others contribute (vision's
`/api/read`) before it, and the guards every request passes through.

From the outside in: security headers on every answer, then only the hosts the server is
serving on and no cross-origin calls (`server.hosts`), then the upload limits
(`server.limits`), then the routes. `dist/` is served exactly as built, with the MIME types
Pyodide and the manifest need; a file whose name carries a content hash may be cached for a
year, every other file is revalidated each time (a stale copy would pin an old release).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Sequence

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ERROR_HANDLERS
from .hosts import LOOPBACK_NAMES, SameOriginOnly
from .limits import LIMITS, Limits, UploadLimits

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".gz": "application/gzip",  # Python's start-up snapshot: the page unpacks it itself (no Content-Encoding)
    ".mo": "application/octet-stream",  # a language's compiled words (gettext), read by Python
    ".py": "text/x-python; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}
# A bundler's content hash before the extension (PyScript's chunks: `core-C9KDLldu.js`): eight
# base64url characters, at least one a capital or a digit, so a word such as `-readline` is not one.
HASHED_NAME = re.compile(r"-(?=[\w-]{0,7}[A-Z0-9])[\w-]{8}\.(?:m?js|css|wasm)$")
CACHE_HASHED = "public, max-age=31536000, immutable"  # its content can never change under that name
CACHE_REVALIDATE = "no-cache"  # may be kept, but asked about (a cheap 304) before every use
CACHE_ANSWERS = "no-store"  # API answers and refusals: about this request only

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        # 'wasm-unsafe-eval': Pyodide compiles its WebAssembly; 'unsafe-eval': PyScript's core builds
        # its hook runners with Function() (pyscript/core-*.js), and the app does not start without it
        "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
        "script-src-attr 'none'",  # no inline event handler anywhere: the boards' scripts are .js files
        # styles run no code: the pages' style="..." attributes (a photo's aspect ratio, colours) and the
        # sage-stones board's <style> of spotlight rules for the seats in play
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' blob:",  # a chosen photo is shown from a blob: URL
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin",
}


def cache_control(path: Path) -> str:
    return CACHE_HASHED if HASHED_NAME.search(path.name) else CACHE_REVALIDATE


class BuiltFiles(StaticFiles):
    """StaticFiles with explicit MIME types and cache rules for the built web app."""

    def file_response(
        self, full_path: Any, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        path = Path(full_path)
        response = FileResponse(
            path,
            status_code=status_code,
            stat_result=stat_result,
            media_type=MIME_TYPES.get(path.suffix.lower()),
            headers={"Cache-Control": cache_control(path)},
        )
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every answer, and `no-store` to any that says nothing of caching."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                if "cache-control" not in headers:
                    headers["cache-control"] = CACHE_ANSWERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Companion:
    """The whole app as uvicorn runs it; `limits` are the ones its connections are held to."""

    def __init__(self, routes: Starlette, hosts: Sequence[str], limits: Limits) -> None:
        self.limits = limits
        self.hosts = tuple(hosts)
        self.app = SecurityHeaders(SameOriginOnly(UploadLimits(routes, limits), self.hosts))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def create_app(
    dist_dir: Path | str,
    api_routes: Sequence[BaseRoute] = (),
    hosts: Sequence[str] = LOOPBACK_NAMES,
    limits: Limits = LIMITS,
) -> Companion:
    """The app: `api_routes` (e.g. POST /api/read) first, then the built folder at /.

    `hosts` are the names a request's Host header may carry (the loopback names, and with
    --lan the printed addresses). Raises FileNotFoundError when `dist_dir` holds no built app.
    """
    dist = Path(dist_dir).resolve()
    if not (dist / "index.html").is_file():
        raise FileNotFoundError(f"{dist} holds no built web app (no index.html): run `python build.py` first")

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True, "app": "stones", "dist": dist.name})

    routes: list[BaseRoute] = [
        Route("/api/health", health, methods=["GET"]),
        *api_routes,
        Mount("/", app=BuiltFiles(directory=dist, html=True), name="app"),
    ]
    return Companion(Starlette(routes=routes, exception_handlers=ERROR_HANDLERS), hosts, limits)
