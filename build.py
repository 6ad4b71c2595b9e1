#!/usr/bin/env python3
"""Assemble the offline web app in dist/: page, engine, PyScript and Pyodide, all local.

    python build.py [--out dist]

Standard library only. Every byte the page needs ends up in the output folder,
so it runs with no network once served (and, after the first visit, with no
server: the generated service worker precaches every built file):

- the Pyodide runtime files PyScript needs (from the pinned npm `pyodide`),
- PyScript's own modules and core.css (from the pinned npm `@pyscript/core`),
- the first screen's files, each at its own path: the page's modules that `main.py` imports
  before drawing the list of games, `ui/catalogue.json` (that list) and each language's
  words, `locale/<lang>/LC_MESSAGES/stones.mo`, compiled here from `web/locale/<lang>/LC_MESSAGES/
  stones.po` (English has none: its words are the message ids). `python.js` writes them into
  Pyodide's file system before `main.py` runs: the modules, and the chosen language's catalog
  only; another language's is fetched when it is picked,
- `engine.zip` (the rules engine, .py files only) and `ui.zip` (every page module but main.py),
  downloaded by `python.js` while Pyodide starts and unpacked when a screen beyond the first
  needs them (`controllers/later.py`); the computer players' Web Worker (`ai-worker.js`)
  unpacks the same two zips,
- the home screen (the list of games) written into index.html in English, as a template that start.js puts in the
  page's language and lays out unseen after the loading screen while Pyodide starts: main.py shows it, it draws it
  no more,
- `web/` page files, with PyScript's config written inline in index.html (no fetch before Python
  starts): its interpreter is `python.js`, which starts the local Pyodide as the page loads instead
  of when PyScript gets to it,
- `pyodide/snapshot.bin.gz`: Python's memory just after Pyodide has started, made here by the pinned Pyodide in
  Node.js: the page (python.js) and the computer players' worker restore it instead of starting Python (most of a
  cold start), and start Python afresh if it cannot be had,
- `sw.js`, `manifest.webmanifest` and two PNG icons drawn here.

`npm ci` runs first when node_modules is missing, holds other packages than package-lock.json
names, or other versions than the pins in package.json (a node_modules that is a link to another
checkout's is never reinstalled through the link: the build stops and says so).
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Collection
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
NODE_MODULES = ROOT / "node_modules"
WEB = ROOT / "web"
ENGINE = ROOT / "engine"
LOCALE = WEB / "locale"

# What Pyodide fetches at start-up (pyodide-lock.json even with no packages).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
MARKER = ".stones-build.json"  # written last; marks a folder this script may wipe
ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed timestamps: the same sources give the same bytes
URL_RE = re.compile(rb"https?://[^\s\"'`)<>]+")
URL_ALLOWED = (b"http://www.w3.org/",)  # XML namespaces are names, not downloads
# PyScript's modules that load at every start (its core chunk imports these plugins before Pyodide; a
# config's "!name" does not stop them: 0.7.31 loads them all for MicroPython's half, used or not):
# index.html gets a modulepreload for each, so they download at once instead of one after the other.
PYSCRIPT_START_PLUGINS = ("deprecations-manager", "donkey", "error", "py-editor", "py-game", "py-terminal")
# PyScript's config, written inline on the page's <script type=py>: no file fetched before Python runs.
# The interpreter is python.js, which starts the local Pyodide as the page loads.
PYSCRIPT_CONFIG = {"interpreter": "./python.js"}
PYSCRIPT_CONFIG_SLOT = 'config="written-by-build.py"'  # web/index.html's place for it
# PyScript's Python package ships as JSON strings in its core chunk, and PyScript runs `import pyscript` before main.py.
# Two pinned rewrites of 0.7.31's package keep that import to what the page uses (PyScript's document and window):
# - `pyscript/__init__.py` imported display, fetch, storage, websocket, events and workers with it: ~60 ms of CPU
#   under Pyodide compiling and running modules the first screen never calls. They are imported at the first use of
#   a name they give (PEP 562's module __getattr__), and a submodule imported by name first still leaves the package's
#   attribute the function it held (`pyscript.fetch` is the function, as before);
# - `pyscript/display.py` imported `html` for html.escape, and `html` builds html.entities' table of 2,231 names:
#   60-100 ms of CPU more. It imports `html` at its first escape.
# Each old text must be found exactly as often as said: a PyScript whose text differs stops the build.
PYSCRIPT_LAZY_NAMES = {  # what pyscript/__init__.py gave, by the submodule each comes from
    "HTML": "display",
    "display": "display",
    "fetch": "fetch",
    "Storage": "storage",
    "storage": "storage",
    "WebSocket": "websocket",
    "when": "events",
    "Event": "events",
}
PYSCRIPT_EAGER_IMPORTS = (
    "from pyscript.display import HTML,display\n"
    "from pyscript.fetch import fetch\n"
    "from pyscript.storage import Storage,storage\n"
    "from pyscript.websocket import WebSocket\n"
    "from pyscript.events import when,Event\n"
    "if not RUNNING_IN_WORKER:from pyscript.workers import create_named_worker,workers"
)
PYSCRIPT_LAZY_IMPORTS = f"""\
# Stones' build.py: the names below import their submodule at first use, not with the package
import importlib as _importlib,sys as _sys,types as _types
_LATER={PYSCRIPT_LAZY_NAMES!r}
if not RUNNING_IN_WORKER:_LATER.update(create_named_worker='workers',workers='workers')
__all__=[*(A for A in globals() if not A.startswith('_')),*_LATER,'flatted','websocket','events']
class _Package(_types.ModuleType):
\tdef __getattr__(self,name):
\t\tif name not in _LATER:raise AttributeError(f"module 'pyscript' has no attribute {{name!r}}")
\t\tA=getattr(_importlib.import_module(f"pyscript.{{_LATER[name]}}"),name);_types.ModuleType.__setattr__(self,name,A);return A
\tdef __setattr__(self,name,value):
\t\tif _LATER.get(name)==name and isinstance(value,_types.ModuleType):value=getattr(value,name)
\t\t_types.ModuleType.__setattr__(self,name,value)
\tdef __dir__(self):return sorted({{*self.__dict__,*_LATER}})
_sys.modules[__name__].__class__=_Package"""
# PyScript's Pyodide engine (0.7.31's core chunk, its main-thread copy) opens its cache of installed packages, an
# IndexedDB database, at every start and waits for it before calling loadPyodide: medians of 24-80 ms of a cold start
# (bench/web_steps.py), in most starts between Pyodide up and the first screen, for packages this page never
# installs (its config names none). A pinned rewrite opens it only when the config names packages (`a` is the
# engine's list of them); without, the cache is a stand-in with the three methods the engine then calls.
PYSCRIPT_ENGINE_PATCHES = (("l=new h(`${c}@${t}`),", "l=a?new h(`${c}@${t}`):{sync(){},clear(){},close(){}},", 1),)
PYSCRIPT_PATCHES: dict[str, tuple[tuple[str, str, int], ...]] = {
    "__init__.py": ((PYSCRIPT_EAGER_IMPORTS, PYSCRIPT_LAZY_IMPORTS, 1),),
    "display.py": (
        (
            "import base64,html,io\n",
            "import base64,io\ndef _escape(text):\n\tfrom html import escape;return escape(text)\n",
            1,
        ),
        ("html.escape(", "_escape(", 3),
    ),
}

APP_NAME = "Stones"
THEME = "#2f4a3a"


# ----- npm ------------------------------------------------------------------------
def pinned_versions() -> dict[str, str]:
    return json.loads((ROOT / "package.json").read_text())["dependencies"]


def npm_is_current() -> bool:
    """node_modules holds what package-lock.json pins: npm's own record of what it installed (its hidden lockfile)
    lists the same packages, and the pinned ones are there. By content, not by date: a new checkout's (a git
    worktree's) package-lock.json is newer than an older node_modules of the same lock."""
    installed = NODE_MODULES / ".package-lock.json"
    if not installed.exists():
        return False
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    if json.loads(installed.read_text()).get("packages") != {path: entry for path, entry in locked.items() if path}:
        return False
    for name, version in pinned_versions().items():
        manifest = NODE_MODULES / name / "package.json"
        if not manifest.exists() or json.loads(manifest.read_text()).get("version") != version:
            return False
    return True


