"""Refinement at full resolution: a rough fit pulled onto the board's drawn lines, its stones'
round edges, or its top face's edge.

A fit is a homography `H` (the usual name in this maths: board units -> image pixels).  Each
function returns a better one, or `H` unchanged when the photo does not show enough to move it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .camera import raised
from .evidence import line_kernel, line_peaks, line_samples, outline_samples, stronger_on, sure_stones
from .frame import Frame
from .layouts import Layout
from .segment import thin_lines
from .tuning import (
    LATTICE_DRAWN,
    LATTICE_WALK,
    LINE_REFINE_ROUNDS,
    MIN_LINE_MARKS,
    MIN_OUTLINE_EDGES,
    MIN_STONE_MARKS,
    OUTLINE_EDGE_SHARE,
    OUTLINE_INLIERS,
    OUTLINE_RANSAC,
    OUTLINE_REFINE_ROUNDS,
    OUTLINE_STEPS,
    MIN_OUTLINE_CHANGE,
    MIN_SELF_CONSISTENT,
    SNAP_REACH,
    SNAP_S,
    SNAP_SCALES,
    SNAP_STEP,
    MARK_RANSAC,
    STONE_LIFT,
    STONE_MARKED,
)


def _unit_px(H: np.ndarray) -> float:
    """How many pixels one board unit spans at the board's centre."""
    c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
    return float(np.linalg.norm(c[1] - c[0]))


def _moved(H: np.ndarray, scale: float, dx: float, dy: float) -> np.ndarray:
    """H after scaling the board by `scale` and moving it by (dx, dy) board units."""
    return H @ np.array([[scale, 0.0, dx], [0.0, scale, dy], [0.0, 0.0, 1.0]])


def line_snap(
    gray: np.ndarray,
    H: np.ndarray,
    layout: Layout,
    reach: float = SNAP_REACH,
    step: float = SNAP_STEP,
    scales: tuple[float, ...] = SNAP_SCALES,
) -> np.ndarray:
    """Drawn boards: the shift (and slight scale) within `reach` board units that lays the most
    drawn-line samples on dark thin lines -- a wider reach than `line_refine`'s, for outline fits
    pushed off by the board's visible side or its shadow."""
    pts, _ = line_samples(layout.game)
    fr = Frame(layout, SNAP_S, margin=0.5 + reach)
    maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), line_kernel(layout.game, SNAP_S))
    ink = stronger_on(maps, fr.to_px(pts))
    ink = cv2.GaussianBlur(np.minimum(ink, np.percentile(ink, 99.5)), (0, 0), 0.6)
    d = np.arange(-reach, reach + 1e-9, step)
    dx, dy = np.meshgrid(d, d)
    shifts = np.stack([dx.ravel(), dy.ravel()], 1)
    best = (-1.0, 1.0, np.zeros(2))
    for scale in scales:
        moved = (pts * scale)[None, :, :] + shifts[:, None, :]
        px = fr.to_px(moved.reshape(-1, 2)).astype(np.float32).reshape(len(shifts), len(pts), 2)
        score = cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean(1)
        i = int(np.argmax(score))
        if score[i] > best[0]:
            best = (float(score[i]), scale, shifts[i])
    _, scale, (tx, ty) = best
    return _moved(H, scale, tx, ty)


def on_the_lattice(gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """Rings' circles repeat, so a fit a whole lattice step off lies on circles nearly everywhere:
    of the fit and its six neighbours one step away, the one whose drawn-line samples show the
    most ink wins (a shifted fit runs its edge circles off the board, onto the table), and
    from there its neighbours, for a few steps."""
    if layout.game not in LATTICE_DRAWN:
        return H
    pts, _ = line_samples(layout.game)
    fr = Frame(layout, SNAP_S, margin=LATTICE_WALK + 0.5)
    maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), line_kernel(layout.game, SNAP_S))
    ink = stronger_on(maps, fr.to_px(pts))
    steps = [np.zeros(2)] + [np.array([math.cos(math.pi * j / 3), math.sin(math.pi * j / 3)]) for j in range(6)]

    def shown(step: np.ndarray) -> float:
        px = fr.to_px(pts + step).astype(np.float32).reshape(1, -1, 2)
        return float(cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean())

    at = np.zeros(2)
    for _ in range(LATTICE_WALK):  # walk while a neighbour shows more: a coarse fit may be steps off
        best = max((at + step for step in steps), key=shown)
        if np.allclose(best, at):
            break
        at = best
    return _moved(H, 1.0, at[0], at[1])


