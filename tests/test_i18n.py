"""The page's languages: catalogs complete and in step with the code, placeholders intact, codes worded.

Fails when a message is missing or left untranslated in any language, when a translation
drops or renames a placeholder ({name}, %s, %(x)s) or an HTML tag, when the template
(web/locale/stones.pot) is stale against the code or a catalog against the template,
when the engine raises a rule code the page has no words for, or an engine option has
no words on the set-up screen. Update the catalogs with the commands in README
(Languages).
"""

from __future__ import annotations

import ast
import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import build

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from ui import i18n  # noqa: E402

LOCALE = WEB / "locale"
TEMPLATE = LOCALE / "stones.pot"
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
PROPER_NAMES = {"Three Stones", "Rings", "Sage Stones", "Triple Domino"}  # games' own names, kept in every language
SAME_WORDS: dict[str, set[str]] = {  # words that are spelled the same in a language as in English
    "de": PROPER_NAMES | {"orange", "Scan: {game}"},
    "fr": PROPER_NAMES | {"points", "Mode", "orange", "total", "zoom"},
    "it": PROPER_NAMES | {"computer", "zoom", "round"},  # "round": the Italian rule book's own word
    "nl": PROPER_NAMES | {"computer", "zoom", "Scan: {game}"},
    "es": PROPER_NAMES | {"total", "zoom"},
}
PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sd]|%[sd]")
TAG = re.compile(r"</?[a-z]+>")


def wordy(text: str) -> bool:
    """A message with a letter outside its placeholders: "{count} {colour}" has none, and reads alike in every language."""
    return any(ch.isalpha() for ch in PLACEHOLDER.sub("", text))


def catalog(language: str):
    with (LOCALE / language / "LC_MESSAGES" / "stones.po").open("rb") as file:
        return read_po(file, locale=language)


def template():
    with TEMPLATE.open("rb") as file:
        return read_po(file)


def forms(message) -> list[str]:
    """The message's strings: one, or each plural form."""
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


def english(message) -> list[str]:
    return list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]


def key(message) -> str:
    return message.id[0] if isinstance(message.id, (tuple, list)) else message.id


def extracted_ids() -> set[str]:
    """Every message the code marks, as pybabel extracts them (the same extractor, the same mapping)."""
    method_map = [("**.py", "build:extract_messages")]
    found = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(str(WEB), method_map):
        found.add(message if isinstance(message, str) else message[0])
    return found


# ----- the catalogs -----------------------------------------------------------------------------------
def test_the_template_holds_every_message_the_code_marks_and_no_other() -> None:
    marked = extracted_ids()
    listed = {key(m) for m in template() if m.id}
    assert marked, "the extractor found nothing: is build.extract_messages named in web/locale/babel.cfg?"
    assert not marked - listed, f"marked in the code but not in stones.pot (re-extract): {sorted(marked - listed)[:10]}"
    assert not listed - marked, f"in stones.pot but no longer in the code (re-extract): {sorted(listed - marked)[:10]}"


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_each_catalog_follows_the_template(language: str) -> None:
    listed = {key(m) for m in template() if m.id}
    held = {key(m) for m in catalog(language) if m.id}
    assert not listed - held, f"{language}: missing (pybabel update): {sorted(listed - held)[:10]}"
    assert not held - listed, f"{language}: obsolete (pybabel update): {sorted(held - listed)[:10]}"


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_every_message_is_translated(language: str) -> None:
    problems = []
    for message in catalog(language):
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {key(message)!r}")
        elif not all(forms(message)):
            problems.append(f"empty: {key(message)!r}")
        elif language in SAME_WORDS:
            untouched = [t for t, e in zip(forms(message), english(message)) if t == e and wordy(e)]
            if set(untouched) - SAME_WORDS[language]:
                problems.append(f"left in English: {key(message)!r}")
    assert not problems, f"{language}: {len(problems)} messages: " + "; ".join(problems[:10])


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_translations_keep_every_placeholder_and_tag(language: str) -> None:
    problems = []
    for message in catalog(language):
        if not message.id:
            continue
        wanted = sorted(PLACEHOLDER.findall(english(message)[-1])), sorted(TAG.findall(english(message)[-1]))
        for text in forms(message):
            if text and (sorted(PLACEHOLDER.findall(text)), sorted(TAG.findall(text))) != wanted:
                problems.append(f"{key(message)!r} → {text!r}")
    assert not problems, f"{language}: placeholders or tags differ: " + "; ".join(problems[:5])


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_catalog_names_its_plural_rule(language: str) -> None:
    assert catalog(language).plural_forms.startswith("nplurals=2;")


# ----- compiled by build.py, read by gettext ----------------------------------------------------------
def test_build_compiles_each_catalog_for_gettext(tmp_path: Path) -> None:
    for name, data in build.compiled_catalogs():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    german = gettext.GNUTranslations(io.BytesIO((tmp_path / "locale/de/LC_MESSAGES/stones.mo").read_bytes()))
    assert german.gettext("Choose a game") == "Wähle ein Spiel"
    one = german.ngettext("{count} stone", "{count} stones", 1)
    assert (one, german.ngettext("{count} stone", "{count} stones", 3)) == ("{count} Stein", "{count} Steine")
    french = gettext.GNUTranslations(io.BytesIO((tmp_path / "locale/fr/LC_MESSAGES/stones.mo").read_bytes()))
    assert french.ngettext("{count} stone", "{count} stones", 0) == "{count} pierre"  # French counts 0 as one


