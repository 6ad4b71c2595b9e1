"""triple-domino: lay triangular tiles whose corners match, score their value and bonuses.

The set has 56 tiles, one for every multiset {a, b, c} of the numbers 0-5, printed
clockwise in non-decreasing order (so 0-1-2 exists and 0-2-1 does not); a tile's
value is a + b + c. Hands: 10 tiles each for 2 players, 8 for 3-4, 6 for 5-6; the
rest lie face down in the pool. The player with the highest triple (a-a-a) opens
the round with it, else the one with the highest-value tile; that scores the
value + 5, and play goes on clockwise (in seat order p1, p2, ...) from the opener.

A tile is laid on the triangular grid so that it shares at least one whole edge
with a laid tile, both numbers of every shared edge match, and every corner it
touches (also where tiles meet only at a point) shows the same number as the
tiles already there. It scores its value plus: bridge 30 (one matched edge, the
opposite corner touches a laid tile), double connection 25 (two matched edges),
hexagon 40 (option 50) for closing the six tiles around a point, which replaces
the double connection. A player who cannot or will not lay draws up to three
tiles, -5 each, and may lay the tile just drawn if it fits; after the third draw
the turn passes. With the pool empty a player who cannot lay passes at -5 (option
-10). Laying the last tile ends the round: +20 and the values left in every
other hand. A blocked round (pool empty, nobody can lay) gives the lowest hand
the other hands' values less its own, no +20. The game ends at the end of a
round in which someone reaches 300 (option); the highest total wins.

Grid (SPEC section 3 leaves it to the engine; it is the rings lattice): lattice
points (q, r), cartesian x = q + r/2, y = r*sqrt(3)/2. Up triangle `U{q},{r}`
has corners (q, r+1) apex, (q+1, r) bottom right, (q, r) bottom left; down
triangle `D{q},{r}` has corners (q+1, r) apex (bottom), (q, r+1) top left,
(q+1, r+1) top right; corners are numbered 0, 1, 2 clockwise from the apex.
A rotation `rK` puts the tile's first (smallest) number on corner K, so corner
i shows the tile's number (i - K) mod 3. A triple has only `r0`. The round's
first tile lies on `U0,0` in rotation r0.

Moves (one decision each; chance moves by CHANCE in between):
    deal 0-0-1,...|1-2-3,...      chance: the hands in seat order (solitaire: `deal ... start 2-3-3`)
    lay 1-2-3 @ D0,0 r2           lay a tile (the opener's move is `lay T @ U0,0 r0`)
    draw                          take a tile from the pool (-5)
    draw 1-2-3                    chance: the tile that came out of the pool (uniform)
    pass                          end the turn without laying

Decisions where the rule book is silent or ambiguous (options where a table may differ):
- The opening tile is forced: after the deal the opener's only legal move is to lay
  it on U0,0 r0 (so the opener is visibly the one who lays and scores it). Equal
  values are broken by the higher numbers (5-5-3 before 4-4-5).
- After drawing, only the tile just drawn may be laid ("it may be played
  immediately"); option `lay_after_draw`: "drawn" (any tile drawn this turn) or
  "any" (any tile in hand). A player may draw again instead of laying a drawn tile
  that fits. `pass` is legal after the third draw (free) or when no draw is
  possible (the empty-pool penalty); never at the start of a turn while drawing is
  possible.
- With an empty pool at the start of a turn, a player who can lay must lay (a
  refusal would need a draw, which is impossible); otherwise rounds could stall.
- The blocked round is detected when a turn begins: the pool is empty (solitaire:
  no draw possible) and no player can lay any tile; it is scored at once, without
  further pass penalties.
- Bridge: exactly one edge matched and the corner opposite it touches a laid tile.
  Double connection: two or three edges matched. A tile closing a hexagon gets
  the hexagon bonus instead of the double connection; closing two hexagons at once
  scores the bonus for each (option `multi_hexagon`: "once"). Bridges never
  combine with either (a bridge has one matched edge, the others need two).
- Blocked round, several hands equally lowest: each of them receives the sum of
  all other hands and loses its own (option `blocked_tie`: "none" = nobody scores).
- Penalties are scored when they happen: -5 on each `draw` decision, the
  empty-pool penalty on the `pass` that it forces. Every score change is logged
  (round, player, points, reason); changes of 0 points (the 0-0-0 tile) are not.
- Players are named p1..p6 in clockwise seat order (the tiles have no colours).
- Solitaire (players=1): one round. A random start tile is laid by the deal (it
  scores nothing: nobody laid it), the hand has `solitaire_hand_size` tiles (10),
  at most `solitaire_draw_limit` draws in all (20; 0 = no limit). Draw penalties
  and bonuses are as in the full game; when no draw is possible the draw limit acts
  like an empty pool. The game ends when the hand is empty (+20) or the player
  cannot go on (no lay, no draw: scored like a blocked round, i.e. minus the hand).

Hidden information: `view(player)` is a `TripleDominoView` holding only what that
player sees (own hand, other hands' sizes, pool size, the layout, scores and the
public history, where others' draws read `draw ?`); `determinize(rng)` deals the
unseen tiles at random into a full state for search.

Position JSON (no vision; `cells` stays empty since the grid is unbounded):
    {"game": "triple-domino", "cells": {}, "options": {...}, "round": 1,
     "phase": "play" | "draw" | "deal" | "over", "to_move": "p1",
     "layout": {"U0,0": "5-5-5 r0", "D0,0": "4-5-5 r1"},
     "hands": {"p1": ["0-0-1", ...], "p2": [...]}, "pool": [...],
     "scores": {"p1": 20, "p2": 0}, "turn": {"draws": 0, "drawn": []},
     "start_tile": null, "solitaire_draws": 0,
     "score_log": [{"round": 1, "player": "p1", "points": 15, "reason": "tile 5-5-5"}, ...],
     "result": null}
Only `game` and `hands` are required by `from_position`; `score_position` needs
only `game` (its scores are the totals, its items the score log). Scores the log
does not explain are logged as an "earlier score" entry of round 0.

For the UI: `state.placements(tile)`, `open_positions()`, `required_corners(pos)`,
`layout_tiles()` (corners with cartesian points and numbers), `last_score_items`,
`score_items`, `round_number`; module functions `triangle_vertices(pos)`,
`tile_for_corners(numbers)`, `parse_tile`, `position_name`.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from bisect import insort
from typing import Any, Callable, Iterable, Iterator, Mapping

from ..core import (
    CHANCE, Game, IllegalMoveError, OptionError, Outcome, PositionError, RuleOptions, State, Termination, option,
    outcome_by_score, shown,
)
from ..core.state import TIME_FORFEIT

# ----- tiles --------------------------------------------------------------------------------
TILES: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)
)
TILE_COUNT = len(TILES)  # 56
ALL_TILES = frozenset(range(TILE_COUNT))
TILE_NAMES: tuple[str, ...] = tuple(f"{a}-{b}-{c}" for a, b, c in TILES)
TILE_INDEX: dict[tuple[int, int, int], int] = {t: i for i, t in enumerate(TILES)}
TILE_VALUES: tuple[int, ...] = tuple(sum(t) for t in TILES)
TILE_REASONS: tuple[str, ...] = tuple(f"tile {name}" for name in TILE_NAMES)
IS_TRIPLE: tuple[bool, ...] = tuple(a == c for a, _, c in TILES)
ROTATIONS: tuple[tuple[int, ...], ...] = tuple((0,) if IS_TRIPLE[i] else (0, 1, 2) for i in range(TILE_COUNT))
# CORNER_NUMBERS[tile][rotation] = the numbers on corners 0, 1, 2 (clockwise from the apex).
CORNER_NUMBERS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(tuple(TILES[i][(k - rot) % 3] for k in range(3)) for rot in range(3)) for i in range(TILE_COUNT)
)
# Opening order: triples first, then value, then the higher numbers.
START_KEY: tuple[tuple[bool, int, tuple[int, ...]], ...] = tuple(
    (IS_TRIPLE[i], TILE_VALUES[i], tuple(sorted(TILES[i], reverse=True))) for i in range(TILE_COUNT)
)

START_BONUS = 5
LAST_TILE_BONUS = 20
BRIDGE_BONUS = 30
DOUBLE_BONUS = 25
DRAW_PENALTY = 5
MAX_DRAWS = 3
HAND_SIZES = {2: 10, 3: 8, 4: 8, 5: 6, 6: 6}


def _match_table() -> dict[tuple[int, int, int], tuple[tuple[int, int], ...]]:
    """(tile, rotation) pairs for every corner requirement; -1 means 'any number'."""
    table: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    for tile in range(TILE_COUNT):
        for rot in ROTATIONS[tile]:
            numbers = CORNER_NUMBERS[tile][rot]
            for mask in range(8):
                key = tuple(-1 if mask >> k & 1 else numbers[k] for k in range(3))
                table.setdefault(key, []).append((tile, rot))  # type: ignore[arg-type]
    return {k: tuple(v) for k, v in table.items()}


MATCHES = _match_table()


def tile_name(tile: int) -> str:
    return TILE_NAMES[tile]


def parse_tile(text: str) -> int:
    """A tile from `a-b-c` (any order of the three numbers: it is the same physical tile)."""
    parts = text.strip().split("-")
    if len(parts) != 3 or not all(p in ("0", "1", "2", "3", "4", "5") for p in parts):
        raise IllegalMoveError(f"{shown(text)} is not a tile: write three numbers 0-5 like 1-2-3", rule="notation")
    return TILE_INDEX[tuple(sorted(int(p) for p in parts))]  # type: ignore[index]


def tile_for_corners(numbers: Iterable[int]) -> tuple[int, int] | None:
    """The (tile, rotation) showing these numbers on corners 0, 1, 2, or None if no tile does."""
    found = MATCHES.get(tuple(numbers), ())  # type: ignore[arg-type]
    return found[0] if found else None


# ----- the grid -------------------------------------------------------------------------------
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
        raise IllegalMoveError(f"{shown(text)} is not a position: write U or D and two coordinates, like D0,-1", rule="notation")
    q, r = int(m.group(2)), int(m.group(3))
    if abs(q) > LIMIT or abs(r) > LIMIT:
        raise IllegalMoveError(f"{shown(text)} is too far out: coordinates run from -{LIMIT} to {LIMIT}", rule="notation")
    return triangle_id(q, r, m.group(1) in "Dd")


def point_xy(point: int) -> tuple[float, float]:
    q, r = point // STRIDE - OFFSET, point % STRIDE - OFFSET
    return (q + r / 2, r * SQRT3_2)


def triangle_vertices(position: int | str) -> tuple[tuple[float, float], ...]:
    """The cartesian corners (edge length 1) of a triangle, corners 0, 1, 2 clockwise from the apex."""
    t = parse_position_name(position) if isinstance(position, str) else position
    return tuple(point_xy(v) for v in CORNERS[t])


# ----- options --------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class TripleDominoOptions(RuleOptions):
    game_id = "triple-domino"
    players: int = option(2, "number of players; 1 = solitaire", minimum=1, maximum=6)
    target_score: int = option(300, "the game ends after the round in which someone reaches this score", minimum=1, maximum=10_000)
    hexagon_bonus: int = option(40, "bonus for closing a hexagon (40 in every bonus table, 50 in the prose)", choices=(40, 50))
    empty_pool_penalty: int = option(5, "penalty for having to draw from an empty pool (the German text says 10)", choices=(5, 10))
    lay_after_draw: str = option("last", "after drawing, which tiles may be laid: last = the tile just drawn, "
                                 "drawn = any tile drawn this turn, any = any tile in hand", choices=("last", "drawn", "any"))
    multi_hexagon: str = option("each", "a tile closing two hexagons scores the bonus for each, or once", choices=("each", "once"))
    blocked_tie: str = option("all", "blocked round with several lowest hands: all of them score, or none", choices=("all", "none"))
    solitaire_hand_size: int = option(10, "tiles in the solitaire hand", minimum=1, maximum=40)
    solitaire_draw_limit: int = option(20, "draws allowed in a whole solitaire game (0 = no limit)", minimum=0, maximum=TILE_COUNT)


def hand_size(options: TripleDominoOptions) -> int:
    return options.solitaire_hand_size if options.players == 1 else HAND_SIZES[options.players]


# ----- moves ----------------------------------------------------------------------------------
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

# ----- phases ---------------------------------------------------------------------------------
DEAL, PLAY, DRAWING, OVER = "deal", "play", "draw", "over"
PHASES = (DEAL, PLAY, DRAWING, OVER)

LogEntry = tuple[int, int, int, str]  # (round, seat, points, reason)


class TripleDominoState(State[Move, TripleDominoOptions]):
    move_types = (Lay, Draw, Pass, Drawn, Deal)

    def __init__(self, game: "TripleDomino", options: TripleDominoOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        n = options.players
        self._players = tuple(f"p{i + 1}" for i in range(n))
        self.layout: dict[int, tuple[int, int]] = {}  # triangle → (tile, rotation)
        self.vertex_number: dict[int, int] = {}  # lattice point → the number every tile there shows
        self.vertex_count: dict[int, int] = {}  # lattice point → tiles touching it
        self.frontier: set[int] = set()  # empty triangles sharing an edge with a laid tile
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.pool: set[int] = set(ALL_TILES)
        self.points: list[int] = [0] * n
        self.score_log: list[LogEntry] = []
        # The turn: everything _scalars() saves for undo.
        self.seat = 0
        self.phase = DEAL
        self.draws = 0
        self.drawn: tuple[int, ...] = ()
        self.start_tile: int | None = None
        self.round_number = 1
        self.solitaire_draws = 0
        self.result: str | None = None

    # ----- turn order ------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def current_player(self) -> str:
        if self.phase in (DEAL, DRAWING):
            return CHANCE
        return self._players[self.seat]

    @property
    def is_solitaire(self) -> bool:
        return len(self._players) == 1

    def _scalars(self) -> tuple:
        return (self.seat, self.phase, self.draws, self.drawn, self.start_tile,
                self.round_number, self.solitaire_draws, self.result)

    def _restore(self, saved: tuple) -> None:
        (self.seat, self.phase, self.draws, self.drawn, self.start_tile,
         self.round_number, self.solitaire_draws, self.result) = saved

    def can_draw(self) -> bool:
        """Whether a tile can come from the pool now (solitaire: also within the draw limit)."""
        if not self.pool:
            return False
        limit = self.options.solitaire_draw_limit
        return not (self.is_solitaire and limit and self.solitaire_draws >= limit)

    def seat_of(self, player: str) -> int:
        try:
            return self._players.index(player)
        except ValueError:
            raise IllegalMoveError(f"there is no player {shown(player)} (players: {', '.join(self._players)})", rule="player") from None

    # ----- the layout --------------------------------------------------------------------------
    def _place(self, tile: int, t: int, rotation: int) -> None:
        layout = self.layout
        layout[t] = (tile, rotation)
        numbers = CORNER_NUMBERS[tile][rotation]
        vn, vc = self.vertex_number, self.vertex_count
        for v, n in zip(CORNERS[t], numbers):
            vn[v] = n
            vc[v] = vc.get(v, 0) + 1
        frontier = self.frontier
        frontier.discard(t)
        for nb in NEIGHBOURS[t]:
            if nb not in layout:
                frontier.add(nb)

    def _unplace(self, t: int) -> None:
        layout = self.layout
        del layout[t]
        vn, vc = self.vertex_number, self.vertex_count
        for v in CORNERS[t]:
            left = vc[v] - 1
            if left:
                vc[v] = left
            else:
                del vc[v], vn[v]
        frontier = self.frontier
        for nb in NEIGHBOURS[t]:
            if nb not in layout and not any(x in layout for x in NEIGHBOURS[nb]):
                frontier.discard(nb)
        if any(nb in layout for nb in NEIGHBOURS[t]):
            frontier.add(t)

    def _lays(self, tiles: Iterable[int]) -> Iterator[Lay]:
        """Every legal placement of these tiles on the layout, by position then tile."""
        wanted = set(tiles)
        if not wanted:
            return
        if not self.layout:
            for tile in sorted(wanted):
                for rot in ROTATIONS[tile]:
                    yield Lay(tile, ORIGIN, rot)
            return
        vn = self.vertex_number
        for t in sorted(self.frontier):
            a, b, c = CORNERS[t]
            for tile, rot in MATCHES.get((vn.get(a, -1), vn.get(b, -1), vn.get(c, -1)), ()):
                if tile in wanted:
                    yield Lay(tile, t, rot)

    def can_lay(self, seat: int) -> bool:
        return any(True for _ in self._lays(self.hands[seat]))

    def open_positions(self) -> list[str]:
        """The empty triangles a tile could go on (sharing an edge with the layout)."""
        if not self.layout:
            return [position_name(ORIGIN)]
        return [position_name(t) for t in sorted(self.frontier)]

    def required_corners(self, position: int | str) -> tuple[int | None, int | None, int | None]:
        """The numbers corners 0, 1, 2 of a triangle must show (None: free)."""
        t = parse_position_name(position) if isinstance(position, str) else position
        vn = self.vertex_number
        return tuple(vn.get(v) for v in CORNERS[t])  # type: ignore[return-value]

    def placements(self, tile: int | str) -> list[tuple[str, int]]:
        """Every (position, rotation) where this tile fits the layout now, whoever holds it."""
        tile = parse_tile(tile) if isinstance(tile, str) else tile
        return [(position_name(m.at), m.rotation) for m in self._lays((tile,))]

    def layout_tiles(self) -> list[dict[str, Any]]:
        """The laid tiles for drawing: position, tile, rotation and each corner's point and number."""
        out = []
        for t in sorted(self.layout):
            tile, rot = self.layout[t]
            corners = [{"x": x, "y": y, "number": n}
                       for (x, y), n in zip(triangle_vertices(t), CORNER_NUMBERS[tile][rot])]
            out.append({"at": position_name(t), "tile": TILE_NAMES[tile], "rotation": rot, "corners": corners})
        return out

    # ----- moves -----------------------------------------------------------------------------------
    def _lay_candidates(self) -> Iterable[int]:
        if not self.draws:
            return self.hands[self.seat]
        mode = self.options.lay_after_draw
        if mode == "last":
            return self.drawn[-1:]
        if mode == "drawn":
            return self.drawn
        return self.hands[self.seat]

    def _legal_moves(self) -> Iterator[Move]:
        phase = self.phase
        if phase == DEAL:
            yield self.sample_chance()
            return
        if phase == DRAWING:
            for tile in sorted(self.pool):
                yield Drawn(tile)
            return
        if phase != PLAY:
            return
        if self.start_tile is not None:
            yield Lay(self.start_tile, ORIGIN, 0)
            return
        can_lay = False
        for move in self._lays(self._lay_candidates()):
            can_lay = True
            yield move
        can_draw = self.can_draw()
        if self.draws < MAX_DRAWS and can_draw:
            yield DRAW
        if self.draws >= MAX_DRAWS or (not can_draw and (self.draws or not can_lay)):
            yield PASS

    def chance_outcomes(self) -> list[tuple[Move, float]] | None:
        if self.phase == DEAL:
            return None  # too many deals to list: sample_chance shuffles
        if self.phase != DRAWING:
            raise IllegalMoveError("nothing is being dealt or drawn now", rule="chance")
        share = 1 / len(self.pool)
        return [(Drawn(tile), share) for tile in sorted(self.pool)]

    def sample_chance(self, rng: random.Random | None = None) -> Move:
        if self.phase != DEAL:
            return super().sample_chance(rng)
        tiles = list(range(TILE_COUNT))
        (rng or self.chance_rng()).shuffle(tiles)
        size, n = hand_size(self.options), len(self._players)
        hands = tuple(tuple(sorted(tiles[i * size:(i + 1) * size])) for i in range(n))
        return Deal(hands, tiles[size] if n == 1 else None)

    # ----- checking ----------------------------------------------------------------------------------
    def _check(self, move: Move) -> None:
        if isinstance(move, Deal):
            self._check_deal(move)
            return
        if isinstance(move, Drawn):
            if self.phase != DRAWING:
                raise IllegalMoveError(f"{move}: no tile is being drawn now (a player says 'draw' first)", rule="draw")
            if move.tile not in self.pool:
                raise IllegalMoveError(f"{move}: {TILE_NAMES[move.tile]} is not in the pool", rule="pool")
            return
        player = self.current_player
        if self.phase == DEAL:
            raise IllegalMoveError(f"{move}: the tiles of round {self.round_number} must be dealt first", rule="deal")
        if self.phase == DRAWING:
            raise IllegalMoveError(f"{move}: {self._players[self.seat]} is drawing a tile from the pool", rule="draw")
        if isinstance(move, Lay):
            self._check_lay(move, player)
            return
        if self.start_tile is not None and isinstance(move, (Draw, Pass)):
            raise IllegalMoveError(
                f"{move}: {player} opens the round by laying {TILE_NAMES[self.start_tile]} (the start rule)", rule="start")
        if isinstance(move, Draw):
            if self.draws >= MAX_DRAWS:
                raise IllegalMoveError("draw: you have drawn three tiles this turn; lay the last one if it fits, or pass",
                                       rule="three draws")
            if not self.pool:
                raise IllegalMoveError(f"draw: the pool is empty; pass (-{self.options.empty_pool_penalty})", rule="empty pool")
            if not self.can_draw():
                raise IllegalMoveError(f"draw: the solitaire draw limit ({self.options.solitaire_draw_limit}) is used up",
                                       rule="draw limit")
            return
        if isinstance(move, Pass):
            if self.draws >= MAX_DRAWS:
                return
            if self.can_draw():
                raise IllegalMoveError("pass: you may pass only after drawing three tiles or when no tile can be drawn;"
                                       " lay a tile or draw", rule="pass")
            if not self.draws and self.can_lay(self.seat):
                raise IllegalMoveError("pass: the pool is empty and you can lay a tile, so you must lay it", rule="must lay")
            return
        raise IllegalMoveError(f"{shown(move)} is not a triple-domino move", rule="notation")

    def _check_deal(self, move: Deal) -> None:
        if self.phase != DEAL:
            raise IllegalMoveError(f"{_short(move)}: tiles are dealt only at the start of a round", rule="deal")
        n, size = len(self._players), hand_size(self.options)
        if len(move.hands) != n:
            raise IllegalMoveError(f"{_short(move)}: deal {n} hand(s), one per player", rule="deal")
        if any(len(hand) != size for hand in move.hands):
            raise IllegalMoveError(f"{_short(move)}: every hand holds {size} tiles", rule="deal")
        dealt = [t for hand in move.hands for t in hand] + ([move.start] if move.start is not None else [])
        if len(set(dealt)) != len(dealt) or not all(0 <= t < TILE_COUNT for t in dealt):
            raise IllegalMoveError(f"{_short(move)}: each tile exists once", rule="deal")
        if (move.start is None) != (n > 1):
            raise IllegalMoveError(f"{_short(move)}: a start tile is turned up in solitaire only", rule="deal")

    def _check_lay(self, move: Lay, player: str) -> None:
        tile, t, rot = move.tile, move.at, move.rotation
        if not (0 <= tile < TILE_COUNT and rot in (0, 1, 2) and isinstance(t, int) and t >= 0):
            raise IllegalMoveError(f"{shown(move)} is not a tile, position and rotation", rule="notation")
        q, r, _ = triangle_coords(t)
        if abs(q) > LIMIT or abs(r) > LIMIT:
            raise IllegalMoveError(f"{move}: coordinates run from -{LIMIT} to {LIMIT}", rule="notation")
        name = TILE_NAMES[tile]
        if IS_TRIPLE[tile] and rot:
            raise IllegalMoveError(f"{move}: a triple looks the same every way round; write r0", rule="notation")
        if self.start_tile is not None:
            if (tile, t, rot) != (self.start_tile, ORIGIN, 0):
                start = TILE_NAMES[self.start_tile]
                raise IllegalMoveError(f"{move}: {player} opens the round with {start} in the middle:"
                                       f" lay {start} @ U0,0 r0 (the start rule)", rule="start")
            return
        if tile not in self.hands[self.seat]:
            raise IllegalMoveError(f"{move}: {player} has no {name} in hand", rule="hand")
        if self.draws and tile not in self._lay_candidates():
            what = {"last": "the tile you just drew", "drawn": "a tile drawn this turn"}[self.options.lay_after_draw]
            raise IllegalMoveError(f"{move}: after drawing you may only lay {what}", rule="after draw")
        if t in self.layout:
            raise IllegalMoveError(f"{move}: {position_name(t)} is taken", rule="occupied")
        if not self.layout:
            if t != ORIGIN:
                raise IllegalMoveError(f"{move}: the first tile goes in the middle, U0,0", rule="start")
            return
        if t not in self.frontier:
            raise IllegalMoveError(f"{move}: a tile must share a whole edge with a laid tile", rule="contact")
        numbers = CORNER_NUMBERS[tile][rot]
        corners, vn = CORNERS[t], self.vertex_number
        for k, nb in enumerate(NEIGHBOURS[t]):
            if nb in self.layout:
                a, b = corners[k], corners[(k + 1) % 3]
                mine, theirs = (numbers[k], numbers[(k + 1) % 3]), (vn[a], vn[b])
                if mine != theirs:
                    raise IllegalMoveError(
                        f"{move}: its edge {mine[0]}-{mine[1]} meets the edge {theirs[0]}-{theirs[1]} of the tile on"
                        f" {position_name(nb)}; both numbers of a shared edge must match", rule="match")
        for k, v in enumerate(corners):
            if v in vn and vn[v] != numbers[k]:
                raise IllegalMoveError(
                    f"{move}: its corner {numbers[k]} touches a corner showing {vn[v]};"
                    " every corner that touches a laid tile must match", rule="corner")

    # ----- playing ---------------------------------------------------------------------------------
    def _apply(self, move: Move) -> Any:
        if isinstance(move, Lay):
            return self._apply_lay(move)
        if isinstance(move, Drawn):
            saved = self._scalars()
            self.pool.remove(move.tile)
            insort(self.hands[self.seat], move.tile)
            self.drawn += (move.tile,)
            self.phase = PLAY
            return saved
        token = (len(self.score_log), self._scalars(), tuple(self.points))
        seat = self.seat
        if isinstance(move, Draw):
            self._score(seat, -DRAW_PENALTY, "draw")
            self.draws += 1
            self.solitaire_draws += 1
            self.phase = DRAWING
        elif isinstance(move, Pass):
            if self.draws < MAX_DRAWS:
                self._score(seat, -self.options.empty_pool_penalty, "empty pool")
            self._next_turn()
        else:  # Deal
            token += (self.layout, self.vertex_number, self.vertex_count, self.frontier, self.hands, self.pool)
            self._deal(move)
        return token

    def _score(self, seat: int, points: int, reason: str) -> None:
        if points:
            self.points[seat] += points
            self.score_log.append((self.round_number, seat, points, reason))

    def _apply_lay(self, move: Lay) -> Any:
        token = (len(self.score_log), self._scalars(), tuple(self.points))
        tile, t, seat = move.tile, move.at, self.seat
        self._score(seat, TILE_VALUES[tile], TILE_REASONS[tile])
        if self.start_tile is not None:
            self.start_tile = None
            self._place(tile, t, move.rotation)
            self._score(seat, START_BONUS, "start tile")
        else:
            layout = self.layout
            nbs = NEIGHBOURS[t]
            matched = [k for k in range(3) if nbs[k] in layout]
            bridge = len(matched) == 1 and CORNERS[t][(matched[0] + 2) % 3] in self.vertex_count
            self._place(tile, t, move.rotation)
            vc = self.vertex_count
            hexagons = sum(1 for v in CORNERS[t] if vc[v] == 6)
            if hexagons:
                if self.options.multi_hexagon == "once":
                    hexagons = 1
                self._score(seat, hexagons * self.options.hexagon_bonus, "hexagon" if hexagons == 1 else f"{hexagons} hexagons")
            elif len(matched) >= 2:
                self._score(seat, DOUBLE_BONUS, "double connection")
            elif bridge:
                self._score(seat, BRIDGE_BONUS, "bridge")
        hand = self.hands[seat]
        hand.remove(tile)
        if hand:
            self._next_turn()
        else:
            self.draws, self.drawn = 0, ()
            self._score(seat, LAST_TILE_BONUS, "last tile")
            left = sum(TILE_VALUES[x] for s, h in enumerate(self.hands) if s != seat for x in h)
            self._score(seat, left, "tiles left in the other hands")
            self._end_round(f"{self._players[seat]} laid their last tile")
        return token

    def _next_turn(self) -> None:
        self.seat = (self.seat + 1) % len(self._players)
        self.draws = 0
        self.drawn = ()
        self.phase = PLAY
        if not self.can_draw() and not any(self.can_lay(s) for s in range(len(self._players))):
            self._score_blocked()

    def _score_blocked(self) -> None:
        sums = [sum(TILE_VALUES[x] for x in hand) for hand in self.hands]
        lowest = [s for s, total in enumerate(sums) if total == min(sums)]
        if len(lowest) == 1 or self.options.blocked_tie == "all":
            for s in lowest:
                self._score(s, sum(sums) - sums[s], "blocked: tiles left in the other hands")
                self._score(s, -sums[s], "blocked: own tiles left")
        if self.is_solitaire:
            self._end_round("no tile can be laid or drawn")
        else:
            self._end_round("the round is blocked: the pool is empty and nobody can lay")

    def _end_round(self, reason: str) -> None:
        if self.is_solitaire:
            self.phase, self.result = OVER, f"solitaire over: {reason}"
            return
        best = max(self.points)
        if best >= self.options.target_score:
            leader = self._players[self.points.index(best)]
            self.phase = OVER
            self.result = f"round {self.round_number}: {reason}; {leader} has {best} (target {self.options.target_score})"
        else:
            self.phase = DEAL
            self.round_number += 1

    def _deal(self, move: Deal) -> None:
        self.layout, self.vertex_number, self.vertex_count, self.frontier = {}, {}, {}, set()
        self.hands = [list(hand) for hand in move.hands]
        dealt = {t for hand in move.hands for t in hand}
        if move.start is not None:
            dealt.add(move.start)
        self.pool = set(ALL_TILES - dealt)
        self.draws, self.drawn, self.phase = 0, (), PLAY
        if move.start is not None:
            self._place(move.start, ORIGIN, 0)
            self.seat, self.start_tile = 0, None
        else:
            self.seat, self.start_tile = opener(self.hands)

    def _revert(self, move: Move, token: Any) -> None:
        if isinstance(move, Drawn):
            self._restore(token)
            self.hands[self.seat].remove(move.tile)
            self.pool.add(move.tile)
            return
        log_length, saved, points = token[:3]
        del self.score_log[log_length:]
        self.points = list(points)
        self._restore(saved)
        if isinstance(move, Lay):
            self._unplace(move.at)
            insort(self.hands[self.seat], move.tile)
        elif isinstance(move, Deal):
            # Copies: the token is shared with every copy of this state, which may undo it too.
            layout, vertex_number, vertex_count, frontier, hands, pool = token[3:]
            self.layout, self.vertex_number, self.vertex_count = dict(layout), dict(vertex_number), dict(vertex_count)
            self.frontier, self.hands, self.pool = set(frontier), [list(h) for h in hands], set(pool)

    # ----- scores and the end ------------------------------------------------------------------------
    def _game_outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        ended = Termination.SOLITAIRE_OVER if self.is_solitaire else Termination.TARGET_SCORE
        return outcome_by_score(self.scores(), self.result or "game over", ended)

    def scores(self) -> dict[str, int]:
        return dict(zip(self._players, self.points))

    def recount_scores(self) -> dict[str, int]:
        totals = dict.fromkeys(self._players, 0)
        for _, seat, points, _ in self.score_log:
            totals[self._players[seat]] += points
        return totals

    def _log_dicts(self, entries: Iterable[LogEntry]) -> list[dict[str, Any]]:
        return [{"round": rnd, "player": self._players[seat], "points": points, "reason": reason}
                for rnd, seat, points, reason in entries]

    @property
    def score_items(self) -> list[dict[str, Any]]:
        """Every score event so far (round, player, points, reason), oldest first."""
        return self._log_dicts(self.score_log)

    @property
    def last_score_items(self) -> list[dict[str, Any]]:
        """The score events of the last move (a lay's value and bonuses, a penalty, a round end)."""
        if not self._stack or self._stack[-1][0] == TIME_FORFEIT or isinstance(self._stack[-1][0], Drawn):
            return []
        return self._log_dicts(self.score_log[self._stack[-1][1][0]:])

    # ----- notation --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # ----- positions ---------------------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        names = TILE_NAMES
        return {
            "game": self.game.id,
            "cells": {},
            "options": self.options.to_dict(),
            "round": self.round_number,
            "phase": self.phase,
            "to_move": self._players[self.seat],
            "layout": {position_name(t): f"{names[tile]} r{rot}" for t, (tile, rot) in sorted(self.layout.items())},
            "hands": {p: [names[t] for t in hand] for p, hand in zip(self._players, self.hands)},
            "pool": [names[t] for t in sorted(self.pool)],
            "scores": self.scores(),
            "turn": {"draws": self.draws, "drawn": [names[t] for t in self.drawn]},
            "start_tile": None if self.start_tile is None else names[self.start_tile],
            "solitaire_draws": self.solitaire_draws,
            "score_log": self.score_items,
            "result": self.result,
        }

    def _copy_containers(self, clone: "TripleDominoState") -> None:
        clone.layout = dict(self.layout)
        clone.vertex_number = dict(self.vertex_number)
        clone.vertex_count = dict(self.vertex_count)
        clone.frontier = set(self.frontier)
        clone.hands = [list(h) for h in self.hands]
        clone.pool = set(self.pool)
        clone.points = list(self.points)
        clone.score_log = list(self.score_log)

    def view(self, player: str) -> "TripleDominoView":
        return TripleDominoView(self, player)

    # ----- text ------------------------------------------------------------------------------------------
    def render(self, player: str | None = None) -> str:
        """The layout, scores, pool and one hand: `player`'s, else the player to move."""
        keys = {t: _KEYS[i] if i < len(_KEYS) else "+" for i, t in enumerate(sorted(self.frontier))}
        last = self.peek()
        mark = last.at if isinstance(last, Lay) else None
        lines = draw_layout(self.layout, self.vertex_number, keys, mark)
        if keys and self.phase == PLAY:
            lines.append("open: " + "  ".join(
                f"{key}={position_name(t)} ({' '.join('*' if n is None else str(n) for n in self.required_corners(t))})"
                for t, key in keys.items()))
        lines.append(f"round {self.round_number}   pool {len(self.pool)}   scores: "
                     + ", ".join(f"{p} {s}" for p, s in self.scores().items()))
        if self.phase == OVER:
            lines.append(f"game over: {self.result}")
        elif self.phase == DEAL:
            lines.append(f"round {self.round_number}: the tiles are to be dealt")
        else:
            status = f"{self._players[self.seat]} to move"
            if self.start_tile is not None:
                status += f": open the round with {TILE_NAMES[self.start_tile]}"
            elif self.draws:
                status += f" (drawn {self.draws} this turn)"
            lines.append(status)
        shown = self.seat if player is None else self.seat_of(player)
        if self.phase != DEAL:
            hand = self.hands[shown]
            lines.append(f"{self._players[shown]}'s hand: "
                         + ("  ".join(f"{i + 1}) {TILE_NAMES[t]}" for i, t in enumerate(hand)) or "empty"))
            others = [f"{p} {len(h)}" for s, (p, h) in enumerate(zip(self._players, self.hands)) if s != shown]
            if others:
                lines.append("tiles in the other hands: " + ", ".join(others))
        items = self.last_score_items
        if items:
            lines.append("last move scored: " + ", ".join(f"{i['player']} {i['points']:+d} {i['reason']}" for i in items))
        return "\n".join(lines)


_KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _short(move: Move) -> str:
    text = str(move)
    return text if len(text) <= 40 else text[:37] + "..."


def opener(hands: list[list[int]]) -> tuple[int, int]:
    """(seat, tile) of the round's opening tile: the highest triple, else the highest value."""
    seat, tile = max(((s, t) for s, hand in enumerate(hands) for t in hand), key=lambda st: START_KEY[st[1]])
    return seat, tile


def parse_move(text: str) -> Move:
    """Read any triple-domino move in its notation (see the module docstring)."""
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
    raise IllegalMoveError(
        f"{shown(text)}: write a move as lay 1-2-3 @ D0,0 r0, draw or pass", rule="notation")


def _parse_deal(body: str, text: str) -> Deal:
    start = None
    main, sep, rest = body.partition(" start ")
    if sep:
        start = parse_tile(rest)
    if not main.strip():
        raise IllegalMoveError(f"{shown(text)}: a deal lists the hands, like deal 0-0-1,1-2-3|2-2-5,...", rule="notation")
    hands = tuple(tuple(sorted(parse_tile(t) for t in hand.split(",") if t.strip())) for hand in main.replace(" ", "").split("|"))
    return Deal(hands, start)


def draw_layout(layout: Mapping[int, tuple[int, int]], vertex_number: Mapping[int, int],
                keys: Mapping[int, str] | None = None, mark: int | None = None) -> list[str]:
    """The layout as text: corner numbers joined by edges, open triangles marked by `keys`, `*` the last tile."""
    if not layout:
        return ["(no tile laid yet)"]
    grid: dict[int, dict[int, str]] = {}

    def put(line: int, col: int, ch: str) -> None:
        row = grid.setdefault(line, {})
        if ch != " " or col not in row:
            row[col] = ch

    def point(q: int, r: int) -> None:
        v = (q + OFFSET) * STRIDE + (r + OFFSET)
        grid.setdefault(2 * r, {})[4 * q + 2 * r] = str(vertex_number[v])

    for t in layout:
        q, r, down = triangle_coords(t)
        c = 4 * q + 2 * r
        if down:
            for k in (3, 4, 5):
                put(2 * r + 2, c + k, "-")
            put(2 * r + 1, c + 3, "\\")
            put(2 * r + 1, c + 5, "/")
            put(2 * r + 1, c + 4, "*" if t == mark else " ")
        else:
            for k in (1, 2, 3):
                put(2 * r, c + k, "-")
            put(2 * r + 1, c + 1, "/")
            put(2 * r + 1, c + 3, "\\")
            put(2 * r + 1, c + 2, "*" if t == mark else " ")
    for t, key in (keys or {}).items():
        q, r, down = triangle_coords(t)
        grid.setdefault(2 * r + 1, {})[4 * q + 2 * r + (4 if down else 2)] = key
    for t in layout:
        q, r, down = triangle_coords(t)
        for dq, dr in ((1, 0), (0, 1), (1, 1)) if down else ((0, 0), (1, 0), (0, 1)):
            point(q + dq, r + dr)
    low = min(col for row in grid.values() for col in row)
    lines = []
    for line in range(max(grid), min(grid) - 1, -1):
        row = grid.get(line, {})
        text = [" "] * (max(row) - low + 1 if row else 0)
        for col, ch in row.items():
            text[col - low] = ch
        lines.append("  " + "".join(text).rstrip())
    return lines


