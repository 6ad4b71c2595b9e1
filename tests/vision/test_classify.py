"""The photo's own looks in the cell classifier (`photo_adapt`, `split_lookalikes`, `join_lone_stones`), on made-up
features and votes."""

from __future__ import annotations

import cv2
import numpy as np

from vision.classify import (
    LOOK,
    MIN_LOOK,
    _body_colours,
    chance_colour_absent,
    coloured_glass_named_black,
    empty_looks_in_doubt,
    feature_names,
    join_lone_stones,
    names_mostly_in_doubt,
    names_of_two_hues,
    photo_adapt,
    unlike_its_name,
    raised_empty_look,
    reading_in_doubt,
    split_lookalikes,
    structured_empty_look,
    within_the_set,
)
from vision.layouts import get_layout
from vision.tuning import CHECK_BELOW, RENAMED_CONFIDENCE

EMPTY, WHITE, CLEAR = 0, 1, 2
NAMES = feature_names()


def photo(looks: list[np.ndarray], seed: int = 0) -> np.ndarray:
    """Feature rows for cells that look like the given vectors (in LOOK order), with a little noise."""
    rng = np.random.default_rng(seed)
    F = np.zeros((len(looks), len(NAMES)), np.float32)
    for i, v in enumerate(looks):
        F[i, [NAMES.index(n) for n in LOOK]] = v + rng.normal(0, 0.5, len(LOOK))
    return F


BOARD = np.full(len(LOOK), 10.0)
STONE = np.full(len(LOOK), 30.0)


def test_a_colour_in_doubt_takes_the_class_of_its_look_alikes():
    # 12 empty spots the forest is sure of, 4 white stones it is sure of, 6 more white stones
    # (same look) it leans the wrong way on: the photo says they are white
    F = photo([BOARD] * 12 + [STONE] * 10)
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.1, 0.9, 0.0]] * 4 + [[0.55, 0.45, 0.0]] * 6)
    post = photo_adapt(P, F)
    assert post.argmax(1).tolist() == [EMPTY] * 12 + [WHITE] * 10
    np.testing.assert_allclose(post.sum(1), 1.0)


def test_a_whole_colour_in_doubt_still_looks_alike():
    # no white stone is sure, but the doubtful ones that lean white say how white looks here
    F = photo([BOARD] * 12 + [STONE] * 9)
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.4, 0.6, 0.0]] * MIN_LOOK + [[0.6, 0.4, 0.0]] * (9 - MIN_LOOK))
    assert photo_adapt(P, F).argmax(1).tolist() == [EMPTY] * 12 + [WHITE] * 9


def test_a_class_too_rare_to_have_a_look_is_not_pushed_away():
    # two clear stones (fewer than MIN_LOOK) that sit near the white look: the forest decides
    F = photo([BOARD] * 12 + [STONE] * 6 + [STONE + 4.0] * 2)
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.05, 0.95, 0.0]] * 6 + [[0.0, 0.2, 0.8]] * 2)
    assert photo_adapt(P, F).argmax(1).tolist() == [EMPTY] * 12 + [WHITE] * 6 + [CLEAR] * 2


def test_a_class_the_forest_rules_out_is_never_chosen():
    # a cell that looks exactly like the white stones but gets almost no white votes
    F = photo([BOARD] * 12 + [STONE] * 5)
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.05, 0.95, 0.0]] * 4 + [[0.95, 0.05, 0.0]])
    assert photo_adapt(P, F).argmax(1)[-1] == EMPTY


def test_a_cell_unlike_the_look_of_its_name_is_in_doubt():
    # red domes among a red board's flat points, named empty with them by colour (Blender dev 117000): the
    # physics of the photo says they are another kind of cell; a class too rare to show a look says nothing
    F = photo([BOARD] * 16 + [STONE] * 4 + [STONE + 10.0] * 8 + [BOARD] * 2)
    P = np.array([[0.9, 0.05, 0.05]] * 20 + [[0.05, 0.9, 0.05]] * 8 + [[0.05, 0.05, 0.9]] * 2)
    best = np.array([EMPTY] * 20 + [WHITE] * 8 + [CLEAR] * 2)
    assert unlike_its_name(P, F, best).tolist() == [False] * 16 + [True] * 4 + [False] * 10


def test_a_cell_unlike_every_look_keeps_the_forests_answer():
    F = photo([BOARD] * 12 + [STONE] * 5 + [np.full(len(LOOK), 90.0)])
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.05, 0.95, 0.0]] * 5 + [[0.4, 0.6, 0.0]])
    assert photo_adapt(P, F).argmax(1)[-1] == WHITE


