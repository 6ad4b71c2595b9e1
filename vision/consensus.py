"""The fit of many marks at once: a homography that the marks agree on, whatever their order.

OpenCV's RANSAC draws its samples from a seeded generator by index, so the same marks listed
in another order give another consensus: the fits of one photo moved by up to a tenth of a
board unit when only the order of the drawn lines changed.  Here the marks are put in one
order first, so the answer is the marks', not the listing's.  (Settling the consensus further
by least squares on its inliers was tried: refined again round after round, a crowded rings
board's stone fit drifted with it, 0.02 -> 0.05 units off.  OpenCV's USAC estimators were
tried in RANSAC's place at the same threshold: on the 53 Blender photos MAGSAC put the median
fit 4.3 px from the truth and USAC_ACCURATE 3.8 px, against RANSAC's 2.3, and read more cells
wrong.)
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_MARKS = 4  # a homography needs four points


def consensus_homography(
    src: np.ndarray, dst: np.ndarray, threshold: float
) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
    """(H, inliers): the RANSAC homography taking `src` onto `dst` within `threshold` (in `dst`'s
    units), normalised; `inliers` is a boolean per mark in the order given.  (None, None) when
    there is no consensus."""
    src = np.asarray(src, np.float64).reshape(-1, 2)
    dst = np.asarray(dst, np.float64).reshape(-1, 2)
    if len(src) < MIN_MARKS:
        return None, None
    order = np.lexsort((dst[:, 1], dst[:, 0], src[:, 1], src[:, 0]))
    H, found = cv2.findHomography(src[order], dst[order], cv2.RANSAC, threshold)
    if H is None or found is None:
        return None, None
    inliers = np.zeros(len(src), bool)
    inliers[order] = found.ravel().astype(bool)
    return H / H[2, 2], inliers
