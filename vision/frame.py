"""The canonical raster of a layout: where board units land in a warped, straightened image."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .layouts import Layout


class Frame:
    """Canonical raster of a layout: `s` pixels per board unit, margin `m` units."""

    def __init__(self, layout: Layout, s: float, margin: float = 0.6):
        x0, y0, x1, y1 = layout.bounds()
        self.layout, self.s = layout, s
        self.x0, self.y1 = x0 - margin, y1 + margin
        self.w = int(math.ceil((x1 - x0 + 2 * margin) * s))
        self.h = int(math.ceil((y1 - y0 + 2 * margin) * s))
        self.C = np.array([[s, 0, -self.x0 * s], [0, -s, self.y1 * s], [0, 0, 1.0]])

    def to_px(self, pts) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        return np.stack([(pts[:, 0] - self.x0) * self.s, (self.y1 - pts[:, 1]) * self.s], axis=1)

    def to_units(self, px) -> np.ndarray:
        px = np.asarray(px, np.float64).reshape(-1, 2)
        return np.stack([px[:, 0] / self.s + self.x0, self.y1 - px[:, 1] / self.s], axis=1)

    def warp(self, img: np.ndarray, H: np.ndarray, interp=cv2.INTER_LINEAR) -> np.ndarray:
        M = H @ np.linalg.inv(self.C)
        return cv2.warpPerspective(
            img, M, (self.w, self.h), flags=interp | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
        )