# split_lookalikes: classes 0 empty, 1 red, 2 orange; colour rows are (L, a, b)
RED, ORANGE = 1, 2
DARK_RED = np.array([28.0, 41.0, 35.0])
BRIGHT_ORANGE = np.array([42.0, 29.0, 44.0])


def coloured(colours: list[np.ndarray], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    F = np.zeros((len(colours), len(NAMES)), np.float32)
    for i, v in enumerate(colours):
        F[i, :3] = v + rng.normal(0, 0.8, 3)
    return F


def test_two_colours_read_as_one_are_told_apart_by_the_forests_second_choice():
    # ten dark red stones and eight orange ones, all read orange; the forest gives the dark red
    # group a little red, the orange group none: the missing colour goes to the group it leans to
    F = coloured([np.full(3, 60.0)] * 6 + [DARK_RED] * 10 + [BRIGHT_ORANGE] * 8)
    P = np.array([[1.0, 0.0, 0.0]] * 6 + [[0.0, 0.12, 0.88]] * 10 + [[0.0, 0.01, 0.99]] * 8)
    best = split_lookalikes(P.argmax(1), P, F)
    assert best.tolist() == [EMPTY] * 6 + [RED] * 10 + [ORANGE] * 8


def test_one_colour_in_two_lights_stays_one_colour():
    # the same orange in two lights: two groups, but the forest leans neither way
    F = coloured([DARK_RED] * 10 + [BRIGHT_ORANGE] * 8)
    P = np.array([[0.0, 0.02, 0.98]] * 10 + [[0.0, 0.01, 0.99]] * 8)
    assert split_lookalikes(P.argmax(1), P, F).tolist() == [ORANGE] * 18


def test_a_colour_already_on_the_photo_is_not_handed_to_a_group_unlike_its_cells():
    # the three cells read red look like the bright orange group, not the darker one: red is no
    # name for the darker group
    F = coloured([DARK_RED] * 10 + [BRIGHT_ORANGE] * 8 + [BRIGHT_ORANGE] * 3)
    P = np.array([[0.0, 0.2, 0.8]] * 10 + [[0.0, 0.01, 0.99]] * 8 + [[0.0, 0.9, 0.1]] * 3)
    assert split_lookalikes(P.argmax(1), P, F).tolist() == [ORANGE] * 18 + [RED] * 3


def test_a_colour_read_already_is_not_handed_on_by_a_faint_lean():
    # ten dark red stones and eight orange ones read orange, three stray cells read red that look
    # like the dark red group: the forest gives that group a twentieth of its votes for red, too
    # faint a lean to rename ten stones after three strays
    F = coloured([DARK_RED] * 10 + [BRIGHT_ORANGE] * 8 + [DARK_RED] * 3)
    P = np.array([[0.0, 0.06, 0.94]] * 10 + [[0.0, 0.01, 0.99]] * 8 + [[0.0, 0.6, 0.4]] * 3)
    assert split_lookalikes(P.argmax(1), P, F).tolist() == [ORANGE] * 18 + [RED] * 3


# three-stones' columns: empty, black, white, clear; clear glass over dark wood shows the wood
# darkened, far from a white stone's colour
BLACK3, WHITE3, CLEAR3 = 1, 2, 3
PALE_WHITE = np.array([88.0, -22.0, -12.0])
GLASS_ON_MAHOGANY = np.array([39.0, -19.0, -20.0])


def test_clear_stones_read_white_join_the_clear_stones_they_look_like():
    # twelve white stones, four clear ones the forest leans white on (a third of its votes
    # clear) and two it reads clear, all four a tight group of their own beside the whites
    F = coloured([PALE_WHITE] * 12 + [GLASS_ON_MAHOGANY] * 4 + [GLASS_ON_MAHOGANY] * 2)
    P = np.array([[0.15, 0.0, 0.83, 0.02]] * 12 + [[0.02, 0.03, 0.6, 0.35]] * 4 + [[0.02, 0.02, 0.36, 0.6]] * 2)
    assert split_lookalikes(P.argmax(1), P, F).tolist() == [WHITE3] * 12 + [CLEAR3] * 6


def test_one_loose_group_of_a_colour_is_not_split():
    # one colour spread evenly over a range of shades, the darker ones a little redder to the
    # forest: no two tight groups, so no split
    shades = np.linspace(-0.5, 1.5, 18)
    F = coloured([BRIGHT_ORANGE + t * (DARK_RED - BRIGHT_ORANGE) for t in shades])
    red = 0.005 + 0.1 * (shades + 0.5) ** 2
    P = np.stack([np.zeros(18), red, 1 - red], 1)
    assert split_lookalikes(P.argmax(1), P, F).tolist() == [ORANGE] * 18


# join_lone_stones: colour rows as above; names as the reader gives them
LIGHT_ORANGE = BRIGHT_ORANGE + np.array([2.0, -2.0, 1.5])  # a lit stone: 2.7 units from the group


def test_a_lone_doubtful_stone_takes_the_name_of_its_look_alikes():
    # a lone "yellow" whose colour sits among fifty oranges is one of them, still marked for checking
    F = coloured([BRIGHT_ORANGE] * 50 + [LIGHT_ORANGE], seed=1)
    read: list[str | None] = list[str | None](["orange"] * 50 + ["yellow"])
    labels, conf = join_lone_stones(read, [0.95] * 50 + [0.77], F)
    assert labels[-1] == "orange" and conf[-1] <= RENAMED_CONFIDENCE


def test_two_agreeing_look_alikes_are_enough():
    F = coloured([BRIGHT_ORANGE] * 2 + [DARK_RED] * 5 + [LIGHT_ORANGE], seed=2)
    read: list[str | None] = list[str | None](["orange"] * 2 + ["red"] * 5 + ["red"])
    labels, _ = join_lone_stones(read, [0.9] * 7 + [0.79], F)
    assert labels[-1] == "orange"


def test_a_sure_or_distinct_lone_stone_keeps_its_name():
    F = coloured([BRIGHT_ORANGE] * 20 + [LIGHT_ORANGE] + [DARK_RED], seed=3)
    labels: list[str | None] = list[str | None](["orange"] * 20 + ["yellow", "red"])
    # the yellow is sure of itself; the red is far from every orange in colour
    got, conf = join_lone_stones(labels, [0.95] * 20 + [0.85, 0.5], F)
    assert got == labels and conf == [0.95] * 20 + [0.85, 0.5]


def test_a_stone_with_company_of_its_own_name_keeps_it():
    F = coloured([BRIGHT_ORANGE] * 20 + [LIGHT_ORANGE] * 2, seed=4)
    labels: list[str | None] = list[str | None](["orange"] * 20 + ["yellow"] * 2)
    assert join_lone_stones(labels, [0.95] * 20 + [0.7, 0.7], F)[0] == labels


# ----------------------------------------------------------------- the box's stones (within_the_set)

CLEAR_LIMITS = [None, 30, 12]  # empty, white, clear: three-stones' box (no black here)


def test_a_colour_read_too_often_keeps_the_cells_it_is_surest_of():
    # 16 cells read clear, 12 allowed: the 4 it leads least on take their next choice (white has room)
    post = np.array([[0.05, 0.15, 0.8]] * 12 + [[0.05, 0.45, 0.5]] * 4)
    best = within_the_set(post, post.argmax(1), CLEAR_LIMITS)
    assert best.tolist() == [CLEAR] * 12 + [WHITE] * 4


def test_an_excess_no_colour_has_room_for_is_empty():
    # 52 cells read clear, the forest's next choice white; 40 too many, more than white's 30:
    # one look on 40 cells is no colour of the box, so the board's own marks: empty
    post = np.array([[0.05, 0.3, 0.65]] * 40 + [[0.02, 0.08, 0.9]] * 12)
    best = within_the_set(post, post.argmax(1), CLEAR_LIMITS)
    assert best.tolist() == [EMPTY] * 40 + [CLEAR] * 12


def test_a_reading_the_box_allows_is_left_alone():
    post = np.array([[0.1, 0.2, 0.7]] * 12 + [[0.1, 0.8, 0.1]] * 30 + [[0.9, 0.05, 0.05]] * 30)
    assert within_the_set(post, post.argmax(1), CLEAR_LIMITS).tolist() == post.argmax(1).tolist()
    assert within_the_set(post, post.argmax(1), [None, None, None]).tolist() == post.argmax(1).tolist()


class Forest:
    """A stand-in for the OpenCV forest: the same votes for every cell of a look (`getVotes`' layout)."""

    def __init__(self, votes: np.ndarray) -> None:
        self.votes = votes

    def getVarCount(self) -> int:
        return len(NAMES)

    def getVotes(self, feats: np.ndarray, flags: int) -> np.ndarray:
        labels = np.array([[0, 1, 2, 3]], np.float64)  # empty, black, white, clear (CLASSES' first four)
        return np.vstack([labels, self.votes[: len(feats)] * 100])


def test_a_reading_with_more_stones_than_the_box_holds_is_mended_and_marked_for_checking():
    from vision.classify import classify
    from vision.layouts import get_layout
    from vision.tuning import CHECK_BELOW

    layout = get_layout("three-stones")  # 76 pockets; the box: 30 black, 30 white, 12 clear
    # 60 light printed pockets the forest takes for clear stones, 10 black stones, 6 white ones
    F = photo([BOARD] * 60 + [STONE] * 10 + [STONE + 15.0] * 6)
    votes = np.array([[0.1, 0.0, 0.25, 0.65]] * 60 + [[0.05, 0.9, 0.05, 0.0]] * 10 + [[0.05, 0.0, 0.9, 0.05]] * 6)
    labels, conf = classify(F, layout, Forest(votes))
    assert labels.count("clear") <= 12 and labels.count("white") <= 30
    assert labels[:60].count(None) >= 48
    assert labels[60:] == ["black"] * 10 + ["white"] * 6
    assert all(c < CHECK_BELOW for c in conf[:60])  # a broken reading's cells are all checked


def test_the_box_the_reader_allows_is_the_one_the_rules_allow():
    from engine import UnreachablePositionError, get_game

    for game in ("three-stones", "morris"):
        rules = get_game(game)
        ids = rules.locations()
        for colour, most in rules.stone_set().items():
            cells: dict[str, str | None] = {pid: None for pid in ids}
            for pid in ids[:most]:
                cells[pid] = colour
            rules.score_position({"game": game, "cells": cells})  # the whole box on the board: fine
            cells[ids[most]] = colour
            try:
                rules.score_position({"game": game, "cells": cells})
            except UnreachablePositionError:
                continue
            raise AssertionError(f"{game}: {most + 1} {colour} accepted, the reader allows {most}")


def test_every_stone_that_looks_like_the_marks_a_broken_reading_gave_up_is_empty():
    from vision.classify import classify
    from vision.layouts import get_layout

    layout = get_layout("three-stones")  # the box: 30 black, 30 white, 12 clear
    # 64 printed pockets of one look, the forest leaning white on 44 and clear on 20: trimming each
    # colour to its box by the forest's lead kept 30 and 12 of them as stones
    F = photo([BOARD] * 64 + [STONE] * 6 + [STONE + 15.0] * 6)
    votes = np.array(
        [[0.2, 0.0, 0.45, 0.35]] * 44
        + [[0.2, 0.0, 0.35, 0.45]] * 20
        + [[0.05, 0.9, 0.05, 0.0]] * 6
        + [[0.05, 0.0, 0.9, 0.05]] * 6
    )
    labels, conf = classify(F, layout, Forest(votes))
    assert labels == [None] * 64 + ["black"] * 6 + ["white"] * 6
    assert max(conf[:64]) <= RENAMED_CONFIDENCE


# empty_looks_in_doubt, raised_empty_look: sage-stones' columns in the votes, empty first; colour rows (L, a, b)
# with each cell's shading across its body (`shade`: a dome lit from one side is shaded, a print is not)
RED7, WHITE7 = 4, 2
RED_DISC = np.array([17.0, 54.0, 39.0])  # dark red discs printed on a felt for the pockets
WHITE_GLASS = np.array([86.0, 4.0, 10.0])  # white glass stones in them
RED_GLASS = np.array([26.0, 16.0, 6.0])
NINE = 9  # sage-stones' classes: empty and eight colours


def pocket_photo(looks: list[tuple[np.ndarray, float]]) -> np.ndarray:
    """Feature rows for (colour, shade) cells, the colour with a little noise."""
    F = coloured([colour for colour, _ in looks])
    F[:, NAMES.index("shade")] = [shade for _, shade in looks]
    return F


def votes(rows: list[tuple[int, float, int]]) -> np.ndarray:
    """Vote rows over NINE classes: (cells, empty share, the stone colour the rest goes to)."""
    P = []
    for count, empty, colour in rows:
        row = np.zeros(NINE)
        row[0], row[colour] = empty, 1.0 - empty
        P += [row] * count
    return np.array(P)


def test_two_empty_looks_the_forest_doubts_are_both_in_doubt():
    # 24 white stones and 8 red discs read empty (the forest 0.75 and 0.5 empty): at most one is the pockets
    F = pocket_photo([(WHITE_GLASS, 4.0)] * 24 + [(RED_DISC, 1.0)] * 8 + [(RED_GLASS, 5.0)] * 10)
    P = votes([(24, 0.75, WHITE7), (8, 0.5, RED7), (10, 0.1, RED7)])
    assert empty_looks_in_doubt(P.argmax(1), P, F).tolist() == [True] * 32 + [False] * 10


def test_a_sure_empty_look_keeps_its_pockets_sure_beside_a_dark_corner():
    # a lamp's dark corner: four pockets far darker than the sixty the forest is sure of
    F = pocket_photo([(np.array([64.0, 10.0, 22.0]), 11.0)] * 60 + [(np.array([20.0, 7.0, 17.0]), 4.0)] * 4)
    P = votes([(60, 0.9, WHITE7), (4, 0.55, WHITE7)])
    assert empty_looks_in_doubt(P.argmax(1), P, F).tolist() == [False] * 60 + [True] * 4


def test_an_empty_look_the_forest_is_sure_of_that_casts_shadows_is_in_doubt():
    # Blender seed 115's three-stones_b115006: ten white glass discs on white paper printed with pale
    # discs, read empty (0.81) beside the pockets (0.68): the discs cast shadows, the pockets none
    F = pocket_photo([(WHITE_GLASS, 0.4)] * 10 + [(RED_DISC, 0.1)] * 40)
    shadow = NAMES.index("shadow")
    F[:10, shadow], F[10:, shadow] = 9.7, 3.1
    P = votes([(10, 0.81, WHITE7), (40, 0.68, RED7)])
    assert empty_looks_in_doubt(P.argmax(1), P, F).all()
    F[:10, shadow] = 6.0  # under PRESENCE_SHADOW_GAIN times the pockets': the sure look is the pockets
    assert empty_looks_in_doubt(P.argmax(1), P, F).tolist() == [False] * 10 + [True] * 40


def test_one_empty_look_is_not_in_doubt():
    F = pocket_photo([(RED_DISC, 1.0)] * 30 + [(WHITE_GLASS, 9.0)] * 10)
    P = votes([(30, 0.6, RED7), (10, 0.2, WHITE7)])
    assert not empty_looks_in_doubt(P.argmax(1), P, F).any()


def test_domes_read_empty_beside_flat_discs_read_empty_are_stones():
    # white glass shaded across its body (10) beside flat printed discs (1): the domes are white stones
    F = pocket_photo([(WHITE_GLASS, 10.0)] * 24 + [(RED_DISC, 1.0)] * 8 + [(RED_GLASS, 5.0)] * 10)
    P = votes([(24, 0.75, WHITE7), (8, 0.5, RED7), (10, 0.1, RED7)])
    best = raised_empty_look(P.argmax(1), P, P, F)
    assert best.tolist() == [WHITE7] * 24 + [EMPTY] * 8 + [RED7] * 10


def test_cup_pockets_shaded_like_domes_stay_empty():
    # a cup's rim shades its pockets: two looks read empty, neither flat beside the other
    F = pocket_photo([(WHITE_GLASS, 10.0)] * 24 + [(RED_DISC, 9.0)] * 8)
    P = votes([(24, 0.75, WHITE7), (8, 0.5, RED7)])
    assert raised_empty_look(P.argmax(1), P, P, F).tolist() == [EMPTY] * 32


def test_domes_the_forest_is_sure_are_empty_stay_empty():
    F = pocket_photo([(WHITE_GLASS, 10.0)] * 24 + [(RED_DISC, 1.0)] * 8)
    P = votes([(24, 0.9, WHITE7), (8, 0.5, RED7)])
    assert raised_empty_look(P.argmax(1), P, P, F).tolist() == [EMPTY] * 32


# structured_empty_look: three-stones' 76 pockets, votes over (empty, black, white, clear); each look's medians of
# what a stone shows and a pocket does not (ringgrad, ringstd, spot, lapvar, shadow), about Blender dev 115's b115004
# (whose dark glass casts about the shadow the cones' shade shows)
POCKETS_XY = np.asarray(get_layout("three-stones").xy, np.float64)
CONE_POCKET = (np.array([48.0, 5.0, 28.0]), (0.9, 6.9, 6.0, 0.5, 4.4))  # a cone pocket in dark wood, shaded inside
BLACK_GLASS = (np.array([33.0, 10.0, 4.0]), (2.7, 11.6, 24.0, 1.2, 4.4))  # black glass in one: rim, highlight
CUES = ["ringgrad", "ringstd", "spot", "lapvar", "shadow"]
BLACK3 = 1


def structured_photo(stones: np.ndarray, stone: tuple = BLACK_GLASS) -> tuple[np.ndarray, np.ndarray]:
    """Feature rows and votes for the 76 pockets with `stones` (cell indices) holding `stone`, every cell
    read empty by the forest (the pockets 0.7, the stones 0.55), the rest of its votes on black."""
    looks = [stone if i in set(stones.tolist()) else CONE_POCKET for i in range(len(POCKETS_XY))]
    F = coloured([colour for colour, _ in looks])
    rng = np.random.default_rng(1)
    for k, name in enumerate(CUES):
        F[:, NAMES.index(name)] = [cues[k] * rng.uniform(0.9, 1.1) for _, cues in looks]
    P = np.zeros((len(looks), 4))
    P[:, 0] = 0.7
    P[stones, 0] = 0.55
    P[:, BLACK3] = 1.0 - P[:, 0]
    return F, P


SCATTERED = np.arange(0, 76, 3)  # 26 stones among the pockets, wherever the game put them


def test_stones_read_empty_that_stand_out_from_the_pockets_they_lie_among_are_stones():
    F, P = structured_photo(SCATTERED)
    best = structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72)
    assert np.flatnonzero(best).tolist() == SCATTERED.tolist()
    assert (best[SCATTERED] == BLACK3).all()


