import numpy as np

from vision.missing import chance_missing, colour_looks, missing_colour_found
from vision.tuning import RENAMED_CONFIDENCE

BOX = {"black": 30, "white": 30, "clear": 12}


def _board(rng: np.random.Generator, stones: np.ndarray, tint: float) -> tuple[np.ndarray, np.ndarray]:
    """Eighty cells on a 9x9 grid's places: colour rows (L, a, b) of pockets, with `stones` tinted by `tint` in b."""
    where = np.array([(x, y) for y in range(9) for x in range(9)], float)[:80]
    feats = np.zeros((80, 3))
    feats[:, 0] = 60 + rng.normal(0, 0.5, 80)
    feats[:, 1] = rng.normal(0, 0.5, 80)
    feats[:, 2] = 20 + rng.normal(0, 0.5, 80)
    feats[stones, 2] -= tint
    return feats, where


def test_a_box_leaves_a_colour_out_of_a_large_draw_almost_never():
    assert chance_missing("white", 40, BOX) < 1e-6
    assert chance_missing("clear", 3, BOX) > 0.5
    assert chance_missing("white", 10, {}) == 1.0


def test_two_colour_looks_need_no_floor_on_their_distance_only_to_stand_clear_of_their_spread():
    rng = np.random.default_rng(0)
    x = np.r_[rng.normal(0, 0.3, (20, 3)), rng.normal(0, 0.3, (20, 3)) + [0, 0, 5]]
    side = colour_looks(x)
    assert side is not None and side[20:].all() != side[:20].all()
    assert colour_looks(rng.normal(0, 1.0, (40, 3))) is None


def _read(stones_white: bool):
    rng = np.random.default_rng(1)
    white = rng.choice(80, 25, replace=False)
    rest = np.setdiff1d(np.arange(80), white)
    black, empty_cells = rest[:20], rest[20:]
    feats, where = _board(rng, white, 8.0)
    labels: list[str | None] = [None] * 80
    for i in black:
        labels[i] = "black"
    if stones_white:
        for i in white[:3]:
            labels[i] = "white"
    share = np.full(80, 0.99)
    share[white] = 0.8  # the forest doubts the stones it reads empty more than the pockets
    share[black] = 0.05
    return white, empty_cells, missing_colour_found(labels, [0.9] * 80, feats, share, BOX, where)


def test_stones_of_a_colour_the_reading_leaves_out_are_the_empty_look_the_forest_doubts_more():
    white, empty_cells, (labels, conf) = _read(stones_white=False)
    assert all(labels[i] == "white" and conf[i] <= RENAMED_CONFIDENCE for i in white)
    assert all(labels[i] is None for i in empty_cells)


def test_with_every_colour_read_the_empty_looks_are_left_alone():
    white, _, (labels, _) = _read(stones_white=True)
    assert sum(labels[i] == "white" for i in white) == 3


def test_two_empty_looks_in_two_regions_are_a_lamps_halves_not_stones():
    rng = np.random.default_rng(2)
    half = np.arange(25)  # the bottom rows of the board, in a lamp's dark corner: as many as a box colour
    feats, where = _board(rng, half, 8.0)
    labels: list[str | None] = [None] * 80
    for i in range(40, 60):
        labels[i] = "black"
    share = np.full(80, 0.99)
    share[half] = 0.9
    new, _ = missing_colour_found(labels, [0.9] * 80, feats, share, BOX, where)
    assert new == labels
