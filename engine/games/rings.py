"""rings: place a stone, then convert every circle where your influence outweighs the rest.

Board (SPEC section 3): circle centres on a triangular lattice in axial
coordinates (q, r). The 91 centres with max(|q|, |r|, |q+r|) <= 5 are full
circles; the 36 at distance exactly 6 are partial circles at the edge. Stones sit
on the points where three circles meet, the lattice triangles: `U{q},{r}` with
corners (q,r) (q+1,r) (q,r+1) and `D{q},{r}` with corners (q+1,r) (q,r+1)
(q+1,r+1). A point exists when at least one of its circles is full: 216 points,
150 of them on three full circles. A full circle passes through 6 points.

A turn: optionally place one stone on an empty point (not placing is a pass),
then convert any number of full circles, one after another. Your influence on a
full circle is your stones on it plus your rings on its six neighbouring circles;
you hold its majority when that exceeds all opponents' influence plus its empty
points. Converting a circle you hold turns every opponent stone on it into yours,
except stones in an opponent's ring (six stones of one colour on one full
circle: they are safe for ever). The game ends when every player has passed in
sequence; each player scores the full circles whose majority they hold. Partial
circles never convert, never form rings and never score.

Notation: a move is the whole turn, the point (or `pass`) then the converted
circles in order, each as `x{q},{r}`: `U0,0`, `D-2,3 x1,-2 x0,3`, `pass x1,-2`.

Decisions where the rules are silent: each player plays one colour (stones are
unlimited, so the rules' spare colour for running out is never needed); turns
follow the `colours` option, the first colour moving first unless `random_first`
draws the first player (a chance move `first red`, seeded like every chance in
the engine; play then goes round in the listed order); equal influence is
no majority; a conversion must turn at least one stone; a pass that converts
still counts as a pass (option `converting_pass_counts`). `legal_moves` lists,
for each placement or pass, one turn per distinct board it can leave (a
RESULT_LIMIT guards against blow-up), while `push` accepts any legal order.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Iterator, Mapping, Sequence

from ..core import (
    CHANCE,
    CROSSING,
    Circle,
    Game,
    Geometry,
    Location,
    IllegalMoveError,
    OptionError,
    Outcome,
    PositionError,
    RuleOptions,
    State,
    Termination,
    UnreachablePositionError,
    option,
    outcome_by_score,
    require_cells,
    shown,
)
from ..core.geometry import hexagon

PALETTE = ("black", "white", "clear", "red", "green", "blue", "yellow", "orange", "purple")
DEFAULT_ORDER = ("black", "white", "red", "blue", "green", "yellow", "orange", "purple", "clear")
"""Colours in the order players take them when the `colours` option is left empty."""

BOARD_RADIUS = 5  # full circles: hex distance <= 5 from the centre
PARTIAL_RADIUS = 6  # partial circles: distance exactly 6
RING_SIZE = 6  # points on a full circle
RESULT_LIMIT = 256
"""Past this many distinct conversion results after one placement, `legal_moves` lists
only a few of them (see `RingsState._conversion_orders`)."""

# ----- geometry: data tables computed once -------------------------------------------


def _distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


def _circle_name(q: int, r: int) -> str:
    return f"{q},{r}"


_FULL_QR = sorted(
    (
        (q, r)
        for q in range(-BOARD_RADIUS, BOARD_RADIUS + 1)
        for r in range(-BOARD_RADIUS, BOARD_RADIUS + 1)
        if _distance(q, r) <= BOARD_RADIUS
    ),
    key=lambda qr: (qr[1], qr[0]),
)
_PARTIAL_QR = sorted(
    (
        (q, r)
        for q in range(-PARTIAL_RADIUS, PARTIAL_RADIUS + 1)
        for r in range(-PARTIAL_RADIUS, PARTIAL_RADIUS + 1)
        if _distance(q, r) == PARTIAL_RADIUS
    ),
    key=lambda qr: (qr[1], qr[0]),
)
CIRCLE_QR: tuple[tuple[int, int], ...] = tuple(_FULL_QR + _PARTIAL_QR)
"""Circle index -> (q, r). The full circles come first: index < FULL_CIRCLES means full."""
FULL_CIRCLES = len(_FULL_QR)
CIRCLE_NAMES: tuple[str, ...] = tuple(_circle_name(q, r) for q, r in CIRCLE_QR)
CIRCLE_INDEX: dict[str, int] = {name: i for i, name in enumerate(CIRCLE_NAMES)}
_CIRCLE_AT: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(CIRCLE_QR)}
CIRCLE_XY: tuple[tuple[float, float], ...] = tuple((q + r / 2, r * math.sqrt(3) / 2) for q, r in CIRCLE_QR)
"""Cartesian centre of each circle (lattice spacing 1, y up); every circle has radius 1/sqrt(3)."""

_LATTICE_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _triangle_corners(kind: str, q: int, r: int) -> tuple[tuple[int, int], ...]:
    if kind == "U":
        return ((q, r), (q + 1, r), (q, r + 1))
    return ((q + 1, r), (q, r + 1), (q + 1, r + 1))


def _points() -> list[tuple[str, int, int]]:
    """Every lattice triangle with at least one full corner, bottom row first, U before D."""
    found = []
    span = range(-PARTIAL_RADIUS - 1, PARTIAL_RADIUS + 1)
    for r in span:
        for kind in "UD":
            for q in span:
                corners = _triangle_corners(kind, q, r)
                if any(_distance(*c) <= BOARD_RADIUS for c in corners):
                    found.append((kind, q, r))
    return found


_POINT_KQR = _points()
POINT_NAMES: tuple[str, ...] = tuple(f"{k}{q},{r}" for k, q, r in _POINT_KQR)
"""Point index -> id (`U-2,3`): the location ids of SPEC section 3."""
POINT_INDEX: dict[str, int] = {name: i for i, name in enumerate(POINT_NAMES)}
POINT_CIRCLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_CIRCLE_AT[c] for c in _triangle_corners(k, q, r)) for k, q, r in _POINT_KQR
)
"""Point index -> its three circles (full or partial)."""
POINT_FULL: tuple[tuple[int, ...], ...] = tuple(tuple(c for c in cs if c < FULL_CIRCLES) for cs in POINT_CIRCLES)
"""Point index -> its full circles only (one to three): the ones its stone counts on."""
POINT_XY: tuple[tuple[float, float], ...] = tuple(
    (sum(CIRCLE_XY[c][0] for c in cs) / 3, sum(CIRCLE_XY[c][1] for c in cs) / 3) for cs in POINT_CIRCLES
)
"""Cartesian position of each point: the centroid of its triangle, in the units of CIRCLE_XY."""
CIRCLE_POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(len(POINT_NAMES)) if c in POINT_CIRCLES[p]) for c in range(len(CIRCLE_QR))
)
"""Circle index -> the points on it (6 for a full circle, fewer for a partial one)."""
CIRCLE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_CIRCLE_AT[(q + dq, r + dr)] for dq, dr in _LATTICE_STEPS if _distance(q + dq, r + dr) <= BOARD_RADIUS)
    for q, r in CIRCLE_QR[:FULL_CIRCLES]
)
"""Full circle index -> its neighbouring full circles (where its rings add influence)."""

assert FULL_CIRCLES == 91 and len(POINT_NAMES) == 216

CIRCLE_RADIUS = 1 / math.sqrt(3)  # a circle passes through its six points, the centroids around its centre
BOARD_CIRCUMRADIUS = 11 / math.sqrt(3)  # the hexagonal board: 11 point spacings corner to corner, corners on x
STONE_RADIUS = 0.26  # a real stone, in circle spacings: neighbouring points lie 0.577 apart
GEOMETRY = Geometry(
    locations=tuple(Location(name, *POINT_XY[p]) for p, name in enumerate(POINT_NAMES)),
    outline=hexagon(BOARD_CIRCUMRADIUS),
    stone_radius=STONE_RADIUS,
    marks=CROSSING,
    circles=tuple(
        Circle(
            name,
            *CIRCLE_XY[c],
            radius=CIRCLE_RADIUS,
            full=c < FULL_CIRCLES,
            through=tuple(POINT_NAMES[p] for p in CIRCLE_POINTS[c]),
        )
        for c, name in enumerate(CIRCLE_NAMES)
    ),
)
assert all(len(CIRCLE_POINTS[c]) == RING_SIZE for c in range(FULL_CIRCLES))

_POINT_RE = re.compile(r"^([ud])(-?\d+),(-?\d+)$")
_CIRCLE_RE = re.compile(r"^x(-?\d+),(-?\d+)$")


# ----- options and moves -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RingsOptions(RuleOptions):
    game_id = "rings"
    players: int = option(2, "number of players, seated clockwise", minimum=2, maximum=6)
    colours: str = option(
        "",
        "the players' colours in turn order, comma separated (the first moves first); "
        "empty = black, white, red, blue, green, yellow",
    )
    converting_pass_counts: bool = option(
        True,
        "a pass that converts circles still counts towards the run of passes that ends the game "
        "(off: only a pass with no conversion counts)",
    )
    random_first: bool = option(
        False,
        "the first player is drawn at random (a seeded draw); off: the first colour listed moves first; "
        "either way play goes round in the listed order",
    )

    def validate(self) -> None:
        if not self.colours:
            return
        chosen = self.colour_list()
        unknown = [c for c in chosen if c not in PALETTE]
        if unknown:
            raise OptionError(f"rings: {shown(unknown[0])} is not a stone colour ({', '.join(PALETTE)})", rule="colour")
        if len(set(chosen)) != len(chosen):
            raise OptionError(
                "rings: each player needs a colour of their own (a colour is listed twice)", rule="colour"
            )
        if len(chosen) != self.players:
            raise OptionError(
                f"rings: colours lists {len(chosen)} colours for {self.players} players", rule="colour count"
            )

    def colour_list(self) -> tuple[str, ...]:
        """The players' colours in turn order."""
        if not self.colours:
            return DEFAULT_ORDER[: self.players]
        return tuple(c.strip().lower() for c in self.colours.split(",") if c.strip())