def line_refine(
    gray: np.ndarray, H: np.ndarray, layout: Layout, rounds: tuple[float, ...] = LINE_REFINE_ROUNDS
) -> np.ndarray:
    """Drawn boards: pull the fit onto the drawn lines (morris squares, rings circles) or onto
    the round edges of the stones (a crowded rings board hides most of its lines)."""
    _, nrm = line_samples(layout.game)
    if len(nrm) < MIN_LINE_MARKS:
        return H
    # a stone's round edge shows above the board, toward the camera: where stones mark the fit,
    # they are found on that raised plane and the refit is lowered back onto the board
    lift = STONE_LIFT * layout.stone_radius if layout.game in STONE_MARKED else 0.0
    for win in rounds:
        pts, off, strong = line_peaks(gray, H, layout, win)
        lines = (pts[strong], (pts + off[:, None] * nrm)[strong])
        # stones: the strongest round edge of a stone's size near each location
        H_stones = raised(H, gray.shape, lift)
        stones = sure_stones(gray, H_stones, layout, win)
        # each kind of mark on its own (the stones stand a little above the lines): the
        # more self-consistent fit wins
        best = None
        for (src, found), plane, height, least in (
            (lines, H, 0.0, MIN_LINE_MARKS),
            (stones, H_stones, lift, MIN_STONE_MARKS),
        ):
            if len(src) < least:
                continue
            img_pts = cv2.perspectiveTransform(found.reshape(-1, 1, 2), plane).reshape(-1, 2)
            refitted, inliers = cv2.findHomography(src, img_pts, cv2.RANSAC, max(1.0, MARK_RANSAC * _unit_px(H)))
            if refitted is None or inliers is None:
                continue
            share = float(inliers.sum()) / len(src)
            if share >= MIN_SELF_CONSISTENT and (best is None or share > best[0]):
                best = (share, raised(refitted / refitted[2, 2], gray.shape, -height))
        if best is None:
            return H
        H = best[1]
    return H


def outline_refine(
    img: np.ndarray, H: np.ndarray, layout: Layout, rounds: tuple[float, ...] = OUTLINE_REFINE_ROUNDS
) -> np.ndarray:
    """Pull the outline onto the board's top-face edge: along each side's normal take the innermost
    strong colour edge (outside it there may be the board's visible side and its shadow)."""
    pts, nrm = outline_samples(layout.game, 160)
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.2), cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = img.shape[:2]
    for win in rounds:
        offs = np.linspace(-win, win, OUTLINE_STEPS)
        across = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
        px = cv2.perspectiveTransform(across.reshape(-1, 1, 2), H).reshape(len(pts), len(offs), 2).astype(np.float32)
        vals = cv2.remap(lab, px[..., 0], px[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        change = np.linalg.norm(vals[:, 2:] - vals[:, :-2], axis=2)  # colour change along the normal
        inside_img = ((px[..., 0] > 1) & (px[..., 0] < w - 2) & (px[..., 1] > 1) & (px[..., 1] < h - 2)).all(1)
        found, src_pts = [], []
        for i in range(len(pts)):
            d = change[i]
            strongest = float(d.max())
            if not inside_img[i] or strongest < MIN_OUTLINE_CHANGE:
                continue
            j = int(np.argmax(d >= OUTLINE_EDGE_SHARE * strongest))  # innermost strong edge
            # local maximum from there
            while j + 1 < len(d) and d[j + 1] > d[j]:
                j += 1
            found.append(pts[i] + offs[j + 1] * nrm[i])
            src_pts.append(pts[i])
        if len(found) < MIN_OUTLINE_EDGES:
            return H
        img_pts = cv2.perspectiveTransform(np.array(found).reshape(-1, 1, 2), H).reshape(-1, 2)
        refitted, inliers = cv2.findHomography(
            np.array(src_pts), img_pts, cv2.RANSAC, max(1.0, OUTLINE_RANSAC * _unit_px(H))
        )
        if refitted is None or inliers is None or inliers.sum() < OUTLINE_INLIERS * len(src_pts):
            return H
        H = refitted / refitted[2, 2]
    return H
