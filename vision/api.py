"""`POST /api/read`: a board photo in (multipart: `image` file + `game` field), a scored position out.

    from vision.api import routes          # the Starlette routes vision contributes
    server.create_app(dist, api_routes=routes)

Besides the position of SPEC section 5 the answer carries `points` (every location's centre
in the pixels of the photo as sent, after its EXIF orientation: what a browser shows of
the file) and `image_size` [w, h] of that photo, so a page can draw the reading over it.
`GET /api/read` answers `{"ok": true, "games": [...]}`: the web app asks it before offering
a photo, so a page served without the companion says so up front.

Limits: 20 MB per upload (counted while streaming, not trusted from headers), JPEG, PNG or
WebP only, told by magic bytes, with the size of `vision.io`'s pixel limit read from the
header before anything is decoded.  A refusal is raised as `VisionError(reason, code)`; the
server turns it into JSON `{"error": reason, "code": tag}` with the status of its code.  The
reading (decoding included) runs in a worker thread, at most `MAX_PARALLEL` at once, so the
server keeps answering; no refusal keeps the photo's pixels alive after it is answered.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, AsyncGenerator

import anyio
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .errors import VisionError
from .io import FORMATS, MAX_BYTES, checked_size, exif_orientation, sniff

GAMES = ("three-stones", "morris", "rings", "sage-stones")
MAX_PARALLEL = 2  # readings at once: each takes a core and up to a few hundred MB for a 40 MP photo
FORM_SLACK = 64 * 1024  # the multipart envelope and the `game` field around a photo at the limit
RAW_TYPES = ("image/jpeg", "image/png", "image/webp", "application/octet-stream")
_slots = threading.BoundedSemaphore(MAX_PARALLEL)
log = logging.getLogger("vision.api")


def too_large() -> VisionError:
    return VisionError(f"upload too large (limit {MAX_BYTES // 2**20} MB)", "too_large")


async def capped_stream(request: Request, limit: int) -> AsyncGenerator[bytes, None]:
    """The request body, refused as soon as it passes `limit` bytes (whatever Content-Length said)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise VisionError("bad Content-Length header", "bad_request")
        if int(declared) > limit:
            raise too_large()
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large()
        yield chunk


async def uploaded_photo(request: Request) -> tuple[bytes, str | None]:
    """The photo's bytes and the `game` field (or query parameter) of an upload."""
    content_type = request.headers.get("content-type", "")
    game = request.query_params.get("game")
    body = capped_stream(request, MAX_BYTES + FORM_SLACK)
    if content_type.startswith("multipart/form-data"):
        try:
            parser = MultiPartParser(request.headers, body, max_files=1, max_fields=8, max_part_size=64 * 1024)
            form = await parser.parse()
        except MultiPartException as exc:
            raise VisionError(f"bad multipart upload: {exc}", "bad_request") from None
        form_game = form.get("game") or game  # a file sent as the game field is no game
        upload = form.get("image") or form.get("file") or form.get("photo")
        if upload is None or isinstance(upload, str):
            raise VisionError("no image in the upload (send it as the 'image' file field)", "no_image")
        data = await upload.read()
        await upload.close()
        return data, form_game if isinstance(form_game, str) else None
    if content_type.split(";")[0].strip() in RAW_TYPES:
        return b"".join([chunk async for chunk in body]), game
    raise VisionError("send multipart/form-data with an 'image' file and a 'game' field", "bad_request")


def shown_size(data: bytes) -> tuple[int, int]:
    """(width, height) of the photo as a browser shows it: the header's size, turned by its EXIF orientation."""
    w, h = checked_size(data)
    return (h, w) if exif_orientation(data) in (5, 6, 7, 8) else (w, h)


def photo_points(reading: Any, shown: tuple[int, int]) -> dict[str, list[float]]:
    """Each location's centre in the shown photo's pixels.

    The reading's `H` maps the layout (board units) into `reading.image`, the upright photo
    brought down to the pipeline's working size; the browser shows the full-size upright
    photo, so the points are scaled by the ratio of the two sizes, per axis.
    """
    import numpy as np

    from .layouts import get_layout

    layout = get_layout(reading.game)
    work_h, work_w = reading.image.shape[:2]
    sx, sy = shown[0] / work_w, shown[1] / work_h
    xy1 = np.hstack([layout.xy, np.ones((layout.n, 1))]) @ np.asarray(reading.H, float).T
    xy = xy1[:, :2] / xy1[:, 2:3]
    return {pid: [round(float(x) * sx, 1), round(float(y) * sy, 1)] for pid, (x, y) in zip(layout.ids, xy)}


def answer(data: bytes, game: str) -> dict[str, Any]:
    """The reading of a photo as the endpoint answers it (decodes: call it only holding a slot)."""
    from engine import StonesError, score_position

    from .pipeline import read_board

    shown = shown_size(data)
    reading = read_board(data, game)
    out = reading.position()
    out["points"] = photo_points(reading, shown)
    out["image_size"] = list(shown)
    try:
        out["score"] = score_position({"game": reading.game, "cells": reading.cells})
    except StonesError as exc:  # no game reaches this board (a stone misread?): the reading stands, unscored
        out["score"], out["score_refused"] = None, str(exc)
    out["seconds"] = round(reading.seconds, 3)
    return out


def read_in_a_slot(data: bytes, game: str) -> dict[str, Any]:
    """`answer` while holding one of the MAX_PARALLEL slots; a failure comes out as a fresh VisionError.

    The exception the reader raised is dropped here, in the thread that raised it: its traceback
    holds the frames that held the decoded photo (hundreds of MB), and passed on through the
    event loop it would keep them alive until the next garbage collection.
    """
    with _slots:
        try:
            return answer(data, game)
        except VisionError as exc:
            failure = VisionError(exc.reason, exc.code)
        except Exception as exc:  # noqa: BLE001 — logged here, answered as a clear 500
            log.exception("reading a %s photo failed", game)
            failure = VisionError(f"internal error: {type(exc).__name__}", "internal")
    raise failure


async def read_endpoint(request: Request) -> JSONResponse:
    data, game = await uploaded_photo(request)
    if not game:
        raise VisionError("missing 'game' field", "no_game")
    if game not in GAMES:
        raise VisionError(f"unknown or unreadable game {game!r} (readable: {', '.join(GAMES)})", "unknown_game")
    if len(data) > MAX_BYTES:
        raise too_large()
    if sniff(data) is None:
        raise VisionError(f"not an image ({FORMATS} expected)", "not_an_image")
    return JSONResponse(await anyio.to_thread.run_sync(read_in_a_slot, data, game))


async def read_info(request: Request) -> JSONResponse:
    """What the endpoint reads: the page's cheap check that the companion is there."""
    return JSONResponse({"ok": True, "games": list(GAMES), "max_bytes": MAX_BYTES})


routes = [Route("/api/read", read_endpoint, methods=["POST"]), Route("/api/read", read_info, methods=["GET"])]
