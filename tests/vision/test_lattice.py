"""Pocket boards found by the lattice of their round marks (`vision.lattice`), not by standing
out from the table."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from fit_error import error_units, view as _view
from vision.detect import find_board
from vision.layouts import get_layout
from vision.lattice import board_hypotheses, lattices, lattices_of
from vision.marks import _weakest_side, end_for_end, grid_fit, mark_grid
from vision.pipeline import _accept, detection_pool
from vision.tuning import MIN_WEAKEST_SIDE

W, H_PX = 1600, 1200


def _pocket_board_on_its_own_wood(
    game: str,
    H: np.ndarray,
    seed: int,
    rim: float = 1.0,
    stones: float = 0.3,
    shade: float = 0.95,
    bare_row: float | None = None,
) -> np.ndarray:
    """A photo of a pocket board on a table of the same wood: the board's edge does not show,
    only its pockets (dimples of `shade` times the wood's light, their rims `rim` as clear as
    usual) and a few stones in them (each pocket holds one with the chance `stones`, none on the
    row at `bare_row`, board units)."""
    rng = np.random.default_rng(seed)
    layout = get_layout(game)
    s = 60.0  # canonical pixels per board unit
    x0, y0, x1, y1 = layout.bounds()
    pad = 14.0
    C = np.array([[s, 0, (pad - x0) * s], [0, -s, (y1 + pad) * s], [0, 0, 1.0]])
    cw, ch = int((x1 - x0 + 2 * pad) * s), int((y1 - y0 + 2 * pad) * s)
    wood = np.array([150, 190, 225], np.float32)
    canvas = np.empty((ch, cw, 3), np.float32)
    canvas[:] = wood
    # grain: stripes across board and table alike
    stripes = 12 * np.sin(np.arange(ch)[:, None] / 7.0 + rng.uniform(0, 6)) * np.ones((1, cw))
    canvas += stripes[..., None]
    for x, y in layout.xy:
        cx, cy = (C @ [x, y, 1.0])[:2]
        r = 0.42 * s
        # a dimple lit from the top left: the upper left rim dark, the lower right light
        cv2.circle(canvas, (int(cx), int(cy)), int(r), tuple(float(v) for v in wood * shade), -1, cv2.LINE_AA)
        dark, light = wood * (1 - 0.45 * rim), np.minimum(wood * (1 + 0.15 * rim), 255)
        cv2.ellipse(
            canvas, (int(cx), int(cy)), (int(r), int(r)), 0, 180, 270, tuple(float(v) for v in dark), 4, cv2.LINE_AA
        )
        cv2.ellipse(
            canvas, (int(cx), int(cy)), (int(r), int(r)), 0, 0, 90, tuple(float(v) for v in light), 4, cv2.LINE_AA
        )
        if rng.random() < stones and y != bare_row:
            tone = (25, 25, 30) if rng.random() < 0.5 else (235, 235, 230)
            cv2.circle(canvas, (int(cx), int(cy)), int(0.38 * s), tone, -1, cv2.LINE_AA)
    photo = cv2.warpPerspective(canvas, H @ np.linalg.inv(C), (W, H_PX), borderMode=cv2.BORDER_REPLICATE)
    photo = photo + np.asarray(rng.normal(0, 3, photo.shape)).astype(np.float32)
    return np.clip(photo, 0, 255).astype(np.uint8)


def test_a_lattice_is_grown_through_gaps_and_past_stray_marks() -> None:
    rng = np.random.default_rng(5)
    truth = _view(35.0, 20.0, 30.0, centre=(200.0, 160.0))
    lattice_pts = np.array([(i, j) for i in range(-4, 5) for j in range(-4, 5)], np.float64)
    kept = lattice_pts[rng.random(len(lattice_pts)) > 0.25]  # a quarter of the pockets faint
    marks: np.ndarray = cv2.perspectiveTransform(kept.reshape(-1, 1, 2), truth).reshape(-1, 2)
    marks = marks + rng.normal(0, 0.8, marks.shape)  # found to a pixel or so
    stray = rng.uniform((0, 0), (400, 300), (40, 2))  # the table's own pattern
    pts = np.vstack([marks, stray])
    order = rng.permutation(len(pts))
    found = lattices_of(pts[order], np.ones(len(pts)))
    assert found
    lat = max(found, key=lambda lt: len(lt.coords))
    assert len(lat.coords) >= 0.9 * len(kept)
    # the lattice's points land on the true lattice's, whatever numbering it chose
    on_photo = cv2.perspectiveTransform(lat.coords.astype(np.float64).reshape(-1, 1, 2), lat.G).reshape(-1, 2)
    back = cv2.perspectiveTransform(on_photo.reshape(-1, 1, 2), np.linalg.inv(truth)).reshape(-1, 2)
    assert np.abs(back - np.round(back)).max() < 0.1


def test_the_board_is_laid_on_the_lattice_where_its_marks_are() -> None:
    layout = get_layout("three-stones")
    truth = _view(30.0, -15.0, 28.0, centre=(220.0, 170.0))
    marks = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), truth).reshape(-1, 2)
    pts = np.vstack([marks, marks[:9] + 10 * 28.0])  # spare stones far off, on no lattice point of the board
    lat = max(lattices_of(pts, np.ones(len(pts))), key=lambda lt: len(lt.coords))
    score, H = board_hypotheses(lat, layout)[0]
    assert score > 0.9
    assert error_units(H, truth, "three-stones") < 0.05


def test_a_pocket_board_on_a_table_of_its_own_wood_is_found_by_its_pockets() -> None:
    for game, seed, (tilt, turn) in (("three-stones", 1, (30.0, 25.0)), ("sage-stones", 2, (20.0, -70.0))):
        truth = _view(tilt, turn, 75.0)
        photo = _pocket_board_on_its_own_wood(game, truth, seed)
        small_scale = 400 / W
        small = cv2.resize(photo, None, fx=small_scale, fy=small_scale, interpolation=cv2.INTER_AREA)
        assert lattices(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)), game
        det = find_board(photo, get_layout(game), detection_pool())
        assert error_units(det.H, truth, game) < 0.15, game
        assert _accept(det, game), game


def test_faint_pockets_beside_strong_stones_are_a_board_a_smaller_board_is_not() -> None:
    # printed pockets barely darker than the board, strong stones in a third of them: a share of
    # the faint pockets shows no clear round edge beside the stones', scattered over the board
    truth = _view(30.0, 15.0, 75.0)
    photo = _pocket_board_on_its_own_wood("three-stones", truth, 6, rim=0.03, stones=0.4, shade=0.985)
    det = find_board(photo, get_layout("three-stones"), detection_pool())
    assert error_units(det.H, truth, "three-stones") < 0.15
    assert det.present < 0.9  # the misses are there: a tenth of the pockets and more ...
    assert _accept(det, "three-stones")  # ... but scattered: the board is read
    # a sage-stones board inside three-stones' fit misses whole columns at its sides
    sage = _pocket_board_on_its_own_wood("sage-stones", _view(25.0, -30.0, 75.0), 9, stones=0.4)
    det = find_board(sage, get_layout("three-stones"), detection_pool())
    assert det.weakest_side < MIN_WEAKEST_SIDE
    assert not _accept(det, "three-stones")


def test_a_side_of_faint_empty_pockets_beside_strong_stones_is_the_boards() -> None:
    # faint pockets, strong stones in most of them and none on the last row (Blender seed 115's
    # sage-stones_b115002: cone pockets, glass stones): the stones lift the marks' typical round edge
    # far above the empty row's, which showed 0.23 of it, and the board was refused though the fit
    # was right; most of that row's pockets show a clear round edge, scattered misses
    truth = _view(30.0, 15.0, 75.0)
    photo = _pocket_board_on_its_own_wood("sage-stones", truth, 2, rim=0.03, stones=0.6, shade=0.985, bare_row=-4.0)
    det = find_board(photo, get_layout("sage-stones"), detection_pool())
    assert error_units(det.H, truth, "sage-stones") < 0.15
    assert det.present < 0.9
    assert det.weakest_side >= MIN_WEAKEST_SIDE
    assert _accept(det, "sage-stones")


def test_the_weakest_side_is_its_share_of_marks_shown_or_its_typical_edge() -> None:
    grid = mark_grid("sage-stones")
    assert grid is not None
    at_marks = np.ones(len(grid.points))
    shown = np.ones(len(grid.points), bool)
    row = grid.edge_lines[3]
    at_marks[row], shown[row[:2]] = 0.2, False  # a faint side, two of its marks missed ...
    assert _weakest_side(shown, at_marks, grid) == pytest.approx(1 - 2 / len(row))
    shown[row] = False  # ... all of them missed, its edge still a fifth of the typical one
    assert _weakest_side(shown, at_marks, grid) == pytest.approx(0.2)


def test_no_lattice_in_a_photo_of_no_board() -> None:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.uniform(0, 255, (300, 400)).astype(np.float32), (0, 0), 3.0)
    found = lattices(noise)
    layout = get_layout("three-stones")
    for lat in found:
        for _score, H in board_hypotheses(lat, layout):
            assert grid_fit(noise, H, layout).evidence < 0.5


def test_the_lattice_steps_come_from_the_pockets_not_the_board_between_them() -> None:
    # cap pockets at a slant: the board between four pockets shows a weaker round edge here and
    # there, half a diagonal step from each; a step read from those would lay a finer lattice
    rng = np.random.default_rng(11)
    truth = _view(32.0, 4.0, 20.0, centre=(200.0, 170.0))
    layout = get_layout("three-stones")
    pockets = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), truth).reshape(-1, 2)
    between = np.array([(i + 0.5, j + 0.5) for i in range(-4, 4) for j in range(-4, 4)], np.float64)
    between = between[rng.random(len(between)) < 0.4]
    islands = cv2.perspectiveTransform(between.reshape(-1, 1, 2), truth).reshape(-1, 2)
    pts = np.vstack([pockets, islands]) + rng.normal(0, 0.5, (len(pockets) + len(islands), 2))
    val = np.concatenate([rng.uniform(0.8, 1.0, len(pockets)), rng.uniform(0.3, 0.5, len(islands))])
    order = np.argsort(-val)  # marks come strongest first
    lat = max(lattices_of(pts[order], val[order]), key=lambda lt: len(lt.coords))
    on_photo = cv2.perspectiveTransform(lat.coords.astype(np.float64).reshape(-1, 1, 2), lat.G).reshape(-1, 2)
    back = cv2.perspectiveTransform(on_photo.reshape(-1, 1, 2), np.linalg.inv(truth)).reshape(-1, 2)
    assert np.abs(back - np.round(back)).max() < 0.1  # on the pockets' lattice, none half a step off
    assert len(lat.coords) >= 0.9 * len(pockets)


def test_a_board_whose_pockets_show_weakly_is_laid_where_all_of_them_are() -> None:
    # only the pockets of one corner of the board show clear rims (and a few stones): several
    # ways of laying the board cover those marks alike, and the faint pockets tell which is right
    # (taken by the marks alone, a fit five pockets off was accepted)
    truth = _view(30.0, 10.0, 75.0)
    layout = get_layout("three-stones")
    photo = _pocket_board_on_its_own_wood("three-stones", truth, 4)
    faint = _pocket_board_on_its_own_wood("three-stones", truth, 4, rim=0.3, stones=0.0)
    shown = (layout.xy[:, 0] < -0.5) & (layout.xy[:, 1] < 0.5)
    mask = np.zeros(photo.shape[:2], np.float32)
    for x, y in cv2.perspectiveTransform(layout.xy[shown].reshape(-1, 1, 2), truth).reshape(-1, 2):
        cv2.circle(mask, (int(x), int(y)), 40, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 6)[..., None]
    photo = np.clip(photo * mask + faint * (1 - mask), 0, 255).astype(np.uint8)
    det = find_board(photo, layout, detection_pool())
    assert error_units(det.H, truth, "three-stones") < 0.15
    assert _accept(det, "three-stones")


def test_sage_stones_turned_end_for_end_onto_its_lattice_keeps_its_outline():
    # why the outline cannot tell this way of laying the board (`marks.numbers_row_gain`): its locations land on
    # lattice points, row 1 where the far row's neighbour was, and its outline within 0.02 units of its own
    layout = get_layout("sage-stones")
    T = end_for_end(layout)
    moved = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), T).reshape(-1, 2)
    assert np.allclose(moved, np.round(moved))
    row1, far = layout.xy[:, 1].min(), layout.xy[:, 1].max()
    assert set(np.round(moved[layout.xy[:, 1] == row1, 1])) == {far - 1}
    outline = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), T).reshape(-1, 2)
    assert np.abs(np.sort(outline, 0) - np.sort(layout.outline, 0)).max() < 0.03
