"""Evidence: how clearly the board's own marks show where a fit (`H`: board units -> image
pixels, the usual name of a homography) puts them.

Drawn boards (morris, rings) are judged by their drawn lines (`line_evidence`), the round edges
of their stones when crowded (`stone_evidence`) and round markers on morris' points
(`point_evidence`), and morris' fit from its neighbours a unit off by the segments its lines leave
undrawn (`pattern_contrast`); an oriented board's way round by the ink of its engraved numbers
(`numbers_ink`); every board by the share of its outline where the photo changes colour
(`outline_support`).  Pocket boards' round marks are `marks.grid_fit`'s.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from .camera import raised
from .frame import Frame
from .layouts import SQRT3, Layout, drawn_lines, get_layout, ring_circles
from .marks import ring_response, window_peaks
from .memo import per_image
from .segment import thin_lines
from .tuning import (
    CENTRED,
    CROWDED,
    EDGE_CHANGE,
    HIDDEN,
    LINE_CLEAR_FROM,
    LINE_INSET,
    LENS_LINES,
    LINE_EDGE_SHARE,
    LINE_HALF_WIDTH,
    LINE_KERNEL,
    LINE_OUTER_REACH,
    LINE_S,
    LINE_SAMPLE_STEP,
    LINE_TOL,
    LINES_BAR,
    MIN_SEEN,
    NUMBERS_S,
    OUTLINE_CORNER_SHARE,
    OUTLINE_REACH,
    OUTLINE_SAMPLES,
    PATTERN_BAR,
    PATTERN_CLEAR,
    POINT_MARKED,
    POINT_SIZES,
    STONE_EDGE,
    STONE_LIFT,
    STONE_S,
    STONE_SIZES,
    STONE_WINDOW,
    STRONG_PEAK,
    STRONG_PEAK_SHARE,
    SUPPORT_BLUR,
)


def stronger_on(maps: tuple[np.ndarray, ...], px: np.ndarray) -> np.ndarray:
    """Of several line maps, the one that shows more at the pixels where the drawing should be."""
    flat = px.reshape(-1, 2).astype(np.float32)
    padded = np.concatenate([flat, np.repeat(flat[:1], -len(flat) % 256, 0)])  # remap wants short rows
    x, y = padded[:, 0].reshape(-1, 256), padded[:, 1].reshape(-1, 256)
    return max(maps, key=lambda m: float(cv2.remap(m, x, y, cv2.INTER_LINEAR).mean()))


def line_kernel(game: str, s: float) -> int:
    """The width (odd, pixels at `s` per board unit) of the strokes a drawn board's lines show as."""
    return max(3, int(round(LINE_KERNEL[game] * s)) | 1)


@functools.lru_cache(maxsize=8)
def line_samples(game: str, step: float = LINE_SAMPLE_STEP) -> tuple[np.ndarray, np.ndarray]:
    """Points on the board's drawn lines (board units) and their normals, away from the locations."""
    layout = get_layout(game)
    pts: list[np.ndarray] = []
    nrm: list[np.ndarray] = []
    if game == "morris":
        for start, end in drawn_lines(layout):
            a, b = np.array(start, float), np.array(end, float)
            n = int(np.linalg.norm(b - a) / step)
            e = (b - a) / np.linalg.norm(b - a)
            for t in np.linspace(0, 1, n + 1):
                pts.append(a + t * (b - a))
                nrm.append(np.array([-e[1], e[0]]))
    elif game == "rings":
        full, partial = ring_circles()
        radius = 1 / SQRT3
        n = int(2 * math.pi * radius / step)
        for q, r in full + partial:
            c = np.array([q + r / 2, r * SQRT3 / 2])
            for k in range(n):
                t = 2 * math.pi * k / n
                d = np.array([math.cos(t), math.sin(t)])
                pts.append(c + radius * d)
                nrm.append(d)
    else:
        return np.zeros((0, 2)), np.zeros((0, 2))
    points, normals = np.array(pts), np.array(nrm)
    d = np.min(np.linalg.norm(points[:, None, :] - layout.xy[None], axis=2), axis=1)
    inside = cv2.pointPolygonTest
    poly = (layout.outline * LINE_INSET).astype(np.float32)
    ok = (d > LINE_CLEAR_FROM[game]) & np.array([inside(poly, (float(x), float(y)), False) > 0 for x, y in points])
    return points[ok], normals[ok]


