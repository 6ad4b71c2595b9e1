"""What the triple-domino players know: a playout policy, a move order, how to judge a cut playout.

The players get only `state.view(player)`: their own hand, the sizes of the other
hands and of the pool, the layout and the scores. A search deals the unseen tiles
itself through `view.determinize(rng)` (a fresh deal of what it cannot see on
every iteration), so it never reads another hand or the pool.

A lay's points (value and bonuses, the last-tile bonus) come from the rules
without playing it (`state.lay_points`), for the playouts and the move ordering.
A playout runs to the end of the round or a few turns; its reward per player is
a logistic of that player's points gained (less a share of the tiles still in
hand, which the one who goes out collects) against the best other player's.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ...games.triple_domino import DEAL, TILE_VALUES, Draw, Lay, TripleDominoState

HAND_LIABILITY = 0.4
"""Share of its hand's value a player is charged at a cut playout (it may end up in another's score)."""
TILE_LIABILITY = 2.0
"""Points charged per tile still in hand at a cut (more tiles, further from going out)."""


def hand_liability(hand: list[int]) -> float:
    return HAND_LIABILITY * sum(TILE_VALUES[t] for t in hand) + TILE_LIABILITY * len(hand)


class DominoKnowledge:
    """Greedy evaluation (points less hand liability) and the MCTS playout knowledge."""

    def __init__(self, root: Any, horizon: int = 16, scale: float = 25.0, greedy: float = 0.85) -> None:
        self.players = tuple(root.players)
        self.root_points = list(root.points)
        self.root_round = root.round_number
        self.horizon = horizon
        self.scale = scale
        self.greedy = greedy

    # ----- greedy players ----------------------------------------------------------------
    def terminal(self, state: TripleDominoState) -> tuple[float, ...] | None:
        outcome = state.outcome()
        if outcome is None:
            return None
        return tuple(
            float(p) + (1000.0 if outcome.winners == (name,) else 0.0) for p, name in zip(state.points, self.players)
        )

    def evaluate(self, state: TripleDominoState) -> tuple[float, ...]:
        return tuple(p - hand_liability(h) for p, h in zip(state.points, state.hands))

    def ordered_moves(self, state: TripleDominoState) -> list[Any]:
        return self.expansion_order(state, list(state.legal_moves()))

    # ----- MCTS ------------------------------------------------------------------------------
    def expansion_order(self, state: TripleDominoState, moves: list[Any]) -> list[Any]:
        scored = [
            (state.lay_points(m) if isinstance(m, Lay) else -10 if isinstance(m, Draw) else -20, i, m)
            for i, m in enumerate(moves)
        ]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [m for _, _, m in scored]

    def playout_move(self, state: TripleDominoState, moves: list[Any], rng: random.Random) -> Any:
        lays = [m for m in moves if isinstance(m, Lay)]
        if not lays:
            for m in moves:
                if isinstance(m, Draw):
                    return m
            return moves[0]
        if len(lays) == 1 or rng.random() > self.greedy:
            return rng.choice(lays)
        return max(lays, key=lambda m: state.lay_points(m))

    def cut(self, state: TripleDominoState, plies: int) -> bool:
        return plies >= self.horizon or state.phase == DEAL or state.round_number != self.root_round

    def rewards(self, state: TripleDominoState) -> list[float]:
        outcome = state.outcome()
        if outcome is not None and outcome.winners:
            return [1.0 / len(outcome.winners) if p in outcome.winners else 0.0 for p in self.players]
        round_over = state.phase == DEAL or state.round_number != self.root_round or outcome is not None
        gains = []
        for seat, p in enumerate(state.points):
            gain = p - self.root_points[seat]
            if not round_over:
                gain -= hand_liability(state.hands[seat])
            gains.append(gain)
        out = []
        for seat, g in enumerate(gains):
            best_other = max((x for s, x in enumerate(gains) if s != seat), default=0.0)
            out.append(_logistic((g - best_other) / self.scale))
        return out

    def readable(self, value: float, state: Any) -> tuple[float | None, float | None]:
        return value, None


def _logistic(x: float) -> float:
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))