@dataclasses.dataclass(frozen=True)
class Turn:
    """A whole turn: the point played (None = pass), then the circles converted, in order."""

    point: int | None
    conversions: tuple[int, ...] = ()

    def __str__(self) -> str:
        head = "pass" if self.point is None else POINT_NAMES[self.point]
        return " ".join([head, *(f"x{CIRCLE_NAMES[c]}" for c in self.conversions)])


@dataclasses.dataclass(frozen=True)
class Lead:
    """Chance, before the first turn with `random_first`: the colour drawn to move first."""

    colour: str

    def __str__(self) -> str:
        return f"first {self.colour}"


Move = Turn | Lead
EMPTY = -1


class _TooManyResults(Exception):
    """Raised inside the conversion search when the blow-up policy takes over."""


# ----- the state ------------------------------------------------------------------------


class RingsState(State[Move, RingsOptions]):
    """A rings position with per-circle tallies kept up to date on every stone change.

    For full circle c and player p (flat index c*n + p): `stones` on c, `influence`
    (stones plus adjoining rings); per circle: `total` influence of everyone,
    `empties`, `ring_owner` (or EMPTY) and `holder` (the player with the majority,
    or EMPTY); per point: `guarded` (rings through it: a stone there is safe); per
    player: `held` (the score). Every test of a majority is O(1).
    """

    move_types = (Turn, Lead)

    def __init__(self, game: "Rings", options: RingsOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        self.colours: tuple[str, ...] = options.colour_list()
        self.n = len(self.colours)
        self.board: list[int] = [EMPTY] * len(POINT_NAMES)
        self.to_move = 0
        self.lead_drawn = not options.random_first  # False until the chance move names the first player
        self.passes = 0
        self._rebuild()

    # ----- tallies ---------------------------------------------------------------------
    def _tallies_from_scratch(self) -> tuple[list[int], ...]:
        """(stones, influence, total, empties, ring_owner, guarded, holder, held) from the board alone."""
        n, board = self.n, self.board
        stones = [0] * (FULL_CIRCLES * n)
        empties = [0] * FULL_CIRCLES
        for c in range(FULL_CIRCLES):
            for pt in CIRCLE_POINTS[c]:
                if board[pt] == EMPTY:
                    empties[c] += 1
                else:
                    stones[c * n + board[pt]] += 1
        ring_owner = [EMPTY] * FULL_CIRCLES
        for c in range(FULL_CIRCLES):
            for p in range(n):
                if stones[c * n + p] == RING_SIZE:
                    ring_owner[c] = p
        influence = list(stones)
        guarded = [0] * len(board)
        for c in range(FULL_CIRCLES):
            if ring_owner[c] != EMPTY:
                for nb in CIRCLE_NEIGHBOURS[c]:
                    influence[nb * n + ring_owner[c]] += 1
                for pt in CIRCLE_POINTS[c]:
                    guarded[pt] += 1
        total = [sum(influence[c * n : (c + 1) * n]) for c in range(FULL_CIRCLES)]
        holder = [EMPTY] * FULL_CIRCLES
        held = [0] * n
        for c in range(FULL_CIRCLES):
            for p in range(n):
                if 2 * influence[c * n + p] > total[c] + empties[c]:
                    holder[c] = p
                    held[p] += 1
        return stones, influence, total, empties, ring_owner, guarded, holder, held

    def _rebuild(self) -> None:
        (
            self.stones,
            self.influence,
            self.total,
            self.empties,
            self.ring_owner,
            self.guarded,
            self.holder,
            self.held,
        ) = self._tallies_from_scratch()

    def check_invariants(self) -> None:
        """Debug: recompute every per-circle tally from the board and compare (AssertionError if stale)."""
        fresh = self._tallies_from_scratch()
        names = ("stones", "influence", "total", "empties", "ring_owner", "guarded", "holder", "held")
        for name, value in zip(names, fresh):
            assert getattr(self, name) == value, f"incremental tally {name!r} differs from a recount"

    def _update_holder(self, c: int) -> None:
        n, base = self.n, c * self.n
        threshold = self.total[c] + self.empties[c]
        new = EMPTY
        for p in range(n):
            if 2 * self.influence[base + p] > threshold:
                new = p
                break
        old = self.holder[c]
        if new != old:
            if old != EMPTY:
                self.held[old] -= 1
            if new != EMPTY:
                self.held[new] += 1
            self.holder[c] = new

    def _ring_changed(self, c: int, p: int, delta: int) -> None:
        """A ring of p on circle c formed (+1) or dissolved (-1, only when undoing)."""
        self.ring_owner[c] = p if delta > 0 else EMPTY
        for pt in CIRCLE_POINTS[c]:
            self.guarded[pt] += delta
        n = self.n
        for nb in CIRCLE_NEIGHBOURS[c]:
            self.influence[nb * n + p] += delta
            self.total[nb] += delta
            self._update_holder(nb)

    # ----- the search API: fast make/unmake and conversion previews (engine/ai's players) ----
    # No legality check and no record: a caller changes points with `set_point`, keeps the
    # (point, old owner) pairs and gives them back to `undo_changes`.
    def set_point(self, pt: int, new: int) -> None:
        """Put `new` (a player or EMPTY) on point pt, keeping every tally up to date."""
        old = self.board[pt]
        self.board[pt] = new
        n, stones, influence = self.n, self.stones, self.influence
        for c in POINT_FULL[pt]:
            base = c * n
            if old == EMPTY:
                self.empties[c] -= 1
                self.total[c] += 1
            else:
                if stones[base + old] == RING_SIZE:
                    self._ring_changed(c, old, -1)
                stones[base + old] -= 1
                influence[base + old] -= 1
            if new == EMPTY:
                self.empties[c] += 1
                self.total[c] -= 1
            else:
                stones[base + new] += 1
                influence[base + new] += 1
                if stones[base + new] == RING_SIZE:
                    self._ring_changed(c, new, +1)
            self._update_holder(c)

    def _protected(self, pt: int) -> bool:
        """A stone in a ring (of its own colour, necessarily) can never be converted."""
        return self.guarded[pt] > 0

    def convertible_stones(self, c: int, p: int) -> list[int]:
        """The stones a conversion of full circle c by p would turn: opponents' stones outside rings."""
        board, guarded = self.board, self.guarded
        return [pt for pt in CIRCLE_POINTS[c] if board[pt] != EMPTY and board[pt] != p and not guarded[pt]]

    def _can_convert(self, c: int, p: int) -> bool:
        return self.holder[c] == p and bool(self.convertible_stones(c, p))

    def circles_to_convert(self, p: int) -> list[int]:
        """The full circles p could convert now: held by p, with an opponent stone outside rings."""
        holder, stones, empties, n = self.holder, self.stones, self.empties, self.n
        return [
            c
            for c in range(FULL_CIRCLES)
            if holder[c] == p and empties[c] + stones[c * n + p] < RING_SIZE and self.convertible_stones(c, p)
        ]

    def _convert(self, c: int, p: int, changes: list[tuple[int, int]]) -> None:
        for pt in self.convertible_stones(c, p):
            changes.append((pt, self.board[pt]))
            self.set_point(pt, p)

    def undo_changes(self, changes: list[tuple[int, int]], upto: int = 0) -> None:
        """Put back the (point, old owner) pairs of `changes` after index `upto`, newest first (emptying that tail)."""
        while len(changes) > upto:
            pt, old = changes.pop()
            self.set_point(pt, old)

    # ----- turn order ------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.colours

    @property
    def current_player(self) -> str:
        return self.colours[self.to_move] if self.lead_drawn else CHANCE

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.lead_drawn:
            raise IllegalMoveError("the first player is already known", rule="chance")
        return [(Lead(colour), 1 / self.n) for colour in self.colours]

    # ----- moves -----------------------------------------------------------------------
    def _legal_moves(self) -> Iterator[Move]:
        if not self.lead_drawn:
            yield from (Lead(colour) for colour in self.colours)
            return
        p, n, board = self.to_move, self.n, self.board
        pass_turns = self._turns_after_placement(None)
        yield from pass_turns
        orders = [turn.conversions for turn in pass_turns]
        # A placement whose circles cannot change hands (and forms no ring) anywhere
        # between this board and the maximal conversion leaves the conversions of a
        # pass unchanged: reuse them. Checked once at that maximum (the mover's
        # influence only grows along the way).
        held_now = [h == p for h in self.holder]
        changes: list[tuple[int, int]] = []
        if len(orders) > 1:
            for c in self._maximum(p)[0]:
                self._convert(c, p, changes)
        influence, total, empties, stones = self.influence, self.total, self.empties, self.stones
        placements: list[tuple[int, bool]] = []
        for pt in range(len(board)):
            if board[pt] != EMPTY:
                continue
            for c in POINT_FULL[pt]:
                i = c * n + p
                if stones[i] == RING_SIZE - 1 or (not held_now[c] and 2 * influence[i] + 2 > total[c] + empties[c]):
                    placements.append((pt, False))
                    break
            else:
                placements.append((pt, True))
        self.undo_changes(changes)
        for pt, reuse in placements:
            if reuse:
                for order in orders:
                    yield Turn(pt, order)
            else:
                yield from self._turns_after_placement(pt)

    def _turns_after_placement(self, pt: int | None) -> list[Turn]:
        """The turns that place on pt (None = pass): one for each distinct board they can leave.

        Conversions only flip opponent stones to the mover, so the board after a turn
        is fixed by the set of stones flipped; each reachable set is listed once, by
        the first conversion order the search finds (circles tried in index order).
        Different circle sets that flip the same stones give
        the same result: only one is listed (push accepts every legal order and set).
        """
        p = self.to_move
        changes: list[tuple[int, int]] = []
        if pt is not None:
            changes.append((pt, EMPTY))
            self.set_point(pt, p)
        try:
            first = self.circles_to_convert(p)
            if not first:
                return [Turn(pt)]
            return [Turn(pt, order) for order in self._conversion_orders(p, first)]
        finally:
            self.undo_changes(changes)

    def _conversion_orders(self, p: int, first: list[int]) -> list[tuple[int, ...]]:
        """A conversion order for each reachable result, or the short list of the blow-up
        policy: past RESULT_LIMIT results, only no conversion, each single conversion and
        the greedy maximal chain are listed.
        """
        greedy, candidates = self._maximum(p)
        orders: list[tuple[int, ...]] = [()]
        seen = {0}
        changes: list[tuple[int, int]] = []
        holder = self.holder

        def search(path: tuple[int, ...], flipped: int, available: list[tuple[int, list[int]]]) -> None:
            for c, flips in available:
                result = flipped
                for point in flips:
                    result |= 1 << point
                if result in seen:
                    continue
                seen.add(result)
                orders.append(path + (c,))
                if len(orders) > RESULT_LIMIT:
                    raise _TooManyResults
                mark = len(changes)
                self._convert(c, p, changes)
                ready = [(d, self.convertible_stones(d, p)) for d in candidates if holder[d] == p]
                search(path + (c,), result, [(d, f) for d, f in ready if f])
                self.undo_changes(changes, mark)

        try:
            search((), 0, [(c, self.convertible_stones(c, p)) for c in first])
            return orders
        except _TooManyResults:
            self.undo_changes(changes)
        orders, seen = [()], {0}
        for order in [(c,) for c in first] + [tuple(greedy)]:
            result = self._result_of(order, p)
            if result not in seen:
                seen.add(result)
                orders.append(order)
        return orders

    def _result_of(self, order: Sequence[int], p: int) -> int:
        """The points a conversion order flips, as a bit mask."""
        changes: list[tuple[int, int]] = []
        for c in order:
            self._convert(c, p, changes)
        result = 0
        for point, _ in changes:
            result |= 1 << point
        self.undo_changes(changes)
        return result

    def _maximum(self, p: int) -> tuple[list[int], list[int]]:
        """Convert whatever can be converted until nothing can: that greedy order, and the
        circles that any order could ever convert: held by p at the end (the result is the
        same whatever the order, and p's majorities only grow as stones flip) and holding
        an opponent stone outside rings now (opponents' stones only become p's).
        """
        stones, empties, n = self.stones, self.empties, self.n
        open_now = [
            c
            for c in range(FULL_CIRCLES)
            if empties[c] + stones[c * n + p] < RING_SIZE and self.convertible_stones(c, p)
        ]
        changes: list[tuple[int, int]] = []
        chain: list[int] = []
        while True:
            ready = self.circles_to_convert(p)
            if not ready:
                break
            for c in ready:
                if self._can_convert(c, p):
                    chain.append(c)
                    self._convert(c, p, changes)
        held = [c for c in open_now if self.holder[c] == p]
        self.undo_changes(changes)
        return chain, held

    def _check(self, move: Move) -> None:
        if isinstance(move, Lead):
            if self.lead_drawn:
                raise IllegalMoveError(f"{move}: who moves first is already settled", rule="chance")
            if move.colour not in self.colours:
                raise IllegalMoveError(f"{move}: the players are {', '.join(self.colours)}", rule="chance")
            return
        if not self.lead_drawn:
            raise IllegalMoveError(f"{move}: the first player is drawn first (option random_first)", rule="chance")
        self._try(move.point, move.conversions, keep=False)

    def _try(self, pt: int | None, conversions: Sequence[int], keep: bool) -> list[tuple[int, int]]:
        """Play a partial or whole turn, checking each step; undo it unless `keep` (then return the changes)."""
        p = self.to_move
        me = self.colours[p]
        changes: list[tuple[int, int]] = []
        try:
            if pt is not None:
                if not 0 <= pt < len(POINT_NAMES):
                    raise IllegalMoveError(f"there is no point {pt} on this board", rule="notation")
                if self.board[pt] != EMPTY:
                    raise IllegalMoveError(
                        f"{POINT_NAMES[pt]} is taken (a {self.colours[self.board[pt]]} stone): stones go on empty points",
                        rule="occupied",
                    )
                changes.append((pt, EMPTY))
                self.set_point(pt, p)
            done: set[int] = set()
            for c in conversions:
                self._check_conversion(c, p, me, done)
                done.add(c)
                self._convert(c, p, changes)
        except BaseException:
            self.undo_changes(changes)
            raise
        if not keep:
            self.undo_changes(changes)
        return changes

    def _check_conversion(self, c: int, p: int, me: str, done: set[int]) -> None:
        if not 0 <= c < len(CIRCLE_NAMES):
            raise IllegalMoveError(f"there is no circle {c} on this board", rule="notation")
        name = CIRCLE_NAMES[c]
        if c >= FULL_CIRCLES:
            raise IllegalMoveError(
                f"x{name}: {name} is a partial circle at the edge; partial circles are never converted",
                rule="partial circle",
            )
        if c in done:
            raise IllegalMoveError(
                f"x{name}: circle {name} is already converted this turn; convert a circle once", rule="converted twice"
            )
        if self.holder[c] != p:
            mine = self.influence[c * self.n + p]
            others = self.total[c] - mine
            empty = self.empties[c]
            raise IllegalMoveError(
                f"x{name}: {me} has influence {mine} on circle {name} against {others + empty} "
                f"(opponents {others} + empty points {empty}); converting needs the majority, more than that",
                rule="majority",
            )
        if not self.convertible_stones(c, p):
            raise IllegalMoveError(
                f"x{name}: circle {name} has no opponent stone to convert (stones in a ring are safe)",
                rule="nothing to convert",
            )

    def _apply(self, move: Move) -> Any:
        if isinstance(move, Lead):
            self.to_move, self.lead_drawn = self.colours.index(move.colour), True
            return None
        p = self.to_move
        changes: list[tuple[int, int]] = []
        if move.point is not None:
            changes.append((move.point, EMPTY))
            self.set_point(move.point, p)
        for c in move.conversions:
            self._convert(c, p, changes)
        token = (changes, self.passes)
        if move.point is not None or (move.conversions and not self.options.converting_pass_counts):
            self.passes = 0
        else:
            self.passes += 1
        self.to_move = (p + 1) % self.n
        return token

    def _revert(self, move: Move, token: Any) -> None:
        if isinstance(move, Lead):
            self.to_move, self.lead_drawn = 0, False
            return
        changes, passes = token
        self.undo_changes(list(changes))
        self.passes = passes
        self.to_move = (self.to_move - 1) % self.n

    def _game_outcome(self) -> Outcome | None:
        if self.passes < self.n:
            return None
        return outcome_by_score(self.scores(), "every player passed in turn", Termination.ALL_PASSED)

    def scores(self) -> dict[str, int]:
        return dict(zip(self.colours, self.held))

    def recount_scores(self) -> dict[str, int]:
        held = self._tallies_from_scratch()[-1]
        return dict(zip(self.colours, held))

    # ----- the incremental API for a user interface ---------------------------------------------
    def convertible_circles(
        self, placement: int | str | None = None, converted_so_far: Sequence[int | str] = ()
    ) -> list[str]:
        """The circles the player to move could convert next, after placing on `placement`
        (None or 'pass' for a pass) and converting `converted_so_far` in that order."""
        pt, order = _point_arg(placement), [_circle_arg(c) for c in converted_so_far]
        changes = self._try(pt, order, keep=True)
        try:
            return [CIRCLE_NAMES[c] for c in self.circles_to_convert(self.to_move)]
        finally:
            self.undo_changes(changes)

    def preview(self, placement: int | str | None = None, converted: Sequence[int | str] = ()) -> dict[str, Any]:
        """The board after a partial turn: cells, circle holders, rings, scores and what converts next.

        Raises IllegalMoveError (naming the rule) if the partial turn is not legal.
        """
        pt, order = _point_arg(placement), [_circle_arg(c) for c in converted]
        changes = self._try(pt, order, keep=True)
        try:
            return {
                "move": str(Turn(pt, tuple(order))),
                "cells": self._cells(),
                "holders": self.holders(),
                "rings": self.rings(),
                "scores": self.scores(),
                "convertible": [CIRCLE_NAMES[c] for c in self.circles_to_convert(self.to_move)],
            }
        finally:
            self.undo_changes(changes)

    def influence_on(self, circle: int | str) -> dict[str, int]:
        """Each player's influence on a full circle (stones on it plus adjoining rings)."""
        c = _circle_arg(circle)
        if c >= FULL_CIRCLES:
            raise IllegalMoveError(
                f"{CIRCLE_NAMES[c]} is a partial circle: nobody has influence there", rule="partial circle"
            )
        return {colour: self.influence[c * self.n + p] for p, colour in enumerate(self.colours)}

    def holders(self) -> dict[str, str]:
        """Full circle -> the colour holding its majority (circles nobody holds are left out)."""
        return {CIRCLE_NAMES[c]: self.colours[h] for c, h in enumerate(self.holder) if h != EMPTY}

    def rings(self) -> dict[str, str]:
        """Full circle -> the colour whose ring it is."""
        return {CIRCLE_NAMES[c]: self.colours[o] for c, o in enumerate(self.ring_owner) if o != EMPTY}

    def _cells(self) -> dict[str, str | None]:
        return {name: (None if v == EMPTY else self.colours[v]) for name, v in zip(POINT_NAMES, self.board)}

    # ----- notation --------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str) or not text.strip():
            raise IllegalMoveError(
                "an empty move: write a point (U0,0) or pass, then any conversions (x1,-2)", rule="notation"
            )
        words = text.strip().lower().split()
        head, rest = words[0], words[1:]
        if head == "first" and len(rest) == 1:
            return Lead(rest[0])
        point = None if head == "pass" else _parse_point(head, text)
        return Turn(point, tuple(_parse_circle(w, text) for w in rest))

    # ----- positions -------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "cells": self._cells(),
            "to_move": self.current_player if self.lead_drawn else None,
            "passes": self.passes,
            "scores": self.scores(),
            "options": self.options.to_dict(),
        }

    def render(self) -> str:
        return _render(self)

    def _copy_containers(self, clone: "RingsState") -> None:
        for name in ("board", "stones", "influence", "total", "empties", "ring_owner", "guarded", "holder", "held"):
            setattr(clone, name, list(getattr(self, name)))


