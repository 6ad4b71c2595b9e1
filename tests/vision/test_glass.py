"""Clear glass stones read empty, found per photo as a tight group of darker pockets
(`vision.glass`), on made-up features and votes."""

from __future__ import annotations

import numpy as np

from vision.classify import feature_names
from vision.glass import missed_glass

NAMES = feature_names()
EMPTY, BLACK, WHITE, CLEAR = 0, 1, 2, 3  # columns of the votes: empty, then three-stones' palette
BARE = (1.8, -1.5)  # a bare pocket's lightness against the board, at its centre and its rim
GLASS = (-11.2, -17.9)  # a pocket seen through a clear dome: darker at both
LEANS_EMPTY = [0.43, 0.01, 0.3, 0.26]  # the forest's votes on a clear stone it reads empty
SURE_EMPTY = [0.91, 0.0, 0.08, 0.01]


def read(looks: list[tuple[float, float]], votes: list[list[float]], room: int = 12, seed: int = 0) -> list[int]:
    """The classes after `missed_glass`, the looks given a little noise."""
    rng = np.random.default_rng(seed)
    F = np.zeros((len(looks), len(NAMES)), np.float32)
    F[:, NAMES.index("dL")] = [dL for dL, _ in looks] + rng.normal(0, 1.0, len(looks))
    F[:, NAMES.index("dL_out")] = [rim for _, rim in looks] + rng.normal(0, 1.0, len(looks))
    P = np.array(votes)
    return missed_glass(P.argmax(1), P, F, NAMES, CLEAR, room).tolist()


def test_a_tight_darker_group_read_empty_is_clear_glass():
    assert read([BARE] * 25 + [GLASS] * 6, [SURE_EMPTY] * 25 + [LEANS_EMPTY] * 6) == [EMPTY] * 25 + [CLEAR] * 6


def test_a_group_bigger_than_the_clear_stones_left_in_the_box_stays_empty():
    assert read([BARE] * 25 + [GLASS] * 6, [SURE_EMPTY] * 25 + [LEANS_EMPTY] * 6, room=5) == [EMPTY] * 31


def test_a_group_the_forest_leans_no_more_to_clear_on_stays_empty():
    # pockets in a shadow are darker too, but the forest sees nothing of glass in them
    assert read([BARE] * 25 + [GLASS] * 6, [SURE_EMPTY] * 31) == [EMPTY] * 31


def test_pockets_across_a_lights_gradient_are_no_two_groups():
    # a window's light falling off across the board: the empty pockets spread out, not in two groups
    gradient = [(2.0 - 0.6 * k, -1.0 - 0.8 * k) for k in range(31)]
    assert read(gradient, [SURE_EMPTY] * 25 + [LEANS_EMPTY] * 6) == [EMPTY] * 31
