"""triple-domino: lay triangular tiles whose corners match, score their value and bonuses.

The set has 56 tiles, one for every multiset {a, b, c} of the numbers 0-5, printed
clockwise in non-decreasing order (so 0-1-2 exists and 0-2-1 does not); a tile's
value is a + b + c. Hands: 10 tiles each for 2 players, 8 for 3-4, 6 for 5-6; the
rest lie face down in the pool. The player with the highest triple (a-a-a) opens
the round with it, else the one with the highest-value tile; that scores the
value + 5, and play goes on clockwise (in seat order p1, p2, ...) from the opener.

A tile is laid on the triangular grid so that it shares at least one whole edge
with a laid tile, both numbers of every shared edge match, and every corner it
touches (also where tiles meet only at a point) shows the same number as the
tiles already there. It scores its value plus: bridge 30 (one matched edge, the
opposite corner touches a laid tile), double connection 25 (two matched edges),
hexagon 40 (option 50) for closing the six tiles around a point, which replaces
the double connection. A player who cannot or will not lay draws up to three
tiles, -5 each, and may lay the tile just drawn if it fits; after the third draw
the turn passes. With the pool empty a player who cannot lay passes at -5 (option
-10). Laying the last tile ends the round: +20 and the values left in every
other hand. A blocked round (pool empty, nobody can lay) gives the lowest hand
the other hands' values less its own, no +20. The game ends at the end of a
round in which someone reaches 300 (option); the highest total wins.

Grid (SPEC section 3 leaves it to the engine; it is the rings lattice, see
`grid.py`): up triangles `U{q},{r}` and down triangles `D{q},{r}`, corners numbered
0, 1, 2 clockwise from the apex. A rotation `rK` puts the tile's first (smallest)
number on corner K, so corner i shows the tile's number (i - K) mod 3. A triple
has only `r0`. The round's first tile lies on `U0,0` in rotation r0.

Moves (one decision each; chance moves by CHANCE in between):
    deal 0-0-1,...|1-2-3,...      chance: the hands in seat order (solitaire: `deal ... start 2-3-3`)
    lay 1-2-3 @ D0,0 r2           lay a tile (the opener's move is `lay T @ U0,0 r0`)
    draw                          take a tile from the pool (-5)
    draw 1-2-3                    chance: the tile that came out of the pool (uniform)
    pass                          end the turn without laying

Decisions where the rule book is silent or ambiguous (options where a table may differ):
- The opening tile is forced: after the deal the opener's only legal move is to lay
  it on U0,0 r0 (so the opener is visibly the one who lays and scores it). Equal
  values are broken by the higher numbers (5-5-3 before 4-4-5).
- After drawing, only the tile just drawn may be laid ("it may be played
  immediately"); option `lay_after_draw`: "drawn" (any tile drawn this turn) or
  "any" (any tile in hand). A player may draw again instead of laying a drawn tile
  that fits. `pass` is legal after the third draw (free) or when no draw is
  possible (the empty-pool penalty); never at the start of a turn while drawing is
  possible.
- With an empty pool at the start of a turn, a player who can lay must lay (a
  refusal would need a draw, which is impossible); otherwise rounds could stall.
- The blocked round is detected when a turn begins: the pool is empty (solitaire:
  no draw possible) and no player can lay any tile; it is scored at once, without
  further pass penalties.
- Bridge: exactly one edge matched and the corner opposite it touches a laid tile.
  Double connection: two or three edges matched. A tile closing a hexagon gets
  the hexagon bonus instead of the double connection; closing two hexagons at once
  scores the bonus for each (option `multi_hexagon`: "once"). Bridges never
  combine with either (a bridge has one matched edge, the others need two).
- Blocked round, several hands equally lowest: each of them receives the sum of
  all other hands and loses its own (option `blocked_tie`: "none" = nobody scores).
- Penalties are scored when they happen: -5 on each `draw` decision, the
  empty-pool penalty on the `pass` that it forces. Every score change is logged
  (round, player, points, reason); changes of 0 points (the 0-0-0 tile) are not.
- Players are named p1..p6 in clockwise seat order (the tiles have no colours).
- Solitaire (players=1): one round. A random start tile is laid by the deal (it
  scores nothing: nobody laid it), the hand has `solitaire_hand_size` tiles (10),
  at most `solitaire_draw_limit` draws in all (20; 0 = no limit). Draw penalties
  and bonuses are as in the full game; when no draw is possible the draw limit acts
  like an empty pool. The game ends when the hand is empty (+20) or the player
  cannot go on (no lay, no draw: scored like a blocked round, i.e. minus the hand).

Hidden information: `view(player)` is a `TripleDominoView` holding only what that
player sees (own hand, other hands' sizes, pool size, the layout, scores and the
public history, where others' draws read `draw ?`); `determinize(rng)` deals the
unseen tiles at random into a full state for search.

Position JSON (no vision; `cells` stays empty since the grid is unbounded): see
`position.py`. `score_position` needs only `game` (its scores are the totals, its
items the score log).

For the UI: `state.placements(tile)`, `open_positions()`, `required_corners(pos)`,
`layout_tiles()` (corners with cartesian points and numbers), `last_score_items`,
`score_items`, `round_number`; module functions `triangle_vertices(pos)`,
`tile_for_corners(numbers)`, `parse_tile`, `position_name`.

The package, by concern: `tiles` (the set, and which tiles fit given corners),
`grid` (triangles, names, points), `options`, `moves` (moves and notation),
`state` (the rules, scoring, undo), `text` (the layout drawn for the terminal),
`view` (one player's view, determinized for search), `position` (reading a
position JSON), `game` (the Game object).
"""