@per_image
def line_peak_values(
    gray: np.ndarray, H: np.ndarray, layout: Layout, win: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the normal of every drawn-line sample: where, within +-win board units, the strongest
    thin line (of the polarity the drawing has) lies, and how strong it is.  Returns (samples,
    offsets along their normals, peak strengths).  Rings' lines are placed by their outer edge
    (`_lens_offsets`)."""
    pts, nrm = line_samples(layout.game)
    s = LINE_S[layout.game]
    fr = Frame(layout, s, margin=0.5)
    warped = fr.warp(gray, H)
    maps = thin_lines(cv2.GaussianBlur(warped, (0, 0), 1.0), line_kernel(layout.game, s))
    offs = np.linspace(-win, win, int(2 * win * s) + 1)
    lens = layout.game in LENS_LINES
    if lens:  # the outer edge is looked for past the window too
        offs = np.concatenate([offs, win + (offs[1] - offs[0]) * np.arange(1, int(LINE_OUTER_REACH * s) + 1)])
    inside = offs <= win + 1e-9
    across = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
    px = fr.to_px(across.reshape(-1, 2)).reshape(len(pts), len(offs), 2).astype(np.float32)
    ink = stronger_on(maps, px[:, inside])
    vals = cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR)
    j = np.argmax(np.where(inside, vals, -np.inf), axis=1)
    peak = vals[np.arange(len(pts)), j]
    if lens:
        off, peak = _lens_offsets(offs, vals, peak)
        return pts, off, peak
    return pts, offs[j], peak


def _lens_offsets(offs: np.ndarray, vals: np.ndarray, peak: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rings' line samples' offsets from their outer edges, and their peaks (0 where the edge lies past
    the reach).  Between two points a circle runs beside its neighbour's arc, 0.1-0.16 board units inside
    it (the two bound a lens), so a line wider than that merges with its neighbour's into one band whose
    strongest place is anywhere across it (on the right fit, a line of 4-6 mm showed 0.26-0.46 of its
    samples where the fit put it).  Outside a circle the board is bare, so the band's outer edge (where
    it falls to `LINE_EDGE_SHARE` of its peak) lies half a line's width outside the circle, whatever the
    neighbour: the offset is that edge less the samples' median edge (half the width on the right fit,
    0.03-0.12 board units), at most `LINE_HALF_WIDTH`."""
    n = len(offs)
    rows = np.arange(len(vals))
    level = LINE_EDGE_SHARE * peak
    last = np.where(vals >= level[:, None], np.arange(n), -1).max(1)  # the outermost place as inky
    reached = (last >= 0) & (last < n - 1)
    k = np.clip(last, 0, n - 2)
    drop = vals[rows, k] - vals[rows, k + 1]
    edge = offs[k] + np.clip((vals[rows, k] - level) / np.maximum(drop, 1e-6), 0.0, 1.0) * (offs[1] - offs[0])
    peak = np.where(reached, peak, 0.0)
    strong = peak > max(STRONG_PEAK, float(np.percentile(peak, STRONG_PEAK_SHARE)))
    # a fit a third of a triangle off puts the circles where some other mark's edge lies at one distance
    # from them all (0.23-0.38 board units: dev seed 75's ring markers): no line is that wide
    half_width = min(float(np.median(edge[strong])), LINE_HALF_WIDTH) if strong.any() else 0.0
    return edge - half_width, peak


def line_peaks(
    gray: np.ndarray, H: np.ndarray, layout: Layout, win: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`line_peak_values` with each peak's strength as whether it counts: as strong as the
    drawing's stronger lines on this fit (a share of the samples is always left out: stones,
    glare, worn lines)."""
    pts, off, peak = line_peak_values(gray, H, layout, win)
    return pts, off, peak > max(STRONG_PEAK, float(np.percentile(peak, STRONG_PEAK_SHARE)))


def sure_stones(gray: np.ndarray, H: np.ndarray, layout: Layout, win: float) -> tuple[np.ndarray, np.ndarray]:
    """Drawn boards: the locations (board units) with a clear stone's round edge within `win`
    board units of where the fit puts them, and where that edge's centre lies (board units)."""
    fr = Frame(layout, STONE_S, margin=0.5)
    radii = tuple(layout.stone_radius * f for f in STONE_SIZES)
    resp = ring_response(fr.warp(gray, H), STONE_S, radii)
    ok, pos, val = window_peaks(resp, fr.to_px(layout.xy), max(1, int(round(win * STONE_S))))
    sure = val > STONE_EDGE * (float(np.percentile(resp, 99.5)) + 1e-6)
    return layout.xy[ok][sure], fr.to_units(pos[sure])


def samples_in_view(gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray | None:
    """Drawn boards: which drawn-line samples no stone hides where the fit puts the stones
    (None: too few left to judge by)."""
    pts, _ = line_samples(layout.game)
    stones, _ = sure_stones(gray, H, layout, 0.1)
    if not len(stones):
        return None
    seen = np.min(np.linalg.norm(pts[:, None] - stones[None], axis=2), axis=1) > HIDDEN * layout.stone_radius
    return seen if seen.sum() >= MIN_SEEN else None


def lines_bar(gray: np.ndarray, H: np.ndarray, layout: Layout) -> float:
    """How strong a line must show for `lines_everywhere`: a share of the typical line on this fit,
    low enough that on the right fit nearly every sample not under a stone passes."""
    _, _, peak = line_peak_values(gray, H, layout, 0.2)
    return max(STRONG_PEAK, LINES_BAR * float(np.median(peak)))


def lines_everywhere(gray: np.ndarray, H: np.ndarray, layout: Layout, bar: float) -> float:
    """Drawn boards: share of all the drawn-line samples with a line at least `bar` strong right
    where the fit puts it. Unlike `line_evidence` it counts the samples that show no line (off the
    board, on a plain table) against the fit, and with one bar for every fit it compares (`line_peaks`'
    bar is a share of each fit's own samples: any fit passes 60% of them)."""
    _, off, peak = line_peak_values(gray, H, layout, 0.2)
    return float(((peak > bar) & (np.abs(off) <= LINE_TOL)).mean())


@functools.lru_cache(maxsize=2)
def pattern_segments(game: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Morris' unit segments (board units) as samples along their middles and their normals: those its lines
    draw, and those a line never runs along -- the lattice's other unit segments inside the outer square
    (the centre's gap, between the squares) and the lines' continuations past the outer square's corners and
    middle points, where a fit a unit off finds the neighbouring lines running on.  Returns (drawn samples,
    their normals, undrawn samples, their normals)."""
    layout = get_layout(game)
    Point = tuple[float, float]
    drawn: set[tuple[Point, Point]] = set()
    for start, end in drawn_lines(layout):
        a, b = np.round(start), np.round(end)
        step = np.sign(b - a)
        for k in range(int(np.abs(b - a).max())):
            p, q = a + k * step, a + (k + 1) * step
            ends = sorted([(float(p[0]), float(p[1])), (float(q[0]), float(q[1]))])
            drawn.add((ends[0], ends[1]))
    lo, hi = np.round(layout.xy.min(0)).astype(int), np.round(layout.xy.max(0)).astype(int)
    undrawn: list[tuple[Point, Point]] = []
    for k in range(lo[1], hi[1] + 1):
        for i in range(lo[0], hi[0]):
            for (x0, y0), (x1, y1) in (((i, k), (i + 1, k)), ((k, i), (k, i + 1))):
                seg = ((float(x0), float(y0)), (float(x1), float(y1)))
                if seg not in drawn:
                    undrawn.append(seg)
    reach = float(LINE_INSET * np.abs(layout.outline).max())  # short of the board's edge
    for out in np.round(layout.xy):
        for axis in (0, 1):
            if abs(out[axis]) == hi[0]:
                past = out.copy()
                past[axis] = np.sign(out[axis]) * reach
                undrawn.append(((float(out[0]), float(out[1])), (float(past[0]), float(past[1]))))

    def middles(segs) -> tuple[np.ndarray, np.ndarray]:
        pts, nrm = [], []
        for a, b in segs:
            a, b = np.array(a, float), np.array(b, float)
            e = (b - a) / np.linalg.norm(b - a)
            for t in np.linspace(0.3, 0.7, 5):  # away from the points' stones
                pts.append(a + t * (b - a))
                nrm.append([-e[1], e[0]])
        return np.array(pts), np.array(nrm)

    return (*middles(sorted(drawn)), *middles(undrawn))


def pattern_contrast(gray: np.ndarray, fits: list[np.ndarray], layout: Layout) -> list[float]:
    """Morris: for each fit, the share of its drawn unit segments that show a line less the share of its undrawn
    ones that do (`pattern_segments`), with one bar for all -- PATTERN_BAR of the first fit's drawn median: the
    line strength the photo's lines show.  Near 1 on the right fit where lines show; a fit a unit off lays
    undrawn segments on lines and drawn ones on gaps, so it scores far lower (wood grain or faint lines: both
    near 0)."""
    dp, dn, up, un = pattern_segments(layout.game)
    s = LINE_S[layout.game]
    fr = Frame(layout, s, margin=1.0)
    offs = np.linspace(-PATTERN_CLEAR, PATTERN_CLEAR, 5)
    bar = None
    out = []
    for H in fits:
        maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 1.0), line_kernel(layout.game, s))
        drawn_px, undrawn_px = (_across(fr, pts, nrm, offs) for pts, nrm in ((dp, dn), (up, un)))
        ink = stronger_on(maps, drawn_px)
        drawn, undrawn = (
            cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).max(1) for px in (drawn_px, undrawn_px)
        )
        if bar is None:
            bar = PATTERN_BAR * float(np.median(drawn))
        out.append(float((drawn > bar).mean() - (undrawn > bar).mean()))
    return out


def _across(fr: Frame, pts: np.ndarray, nrm: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """Pixels of `fr` at each sample moved by each of `offs` along its normal (samples x offsets x 2)."""
    across = pts[:, None] + offs[None, :, None] * nrm[:, None]
    return fr.to_px(across.reshape(-1, 2)).reshape(len(pts), len(offs), 2).astype(np.float32)


def line_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, seen: np.ndarray | None = None) -> float:
    """Drawn boards: share of the drawn-line samples whose line lies right where the fit puts it,
    among the samples in view (`seen`: a crowded rings board covers most of its circles, and a
    stone's edge is no line)."""
    _, off, strong = line_peaks(gray, H, layout, 0.2)
    if seen is not None:
        strong = strong & seen
    return float((strong & (np.abs(off) <= LINE_TOL)).sum()) / max(1, int(strong.sum()))


def stone_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, shape: tuple[int, ...]) -> float:
    """Drawn boards crowded with stones: the share of the stones whose round edge is centred on
    their location (a wrong lattice puts few there); 0 while under CROWDED of the locations hold one."""
    locs, found = sure_stones(gray, raised(H, shape, STONE_LIFT * layout.stone_radius), layout, STONE_WINDOW)
    if len(locs) < CROWDED * len(layout.xy):
        return 0.0
    return float((np.linalg.norm(found - locs, axis=1) < CENTRED).mean())


@functools.lru_cache(maxsize=4)
def _between_points(game: str) -> np.ndarray:
    """Lattice points inside a drawn board's outer square where no location is (board units):
    a board of pockets has a mark there, a morris board never does."""
    xy = get_layout(game).xy
    have = set(map(tuple, np.round(xy).astype(int)))
    lo, hi = np.round(xy.min(0)).astype(int), np.round(xy.max(0)).astype(int)
    return np.array(
        [(x, y) for x in range(lo[0], hi[0] + 1) for y in range(lo[1], hi[1] + 1) if (x, y) not in have], np.float64
    )


def point_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, shape: tuple[int, ...]) -> float:
    """Morris boards whose points carry round marks -- markers up to a stone's size, or stones --
    show the fit by them where faint or hidden lines cannot: the share of the locations with a
    round edge centred on them (on the board or on a stone's raised body), less the share of
    the lattice points between the locations that have one (a pocket board has them everywhere)."""
    if layout.game not in POINT_MARKED:
        return 0.0
    fr = Frame(layout, STONE_S, margin=0.5)
    radii = tuple(layout.stone_radius * f for f in POINT_SIZES)
    reach = max(1, int(round(STONE_WINDOW * STONE_S)))
    centred = np.zeros(len(layout.xy), bool)
    between = 0.0
    for k, plane in enumerate((H, raised(H, shape, STONE_LIFT * layout.stone_radius))):
        resp = ring_response(fr.warp(gray, plane), STONE_S, radii)
        level = STONE_EDGE * (float(np.percentile(resp, 99.5)) + 1e-6)
        ok, pos, val = window_peaks(resp, fr.to_px(layout.xy), reach)
        near = np.linalg.norm(fr.to_units(pos) - layout.xy[ok], axis=1) < CENTRED
        centred[ok[(val > level) & near]] = True
        if k == 0:
            spots = _between_points(layout.game)
            ok_b, pos_b, val_b = window_peaks(resp, fr.to_px(spots), reach)
            near_b = np.linalg.norm(fr.to_units(pos_b) - spots[ok_b], axis=1) < 2 * CENTRED
            between = float(((val_b > level) & near_b).sum()) / max(1, len(spots))
    return max(0.0, float(centred.mean()) - between)


def numbers_ink(gray: np.ndarray, H: np.ndarray, layout: Layout) -> float:
    """Fine strokes, dark or light, in the wide margin below row 1 where the fit puts it: the
    engraved or printed column numbers of an oriented board (sage-stones) -- the other end's
    margin has none."""
    fr = Frame(layout, NUMBERS_S, margin=0.3)
    strokes = np.maximum(*thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.8), int(0.25 * NUMBERS_S) | 1))
    x0, x1 = layout.xy[:, 0].min() - 0.4, layout.xy[:, 0].max() + 0.4
    y0, y1 = layout.outline[:, 1].min() + 0.4, layout.xy[:, 1].min() - 0.6
    (left, top), (right, bottom) = np.round(fr.to_px(np.array([[x0, y1], [x1, y0]]))).astype(int)
    return float(strokes[top:bottom, left:right].mean())


@per_image
def support_lab(img: np.ndarray) -> np.ndarray:
    """The photo in Lab, smoothed, as `outline_support` compares colours across the outline."""
    return cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), SUPPORT_BLUR), cv2.COLOR_BGR2Lab).astype(np.float32)