def ensure_node_modules() -> None:
    if npm_is_current():
        return
    if NODE_MODULES.is_symlink():  # npm ci would empty the folder it points to (another checkout's), then drop it
        sys.exit(
            f"build.py: {NODE_MODULES} links to {NODE_MODULES.resolve()}, which does not hold what package-lock.json "
            "pins: run `npm ci` where it points, or remove the link"
        )
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: npm is needed to fetch the pinned Pyodide and PyScript (install Node.js 20+)")
    print("build.py: running npm ci (node_modules missing or stale)", flush=True)
    subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    (NODE_MODULES / ".package-lock.json").touch()


# ----- zips -----------------------------------------------------------------------
def python_sources(base: Path, exclude: Collection[str] = frozenset()) -> list[Path]:
    return sorted(
        p for p in base.rglob("*.py") if "__pycache__" not in p.parts and p.relative_to(base).as_posix() not in exclude
    )


def make_zip(files: list[tuple[str, Path | bytes]]) -> bytes:
    """A deterministic zip: fixed dates and order, so the content hash only moves with the code."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for arcname, source in files:
            info = zipfile.ZipInfo(arcname, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source if isinstance(source, bytes) else source.read_bytes())
    return buffer.getvalue()


def page_modules_importable() -> None:
    """The page's modules (web/) and the engine importable here, as the browser imports them."""
    for path in (str(WEB), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)


