"""Selective max-n search over whole turns that the game values itself.

For games with big turns and many players (rings): the game lists every turn
with its value after the turn (`knowledge.turns(state, tick)`, best first for
the mover). At depth 1 the best is played; at depth 2 the `width` best turns are
answered by the next player's best reply (max-n: each player maximises its own
margin), as many as the budget allows, best first.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .base import Analysis, Clock, OutOfBudget, Player


def margin(v: list[float], p: int) -> float:
    best_other = max(x for i, x in enumerate(v) if i != p) if len(v) > 1 else 0.0
    return v[p] - best_other


class SelectivePlayer(Player):
    def __init__(
        self,
        game_id: str,
        seed: int,
        level: str,
        knowledge_for: Callable[[Any], Any],
        depth: int = 1,
        width: int = 12,
        noise: float = 0.0,
        blunder: float = 0.0,
    ) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.knowledge_for = knowledge_for
        self.depth = depth
        self.width = width
        self.noise = noise
        self.blunder = blunder

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        state = view.copy()
        k = self.knowledge_for(state)
        me = list(k.players).index(player)
        tick = clock.tick

        def count() -> None:
            clock.nodes += 1  # the first ply is always completed: a move must be found

        root = k.turns(state, count)
        if self.blunder and rng.random() < self.blunder:
            value, move = rng.choice(root)
            return Analysis(move, player, text=f"{player}: {move} (a hunch)")
        if self.noise:
            noisy = [(margin(v, me) + rng.gauss(0.0, self.noise), i) for i, (v, _) in enumerate(root)]
            _, i = max(noisy)
            root = [root[i]] + root[:i] + root[i + 1 :]
        best_value, best_move = margin(root[0][0], me), root[0][1]
        depth = 1
        if self.depth >= 2 and len(root) > 1:
            searched = []
            try:
                for _value, move in root[: self.width]:
                    state.push_unchecked(move)
                    try:
                        if state.is_over():
                            reply_value = k.evaluate(state)
                        else:
                            reply_value = k.turns(state, tick)[0][0]
                    finally:
                        state.pop()
                    searched.append((margin(reply_value, me), move))
            except OutOfBudget:
                pass
            if searched:
                best_value, best_move = max(searched, key=lambda x: x[0])
                depth = 2
        analysis = Analysis(best_move, player, depth=depth)
        analysis.win_chance, analysis.margin = k.readable(best_value, state)
        return analysis