# ----- hidden information ---------------------------------------------------------------------------
class TripleDominoView:
    """What one player sees: own hand, the sizes of the others, the layout, scores, public history.

    Holds copies of public data only (never the state), so nothing hidden can be read from it.
    `determinize(rng)` returns a full state consistent with what was seen, for search.
    """

    seed = None

    def __init__(self, state: TripleDominoState, player: str) -> None:
        seat = state.seat_of(player)
        self.game = state.game
        self.options = state.options
        self.player = player
        self.seat = seat
        self.players = state.players
        self.to_move_seat = state.seat
        self.current_player = state.current_player
        self.phase = state.phase
        self.round_number = state.round_number
        self.hand: tuple[int, ...] = tuple(state.hands[seat])
        self.hand_sizes: dict[str, int] = {p: len(h) for p, h in zip(state.players, state.hands)}
        self.pool_size = len(state.pool)
        self.layout: dict[int, tuple[int, int]] = dict(state.layout)
        self.points: tuple[int, ...] = tuple(state.points)
        self.score_log: tuple[LogEntry, ...] = tuple(state.score_log)
        self.draws = state.draws
        self.drawn_count = len(state.drawn)
        self.drawn: tuple[int, ...] = state.drawn if state.seat == seat else ()
        self.start_tile = state.start_tile  # announced: the opener shows it
        self.solitaire_draws = state.solitaire_draws
        self.result = state.result
        self.history: tuple[str, ...] = tuple(_public_text(m, token, seat) for m, token, _ in state._stack)
        self._outcome = state.outcome()

    @property
    def ply(self) -> int:
        return len(self.history)

    def scores(self) -> dict[str, int]:
        return dict(zip(self.players, self.points))

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def determinize(self, rng: random.Random | None = None) -> TripleDominoState:
        """A full state with the unseen tiles dealt at random into the other hands and the pool."""
        rng = rng or random.Random()
        laid = {tile for tile, _ in self.layout.values()}
        unseen = sorted(ALL_TILES - laid - set(self.hand))
        opener_seat = self.to_move_seat if self.start_tile is not None else None
        if opener_seat is not None and opener_seat != self.seat:
            unseen.remove(self.start_tile)  # type: ignore[arg-type]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for s, p in enumerate(self.players):
            if s == self.seat:
                hands.append(sorted(self.hand))
                continue
            size = self.hand_sizes[p]
            hand = []
            if s == opener_seat:
                hand.append(self.start_tile)
                size -= 1
            hand += unseen[:size]
            del unseen[:size]
            hands.append(sorted(hand))  # type: ignore[arg-type]
        drawn = self.drawn
        if self.to_move_seat != self.seat and self.drawn_count:
            drawn = tuple(rng.sample(hands[self.to_move_seat], self.drawn_count))
        state = TripleDominoState(self.game, self.options, None)  # type: ignore[arg-type]
        _assemble(state, layout=self.layout, hands=hands, pool=set(unseen), points=list(self.points),
                  log=list(self.score_log), scalars=(self.to_move_seat, self.phase, self.draws, drawn, self.start_tile,
                                                     self.round_number, self.solitaire_draws, self.result))
        state.start_position = state.to_position()
        return state

    def legal_moves(self) -> list[Move]:
        """The viewing player's legal moves when it is their turn (they depend on nothing hidden)."""
        if self.current_player != self.player:
            return []
        return list(self.determinize(random.Random(0)).legal_moves())

    def render(self) -> str:
        text = self.determinize(random.Random(0)).render(self.player)
        return text  # the stand-in hands are never shown: render shows only this player's hand

    def snapshot(self) -> tuple:
        return (self.player, self.options, self.phase, self.to_move_seat, self.round_number, self.hand,
                tuple(self.hand_sizes.items()), self.pool_size, tuple(sorted(self.layout.items())), self.points,
                self.score_log, self.draws, self.drawn_count, self.drawn, self.start_tile, self.solitaire_draws,
                self.result, self.history)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TripleDominoView) and self.snapshot() == other.snapshot()

    def __hash__(self) -> int:
        return hash(self.snapshot())

    def __repr__(self) -> str:
        return f"<TripleDominoView {self.player} round={self.round_number} to_move={self.current_player}>"


