"""sage-stones: every rule and option on hand-built positions."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

import pytest

from engine import (
    CHANCE,
    IllegalMoveError,
    OptionError,
    PositionError,
    UnreachablePositionError,
    load_record,
    perft,
    save_record,
)
from engine.games.sage_stones import GAME, NAMES, Pass, Place, Roll, Wipe


def position(stones: Mapping[str, str | None] | None = None, **extra) -> dict:
    cells: dict[str, str | None] = {name: None for name in GAME.locations()}
    cells.update(stones or {})
    return {"game": "sage-stones", "cells": cells, **extra}


def load(stones: Mapping[str, str | None] | None = None, to_move: str = "red", options: dict | None = None, **extra):
    return GAME.from_position(position(stones, to_move=to_move, options=options or {}, **extra))


def column(number: int, colours: Sequence[str | None]) -> dict[str, str | None]:
    """Fill column `number` from row 1 up with these colours."""
    return {f"c{number}r{row}": colour for row, colour in enumerate(colours, start=1)}


def rule_of(state, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        state.push(move)
    return caught.value.rule


# ----- seats, players, options ------------------------------------------------------------------
def test_two_players_default_to_four_seats_alternating() -> None:
    state = GAME.new_state()
    assert state.players == ("p1", "p2")
    assert state.seats == ("red", "blue", "green", "yellow")
    assert state.owners == ("p1", "p2", "p1", "p2")
    assert state.current_player == CHANCE and state.seat_to_move == "red"
    state.push("roll 1-1-2")
    assert state.current_player == "p1"
    state.push("c4r1")
    assert state.seat_to_move == "blue" and state.current_player == CHANCE
    state.push("roll 1-1-2")
    assert state.current_player == "p2"
    assert state.in_hand() == {"red": 9, "blue": 10, "green": 10, "yellow": 10}


def test_one_colour_each_option() -> None:
    state = GAME.new_state({"two_colours": False})
    assert state.seats == ("red", "blue") and state.owners == ("p1", "p2")


def test_more_players_play_one_colour_each_whatever_two_colours_says() -> None:
    state = GAME.new_state({"players": 3, "two_colours": True})
    assert state.players == ("p1", "p2", "p3")
    assert state.seats == ("red", "blue", "green")
    assert GAME.new_state({"players": 6}).seats == ("red", "blue", "green", "yellow", "orange", "purple")


def test_colours_option_names_the_seats() -> None:
    state = GAME.new_state({"colours": "black, White,clear,red"})
    assert state.seats == ("black", "white", "clear", "red")
    assert state.owner("clear") == "p1"


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 7},
        {"stones_per_colour": 0},
        {"stones_per_colour": 64},
        {"colours": "red,blue"},
        {"colours": "red,blue,green,pink"},
        {"colours": "red,blue,red,green"},
        {"players": 3, "colours": "red,blue,green,yellow"},
        {"after_wipe": "whoever"},
        {"wrap_diagonals": "yes"},
        {"seats": 4},
    ],
)
def test_options_are_validated(options: dict) -> None:
    with pytest.raises(OptionError):
        GAME.new_state(options)


def test_stones_per_colour_sets_every_supply() -> None:
    assert GAME.new_state({"stones_per_colour": 7}).in_hand() == dict.fromkeys(("red", "blue", "green", "yellow"), 7)


# ----- dice -------------------------------------------------------------------------------------
def test_chance_outcomes_are_the_ten_multisets_out_of_27() -> None:
    outcomes = dict((str(m), p) for m, p in GAME.new_state().chance_outcomes())
    assert len(outcomes) == 10
    assert sum(outcomes.values()) == pytest.approx(1)
    assert outcomes["roll 1-1-1"] == pytest.approx(1 / 27)
    assert outcomes["roll 1-1-3"] == pytest.approx(3 / 27)
    assert outcomes["roll 1-2-3"] == pytest.approx(6 / 27)


def test_the_sum_names_the_column() -> None:
    state = GAME.new_state()
    state.push("roll 2-3-3")
    assert {NAMES[m.pocket] for m in state.legal_moves()} == {f"c8r{r}" for r in range(1, 10)}
    assert rule_of(state, "c5r1") == "column"


def test_one_two_three_loses_the_turn() -> None:
    state = GAME.new_state()
    state.push("roll 1-2-3")
    assert state.current_player == "p1"
    assert list(state.legal_moves()) == [Pass()]
    assert rule_of(state, "c6r1") == "lost turn"
    state.push("pass")
    assert state.is_chance_node() and state.seat_to_move == "blue"
    assert state.on_board() == dict.fromkeys(state.seats, 0)


def test_triples_roll_again_repeatedly() -> None:
    state = GAME.new_state()
    state.push("roll 1-1-1")
    state.push("c3r1")
    assert state.is_chance_node() and state.seat_to_move == "red"
    state.push("roll 3-3-3")
    state.push("c9r9")
    assert state.seat_to_move == "red"
    state.push("roll 1-1-2")
    state.push("c4r4")
    assert state.seat_to_move == "blue"


def test_full_column_sends_the_stone_to_column_six_without_extra_roll() -> None:
    full = column(3, ["blue", "yellow"] * 4 + ["blue"])
    state = load(full, options={"stones_per_colour": 10})
    state.push("roll 1-1-1")
    assert {NAMES[m.pocket] for m in state.legal_moves()} == {f"c6r{r}" for r in range(1, 10)}
    with pytest.raises(IllegalMoveError, match="column 3 is full") as caught:
        state.push("c3r1")
    assert caught.value.rule in ("column", "occupied")
    state.push("c6r5")
    assert state.seat_to_move == "blue", "a redirected triple earns no extra roll"


def test_full_column_six_too_wipes_the_board() -> None:
    stones = {**column(3, ["blue", "yellow"] * 4 + ["blue"]), **column(6, ["green", "yellow"] * 4 + ["green"])}
    stones["c9r9"] = "red"
    state = load(stones)
    before = state.snapshot()
    state.push("roll 1-1-1")
    assert list(state.legal_moves()) == [Wipe()]
    assert rule_of(state, "c6r1") == "wipe"
    state.push("wipe")
    assert state.on_board() == dict.fromkeys(state.seats, 0)
    assert state.in_hand() == dict.fromkeys(state.seats, 10)
    assert state.is_chance_node() and state.seat_to_move == "blue", "the turn ends after the wipe"
    state.pop()
    state.pop()
    assert state.snapshot() == before


def test_undoing_a_wipe_on_a_copy_leaves_the_original_intact() -> None:
    stones = {**column(3, ["blue", "yellow"] * 4 + ["blue"]), **column(6, ["green", "yellow"] * 4 + ["green"])}
    stones["c9r9"] = "red"
    state = load(stones)
    before = state.snapshot()
    state.push("roll 1-1-1")
    state.push("wipe")
    state.push("roll 1-2-2")
    state.push("c5r1")
    copy = state.copy()  # e.g. the page viewing an earlier position
    for _ in range(4):
        copy.pop()
    copy.push("roll 1-1-2")  # plays on the board the copy's undo of the wipe restored
    copy.push("c4r1")
    for _ in range(4):
        state.pop()
    assert state.snapshot() == before


def test_after_wipe_first_seat_option_starts_over() -> None:
    stones = {**column(5, ["blue", "yellow"] * 4 + ["blue"]), **column(6, ["green", "red"] * 4 + ["green"])}
    state = load(stones, to_move="yellow", options={"after_wipe": "first-seat"})
    state.push("roll 1-1-3")
    state.push("wipe")
    assert state.seat_to_move == "red"


def test_wipe_and_pass_only_when_due() -> None:
    state = GAME.new_state()
    state.push("roll 1-1-2")
    assert rule_of(state, "pass") == "lost turn"
    assert rule_of(state, "wipe") == "wipe"
    assert rule_of(state, "roll 1-1-1") == "dice"


def test_place_before_rolling_is_refused() -> None:
    state = GAME.new_state()
    with pytest.raises(IllegalMoveError, match="roll the dice") as caught:
        state.push("c5r5")
    assert caught.value.rule == "dice"


def test_occupied_pocket_is_refused() -> None:
    state = load({"c5r5": "blue"})
    state.push("roll 1-1-3")
    with pytest.raises(IllegalMoveError, match="taken by blue") as caught:
        state.push("c5r5")
    assert caught.value.rule == "occupied"


# ----- captures ----------------------------------------------------------------------------------
def place(state, roll: str, pocket: str):
    state.push(f"roll {roll}")
    state.push(pocket)
    return state


def test_horizontal_sandwich() -> None:
    state = place(load({"c3r5": "red", "c4r5": "blue"}), "1-1-3", "c5r5")
    assert state.to_position()["cells"]["c4r5"] is None
    assert state.in_hand()["blue"] == 10 and state.in_hand()["red"] == 8


def test_vertical_sandwich() -> None:
    state = place(load({"c5r1": "red", "c5r2": "blue"}), "1-1-3", "c5r3")
    assert state.to_position()["cells"]["c5r2"] is None


def test_diagonal_sandwich() -> None:
    state = place(load({"c3r1": "red", "c4r2": "blue"}), "1-1-3", "c5r3")
    assert state.to_position()["cells"]["c4r2"] is None


def test_multi_stone_sandwich_of_mixed_colours_takes_the_movers_other_colour_too() -> None:
    stones = {"c3r5": "red", "c4r5": "blue", "c5r5": "green", "c6r5": "yellow"}
    state = place(load(stones, options={"stones_per_colour": 5}), "1-3-3", "c7r5")
    cells = state.to_position()["cells"]
    assert [cells[f"c{c}r5"] for c in range(3, 8)] == ["red", None, None, None, "red"]
    assert state.in_hand() == {"red": 3, "blue": 5, "green": 5, "yellow": 5}


def test_several_directions_at_once() -> None:
    stones = {"c3r5": "red", "c4r5": "blue", "c5r7": "red", "c5r6": "blue", "c7r3": "red", "c6r4": "yellow"}
    state = place(load(stones), "1-1-3", "c5r5")
    cells = state.to_position()["cells"]
    assert cells["c4r5"] is None and cells["c5r6"] is None and cells["c6r4"] is None
    assert state.on_board() == {"red": 4, "blue": 0, "green": 0, "yellow": 0}


def test_an_empty_pocket_breaks_the_line() -> None:
    state = place(load({"c3r5": "red", "c4r5": "blue", "c5r4": "blue", "c5r2": "red"}), "1-1-3", "c5r5")
    cells = state.to_position()["cells"]
    assert cells["c4r5"] is None, "adjacent sandwich taken"
    assert cells["c5r4"] == "blue", "c5r3 is empty: no sandwich down the column"


def test_vertical_wrap_across_rows_nine_and_one_takes_both_colours_of_the_other_player() -> None:
    stones = {"c5r2": "red", "c5r1": "blue", "c5r9": "yellow"}
    state = place(load(stones), "1-1-3", "c5r8")
    cells = state.to_position()["cells"]
    assert cells["c5r1"] is None and cells["c5r9"] is None
    assert state.scores() == {"p1": 2, "p2": 0}


def test_a_walk_round_the_whole_column_back_to_itself_captures_nothing() -> None:
    stones = column(5, [None] + ["blue", "yellow"] * 4)
    stones = {k: v for k, v in stones.items() if v}
    state = place(load(stones), "1-1-3", "c5r1")
    assert state.on_board() == {"red": 1, "blue": 4, "green": 0, "yellow": 4}


@pytest.mark.parametrize("wrap, taken", [(True, True), (False, False)])
def test_diagonal_wrap_follows_the_option(wrap: bool, taken: bool) -> None:
    state = load({"c6r1": "blue", "c7r2": "red"}, options={"wrap_diagonals": wrap})
    place(state, "1-1-3", "c5r9")
    assert (state.to_position()["cells"]["c6r1"] is None) is taken


def test_lines_never_wrap_across_columns_three_and_nine() -> None:
    stones = {"c3r5": "blue", "c9r5": "red", "c3r6": "blue", "c9r7": "red"}
    state = place(load(stones), "1-1-2", "c4r5")
    cells = state.to_position()["cells"]
    assert cells["c3r5"] == "blue" and cells["c3r6"] == "blue"


def test_placing_between_two_enemy_stones_is_safe() -> None:
    state = place(load({"c4r5": "blue", "c6r5": "blue", "c5r4": "green", "c5r6": "green"}), "1-1-3", "c5r5")
    assert state.to_position()["cells"]["c5r5"] == "red"
    assert state.on_board() == {"red": 1, "blue": 2, "green": 2, "yellow": 0}


def test_undo_puts_captured_stones_back() -> None:
    state = load({"c3r5": "red", "c4r5": "blue"})
    before = state.snapshot()
    place(state, "1-1-3", "c5r5")
    state.pop()
    state.pop()
    assert state.snapshot() == before


# ----- winning -----------------------------------------------------------------------------------
def test_placing_the_last_stone_wins_even_when_it_captures() -> None:
    state = load({"c3r5": "red", "c4r5": "blue", "c9r9": "red"}, options={"stones_per_colour": 3})
    place(state, "1-1-3", "c5r5")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("p1",)
    assert "red placed its last stone" in outcome.reason
    assert state.to_position()["cells"]["c4r5"] is None
    assert list(state.legal_moves()) == []


def test_last_stone_from_a_triple_ends_the_game_at_once() -> None:
    state = load({"c9r9": "yellow"}, to_move="yellow", options={"stones_per_colour": 2})
    place(state, "1-1-1", "c3r3")
    assert state.is_over() and state.outcome().winner == "p2"


def test_a_players_second_colour_wins_for_them() -> None:
    state = load({"c9r9": "green"}, to_move="green", options={"stones_per_colour": 2})
    place(state, "2-2-3", "c7r1")
    assert state.outcome().winner == "p1"


# ----- the family variant: playing on for places -------------------------------------------------
FAMILY = {"players": 3, "stones_per_colour": 2, "play_for_places": True}


def test_play_for_places_is_an_option_declared_like_the_others() -> None:
    option = next(o for o in GAME.Options.schema() if o["name"] == "play_for_places")
    assert option["type"] == "bool" and option["default"] is False and "skipped" in option["help"]
    assert GAME.Options.parse_assignments(["play-for-places=yes"]).play_for_places is True


def test_the_family_plays_on_for_second_place_and_skips_the_finished_player() -> None:
    state = load({"c9r9": "red", "c8r8": "blue"}, options=FAMILY)
    place(state, "1-1-3", "c5r1")  # red's last stone: p1 has won, the game goes on
    assert not state.is_over() and state.winner == 0
    assert state.seat_to_move == "blue"
    place(state, "1-1-2", "c4r1")  # blue's last stone: second place
    assert state.is_over(), "with one player left the places are all decided"
    outcome = state.outcome()
    assert outcome.winners == ("p1",) and outcome.places == ("p1", "p2", "p3")
    assert outcome.to_dict()["places"] == ["p1", "p2", "p3"] and "places: p1, p2, p3" in outcome.describe()
    assert GAME.score_position(state.to_position())["places"] == ["p1", "p2", "p3"]
    state.pop()
    state.pop()
    assert state.finished == [0] and not state.is_over()


def test_a_finished_players_turns_are_skipped_even_after_a_triple_and_a_wipe() -> None:
    state = load({"c9r9": "red"}, options={**FAMILY, "players": 4})
    place(state, "1-1-1", "c3r1")  # a triple, but red has finished: no second roll
    assert state.seat_to_move == "blue"
    for roll, pocket in (("1-1-2", "c4r1"), ("1-1-2", "c4r2"), ("1-1-2", "c4r3")):
        place(state, roll, pocket)  # blue, green, yellow; then red is skipped
    assert state.seat_to_move == "blue"


def test_a_finished_player_whose_stones_are_taken_stays_finished() -> None:
    state = load(
        {"c4r5": "red", "c3r5": "blue", "c9r9": "green"},
        to_move="blue",
        finished=["red"],
        options={**FAMILY, "stones_per_colour": 2},
    )
    place(state, "1-1-3", "c5r5")  # blue sandwiches red's stone: red keeps its first place
    assert state.in_hand()["red"] == 2 and state.is_over()
    assert state.outcome().places == ("p1", "p2", "p3")


def test_places_survive_records_and_positions() -> None:
    state = GAME.new_state(FAMILY, seed=8)
    random_play = random.Random(8)
    while not state.is_over():
        state.push(state.sample_chance() if state.is_chance_node() else random_play.choice(list(state.legal_moves())))
    record = json.loads(json.dumps(save_record(state)))
    outcome = state.outcome()
    assert outcome is not None
    assert record["result"]["places"] == list(outcome.places)
    assert load_record(record).snapshot() == state.snapshot()
    position = json.loads(json.dumps(state.to_position()))
    assert len(position["finished"]) == 2
    assert GAME.from_position(position).outcome().places == state.outcome().places


@pytest.mark.parametrize(
    "stones,extra,rule",
    [
        ({"c3r1": "red", "c3r2": "blue"}, {"options": {"stones_per_colour": 1, "players": 3}}, "last stone"),
        ({"c3r1": "red"}, {"finished": ["red"], "options": {"players": 3}}, "last stone"),
        (
            {"c3r1": "red"},
            {"finished": ["red"], "to_move": "red", "options": {**FAMILY, "stones_per_colour": 1}},
            "finished",
        ),
        (
            {"c3r1": "red", "c3r2": "blue"},
            {"finished": ["blue"], "options": {**FAMILY, "stones_per_colour": 1}},
            "last stone",
        ),
    ],
)
def test_finishes_no_game_reaches_are_refused(stones: dict, extra: dict, rule: str) -> None:
    with pytest.raises(UnreachablePositionError) as err:
        GAME.from_position(position(stones, **extra))
    assert err.value.rule == rule


# ----- notation ----------------------------------------------------------------------------------
def test_notation_round_trips() -> None:
    state = GAME.new_state()
    for move in (Roll((1, 1, 3)), Place(0), Place(len(NAMES) - 1), Pass(), Wipe()):
        assert state.parse_move(str(move)) == move
    assert str(Place(NAMES.index("c5r3"))) == "c5r3"
    assert state.parse_move("ROLL 3-1-1") == Roll((1, 1, 3))
    assert state.parse_move(" C5R3 ") == Place(NAMES.index("c5r3"))


@pytest.mark.parametrize(
    "text", ["c2r1", "c10r1", "c5r0", "c5r10", "roll 1-2", "roll 1-4-1", "roll", "xyz", "c5 r3", ""]
)
def test_malformed_notation_is_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.new_state().parse_move(text)
    assert caught.value.rule == "notation"


def test_an_unsorted_roll_object_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.new_state().push(Roll((3, 1, 1)))
    assert caught.value.rule == "dice"


# ----- positions ---------------------------------------------------------------------------------
def test_position_round_trip_keeps_the_pending_roll() -> None:
    state = load({"c3r5": "red"}, to_move="blue")
    state.push("roll 1-1-3")
    data = json.loads(json.dumps(state.to_position()))
    assert data["roll"] == "1-1-3" and data["to_move"] == "blue"
    again = GAME.from_position(data)
    assert again.to_position() == data
    assert again.current_player == "p2"
    assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_missing_fields_are_assumed_and_said() -> None:
    state = GAME.from_position(position({"c5r5": "blue"}))
    assert state.seat_to_move == "red" and state.is_chance_node()
    assert state.in_hand()["blue"] == 9
    assert any("to_move" in a for a in state.assumed)
    assert any("in_hand" in a for a in state.assumed)


def test_unusual_colours_take_the_seats_of_absent_default_ones() -> None:
    state = GAME.from_position(position({"c5r5": "black", "c6r6": "blue", "c7r7": "white"}, to_move="white"))
    assert state.seats == ("black", "blue", "white", "yellow")
    assert state.options.colours == "black,blue,white,yellow"
    assert state.current_player == CHANCE and state.seat_to_move == "white"
    assert any("seats not given" in a for a in state.assumed)


def test_five_colours_on_the_board_mean_five_players() -> None:
    stones = {"c3r1": "red", "c4r1": "blue", "c5r1": "green", "c6r1": "yellow", "c7r1": "orange"}
    state = GAME.from_position(position(stones))
    assert state.players == ("p1", "p2", "p3", "p4", "p5")
    assert any("players not given" in a for a in state.assumed)


def test_a_seat_that_placed_everything_has_won() -> None:
    state = GAME.from_position(position({"c3r1": "blue", "c3r2": "blue"}, options={"stones_per_colour": 2}))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "p2"


def test_given_scores_that_differ_are_recounted() -> None:
    state = GAME.from_position(position({"c3r1": "blue"}, scores={"blue": 5}))
    assert state.to_position()["scores"]["blue"] == 1
    assert any("scores" in a for a in state.assumed)


@pytest.mark.parametrize(
    "bad",
    [
        {"game": "morris", "cells": {}},
        {"game": "sage-stones"},
        {"game": "sage-stones", "cells": {"c5r5": None}},
        position({"c2r5": "red"}),
        position({"c5r5": "pink"}),
        position({f"c3r{r}": "red" for r in range(1, 10)} | {"c4r1": "red", "c4r2": "red"}),
        position(to_move="pink"),
        position(to_move="purple", options={"colours": "red,blue,green,yellow"}),
        position({"c5r5": "red"}, in_hand={"red": 10, "blue": 10, "green": 10, "yellow": 10}),
        position(roll="1-2"),
        position(roll="4-1-1"),
        position(roll=7),
        position({"c3r1": "blue", "c4r1": "red"}, options={"stones_per_colour": 1}),
        position(
            {
                "c3r1": "black",
                "c3r2": "white",
                "c3r3": "clear",
                "c3r4": "red",
                "c3r5": "blue",
                "c3r6": "green",
                "c3r7": "yellow",
            }
        ),
        position({"c3r1": "red", "c3r2": "blue", "c3r3": "green"}, options={"players": 2, "two_colours": False}),
        position({"c3r1": "black"}, options={"colours": "red,blue,green,yellow"}),
    ],
)
def test_bad_positions_are_refused(bad: dict) -> None:
    with pytest.raises(PositionError):
        GAME.from_position(bad)


def test_score_position_counts_stones_per_colour_and_says_who_is_closest() -> None:
    stones = {"c3r1": "red", "c3r2": "red", "c4r4": "blue", "c9r9": "yellow", "c8r8": "red"}
    report = GAME.score_position(position(stones))
    assert report["game"] == "sage-stones"
    assert report["scores"] == {"red": 3, "blue": 1, "green": 0, "yellow": 1}
    assert {"side": "red", "cells": ["c3r1", "c3r2", "c8r8"]} in report["items"]
    assert len(report["items"]) == 3
    assert report["stones_left"]["red"] == 7
    assert report["fewest_left"] == ["red"]
    assert report["owners"]["yellow"] == "p2"
    assert json.loads(json.dumps(report)) == report


# ----- rendering, perft, whole games -------------------------------------------------------------
def test_render_shows_columns_letters_supplies_and_roll() -> None:
    state = load({"c3r1": "red", "c9r9": "blue"})
    state.push("roll 1-1-3")
    text = state.render()
    lines = text.splitlines()
    assert lines[0].split() == [str(c) for c in range(3, 10)]
    assert lines[1].split() == ["r9", ".", ".", "+", ".", ".", ".", "B"]
    assert lines[9].split() == ["r1", "R", ".", "+", ".", ".", ".", "."]
    assert "red (R, p1) 9" in text and "blue (B, p2) 9" in text
    assert "last roll: 1-1-3" in text


def test_perft_from_the_start() -> None:
    # 9 pockets for each of the 9 placing rolls, plus the pass of a 1-2-3.
    assert perft(GAME.new_state(), 1) == 82
    assert perft(GAME.new_state(), 2) == 6607


@pytest.mark.parametrize("options", [{}, {"players": 5, "stones_per_colour": 40, "after_wipe": "first-seat"}])
def test_random_games_undo_and_replay_exactly(options: dict) -> None:
    state = GAME.new_state(options, seed=3)
    rng = random.Random(3)
    for _ in range(400):
        if state.is_over():
            break
        move = state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves()))
        before = state.snapshot()
        state.push(move)
        assert state.scores() == state.recount_scores()
        state.pop()
        assert state.snapshot() == before
        state.push(str(move))
    record = json.loads(json.dumps(save_record(state)))
    assert load_record(record).snapshot() == state.snapshot()
