"""What the morris players know: a Zobrist hash, move ordering and a real evaluation.

The evaluation counts, for each side, its pieces (on the board and in hand),
closed mills, open mills (two pieces and an empty point the third can reach),
the points where it can close a mill next move (two such points cannot both be
blocked: a double threat), its mobility and its blocked pieces; the side to move
with a mill ready takes a piece next. Weights differ between the placing, moving
and flying phases.
"""

from __future__ import annotations

import random
from typing import Any

from ...games.morris import BIT, FULL, MILL_MASKS, NEIGHBOUR_MASK, MorrisState, points_of
from ..alphabeta import WIN

# ----- Zobrist hashing: one random 64-bit word per (colour, point), side to move and hand size --
_Z = random.Random(20240917)
_ZOBRIST_BYTES = tuple(tuple(tuple(_Z.getrandbits(64) for _ in range(256)) for _ in range(3)) for _ in range(2))
_ZOBRIST_TURN = _Z.getrandbits(64)
_ZOBRIST_HAND = tuple(tuple(_Z.getrandbits(64) for _ in range(10)) for _ in range(2))


def zobrist(state: MorrisState) -> int:
    """The Zobrist hash of board, side to move and pieces in hand (XOR of per-point words, by bytes)."""
    w, b = state.men
    zw, zb = _ZOBRIST_BYTES
    key = (zw[0][w & 255] ^ zw[1][w >> 8 & 255] ^ zw[2][w >> 16]
           ^ zb[0][b & 255] ^ zb[1][b >> 8 & 255] ^ zb[2][b >> 16]
           ^ _ZOBRIST_HAND[0][state.hand[0]] ^ _ZOBRIST_HAND[1][state.hand[1]])
    return key ^ _ZOBRIST_TURN if state.turn else key


# ----- evaluation ------------------------------------------------------------------------------
class Weights:
    """Evaluation weights (in hundredths of a piece)."""

    def __init__(self, piece: float = 100, mill: float = 12, open_mill: float = 10, threat: float = 28,
                 double_threat: float = 60, mobility: float = 3, blocked: float = 6, to_move_threat: float = 85,
                 simple: bool = False) -> None:
        self.piece, self.mill, self.open_mill, self.threat = piece, mill, open_mill, threat
        self.double_threat, self.mobility, self.blocked = double_threat, mobility, blocked
        self.to_move_threat = to_move_threat
        self.simple = simple


FULL_WEIGHTS = Weights()
SIMPLE_WEIGHTS = Weights(simple=True)


def _side_features(men: int, other: int, empty: int, hand: int, flies: bool) -> tuple[int, int, int, int, int]:
    """(closed mills, open mills, threat points mask, mobility, blocked pieces) of one side."""
    closed = open_mills = 0
    threats = 0
    for mask in MILL_MASKS:
        if other & mask:
            continue
        mine = men & mask
        if mine == mask:
            closed += 1
        elif mine and (mine & (mine - 1)):  # exactly two of the three
            gap = mask ^ mine
            open_mills += 1
            if hand or flies:
                threats |= gap
            else:
                gap_index = gap.bit_length() - 1
                if NEIGHBOUR_MASK[gap_index] & men & ~mask:
                    threats |= gap
    mobility = blocked = 0
    if not flies:  # in the placing phase too: who gets shut in is decided while placing
        for p in points_of(men):
            free = NEIGHBOUR_MASK[p] & empty
            if free:
                mobility += free.bit_count()
            else:
                blocked += 1
    return closed, open_mills, threats, mobility, blocked