def _public_text(move: Any, token: Any, seat: int) -> str:
    """A move as `seat` saw it: other hands in a deal and others' draws are hidden."""
    if isinstance(move, Deal):
        hands = "|".join(",".join(TILE_NAMES[t] for t in hand) if s == seat else "?" for s, hand in enumerate(move.hands))
        return f"deal {hands}" + ("" if move.start is None else f" start {TILE_NAMES[move.start]}")
    if isinstance(move, Drawn) and token[0] != seat:
        return "draw ?"
    return str(move)


def _assemble(state: TripleDominoState, *, layout: Mapping[int, tuple[int, int]], hands: list[list[int]],
              pool: set[int], points: list[int], log: list[LogEntry], scalars: tuple) -> None:
    """Fill a fresh state with a position (used by from_position and determinize)."""
    for t, (tile, rot) in layout.items():
        state._place(tile, t, rot)
    state.hands = [sorted(h) for h in hands]
    state.pool = set(pool)
    state.points = list(points)
    state.score_log = list(log)
    state._restore(scalars)


# ----- the game ----------------------------------------------------------------------------------------
class TripleDomino(Game):
    id = "triple-domino"
    title = "Triple Domino"
    Options = TripleDominoOptions
    palette = ()
    rules_summary = (
        "Lay triangular tiles so that both numbers of every shared edge and every touching corner match. "
        "A tile scores its value; bridge +30, double connection +25, closing a hexagon +40. "
        "The highest triple opens (+5). Cannot or will not lay: draw up to three tiles at -5 each and lay the "
        "one just drawn if it fits. Laying your last tile ends the round: +20 and the other hands' values. "
        "Rounds go on until someone has 300 points; the most points wins."
    )

    def new_state(self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0) -> TripleDominoState:
        return TripleDominoState(self, self.options(options), seed)

    def _read_options(self, position: Mapping[str, Any]) -> TripleDominoOptions:
        self.check_game_id(position)
        try:
            return self.options(position.get("options"))  # type: ignore[return-value]
        except OptionError as exc:
            raise PositionError(f"position options: {exc}") from None

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> TripleDominoState:
        options = self._read_options(position)
        state = self.new_state(options, seed)
        players = state.players
        layout = read_layout(position.get("layout", {}))
        if "hands" not in position:
            raise PositionError("a triple-domino position needs 'hands': each player's tiles")
        raw_hands = position["hands"]
        if not isinstance(raw_hands, Mapping) or set(raw_hands) != set(players):
            raise PositionError(f"'hands' must give each of {', '.join(players)} a list of tiles")
        hands = [_read_tiles(raw_hands[p], f"hands.{p}") for p in players]
        seen = [tile for tile, _ in layout.values()] + [t for h in hands for t in h]
        if "pool" in position and position["pool"] is not None:
            pool = _read_tiles(position["pool"], "pool")
            seen += pool
            missing = ALL_TILES - set(seen)
            if missing:
                raise PositionError(f"{len(missing)} tiles are nowhere (layout, hands, pool), e.g. {TILE_NAMES[min(missing)]}")
        else:
            pool = sorted(ALL_TILES - set(seen))
            state.assumed.append("pool not given: every tile not laid or in a hand")
        if len(set(seen)) != len(seen):
            twice = next(t for t in seen if seen.count(t) > 1)
            raise PositionError(f"tile {TILE_NAMES[twice]} appears twice (each tile exists once)")
        phase = position.get("phase")
        if phase is None:
            phase = PLAY if layout or any(hands) else DEAL
            state.assumed.append(f"phase not given: assumed {phase!r}")
        elif phase not in PHASES:
            raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {shown(phase)}")
        start_tile = None
        to_move = position.get("to_move")
        if to_move is not None and to_move not in players:
            raise PositionError(f"to_move must be one of {', '.join(players)}, not {shown(to_move)}")
        if phase == PLAY and not layout:
            if len(players) == 1:
                raise PositionError("a solitaire round starts with its start tile laid on U0,0")
            if not any(hands):
                raise PositionError("nobody holds a tile to open the round with")
            seat, start_tile = opener(hands)
            if to_move is not None and to_move != players[seat]:
                raise PositionError(f"{players[seat]} holds {TILE_NAMES[start_tile]} and opens the round (the start rule), not {to_move}")
            to_move = players[seat]
        if to_move is None:
            to_move = players[0]
            state.assumed.append(f"to_move not given: assumed {to_move}")
        given_start = position.get("start_tile")
        if given_start is not None and (start_tile is None or _read_tile(given_start, "start_tile") != start_tile):
            raise PositionError(f"start_tile {shown(given_start)} does not follow from the start rule and the layout")
        seat = players.index(to_move)
        turn = position.get("turn") or {}
        if not isinstance(turn, Mapping):
            raise PositionError("'turn' must be an object like {\"draws\": 0, \"drawn\": []}")
        draws = turn.get("draws", 0)
        if not _whole(draws) or not 0 <= draws <= MAX_DRAWS:
            raise PositionError("turn.draws must be 0 to 3")
        drawn = tuple(_read_tiles(turn.get("drawn", []), "turn.drawn", keep_order=True))
        if len(drawn) > draws or not set(drawn) <= set(hands[seat]):
            raise PositionError("turn.drawn must list tiles of the player to move, at most one per draw")
        if phase == DRAWING and (not draws or not pool or len(drawn) != draws - 1):
            raise PositionError("phase 'draw' needs a draw under way (draws one more than drawn) and a pool")
        if phase == PLAY and len(drawn) != draws:
            raise PositionError("turn.drawn must list each tile drawn this turn")
        if start_tile is not None and draws:
            raise PositionError("the opener lays the start tile before anyone draws")
        round_number = position.get("round", 1)
        if not _whole(round_number) or round_number < 1:
            raise PositionError("round must be a whole number from 1")
        solitaire_draws = position.get("solitaire_draws", 0)
        if not _whole(solitaire_draws) or solitaire_draws < 0:
            raise PositionError("solitaire_draws must be a whole number ≥ 0")
        points, log = read_scores(position, players)
        result = position.get("result")
        if phase == OVER:
            result = result if isinstance(result, str) and result else "game over"
        elif result is not None:
            raise PositionError("result is given only when the phase is 'over'")
        _assemble(state, layout=layout, hands=hands, pool=set(pool), points=points, log=log,
                  scalars=(seat, phase, draws, drawn, start_tile, round_number, solitaire_draws, result))
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        options = self._read_options(position)
        players = tuple(f"p{i + 1}" for i in range(options.players))
        read_layout(position.get("layout", {}))
        points, log = read_scores(position, players)
        items = [{"round": rnd, "player": players[seat], "points": pts, "reason": reason} for rnd, seat, pts, reason in log]
        return {"game": self.id, "scores": dict(zip(players, points)), "items": items}


