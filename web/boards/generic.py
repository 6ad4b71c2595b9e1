"""The fallback board: the engine's text drawing and one button per legal move.

Used for any game whose drawing module does not exist yet, so every engine game
is playable (and testable) in the page from the day its rules land.
"""

from __future__ import annotations

from typing import Any

from ui.i18n import _

from . import Board, Drawing, esc

LIMIT = 400  # a game with more legal moves than this shows the first ones only


class GenericBoard(Board):
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        targets: dict[str, tuple[float, float]] = {}
        buttons = []
        if interactive and not state.is_over() and not state.is_chance_node():
            for index, move in enumerate(state.legal_moves()):
                if index >= LIMIT:
                    buttons.append('<span class="more">…</span>')
                    break
                text = str(move)
                targets[text] = (index, 0)  # arrows step through the list
                buttons.append(
                    f'<button type="button" class="move-target" data-target="{esc(text)}" tabindex="-1" '
                    f'aria-label="{esc(_("play {move}").format(move=text))}">{esc(text)}</button>'
                )
        moves = (
            f'<div class="generic-moves" role="group" aria-label="{esc(_("legal moves"))}">{"".join(buttons)}</div>'
            if buttons
            else ""
        )
        markup = (
            f'<div class="generic-board"><p class="note">'
            f"{esc(_('This game has no drawn board yet: the engine’s text view and its legal moves.'))}</p>"
            f'<pre class="text-board" aria-label="{esc(_("board as text"))}">{esc(state.render())}</pre>{moves}</div>'
        )
        return Drawing(markup, targets)