from .game import GAME, TripleDomino
from .grid import (
    CORNERS,
    LIMIT,
    NEIGHBOURS,
    OFFSET,
    ORIGIN,
    SQRT3_2,
    STRIDE,
    parse_position_name,
    point_xy,
    position_name,
    triangle_coords,
    triangle_id,
    triangle_vertices,
)
from .moves import DRAW, PASS, Deal, Draw, Drawn, Lay, Move, Pass, parse_move
from .options import HAND_SIZES, TripleDominoOptions, hand_size
from .position import read_layout, read_scores
from .state import (
    BRIDGE_BONUS,
    DEAL,
    DOUBLE_BONUS,
    DRAW_PENALTY,
    DRAWING,
    LAST_TILE_BONUS,
    MAX_DRAWS,
    OVER,
    PHASES,
    PLAY,
    START_BONUS,
    LogEntry,
    TripleDominoState,
    opener,
)
from .text import draw_layout
from .tiles import (
    ALL_TILES,
    CORNER_NUMBERS,
    IS_TRIPLE,
    MATCHES,
    ROTATIONS,
    START_KEY,
    TILE_COUNT,
    TILE_INDEX,
    TILE_NAMES,
    TILE_REASONS,
    TILE_VALUES,
    TILES,
    parse_tile,
    tile_for_corners,
    tile_name,
)
from .view import TripleDominoView

__all__ = [
    "ALL_TILES",
    "BRIDGE_BONUS",
    "CORNERS",
    "CORNER_NUMBERS",
    "DEAL",
    "DOUBLE_BONUS",
    "DRAW",
    "DRAWING",
    "DRAW_PENALTY",
    "Deal",
    "Draw",
    "Drawn",
    "GAME",
    "HAND_SIZES",
    "IS_TRIPLE",
    "LAST_TILE_BONUS",
    "LIMIT",
    "Lay",
    "LogEntry",
    "MATCHES",
    "MAX_DRAWS",
    "Move",
    "NEIGHBOURS",
    "OFFSET",
    "ORIGIN",
    "OVER",
    "PASS",
    "PHASES",
    "PLAY",
    "Pass",
    "ROTATIONS",
    "SQRT3_2",
    "START_BONUS",
    "START_KEY",
    "STRIDE",
    "TILES",
    "TILE_COUNT",
    "TILE_INDEX",
    "TILE_NAMES",
    "TILE_REASONS",
    "TILE_VALUES",
    "TripleDomino",
    "TripleDominoOptions",
    "TripleDominoState",
    "TripleDominoView",
    "draw_layout",
    "hand_size",
    "opener",
    "parse_move",
    "parse_position_name",
    "parse_tile",
    "point_xy",
    "position_name",
    "read_layout",
    "read_scores",
    "tile_for_corners",
    "tile_name",
    "triangle_coords",
    "triangle_id",
    "triangle_vertices",
]