# ----- reading positions ---------------------------------------------------------------------------------
def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_tile(text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise PositionError(f"{what}: {shown(text)} is not a tile like '1-2-3'")
    try:
        return parse_tile(text)
    except IllegalMoveError:
        raise PositionError(f"{what}: {shown(text)} is not a tile like '1-2-3'") from None


def _read_tiles(data: Any, what: str, keep_order: bool = False) -> list[int]:
    if not isinstance(data, list):
        raise PositionError(f"{what} must be a list of tiles like '1-2-3'")
    tiles = [_read_tile(t, what) for t in data]
    return tiles if keep_order else sorted(tiles)


def read_layout(data: Any) -> dict[int, tuple[int, int]]:
    """A validated layout: {position: 'a-b-c rK'} whose corners all match and whose tiles touch edge to edge."""
    if not isinstance(data, Mapping):
        raise PositionError("layout must be an object like {\"U0,0\": \"5-5-5 r0\"}")
    layout: dict[int, tuple[int, int]] = {}
    for name, value in data.items():
        try:
            t = parse_position_name(str(name))
        except IllegalMoveError as exc:
            raise PositionError(f"layout: {exc}") from None
        if t in layout:
            raise PositionError(f"layout names {name} twice")
        words = value.split() if isinstance(value, str) else []
        if len(words) != 2 or not re.fullmatch(r"r[0-2]", words[1]):
            raise PositionError(f"layout {name}: write the tile and rotation like '1-2-3 r0', not {shown(value)}")
        tile = _read_tile(words[0], f"layout {name}")
        layout[t] = (tile, 0 if IS_TRIPLE[tile] else int(words[1][1]))
    numbers: dict[int, tuple[int, int]] = {}
    for t, (tile, rot) in layout.items():
        for v, n in zip(CORNERS[t], CORNER_NUMBERS[tile][rot]):
            if v in numbers and numbers[v][0] != n:
                raise PositionError(f"layout: the tiles on {position_name(numbers[v][1])} and {position_name(t)}"
                                    f" show {numbers[v][0]} and {n} at a corner they share")
            numbers[v] = (n, t)
    tiles = [tile for tile, _ in layout.values()]
    if len(set(tiles)) != len(tiles):
        raise PositionError("layout: a tile is laid twice (each tile exists once)")
    if layout:
        reached = {next(iter(layout))}
        todo = list(reached)
        while todo:
            for nb in NEIGHBOURS[todo.pop()]:
                if nb in layout and nb not in reached:
                    reached.add(nb)
                    todo.append(nb)
        if len(reached) != len(layout):
            stray = next(t for t in layout if t not in reached)
            raise PositionError(f"layout: the tile on {position_name(stray)} is not joined edge to edge to the others")
    return layout


def read_scores(position: Mapping[str, Any], players: tuple[str, ...]) -> tuple[list[int], list[LogEntry]]:
    """Scores and score log; scores that the log does not explain become an 'earlier score' entry."""
    raw_log = position.get("score_log") or []
    if not isinstance(raw_log, list):
        raise PositionError("score_log must be a list of {round, player, points, reason}")
    log: list[LogEntry] = []
    for entry in raw_log:
        if (not isinstance(entry, Mapping) or entry.get("player") not in players or not _whole(entry.get("points"))
                or not _whole(entry.get("round")) or not isinstance(entry.get("reason"), str)):
            raise PositionError(f"score_log entry {shown(entry)} must be {{round, player, points, reason}} of a player here")
        log.append((entry["round"], players.index(entry["player"]), entry["points"], entry["reason"]))
    totals = [0] * len(players)
    for _, seat, pts, _ in log:
        totals[seat] += pts
    given = position.get("scores")
    if given is None:
        return totals, log
    if not isinstance(given, Mapping) or not set(given) <= set(players) or not all(_whole(v) for v in given.values()):
        raise PositionError(f"scores must map players ({', '.join(players)}) to whole numbers")
    points = [given.get(p, 0) for p in players]
    earlier = [(0, seat, want - have, "earlier score") for seat, (want, have) in enumerate(zip(points, totals)) if want != have]
    return points, earlier + log


GAME = TripleDomino()
