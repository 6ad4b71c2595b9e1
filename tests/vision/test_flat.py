"""Empty pockets read as stones of one colour, found per photo by their flat look (`vision.flat`),
on made-up features and votes."""

from __future__ import annotations

import numpy as np
from test_presence import NAMES, cell, photo

from vision.flat import flat_colours, stones_unlike_the_pockets

EMPTY, WHITE, GREEN, CLEAR = 0, 1, 2, 3  # columns of the votes: empty, then a palette


def body(look: dict[str, float], shade: float) -> dict[str, float]:
    """The look with its body shaded across by `shade` (a dome lit from one side)."""
    return dict(look, shade=shade)


POCKET = body(cell(0.0, 1.5, 0.0), 0.1)  # an empty pocket: flat, no shadow
DISC = body(cell(24.0, 1.5, 0.0), 0.1)  # a light disc printed on a dark felt: as flat
GREEN_STONE = body(cell(-40.0, 17.0, 0.0, lit=2.6), 6.0)  # a raised stone: shaded, its shadow to one side
WHITE_STONE = body(cell(30.0, 17.0, 0.0, lit=2.6), 6.0)
LOW_WHITE = body(cell(30.0, 4.5, 0.0, lit=2.6), 5.5)  # a white stone sitting low: a weak shadow, a shaded body
READ_WHITE = [0.31, 0.57, 0.08, 0.04]  # the forest leaning to white on a disc
SURE_WHITE = [0.05, 0.9, 0.03, 0.02]
SURE_GREEN = [0.05, 0.03, 0.9, 0.02]
SURE_EMPTY = [0.9, 0.05, 0.03, 0.02]


def read(cells: list[dict[str, float]], votes: list[list[float]], clear: int | None = CLEAR) -> list[int]:
    P = np.array(votes)
    return flat_colours(P.argmax(1), P, photo(cells), NAMES, clear).tolist()


def test_printed_discs_read_as_white_stones_beside_raised_stones_are_empty():
    # a burgundy felt's 45 cream discs read white, beside nine green stones: every disc is empty
    cells = [DISC] * 45 + [GREEN_STONE] * 9
    assert read(cells, [READ_WHITE] * 45 + [SURE_GREEN] * 9) == [EMPTY] * 45 + [GREEN] * 9


def test_white_stones_that_cast_shadows_like_the_others_stay_stones():
    cells = [POCKET] * 30 + [WHITE_STONE] * 6 + [GREEN_STONE] * 6
    votes = [SURE_EMPTY] * 30 + [READ_WHITE] * 6 + [SURE_GREEN] * 6
    assert read(cells, votes) == [EMPTY] * 30 + [WHITE] * 6 + [GREEN] * 6


def test_low_stones_shaded_across_their_body_stay_stones():
    # a weak shadow (a glass set under a lamp) but the body shaded as the others': no print
    cells = [POCKET] * 30 + [LOW_WHITE] * 4 + [GREEN_STONE] * 6
    votes = [SURE_EMPTY] * 30 + [READ_WHITE] * 4 + [SURE_GREEN] * 6
    assert read(cells, votes) == [EMPTY] * 30 + [WHITE] * 4 + [GREEN] * 6


def test_a_colour_the_forest_is_sure_of_stays():
    cells = [DISC] * 20 + [GREEN_STONE] * 9
    assert read(cells, [SURE_WHITE] * 20 + [SURE_GREEN] * 9) == [WHITE] * 20 + [GREEN] * 9


def test_clear_glass_casts_no_shadow_and_stays_stones():
    cells = [POCKET] * 30 + [DISC] * 6 + [GREEN_STONE] * 6
    clear_read = [[0.31, 0.04, 0.08, 0.57]] * 6
    assert read(cells, [SURE_EMPTY] * 30 + clear_read + [SURE_GREEN] * 6) == [EMPTY] * 30 + [CLEAR] * 6 + [GREEN] * 6


def test_without_raised_stones_to_compare_nothing_changes():
    cells = [POCKET] * 30 + [DISC] * 6 + [GREEN_STONE]
    votes = [SURE_EMPTY] * 30 + [READ_WHITE] * 6 + [SURE_GREEN]
    assert read(cells, votes) == [EMPTY] * 30 + [WHITE] * 6 + [GREEN]


def test_discs_that_catch_the_stones_weak_shadows_are_still_flat():
    # light discs on red felt beside glass stones (dev seed 81): the glass casts a weak shadow (4.5)
    # and the discs next to a stone catch some of it (up to 4.2), so a shadow floor fitted to the
    # discs' own noise stood above the stones'; the stones' bodies are shaded across, the discs' not
    near_stone = body(cell(24.0, 4.2, 0.0), 0.5)
    glass = body(cell(-10.0, 4.5, 0.0, lit=2.6), 3.2)
    cells = [DISC] * 33 + [near_stone] * 6 + [glass] * 6
    assert read(cells, [READ_WHITE] * 39 + [SURE_GREEN] * 6) == [EMPTY] * 39 + [GREEN] * 6


