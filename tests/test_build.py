"""build.py's bundles: the first screen gets only what it shows, the rest is kept for later.

Issue 20, item 16: the list of games must wait for nothing it does not show. So the built
page starts Pyodide itself (python.js, named as PyScript's interpreter) and writes the first
screen's modules and one language's catalog before main.py runs; the engine and the other
screens come as zips unpacked on first need.
"""

from __future__ import annotations

import ast
import gzip
import html
import io
import json
import re
import subprocess
import sys
import zipfile
from typing import Any

import pytest

import build

LATER_ONLY = (
    "boards/",
    "engine/",
    "ui/pages.py",
    "ui/session.py",
    "ui/scan.py",
    "ui/think.py",
    "controllers/page.py",
    "controllers/computer.py",
)


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    return build.collect(build.ROOT / "dist")


def start_plan(files: dict[str, bytes]) -> dict[str, Any]:
    found = re.search(rb'<script type="application/json" id="stones-start">(.*?)</script>', files["index.html"])
    assert found, "index.html carries python.js's plan"
    return json.loads(found.group(1))


def test_the_first_screen_gets_what_main_imports_before_drawing_and_nothing_more() -> None:
    first = [p.relative_to(build.WEB).as_posix() for p in build.first_screen_modules()]
    assert {"ui/home.py", "ui/i18n.py", "ui/markup.py", "ui/catalogue.py", "controllers/store.py"} <= set(first)
    assert {"ui/__init__.py", "controllers/__init__.py"} <= set(first)  # a package runs its __init__ first
    assert not [name for name in first if name.startswith(LATER_ONLY)], first


def pyscript_config(files: dict[str, bytes]) -> dict[str, Any]:
    found = re.search(rb'<script type="py" src="./main.py" config=\'(.*?)\'></script>', files["index.html"])
    assert found, "index.html's script carries PyScript's config"
    return json.loads(found.group(1))


def test_pyscripts_config_is_on_the_page_not_a_file_fetched_before_python_runs(built: dict[str, bytes]) -> None:
    """Issue 20, item 16: PyScript reads its config from the script tag instead of fetching it first."""
    assert "pyscript.json" not in built
    assert pyscript_config(built) == {"interpreter": "./python.js"}


def test_the_built_page_starts_python_itself_and_writes_the_first_screens_files(built: dict[str, bytes]) -> None:
    config = pyscript_config(built)
    assert config["interpreter"] == "./python.js"
    assert "files" not in config  # PyScript would wait for them after Pyodide
    plan = start_plan(built)
    assert plan["later"] == ["engine.zip", "ui.zip"]
    assert "ui/catalogue.json" in plan["files"]
    for name in plan["files"] + list(plan["catalogs"].values()) + plan["later"]:
        assert name in built, f"{name} is in the plan but not in the build"
    assert not [name for name in plan["files"] if name.startswith(LATER_ONLY)]
    assert b'<link rel="preload" href="./main.py"' in built["index.html"]


def test_python_starts_from_a_module_of_its_own_after_the_data_it_reads(built: dict[str, bytes]) -> None:
    """python.js runs async, ahead of start.js (whose imports would hold it back), once the parser has read the
    words and the plan it needs."""
    index = built["index.html"].decode()
    python = index.index('<script type="module" async src="./python.js"></script>')
    assert index.index('id="stones-start"') < python and index.index('id="stones-words"') < python
    assert python < index.index('src="./start.js"') and python < index.index('src="./pyscript/core.js"')
    # start.js lays out the home screen as it runs: PyScript's module, run before it, does not wait for that
    assert index.index('src="./pyscript/core.js"') < index.index('src="./start.js"')


def test_pythons_start_up_snapshot_is_pyodides_memory_and_downloads_with_the_page(built: dict[str, bytes]) -> None:
    """Issue 20, item 16: python.js and the AI worker restore Python from it (web/pyodide-start.js) instead of
    starting it: the file they ask for is the one built, Pyodide's own format, preloaded by the page."""
    memory = gzip.decompress(built[build.SNAPSHOT])
    assert memory[:4] == b"\0snp"  # Pyodide's magic number: its restoreSnapshot refuses anything else
    assert len(memory) > 16 << 20  # the WebAssembly memory itself follows the header
    start = (build.WEB / "pyodide-start.js").read_text("utf-8")
    assert f'export const SNAPSHOT = "./{build.SNAPSHOT}";' in start
    assert f'<link rel="preload" href="./{build.SNAPSHOT}" as="fetch" crossorigin>'.encode() in built["index.html"]


