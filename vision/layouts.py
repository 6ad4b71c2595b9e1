"""Canonical board layouts: every location of a game in board units (one pitch = 1), y up.

The location ids come from the engine (`get_game(g).locations()`), the geometry from
SPEC section 3.  The outline polygons are the nominal board edge (the physical boards
vary their margins by a few per cent; `detect` refines the fit on the board's own
features), listed counter-clockwise from the left end of the edge below row 1 /
column a (the order the ground-truth `board_corners` use).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

import numpy as np

GAMES = ("three-stones", "morris", "rings", "sage-stones")
SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Layout:
    game: str
    ids: tuple[str, ...]
    xy: np.ndarray                # (n, 2) board units, y up
    outline: np.ndarray           # (k, 2) nominal outline, board units
    stone_radius: float           # nominal stone radius, board units
    palette: tuple[str, ...]      # colours a stone may have
    symmetries: tuple[np.ndarray, ...] = field(default=())  # 2x2 maps of the board onto itself
    oriented: bool = False        # True when the board itself tells which side is a1
    marks: str = ""               # what the empty board shows at a location: pocket|point|crossing

    @property
    def n(self) -> int:
        return len(self.ids)

    def bounds(self) -> tuple[float, float, float, float]:
        x0, y0 = self.outline.min(axis=0)
        x1, y1 = self.outline.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)


def _rot(deg: float) -> np.ndarray:
    t = math.radians(deg)
    return np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])


def _dihedral(n: int) -> tuple[np.ndarray, ...]:
    rots = [_rot(360.0 * k / n) for k in range(n)]
    flip = np.array([[-1.0, 0.0], [0.0, 1.0]])
    return tuple(rots + [r @ flip for r in rots])


def _engine_ids(game: str) -> tuple[str, ...] | None:
    try:
        from engine import get_game
        return tuple(get_game(game).locations())
    except Exception:  # engine module missing: fall back to SPEC geometry
        return None


def _three_stones() -> Layout:
    cols = "abcdefghi"
    missing = {"e5", "a1", "a9", "i1", "i9"}
    spec_ids = [f"{c}{r}" for c in cols for r in range(1, 10) if f"{c}{r}" not in missing]
    ids = _engine_ids("three-stones") or tuple(spec_ids)
    xy = np.array([[cols.index(i[0]) - 4.0, int(i[1:]) - 5.0] for i in ids])
    h, c = 4.98, 2.83  # half width, half length of the straight edges (octagon)
    outline = np.array([[-c, -h], [c, -h], [h, -c], [h, c], [c, h], [-c, h], [-h, c], [-h, -c]])
    return Layout("three-stones", tuple(ids), xy, outline, 0.40,
                  ("black", "white", "clear"), _dihedral(4), False, "pocket")


def _morris() -> Layout:
    spec = "a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7".split()
    ids = _engine_ids("morris") or tuple(spec)
    xy = np.array([["abcdefg".index(i[0]) - 3.0, int(i[1:]) - 4.0] for i in ids])
    h = 3.91
    outline = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    return Layout("morris", tuple(ids), xy, outline, 0.30, ("white", "black"),
                  _dihedral(4), False, "point")


_RING_ID = re.compile(r"^([UD])(-?\d+),(-?\d+)$")


def ring_point_xy(pid: str) -> tuple[float, float]:
    m = _RING_ID.match(pid)
    if not m:
        raise ValueError(pid)
    kind, q, r = m.group(1), int(m.group(2)), int(m.group(3))
    if kind == "U":
        corners = ((q, r), (q + 1, r), (q, r + 1))
    else:
        corners = ((q + 1, r), (q, r + 1), (q + 1, r + 1))
    xs = [a + b / 2 for a, b in corners]
    ys = [b * SQRT3 / 2 for a, b in corners]
    return sum(xs) / 3, sum(ys) / 3


def ring_circles() -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    d = lambda q, r: max(abs(q), abs(r), abs(q + r))  # noqa: E731
    full = [(q, r) for q in range(-6, 7) for r in range(-6, 7) if d(q, r) <= 5]
    partial = [(q, r) for q in range(-6, 7) for r in range(-6, 7) if d(q, r) == 6]
    return full, partial


def _rings_spec_ids() -> list[str]:
    full, _ = ring_circles()
    fullset = set(full)
    out = []
    for r in range(-7, 7):
        for kind in "UD":
            for q in range(-7, 7):
                corners = ((q, r), (q + 1, r), (q, r + 1)) if kind == "U" else ((q + 1, r), (q, r + 1), (q + 1, r + 1))
                if any(c in fullset for c in corners):
                    out.append(f"{kind}{q},{r}")
    return out


def _rings() -> Layout:
    ids = _engine_ids("rings") or tuple(_rings_spec_ids())
    xy = np.array([ring_point_xy(i) for i in ids])
    R = 11.0 / SQRT3  # circumradius of the hexagonal board (11 point spacings), vertices on the x axis
    outline = np.array([[-R / 2, -R * SQRT3 / 2], [R / 2, -R * SQRT3 / 2], [R, 0.0],
                        [R / 2, R * SQRT3 / 2], [-R / 2, R * SQRT3 / 2], [-R, 0.0]])
    pal = ("black", "white", "red", "green", "blue", "yellow", "orange", "purple", "clear")
    return Layout("rings", tuple(ids), xy, outline, 0.26, pal, _dihedral(6), False, "crossing")


def _sage() -> Layout:
    spec = [f"c{c}r{r}" for c in range(3, 10) for r in range(1, 10)]
    ids = _engine_ids("sage-stones") or tuple(spec)
    xy = []
    for i in ids:
        m = re.match(r"^c(\d+)r(\d+)$", i)
        xy.append([int(m.group(1)) - 6.0, int(m.group(2)) - 5.0])
    xy = np.array(xy)
    # the numbered short edge lies below row 1: a wider margin there
    outline = np.array([[-3.9, -5.92], [3.9, -5.92], [3.9, 4.9], [-3.9, 4.9]])
    pal = ("black", "white", "red", "green", "blue", "yellow", "orange", "purple", "clear")
    return Layout("sage-stones", tuple(ids), xy, outline, 0.40, pal,
                  (np.eye(2),), True, "pocket")


@functools.lru_cache(maxsize=None)
def get_layout(game: str) -> Layout:
    makers = {"three-stones": _three_stones, "morris": _morris, "rings": _rings, "sage-stones": _sage}
    if game not in makers:
        raise KeyError(game)
    return makers[game]()


def spec_ids(game: str) -> set[str]:
    """The id set computed from SPEC section 3 alone (to cross-check the engine)."""
    if game == "three-stones":
        return {f"{c}{r}" for c in "abcdefghi" for r in range(1, 10)} - {"e5", "a1", "a9", "i1", "i9"}
    if game == "morris":
        return set("a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7".split())
    if game == "rings":
        return set(_rings_spec_ids())
    if game == "sage-stones":
        return {f"c{c}r{r}" for c in range(3, 10) for r in range(1, 10)}
    raise KeyError(game)


@functools.lru_cache(maxsize=None)
def grid_symmetries(game: str) -> tuple[np.ndarray, ...]:
    """Proper rotations that map the locations onto themselves, outline or not: a fit of the
    locations alone cannot tell these apart (sage-stones' 7x9 grid turned 180 degrees)."""
    xy = get_layout(game).xy
    out = []
    for k in range(12):
        R = _rot(30.0 * k)
        moved = xy @ R.T
        if np.linalg.norm(moved[:, None, :] - xy[None], axis=2).min(1).max() < 1e-6:
            out.append(np.round(R, 12))
    return tuple(out)


def permutation(layout: Layout, sym: np.ndarray) -> list[int]:
    """Index map i -> j such that location i moved by `sym` lands on location j."""
    moved = layout.xy @ sym.T
    out = []
    for p in moved:
        d = np.linalg.norm(layout.xy - p, axis=1)
        j = int(np.argmin(d))
        if d[j] > 1e-6:
            raise ValueError("not a symmetry")
        out.append(j)
    return out


def misread(game: str, cells: dict, truth: dict) -> list[str]:
    """The ids a reading gets wrong, under the board's symmetry that reads best (a symmetric
    board turned over is the same position; sage-stones has only the identity)."""
    layout = get_layout(game)
    best: list[str] | None = None
    for sym in layout.symmetries:
        perm = permutation(layout, sym)
        wrong = [pid for i, pid in enumerate(layout.ids) if cells.get(pid) != truth.get(layout.ids[perm[i]])]
        if best is None or len(wrong) < len(best):
            best = wrong
    return best or []
