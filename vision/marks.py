"""The board's own round marks on their lattice, found in a photo.

Pocket boards (three-stones, sage-stones) have a round pocket at every location, an
empty one or one holding a stone.  A pocket under a lamp is a shaded dimple (one rim
bright, the other dark), a stone a round dome: neither is reliably a bright or a dark
blob, but both have a round edge of about a stone's size.  `ring_response` measures that edge from the gradient's direction --
radial on a circle, while wood grain's stripes push radial and tangential alike and
cancel -- so it does not care about light direction or grain.

`grid_fit` pulls a rough fit onto the lattice of marks: every mark takes the strongest
round edge near it, a RANSAC homography follows, and since a lattice shifted by a whole
step fits as well locally, the shift is chosen by the lattice's edge: marks at every
mark point and none on the lattice just outside.  That contrast (`GridFit.evidence`)
is also how sure we are that this is the board.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .consensus import consensus_homography
from .frame import Frame
from .layouts import Layout, get_layout

RING_DIRECTIONS = 16
MARK_LEVEL = 0.3  # a clear round edge: this share of the strongest in the warp
SHIFT_MARGIN = 2.0  # frame margin (board units) that holds the lattice just outside, shifted
MIN_PEAKS = 8  # round edges a lattice fit needs on its consensus, at least ...
MIN_PEAK_SHARE = 0.3  # ... and this share of the marks' peaks
# a clear side's round edges at its lattice points that count however much shows between them:
# Blender seed 115's sage-stones_b115000's border lines 0.34 of its pockets (refused) -> 0.24; a
# sage-stones fit on a three-stones board, dev seed 81's 81000, 0.50 -> 0.35 (at 0.5: 0.25, accepted)
AT_POINTS_SHARE = 0.7


@dataclass(frozen=True)
class MarkGrid:
    """Where a board's round marks are, their size, and the lattice they sit on (board units)."""

    points: np.ndarray  # (n, 2) centres of the marks
    radii: tuple[float, ...]  # radius of the round edge (a few sizes)
    steps: tuple[tuple[float, float], ...]  # lattice steps: a whole-step shift fits as well locally
    outer: np.ndarray  # lattice points just outside the marks: no mark there
    clear_sides: tuple[np.ndarray, ...]  # lattice points one step outside the sides that hold no marks
    clear_between: tuple[np.ndarray, ...]  # half-way between neighbouring points of each clear side
    edge_lines: tuple[np.ndarray, ...]  # which of the points make each outermost row and column
    spacing: float  # distance between neighbouring marks


