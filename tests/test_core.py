"""The shared machinery: options, records, outcomes, errors, the score dispatcher."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    GAME_IDS,
    IllegalMoveError,
    OptionError,
    PositionError,
    RecordError,
    StonesError,
    UnreachablePositionError,
    get_game,
    load_record,
    replay,
    save_record,
    score_position,
)
from engine.core import Outcome, Termination, outcome_by_score
from engine.games import UnknownGameError

from engine.cli import random_game

TS = get_game("three-stones")


def test_every_error_is_a_stones_error_and_a_value_error() -> None:
    for kind in (IllegalMoveError, OptionError, PositionError, RecordError):
        assert issubclass(kind, StonesError) and issubclass(kind, ValueError)


def test_unknown_game_is_refused_with_the_list() -> None:
    with pytest.raises(UnknownGameError, match="three-stones"):
        get_game("chess")


@pytest.mark.parametrize(
    "data,message",
    [
        ({"modes": "pouch"}, "no option 'modes'"),
        ({"mode": "bag"}, "must be one of pouch, pure-skill"),
        ({"handicap_white": "3"}, "takes a int"),
        ({"handicap_white": True}, "takes a int"),
        ({"handicap_white": -1}, "at least 0"),
        ({"handicap_white": 10_000}, "at most 200"),
    ],
)
def test_bad_options_are_refused_with_a_reason(data: dict, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        TS.options(data)


def test_another_games_options_are_refused_by_name() -> None:
    morris_options = get_game("morris").options()
    assert TS.options(TS.options()) == TS.options()  # its own options pass through
    with pytest.raises(OptionError, match="options of morris, not of three-stones"):
        TS.new_state(morris_options)


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
    end = Termination.ALL_PASSED
    win = outcome_by_score({"white": 3, "black": 2}, "end", end)
    assert win.winner == "white" and not win.is_draw and win.termination is end
    tie = outcome_by_score({"white": 3, "black": 3}, "end", end)
    assert tie.winner is None and tie.is_draw and tie.winners == ()
    shared = outcome_by_score({"red": 3, "blue": 3, "green": 1}, "end", end)
    assert shared.winners == ("red", "blue") and shared.is_draw and "draw between red and blue" in shared.describe()
    alone = outcome_by_score({"p1": 57}, "solitaire over", Termination.SOLITAIRE_OVER)  # one player ends, never draws
    assert alone.winner == "p1" and "p1 wins" in alone.describe()
    assert "white wins" in win.describe() and "draw" in tie.describe()
    made = Outcome(("a",), {"a": 1}, "r", termination=Termination.BLOCKED).to_dict()
    assert made["winner"] == "a" and made["termination"] == "blocked"


def test_an_outcome_says_why_it_ended_as_a_termination() -> None:
    with pytest.raises(TypeError):
        Outcome(("a",), {"a": 1}, "r")  # type: ignore[call-arg]  # no outcome without its termination
    state = TS.new_state(seed=3)
    state.start_clock({"white": 60.0, "black": 60.0})
    state.push("time")
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.TIME_FORFEIT


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


@pytest.mark.parametrize(
    "mutate,message",
    [
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
    ],
)
def test_corrupt_records_are_refused_clearly(mutate, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        load_record(mutate(_finished_record()))


def test_replaying_beyond_the_record_is_refused() -> None:
    with pytest.raises(RecordError, match="has 144 moves"):
        replay(_finished_record(), 145)


def test_record_keeps_the_starting_position_of_a_loaded_game() -> None:
    cells: dict[str, str | None] = {name: None for name in TS.locations()}
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


@pytest.mark.parametrize(
    "position,message",
    [
        ([], "JSON object"),
        ({"cells": {}}, "unknown game"),
        ({"game": "chess", "cells": {}}, "unknown game"),
    ],
)
def test_score_position_refuses_what_is_not_a_position(position, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        score_position(position)


# ----- input from outside: refused with a StonesError, never a bare exception ---------------------------
def _position(game_id: str, cells: dict | None = None, **fields) -> dict:
    """A position of `game_id` with every location empty except `cells`."""
    board: dict[str, str | None] = {name: None for name in get_game(game_id).locations()}
    return {"game": game_id, "cells": {**board, **(cells or {})}, **fields}


@pytest.mark.parametrize(
    "game_id,fields,message",
    [
        ("three-stones", {"options": 5}, "options must be an object"),
        ("three-stones", {"options": [["mode", "pouch"]]}, "options must be an object"),
        ("three-stones", {"last": {}}, "last must name an occupied pocket"),
        ("three-stones", {"game": ["three-stones"]}, "position is for game"),
        ("rings", {"to_move": {}}, "to_move must be one of the players"),
        ("morris", {"to_move": ["white"]}, "to_move must be white or black"),
        ("sage-stones", {"roll": {"dice": 3}}, "roll must look like"),
    ],
)
def test_malformed_positions_are_refused_with_a_position_error(game_id: str, fields: dict, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        get_game(game_id).from_position(_position(game_id, **fields))


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("move", [None, 5, 2.5, [], {}, ["c3"], True])
def test_a_move_that_is_neither_text_nor_a_move_of_the_game_is_refused(game_id: str, move) -> None:
    state = get_game(game_id).new_state(seed=1)
    state.advance_chance()
    with pytest.raises(IllegalMoveError, match="is not a .* move") as err:
        state.push(move)
    assert err.value.rule == "notation"


@pytest.mark.parametrize("seconds", ["x", {}, -1.0, -1e308, float("nan"), float("inf"), True, 10**400])
def test_a_move_time_that_is_not_seconds_is_refused(seconds) -> None:
    state = TS.new_state({"mode": "pure-skill", "clock_white_minutes": 1, "clock_black_minutes": 1})
    with pytest.raises(IllegalMoveError, match="seconds") as err:
        state.push("white@c3", seconds=seconds)
    assert err.value.rule == "clock" and state.ply == 0 and state.clock == {"white": 60.0, "black": 60.0}


def test_error_messages_quote_hostile_values_short_and_on_one_line() -> None:
    deep: list = []
    for _ in range(5_000):  # past CPython's recursion limit; Pyodide cannot even free 10,000 levels
        deep = [deep]
    for fields in ({"to_move": deep}, {"to_move": "x" * 1_000_000}, {"last": deep}):
        with pytest.raises(PositionError) as err:
            TS.from_position(_position("three-stones", **fields))
        assert len(str(err.value)) < 200 and "\n" not in str(err.value)
    with pytest.raises(IllegalMoveError) as refused:
        TS.new_state().push("x" * 1_000_000)
    assert len(str(refused.value)) < 200


# ----- positions no game reaches: one policy for every game, in score and in play ---------------------------
UNREACHABLE = [
    ("morris", _position("morris", dict.fromkeys(get_game("morris").locations(), "white")), "nine pieces"),
    ("morris", _position("morris", {"a1": "white"}, in_hand={"white": 9, "black": 9}), "nine pieces"),
    ("three-stones", _position("three-stones", dict.fromkeys(TS.locations(), "black")), "stone set"),
    (
        "three-stones",
        _position("three-stones", {"c3": "clear"}, pouch={"white": 30, "black": 30, "clear": 12}),
        "stone set",
    ),
    ("three-stones", _position("three-stones", in_hand={"white": {"white": 16}, "black": {}}), "hand"),
    (
        "sage-stones",
        _position("sage-stones", dict.fromkeys(get_game("sage-stones").locations()[:63], "red")),
        "stones per colour",
    ),
    (
        "sage-stones",
        _position("sage-stones", {"c3r1": "red", "c3r2": "blue"}, options={"stones_per_colour": 1}),
        "last stone",
    ),
    (
        "rings",
        _position(
            "rings",
            dict(zip(get_game("rings").locations(), ("black", "white", "red", "green", "blue", "yellow", "orange"))),
        ),
        "players",
    ),
]


@pytest.mark.parametrize("game_id,position,rule", UNREACHABLE, ids=[f"{g}-{r}" for g, _, r in UNREACHABLE])
def test_a_position_no_game_reaches_is_refused_alike_by_score_and_play(game_id: str, position: dict, rule: str) -> None:
    """The CLI's `score`, the vision companion (`score_position`) and the scan screen (`Game.score_position`)
    refuse it with the same reason as loading it to play on (`from_position`)."""
    game = get_game(game_id)
    refusals = []
    for read in (game.from_position, game.score_position, score_position):
        with pytest.raises(UnreachablePositionError) as err:
            read(position)
        refusals.append((str(err.value), err.value.rule))
    assert refusals[0][1] == rule and refusals.count(refusals[0]) == 3


@pytest.mark.parametrize(
    "game_id,fields,error",
    [
        ("morris", {"options": {"flying": "maybe"}}, OptionError),
        ("three-stones", {"options": {"mode": "bag"}}, OptionError),
        ("morris", {"in_hand": {"white": -1, "black": 9}}, PositionError),
        ("three-stones", {"in_hand": {"white": {"white": -1}, "black": {}}}, PositionError),
        ("sage-stones", {"options": {"stones_per_colour": 0}}, OptionError),
    ],
)
def test_bogus_options_and_counts_are_refused_alike_by_score_and_play(game_id: str, fields: dict, error) -> None:
    game = get_game(game_id)
    for read in (game.from_position, game.score_position):
        with pytest.raises(error):
            read(_position(game_id, **fields))


# ----- records: every field checked before anything is replayed -------------------------------------------
@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda r: {**r, "elapsed": [{}] + [None] * (len(r["moves"]) - 1)}, "'elapsed' of move 1"),
        (lambda r: {**r, "elapsed": [None, -1e308] + [None] * (len(r["moves"]) - 2)}, "'elapsed' of move 2"),
        (lambda r: {**r, "elapsed": [None, "x"] + [None] * (len(r["moves"]) - 2)}, "'elapsed' of move 2"),
        (lambda r: {**r, "game": ["three-stones"]}, "unknown game"),
        (lambda r: {**r, "players": ["white", "red"]}, "not this game's players"),
        (lambda r: {**r, "result": "white won"}, "'result' must be null or an outcome"),
        (lambda r: {**r, "result": {**r["result"], "winners": ["purple"]}}, "'result' must be null or an outcome"),
        (lambda r: {**r, "start": ["c3"]}, "'start' must be a position object"),
        (lambda r: {**r, "start": {"game": "morris", "cells": {}}}, "position is for game 'morris'"),
        (lambda r: "[" * 100_000 + "]" * 100_000, "nested more than 64 deep"),
    ],
)
def test_every_field_of_a_record_is_checked(mutate, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        load_record(mutate(_finished_record()))