# ----- notation helpers -------------------------------------------------------------------


def _parse_point(word: str, text: str) -> int:
    m = _POINT_RE.match(word)
    if not m:
        raise IllegalMoveError(
            f"{shown(text)}: {shown(word)} is not a point; points look like U0,0 or D-2,3 (or say pass)",
            rule="notation",
        )
    name = f"{m.group(1).upper()}{int(m.group(2))},{int(m.group(3))}"
    if name not in POINT_INDEX:
        raise IllegalMoveError(f"{shown(text)}: there is no point {name} on this board", rule="notation")
    return POINT_INDEX[name]


def _parse_circle(word: str, text: str) -> int:
    m = _CIRCLE_RE.match(word)
    if not m:
        raise IllegalMoveError(
            f"{shown(text)}: {shown(word)} is not a conversion; write x and the circle, e.g. x1,-2", rule="notation"
        )
    name = f"{int(m.group(1))},{int(m.group(2))}"
    if name not in CIRCLE_INDEX:
        raise IllegalMoveError(f"{shown(text)}: there is no circle {name} on this board", rule="notation")
    return CIRCLE_INDEX[name]


def _point_arg(point: int | str | None) -> int | None:
    if point is None or (isinstance(point, str) and point.strip().lower() == "pass"):
        return None
    if isinstance(point, int):
        return point
    return _parse_point(point.strip().lower(), point)