def test_a_look_that_holds_a_region_of_the_board_is_the_light_not_stones():
    lit = np.flatnonzero(POCKETS_XY[:, 0] < np.median(POCKETS_XY[:, 0]))[:26]  # the pockets under a window
    F, P = structured_photo(lit)
    assert not structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72).any()


def test_pockets_clearly_more_of_one_cue_are_no_background_to_stand_out_from():
    # a printed ring's strong edge: the pockets show more rim than the stones, whatever else these show
    colour, cues = BLACK_GLASS
    F, P = structured_photo(SCATTERED, (colour, (0.3,) + cues[1:]))
    assert not structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72).any()


def test_a_look_with_as_much_of_most_cues_as_the_pockets_stays_empty():
    colour, cues = CONE_POCKET
    F, P = structured_photo(SCATTERED, (BLACK_GLASS[0], BLACK_GLASS[1][:2] + cues[2:]))
    assert not structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72).any()


def test_stones_among_pockets_of_two_looks_are_found_once_the_odd_look_is_parted():
    # eight pockets in a corner under a coloured reflection, far from every other look: the first split parts
    # them (a region: the light) from the stones and the other pockets together, and the stones only stand out
    # once that part is split again
    corner = np.flatnonzero((POCKETS_XY[:, 0] >= 2) & (POCKETS_XY[:, 1] >= 2))
    stones = np.setdiff1d(SCATTERED, corner)
    F, P = structured_photo(stones)
    F[corner, :3] = coloured([np.array([95.0, -30.0, 80.0])] * len(corner))[:, :3]
    best = structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72)
    assert np.flatnonzero(best).tolist() == stones.tolist()


