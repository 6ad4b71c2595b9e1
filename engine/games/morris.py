"""morris: nine men's morris — place nine pieces, then step them along the lines, close mills, take pieces.

Board: three nested squares joined at their midpoints, 24 points `a1`..`g7`
(SPEC section 3); pieces step only along the drawn lines and a mill is three of
one colour on one of the 16 straight lines of three (8 rows, 8 columns, never a
diagonal). Each player starts with nine pieces in hand.

A turn (one move, the removal included):
- placing, while you hold pieces: put one on any empty point (`d2`); you may not
  move a piece on the board until your hand is empty;
- moving: step one piece to an adjacent empty point (`d2-d3`); with the `flying`
  option a player down to exactly three pieces may jump to any empty point;
- closing a mill (a new one: the moved or placed piece is in it) removes one
  opponent piece in the same move (`d2xa1`, `d2-d3xa1`): required, one piece even
  if two mills close at once. With `mill_protection`, pieces in mills are safe
  unless every one of the opponent's pieces is in a mill.

You lose when your pieces on the board plus in hand fall to two, or when you
cannot move on your turn. Draws (options): the same position — board, side to
move, pieces in hand — for the third time; `no_removal_draw` moves by each player
without a removal once both hands are empty.

The board is kept as two 24-bit masks (one per colour), so a mill test is a mask
comparison and the exact position key is a few shifts.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Iterable, Iterator, Mapping

from ..core import (
    POINT,
    TIME_FORFEIT,
    Game,
    Geometry,
    IllegalMoveError,
    Line,
    Location,
    Outcome,
    PositionError,
    RuleOptions,
    State,
    Termination,
    UnreachablePositionError,
    option,
    require_cells,
    shown,
)
from ..core.geometry import rectangle

WHITE, BLACK = "white", "black"
SIDES = (WHITE, BLACK)
SIDE_INDEX = {WHITE: 0, BLACK: 1}
PIECES = 9

# ----- geometry: the points, the lines, the mills -------------------------------------------
POINT_NAMES = (
    "a1",
    "a4",
    "a7",
    "b2",
    "b4",
    "b6",
    "c3",
    "c4",
    "c5",
    "d1",
    "d2",
    "d3",
    "d5",
    "d6",
    "d7",
    "e3",
    "e4",
    "e5",
    "f2",
    "f4",
    "f6",
    "g1",
    "g4",
    "g7",
)
POINTS = range(len(POINT_NAMES))
INDEX_OF = {name: i for i, name in enumerate(POINT_NAMES)}
COORDS = tuple((ord(name[0]) - ord("a"), int(name[1]) - 1) for name in POINT_NAMES)
BIT = tuple(1 << p for p in POINTS)
FULL = (1 << len(POINT_NAMES)) - 1


def _mills() -> tuple[tuple[int, int, int], ...]:
    """The 16 lines of three: every drawn row and column, the middle row and column split at the centre."""
    out: list[tuple[int, int, int]] = []
    for axis in (1, 0):  # rows (points sharing y), then columns (points sharing x)
        for k in range(7):
            on_line = sorted((COORDS[p][1 - axis], p) for p in POINTS if COORDS[p][axis] == k)
            for part in ([q for q in on_line if q[0] < 3], [q for q in on_line if q[0] > 3]) if k == 3 else (on_line,):
                first, middle, last = (p for _, p in part)  # a line of more or fewer than three points raises here
                out.append((first, middle, last))
    assert len(out) == 16
    return tuple(out)


MILLS = _mills()
MILL_MASKS = tuple(BIT[a] | BIT[b] | BIT[c] for a, b, c in MILLS)
MILLS_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(tuple(m for m in MILLS if p in m) for p in POINTS)
MILL_MASKS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(BIT[a] | BIT[b] | BIT[c] for a, b, c in MILLS_THROUGH[p]) for p in POINTS
)
# Points are adjacent when they are consecutive on a line of three.
EDGES = tuple(pair for a, b, c in MILLS for pair in ((a, b), (b, c)))
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({b for a, b in EDGES if a == p} | {a for a, b in EDGES if b == p})) for p in POINTS
)
NEIGHBOUR_MASK = tuple(sum(BIT[q] for q in ADJACENT[p]) for p in POINTS)

BOARD_HALF_WIDTH = 3.91  # the square board's edge, in point pitches from the centre (d4)
STONE_RADIUS = 0.30  # a real man, in point pitches: flat discs well apart
GEOMETRY = Geometry(
    locations=tuple(Location(name, float(x - 3), float(y - 3)) for name, (x, y) in zip(POINT_NAMES, COORDS)),
    outline=rectangle(-BOARD_HALF_WIDTH, -BOARD_HALF_WIDTH, BOARD_HALF_WIDTH, BOARD_HALF_WIDTH),
    stone_radius=STONE_RADIUS,
    marks=POINT,
    lines=tuple(Line(tuple(POINT_NAMES[p] for p in mill)) for mill in MILLS),
)

# The points of every 8-bit slice of a mask: iterating a mask is three table look-ups.
_BYTE_POINTS = tuple(
    tuple(tuple(shift + i for i in range(8) if byte >> i & 1) for byte in range(256)) for shift in (0, 8, 16)
)


def points_of(mask: int) -> tuple[int, ...]:
    """The points set in a 24-bit mask, in index order."""
    return _BYTE_POINTS[0][mask & 255] + _BYTE_POINTS[1][mask >> 8 & 255] + _BYTE_POINTS[2][mask >> 16]


def union(masks: Iterable[int]) -> int:
    """The bitwise OR of masks."""
    joined = 0
    for mask in masks:
        joined |= mask
    return joined


# The points next to any point of each 8-bit slice: where the pieces of a mask can step, in three look-ups.
_BYTE_REACH = tuple(
    tuple(union(NEIGHBOUR_MASK[p] for p in points) for points in slice_points) for slice_points in _BYTE_POINTS
)


def reach(mask: int) -> int:
    """The points next to any point of a 24-bit mask (where its pieces could step, were they empty)."""
    return _BYTE_REACH[0][mask & 255] | _BYTE_REACH[1][mask >> 8 & 255] | _BYTE_REACH[2][mask >> 16]


def point_index(point: int | str) -> int:
    """A point as its index, from an index or a name such as 'd2'."""
    if isinstance(point, str):
        if point not in INDEX_OF:
            raise ValueError(f"{shown(point)} is not a point of the morris board")
        return INDEX_OF[point]
    if not 0 <= point < len(POINT_NAMES):
        raise ValueError(f"{shown(point)} is not a point index (0..{len(POINT_NAMES) - 1})")
    return point


def mills_through(point: int | str) -> tuple[tuple[int, int, int], ...]:
    """The two lines of three through a point, whoever holds them."""
    return MILLS_THROUGH[point_index(point)]


def closed_mill_mask(men: int) -> int:
    """The pieces of one colour (a mask) that stand in a closed mill."""
    covered = 0
    for mask in MILL_MASKS:
        if men & mask == mask:
            covered |= mask
    return covered


# ----- options and moves ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class MorrisOptions(RuleOptions):
    game_id = "morris"
    mill_protection: bool = option(
        False, "pieces in a closed mill may not be removed unless all the opponent's pieces are in mills"
    )
    flying: bool = option(False, "a player with exactly three pieces, none in hand, may jump to any empty point")
    repetition_draw: bool = option(
        True, "the same position (board, side to move, pieces in hand) a third time is a draw"
    )
    no_removal_draw: int = option(
        50,
        "draw after this many moves by each player without a removal, counted once both hands are empty (0 = off)",
        minimum=0,
        maximum=1000,
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One whole turn: place at or step to `target` (from `source`), removing `take` if a mill closed."""

    source: int | None
    target: int
    take: int | None = None
    # Its number among all moves, found once: the hash, which searches ask for at every node (hashing
    # the three fields each time cost 7% of a search).
    code: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", move_code(self.source, self.target, self.take))

    def __hash__(self) -> int:
        return self.code

    def __str__(self) -> str:
        text = POINT_NAMES[self.target]
        if self.source is not None:
            text = f"{POINT_NAMES[self.source]}-{text}"
        return text if self.take is None else f"{text}x{POINT_NAMES[self.take]}"


