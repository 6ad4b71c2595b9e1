"""Expectimax for games with chance (a pouch draw, a dice roll), for any number of players.

Values are vectors, one entry per player (max-n): at a decision the player to
move picks the child best for itself, at a chance node the children are averaged
with their probabilities. Depth counts decisions; chance nodes are free, and the
evaluation is taken before a chance node is expanded at the horizon. Below the
root only the `beam` most promising moves (the game's static order) are searched.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence

from ..core import CHANCE
from .base import Clock, OutOfBudget

Vector = tuple[float, ...]


class ChanceKnowledge(Protocol):
    players: Sequence[str]

    def terminal(self, state: Any) -> Vector | None:
        """Per-player values of a finished game (else None)."""

    def evaluate(self, state: Any) -> Vector:
        """Per-player static values, on the same scale as `terminal`."""

    def ordered_moves(self, state: Any) -> list[Any]:
        """The decision's legal moves, most promising first."""

    def chance(self, state: Any) -> list[tuple[Any, float]]:
        """The chance outcomes with their probabilities."""

    # Optional: `leaf_values(state) -> list[Vector]`, the value after each legal move without
    # playing it (an incremental evaluation), used for the last decision above the horizon.


class ExpectimaxResult:
    __slots__ = ("move", "values", "depth", "complete", "children")

    def __init__(self, move: Any, values: Vector, depth: int, complete: bool, children: dict[Any, Vector]) -> None:
        self.move, self.values, self.depth, self.complete, self.children = move, values, depth, complete, children


class Expectimax:
    def __init__(self, knowledge: ChanceKnowledge, max_depth: int = 3, beam: int | None = None) -> None:
        self.k = knowledge
        self.max_depth = max_depth
        self.beam = beam
        self.leaf_values = getattr(knowledge, "leaf_values", None)

    def search(self, state: Any, clock: Clock, rng: random.Random) -> ExpectimaxResult:
        me = self.k.players.index(state.current_player)
        moves = list(self.k.ordered_moves(state))
        rng.shuffle(moves)  # ties go to a seeded random move
        order = {m: i for i, m in enumerate(self.k.ordered_moves(state))}
        moves.sort(key=lambda m: order[m])
        best: ExpectimaxResult | None = None
        for depth in range(1, self.max_depth + 1):
            children: dict[Any, Vector] = {}
            try:
                for move in moves:
                    children[move] = self._after(state, move, depth - 1, clock)
            except OutOfBudget:
                if best is None and children:
                    move = max(children, key=lambda m: children[m][me])
                    best = ExpectimaxResult(move, children[move], depth, False, children)
                break
            move = max(moves, key=lambda m: children[m][me])
            best = ExpectimaxResult(move, children[move], depth, True, children)
            moves.sort(key=lambda m: -children[m][me])  # best first for the next iteration
            if len(moves) == 1:
                break
        if best is None:
            best = ExpectimaxResult(moves[0], self.k.evaluate(state), 0, False, {})
        return best

    def _after(self, state: Any, move: Any, depth: int, clock: Clock) -> Vector:
        state.push_unchecked(move)
        try:
            return self._value(state, depth, clock)
        finally:
            state.pop()

    def _value(self, state: Any, depth: int, clock: Clock) -> Vector:
        clock.tick()
        k = self.k
        terminal = k.terminal(state)
        if terminal is not None:
            return terminal
        if depth <= 0:
            return k.evaluate(state)
        if state.current_player == CHANCE:
            total: list[float] | None = None
            for move, p in k.chance(state):
                v = self._after(state, move, depth, clock)
                if total is None:
                    total = [p * x for x in v]
                else:
                    for i, x in enumerate(v):
                        total[i] += p * x
            return tuple(total or k.evaluate(state))
        me = k.players.index(state.current_player)
        if depth == 1 and self.leaf_values is not None:
            # The last decision: the game can value its moves without playing them.
            best_leaf: Vector | None = None
            values = self.leaf_values(state)
            for v in values:
                if best_leaf is None or v[me] > best_leaf[me]:
                    best_leaf = v
            clock.tick(len(values))
            return best_leaf if best_leaf is not None else k.evaluate(state)
        moves = k.ordered_moves(state)
        if self.beam is not None and len(moves) > self.beam:
            moves = moves[: self.beam]
        best: Vector | None = None
        for move in moves:
            v = self._after(state, move, depth - 1, clock)
            if best is None or v[me] > best[me]:
                best = v
        return best if best is not None else k.evaluate(state)
