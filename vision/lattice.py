"""Pocket boards found by their structure: the lattice their round marks make.

The region search (`segment.candidate_masks`) needs the board to stand out from the table;
a board on a table of its own wood, or a dark board in dim light, does not.  Its pockets
(and the stones in them) still do: every one is a round edge of about the same size, and
they sit on a square lattice that the camera bends by one homography.  So:

1. `round_marks`: round edges of any polarity (`marks.ring_response`) at a range of sizes on
   a small copy of the photo, their local maxima the marks.
2. `grow_lattice`: from a mark and its two nearest neighbours in different directions, the
   lattice steps; marks that land on lattice points join, a homography from lattice
   coordinates to pixels is fitted again, and the lattice grows outward while marks keep
   joining.
3. `board_hypotheses`: the board's own locations are a block of that lattice; each way of
   laying the board on it is scored by the marks at its locations less the marks on the
   lattice just outside it; the best few are scored again by the round edges at all their
   locations (weak pockets are no marks) and become homographies (board units -> pixels)
   that `marks.grid_fit` polishes like any other candidate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .consensus import consensus_homography
from .layouts import Layout
from .marks import mark_grid, placement_evidence, ring_responses, unit_gradients
from .memo import per_image

MARK_RADII_PX = tuple(np.geomspace(4.0, 22.0, 7))  # round-edge radii tried on the small copy (pixels)
MARK_LEVEL = 0.25  # a mark: a local maximum at least this share of the photo's strongest edges
MAX_MARKS = 160  # the strongest marks of a size kept (a 9x9 board has 76 pockets)
SEEDS = 8  # marks of each size a lattice is grown from, strongest first
# the marks a seed's lattice steps are read from, strongest first: weaker marks are often the
# board between four pockets, half a diagonal step away (cap pockets seen at a slant)
STEP_MARKS = 24
MATCH_TOL = 0.22  # lattice steps: a mark this close to a lattice point sits on it
MIN_LATTICE = 12  # marks it takes to call a lattice a board's
MAX_HALF = 6  # lattice steps either side of the marks' centre a lattice may reach (a board is 9)
FIT_TOL = 0.2  # lattice steps: RANSAC's reach when the homography is fitted to the marks
KEEP = 4  # distinct ways a board is laid on one lattice
LATTICES = 6  # lattices (the most marks first) a board is laid on


@dataclass(frozen=True)
class Lattice:
    """Marks on one square lattice: their integer coordinates and the homography to pixels."""

    G: np.ndarray  # lattice coordinates (i, j) -> pixels
    coords: np.ndarray  # (n, 2) int: lattice coordinates of the marks on it
    strength: float  # summed response of those marks


def round_marks(gray: np.ndarray) -> list[tuple[float, np.ndarray, np.ndarray]]:
    """Round edges in `gray` (float32) per size: (radius, centres, strengths), strongest first.
    Marks of one size are kept together: small ones are everywhere in wood grain, and the
    lattice is made of one size of mark (pockets and the stones in them)."""
    out = []
    # each size's response as `ring_response(gray, 1.0, (r,))`, the gradient worked out once
    for r, resp in zip(MARK_RADII_PX, ring_responses(*unit_gradients(gray, 1.0), list(MARK_RADII_PX))):
        level = MARK_LEVEL * float(np.percentile(resp, 99.5) + 1e-6)
        k = int(1.5 * r) | 1
        peaks = (resp >= cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))) & (resp > level)
        ys, xs = np.nonzero(peaks)
        val = resp[ys, xs]
        order = np.argsort(-val)[:MAX_MARKS]
        out.append((float(r), np.stack([xs, ys], 1)[order].astype(np.float64), val[order]))
    return out


def neighbour_steps(
    pts: np.ndarray, k: int, turn_cos: tuple[float, float], ratio: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Two lattice steps at mark k: its nearest neighbour, then the nearest one whose direction's
    cosine against it lies within `turn_cos` and whose length over it within `ratio`."""
    d = np.linalg.norm(pts - pts[k], axis=1)
    d[k] = np.inf
    near = np.argsort(d)[:8]
    if len(near) < 2:
        return None
    u = pts[near[0]] - pts[k]
    for j in near[1:]:
        v = pts[j] - pts[k]
        cos = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9))
        if turn_cos[0] < cos < turn_cos[1] and ratio[0] < np.linalg.norm(v) / (np.linalg.norm(u) + 1e-9) < ratio[1]:
            return u, v
    return None