def test_a_look_the_forest_is_surer_is_empty_stands_out_as_stones_only_by_its_shadow():
    # cap pockets show more rim and texture than the glass that smooths them (dev 107014: the forest 0.96 sure of
    # the 50 pockets): the look the forest is surer is empty is stones only when it also stands up
    F, P = structured_photo(SCATTERED)
    P[:, 0] = np.where(np.isin(np.arange(len(P)), SCATTERED), 0.96, 0.5)
    P[:, BLACK3] = 1.0 - P[:, 0]
    assert not structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72).any()
    F[SCATTERED, NAMES.index("shadow")] *= 3.0
    assert (
        np.flatnonzero(structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=72)).tolist() == SCATTERED.tolist()
    )


def test_more_stones_than_the_box_holds_stay_empty():
    F, P = structured_photo(SCATTERED)
    assert not structured_empty_look(P.argmax(1), P, P, F, POCKETS_XY, most=20).any()


# names_of_two_hues: colour rows (L, a, b) of stones read one name
GLOSSY_GREEN = np.array([72.0, -18.0, 18.0])
GLOSSY_RED = np.array([78.0, 31.0, 15.0])
WHITE_STONE = np.array([90.0, 1.0, 4.0])


def test_one_name_across_two_hues_is_marked_on_every_stone():
    # green and red glossy stones both read white, sure: which of them is white is not known
    F = coloured([GLOSSY_GREEN] * 4 + [GLOSSY_RED] * 4 + [RED_DISC] * 6)
    labels = ["white"] * 8 + [None] * 6
    conf = names_of_two_hues(labels, [0.9] * 14, F)
    assert conf == [RENAMED_CONFIDENCE] * 8 + [0.9] * 6


