"""The first screen: the games to choose from, and a message above them.

Imports no game, board or engine module (the catalogue is built JSON): the page shows
this before anything else is loaded, and imports the rest while a person reads it.
"""

from __future__ import annotations

from typing import Any

from .catalogue import games, title_of
from .markup import esc


def home(saved: dict[str, Any] | None = None) -> str:
    cards = []
    for g in games():
        if g["ready"]:
            summary = g["summary"]
            cards.append(
                f'<li><button type="button" class="game-card" data-action="pick" data-game="{g["id"]}">'
                f'<span class="game-title">{esc(g["title"])}</span><span class="game-summary">{esc(summary)}</span>'
                f"</button></li>"
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
            f"Continue your {esc(title_of(saved['game']))} game ({saved['moves']} moves)</button></p>"
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
