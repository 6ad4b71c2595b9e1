"""Every game's levels in one place: which player plays `easy`, `medium`, `hard` (and `random`).

easy    a beginner: one move deep, noisy, sometimes careless
medium  solid: a shallow search with the game's evaluation
hard    strong: the full search the game suits, as deep as the budget allows
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from .base import Player, RandomPlayer

LEVELS = ("random", "easy", "medium", "hard")

Factory = Callable[[int], Player]


# Morris hard: quiet moves of the moving phase after the first three are searched a ply shallower first
# (late-move reductions); placements never are (MorrisKnowledge.reducible).
MORRIS_REDUCE_AFTER = 3
# Morris hard: each iteration first searched within 0.6 of a piece of the last one's value. The
# placing's values move by about that from one depth to the next; a third of a piece failed so often
# that the windows cost more nodes than none (36 placing positions of games lost to the peer, to depth 6).
MORRIS_ASPIRATION = 60.0
# Morris hard keeps more of its table between moves: the placing's positions recur move after move.
MORRIS_TABLE_LIMIT = 1_000_000


def _morris() -> dict[str, Factory]:
    from .games import morris as m
    from .players import AlphaBetaPlayer, GreedyPlayer, VectorView

    def easy(seed: int) -> Player:
        k = m.MorrisKnowledge(m.MEDIUM_WEIGHTS)
        return GreedyPlayer(
            "morris", seed, "easy", lambda s: VectorView(k, s.players), noise=40, blunder=0.25, win_chance=k.win_chance
        )

    def medium(seed: int) -> Player:
        k = m.MorrisKnowledge(m.MEDIUM_WEIGHTS)
        return AlphaBetaPlayer("morris", seed, "medium", k, max_depth=2, win_chance=k.win_chance)

    def hard(seed: int) -> Player:
        k = m.MorrisKnowledge(m.HARD_WEIGHTS, quiescence=True)
        return AlphaBetaPlayer(
            "morris",
            seed,
            "hard",
            k,
            max_depth=40,
            win_chance=k.win_chance,
            reduce_after=MORRIS_REDUCE_AFTER,
            aspiration=MORRIS_ASPIRATION,
            table_limit=MORRIS_TABLE_LIMIT,
        )

    return {"easy": easy, "medium": medium, "hard": hard}


def _three_stones() -> dict[str, Factory]:
    from .games import three_stones as t
    from .players import AlphaBetaPlayer, ChoosePlayer, ExpectimaxPlayer, GreedyPlayer

    def by_mode(level: str, seed: int, pouch: Player, skill: Player) -> Player:
        return ChoosePlayer("three-stones", seed, level, lambda view: pouch if view.options.mode == "pouch" else skill)

    def easy(seed: int) -> Player:
        k = t.ThreeStonesKnowledge("points")
        player = GreedyPlayer("three-stones", seed, "easy", lambda s: k, noise=0.6, blunder=0.3)
        return by_mode("easy", seed, player, player)

    def medium(seed: int) -> Player:
        k = t.ThreeStonesKnowledge("simple")
        player = GreedyPlayer("three-stones", seed, "medium", lambda s: k)
        return by_mode("medium", seed, player, player)

    def hard(seed: int) -> Player:
        k = t.ThreeStonesKnowledge()
        pouch = ExpectimaxPlayer("three-stones", seed, "hard", lambda s: k, max_depth=4, beam=6)
        skill = AlphaBetaPlayer("three-stones", seed, "hard", t.ThreeStonesNegamax(k), max_depth=12)
        skill.search.use_table = False
        return by_mode("hard", seed, pouch, skill)

    return {"easy": easy, "medium": medium, "hard": hard}


def _sage_stones() -> dict[str, Factory]:
    from .games import sage_stones as g
    from .players import ExpectimaxPlayer, GreedyPlayer

    def easy(seed: int) -> Player:
        return GreedyPlayer("sage-stones", seed, "easy", g.SageKnowledge, noise=0.15, blunder=0.4)

    def medium(seed: int) -> Player:
        return GreedyPlayer("sage-stones", seed, "medium", g.SageKnowledge)

    def hard(seed: int) -> Player:
        return ExpectimaxPlayer("sage-stones", seed, "hard", lambda s: g.SageKnowledge(s, threats=True), max_depth=2)

    return {"easy": easy, "medium": medium, "hard": hard}


def _rings() -> dict[str, Factory]:
    from .games import rings as g
    from .selective import SelectivePlayer

    def easy(seed: int) -> Player:
        return SelectivePlayer(
            "rings", seed, "easy", lambda s: g.RingsKnowledge(s, reply_conversions=False), noise=1.0, blunder=0.2
        )

    def medium(seed: int) -> Player:
        return SelectivePlayer("rings", seed, "medium", g.RingsKnowledge)

    def hard(seed: int) -> Player:
        return SelectivePlayer("rings", seed, "hard", g.RingsKnowledge, depth=2, width=64)

    return {"easy": easy, "medium": medium, "hard": hard}


def _triple_domino() -> dict[str, Factory]:
    from .games import triple_domino as g
    from .players import GreedyPlayer, MCTSPlayer

    def easy(seed: int) -> Player:
        return GreedyPlayer("triple-domino", seed, "easy", g.DominoKnowledge, noise=12.0, blunder=0.3)

    def medium(seed: int) -> Player:
        return GreedyPlayer("triple-domino", seed, "medium", g.DominoKnowledge)

    def hard(seed: int) -> Player:
        return MCTSPlayer("triple-domino", seed, "hard", g.DominoKnowledge)

    return {"easy": easy, "medium": medium, "hard": hard}


_BUILDERS: dict[str, Callable[[], dict[str, Factory]]] = {
    "triple-domino": _triple_domino,
    "rings": _rings,
    "sage-stones": _sage_stones,
    "morris": _morris,
    "three-stones": _three_stones,
}
_CACHE: dict[str, dict[str, Factory]] = {}


def levels_of(game_id: str) -> dict[str, Factory]:
    """The level factories of one game (random included)."""
    if game_id not in _CACHE:
        if game_id not in _BUILDERS:
            raise ValueError(f"no computer players for {game_id!r}")
        table: dict[str, Factory] = {"random": partial(RandomPlayer, game_id)}
        table.update(_BUILDERS[game_id]())
        _CACHE[game_id] = table
    return _CACHE[game_id]


def get_player(game_id: str, level: str = "medium", seed: int = 0) -> Player:
    """A computer player for `game_id` at `level` (random, easy, medium, hard), deterministic for a seed."""
    table = levels_of(game_id)
    if level not in table:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return table[level](seed)