def test_one_name_of_one_hue_in_two_lights_stays_sure():
    # white stones, some in a shadow: far apart in lightness, no hue of their own
    F = coloured([WHITE_STONE] * 5 + [WHITE_STONE * np.array([0.5, 1.0, 1.0])] * 4)
    assert names_of_two_hues(["white"] * 9, [0.9] * 9, F) == [0.9] * 9


def test_a_lone_stone_of_another_hue_says_nothing():
    F = coloured([GLOSSY_GREEN] * 5 + [GLOSSY_RED])
    assert names_of_two_hues(["green"] * 6, [0.9] * 6, F) == [0.9] * 6


# coloured_glass_named_black: body colours (L, a, b; `_body_colours`) of stones read black, beside the pockets'
SAGE = ["empty", "black", "white", "clear", "red", "green", "blue", "yellow", "orange", "purple"]
BLUE_MAT = np.array([30.0, 8.0, -28.0])  # the pockets of a blue mat (Blender dev 115004)
DARK_RED_GLASS = np.array([4.0, 17.0, 6.0])  # red glass over it, read black
BLACK_GLASS_BODY = np.array([2.0, 11.0, -25.0])  # black glass over it: the mat's own tint, no stronger


def bodies(colours: list[np.ndarray]) -> np.ndarray:
    """Feature rows whose body colour columns are the given colours."""
    F = np.zeros((len(colours), len(NAMES)), np.float32)
    F[:, [NAMES.index(n) for n in ("body_L", "body_a", "body_b")]] = np.array(colours)
    return F