@functools.lru_cache(maxsize=None)
def mark_grid(game: str) -> MarkGrid | None:
    """The round-mark lattice of a game (None for the drawn boards: their marks are thin lines,
    found by `refine.line_refine`)."""
    if game in ("three-stones", "sage-stones"):
        xy = get_layout(game).xy
        have = set(map(tuple, np.round(xy).astype(int)))
        out = {(x + dx, y + dy) for x, y in have for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - have
        # sage-stones' long sides have a narrow margin and nothing beyond: a column of pockets
        # there is a bigger board (three-stones' 9x9 holds the 7x9 grid); its numbered short
        # edge has marks of its own, and three-stones is the biggest pocket board
        clear = ((1, 0), (-1, 0)) if game == "sage-stones" else ()
        sides = tuple(np.array(sorted({(x + dx, y + dy) for x, y in have} - have), np.float64) for dx, dy in clear)
        between = tuple(_between(side) for side in sides)
        return MarkGrid(
            points=xy,
            radii=(0.36, 0.42, 0.48),
            steps=((1.0, 0.0), (0.0, 1.0)),
            outer=np.array(sorted(out), np.float64),
            clear_sides=sides,
            clear_between=between,
            edge_lines=tuple(
                np.flatnonzero(np.isclose(xy[:, axis], end))
                for axis in (0, 1)
                for end in (xy[:, axis].min(), xy[:, axis].max())
            ),
            spacing=1.0,
        )
    return None


def _between(side: np.ndarray) -> np.ndarray:
    """The points half-way between neighbouring lattice points of a line of them."""
    have = set(map(tuple, side))
    return np.array(
        sorted(
            (x + 0.5 * dx, y + 0.5 * dy) for x, y in have for dx, dy in ((1, 0), (0, 1)) if (x + dx, y + dy) in have
        ),
        np.float64,
    )


def ring_response(gray: np.ndarray, s: float, radii: tuple[float, ...]) -> np.ndarray:
    """Round-edge strength at every pixel of a canonical warp with `s` pixels per board unit:
    the mean over a circle of |radial| - |tangential| gradient (sqrt-compressed magnitudes),
    the best of the given radii (board units)."""
    best: np.ndarray | None = None
    for acc in ring_responses(*unit_gradients(gray, s), [rad * s for rad in radii]):
        best = acc if best is None else np.maximum(best, acc)
    if best is None:
        raise ValueError("ring_response needs at least one radius")
    return best


def unit_gradients(gray: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """The gradient `ring_response` measures round edges in (smoothed for `s` pixels per board
    unit, its size square-root compressed): the same for every radius looked for."""
    g = cv2.GaussianBlur(gray, (0, 0), max(0.7, 0.06 * s))
    gx = np.asarray(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32)
    gy = np.asarray(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32)
    k = 1.0 / np.sqrt(np.sqrt(gx * gx + gy * gy) + 1e-3)  # keep the direction, compress the size
    gx *= k
    gy *= k
    return gx, gy


def _ring_directions(n: int) -> tuple[tuple[float, ...], tuple[tuple[float, float, int, int, bool], ...]]:
    """The sizes of the directions' cosines and sines as float32 (as numpy multiplies a float32
    array by a Python float) and per direction (cos, sin, its cosine's size, its sine's size
    (indices into the sizes), whether the two have the same sign)."""
    turns = [(math.cos(2 * math.pi * j / n), math.sin(2 * math.pi * j / n)) for j in range(n)]
    sizes = sorted({abs(float(np.float32(v))) for turn in turns for v in turn})
    at = {size: k for k, size in enumerate(sizes)}
    return tuple(sizes), tuple(
        (c, sn, at[abs(float(np.float32(c)))], at[abs(float(np.float32(sn)))], (c < 0) == (sn < 0)) for c, sn in turns
    )


_SIZES, _DIRECTIONS = _ring_directions(RING_DIRECTIONS)


def ring_responses(gx: np.ndarray, gy: np.ndarray, radii_px: list[float]) -> list[np.ndarray]:
    """The round-edge response of `unit_gradients` at each radius (pixels) in turn."""
    if not radii_px:
        return []
    h, w = gx.shape
    R = int(math.ceil(max(radii_px))) + 1  # every radius' shifts stay in the padding (zeros, as beyond the image)
    px = cv2.copyMakeBorder(gx, R, R, R, R, cv2.BORDER_CONSTANT, value=0)
    py = cv2.copyMakeBorder(gy, R, R, R, R, cv2.BORDER_CONSTANT, value=0)
    # |radial| - |tangential| in two buffers, step by step in place: the same float32 sums as
    # `np.abs(sx * c + sy * sn) - np.abs(sy * c - sx * sn)`, without a new array at every step.
    # Each gradient is multiplied once by each size of cosine (8 for 16 directions, not 32 times
    # a radius): a product's sign is its factors' and |-a + -b| = |a + b| exactly, so a direction
    # adds or subtracts the shifted products as their signs say.
    xs = [np.multiply(px, size) for size in _SIZES]
    ys = [np.multiply(py, size) for size in _SIZES]
    radial, tangential = (np.empty((h, w), np.float32) for _ in range(2))
    out = []
    for r in radii_px:
        acc = np.zeros((h, w), np.float32)
        for c, sn, at_c, at_sn, same_sign in _DIRECTIONS:
            dx, dy = int(round(r * c)), int(round(r * sn))
            window = (slice(R + dy, R + dy + h), slice(R + dx, R + dx + w))
            if same_sign:  # +-(sx * |c| + sy * |sn|) and +-(sy * |c| - sx * |sn|)
                np.add(xs[at_c][window], ys[at_sn][window], out=radial)
                np.subtract(ys[at_c][window], xs[at_sn][window], out=tangential)
            else:  # +-(sx * |c| - sy * |sn|) and +-(sy * |c| + sx * |sn|)
                np.subtract(xs[at_c][window], ys[at_sn][window], out=radial)
                np.add(ys[at_c][window], xs[at_sn][window], out=tangential)
            acc += np.subtract(np.abs(radial, out=radial), np.abs(tangential, out=tangential), out=radial)
        acc *= 1.0 / RING_DIRECTIONS
        out.append(acc)
    return out


def window_peaks(resp: np.ndarray, centres: np.ndarray, R: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each centre (pixels): the strongest response within +-R pixels, sub-pixel.
    Returns (index of the centres whose window fits inside the map, peak positions, peak values)."""
    h, w = resp.shape
    c = np.round(centres).astype(int)
    ok = np.nonzero((c[:, 0] - R >= 1) & (c[:, 1] - R >= 1) & (c[:, 0] + R < w - 1) & (c[:, 1] + R < h - 1))[0]
    if len(ok) == 0:
        return ok, np.zeros((0, 2)), np.zeros(0)
    offs = np.arange(-R, R + 1)
    k = len(offs)
    ys = c[ok, 1][:, None, None] + offs[None, :, None]
    xs = c[ok, 0][:, None, None] + offs[None, None, :]
    flat = resp[ys, xs].reshape(len(ok), -1)
    j = flat.argmax(1)
    py, px = np.divmod(j, k)
    val = flat[np.arange(len(ok)), j]
    yy, xx = c[ok, 1] + offs[py], c[ok, 0] + offs[px]

    def vertex(a, b, d):  # parabola through three samples: offset of its top
        den = a - 2 * b + d
        return np.where(den < 0, 0.5 * (a - d) / np.where(den < 0, den, -1.0), 0.0)

    ox = vertex(resp[yy, xx - 1], val, resp[yy, xx + 1])
    oy = vertex(resp[yy - 1, xx], val, resp[yy + 1, xx])
    pos = np.stack([xx + np.clip(ox, -0.5, 0.5), yy + np.clip(oy, -0.5, 0.5)], 1).astype(np.float64)
    return ok, pos, val


@dataclass
class GridFit:
    H: np.ndarray  # board units -> image pixels
    evidence: float  # round edges at the marks against the lattice just outside (about 0..1.5)
    present: float  # share of the marks with a clear round edge right there
    weakest_side: float  # how clearly the weakest outermost line of marks shows them (`_weakest_side`)
    outside: float  # round edges one step beyond a clear side, against the marks' (another board's marks)


def grid_fit(
    gray: np.ndarray,
    H: np.ndarray,
    layout: Layout,
    s: float = 10.0,
    rounds: tuple[float, ...] = (0.6, 0.35),
    shift: bool = True,
) -> GridFit:
    """Fit H (board units -> pixels of `gray`) onto the lattice of round marks; see the module
    docstring.  `rounds` are the search windows (in mark spacings); the first may reach a
    neighbouring mark, which the whole-step shift test then sets right."""
    grid = mark_grid(layout.game)
    if grid is None:
        raise ValueError(f"{layout.game} has no round marks to fit (a drawn board's lines are refined instead)")
    for k, win in enumerate(rounds):
        fr, resp = _mark_map(gray, H, layout, grid, s, 0.8)
        ok, pos, val = window_peaks(resp, fr.to_px(grid.points), max(1, int(round(win * grid.spacing * s))))
        keep = val > 0
        H2 = _homography_from_peaks(H, fr, grid.points[ok][keep], pos[keep], 0.12 * grid.spacing)
        if H2 is None:
            break
        H = H2
        if shift and k == 0:
            fr, resp = _mark_map(gray, H, layout, grid, s, SHIFT_MARGIN)
            H = _best_shift(resp, fr, H, grid)
    fr, resp = _mark_map(gray, H, layout, grid, s, SHIFT_MARGIN)
    shown, at_marks = _shown(resp, fr, grid.points, s), _sample(resp, fr, grid.points)
    return GridFit(
        H=H,
        evidence=_evidence(resp, fr, grid),
        present=float(shown.mean()),
        weakest_side=_weakest_side(shown, at_marks, grid),
        outside=_outside(resp, fr, grid, at_marks),
    )


def placement_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, s: float = 10.0) -> float:
    """`GridFit.evidence` of H as it is, fitted to nothing: how clearly round edges sit at the
    board's marks, the weak ones too, and not on the lattice just outside."""
    grid = mark_grid(layout.game)
    if grid is None:
        raise ValueError(f"{layout.game} has no round marks to lay on a lattice")
    fr, resp = _mark_map(gray, H, layout, grid, s, SHIFT_MARGIN)
    return _evidence(resp, fr, grid)


def _outside(resp: np.ndarray, fr: Frame, grid: MarkGrid, at_marks: np.ndarray) -> float:
    """The strongest clear side's round edges, as a share of the marks' typical one (`at_marks`: the
    round edge at each mark): how much rounder it is at its lattice points than half-way between them,
    or AT_POINTS_SHARE of what it shows at the points, whichever is more.  A straight line along the
    side (the board's border lines, its edge) shows as much between the points as at them, while
    another board's empty pockets are round edges apart; its stones, touching, show between them too,
    and are kept by their full round edges at the points."""
    inner = float(np.median(at_marks)) + 1e-6
    shares = []
    for side, mid in zip(grid.clear_sides, grid.clear_between):
        at_points = float(np.median(_sample(resp, fr, side)))
        between = max(float(np.median(_sample(resp, fr, mid))), 0.0)
        shares.append(max(at_points - between, AT_POINTS_SHARE * at_points) / inner)
    return max(shares, default=0.0)


def _shown(resp: np.ndarray, fr: Frame, pts: np.ndarray, s: float) -> np.ndarray:
    """Per point, whether a clear round edge lies within a tenth of a spacing of it."""
    level = MARK_LEVEL * (float(np.percentile(resp, 99)) + 1e-6)
    ok, _, val = window_peaks(resp, fr.to_px(pts), max(1, int(round(0.1 * s))))
    shown = np.zeros(len(pts), bool)
    shown[ok] = val > level
    return shown


def _weakest_side(shown: np.ndarray, at_marks: np.ndarray, grid: MarkGrid) -> float:
    """How clearly the weakest outermost row or column shows its marks: the share of them shown
    (`_shown`) or its typical round edge against all the marks' (`at_marks`), whichever is more.  A
    bigger board's fit over a smaller one lays whole lines at its sides off the board, which show
    neither (dev seeds 81, 103, 107 and the wide set: a three-stones fit on sage-stones' pockets 0.14
    at most); faint marks beside strong stones, missed here and there, leave every side some.  Either
    alone can miss a side of faint empty pockets: stones in most pockets lift the typical edge far
    above every empty pocket's (Blender seed 115's sage-stones_b115002: its empty side 0.45 of it, the
    board refused; `test_lattice.py`: 0.23, with most of the side's pockets shown), and where the faint
    pockets fall under the photo's clear edges, their typical edge still shows."""
    typical = float(np.median(at_marks))
    return max(
        min(float(shown[line].mean()) for line in grid.edge_lines),
        min(float(np.median(at_marks[line])) for line in grid.edge_lines) / typical if typical > 0 else 0.0,
    )


def _mark_map(
    gray: np.ndarray, H: np.ndarray, layout: Layout, grid: MarkGrid, s: float, margin: float
) -> tuple[Frame, np.ndarray]:
    fr = Frame(layout, s, margin=margin)
    return fr, ring_response(fr.warp(gray, H), s, grid.radii)


def _sample(resp: np.ndarray, fr: Frame, pts: np.ndarray) -> np.ndarray:
    px = fr.to_px(pts).astype(np.float32)
    v = cv2.remap(
        resp,
        px[:, 0].reshape(1, -1),
        px[:, 1].reshape(1, -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return v.ravel()


def _evidence(resp: np.ndarray, fr: Frame, grid: MarkGrid, shift=(0.0, 0.0), scale: float | None = None) -> float:
    """Round edges at the marks less those on the lattice just outside, against the map's strongest
    (`scale`: `_strongest(resp)`, given where one map is read at many shifts)."""
    scale = _strongest(resp) if scale is None else scale
    inner = _sample(resp, fr, grid.points + shift)
    outer = _sample(resp, fr, grid.outer + shift)
    return float(inner.mean() - outer.mean()) / scale


def _strongest(resp: np.ndarray) -> float:
    """The map's strongest round edges (its 99th percentile): what the evidence is measured against."""
    return float(np.percentile(resp, 99)) + 1e-6


def _best_shift(resp: np.ndarray, fr: Frame, H: np.ndarray, grid: MarkGrid) -> np.ndarray:
    """The whole-step translation of the lattice that best matches marks inside, none outside."""
    (ax, ay), (bx, by) = grid.steps
    shifts = [(i * ax + j * bx, i * ay + j * by) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    strongest = _strongest(resp)
    _, (dx, dy) = max((_evidence(resp, fr, grid, sh, strongest), sh) for sh in shifts)
    return H @ np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])


def _homography_from_peaks(
    H: np.ndarray, fr: Frame, src: np.ndarray, peaks_px: np.ndarray, thr_units: float
) -> np.ndarray | None:
    """RANSAC homography from board units to the peaks (frame pixels of `fr` under H)."""
    if len(src) < MIN_PEAKS:
        return None
    units = fr.to_units(peaks_px)
    img_pts = cv2.perspectiveTransform(units.reshape(-1, 1, 2), H).reshape(-1, 2)
    c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
    thr = max(1.0, thr_units * float(np.linalg.norm(c[1] - c[0])))
    least = max(MIN_PEAKS, MIN_PEAK_SHARE * len(src))
    H2, inl = consensus_homography(src, img_pts, thr, least_share=least / len(src))
    if H2 is None or inl is None or inl.sum() < least:
        return None
    return H2


# An oriented pocket board (sage-stones) turned end for end onto its own lattice keeps its outline: the wide
# numbered margin (1.92 board units) is one step wider than the far one (0.9), so a fit that lays row 1 where
# the far row's neighbour is and the far row on the numbers shows the same outline as the true one, and the
# numbers' loops are round edges on the lattice as strong as pockets (Blender dev 115008, 115010, 117010: whole
# boards read so, 117010 with 14 cells sure).  What tells the two apart is that the numbers are not alike: each
# pocket, empty or holding a stone, has a twin among the board's other pockets, and each digit has none.
ROW_LOOK_S = 12.0  # pixels per board unit the rows' looks are compared at (a pocket: about 10 x 10)
# how much less the row beyond row 1 must look like the pockets than the far row does, turned end for end
# against as the fit lies (`numbers_row_unlike`, in the typical difference between a pocket and its nearest
# twin), for the board to be turned: on the true fits of Blender dev 115, 117 and POV-Ray dev 103, 107, 81 the
# true way round led by -0.15 (one photo) to 25, by 0.9 or more on 69 of 82
NUMBERS_UNLIKE_CLEAR = 1.0


def end_for_end(layout: Layout) -> np.ndarray:
    """Board units -> board units: the board turned end for end onto its own lattice, its far row where the
    numbers' row (one step below row 1) was, and row 1 where the far row's neighbour was."""
    lo, hi = layout.xy.min(0), layout.xy.max(0)
    return np.array([[-1.0, 0.0, lo[0] + hi[0]], [0.0, -1.0, lo[1] + hi[1] - 1.0], [0.0, 0.0, 1.0]])


def _cell_looks(gray: np.ndarray, H: np.ndarray, layout: Layout, pts: np.ndarray) -> np.ndarray:
    """Each point's square of the photo (a board unit across, straightened), less its mean: one row each."""
    fr = Frame(layout, ROW_LOOK_S, margin=0.6)
    warped = fr.warp(gray, H)
    half = int(ROW_LOOK_S // 2)
    px = np.round(fr.to_px(pts)).astype(int)
    looks = np.stack([warped[y - half : y + half, x - half : x + half].ravel() for x, y in px]).astype(np.float64)
    return looks - looks.mean(1, keepdims=True)


def numbers_row_unlike(gray: np.ndarray, H: np.ndarray, layout: Layout) -> float:
    """How much less the lattice row one step below row 1 (where an oriented board's numbers are) looks like
    the board's pockets than its far row does: the median distance of each of its squares to its nearest
    twin among the pockets between the two end rows, less the far row's, in the typical distance between
    two of those pockets.  Above zero the right way round, below it turned end for end."""
    xy = layout.xy
    lo, hi = xy[:, 1].min(), xy[:, 1].max()
    columns = np.unique(xy[:, 0])
    between = xy[(xy[:, 1] > lo) & (xy[:, 1] < hi)]
    far = xy[xy[:, 1] == hi]
    numbers = np.stack([columns, np.full(len(columns), lo - 1.0)], 1)
    looks = _cell_looks(gray, H, layout, np.vstack([between, far, numbers]))
    pockets, far_looks, number_looks = np.split(looks, [len(between), len(between) + len(far)])

    def nearest(rows: np.ndarray, own: bool = False) -> np.ndarray:
        d = np.sqrt(((rows[:, None] - pockets[None]) ** 2).mean(2))
        if own:
            np.fill_diagonal(d, np.inf)
        return d.min(1)

    typical = float(np.median(nearest(pockets, own=True))) + 1e-6
    return float(np.median(nearest(number_looks)) - np.median(nearest(far_looks))) / typical


def numbers_row_gain(gray: np.ndarray, H: np.ndarray, layout: Layout) -> tuple[np.ndarray, float]:
    """H turned end for end onto its own lattice (`end_for_end`), and how much better that lays the numbers'
    row, unlike the pockets, outside the locations (`numbers_row_unlike`; turn where it is
    `NUMBERS_UNLIKE_CLEAR` or more)."""
    turned = H @ end_for_end(layout)
    return turned, numbers_row_unlike(gray, turned, layout) - numbers_row_unlike(gray, H, layout)
