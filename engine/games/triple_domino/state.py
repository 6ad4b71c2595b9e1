"""The rules: a round's layout, hands and pool, the legal moves, laying and scoring, undo.

`TripleDominoState` keeps the layout with what search needs at hand: the number on
every used lattice point, how many tiles touch it, and the frontier (empty
triangles sharing an edge with a laid tile). Every score change is logged.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from ...core import CHANCE, IllegalMoveError, Outcome, State, Termination, outcome_by_score, shown
from ...core.state import TIME_FORFEIT
from .grid import (
    CORNERS,
    LIMIT,
    NEIGHBOURS,
    ORIGIN,
    parse_position_name,
    position_name,
    triangle_coords,
    triangle_vertices,
)
from .moves import DRAW, PASS, Deal, Draw, Drawn, Lay, Move, Pass, parse_move
from .options import TripleDominoOptions, hand_size
from .text import draw_layout, label_open
from .tiles import (
    ALL_TILES,
    CORNER_NUMBERS,
    IS_TRIPLE,
    MATCHES,
    ROTATIONS,
    START_KEY,
    TILE_COUNT,
    TILE_NAMES,
    TILE_REASONS,
    TILE_VALUES,
    parse_tile,
)

from .view import TripleDominoView

if TYPE_CHECKING:
    from .game import TripleDomino

START_BONUS = 5
LAST_TILE_BONUS = 20
BRIDGE_BONUS = 30
DOUBLE_BONUS = 25
DRAW_PENALTY = 5
MAX_DRAWS = 3

DEAL, PLAY, DRAWING, OVER = "deal", "play", "draw", "over"
PHASES = (DEAL, PLAY, DRAWING, OVER)

LogEntry = tuple[int, int, int, str]  # (round, seat, points, reason)


class TripleDominoState(State[Move, TripleDominoOptions]):
    move_types = (Lay, Draw, Pass, Drawn, Deal)

    def __init__(self, game: "TripleDomino", options: TripleDominoOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        n = options.players
        self._players = tuple(f"p{i + 1}" for i in range(n))
        self.layout: dict[int, tuple[int, int]] = {}  # triangle → (tile, rotation)
        self.vertex_number: dict[int, int] = {}  # lattice point → the number every tile there shows
        self.vertex_count: dict[int, int] = {}  # lattice point → tiles touching it
        self.frontier: set[int] = set()  # empty triangles sharing an edge with a laid tile
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted
        self.pool: set[int] = set(ALL_TILES)
        self.points: list[int] = [0] * n
        self.score_log: list[LogEntry] = []
        # The turn: everything _scalars() saves for undo.
        self.seat = 0
        self.phase = DEAL
        self.draws = 0
        self.drawn: tuple[int, ...] = ()
        self.start_tile: int | None = None
        self.round_number = 1
        self.solitaire_draws = 0
        self.result: str | None = None

    # ----- turn order ------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def current_player(self) -> str:
        if self.phase in (DEAL, DRAWING):
            return CHANCE
        return self._players[self.seat]

    @property
    def is_solitaire(self) -> bool:
        return len(self._players) == 1

    def _scalars(self) -> tuple:
        return (
            self.seat,
            self.phase,
            self.draws,
            self.drawn,
            self.start_tile,
            self.round_number,
            self.solitaire_draws,
            self.result,
        )

    def _restore(self, saved: tuple) -> None:
        (
            self.seat,
            self.phase,
            self.draws,
            self.drawn,
            self.start_tile,
            self.round_number,
            self.solitaire_draws,
            self.result,
        ) = saved

    def can_draw(self) -> bool:
        """Whether a tile can come from the pool now (solitaire: also within the draw limit)."""
        if not self.pool:
            return False
        limit = self.options.solitaire_draw_limit
        return not (self.is_solitaire and limit and self.solitaire_draws >= limit)

    def seat_of(self, player: str) -> int:
        try:
            return self._players.index(player)
        except ValueError:
            raise IllegalMoveError(
                f"there is no player {shown(player)} (players: {', '.join(self._players)})", rule="player"
            ) from None

    # ----- the layout --------------------------------------------------------------------------
    def _place(self, tile: int, t: int, rotation: int) -> None:
        layout = self.layout
        layout[t] = (tile, rotation)
        numbers = CORNER_NUMBERS[tile][rotation]
        vn, vc = self.vertex_number, self.vertex_count
        for v, n in zip(CORNERS[t], numbers):
            vn[v] = n
            vc[v] = vc.get(v, 0) + 1
        frontier = self.frontier
        frontier.discard(t)
        for nb in NEIGHBOURS[t]:
            if nb not in layout:
                frontier.add(nb)

    def _unplace(self, t: int) -> None:
        layout = self.layout
        del layout[t]
        vn, vc = self.vertex_number, self.vertex_count
        for v in CORNERS[t]:
            left = vc[v] - 1
            if left:
                vc[v] = left
            else:
                del vc[v], vn[v]
        frontier = self.frontier
        for nb in NEIGHBOURS[t]:
            if nb not in layout and not any(x in layout for x in NEIGHBOURS[nb]):
                frontier.discard(nb)
        if any(nb in layout for nb in NEIGHBOURS[t]):
            frontier.add(t)

    def _lays(self, tiles: Iterable[int]) -> Iterator[Lay]:
        """Every legal placement of these tiles on the layout, by position then tile."""
        wanted = set(tiles)
        if not wanted:
            return
        if not self.layout:
            for tile in sorted(wanted):
                for rot in ROTATIONS[tile]:
                    yield Lay(tile, ORIGIN, rot)
            return
        vn = self.vertex_number
        for t in sorted(self.frontier):
            a, b, c = CORNERS[t]
            for tile, rot in MATCHES.get((vn.get(a, -1), vn.get(b, -1), vn.get(c, -1)), ()):
                if tile in wanted:
                    yield Lay(tile, t, rot)

    def can_lay(self, seat: int) -> bool:
        return any(True for _ in self._lays(self.hands[seat]))

    def open_positions(self) -> list[str]:
        """The empty triangles a tile could go on (sharing an edge with the layout)."""
        if not self.layout:
            return [position_name(ORIGIN)]
        return [position_name(t) for t in sorted(self.frontier)]

    def required_corners(self, position: int | str) -> tuple[int | None, int | None, int | None]:
        """The numbers corners 0, 1, 2 of a triangle must show (None: free)."""
        t = parse_position_name(position) if isinstance(position, str) else position
        vn = self.vertex_number
        first, second, third = (vn.get(v) for v in CORNERS[t])
        return (first, second, third)

    def placements(self, tile: int | str) -> list[tuple[str, int]]:
        """Every (position, rotation) where this tile fits the layout now, whoever holds it."""
        tile = parse_tile(tile) if isinstance(tile, str) else tile
        return [(position_name(m.at), m.rotation) for m in self._lays((tile,))]

    def layout_tiles(self) -> list[dict[str, Any]]:
        """The laid tiles for drawing: position, tile, rotation and each corner's point and number."""
        out = []
        for t in sorted(self.layout):
            tile, rot = self.layout[t]
            corners = [
                {"x": x, "y": y, "number": n} for (x, y), n in zip(triangle_vertices(t), CORNER_NUMBERS[tile][rot])
            ]
            out.append({"at": position_name(t), "tile": TILE_NAMES[tile], "rotation": rot, "corners": corners})
        return out

    # ----- moves -----------------------------------------------------------------------------------
    def _lay_candidates(self) -> Iterable[int]:
        if not self.draws:
            return self.hands[self.seat]
        mode = self.options.lay_after_draw
        if mode == "last":
            return self.drawn[-1:]
        if mode == "drawn":
            return self.drawn
        return self.hands[self.seat]

    def _legal_moves(self) -> Iterator[Move]:
        phase = self.phase
        if phase == DEAL:
            yield self.sample_chance()
            return
        if phase == DRAWING:
            for tile in sorted(self.pool):
                yield Drawn(tile)
            return
        if phase != PLAY:
            return
        if self.start_tile is not None:
            yield Lay(self.start_tile, ORIGIN, 0)
            return
        can_lay = False
        for move in self._lays(self._lay_candidates()):
            can_lay = True
            yield move
        can_draw = self.can_draw()
        if self.draws < MAX_DRAWS and can_draw:
            yield DRAW
        if self.draws >= MAX_DRAWS or (not can_draw and (self.draws or not can_lay)):
            yield PASS

    def chance_outcomes(self) -> list[tuple[Move, float]] | None:
        if self.phase == DEAL:
            return None  # too many deals to list: sample_chance shuffles
        if self.phase != DRAWING:
            raise IllegalMoveError("nothing is being dealt or drawn now", rule="chance")
        share = 1 / len(self.pool)
        return [(Drawn(tile), share) for tile in sorted(self.pool)]

    def sample_chance(self, rng: random.Random | None = None) -> Move:
        if self.phase != DEAL:
            return super().sample_chance(rng)
        tiles = list(range(TILE_COUNT))
        (rng or self.chance_rng()).shuffle(tiles)
        size, n = hand_size(self.options), len(self._players)
        hands = tuple(tuple(sorted(tiles[i * size : (i + 1) * size])) for i in range(n))
        return Deal(hands, tiles[size] if n == 1 else None)

    # ----- checking ----------------------------------------------------------------------------------
    def _check(self, move: Move) -> None:
        if isinstance(move, Deal):
            self._check_deal(move)
            return
        if isinstance(move, Drawn):
            if self.phase != DRAWING:
                raise IllegalMoveError(f"{move}: no tile is being drawn now (a player says 'draw' first)", rule="draw")
            if move.tile not in self.pool:
                raise IllegalMoveError(f"{move}: {TILE_NAMES[move.tile]} is not in the pool", rule="pool")
            return
        player = self.current_player
        if self.phase == DEAL:
            raise IllegalMoveError(f"{move}: the tiles of round {self.round_number} must be dealt first", rule="deal")
        if self.phase == DRAWING:
            raise IllegalMoveError(f"{move}: {self._players[self.seat]} is drawing a tile from the pool", rule="draw")
        if isinstance(move, Lay):
            self._check_lay(move, player)
            return
        if self.start_tile is not None and isinstance(move, (Draw, Pass)):
            raise IllegalMoveError(
                f"{move}: {player} opens the round by laying {TILE_NAMES[self.start_tile]} (the start rule)",
                rule="start",
            )
        if isinstance(move, Draw):
            if self.draws >= MAX_DRAWS:
                raise IllegalMoveError(
                    "draw: you have drawn three tiles this turn; lay the last one if it fits, or pass",
                    rule="three draws",
                )
            if not self.pool:
                raise IllegalMoveError(
                    f"draw: the pool is empty; pass (-{self.options.empty_pool_penalty})", rule="empty pool"
                )
            if not self.can_draw():
                raise IllegalMoveError(
                    f"draw: the solitaire draw limit ({self.options.solitaire_draw_limit}) is used up",
                    rule="draw limit",
                )
            return
        if isinstance(move, Pass):
            if self.draws >= MAX_DRAWS:
                return
            if self.can_draw():
                raise IllegalMoveError(
                    "pass: you may pass only after drawing three tiles or when no tile can be drawn;"
                    " lay a tile or draw",
                    rule="pass",
                )
            if not self.draws and self.can_lay(self.seat):
                raise IllegalMoveError(
                    "pass: the pool is empty and you can lay a tile, so you must lay it", rule="must lay"
                )
            return
        raise IllegalMoveError(f"{shown(move)} is not a triple-domino move", rule="notation")

    def _check_deal(self, move: Deal) -> None:
        if self.phase != DEAL:
            raise IllegalMoveError(f"{_short(move)}: tiles are dealt only at the start of a round", rule="deal")
        n, size = len(self._players), hand_size(self.options)
        if len(move.hands) != n:
            raise IllegalMoveError(f"{_short(move)}: deal {n} hand(s), one per player", rule="deal")
        if any(len(hand) != size for hand in move.hands):
            raise IllegalMoveError(f"{_short(move)}: every hand holds {size} tiles", rule="deal")
        dealt = [t for hand in move.hands for t in hand] + ([move.start] if move.start is not None else [])
        if len(set(dealt)) != len(dealt) or not all(0 <= t < TILE_COUNT for t in dealt):
            raise IllegalMoveError(f"{_short(move)}: each tile exists once", rule="deal")
        if (move.start is None) != (n > 1):
            raise IllegalMoveError(f"{_short(move)}: a start tile is turned up in solitaire only", rule="deal")

    def _check_lay(self, move: Lay, player: str) -> None:
        tile, t, rot = move.tile, move.at, move.rotation
        if not (0 <= tile < TILE_COUNT and rot in (0, 1, 2) and isinstance(t, int) and t >= 0):
            raise IllegalMoveError(f"{shown(move)} is not a tile, position and rotation", rule="notation")
        q, r, _ = triangle_coords(t)
        if abs(q) > LIMIT or abs(r) > LIMIT:
            raise IllegalMoveError(f"{move}: coordinates run from -{LIMIT} to {LIMIT}", rule="notation")
        name = TILE_NAMES[tile]
        if IS_TRIPLE[tile] and rot:
            raise IllegalMoveError(f"{move}: a triple looks the same every way round; write r0", rule="notation")
        if self.start_tile is not None:
            if (tile, t, rot) != (self.start_tile, ORIGIN, 0):
                start = TILE_NAMES[self.start_tile]
                raise IllegalMoveError(
                    f"{move}: {player} opens the round with {start} in the middle:"
                    f" lay {start} @ U0,0 r0 (the start rule)",
                    rule="start",
                )
            return
        if tile not in self.hands[self.seat]:
            raise IllegalMoveError(f"{move}: {player} has no {name} in hand", rule="hand")
        if self.draws and tile not in self._lay_candidates():
            what = {"last": "the tile you just drew", "drawn": "a tile drawn this turn"}[self.options.lay_after_draw]
            raise IllegalMoveError(f"{move}: after drawing you may only lay {what}", rule="after draw")
        if t in self.layout:
            raise IllegalMoveError(f"{move}: {position_name(t)} is taken", rule="occupied")
        if not self.layout:
            if t != ORIGIN:
                raise IllegalMoveError(f"{move}: the first tile goes in the middle, U0,0", rule="start")
            return
        if t not in self.frontier:
            raise IllegalMoveError(f"{move}: a tile must share a whole edge with a laid tile", rule="contact")
        numbers = CORNER_NUMBERS[tile][rot]
        corners, vn = CORNERS[t], self.vertex_number
        for k, nb in enumerate(NEIGHBOURS[t]):
            if nb in self.layout:
                a, b = corners[k], corners[(k + 1) % 3]
                mine, theirs = (numbers[k], numbers[(k + 1) % 3]), (vn[a], vn[b])
                if mine != theirs:
                    raise IllegalMoveError(
                        f"{move}: its edge {mine[0]}-{mine[1]} meets the edge {theirs[0]}-{theirs[1]} of the tile on"
                        f" {position_name(nb)}; both numbers of a shared edge must match",
                        rule="match",
                    )
        for k, v in enumerate(corners):
            if v in vn and vn[v] != numbers[k]:
                raise IllegalMoveError(
                    f"{move}: its corner {numbers[k]} touches a corner showing {vn[v]};"
                    " every corner that touches a laid tile must match",
                    rule="corner",
                )

    # ----- playing ---------------------------------------------------------------------------------
    def _apply(self, move: Move) -> Any:
        if isinstance(move, Lay):
            return self._apply_lay(move)
        if isinstance(move, Drawn):
            saved = self._scalars()
            self.pool.remove(move.tile)
            insort(self.hands[self.seat], move.tile)
            self.drawn += (move.tile,)
            self.phase = PLAY
            return saved
        token: tuple[Any, ...] = (len(self.score_log), self._scalars(), tuple(self.points))  # a deal adds the round
        seat = self.seat
        if isinstance(move, Draw):
            self._score(seat, -DRAW_PENALTY, "draw")
            self.draws += 1
            self.solitaire_draws += 1
            self.phase = DRAWING
        elif isinstance(move, Pass):
            if self.draws < MAX_DRAWS:
                self._score(seat, -self.options.empty_pool_penalty, "empty pool")
            self._next_turn()
        else:  # Deal
            token += (self.layout, self.vertex_number, self.vertex_count, self.frontier, self.hands, self.pool)
            self._deal(move)
        return token

    def _score(self, seat: int, points: int, reason: str) -> None:
        if points:
            self.points[seat] += points
            self.score_log.append((self.round_number, seat, points, reason))

    def _apply_lay(self, move: Lay) -> Any:
        token = (len(self.score_log), self._scalars(), tuple(self.points))
        tile, t, seat = move.tile, move.at, self.seat
        self._score(seat, TILE_VALUES[tile], TILE_REASONS[tile])
        if self.start_tile is not None:
            self.start_tile = None
            self._place(tile, t, move.rotation)
            self._score(seat, START_BONUS, "start tile")
        else:
            bonus = self.lay_bonus(t)
            self._place(tile, t, move.rotation)
            if bonus is not None:
                self._score(seat, *bonus)
        hand = self.hands[seat]
        hand.remove(tile)
        if hand:
            self._next_turn()
        else:
            self.draws, self.drawn = 0, ()
            self._score(seat, LAST_TILE_BONUS, "last tile")
            self._score(seat, self._others_hand_value(seat), "tiles left in the other hands")
            self._end_round(f"{self._players[seat]} laid their last tile")
        return token

    def _others_hand_value(self, seat: int) -> int:
        """The values of the tiles in every hand but `seat`'s: what going out collects."""
        return sum(TILE_VALUES[x] for s, h in enumerate(self.hands) if s != seat for x in h)

    # ----- the search API: a lay's points read before it is laid (engine/ai's players) ----------
    def lay_bonus(self, at: int) -> tuple[int, str] | None:
        """The bonus (points, reason) a tile laid now on the empty triangle `at` earns, or None.

        Hexagon (each one the tile closes, or once: option) before double connection
        (two or three matched edges) before bridge (one matched edge, the opposite
        corner touching a laid tile). It depends on the place only: a tile that fits
        there matches every neighbour.
        """
        nbs, corners, vc = NEIGHBOURS[at], CORNERS[at], self.vertex_count
        matched = [k for k in range(3) if nbs[k] in self.layout]
        hexagons = sum(1 for v in corners if vc.get(v, 0) == 5)  # the sixth tile around v closes it
        if hexagons:
            if self.options.multi_hexagon == "once":
                hexagons = 1
            return hexagons * self.options.hexagon_bonus, "hexagon" if hexagons == 1 else f"{hexagons} hexagons"
        if len(matched) >= 2:
            return DOUBLE_BONUS, "double connection"
        if len(matched) == 1 and corners[(matched[0] + 2) % 3] in vc:
            return BRIDGE_BONUS, "bridge"
        return None

    def lay_points(self, move: Lay) -> int:
        """The points laying `move` scores now, without laying it: the tile's value, the start
        or place bonus, and for the last tile in hand +20 and the other hands' values."""
        points = TILE_VALUES[move.tile]
        if self.start_tile is not None:
            points += START_BONUS
        else:
            bonus = self.lay_bonus(move.at)
            if bonus is not None:
                points += bonus[0]
        if len(self.hands[self.seat]) == 1:
            points += LAST_TILE_BONUS + self._others_hand_value(self.seat)
        return points

    def _next_turn(self) -> None:
        self.seat = (self.seat + 1) % len(self._players)
        self.draws = 0
        self.drawn = ()
        self.phase = PLAY
        if not self.can_draw() and not any(self.can_lay(s) for s in range(len(self._players))):
            self._score_blocked()

    def _score_blocked(self) -> None:
        sums = [sum(TILE_VALUES[x] for x in hand) for hand in self.hands]
        lowest = [s for s, total in enumerate(sums) if total == min(sums)]
        if len(lowest) == 1 or self.options.blocked_tie == "all":
            for s in lowest:
                self._score(s, sum(sums) - sums[s], "blocked: tiles left in the other hands")
                self._score(s, -sums[s], "blocked: own tiles left")
        if self.is_solitaire:
            self._end_round("no tile can be laid or drawn")
        else:
            self._end_round("the round is blocked: the pool is empty and nobody can lay")

    def _end_round(self, reason: str) -> None:
        if self.is_solitaire:
            self.phase, self.result = OVER, f"solitaire over: {reason}"
            return
        best = max(self.points)
        if best >= self.options.target_score:
            leader = self._players[self.points.index(best)]
            self.phase = OVER
            self.result = (
                f"round {self.round_number}: {reason}; {leader} has {best} (target {self.options.target_score})"
            )
        else:
            self.phase = DEAL
            self.round_number += 1

    def _deal(self, move: Deal) -> None:
        self.layout, self.vertex_number, self.vertex_count, self.frontier = {}, {}, {}, set()
        self.hands = [list(hand) for hand in move.hands]
        dealt = {t for hand in move.hands for t in hand}
        if move.start is not None:
            dealt.add(move.start)
        self.pool = set(ALL_TILES - dealt)
        self.draws, self.drawn, self.phase = 0, (), PLAY
        if move.start is not None:
            self._place(move.start, ORIGIN, 0)
            self.seat, self.start_tile = 0, None
        else:
            self.seat, self.start_tile = opener(self.hands)

    def _revert(self, move: Move, token: Any) -> None:
        if isinstance(move, Drawn):
            self._restore(token)
            self.hands[self.seat].remove(move.tile)
            self.pool.add(move.tile)
            return
        log_length, saved, points = token[:3]
        del self.score_log[log_length:]
        self.points = list(points)
        self._restore(saved)
        if isinstance(move, Lay):
            self._unplace(move.at)
            insort(self.hands[self.seat], move.tile)
        elif isinstance(move, Deal):
            # Copies: the token is shared with every copy of this state, which may undo it too.
            layout, vertex_number, vertex_count, frontier, hands, pool = token[3:]
            self.layout, self.vertex_number, self.vertex_count = dict(layout), dict(vertex_number), dict(vertex_count)
            self.frontier, self.hands, self.pool = set(frontier), [list(h) for h in hands], set(pool)

    # ----- scores and the end ------------------------------------------------------------------------
    def _game_outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        ended = Termination.SOLITAIRE_OVER if self.is_solitaire else Termination.TARGET_SCORE
        return outcome_by_score(self.scores(), self.result or "game over", ended)

    def scores(self) -> dict[str, int]:
        return dict(zip(self._players, self.points))

    def recount_scores(self) -> dict[str, int]:
        totals = dict.fromkeys(self._players, 0)
        for _, seat, points, _ in self.score_log:
            totals[self._players[seat]] += points
        return totals

    def _log_dicts(self, entries: Iterable[LogEntry]) -> list[dict[str, Any]]:
        return [
            {"round": rnd, "player": self._players[seat], "points": points, "reason": reason}
            for rnd, seat, points, reason in entries
        ]

    @property
    def score_items(self) -> list[dict[str, Any]]:
        """Every score event so far (round, player, points, reason), oldest first."""
        return self._log_dicts(self.score_log)

    @property
    def last_score_items(self) -> list[dict[str, Any]]:
        """The score events of the last move (a lay's value and bonuses, a penalty, a round end)."""
        if not self._stack or self._stack[-1][0] == TIME_FORFEIT or isinstance(self._stack[-1][0], Drawn):
            return []
        return self._log_dicts(self.score_log[self._stack[-1][1][0] :])

    # ----- notation --------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # ----- positions ---------------------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        names = TILE_NAMES
        return {
            "game": self.game.id,
            "cells": {},
            "options": self.options.to_dict(),
            "round": self.round_number,
            "phase": self.phase,
            "to_move": self._players[self.seat],
            "layout": {position_name(t): f"{names[tile]} r{rot}" for t, (tile, rot) in sorted(self.layout.items())},
            "hands": {p: [names[t] for t in hand] for p, hand in zip(self._players, self.hands)},
            "pool": [names[t] for t in sorted(self.pool)],
            "scores": self.scores(),
            "turn": {"draws": self.draws, "drawn": [names[t] for t in self.drawn]},
            "start_tile": None if self.start_tile is None else names[self.start_tile],
            "solitaire_draws": self.solitaire_draws,
            "score_log": self.score_items,
            "result": self.result,
        }

    def assemble(
        self,
        *,
        layout: Mapping[int, tuple[int, int]],
        hands: list[list[int]],
        pool: set[int],
        points: list[int],
        log: list[LogEntry],
        scalars: tuple,
    ) -> None:
        """Fill this fresh state with a position (reading a position JSON, determinizing a view).

        `scalars` is the turn in the order `_scalars()` gives it; nothing is checked here.
        """
        for t, (tile, rot) in layout.items():
            self._place(tile, t, rot)
        self.hands = [sorted(h) for h in hands]
        self.pool = set(pool)
        self.points = list(points)
        self.score_log = list(log)
        self._restore(scalars)

    def _copy_containers(self, clone: "TripleDominoState") -> None:
        clone.layout = dict(self.layout)
        clone.vertex_number = dict(self.vertex_number)
        clone.vertex_count = dict(self.vertex_count)
        clone.frontier = set(self.frontier)
        clone.hands = [list(h) for h in self.hands]
        clone.pool = set(self.pool)
        clone.points = list(self.points)
        clone.score_log = list(self.score_log)

    def view(self, player: str) -> TripleDominoView:
        return TripleDominoView(self, player)

    # ----- text ------------------------------------------------------------------------------------------
    def render(self, player: str | None = None) -> str:
        """The layout, scores, pool and one hand: `player`'s, else the player to move."""
        keys = label_open(self.frontier)
        last = self.peek()
        mark = last.at if isinstance(last, Lay) else None
        lines = draw_layout(self.layout, self.vertex_number, keys, mark)
        if keys and self.phase == PLAY:
            lines.append(
                "open: "
                + "  ".join(
                    f"{key}={position_name(t)} ({' '.join('*' if n is None else str(n) for n in self.required_corners(t))})"
                    for t, key in keys.items()
                )
            )
        lines.append(
            f"round {self.round_number}   pool {len(self.pool)}   scores: "
            + ", ".join(f"{p} {s}" for p, s in self.scores().items())
        )
        if self.phase == OVER:
            lines.append(f"game over: {self.result}")
        elif self.phase == DEAL:
            lines.append(f"round {self.round_number}: the tiles are to be dealt")
        else:
            status = f"{self._players[self.seat]} to move"
            if self.start_tile is not None:
                status += f": open the round with {TILE_NAMES[self.start_tile]}"
            elif self.draws:
                status += f" (drawn {self.draws} this turn)"
            lines.append(status)
        shown = self.seat if player is None else self.seat_of(player)
        if self.phase != DEAL:
            hand = self.hands[shown]
            lines.append(
                f"{self._players[shown]}'s hand: "
                + ("  ".join(f"{i + 1}) {TILE_NAMES[t]}" for i, t in enumerate(hand)) or "empty")
            )
            others = [f"{p} {len(h)}" for s, (p, h) in enumerate(zip(self._players, self.hands)) if s != shown]
            if others:
                lines.append("tiles in the other hands: " + ", ".join(others))
        items = self.last_score_items
        if items:
            lines.append(
                "last move scored: " + ", ".join(f"{i['player']} {i['points']:+d} {i['reason']}" for i in items)
            )
        return "\n".join(lines)


def _short(move: Move) -> str:
    text = str(move)
    return text if len(text) <= 40 else text[:37] + "..."


def opener(hands: list[list[int]]) -> tuple[int, int]:
    """(seat, tile) of the round's opening tile: the highest triple, else the highest value."""
    seat, tile = max(((s, t) for s, hand in enumerate(hands) for t in hand), key=lambda st: START_KEY[st[1]])
    return seat, tile