def black_votes(cells: int, faint: str | None = None, share: float = 0.1, classes: list[str] = SAGE) -> np.ndarray:
    """The forest's shares for cells it reads black, seeing `faint` colour in them with `share`."""
    P = np.zeros((cells, len(classes)))
    P[:, classes.index("black")] = 0.6
    if faint:
        P[:, classes.index(faint)] = share
    return P


def test_glass_whose_body_shows_a_hue_the_board_does_not_give_is_named_by_it():
    F = bodies([DARK_RED_GLASS] * 4 + [BLACK_GLASS_BODY] * 5 + [BLUE_MAT] * 6)
    labels, conf = coloured_glass_named_black(["black"] * 9 + [None] * 6, [0.9] * 15, F, black_votes(15, "red"), SAGE)
    assert labels == ["red"] * 4 + ["black"] * 5 + [None] * 6
    assert conf == [RENAMED_CONFIDENCE] * 4 + [0.9] * 11


def test_glass_of_a_hue_the_forest_sees_nothing_of_stays_black():
    # a lamp-lit wood's light in black glass, turned red in the dark (Blender dev 117001): the forest gives red 0.01
    F = bodies([DARK_RED_GLASS] * 4 + [BLUE_MAT] * 6)
    P = black_votes(10, "red", 0.01)
    assert (
        coloured_glass_named_black(["black"] * 4 + [None] * 6, [0.9] * 10, F, P, SAGE)[0] == ["black"] * 4 + [None] * 6
    )


