"""What the sage-stones players know: the race to place every stone, and the sandwiches.

A seat wins by having all its stones on the board at once, so a seat's standing
is the number of stones it still holds; each seat's share of exp(-λ·held) is its
chance in the race, and a player's value is the sum over its seats (values are
win chances: they add up to 1). Captures come from the rules' previews
(`state.captures`, `state.capture_chances`) without playing the move, so the last
ply of a search costs little.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...games.sage_stones import COLUMN_OF as COLUMN_OF_POCKET
from ...games.sage_stones import PASS, ROLLS, Place, SageStonesState, Wipe

RACE = 0.55
"""λ: how much one stone more in hand lowers a seat's chance (tuned on greedy self-play)."""


def _column_chances() -> dict[int, float]:
    """How likely a roll sends a stone to each column, from the rules' table of rolls (1-2-3 loses the
    turn: 6/27 goes nowhere)."""
    chance: dict[int, float] = {}
    for roll, share in ROLLS:
        if not roll.loses_turn:
            chance[roll.total] = chance.get(roll.total, 0.0) + share
    return chance


COLUMN_CHANCE = _column_chances()
DISCOUNT = (1.0, 0.6, 0.4, 0.3, 0.25, 0.2)
"""Weight of a capture chance by how many seats come before it (later ones may never happen)."""


class SageKnowledge:
    """Vector knowledge (one win chance per player) for the greedy and expectimax players."""

    def __init__(self, state: SageStonesState, race: float = RACE, threats: bool = False) -> None:
        self.players = state.players
        self.owner_index = tuple(self.players.index(o) for o in state.owners)
        self.race = race
        self.threats = threats
        # the expectimax hook; the threat evaluation needs the board after the move, so it plays it instead
        self.leaf_values: Callable[[SageStonesState], list[tuple[float, ...]]] | None = (
            None if threats else self._leaf_values
        )
        self.weights = [math.exp(-race * d) for d in range(state.options.stones_per_colour + 2)]

    def _vector(self, supply: list[int]) -> tuple[float, ...]:
        weights = self.weights
        w = [weights[d] if d < len(weights) else 0.0 for d in supply]
        total = sum(w)
        v = [0.0] * len(self.players)
        for seat, x in enumerate(w):
            v[self.owner_index[seat]] += x / total
        return tuple(v)

    def terminal(self, state: SageStonesState) -> tuple[float, ...] | None:
        outcome = state.outcome()
        if outcome is None:
            return None
        v = [0.0] * len(self.players)
        if outcome.places:  # played on for places: each place a share, first the most, last none
            n = len(outcome.places)
            for rank, player in enumerate(outcome.places):
                v[self.players.index(player)] = (n - 1 - rank) / (n * (n - 1) / 2)
        else:
            for player in outcome.winners:
                v[self.players.index(player)] = 1.0 / len(outcome.winners)
        return tuple(v)

    def evaluate(self, state: SageStonesState) -> tuple[float, ...]:
        if not self.threats:
            return self._vector(state.supply)
        return self._with_threats(state)

    def _with_threats(self, state: SageStonesState) -> tuple[float, ...]:
        """The race value plus, for each seat in turn order, its expected best capture next turn."""
        supply = state.supply
        base = self._vector(supply)
        chances = state.capture_chances()
        if not chances:
            return base
        board = state.board
        # Best capture per (seat, column) for the seat's owner.
        best: dict[tuple[int, int], tuple[float, tuple[float, ...]]] = {}
        for (seat, e), taken in chances.items():
            after = list(supply)
            for k in set(taken):
                after[board[k]] += 1
            v = self._vector(after)
            owner = self.owner_index[seat]
            gain = v[owner] - base[owner]
            key = (seat, COLUMN_OF_POCKET[e])
            if key not in best or gain > best[key][0]:
                best[key] = (gain, v)
        total = list(base)
        seats = len(supply)
        for (seat, column), (gain, v) in best.items():
            if gain <= 0:
                continue
            weight = COLUMN_CHANCE[column] * DISCOUNT[(seat - state.seat) % seats]
            for i in range(len(total)):
                total[i] += weight * (v[i] - base[i])
        return tuple(total)

    def _after(self, state: SageStonesState, move: Any) -> tuple[float, ...]:
        seat = state.seat
        if isinstance(move, Place):
            supply = list(state.supply)
            supply[seat] -= 1
            if supply[seat] == 0:
                v = [0.0] * len(self.players)
                v[self.owner_index[seat]] = 1.0
                return tuple(v)
            board = state.board
            for k in state.captures(move.pocket, seat):
                supply[board[k]] += 1
            return self._vector(supply)
        if isinstance(move, Wipe):
            return self._vector([state.options.stones_per_colour] * len(state.supply))
        return self._vector(state.supply)

    def _leaf_values(self, state: SageStonesState) -> list[tuple[float, ...]]:
        return [self._after(state, m) for m in state.legal_moves()]

    def ordered_moves(self, state: SageStonesState) -> list[Any]:
        moves = list(state.legal_moves())
        if len(moves) < 2 or not isinstance(moves[0], Place):
            return moves
        me = self.owner_index[state.seat]
        scored = [(self._after(state, m)[me], i, m) for i, m in enumerate(moves)]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [m for _, _, m in scored]

    def chance(self, state: SageStonesState) -> list[tuple[Any, float]]:
        return state.chance_outcomes()

    def readable(self, value: float, state: SageStonesState) -> tuple[float, float | None]:
        return value, None


__all__ = ["SageKnowledge", "PASS"]
