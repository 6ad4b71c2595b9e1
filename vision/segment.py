"""Segmentation: regions of a small copy of the photo that may be the board, and their outlines.

`candidate_masks` finds the regions (colour clusters, colour + wood-grain texture clusters,
the density of round blobs and of thin lines, what differs from the frame's border);
`fit_polygons` outlines a region with an N-gon whose sides follow its contour.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import cv2
import numpy as np

from .memo import per_image
from .tuning import (
    BLOB_SCALES,
    BORDER_CLUSTERS,
    BORDER_LEVELS,
    BORDER_SEED,
    BORDER_SHARE,
    BORDER_STRETCH,
    CLOSE_STONES,
    CLUSTER_SAMPLES,
    COLOUR_CLUSTERS,
    SIDE_END_SHARE,
    DENSITY_MIN_SIGMA,
    DENSITY_STONES,
    DRAWING_LINES,
    EDGE_FIT_REACH,
    EDGE_MOVE_MAX,
    KMEANS_ATTEMPTS,
    KMEANS_EPSILON,
    KMEANS_ITERATIONS,
    LIGHTNESS_WEIGHT,
    LINE_DENSITY_SHARE,
    BLOB_LEVELS,
    BLOB_SHARE,
    MIN_SOLIDITY,
    OPEN_PX,
    PARTS_PAY,
    SEGMENT_BLUR,
    TEXTURE_CLUSTERS,
    TEXTURE_MIN_SIGMA,
    TEXTURE_STONES,
    THIN_LINE_PX,
)

_KMEANS_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, KMEANS_ITERATIONS, KMEANS_EPSILON)


def _cluster_centres(features: np.ndarray, clusters: int, seed: int) -> np.ndarray:
    """k-means centres of the rows of `features` (float32), the same on every run for one seed."""
    cv2.setRNGSeed(seed)
    # OpenCV's stubs make bestLabels required; None (no initial labels) is its documented Python use
    _, _, centres = cv2.kmeans(features, clusters, None, _KMEANS_CRITERIA, KMEANS_ATTEMPTS, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    return centres


def _squared_distances(features: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Squared distance of every row of `features` to every centre (float32, centres x rows): the
    same float32 sums as `((features[:, None] - centres[None]) ** 2).sum(-1).T` (the squares added
    in column order), a third of the time without the rows x centres x columns difference array."""
    out = np.empty((len(centres), len(features)), np.float32)
    for k, centre in enumerate(centres):
        diff = np.subtract(features[:, 0], centre[0])
        acc = np.multiply(diff, diff, out=out[k])
        for j in range(1, features.shape[1]):
            np.subtract(features[:, j], centre[j], out=diff)
            acc += np.multiply(diff, diff, out=diff)
    return out


