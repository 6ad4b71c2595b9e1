"""`POST /api/read`: a board photo in (multipart: `image` file + `game` field), a scored position out.

    from vision.api import routes          # list of Starlette routes
    create_app(dist, api_routes=routes)

Besides the position of SPEC section 5 the answer carries `points` (every location's centre
in the pixels of the photo as sent, after its EXIF orientation: what a browser shows of
the file) and `image_size` [w, h] of that photo, so a page can draw the reading over it.
`GET /api/read` answers `{"ok": true, "games": [...]}`: the web app asks it before offering
a photo, so a page served without the companion says so up front.

Limits: 20 MB per upload (checked while streaming, not trusted from headers), the pixel
limit of `vision.io`, formats told by magic bytes (never by file name).  Errors are
JSON `{"error": reason, "code": tag}` with a 4xx status.  The pipeline runs in a worker
thread (at most `MAX_PARALLEL` at once) so the server keeps answering.
"""

from __future__ import annotations

import threading

import anyio
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .errors import VisionError
from .io import MAX_BYTES, declared_size, exif_orientation, sniff

GAMES = ("three-stones", "morris", "rings", "sage-stones")
MAX_PARALLEL = 2
_slots = threading.BoundedSemaphore(MAX_PARALLEL)  # readings at once (CPU and memory bound)


def _error(reason: str, code: str, status: int) -> JSONResponse:
    return JSONResponse({"error": reason, "code": code}, status_code=status)


async def _capped_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise VisionError(f"upload too large (limit {limit // 2**20} MB)", "too_large", 413)
        except ValueError:
            raise VisionError("bad Content-Length header", "bad_request", 400) from None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise VisionError(f"upload too large (limit {limit // 2**20} MB)", "too_large", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def shown_size(data: bytes) -> tuple[int, int]:
    """(width, height) of the photo as a browser shows it: stored size, turned by its EXIF orientation."""
    fmt = sniff(data)
    size = declared_size(data, fmt) if fmt else None
    if size is None:  # a format whose header we do not parse (BMP, TIFF): decode it
        import cv2
        import numpy as np
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
        if img is None:
            raise VisionError("not an image: could not decode it", "not_an_image", 415)
        size = (img.shape[1], img.shape[0])
    w, h = size
    return (h, w) if exif_orientation(data) in (5, 6, 7, 8) else (w, h)


def photo_points(reading, shown: tuple[int, int]) -> dict[str, list[float]]:
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


def _run_pipeline(data: bytes, game: str) -> dict:
    from engine import StonesError, score_position

    from .pipeline import read_board
    shown = shown_size(data)
    with _slots:
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


async def read_endpoint(request: Request) -> JSONResponse:
    try:
        ctype = request.headers.get("content-type", "")
        body = await _capped_body(request, MAX_BYTES + 64 * 1024)
        game = request.query_params.get("game")
        if ctype.startswith("multipart/form-data"):
            async def replay():
                yield body
            try:
                parser = MultiPartParser(request.headers, replay(), max_files=1, max_fields=8,
                                         max_part_size=64 * 1024)
                form = await parser.parse()
            except MultiPartException as exc:
                raise VisionError(f"bad multipart upload: {exc}", "bad_request", 400) from None
            game = form.get("game") or game
            upload = form.get("image") or form.get("file") or form.get("photo")
            if upload is None or isinstance(upload, str):
                raise VisionError("no image in the upload (send it as the 'image' file field)", "no_image", 400)
            data = await upload.read()
            await upload.close()
        elif ctype.split(";")[0].strip() in ("image/jpeg", "image/png", "image/webp", "application/octet-stream"):
            data = body
        else:
            raise VisionError("send multipart/form-data with an 'image' file and a 'game' field", "bad_request", 415)
        if not game:
            raise VisionError("missing 'game' field", "no_game", 400)
        if game not in GAMES:
            raise VisionError(f"unknown or unreadable game {game!r} (readable: {', '.join(GAMES)})", "unknown_game", 400)
        if len(data) > MAX_BYTES:
            raise VisionError(f"image too large (limit {MAX_BYTES // 2**20} MB)", "too_large", 413)
        if sniff(data) is None:
            raise VisionError("not an image (JPEG, PNG or WebP expected)", "not_an_image", 415)
        result = await anyio.to_thread.run_sync(_run_pipeline, data, game)
        return JSONResponse(result)
    except VisionError as exc:
        status = exc.status if 400 <= exc.status < 500 else 422
        return _error(str(exc), exc.code, status)
    except Exception as exc:  # noqa: BLE001 — a clear 500, never a stack trace to the client
        return _error(f"internal error: {type(exc).__name__}", "internal", 500)


async def read_info(request: Request) -> JSONResponse:
    """What the endpoint reads: the page's cheap check that the companion is there."""
    return JSONResponse({"ok": True, "games": list(GAMES), "max_bytes": MAX_BYTES})


routes = [Route("/api/read", read_endpoint, methods=["POST"]),
          Route("/api/read", read_info, methods=["GET"])]
