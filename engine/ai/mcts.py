"""Monte Carlo tree search for any game: chance, hidden information, any number of players.

- Open loop: the tree holds decisions only; chance moves (draws, rolls, deals) are
  sampled afresh on every descent, so one node stands for a decision whatever the
  dice said before it.
- Hidden information: when the view offers `determinize(rng)`, every iteration
  starts from a new full state consistent with what the player has seen (the
  unseen tiles dealt at random); the tree is shared over them (information-set
  MCTS). A move that is legal only in some of them is judged by its availability
  count (how often it could have been chosen) instead of the parent's visits.
- Max-n rewards: a playout returns one reward in [0, 1] per player; each node
  keeps the reward of the player who made the move leading to it.

The game supplies the playout policy, where to cut a playout and how to score
it (`MCTSKnowledge`).
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol, Sequence

from ..core import CHANCE
from .base import Clock


class MCTSKnowledge(Protocol):
    players: Sequence[str]

    def playout_move(self, state: Any, moves: list[Any], rng: random.Random) -> Any:
        """A cheap, sensible move for the playout."""

    def cut(self, state: Any, plies: int) -> bool:
        """Stop the playout here (then `rewards` judges the position)."""

    def rewards(self, state: Any) -> Sequence[float]:
        """One reward in [0, 1] per player, at the end of a playout."""

    def expansion_order(self, state: Any, moves: list[Any]) -> list[Any]:
        """The untried moves, most promising first (tried first)."""


class Node:
    __slots__ = ("mover", "children", "visits", "reward", "avail")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


class MCTSResult:
    __slots__ = ("move", "value", "iterations", "children")

    def __init__(self, move: Any, value: float, iterations: int, children: dict[Any, Node]) -> None:
        self.move, self.value, self.iterations, self.children = move, value, iterations, children


class MCTS:
    def __init__(self, knowledge: MCTSKnowledge, exploration: float = 0.7, max_iterations: int | None = None) -> None:
        self.k = knowledge
        self.c = exploration
        self.max_iterations = max_iterations

    def search(self, view: Any, clock: Clock, rng: random.Random) -> MCTSResult:
        k = self.k
        players = list(k.players)
        determinize = getattr(view, "determinize", None)
        base = None if determinize is not None else view.copy()
        me = players.index(view.current_player)
        root = Node(-1)
        root_moves: list[Any] | None = None
        iterations = 0
        while True:
            if self.max_iterations is not None and iterations >= self.max_iterations:
                break
            if iterations and clock.spent():
                break  # the clock is read every iteration: an iteration can take milliseconds
            clock.nodes += 1
            state = determinize(rng) if determinize is not None else base
            pushed = self._iterate(state, root, players, rng)
            if root_moves is None:
                root_moves = list(root.children)
            iterations += 1
            if base is not None:
                for _ in range(pushed):
                    base.pop()
        legal = [m for m in root.children]
        best = max(legal, key=lambda m: (root.children[m].visits, root.children[m].reward))
        node = root.children[best]
        value = node.reward / node.visits if node.visits else 0.5
        del me
        return MCTSResult(best, value, iterations, root.children)

    def _iterate(self, state: Any, root: Node, players: list[str], rng: random.Random) -> int:
        k = self.k
        node = root
        path = [root]
        pushed = 0
        expanded = False
        while not expanded:
            if state.is_over():
                break
            if state.current_player == CHANCE:
                state.push_unchecked(state.sample_chance(rng))
                pushed += 1
                continue
            moves = list(state.legal_moves())
            mover = players.index(state.current_player)
            children = node.children
            untried = []
            for m in moves:
                child = children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
            if untried:
                move = k.expansion_order(state, untried)[0] if len(untried) > 1 else untried[0]
                child = children[move] = Node(mover)
                expanded = True
            else:
                move = self._select(children, moves)
                child = children[move]
            state.push_unchecked(move)
            pushed += 1
            node = child
            path.append(child)
        plies = 0
        while not state.is_over() and not k.cut(state, plies):
            if state.current_player == CHANCE:
                move = state.sample_chance(rng)
            else:
                move = k.playout_move(state, list(state.legal_moves()), rng)
                plies += 1
            state.push_unchecked(move)
            pushed += 1
        rewards = k.rewards(state)
        for n in path[1:]:
            n.visits += 1
            n.reward += rewards[n.mover]
        return pushed

    def _select(self, children: dict[Any, Node], moves: list[Any]) -> Any:
        c = self.c
        best, best_score = moves[0], -1.0
        for m in moves:
            child = children[m]
            score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = m, score
        return best
