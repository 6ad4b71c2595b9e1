"""Running the app under uvicorn, held to its limits, and saying where it can be reached."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Sequence

import uvicorn
from starlette.routing import BaseRoute

from .app import Companion, create_app
from .hosts import LOOPBACK_NAMES, lan_addresses
from .limits import GuardedProtocol

DEFAULT_PORT = 8000


def uvicorn_config(app: Companion, host: str, port: int) -> uvicorn.Config:
    """uvicorn's settings for `app`: its limits on connections and the HTTP/1.1 protocol that enforces them."""
    limits = app.limits
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="off",
        # uvicorn annotates a protocol class but only calls it to make each connection's protocol
        http=functools.partial(GuardedProtocol, limits=limits),  # type: ignore[arg-type]
        # uvicorn annotates this int but only hands it to loop.call_later, which takes float seconds
        timeout_keep_alive=limits.idle_seconds,  # type: ignore[arg-type]
        h11_max_incomplete_event_size=limits.head_bytes,
    )


def vision_routes() -> list[BaseRoute]:
    """The photo API (POST /api/read) when OpenCV is installed; the app is served either way."""
    try:
        from vision.api import routes
    except ImportError as exc:
        print(f"server: photo API unavailable ({exc}); serving the app only", file=sys.stderr)
        return []
    return list(routes)


def announce(dist: Path, port: int, lan: Sequence[str] | None) -> None:
    """Where the app is served; with --lan every network address found (or why there is none)."""
    print(f"Stones: serving {dist} on http://127.0.0.1:{port}/", flush=True)
    if lan is None:
        return
    for address in lan:
        print(f"  on your network (phones on the same Wi-Fi): http://{address}:{port}/", flush=True)
    if not lan:
        print("  no network address found: is this machine on a network?", flush=True)
    print("  note: browsers allow offline mode (service worker) only on localhost or https", flush=True)


def serve(dist: Path | str = "dist", port: int = DEFAULT_PORT, lan: bool = False) -> None:
    """Build the app and run it in the foreground until interrupted."""
    addresses = lan_addresses() if lan else None
    app = create_app(dist, vision_routes(), hosts=(*LOOPBACK_NAMES, *(addresses or ())))
    announce(Path(dist).resolve(), port, addresses)
    uvicorn.Server(uvicorn_config(app, "0.0.0.0" if lan else "127.0.0.1", port)).run()