def test_the_snapshot_is_made_once_per_pyodide(built: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """Making it takes Node.js seconds: a build whose Pyodide is the last one's takes it from the cache."""

    def no_node(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"Node.js was run again: {args}")

    monkeypatch.setattr(build.subprocess, "run", no_node)
    runtime = {name: built[f"pyodide/{name}"] for name in build.PYODIDE_FILES}
    assert build.pyodide_snapshot(runtime) == built[build.SNAPSHOT]


def test_each_of_pyscripts_start_chunks_is_preloaded_once(built: dict[str, bytes]) -> None:
    """PyScript's core chunk imports donkey twice: one modulepreload of it is enough."""
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)"', built["index.html"].decode())
    assert len(preloads) == len(set(preloads)), preloads
    assert any("/donkey-" in name for name in preloads)


def written_home(files: dict[str, bytes]) -> tuple[str, dict[str, list[str]]]:
    """The home screen build.py wrote into index.html (its template's markup) and each language's words for it."""
    index = files["index.html"].decode()
    template = re.search(r'<template id="stones-home-screen">(.*?)</template>', index, re.S)
    words = re.search(r'<script type="application/json" id="stones-home">(.*?)</script>', index)
    assert template and words, "index.html carries the home screen and its words"
    return template.group(1), json.loads(words.group(1).replace("<\\/", "</"))


def test_the_home_screen_is_written_into_the_page_as_python_draws_it(built: dict[str, bytes], tmp_path: Any) -> None:
    """Issue 20, item 16: the home screen (no saved game) is in index.html in English, marked with its language, with
    every other language's words in the order of its text outside the pictures; put in, each is what ui.home draws."""
    markup, words = written_home(built)
    screens = build.home_screens(built["ui/catalogue.json"], build.compiled_catalogs())
    assert markup == screens["en"].replace('<section class="home"', '<section class="home" data-language="en"', 1)
    assert sorted(words) == ["de", "es", "fr", "it", "nl"]
    english = build.ScreenText(screens["en"]).texts
    assert "Choose a game" in english and "Nine Men's Morris" in english
    for language, texts in words.items():
        assert texts == build.ScreenText(screens[language]).texts
        assert len(texts) == len(english) and texts != english
    assert "Mühle" in words["de"] and "Wähle ein Spiel" in words["de"]
    assert markup.count("<svg") == 5  # the boards' pictures are in it, and their text is not among the words
    index = built["index.html"].decode()
    assert index.index('id="loading"') < index.index('id="stones-home-screen"') < index.index("</main>")


def test_a_home_screen_that_differs_in_more_than_words_stops_the_build() -> None:
    """start.js swaps text only: a language whose home screen has other tags or attributes cannot be written in."""
    screens = {
        "en": '<section class="home"><h2>Choose</h2></section>',
        "de": '<section class="home"><h2>Wähle</h2></section>',
    }
    assert build.home_words(screens) == {"de": ["Wähle"]}
    with pytest.raises(SystemExit, match="differs from English"):
        build.home_words(screens | {"fr": '<section class="home" lang="fr"><h2>Choisis</h2></section>'})
    with pytest.raises(SystemExit, match="differs from English"):
        build.home_words(screens | {"fr": '<section class="home"><h2>Choisis <b>un</b></h2></section>'})


def test_text_inside_a_boards_picture_is_not_among_the_words() -> None:
    text = build.ScreenText(
        '<p>a &amp; b <svg><text>3</text><circle r="1"/></svg> c</p><svg><g><text>x</text></g></svg>'
    )
    assert text.texts == ["a & b ", " c"]
    assert ("svg text", "3") in text.shape and ("svg text", "x") in text.shape


def test_each_language_but_english_has_its_own_catalog_file(built: dict[str, bytes]) -> None:
    plan = start_plan(built)
    assert sorted(plan["catalogs"]) == ["de", "es", "fr", "it", "nl"]  # English's words are the message ids
    for language, name in plan["catalogs"].items():
        assert name == f"locale/{language}/LC_MESSAGES/stones.mo"
    assert not [name for name in built if name.startswith("locale/en/")]


