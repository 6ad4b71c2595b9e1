"""Sparring partners for the computer players: opponents built to other designs, outside `engine/ai`.

The levels in `engine/ai` are tested against each other; these players know the
game only through the engine's public API (a view, its legal moves, push and
pop, the position JSON), so a level that beats them is strong against more than
its own kind.

    peer   morris only: a classical alpha-beta program with its own rules and evaluation
    uct    every game: UCT Monte Carlo tree search with random playouts, no game knowledge

`bench/arena.py GAME hard uct` plays them like any level.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from engine.ai import Budget


class SparringPlayer(Protocol):
    def choose(self, view: Any, budget: Budget | None = None) -> Any:
        """A legal move for the player to move in `view`, found within `budget`."""


def _peer(game_id: str, seed: int) -> SparringPlayer:
    from .morris_peer import MorrisPeer

    if game_id != "morris":
        raise ValueError(f"the alpha-beta peer plays morris only, not {game_id!r}")
    return MorrisPeer(seed)


def _uct(game_id: str, seed: int) -> SparringPlayer:
    from .uct import UCTPlayer

    return UCTPlayer(seed)


SPARRING: dict[str, Callable[[str, int], SparringPlayer]] = {"peer": _peer, "uct": _uct}


def sparring_player(game_id: str, name: str, seed: int = 0) -> SparringPlayer:
    """The sparring player `name` (peer, uct) for `game_id`, deterministic for a seed under a node budget."""
    if name not in SPARRING:
        raise ValueError(f"unknown sparring player {name!r} (players: {', '.join(SPARRING)})")
    return SPARRING[name](game_id, seed)