@functools.lru_cache(maxsize=16)
def outline_samples(game: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` points spread along the board's outline (board units), less those near a corner, and
    their outward normals."""
    outline = get_layout(game).outline
    k = len(outline)
    seg = np.linalg.norm(np.roll(outline, -1, 0) - outline, axis=1)
    cum = np.concatenate([[0], np.cumsum(seg)])
    centre = outline.mean(0)
    pts, nrm = [], []
    for t in np.linspace(0, seg.sum(), n, endpoint=False):
        i = int(np.searchsorted(cum, t, side="right") - 1)
        a, b = outline[i], outline[(i + 1) % k]
        u = (t - cum[i]) / seg[i]
        if u < OUTLINE_CORNER_SHARE or u > 1 - OUTLINE_CORNER_SHARE:
            continue  # corners are ambiguous
        p = a + u * (b - a)
        e = (b - a) / seg[i]
        normal = np.array([e[1], -e[0]])
        if np.dot(normal, p - centre) < 0:
            normal = -normal
        pts.append(p)
        nrm.append(normal)
    return np.array(pts), np.array(nrm)


def outline_support(
    img: np.ndarray,
    H: np.ndarray,
    layout: Layout,
    d: float = OUTLINE_REACH,
    n: int = OUTLINE_SAMPLES,
    lab: np.ndarray | None = None,
) -> float:
    """Share of the projected outline where the photo changes colour across it (a real board edge)."""
    pts, nrm = outline_samples(layout.game, n)
    inner = cv2.perspectiveTransform((pts - d * nrm).reshape(-1, 1, 2), H).reshape(-1, 2)
    outer = cv2.perspectiveTransform((pts + d * nrm).reshape(-1, 1, 2), H).reshape(-1, 2)
    h, w = img.shape[:2]
    ok = ((inner >= 0) & (inner < [w - 1, h - 1])).all(1) & ((outer >= 0) & (outer < [w - 1, h - 1])).all(1)
    if ok.sum() < 10:
        return 0.0
    if lab is None:
        lab = support_lab(img)
    inner_px = np.round(inner[ok]).astype(int)
    outer_px = np.round(outer[ok]).astype(int)
    inside = lab[inner_px[:, 1], inner_px[:, 0]]
    outside = lab[outer_px[:, 1], outer_px[:, 0]]
    change = np.sqrt(((inside - outside) ** 2).sum(1))
    return float((change > EDGE_CHANGE).mean()) * float(ok.mean())