def thin_lines(gray: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Strokes thinner than `size` pixels, dark (ink on a light board) and light (inlay or paint on
    a dark board) -- an engraved groove shows in one or both by its shading."""
    parts = ellipse_parts(size)
    if parts is None:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        return cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel), cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, kernel)
    closed = _by_parts(_by_parts(gray, parts, cv2.dilate), parts, cv2.erode)
    opened = _by_parts(_by_parts(gray, parts, cv2.erode), parts, cv2.dilate)
    return closed - gray, gray - opened


def _ellipse(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _minkowski_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Every offset of `a` plus every offset of `b` (0/1 kernels, centred)."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1), np.uint8)
    for y, x in zip(*np.nonzero(a)):
        out[y : y + b.shape[0], x : x + b.shape[1]] |= b
    return out


@functools.cache
def ellipse_parts(size: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Two smaller ellipses whose Minkowski sum is exactly OpenCV's `size` ellipse, the pair with
    the fewest pixels when that pays (None: no such pair).  A dilation (erosion) by the ellipse is
    the dilation by one part, then the other: the same values, in fewer comparisons (21 = 7 + 15 - 1:
    202 pixels for 333, rings' lines where they are refined)."""
    whole = _ellipse(size)
    best: tuple[int, tuple[np.ndarray, np.ndarray]] | None = None
    for first in range(3, size, 2):
        parts = (_ellipse(first), _ellipse(size + 1 - first))
        cost = int(parts[0].sum() + parts[1].sum())
        if cost < PARTS_PAY * whole.sum() and (best is None or cost < best[0]):
            if np.array_equal(_minkowski_sum(*parts), whole):
                best = (cost, parts)
    return None if best is None else best[1]


def _by_parts(img: np.ndarray, parts: tuple[np.ndarray, ...], op: Callable[..., np.ndarray]) -> np.ndarray:
    """`op` (cv2.dilate or cv2.erode) by the Minkowski sum of `parts`, exactly as by the whole kernel:
    OpenCV leaves out what lies beyond the image, so the image is padded with a value that never
    wins (what the first part makes of a pixel just outside feeds the second part inside)."""
    reach = sum(p.shape[0] // 2 for p in parts)
    if img.dtype.kind == "f":
        never = -math.inf if op is cv2.dilate else math.inf
    else:
        never = float(np.iinfo(img.dtype).min if op is cv2.dilate else np.iinfo(img.dtype).max)
    out = cv2.copyMakeBorder(img, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=never)
    for part in parts:
        out = op(out, part)
    return out[reach:-reach, reach:-reach]


def fill(mask: np.ndarray) -> np.ndarray:
    """The mask with every outer contour filled (holes closed)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


def _biggest_piece(lines: np.ndarray) -> np.ndarray | None:
    """The largest connected piece of the strongest thin lines (a mask), None on a blank map."""
    strongest = (lines > np.percentile(lines, DRAWING_LINES)).astype(np.uint8)
    joined = cv2.morphologyEx(strongest, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    count, comp, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    if count < 2:
        return None
    return (comp == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8) * 255


def _largest_piece(lines: np.ndarray) -> int:
    """How big the drawing of this polarity holds together: a board's lines join up, grain does not."""
    piece = _biggest_piece(lines)
    return 0 if piece is None else int(np.count_nonzero(piece))


def _dense(marks: np.ndarray, stone_px: float) -> tuple[np.ndarray, float]:
    """Where `marks` (0/1) are dense, as 8 bits, and Otsu's level between dense and sparse."""
    density = cv2.GaussianBlur(marks, (0, 0), max(DENSITY_MIN_SIGMA, stone_px * DENSITY_STONES))
    density8 = np.clip(density * 255 / max(1e-6, float(density.max())), 0, 255).astype(np.uint8)
    level, _ = cv2.threshold(density8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return density8, level


@per_image
def _lab(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The small copy's Lab colours (smoothed, float32) and its pixels' colours as rows, lightness
    weighted: the clusterings' and the border model's, the same for every game looked for."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), SEGMENT_BLUR), cv2.COLOR_BGR2Lab).astype(np.float32)
    colour = lab.reshape(-1, 3).copy()
    colour[:, 0] *= LIGHTNESS_WEIGHT
    return lab, colour


def _sample_rows(count: int) -> np.ndarray:
    """The pixels k-means learns its clusters from: the same draw for every clustering of a photo."""
    return np.random.default_rng(0).choice(count, min(count, CLUSTER_SAMPLES), replace=False)


def _labels(features: np.ndarray, cluster_counts: tuple[int, ...], shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """For each number of clusters, every pixel's nearest k-means centre (centres learnt on `_sample_rows`)."""
    sample = features[_sample_rows(len(features))]
    return tuple(
        _squared_distances(features, _cluster_centres(sample, clusters, seed=clusters)).argmin(0).reshape(shape)
        for clusters in cluster_counts
    )


@per_image
def _colour_labels(small: np.ndarray) -> tuple[np.ndarray, ...]:
    """The colour clusterings' label maps (`COLOUR_CLUSTERS`): once per photo, whichever game is looked for."""
    return _labels(_lab(small)[1], COLOUR_CLUSTERS, small.shape[:2])


@per_image
def _texture_labels(small: np.ndarray, sigma: float) -> tuple[np.ndarray, ...]:
    """The colour + wood-grain direction clusterings' label maps (`TEXTURE_CLUSTERS`), the grain's
    structure tensor and the colours smoothed over `sigma` pixels (so a board on a table of the same
    wood still stands apart when its grain runs another way)."""
    lab = _lab(small)[0]
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    gx = np.asarray(cv2.Sobel(gray, cv2.CV_32F, 1, 0), dtype=np.float32)
    gy = np.asarray(cv2.Sobel(gray, cv2.CV_32F, 0, 1), dtype=np.float32)
    jxx = cv2.GaussianBlur(gx * gx, (0, 0), sigma)
    jyy = cv2.GaussianBlur(gy * gy, (0, 0), sigma)
    jxy = cv2.GaussianBlur(gx * gy, (0, 0), sigma)
    trace = jxx + jyy + 50.0
    texture = np.stack([(jxx - jyy) / trace * 60, 2 * jxy / trace * 60, np.log1p(trace) * 6], -1).reshape(-1, 3)
    lab_smooth = cv2.GaussianBlur(lab, (0, 0), sigma).reshape(-1, 3).astype(np.float32)  # a copy
    lab_smooth[:, 0] *= LIGHTNESS_WEIGHT
    colour_texture = np.concatenate([lab_smooth, texture], 1).astype(np.float32)
    return _labels(colour_texture, TEXTURE_CLUSTERS, small.shape[:2])


@per_image
def _blob_marks(small: np.ndarray) -> np.ndarray:
    """Round blobs (pockets, stones) by the determinant of the Hessian (wood grain stripes give
    none), 0/1 float32: once per photo, their density is each game's stone size's."""
    gray_plain = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    hessian = np.zeros_like(gray_plain)
    for scale in BLOB_SCALES:
        b = cv2.GaussianBlur(gray_plain, (0, 0), scale)
        lxx = cv2.Sobel(b, cv2.CV_32F, 2, 0)
        lyy = cv2.Sobel(b, cv2.CV_32F, 0, 2)
        lxy = cv2.Sobel(b, cv2.CV_32F, 1, 1)
        hessian = np.maximum(hessian, (lxx * lyy - lxy * lxy) * scale**4)
    return (hessian > np.percentile(hessian, BLOB_SHARE)).astype(np.float32)


@per_image
def _thin_line_marks(small: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Drawn boards' strongest thin lines (0/1 float32, of the polarity whose drawing holds together)
    and their largest connected piece (None on a blank map): once per photo, for both drawn games."""
    lines = max(
        thin_lines(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32), THIN_LINE_PX), key=_largest_piece
    )
    thin = (lines > np.percentile(lines, LINE_DENSITY_SHARE)).astype(np.float32)
    return thin, _biggest_piece(lines)


@per_image
def _off_the_border(small: np.ndarray) -> tuple[np.ndarray, float]:
    """How far each pixel's colour is from the table's (a colour model of what touches the frame's
    edge), 8 bits, and Otsu's level on it: once per photo."""
    h, w = small.shape[:2]
    lab, colour = _lab(small)
    border_px = max(4, int(BORDER_SHARE * min(h, w)))
    border = np.concatenate(
        [
            lab[:border_px].reshape(-1, 3),
            lab[-border_px:].reshape(-1, 3),
            lab[:, :border_px].reshape(-1, 3),
            lab[:, -border_px:].reshape(-1, 3),
        ]
    )
    border_colour = border.copy()
    border_colour[:, 0] *= LIGHTNESS_WEIGHT
    table = _cluster_centres(border_colour, BORDER_CLUSTERS, seed=BORDER_SEED)
    dist = np.sqrt(_squared_distances(colour, table).min(0)).reshape(h, w)
    dist8 = np.clip(dist * BORDER_STRETCH, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return dist8, float(otsu)


def candidate_masks(small: np.ndarray, stone_px: float, drawn: bool = False) -> list[tuple[str, np.ndarray]]:
    """Regions that may be the board: colour clusters, colour + grain texture clusters, round-blob
    density, for drawn boards thin-dark-line density, and what differs from the frame's border.
    What does not depend on the game's stone size is worked out once per photo (`small` is the
    photo's kept small copy, `memo.shrunk`): a reading looks for more than one game in it."""
    out: list[tuple[str, np.ndarray]] = []
    close_px = max(3, int(stone_px * CLOSE_STONES) | 1)
    close_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close_px, close_px))
    open_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OPEN_PX, OPEN_PX))

    def cleaned(mask: np.ndarray) -> np.ndarray:
        """Specks opened away, gaps the size of a stone closed."""
        return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, open_kernel), cv2.MORPH_CLOSE, close_kernel)

    sigma = max(TEXTURE_MIN_SIGMA, stone_px * TEXTURE_STONES)
    for prefix, label_maps, cluster_counts in (
        ("k", _colour_labels(small), COLOUR_CLUSTERS),
        ("t", _texture_labels(small, sigma), TEXTURE_CLUSTERS),
    ):
        for clusters, nearest in zip(cluster_counts, label_maps):
            for c in range(clusters):
                out.append((f"{prefix}{clusters}c{c}", cleaned((nearest == c).astype(np.uint8) * 255)))
    # where the board's own round features (pockets, stones) are dense
    density8, otsu = _dense(_blob_marks(small), stone_px)
    for level in (otsu * BLOB_LEVELS[0], otsu * BLOB_LEVELS[1]):
        out.append((f"blob{int(level)}", (density8 > level).astype(np.uint8) * 255))
    if drawn:
        # where thin lines are dense: a drawn board on a table of its own wood still has its
        # lines (table grain is broad or sparse at this scale)
        thin, piece = _thin_line_marks(small)
        density8, otsu = _dense(thin, stone_px)
        out.append((f"lines{int(otsu)}", (density8 > otsu).astype(np.uint8) * 255))
        # the drawing itself: the largest connected piece of thin line, filled -- its outer edge
        # is the drawing's (morris' outer square, rings' outer circles), whatever the wood
        if piece is not None:
            out.append(("drawing", piece))
    # border colour model: what touches the frame's edge is table
    dist8, otsu = _off_the_border(small)
    for level in (otsu * BORDER_LEVELS[0], otsu * BORDER_LEVELS[1]):
        out.append((f"border{int(level)}", cleaned((dist8 > level).astype(np.uint8) * 255)))
    return out


def signed_area(polygon: np.ndarray) -> float:
    """The shoelace area: positive counter-clockwise in y-up coordinates."""
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum())