def test_read_po_agrees_with_babel() -> None:
    """build.py's own .po reader (the build is standard library only) reads what babel reads."""
    ours = {
        (m[1] if m[2] is None else (m[1], m[2])): m[3]
        for m in build.read_po((LOCALE / "it/LC_MESSAGES/stones.po").read_text())
    }
    theirs = {m.id if isinstance(m.id, str) else tuple(m.id): forms(m) for m in catalog("it")}
    assert ours == theirs


def test_the_page_speaks_the_chosen_language(tmp_path: Path) -> None:
    for name, data in build.compiled_catalogs():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    from ui.home import home
    from ui.pages import setup

    try:
        assert i18n.use("de", tmp_path / "locale") == "de"
        page = home({"game": "morris", "moves": 1})
        assert "Wähle ein Spiel" in page and "Dein Spiel Mühle fortsetzen (1 Zug)" in page
        morris = setup("morris", None, None, 1)
        assert "Mühlen" in morris and "Spiel starten" in morris and "Mühlenschutz" in morris
        assert i18n.use("pt", tmp_path / "locale") == "en"  # a language the app does not speak: English
        assert "Choose a game" in home(None)
    finally:
        i18n.use(i18n.DEFAULT)


def test_english_imports_no_gettext() -> None:
    """Issue 20, item 16: gettext costs the first screen tens of milliseconds under Pyodide; English needs none."""
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from ui import i18n, home; i18n.use('en'); home.home(None);"
        "assert i18n.ngettext('{n} move', '{n} moves', 2) == '{n} moves'; print('gettext' in sys.modules)"
    )
    found = subprocess.run([sys.executable, "-c", script, str(WEB)], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"


def test_the_first_language_the_app_speaks_is_chosen() -> None:
    assert i18n.choose(["de-DE", "en-US"]) == "de"
    assert i18n.choose(["pt-BR", "nl_BE", "fr"]) == "nl"
    assert i18n.choose(["pt-BR", "ja"]) == "en"
    assert i18n.choose([]) == "en"


# ----- the engine's codes and options have the page's words -------------------------------------------
def engine_rule_codes() -> set[str]:
    """Every rule code the engine (and the page's own checks) raise: rule="..." in the source."""
    codes = set()
    for path in list((ROOT / "engine").rglob("*.py")) + list((WEB / "ui").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant):
                codes.add(str(node.value.value))
    return codes


def test_every_rule_code_the_engine_raises_has_words() -> None:
    from engine.core import FLAG_FALLEN
    from ui.words import RULE_WORDS

    codes = engine_rule_codes() | {FLAG_FALLEN, "option", "record", "position"}
    assert len(codes) > 40, codes  # the scan sees the engine's codes
    assert not codes - set(RULE_WORDS), f"rule codes with no words in ui/words.py: {sorted(codes - set(RULE_WORDS))}"


def test_option_errors_carry_a_code() -> None:
    from engine import OptionError, get_game

    with pytest.raises(OptionError) as raised:
        get_game("morris").options({"no_removal_draw": -1})
    assert raised.value.rule == "minimum"
    with pytest.raises(OptionError) as raised:
        get_game("three-stones").options({"clock_white_minutes": 30})
    assert raised.value.rule == "clock pair"


def test_every_engine_option_has_words_on_the_setup_screen() -> None:
    from engine import GAME_IDS, get_game
    from ui.options import CHOICE_WORDS, OPTION_WORDS

    for game_id in GAME_IDS:
        for opt in get_game(game_id).describe()["options"]:
            assert opt["name"] in OPTION_WORDS, f"{game_id}: option {opt['name']} has no words in ui/options.py"
            for choice in opt["choices"] or []:
                assert isinstance(choice, int) or choice in CHOICE_WORDS, f"{game_id}: choice {choice!r} has no words"


def test_no_page_module_rebinds_the_translation_function() -> None:
    """`_` is gettext here: a throwaway `_` (a loop variable, an unpacking) would shadow it in that scope."""
    bound = []
    for path in WEB.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                bound.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bound, bound


def test_the_loading_screen_has_its_words_in_every_language() -> None:
    """start.js shows these before Python runs: build.py writes them into index.html from the catalogs."""
    index = build.with_start_words(b"<html><head></head><body></body></html>").decode()
    words = build.start_words()
    assert set(words) == set(i18n.LANGUAGES)
    assert (
        words["de"]["starting"] == "Die Spiel-Engine startet…"
        and words["en"]["starting"] == "Starting the rules engine…"
    )
    assert 'id="stones-words"' in index and "Die Spiel-Engine startet" in index
    start = (WEB / "index.html").read_text() + (WEB / "start.js").read_text()
    from ui.home import START_WORDS

    assert all(f'data-words="{key}"' in start or f"startWords.{key}" in start for key in START_WORDS)
