"""The page's start (PyScript, main thread): the first screen at once, the rest while it is read.

With no game saved in this browser the first screen is the list of games, drawn from the
built catalogue with no engine, board, scan or computer-player module imported (python.js
wrote in only this screen's files); the page (`controllers.page.Page`: every screen and
action) is unpacked (`controllers.later`) and imported when the browser is next idle, or at
the first event if a person is quicker. A saved game opens on its board, so
then the page is imported first. The game in progress is saved after every move.

The language is the one picked before (kept in the browser), else the first of the
browser's languages the app speaks; the header's picker changes it on any screen (fetching
that language's catalog the first time).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from controllers.later import unpack_later
from controllers.store import GameStore, LanguageStore
from ui import i18n
from ui.home import brand_label, home, language_picker

if TYPE_CHECKING:
    from controllers.page import Page

OUR_PACKAGES = ("engine", "ui", "boards", "controllers")
# what stonesStartModules lists: our packages, PyScript's, and `html` (build.py keeps PyScript from importing
# it and its unused submodules before main.py)
LISTED_MODULES = (*OUR_PACKAGES, "pyscript", "html")
IDLE_TIMEOUT_MS = 2000  # import the page within this long even if the browser never goes idle

_page: Page | None = None
_tasks: set[asyncio.Future[None]] = set()  # language switches under way (asyncio keeps only weak references)


def page() -> Page:
    """The page with all its screens, imported on first need."""
    global _page
    if _page is None:
        unpack_later(window.stonesLater, Path.cwd())  # the engine and the screens, downloaded by python.js
        from controllers.page import Page

        _page = Page(document.getElementById("app"), window.localStorage)
    return _page


def forwarded(handler: str) -> Any:
    """An event listener that hands the event to the page's handler of that name."""
    return create_proxy(lambda event: getattr(page(), handler)(event))


def if_page_loaded(handler: str) -> Any:
    """A listener for what only matters once a game is on screen (the clock's tick, the worker's state)."""
    return create_proxy(lambda *_: getattr(_page, handler)() if _page is not None else None)


def speak(language: str) -> None:
    """Use `language`: the catalog, `<html lang>` and the header's own words."""
    document.documentElement.lang = i18n.use(language)
    document.querySelector(".brand").setAttribute("aria-label", brand_label())
    document.getElementById("language-picker").innerHTML = language_picker(i18n.language())


def show_first_home() -> None:
    """The home screen build.py wrote into the page, laid out already after the loading screen, if it speaks the
    language chosen here (start.js put in its words): the loading screen above it goes. Else drawn here."""
    written = document.querySelector("#app > .home[data-language]")  # JS null arrives as pyodide's jsnull (falsy)
    if written and written.dataset.language == i18n.language():
        written.removeAttribute("data-language")
        document.getElementById("loading").remove()
    else:
        document.getElementById("app").innerHTML = home(None)


async def fetch_catalog(language: str) -> None:
    """The language's catalog from the server (or the offline cache), the first time it is chosen."""
    target = i18n.catalog_path(language)
    if not i18n.needs_catalog(language) or target.exists():
        return
    from pyodide.http import pyfetch

    response = await pyfetch(target.relative_to(Path.cwd()).as_posix())
    if response.ok:  # else the words stay English, as without a catalog
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(await response.bytes())


async def switch_language(language: str) -> None:
    await fetch_catalog(language)
    speak(language)
    if _page is None:
        document.getElementById("app").innerHTML = home(None)
    else:
        _page.redraw()
    document.getElementById("language").focus()


def on_language(event: Any) -> None:
    """The header's picker: the new language is kept and the screen on show is drawn again in it."""
    if event.target.id != "language":
        return
    languages.remember(event.target.value)
    _tasks.add(task := asyncio.ensure_future(switch_language(event.target.value)))
    task.add_done_callback(_tasks.discard)


languages = LanguageStore(window.localStorage)
browser_languages = list(window.navigator.languages or [window.navigator.language or ""])
speak(languages.picked() or i18n.choose(browser_languages))
window.stonesAIMoves = to_js([])  # the computer's moves as drawn (bench/web.py reads them)
_listeners = [
    forwarded("on_click"),
    forwarded("on_submit"),
    forwarded("on_change"),
    forwarded("on_key"),
    if_page_loaded("tick"),
    if_page_loaded("refresh_ai"),
    create_proxy(on_language),
]
document.addEventListener("click", _listeners[0])
document.addEventListener("submit", _listeners[1])
document.addEventListener("change", _listeners[2])
document.addEventListener("keydown", _listeners[3])
window.setInterval(_listeners[4], 500)
window.addEventListener("stones:ai", _listeners[5])  # the worker started, or failed
document.addEventListener("change", _listeners[6])

if GameStore(window.localStorage).has_game():
    page().restore_saved()
    if page().screen == "play":
        page().show_play(focus=False)
        page().schedule_ai()
    else:
        page().show_home()
else:
    show_first_home()
    idle = getattr(window, "requestIdleCallback", None)
    later = create_once_callable(lambda *_: page())
    if idle:
        idle(later, to_js({"timeout": IDLE_TIMEOUT_MS}, dict_converter=window.Object.fromEntries))
    else:
        window.setTimeout(later, IDLE_TIMEOUT_MS // 4)
# what the first screen imported: e2e/test_app.py checks it holds no game, board, scan or worker module, nor html or PyScript's unused parts
window.stonesStartModules = to_js(sorted(name for name in sys.modules if name.split(".")[0] in LISTED_MODULES))
document.body.dataset.ready = "1"
window.stonesReadyAt = window.performance.now()
window.dispatchEvent(window.Event.new("stones:ready"))  # start.js: now the service worker and the AI worker
