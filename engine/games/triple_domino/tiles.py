"""The 56 tiles: numbers, values, rotations, and which tiles fit given corner numbers.

A tile is an index into `TILES`, the multisets {a, b, c} of 0-5 in non-decreasing
order; its rotation `rK` puts its first number on corner K, so corner i shows
number (i - K) mod 3.
"""

from __future__ import annotations

from typing import Iterable

from ...core import IllegalMoveError, shown

TILES: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6))
TILE_COUNT = len(TILES)  # 56
ALL_TILES = frozenset(range(TILE_COUNT))
TILE_NAMES: tuple[str, ...] = tuple(f"{a}-{b}-{c}" for a, b, c in TILES)
TILE_INDEX: dict[tuple[int, int, int], int] = {t: i for i, t in enumerate(TILES)}
TILE_VALUES: tuple[int, ...] = tuple(sum(t) for t in TILES)
TILE_REASONS: tuple[str, ...] = tuple(f"tile {name}" for name in TILE_NAMES)
IS_TRIPLE: tuple[bool, ...] = tuple(a == c for a, _, c in TILES)
ROTATIONS: tuple[tuple[int, ...], ...] = tuple((0,) if IS_TRIPLE[i] else (0, 1, 2) for i in range(TILE_COUNT))


def _rotations(tile: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The numbers on corners 0, 1, 2 under rotations r0, r1, r2: corner k shows the tile's number (k - K) mod 3."""
    a, b, c = tile
    return ((a, b, c), (c, a, b), (b, c, a))


# CORNER_NUMBERS[tile][rotation] = the numbers on corners 0, 1, 2 (clockwise from the apex).
CORNER_NUMBERS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(_rotations(tile) for tile in TILES)
# Opening order: triples first, then value, then the higher numbers.
START_KEY: tuple[tuple[bool, int, tuple[int, ...]], ...] = tuple(
    (IS_TRIPLE[i], TILE_VALUES[i], tuple(sorted(TILES[i], reverse=True))) for i in range(TILE_COUNT)
)


def _match_table() -> dict[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """(tile, rotation) pairs for every corner requirement (three numbers); -1 means 'any number'."""
    table: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for tile in range(TILE_COUNT):
        for rot in ROTATIONS[tile]:
            numbers = CORNER_NUMBERS[tile][rot]
            for mask in range(8):
                key = tuple(-1 if mask >> k & 1 else numbers[k] for k in range(3))
                table.setdefault(key, []).append((tile, rot))
    return {k: tuple(v) for k, v in table.items()}


MATCHES = _match_table()


def tile_name(tile: int) -> str:
    return TILE_NAMES[tile]


def parse_tile(text: str) -> int:
    """A tile from `a-b-c` (any order of the three numbers: it is the same physical tile)."""
    parts = text.strip().split("-")
    if len(parts) != 3 or not all(p in ("0", "1", "2", "3", "4", "5") for p in parts):
        raise IllegalMoveError(f"{shown(text)} is not a tile: write three numbers 0-5 like 1-2-3", rule="notation")
    low, middle, high = sorted(int(p) for p in parts)
    return TILE_INDEX[(low, middle, high)]


def tile_for_corners(numbers: Iterable[int]) -> tuple[int, int] | None:
    """The (tile, rotation) showing these numbers on corners 0, 1, 2, or None if no tile does."""
    found = MATCHES.get(tuple(numbers), ())
    return found[0] if found else None
