"""The photo's own looks in the cell classifier (`photo_adapt`), on made-up features and votes."""

from __future__ import annotations

import numpy as np

from vision.classify import LOOK, MIN_LOOK, feature_names, photo_adapt

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


def test_a_cell_unlike_every_look_keeps_the_forests_answer():
    F = photo([BOARD] * 12 + [STONE] * 5 + [np.full(len(LOOK), 90.0)])
    P = np.array([[0.95, 0.05, 0.0]] * 12 + [[0.05, 0.95, 0.0]] * 5 + [[0.4, 0.6, 0.0]])
    assert photo_adapt(P, F).argmax(1)[-1] == WHITE
