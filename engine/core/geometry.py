"""A board as data: where each location lies, what is drawn on the board, and its edge.

Every game's `Game.geometry()` returns one `Geometry`: the single source the web
boards draw from, the vision reader warps photos onto and the photo generator
builds its boards from. Coordinates are board units (one pitch between
neighbouring locations is 1; for rings one step between circle centres), y up,
the board's centre at the origin.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

POCKET = "pocket"
"""A location is a hollow a stone sits in (three-stones, sage-stones)."""
POINT = "point"
"""A location is a dot where drawn lines meet (morris)."""
CROSSING = "crossing"
"""A location is where three drawn circles cross (rings)."""
TRIANGLE = "triangle"
"""A location is a triangle of an unbounded lattice a tile covers (triple-domino)."""


@dataclasses.dataclass(frozen=True)
class Location:
    """A place a stone can stand: its id (as in positions and notation) and its centre."""

    id: str
    x: float
    y: float


@dataclasses.dataclass(frozen=True)
class Line:
    """A straight line drawn on the board, through these locations in order (end to end)."""

    through: tuple[str, ...]

    def segments(self) -> tuple[tuple[str, str], ...]:
        """The line as its pieces between neighbouring locations."""
        return tuple(zip(self.through, self.through[1:]))


@dataclasses.dataclass(frozen=True)
class Circle:
    """A circle drawn on the board; `full` is False for one the board's edge cuts off."""

    id: str
    x: float
    y: float
    radius: float
    full: bool
    through: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Geometry:
    """One game's board: locations, drawn lines and circles, and the nominal outline.

    `outline` is the edge of the physical board, counter-clockwise from the left end of
    the edge below row 1 / column a (the order photos' ground-truth corners use).
    `stone_radius` is a real stone's nominal radius. `marks` says what an empty board
    shows at a location (POCKET, POINT, CROSSING or TRIANGLE). A board without fixed
    locations (triple-domino's tiles on an unbounded lattice, no edge) lists none and
    gives `cell_corners`: the corners of the cell a location id names.
    """

    locations: tuple[Location, ...]
    outline: tuple[tuple[float, float], ...]
    stone_radius: float
    marks: str
    lines: tuple[Line, ...] = ()
    circles: tuple[Circle, ...] = ()
    cell_corners: Callable[[str], tuple[tuple[float, float], ...]] | None = None

    def __post_init__(self) -> None:
        known = {loc.id for loc in self.locations}
        assert len(known) == len(self.locations), "location ids repeat"
        drawn = [i for line in self.lines for i in line.through] + [i for c in self.circles for i in c.through]
        assert all(i in known for i in drawn), "a line or circle passes through an unknown location"

    def ids(self) -> tuple[str, ...]:
        return tuple(loc.id for loc in self.locations)

    def xy(self) -> dict[str, tuple[float, float]]:
        """Location id -> (x, y) in board units."""
        return {loc.id: (loc.x, loc.y) for loc in self.locations}


def hexagon(circumradius: float) -> tuple[tuple[float, float], ...]:
    """A regular hexagon about the origin with corners on the x axis, counter-clockwise from lower left."""
    r, h = circumradius, circumradius * math.sqrt(3) / 2
    return ((-r / 2, -h), (r / 2, -h), (r, 0.0), (r / 2, h), (-r / 2, h), (-r, 0.0))


def octagon(half_width: float, half_edge: float) -> tuple[tuple[float, float], ...]:
    """A square of this half width with its corners cut to edges of this half length."""
    h, c = half_width, half_edge
    return ((-c, -h), (c, -h), (h, -c), (h, c), (c, h), (-c, h), (-h, c), (-h, -c))


def rectangle(left: float, bottom: float, right: float, top: float) -> tuple[tuple[float, float], ...]:
    return ((left, bottom), (right, bottom), (right, top), (left, top))
