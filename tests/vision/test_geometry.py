"""Geometry the reading relies on: the plane a stone's body shows in, and a drawn board found
by its drawing alone."""

from __future__ import annotations

import cv2
import numpy as np

from vision.camera import raised
from vision.detect import find_board
from vision.layouts import get_layout
from vision.pipeline import detection_pool
from vision.tuning import MIN_EVIDENCE

W, H_PX = 1600, 1200


def _camera(tilt_deg: float, turn_deg: float, focal: float = 1400.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """K, R, t of a phone looking down at the board from 12 units away, tilted and turned."""
    K = np.array([[focal, 0, W / 2], [0, focal, H_PX / 2], [0, 0, 1.0]])
    a, b = np.radians(tilt_deg), np.radians(turn_deg)
    turn = np.array([[np.cos(b), -np.sin(b), 0], [np.sin(b), np.cos(b), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, np.cos(a), -np.sin(a)], [0, np.sin(a), np.cos(a)]])
    flip = np.diag([1.0, -1.0, -1.0])  # board y up, z up toward the camera; camera y down, z ahead
    R = tilt @ flip @ turn
    t = np.array([0.0, 0.0, 12.0])
    return K, R, t


def _plane(K: np.ndarray, R: np.ndarray, t: np.ndarray, z: float) -> np.ndarray:
    H = K @ np.column_stack([R[:, 0], R[:, 1], R[:, 2] * z + t])
    return H / H[2, 2]


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)


def test_raised_plane_is_where_the_camera_sees_points_above_the_board() -> None:
    pts = np.array([[0.0, 0.0], [3.0, 0.0], [-2.0, 2.5], [1.0, -3.0]])
    for tilt, turn in ((0.0, 0.0), (15.0, 0.0), (25.0, 30.0), (40.0, -110.0)):
        K, R, t = _camera(tilt, turn)
        foot, body = _plane(K, R, t, 0.0), _plane(K, R, t, 0.3)
        lifted = raised(foot, (H_PX, W), 0.3)
        shift = np.abs(_project(body, pts) - _project(foot, pts)).max()
        assert shift > 8  # pixels: what the lift is about
        # straight down the distance (so the focal length) is a guess: within a tenth of the shift
        assert np.abs(_project(lifted, pts) - _project(body, pts)).max() < 0.1 * shift
    assert raised(foot, (H_PX, W), 0.0) is foot


def test_a_drawn_board_on_a_table_of_its_own_wood_is_found_by_its_drawing() -> None:
    # No colour, texture or outline tells this board from the table: only the drawn squares do.
    layout = get_layout("morris")
    K, R, t = _camera(30.0, 20.0)
    H = _plane(K, R, t, 0.0)
    rng = np.random.default_rng(5)
    plain = np.empty((H_PX, W, 3), np.uint8)
    plain[:] = (70, 130, 185)
    img = np.clip(plain + rng.normal(0, 4, plain.shape), 0, 255).astype(np.uint8)
    segments = []
    for s in (3, 2, 1):
        c = [(-s, -s), (s, -s), (s, s), (-s, s)]
        segments += [(c[i], c[(i + 1) % 4]) for i in range(4)]
    segments += [((0, -3), (0, -1)), ((0, 1), (0, 3)), ((-3, 0), (-1, 0)), ((1, 0), (3, 0))]
    for a, b in segments:
        p, q = _project(H, np.array([a, b], float))
        cv2.line(img, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), (25, 30, 40), 3, cv2.LINE_AA)
    det = find_board(img, layout, detection_pool())
    assert det.evidence >= MIN_EVIDENCE["morris"]
    found = _project(det.H, layout.xy)
    truth = _project(H, layout.xy)
    # the same points up to the board's turns and flips
    assert min(np.abs(_project(det.H, layout.xy @ S.T) - truth).max() for S in layout.symmetries) < 6
    assert found.shape == truth.shape
