"""Nine men's morris: every rule and option on hand-built positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import IllegalMoveError, OptionError, PositionError, load_record, perft, save_record, score_position
from engine.games.morris import (
    ADJACENT,
    GAME,
    INDEX_OF,
    MILLS,
    POINT_NAMES,
    Move,
    make_move,
    mills_through,
    points_of,
)


def position(
    white: str = "",
    black: str = "",
    to_move: str | None = "white",
    hand: tuple[int, int] | None = (0, 0),
    **options: Any,
) -> dict[str, Any]:
    """A position JSON: pieces as space-separated point names, pieces in hand (white, black)."""
    cells: dict[str, str | None] = {name: None for name in POINT_NAMES}
    for colour, names in (("white", white), ("black", black)):
        for name in names.split():
            cells[name] = colour
    data: dict[str, Any] = {"game": "morris", "cells": cells, "options": options}
    if to_move is not None:
        data["to_move"] = to_move
    if hand is not None:
        data["in_hand"] = {"white": hand[0], "black": hand[1]}
    return data


def state(
    white: str = "",
    black: str = "",
    to_move: str | None = "white",
    hand: tuple[int, int] | None = (0, 0),
    **options: Any,
):
    return GAME.from_position(position(white, black, to_move, hand, **options))


def rule_of(st, move: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        st.push(move)
    return info.value.rule


def legal(st) -> set[str]:
    return {str(m) for m in st.legal_moves()}


# ----- the board -------------------------------------------------------------------------------
def test_board_has_24_points_16_mills_and_no_diagonals() -> None:
    assert len(POINT_NAMES) == 24 and GAME.locations() == POINT_NAMES
    assert len(MILLS) == 16
    for mill in MILLS:
        xs = {POINT_NAMES[p][0] for p in mill}
        ys = {POINT_NAMES[p][1] for p in mill}
        assert len(xs) == 1 or len(ys) == 1  # straight rows and columns only
    assert all(len(mills_through(p)) == 2 for p in range(24))
    assert sum(len(a) for a in ADJACENT) == 2 * 32
    assert {POINT_NAMES[q] for q in ADJACENT[INDEX_OF["d2"]]} == {"b2", "f2", "d1", "d3"}
    assert {POINT_NAMES[q] for q in ADJACENT[INDEX_OF["a1"]]} == {"a4", "d1"}
    assert points_of(0b1011) == (0, 1, 3)


def test_perft_from_the_start() -> None:
    start = GAME.new_state()
    assert [perft(start, d) for d in (1, 2, 3)] == [24, 552, 12144]
    assert perft(start, 4) == 255024


# ----- placing and moving ----------------------------------------------------------------------------
def test_placing_on_an_empty_point_and_not_on_a_taken_one() -> None:
    st = GAME.new_state()
    st.push("d2")
    assert st.occupant("d2") == "white" and st.pieces_in_hand("white") == 8
    assert st.current_player == "black"
    assert rule_of(st, "d2") == "occupied"


def test_no_moving_while_pieces_are_in_hand() -> None:
    st = state(white="d2", black="a1", hand=(3, 3))
    assert st.phase("white") == "placing"
    assert rule_of(st, "d2-d3") == "placing phase"
    assert all(m.source is None for m in st.legal_moves())


def test_moving_phase_steps_along_lines_only() -> None:
    st = state(white="d2 a4 g7", black="a1 b6 f4")
    assert st.phase("white") == "moving"
    assert rule_of(st, "c4") == "moving phase"
    assert rule_of(st, "d2-d5") == "adjacent"  # across the centre: no line
    assert rule_of(st, "d2-c3") == "adjacent"  # diagonal
    assert rule_of(st, "a1-a4") == "own piece"  # a black piece
    assert rule_of(st, "a4-a1") == "occupied"
    assert "d2-d3" in legal(st) and "a4-b4" in legal(st)
    st.push("d2-d3")
    assert st.occupant("d2") is None and st.occupant("d3") == "white"


# ----- mills and removal ---------------------------------------------------------------------------
def test_closing_a_mill_requires_a_removal() -> None:
    st = state(white="a1 d1", black="b2 c3", hand=(7, 7))
    assert rule_of(st, "g1") == "must remove"
    moves = {m for m in legal(st) if m.startswith("g1")}
    assert moves == {"g1xb2", "g1xc3"}
    st.push("g1xb2")
    assert st.occupant("b2") is None and st.pieces_on_board("black") == 1
    row_1 = (INDEX_OF["a1"], INDEX_OF["d1"], INDEX_OF["g1"])
    assert st.is_in_mill("a1") and st.mills_of("g1") == [row_1] and st.closed_mills() == [("white", row_1)]
    assert not st.is_in_mill("c3") and st.mills_of("e4") == []


def test_removal_must_take_an_opponent_piece_and_needs_a_mill() -> None:
    st = state(white="a1 d1 b4", black="b2 c3", hand=(6, 7))
    assert rule_of(st, "g1xb4") == "remove opponent"  # own piece
    assert rule_of(st, "g1xe4") == "remove opponent"  # empty point
    assert rule_of(st, "e4xb2") == "no mill"


def test_a_mill_closed_against_an_empty_board_removes_nothing() -> None:
    st = state(white="a1 d1", black="", hand=(7, 9))
    assert "g1" in legal(st)
    st.push("g1")
    assert st.pieces_in_hand("black") == 9


def test_only_a_new_mill_counts_and_a_reformed_one_counts_again() -> None:
    st = state(white="a1 d1 g1 b4", black="b6 e4 f6 c5")
    assert rule_of(st, "b4-c4xe4") == "no mill"  # the standing mill removes nothing more
    st.push("d1-d2")  # open the mill
    st.push("e4-e3")
    assert rule_of(st, "d2-d1") == "must remove"  # closing it again counts again
    st.push("d2-d1xb6")
    assert st.occupant("b6") is None


def test_closing_two_mills_at_once_removes_one_piece() -> None:
    st = state(white="a4 a7 d1 g1", black="b2 d6 f4", hand=(5, 6))
    to_a1 = [m for m in st.legal_moves() if m.target == INDEX_OF["a1"]]
    assert len(to_a1) == 3 and all(m.take is not None for m in to_a1)
    rule = rule_of(st, "a1xb2xd6")
    assert rule == "notation"
    st.push("a1xb2")
    assert st.pieces_on_board("black") == 2


@pytest.mark.parametrize("protect", [False, True])
def test_mill_protection(protect: bool) -> None:
    st = state(white="a1 d1", black="b2 d2 f2 e4", hand=(5, 5), mill_protection=protect)
    if protect:
        assert rule_of(st, "g1xb2") == "mill protection"
        assert {m for m in legal(st) if m.startswith("g1")} == {"g1xe4"}
        assert st.removable("black") == (INDEX_OF["e4"],)
    else:
        st.push("g1xb2")
        assert st.occupant("b2") is None


def test_mill_protection_yields_when_every_piece_is_in_a_mill() -> None:
    st = state(white="a1 d1", black="b2 d2 f2", hand=(5, 6), mill_protection=True)
    assert {m for m in legal(st) if m.startswith("g1")} == {"g1xb2", "g1xd2", "g1xf2"}
    st.push("g1xd2")


# ----- flying ----------------------------------------------------------------------------------
def test_flying_off_three_pieces_still_step() -> None:
    st = state(white="a1 d2 g7", black="b6 e4 f6 c5")
    assert st.phase("white") == "moving"
    assert rule_of(st, "a1-e5") == "adjacent"


def test_flying_on_three_pieces_jump_anywhere() -> None:
    st = state(white="a1 d2 g7", black="b6 e4 f6 c5", flying=True)
    assert st.phase("white") == "flying" and st.phase("black") == "moving"
    empty = 24 - 7
    assert len(list(st.legal_moves())) == 3 * empty
    st.push("a1-e5")
    assert rule_of(st, "b6-a1") == "adjacent"  # black has four: still steps


def test_flying_needs_exactly_three_and_an_empty_hand() -> None:
    four = state(white="a1 d2 g7 g1", black="b6 e4 f6 c5", flying=True)
    with pytest.raises(IllegalMoveError, match="only a player down to three"):
        four.push("a1-e5")
    placing = state(white="a1 d2 g7", black="b6 e4 f6", hand=(1, 1), flying=True)
    assert placing.phase("white") == "placing"


def test_a_flying_move_can_close_a_mill() -> None:
    st = state(white="a1 d1 c5", black="b6 e4 f6 c4", flying=True)
    assert rule_of(st, "c5-g1") == "must remove"
    st.push("c5-g1xc4")


# ----- the end ---------------------------------------------------------------------------------------
def test_down_to_two_pieces_loses() -> None:
    st = state(white="a1 d1 b4", black="b6 e4 f6", hand=(0, 0))
    st.push("b4-b2")  # no mill
    st.push("e4-e3")
    st.push("b2-d2")  # no mill: d1 d2 d3 needs d3
    assert not st.is_over()
    st2 = state(white="a1 d1 g4", black="b6 e4 f6")
    st2.push("g4-g1xe4")
    outcome = st2.outcome()
    assert outcome is not None and outcome.winner == "white" and "two pieces" in outcome.reason
    assert list(st2.legal_moves()) == []
    assert rule_of(st2, "b6-b4") == "game over"


def test_down_to_two_counts_pieces_in_hand() -> None:
    st = state(white="a1 d1", black="b2", hand=(4, 2))
    st.push("g1xb2")
    assert st.pieces_on_board("black") == 0
    assert st.outcome().winner == "white"
    alive = state(white="a1 d1", black="b2", hand=(4, 3))
    alive.push("g1xb2")
    assert not alive.is_over()


def test_a_blocked_player_loses() -> None:
    blocked = state(white="a4 d1 g4 d7", black="a1 g1 a7", to_move="black")
    outcome = blocked.outcome()
    assert outcome is not None and outcome.winner == "white" and "blocked" in outcome.reason
    assert not state(white="a4 d1 g4 d7", black="a1 g1 a7", to_move="white").is_over()


def test_blocking_the_last_move_wins() -> None:
    st = state(white="a4 d2 g4 d7", black="a1 g1 a7")
    st.push("d2-d1")
    assert st.outcome().winner == "white"


def test_a_blocked_player_with_flying_can_still_jump() -> None:
    st = state(white="a4 d1 g4 d7", black="a1 g1 a7", to_move="black", flying=True)
    assert not st.is_over()


SHUFFLE = ["a1-d1", "g1-g4", "d1-a1", "g4-g1"]


def test_threefold_repetition_is_a_draw() -> None:
    st = state(white="a1 b4 f6", black="g1 a7 e3")
    for move in SHUFFLE:
        st.push(move)
    assert not st.is_over()  # the start position stands a second time
    for move in SHUFFLE:
        st.push(move)
    outcome = st.outcome()
    assert outcome is not None and outcome.is_draw and "third time" in outcome.reason


def test_threefold_repetition_off() -> None:
    st = state(white="a1 b4 f6", black="g1 a7 e3", repetition_draw=False)
    for move in SHUFFLE * 3:
        st.push(move)
    assert not st.is_over()


def test_repetition_counts_pieces_in_hand_and_side_to_move() -> None:
    a = state(white="a1 b4 f6", black="g1 a7 e3")
    b = state(white="a1 b4 f6", black="g1 a7 e3", to_move="black")
    c = state(white="a1 b4 f6", black="g1 a7 e3", hand=(1, 1))
    assert len({a.position_key, b.position_key, c.position_key}) == 3
    a.push("a1-d1")
    d = state(white="d1 b4 f6", black="g1 a7 e3", to_move="black")
    assert a.position_key == d.position_key


def test_no_removal_draw_after_n_moves_each() -> None:
    st = state(white="a1 b4 f6", black="g1 a7 e3", no_removal_draw=2, repetition_draw=False)
    for move in SHUFFLE[:3]:
        st.push(move)
    assert not st.is_over()
    st.push(SHUFFLE[3])
    outcome = st.outcome()
    assert outcome is not None and outcome.is_draw and "2 moves by each player" in outcome.reason


def test_no_removal_draw_resets_on_removal_and_can_be_off() -> None:
    st = state(white="a1 d1 g4", black="b6 e4 f6 c5", no_removal_draw=1)
    st.push("g4-g1xc5")
    assert st.to_position()["since_removal"] == 0
    st.push("e4-e3")
    assert not st.is_over()
    st.push("a1-a4")
    assert st.outcome().is_draw
    off = state(white="a1 b4 f6", black="g1 a7 e3", no_removal_draw=0, repetition_draw=False)
    for move in SHUFFLE * 30:
        off.push(move)
    assert not off.is_over()


def test_no_removal_count_waits_for_both_hands_to_empty() -> None:
    st = state(white="a1 b4 f6", black="g1 a7", hand=(0, 1), no_removal_draw=1)
    st.push("a1-d1")  # black still places: not counted
    st.push("e3")
    assert st.to_position()["since_removal"] == 0
    st.push("d1-a1")
    st.push("g1-g4")
    assert st.outcome().is_draw


# ----- notation ---------------------------------------------------------------------------------------
def test_notation_forms_and_round_trip() -> None:
    assert str(make_move(None, INDEX_OF["d2"])) == "d2"
    assert str(make_move(INDEX_OF["d2"], INDEX_OF["d3"])) == "d2-d3"
    assert str(make_move(None, INDEX_OF["d2"], INDEX_OF["a1"])) == "d2xa1"
    assert str(make_move(INDEX_OF["d2"], INDEX_OF["d3"], INDEX_OF["a1"])) == "d2-d3xa1"
    st = GAME.new_state()
    assert st.parse_move(" D2-D3 x A1 ") == Move(INDEX_OF["d2"], INDEX_OF["d3"], INDEX_OF["a1"])
    for st in (
        state(white="a1 d1", black="b2 c3", hand=(7, 7)),
        state(white="a1 d1 c5", black="b6 e4 f6 c4", flying=True),
        state(white="a1 d1 g4", black="b6 e4 f6 c5"),
    ):
        for move in st.legal_moves():
            assert st.parse_move(str(move)) == move


@pytest.mark.parametrize("text", ["", "z9", "b1", "d2-", "d2--d3", "d2xx", "d2-d3-d5", "a1xb2xd6", "pass"])
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        GAME.new_state().parse_move(text)
    assert info.value.rule == "notation"


def test_errors_speak_of_the_rule() -> None:
    st = state(white="a1 d1", black="b2 d2 f2 e4", hand=(5, 5), mill_protection=True)
    with pytest.raises(IllegalMoveError, match="must remove a black piece"):
        st.push("g1")
    with pytest.raises(IllegalMoveError, match="protected"):
        st.push("g1xd2")
    with pytest.raises(IllegalMoveError, match="in hand"):
        st.push("a1-a4")
    with pytest.raises(IllegalMoveError, match="without a clock"):
        st.push("time")


# ----- positions and scoring ---------------------------------------------------------------------------
def test_position_round_trip_and_record_replay() -> None:
    st = state(white="a1 d1 g4", black="b6 e4 f6 c5", no_removal_draw=7)
    st.push("g4-g1xc5")
    st.push("e4-e3")
    again = GAME.from_position(st.to_position())
    assert again.to_position() == st.to_position()
    replayed = load_record(save_record(st))
    assert replayed.snapshot() == st.snapshot()


def test_missing_fields_are_assumed_and_said() -> None:
    empty = GAME.from_position(position(to_move=None, hand=None))
    assert empty.hand == [9, 9] and empty.current_player == "white"
    assert any("in_hand.white" in note for note in empty.assumed)
    placed = GAME.from_position(position(white="a1 d2 g7", black="b6 f4", to_move=None, hand=None))
    assert placed.hand == [6, 7] and placed.current_player == "black"
    assert placed.start_position == placed.to_position()
    moving = state(white="a1 d2 g7", black="b6 f4 e5")
    assert any("since_removal" in note for note in moving.assumed)


@pytest.mark.parametrize(
    "broken",
    [
        {"game": "three-stones"},
        {"cells": {"a1": "white"}},
        {"cells": {**position()["cells"], "a1": "red"}},
        {"cells": {**position()["cells"], "b1": None}},
        {"in_hand": {"white": 10, "black": 0}},
        {"in_hand": {"white": -1, "black": 0}},
        {"in_hand": {"white": True, "black": 0}},
        {"in_hand": [3, 3]},
        {"in_hand": {"red": 3}},
        {"to_move": "red"},
        {"since_removal": -4},
    ],
)
def test_bad_positions_are_refused(broken: dict[str, Any]) -> None:
    data = {**position(white="a1 d2 g7", black="b6 f4 e5", hand=(3, 3)), **broken}
    with pytest.raises(PositionError):
        GAME.from_position(data)


def test_impossible_piece_counts_are_refused() -> None:
    with pytest.raises(PositionError, match="9 pieces"):
        GAME.from_position(position(white="a1 a4 a7 b2 b4 b6 c3 c4 c5 d1", black="g7", hand=None))
    with pytest.raises(PositionError, match="too many"):
        GAME.from_position(position(white="a1 a4", black="g7", hand=(8, 0)))
    with pytest.raises(PositionError, match="both sides"):
        GAME.from_position(position(white="a1 a4", black="g7", hand=(0, 0)))


def test_score_position_counts_pieces_and_lists_mills() -> None:
    report = score_position(position(white="a1 d1 g1 a4 a7 c4", black="b2 d2 f2 e4"))
    assert report["game"] == "morris"
    assert report["scores"] == {"white": 6, "black": 4}
    assert {(i["side"], tuple(i["cells"])) for i in report["items"]} == {
        ("white", ("a1", "d1", "g1")),
        ("white", ("a1", "a4", "a7")),
        ("black", ("b2", "d2", "f2")),
    }
    assert GAME.from_position(position(white="a1 d1 g1", black="b2")).recount_scores() == {"white": 3, "black": 1}


# ----- options, helpers, rendering ------------------------------------------------------------------------------
def test_options_are_validated() -> None:
    assert GAME.options({}).to_dict() == {
        "mill_protection": False,
        "flying": False,
        "repetition_draw": True,
        "no_removal_draw": 50,
    }
    for bad in ({"no_removal_draw": -1}, {"flying": "yes"}, {"mill_protection": 1}, {"dice": 2}):
        with pytest.raises(OptionError):
            GAME.options(bad)


def test_undo_restores_everything_and_copies_are_independent() -> None:
    st = state(white="a1 d1 g4", black="b6 e4 f6 c5")
    before = st.snapshot()
    clone = st.copy()
    for move in ("g4-g1xc5", "e4-e3", "a1-a4", "e3-e4"):
        st.push(move)
    assert clone.snapshot() == before
    for _ in range(4):
        st.pop()
    assert st.snapshot() == before


def test_render_draws_the_board_and_the_hands() -> None:
    text = state(white="a1 d2", black="g7", hand=(3, 4)).render()
    lines = text.splitlines()
    assert lines[0].startswith("7 .-----------.-----------B")
    assert lines[12].startswith("1 W-----------.-----------.")
    assert "white: 3 in hand, 2 on the board (placing)" in text
    assert "black: 4 in hand, 1 on the board (placing)" in text and "white to move" in text


def test_random_games_keep_the_contract() -> None:
    rng = random.Random(7)
    for options in ({}, {"flying": True, "mill_protection": True}):
        st = GAME.new_state(options)
        snapshots = [st.snapshot()]
        while not st.is_over() and st.ply < 300:
            moves = list(st.legal_moves())
            for move in moves:
                assert st.parse_move(str(move)) == move
            st.push(rng.choice(moves))
            snapshots.append(st.snapshot())
            assert st.scores() == st.recount_scores()
        assert load_record(save_record(st)).snapshot() == st.snapshot()
        while st.ply:
            snapshots.pop()
            st.pop()
            assert st.snapshot() == snapshots[-1]