def test_glass_of_the_boards_hue_but_stronger_than_the_board_is_coloured():
    # orange glass on dim wood under a lamp (dev seed 91): the wood's hue, twice its strength of colour
    wood, orange_glass = np.array([12.0, 13.0, 14.0]), np.array([35.0, 25.0, 33.0])
    F = bodies([orange_glass] * 3 + [wood] * 5)
    labels, _ = coloured_glass_named_black(["black"] * 3 + [None] * 5, [0.9] * 8, F, black_votes(8, "orange"), SAGE)
    assert labels == ["orange"] * 3 + [None] * 5


def test_one_stone_of_a_hue_among_black_ones_stays_black():
    # a lone stone's colour may be a reflection
    F = bodies([DARK_RED_GLASS] + [BLACK_GLASS_BODY] * 5 + [BLUE_MAT] * 6)
    labels, conf = coloured_glass_named_black(["black"] * 6 + [None] * 6, [0.9] * 12, F, black_votes(12, "red"), SAGE)
    assert labels == ["black"] * 6 + [None] * 6 and conf == [0.9] * 12


def test_a_set_without_hued_colours_keeps_its_black_stones():
    F, three = bodies([DARK_RED_GLASS] * 4 + [BLUE_MAT] * 6), ["empty", "black", "white", "clear"]
    P = black_votes(10, classes=three)
    labels, _ = coloured_glass_named_black(["black"] * 4 + [None] * 6, [0.9] * 10, F, P, three)
    assert labels == ["black"] * 4 + [None] * 6


