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
