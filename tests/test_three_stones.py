"""three-stones: every rule and option on hand-built positions."""

from __future__ import annotations

import random

import pytest

from engine import CHANCE, IllegalMoveError, PositionError, get_game, perft
from engine.core import FLAG_FALLEN
from engine.games.three_stones import POCKET_NAMES, TRIPLES, Draw, Place

GAME = get_game("three-stones")


def position(stones: dict[str, str], **extra) -> dict:
    cells: dict[str, str | None] = {name: None for name in POCKET_NAMES}
    cells.update(stones)
    return {"game": "three-stones", "cells": cells, **extra}


def score(stones: dict[str, str]) -> dict[str, int]:
    return GAME.score_position(position(stones))["scores"]


def test_board_has_76_pockets_without_centre_and_corners() -> None:
    assert len(POCKET_NAMES) == 76
    assert not {"e5", "a1", "a9", "i1", "i9"} & set(POCKET_NAMES)


def test_a_line_of_five_scores_three() -> None:
    assert score({f"{c}2": "white" for c in "abcde"}) == {"white": 3, "black": 0}


def test_a_line_of_four_scores_two_and_clear_counts_for_the_side() -> None:
    assert score({"b3": "black", "c3": "clear", "d3": "black", "e3": "black"}) == {"white": 0, "black": 2}


def test_three_clears_score_nothing() -> None:
    assert score({"b2": "clear", "c2": "clear", "d2": "clear"}) == {"white": 0, "black": 0}


def test_a_clear_completes_triples_for_both_sides() -> None:
    state = GAME.from_position(
        position(
            {"c4": "white", "d4": "white", "e3": "black", "e2": "black"},
            to_move="white",
            last="d4",
            in_hand={"white": {"white": 13, "black": 13, "clear": 6}, "black": {"white": 15, "black": 15, "clear": 6}},
        )
    )
    assert state.scores() == {"white": 0, "black": 0}
    state.push("clear@e4")
    assert state.scores() == {"white": 1, "black": 1}


def test_diagonal_triples_score() -> None:
    assert score({"b2": "white", "c3": "white", "d4": "clear"}) == {"white": 1, "black": 0}
    assert score({"b8": "black", "c7": "black", "d6": "black"}) == {"white": 0, "black": 1}


def test_the_triple_through_e5_does_not_count() -> None:
    assert score({"d5": "white", "f5": "white", "g5": "white"}) == {"white": 0, "black": 0}
    assert score({"d4": "black", "f6": "black"}) == {"white": 0, "black": 0}
    centre = 4 * 9 + 4
    assert all(centre not in t for t in TRIPLES)


def test_no_triple_runs_through_a_missing_corner() -> None:
    assert score({"a2": "white", "a3": "white", "b1": "white"}) == {"white": 0, "black": 0}
    assert score({"b2": "white", "c3": "white"}) == {"white": 0, "black": 0}


def test_each_triple_scores_once_when_completed() -> None:
    hands = {"white": {"white": 12, "black": 15, "clear": 6}, "black": {"white": 15, "black": 14, "clear": 6}}
    state = GAME.from_position(
        position(
            {"b2": "white", "c2": "white", "d2": "white", "h2": "black"}, to_move="white", last="h2", in_hand=hands
        )
    )
    assert state.scores() == {"white": 1, "black": 0}
    state.push("white@e2")  # b2..e2 is now a line of four: only the new triple c2-d2-e2 scores
    assert state.scores() == {"white": 2, "black": 0}
    state.push("black@f2")
    assert state.scores() == {"white": 2, "black": 0}


def test_first_stone_may_go_anywhere() -> None:
    state = GAME.new_state({"mode": "pure-skill"})
    assert len(set(m.pocket for m in state.legal_moves())) == 76