def test_a_cells_body_colour_is_its_dim_colourful_light_not_a_bright_reflection():
    # one cell of black glass: a tenth of it shows the dark red light that came back through it off the board,
    # two fifths a bright window-blue reflection (lighter than the board, L 40), the rest is near black
    bgr = np.full((100, 3), 12, np.uint8)
    bgr[:10] = (20, 20, 60)
    bgr[60:] = (180, 124, 107)
    lab = cv2.cvtColor(bgr[None].astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)[0]
    hsv = cv2.cvtColor(bgr[None], cv2.COLOR_BGR2HSV)[0].astype(np.float32)
    body = _body_colours(lab[None, :, 0], (hsv[:, 1] / 255.0 * hsv[:, 2])[None], bgr[None], 40.0)[0]
    assert lab[60, 0] > 40 and body[1] > 10 and abs(body[2]) < body[1]  # red: a well above zero, b small beside it


def three_stones(white: int, black: int, clear: int) -> list[str | None]:
    """A three-stones reading with these many stones of each colour, the other pockets empty."""
    stones = ["white"] * white + ["black"] * black + ["clear"] * clear
    return stones + [None] * (len(get_layout("three-stones").ids) - len(stones))


def test_the_chance_a_draw_leaves_out_a_colour_is_counted_from_the_box():
    # 30 white of 72: two stones drawn both miss white 42*41 times in 72*71
    box = {"white": 30, "black": 30, "clear": 12}
    assert abs(chance_colour_absent(["black", "clear", None], box) - 42 * 41 / (72 * 71)) < 1e-12
    assert chance_colour_absent(["black", "white", "clear"], box) == 1.0
    assert chance_colour_absent(["black"] * 3, {}) == 1.0


def test_a_reading_missing_a_colour_a_draw_all_but_surely_holds_is_in_doubt():
    # Blender dev 117006: 25 white glass stones on light wood read empty beside 18 black and 6 clear
    layout = get_layout("three-stones")
    assert reading_in_doubt(three_stones(0, 18, 6), layout)
    assert not reading_in_doubt(three_stones(25, 18, 6), layout)
    # a few stones may well all be black, and clear is a sixth of the box
    assert not reading_in_doubt(three_stones(0, 4, 0), layout)
    assert not reading_in_doubt(three_stones(12, 10, 0), layout)


def test_a_pocket_board_read_without_empty_pockets_is_in_doubt():
    # dev seed 91008: the 19 empty paper pockets read black on a board read full
    layout = get_layout("sage-stones")
    full = ["green"] * 18 + ["purple"] * 14 + ["black"] * 19 + ["yellow"] * 12
    assert len(full) == len(layout.ids)
    assert reading_in_doubt(full, layout)
    assert reading_in_doubt(full[: -MIN_LOOK + 1] + [None] * (MIN_LOOK - 1), layout)
    assert not reading_in_doubt(full[:-MIN_LOOK] + [None] * MIN_LOOK, layout)


def test_a_name_most_of_whose_stones_are_in_doubt_is_sure_of_none():
    # Blender dev 117009: empty pockets of dark wood read white, most of them doubted, three sure
    labels = ["white"] * 5 + ["black"] * 3 + [None] * 4
    conf = [0.5, 0.6, 0.7, 0.9, 0.95] + [0.5, 0.9, 0.95] + [0.5, 0.5, 0.5, 0.9]
    after = names_mostly_in_doubt(labels, conf)
    assert after[:5] == [min(c, RENAMED_CONFIDENCE) for c in conf[:5]] and max(after[:5]) < CHECK_BELOW
    # a name only one of whose stones is doubted, and the empty pockets (presence's own), keep theirs
    assert after[5:] == conf[5:]
    # two stones of a name are too few to say the name is doubted
    assert names_mostly_in_doubt(["red", "red", None], [0.5, 0.9, 0.9]) == [0.5, 0.9, 0.9]
