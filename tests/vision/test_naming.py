"""Naming colour groups, not cells (`vision/naming.py`), on made-up colours and forest votes."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classify import feature_names
from vision.layouts import get_layout
from vision.naming import (
    GROUP_APART,
    NAMED_COLOURS,
    colour_groups,
    colour_space,
    doubt_shared,
    empty_look_outgrown,
    far_namesakes,
    lit_regions,
    region_kappa,
    lone_cells_in_doubt,
    lone_cells_joined,
    name_by_groups,
    near_other_names,
    near_the_empty_points,
    no_other_name,
    opposed_tints,
)

# class columns as `classify.class_votes` gives them for rings: empty first, then the palette
COLUMNS = ["empty", "black", "white", "red", "green", "blue", "yellow", "orange", "purple", "clear"]
EMPTY, BLACK, WHITE, RED, BLUE, YELLOW, ORANGE, PURPLE, CLEAR = (
    COLUMNS.index(c) for c in ("empty", "black", "white", "red", "blue", "yellow", "orange", "purple", "clear")
)
CLASSES = len(COLUMNS)

BOARD = (80.0, 5.0, 20.0)  # (L, a, b): a light wood's empty points
BLUE_STONE = (40.0, 10.0, -40.0)
RED_STONE = (40.0, 45.0, 30.0)
ORANGE_STONE = (64.0, 30.0, 55.0)
LIGHT_DOT = (90.0, 2.0, 4.0)


def cells(*groups: tuple[tuple[float, float, float], int], seed: int = 0) -> np.ndarray:
    """Lab rows: `count` cells around each colour, a little noise on each."""
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


def body(colours: np.ndarray, **looks: list[float]) -> tuple[np.ndarray, list[str]]:
    """Each cell's features (as `classify.cell_features` names them): its colour, and the values of
    `looks` (a feature's name: one value per cell), the rest 0."""
    names = feature_names()
    feats = np.zeros((len(colours), len(names)), np.float32)
    feats[:, :3] = colours
    for name, values in looks.items():
        feats[:, names.index(name)] = values
    return feats, names


def test_cells_of_one_colour_are_one_group_and_two_colours_never_meet():
    colours = cells((BOARD, 30), (BLUE_STONE, 12), (RED_STONE, 9))
    groups = colour_groups(colour_space(colours))
    assert [sorted(g.tolist()) for g in groups] == [list(range(30)), list(range(30, 42)), list(range(42, 51))]


def test_a_group_whose_centre_lies_within_reach_is_not_split():
    colours = cells((BOARD, 20), ((BOARD[0] + 0.8 * GROUP_APART, *BOARD[1:]), 20))  # lightness counts half
    assert len(colour_groups(colour_space(colours))) == 1


def test_a_whole_colour_the_forest_calls_empty_is_stones_when_unlike_the_empty_points():
    # blue stones on a blue card: the forest reads every blue stone empty, a little blue in its votes
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (RED_STONE, 10))
    P = votes(({EMPTY: 0.9}, 40), ({EMPTY: 0.7, BLUE: 0.2}, 15), ({RED: 0.9}, 10))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 15 + [RED] * 10
    # named against every cell's own reading: each is marked for a person to check
    assert named.doubted[40:55].all() and not named.doubted[:40].any() and not named.doubted[55:].any()


def test_two_colours_that_both_read_orange_are_told_apart():
    # red stones under a warm light lean orange; the orange stones lean orange more
    colours = cells((BOARD, 40), (RED_STONE, 20), (ORANGE_STONE, 20))
    P = votes(({EMPTY: 0.9}, 40), ({ORANGE: 0.55, RED: 0.3}, 20), ({ORANGE: 0.8, RED: 0.05}, 20))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [RED] * 20 + [ORANGE] * 20
    assert named.doubted[40:60].all()


def test_light_marks_read_white_on_a_board_with_no_other_empty_look_are_empty():
    # big light dots at every empty point: the forest leans white there, and surely names the stones
    colours = cells((LIGHT_DOT, 60), (BLUE_STONE, 12), (RED_STONE, 10))
    P = votes(({WHITE: 0.5, EMPTY: 0.35}, 60), ({BLUE: 0.95}, 12), ({RED: 0.95}, 10))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist() == [EMPTY] * 60 + [BLUE] * 12 + [RED] * 10


