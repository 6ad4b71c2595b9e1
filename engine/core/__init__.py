"""The machinery every game shares: states, options, records, errors."""

from .errors import (
    IllegalMoveError,
    OptionError,
    PositionError,
    RecordError,
    StonesError,
    UnreachablePositionError,
    shown,
)
from .game import Game
from .geometry import CROSSING, POCKET, POINT, TRIANGLE, Circle, Geometry, Line, Location
from .options import RuleOptions, option
from .record import dumps_record, load_record, parse_json, replay, save_record
from .state import (
    CHANCE,
    FLAG_FALLEN,
    TIME_FORFEIT,
    Outcome,
    State,
    Termination,
    outcome_by_score,
    perft,
    require_cells,
)

__all__ = [
    "CROSSING",
    "POCKET",
    "POINT",
    "TRIANGLE",
    "Circle",
    "Geometry",
    "Line",
    "Location",
    "CHANCE",
    "FLAG_FALLEN",
    "TIME_FORFEIT",
    "Game",
    "IllegalMoveError",
    "OptionError",
    "Outcome",
    "PositionError",
    "RecordError",
    "RuleOptions",
    "State",
    "StonesError",
    "Termination",
    "dumps_record",
    "load_record",
    "UnreachablePositionError",
    "option",
    "outcome_by_score",
    "parse_json",
    "perft",
    "replay",
    "require_cells",
    "save_record",
    "shown",
]
