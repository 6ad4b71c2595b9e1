"""The first screen: the games to choose from, each by a picture of its board, and a message above them;
the header's language picker.

Imports no game, board or engine module (the catalogue is built JSON, the pictures in it
drawn by build.py): the page shows this before anything else is loaded, and imports the
rest while a person reads it.
"""

from __future__ import annotations

from typing import Any

from .catalogue import game_summary, game_title, games
from .i18n import LANGUAGES, N_, _, ngettext
from .markup import esc

START_WORDS = {  # the loading screen's words, shown by start.js before Python runs (build.py puts them in the page)
    "starting": N_("Starting the rules engine…"),
    "offline": N_("Python runs inside your browser; after the first visit it works offline."),
    "failed": N_("The rules engine could not start. Reload the page to try again."),
}


def picture(svg: str) -> str:
    """A board's picture in its frame (the svg comes from boards.thumbnail: hidden from screen readers)."""
    return f'<span class="game-picture">{svg}</span>' if svg else ""


def home(saved: dict[str, Any] | None = None) -> str:
    """The games as cards (picture, title, one line), the saved game's resume button (with a picture of its
    position when `saved` has one), opening a file and scanning a board."""
    cards = []
    for g in games():
        title = game_title(g["id"], g["title"])
        if g["ready"]:
            summary = game_summary(g["id"], g["summary"])
            cards.append(
                f'<li><button type="button" class="game-card" data-action="pick" data-game="{g["id"]}">'
                f'{picture(g.get("picture", ""))}<span class="game-title">{esc(title)}</span>'
                f'<span class="game-summary">{esc(summary)}</span></button></li>'
            )
        else:
            cards.append(
                f'<li><div class="game-card soon" aria-disabled="true" data-game="{g["id"]}" title="{esc(g["why"])}">'
                f'<span class="game-title">{esc(title)}</span><span class="game-summary">{esc(_("coming soon"))}</span>'
                f"</div></li>"
            )
    resume = ""
    if saved:
        words = ngettext(
            "Continue your {game} game ({count} move)", "Continue your {game} game ({count} moves)", saved["moves"]
        )
        title = game_title(saved["game"])
        resume = (
            f'<p class="resume"><button type="button" class="primary" data-action="resume">'
            f"{picture(saved.get('picture', ''))}<span>{esc(words.format(game=title, count=saved['moves']))}</span>"
            f"</button></p>"
        )
    return (
        f'<section class="home" aria-labelledby="home-title"><h2 id="home-title">{esc(_("Choose a game"))}</h2>'
        f'{resume}<ul class="game-list">{"".join(cards)}</ul>'
        f'<p class="import-line">{esc(_("or"))} <button type="button" class="link" data-action="import">'
        f"{esc(_('open a saved game…'))}</button></p>"
        f'<p class="scan-line"><button type="button" data-action="scan">{esc(_("Scan a board"))}</button> '
        f"<span>{esc(_('photograph a real board: check what was read, score it or play on from it'))}</span></p>"
        f"</section>"
    )


def message(kind: str, text: str) -> str:
    if not text:
        return ""
    return f'<p class="msg msg-{esc(kind)}">{esc(text)}</p>'


def brand_label() -> str:
    """The header's name button, as a screen reader says it."""
    return _("Stones: back to the games")


def language_picker(current: str) -> str:
    """The header's language menu: each language by its own name (a person finds theirs in any language)."""
    options = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == current else ""}>{esc(name)}</option>'
        for code, name in LANGUAGES.items()
    )
    return (
        f'<label for="language" class="sr-only">{esc(_("Language"))}</label>'
        f'<select id="language" name="language">{options}</select>'
    )
