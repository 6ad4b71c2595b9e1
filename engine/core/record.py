"""Game records as JSON: save a game, load it back, replay it to any move.

A record holds everything that makes a game reproducible: the game id, the rule
options, the seed of its chance, the starting position when it did not start
from the beginning, and every move in notation (chance moves included), so a
loaded record is replayed and checked move by move, never trusted blindly.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from .errors import IllegalMoveError, OptionError, PositionError, RecordError, StonesError, shown
from .state import State, check_seconds

FORMAT = "stones-record"
VERSION = 1
MAX_JSON_DEPTH = 64
"""The deepest nesting read from JSON text: a record nests 5 deep, and Pyodide's stack gives out
parsing (or freeing) 10,000 levels, where CPython would raise a RecursionError."""
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')  # an unclosed string runs to the end: linear


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


def parse_json(text: str | bytes) -> Any:
    """JSON text as Python data; ValueError for text that is not JSON or nests deeper than MAX_JSON_DEPTH."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    depth = 0
    for found in _STRING_OR_BRACKET.finditer(text):
        bracket = found.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} deep: no position or record is")
        elif bracket in "]}":
            depth -= 1
    return json.loads(text)


def load_record(data: Mapping[str, Any] | str | bytes, upto: int | None = None) -> State:
    """Rebuild a game from its record, replaying the first `upto` moves (all by default).

    Every field is checked before anything is replayed, then every move as it is
    replayed; anything wrong raises RecordError saying which field or move and why.
    """
    from ..games import get_game  # the registry imports every game: keep it out of import time

    if isinstance(data, (str, bytes)):
        try:
            data = parse_json(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON ({exc})") from None
        except ValueError as exc:  # too deep, or bytes that are not UTF-8
            raise RecordError(f"the record cannot be read: {exc}") from None
    if not isinstance(data, Mapping):
        raise RecordError("a game record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Stones game record (format is {shown(data.get('format'))}, expected {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {shown(data.get('version'))} is not supported (this engine reads {VERSION})")
    try:
        game = get_game(data.get("game"))
    except StonesError as exc:
        raise RecordError(f"record: {exc}") from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"record seed must be a whole number or null, not {shown(seed)}")
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("record 'moves' must be a list of move texts")
    elapsed = _read_elapsed(data.get("elapsed"), len(moves))
    start = data.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise RecordError(f"record 'start' must be a position object or null, not {shown(start)}")
    try:
        options = game.options(data.get("options"))
        if start is not None:
            state = game.from_position({**start, "options": options.to_dict()}, seed=seed)
        else:
            state = game.new_state(options, seed=seed)
    except (OptionError, PositionError) as exc:
        raise RecordError(f"record: {exc}") from None
    players = data.get("players")
    if players is not None and players != list(state.players):
        raise RecordError(
            f"record 'players' {shown(players)} are not this game's players "
            f"({', '.join(state.players)}) under its options"
        )
    _check_result(data.get("result"), state.players)
    count = len(moves) if upto is None else upto
    if not 0 <= count <= len(moves):
        raise RecordError(f"cannot replay to move {count}: the record has {len(moves)} moves")
    for index, text in enumerate(moves[:count]):
        try:
            state.push(text, seconds=elapsed[index])
        except IllegalMoveError as exc:
            raise RecordError(f"record move {index + 1} ({shown(text)}) does not replay: {exc}") from None
    return state


def _read_elapsed(elapsed: Any, moves: int) -> list[float | None]:
    """The seconds each move took (null for a move without the clock), one per move."""
    if elapsed is None:
        return [None] * moves
    if not isinstance(elapsed, list) or len(elapsed) != moves:
        raise RecordError("record 'elapsed' must list one time (or null) per move")
    for index, seconds in enumerate(elapsed):
        try:
            check_seconds(seconds)
        except IllegalMoveError:
            raise RecordError(
                f"record 'elapsed' of move {index + 1} must be seconds ≥ 0 or null, not {shown(seconds)}"
            ) from None
    return elapsed


def _check_result(result: Any, players: tuple[str, ...]) -> None:
    """The saved result is null or an outcome naming this game's players (the replay, not it, decides)."""
    if result is None:
        return
    winners = result.get("winners") if isinstance(result, Mapping) else None
    if not isinstance(winners, list) or not all(isinstance(w, str) and w in players for w in winners):
        raise RecordError(
            f"record 'result' must be null or an outcome whose winners are players here, not {shown(result)}"
        )


def replay(data: Mapping[str, Any] | str, ply: int) -> State:
    """The position after the first `ply` moves of a record."""
    return load_record(data, upto=ply)
