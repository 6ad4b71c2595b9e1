"""Pocket boards found by the lattice of their round marks (`vision.lattice`), not by standing
out from the table."""

from __future__ import annotations

import cv2
import numpy as np

from fit_error import error_units, view as _view
from vision.detect import find_board
from vision.layouts import get_layout
from vision.lattice import board_hypotheses, lattices, lattices_of
from vision.marks import grid_fit
from vision.pipeline import _accept, detection_pool

W, H_PX = 1600, 1200


def _pocket_board_on_its_own_wood(game: str, H: np.ndarray, seed: int) -> np.ndarray:
    """A photo of a pocket board on a table of the same wood: the board's edge does not show,
    only its pockets (shaded dimples) and a few stones in them."""
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
    for (x, y) in layout.xy:
        cx, cy = (C @ [x, y, 1.0])[:2]
        r = 0.42 * s
        # a dimple lit from the top left: the upper left rim dark, the lower right light
        cv2.circle(canvas, (int(cx), int(cy)), int(r), tuple(float(v) for v in wood * 0.95), -1, cv2.LINE_AA)
        cv2.ellipse(canvas, (int(cx), int(cy)), (int(r), int(r)), 0, 180, 270, tuple(float(v) for v in wood * 0.55), 4, cv2.LINE_AA)
        cv2.ellipse(canvas, (int(cx), int(cy)), (int(r), int(r)), 0, 0, 90, tuple(float(v) for v in np.minimum(wood * 1.15, 255)), 4, cv2.LINE_AA)
        if rng.random() < 0.3:
            tone = (25, 25, 30) if rng.random() < 0.5 else (235, 235, 230)
            cv2.circle(canvas, (int(cx), int(cy)), int(0.38 * s), tone, -1, cv2.LINE_AA)
    photo = cv2.warpPerspective(canvas, H @ np.linalg.inv(C), (W, H_PX), borderMode=cv2.BORDER_REPLICATE)
    photo += rng.normal(0, 3, photo.shape).astype(np.float32)
    return np.clip(photo, 0, 255).astype(np.uint8)


def test_a_lattice_is_grown_through_gaps_and_past_stray_marks() -> None:
    rng = np.random.default_rng(5)
    truth = _view(35.0, 20.0, 30.0, centre=(200.0, 160.0))
    lattice_pts = np.array([(i, j) for i in range(-4, 5) for j in range(-4, 5)], np.float64)
    kept = lattice_pts[rng.random(len(lattice_pts)) > 0.25]           # a quarter of the pockets faint
    marks = cv2.perspectiveTransform(kept.reshape(-1, 1, 2), truth).reshape(-1, 2)
    marks += rng.normal(0, 0.8, marks.shape)                           # found to a pixel or so
    stray = rng.uniform((0, 0), (400, 300), (40, 2))                   # the table's own pattern
    pts = np.vstack([marks, stray])
    order = rng.permutation(len(pts))
    found = lattices_of(pts[order], np.ones(len(pts)))
    assert found
    lat = max(found, key=lambda lt: len(lt.coords))
    assert len(lat.coords) >= 0.9 * len(kept)
    # the lattice's points land on the true lattice's, whatever numbering it chose
    found = cv2.perspectiveTransform(lat.coords.astype(np.float64).reshape(-1, 1, 2), lat.G).reshape(-1, 2)
    back = cv2.perspectiveTransform(found.reshape(-1, 1, 2), np.linalg.inv(truth)).reshape(-1, 2)
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


def test_no_lattice_in_a_photo_of_no_board() -> None:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.uniform(0, 255, (300, 400)).astype(np.float32), (0, 0), 3.0)
    found = lattices(noise)
    layout = get_layout("three-stones")
    for lat in found:
        for score, H in board_hypotheses(lat, layout):
            assert grid_fit(noise, H, layout).evidence < 0.5