def _circle_arg(circle: int | str) -> int:
    if isinstance(circle, int):
        if not 0 <= circle < len(CIRCLE_NAMES):
            raise IllegalMoveError(f"there is no circle {circle} on this board", rule="notation")
        return circle
    word = circle.strip().lower()
    return _parse_circle(word if word.startswith("x") else "x" + word, circle)


# ----- text rendering ---------------------------------------------------------------------

CODES = {
    "black": "bk",
    "white": "wh",
    "clear": "cl",
    "red": "rd",
    "green": "gn",
    "blue": "bl",
    "yellow": "ye",
    "orange": "or",
    "purple": "pu",
}
"""Two-letter colour codes for the terminal: lower case a stone, upper case a stone in a ring."""


def _render(state: RingsState) -> str:
    """The board as text: per lattice row r, a row of D points, a row of U points, a row of circles.

    A row of points is labelled `U r=3` (or D): an empty point shows its q, so its id is
    `U{q},{r}`; a stone shows its colour code (upper case when it is in a ring). A row
    of circle centres is labelled `o r=3`: a circle nobody holds shows its q (convert it
    with `x{q},{r}`), a held one its holder `<bk>`, a ring `[BK]`.
    """
    lines: list[str] = []
    width = 2 * 25 + 12

    def place(row: list[str], x_half: int, text: str) -> None:
        start = 10 + 2 * (x_half + 12) - len(text) // 2
        row[start : start + len(text)] = list(text)

    for r in range(BOARD_RADIUS, -PARTIAL_RADIUS - 1, -1):
        for kind in "DU":
            row = list(f"{kind} r={r}".ljust(width))
            for q in range(-PARTIAL_RADIUS - 1, PARTIAL_RADIUS + 1):
                pt = POINT_INDEX.get(f"{kind}{q},{r}")
                if pt is None:
                    continue
                v = state.board[pt]
                if v == EMPTY:
                    text = str(q)
                else:
                    code = CODES[state.colours[v]]
                    text = code.upper() if state._protected(pt) else code
                place(row, 2 * q + r + (1 if kind == "U" else 2), text)
            lines.append("".join(row).rstrip())
        if r >= -BOARD_RADIUS:
            row = list(f"o r={r}".ljust(width))
            for q in range(-BOARD_RADIUS, BOARD_RADIUS + 1):
                c = _CIRCLE_AT[(q, r)] if (q, r) in _CIRCLE_AT else FULL_CIRCLES
                if c >= FULL_CIRCLES:
                    continue
                if state.ring_owner[c] != EMPTY:
                    text = f"[{CODES[state.colours[state.ring_owner[c]]].upper()}]"
                elif state.holder[c] != EMPTY:
                    text = f"<{CODES[state.colours[state.holder[c]]]}>"
                else:
                    text = str(q)
                place(row, 2 * q + r, text)
            lines.append("".join(row).rstrip())
    lines.append("")
    lines.append(
        "scores: " + "  ".join(f"{colour} ({CODES[colour]}) {score}" for colour, score in state.scores().items())
    )
    outcome = state.outcome()
    if outcome is not None:
        lines.append(outcome.describe())
    else:
        lines.append(f"to move: {state.current_player}   passes in a row: {state.passes}/{state.n}")
        ready = [CIRCLE_NAMES[c] for c in state.circles_to_convert(state.to_move)]
        if ready:
            lines.append("convertible now: " + " ".join(f"x{name}" for name in ready))
    lines.append("point: U{q},{r} or D{q},{r} (an empty point shows q, its row r); circle: x{q},{r} (row o)")
    lines.append("a move: a point or pass, then conversions in order, e.g. U0,0 x1,-2 or pass x0,3")
    return "\n".join(lines)


