"""What the morris players know: a Zobrist hash, move ordering and a real evaluation.

The evaluation counts, for each side, its pieces (on the board and in hand),
closed mills, mobility, blocked pieces, running mills (a piece that steps from one closed mill
into another: a mill every move); the side to move with a mill ready takes a
piece next, and loses one next when the other side has a mill ready that it cannot
stop (no piece of its own next to the gap) or, while placing, two such mills with different gaps (one
placement fills one). Depth does the rest: the hard player searches as deep as its budget
allows (iterative deepening, transposition table keyed by a Zobrist hash, mills
and blocks ordered first).
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import Any

from ...games.morris import (
    BIT,
    FULL,
    MILL_MASKS,
    MILL_MASKS_THROUGH,
    NEIGHBOUR_MASK,
    SIDES,
    MILLS,
    MorrisState,
    make_move,
    points_of,
    reach,
    union,
)
from ..alphabeta import WIN

# ----- Zobrist hashing: one random 64-bit word per (colour, point), side to move and hand size --
_Z = random.Random(20240917)
_ZOBRIST_BYTES = tuple(tuple(tuple(_Z.getrandbits(64) for _ in range(256)) for _ in range(3)) for _ in range(2))
_ZOBRIST_TURN = _Z.getrandbits(64)
_ZOBRIST_HAND = tuple(tuple(_Z.getrandbits(64) for _ in range(10)) for _ in range(2))
_ZOBRIST_QUIET = _Z.getrandbits(64) | 1  # odd: the no-removal count times it is a distinct word per count


def zobrist(state: MorrisState) -> int:
    """The Zobrist hash of board, side to move, pieces in hand and the no-removal count (XOR of
    per-point words, by bytes). The count is in the key because the same board can be drawn by it
    in one line of play and not in another."""
    w, b = state.men
    zw, zb = _ZOBRIST_BYTES
    key = (
        zw[0][w & 255]
        ^ zw[1][w >> 8 & 255]
        ^ zw[2][w >> 16]
        ^ zb[0][b & 255]
        ^ zb[1][b >> 8 & 255]
        ^ zb[2][b >> 16]
        ^ _ZOBRIST_HAND[0][state.hand[0]]
        ^ _ZOBRIST_HAND[1][state.hand[1]]
        ^ (state.quiet * _ZOBRIST_QUIET & 0xFFFF_FFFF_FFFF_FFFF)
    )
    return key ^ _ZOBRIST_TURN if state.turn else key


# ----- evaluation ------------------------------------------------------------------------------
class Weights:
    """Evaluation weights, in hundredths of a piece."""

    def __init__(
        self,
        piece: float = 100,
        mill: float = 12,
        mobility: float = 3,
        to_move_threat: float = 85,
        running_mill: float = 0.0,
        blocked: float = 0.0,
        reopening_mill: float = 0.0,
        cramped: float = 0.0,
        unstoppable_threat: float = 0.0,
        placing_mobility: float | None = None,
        placing_fork: float = 0.0,
    ) -> None:
        self.piece, self.mill, self.mobility = piece, mill, mobility
        self.placing_mobility = mobility if placing_mobility is None else placing_mobility  # while a hand holds pieces
        self.to_move_threat, self.running_mill, self.blocked = to_move_threat, running_mill, blocked
        self.reopening_mill, self.cramped = reopening_mill, cramped
        self.unstoppable_threat = unstoppable_threat
        self.placing_fork = placing_fork


MEDIUM_WEIGHTS = Weights()
HARD_WEIGHTS = Weights(
    placing_mobility=8,
    running_mill=40,
    blocked=20,
    reopening_mill=60,
    cramped=4,
    unstoppable_threat=90,
    placing_fork=160,
)
CRAMPED_BELOW = 4  # fewer free steps than this and a side is near to being shut in: each missing one costs more
# Placing mobility: at 3 hundredths a step, as while moving, hard let the peer have the points that
# bear four lines (in one game lost at 4000 nodes it placed d1 where the search at depth 8 wants g4, 0.7
# of a piece better) and got shut in after the placing. Sanmill, tuned over 10,000-game matches, pays a
# fifth of a piece a step while placing. At 8 while placing hard lost 8 of 120 games to the peer at 4000
# nodes a move (--seed 3 to 5, 40 games each; at 3: 17); 20 a step while moving instead lost 12 of 80
# (at 3: 10), so the moving phase keeps 3. An outcome fit (bench/texel.py) wants 36-86 while placing, but
# searched at 0.5 s that much trades mills for steps: at 20 hard (black, tuning seed 21) went 5/1/1 in 7
# games, at 12 for the last eight placements lost its first two, each time letting the peer close a mill.
# Blocked pieces: hard's lost games against medium were all placings where it won a piece and
# ended the placing with seven of its nine shut in (the count as mobility alone is worth a third
# of a piece there); with a fifth of a piece per blocked piece it lost 0 of 100 at 1 s (was 1).
# Reopening mills: every game hard lost to the classical peer (bench/sparring) at 0.5 s went the same
# way, the peer stepping a piece out of a mill and back in, a removal every second move, where hard had
# no piece next to the gap to fill it; at 60 (a bit over half a piece) hard keeps its pieces next to
# the other side's mills and builds such mills itself.
# Cramped: a side with few free steps, while placing too, pays (CRAMPED_BELOW - steps)² times 4 (0.64 of
# a piece with none): hard's other losses to the peer were placings that left it four or five steps,
# blocked a few moves into the moving phase, past the search's horizon. It was 15; fitted on the outcomes
# of 400 games at 3000 nodes (bench/texel.py, hard vs peer and hard vs hard, placing positions) it comes
# out at 2-4 beside the mobility and blocked pieces that already count the same steps.
# Unstoppable threat: the other side has an open pair with a piece next to the gap and the side to move
# has none there to fill it, so it loses a piece next unless it closes a mill first. The leaf saw only its
# own threats; searched deeper (depth 8-9), hard's moves in the games lost to the peer were better at 70
# (agreeing on 42 of 76 positions at 15k nodes, was 38), among them two mistakes of more than a piece.
# At 90 (0.9 of a piece: the piece lost next, less the chance of a counter-mill first) hard no longer plays
# the decisive moves of its last two losses to the peer (searched at 40k nodes, tests/test_ai.py); from 100
# on it takes with the wrong piece again in an older loss (PEER_LOSS_REOPENED there: d2-b2xf4 at seed 0).
# Placing fork: while the other side still places, two open pairs of its with different gaps cost the side
# to move a piece (it fills one gap, the other closes) unless it has a mill ready itself; the leaf saw only
# its own ready mill, so values swung by the leaf's parity. At 90, as the unstoppable threat, hard turned the
# 7 games it lost to the peer at 0.5 s on seeds 13-20, replayed, from 1/1/5 to 5/2/0 (black's fourth
# placement after f4 b4 d2 b2 b6 d6 a4: d1, was d3). The outcome fit (as for cramped) puts it at 155-210,
# and at 160 hard lost none of 10 black games of the tuning seed 21 at 0.5 s (main lost
# one, as black, in its 20 games there).
# Tried and dropped (self-play against the medium player, 40 games a setting): open mills, threat
# counts, double threats, fork points and a threat quiescence search did no better than this
# plainer evaluation searched as deep.


# ----- line space: the board as its 16 lines of three, a nibble each ------------------------------
# Every point stands on two lines. In line space point j of line i is bit 4i + j (bit 4i + 3 stays
# clear), so a step along a line is a shift by one and a closed mill a full nibble: mobility and
# mills cost a few integer operations instead of a loop over points. A mask gets there in three
# look-ups (one per byte).
_LINE_BITS = tuple(
    union(1 << (4 * i + j) for i, mill in enumerate(MILLS) for j, q in enumerate(mill) if q == p) for p in range(24)
)
_BYTE_LINES = tuple(
    tuple(union(_LINE_BITS[shift + k] for k in range(8) if byte >> k & 1) for byte in range(256))
    for shift in (0, 8, 16)
)
LINE_FIRST = union(1 << 4 * i for i in range(len(MILLS)))  # the first point of every line
LINE_ALL = LINE_FIRST * 0b111  # every point of every line


def to_lines(mask: int) -> int:
    """A 24-bit mask in line space (each point twice: once on each of its lines)."""
    return _BYTE_LINES[0][mask & 255] | _BYTE_LINES[1][mask >> 8 & 255] | _BYTE_LINES[2][mask >> 16]


def full_lines(lines: int) -> int:
    """The lines (their first bit in line space) these pieces (in line space) fill: their closed mills."""
    return lines & lines >> 1 & lines >> 2 & LINE_FIRST


def line_masks(first_bits: int) -> list[int]:
    """The point masks of the lines marked by their first bit in line space."""
    masks = []
    while first_bits:
        low = first_bits & -first_bits
        first_bits ^= low
        masks.append(MILL_MASKS[low.bit_length() >> 2])
    return masks


def line_steps(lines: int, empty_lines: int) -> int:
    """Steps these pieces can make along a line to an empty point (both in line space): the mobility."""
    return (lines << 1 & empty_lines).bit_count() + (lines >> 1 & empty_lines).bit_count()


def open_pairs(lines: int, other_lines: int) -> int:
    """The lines (their first bit in line space) where these pieces hold two points and the other side none."""
    count = (lines & LINE_FIRST) + (lines >> 1 & LINE_FIRST) + (lines >> 2 & LINE_FIRST)  # 0-3 in each nibble
    two = count >> 1 & ~count & LINE_FIRST
    return two & ~((other_lines | other_lines >> 1 | other_lines >> 2) & LINE_FIRST)


def can_close_mill(men: int, pairs: int, hand: int, flies: bool) -> bool:
    """Whether a mill can close next move: a piece in hand or flying fills any open pair's gap, a
    stepping piece must stand next to it (off the pair's own line)."""
    if hand or flies:
        return bool(pairs)
    for mask in line_masks(pairs):
        gap = mask ^ (men & mask)
        if NEIGHBOUR_MASK[gap.bit_length() - 1] & men & ~mask:
            return True
    return False


def unstoppable_gaps(men: int, pairs: int, others: int) -> int:
    """The gaps of these open pairs (moving phase) that a piece of ours stands next to and none of the
    other side's does: a mill only we can close, so the other side loses a piece unless it takes first."""
    gaps = 0
    for mask in line_masks(pairs):
        gap = mask ^ (men & mask)
        around = NEIGHBOUR_MASK[gap.bit_length() - 1]
        if around & men & ~mask and not around & others:
            gaps |= gap
    return gaps


def gap_count(men: int, pairs: int) -> int:
    """How many different points would close these open pairs (two pairs may share one gap)."""
    gaps = 0
    for mask in line_masks(pairs):
        gaps |= mask ^ (men & mask)
    return gaps.bit_count()


def running_mills(men: int, empty: int) -> int:
    """Pieces that can step out of a closed mill into another one (a double mill closes a mill every move)."""
    count = 0
    for mask in line_masks(full_lines(to_lines(men))):
        for p in points_of(mask):
            rest = men ^ BIT[p]
            for q in points_of(NEIGHBOUR_MASK[p] & empty):
                after = rest | BIT[q]
                first, second = MILL_MASKS_THROUGH[q]
                if after & first == first or after & second == second:
                    count += 1
                    break
    return count


def reopening_mills(men: int, theirs: int, empty: int, to_move: bool = True) -> int:
    """Closed mills with a piece that can step out and back in: no piece of the other side stands next
    to the point it leaves, so nothing can fill the gap (a removal every second move).

    If the other side moves first it may instead shut the door: step a piece onto the point ours would
    step out to. Such a mill counts only with an exit the other side cannot step to, or with two exits
    (one move shuts one)."""
    count = 0
    their_reach = -1  # the points the other side can step to, found when first needed
    for mask in line_masks(full_lines(to_lines(men))):
        for p in points_of(mask):
            exits = NEIGHBOUR_MASK[p] & empty
            if not exits or NEIGHBOUR_MASK[p] & theirs:
                continue
            if not to_move and not exits & (exits - 1):
                if their_reach < 0:
                    their_reach = reach(theirs)
                if exits & their_reach:
                    continue
            count += 1
            break
    return count


def evaluate(state: MorrisState, weights: Weights = HARD_WEIGHTS) -> float:
    """The position for the side to move, in hundredths of a piece: material (board and hand),
    closed mills, mobility and blocked pieces (also while placing: who gets shut in is decided
    then), a mill the side to move can close now, and running mills in the moving phase."""
    t = state.turn
    men, hand = state.men, state.hand
    empty = FULL ^ (men[0] | men[1])
    me, them = men[t], men[1 - t]
    my_count, their_count = me.bit_count(), them.bit_count()
    value = weights.piece * (my_count + hand[t] - their_count - hand[1 - t])
    flying = state.options.flying
    my_lines, their_lines = to_lines(me), to_lines(them)
    empty_lines = LINE_ALL ^ (my_lines | their_lines)
    by_empty = reach(empty)
    my_full, their_full = full_lines(my_lines), full_lines(their_lines)  # closed mills
    my_mills, their_mills = my_full.bit_count(), their_full.bit_count()
    i_fly = flying and not hand[t] and my_count == 3
    my_threat = can_close_mill(me, open_pairs(my_lines, their_lines), hand[t], i_fly)
    if i_fly:
        my_mobility, my_blocked = 3 * empty.bit_count(), 0
    else:
        my_mobility, my_blocked = line_steps(my_lines, empty_lines), my_count - (me & by_empty).bit_count()
    if flying and not hand[1 - t] and their_count == 3:
        their_mobility, their_blocked = 3 * empty.bit_count(), 0
    else:
        their_mobility = line_steps(their_lines, empty_lines)
        their_blocked = their_count - (them & by_empty).bit_count()
    mobility = weights.placing_mobility if hand[0] or hand[1] else weights.mobility
    value += weights.mill * (my_mills - their_mills) + mobility * (my_mobility - their_mobility)
    if weights.cramped:
        value -= weights.cramped * (
            max(0, CRAMPED_BELOW - my_mobility) ** 2 - max(0, CRAMPED_BELOW - their_mobility) ** 2
        )
    value -= weights.blocked * (my_blocked - their_blocked)
    if my_threat:
        value += weights.to_move_threat
    elif (
        weights.unstoppable_threat
        and not hand[0]
        and not hand[1]
        and not (flying and (my_count == 3 or their_count == 3))
        and unstoppable_gaps(them, open_pairs(their_lines, my_lines), me)
    ):
        value -= weights.unstoppable_threat  # the side to move cannot fill the gap: it loses a piece next
    elif weights.placing_fork and hand[1 - t] and gap_count(them, open_pairs(their_lines, my_lines)) >= 2:
        value -= weights.placing_fork  # one placement fills one gap: the other side closes a mill at the other
    # Running and reopening mills start from a closed mill: with none, there is nothing to count.
    if weights.running_mill:
        if my_full and not hand[t]:
            value += weights.running_mill * running_mills(me, empty)
        if their_full and not hand[1 - t]:
            value -= weights.running_mill * running_mills(them, empty)
    if weights.reopening_mill and not hand[0] and not hand[1]:  # while placing, a gap can be filled from the hand
        if my_full and not (flying and their_count == 3):
            value += weights.reopening_mill * reopening_mills(me, them, empty)
        if their_full and not (flying and my_count == 3):
            value -= weights.reopening_mill * reopening_mills(them, me, empty, to_move=False)
    return value


def terminal(state: MorrisState, ply: int) -> float | None:
    outcome = state.outcome()
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
    my_lines, their_lines = to_lines(me), to_lines(them)
    their_gaps = their_pairs = 0
    for mask in line_masks(open_pairs(their_lines, my_lines)):
        pair = them & mask
        their_gaps |= mask ^ pair
        their_pairs |= pair
    my_gaps = 0
    for mask in line_masks(open_pairs(my_lines, their_lines)):
        my_gaps |= mask ^ (me & mask)
    scored = []
    for move in state.generate_moves():
        take, source = move.take, move.source
        s = 0 if take is None else 120 if BIT[take] & their_pairs else 100
        target = BIT[move.target]
        if target & their_gaps:
            s += 40
        if target & my_gaps:
            s += 10
        if source is not None and BIT[source] & my_gaps == 0 and empty:
            s += 1
        scored.append((s, move))
    scored.sort(key=itemgetter(0), reverse=True)  # stable: equal scores keep the generator's order
    return [m for _, m in scored]


def mill_moves(state: MorrisState) -> list[Any]:
    """The moves that close a mill now, each with every removal it allows: the noisy moves of quiescence.

    Found from the open mills (two pieces and an empty third point) instead of the whole move list: most
    leaves have none, and then this costs one pass over the sixteen lines."""
    t = state.turn
    me, them = state.men[t], state.men[1 - t]
    steps: set[tuple[int | None, int]] = set()  # (source, target): no source while placing
    for mask in MILL_MASKS:
        mine = me & mask
        if them & mask or mine == mask or not (mine and mine & (mine - 1)):
            continue
        gap = (mask ^ mine).bit_length() - 1
        if state.hand[t]:
            steps.add((None, gap))
            continue
        flies = state.options.flying and me.bit_count() == 3
        for source in points_of((me if flies else NEIGHBOUR_MASK[gap] & me) & ~mask):
            steps.add((source, gap))
    if not steps:
        return []
    takes = state.removable(SIDES[1 - t])
    return [make_move(source, target, take) for source, target in sorted(steps, key=str) for take in takes]


KNOWN_LIMIT = 50_000  # positions whose value and move order are kept (a search of a second or so; some 10 MB)


class MorrisKnowledge:
    """The NegamaxKnowledge of morris (see engine.ai.alphabeta).

    Values and move orders depend on the position alone (its exact key: board, side to move, hands)
    and the rule options, so they are kept: a search meets the same positions again by other
    move orders and in every iteration of its deepening (a quarter to a third of its calls)."""

    def __init__(self, weights: Weights = HARD_WEIGHTS, quiescence: bool = False) -> None:
        self.weights = weights
        if quiescence:
            self.noisy_moves = self.moving_mills  # the alpha-beta search looks for this hook
        self._options: object = None  # the rules the kept values hold for
        self._values: dict[int, float] = {}
        self._orders: dict[int, list[Any]] = {}

    def _known(self, state: MorrisState) -> tuple[dict[int, float], dict[int, list[Any]]]:
        """The kept values and move orders, emptied when the rules change or they grow too large."""
        if state.options is not self._options:
            self._options = state.options
            self._values, self._orders = {}, {}
        elif len(self._values) > KNOWN_LIMIT or len(self._orders) > KNOWN_LIMIT:
            self._values, self._orders = {}, {}
        return self._values, self._orders

    @staticmethod
    def moving_mills(state: MorrisState) -> list[Any]:
        """The noisy moves once both hands are empty. While placing, the evaluation's bonus for a mill
        ready to close stands for the removal: playing them out there cost two to three times the
        nodes of a depth-5 search (a ply less in the placing) for no better play."""
        return [] if state.hand[0] or state.hand[1] else mill_moves(state)

    terminal = staticmethod(terminal)

    def evaluate(self, state: MorrisState) -> float:
        values = self._known(state)[0]
        value = values.get(state.position_key)
        if value is None:
            value = values[state.position_key] = evaluate(state, self.weights)
        return value

    def ordered_moves(self, state: MorrisState) -> list[Any]:
        """The moves in their static order (the list is kept: read it, do not change it)."""
        orders = self._known(state)[1]
        moves = orders.get(state.position_key)
        if moves is None:
            moves = orders[state.position_key] = ordered_moves(state)
        return moves

    key = staticmethod(zobrist)

    @staticmethod
    def reducible(state: MorrisState, move: Any) -> bool:
        """A quiet move (no removal, not filling the other side's open mill) of the moving phase may be
        searched shallower. No placement is: who gets shut in when the hands run out is settled by
        placements that all look quiet, and the games hard lost to the classical peer slid there."""
        if move.take is not None or state.hand[0] or state.hand[1]:
            return False
        them, me = state.men[1 - state.turn], state.men[state.turn]
        for mask in MILL_MASKS_THROUGH[move.target]:
            if not me & mask and (them & mask).bit_count() == 2:
                return False
        return True

    @staticmethod
    def path_dependent(state: MorrisState) -> bool:
        """Every morris draw comes from the history (a position's third time, the no-removal count)."""
        outcome = state.outcome()
        return outcome is not None and not outcome.winners

    @staticmethod
    def win_chance(value: float) -> float:
        from ..base import logistic

        if value >= WIN - 10_000:
            return 1.0
        if value <= -(WIN - 10_000):
            return 0.0
        return logistic(value / 180)
