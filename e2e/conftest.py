"""Browser tests of the built web app: Chromium (Debian's) driven by pytest-playwright.

    python -m pytest e2e -q

One session server: `build.py` runs first if dist/ is older than its sources,
then `server.app.create_app(dist)` is served by uvicorn in a background
thread on a free 127.0.0.1 port. Every test that opens a page fails if the page
asks for anything but that server (no CDN, no network), and leaves a
screenshot in e2e/artifacts/.

A test whose page's renderer process crashes ("Target crashed": the machine
killed it, as once happened on CI and never here in 20 runs of the same
tests) is run again, at most twice; the crash and the machine's state at that
moment are listed in the warnings summary. Any other failure fails at once.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e_support import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, DIST, LOCAL_SCHEMES, ensure_built, serving  # noqa: E402


RENDERER_CRASH = "Target crashed"  # Playwright's words when the page's process dies under it
MEMORY_CGROUP_FILES = (  # usage, limit, how often it was hit: cgroup v2, then v1
    ("/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.events"),
    (
        "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        "/sys/fs/cgroup/memory/memory.failcnt",
    ),
)


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "browser: needs Chromium (the e2e suite)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:  # a conftest's hook sees the whole session's items: only the browser tests
        if item.path.resolve().is_relative_to(here):
            item.add_marker(pytest.mark.flaky(reruns=2, only_rerun=[RENDERER_CRASH]))


def machine_state() -> str:
    """What may have killed a renderer: free memory, the memory cgroup, /dev/shm, load, Chromium's size."""

    def read(path: str) -> str:
        try:
            return Path(path).read_text().strip()
        except OSError:
            return "?"

    meminfo = dict(line.split(":", 1) for line in read("/proc/meminfo").splitlines() if ":" in line)
    lines = [f"MemAvailable {meminfo.get('MemAvailable', '?').strip()}, load {read('/proc/loadavg')}"]
    for usage, limit, events in MEMORY_CGROUP_FILES:
        if Path(usage).exists():
            lines.append(f"memory cgroup: usage {read(usage)}, limit {read(limit)}, {Path(events).name} {read(events)}")
    try:
        shm = os.statvfs("/dev/shm")
        lines.append(f"/dev/shm free {shm.f_bavail * shm.f_frsize // 2**20} MiB")
    except OSError:
        lines.append("/dev/shm missing")
    rss_kib, count = 0, 0
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and "chrom" in read(f"{proc}/comm"):
            status = dict(line.split(":", 1) for line in read(f"{proc}/status").splitlines() if ":" in line)
            rss_kib += int(status.get("VmRSS", "0 kB").split()[0])
            count += 1
    lines.append(f"{count} Chromium processes, {rss_kib // 1024} MiB resident")
    return "; ".join(lines)


class RendererCrash(UserWarning):
    """A page's process died during a test (the test is run again: see the module's docstring)."""


@pytest.fixture(autouse=True)
def report_renderer_crash(request: pytest.FixtureRequest) -> Iterator[None]:
    """If the page's process dies, say so in the warnings summary, with the machine's state at that moment,
    so a crash shows even when the test passes when run again."""
    crashes: list[str] = []
    if "page" in request.fixturenames:
        request.getfixturevalue("page").on("crash", lambda _: crashes.append(machine_state()))
    yield
    for state in crashes:
        warnings.warn(RendererCrash(f"the page's renderer crashed in {request.node.name}; {state}"), stacklevel=2)


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    from server.app import create_app

    ensure_built()
    with serving(create_app(DIST)) as url:
        yield url


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server + "/"


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """Pages ask for English unless a test says otherwise (the app follows the browser's languages)."""
    return {**browser_context_args, "locale": "en-US"}


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
