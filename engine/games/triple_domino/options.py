"""The table's rule options, and the hand size they give."""

from __future__ import annotations

import dataclasses

from ...core import RuleOptions, option
from .tiles import TILE_COUNT

HAND_SIZES = {2: 10, 3: 8, 4: 8, 5: 6, 6: 6}  # tiles dealt to each player, by the number of players


@dataclasses.dataclass(frozen=True)
class TripleDominoOptions(RuleOptions):
    game_id = "triple-domino"
    players: int = option(2, "number of players; 1 = solitaire", minimum=1, maximum=6)
    target_score: int = option(
        300, "the game ends after the round in which someone reaches this score", minimum=1, maximum=10_000
    )
    hexagon_bonus: int = option(
        40, "bonus for closing a hexagon (40 in every bonus table, 50 in the prose)", choices=(40, 50)
    )
    empty_pool_penalty: int = option(
        5, "penalty for having to draw from an empty pool (the German text says 10)", choices=(5, 10)
    )
    lay_after_draw: str = option(
        "last",
        "after drawing, which tiles may be laid: last = the tile just drawn, "
        "drawn = any tile drawn this turn, any = any tile in hand",
        choices=("last", "drawn", "any"),
    )
    multi_hexagon: str = option(
        "each", "a tile closing two hexagons scores the bonus for each, or once", choices=("each", "once")
    )
    blocked_tie: str = option(
        "all", "blocked round with several lowest hands: all of them score, or none", choices=("all", "none")
    )
    solitaire_hand_size: int = option(10, "tiles in the solitaire hand", minimum=1, maximum=40)
    solitaire_draw_limit: int = option(
        20, "draws allowed in a whole solitaire game (0 = no limit)", minimum=0, maximum=TILE_COUNT
    )


def hand_size(options: TripleDominoOptions) -> int:
    return options.solitaire_hand_size if options.players == 1 else HAND_SIZES[options.players]