def _reduce_polygon(points: np.ndarray, n: int) -> np.ndarray:
    """Drop the vertex that spans the least area with its neighbours until `n` are left."""
    kept = [tuple(p) for p in points]
    while len(kept) > n:
        best, drop = None, 0
        for i in range(len(kept)):
            a, b, c = np.array(kept[i - 1]), np.array(kept[i]), np.array(kept[(i + 1) % len(kept)])
            area = abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
            if best is None or area < best:
                best, drop = area, i
        kept.pop(drop)
    return np.array(kept, np.float64)


def _refine_edges(poly: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Each side refitted to the contour points along its middle, the corners where the new sides
    meet (the polygon unchanged when that moves a corner far)."""
    n = len(poly)
    lines = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ab = b - a
        length = np.linalg.norm(ab)
        if length < 1e-6:
            return poly
        t = ((contour - a) @ ab) / (length * length)
        rel = contour - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / length
        near = contour[(t > SIDE_END_SHARE) & (t < 1 - SIDE_END_SHARE) & (dist < max(3.0, EDGE_FIT_REACH * length))]
        if len(near) < 5:
            lines.append((a, ab / length))
            continue
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        A = np.array([d1, -d2]).T
        if abs(np.linalg.det(A)) < 1e-6:
            out.append(poly[i])
            continue
        t = np.linalg.solve(A, p2 - p1)
        out.append(p1 + t[0] * d1)
    corners = np.array(out)
    if np.abs(corners - poly).max() > EDGE_MOVE_MAX * np.linalg.norm(poly.max(0) - poly.min(0)):
        return poly
    return corners


def fit_polygons(mask: np.ndarray, n: int, min_area: float, max_area: float) -> list[np.ndarray]:
    """N-gons around the mask's biggest regions (a region of sane size and solid enough)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    polys = []
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
        area = cv2.contourArea(c)
        if not (min_area <= area <= max_area):
            continue
        hull = cv2.convexHull(c).reshape(-1, 2).astype(np.float64)
        if len(hull) < n:
            continue
        solidity = area / max(1.0, cv2.contourArea(hull.astype(np.float32)))
        if solidity < MIN_SOLIDITY:
            continue
        poly = _reduce_polygon(hull, n)
        poly = _refine_edges(poly, c.reshape(-1, 2).astype(np.float64))
        polys.append(poly)
    return polys