def test_where_no_group_looks_empty_to_the_forest_every_cell_is_checked():
    # dark holes at every empty point, read black; the blue stones lean empty a little less than the
    # others: which group is the board's empty look is a guess, and every name hangs on it
    colours = cells(((10.0, 0.0, 0.0), 60), (BLUE_STONE, 30), (RED_STONE, 20))
    P = votes(({BLACK: 0.8, EMPTY: 0.1}, 60), ({BLUE: 0.7, EMPTY: 0.2}, 30), ({RED: 0.9}, 20))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.doubted.all()


def test_one_colour_split_by_a_shadow_keeps_one_name():
    # the same blue stones in the sun and in a shadow: two groups near each other, both read blue
    shade = (BLUE_STONE[0] - 16.0, BLUE_STONE[1] - 4.0, BLUE_STONE[2] + 9.0)
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (shade, 10), (RED_STONE, 10))
    P = votes(({EMPTY: 0.9}, 40), ({BLUE: 0.9}, 15), ({BLUE: 0.6, BLACK: 0.3}, 10), ({RED: 0.9}, 10))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert len(colour_groups(colour_space(colours))) == 4
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 25 + [RED] * 10
    assert not named.doubted[:55].any()


def test_thick_and_thin_glass_of_one_hue_may_share_a_name():
    # blue glass stones: the thin-lit ones lighter and paler, far from the deep ones in colour but
    # of the same hue; the forest leans blue on them too, but two groups this far apart in colour
    # would share no name (they went purple) unless one hue lets them
    pale = (64.0, 6.0, -24.0)
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (pale, 10))
    assert np.linalg.norm(colour_space(np.array([BLUE_STONE, pale]))[0] - colour_space(np.array([pale]))[0]) > 16
    P = votes(({EMPTY: 0.9}, 40), ({BLUE: 0.9}, 15), ({BLUE: 0.5, PURPLE: 0.4}, 10))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist() == [EMPTY] * 40 + [BLUE] * 25


def test_a_group_holding_two_readings_is_named_by_each():
    # white stones and clear ones look alike in colour; the cells' own readings tell them apart
    colours = cells((BOARD, 40), ((62.0, -2.0, -4.0), 20), ((50.0, -2.0, -4.0), 20))
    P = votes(({EMPTY: 0.9}, 40), ({WHITE: 0.8}, 20), ({CLEAR: 0.6, EMPTY: 0.3}, 20))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist() == [EMPTY] * 40 + [WHITE] * 20 + [CLEAR] * 20


def test_one_look_read_two_ways_is_one_group():
    # big dark dots at every empty point: the forest reads most of them red, some empty; the stones
    # are sure of their colours, so the dots are the board's empty look
    dots = (20.0, 24.0, 16.0)
    colours = cells((dots, 140), (BLUE_STONE, 30), ((35.0, -2.0, -5.0), 30))
    P = votes(({RED: 0.5, EMPTY: 0.4}, 110), ({EMPTY: 0.5, RED: 0.4}, 30), ({BLUE: 0.8}, 30), ({BLACK: 0.8}, 30))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 140 + [BLUE] * 30 + [BLACK] * 30
    assert named.doubted[:110].all()


def test_few_cells_keep_their_own_reading():
    colours = cells((BOARD, 40), (BLUE_STONE, 2))
    P = votes(({EMPTY: 0.9}, 40), ({EMPTY: 0.6, BLUE: 0.3}, 2))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 42


def test_a_name_the_light_balanced_colour_contradicts_is_marked_for_checking():
    # the forest surely calls a group of near-black stones blue; under the light that makes the other
    # groups their named colours, black fits them far better
    black = (12.0, 1.0, -3.0)
    colours = cells((BOARD, 40), (black, 15), (RED_STONE, 12), (ORANGE_STONE, 12))
    P = votes(({EMPTY: 0.9}, 40), ({BLUE: 0.9}, 15), ({RED: 0.9}, 12), ({ORANGE: 0.9}, 12))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 15 + [RED] * 12 + [ORANGE] * 12
    assert named.doubted[40:55].all()
    # named black, the same group stands sure
    P[40:55] = votes(({BLACK: 0.9}, 15))
    assert not name_by_groups(P, P, colours, COLUMNS).doubted.any()


