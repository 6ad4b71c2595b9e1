"""Vision tests need OpenCV and NumPy: without them the folder is left out, not failed."""

from __future__ import annotations

from typing import Any

import pytest

try:
    import cv2  # noqa: F401
    import numpy  # noqa: F401
except ImportError:  # the engine-only install
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(scope="module")
def app() -> Any:
    """vision's routes as the server mounts them (its refusals answered with their statuses), no network."""
    pytest.importorskip("starlette")
    from starlette.applications import Starlette

    from server.errors import ERROR_HANDLERS
    from vision.api import routes
    return Starlette(routes=routes, exception_handlers=ERROR_HANDLERS)


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails the test if anything reaches OpenCV's decoder."""
    import cv2

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("cv2.imdecode was called")
    monkeypatch.setattr(cv2, "imdecode", refuse)
