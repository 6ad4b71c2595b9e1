"""What the rings players know: turns with their conversions chosen well, and a position's value.

Conversions: converting a circle only turns opponent stones into the mover's, so
it never lowers the mover's influence anywhere nor raises an opponent's; the
players therefore convert everything they can, in a chain (`convert_all`), and
the only real choice of a turn is the point (or the pass).

Value per player: the circles it holds, plus for each circle nobody holds a
share by how much influence it still needs for the majority (reachable only if
that many points are still empty). Before valuing, the next player's free
conversions (those it can make without placing) are played out, so a stone put
where it would be converted at once is seen as lost.

The turns are valued without `push` (the state's tallies are changed point by
point and restored), and incrementally: a turn changes the tallies of only the
circles through the points it changes (and, when a ring forms, of that circle's
neighbours), so only those circles are valued again (`TurnValuer`). That makes
valuing all ~200 placements of a turn cheap.
"""

from __future__ import annotations

from typing import Callable

from ...games.rings import CIRCLE_NEIGHBOURS, EMPTY, FULL_CIRCLES, POINT_FULL, RingsState, Turn

Vector = list[float]

NEED_VALUE = (1.0, 0.55, 0.3, 0.14, 0.05, 0.015, 0.005)
"""A free circle's worth to a player by the influence it still needs for the majority (index 0 = held)."""
WIN_BONUS = 3.0


def convert_all(state: RingsState, p: int, changes: list[tuple[int, int]], seeds: list[int]) -> list[int]:
    """Convert every circle p can, chaining; returns the circles in the order converted.

    Only circles in `seeds`, and those touched by a conversion, can become convertible;
    `changes` collects (point, old owner) so the caller can undo.
    """
    holder, board, ring_owner = state.holder, state.board, state.ring_owner
    chain: list[int] = []
    pending = list(seeds)
    while pending:
        c = pending.pop()
        if holder[c] != p:
            continue
        stones = state.convertible_stones(c, p)
        if not stones:
            continue
        chain.append(c)
        for pt in stones:
            changes.append((pt, board[pt]))
            state.set_point(pt, p)
            for c2 in POINT_FULL[pt]:
                pending.append(c2)
                if ring_owner[c2] == p:
                    pending.extend(CIRCLE_NEIGHBOURS[c2])
    return chain


def _seeds_after(state: RingsState, pt: int | None, p: int, waiting: list[int]) -> list[int]:
    if pt is None:
        return list(waiting)
    seeds = list(waiting)
    for c in POINT_FULL[pt]:
        seeds.append(c)
        if state.ring_owner[c] == p:
            seeds.extend(CIRCLE_NEIGHBOURS[c])
    return seeds


def circle_shares(
    state: RingsState, c: int, need_value: tuple[float, ...] = NEED_VALUE
) -> tuple[tuple[int, float], ...]:
    """What full circle c is worth to each player: 1 to its holder, else a share by the influence still needed."""
    h = state.holder[c]
    if h != EMPTY:
        return ((h, 1.0),)
    e = state.empties[c]
    if not e:
        return ()
    n = state.n
    majority = (state.total[c] + e) // 2 + 1
    influence, base, top = state.influence, c * n, len(need_value)
    shares = []
    for p in range(n):
        need = majority - influence[base + p]
        if need <= e and need < top:
            shares.append((p, need_value[need]))
    return tuple(shares)


def values(state: RingsState, need_value: tuple[float, ...] = NEED_VALUE) -> Vector:
    """Per player: circles held plus the potential of the circles nobody holds."""
    v = [0.0] * state.n
    for c in range(FULL_CIRCLES):
        for p, x in circle_shares(state, c, need_value):
            v[p] += x
    return v


