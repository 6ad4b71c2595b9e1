"""Game records as JSON: save a game, load it back, replay it to any move.

A record holds everything that makes a game reproducible: the game id, the rule
options, the seed of its chance, the starting position when it did not start
from the beginning, and every move in notation (chance moves included), so a
loaded record is replayed and checked move by move, never trusted blindly.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .errors import IllegalMoveError, OptionError, PositionError, RecordError, StonesError
from .state import State

FORMAT = "stones-record"
VERSION = 1


def save_record(state: State) -> dict[str, Any]:
    """The record of a game so far, as a JSON-ready dict."""
    outcome = state.outcome()
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.id,
        "options": state.options.to_dict(),
        "seed": state.seed,
        "players": list(state.players),
        "start": state.start_position,
        "moves": state.moves_text(),
        "result": outcome.to_dict() if outcome else None,
    }
    if any(s is not None for s in state.elapsed):
        record["elapsed"] = state.elapsed
    return record


def dumps_record(state: State) -> str:
    return json.dumps(save_record(state), indent=1)


def load_record(data: Mapping[str, Any] | str | bytes, upto: int | None = None) -> State:
    """Rebuild a game from its record, replaying the first `upto` moves (all by default).

    Every move is checked as it is replayed; anything wrong raises RecordError
    saying which move and why.
    """
    from ..games import get_game  # the registry imports every game: keep it out of import time

    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RecordError(f"the record is not valid JSON ({exc})") from None
    if not isinstance(data, Mapping):
        raise RecordError("a game record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Stones game record (format is {data.get('format')!r}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported (this engine reads {VERSION})")
    try:
        game = get_game(data.get("game"))
    except StonesError as exc:
        raise RecordError(f"record: {exc}") from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"record seed must be a whole number or null, not {seed!r}")
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("record 'moves' must be a list of move texts")
    elapsed = data.get("elapsed")
    if elapsed is not None and (not isinstance(elapsed, list) or len(elapsed) != len(moves)):
        raise RecordError("record 'elapsed' must list one time (or null) per move")
    try:
        options = game.options(data.get("options"))
        start = data.get("start")
        if start is not None:
            start = dict(start)
            start["options"] = options.to_dict()
            state = game.from_position(start, seed=seed)
        else:
            state = game.new_state(options, seed=seed)
    except (OptionError, PositionError, TypeError, ValueError) as exc:
        raise RecordError(f"record: {exc}") from None
    count = len(moves) if upto is None else upto
    if not 0 <= count <= len(moves):
        raise RecordError(f"cannot replay to move {count}: the record has {len(moves)} moves")
    for index, text in enumerate(moves[:count]):
        seconds = elapsed[index] if elapsed else None
        try:
            state.push(text, seconds=seconds)
        except IllegalMoveError as exc:
            raise RecordError(f"record move {index + 1} ({text!r}) does not replay: {exc}") from None
    return state


def replay(data: Mapping[str, Any] | str, ply: int) -> State:
    """The position after the first `ply` moves of a record."""
    return load_record(data, upto=ply)
