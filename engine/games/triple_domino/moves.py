"""The moves and their notation: `lay 1-2-3 @ D0,0 r2`, `draw`, `pass`, and the chance moves `draw 1-2-3`, `deal ...`."""

from __future__ import annotations

import dataclasses
import re

from ...core import IllegalMoveError, shown
from .grid import parse_position_name, position_name
from .tiles import IS_TRIPLE, TILE_NAMES, parse_tile


@dataclasses.dataclass(frozen=True)
class Lay:
    """Lay `tile` on triangle `at` with its first number on corner `rotation`."""

    tile: int
    at: int
    rotation: int

    def __str__(self) -> str:
        return f"lay {TILE_NAMES[self.tile]} @ {position_name(self.at)} r{self.rotation}"


@dataclasses.dataclass(frozen=True)
class Draw:
    """The player's decision to take a tile from the pool (the tile itself is chance: Drawn)."""

    def __str__(self) -> str:
        return "draw"


@dataclasses.dataclass(frozen=True)
class Pass:
    """End the turn without laying (after three draws, or when no draw is possible)."""

    def __str__(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True)
class Drawn:
    """Chance: the tile that came out of the pool."""

    tile: int

    def __str__(self) -> str:
        return f"draw {TILE_NAMES[self.tile]}"


@dataclasses.dataclass(frozen=True)
class Deal:
    """Chance: the hands in seat order (each sorted); solitaire also turns up the start tile."""

    hands: tuple[tuple[int, ...], ...]
    start: int | None = None

    def __str__(self) -> str:
        text = "deal " + "|".join(",".join(TILE_NAMES[t] for t in hand) for hand in self.hands)
        return text if self.start is None else f"{text} start {TILE_NAMES[self.start]}"


Move = Lay | Draw | Pass | Drawn | Deal
DRAW = Draw()
PASS = Pass()

_LAY_RE = re.compile(r"(?:lay\s+)?(\S+?)\s*@?\s*([UDud]\s*-?\d+\s*,\s*-?\d+)\s*r\s*(\d)$", re.IGNORECASE)


def parse_move(text: str) -> Move:
    """Read any triple-domino move in its notation (see the package docstring)."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"{shown(text)} is not a move", rule="notation")
    words = text.strip().split()
    if not words:
        raise IllegalMoveError("an empty move: write lay 1-2-3 @ D0,0 r0, draw or pass", rule="notation")
    head = words[0].lower()
    if head == "pass" and len(words) == 1:
        return PASS
    if head == "draw":
        if len(words) == 1:
            return DRAW
        if len(words) == 2:
            return Drawn(parse_tile(words[1]))
    if head == "deal":
        return _parse_deal(" ".join(words[1:]), text)
    m = _LAY_RE.match(text.strip())
    if m:
        tile = parse_tile(m.group(1))
        rotation = int(m.group(3))
        if rotation > 2:
            raise IllegalMoveError(f"{shown(text)}: the rotation is r0, r1 or r2", rule="notation")
        return Lay(tile, parse_position_name(m.group(2)), 0 if IS_TRIPLE[tile] else rotation)
    raise IllegalMoveError(f"{shown(text)}: write a move as lay 1-2-3 @ D0,0 r0, draw or pass", rule="notation")


def _parse_deal(body: str, text: str) -> Deal:
    start = None
    main, sep, rest = body.partition(" start ")
    if sep:
        start = parse_tile(rest)
    if not main.strip():
        raise IllegalMoveError(
            f"{shown(text)}: a deal lists the hands, like deal 0-0-1,1-2-3|2-2-5,...", rule="notation"
        )
    hands = tuple(
        tuple(sorted(parse_tile(t) for t in hand.split(",") if t.strip())) for hand in main.replace(" ", "").split("|")
    )
    return Deal(hands, start)