class TurnValuer:
    """Values the boards a turn can leave, re-valuing only the circles the turn touched.

    Built on the board before the turn: every circle's shares, their sum, the ring
    owners and the next player's convertible circles. A changed point alters the
    tallies of its own circles; a ring that forms alters its neighbours' too. Any
    other circle keeps its shares and (for the next player) its convertibility.
    """

    def __init__(self, state: RingsState, need_value: tuple[float, ...], nxt: int) -> None:
        self.state = state
        self.need_value = need_value
        self.shares = [circle_shares(state, c, need_value) for c in range(FULL_CIRCLES)]
        self.base = [0.0] * state.n
        for shares in self.shares:
            for p, x in shares:
                self.base[p] += x
        self.rings_before = list(state.ring_owner)
        self.nxt = nxt
        self.next_convertible = state.circles_to_convert(nxt)

    def touched(self, changes: list[tuple[int, int]]) -> set[int]:
        circles: set[int] = set()
        for pt, _ in changes:
            circles.update(POINT_FULL[pt])
        ring_owner, before = self.state.ring_owner, self.rings_before
        for c in [c for c in circles if ring_owner[c] != before[c]]:
            circles.update(CIRCLE_NEIGHBOURS[c])
        return circles

    def value(self, changes: list[tuple[int, int]], reply_conversions: bool) -> Vector:
        """The value of the board as it is now, `changes` (point, old owner) away from the one built on."""
        state = self.state
        touched = self.touched(changes)
        reply: list[tuple[int, int]] = []
        if reply_conversions:
            convert_all(state, self.nxt, reply, self.next_convertible + list(touched))
            if reply:
                touched |= self.touched(reply)
        v = list(self.base)
        shares, need_value = self.shares, self.need_value
        for c in touched:
            for p, x in shares[c]:
                v[p] -= x
            for p, x in circle_shares(state, c, need_value):
                v[p] += x
        if reply:
            state.undo_changes(reply)
        return v


def final_values(state: RingsState) -> Vector:
    """A finished game: the scores, and a bonus for the winner."""
    held = [float(h) for h in state.held]
    best = max(held)
    leaders = [p for p, h in enumerate(held) if h == best]
    if len(leaders) == 1:
        held[leaders[0]] += WIN_BONUS
    return held


class RingsKnowledge:
    """Turn generation and valuation for the rings players."""

    def __init__(
        self, state: RingsState, need_value: tuple[float, ...] = NEED_VALUE, reply_conversions: bool = True
    ) -> None:
        self.players = state.players
        self.need_value = need_value
        self.reply_conversions = reply_conversions

    def turns(self, state: RingsState, tick: Callable[[], None] | None = None) -> list[tuple[Vector, Turn]]:
        """Every placement (and the pass), each with all its conversions, valued; best first for the mover."""
        p = state.to_move
        board = state.board
        waiting = state.circles_to_convert(p)
        pass_ends = state.passes + 1 >= state.n
        valuer = TurnValuer(state, self.need_value, (p + 1) % state.n)
        out: list[tuple[Vector, Turn]] = []
        for pt in [None] + [i for i in range(len(board)) if board[i] == EMPTY]:
            if tick is not None:
                tick()
            changes: list[tuple[int, int]] = []
            if pt is not None:
                changes.append((pt, EMPTY))
                state.set_point(pt, p)
            chain = convert_all(state, p, changes, _seeds_after(state, pt, p, waiting))
            ends = pt is None and pass_ends and (not chain or state.options.converting_pass_counts)
            v = final_values(state) if ends else valuer.value(changes, self.reply_conversions)
            state.undo_changes(changes)
            out.append((v, Turn(pt, tuple(chain))))
        out.sort(key=lambda item: -margin(item[0], p))
        return out

    def evaluate(self, state: RingsState) -> Vector:
        if state.is_over():
            return final_values(state)
        return values(state, self.need_value)

    def readable(self, value: float, state: RingsState) -> tuple[float, float]:
        from ..base import logistic

        return logistic(value / 2.5), value


def margin(v: Vector, p: int) -> float:
    """p's value less the best other player's."""
    best_other = max(x for i, x in enumerate(v) if i != p) if len(v) > 1 else 0.0
    return v[p] - best_other
