"""Whatever JSON comes from outside, the engine answers with a state or a StonesError (hypothesis).

Positions, records and moves are taken from real games and broken at a random
place: a value anywhere in them replaced by an arbitrary JSON value, a field
added or dropped. `from_position`, `score_position`, `load_record` and `push`
must then either accept it or refuse it with a `StonesError`: never a
TypeError, a KeyError, a RecursionError or any other accident.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAME_IDS, StonesError, get_game, load_record, save_record
from engine.cli import random_game

# Options per game that give the samples every kind of field (chance, clocks, hands, seats).
SAMPLE_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "three-stones": [{"clock_white_minutes": 5, "clock_black_minutes": 5}, {"mode": "pure-skill"}],
    "morris": [{}, {"flying": True}],
    "rings": [{"random_first": True}, {"players": 3}],
    "sage-stones": [{"players": 3, "play_for_places": True}, {}],
    "triple-domino": [{}, {"players": 1}],
}
# Every position field any game reads, so a broken position may carry one it does not expect.
FIELDS = (
    "game",
    "cells",
    "to_move",
    "options",
    "in_hand",
    "last",
    "pouch",
    "scores",
    "passes",
    "roll",
    "finished",
    "since_removal",
    "phase",
    "layout",
    "hands",
    "pool",
    "turn",
    "round",
    "start_tile",
    "solitaire_draws",
    "score_log",
    "result",
    "format",
    "version",
    "seed",
    "players",
    "start",
    "moves",
    "elapsed",
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(
        ["white", "black", "red", "clear", "p1", "a1", "c5r3", "U0,0", "1-2-3", "pouch", "draw white", "time"]
    ),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
# Per game: 3 kinds of input x this many examples keeps the whole file to a few seconds a game.
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def samples(game_id: str) -> tuple[tuple[str, str, dict], ...]:
    """(position JSON, record JSON, options) of games stopped at a few plies, as text (each test parses its own)."""
    out = []
    for index, options in enumerate(SAMPLE_OPTIONS[game_id]):
        for plies in (0, 7, 40):
            state = get_game(game_id).new_state(options, seed=index)
            random_game(state, random.Random(index), max_plies=plies)
            out.append((json.dumps(state.to_position()), json.dumps(save_record(state)), options))
    return tuple(out)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """The path to every value inside a JSON value (the value itself included)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


def broken(data: st.DataObject, value: Any) -> Any:
    """`value` with one place replaced by arbitrary JSON, or a field added to or dropped from an object in it."""
    path = data.draw(st.sampled_from(_paths(value)), label="where")
    replacement = data.draw(json_values, label="what")
    if not path:
        return replacement
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    how = data.draw(st.sampled_from(["replace", "add", "drop"]), label="how")
    if how == "add" and isinstance(parent, dict):
        parent[data.draw(st.sampled_from(FIELDS), label="field")] = replacement
    elif how == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return value


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_a_broken_position_is_read_or_refused_with_a_stones_error(game_id: str, data: st.DataObject) -> None:
    game = get_game(game_id)
    position_text, _, _ = data.draw(st.sampled_from(samples(game_id)), label="sample")
    for read in (game.from_position, game.score_position):
        position = broken(data, json.loads(position_text))
        try:
            read(position)
        except StonesError:
            pass


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data())
def test_a_broken_record_is_loaded_or_refused_with_a_stones_error(game_id: str, data: st.DataObject) -> None:
    _, record_text, _ = data.draw(st.sampled_from(samples(game_id)), label="sample")
    try:
        load_record(broken(data, json.loads(record_text)))
    except StonesError:
        pass


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(data=st.data(), move=json_values | st.text(max_size=30), seconds=json_values)
def test_any_move_and_time_is_played_or_refused_with_a_stones_error(
    game_id: str, data: st.DataObject, move: Any, seconds: Any
) -> None:
    _, record_text, _ = data.draw(st.sampled_from(samples(game_id)), label="sample")
    state = load_record(record_text)
    before = state.snapshot()
    try:
        state.push(move)
    except StonesError:
        assert state.snapshot() == before, "a refused move leaves the game as it was"
    legal = next(iter(state.legal_moves()), None)
    if legal is not None:
        try:
            state.push(legal, seconds=seconds)
        except StonesError:
            pass
