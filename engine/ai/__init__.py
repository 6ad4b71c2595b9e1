"""Computer opponents for every game: `get_player(game, level, seed).choose(view, budget)`.

    from engine.ai import Budget, get_player, suggest
    player = get_player("morris", "hard", seed=1)
    move = player.choose(state.view(state.current_player), Budget(seconds=1.0))
    hint = suggest(state.view(state.current_player))       # Analysis: move, win chance / margin, text

A player only ever sees a view (`state.view(player)`): in triple-domino that hides
the other hands and the pool, and the search deals the unseen tiles itself.
Budgets are seconds (default 1 s) and/or nodes; with a node budget and a seed the
choice is the same on every machine. Levels: random, easy, medium, hard (see
`levels.py`, the one table of who plays what).
"""

from __future__ import annotations

from typing import Any

from .base import DEFAULT_BUDGET, Analysis, Budget, Player, RandomPlayer
from .levels import LEVELS, get_player, levels_of

__all__ = [
    "Analysis",
    "Budget",
    "DEFAULT_BUDGET",
    "LEVELS",
    "Player",
    "RandomPlayer",
    "get_player",
    "levels_of",
    "suggest",
]


def suggest(view: Any, level: str = "hard", budget: Budget | None = None, seed: int = 0) -> Analysis:
    """A hint for the player to move in `view`: the move the `level` player would choose and its evaluation."""
    return get_player(view.game.id, level, seed).analyse(view, budget or DEFAULT_BUDGET)