def test_the_later_zips_hold_the_engine_and_every_page_module_but_no_words(built: dict[str, bytes]) -> None:
    with zipfile.ZipFile(io.BytesIO(built["ui.zip"])) as ui:
        names = set(ui.namelist())
    assert {"ui/pages.py", "controllers/page.py", "ui/think.py", "boards/morris.py", "ui/home.py"} <= names
    assert not [name for name in names if not name.endswith(".py")], "catalogs and the catalogue are files of their own"
    with zipfile.ZipFile(io.BytesIO(built["engine.zip"])) as engine:
        assert "engine/__init__.py" in engine.namelist()


def pyscript_package(files: dict[str, bytes]) -> dict[str, str]:
    """PyScript's Python package as the built core chunk carries it: file name → source."""
    return build.pyscript_sources(files[f"pyscript/{build.pyscript_core_chunk(files)}"])


def test_pyscripts_display_imports_html_only_when_it_escapes(built: dict[str, bytes]) -> None:
    """Issue 20, item 16: `import pyscript` ran html.entities' table (60-100 ms of CPU) before main.py; PyScript's
    display.py now imports `html` at its first escape, which escapes as html.escape does."""
    display = pyscript_package(built)["display.py"]
    tree = ast.parse(display)
    imported = [alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert "base64" in imported and not [name for name in imported if name.split(".")[0] == "html"], imported
    escape_function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_escape")
    namespace: dict[str, Any] = {}
    exec(compile(ast.Module(body=[escape_function], type_ignores=[]), "display.py", "exec"), namespace)
    text = "<b class='x'>\"Tom\" & Jerry</b>"
    assert namespace["_escape"](text) == html.escape(text)
    assert "html.escape(" not in display


# PyScript's package imported by CPython, with the JavaScript it reaches for stood in by objects that take any
# attribute or call. It prints the modules `import pyscript` loaded and what the package's names are.
PYSCRIPT_PROBE = """
import json, sys, types

class JavaScript(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"): raise AttributeError(name)
        return JavaScript(name)
    def __call__(self, *args, **kwargs): return JavaScript("result")
    def __iter__(self): return iter(())

for name in ("js", "polyscript", "_pyscript", "pyodide", "pyodide.ffi"):
    sys.modules[name] = JavaScript(name)
sys.modules["js"].JSON = types.SimpleNamespace(stringify=lambda value: "{}")
sys.path.insert(0, sys.argv[1])

def named(value):
    return f"{type(value).__name__} {getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"

first = sys.argv[2:]  # submodules imported by name before the package's names are read
for module in first:
    __import__(module)
import pyscript
loaded = sorted(name for name in sys.modules if name.startswith(("pyscript.", "html")))
attributes = {name: named(getattr(pyscript, name)) for name in ("HTML", "display", "fetch", "Storage", "storage",
    "WebSocket", "when", "Event", "create_named_worker", "workers", "window", "document")}
from pyscript import *
everything = {name: named(value) for name, value in globals().items() if not name.startswith("_")}
everything["pyscript"] = isinstance(pyscript, types.ModuleType)  # its class is a ModuleType of the patch's
print(json.dumps({"loaded": loaded, "attributes": attributes, "star": everything}))
"""


def probe_pyscript(package: dict[str, str], folder: Any, *first: str) -> dict[str, Any]:
    for name, source in package.items():
        (folder / "pyscript").mkdir(parents=True, exist_ok=True)
        (folder / "pyscript" / name).write_text(source, "utf-8")
    command = [sys.executable, "-c", PYSCRIPT_PROBE, str(folder), *first]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def core_chunk(built: dict[str, bytes]) -> str:
    """The name of the PyScript chunk the build patched (it must have one)."""
    name = build.pyscript_core_chunk(built)
    assert name is not None, "core.js names no core chunk"
    return name


def test_import_pyscript_loads_only_what_the_page_uses_and_every_name_stays_the_same(built, tmp_path) -> None:
    """Issue 20, item 16: PyScript's package imported display, fetch, storage, websocket, events and workers with
    `import pyscript`, before main.py; now each comes at the first use of a name it gives, the same object as before
    (also when a submodule was imported by name first, and through `from pyscript import *`)."""
    original = (build.NODE_MODULES / "@pyscript/core/dist" / core_chunk(built)).read_bytes()
    shipped = pyscript_package({**built, f"pyscript/{core_chunk(built)}": original})
    patched = pyscript_package(built)
    before, after = probe_pyscript(shipped, tmp_path / "shipped"), probe_pyscript(patched, tmp_path / "patched")
    assert {"pyscript.display", "pyscript.fetch", "html.entities"} <= set(before["loaded"])
    assert after["loaded"] == ["pyscript.context", "pyscript.ffi", "pyscript.js_modules", "pyscript.util"], after[
        "loaded"
    ]
    assert after["attributes"] == before["attributes"] and after["star"] == before["star"]
    first = ("pyscript.fetch", "pyscript.display", "pyscript.storage", "pyscript.workers", "pyscript.events")
    by_name_first = probe_pyscript(patched, tmp_path / "patched", *first)
    assert by_name_first["attributes"] == before["attributes"]
    assert by_name_first["attributes"]["fetch"] == "function pyscript.fetch.fetch"


def test_a_pyscript_other_than_the_one_patched_stops_the_build(built: dict[str, bytes]) -> None:
    original = (build.NODE_MODULES / "@pyscript/core/dist" / core_chunk(built)).read_bytes()
    assert build.with_pyscript_patched(original) == built[f"pyscript/{core_chunk(built)}"]
    changed = original.replace(b"import base64,html,io", b"import base64,html,io,sys", 1)
    with pytest.raises(SystemExit, match=r"display\.py holds 'import base64,html,io\\n' 0 times, not 1"):
        build.with_pyscript_patched(changed)
    with pytest.raises(SystemExit, match=r"holds 0 sources of display\.py"):
        build.with_pyscript_patched(original.replace(b'"display.py":', b'"shown.py":'))


def test_pyscripts_engine_opens_its_package_cache_only_for_packages(built: dict[str, bytes]) -> None:
    """Issue 20, item 16: the main-thread engine opens the IndexedDB cache only when the config names packages (the
    page's names none), and a PyScript whose engine reads otherwise stops the build."""
    core = core_chunk(built)
    original = (build.NODE_MODULES / "@pyscript/core/dist" / core).read_bytes()
    assert original.count(b"new h(`${c}@${t}`)") == 1
    assert b"l=a?new h(`${c}@${t}`):{sync(){},clear(){},close(){}}," in built[f"pyscript/{core}"]
    assert "packages" not in pyscript_config(built)
    with pytest.raises(SystemExit, match=r"holds 'l=new h\(`\$\{c\}@\$\{t\}`\),' 0 times, not 1"):
        build.with_pyscript_patched(original.replace(b"l=new h(", b"l=new H(", 1))


def node_modules_of(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A checkout in tmp_path with this one's package.json and lock, and node_modules as npm ci leaves it."""
    for name in ("package.json", "package-lock.json"):
        (tmp_path / name).write_bytes((build.ROOT / name).read_bytes())
    modules = tmp_path / "node_modules"
    locked = json.loads((build.ROOT / "package-lock.json").read_text())["packages"]
    modules.mkdir()
    (modules / ".package-lock.json").write_text(json.dumps({"packages": {k: v for k, v in locked.items() if k}}))
    for name, version in build.pinned_versions().items():
        (modules / name).mkdir(parents=True)
        (modules / name / "package.json").write_text(json.dumps({"name": name, "version": version}))
    monkeypatch.setattr(build, "ROOT", tmp_path)
    monkeypatch.setattr(build, "NODE_MODULES", modules)
    return modules


def test_node_modules_is_current_by_its_content_not_its_date(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new git worktree's package-lock.json is newer than a node_modules installed from the same lock: that is no
    reason to reinstall (it ran npm ci through a link to the main checkout's node_modules and emptied it)."""
    import os

    modules = node_modules_of(tmp_path, monkeypatch)
    os.utime(modules / ".package-lock.json", (0, 0))  # installed long before the lock file was written here
    assert build.npm_is_current()
    lock = json.loads((tmp_path / "package-lock.json").read_text())
    name = next(path for path in lock["packages"] if path)
    lock["packages"][name]["version"] = "0.0.0-another"
    (tmp_path / "package-lock.json").write_text(json.dumps(lock))
    assert not build.npm_is_current()


def test_a_linked_node_modules_is_never_reinstalled_through_the_link(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "main").mkdir()
    shared = node_modules_of(tmp_path / "main", monkeypatch)
    (shared / ".package-lock.json").unlink()  # stale: npm ci would run
    worktree = tmp_path / "worktree"
    worktree.mkdir()
    (worktree / "node_modules").symlink_to(shared)
    monkeypatch.setattr(build, "NODE_MODULES", worktree / "node_modules")
    ran: list[Any] = []
    monkeypatch.setattr(build.subprocess, "run", lambda *args, **kwargs: ran.append(args))
    with pytest.raises(SystemExit, match="links to"):
        build.ensure_node_modules()
    assert not ran and any(shared.iterdir())