def test_stones_of_the_boards_own_colour_are_told_from_its_empty_points_by_the_lines_they_hide():
    # dark red stones on a dark red board: one colour group with the empty points, which the forest
    # leans empty on; the stones hide the circles crossing at their foot, which the empty points show
    board, stone = (14.0, 19.0, 13.0), (16.0, 21.0, 12.0)
    colours = cells((board, 60), (stone, 12), (BLUE_STONE, 10))
    feats, names = body(
        colours,
        shadow=[1.7] * 60 + [4.6] * 12 + [6.0] * 10,
        foot_ink=[1.5] * 60 + [0.15] * 12 + [0.1] * 10,
    )
    feats[:, names.index("foot_ink")] += np.random.default_rng(1).normal(0, 0.05, len(colours))
    P = votes(({EMPTY: 0.85}, 60), ({EMPTY: 0.55, RED: 0.35}, 12), ({BLUE: 0.9}, 10))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist() == [EMPTY] * 72 + [BLUE] * 10
    named = name_by_groups(P, P, colours, COLUMNS, (feats, names))
    assert named.best.tolist() == [EMPTY] * 60 + [RED] * 12 + [BLUE] * 10
    assert named.doubted[60:72].all() and not named.doubted[:60].any()


def test_a_stone_name_no_other_stone_name_checks_is_in_doubt():
    # one colour of stones on the board: the light is known from it alone, so orange glass under a lamp
    # reads red as surely as red glass does (dev 109000); a second stone name shows what the light is
    colours = cells((BOARD, 40), (RED_STONE, 20))
    P = votes(({EMPTY: 0.9}, 40), ({RED: 0.9}, 20))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [RED] * 20
    assert named.doubted[40:].all() and not named.doubted[:40].any()
    colours = cells((BOARD, 40), (RED_STONE, 20), (BLUE_STONE, 12))
    P = votes(({EMPTY: 0.9}, 40), ({RED: 0.9}, 20), ({BLUE: 0.9}, 12))
    assert not name_by_groups(P, P, colours, COLUMNS).doubted.any()
    assert no_other_name([EMPTY, RED, RED]).tolist() == [False, True, True]
    assert no_other_name([EMPTY, RED, BLUE]).tolist() == [False, False, False]


def test_the_empty_points_are_in_doubt_beside_a_bigger_look_whose_stone_name_is_in_doubt():
    # Blender dev 115008: the board's 138 points named blue (in doubt) beside 17 orange stones read empty
    sizes = np.array([17.0, 138.0, 26.0, 5.0])
    names = [EMPTY, BLUE, RED, EMPTY]
    assert empty_look_outgrown(names, sizes, np.array([False, True, False, False])).tolist() == [
        True,
        False,
        False,
        True,
    ]
    # a bigger stone group the naming is sure of, or a doubted one smaller than the empty look, says nothing
    assert not empty_look_outgrown(names, sizes, np.zeros(4, bool)).any()
    assert not empty_look_outgrown(names, np.array([140.0, 138.0, 26.0, 5.0]), np.array([0, 1, 1, 0], bool)).any()


def test_a_coloured_group_read_black_takes_the_name_of_its_hue():
    # blue glass in shade: darker, still clearly blue, and of the lit blue stones' hue; the forest
    # reads it black, which has no hue
    shade = (25.0, 6.0, -24.0)
    colours = cells((BOARD, 40), (BLUE_STONE, 15), (shade, 8), (RED_STONE, 10))
    P = votes(({EMPTY: 0.9}, 40), ({BLUE: 0.9}, 15), ({BLACK: 0.6, BLUE: 0.3}, 8), ({RED: 0.9}, 10))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [BLUE] * 23 + [RED] * 10
    assert named.doubted[55:63].all() and not named.doubted[:55].any()