def move_code(source: int | None, target: int, take: int | None) -> int:
    """A different number for every move, below MOVE_CODES."""
    return ((0 if source is None else source + 1) * 24 + target) * 25 + (0 if take is None else take + 1)


MOVE_CODES = 25 * 24 * 25
_MOVE_CACHE: list[Move | None] = [None] * MOVE_CODES


def make_move(source: int | None, target: int, take: int | None = None) -> Move:
    """The (shared, immutable) move object: move generation makes no new objects once warm."""
    key = move_code(source, target, take)
    move = _MOVE_CACHE[key]
    if move is None:
        move = _MOVE_CACHE[key] = Move(source, target, take)
    return move


_NOTATION = re.compile(r"([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?")


# ----- the state ----------------------------------------------------------------------------------
class MorrisState(State[Move, MorrisOptions]):
    move_types = (Move,)

    def __init__(self, game: "Morris", options: MorrisOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        self.men = [0, 0]  # bitmasks of white's and black's pieces on the board
        self.hand = [PIECES, PIECES]  # pieces not yet placed
        self.turn = 0  # index into SIDES of the side to move
        self.quiet = 0  # plies counted toward the no-removal draw
        # The fast position hash: exact (board, side to move, pieces in hand), kept current by _apply/_revert.
        self.position_key = self._compute_key()
        self.seen: dict[int, int] = {self.position_key: 1}  # position key -> times it has stood

    # ----- what the AI and the UI ask ---------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return SIDES

    @property
    def current_player(self) -> str:
        return SIDES[self.turn]

    def _compute_key(self) -> int:
        # The same packing is inlined in _apply and _revert (the hot path).
        return self.men[0] | self.men[1] << 24 | self.turn << 48 | self.hand[0] << 49 | self.hand[1] << 53

    def occupant(self, point: int | str) -> str | None:
        p = point_index(point)
        return WHITE if self.men[0] >> p & 1 else BLACK if self.men[1] >> p & 1 else None

    def pieces_in_hand(self, player: str) -> int:
        return self.hand[SIDE_INDEX[player]]

    def pieces_on_board(self, player: str) -> int:
        return self.men[SIDE_INDEX[player]].bit_count()

    def phase(self, player: str) -> str:
        """'placing' while the player holds pieces, 'flying' with three left (option), else 'moving'."""
        side = SIDE_INDEX[player]
        if self.hand[side]:
            return "placing"
        return "flying" if self._flies(side) else "moving"

    def _flies(self, side: int) -> bool:
        return self.options.flying and not self.hand[side] and self.men[side].bit_count() == 3

    def mills_of(self, point: int | str) -> list[tuple[int, int, int]]:
        """The closed mills the piece on `point` is part of (none for an empty point)."""
        p = point_index(point)
        for men in self.men:
            if men >> p & 1:
                return [m for m, mask in zip(MILLS_THROUGH[p], MILL_MASKS_THROUGH[p]) if men & mask == mask]
        return []

    def is_in_mill(self, point: int | str) -> bool:
        return bool(self.mills_of(point))

    def closed_mills(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Every closed mill on the board with its colour."""
        return [
            (side, mill)
            for side, men in zip(SIDES, self.men)
            for mill, mask in zip(MILLS, MILL_MASKS)
            if men & mask == mask
        ]

    def removable(self, player: str) -> tuple[int, ...]:
        """The points of `player`'s pieces that a mill closed now could remove."""
        return points_of(self._removable_mask(self.men[SIDE_INDEX[player]]))

    def _removable_mask(self, men: int) -> int:
        if not self.options.mill_protection:
            return men
        free = men & ~closed_mill_mask(men)
        return free or men

    # ----- moves ------------------------------------------------------------------------
    def _steps(self) -> list[tuple[int | None, int]]:
        """Every (source, target) the side to move may play, before any removal (a list: searches
        ask for them at every node, and a comprehension is quicker than a generator)."""
        t = self.turn
        mine = self.men[t]
        empty = FULL ^ (mine | self.men[1 - t])
        if self.hand[t]:
            return [(None, dst) for dst in points_of(empty)]
        if self._flies(t):
            targets = points_of(empty)
            return [(src, dst) for src in points_of(mine) for dst in targets]
        return [(src, dst) for src in points_of(mine) for dst in points_of(NEIGHBOUR_MASK[src] & empty)]

    def _legal_moves(self) -> Iterator[Move]:
        t = self.turn
        mine = self.men[t]
        takes: tuple[int, ...] | None = None  # the removable pieces, found when a mill first closes
        for src, dst in self._steps():
            after = (mine if src is None else mine ^ BIT[src]) | BIT[dst]
            m1, m2 = MILL_MASKS_THROUGH[dst]
            if after & m1 == m1 or after & m2 == m2:
                if takes is None:
                    takes = points_of(self._removable_mask(self.men[1 - t]))
                if takes:
                    for take in takes:
                        yield make_move(src, dst, take)
                    continue
            yield make_move(src, dst)

    def generate_moves(self) -> Iterator[Move]:
        """The moves the rules allow here, without first asking whether the game is over.

        The search API (engine/ai's players): `legal_moves` asks every time; a search
        that has just looked at `outcome()` need not pay for the second look.
        """
        return self._legal_moves()

    def _can_move(self, side: int) -> bool:
        if self.hand[side] or reach(self.men[side]) & ~(self.men[0] | self.men[1]):
            return True
        return self._flies(side)  # at most 18 pieces stand on 24 points: there is always an empty one

    def _check(self, move: Move) -> None:
        if not isinstance(move, Move):
            raise IllegalMoveError(f"{shown(move)} is not a morris move", rule="notation")
        for p in (move.source, move.target, move.take):
            if p is not None and not (isinstance(p, int) and 0 <= p < len(POINT_NAMES)):
                raise IllegalMoveError(f"{shown(move)} names a point the board does not have", rule="notation")
        t = self.turn
        me, them = SIDES[t], SIDES[1 - t]
        mine, theirs = self.men[t], self.men[1 - t]
        src, dst = move.source, move.target
        if src is None:
            if not self.hand[t]:
                step = next(iter(self._steps()), None)
                example = "" if step is None else f", e.g. {make_move(*step)}"
                raise IllegalMoveError(
                    f"{move}: {me} has no pieces left in hand; move one along a line{example} (rule 5)",
                    rule="moving phase",
                )
        else:
            if self.hand[t]:
                raise IllegalMoveError(
                    f"{move}: {me} still has {self.hand[t]} piece{'s' if self.hand[t] > 1 else ''} in hand and"
                    " may not move a piece until all are placed (rule 4)",
                    rule="placing phase",
                )
            if not mine >> src & 1:
                raise IllegalMoveError(
                    f"{move}: there is no {me} piece on {POINT_NAMES[src]} to move", rule="own piece"
                )
        if (mine | theirs) >> dst & 1:
            raise IllegalMoveError(f"{move}: {POINT_NAMES[dst]} is already taken (rule 2)", rule="occupied")
        if src is not None and dst not in ADJACENT[src] and not self._flies(t):
            hint = " (only a player down to three pieces may jump)" if self.options.flying else ""
            raise IllegalMoveError(
                f"{move}: {POINT_NAMES[dst]} is not next to {POINT_NAMES[src]} along a line{hint} (rule 5)",
                rule="adjacent",
            )
        after = (mine if src is None else mine ^ BIT[src]) | BIT[dst]
        closes = any(after & mask == mask for mask in MILL_MASKS_THROUGH[dst])
        removable = self._removable_mask(theirs)
        take = move.take
        if take is None:
            if closes and removable:
                example = POINT_NAMES[points_of(removable)[0]]
                raise IllegalMoveError(
                    f"{move}: this closes a mill, so it must remove a {them} piece, e.g. {move}x{example} (rule 7)",
                    rule="must remove",
                )
            return
        name = POINT_NAMES[take]
        if not closes:
            raise IllegalMoveError(
                f"{move}: this closes no mill, so it may not remove a piece (rule 7)", rule="no mill"
            )
        if not theirs >> take & 1:
            whose = f"your own {me} piece" if mine >> take & 1 else "empty"
            raise IllegalMoveError(f"{move}: {name} is {whose}; remove one of {them}'s pieces", rule="remove opponent")
        if not removable >> take & 1:
            raise IllegalMoveError(
                f"{move}: the {them} piece on {name} stands in a mill and is protected while {them} has"
                " pieces outside mills",
                rule="mill protection",
            )

    def _apply(self, move: Move) -> Any:
        t = self.turn
        men, hand = self.men, self.hand
        token = self.quiet
        if move.source is None:
            hand[t] -= 1
        else:
            men[t] ^= BIT[move.source]
            if not hand[1 - t]:
                self.quiet += 1  # both hands are empty: the no-removal count runs
        men[t] |= BIT[move.target]
        if move.take is not None:
            men[1 - t] ^= BIT[move.take]
            self.quiet = 0
        self.turn = 1 - t
        key = self.position_key = men[0] | men[1] << 24 | (1 - t) << 48 | hand[0] << 49 | hand[1] << 53
        seen = self.seen
        seen[key] = seen.get(key, 0) + 1
        return token

    def _revert(self, move: Move, token: Any) -> None:
        seen, key = self.seen, self.position_key
        count = seen[key] - 1
        if count:
            seen[key] = count
        else:
            del seen[key]
        self.turn = t = 1 - self.turn
        men, hand = self.men, self.hand
        if move.take is not None:
            men[1 - t] |= BIT[move.take]
        men[t] ^= BIT[move.target]
        if move.source is None:
            hand[t] += 1
        else:
            men[t] |= BIT[move.source]
        self.quiet = token
        self.position_key = men[0] | men[1] << 24 | t << 48 | hand[0] << 49 | hand[1] << 53

    # ----- the end ----------------------------------------------------------------------
    def _game_outcome(self) -> Outcome | None:
        t = self.turn
        for side in (t, 1 - t):
            if self.men[side].bit_count() + self.hand[side] <= 2:
                return Outcome(
                    (SIDES[1 - side],),
                    self.scores(),
                    f"{SIDES[side]} is down to two pieces",
                    termination=Termination.DOWN_TO_TWO,
                )
        if not self._can_move(t):
            return Outcome(
                (SIDES[1 - t],),
                self.scores(),
                f"{SIDES[t]} is blocked and cannot move",
                termination=Termination.BLOCKED,
            )
        if self.options.repetition_draw and self.seen[self.position_key] >= 3:
            return Outcome(
                (),
                self.scores(),
                "the same position stood for the third time",
                termination=Termination.THREEFOLD_REPETITION,
            )
        limit = self.options.no_removal_draw
        if limit and self.quiet >= 2 * limit:
            return Outcome(
                (),
                self.scores(),
                f"{limit} moves by each player without a removal",
                termination=Termination.NO_REMOVAL_LIMIT,
            )
        return None

    def scores(self) -> dict[str, int]:
        """Pieces on the board per colour (SPEC section 2)."""
        return {WHITE: self.men[0].bit_count(), BLACK: self.men[1].bit_count()}

    def recount_scores(self) -> dict[str, int]:
        counts = {WHITE: 0, BLACK: 0}
        for p in POINTS:
            colour = self.occupant(p)
            if colour:
                counts[colour] += 1
        return counts

    def snapshot(self) -> Any:
        return (super().snapshot(), tuple(sorted(self.seen.items())))

    # ----- notation -----------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        cleaned = "".join(text.split()).lower()
        if cleaned == "time":
            return TIME_FORFEIT  # type: ignore[return-value]  # the clock's move, which is no morris Move
        found = _NOTATION.fullmatch(cleaned)
        if not found:
            raise IllegalMoveError(
                f"{shown(text)}: write a move as d2 (place), d2-d3 (move), adding xa1 to remove a piece (d2xa1, d2-d3xa1)",
                rule="notation",
            )
        names = found.groups()
        bad = [n for n in names if n is not None and n not in INDEX_OF]
        if bad:
            raise IllegalMoveError(f"{shown(text)}: {bad[0]} is not a point of the board", rule="notation")
        first = INDEX_OF[names[0]]  # the first point is always written
        second, take = (None if n is None else INDEX_OF[n] for n in names[1:])
        if second is None:
            return make_move(None, first, take)
        return make_move(first, second, take)

    # ----- positions ------------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "cells": {name: self.occupant(p) for p, name in enumerate(POINT_NAMES)},
            "to_move": SIDES[self.turn],
            "in_hand": {WHITE: self.hand[0], BLACK: self.hand[1]},
            "since_removal": self.quiet,
            "options": self.options.to_dict(),
        }

    def render(self) -> str:
        """The three squares in ASCII: W and B are pieces, . an empty point."""
        grid = [[" "] * 25 for _ in range(13)]
        for a, b in EDGES:
            (xa, ya), (xb, yb) = sorted((COORDS[a], COORDS[b]))
            if ya == yb:
                for col in range(4 * xa + 1, 4 * xb):
                    grid[12 - 2 * ya][col] = "-"
            else:
                for row in range(12 - 2 * yb + 1, 12 - 2 * ya):
                    grid[row][4 * xa] = "|"
        for p, (x, y) in enumerate(COORDS):
            grid[12 - 2 * y][4 * x] = "W" if self.men[0] >> p & 1 else "B" if self.men[1] >> p & 1 else "."
        lines = [(f"{7 - r // 2} " if r % 2 == 0 else "  ") + "".join(row).rstrip() for r, row in enumerate(grid)]
        lines.append("  " + "   ".join("abcdefg"))
        for side, name in enumerate(SIDES):
            lines.append(
                f"{name}: {self.hand[side]} in hand, {self.men[side].bit_count()} on the board ({self.phase(name)})"
            )
        outcome = self.outcome()
        lines.append(outcome.describe() if outcome else f"{SIDES[self.turn]} to move")
        return "\n".join(lines)

    def _copy_containers(self, clone: "MorrisState") -> None:
        clone.men = list(self.men)
        clone.hand = list(self.hand)
        clone.seen = dict(self.seen)


# ----- the game ------------------------------------------------------------------------------------
class Morris(Game[MorrisOptions]):
    id = "morris"
    title = "Nine Men's Morris"
    Options = MorrisOptions
    palette = SIDES
    rules_summary = (
        "Place your nine pieces, then move them along the lines: three in a row on a line (a mill) "
        "takes one of the opponent's pieces. Take turns placing pieces on empty points; once all are "
        "placed, move one piece per turn along a line to an adjacent empty point. A mill (never "
        "diagonal) lets you remove one opponent piece in the same turn; only a "
        "newly closed mill counts, but opening and closing a mill again counts again. A player reduced "
        "to two pieces, or who cannot move, loses."
    )

    def locations(self) -> tuple[str, ...]:
        return POINT_NAMES

    def geometry(self) -> Geometry:
        """24 points of three nested squares (d4, the empty centre, at the origin); each mill is a drawn line."""
        return GEOMETRY

    def stone_set(self) -> Mapping[str, int]:
        """Nine men a side."""
        return {side: PIECES for side in SIDES}

    def new_state(self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0) -> MorrisState:
        return MorrisState(self, self.options(options), seed)

    def _read_cells(self, position: Mapping[str, Any]) -> dict[str, str | None]:
        self.check_game_id(position)
        return require_cells(dict(position), POINT_NAMES, SIDES)

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> MorrisState:
        cells = self._read_cells(position)
        state = self.new_state(self.position_options(position), seed)
        for name, colour in cells.items():
            if colour is not None:
                state.men[SIDE_INDEX[colour]] |= BIT[INDEX_OF[name]]
        on_board = [men.bit_count() for men in state.men]
        for side, name in enumerate(SIDES):
            if on_board[side] > PIECES:
                raise UnreachablePositionError(
                    f"{name} has {PIECES} pieces, the position shows {on_board[side]} on the board", rule="nine pieces"
                )
        state.hand = _read_hands(position.get("in_hand"), on_board, state.assumed)
        state.turn = _read_turn(position.get("to_move"), state.hand, state.assumed)
        totals = [on_board[side] + state.hand[side] for side in (0, 1)]
        if max(totals) <= 2:
            raise UnreachablePositionError(
                "both sides are down to two pieces or fewer: no game of morris reaches this", rule="two pieces"
            )
        quiet = position.get("since_removal")
        if quiet is None:
            if not any(state.hand) and state.options.no_removal_draw:
                state.assumed.append("since_removal not given: the count toward the no-removal draw starts at 0")
            quiet = 0
        elif not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0:
            raise PositionError(f"since_removal must be a whole number of moves ≥ 0, not {shown(quiet)}")
        state.quiet = quiet
        state.position_key = state._compute_key()
        state.seen = {state.position_key: 1}
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """Pieces on the board per colour and the closed mills of a position the rules can reach."""
        state = self.from_position(position)
        items = [{"side": side, "cells": [POINT_NAMES[p] for p in mill]} for side, mill in state.closed_mills()]
        return {"game": self.id, "scores": state.scores(), "items": items}


def _read_hands(data: Any, on_board: list[int], assumed: list[str]) -> list[int]:
    """Pieces in hand from `in_hand`; a side not given is assumed to have lost no piece yet."""
    if data is None:
        data = {}
    if not isinstance(data, dict) or any(k not in SIDES for k in data):
        raise PositionError(f'in_hand must be an object {{"white": count, "black": count}}, not {shown(data)}')
    hands = []
    for side, name in enumerate(SIDES):
        count = data.get(name)
        if count is None:
            count = PIECES - on_board[side]
            assumed.append(f"in_hand.{name} not given: no {name} piece captured yet, so {count} in hand")
        elif not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise PositionError(f"in_hand.{name} must be a whole number ≥ 0, not {shown(count)}")
        elif count + on_board[side] > PIECES:
            raise UnreachablePositionError(
                f"{name} has {PIECES} pieces: {on_board[side]} on the board and {count} in hand are too many",
                rule="nine pieces",
            )
        hands.append(count)
    return hands


def _read_turn(to_move: Any, hands: list[int], assumed: list[str]) -> int:
    """The side to move; when not given, read from the hands (white places first), else white."""
    if to_move is not None:
        if to_move not in SIDES:
            raise PositionError(f"to_move must be white or black, not {shown(to_move)}")
        return SIDE_INDEX[to_move]
    if hands[0] + 1 == hands[1]:
        assumed.append("to_move not given: black, who holds one piece more than white in the placing phase")
        return 1
    assumed.append("to_move not given: white assumed" + (" (both hold as many pieces)" if any(hands) else ""))
    return 0


GAME = Morris()