def _steps(pts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Two lattice steps at mark k: its nearest neighbour among the strongest marks
    (`STEP_MARKS`), then the nearest one in another direction (between 60 and 120 degrees away).
    They may be whole multiples or diagonals of the true steps where stones leave gaps: the
    half points (`_HALVES`) set that right."""
    return neighbour_steps(pts[: max(STEP_MARKS, k + 1)], k, (-0.5, 0.5), (0.5, 2.0))


# finer lattices a grown one may be the coarse part of: marks halfway between its points
_HALVES = (
    ((0.5, 0.5), np.array([[0.5, 0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.0, 1.0]])),
    ((0.5, 0.0), np.diag([0.5, 1.0, 1.0])),
    ((0.0, 0.5), np.diag([1.0, 0.5, 1.0])),
)
HALF_SHARE = (
    0.5  # marks on half points among the marks found, against those on whole points, that make the lattice finer
)


def _step_px(G: np.ndarray, at: np.ndarray) -> float:
    """The shorter lattice step in pixels at lattice point `at`."""
    p = cv2.perspectiveTransform(np.array([[at, at + [1.0, 0.0], at + [0.0, 1.0]]], np.float64), G)[0]
    return float(min(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])))


def _on_lattice(G: np.ndarray, pts: np.ndarray, centre: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """Marks within MATCH_TOL steps of a lattice point no more than `half` steps from `centre`:
    (mark indices, their lattice points), the closest mark where two share a point."""
    c = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(G)).reshape(-1, 2)
    r = np.round(c)
    off = np.linalg.norm(c - r, axis=1)
    ok = np.flatnonzero((off < MATCH_TOL) & (np.abs(r - np.round(centre)) <= half).all(1))
    best: dict[tuple[int, int], int] = {}
    for k in ok[np.argsort(off[ok])]:
        best.setdefault((int(r[k, 0]), int(r[k, 1])), int(k))
    marks = np.array(list(best.values()), int)
    return marks, np.array(list(best.keys()), int).reshape(-1, 2)


def grow_from(
    pts: np.ndarray, origin: np.ndarray, steps: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The lattice of the two `steps` (pixels) at `origin` grown over the marks: (homography from
    lattice coordinates to pixels, the marks on it, their lattice coordinates), None when too few
    marks keep joining."""
    u, v = steps
    G = np.array([[u[0], v[0], origin[0]], [u[1], v[1], origin[1]], [0.0, 0.0, 1.0]])
    centre = np.zeros(2)
    marks = np.zeros(0, int)
    coords = np.zeros((0, 2), int)
    for half in range(2, MAX_HALF + 1):
        m2, c2 = _on_lattice(G, pts, centre, half)
        if len(m2) < 5:
            return None
        if len(m2) >= 8:
            G2, inl = consensus_homography(c2, pts[m2], FIT_TOL * _step_px(G, centre))
        else:
            A, inl = cv2.estimateAffine2D(c2.astype(np.float64), pts[m2])
            G2 = None if A is None else np.vstack([A, [0.0, 0.0, 1.0]])
        if G2 is None or inl is None:
            return None
        inl = inl.ravel().astype(bool)
        G, marks, coords = G2 / G2[2, 2], m2[inl], c2[inl]
        centre = np.median(coords, 0)
    return G, marks, coords


def grow_lattice(pts: np.ndarray, val: np.ndarray, k: int) -> Lattice | None:
    """The lattice through mark k: from its two steps, marks near lattice points in a window that
    widens by a step a side each round, the homography fitted again each time (the marks' lattice
    points are read afresh under it, so an early error does not stick)."""
    steps = _steps(pts, k)
    if steps is None:
        return None
    grown = grow_from(pts, pts[k], steps)
    if grown is None:
        return None
    G, marks, coords = grown
    # marks halfway between the lattice points: the steps were two (or a diagonal), stones in
    # every other pocket; the finer lattice is grown again from there
    for offset, T in _HALVES:
        c = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(G)).reshape(-1, 2) - offset
        near = (
            (np.linalg.norm(c - np.round(c), axis=1) < MATCH_TOL)
            & (c >= coords.min(0)).all(1)
            & (c <= coords.max(0)).all(1)
        )
        if near.sum() >= HALF_SHARE * len(marks):
            return regrow(pts, val, G @ T)
    if len(marks) < MIN_LATTICE:
        return None
    return Lattice(G=G, coords=coords, strength=float(val[marks].sum()))


def regrow(pts: np.ndarray, val: np.ndarray, G: np.ndarray) -> Lattice | None:
    """The lattice of G fitted again on the marks near its points (after a finer step was found)."""
    on_lattice: np.ndarray = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(G))
    centre = np.median(on_lattice.reshape(-1, 2), 0)
    for _ in range(2):
        marks, coords = _on_lattice(G, pts, centre, 2 * MAX_HALF)
        if len(marks) < MIN_LATTICE:
            return None
        G2, inl = consensus_homography(coords, pts[marks], FIT_TOL * _step_px(G, centre))
        if G2 is None or inl is None:
            return None
        G, marks, coords = G2, marks[inl], coords[inl]
        centre = np.median(coords, 0)
    return Lattice(G=G, coords=coords, strength=float(val[marks].sum())) if len(marks) >= MIN_LATTICE else None


