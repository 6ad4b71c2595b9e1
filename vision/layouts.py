"""Canonical board layouts: every location of a game in board units (one pitch = 1), y up.

The ids, positions, nominal outline, stone size and what the board shows at a location
all come from the engine's `Game.geometry()` (the one source of board geometry); a layout
adds what reading a photo needs: the colours to tell apart and the board's symmetries.
The outline is the nominal board edge (the physical boards vary their margins by a few
per cent; `detect` refines the fit on the board's own features).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from engine import get_game

GAMES = ("three-stones", "morris", "rings", "sage-stones")
SQRT3 = math.sqrt(3.0)
MANY_COLOURS = ("black", "white", "red", "green", "blue", "yellow", "orange", "purple", "clear")


@dataclass(frozen=True)
class Layout:
    game: str
    ids: tuple[str, ...]
    xy: np.ndarray  # (n, 2) board units, y up
    outline: np.ndarray  # (k, 2) nominal outline, board units
    stone_radius: float  # nominal stone radius, board units
    palette: tuple[str, ...]  # colours a stone may have
    symmetries: tuple[np.ndarray, ...] = field(default=())  # 2x2 maps of the board onto itself
    oriented: bool = False  # True when the board itself tells which side is a1
    marks: str = ""  # what the empty board shows at a location: pocket|point|crossing
    stone_set: Mapping[str, int] = field(default_factory=dict)  # the most stones of a colour (the box)

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


# game -> (the colours its stones come in, the board's symmetries, whether the board shows which side is a1)
READING = {
    "three-stones": (("black", "white", "clear"), lambda: _dihedral(4), False),
    "morris": (("white", "black"), lambda: _dihedral(4), False),
    "rings": (MANY_COLOURS, lambda: _dihedral(6), False),
    "sage-stones": (MANY_COLOURS, lambda: (np.eye(2),), True),  # the numbered edge tells a1
}


def ring_circles() -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The rings board's circle centres in lattice coordinates (q, r): (full, partial), each by q then r."""
    full: list[tuple[int, int]] = []
    partial: list[tuple[int, int]] = []
    for circle in get_game("rings").geometry().circles:
        q, r = (int(k) for k in circle.id.split(","))
        (full if circle.full else partial).append((q, r))
    return sorted(full), sorted(partial)


def drawn_lines(layout: Layout) -> list[tuple[np.ndarray, np.ndarray]]:
    """The straight lines drawn on the board (morris' mills), each from its first location to its last."""
    at = dict(zip(layout.ids, layout.xy))
    return [(at[line.through[0]], at[line.through[-1]]) for line in get_game(layout.game).geometry().lines]


@functools.lru_cache(maxsize=None)
def get_layout(game: str) -> Layout:
    if game not in READING:
        raise KeyError(game)
    palette, symmetries, oriented = READING[game]
    geometry = get_game(game).geometry()
    return Layout(
        game,
        geometry.ids(),
        np.array([(loc.x, loc.y) for loc in geometry.locations]),
        np.array(geometry.outline),
        geometry.stone_radius,
        palette,
        symmetries(),
        oriented,
        geometry.marks,
        dict(get_game(game).stone_set()),
    )


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
