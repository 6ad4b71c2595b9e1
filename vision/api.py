"""`POST /api/read`: a board photo in (multipart: `image` file + `game` field), a scored position out.

    from vision.api import routes          # list of Starlette routes
    create_app(dist, api_routes=routes)

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
from .io import MAX_BYTES, sniff

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


def _run_pipeline(data: bytes, game: str) -> dict:
    from engine import score_position

    from .pipeline import read_board
    with _slots:
        reading = read_board(data, game)
    out = reading.position()
    out["score"] = score_position({"game": reading.game, "cells": reading.cells})
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


routes = [Route("/api/read", read_endpoint, methods=["POST"])]
