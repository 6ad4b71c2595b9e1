"""Naming colour groups, not cells (`vision/naming.py`), on made-up colours and forest votes."""

from __future__ import annotations

import numpy as np

from vision.naming import GROUP_APART, colour_groups, name_by_groups

# class columns as `classify.class_votes` gives them for rings: empty first, then the palette
EMPTY, BLACK, WHITE, RED, BLUE, ORANGE = 0, 1, 2, 4, 6, 8
CLASSES = 10

BOARD = (40.0, 5.0, 20.0)  # (L/2, a, b): a light wood's empty points
BLUE_STONE = (20.0, 10.0, -40.0)
RED_STONE = (20.0, 45.0, 30.0)
ORANGE_STONE = (32.0, 30.0, 55.0)
LIGHT_DOT = (45.0, 2.0, 4.0)


def cells(*groups: tuple[tuple[float, float, float], int], seed: int = 0) -> np.ndarray:
    """Colour rows: `count` cells around each colour, a little noise on each."""
    rng = np.random.default_rng(seed)
    return np.concatenate([np.array(c) + rng.normal(0, 1.0, (n, 3)) for c, n in groups])


def votes(*rows: tuple[dict[int, float], int]) -> np.ndarray:
    """Vote shares per cell: `count` cells with the shares of each dict (the rest spread evenly)."""
    out = []
    for shares, n in rows:
        row = np.full(CLASSES, (1.0 - sum(shares.values())) / (CLASSES - len(shares)))
        for k, v in shares.items():
            row[k] = v
        out += [row] * n
    return np.array(out)


def test_cells_of_one_colour_are_one_group_and_two_colours_never_meet():
    colours = cells((BOARD, 30), (BLUE_STONE, 12), (RED_STONE, 9))
    groups = colour_groups(colours)
    assert [sorted(g.tolist()) for g in groups] == [list(range(30)), list(range(30, 42)), list(range(42, 51))]


def test_a_group_whose_centre_lies_within_reach_is_not_split():
    colours = cells((BOARD, 20), ((BOARD[0] + 0.4 * GROUP_APART, *BOARD[1:]), 20))
    assert len(colour_groups(colours)) == 1


def test_a_whole_colour_the_forest_calls_empty_is_stones_when_unlike_the_empty_points():
    # blue stones on a blue card: the forest reads every blue stone empty, a little blue in its votes
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (RED_STONE, 10))
    P = votes(({EMPTY: 0.9}, 40), ({EMPTY: 0.7, BLUE: 0.2}, 15), ({RED: 0.9}, 10))
    named = name_by_groups(P, P, colours)
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 15 + [RED] * 10
    # named against every cell's own reading: each is marked for a person to check
    assert named.doubted[40:55].all() and not named.doubted[:40].any() and not named.doubted[55:].any()


def test_two_colours_that_both_read_orange_are_told_apart():
    # red stones under a warm light lean orange; the orange stones lean orange more
    colours = cells((BOARD, 40), (RED_STONE, 20), (ORANGE_STONE, 20))
    P = votes(({EMPTY: 0.9}, 40), ({ORANGE: 0.55, RED: 0.3}, 20), ({ORANGE: 0.8, RED: 0.05}, 20))
    named = name_by_groups(P, P, colours)
    assert named.best.tolist() == [EMPTY] * 40 + [RED] * 20 + [ORANGE] * 20
    assert named.doubted[40:60].all()


def test_light_marks_read_white_on_a_board_with_no_other_empty_look_are_empty():
    # big light dots at every empty point: the forest leans white there, and surely names the stones
    colours = cells((LIGHT_DOT, 60), (BLUE_STONE, 12), (RED_STONE, 10))
    P = votes(({WHITE: 0.5, EMPTY: 0.35}, 60), ({BLUE: 0.95}, 12), ({RED: 0.95}, 10))
    assert name_by_groups(P, P, colours).best.tolist() == [EMPTY] * 60 + [BLUE] * 12 + [RED] * 10


def test_one_colour_split_by_a_shadow_keeps_one_name():
    # the same blue stones in the sun and in a shadow: two groups near each other, both read blue
    shade = (BLUE_STONE[0] - 8.0, BLUE_STONE[1] - 4.0, BLUE_STONE[2] + 9.0)
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (shade, 10))
    P = votes(({EMPTY: 0.9}, 40), ({BLUE: 0.9}, 15), ({BLUE: 0.6, BLACK: 0.3}, 10))
    named = name_by_groups(P, P, colours)
    assert len(colour_groups(colours)) == 3
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 25
    assert not named.doubted[:55].any()


def test_a_group_holding_two_readings_is_named_by_each():
    # white stones and clear ones look alike in colour; the cells' own readings tell them apart
    colours = cells((BOARD, 40), ((30.0, -2.0, -4.0), 20), ((28.0, -2.0, -4.0), 20))
    P = votes(({EMPTY: 0.9}, 40), ({WHITE: 0.8}, 20), ({3: 0.6, EMPTY: 0.3}, 20))
    assert name_by_groups(P, P, colours).best.tolist() == [EMPTY] * 40 + [WHITE] * 20 + [3] * 20


def test_few_cells_keep_their_own_reading():
    colours = cells((BOARD, 40), (BLUE_STONE, 2))
    P = votes(({EMPTY: 0.9}, 40), ({EMPTY: 0.6, BLUE: 0.3}, 2))
    named = name_by_groups(P, P, colours)
    assert named.best.tolist() == [EMPTY] * 42