def test_stones_shaded_like_the_discs_need_the_shadow_floor():
    # the same weak shadows, but the colour's bodies are shaded like the others': not told apart by
    # their shading, so a shadow under the floor says nothing and they stay stones
    low_white = body(cell(24.0, 1.2, 0.0, lit=2.6), 3.0)
    near_stone = body(cell(24.0, 4.2, 0.0, lit=2.6), 3.0)
    glass = body(cell(-10.0, 4.5, 0.0, lit=2.6), 3.2)
    cells = [low_white] * 33 + [near_stone] * 6 + [glass] * 6
    assert read(cells, [READ_WHITE] * 39 + [SURE_GREEN] * 6) == [WHITE] * 39 + [GREEN] * 6


def unlike(cells: list[dict[str, float]], votes: list[list[float]], flat: list[bool] | None = None) -> list[int]:
    P = np.array(votes)
    emptied = np.array(flat if flat is not None else [False] * len(cells))
    return stones_unlike_the_pockets(P.argmax(1), P, P, photo(cells), NAMES, emptied).tolist()


CAP = body(cell(0.0, 1.0, 0.0), 7.0)  # an empty cap pocket: the board's colour, the cup shaded
PALE_WHITE = dict(body(cell(-2.0, 3.5, 0.0), 0.8), da=9.7, db=-10.6)  # a white disc under a lamp, read empty
LEAN_EMPTY_WHITE = [0.58, 0.25, 0.07, 0.1]


def test_pockets_that_stand_far_in_colour_from_the_sure_empty_look_are_stones():
    cells = [CAP] * 14 + [PALE_WHITE] * 6 + [GREEN_STONE] * 4
    votes = [SURE_EMPTY] * 14 + [LEAN_EMPTY_WHITE] * 6 + [SURE_GREEN] * 4
    assert unlike(cells, votes) == [EMPTY] * 14 + [WHITE] * 6 + [GREEN] * 4


def test_pockets_the_forest_is_sure_of_stay_empty_however_far_their_colour():
    # a light gradient moves empty pockets away from the look: the forest does not doubt them
    lit_cap = dict(CAP, da=9.7, db=-10.6)
    cells = [CAP] * 14 + [lit_cap] * 6
    votes = [SURE_EMPTY] * 14 + [[0.85, 0.1, 0.03, 0.02]] * 6
    assert unlike(cells, votes) == [EMPTY] * 20


def test_too_few_pockets_far_from_the_look_say_nothing():
    cells = [CAP] * 14 + [PALE_WHITE] * 3
    votes = [SURE_EMPTY] * 14 + [LEAN_EMPTY_WHITE] * 3
    assert unlike(cells, votes) == [EMPTY] * 17


def test_pockets_at_every_distance_from_the_look_are_a_light_not_stones():
    # drilled pockets on red paint under a lamp (sage-stones_45010): the light moves the pockets away
    # from the sure ones' look by every amount, and the farthest, which the forest doubts, are no group
    cells = [CAP] * 14 + [dict(CAP, da=float(k), db=-float(k)) for k in range(2, 12)]
    votes = [SURE_EMPTY] * 14 + [[0.85, 0.1, 0.03, 0.02]] * 6 + [LEAN_EMPTY_WHITE] * 4
    assert unlike(cells, votes) == [EMPTY] * 24


def test_the_discs_found_flat_show_the_empty_look_the_forest_was_not_sure_of():
    # light discs on red felt, found flat (`flat_colours`) though the forest leant white on them: they
    # are the empty look, and the red stones on the red felt, read empty, stand far from it
    red_on_red = dict(body(cell(2.5, 3.7, 0.0, lit=2.6), 2.1), da=-3.6, db=-4.9)
    cells = [DISC] * 30 + [red_on_red] * 6 + [GREEN_STONE] * 4
    votes = [[0.6, 0.35, 0.03, 0.02]] * 30 + [[0.69, 0.05, 0.24, 0.02]] * 6 + [SURE_GREEN] * 4
    flat = [True] * 30 + [False] * 10
    assert unlike(cells, votes, flat) == [EMPTY] * 30 + [GREEN] * 6 + [GREEN] * 4
    assert unlike(cells, votes) == [EMPTY] * 36 + [GREEN] * 4  # no pocket the forest is sure of: no look


def test_a_flat_colour_beside_stones_read_empty_is_the_pockets():
    # dark discs printed on cream paper, all read black, and the board's three blue stones read empty:
    # no other colour is read, so the raised cells read empty are the stones the discs are flat beside
    dark_disc = body(cell(-71.0, 0.3, 0.0), 0.05)
    blue = body(cell(-53.0, 5.7, 0.0, lit=2.6), 6.4)
    cells = [dark_disc] * 30 + [blue] * 3
    votes = [[0.32, 0.47, 0.19, 0.02]] * 30 + [[0.43, 0.1, 0.17, 0.3]] * 3
    assert read(cells, votes) == [EMPTY] * 33
