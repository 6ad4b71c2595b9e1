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


@pytest.fixture(autouse=True)
def unhurried_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading's time limits are wall-clock seconds: on a loaded test machine (CI's two cores
    shared with a browser) they would refuse photos the reader gets right. The tests judge the
    reading, so they give it time; a test of the limits sets its own."""
    from vision import pipeline

    monkeypatch.setattr(pipeline, "SEARCH_LIMIT_S", 120.0)
    monkeypatch.setattr(pipeline, "REFUSE_LOOK_S", 60.0)