def lattices_of(
    pts: np.ndarray, val: np.ndarray, grow: Callable[[np.ndarray, np.ndarray, int], Lattice | None] | None = None
) -> list[Lattice]:
    """The lattices grown (by `grow`, `grow_lattice` unless given) from the strongest marks of one
    size (`pts` strongest first), a mark already on a lattice seeding no other."""
    found: list[Lattice] = []
    if len(pts) < MIN_LATTICE:
        return found
    claimed: set[int] = set()
    for k in range(min(SEEDS, len(pts))):
        if k in claimed:
            continue
        lat = (grow or grow_lattice)(pts, val, k)
        if lat is None:
            continue
        proj = cv2.perspectiveTransform(lat.coords.astype(np.float64).reshape(-1, 1, 2), lat.G).reshape(-1, 2)
        claimed |= {int(np.argmin(np.linalg.norm(pts - p, axis=1))) for p in proj}
        found.append(lat)
    return found


@per_image
def lattices(gray: np.ndarray) -> tuple[Lattice, ...]:
    """The lattices of round marks in the photo, of every size of mark, the most marks first (once
    per photo: they are the same whichever pocket board is looked for, and a reading looks for
    both where one board's grid may be the other's, and again when it refuses a photo)."""
    found = [lat for _, pts, val in round_marks(gray) for lat in lattices_of(pts, val)]
    found.sort(key=lambda f: -len(f.coords))
    return tuple(found)


_D4 = tuple(
    np.array(m, np.float64)
    for m in (
        [[1, 0], [0, 1]],
        [[0, -1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[0, 1], [-1, 0]],
        [[-1, 0], [0, 1]],
        [[1, 0], [0, -1]],
        [[0, 1], [1, 0]],
        [[0, -1], [-1, 0]],
    )
)


def board_hypotheses(lat: Lattice, layout: Layout) -> list[tuple[float, np.ndarray]]:
    """Distinct ways to lay the board's locations on the lattice, as (score, board units -> pixels),
    best first: the share of its locations holding a mark less twice the share of the lattice
    points just outside it that hold one (another board's pockets, or the table's pattern).  A
    symmetric board's turns that cover the same lattice points are one way."""
    grid = mark_grid(layout.game)
    if grid is None:
        return []
    inside = np.round(grid.points).astype(int)
    outer = np.round(grid.outer).astype(int)
    span = int(np.ptp(np.vstack([inside, outer]), 0).max()) + 1
    lo = lat.coords.min(0) - span
    occupied = np.zeros(tuple(np.ptp(lat.coords, 0)[::-1] + 2 * span + 1), np.float32)  # rows j, columns i
    occupied[lat.coords[:, 1] - lo[1], lat.coords[:, 0] - lo[0]] = 1.0
    ways: list[tuple[float, np.ndarray, frozenset]] = []
    for R in _D4:
        placed = (inside @ R.T).astype(int)
        ring = (outer @ R.T).astype(int)
        corner = np.vstack([placed, ring]).min(0)
        kernel = np.zeros((span, span), np.float32)
        kernel[placed[:, 1] - corner[1], placed[:, 0] - corner[0]] = 1.0 / len(placed)
        kernel[ring[:, 1] - corner[1], ring[:, 0] - corner[0]] = -2.0 / len(placed)
        # score[j, i]: the kernel's corner laid on lattice point (i, j) + lo
        score = cv2.filter2D(occupied, -1, kernel, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
        for flat in np.argsort(score, axis=None)[::-1][:KEEP]:
            j, i = np.unravel_index(flat, score.shape)
            dx, dy = int(i + lo[0] - corner[0]), int(j + lo[1] - corner[1])
            T = np.array([[R[0, 0], R[0, 1], dx], [R[1, 0], R[1, 1], dy], [0.0, 0.0, 1.0]])
            H = lat.G @ T
            if not mirrored(H, layout):
                ways.append((float(score[j, i]), H / H[2, 2], frozenset(map(tuple, placed + [dx, dy]))))
    ways.sort(key=lambda w: -w[0])
    out: list[tuple[float, np.ndarray]] = []
    covered: set[frozenset] = set()
    for score_, H, points in ways:
        if points not in covered and len(out) < KEEP:
            covered.add(points)
            out.append((score_, H))
    return out


def mirrored(H: np.ndarray, layout: Layout) -> bool:
    """True when H shows the board mirrored: board units are y-up, pixels y-down, so a camera
    above the board turns the board's counter-clockwise into the photo's clockwise."""
    c = layout.xy.mean(0)
    p = cv2.perspectiveTransform(np.array([[c, c + [1.0, 0.0], c + [0.0, 1.0]]], np.float64), H)[0]
    a, b = p[1] - p[0], p[2] - p[0]
    return float(a[0] * b[1] - a[1] * b[0]) > 0


def lattice_candidates(small_gray: np.ndarray, layout: Layout) -> list[tuple[float, np.ndarray]]:
    """Board fits (score, board units -> pixels of `small_gray`) from the photo's lattices of round
    marks.  Where a board's pockets show weakly, only some of them are marks, and several ways of
    laying the board cover them all alike: each way is scored by the round edges at every one of
    its locations against the lattice just outside (`marks.placement_evidence`), the weak ones too."""
    ways = [H for lat in lattices(small_gray)[:LATTICES] for _, H in board_hypotheses(lat, layout)]
    out = [(placement_evidence(small_gray, H, layout), H) for H in ways]
    out.sort(key=lambda o: -o[0])
    return out
