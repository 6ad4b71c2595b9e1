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

A caller that only takes a consensus of at least some share of the marks says so (`least_share`):
RANSAC then draws no more samples than it would stop at itself once it held a consensus of that
share (OpenCV's own confidence, `RANSAC_CONFIDENCE`).  The draws are the same seeded sequence, so
a consensus found within them is found as before and the answer is the same, and a search for one
that is not there ends sooner (2000 draws, 48 ms on a pocket lattice, to 652).  A consensus just
over the share that the draws find only later is missed, as the confidence says it may be: on dev
seed 91, 2 of 60 photos (three-stones' lattice fit at 23 of 76 marks) kept the fit they had, their
corners 2.7 and 15.9 px elsewhere and nearer the truth (7.3 -> 4.6, 13.9 -> 7.0 px), no cell changed.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MIN_MARKS = 4  # a homography needs four points
RANSAC_DRAWS = 2000  # OpenCV's default most samples RANSAC draws ...
RANSAC_CONFIDENCE = 0.995  # ... and its confidence that a draw of all-inliers was among them


def draws_for(share: float) -> int:
    """The samples RANSAC draws, at most, to hold a consensus of `share` of the marks with
    `RANSAC_CONFIDENCE` (as OpenCV itself counts once it has found one): 652 for 0.3, 83 for 0.5."""
    if share >= 1.0:
        return 1
    return min(RANSAC_DRAWS, math.ceil(math.log(1 - RANSAC_CONFIDENCE) / math.log(1 - share**MIN_MARKS)))


def consensus_homography(
    src: np.ndarray, dst: np.ndarray, threshold: float, least_share: float = 0.0
) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
    """(H, inliers): the RANSAC homography taking `src` onto `dst` within `threshold` (in `dst`'s
    units), normalised; `inliers` is a boolean per mark in the order given.  (None, None) when
    there is no consensus.  `least_share`: the caller takes no consensus of fewer of the marks
    (the search for one ends sooner; a smaller one found may differ from before, never a bigger)."""
    src = np.asarray(src, np.float64).reshape(-1, 2)
    dst = np.asarray(dst, np.float64).reshape(-1, 2)
    if len(src) < MIN_MARKS:
        return None, None
    order = np.lexsort((dst[:, 1], dst[:, 0], src[:, 1], src[:, 0]))
    draws = draws_for(least_share) if least_share > 0 else RANSAC_DRAWS
    H, found = cv2.findHomography(src[order], dst[order], cv2.RANSAC, threshold, maxIters=draws)
    if H is None or found is None:
        return None, None
    inliers = np.zeros(len(src), bool)
    inliers[order] = found.ravel().astype(bool)
    return H / H[2, 2], inliers
