"""The shared machinery: options, records, outcomes, errors, the score dispatcher."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    GAME_IDS, IllegalMoveError, OptionError, PositionError, RecordError, StonesError, get_game,
    load_record, replay, save_record, score_position,
)
from engine.core import Outcome, outcome_by_score
from engine.games import UnknownGameError

from engine.cli import random_game

TS = get_game("three-stones")


def test_every_error_is_a_stones_error_and_a_value_error() -> None:
    for kind in (IllegalMoveError, OptionError, PositionError, RecordError):
        assert issubclass(kind, StonesError) and issubclass(kind, ValueError)


def test_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(UnknownGameError, match="three-stones"):
        get_game("chess")


@pytest.mark.parametrize("data,message", [
    ({"modes": "pouch"}, "no option 'modes'"),
    ({"mode": "bag"}, "must be one of pouch, pure-skill"),
    ({"handicap_white": "3"}, "takes a int"),
    ({"handicap_white": True}, "takes a int"),
    ({"handicap_white": -1}, "at least 0"),
    ({"handicap_white": 10_000}, "at most 200"),
])
def test_bad_options_are_refused_with_a_reason(data: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        TS.options(data)


def test_options_from_command_line_words() -> None:
    opts = TS.Options.parse_assignments(["mode=pure-skill", "handicap-black=2"])
    assert opts.mode == "pure-skill" and opts.handicap_black == 2
    with pytest.raises(OptionError, match="whole number"):
        TS.Options.parse_assignments(["handicap_black=lots"])
    with pytest.raises(OptionError, match="NAME=VALUE"):
        TS.Options.parse_assignments(["pure-skill"])


def test_options_schema_describes_every_option() -> None:
    for game_id in GAME_IDS:
        game = get_game(game_id)
        schema = game.Options.schema()
        assert schema, game_id
        defaults = game.Options().to_dict()
        for entry in schema:
            assert entry["help"], (game_id, entry["name"])
            assert defaults[entry["name"]] == entry["default"]
        assert game.describe()["rules"]


def test_outcome_by_score_and_descriptions() -> None:
    win = outcome_by_score({"white": 3, "black": 2}, "end")
    assert win.winner == "white" and not win.is_draw
    tie = outcome_by_score({"white": 3, "black": 3}, "end")
    assert tie.winner is None and tie.is_draw and tie.winners == ()
    shared = outcome_by_score({"red": 3, "blue": 3, "green": 1}, "end")
    assert shared.winners == ("red", "blue") and shared.is_draw and "draw between red and blue" in shared.describe()
    alone = outcome_by_score({"p1": 57}, "solitaire over")  # one player ends, never draws
    assert alone.winner == "p1" and "p1 wins" in alone.describe()
    assert "white wins" in win.describe() and "draw" in tie.describe()
    assert Outcome(("a",), {"a": 1}, "r").to_dict()["winner"] == "a"


def _finished_record(seed: int = 11) -> dict:
    state = random_game(TS.new_state(seed=seed), random.Random(seed))
    assert state.is_over()
    return json.loads(json.dumps(save_record(state)))


def test_record_round_trip_replays_the_same_game() -> None:
    record = _finished_record()
    assert record["format"] == "stones-record" and record["game"] == "three-stones"
    assert record["result"]["scores"] == load_record(record).scores()
    assert save_record(load_record(json.dumps(record))) == record
    middle = replay(record, 40)
    assert middle.ply == 40 and middle.moves_text() == record["moves"][:40]


@pytest.mark.parametrize("mutate,message", [
    (lambda r: "not json {", "not valid JSON"),
    (lambda r: [1, 2], "JSON object"),
    (lambda r: {**r, "format": "pgn"}, "not a Stones game record"),
    (lambda r: {**r, "version": 9}, "version 9"),
    (lambda r: {**r, "game": "go"}, "unknown game"),
    (lambda r: {**r, "seed": "x"}, "seed"),
    (lambda r: {**r, "moves": "c4"}, "list of move texts"),
    (lambda r: {**r, "options": {"mode": "bag"}}, "must be one of"),
    (lambda r: {**r, "moves": r["moves"][:3] + ["white@e5"] + r["moves"][4:]}, "record move 4"),
    (lambda r: {**r, "moves": r["moves"][:1] + ["draw purple"]}, "record move 2"),
    (lambda r: {**r, "elapsed": [1.0]}, "elapsed"),
])
def test_corrupt_records_are_refused_clearly(mutate, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        load_record(mutate(_finished_record()))


def test_replaying_beyond_the_record_is_refused() -> None:
    with pytest.raises(RecordError, match="has 144 moves"):
        replay(_finished_record(), 145)


def test_record_keeps_the_starting_position_of_a_loaded_game() -> None:
    cells = {name: None for name in TS.locations()}
    cells.update({"b2": "white", "c2": "white"})
    state = TS.from_position({"game": "three-stones", "cells": cells, "last": "c2", "to_move": "black"}, seed=3)
    state.advance_chance()
    state.push(next(iter(state.legal_moves())))
    record = json.loads(json.dumps(save_record(state)))
    again = load_record(record)
    assert again.snapshot() == state.snapshot()
    assert record["start"]["cells"]["b2"] == "white"


def test_undo_with_nothing_to_undo_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        TS.new_state().pop()


def test_moves_after_the_end_are_refused() -> None:
    state = random_game(TS.new_state(seed=2), random.Random(2))
    with pytest.raises(IllegalMoveError) as err:
        state.push("white@c3")
    assert err.value.rule == "game over"


@pytest.mark.parametrize("position,message", [
    ([], "JSON object"),
    ({"cells": {}}, "unknown game"),
    ({"game": "chess", "cells": {}}, "unknown game"),
])
def test_score_position_refuses_what_is_not_a_position(position, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        score_position(position)
