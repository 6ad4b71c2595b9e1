"""The page in six languages: the header's picker switches every screen, a move is played, the choice is kept.

A first visit follows the browser's languages (Playwright's `locale`); a picked language is
kept in the browser and wins over them. Move notation stays the same in every language.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2e_support import PHONE, app_page, open_app

pytestmark = pytest.mark.browser

WORDS = {  # per language: the home screen's title, morris's name, the move list's title, a placement in words
    "en": ("Choose a game", "Nine Men's Morris", "Moves", "places a man on d2"),
    "de": ("Wähle ein Spiel", "Mühle", "Züge", "setzt einen Stein auf d2"),
    "fr": ("Choisis un jeu", "Jeu du moulin", "Coups", "pose un pion sur d2"),
    "it": ("Scegli un gioco", "Gioco del mulino", "Mosse", "piazza una pedina su d2"),
    "nl": ("Kies een spel", "Molenspel", "Zetten", "plaatst een steen op d2"),
    "es": ("Elige un juego", "Juego del molino", "Jugadas", "coloca una ficha en d2"),
}


def language_of(page: Any) -> str:
    return page.evaluate("document.documentElement.lang")


def check_home(page: Any, language: str) -> None:
    title, morris, _moves, _placed = WORDS[language]
    assert language_of(page) == language
    assert page.input_value("#language") == language
    assert page.text_content("#home-title") == title
    assert page.text_content('[data-game="morris"] .game-title') == morris


@pytest.mark.parametrize("language", list(WORDS))
def test_the_picker_switches_the_page_and_the_choice_is_kept(page, base_url, language, shot, console_errors) -> None:
    open_app(page, base_url)
    check_home(page, "en")  # the browser here asks for English
    page.select_option("#language", language)
    page.wait_for_function(f"document.documentElement.lang === '{language}'")
    check_home(page, language)
    title, morris, moves, placed = WORDS[language]

    page.click('[data-game="morris"]')  # the set-up screen, in the language too, with the picker still there
    page.wait_for_selector("#setup")
    assert page.text_content("#setup-title") == morris
    assert page.is_visible("#language")
    page.select_option("#match", "people")
    page.click("button[data-action=start]")
    page.wait_for_selector("svg.board-morris")
    assert page.text_content(".moves-title") == moves
    page.click('#board [data-target="d2"]')  # a move: the notation stays d2, the words are the language's
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 1")
    assert page.text_content("#moves .mv") == "d2"
    assert placed in page.locator("#moves .words").nth(1).text_content()
    shot(page, language)

    page.reload()  # the language is remembered, and the saved game opens in it
    page.wait_for_selector("body[data-ready]")
    assert language_of(page) == language and page.input_value("#language") == language
    page.wait_for_selector("svg.board-morris")
    assert page.text_content(".moves-title") == moves
    assert placed in page.locator("#moves .words").nth(1).text_content()
    page.click("[data-action=home]")
    check_home(page, language)
    assert not console_errors


@pytest.mark.browser_context_args(locale="de-DE")
def test_a_first_visit_opens_in_the_browsers_language(page, base_url) -> None:
    open_app(page, base_url)
    assert page.evaluate("navigator.language") == "de-DE"
    check_home(page, "de")
    page.select_option("#language", "fr")  # a picked language wins over the browser's from then on
    page.wait_for_function("document.documentElement.lang === 'fr'")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    check_home(page, "fr")


CATALOGS_FETCHED = """performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
    .filter((path) => path.endsWith('.mo')).map((path) => path.split('/').slice(-3)[0])"""


@pytest.mark.browser_context_args(locale="de-DE")
def test_the_start_fetches_only_the_chosen_languages_words(page, base_url) -> None:
    """Issue 20, item 16: the first screen waits for one catalog, the language it opens in (English needs
    none); another language's is fetched when it is picked."""
    open_app(page, base_url)
    assert page.evaluate(CATALOGS_FETCHED) == ["de"]
    check_home(page, "de")
    page.select_option("#language", "nl")
    page.wait_for_function("document.documentElement.lang === 'nl'")
    check_home(page, "nl")
    assert page.evaluate(CATALOGS_FETCHED) == ["de", "nl"]
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    check_home(page, "en")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate(CATALOGS_FETCHED) == []  # picked English: nothing to fetch


@pytest.mark.parametrize("language", list(WORDS))
def test_each_language_on_a_phone(browser, live_server, language) -> None:
    # a 390x844 touch screen: the picker, the home screen, a morris move by a tap, all in the language,
    # and nothing wider than the screen (German and Dutch words run long)
    with app_page(browser, live_server + "/", locale="en-US", **PHONE) as page:
        page.select_option("#language", language)
        page.wait_for_function(f"document.documentElement.lang === '{language}'")
        check_home(page, language)
        _title, morris, moves, placed = WORDS[language]
        page.tap('[data-game="morris"]')
        page.wait_for_selector("#setup")
        assert page.text_content("#setup-title") == morris
        page.select_option("#match", "people")
        page.tap("button[data-action=start]")
        page.wait_for_selector("svg.board-morris")
        page.tap('#board [data-target="d2"]')
        page.wait_for_function("document.querySelectorAll('#moves .mv').length === 1")
        assert page.text_content(".moves-title") == moves
        assert placed in page.locator("#moves .words").nth(1).text_content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


# Before the page's scripts run: the home screen build.py wrote into the page, and what the page shows of it.
WRITTEN_HOME = """addEventListener("DOMContentLoaded", () => {
    window.writtenHome = document.querySelector("#app > .home");
    window.writtenHomeSeen = window.writtenHome && getComputedStyle(window.writtenHome).visibility !== "hidden";
});"""


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_home_screen_written_into_the_page_is_the_one_python_draws(browser, live_server, language) -> None:
    """Issue 20, item 16: build.py writes the home screen into index.html in English and start.js puts in another
    language's words; it stays unseen under the loading screen until Python shows it (the same element: not drawn
    again), and it is what Python draws itself, word for word and tag for tag."""
    with app_page(browser, live_server + "/", locale=language) as page:
        page.add_init_script(WRITTEN_HOME)
        page.reload()
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("window.writtenHome !== null && window.writtenHomeSeen === false")
        assert page.evaluate("document.querySelector('#app > .home') === window.writtenHome"), "drawn again"
        assert page.query_selector("#loading") is None
        check_home(page, language)
        written = page.inner_html("#app")
        other = "nl" if language != "nl" else "en"
        for switch in (other, language):  # the picker: Python draws the home screen in the language
            page.select_option("#language", switch)
            page.wait_for_function(f"document.documentElement.lang === '{switch}'")
        page.wait_for_function("document.querySelector('#app > .home') !== window.writtenHome")
        assert page.inner_html("#app") == written.strip()