# ----- the game ---------------------------------------------------------------------


class Rings(Game[RingsOptions]):
    id = "rings"
    title = "Rings"
    Options = RingsOptions
    palette = PALETTE
    rules_summary = (
        "On your turn place a stone on an empty point, where three circles meet (or pass), then convert "
        "as many circles as you like, one after another. Your influence on a full circle is your stones on it "
        "plus your rings on the six circles around it; if it exceeds everyone else's influence plus the "
        "empty points of the circle, you may convert it: every opponent stone on it becomes yours, except "
        "stones in a ring (six of one colour on one circle, safe for ever). Partial circles at the edge "
        "never convert, never form rings and never score. When every player has passed in turn the game "
        "ends; you score each full circle on which you hold the majority."
    )

    def locations(self) -> tuple[str, ...]:
        return POINT_NAMES

    def geometry(self) -> Geometry:
        """216 points where circles cross and the 127 circles (91 full, 36 cut by the edge), lattice step 1."""
        return GEOMETRY

    def new_state(self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0) -> RingsState:
        return RingsState(self, self.options(options), seed)

    def _read(self, position: Mapping[str, Any]) -> tuple[dict[str, str | None], RingsOptions, list[str]]:
        """Validated cells and options; when the options name no players, they are inferred from the colours."""
        self.check_game_id(position)
        cells = require_cells(dict(position), POINT_NAMES, PALETTE)
        raw = self.position_options(position)
        assumed: list[str] = []
        to_move = position.get("to_move")
        on_board = {c for c in cells.values() if c is not None}
        present = on_board | ({to_move} if isinstance(to_move, str) and to_move in PALETTE else set())
        inferred = "players" not in raw and "colours" not in raw
        if inferred:
            ordered = [c for c in DEFAULT_ORDER if c in present]
            if len(ordered) > 6:
                raise UnreachablePositionError(
                    f"rings is for up to six colours; the position shows {len(ordered)}", rule="players"
                )
            # The colours seen (and the one to move), in the default order, at least two.
            chosen = ordered + [c for c in DEFAULT_ORDER if c not in ordered][: max(0, 2 - len(ordered))]
            raw["players"] = len(chosen)
            if tuple(chosen) != DEFAULT_ORDER[: len(chosen)]:
                raw["colours"] = ",".join(chosen)
        try:
            opts = RingsOptions.from_dict(raw)
        except OptionError as exc:
            raise PositionError(str(exc)) from None
        if inferred:
            assumed.append("players not given: assumed " + ", ".join(opts.colour_list()) + " in this turn order")
        strangers = sorted(on_board - set(opts.colour_list()))
        if strangers:
            raise PositionError(
                f"the position holds {strangers[0]} stones, but the players are {', '.join(opts.colour_list())}"
            )
        return cells, opts, assumed

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> RingsState:
        cells, opts, assumed = self._read(position)
        state = RingsState(self, opts, seed)
        state.assumed = assumed
        index = {colour: i for i, colour in enumerate(state.colours)}
        for name, colour in cells.items():
            if colour is not None:
                state.board[POINT_INDEX[name]] = index[colour]
        state._rebuild()
        passes = position.get("passes")
        if passes is None:
            state.assumed.append("passes not given: assumed 0 (nobody has just passed)")
        elif not isinstance(passes, int) or isinstance(passes, bool) or not 0 <= passes <= state.n:
            raise PositionError(f"passes must be a whole number from 0 to {state.n}, not {shown(passes)}")
        else:
            state.passes = passes
        to_move = position.get("to_move")
        at_start = state.passes == 0 and all(v == EMPTY for v in state.board)
        state.lead_drawn = not (opts.random_first and at_start and to_move is None)
        if not state.lead_drawn:
            state.assumed.append("to_move not given: the first player is still to be drawn (random_first)")
        elif to_move is None:
            state.assumed.append(f"to_move not given: assumed {state.colours[0]} (the first player)")
        elif not isinstance(to_move, str) or to_move not in index:
            raise PositionError(
                f"to_move must be one of the players ({', '.join(state.colours)}), not {shown(to_move)}"
            )
        else:
            state.to_move = index[to_move]
        given = position.get("scores")
        if given is not None and given != state.scores():
            state.assumed.append("scores given differ from the board: scores recounted from the circles")
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        state = self.from_position(position)
        items = [
            {"side": state.colours[h], "circle": CIRCLE_NAMES[c], "cells": [POINT_NAMES[pt] for pt in CIRCLE_POINTS[c]]}
            for c, h in enumerate(state.holder)
            if h != EMPTY
        ]
        return {"game": self.id, "scores": state.scores(), "items": items}


GAME = Rings()
