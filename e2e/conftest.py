"""Browser tests of the built web app: Chromium (Debian's) driven by pytest-playwright.

    python -m pytest e2e -q

One session server: `build.py` runs first if dist/ is older than its sources,
then `vision.server.create_app(dist)` is served by uvicorn in a background
thread on a free 127.0.0.1 port. Every test that opens a page fails if the page
asks for anything but that server (no CDN, no network), and leaves a
screenshot in e2e/artifacts/.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, DIST, LOCAL_SCHEMES, ensure_built, serving  # noqa: E402


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "browser: needs Chromium (the e2e suite)")


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    from vision.server import create_app

    ensure_built()
    with serving(create_app(DIST)) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server + "/"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


# ----- guards and artefacts --------------------------------------------------------------------
@pytest.fixture(autouse=True)
def only_local_requests(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Fail the test if its page requests any URL that is not the local server."""
    if "page" not in request.fixturenames and "context" not in request.fixturenames:
        yield []
        return
    origin = request.getfixturevalue("live_server")
    context = request.getfixturevalue("context")
    remote: list[str] = []

    def check(req: Any) -> None:
        url = req.url
        if not (url.startswith(origin + "/") or url == origin or url.startswith(LOCAL_SCHEMES)):
            remote.append(url)

    context.on("request", check)
    yield remote
    assert not remote, f"the page requested non-local URLs: {remote[:10]}"


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Any:
    """shot(page, name): a full-page screenshot in e2e/artifacts/ (looked at by people)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str = "") -> Path:
        path = ARTIFACTS / f"{request.node.name}{'-' + name if name else ''}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def console_errors(page: Any) -> list[str]:
    """Errors the page logged or threw (a Python traceback in PyScript shows up here)."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors
