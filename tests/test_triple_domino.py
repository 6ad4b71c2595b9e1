"""triple-domino: every rule and option on hand-built layouts."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import CHANCE, IllegalMoveError, OptionError, PositionError, get_game, load_record, perft, save_record
from engine.games.triple_domino import (
    CORNER_NUMBERS,
    CORNERS,
    MATCHES,
    NEIGHBOURS,
    ORIGIN,
    TILE_NAMES,
    TILE_VALUES,
    TILES,
    Deal,
    Draw,
    Drawn,
    Lay,
    Pass,
    TripleDominoView,
    parse_position_name,
    parse_tile,
    position_name,
    tile_for_corners,
    triangle_vertices,
)

GAME = get_game("triple-domino")
ALL = list(TILE_NAMES)


# ----- helpers ---------------------------------------------------------------------------------
def number_layout(names: list[str]) -> dict[str, str]:
    """Corner numbers for these triangles so that each is a different tile: {position: 'a-b-c rK'}."""
    ts = [parse_position_name(n) for n in names]
    order: list[int] = []
    for t in ts:
        order += [v for v in CORNERS[t] if v not in order]
    closing = {v: [t for t in ts if max(order.index(x) for x in CORNERS[t]) == order.index(v)] for v in order}
    numbers: dict[int, int] = {}
    used: list[int] = []

    def fill(i: int) -> bool:
        if i == len(order):
            return True
        for n in range(6):
            numbers[order[i]] = n
            placed = 0
            for t in closing[order[i]]:
                fit = MATCHES.get(tuple(numbers[v] for v in CORNERS[t]))
                if not fit or fit[0][0] in used:
                    break
                used.append(fit[0][0])
                placed += 1
            else:
                if fill(i + 1):
                    return True
            del used[len(used) - placed :]
        del numbers[order[i]]
        return False

    assert fill(0)
    out = {}
    for name, t in zip(names, ts):
        tile, rot = MATCHES[tuple(numbers[v] for v in CORNERS[t])][0]
        out[name] = f"{TILE_NAMES[tile]} r{rot}"
    return out


def state_with(layout: dict[str, str], hands: dict[str, list[str]], **extra):
    """A live state: this layout and these hands, every other tile in the pool (unless `pool` is given)."""
    return GAME.from_position({"game": "triple-domino", "layout": layout, "hands": hands, "phase": "play", **extra})


def lay_target(names: list[str], p2: list[str] | None = None, **extra):
    """Number the triangles, lay all but the last; p1 holds the last one's tile (plus a spare) and is to move."""
    layout = number_layout(names)
    target = names[-1]
    tile_text, rot = layout.pop(target).split()
    spare = next(
        t for t in ALL if t != tile_text and t not in {v.split()[0] for v in layout.values()} and t not in (p2 or [])
    )
    hands = {"p1": [tile_text, spare], "p2": p2 or []}
    if "options" in extra and extra["options"].get("players", 2) > 2:
        hands.update({f"p{i}": [] for i in range(3, extra["options"]["players"] + 1)})
    state = state_with(layout, hands, to_move="p1", **extra)
    return state, f"lay {tile_text} @ {target} {rot}"


def gained(state, move: str) -> int:
    before = state.scores()["p1"]
    state.push(move)
    return state.scores()["p1"] - before


def value(move: str) -> int:
    return TILE_VALUES[parse_tile(move.split()[1])]


BRIDGE = ["U0,0", "D0,-1", "U1,-1", "D1,-1", "U2,-1", "D2,-1", "U2,0", "D1,0", "D0,0"]
RING = ["U0,1", "D-1,1", "U-1,1", "D-1,0", "U-1,0", "D-1,-1", "U0,-1", "D0,-1", "U1,-1", "D1,-1", "U1,0", "D0,0"]
HEXAGON = ["U0,1", "U-1,1", "U0,0", "D-1,1", "D-1,0", "D0,0"]
TWO_HEXAGONS = ["U-1,0", "U0,-1", "D-1,0", "D0,-1", "D-1,-1", "U1,0", "U1,-1", "D0,0", "D1,-1", "U0,0"]

# Found in seeded play: all 56 tiles out, p1 to move with a single lay, after which nobody can lay.
BLOCKED_LAYOUT = json.loads(
    '{"D-5,4": "0-0-4 r1", "U-4,4": "0-3-4 r0", "D-4,4": "0-2-3 r1", "U-3,1": "4-4-4 r0", "D-3,1": "1-4-4 r2",'
    ' "D-3,3": "3-3-3 r0", "U-3,4": "2-3-3 r0", "U-2,1": "1-1-4 r0", "D-2,1": "1-1-1 r0", "U-2,2": "1-1-3 r1",'
    ' "D-2,2": "1-3-5 r0", "U-2,3": "3-3-5 r2", "U-1,0": "0-1-2 r2", "D-1,0": "1-2-2 r1", "U-1,1": "1-1-2 r2",'
    ' "D-1,2": "2-4-5 r2", "U-1,3": "2-2-5 r0", "D-1,3": "2-2-4 r0", "D0,-2": "0-0-5 r1", "D0,-1": "0-2-2 r0",'
    ' "U0,0": "2-2-2 r0", "D0,0": "2-2-3 r0", "D0,1": "3-4-4 r0", "U0,2": "2-4-4 r0", "D0,2": "2-3-4 r1",'
    ' "U1,-2": "0-3-5 r0", "D1,-2": "0-0-3 r1", "U1,-1": "0-0-2 r1", "D1,-1": "0-2-5 r0", "U1,0": "2-3-5 r2",'
    ' "D1,0": "3-5-5 r1", "U1,1": "3-4-5 r2", "D1,1": "4-5-5 r1", "U2,-3": "1-2-3 r1", "D2,-3": "1-3-3 r0",'
    ' "U2,-2": "0-3-3 r0", "D2,-2": "0-1-3 r1", "U2,0": "2-5-5 r1", "D2,0": "1-2-5 r2", "U2,1": "1-5-5 r1",'
    ' "D2,1": "1-1-5 r2", "D3,-5": "0-0-1 r2", "U3,-4": "0-1-1 r1", "D3,-4": "0-1-4 r0", "U3,-3": "1-3-4 r2",'
    ' "D3,-3": "3-3-4 r1", "D4,-5": "0-4-5 r1", "U4,-4": "0-4-4 r2", "D4,-4": "4-4-5 r0", "D5,-5": "1-2-4 r2",'
    ' "U5,-4": "1-4-5 r1", "D5,-4": "0-1-5 r2", "U5,-3": "0-5-5 r1"}'
)
# Three players, pool empty: p2's only lay leaves p2 and p3 tied lowest (7 each), p1 on 27.
TIE_LAYOUT = json.loads(
    '{"D-4,1": "0-3-4 r2", "U-4,2": "0-4-5 r1", "U-3,1": "0-1-3 r0", "D-3,1": "0-1-1 r1", "D-2,-3": "0-1-5 r1",'
    ' "D-2,-2": "1-3-3 r0", "U-2,-1": "0-3-3 r0", "D-2,-1": "0-0-3 r1", "U-2,0": "0-0-1 r1", "D-2,0": "0-1-2 r0",'
    ' "U-2,1": "1-1-2 r2", "D-2,1": "1-2-2 r1", "D-1,-4": "1-4-5 r2", "U-1,-3": "1-1-5 r0", "D-1,-3": "1-1-4 r0",'
    ' "U-1,-2": "1-3-4 r2", "U-1,0": "0-2-4 r2", "D-1,0": "2-4-4 r1", "D0,-4": "0-1-4 r0", "U0,-3": "1-4-4 r2",'
    ' "D0,-3": "4-4-5 r0", "D0,-2": "0-0-5 r1", "U0,-1": "0-0-4 r1", "D0,-1": "0-4-4 r0", "U0,0": "4-4-4 r0",'
    ' "D1,-4": "2-3-4 r2", "U1,-3": "2-4-5 r1", "D1,-3": "2-5-5 r0", "U1,-2": "0-5-5 r0", "D1,-2": "0-3-5 r1",'
    ' "D2,-5": "2-3-3 r2", "U2,-4": "2-2-3 r0", "D2,-4": "2-2-2 r0", "U2,-3": "2-2-5 r1", "U2,-2": "3-3-5 r0",'
    ' "D2,-2": "3-3-4 r0", "U2,-1": "3-4-4 r2", "D3,-5": "1-2-4 r0", "U3,-4": "2-2-4 r2", "U3,-3": "1-2-3 r1",'
    ' "D3,-3": "1-3-5 r0", "U3,-2": "3-4-5 r2", "D3,-2": "4-5-5 r1", "D3,-1": "1-5-5 r2", "U4,-2": "3-5-5 r1",'
    ' "D4,-2": "2-3-5 r2", "U4,-1": "1-2-5 r0"}'
)
TIE_HANDS = {"p1": ["0-0-0", "0-2-2", "0-2-3", "1-1-1", "5-5-5"], "p2": ["0-0-2", "1-1-3", "3-3-3"], "p3": ["0-2-5"]}
# Pool empty, p1 cannot lay but p2 can.
STUCK_LAYOUT = json.loads(
    '{"D-2,0": "0-0-3 r2", "D-2,1": "0-0-1 r0", "D-2,2": "1-2-3 r0", "D-2,3": "3-4-5 r0", "D-1,-3": "2-2-4 r2",'
    ' "U-1,-2": "2-4-5 r1", "U-1,0": "0-0-5 r2", "D-1,0": "0-5-5 r1", "U-1,1": "0-1-5 r2", "D-1,1": "1-1-5 r1",'
    ' "U-1,2": "1-1-3 r1", "D-1,2": "0-1-3 r2", "U-1,3": "0-3-5 r1", "D0,-4": "0-2-2 r0", "U0,-3": "2-2-2 r0",'
    ' "D0,-3": "2-2-3 r0", "U0,-1": "3-3-5 r1", "D0,-1": "3-5-5 r0", "U0,0": "5-5-5 r0", "D0,0": "1-5-5 r2",'
    ' "U1,-3": "0-2-3 r1", "D1,-3": "0-3-3 r0", "U1,-2": "3-3-3 r0", "D1,-2": "2-3-3 r2", "U1,-1": "2-3-5 r1",'
    ' "D1,-1": "0-2-5 r2", "U2,-5": "4-5-5 r1", "D2,-5": "4-4-5 r2", "U2,-4": "0-4-5 r0", "D2,-4": "0-4-4 r1",'
    ' "U2,-3": "0-3-4 r2", "D2,-2": "0-1-2 r2", "U2,-1": "0-0-2 r0", "D2,-1": "0-0-4 r0", "U2,0": "0-1-4 r2",'
    ' "D2,0": "1-4-4 r1", "D3,-6": "3-3-4 r2", "U3,-5": "3-4-4 r1", "D3,-5": "2-3-4 r2", "U3,-4": "2-4-4 r1",'
    ' "D3,-4": "0-2-4 r2", "U3,-2": "0-1-1 r0", "U4,-6": "1-3-3 r1", "D4,-6": "1-3-5 r0"}'
)
STUCK_HANDS = {
    "p1": ["1-1-2", "1-2-2", "1-2-5", "1-4-5", "2-2-5"],
    "p2": ["0-0-0", "1-1-1", "1-1-4", "1-2-4", "1-3-4", "2-5-5", "4-4-4"],
}


def deal_text(hands: list[list[str]], start: str | None = None) -> str:
    text = "deal " + "|".join(",".join(sorted(h, key=parse_tile)) for h in hands)
    return text + (f" start {start}" if start else "")


def two_hands(p2_has: list[str], p1_has: tuple[str, ...] | list[str] = ()) -> list[list[str]]:
    """Ten tiles each: the named ones plus low, non-triple fillers."""
    fillers = [
        t
        for t in ALL
        if t not in p2_has and t not in p1_has and len(set(t.split("-"))) > 1 and TILE_VALUES[parse_tile(t)] <= 8
    ]
    p1 = list(p1_has) + fillers[: 10 - len(p1_has)]
    p2 = list(p2_has) + fillers[10 - len(p1_has) : 20 - len(p1_has) - len(p2_has)]
    return [p1, p2]


# ----- tiles and grid --------------------------------------------------------------------------
def test_the_set_has_56_tiles_in_clockwise_non_decreasing_order() -> None:
    assert len(TILES) == 56 and len(set(TILES)) == 56
    assert all(a <= b <= c for a, b, c in TILES)
    assert TILE_VALUES[parse_tile("3-4-5")] == 12
    assert parse_tile("5-4-3") == parse_tile("3-4-5")  # the same physical tile
    # 0-1-2 read clockwise exists; 0-2-1 clockwise is no tile of the set.
    assert tile_for_corners((0, 1, 2)) == (parse_tile("0-1-2"), 0)
    assert tile_for_corners((1, 2, 0)) == (parse_tile("0-1-2"), 2)
    assert tile_for_corners((0, 2, 1)) is None


def test_rotation_puts_the_first_number_on_that_corner() -> None:
    tile = parse_tile("1-2-4")
    assert CORNER_NUMBERS[tile][0] == (1, 2, 4)
    assert CORNER_NUMBERS[tile][1] == (4, 1, 2)
    assert CORNER_NUMBERS[tile][2] == (2, 4, 1)


def test_neighbours_share_an_edge_and_positions_name_themselves() -> None:
    for name in ("U0,0", "D0,0", "U-3,2", "D4,-7"):
        t = parse_position_name(name)
        assert position_name(t) == name
        for k, nb in enumerate(NEIGHBOURS[t]):
            edge = {CORNERS[t][k], CORNERS[t][(k + 1) % 3]}
            assert edge <= set(CORNERS[nb]) and t in NEIGHBOURS[nb]
    apex, right, left = triangle_vertices("U0,0")
    assert left == (0.0, 0.0) and right == (1.0, 0.0) and apex[0] == 0.5 and apex[1] > 0.8


# ----- notation --------------------------------------------------------------------------------
def test_notation_round_trips() -> None:
    state = GAME.new_state()
    for text in ("lay 1-2-3 @ D0,-1 r2", "draw", "pass", "draw 0-0-5", "lay 5-5-5 @ U0,0 r0"):
        assert str(state.parse_move(text)) == text
    assert state.parse_move("LAY 3-2-1 @ d0,-1 R2") == state.parse_move("lay 1-2-3 @ D0,-1 r2")
    assert state.parse_move("lay 2-2-2 @ U1,0 r2") == Lay(parse_tile("2-2-2"), parse_position_name("U1,0"), 0)
    deal = state.sample_chance()
    assert isinstance(deal, Deal) and state.parse_move(str(deal)) == deal
    assert state.parse_move("deal 0-0-1,0-1-2 start 3-3-3") == Deal(
        ((parse_tile("0-0-1"), parse_tile("0-1-2")),), parse_tile("3-3-3")
    )
    assert isinstance(state.parse_move("draw"), Draw) and isinstance(state.parse_move("pass"), Pass)
    assert isinstance(state.parse_move("draw 1-1-1"), Drawn)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "lay",
        "lay 1-2-6 @ U0,0 r0",
        "lay 1-2 @ U0,0 r0",
        "lay 1-2-3 @ X0,0 r0",
        "lay 1-2-3 @ U0,0 r3",
        "draw ?",
        "draw 1-2-3 4",
        "hop",
        "lay 1-2-3 @ U999,0 r0",
        "deal ?",
    ],
)
def test_malformed_moves_are_refused_as_notation(text: str) -> None:
    with pytest.raises(IllegalMoveError) as err:
        GAME.new_state().parse_move(text)
    assert err.value.rule == "notation"


# ----- the start rule --------------------------------------------------------------------------
def test_highest_triple_opens_and_scores_value_plus_five() -> None:
    state = GAME.new_state({"players": 3})
    hands = [[t for t in ALL if t not in ("5-5-5", "4-4-4")][i * 8 : (i + 1) * 8] for i in range(3)]
    hands[0][0], hands[1][0] = "4-4-4", "5-5-5"
    state.push(deal_text(hands))
    assert state.current_player == "p2"
    assert [str(m) for m in state.legal_moves()] == ["lay 5-5-5 @ U0,0 r0"]
    with pytest.raises(IllegalMoveError) as err:
        state.push("draw")
    assert err.value.rule == "start"
    with pytest.raises(IllegalMoveError) as err:
        state.push("lay 4-4-4 @ U0,0 r0")
    assert err.value.rule == "start"
    state.push("lay 5-5-5 @ U0,0 r0")
    assert state.scores() == {"p1": 0, "p2": 20, "p3": 0}
    assert [i["reason"] for i in state.last_score_items] == ["tile 5-5-5", "start tile"]
    assert state.current_player == "p3"  # clockwise from the opener


def test_without_triples_the_highest_value_opens_and_ties_go_to_higher_numbers() -> None:
    state = GAME.new_state()
    no_triples = [t for t in ALL if len(set(t.split("-"))) > 1 and t not in ("4-5-5", "3-5-5", "4-4-5")]
    hands = [no_triples[:9] + ["4-4-5"], no_triples[9:18] + ["3-5-5"]]
    state.push(deal_text(hands))
    assert state.current_player == "p2" and state.start_tile == parse_tile("3-5-5")
    state.push("lay 3-5-5 @ U0,0 r0")
    assert state.scores()["p2"] == 13 + 5


def test_start_rule_applies_to_positions_with_an_empty_layout() -> None:
    state = state_with({}, {"p1": ["1-2-3", "2-2-2"], "p2": ["0-0-0", "4-5-5"]})
    assert state.current_player == "p1" and [str(m) for m in state.legal_moves()] == ["lay 2-2-2 @ U0,0 r0"]
    with pytest.raises(PositionError):
        state_with({}, {"p1": ["1-2-3", "2-2-2"], "p2": ["0-0-0", "4-5-5"]}, to_move="p2")


# ----- laying and matching ----------------------------------------------------------------------
def test_a_plain_lay_scores_its_value_and_passes_the_turn() -> None:
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5", "0-0-0"], "p2": ["1-1-1"]}, to_move="p1")
    assert sorted(state.placements("4-5-5")) == [("D-1,0", 1), ("D0,-1", 0), ("D0,0", 2)]
    assert state.open_positions() == ["D-1,0", "D0,-1", "D0,0"]
    assert gained(state, "lay 4-5-5 @ D0,0 r2") == 14
    assert state.current_player == "p2"


def test_an_edge_must_match_both_numbers() -> None:
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["3-4-5", "0-0-0"], "p2": ["1-1-1"]}, to_move="p1")
    with pytest.raises(IllegalMoveError) as err:
        state.push("lay 3-4-5 @ D0,0 r1")
    assert err.value.rule == "match" and "5-5" in str(err.value)
    assert list(state.placements("3-4-5")) == []


def test_a_tile_matching_its_edge_but_clashing_at_a_corner_is_illegal() -> None:
    layout = number_layout(BRIDGE)
    del layout["D0,0"]
    state = state_with(layout, {"p1": [], "p2": []}, to_move="p1")
    need = state.required_corners("D0,0")
    assert need[0] is not None and need[1] is not None and need[2] is not None  # the bridge point is taken
    laid = {v.split()[0] for v in layout.values()}
    wrong = next(
        (tile, rot)
        for x in range(6)
        if x != need[2]
        for tile, rot in MATCHES.get((need[0], need[1], x), ())
        if TILE_NAMES[tile] not in laid
    )
    state = state_with(layout, {"p1": [TILE_NAMES[wrong[0]], "5-5-5"], "p2": []}, to_move="p1")
    with pytest.raises(IllegalMoveError) as err:
        state.push(f"lay {TILE_NAMES[wrong[0]]} @ D0,0 r{wrong[1]}")
    assert err.value.rule == "corner"


def test_a_tile_must_share_an_edge_and_land_on_a_free_triangle_from_its_hand() -> None:
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5", "0-0-0"], "p2": ["1-1-1"]}, to_move="p1")
    for move, rule in (
        ("lay 4-5-5 @ D1,0 r0", "contact"),
        ("lay 4-5-5 @ U0,0 r0", "occupied"),
        ("lay 3-5-5 @ D0,0 r2", "hand"),
    ):
        with pytest.raises(IllegalMoveError) as err:
            state.push(move)
        assert err.value.rule == rule, move


# ----- bonuses ------------------------------------------------------------------------------------
def test_bridge_scores_30() -> None:
    state, move = lay_target(BRIDGE)
    assert gained(state, move) == value(move) + 30
    assert [i["reason"] for i in state.last_score_items][1:] == ["bridge"]


def test_double_connection_scores_25() -> None:
    state, move = lay_target(RING)  # closes a ring of 12 round an empty triangle: two edges, no hexagon
    assert gained(state, move) == value(move) + 25
    assert state.last_score_items[-1]["reason"] == "double connection"


@pytest.mark.parametrize("bonus", [40, 50])
def test_hexagon_scores_its_bonus_instead_of_the_double_connection(bonus: int) -> None:
    state, move = lay_target(HEXAGON, options={"hexagon_bonus": bonus})
    assert gained(state, move) == value(move) + bonus
    assert [i["reason"] for i in state.last_score_items][1:] == ["hexagon"]


@pytest.mark.parametrize("mode, hexagons", [("each", 2), ("once", 1)])
def test_a_tile_closing_two_hexagons(mode: str, hexagons: int) -> None:
    state, move = lay_target(TWO_HEXAGONS, options={"multi_hexagon": mode})
    assert gained(state, move) == value(move) + 40 * hexagons


# ----- drawing and passing ------------------------------------------------------------------------
def drawing_state(**options):
    """p1 cannot lay on a 5-5-5 start; the pool holds 0-0-1, 0-0-2, 0-0-3 and 4-5-5 (fits)."""
    hands = {
        "p1": ["0-0-0", "1-1-1"],
        "p2": [t for t in ALL if t not in ("5-5-5", "0-0-0", "1-1-1", "0-0-1", "0-0-2", "0-0-3", "4-5-5")],
    }
    return state_with(
        {"U0,0": "5-5-5 r0"}, hands, to_move="p1", options=options, pool=["0-0-1", "0-0-2", "0-0-3", "4-5-5"]
    )


def test_each_draw_costs_five_and_the_turn_passes_after_the_third() -> None:
    state = drawing_state()
    with pytest.raises(IllegalMoveError) as err:
        state.push("pass")
    assert err.value.rule == "pass"
    for n, tile in enumerate(("0-0-1", "0-0-2", "0-0-3"), start=1):
        state.push("draw")
        assert state.current_player == CHANCE
        state.push(f"draw {tile}")
        assert state.scores()["p1"] == -5 * n
        assert state.current_player == "p1"
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError) as err:
        state.push("draw")
    assert err.value.rule == "three draws"
    state.push("pass")
    assert state.scores()["p1"] == -15 and state.current_player == "p2"
    assert state.hands[0] == sorted(parse_tile(t) for t in ("0-0-0", "1-1-1", "0-0-1", "0-0-2", "0-0-3"))


def test_the_draw_is_uniform_over_the_pool() -> None:
    state = drawing_state()
    state.push("draw")
    outcomes = state.chance_outcomes()
    assert sorted(str(m) for m, _ in outcomes) == ["draw 0-0-1", "draw 0-0-2", "draw 0-0-3", "draw 4-5-5"]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    with pytest.raises(IllegalMoveError) as err:
        state.push("draw 2-2-2")
    assert err.value.rule == "pool"


def test_a_drawn_tile_that_fits_may_be_laid_at_once_or_kept() -> None:
    state = drawing_state()
    state.push("draw")
    state.push("draw 4-5-5")
    moves = [str(m) for m in state.legal_moves()]
    assert "lay 4-5-5 @ D0,0 r2" in moves and "draw" in moves and "pass" not in moves
    state.push("lay 4-5-5 @ D0,0 r2")
    assert state.scores()["p1"] == -5 + 14


def test_after_drawing_only_the_tile_just_drawn_may_be_laid() -> None:
    hands = {"p1": ["0-0-0", "3-5-5"], "p2": [t for t in ALL if t not in ("5-5-5", "0-0-0", "3-5-5", "0-0-1", "4-5-5")]}
    pool = ["0-0-1", "4-5-5"]

    def after_two_draws(mode: str):
        state = state_with({"U0,0": "5-5-5 r0"}, hands, to_move="p1", pool=pool, options={"lay_after_draw": mode})
        for tile in ("4-5-5", "0-0-1"):
            state.push("draw")
            state.push(f"draw {tile}")
        return state

    state = after_two_draws("last")
    for move in ("lay 3-5-5 @ D0,0 r2", "lay 4-5-5 @ D0,0 r2"):
        with pytest.raises(IllegalMoveError) as err:
            state.push(move)
        assert err.value.rule == "after draw"
    state = after_two_draws("drawn")
    assert state.is_legal("lay 4-5-5 @ D0,0 r2") and not state.is_legal("lay 3-5-5 @ D0,0 r2")
    state = after_two_draws("any")
    assert state.is_legal("lay 4-5-5 @ D0,0 r2") and state.is_legal("lay 3-5-5 @ D0,0 r2")


@pytest.mark.parametrize("penalty", [5, 10])
def test_an_empty_pool_costs_the_penalty_and_passes(penalty: int) -> None:
    state = state_with(STUCK_LAYOUT, STUCK_HANDS, to_move="p1", options={"empty_pool_penalty": penalty})
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMoveError) as err:
        state.push("draw")
    assert err.value.rule == "empty pool"
    state.push("pass")
    assert state.scores() == {"p1": -penalty, "p2": 0}
    assert state.last_score_items == [{"round": 1, "player": "p1", "points": -penalty, "reason": "empty pool"}]


def test_with_an_empty_pool_a_player_who_can_lay_must_lay() -> None:
    state = state_with(STUCK_LAYOUT, STUCK_HANDS, to_move="p2")
    with pytest.raises(IllegalMoveError) as err:
        state.push("pass")
    assert err.value.rule == "must lay"
    assert all(isinstance(m, Lay) for m in state.legal_moves())


# ----- the end of a round and of the game ---------------------------------------------------------
def test_laying_the_last_tile_scores_20_and_the_other_hands() -> None:
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5"], "p2": ["0-0-1", "1-2-3"]}, to_move="p1")
    before = state.snapshot()
    state.push("lay 4-5-5 @ D0,0 r2")
    assert state.scores() == {"p1": 14 + 20 + 1 + 6, "p2": 0}
    assert [i["reason"] for i in state.last_score_items] == ["tile 4-5-5", "last tile", "tiles left in the other hands"]
    assert not state.is_over() and state.current_player == CHANCE and state.round_number == 2
    deal = state.sample_chance()
    assert isinstance(deal, Deal)
    state.push(deal)
    assert not state.layout and len(state.pool) == 36 and state.round_number == 2
    assert state.scores()["p1"] == 41
    state.pop()
    state.pop()
    assert state.snapshot() == before


def test_blocked_round_gives_the_lowest_hand_the_others_less_its_own() -> None:
    state = state_with(BLOCKED_LAYOUT, {"p1": ["0-0-0", "0-2-4"], "p2": ["5-5-5"]}, to_move="p1")
    assert [str(m) for m in state.legal_moves()] == ["lay 0-0-0 @ U-5,5 r0"]
    state.push("lay 0-0-0 @ U-5,5 r0")
    # p1 keeps 0-2-4 (6), p2 keeps 5-5-5 (15): p1 gets 15 and loses 6, no +20.
    assert state.scores() == {"p1": 0 + 15 - 6, "p2": 0}
    assert state.round_number == 2 and state.current_player == CHANCE
    assert [i["reason"] for i in state.last_score_items] == [  # 0-0-0 is worth nothing: no item
        "blocked: tiles left in the other hands",
        "blocked: own tiles left",
    ]


@pytest.mark.parametrize(
    "mode, expected", [("all", {"p1": 0, "p2": 9 + 27, "p3": 27}), ("none", {"p1": 0, "p2": 9, "p3": 0})]
)
def test_blocked_round_with_tied_lowest_hands(mode: str, expected: dict) -> None:
    state = state_with(TIE_LAYOUT, TIE_HANDS, to_move="p2", options={"players": 3, "blocked_tie": mode})
    state.push("lay 3-3-3 @ U2,-5 r0")
    assert state.scores() == expected and state.current_player == CHANCE


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target() -> None:
    hands = {"p1": ["4-5-5"], "p2": ["0-0-1", "1-2-3"]}
    state = state_with({"U0,0": "5-5-5 r0"}, hands, to_move="p1", scores={"p1": 259, "p2": 280})
    state.push("lay 4-5-5 @ D0,0 r2")
    assert state.is_over() and state.outcome().winner == "p1"
    assert state.outcome().scores == {"p1": 300, "p2": 280} and "target 300" in state.outcome().reason
    assert list(state.legal_moves()) == []
    state = state_with(
        {"U0,0": "5-5-5 r0"}, hands, to_move="p1", scores={"p1": 0, "p2": 280}, options={"target_score": 500}
    )
    state.push("lay 4-5-5 @ D0,0 r2")
    assert not state.is_over()


def test_a_high_score_in_mid_round_does_not_end_the_game() -> None:
    state = state_with(
        {"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5", "0-0-0"], "p2": ["1-1-1"]}, to_move="p1", scores={"p1": 299, "p2": 0}
    )
    state.push("lay 4-5-5 @ D0,0 r2")
    assert state.scores()["p1"] > 300 and not state.is_over()


# ----- solitaire ------------------------------------------------------------------------------------
def test_solitaire_turns_up_a_start_tile_and_limits_the_draws() -> None:
    state = GAME.new_state({"players": 1, "solitaire_draw_limit": 2}, seed=3)
    deal = state.sample_chance()
    assert deal.start is not None and len(deal.hands[0]) == 10
    state.push(deal)
    assert state.layout == {ORIGIN: (deal.start, 0)} and state.scores() == {"p1": 0}
    assert state.current_player == "p1" and len(state.pool) == 45
    for _ in range(2):
        state.push("draw")
        state.push(state.sample_chance())
    assert state.scores()["p1"] == -10 and not state.can_draw()
    with pytest.raises(IllegalMoveError) as err:
        state.push("draw")
    assert err.value.rule == "draw limit"


