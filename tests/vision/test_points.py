"""Rings' two kinds of point (`refine.onto_the_points`): on a fit that lies on the points the up
and down points look alike; a fit a third of a triangle off is moved onto them."""

from __future__ import annotations

import cv2
import numpy as np

from fit_error import error_units, view
from vision.layouts import get_layout, ring_circles
from vision.pipeline import off_the_points
from vision.evidence import support_lab
from vision.refine import onto_the_board, onto_the_points, point_kinds, point_look_gap, third_steps, whole_steps

RINGS = get_layout("rings")
SCALE = 40.0  # pixels per board unit in the made-up photo


def _drawn_board(truth: np.ndarray, ink: tuple[int, int, int] = (40, 50, 90)) -> np.ndarray:
    """A cream board on a grey table seen through `truth`: circles through the points and a dot
    at every point in `ink` (dark: a printed rings board; a shade of the board: grooves)."""
    size = (1000, 1300)
    img = np.full((*size, 3), 120, np.uint8)
    to_px = lambda pts: cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), truth).reshape(-1, 2)  # noqa: E731
    cv2.fillPoly(img, [np.round(to_px(RINGS.outline)).astype(np.int32)], (200, 228, 238))
    full, partial = ring_circles()
    ring = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    for q, r in full + partial:
        centre = np.array([q + r / 2, r * np.sqrt(3) / 2])
        circle = centre + np.c_[np.cos(ring), np.sin(ring)] / np.sqrt(3)
        cv2.polylines(img, [np.round(to_px(circle)).astype(np.int32)], True, ink, 2, cv2.LINE_AA)
    for x, y in to_px(RINGS.xy):
        cv2.circle(img, (int(round(x)), int(round(y))), 4, ink, -1, cv2.LINE_AA)
    return img


def test_up_and_down_points_look_alike_on_the_points_and_unlike_a_third_off():
    truth = view(20.0, 10.0, SCALE, centre=(650.0, 500.0))
    img = _drawn_board(truth)
    up = point_kinds(RINGS)
    assert up is not None
    assert point_look_gap(img, truth, RINGS, up) < 2.0
    off = truth @ np.array([[1.0, 0, third_steps()[0][0]], [0, 1.0, third_steps()[0][1]], [0, 0, 1]])
    assert point_look_gap(img, off, RINGS, up) > 20.0


def test_a_fit_a_third_of_a_triangle_off_is_moved_onto_the_points():
    truth = view(20.0, 10.0, SCALE, centre=(650.0, 500.0))
    img = _drawn_board(truth)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    for dx, dy in third_steps()[:2]:
        off = truth @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1]])
        assert error_units(onto_the_points(img, gray, off, RINGS), truth, "rings") < 0.05
    # a fit on the points stays where it is
    assert onto_the_points(img, gray, truth, RINGS) is truth
    assert point_kinds(get_layout("morris")) is None


def test_a_reading_off_the_points_is_checked_whole():
    # a fit still off the points after the search (`onto_the_points`) is read no surer than RENAMED_CONFIDENCE
    truth = view(20.0, 10.0, SCALE, centre=(650.0, 500.0))
    img = _drawn_board(truth)
    off = truth @ np.array([[1.0, 0, third_steps()[3][0]], [0, 1.0, third_steps()[3][1]], [0, 0, 1]])
    assert off_the_points(img, off, RINGS) and not off_the_points(img, truth, RINGS)
    assert not off_the_points(img, truth, get_layout("morris"))


def test_a_fit_whole_steps_off_is_moved_onto_the_board_by_its_outline():
    # Blender 117006, 119000: rings fits 1 and 3 whole circle steps off, grooved circles running off the board onto
    # a striped table that shows ink: of the fit moved by whole steps, the one whose outline shows a clean edge
    # is on the board (`refine.onto_the_board`)
    truth = view(20.0, 10.0, SCALE * 0.8, centre=(650.0, 500.0))
    img = _drawn_board(truth, ink=(170, 200, 212))  # grooves a shade darker than the board
    table = np.all(img == 120, axis=2)  # a striped table: wide, mild stripes
    stripes = (np.arange(img.shape[0]) // 40 % 2 == 0)[:, None] & table
    img[stripes] = (104, 112, 120)
    mid, to_mid = img, np.eye(3)
    lab = support_lab(mid)
    for step in (whole_steps("rings")[1], whole_steps("rings")[-1]):  # one step, and three
        off = truth @ np.array([[1.0, 0, step[0]], [0, 1.0, step[1]], [0, 0, 1]])
        assert error_units(off, truth, "rings") > 0.9
        assert error_units(onto_the_board(mid, lab, to_mid, off, RINGS), truth, "rings") < 0.01
    # a fit on the board stays where it is, and a morris fit is not walked by rings' steps
    assert onto_the_board(mid, lab, to_mid, truth, RINGS) is truth
    assert onto_the_board(mid, lab, to_mid, truth, get_layout("morris")) is truth
