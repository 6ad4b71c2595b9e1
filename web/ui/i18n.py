"""The page's words in the player's language: one gettext catalog, the chosen language's, at a time.

Every string a person reads goes through `_` (or `ngettext` where a count is shown); a
string that must exist before a language is chosen (a table at import) is marked with
`N_` and translated where it is shown. The catalogs are `locale/<lang>/LC_MESSAGES/stones.mo`,
compiled by build.py from the `.po` files in `web/locale/` and written beside this package in
the browser when the language is chosen (English has none: its words are the message ids).
Without a compiled catalog (a source checkout) the words stay English. Move notation is never translated.
English imports no gettext at all: the module takes tens of milliseconds to import under Pyodide,
on the way to the first screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gettext import GNUTranslations

DOMAIN = "stones"
LANGUAGES = {  # each language by its own name, as the picker lists it
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "it": "Italiano",
    "nl": "Nederlands",
    "es": "Español",
}
DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"  # web/locale here, ./locale in the browser

_catalog: GNUTranslations | None = None  # None: the message ids themselves (English)
_language = DEFAULT


def choose(preferred: Iterable[str]) -> str:
    """The first of the browser's languages ("de-DE", "fr") the app speaks, else English."""
    for tag in preferred:
        code = str(tag).replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return DEFAULT


def catalog_path(language: str, directory: Path = LOCALE_DIR) -> Path:
    """Where `language`'s compiled catalog is read from (build.py serves it at the same path under `locale/`)."""
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def needs_catalog(language: str) -> bool:
    """English needs none: its words are the message ids themselves."""
    return language in LANGUAGES and language != DEFAULT


def use(language: str, directory: Path = LOCALE_DIR) -> str:
    """Speak `language` from now on (an unknown one: English); returns the language in use."""
    global _catalog, _language
    language = language if language in LANGUAGES else DEFAULT
    mo = catalog_path(language, directory)
    if mo.exists():
        from gettext import GNUTranslations

        with mo.open("rb") as file:
            _catalog = GNUTranslations(file)
    else:
        _catalog = None
    _language = language
    return language


def language() -> str:
    """The language in use ("en", "de", ...): what `<html lang>` says."""
    return _language


def _(message: str) -> str:
    """`message` in the language in use."""
    return message if _catalog is None else _catalog.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` in the language in use (its own plural rule; English's without a catalog)."""
    if _catalog is None:
        return singular if count == 1 else plural
    return _catalog.ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Marks `message` for the catalog without translating it now (tables made at import)."""
    return message
