"""The fit of many marks at once: a homography that the marks agree on, whatever their order.

OpenCV's RANSAC draws its samples from a seeded generator by index, so the same marks listed
in another order give another consensus, and the fits of one photo moved by up to a tenth of a
board unit when only the order of the drawn lines changed.  Here the marks are put in one order
first, and the consensus is then settled by least squares: refit on the inliers, take the
inliers of the refit again, until they no longer change.  The answer is the marks', not the
draw's.
"""

from __future__ import annotations

import cv2
import numpy as np

SETTLE_ROUNDS = 6  # least-squares refits on the inliers; they settle in two or three
MIN_MARKS = 4  # a homography needs four points


def consensus_homography(
    src: np.ndarray, dst: np.ndarray, threshold: float
) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
    """(H, inliers): the homography taking `src` onto `dst` that most of them agree on within
    `threshold` (in `dst`'s units), refitted by least squares on its inliers; `inliers` is a
    boolean per mark in the order given.  (None, None) when there is no consensus."""
    src = np.asarray(src, np.float64).reshape(-1, 2)
    dst = np.asarray(dst, np.float64).reshape(-1, 2)
    if len(src) < MIN_MARKS:
        return None, None
    order = np.lexsort((dst[:, 1], dst[:, 0], src[:, 1], src[:, 0]))
    s, d = src[order], dst[order]
    H, _ = cv2.findHomography(s, d, cv2.RANSAC, threshold)
    if H is None:
        return None, None
    inliers = _within(H, s, d, threshold)
    for _ in range(SETTLE_ROUNDS):
        if inliers.sum() < MIN_MARKS:
            break
        refit, _ = cv2.findHomography(s[inliers], d[inliers], 0)
        if refit is None:
            break
        now = _within(refit, s, d, threshold)
        if now.sum() < inliers.sum():  # the refit lost marks the consensus had: keep the consensus
            break
        H, settled, inliers = refit, np.array_equal(now, inliers), now
        if settled:
            break
    mask = np.zeros(len(src), bool)
    mask[order] = inliers
    return H / H[2, 2], mask


def _within(H: np.ndarray, src: np.ndarray, dst: np.ndarray, threshold: float) -> np.ndarray:
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2)
    return np.linalg.norm(projected - dst, axis=1) <= threshold
