"""One drawing module per game: `boards/<engine module name>.py` defining `BOARD`.

A board turns a state into SVG (or HTML) with click targets, and turns a click
on a target into a move. It knows nothing of the page around it: the play
screen (ui.pages) draws the status, move list and buttons for every game, and
ui.session applies moves. Adding a game's board is one new module here.

A game with no board module yet gets the generic board (the engine's text
rendering plus a button per legal move), so a new engine game is playable before
its drawing exists; a board module that exists but fails (a bad import, an error
while it is built) raises, so a broken drawing is seen, not hidden.
The pieces boards draw with (locations, stones, the last-move ring, defs) are in
`boards.svg`; the positions come from the engine's `Game.geometry()`.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from typing import Any

from engine.games import GAME_MODULES
from ui.i18n import _
from ui.markup import esc


@dataclasses.dataclass
class Drawing:
    """What a board draws: markup, and the click targets with their positions.

    `targets` maps a target id (usually a location id) to (x, y) in any unit:
    the page uses the positions only to move the keyboard cursor in the
    direction of an arrow key.
    """

    markup: str
    targets: dict[str, tuple[float, float]]


class Board:
    """The interface every board implements (the defaults suit simple games).

    `ui` is a dict the board may keep its own interface state in (a chosen
    colour, a selected piece): it lives as long as the game on screen.
    Targets are elements carrying `data-target="<id>"`, `role="button"`,
    `tabindex="-1"` and an `aria-label` saying what is there.
    """

    picture_plies = 12  # how far into a game its picture on the home screen is (boards.thumbnail): stones enough
    # to show how it plays, the start's shape still plain

    def __init__(self, game: Any) -> None:
        self.game = game

    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        """The board; `past` when it is an earlier position looked back at (draw nothing that is only live:
        the dice about to be rolled, the stone about to be drawn)."""
        raise NotImplementedError

    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        """The move (notation) a click on `target` asks for, or None if it only changed `ui`.

        The move may be illegal: the session checks it and shows the engine's reason.
        """
        return target

    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        """HTML beside the board: what is in hand, what was drawn, choices to make."""
        return ""

    # ----- words for the status bar and the move list -------------------------------------
    def tally(self, state: Any) -> tuple[dict[str, int], str]:
        """The numbers the status bar shows per player, and what they count (the engine's scores)."""
        return state.scores(), _("points")

    def status_note(self, state: Any, past: bool = False) -> str:
        """HTML for the status bar: what was just rolled or drawn, where the game has chance."""
        return ""

    def describe(self, before: Any, move: Any, after: Any) -> str:
        """A move in a player's words ("black near the centre, converts 2 circles"); `before` and
        `after` are the positions around it. By default the notation itself."""
        return str(move)

    def rules(self) -> str:
        """How to play, as HTML: headings, bullets and a small diagram (by default the engine's summary)."""
        return f"<p>{esc(self.game.rules_summary)}</p>"

    def action(self, state: Any, name: str, value: str, ui: dict[str, Any]) -> None:
        """A click on a panel element carrying data-board-action (e.g. choosing a stone)."""

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool | str:
        """A letter key pressed while playing: True if the board used it, or the name
        of a target (or panel action) the page should click for it, else False."""
        return False

    def key_help(self) -> str:
        return ""

    def public_text(self, text: str) -> str:
        """A chance move as the move list may show it (games with hidden draws reword it)."""
        return text

    def hint_targets(self, state: Any, move: str) -> list[str]:
        """The targets a suggested move uses, to highlight a hint: by default the move's words
        (split at spaces and '@'), which are location names in most notations."""
        return [word for word in re.split(r"[\s@]+", move) if word]

    def reset(self, ui: dict[str, Any]) -> None:
        """Forget per-turn selections (after a move, an undo, a new position)."""
        ui.pop("selected", None)


RulesSection = tuple[str, tuple[str, ...]]  # a heading and its bullets, marked for the catalog (N_)


def rules_html(diagram: str, sections: tuple[RulesSection, ...]) -> str:
    """A rules panel in the language in use: the diagram, then each heading and its bullets (one catalog
    message each, so a translation follows the English paragraph by paragraph; small <b> marks stay)."""
    parts = [diagram]
    for heading, bullets in sections:
        parts.append(f"<h4>{esc(_(heading))}</h4><ul>{''.join(f'<li>{_(item)}</li>' for item in bullets)}</ul>")
    return "".join(parts)


def board_for(game: Any) -> Board:
    """The drawing module of a game, or the generic board when it has none (yet).

    Only a missing module falls back; an error inside an existing one is raised as it is.
    """
    module_name = f"{__name__}.{GAME_MODULES[game.id]}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:  # the board exists but imports something missing: broken, say so
            raise
        from .generic import GenericBoard

        return GenericBoard(game)
    board: Board = module.BOARD(game)
    return board
