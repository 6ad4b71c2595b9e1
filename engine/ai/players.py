"""The kinds of player, each built from a generic search and a game's knowledge.

- `GreedyPlayer`: one move deep with the game's evaluation; noise and a blunder
  rate make the easy levels beatable.
- `AlphaBetaPlayer`: iterative-deepening negamax (two players, no chance).
- `ExpectimaxPlayer`: expectimax over draws and rolls, any number of players.
- `MCTSPlayer`: Monte Carlo tree search (`mcts.py`), information-set MCTS on hidden views.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ..core import CHANCE
from .alphabeta import TABLE_LIMIT, WON, AlphaBeta, NegamaxKnowledge
from .base import Analysis, Clock, OutOfBudget, Player, legal_moves, logistic
from .expectimax import Expectimax, Vector

WinChance = Callable[[float], float]


class VectorView:
    """Turns a two-player negamax knowledge (values for the side to move) into per-player vectors."""

    def __init__(self, knowledge: NegamaxKnowledge, players: Sequence[str]) -> None:
        self.k = knowledge
        self.players = tuple(players)

    def _vector(self, state: Any, value: float) -> Vector:
        return (value, -value) if self.players.index(state.current_player) == 0 else (-value, value)

    def terminal(self, state: Any) -> Vector | None:
        value = self.k.terminal(state, 1)
        return None if value is None else self._vector(state, value)

    def evaluate(self, state: Any) -> Vector:
        return self._vector(state, self.k.evaluate(state))

    def ordered_moves(self, state: Any) -> list[Any]:
        return self.k.ordered_moves(state)


class GreedyPlayer(Player):
    """Plays each move, evaluates the result, keeps the best.

    `noise` (in evaluation units) blurs the judgement; with probability `blunder`
    the move is simply random: a player a beginner can beat.
    """

    def __init__(
        self,
        game_id: str,
        seed: int,
        level: str,
        knowledge_for: Callable[[Any], Any],
        noise: float = 0.0,
        blunder: float = 0.0,
        win_chance: WinChance | None = None,
        margin: bool = False,
    ) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.knowledge_for = knowledge_for
        self.noise = noise
        self.blunder = blunder
        self.win_chance = win_chance
        self.margin = margin

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        state = own_state(view, rng)
        k = self.knowledge_for(state)
        me = list(k.players).index(player)
        moves = k.ordered_moves(state)
        if not moves:
            moves = legal_moves(state)
        if self.blunder and rng.random() < self.blunder:
            clock.tick()
            hunch = rng.choice(moves)
            return Analysis(hunch, player, text=f"{player}: {hunch} (a hunch)")
        best_move, best_value, best_raw = moves[0], float("-inf"), 0.0
        for move in moves:
            try:
                clock.tick()
            except OutOfBudget:
                break
            state.push_unchecked(move)
            try:
                vector = k.terminal(state)
                if vector is None:
                    vector = k.evaluate(state)
            finally:
                state.pop()
            raw = vector[me]
            value = raw + (rng.gauss(0.0, self.noise) if self.noise else 0.0)
            if value > best_value:
                best_move, best_value, best_raw = move, value, raw
        analysis = Analysis(best_move, player, depth=1)
        readable(analysis, k, best_raw, state, self.win_chance, self.margin)
        return analysis


class AlphaBetaPlayer(Player):
    """Iterative-deepening alpha-beta to `max_depth` (or as deep as the budget allows)."""

    def __init__(
        self,
        game_id: str,
        seed: int,
        level: str,
        knowledge: NegamaxKnowledge,
        max_depth: int,
        win_chance: WinChance | None = None,
        margin_of: Callable[[float], float] | None = None,
        blunder: float = 0.0,
        reduce_after: int | None = None,
        aspiration: float | None = None,
        table_limit: int = TABLE_LIMIT,
    ) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.search = AlphaBeta(
            knowledge, max_depth=max_depth, reduce_after=reduce_after, aspiration=aspiration, table_limit=table_limit
        )
        self.win_chance = win_chance or (lambda v: logistic(v / 200))
        self.margin_of = margin_of
        self.blunder = blunder

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        state = view.copy()
        if self.blunder and rng.random() < self.blunder:
            moves = legal_moves(state)
            return Analysis(rng.choice(moves), player)
        result = self.search.search(state, clock, rng)
        analysis = Analysis(result.move, player, depth=result.depth, line=result.line)
        readable(analysis, self.search.k, result.value, state, self.win_chance, False)
        if self.margin_of is not None and abs(result.value) < WON:
            analysis.margin = self.margin_of(result.value)
        if abs(result.value) >= WON:
            plies = int(1_000_000 - abs(result.value))
            outcome = "wins" if result.value > 0 else "loses"
            analysis.text = (
                f"{player}: best move {result.move}; {player} {outcome} by force in {(plies + 1) // 2} move(s)"
            )
        return analysis


class ExpectimaxPlayer(Player):
    """Expectimax over the chance moves to `max_depth` decisions, searching the `beam` best replies."""

    def __init__(
        self,
        game_id: str,
        seed: int,
        level: str,
        knowledge_for: Callable[[Any], Any],
        max_depth: int,
        beam: int | None = None,
        win_chance: WinChance | None = None,
        margin: bool = False,
    ) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.knowledge_for = knowledge_for
        self.max_depth = max_depth
        self.beam = beam
        self.win_chance = win_chance
        self.margin = margin

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        state = view.copy()
        k = self.knowledge_for(state)
        result = Expectimax(k, self.max_depth, self.beam).search(state, clock, rng)
        me = list(k.players).index(player)
        value = result.values[me]
        analysis = Analysis(result.move, player, depth=result.depth)
        readable(analysis, k, value, state, self.win_chance, self.margin)
        return analysis


class ChoosePlayer(Player):
    """Picks one of several players by the position (e.g. a rule option such as the game mode)."""

    def __init__(self, game_id: str, seed: int, level: str, pick: Callable[[Any], Player]) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.pick = pick

    def analyse(self, view: Any, budget: Any = None) -> Analysis:
        return self.pick(view).analyse(view, budget)

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:  # pragma: no cover
        raise NotImplementedError


def own_state(view: Any, rng: random.Random) -> Any:
    """A private state to search: a copy of a full view, or a random deal of what a hidden view cannot see."""
    determinize = getattr(view, "determinize", None)
    return determinize(rng) if determinize is not None else view.copy()


class MCTSPlayer(Player):
    """Monte Carlo tree search (information-set MCTS on a view that hides something)."""

    def __init__(
        self,
        game_id: str,
        seed: int,
        level: str,
        knowledge_for: Callable[[Any], Any],
        exploration: float = 0.7,
        max_iterations: int | None = None,
    ) -> None:
        super().__init__(game_id, seed)
        self.level = level
        self.knowledge_for = knowledge_for
        self.exploration = exploration
        self.max_iterations = max_iterations

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        from .mcts import MCTS

        k = self.knowledge_for(view)
        moves = legal_moves(view)
        if len(moves) == 1:
            clock.tick()
            return Analysis(moves[0], player, text=f"{player}: {moves[0]} (the only move)")
        result = MCTS(k, self.exploration, self.max_iterations).search(view, clock, rng)
        analysis = Analysis(result.move, player, depth=None)
        analysis.win_chance, analysis.margin = k.readable(result.value, view)
        analysis.text = (
            f"{player}: best move {result.move}, about {round(100 * result.value)}% "
            f"(share of {result.iterations} simulated continuations)"
        )
        return analysis


def readable(
    analysis: Analysis, knowledge: Any, value: float, state: Any, win_chance: WinChance | None, margin: bool
) -> None:
    """Fill the analysis's win chance / margin: the knowledge's own reading if it has one."""
    if hasattr(knowledge, "readable"):
        analysis.win_chance, analysis.margin = knowledge.readable(value, state)
        return
    if margin:
        analysis.margin = value
    if win_chance is not None:
        analysis.win_chance = win_chance(value)


def is_chance(state: Any) -> bool:
    return state.current_player == CHANCE
