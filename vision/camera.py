"""The camera model of board detection: what a phone's pinhole camera can make of a flat board.

A fit is a homography `H` (the usual name in this maths: board units -> image pixels).  A real
camera with square pixels and a centred principal point makes only some of them: `camera_error`
says how far a fit is from the nearest, `plausible` keeps the candidates such a camera could
have made, and `raised` gives the plane a little above the board (where a stone's body shows).
"""

from __future__ import annotations

import cv2
import numpy as np

from .layouts import Layout
from .segment import signed_area
from .tuning import (
    FOCAL_RANGE,
    MAX_CAMERA_ERROR_CANDIDATE,
    MAX_OUTLINE_AREA,
    MIN_OUTLINE_AREA,
    PHONE_FOCAL,
    SAME_CAMERA,
)


def _camera_fits(H: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Focal lengths of a phone's range and, for each, how far the homography is from a real
    pinhole camera with it looking at a flat board (square pixels, centred principal point)."""
    h, w = shape[:2]
    focal = FOCAL_RANGE * max(w, h)
    col1, col2 = H[:, 0], H[:, 1]
    # K^-1 times each of the first two columns, for every focal length at once
    a = np.stack(
        [(col1[0] - w / 2 * col1[2]) / focal, (col1[1] - h / 2 * col1[2]) / focal, np.full_like(focal, col1[2])], 1
    )
    b = np.stack(
        [(col2[0] - w / 2 * col2[2]) / focal, (col2[1] - h / 2 * col2[2]) / focal, np.full_like(focal, col2[2])], 1
    )
    norm_a, norm_b = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    err = np.full_like(focal, np.inf)
    ok = (norm_a > 0) & (norm_b > 0)
    # a rotation's columns have one length and are at right angles
    err[ok] = np.abs(np.log(norm_a[ok] / norm_b[ok])) + np.abs((a[ok] * b[ok]).sum(1)) / (norm_a[ok] * norm_b[ok])
    return focal, err


def camera_error(H: np.ndarray, shape: tuple[int, ...]) -> float:
    """How far the homography is from a real camera at its best focal length: 0 is perfect."""
    return float(_camera_fits(H, shape)[1].min())


def raised(H: np.ndarray, shape: tuple[int, ...], height: float) -> np.ndarray:
    """The homography of the plane `height` board units above the board, toward the camera.

    A stone stands up from the board: seen at a slant its body shows above its foot, toward
    the far side. The camera is the pinhole `camera_error` finds best (centred principal point,
    square pixels); a homography no such camera makes is returned unchanged."""
    if not height:
        return H
    h, w = shape[:2]
    focals, err = _camera_fits(H, shape)
    if not np.isfinite(err).all():
        return H
    # seen straight down every focal length fits: then a phone's usual one among those that do
    fits = err <= err.min() + SAME_CAMERA
    focal = float(focals[fits][int(np.argmin(np.abs(np.log(focals[fits] / (PHONE_FOCAL * max(w, h))))))])
    K = np.array([[focal, 0.0, w / 2], [0.0, focal, h / 2], [0.0, 0.0, 1.0]])
    pose = np.linalg.solve(K, H)
    scale = 2.0 / (np.linalg.norm(pose[:, 0]) + np.linalg.norm(pose[:, 1]))
    r1, r2, t = pose[:, 0] * scale, pose[:, 1] * scale, pose[:, 2] * scale
    if t[2] < 0:  # the board lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    normal = np.cross(r1, r2)
    normal /= np.linalg.norm(normal)
    if np.dot(normal, t) > 0:  # up from the board is toward the camera
        normal = -normal
    lifted = K @ np.column_stack([r1, r2, t + height * normal])
    return lifted / lifted[2, 2]


def plausible(H: np.ndarray, layout: Layout, shape: tuple[int, ...]) -> bool:
    """The outline projects to a convex polygon of sane size inside (mostly) the image, as a
    real camera could see it."""
    try:
        p = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
    except cv2.error:
        return False
    if not np.isfinite(p).all():
        return False
    h, w = shape[:2]
    if not cv2.isContourConvex(p.astype(np.float32)):
        return False
    # the homography must keep every outline vertex in front of the camera
    v = np.c_[layout.outline, np.ones(len(layout.outline))] @ H.T
    if (v[:, 2] <= 0).any() and (v[:, 2] >= 0).any():
        return False
    area = abs(signed_area(p))
    if not MIN_OUTLINE_AREA * w * h <= area <= MAX_OUTLINE_AREA * w * h:
        return False
    return camera_error(H, shape) < MAX_CAMERA_ERROR_CANDIDATE