def test_ring_rule_limits_to_row_or_column_across_the_centre() -> None:
    state = GAME.new_state({"mode": "pure-skill"})
    state.push("white@e2")
    allowed = {_name(m.pocket) for m in state.legal_moves()}
    assert "e8" in allowed and "e9" in allowed  # the same column across the empty centre
    assert "a2" in allowed and "i2" in allowed
    assert "d3" not in allowed
    with pytest.raises(IllegalMoveError) as err:
        state.push("black@d3")
    assert err.value.rule == "ring" and "ring" in str(err.value)


def _name(pocket: int) -> str:
    from engine.games.three_stones import ALL_NAMES

    return ALL_NAMES[pocket]


def test_ring_rule_falls_back_to_anywhere_when_row_and_column_are_full() -> None:
    stones = {f"{c}3": "black" for c in "abcdefghi"} | {f"e{r}": "white" for r in (1, 2, 4, 6, 7, 8, 9)}
    state = GAME.from_position(
        position(
            stones,
            last="e3",
            to_move="white",
            in_hand={"white": {"white": 8, "black": 6, "clear": 6}, "black": {"white": 15, "black": 15, "clear": 6}},
        )
    )
    pockets = {_name(m.pocket) for m in state.legal_moves()}
    assert len(pockets) == 76 - len(stones)


def test_pouch_mode_draws_and_must_play_what_is_drawn() -> None:
    state = GAME.new_state(seed=5)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {Draw("white"): 30 / 72, Draw("black"): 30 / 72, Draw("clear"): 12 / 72}
    state.push("draw clear")
    assert state.current_player == "white"
    with pytest.raises(IllegalMoveError) as err:
        state.push("white@c3")
    assert err.value.rule == "pouch"
    state.push("c3")  # a bare pocket plays the drawn stone
    assert state.peek() == Place("clear", _index("c3"))
    assert state.pouch["clear"] == 11


def _index(name: str) -> int:
    from engine.games.three_stones import INDEX_OF

    return INDEX_OF[name]


def test_seeded_draws_replay_identically_and_survive_undo() -> None:
    a, b = GAME.new_state(seed=42), GAME.new_state(seed=42)
    assert a.advance_chance() == b.advance_chance()
    drawn = a.peek()
    a.pop()
    assert a.advance_chance() == [drawn]


def test_pure_skill_hands_hold_15_15_6_and_run_out() -> None:
    state = GAME.new_state({"mode": "pure-skill"})
    assert state.hands["white"] == {"white": 15, "black": 15, "clear": 6}
    assert not state.is_chance_node()
    state.hands["white"]["clear"] = 0
    with pytest.raises(IllegalMoveError) as err:
        state.push("clear@c3")
    assert err.value.rule == "hand"


def test_game_ends_with_the_last_stone_and_high_score_wins() -> None:
    rng = random.Random(3)
    state = GAME.new_state(seed=3)
    while not state.is_over():
        state.advance_chance()
        if not state.is_over():
            state.push(rng.choice(list(state.legal_moves())))
    assert state.ply == 144  # 72 draws + 72 placements
    assert sum(1 for v in state.board if v) == 72
    outcome = state.outcome()
    assert outcome is not None
    scores = state.scores()
    assert outcome.scores == scores
    if scores["white"] != scores["black"]:
        assert outcome.winner == max(scores, key=lambda side: scores[side])
    else:
        assert outcome.is_draw


def test_equal_scores_are_a_draw() -> None:
    state = GAME.from_position(position({}, pouch={"white": 0, "black": 0, "clear": 0}))
    assert state.outcome().is_draw and state.outcome().winners == ()


def test_handicap_points_start_the_score() -> None:
    state = GAME.new_state({"handicap_black": 4})
    assert state.scores() == {"white": 0, "black": 4}


def test_first_player_option() -> None:
    state = GAME.new_state({"mode": "pure-skill", "first_player": "black"})
    assert state.current_player == "black"


