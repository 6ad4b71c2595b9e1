"""How far a board fit is from the true one, for the detection tests."""

from __future__ import annotations

import cv2
import numpy as np

from vision.layouts import get_layout


def error_units(H: np.ndarray, truth: np.ndarray, game: str) -> float:
    """How far H puts the board's locations from where the truth does (board units), under
    the board's best symmetry."""
    layout = get_layout(game)
    back = np.linalg.inv(truth)
    best = np.inf
    for S in layout.symmetries:
        p = cv2.perspectiveTransform((layout.xy @ S.T).reshape(-1, 1, 2), H)
        best = min(best, float(np.abs(cv2.perspectiveTransform(p, back).reshape(-1, 2) - layout.xy).max()))
    return best


def view(tilt_deg: float, turn_deg: float, scale: float, centre=(800.0, 620.0)) -> np.ndarray:
    """A homography board units -> pixels: the board turned, then seen at a slant (the far side
    smaller), as a phone above a table sees it."""
    a, b = np.radians(turn_deg), np.radians(tilt_deg)
    turn = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
    flip = np.diag([scale, -scale, 1.0])  # board y up, pixels y down
    slant = np.array([[1, 0, 0], [0, np.cos(b), 0], [0, -np.sin(b) / 900.0, 1.0]])
    move = np.array([[1, 0, centre[0]], [0, 1, centre[1]], [0, 0, 1.0]])
    H = move @ slant @ flip @ turn
    return H / H[2, 2]