def test_solitaire_ends_when_the_player_cannot_go_on() -> None:
    options = {"players": 1, "solitaire_draw_limit": 1}
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["0-0-0", "1-1-1"]}, options=options, solitaire_draws=1)
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    state.push("pass")  # no draw left: the empty-pool penalty, then no lay and no draw ends the game
    assert state.is_over() and state.scores() == {"p1": -5 - 3}
    assert "cannot" in state.outcome().reason or "no tile" in state.outcome().reason


def test_solitaire_ends_with_20_when_the_hand_is_empty() -> None:
    state = state_with({"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5"]}, options={"players": 1})
    state.push("lay 4-5-5 @ D0,0 r2")
    assert state.is_over() and state.scores() == {"p1": 14 + 20}


def test_hand_sizes_follow_the_number_of_players() -> None:
    for players, size in ((2, 10), (3, 8), (4, 8), (5, 6), (6, 6), (1, 10)):
        state = GAME.new_state({"players": players}, seed=1)
        state.push(state.sample_chance())
        assert {len(h) for h in state.hands} == {size} or (players > 1 and state.start_tile is not None)
        assert len(state.pool) == 56 - players * size - (players == 1)
    state = GAME.new_state({"players": 1, "solitaire_hand_size": 7}, seed=1)
    state.push(state.sample_chance())
    assert len(state.hands[0]) == 7


def test_a_deal_of_the_wrong_shape_is_refused() -> None:
    state = GAME.new_state()
    for text in (
        deal_text([ALL[:10]]),
        deal_text([ALL[:10], ALL[5:15]]),
        deal_text([ALL[:9], ALL[10:20]]),
        deal_text([ALL[:10], ALL[10:20]], start="5-5-5"),
    ):
        with pytest.raises(IllegalMoveError) as err:
            state.push(text)
        assert err.value.rule == "deal"


# ----- hidden information ------------------------------------------------------------------------------
def test_the_view_hides_the_other_hands_and_the_pool() -> None:
    layout = {"U0,0": "5-5-5 r0"}
    others = [t for t in ALL if t not in ("5-5-5", "4-5-5", "0-0-0")]
    one = state_with(layout, {"p1": ["4-5-5", "0-0-0"], "p2": others[:8]}, to_move="p2")
    two = state_with(layout, {"p1": ["4-5-5", "0-0-0"], "p2": others[-8:]}, to_move="p2")
    assert one.view("p1") == two.view("p1")
    assert one.view("p2") != two.view("p2")
    view = one.view("p1")
    assert isinstance(view, TripleDominoView) and view.seed is None
    assert view.hand_sizes == {"p1": 2, "p2": 8} and view.pool_size == 56 - 11
    assert not any(isinstance(v, type(one)) for v in vars(view).values())
    assert "4-5-5" in view.render() and others[0] not in view.render()


def test_the_view_history_hides_deals_and_draws_of_others() -> None:
    state = GAME.new_state(seed=5)
    state.advance_chance()
    state.push(next(iter(state.legal_moves())))  # the opening tile
    mover = state.current_player
    state.push("draw")
    state.advance_chance()
    other = next(p for p in state.players if p != mover)
    seen_by_other, seen_by_mover = state.view(other).history, state.view(mover).history
    assert seen_by_other[-1] == "draw ?" and seen_by_mover[-1] == str(state.history[-1])
    assert "?" in seen_by_other[0] and "?" in seen_by_mover[0]
    mine = ",".join(TILE_NAMES[t] for t in state.history[0].hands[state.players.index(other)])
    assert mine in seen_by_other[0]


def test_determinize_keeps_what_was_seen_and_shuffles_the_rest() -> None:
    state = GAME.new_state({"players": 3}, seed=11)
    state.advance_chance()
    rng = random.Random(0)
    for _ in range(12):
        state.push(state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves())))
    view = state.view("p1")
    guesses = [view.determinize(random.Random(i)) for i in range(4)]
    for guess in guesses:
        assert guess.seed is None and guess.hands[0] == state.hands[0]
        assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
        assert guess.layout == state.layout and len(guess.pool) == len(state.pool)
        assert guess.scores() == state.scores() and guess.current_player == state.current_player
        assert sorted(guess.pool | {t for h in guess.hands for t in h} | {t for t, _ in guess.layout.values()}) == list(
            range(56)
        )
    assert len({tuple(g.hands[1]) for g in guesses}) > 1
    if state.current_player == "p1":
        assert set(view.legal_moves()) == set(state.legal_moves())


