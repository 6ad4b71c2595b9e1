"""Fitting: homographies that lay the board's outline on a candidate region, and how well the
board's drawing agrees with the photo under one.

A fit is a homography `H` (the usual name in this maths: board units -> image pixels).  Each
region of `segment.candidate_masks` gives fits two ways: an N-gon fitted to its contour
(`homographies_for`, every corner in turn), and a moment/overlap fit refined by ECC on the
silhouette (`shape_homographies`).  A `Scorer` correlates the warped photo's edges with a
drawing of the board's features; `candidates` ranks every plausible fit by it and by the
outline's support.
"""

from __future__ import annotations

import functools
import math
from concurrent.futures import Executor
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import plausible
from .evidence import outline_support, support_lab
from .frame import Frame
from .layouts import SQRT3, Layout, get_layout, grid_symmetries, ring_circles
from .marks import mark_grid
from .memo import gray32
from .segment import candidate_masks, fill, fit_polygons, signed_area
from .tuning import (
    COARSE_BLUR,
    COARSE_MIN_S,
    COARSE_SPAN_PX,
    DRAWING_PADS,
    FEATURE_PAD,
    FINE_BLUR,
    FINE_MIN_S,
    FINE_SPAN_PX,
    MAX_REGION,
    MIN_OVERLAP,
    MIN_REGION,
    MIN_POLYGON,
    NEAR_TOP_OVERLAP,
    OPEN_STONES,
    OPENED_CHANGE,
    ROTATION_STEPS,
    SAME_POLYGON_AREA,
    SAME_POLYGON_PX,
    SILHOUETTE_SPAN_PX,
    STONE_PX_SHARE,
    SUPPORT_WEIGHT,
)


def feature_template(frame: Frame) -> np.ndarray:
    """Drawing of the board's own features in the canonical frame (float32, 0..1)."""
    layout, s = frame.layout, frame.s
    img = np.zeros((frame.h, frame.w), np.float32)
    shift = 4  # sub-pixel drawing: coordinates carry this many fractional bits
    k = 1 << shift

    def at(p):
        q = frame.to_px([p])[0]
        return (int(round(q[0] * k)), int(round(q[1] * k)))

    line_px = max(1, int(round(0.06 * s)))
    if layout.game in ("three-stones", "sage-stones"):
        pocket = 0.39 * s
        for p in layout.xy:
            cv2.circle(img, at(p), int(pocket * k), 1.0, max(1, int(round(0.10 * s))), cv2.LINE_AA, shift)
    elif layout.game == "morris":
        for half in (3, 2, 1):
            square = np.array([at(q) for q in [(-half, -half), (half, -half), (half, half), (-half, half)]], np.int32)
            cv2.polylines(img, [square], True, 1.0, line_px, cv2.LINE_AA, shift)
        for a, b in [((0, -3), (0, -1)), ((0, 1), (0, 3)), ((-3, 0), (-1, 0)), ((1, 0), (3, 0))]:
            cv2.line(img, at(a), at(b), 1.0, line_px, cv2.LINE_AA, shift)
        for p in layout.xy:
            cv2.circle(img, at(p), int(0.12 * s * k), 1.0, -1, cv2.LINE_AA, shift)
    elif layout.game == "rings":
        full, partial = ring_circles()
        radius = 1 / SQRT3
        for q, r in full + partial:
            cx, cy = q + r / 2, r * SQRT3 / 2
            cv2.circle(img, at((cx, cy)), int(radius * s * k), 1.0, line_px, cv2.LINE_AA, shift)
        mask = np.zeros_like(img)
        inner = layout.outline * 0.985
        cv2.fillPoly(mask, [np.array([at(q) for q in inner], np.int32)], 1.0, cv2.LINE_AA, shift)
        img *= mask
    # the outline (its margin varies from board to board: drawn softer)
    cv2.polylines(
        img,
        [np.array([at(q) for q in layout.outline], np.int32)],
        True,
        0.7,
        max(1, int(round(0.08 * s))),
        cv2.LINE_AA,
        shift,
    )
    return img


