"""rings: every rule and option on hand-built positions."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

import pytest

from engine import IllegalMoveError, OptionError, PositionError, get_game, load_record, perft, save_record
from engine.games.rings import (
    CIRCLE_INDEX,
    CIRCLE_NAMES,
    CIRCLE_NEIGHBOURS,
    CIRCLE_POINTS,
    CIRCLE_XY,
    FULL_CIRCLES,
    POINT_CIRCLES,
    POINT_FULL,
    POINT_INDEX,
    POINT_NAMES,
    POINT_XY,
    Lead,
    Turn,
)

GAME = get_game("rings")


def points(circle: str) -> list[str]:
    return [POINT_NAMES[p] for p in CIRCLE_POINTS[CIRCLE_INDEX[circle]]]


def ring(circle: str, colour: str) -> dict[str, str]:
    return {name: colour for name in points(circle)}


def position(stones: Mapping[str, str | None], **extra) -> dict:
    cells: dict[str, str | None] = {name: None for name in POINT_NAMES}
    cells.update(stones)
    return {"game": "rings", "cells": cells, **extra}


def state_of(stones: Mapping[str, str | None], to_move: str = "black", **extra):
    return GAME.from_position(position(stones, to_move=to_move, **extra))


def holders(stones: Mapping[str, str | None], **extra) -> dict[str, str]:
    return {item["circle"]: item["side"] for item in GAME.score_position(position(stones, **extra))["items"]}


def rule_of(state, move: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.push(move)
    return info.value.rule


def circle(name: str) -> int:
    return CIRCLE_INDEX[name]


# ----- the board ----------------------------------------------------------------------------


def test_board_counts_91_full_circles_and_216_points_150_on_three_full_circles() -> None:
    assert FULL_CIRCLES == 91
    assert len(POINT_NAMES) == 216
    assert sum(1 for full in POINT_FULL if len(full) == 3) == 150
    assert all(len(CIRCLE_POINTS[c]) == 6 for c in range(FULL_CIRCLES))
    assert all(len(circles) == 3 for circles in POINT_CIRCLES)
    assert len(CIRCLE_NAMES) - FULL_CIRCLES == 36  # partial circles at distance 6
    assert GAME.locations() == POINT_NAMES


def test_points_are_the_triangles_between_three_circle_centres() -> None:
    assert points("0,0") == ["U0,-1", "D-1,-1", "D0,-1", "U-1,0", "U0,0", "D-1,0"]
    assert sorted(CIRCLE_NAMES[c] for c in POINT_CIRCLES[POINT_INDEX["U0,0"]]) == ["0,0", "0,1", "1,0"]
    assert sorted(CIRCLE_NAMES[c] for c in POINT_CIRCLES[POINT_INDEX["D0,0"]]) == ["0,1", "1,0", "1,1"]
    radius = 1 / math.sqrt(3)
    for p, circles in enumerate(POINT_CIRCLES):  # each point lies on its three circles
        for c in circles:
            assert math.dist(POINT_XY[p], CIRCLE_XY[c]) == pytest.approx(radius)


def test_neighbouring_circles_are_the_six_lattice_neighbours_on_the_board() -> None:
    assert sorted(CIRCLE_NAMES[c] for c in CIRCLE_NEIGHBOURS[circle("0,0")]) == sorted(
        ["1,0", "1,-1", "0,-1", "-1,0", "-1,1", "0,1"]
    )
    assert len(CIRCLE_NEIGHBOURS[circle("5,0")]) == 3  # a corner circle
    assert len(CIRCLE_NEIGHBOURS[circle("5,-2")]) == 4  # an edge circle


def test_geometry_for_drawing_lists_points_and_circles() -> None:
    geometry = GAME.geometry()
    assert len(geometry.locations) == 216 and len(geometry.circles) == 127
    first = geometry.circles[0]
    assert first.full and len(first.through) == 6
    assert sum(c.full for c in geometry.circles) == 91


# ----- majority and influence --------------------------------------------------------------------


def test_three_own_stones_and_three_empty_points_are_not_a_majority() -> None:
    stones = dict.fromkeys(points("0,0")[:3], "black")
    assert "0,0" not in holders(stones)


def test_four_own_stones_and_two_empty_points_are_a_majority() -> None:
    stones = dict.fromkeys(points("0,0")[:4], "black")
    assert holders(stones)["0,0"] == "black"


def test_opponents_count_together_against_the_majority() -> None:
    c = points("0,0")
    # black 4 against white 1 + red 1: 4 > 2, a majority in a three-player game.
    stones = {c[0]: "black", c[1]: "black", c[2]: "black", c[3]: "black", c[4]: "white", c[5]: "red"}
    assert holders(stones)["0,0"] == "black"
    # black 3 against white 2 + 1 empty: 3 > 3 fails.
    stones = {c[0]: "black", c[1]: "black", c[2]: "black", c[3]: "white", c[4]: "white"}
    assert "0,0" not in holders(stones)


def test_a_ring_adjoining_a_circle_adds_one_influence() -> None:
    # The ring on 1,0 puts two stones on 0,0 (D0,-1, U0,0) and adjoins it.
    stones = ring("1,0", "black") | {"U-1,0": "black"}
    state = state_of(stones)
    assert state.rings() == {"1,0": "black"}
    assert state.influence_on("0,0") == {"black": 4, "white": 0}
    # 3 own stones + 1 adjoining ring against 3 empty points: 4 > 3 is a majority.
    assert holders(stones)["0,0"] == "black"
    # Only the ring's own two stones + the ring against 4 empty points: 3 > 4 fails.
    assert "0,0" not in holders(ring("1,0", "black"))


def test_a_ring_adjoining_a_circle_tips_its_majority() -> None:
    around = {"U-1,0": "black", "D-1,0": "white"}
    not_a_ring = ring("1,0", "black") | {"D0,0": None}
    state = state_of(not_a_ring | around)
    assert state.influence_on("0,0") == {"black": 3, "white": 1}
    assert rule_of(state, "pass x0,0") == "majority"
    state = state_of(ring("1,0", "black") | around)
    assert state.influence_on("0,0") == {"black": 4, "white": 1}
    state.push("pass x0,0")
    assert state.board[POINT_INDEX["D-1,0"]] == 0  # the white stone is black now


def test_the_ring_on_a_circle_itself_counts_as_its_six_stones_only() -> None:
    state = state_of(ring("0,0", "black"))
    assert state.influence_on("0,0")["black"] == 6
    assert state.influence_on("1,0")["black"] == 3  # two stones + the adjoining ring


# ----- conversion -----------------------------------------------------------------------


def chain_position() -> dict[str, str]:
    """Black holds 0,0 (with white D0,-1); 1,0 tips to black only once D0,-1 is converted."""
    return {
        "D0,-1": "white",
        "U0,0": "black",  # the two points 0,0 and 1,0 share
        "U0,-1": "black",
        "D-1,-1": "black",
        "U-1,0": "black",  # rest of 0,0 (D-1,0 empty)
        "U1,-1": "white",
        "D1,-1": "black",
        "U1,0": "black",  # rest of 1,0 (D0,0 empty)
    }


def test_conversion_turns_every_opponent_stone_on_the_circle() -> None:
    c = points("0,0")
    state = state_of({c[0]: "black", c[1]: "black", c[2]: "black", c[3]: "black", c[4]: "white", c[5]: "red"})
    state.push("pass x0,0")
    assert all(state.board[POINT_INDEX[p]] == 0 for p in c)
    assert state.current_player == "white"


def test_conversions_chain_within_a_turn() -> None:
    state = state_of(chain_position())
    assert rule_of(state, "pass x1,0") == "majority"  # not yet
    assert state.convertible_circles() == ["0,0"]
    assert state.convertible_circles(None, ["0,0"]) == ["1,0"]
    moves = {str(m) for m in state.legal_moves() if m.point is None}
    assert moves == {"pass", "pass x0,0", "pass x0,0 x1,0"}
    state.push("pass x0,0 x1,0")
    assert state.board[POINT_INDEX["U1,-1"]] == 0
    state.check_invariants()


def test_a_rings_stones_survive_a_conversion_of_their_circle() -> None:
    # White ring on 1,0 (two stones on 0,0); black rings on -1,0 and -1,1 (three stones on 0,0);
    # U0,-1 is a loose white stone. Black: 3 + 2 rings = 5 against white 3 + 1 ring = 4.
    stones = ring("1,0", "white") | ring("-1,0", "black") | ring("-1,1", "black") | {"U0,-1": "white"}
    state = state_of(stones)
    assert state.influence_on("0,0") == {"black": 5, "white": 4}
    state.push("pass x0,0")
    assert state.board[POINT_INDEX["U0,-1"]] == 0
    assert state.board[POINT_INDEX["D0,-1"]] == 1 and state.board[POINT_INDEX["U0,0"]] == 1
    assert state.rings()["1,0"] == "white"


def test_a_circle_of_only_ring_stones_has_nothing_to_convert() -> None:
    stones = ring("1,0", "white") | ring("-1,0", "black") | ring("-1,1", "black") | {"U0,-1": "black"}
    state = state_of(stones)
    assert state.holders()["0,0"] == "black"
    assert rule_of(state, "pass x0,0") == "nothing to convert"


def test_a_pass_may_still_convert() -> None:
    state = state_of(chain_position())
    state.push("pass x0,0")
    assert state.passes == 1
    assert state.board[POINT_INDEX["D0,-1"]] == 0


def test_a_placement_can_create_the_majority_it_converts() -> None:
    state = state_of({"U0,-1": "black", "D-1,-1": "black", "D0,-1": "white", "U-1,0": "black"})
    assert rule_of(state, "pass x0,0") == "majority"  # black 3 against 1 + 2 empty
    state.push("U0,0 x0,0")
    assert state.board[POINT_INDEX["D0,-1"]] == 0


def test_conversion_order_matters_only_for_legality() -> None:
    a, b = far_apart_points(2)
    state = full_board_with_white(a, b)
    ca, cb = (CIRCLE_NAMES[POINT_FULL[POINT_INDEX[p]][0]] for p in (a, b))
    state.push(f"pass x{ca} x{cb}")
    after = state.board[:]
    state.pop()
    state.push(f"pass x{cb} x{ca}")
    assert state.board == after


# ----- partial circles --------------------------------------------------------------------


def test_a_point_on_two_partial_circles_can_be_played_but_not_converted_through_them() -> None:
    on = sorted(CIRCLE_NAMES[c] for c in POINT_CIRCLES[POINT_INDEX["U5,0"]])
    assert on == ["5,0", "5,1", "6,0"] and len(POINT_FULL[POINT_INDEX["U5,0"]]) == 1
    state = GAME.new_state()
    state.push("U5,0")
    assert state.board[POINT_INDEX["U5,0"]] == 0
    # White stone at U5,0; black fills everything else on both partial circles.
    state = state_of({"U5,0": "white", "D5,-1": "black", "D4,0": "black", "U4,1": "black"})
    assert rule_of(state, "pass x6,0") == "partial circle"
    assert rule_of(state, "pass x5,1") == "partial circle"
    assert not any(m.conversions for m in state.legal_moves())


def test_partial_circles_never_score_nor_form_rings() -> None:
    everything = dict.fromkeys(POINT_NAMES, "black")
    report = GAME.score_position(position(everything))
    assert report["scores"] == {"black": 91, "white": 0}
    assert all(CIRCLE_INDEX[item["circle"]] < FULL_CIRCLES for item in report["items"])
    state = GAME.from_position(position(everything))
    assert len(state.rings()) == 91
    with pytest.raises(IllegalMoveError) as info:
        state.influence_on("6,0")
    assert info.value.rule == "partial circle"


# ----- illegal moves ----------------------------------------------------------------------


def test_placing_on_an_occupied_point_is_refused() -> None:
    state = state_of({"U0,0": "white"})
    with pytest.raises(IllegalMoveError) as info:
        state.push("U0,0")
    assert info.value.rule == "occupied" and "U0,0 is taken" in str(info.value)


def test_converting_without_the_majority_is_refused_with_the_counts() -> None:
    state = state_of({"U0,-1": "black", "D-1,-1": "black", "D0,-1": "black", "U-1,0": "white"})
    with pytest.raises(IllegalMoveError) as info:
        state.push("pass x0,0")
    assert info.value.rule == "majority"
    assert "influence 3" in str(info.value) and "opponents 1 + empty points 2" in str(info.value)


def test_converting_the_same_circle_twice_is_refused() -> None:
    state = state_of(chain_position())
    assert rule_of(state, "pass x0,0 x0,0") == "converted twice"


def test_converting_a_partial_circle_is_refused() -> None:
    assert rule_of(GAME.new_state(), "U0,0 x-6,3") == "partial circle"


def test_a_refused_move_leaves_the_state_untouched() -> None:
    state = state_of(chain_position())
    before = state.snapshot()
    rule_of(state, "D-1,0 x0,0 x1,0 x0,0")
    assert state.snapshot() == before
    state.check_invariants()


# ----- the end of the game --------------------------------------------------------------


def test_the_game_ends_when_both_players_pass_in_sequence() -> None:
    state = GAME.new_state()
    state.push("U0,0")
    state.push("pass")
    state.push("U1,0")  # a placement breaks the run
    state.push("pass")
    assert not state.is_over()
    state.push("pass")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "every player passed in turn"
    assert list(state.legal_moves()) == []


def test_four_players_end_only_after_four_passes_in_a_row() -> None:
    state = GAME.new_state({"players": 4})
    assert state.players == ("black", "white", "red", "blue")
    for move in ("pass", "pass", "pass", "D0,0", "pass", "pass", "pass"):
        state.push(move)
        assert not state.is_over()
    state.push("pass")
    assert state.is_over()


def test_a_converting_pass_counts_towards_the_end_by_default() -> None:
    state = state_of(chain_position(), passes=1)
    state.push("pass x0,0")
    assert state.is_over()
    assert state.outcome().scores == state.scores()


def test_option_a_converting_pass_does_not_count() -> None:
    state = state_of(chain_position(), passes=1, options={"converting_pass_counts": False, "players": 2})
    state.push("pass x0,0")
    assert state.passes == 0 and not state.is_over()


def test_the_winner_holds_most_circles() -> None:
    state = state_of(ring("0,0", "white") | {"U2,-3": "black"}, passes=1)
    state.push("pass")
    assert state.outcome().winner == "white"
    assert state.scores()["white"] == 1 + 0  # its ring circle; neighbours have only 2 stones + ring


# ----- options ------------------------------------------------------------------------------


def test_colours_option_sets_the_players_and_their_turn_order() -> None:
    state = GAME.new_state({"players": 3, "colours": "green, red,purple"})
    assert state.players == ("green", "red", "purple")
    assert state.current_player == "green"
    state.push("pass")
    assert state.current_player == "red"


def test_random_first_draws_the_first_player_from_the_seed() -> None:
    options = {"players": 4, "random_first": True}
    assert GAME.new_state({"players": 4}).current_player == "black", "off by default: the first colour starts"
    firsts = set()
    for seed in range(40):
        state = GAME.new_state(options, seed=seed)
        assert state.is_chance_node() and state.to_position()["to_move"] is None
        assert state.chance_outcomes() == [(Lead(c), 0.25) for c in state.players]
        drawn = state.sample_chance()
        assert drawn == GAME.new_state(options, seed=seed).sample_chance(), "the same seed draws the same player"
        state.push(str(drawn))
        firsts.add(state.current_player)
        order = state.players[state.players.index(drawn.colour) :] + state.players[: state.players.index(drawn.colour)]
        for expected in order:  # then round in the listed order
            assert state.current_player == expected
            state.push("pass")
    assert firsts == {"black", "white", "red", "blue"}


def test_random_first_is_an_option_and_replays_from_records_and_positions() -> None:
    assert "random_first" in {o["name"] for o in GAME.Options.schema()}
    state = GAME.new_state({"random_first": True}, seed=3)
    with pytest.raises(IllegalMoveError) as err:
        state.push("U0,0")
    assert err.value.rule == "chance"
    state.advance_chance()
    state.push("U0,0")
    record = save_record(state)
    assert record["moves"][0].startswith("first ")
    assert load_record(record).snapshot() == state.snapshot()
    fresh = GAME.new_state({"random_first": True}, seed=3)
    assert GAME.from_position(fresh.to_position()).is_chance_node()
    assert not GAME.from_position(state.to_position()).is_chance_node()


@pytest.mark.parametrize(
    "options",
    [
        {"players": 7},
        {"players": 1},
        {"colours": "red,red"},
        {"players": 3, "colours": "red,blue"},
        {"colours": "pink,red"},
        {"seats": 2},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(OptionError):
        GAME.new_state(options)


def test_six_players_take_the_default_colours() -> None:
    state = GAME.new_state({"players": 6})
    assert state.players == ("black", "white", "red", "blue", "green", "yellow")


# ----- move generation ----------------------------------------------------------------------


def far_apart_points(count: int) -> list[str]:
    """Points on three full circles, no circle shared between two of them."""
    chosen: list[int] = []
    used: set[int] = set()
    for p, full in enumerate(POINT_FULL):
        if len(full) == 3 and not set(full) & used:
            chosen.append(p)
            used |= set(full)
            if len(chosen) == count:
                return [POINT_NAMES[i] for i in chosen]
    raise AssertionError("board too small")


def full_board_with_white(*whites: str):
    return state_of(dict.fromkeys(POINT_NAMES, "black") | dict.fromkeys(whites, "white"))


def test_each_reachable_result_is_listed_once() -> None:
    state = full_board_with_white(*far_apart_points(2))
    moves = list(state.legal_moves())
    # Two lone white stones, each on three black circles: 4 distinct results.
    assert len(moves) == 4 and moves[0] == Turn(None)
    results = set()
    for move in moves:
        state.push(move)
        results.add(tuple(state.board))
        state.pop()
    assert len(results) == 4
    # Other sets reaching the same result are legal too.
    a = far_apart_points(2)[0]
    others = [CIRCLE_NAMES[c] for c in POINT_FULL[POINT_INDEX[a]]]
    for name in others:
        assert state.is_legal(f"pass x{name}")


def test_blow_up_policy_lists_none_each_single_conversion_and_the_maximum() -> None:
    whites = far_apart_points(9)  # 2**9 results: past the limit
    state = full_board_with_white(*whites)
    moves = list(state.legal_moves())
    assert len(moves) == 1 + 9 + 1
    state.push(moves[-1])
    assert 1 not in state.board  # the maximal chain converts every white stone
    state.pop()
    assert state.is_legal("pass " + " ".join(f"x{CIRCLE_NAMES[POINT_FULL[POINT_INDEX[w]][0]]}" for w in whites[:3]))


def test_start_position_has_217_moves_and_perft() -> None:
    state = GAME.new_state()
    assert len(list(state.legal_moves())) == 217
    assert perft(state, 1) == 217
    assert perft(state, 2) == 216 * 216 + 217


def test_random_games_keep_every_tally_and_undo_exactly() -> None:
    rng = random.Random(5)
    conversions = 0
    for players in (2, 3):
        state = GAME.new_state({"players": players})
        for _ in range(150):
            if state.is_over():
                break
            moves = list(state.legal_moves())
            converting = [m for m in moves if m.conversions]
            move = rng.choice(converting if converting and rng.random() < 0.5 else moves)
            before = state.snapshot()
            state.push(move)
            state.check_invariants()
            assert state.scores() == state.recount_scores()
            state.pop()
            assert state.snapshot() == before
            state.push(str(move))
            conversions += len(move.conversions)
        record = save_record(state)
        assert load_record(record).snapshot() == state.snapshot()
    assert conversions > 20


# ----- the interface for a UI ---------------------------------------------------------------


def test_preview_shows_a_partial_turn_and_what_converts_next() -> None:
    state = state_of(chain_position())
    before = state.snapshot()
    view = state.preview(None, ["0,0"])
    assert view["move"] == "pass x0,0"
    assert view["cells"]["D0,-1"] == "black"
    assert view["convertible"] == ["1,0"]
    assert view["holders"]["1,0"] == "black"
    assert state.snapshot() == before
    with pytest.raises(IllegalMoveError) as info:
        state.preview("pass", ["1,0"])
    assert info.value.rule == "majority"
    assert state.preview("D-1,0")["cells"]["D-1,0"] == "black"


# ----- notation -----------------------------------------------------------------------------


def test_notation_round_trips_and_reads_any_case() -> None:
    state = state_of(chain_position())
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
    assert state.parse_move("u0,1  X0,0 x1,0") == Turn(POINT_INDEX["U0,1"], (circle("0,0"), circle("1,0")))
    assert str(Turn(None, (circle("1,-2"),))) == "pass x1,-2"
    assert str(Turn(POINT_INDEX["D-2,3"])) == "D-2,3"


@pytest.mark.parametrize("text", ["", "  ", "Z1,1", "U0", "U0,0 y1,1", "U99,0", "U0,0 x9,9", "pass pass", "U0,0 x1"])
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        GAME.new_state().parse_move(text)
    assert info.value.rule == "notation"


# ----- positions ----------------------------------------------------------------------------


def test_position_round_trip_keeps_turn_and_passes() -> None:
    state = state_of(chain_position(), to_move="white", passes=1)
    data = state.to_position()
    assert data["to_move"] == "white" and data["passes"] == 1
    assert GAME.from_position(data).to_position() == data
    assert state.assumed == ["players not given: assumed black, white in this turn order"]


def test_players_are_inferred_from_the_colours_on_the_board() -> None:
    state = GAME.from_position(position({"U0,0": "green", "D0,0": "red"}))
    assert state.players == ("red", "green")
    assert any("to_move not given" in a for a in state.assumed)
    assert GAME.from_position(position({"U0,0": "white", "D0,0": "red"})).players == ("white", "red")
    assert GAME.from_position(position({"U0,0": "black"})).players == ("black", "white")
    assert GAME.from_position(position({"U0,0": "black"}, to_move="red")).players == ("black", "red")


def test_score_position_lists_the_held_circles() -> None:
    report = GAME.score_position(position(ring("0,0", "white") | dict.fromkeys(points("3,0")[:4], "red")))
    assert report["game"] == "rings"
    assert report["scores"] == {"white": 1, "red": 1}
    assert {"side": "white", "circle": "0,0", "cells": points("0,0")} in report["items"]
    assert {"side": "red", "circle": "3,0", "cells": points("3,0")} in report["items"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda p: p["cells"].pop("U0,0"), "lacks"),
        (lambda p: p["cells"].update({"U9,9": None}), "does not have"),
        (lambda p: p["cells"].update({"U0,0": "pink"}), "pink"),
        (lambda p: p.update(to_move="red", options={"players": 2}), "to_move"),
        (lambda p: p.update(to_move="pink"), "to_move"),
        (lambda p: p.update(passes=-1), "passes"),
        (lambda p: p.update(passes=3), "passes"),
        (lambda p: p.update(passes="1"), "passes"),
        (lambda p: p.update(options={"players": 2}) or p["cells"].update({"U0,0": "red"}), "red stones"),
        (lambda p: p.update(options={"players": 9}), "players"),
        (lambda p: p.update(game="morris"), "not 'rings'"),
    ],
)
def test_bad_positions_are_refused(change, message: str) -> None:
    data = position({"D0,0": "black"}, to_move="white")
    change(data)
    with pytest.raises(PositionError, match=message):
        GAME.from_position(data)


def test_seven_colours_are_too_many() -> None:
    stones = dict(zip(POINT_NAMES, ["black", "white", "red", "blue", "green", "yellow", "purple"]))
    with pytest.raises(PositionError, match="six"):
        GAME.score_position(position(stones))


# ----- rendering ----------------------------------------------------------------------------


def test_render_shows_stones_rings_holders_and_point_labels() -> None:
    state = state_of(ring("0,0", "white") | {"U2,-3": "black"}, to_move="black")
    text = state.render()
    assert "U r=0" in text and "D r=-6" in text
    assert "WH" in text and "[WH]" in text and "bk" in text
    assert "to move: black" in text
    lines = text.splitlines()
    row = next(line for line in lines if line.startswith("U r=3 "))
    assert row.split()[-1] == "2"  # the empty point U2,3 shows its q


def test_reused_pass_conversions_match_a_search_after_each_placement() -> None:
    """The generator reuses a pass's conversions for placements that cannot matter; check it does not miss any."""
    rng = random.Random(11)
    state = GAME.new_state({"players": 3})
    checked = 0
    while not state.is_over() and state.ply < 180:
        moves = list(state.legal_moves())
        if state.ply % 12 == 0:
            searched = state._turns_after_placement(None)
            for pt in range(len(POINT_NAMES)):
                if state.board[pt] == -1:
                    searched += state._turns_after_placement(pt)
            assert moves == searched
            checked += 1
        converting = [m for m in moves if m.conversions]
        state.push_unchecked(rng.choice(converting if converting and rng.random() < 0.3 else moves))
    assert checked >= 10
