"""Rings boards found by their structure: the honeycomb of their locations.

The region search (`segment.candidate_masks`) needs the board to stand out from the table,
and the drawn circles are faint under stones, glass and grooves; a rings board on a table
of its colour, or light inlay in dark wood, is then not found at all.  Its locations still
show: stones, markers, holes and the crossings of the circles are round marks of one size
on a honeycomb (every location has three neighbours, 120 degrees apart, 1/sqrt(3) away), and
the honeycomb lies on a triangular lattice of that step whose every third point (a circle's
centre) holds no location.  So:

1. `lattice.round_marks` on a copy big enough that a stone is a few pixels across.
2. `grow_honeycomb`: from a mark, its nearest neighbour and the next one about 120 degrees
   round give the triangular lattice's steps; `lattice.grow_from` grows it over the marks and
   `lattice.regrow` widens it to the whole board.
3. `board_hypotheses`: each way of laying the board's locations on that lattice (either hand,
   every shift) is scored by the marks at its locations less
   those at the circles' centres and just outside the board; the best few become
   homographies (board units -> pixels) that `detect` refines like any other candidate.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .lattice import Lattice, grow_from, lattices_of, mirrored, neighbour_steps, regrow, round_marks
from .layouts import SQRT3, Layout, get_layout
from .memo import gray32, shrunk

HONEYCOMB_SIDE = 800  # pixels: long side of the copy marks are found on (a stone is ~4 px on the 400 px one)
TURN_COS = (-0.75, -0.25)  # cosine between a mark's two neighbour steps: 120 degrees, a phone's slant bends it
STEP_RATIO = (0.6, 1.6)  # the second step's length over the first's (foreshortening)
MIN_MARKS = 40  # marks on one honeycomb it takes to lay the board on it (216 locations)
HOLE_WEIGHT = 1.0  # a mark at a circle's centre (no location there) against one at a location
OUTSIDE_WEIGHT = 2.0  # a mark just outside the board: another pattern, or the board laid short
KEEP = 4  # board hypotheses handed on, the best first
HONEYCOMBS = 4  # honeycombs (the most marks first) the board is laid on


@dataclass(frozen=True)
class BoardLattice:
    """The rings board on its triangular lattice of step 1/sqrt(3): integer coordinates c of the
    lattice points that are locations, circle centres inside the board, and points just outside,
    and the map from c to board units (x = A @ (c, 1))."""

    locations: np.ndarray  # (216, 2) int
    holes: np.ndarray  # (k, 2) int: circle centres, no location
    outside: np.ndarray  # (m, 2) int: lattice points one step beyond the outermost locations
    A: np.ndarray  # 3x3: lattice coordinates -> board units
    hands: tuple[np.ndarray, ...]  # 2x2 integer maps of the lattice: as is, and turned over


@functools.cache
def board_lattice() -> BoardLattice:
    layout = get_layout("rings")
    a = 1 / SQRT3
    b1 = a * np.array([math.cos(math.pi / 6), math.sin(math.pi / 6)])
    b2 = a * np.array([math.cos(5 * math.pi / 6), math.sin(5 * math.pi / 6)])
    A = np.array([[b1[0], b2[0], layout.xy[0, 0]], [b1[1], b2[1], layout.xy[0, 1]], [0.0, 0.0, 1.0]])
    to_lattice = np.linalg.inv(A)
    coords = np.round((layout.xy - layout.xy[0]) @ to_lattice[:2, :2].T).astype(int)
    if np.abs(np.c_[coords, np.ones(len(coords))] @ A.T[:, :2] - layout.xy).max() > 1e-6:
        raise ValueError("the rings locations do not lie on their triangular lattice")
    have = set(map(tuple, coords))
    around = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1))  # a point's six neighbours
    near = {(i + di, j + dj) for i, j in have for di, dj in around} - have
    # a lattice point next to locations is a circle's centre when it is surrounded by them
    holes = sorted(p for p in near if sum((p[0] + di, p[1] + dj) in have for di, dj in around) >= 5)
    outside = sorted(near - set(holes))
    # the board has every symmetry of its lattice, so laying it on a honeycomb only needs a hand:
    # as drawn, or turned over (one of the two shows it mirrored)
    flip = next(S for S in layout.symmetries if np.linalg.det(S) < 0)
    hands = (np.eye(2, dtype=int), np.round(to_lattice[:2, :2] @ flip @ A[:2, :2]).astype(int))
    return BoardLattice(coords, np.array(holes), np.array(outside), A, hands)


def grow_honeycomb(pts: np.ndarray, val: np.ndarray, k: int) -> Lattice | None:
    """The triangular lattice through mark k grown over the marks and widened to a whole board."""
    steps = neighbour_steps(pts, k, TURN_COS, STEP_RATIO)  # a neighbour, and the next one 120 degrees round
    if steps is None:
        return None
    grown = grow_from(pts, pts[k], steps)
    if grown is None:
        return None
    lattice = regrow(pts, val, grown[0])
    return lattice if lattice is not None and len(lattice.coords) >= MIN_MARKS else None


def honeycombs(gray: np.ndarray) -> list[Lattice]:
    """The honeycombs of round marks in `gray` (float32), of every size of mark, the most marks first."""
    found = [lattice for _, pts, val in round_marks(gray) for lattice in lattices_of(pts, val, grow_honeycomb)]
    found.sort(key=lambda f: -len(f.coords))
    return found


def board_hypotheses(lattice: Lattice, layout: Layout) -> list[tuple[float, np.ndarray]]:
    """Ways to lay the board's locations on the honeycomb, as (score, board units -> pixels), best
    first: the share of its locations holding a mark less the marks at its circles' centres and
    just outside it, each against the locations' count."""
    board = board_lattice()
    lo = lattice.coords.min(0)
    span = int(np.ptp(np.vstack([board.locations, board.outside]), 0).max()) + 1
    occupied = np.zeros(tuple(np.ptp(lattice.coords, 0)[::-1] + 2 * span + 1), np.float32)  # rows j, columns i
    occupied[lattice.coords[:, 1] - lo[1] + span, lattice.coords[:, 0] - lo[0] + span] = 1.0
    n = len(board.locations)
    out: list[tuple[float, np.ndarray]] = []
    for M in board.hands:
        placed, holes, outside = (pts @ M.T for pts in (board.locations, board.holes, board.outside))
        corner = np.vstack([placed, outside]).min(0)
        kernel = np.zeros((span + 1, span + 1), np.float32)
        kernel[outside[:, 1] - corner[1], outside[:, 0] - corner[0]] = -OUTSIDE_WEIGHT / n
        kernel[holes[:, 1] - corner[1], holes[:, 0] - corner[0]] = -HOLE_WEIGHT / n
        kernel[placed[:, 1] - corner[1], placed[:, 0] - corner[0]] = 1.0 / n
        # score[j, i]: the kernel's corner laid on lattice point (i, j) + lo - span
        score = cv2.filter2D(occupied, -1, kernel, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
        for flat in np.argsort(score, axis=None)[::-1][:KEEP]:
            j, i = np.unravel_index(flat, score.shape)
            shift = np.array([i, j]) + lo - span - corner
            T = np.array([[M[0, 0], M[0, 1], shift[0]], [M[1, 0], M[1, 1], shift[1]], [0.0, 0.0, 1.0]])
            H = lattice.G @ T @ np.linalg.inv(board.A)
            if not mirrored(H, layout):
                out.append((float(score[j, i]), H / H[2, 2]))
    out.sort(key=lambda o: -o[0])
    return out[:KEEP]


def honeycomb_candidates(img: np.ndarray, small: np.ndarray, layout: Layout) -> list[tuple[float, np.ndarray]]:
    """Rings fits (score, board units -> pixels of `small`) from the honeycombs of round marks."""
    if layout.game != "rings":
        return []
    copy = shrunk(img, min(HONEYCOMB_SIDE, max(img.shape[:2])))
    gray = gray32(copy)
    to_small = np.diag([small.shape[1] / copy.shape[1], small.shape[1] / copy.shape[1], 1.0])
    out: list[tuple[float, np.ndarray]] = []
    for lattice in honeycombs(gray)[:HONEYCOMBS]:
        out += [(score, to_small @ H) for score, H in board_hypotheses(lattice, layout)]
    out.sort(key=lambda o: -o[0])
    return out[:KEEP]