def gradient_magnitude(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """sqrt(gx^2 + gy^2), each step rounded once in float32: the same bits wherever the arrays lie in
    memory.  `cv2.magnitude` rounds some pixels a last bit differently by the arrays' alignment, which
    depends on what the process allocated before, so a photo's fit and confidences moved (Blender 115
    morris b115001: e4 0.634 or 0.631) with the photos read before it in one process."""
    return np.sqrt(gx * gx + gy * gy)


def edge_map(gray: np.ndarray, blur: float) -> np.ndarray:
    """Gradient magnitude, square-root compressed (a faint line counts beside a strong edge), blurred."""
    g = cv2.GaussianBlur(gray, (0, 0), max(0.6, blur * 0.5))
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    m = np.sqrt(gradient_magnitude(gx, gy))
    if blur > 0:
        m = cv2.GaussianBlur(m, (0, 0), blur)
    return m


def ncc(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    """Normalised cross-correlation of two images (within `mask`)."""
    if mask is not None:
        a, b = a[mask], b[mask]
    a = a - a.mean()
    b = b - b.mean()
    d = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    return float((a * b).sum() / d) if d > 0 else 0.0


class Scorer:
    """How well the photo's edges, warped onto the canonical frame, match the board's drawing."""

    def __init__(self, layout: Layout, s: float, blur: float):
        self.frame = Frame(layout, s)
        self.blur = blur
        self.template = cv2.GaussianBlur(feature_template(self.frame), (0, 0), blur)
        mask = np.zeros((self.frame.h, self.frame.w), np.uint8)
        cv2.fillPoly(mask, [np.round(self.frame.to_px(layout.outline * 1.04)).astype(np.int32)], 1)
        self.mask = mask.astype(bool)

    @staticmethod
    def coarse(layout: Layout) -> Scorer:
        """For the small copy of the photo (one per game: its drawing is made once)."""
        return _scorer(layout.game, fine=False)

    @staticmethod
    def fine(layout: Layout) -> Scorer:
        """For the photo at full resolution (one per game)."""
        return _scorer(layout.game, fine=True)

    def edges(self, gray: np.ndarray, H: np.ndarray) -> np.ndarray:
        return edge_map(self.frame.warp(gray, H), self.blur)

    def score(self, gray: np.ndarray, H: np.ndarray) -> float:
        return ncc(self.template, self.edges(gray, H), self.mask)

    def refine(self, gray: np.ndarray, H: np.ndarray, iters: int = 60) -> tuple[np.ndarray, float]:
        """ECC from H on the drawing: the refined fit and its score (H itself when ECC fails)."""
        edges = self.edges(gray, H)
        warp = np.eye(3, dtype=np.float32)
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iters, 1e-5)
        try:
            _, found = cv2.findTransformECC(
                self.template, edges, warp, cv2.MOTION_HOMOGRAPHY, criteria, self.mask.astype(np.uint8), 1
            )
        except cv2.error:
            return H, self.score(gray, H)
        refined = H @ np.linalg.inv(self.frame.C) @ found.astype(np.float64) @ self.frame.C
        refined /= refined[2, 2]
        return refined, self.score(gray, refined)


@functools.cache
def _scorer(game: str, fine: bool) -> Scorer:
    layout = get_layout(game)
    if fine:
        return Scorer(layout, s=max(FINE_MIN_S, FINE_SPAN_PX / _span(layout)), blur=FINE_BLUR)
    return Scorer(layout, s=max(COARSE_MIN_S, COARSE_SPAN_PX / _span(layout)), blur=COARSE_BLUR)


def _span(layout: Layout) -> float:
    """The board's width in board units."""
    return float(np.ptp(layout.outline[:, 0]))


def _cov_sqrt(cov: np.ndarray, inv: bool = False) -> np.ndarray:
    w, V = np.linalg.eigh(cov)
    w = np.maximum(w, 1e-9)
    return V @ np.diag(w ** (-0.5 if inv else 0.5)) @ V.T


def _poly_moments(poly: np.ndarray, res: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Centroid and covariance of a filled polygon (rasterised `res` pixels across); a game's few
    outlines are laid over every region of every photo, so each is rasterised once."""
    key = (poly.dtype.str, poly.shape, poly.tobytes(), res)
    if key not in _POLY_MOMENTS:
        _POLY_MOMENTS[key] = _frozen_pair(_rasterised_moments(poly, res))
    return _POLY_MOMENTS[key]


_POLY_MOMENTS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # by the polygon's exact values


def _frozen_pair(pair: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The arrays made read-only: a kept answer is shared by every later caller."""
    for a in pair:
        a.flags.writeable = False
    return pair


def _rasterised_moments(poly: np.ndarray, res: int) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = poly.min(0), poly.max(0)
    s = res / float((hi - lo).max())
    m = np.zeros((int((hi - lo)[1] * s) + 3, int((hi - lo)[0] * s) + 3), np.uint8)
    cv2.fillPoly(m, [np.round((poly - lo) * s + 1).astype(np.int32)], 1)
    ys, xs = np.nonzero(m)
    pts = np.stack([xs, ys], 1) / s + lo - 1 / s
    return pts.mean(0), np.cov(pts.T)


@functools.cache
def _silhouette(game: str) -> tuple[Frame, np.ndarray]:
    """The board's outline filled and blurred in its silhouette frame: the same for every fit to
    every region of every photo, so drawn once per game (read-only: it is shared)."""
    layout = get_layout(game)
    fr = Frame(layout, SILHOUETTE_SPAN_PX / _span(layout), margin=0.8)
    outline = np.zeros((fr.h, fr.w), np.float32)
    cv2.fillPoly(outline, [np.round(fr.to_px(layout.outline)).astype(np.int32)], 1.0)
    silhouette = cv2.GaussianBlur(outline, (0, 0), 1.5)
    silhouette.flags.writeable = False
    return fr, silhouette


def _blurred_region(region: np.ndarray) -> np.ndarray:
    """The region mask (0/255) as the silhouette ECC compares it: 0..1, blurred like the silhouette."""
    return cv2.GaussianBlur(region.astype(np.float32) / 255.0, (0, 0), 1.5)


def _silhouette_ecc(seen: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """Refine H so the projected outline covers the region (ECC on the two masks; `seen` is the
    region as `_blurred_region` gives it, made once for each of the region's fits)."""
    fr, silhouette = _silhouette(layout.game)
    warp = (H @ np.linalg.inv(fr.C)).astype(np.float32)
    warp /= warp[2, 2]
    try:
        # OpenCV's stubs require a mask before gaussFiltSize; None (no mask) is what OpenCV takes for none
        _, warp = cv2.findTransformECC(  # type: ignore[call-overload]
            silhouette,
            seen,
            warp,
            cv2.MOTION_HOMOGRAPHY,
            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-3),
            None,
            1,
        )
    except cv2.error:
        return H
    refined = warp.astype(np.float64) @ fr.C
    return refined / refined[2, 2]


def _overlap(polygon: np.ndarray, region: np.ndarray, region_area: int) -> tuple[int, int]:
    """(intersection, union) in pixels of the filled `polygon` (integer pixels) and the `region`
    mask (`region_area` pixels), counted within the polygon's bounding box only: the same counts
    as over the whole mask (the polygon is filled into a box-sized canvas shifted by whole pixels
    and clipped at the same image edges), at a fraction of the pixels for 36 angles a region."""
    h, w = region.shape[:2]
    x0, y0 = np.maximum(polygon.min(0), 0)
    x1, y1 = np.minimum(polygon.max(0), (w - 1, h - 1))
    if x1 < x0 or y1 < y0:  # wholly outside the image
        return 0, region_area
    laid = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(laid, [polygon - np.array([x0, y0], np.int32)], 255)
    inter = np.count_nonzero(laid & region[y0 : y1 + 1, x0 : x1 + 1])
    return inter, np.count_nonzero(laid) + region_area - inter


def shape_homographies(
    mask: np.ndarray, layout: Layout, steps: int = ROTATION_STEPS, target: np.ndarray | None = None
) -> list[np.ndarray]:
    """Homographies laying the board outline over a filled region: moments give an affine
    fit for each rotation, the best overlaps are then refined with ECC on the masks."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return []
    c = max(contours, key=cv2.contourArea)
    h, w = mask.shape[:2]
    if not (MIN_REGION * w * h <= cv2.contourArea(c) <= MAX_REGION * w * h):
        return []
    region = np.zeros_like(mask)
    cv2.drawContours(region, [c], -1, 255, -1)
    region_area = np.count_nonzero(region)
    ys, xs = np.nonzero(region)
    pts = np.stack([xs, ys], 1).astype(np.float64)
    centre, cov = pts.mean(0), np.cov(pts.T)
    # canonical outline in y-down coordinates (so rotations stay proper)
    outline = (layout.outline if target is None else target) * np.array([1.0, -1.0])
    centre0, cov0 = _poly_moments(outline)
    half, inv0 = _cov_sqrt(cov), _cov_sqrt(cov0, inv=True)
    y_down = np.diag([1.0, -1.0, 1.0])  # canonical (y up) -> y-down
    scored = []
    for k in range(steps):
        t = 2 * math.pi * k / steps
        R = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        A = half @ R @ inv0
        if np.linalg.det(A) <= 0:
            continue
        p = (outline - centre0) @ A.T + centre
        inter, union = _overlap(np.round(p).astype(np.int32), region, region_area)
        affine = np.eye(3)
        affine[:2, :2] = A
        affine[:2, 2] = centre - A @ centre0
        scored.append((inter / max(1, union), affine @ y_down))
    # every local maximum of the overlap over the angle (an octagon fits well at 0 and 45 degrees)
    n = len(scored)
    peaks = [scored[i] for i in range(n) if scored[i][0] >= scored[i - 1][0] and scored[i][0] >= scored[(i + 1) % n][0]]
    peaks.sort(key=lambda x: -x[0])
    if target is not None and scored:
        # a feature-density region is soft and roundish: its overlap barely tells the angle,
        # so every angle that overlaps nearly as well goes on to the feature score
        top = max(s for s, _ in scored)
        return [H for iou, H in scored if iou >= max(MIN_OVERLAP, NEAR_TOP_OVERLAP * top)]
    starts = [H for iou, H in peaks[:2] if iou >= MIN_OVERLAP]
    if not starts:
        return []
    seen = _blurred_region(region)  # once for the region's fits
    return [_silhouette_ecc(seen, H, layout) for H in starts]


def opened_in_box(mask: np.ndarray, size: int) -> np.ndarray:
    """The mask opened by OpenCV's `size` ellipse, worked out in its regions' box widened by the
    ellipse's reach: the same pixels as opening the whole mask (an opening never reaches past the
    box, and a box side the image cuts keeps the image's edge), at a fraction of them."""
    x, y, w, h = cv2.boundingRect(mask)
    out = np.zeros_like(mask)
    if w == 0:
        return out
    reach = size // 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(mask.shape[1], x + w + reach), min(mask.shape[0], y + h + reach)
    box = np.ascontiguousarray(mask[y0:y1, x0:x1])
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    out[y0:y1, x0:x1] = cv2.morphologyEx(box, cv2.MORPH_OPEN, kernel)
    return out


def feature_outline(layout: Layout, pad: float = FEATURE_PAD) -> np.ndarray:
    """The polygon around the board's features: every side of the outline moved in until it
    runs `pad` (about a stone) outside the outermost locations."""
    outline = layout.outline
    n = len(outline)
    c = outline.mean(0)
    lines = []
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        e = (b - a) / np.linalg.norm(b - a)
        normal = np.array([e[1], -e[0]])
        if np.dot(normal, (a + b) / 2 - c) < 0:
            normal = -normal
        off = float((layout.xy @ normal).max()) + pad
        lines.append((normal * off, e))
    out = []
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.array([d1, -d2]).T, p2 - p1)
        out.append(p1 + t[0] * d1)
    return np.array(out)


def homographies_for(poly: np.ndarray, layout: Layout, target: np.ndarray | None = None) -> list[np.ndarray]:
    """Every proper (non-mirrored) way of laying the outline (or `target`) on the polygon."""
    target = layout.outline if target is None else target
    if signed_area(target) < 0:
        target = target[::-1]
    if signed_area(poly) > 0:  # canonical CCW (y up) shows as negative area in image coords
        poly = poly[::-1]
    out = []
    H: np.ndarray | None  # None on degenerate points, which OpenCV's stubs leave out
    for k in range(len(poly)):
        H, _ = cv2.findHomography(target, np.roll(poly, -k, axis=0), 0)
        if H is not None and abs(np.linalg.det(np.asarray(H, np.float64))) > 1e-12:
            out.append(H)
    return out


@dataclass
class Candidate:
    rank: float  # coarse feature score + SUPPORT_WEIGHT times the outline support
    H: np.ndarray  # board units -> pixels of the small copy
    source: str  # which mask and fit made it


def candidates(small: np.ndarray, layout: Layout, pool: Executor) -> list[Candidate]:
    """Every plausible outline fit to every candidate region, best ranked first (`pool` fits
    regions and ranks fits side by side: OpenCV lets go of the GIL)."""
    sh, sw = small.shape[:2]
    gray_small = gray32(small)
    lab_small = support_lab(small)
    # expected stone size when the board fills ~ a third of the frame
    stone_px = 2 * layout.stone_radius * min(sh, sw) * STONE_PX_SHARE / _span(layout)
    n = len(layout.outline)
    coarse = Scorer.coarse(layout)

    def outline_fits(item: tuple[str, np.ndarray]) -> tuple[list, list[np.ndarray], list[np.ndarray]]:
        """One region's fits: the outlines they are fitted to, the outline laid over its shape, and its polygons."""
        name, filled = item
        opened = opened_in_box(filled, max(5, int(stone_px * OPEN_STONES) | 1))
        polys = fit_polygons(filled, n, MIN_POLYGON * sw * sh, MAX_REGION * sw * sh)
        if np.count_nonzero(opened != filled) > OPENED_CHANGE * sw * sh:
            polys += fit_polygons(opened, n, MIN_POLYGON * sw * sh, MAX_REGION * sw * sh)
        # feature-density regions end about a stone outside the outermost locations
        # the drawing's outer edge is its outermost line or a border drawn between it and the edge
        targets: list[np.ndarray | None] = (
            [feature_outline(layout)]
            if _outline_kind(name) == "features"
            else [feature_outline(layout, pad) for pad in DRAWING_PADS[layout.game]]
            if _outline_kind(name) == "drawing"
            else [None]
        )
        shaped = [H for target in targets for H in shape_homographies(filled, layout, target=target)]
        return targets, shaped, polys

    fits: list[tuple[np.ndarray, str]] = []
    seen: list[tuple[np.ndarray, float]] = []
    drawn = mark_grid(layout.game) is None
    regions = [(name, fill(mask)) for name, mask in candidate_masks(small, stone_px, drawn=drawn)]
    # clusterings often cut out the very same region: it is fitted once (its fits named after each)
    first_with: dict[tuple[str, bytes], int] = {}
    first_of = [
        first_with.setdefault((_outline_kind(name), region.tobytes()), i) for i, (name, region) in enumerate(regions)
    ]
    firsts = sorted(set(first_of))
    fitted = dict(zip(firsts, pool.map(outline_fits, [regions[i] for i in firsts])))
    for (name, _), first in zip(regions, first_of):
        targets, shaped, polys = fitted[first]
        fits += [(H.copy(), "m" + name) for H in shaped]
        for poly in polys:
            centre, area = poly.mean(0), abs(signed_area(poly))
            if any(
                np.linalg.norm(centre - c2) < SAME_POLYGON_PX and abs(area - a2) < SAME_POLYGON_AREA * a2
                for c2, a2 in seen
            ):
                continue
            seen.append((centre, area))
            # the polygon's corners taken in turn: turns the lattice maps onto itself are one fit
            kept: list[np.ndarray] = []
            for target in targets:
                for H in homographies_for(poly, layout, target):
                    if not any(same_fit(H, other, layout, 1.0) for other in kept):
                        kept.append(H)
                        fits.append((H, name))

    def rank(H: np.ndarray) -> float | None:
        if not plausible(H, layout, small.shape):
            return None
        support = outline_support(small, H, layout, lab=lab_small)
        return coarse.score(gray_small, H) + SUPPORT_WEIGHT * support

    # the same fit from two regions alike is ranked once
    unique = {H.tobytes(): H for H, _ in fits}
    ranks = dict(zip(unique, pool.map(rank, unique.values())))
    out = [Candidate(r, H, name) for H, name in fits if (r := ranks[H.tobytes()]) is not None]
    out.sort(key=lambda c: -c.rank)
    return out


def _outline_kind(name: str) -> str:
    """Which outline a region's fits lay: the features' (density regions), the drawing's, or the board's."""
    return "features" if name.startswith(("blob", "lines")) else "drawing" if name == "drawing" else "board"


def same_fit(H1: np.ndarray, H2: np.ndarray, layout: Layout, tol: float) -> bool:
    """True when two fits put the board's locations in the same places (up to the grid's turns)."""
    p1 = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H1).reshape(-1, 2)
    for turn in grid_symmetries(layout.game):
        p2 = cv2.perspectiveTransform((layout.xy @ turn.T).reshape(-1, 1, 2), H2).reshape(-1, 2)
        if np.abs(p1 - p2).max() < tol:
            return True
    return False


def distinct(cands: list[Candidate], layout: Layout, tol: float, k: int, per_source: int) -> list[Candidate]:
    """The best `k` candidates that differ from each other, at most `per_source` per mask."""
    picked: list[Candidate] = []
    used: dict[str, int] = {}
    for c in cands:
        if len(picked) >= k:
            break
        key = c.source.lstrip("m")
        if used.get(key, 0) >= per_source or any(same_fit(c.H, q.H, layout, tol) for q in picked):
            continue
        used[key] = used.get(key, 0) + 1
        picked.append(c)
    return picked
