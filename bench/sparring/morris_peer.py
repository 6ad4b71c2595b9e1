"""A classical nine men's morris program: alpha-beta on its own board, rules and evaluation.

Written to the textbook design, apart from `engine/ai`: it reads the position
JSON of the view (SPEC section 2), searches its own bitboards with iterative
deepening, a transposition table and captures-first ordering, and judges a
position by pieces, closed mills, open twos (two in a line, the third point
empty), mobility and blocked pieces. No quiescence, no reductions: the plain
program a club player would write, the kind that found hard's weak placing.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from engine.ai import Budget
from engine.games.morris import ADJACENT, MILLS, POINT_NAMES, closed_mill_mask

from .deadline import Deadline

BITS = tuple(1 << p for p in range(len(POINT_NAMES)))
LINES = tuple(BITS[a] | BITS[b] | BITS[c] for a, b, c in MILLS)
LINES_AT = tuple(tuple(line for line in LINES if line & BITS[p]) for p in range(len(POINT_NAMES)))
NEIGHBOURS = tuple(sum(BITS[q] for q in ADJACENT[p]) for p in range(len(POINT_NAMES)))
BOARD = (1 << len(POINT_NAMES)) - 1
WIN = 100_000
MAX_DEPTH = 30

# Evaluation weights, in hundredths of a piece (pieces in hand count as pieces).
PIECE = 100
MILL = 15
OPEN_TWO = 8
MOBILITY = 4
BLOCKED = 12


class Position(NamedTuple):
    men: tuple[int, int]  # bitmasks of white's and black's pieces
    hand: tuple[int, int]  # pieces still to place
    turn: int  # 0: white to move, 1: black
    quiet: int  # plies toward the no-removal draw


class Rules(NamedTuple):
    flying: bool
    protection: bool
    quiet_limit: int  # plies; 0: no such draw


def points(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def read(position: dict[str, Any]) -> tuple[Position, Rules]:
    """The peer's board and rules from a position JSON."""
    men = [0, 0]
    for name, colour in position["cells"].items():
        if colour is not None:
            men[0 if colour == "white" else 1] |= BITS[POINT_NAMES.index(name)]
    hand = position["in_hand"]
    options = position.get("options", {})
    rules = Rules(
        bool(options.get("flying", False)),
        bool(options.get("mill_protection", False)),
        2 * int(options.get("no_removal_draw", 50)),
    )
    turn = 0 if position["to_move"] == "white" else 1
    return Position(
        (men[0], men[1]), (hand["white"], hand["black"]), turn, int(position.get("since_removal", 0))
    ), rules


def flies(pos: Position, side: int, rules: Rules) -> bool:
    return rules.flying and not pos.hand[side] and pos.men[side].bit_count() == 3


def moves(pos: Position, rules: Rules) -> list[tuple[int | None, int, int | None]]:
    """Every (source, target, removed) of the side to move; mills come first."""
    t = pos.turn
    mine, theirs = pos.men[t], pos.men[1 - t]
    empty = BOARD ^ (mine | theirs)
    steps: list[tuple[int | None, int]]  # (source, target): no source while placing
    if pos.hand[t]:
        steps = [(None, q) for q in points(empty)]
    elif flies(pos, t, rules):
        targets = points(empty)
        steps = [(p, q) for p in points(mine) for q in targets]
    else:
        steps = [(p, q) for p in points(mine) for q in points(NEIGHBOURS[p] & empty)]
    removable = theirs
    if rules.protection:
        removable = (theirs & ~closed_mill_mask(theirs)) or theirs
    mills: list[tuple[int | None, int, int | None]] = []
    quiet: list[tuple[int | None, int, int | None]] = []
    for source, target in steps:
        after = (mine if source is None else mine ^ BITS[source]) | BITS[target]
        if removable and any(after & line == line for line in LINES_AT[target]):
            mills += [(source, target, r) for r in points(removable)]
        else:
            quiet.append((source, target, None))
    return mills + quiet


def play(pos: Position, move: tuple[int | None, int, int | None], rules: Rules) -> Position:
    source, target, removed = move
    t = pos.turn
    men = list(pos.men)
    hand = list(pos.hand)
    men[t] |= BITS[target]
    if source is None:
        hand[t] -= 1
    else:
        men[t] ^= BITS[source]
    quiet = pos.quiet + 1 if not (hand[0] or hand[1]) else 0
    if removed is not None:
        men[1 - t] ^= BITS[removed]
        quiet = 0
    return Position((men[0], men[1]), (hand[0], hand[1]), 1 - t, quiet)