def evaluate(state: MorrisState, weights: Weights = FULL_WEIGHTS) -> float:
    """The position for the side to move, in hundredths of a piece."""
    t = state.turn
    men, hand = state.men, state.hand
    empty = FULL ^ (men[0] | men[1])
    flying = state.options.flying
    me, them = men[t], men[1 - t]
    my_count, their_count = me.bit_count() + hand[t], them.bit_count() + hand[1 - t]
    value = weights.piece * (my_count - their_count)
    if weights.simple:
        # Material, mills and mobility only: what a careful beginner counts.
        mc, mo, mt, mm, mb = _side_features(me, them, empty, hand[t], False)
        tc, to, tt, tm, tb = _side_features(them, me, empty, hand[1 - t], False)
        return value + weights.mill * (mc - tc) + weights.mobility * (mm - tm) + (weights.to_move_threat if mt else 0)
    my_flies = flying and not hand[t] and me.bit_count() == 3
    their_flies = flying and not hand[1 - t] and them.bit_count() == 3
    mc, mo, mt, mm, mb = _side_features(me, them, empty, hand[t], my_flies)
    tc, to, tt, tm, tb = _side_features(them, me, empty, hand[1 - t], their_flies)
    value += weights.mill * (mc - tc) + weights.open_mill * (mo - to)
    value += weights.mobility * (mm - tm) - weights.blocked * (mb - tb)
    my_threats, their_threats = mt.bit_count(), tt.bit_count()
    value += weights.threat * (min(my_threats, 3) - min(their_threats, 3))
    if my_threats:
        value += weights.to_move_threat  # the side to move closes a mill now
    if their_threats >= 2:
        value -= weights.double_threat  # one move cannot block two mills
    # In the moving phase a side that cannot move loses: being nearly shut in is dangerous.
    if not hand[1 - t] and not their_flies and tm <= 1:
        value += 120 if tm == 0 else 40
    if not hand[t] and not my_flies and mm <= 1:
        value -= 120 if mm == 0 else 40
    # Three pieces that fly are worth more than three that crawl, but the end is near.
    if flying and their_count == 3 and my_count > 3 and not hand[1 - t]:
        value += 30
    return value


def terminal(state: MorrisState, ply: int) -> float | None:
    outcome = state._game_outcome()
    if outcome is None:
        return None
    if not outcome.winners:
        return 0.0
    return WIN - ply if outcome.winners[0] == state.current_player else -(WIN - ply)


def ordered_moves(state: MorrisState) -> list[Any]:
    """Removals first (the piece that blocks our mill or makes theirs first), then blocks, then the rest."""
    t = state.turn
    men = state.men
    me, them = men[t], men[1 - t]
    empty = FULL ^ (me | them)
    # The opponent's open mills: points we should fill, pieces we should take.
    their_gaps = their_pairs = 0
    my_gaps = 0
    for mask in MILL_MASKS:
        a, b = them & mask, me & mask
        if not b and a and (a & (a - 1)) and a != mask:
            their_gaps |= mask ^ a
            their_pairs |= a
        elif not a and b and (b & (b - 1)) and b != mask:
            my_gaps |= mask ^ b
    scored = []
    for move in state._legal_moves():
        s = 0
        if move.take is not None:
            s += 100
            if BIT[move.take] & their_pairs:
                s += 20
        target = BIT[move.target]
        if target & their_gaps:
            s += 40
        if target & my_gaps:
            s += 10
        if move.source is not None and BIT[move.source] & my_gaps == 0 and empty:
            s += 1
        scored.append((s, move))
    scored.sort(key=lambda x: -x[0])
    return [m for _, m in scored]


class MorrisKnowledge:
    """The NegamaxKnowledge of morris (see engine.ai.alphabeta)."""

    def __init__(self, weights: Weights = FULL_WEIGHTS) -> None:
        self.weights = weights

    def terminal(self, state: MorrisState, ply: int) -> float | None:
        return terminal(state, ply)

    def evaluate(self, state: MorrisState) -> float:
        return evaluate(state, self.weights)

    def ordered_moves(self, state: MorrisState) -> list[Any]:
        return ordered_moves(state)

    def key(self, state: MorrisState) -> int:
        return zobrist(state)

    @staticmethod
    def win_chance(value: float) -> float:
        from ..base import logistic
        if value >= WIN - 10_000:
            return 1.0
        if value <= -(WIN - 10_000):
            return 0.0
        return logistic(value / 180)
