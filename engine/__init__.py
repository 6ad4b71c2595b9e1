"""Stones: the rules engine of five stone board games, in pure standard-library Python.

from engine import get_game
state = get_game("morris").new_state()
state.push("d2")          # a move in notation (or a move object)
list(state.legal_moves())
state.pop()               # undo
state.outcome()           # None while the game goes on
"""

from .core import (
    CHANCE,
    Game,
    IllegalMoveError,
    OptionError,
    Outcome,
    PositionError,
    RecordError,
    State,
    StonesError,
    Termination,
    UnreachablePositionError,
    dumps_record,
    load_record,
    perft,
    replay,
    save_record,
)
from .games import GAME_IDS, get_game, score_position

__all__ = [
    "CHANCE",
    "GAME_IDS",
    "Game",
    "IllegalMoveError",
    "OptionError",
    "Outcome",
    "PositionError",
    "RecordError",
    "State",
    "StonesError",
    "Termination",
    "UnreachablePositionError",
    "dumps_record",
    "get_game",
    "load_record",
    "perft",
    "replay",
    "save_record",
    "score_position",
]
