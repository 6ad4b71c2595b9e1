"""UCT Monte Carlo tree search with uniformly random playouts: an opponent that knows no game.

The textbook algorithm (Kocsis and Szepesvári's UCB1 applied to trees), for any
engine game through its public API only: `legal_moves`, `push_unchecked`, `pop`,
`outcome`, `sample_chance` and, for a view that hides something, `determinize`.

- Chance (a roll, a draw) is sampled with the player's own generator on every
  descent, never read from the game's seed, and the tree keeps decisions only.
- Hidden information: every iteration starts from a fresh `determinize` of the
  view (the unseen tiles dealt at random), and all of them share one tree.
- Rewards: a playout runs to the end of the game; each winner gets 1/len(winners),
  a draw 1/n to everyone. A playout cut short (at `MAX_PLAYOUT_PLIES`, or when the
  budget runs out inside it: a random game of rings takes seconds) scores by the
  points on the board (the leaders share the reward).
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.ai import Budget
from engine.core import CHANCE

from .deadline import Deadline

EXPLORATION = math.sqrt(2)  # UCB1's constant for rewards in [0, 1]
MAX_PLAYOUT_PLIES = 1_000  # a random playout of morris can wander; past this the points decide
PLAYOUT_CHECK = 4  # look at the clock every few playout plies (a ply of rings takes milliseconds)


class Node:
    __slots__ = ("mover", "visits", "reward", "children")

    def __init__(self, mover: str | None) -> None:
        self.mover = mover  # the player whose move led here (gets this node's reward)
        self.visits = 0
        self.reward = 0.0
        self.children: dict[Any, Node] = {}


def rewards(state: Any) -> dict[str, float]:
    """One reward per player at the end of a playout: the winners share 1."""
    outcome = state.outcome()
    if outcome is not None:
        winners = outcome.winners or state.players
    else:
        scores = state.scores()
        best = max(scores.values())
        winners = tuple(p for p, s in scores.items() if s == best)
    return {p: (1.0 / len(winners) if p in winners else 0.0) for p in state.players}


class UCTPlayer:
    """UCT over decisions, random playouts to the end; deterministic for a seed under a node budget."""

    def __init__(self, seed: int = 0, exploration: float = EXPLORATION, playout_plies: int = MAX_PLAYOUT_PLIES) -> None:
        self.seed = seed
        self.exploration = exploration
        self.playout_plies = playout_plies
        self.iterations = 0  # how many playouts the last choice ran

    def choose(self, view: Any, budget: Budget | None = None) -> Any:
        moves = list(view.legal_moves())
        self.iterations = 0
        if len(moves) == 1:
            return moves[0]
        deadline = Deadline(budget)
        rng = random.Random(f"uct/{self.seed}/{view.ply}")
        root = Node(None)
        determinize = getattr(view, "determinize", None)
        while True:
            deadline.nodes += 1
            state = determinize(rng) if determinize is not None else view.copy()
            self._iterate(state, root, rng, deadline)
            self.iterations = deadline.nodes
            if deadline.expired():
                break
        return max(root.children.items(), key=lambda item: item[1].visits)[0]

    def _iterate(self, state: Any, root: Node, rng: random.Random, deadline: Deadline) -> None:
        node, path = root, [root]
        while not state.is_over():  # selection and expansion
            if state.current_player == CHANCE:
                state.push_unchecked(state.sample_chance(rng))
                continue
            moves = list(state.legal_moves())
            untried = [m for m in moves if m not in node.children]
            if untried:
                move = rng.choice(untried)
                child = node.children[move] = Node(state.current_player)
                state.push_unchecked(move)
                path.append(child)
                break
            move = self._select(node, moves)
            state.push_unchecked(move)
            node = node.children[move]
            path.append(node)
        plies = 0
        while not state.is_over() and plies < self.playout_plies:  # the random playout
            if plies % PLAYOUT_CHECK == PLAYOUT_CHECK - 1 and deadline.expired():
                break
            if state.current_player == CHANCE:
                state.push_unchecked(state.sample_chance(rng))
            else:
                state.push_unchecked(rng.choice(list(state.legal_moves())))
                plies += 1
        reward = rewards(state)
        for visited in path:
            visited.visits += 1
            if visited.mover is not None:
                visited.reward += reward[visited.mover]

    def _select(self, node: Node, moves: list[Any]) -> Any:
        """UCB1 among the moves legal in this determinization (all have been tried)."""
        log_parent = math.log(node.visits)
        c = self.exploration
        return max(
            moves,
            key=lambda m: node.children[m].reward / node.children[m].visits
            + c * math.sqrt(log_parent / node.children[m].visits),
        )