def lab_of(srgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """OpenCV's float Lab of an sRGB colour (0..255)."""
    lab = cv2.cvtColor(np.array([[srgb]], np.float32) / 255.0, cv2.COLOR_RGB2Lab)[0, 0]
    return float(lab[0]), float(lab[1]), float(lab[2])


def test_two_coloured_groups_of_hues_far_apart_never_share_a_name():
    # dark orange glass beside red under a lamp: 12 apart in colour (under the 16 that keeps two
    # colours apart) but 24 degrees apart in hue; the forest reads both red, orange its second choice
    dark_orange, red = (35.7, 24.9, 13.7), (26.4, 28.7, 2.6)
    assert np.linalg.norm(colour_space(np.array([dark_orange]))[0] - colour_space(np.array([red]))[0]) < 16
    colours = cells((BOARD, 40), (dark_orange, 13), (red, 11))
    P = votes(({EMPTY: 0.9}, 40), ({RED: 0.55, ORANGE: 0.35}, 13), ({RED: 0.9}, 11))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [ORANGE] * 13 + [RED] * 11
    assert named.doubted[40:53].all()  # named against its cells' readings


def test_a_group_is_named_by_its_colour_with_the_light_taken_out():
    # the forest leans red on orange stones; under the light that makes the white, black and blue
    # groups their named colours (none here), the group is orange itself, and so named, and checked
    colours = cells(
        (BOARD, 40),
        (lab_of(NAMED_COLOURS["white"]), 12),
        (lab_of(NAMED_COLOURS["black"]), 12),
        (lab_of(NAMED_COLOURS["blue"]), 12),
        (lab_of(NAMED_COLOURS["orange"]), 12),
    )
    P = votes(
        ({EMPTY: 0.9}, 40), ({WHITE: 0.9}, 12), ({BLACK: 0.9}, 12), ({BLUE: 0.9}, 12), ({RED: 0.5, ORANGE: 0.4}, 12)
    )
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 40 + [WHITE] * 12 + [BLACK] * 12 + [BLUE] * 12 + [ORANGE] * 12
    assert named.doubted[76:].all() and not named.doubted[:76].any()


def test_the_names_and_the_light_are_chosen_together():
    # Blender dev 115001 (its groups' median colours): blue glass the forest reads purple beside green glass
    # on a black board; under the light that makes the blue group purple the green one fits yellow, under
    # the light that makes it blue the green one fits green, and each fits its name under the other's light
    board, blue, green = (0.2, 0.3, -0.2), (25.4, 67.8, -92.4), (54.1, -54.4, 43.8)
    GREEN = COLUMNS.index("green")
    colours = cells((board, 19), (blue, 99), (green, 97))
    P = votes(({EMPTY: 0.6, BLACK: 0.3}, 19), ({PURPLE: 0.7, BLUE: 0.18}, 99), ({GREEN: 0.77, YELLOW: 0.13}, 97))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 19 + [BLUE] * 99 + [GREEN] * 97
    assert named.doubted[19:118].all()  # named against its cells' readings
    # stones the forest reads as surely blue beside the green ones stay blue and sure
    P[19:118] = votes(({BLUE: 0.9}, 99))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best.tolist() == [EMPTY] * 19 + [BLUE] * 99 + [GREEN] * 97
    assert not named.doubted[19:].any()


def test_paler_empty_points_read_white_are_empty_by_the_circles_they_show():
    # dark inlay on light wood under a window: the empty points in the light read white (the forest
    # half leans empty on them); they show the circles running out of them, as the other empty
    # points do, where the white stones hide them (`drawn.lines_shown`: 1 at an empty point, 0 under a stone)
    pale, white = (92.0, 3.0, 14.0), (96.0, 0.0, 2.0)
    colours = cells((BOARD, 50), (pale, 20), (white, 15), (RED_STONE, 15))
    feats, names = body(colours, lines_shown=[0.9] * 50 + [0.6] * 20 + [0.02] * 15 + [0.03] * 15)
    P = votes(({EMPTY: 0.9}, 50), ({EMPTY: 0.35, WHITE: 0.55}, 20), ({WHITE: 0.9}, 15), ({RED: 0.9}, 15))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist()[50:70] == [WHITE] * 20
    named = name_by_groups(P, P, colours, COLUMNS, (feats, names))
    assert named.best.tolist() == [EMPTY] * 70 + [WHITE] * 15 + [RED] * 15
    assert named.doubted[50:70].all()


def test_the_empty_look_is_the_group_that_shows_the_circles_when_the_forests_hides_them():
    # frosted white stones on a white mat, which the forest reads empty, and the empty points' dark
    # dots, which it reads black beside black glass: the dots' group shows the circles, the frosted
    # stones hide them
    mat, dot, black = (88.0, 0.0, 3.0), (30.0, 0.0, 0.0), (12.0, 0.0, -2.0)
    colours = cells((mat, 40), (dot, 30), (black, 20))
    feats, names = body(colours, lines_shown=[0.02] * 40 + [0.8] * 30 + [0.01] * 20)
    P = votes(({EMPTY: 0.8, WHITE: 0.15}, 40), ({EMPTY: 0.3, BLACK: 0.6}, 30), ({BLACK: 0.9}, 20))
    assert name_by_groups(P, P, colours, COLUMNS).best.tolist()[:40] == [EMPTY] * 40
    named = name_by_groups(P, P, colours, COLUMNS, (feats, names))
    assert named.best.tolist() == [WHITE] * 40 + [EMPTY] * 30 + [BLACK] * 20


def test_stones_that_mirror_the_circles_but_the_forest_reads_sure_stay_stones():
    # glossy yellow stones mirror the light lines beside them; the forest is sure of them
    yellow = (85.0, -10.0, 80.0)
    colours = cells((BOARD, 50), (yellow, 12), (BLUE_STONE, 15))
    feats, names = body(colours, lines_shown=[0.8] * 50 + [0.7] * 12 + [0.0] * 15)
    P = votes(({EMPTY: 0.9}, 50), ({COLUMNS.index("yellow"): 0.95}, 12), ({BLUE: 0.9}, 15))
    named = name_by_groups(P, P, colours, COLUMNS, (feats, names))
    assert named.best.tolist() == [EMPTY] * 50 + [COLUMNS.index("yellow")] * 12 + [BLUE] * 15


NAVY_DOT = (30.0, 10.0, -30.0)  # an empty point under a navy ink marker, lines meeting at it


def test_the_empty_look_is_the_many_points_that_lean_empty_not_a_handful():
    # rings_75007 (dev seed 75): 135 empty points under navy markers lean empty only mildly (blue close
    # behind), while four cells of another look lean empty hard; the handful was the empty look, and the
    # many, far from it in colour, could not be empty: they read blue
    colours = cells((NAVY_DOT, 100), (BOARD, 4), (RED_STONE, 30))
    P = votes(({EMPTY: 0.55, BLUE: 0.4}, 100), ({EMPTY: 0.95}, 4), ({RED: 0.9}, 30))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best[:100].tolist() == [EMPTY] * 100
    assert named.best[104:].tolist() == [RED] * 30


def test_flat_dots_beside_domed_stones_are_empty_whatever_the_forest_reads():
    # big dark dots at every empty point, the colour of the black glass beside them (one colour group):
    # the forest reads them all black; the stones are domes, shaded across their bodies, the dots flat
    dots, black, white, purple = (8.0, 0.0, -2.0), (12.0, 0.5, 3.0), (70.0, -1.0, -9.0), (33.0, 28.0, -33.0)
    colours = cells((dots, 100), (black, 30), (white, 40), (purple, 36))
    P = votes(({BLACK: 0.85}, 130), ({WHITE: 0.6, EMPTY: 0.35}, 40), ({PURPLE: 0.9}, 36))
    shade = [0.8] * 100 + [9.0] * 30 + [11.0] * 40 + [8.5] * 36
    named = name_by_groups(P, P, colours, COLUMNS, body(colours, shade=shade))
    assert named.best.tolist() == [EMPTY] * 100 + [BLACK] * 30 + [WHITE] * 40 + [PURPLE] * 36
    assert named.doubted[:100].all()  # named against the forest: checked


def test_a_colour_of_disc_stones_shaded_unevenly_is_not_taken_for_marks():
    # disc-shaped stones show their side to the light unevenly: some of a colour look domed, most flat;
    # no colour group is domes as a whole, so no group is the board's marks
    colours = cells((BOARD, 60), (BLUE_STONE, 40), (RED_STONE, 30))
    P = votes(({EMPTY: 0.9}, 60), ({BLUE: 0.9}, 40), ({RED: 0.9}, 30))
    shade = [1.0] * 60 + [1.8] * 30 + [6.5] * 10 + [2.7] * 15 + [10.0] * 15
    named = name_by_groups(P, P, colours, COLUMNS, body(colours, shade=shade))
    assert named.best.tolist() == [EMPTY] * 60 + [BLUE] * 40 + [RED] * 30


def test_two_groups_tinted_opposite_ways_are_not_both_black():
    # rings_75013 (dev seed 75): dark green and purple glass in a dim photo, both read black by the forest;
    # one light tints one colour's lit and shaded stones the same way, so tints opposed are two colours
    green_dark, purple_dark = (14.0, -5.0, 3.0), (14.0, 5.0, -8.0)
    colours = cells((BOARD, 60), (green_dark, 40), (purple_dark, 30))
    P = votes(({EMPTY: 0.9}, 60), ({BLACK: 0.9}, 70))
    named = name_by_groups(P, P, colours, COLUMNS)
    assert named.best[60:].tolist() == [BLACK] * 70  # the forest's name stands ...
    assert named.doubted[60:].all()  # ... checked
    assert not named.doubted[:60].any()


def test_black_stones_lit_and_shaded_are_tinted_alike():
    # one black glass, lit and in shade, tinted the same way by the one light: one colour; the green and
    # purple of rings_75013, tinted opposite ways, are two
    lit, shaded, green_dark, purple_dark = (24.0, 3.0, -7.0), (4.0, 1.5, -3.5), (14.0, -5.0, 3.0), (14.0, 5.0, -8.0)
    alike = colour_space(np.array([BOARD, lit, shaded]))
    assert not opposed_tints([EMPTY, BLACK, BLACK], alike, COLUMNS).any()
    opposed = colour_space(np.array([BOARD, green_dark, purple_dark]))
    assert opposed_tints([EMPTY, BLACK, BLACK], opposed, COLUMNS).tolist() == [False, True, True]
    assert not opposed_tints([EMPTY, BLACK, PURPLE], opposed, COLUMNS).any()  # a hue's name is `one_hue`'s


def _dark_board(black_feet: float):
    """A black painted board's points, those with a light dot and plain ones (read black), beside red and
    orange stones; the grooves show at the points' foot (foot ink 4), which the stones hide (0.1)."""
    dotted, plain = (48.0, 0.7, -4.4), (17.0, 0.5, -1.3)
    red, orange = (48.0, 49.0, 31.0), (58.0, 30.0, 39.0)
    colours = cells((dotted, 30), (plain, 33), (red, 50), (orange, 40))
    P = votes(({EMPTY: 0.8}, 30), ({BLACK: 0.85}, 33), ({RED: 0.9}, 50), ({ORANGE: 0.9}, 40))
    feet = [4.0] * 30 + [black_feet] * 33 + [0.1] * 90
    return P, colours, body(colours, foot_ink=feet)


def test_points_that_show_the_lines_at_their_foot_read_black_are_checked():
    # rings_105003 (dev seed 105): the plain points of a black painted board read as 33 sure black stones;
    # the grooves show at their foot as at the dotted empty points', where the red and orange stones hide them
    P, colours, feats = _dark_board(black_feet=4.5)
    named = name_by_groups(P, P, colours, COLUMNS, feats)
    assert named.doubted[30:63].all()
    assert not named.doubted[63:].any()


def test_black_stones_that_hide_the_lines_at_their_foot_stay_sure():
    P, colours, feats = _dark_board(black_feet=0.1)
    named = name_by_groups(P, P, colours, COLUMNS, feats)
    assert named.best[30:63].tolist() == [BLACK] * 33
    assert not named.doubted[30:].any()


def _two_empty_looks(rival: tuple[float, float, float], rivals: int = 42):
    """Orange glass over light wood in a dim photo, which the forest reads empty, beside a `rival` group it
    leans empty on less (`rivals` cells), too far from it in colour to be empty too, and white stones."""
    orange_glass, white = (17.0, 5.5, 6.6), (52.0, 1.0, 2.0)
    colours = cells((orange_glass, 38), (rival, rivals), (white, 30))
    P = votes(({EMPTY: 0.9}, 38), ({EMPTY: 0.6, BLACK: 0.3}, rivals), ({WHITE: 0.9}, 30))
    return name_by_groups(P, P, colours, COLUMNS)


def test_the_empty_look_is_checked_when_a_grey_group_that_leans_empty_could_be_it():
    # rings_75013 (dev seed 75): the orange glass was taken for the empty points, sure, and the grey-blue
    # empty points, off its colour, read black; a board is grey as often as stones are
    named = _two_empty_looks(rival=(24.0, 4.3, -9.9))
    assert named.best[:38].tolist() == [EMPTY] * 38
    assert named.doubted[:38].all()


def test_the_empty_look_stays_sure_beside_fewer_coloured_stones_the_forest_leans_empty_on():
    # a clearly coloured group the forest doubts, smaller than the empty look, is stones of that colour
    named = _two_empty_looks(rival=(40.0, 10.0, -40.0), rivals=30)
    assert named.best[:38].tolist() == [EMPTY] * 38
    assert not named.doubted[:38].any()
    # a bigger one may be the board's points, a blue inlay (Blender dev 115008): the empty look is checked
    named = _two_empty_looks(rival=(40.0, 10.0, -40.0))
    assert named.best[:38].tolist() == [EMPTY] * 38
    assert named.doubted[:38].all()


# Blender dev 115002: yellow glass in the sun, as `colour_space` centres: the lit stones, then shades
# the forest reads orange (10-15 degrees of hue and 8-14 apart, one from the next), and red stones
SUN_YELLOW, SUN_AMBER, SUN_DEEP_AMBER, SUN_RED = (
    (27.5, 8.6, 59.0),
    (22.6, 19.6, 52.8),
    (18.8, 22.6, 46.5),
    (10.0, 41.1, 23.5),
)


def test_near_groups_named_two_stone_colours_are_in_doubt():
    centres = np.array([(40.0, 5.0, 10.0), SUN_YELLOW, SUN_AMBER, SUN_RED])
    assert near_other_names([EMPTY, YELLOW, ORANGE, RED], centres).tolist() == [False, True, True, False]
    # far apart in colour or hue, two names are two colours: red and orange stones (dev seed 65)
    apart = colour_space(np.array([BOARD, RED_STONE, ORANGE_STONE]))
    assert not near_other_names([EMPTY, RED, ORANGE], apart).any()


def test_doubt_passes_along_near_groups_of_one_name_only():
    centres = np.array([SUN_YELLOW, SUN_AMBER, SUN_DEEP_AMBER, SUN_RED])
    names = [YELLOW, ORANGE, ORANGE, RED]
    assert doubt_shared(names, centres, np.array([False, True, False, False])).tolist() == [False, True, True, False]
    assert not doubt_shared(names, centres, np.zeros(4, bool)).any()


def test_a_lone_cell_is_no_surer_than_the_near_group_it_reads_like():
    colours = np.array([SUN_YELLOW] * 4 + [SUN_AMBER] * 4 + [SUN_DEEP_AMBER, SUN_RED])
    groups = [np.arange(4), np.arange(4, 8)]
    own = np.array([YELLOW] * 4 + [ORANGE] * 5 + [RED])
    sure = lone_cells_in_doubt(groups, [YELLOW, ORANGE], np.array([False, False]), colours, own)
    assert sure.tolist() == [False] * 10  # near a sure orange group of its name; the red one near none
    doubted = lone_cells_in_doubt(groups, [YELLOW, ORANGE], np.array([False, True]), colours, own)
    assert doubted.tolist() == [False] * 8 + [True, False]
    # beside a group named another stone colour, a lone cell is one of them, or they of it
    other = lone_cells_in_doubt(groups, [YELLOW, YELLOW], np.array([False, False]), colours, own)
    assert other.tolist() == [False] * 8 + [True, False]


def test_a_lone_cell_of_a_name_no_group_bears_joins_the_one_name_it_stands_near():
    # shared rings_002: two sunlit orange stones, too few for a group, read yellow beside fifty orange
    colours = np.array([SUN_AMBER] * 4 + [BOARD] * 4 + [SUN_DEEP_AMBER, SUN_YELLOW, SUN_RED])
    groups = [np.arange(4), np.arange(4, 8)]
    own = np.array([ORANGE] * 4 + [EMPTY] * 4 + [YELLOW, YELLOW, RED])
    joined = lone_cells_joined(groups, [ORANGE, EMPTY], colours, own)
    # the deep amber one is near the orange group; the sun-yellow one is too (a lit orange); the red one is
    # two hues away from it and keeps its own reading
    assert joined.tolist() == [ORANGE] * 4 + [EMPTY] * 4 + [ORANGE, ORANGE, RED]
    # a lone cell whose own name a group bears keeps it, and so does one near groups of two names
    assert lone_cells_joined(groups, [YELLOW, EMPTY], colours, own).tolist() == own.tolist()
    # near two groups of two stone names, which one it belongs to is not known: it keeps its reading
    shades = np.array([SUN_AMBER] * 4 + [SUN_DEEP_AMBER] * 4 + [SUN_AMBER])
    torn = lone_cells_joined(groups, [ORANGE, RED], shades, np.array([ORANGE] * 4 + [RED] * 4 + [YELLOW]))
    assert torn[8] == YELLOW


def test_a_stone_group_near_the_empty_points_is_in_doubt_unless_it_stands_up():
    # Blender dev 115002: the sunlit board's far points, 6 apart from its near ones, read white
    near_points, far_points = (28.9, 1.4, 9.9), (34.5, 0.8, 7.0)
    centres = np.array([near_points, far_points, SUN_RED])
    names = [EMPTY, WHITE, RED]
    assert near_the_empty_points(names, centres, np.zeros(3, bool)).tolist() == [False, True, False]
    # white stones that hide the lines at their foot stand up, however near the board's colour
    assert not near_the_empty_points(names, centres, np.array([False, True, False])).any()


def test_one_stone_name_given_to_two_groups_far_apart_is_in_doubt():
    # Blender dev 115008: the empty points' look (wide indigo inlay round them), named blue with the blue
    # stones, 19 apart though of one hue
    ink, blue_stones = (16.9, 10.5, -36.1), (27.3, 8.6, -51.7)
    centres = np.array([ink, blue_stones, SUN_RED])
    assert far_namesakes([BLUE, BLUE, RED], centres, np.zeros(3, bool)).tolist() == [True, True, False]
    assert not far_namesakes([BLUE, PURPLE, RED], centres, np.zeros(3, bool)).any()
    # a group named by its hue against the forest's votes is checked already: the one it joined stays sure
    assert not far_namesakes([BLUE, BLUE, RED], centres, np.array([True, False, False])).any()


def test_two_halves_of_the_board_are_regions_and_stones_scattered_among_points_are_not():
    # one look of the points split by the light holds a region of the board (a sunlit far half, the points
    # along the edge); stones stand wherever the game put them
    where = np.asarray(get_layout("rings").xy, float)
    far = np.flatnonzero(where[:, 1] >= 0.5)
    near = np.flatnonzero(where[:, 1] < 0.5)
    assert lit_regions(far, near, where)
    radius = np.linalg.norm(where, axis=1)
    edge, inner = np.flatnonzero(radius > 4.5), np.flatnonzero(radius <= 4.5)  # the outermost points
    assert lit_regions(edge, inner, where)
    for seed in range(5):
        scattered = np.random.default_rng(seed).permutation(len(where))
        assert not lit_regions(scattered[:40], scattered[40:], where)


def test_region_kappa_is_high_for_two_halves_and_near_naught_for_a_scatter():
    where = np.asarray(get_layout("three-stones").xy, float)
    left = np.flatnonzero(where[:, 0] < np.median(where[:, 0]))
    right = np.flatnonzero(where[:, 0] >= np.median(where[:, 0]))
    assert region_kappa(left, right, where) > 0.6
    every_third = np.arange(0, len(where), 3)
    rest = np.setdiff1d(np.arange(len(where)), every_third)
    assert abs(region_kappa(every_third, rest, where)) < 0.3