def test_chess_clock_spends_time_and_a_fallen_flag_loses() -> None:
    state = GAME.new_state({"mode": "pure-skill", "clock_white_minutes": 1, "clock_black_minutes": 2})
    assert state.clock == {"white": 60.0, "black": 120.0}
    state.push("white@c3", seconds=20)
    assert state.clock["white"] == 40
    with pytest.raises(IllegalMoveError) as err:
        state.push("black@c4", seconds=121)
    assert err.value.rule == FLAG_FALLEN  # a code of its own: the page flags on it, never on the words
    state.push("time")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winner == "white" and "time" in outcome.reason
    state.pop()
    state.pop()
    assert state.clock == {"white": 60.0, "black": 120.0}


def test_with_the_pouch_the_draw_is_on_the_drawers_clock_and_their_flag_falls() -> None:
    """Timed play: draw, play, then stop the clock; out of time before drawing, the side to move loses."""
    state = GAME.new_state({"clock_white_minutes": 1, "clock_black_minutes": 1}, seed=4)
    assert state.current_player == CHANCE
    drawn = state.sample_chance()
    state.push(drawn, seconds=15.0)
    state.push(next(iter(state.legal_moves())), seconds=5.0)
    assert state.clock == {"white": 40.0, "black": 60.0}
    state.pop()
    state.pop()
    assert state.clock == {"white": 60.0, "black": 60.0}
    with pytest.raises(IllegalMoveError, match="flag has fallen"):
        state.push(drawn, seconds=61.0)
    state.push("time")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == ("black",) and outcome.reason == "white ran out of time"


def test_clock_needs_both_sides() -> None:
    from engine import OptionError

    with pytest.raises(OptionError):
        GAME.new_state({"clock_white_minutes": 30})


def test_time_move_without_a_clock_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as err:
        GAME.new_state({"mode": "pure-skill"}).push("time")
    assert err.value.rule == "clock"


@pytest.mark.parametrize(
    "text,rule",
    [
        ("white@e5", "board"),
        ("white@a1", "board"),
        ("purple@c3", "notation"),
        ("white@z9", "notation"),
        ("c3 c4", "notation"),
        ("", "notation"),
    ],
)
def test_malformed_and_off_board_moves_name_the_rule(text: str, rule: str) -> None:
    state = GAME.new_state({"mode": "pure-skill"})
    with pytest.raises(IllegalMoveError) as err:
        state.push(text)
    assert err.value.rule == rule


def test_occupied_pocket_is_refused() -> None:
    state = GAME.new_state({"mode": "pure-skill"})
    state.push("white@c3")
    with pytest.raises(IllegalMoveError) as err:
        state.push("black@c3")
    assert err.value.rule == "occupied"


def test_position_round_trip_and_assumptions() -> None:
    state = GAME.from_position(position({"b2": "white", "c3": "white", "d4": "white"}))
    assert state.scores() == {"white": 1, "black": 0}
    assert state.pouch == {"white": 27, "black": 30, "clear": 12}
    assert any("pouch" in note for note in state.assumed)
    assert any("last" in note for note in state.assumed)
    assert GAME.from_position(state.to_position()).to_position() == state.to_position()


@pytest.mark.parametrize(
    "bad",
    [
        {"game": "morris", "cells": {}},
        {"game": "three-stones"},
        {"game": "three-stones", "cells": {"e5": "white"}},
        {"game": "three-stones", "cells": {n: "red" for n in POCKET_NAMES}},
        {"game": "three-stones", "cells": {n: "white" for n in POCKET_NAMES}},
    ],
)
def test_bad_positions_are_refused(bad: dict) -> None:
    with pytest.raises(PositionError):
        GAME.from_position(bad)


def test_position_with_a_bad_last_is_refused() -> None:
    with pytest.raises(PositionError):
        GAME.from_position(position({"c3": "white"}, last="c4"))


def test_perft_counts_draws_as_branches() -> None:
    assert perft(GAME.new_state(), 1) == 3 * 76
    assert perft(GAME.new_state({"mode": "pure-skill"}), 1) == 3 * 76
    assert perft(GAME.new_state({"mode": "pure-skill"}), 2) == perft(GAME.new_state(), 2)