# ----- positions and scoring ----------------------------------------------------------------------------
def test_position_round_trip_and_score_position() -> None:
    state = state_with(
        {"U0,0": "5-5-5 r0"}, {"p1": ["4-5-5", "0-0-0"], "p2": ["1-1-1"]}, to_move="p1", scores={"p1": 30, "p2": 12}
    )
    state.push("lay 4-5-5 @ D0,0 r2")
    position = json.loads(json.dumps(state.to_position()))
    assert GAME.from_position(position).to_position() == position
    report = GAME.score_position(position)
    assert report["scores"] == {"p1": 44, "p2": 12}
    assert [(i["player"], i["points"], i["reason"]) for i in report["items"]] == [
        ("p1", 30, "earlier score"),
        ("p2", 12, "earlier score"),
        ("p1", 14, "tile 4-5-5"),
    ]
    assert state.recount_scores() == state.scores()
    assert GAME.score_position({"game": "triple-domino"}) == {
        "game": "triple-domino",
        "scores": {"p1": 0, "p2": 0},
        "items": [],
    }


@pytest.mark.parametrize(
    "change, message",
    [
        ({"layout": {"U0,0": "5-5-6 r0"}}, "not a tile"),
        ({"layout": {"U0,0": "5-5-5"}}, "rotation"),
        ({"layout": {"Q0,0": "5-5-5 r0"}}, "position"),
        ({"layout": {"U0,0": "5-5-5 r0", "D0,0": "4-4-5 r0"}}, "corner they share"),
        ({"layout": {"U0,0": "5-5-5 r0", "U2,0": "4-4-4 r0"}}, "not joined"),
        ({"hands": {"p1": ["5-5-5"], "p2": []}}, "twice"),
        ({"hands": {"p1": []}}, "hands"),
        ({"hands": {"p1": ["0-0-0"], "p2": ["0-0-0"]}}, "twice"),
        ({"pool": ["1-1-1"]}, "nowhere"),
        ({"phase": "dancing"}, "phase"),
        ({"to_move": "p9"}, "to_move"),
        ({"options": {"players": 9}}, "options"),
        ({"turn": {"draws": 4}}, "draws"),
        ({"scores": {"p1": "ten"}}, "scores"),
        ({"game": "morris"}, "morris"),
    ],
)
def test_bad_positions_are_refused(change: dict, message: str) -> None:
    position = {"game": "triple-domino", "layout": {"U0,0": "5-5-5 r0"}, "hands": {"p1": ["0-0-0"], "p2": ["1-1-1"]}}
    position.update(change)
    with pytest.raises(PositionError) as err:
        GAME.from_position(position)
    assert message in str(err.value)


def test_from_position_states_its_assumptions() -> None:
    state = GAME.from_position(
        {"game": "triple-domino", "layout": {"U0,0": "5-5-5 r0"}, "hands": {"p1": ["0-0-0"], "p2": []}}
    )
    assert any("pool" in a for a in state.assumed) and any("to_move" in a for a in state.assumed)
    assert len(state.pool) == 54 and state.start_position == state.to_position()


# ----- options, rendering, records, perft ------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad",
    [
        {"hexagon_bonus": 45},
        {"empty_pool_penalty": 7},
        {"players": 7},
        {"players": 0},
        {"lay_after_draw": "never"},
        {"multi_hexagon": "twice"},
        {"blocked_tie": "split"},
        {"solitaire_draw_limit": -1},
        {"target_score": 0},
    ],
)
def test_options_are_validated(bad: dict) -> None:
    with pytest.raises(OptionError):
        GAME.new_state(bad)


def test_render_shows_the_layout_the_open_positions_the_hand_and_the_scores() -> None:
    state = state_with({"U0,0": "1-2-3 r0"}, {"p1": ["0-1-2", "3-3-3"], "p2": ["1-1-1"]}, to_move="p1")
    text = state.render()
    assert "  1" in text and "3---2" in text
    assert "1) 0-1-2  2) 3-3-3" in text and "p2 1" in text and "pool 52" in text
    assert "a=D-1,0 (3 * 1)" in text
    assert GAME.new_state().render()  # before the deal too


def test_record_round_trip_and_undo_through_a_deal() -> None:
    state = GAME.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        state.push(state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves())))
    record = json.loads(json.dumps(save_record(state)))
    assert load_record(record).snapshot() == state.snapshot()
    start = GAME.new_state(seed=4).snapshot()
    while state.ply:
        state.pop()
    assert state.snapshot() == start


def test_perft_from_the_start() -> None:
    state = GAME.new_state(seed=0)
    assert [perft(state, d) for d in (1, 2)] == [1, 4]


SPLIT_MODULE_LINES = 900  # issue 18: a module split by concern lands well under this


def test_the_game_is_a_package_by_concern_behind_one_import_path() -> None:
    import engine.games.triple_domino as package

    modules = sorted(Path(package.__file__).parent.glob("*.py"))
    assert Path(package.__file__).name == "__init__.py" and len(modules) > 5
    too_long = {
        p.name: n for p in modules if (n := len(p.read_text(encoding="utf-8").splitlines())) >= SPLIT_MODULE_LINES
    }
    assert not too_long
    assert package.__all__ and [name for name in package.__all__ if not hasattr(package, name)] == []
    assert package.TripleDominoState.__module__ == "engine.games.triple_domino.state"