def lost(pos: Position, legal: list) -> bool:
    """The side to move has lost: two pieces left, or no move."""
    t = pos.turn
    return pos.men[t].bit_count() + pos.hand[t] <= 2 or not legal


def side_value(men: int, other: int, empty: int, hand: int, can_fly: bool) -> int:
    value = PIECE * (men.bit_count() + hand)
    for line in LINES:
        mine = men & line
        if mine == line:
            value += MILL
        elif not other & line and mine.bit_count() == 2:
            value += OPEN_TWO
    if can_fly:
        return value
    for p in points(men):
        free = (NEIGHBOURS[p] & empty).bit_count()
        value += MOBILITY * free if free else -BLOCKED
    return value


def evaluate(pos: Position, rules: Rules) -> int:
    """The position for the side to move."""
    t = pos.turn
    empty = BOARD ^ (pos.men[0] | pos.men[1])
    mine = side_value(pos.men[t], pos.men[1 - t], empty, pos.hand[t], flies(pos, t, rules))
    theirs = side_value(pos.men[1 - t], pos.men[t], empty, pos.hand[1 - t], flies(pos, 1 - t, rules))
    return mine - theirs


class OutOfTime(Exception):
    pass


class MorrisPeer:
    """Iterative-deepening negamax with a transposition table, on the peer's own board."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.table: dict[Position, tuple[int, int, int, Any]] = {}
        self.nodes = 0  # how many positions the last choice searched
        self.depth = 0  # the deepest iteration the last choice completed

    def choose(self, view: Any, budget: Budget | None = None) -> Any:
        pos, rules = read(view.to_position())
        deadline = Deadline(budget)
        rng = random.Random(f"peer/{self.seed}/{view.ply}")
        root = moves(pos, rules)
        rng.shuffle(root)
        root.sort(key=lambda m: m[2] is None)  # mills first, equal moves in a seeded order
        best = root[0]
        self.table.clear()
        self.depth = 0
        for depth in range(1, MAX_DEPTH + 1):
            try:
                value, move = self._root(pos, rules, root, depth, deadline)
            except OutOfTime:
                break
            best, self.depth = move, depth
            root.remove(move)
            root.insert(0, move)
            if abs(value) > WIN // 2:
                break
        self.nodes = deadline.nodes
        source, target, removed = best
        text = POINT_NAMES[target] if source is None else f"{POINT_NAMES[source]}-{POINT_NAMES[target]}"
        return view.parse_move(text if removed is None else f"{text}x{POINT_NAMES[removed]}")

    def _root(self, pos: Position, rules: Rules, root: list, depth: int, deadline: Deadline) -> tuple[int, Any]:
        alpha, best = -WIN - 1, root[0]
        for move in root:
            value = -self._search(play(pos, move, rules), rules, depth - 1, -WIN - 1, -alpha, 1, {pos}, deadline)
            if value > alpha:
                alpha, best = value, move
        return alpha, best

    def _search(
        self,
        pos: Position,
        rules: Rules,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        path: set[Position],
        deadline: Deadline,
    ) -> int:
        deadline.nodes += 1
        if (deadline.limit is not None or not deadline.nodes & 63) and deadline.expired():
            raise OutOfTime
        legal = moves(pos, rules)
        if lost(pos, legal):
            return -(WIN - ply)
        if (rules.quiet_limit and pos.quiet >= rules.quiet_limit) or pos in path:
            return 0
        if depth <= 0:
            return evaluate(pos, rules)
        entry = self.table.get(pos)
        first = None
        if entry is not None:
            stored_depth, low, high, first = entry
            if stored_depth >= depth:
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
        if first is not None and first in legal:
            legal.remove(first)
            legal.insert(0, first)
        original_alpha, best, best_move = alpha, -WIN - 1, None
        path.add(pos)
        try:
            for move in legal:
                value = -self._search(play(pos, move, rules), rules, depth - 1, -beta, -alpha, ply + 1, path, deadline)
                if value > best:
                    best, best_move = value, move
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
        finally:
            path.discard(pos)
        low = best if best > original_alpha else -WIN - 1
        high = best if best < beta else WIN + 1
        self.table[pos] = (depth, low, high, best_move)
        return best