def game_catalogue() -> bytes:
    """ui/catalogue.json: the home screen's list of games, so the page imports no game module to start."""
    page_modules_importable()
    from ui.catalogue import catalogue_json  # the engine itself describes the games, in this build

    return catalogue_json().encode()


# ----- message catalogs: .po (the translators' text) compiled to .mo (what gettext reads) ------
PoEntry = tuple[str | None, str, str | None, list[str], bool]  # context, id, plural id, strings, fuzzy


MESSAGE_FUNCTIONS = {"_": 1, "N_": 1, "ngettext": 2}  # the marks (web/ui/i18n.py) and how many strings each takes


def extract_messages(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """pybabel's extractor for the page's Python (named in web/locale/babel.cfg): reads the syntax tree, so it
    finds the marks inside f-strings too (pybabel's own reads tokens, and an f-string is one token to it)."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        count = MESSAGE_FUNCTIONS.get(node.func.id)
        strings = [a.value for a in node.args[:count] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if count and len(strings) == count:
            yield node.lineno, node.func.id, strings[0] if count == 1 else tuple(strings), []


def read_po(text: str) -> list[PoEntry]:
    """The entries of a .po file (the header is the one with an empty msgid); obsolete `#~` ones left out."""
    entries: list[PoEntry] = []
    fields: dict[str, str] = {}
    fuzzy = False
    last = ""

    def finish() -> None:
        nonlocal fields, fuzzy
        if "msgid" in fields:
            plurals = sorted((k for k in fields if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
            strings = [fields[k] for k in plurals] if plurals else [fields.get("msgstr", "")]
            entries.append((fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), strings, fuzzy))
        fields, fuzzy = {}, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                finish()
                fuzzy = True
            elif not line and fields:
                finish()
            continue
        if line.startswith('"'):
            if not last:
                raise ValueError(f"line {number}: a string with no keyword before it")
            fields[last] += ast.literal_eval(line)
            continue
        keyword, _, value = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in fields or any(k.startswith("msgstr[") for k in fields)):
            finish()
        if not value.startswith('"'):
            raise ValueError(f"line {number}: {keyword} needs a quoted string")
        fields[keyword] = ast.literal_eval(value)
        last = keyword
    finish()
    return entries


def mo_bytes(entries: list[PoEntry]) -> bytes:
    """A GNU .mo file of the translated, not fuzzy entries (and the header, which names the plural rule)."""
    messages: dict[bytes, bytes] = {}
    for context, msgid, plural, strings, fuzzy in entries:
        if fuzzy and msgid or not all(strings):
            continue
        key = msgid if plural is None else f"{msgid}\0{plural}"
        if context is not None:
            key = f"{context}\x04{key}"
        messages[key.encode()] = "\0".join(strings).encode()
    keys = sorted(messages)
    header_size = 7 * 4
    ids_at, strs_at = header_size, header_size + 8 * len(keys)
    data_at = strs_at + 8 * len(keys)
    ids_table: list[int] = []
    strs_table: list[int] = []
    data = b""
    for original in keys:
        ids_table += [len(original), data_at + len(data)]
        data += original + b"\0"
    for original in keys:
        value = messages[original]
        strs_table += [len(value), data_at + len(data)]
        data += value + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), ids_at, strs_at, 0, data_at)
    return (
        header
        + struct.pack(f"<{len(ids_table)}I", *ids_table)
        + struct.pack(f"<{len(strs_table)}I", *strs_table)
        + data
    )


def start_words() -> dict[str, dict[str, str]]:
    """The loading screen's words in every language, from the catalogs (start.js shows them before Python runs)."""
    page_modules_importable()
    from ui.home import START_WORDS

    words = {}
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/stones.po")):
        translated = {
            msgid: strings[0] for _c, msgid, _p, strings, fuzzy in read_po(po.read_text("utf-8")) if not fuzzy
        }
        words[po.parts[-3]] = {key: translated.get(text) or text for key, text in START_WORDS.items()}
    return words


def before_the_scripts(index: bytes, html: str) -> bytes:
    """index.html with `html` on the lines ahead of its first script (or at the end of its head if it has none):
    python.js runs as soon as it arrives (async), and an element the parser has not reached yet would be missing."""
    found = index.find(b"<script")
    at = index.rfind(b"\n", 0, found) + 1 if found >= 0 else index.index(b"</head>")
    return index[:at] + html.encode() + index[at:]


def with_start_words(index: bytes) -> bytes:
    """index.html with the loading screen's words of every language, as JSON for start.js and python.js."""
    data = json.dumps(start_words(), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return before_the_scripts(index, f'  <script type="application/json" id="stones-words">{data}</script>\n')


def compiled_catalogs() -> list[tuple[str, bytes]]:
    """Every language's .mo that has words of its own, named as gettext looks for it under `locale/`."""
    page_modules_importable()
    from ui.i18n import needs_catalog

    return [
        (f"locale/{po.relative_to(LOCALE).with_suffix('.mo').as_posix()}", mo_bytes(read_po(po.read_text("utf-8"))))
        for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
        if needs_catalog(po.parts[-3])
    ]


# ----- what the first screen needs, and what waits --------------------------------------------
FIRST_SCREEN_SCRIPT = "main.py"
LATER_BUNDLES = ("engine.zip", "ui.zip")  # downloaded as Pyodide starts, unpacked on first need


def top_level_imports(path: Path) -> list[str]:
    """The modules a file imports as it runs (imports inside functions or `if TYPE_CHECKING:` wait)."""
    package = path.relative_to(WEB).parent.parts
    names = []
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return names


def module_file(name: str) -> Path | None:
    """The page's own source of a module name (None for the standard library, PyScript or a name in a module)."""
    base = WEB.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def first_screen_modules() -> list[Path]:
    """The page's modules main.py imports before drawing the list of games, and theirs, with their packages."""
    found: set[Path] = set()
    waiting = [WEB / FIRST_SCREEN_SCRIPT]
    while waiting:
        for name in top_level_imports(waiting.pop()):
            parts = name.split(".")
            for depth in range(1, len(parts) + 1):  # a package's __init__ runs before its modules
                source = module_file(".".join(parts[:depth]))
                if source is not None and source not in found:
                    found.add(source)
                    waiting.append(source)
    return sorted(found)


def start_plan(catalogs: list[str]) -> dict[str, Any]:
    """What python.js writes before main.py runs (paths under the page's folder), and what it keeps for later."""
    first = [p.relative_to(WEB).as_posix() for p in first_screen_modules()] + ["ui/catalogue.json"]
    by_language = {name.split("/")[1]: name for name in catalogs}
    return {"files": first, "catalogs": by_language, "later": list(LATER_BUNDLES)}


def with_start_plan(index: bytes, plan: dict[str, Any]) -> bytes:
    """index.html with python.js's plan as JSON, and main.py asked for at once (PyScript wants it right after Pyodide)."""
    data = json.dumps(plan, separators=(",", ":"))
    script = f'  <script type="application/json" id="stones-start">{data}</script>\n'
    link = '  <link rel="preload" href="./main.py" as="fetch" crossorigin>\n'
    return before_the_scripts(index, link + script)


# ----- the home screen, written into the page ------------------------------------------------
# The home screen (ui.home.home with no saved game) goes into index.html in English, as a template: start.js puts its
# words in the page's language and it in the page, unseen (style.css), and the browser lays it out while Pyodide starts;
# main.py only takes the loading screen above it away, where it drew the screen before (parsing its markup, laying it
# out and painting it after Pyodide was up). Each language's words are its text outside the boards' pictures, in order.
HOME_WORDS_ID = "stones-home"  # the JSON of each language's words: {language: [text, ...]}
HOME_TEMPLATE_ID = "stones-home-screen"  # a <template>: parsed with the page, laid out only once start.js puts it in
HOME_SLOT = b"</main>"  # the home screen goes in as the last thing in web/index.html's <main id="app">


class ScreenText(HTMLParser):
    """A screen's markup as start.js sees it: its text nodes outside <svg> (in order), and all the rest (its shape)."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.shape: list[Any] = []
        self._svg_depth = 0  # inside a board's picture: its text is part of the shape
        self._text_open = False  # consecutive data is one text node
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._svg_depth += tag == "svg" or self._svg_depth > 0
        self.shape.append(("start", tag, attrs))
        self._text_open = False

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.shape.append(("empty", tag, attrs))
        self._text_open = False

    def handle_endtag(self, tag: str) -> None:
        self._svg_depth -= self._svg_depth > 0
        self.shape.append(("end", tag))
        self._text_open = False

    def handle_data(self, data: str) -> None:
        if self._svg_depth:
            self.shape.append(("svg text", data))
        elif self._text_open:
            self.texts[-1] += data
        else:
            self.texts.append(data)
            self._text_open = True


def home_screens(games: bytes, catalogs: list[tuple[str, bytes]]) -> dict[str, str]:
    """The home screen with no saved game in every language, as main.py draws it from the built list of games
    (`games`, ui/catalogue.json) and each language's compiled catalog."""
    page_modules_importable()
    from ui import catalogue, i18n
    from ui.home import home

    with tempfile.TemporaryDirectory() as folder:
        built = Path(folder) / "catalogue.json"
        built.write_bytes(games)
        for name, data in catalogs:
            (Path(folder) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(folder) / name).write_bytes(data)
        was = catalogue.CATALOGUE
        catalogue.CATALOGUE = built  # the list the page reads, not the engine described again
        try:
            screens = {}
            for language in i18n.LANGUAGES:
                i18n.use(language, Path(folder) / "locale")
                screens[language] = home(None)
        finally:
            catalogue.CATALOGUE = was
            i18n.use(i18n.DEFAULT)
    return screens


def home_words(screens: dict[str, str]) -> dict[str, list[str]]:
    """Each language's words of the home screen (not English's: the page holds them); the screens must differ only
    in their words, as start.js swaps nothing else."""
    english = ScreenText(screens[default_language()])
    words = {}
    for language, markup in screens.items():
        text = ScreenText(markup)
        if text.shape != english.shape or len(text.texts) != len(english.texts):
            sys.exit(f"build.py: the home screen in {language!r} differs from English's in more than its words")
        if language != default_language():
            words[language] = text.texts
    return words


def default_language() -> str:
    """The page's language without a catalog (English): the words the page's own markup is in."""
    page_modules_importable()
    from ui.i18n import DEFAULT

    return DEFAULT


def with_home_screen(index: bytes, games: bytes, catalogs: list[tuple[str, bytes]]) -> bytes:
    """index.html with the home screen in English after the loading screen (marked with its language, which start.js
    changes when it puts in another's words) and every other language's words as JSON for start.js."""
    if index.count(HOME_SLOT) != 1:
        sys.exit("build.py: web/index.html needs one <main id=app> for the home screen")
    screens = home_screens(games, catalogs)
    english = screens[default_language()]
    marked = english.replace('<section class="home"', f'<section class="home" data-language="{default_language()}"', 1)
    if marked == english:
        sys.exit('build.py: ui.home.home() no longer starts with <section class="home">: update with_home_screen')
    template = f'  <template id="{HOME_TEMPLATE_ID}">{marked}</template>\n  '
    index = index.replace(HOME_SLOT, template.encode() + HOME_SLOT, 1)
    data = json.dumps(home_words(screens), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return before_the_scripts(index, f'  <script type="application/json" id="{HOME_WORDS_ID}">{data}</script>\n')


# ----- icons: a wooden octagon with stones, drawn pixel by pixel -------------------
def _mix(a: tuple[float, ...], b: tuple[float, ...], t: float) -> tuple[float, ...]:
    return tuple(x + (y - x) * t for x, y in zip(a, b))


def _clamp(x: float) -> float:
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def draw_icon(size: int) -> bytes:
    """A PNG (RGBA) of the three-stones board motif, full bleed so it also works as maskable."""
    bg = (0.18, 0.29, 0.23)
    wood_light, wood_dark, rim = (0.86, 0.64, 0.38), (0.74, 0.50, 0.27), (0.45, 0.27, 0.12)
    pocket = (0.42, 0.25, 0.10)
    stones = {  # grid offset → (base colour, opacity)
        (-1, -1): ((0.96, 0.95, 0.91), 1.0),
        (0, -1): ((0.12, 0.12, 0.13), 1.0),
        (1, -1): ((0.96, 0.95, 0.91), 1.0),
        (-1, 0): ((0.70, 0.86, 0.95), 0.55),
        (1, 0): ((0.12, 0.12, 0.13), 1.0),
        (-1, 1): ((0.12, 0.12, 0.13), 1.0),
        (1, 1): ((0.70, 0.86, 0.95), 0.55),
        (0, 1): ((0.96, 0.95, 0.91), 1.0),
    }
    px = 1.0 / size
    apothem, step = 0.40, 0.2
    r_pocket, r_stone = 0.072, 0.082
    diag = 1 / math.sqrt(2)
    rows = []
    for j in range(size):
        row = bytearray([0])  # PNG filter: none
        y = (j + 0.5) * px - 0.5
        for i in range(size):
            x = (i + 0.5) * px - 0.5
            colour: tuple[float, ...] = bg  # mixed with the wood and stones below
            # the octagon: outside distance along the 4 axis pairs
            sd = max(abs(x), abs(y), (abs(x) + abs(y)) * diag) - apothem
            cover = _clamp(0.5 - sd / px)
            if cover > 0:
                grain = 0.5 + 0.5 * math.sin(y * 90 + math.sin(x * 13) * 2.2)
                wood = _mix(wood_dark, wood_light, grain)
                wood = _mix(rim, wood, _clamp((-sd) / 0.035))
                # nearest pocket of the 3x3 grid (the centre one stays empty, like e5)
                gx, gy = round(x / step), round(y / step)
                if max(abs(gx), abs(gy)) <= 1 and (gx, gy) != (0, 0):
                    d = math.hypot(x - gx * step, y - gy * step)
                    hole = _clamp(0.5 - (d - r_pocket) / px)
                    wood = _mix(wood, pocket, hole)
                    if (gx, gy) in stones:
                        base, opacity = stones[(gx, gy)]
                        hx, hy = gx * step - 0.3 * r_stone, gy * step - 0.35 * r_stone
                        shade = _clamp(math.hypot(x - hx, y - hy) / (1.3 * r_stone))
                        stone = _mix(_mix(base, (1, 1, 1), 0.45), _mix(base, (0, 0, 0), 0.35), shade)
                        inside = _clamp(0.5 - (d - r_stone) / px) * opacity
                        wood = _mix(wood, stone, inside)
                colour = _mix(colour, wood, cover)
            row += bytes(int(_clamp(c) * 255 + 0.5) for c in colour) + b"\xff"
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


# ----- generated text files ---------------------------------------------------------
def manifest() -> bytes:
    data = {
        "name": f"{APP_NAME} — five stone board games",
        "short_name": APP_NAME,
        "description": "Three Stones, Morris, Rings, Sage Stones and Triple Domino, fully offline.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#f3ead8",
        "theme_color": THEME,
        "icons": [
            {"src": "./icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any maskable"},
            {"src": "./icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
        ],
    }
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


SERVICE_WORKER = """\
// Generated by build.py: precaches every file of this build; cache-first afterwards.
const CACHE = "stones-%(hash)s";
const FILES = %(files)s;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope).pathname;
  if (url.pathname.startsWith(scope + "api/")) return;  // the companion server's live endpoints
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: request.mode === "navigate" }))
      .then((hit) => hit || fetch(request))
  );
});
"""


def service_worker(files: list[str], digest: str) -> bytes:
    listed = ["./"] + [f"./{name}" for name in files]
    return (SERVICE_WORKER % {"hash": digest, "files": json.dumps(listed, indent=2)}).encode()


# ----- Python's memory, started once here ---------------------------------------------------
SNAPSHOT = "pyodide/snapshot.bin.gz"  # web/pyodide-start.js fetches it by this name
SNAPSHOT_CACHE = NODE_MODULES / ".cache" / "stones-snapshot"  # one per Pyodide and script: npm ci clears it
# Pyodide's own way (its src/templates/makesnap.mjs): a start with `_makeSnapshot` keeps no JS object a snapshot cannot
# carry, and `makeMemorySnapshot()` returns the WebAssembly memory with what it needs to reconnect. sys.executable as a
# browser's start has it (else Node's script path).
SNAPSHOT_SCRIPT = """\
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [pyodideFolder, out] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${pyodideFolder}/pyodide.mjs`).href);
const python = await loadPyodide({ _makeSnapshot: true, _sysExecutable: "./this.program" });
writeFileSync(out, python.makeMemorySnapshot());
"""


def pyodide_snapshot(runtime: dict[str, bytes]) -> bytes:
    """Python's memory just after the pinned Pyodide has started, gzipped (about 31 MB raw, 6 MB compressed).

    Restoring it skips Python's own start, about 2 of the 2.7 s of a quiet cold start here. Made in Node.js (the
    browser restores it the same: Pyodide's memory layout is the WebAssembly's, not the host's) and cached by the
    hash of the runtime's files (`runtime`: name in PYODIDE_FILES -> bytes, as the build read them), so a build
    only makes it when Pyodide changes."""
    pyodide = NODE_MODULES / "pyodide"
    key = hashlib.sha256(SNAPSHOT_SCRIPT.encode())
    for name in sorted(runtime):
        key.update(name.encode() + b"\0" + hashlib.sha256(runtime[name]).digest())
    cached = SNAPSHOT_CACHE / f"{key.hexdigest()[:24]}.bin.gz"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None:
        sys.exit("build.py: Node.js is needed to make Python's start-up snapshot (install Node.js 20+)")
    print("build.py: making Python's start-up snapshot with the pinned Pyodide (Node.js, a few seconds)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw_path = Path(tmp) / "snapshot.bin"
        subprocess.run(
            [node, "--input-type=module", "-e", SNAPSHOT_SCRIPT, str(pyodide), str(raw_path)], cwd=tmp, check=True
        )
        raw = raw_path.read_bytes()
    data = gzip.compress(raw, compresslevel=6, mtime=0)  # mtime 0: the same memory gives the same bytes
    SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


# ----- the build ----------------------------------------------------------------------
def collect(out: Path) -> dict[str, bytes]:
    """Every output file (relative path → bytes) except sw.js, which lists them."""
    files: dict[str, bytes] = {}
    pyodide = NODE_MODULES / "pyodide"
    runtime = {name: (pyodide / name).read_bytes() for name in PYODIDE_FILES}
    files.update({f"pyodide/{name}": data for name, data in runtime.items()})
    files[SNAPSHOT] = pyodide_snapshot(runtime)
    pyscript = NODE_MODULES / "@pyscript" / "core" / "dist"
    for path in sorted(pyscript.glob("*.js")) + [pyscript / "core.css"]:
        files[f"pyscript/{path.name}"] = path.read_bytes()
    core = pyscript_core_chunk(files)
    if core is None:
        sys.exit("build.py: PyScript's core.js imports no core chunk: PYSCRIPT_PATCHES cannot be made")
    files[f"pyscript/{core}"] = with_pyscript_patched(files[f"pyscript/{core}"])

    files["engine.zip"] = make_zip([(p.relative_to(ROOT).as_posix(), p) for p in python_sources(ENGINE)])
    ui_sources = python_sources(WEB, exclude={FIRST_SCREEN_SCRIPT})
    files["ui.zip"] = make_zip([(p.relative_to(WEB).as_posix(), p) for p in ui_sources])
    for path in first_screen_modules():
        files[path.relative_to(WEB).as_posix()] = path.read_bytes()
    files["ui/catalogue.json"] = game_catalogue()
    catalogs = compiled_catalogs()
    files.update(catalogs)

    for path in sorted(WEB.iterdir()):
        if path.is_file() and (path.suffix != ".py" or path.name == "main.py"):
            files[path.name] = path.read_bytes()
    if "index.html" not in files:
        sys.exit("build.py: web/index.html is missing")
    files["index.html"] = with_module_preloads(files["index.html"], pyscript_start_modules(files))
    files["index.html"] = with_start_words(files["index.html"])
    files["index.html"] = with_start_plan(files["index.html"], start_plan([name for name, _ in catalogs]))
    files["index.html"] = with_inline_config(files["index.html"])
    files["index.html"] = with_home_screen(files["index.html"], files["ui/catalogue.json"], catalogs)
    files["manifest.webmanifest"] = manifest()
    files["icon-192.png"] = draw_icon(192)
    files["icon-512.png"] = draw_icon(512)
    return files


def pyscript_core_chunk(files: dict[str, bytes]) -> str | None:
    """The name of PyScript's core chunk (core.js imports it; the name carries a hash), None if core.js names none."""
    core = re.search(rb'from\s*"\./(core-[\w-]+\.js)"', files["pyscript/core.js"])
    return core.group(1).decode() if core else None


PYSCRIPT_SOURCE = re.compile(rb'"(\w+\.py)":("(?:[^"\\]|\\.)*")')  # a module of PyScript's package: name, JSON string


def pyscript_sources(chunk: bytes) -> dict[str, str]:
    """PyScript's Python package as a core chunk carries it: file name -> source."""
    return {name.decode(): json.loads(text) for name, text in PYSCRIPT_SOURCE.findall(chunk)}


def with_pyscript_patched(chunk: bytes) -> bytes:
    """PyScript's core chunk with PYSCRIPT_ENGINE_PATCHES made in its JavaScript and PYSCRIPT_PATCHES in its package's
    modules (each a JSON string in the chunk)."""
    for old, new, count in PYSCRIPT_ENGINE_PATCHES:
        if chunk.count(old.encode()) != count:
            sys.exit(
                f"build.py: PyScript's core chunk holds {old!r} {chunk.count(old.encode())} times, not {count}: "
                "a PyScript other than the one PYSCRIPT_ENGINE_PATCHES was written for"
            )
        chunk = chunk.replace(old.encode(), new.encode())
    for module, patches in PYSCRIPT_PATCHES.items():
        found = [match for match in PYSCRIPT_SOURCE.finditer(chunk) if match.group(1) == module.encode()]
        if len(found) != 1:
            sys.exit(
                f"build.py: PyScript's core chunk holds {len(found)} sources of {module}, not 1: check PYSCRIPT_PATCHES"
            )
        source = json.loads(found[0].group(2))
        for old, new, count in patches:
            if source.count(old) != count:
                sys.exit(
                    f"build.py: PyScript's {module} holds {old!r} {source.count(old)} times, not {count}: "
                    "a PyScript other than the one PYSCRIPT_PATCHES was written for"
                )
            source = source.replace(old, new)
        start, end = found[0].span(2)
        chunk = chunk[:start] + json.dumps(source, ensure_ascii=False).encode() + chunk[end:]
    return chunk


def pyscript_start_modules(files: dict[str, bytes]) -> list[str]:
    """PyScript's chunks loaded at every start: the one core.js imports, and the plugins it imports."""
    core = pyscript_core_chunk(files)
    if core is None:
        return []
    names = [core]
    for found in re.finditer(rb'import\("\./([\w-]+\.js)"\)', files[f"pyscript/{names[0]}"]):
        name = found.group(1).decode()
        if name.rsplit("-", 1)[0] in PYSCRIPT_START_PLUGINS:
            names.append(name)
    return list(dict.fromkeys(names))  # the core chunk imports donkey twice: one preload of it


def with_module_preloads(index: bytes, modules: list[str]) -> bytes:
    """index.html with a modulepreload link per PyScript start-up chunk (their names carry hashes)."""
    links = "".join(f'  <link rel="modulepreload" href="./pyscript/{name}">\n' for name in modules)
    return index.replace(b"</head>", links.encode() + b"</head>", 1)


def with_inline_config(index: bytes) -> bytes:
    """index.html with PyScript's config in its script tag (no "files": python.js writes the first screen's)."""
    if PYSCRIPT_CONFIG_SLOT.encode() not in index:
        sys.exit(f"build.py: web/index.html's <script type=py> has no {PYSCRIPT_CONFIG_SLOT} for PyScript's config")
    config = json.dumps(PYSCRIPT_CONFIG, separators=(",", ":"))
    return index.replace(PYSCRIPT_CONFIG_SLOT.encode(), f"config='{config}'".encode(), 1)


def check_no_remote_urls(files: dict[str, bytes]) -> list[str]:
    """Our own files must name no remote URL; vendor files only carry unused CDN defaults."""
    problems, vendor = [], 0
    for name, data in files.items():
        if name.endswith((".png", ".wasm", ".zip", ".gz")):
            continue
        urls = [u for u in set(URL_RE.findall(data)) if not u.startswith(URL_ALLOWED)]
        if not urls:
            continue
        if name.startswith(("pyodide/", "pyscript/")):
            vendor += len(urls)
        else:
            problems.append(f"{name}: {', '.join(sorted(u.decode(errors='replace') for u in urls))}")
    if vendor:
        print(
            f"  note: vendor code holds {vendor} URL strings (CDN defaults and doc links); "
            "none is fetched because PyScript's config names the local interpreter"
        )
    return problems


def build(out: Path) -> dict[str, bytes]:
    ensure_node_modules()
    files = collect(out)
    problems = check_no_remote_urls(files)
    if problems:
        sys.exit("build.py: remote URLs in the app's own files:\n  " + "\n  ".join(problems))
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    build_hash = digest.hexdigest()[:16]
    files["sw.js"] = service_worker(sorted(files), build_hash)

    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).exists():
            sys.exit(f"build.py: {out} exists and was not made by build.py; not touching it")
        shutil.rmtree(out)
    for name, data in files.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    info = {"hash": build_hash, "versions": pinned_versions(), "files": sorted(files)}
    (out / MARKER).write_text(json.dumps(info, indent=1) + "\n")
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="dist", help="output folder (default: dist)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if not out.is_absolute():
        out = (Path.cwd() / out).resolve()
    files = build(out)
    total = sum(len(d) for d in files.values())
    packed = (".png", ".zip", ".gz")  # compressed already
    gz = sum(len(zlib.compress(d, 6)) for n, d in files.items() if not n.endswith(packed))
    gz += sum(len(d) for n, d in files.items() if n.endswith(packed))
    print(f"built {out}: {len(files)} files, {total / 1e6:.1f} MB ({gz / 1e6:.1f} MB compressed)")
    for name, data in sorted(files.items(), key=lambda kv: -len(kv[1]))[:6]:
        print(f"  {len(data) / 1e6:7.2f} MB  {name}")
    print(
        f"  engine.zip {len(files['engine.zip']) / 1e3:.0f} kB, ui.zip {len(files['ui.zip']) / 1e3:.0f} kB; "
        f"serve with: python -m server --dist {os.path.relpath(out)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
