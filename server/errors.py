"""Refusals as the page reads them: JSON `{"error": reason, "code": tag}` with the HTTP status of the tag.

The photo reader raises `VisionError(reason, code)` and knows nothing of HTTP; which status each
kind of refusal gets is decided here, once, for every route the server mounts.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from vision.errors import VisionError

STATUS_BY_CODE = {
    # the request itself is malformed
    "bad_request": 400,
    "no_image": 400,
    "no_game": 400,
    "unknown_game": 400,
    "unsupported_game": 400,
    "bad_host": 400,
    "not_found": 404,
    "cross_origin": 403,
    "timeout": 408,
    "too_large": 413,
    "too_many_pixels": 413,
    "not_an_image": 415,
    "too_many_requests": 429,
    "busy": 503,
    "internal": 500,
}
UNREADABLE = 422  # every other refusal: a well-formed photo the reader cannot read (no board, too dark, ...)


def refusal(reason: str, code: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The one shape of every refusal, with the status its code stands for."""
    return JSONResponse(
        {"error": reason, "code": code}, status_code=STATUS_BY_CODE.get(code, UNREADABLE), headers=headers
    )


async def vision_refusal(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, VisionError)
    return refusal(str(exc), exc.code)


async def internal_error(request: Request, exc: Exception) -> Response:
    """A clear 500, never a stack trace to the client (the server's log has it)."""
    return refusal(f"internal error: {type(exc).__name__}", "internal")


ERROR_HANDLERS = {VisionError: vision_refusal, Exception: internal_error}
