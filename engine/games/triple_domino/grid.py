"""The triangular grid: triangle ids, their corners and neighbours, names like `D0,-1`, and cartesian points.

Lattice points (q, r) sit at x = q + r/2, y = r*sqrt(3)/2 (the rings lattice). Up
triangle `U{q},{r}` has corners (q, r+1) apex, (q+1, r) bottom right, (q, r) bottom
left; down triangle `D{q},{r}` has corners (q+1, r) apex (bottom), (q, r+1) top left,
(q+1, r+1) top right; corners are numbered 0, 1, 2 clockwise from the apex.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

from ...core import TRIANGLE, Geometry, IllegalMoveError, shown

# A lattice point (q, r) is the integer (q + OFFSET) * STRIDE + (r + OFFSET); triangle ids are
# 2 * point (+1 for a down triangle) of the point named in U{q},{r} / D{q},{r}.
OFFSET = 128
STRIDE = 256
LIMIT = 100  # |q|, |r| of any position (a round lays at most 56 tiles from U0,0)
SQRT3_2 = math.sqrt(3) / 2


def triangle_id(q: int, r: int, down: bool) -> int:
    return 2 * ((q + OFFSET) * STRIDE + (r + OFFSET)) + down


def triangle_coords(t: int) -> tuple[int, int, bool]:
    """(q, r, is_down) of a triangle id."""
    point = t >> 1
    return point // STRIDE - OFFSET, point % STRIDE - OFFSET, bool(t & 1)


ORIGIN = triangle_id(0, 0, False)


def _corners(t: int) -> tuple[int, int, int]:
    p = t >> 1
    if t & 1:
        return (p + STRIDE, p + 1, p + STRIDE + 1)
    return (p + 1, p + STRIDE, p)


def _neighbours(t: int) -> tuple[int, int, int]:
    """The triangles across edge 0 (corners 0-1), edge 1 (corners 1-2) and edge 2 (corners 2-0)."""
    p = t >> 1
    if t & 1:
        return (2 * p, 2 * (p + 1), 2 * (p + STRIDE))
    return (2 * p + 1, 2 * (p - 1) + 1, 2 * (p - STRIDE) + 1)


class _Lazy(dict):
    """A table filled on first use: the grid is unbounded, only the used part is computed."""

    def __init__(self, build: Callable[[int], Any]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: int) -> Any:
        value = self[key] = self.build(key)
        return value


CORNERS: dict[int, tuple[int, int, int]] = _Lazy(_corners)
NEIGHBOURS: dict[int, tuple[int, int, int]] = _Lazy(_neighbours)


def position_name(t: int) -> str:
    q, r, down = triangle_coords(t)
    return f"{'D' if down else 'U'}{q},{r}"


_POSITION_RE = re.compile(r"([UDud])\s*(-?\d+)\s*,\s*(-?\d+)$")


def parse_position_name(text: str) -> int:
    """The triangle id of `U{q},{r}` or `D{q},{r}`."""
    m = _POSITION_RE.match(text.strip())
    if not m:
        raise IllegalMoveError(
            f"{shown(text)} is not a position: write U or D and two coordinates, like D0,-1", rule="notation"
        )
    q, r = int(m.group(2)), int(m.group(3))
    if abs(q) > LIMIT or abs(r) > LIMIT:
        raise IllegalMoveError(
            f"{shown(text)} is too far out: coordinates run from -{LIMIT} to {LIMIT}", rule="notation"
        )
    return triangle_id(q, r, m.group(1) in "Dd")


def point_xy(point: int) -> tuple[float, float]:
    q, r = point // STRIDE - OFFSET, point % STRIDE - OFFSET
    return (q + r / 2, r * SQRT3_2)


def triangle_vertices(position: int | str) -> tuple[tuple[float, float], ...]:
    """The cartesian corners (edge length 1) of a triangle, corners 0, 1, 2 clockwise from the apex."""
    t = parse_position_name(position) if isinstance(position, str) else position
    return tuple(point_xy(v) for v in CORNERS[t])


GEOMETRY = Geometry(locations=(), outline=(), stone_radius=0.0, marks=TRIANGLE, cell_corners=triangle_vertices)
"""Tiles lie on an unbounded lattice of unit triangles on a table: no fixed locations, no edge."""
