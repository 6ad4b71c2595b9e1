"""The first screen: the games to choose from, each by a picture of its board, and a message above them.

Imports no game, board or engine module (the catalogue is built JSON, the pictures in it
drawn by build.py): the page shows this before anything else is loaded, and imports the
rest while a person reads it.
"""

from __future__ import annotations

from typing import Any

from .catalogue import games, title_of
from .markup import esc


def picture(svg: str) -> str:
    """A board's picture in its frame (the svg comes from boards.thumbnail: hidden from screen readers)."""
    return f'<span class="game-picture">{svg}</span>' if svg else ""


def home(saved: dict[str, Any] | None = None) -> str:
    """The games as cards (picture, title, one line), the saved game's resume button (with a picture of its
    position when `saved` has one), opening a file and scanning a board."""
    cards = []
    for g in games():
        if g["ready"]:
            summary = g["summary"]
            cards.append(
                f'<li><button type="button" class="game-card" data-action="pick" data-game="{g["id"]}">'
                f'{picture(g.get("picture", ""))}<span class="game-title">{esc(g["title"])}</span>'
                f'<span class="game-summary">{esc(summary)}</span></button></li>'
            )
        else:
            cards.append(
                f'<li><div class="game-card soon" aria-disabled="true" data-game="{g["id"]}" title="{esc(g["why"])}">'
                f'<span class="game-title">{esc(g["title"])}</span><span class="game-summary">coming soon</span>'
                f"</div></li>"
            )
    resume = ""
    if saved:
        resume = (
            f'<p class="resume"><button type="button" class="primary" data-action="resume">'
            f"{picture(saved.get('picture', ''))}<span>Continue your {esc(title_of(saved['game']))} game "
            f"({saved['moves']} moves)</span></button></p>"
        )
    return (
        f'<section class="home" aria-labelledby="home-title"><h2 id="home-title">Choose a game</h2>{resume}'
        f'<ul class="game-list">{"".join(cards)}</ul>'
        f'<p class="import-line">or <button type="button" class="link" data-action="import">open a saved game…</button></p>'
        f'<p class="scan-line"><button type="button" data-action="scan">Scan a board</button> '
        f"<span>photograph a real board: check what was read, score it or play on from it</span></p>"
        f"</section>"
    )


def message(kind: str, text: str) -> str:
    if not text:
        return ""
    return f'<p class="msg msg-{esc(kind)}">{esc(text)}</p>'
