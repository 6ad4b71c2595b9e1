"""The registry of games: id → module, imported on first use."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, overload

from ..core.errors import PositionError, StonesError, shown
from ..core.game import Game

if TYPE_CHECKING:  # the modules themselves are imported on first use
    from .morris import Morris
    from .rings import Rings
    from .sage_stones import SageStones
    from .three_stones import ThreeStones
    from .triple_domino import TripleDomino

GAME_MODULES: dict[str, str] = {
    "three-stones": "three_stones",
    "morris": "morris",
    "rings": "rings",
    "sage-stones": "sage_stones",
    "triple-domino": "triple_domino",
}
GAME_IDS: tuple[str, ...] = tuple(GAME_MODULES)


class UnknownGameError(StonesError, ValueError):
    """A game id that is not one of the five."""


@overload
def get_game(game_id: Literal["three-stones"]) -> ThreeStones: ...
@overload
def get_game(game_id: Literal["morris"]) -> Morris: ...
@overload
def get_game(game_id: Literal["rings"]) -> Rings: ...
@overload
def get_game(game_id: Literal["sage-stones"]) -> SageStones: ...
@overload
def get_game(game_id: Literal["triple-domino"]) -> TripleDomino: ...
@overload
def get_game(game_id: Any) -> Game: ...


def get_game(game_id: Any) -> Game:
    """The Game object for a game id such as 'morris'."""
    if not isinstance(game_id, str) or game_id not in GAME_MODULES:
        raise UnknownGameError(f"unknown game {shown(game_id)} (games: {', '.join(GAME_IDS)})")
    module = importlib.import_module(f"{__name__}.{GAME_MODULES[game_id]}")
    return module.GAME


def score_position(position: Any) -> dict[str, Any]:
    """Score any position JSON of any game (the function the web app and vision use)."""
    if not isinstance(position, dict):
        raise PositionError("a position must be a JSON object")
    try:
        game = get_game(position.get("game"))
    except UnknownGameError as exc:
        raise PositionError(str(exc)) from None
    return game.score_position(position)
