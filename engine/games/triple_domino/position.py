"""Reading a position JSON (SPEC section 2) into a state, checked against the rules.

    {"game": "triple-domino", "cells": {}, "options": {...}, "round": 1,
     "phase": "play" | "draw" | "deal" | "over", "to_move": "p1",
     "layout": {"U0,0": "5-5-5 r0", "D0,0": "4-5-5 r1"},
     "hands": {"p1": ["0-0-1", ...], "p2": [...]}, "pool": [...],
     "scores": {"p1": 20, "p2": 0}, "turn": {"draws": 0, "drawn": []},
     "start_tile": null, "solitaire_draws": 0,
     "score_log": [{"round": 1, "player": "p1", "points": 15, "reason": "tile 5-5-5"}, ...],
     "result": null}

Only `game` and `hands` are required; scores the log does not explain are logged
as an "earlier score" entry of round 0.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ...core import IllegalMoveError, PositionError, shown
from .grid import CORNERS, NEIGHBOURS, parse_position_name, position_name
from .state import DEAL, DRAWING, MAX_DRAWS, OVER, PHASES, PLAY, LogEntry, TripleDominoState, opener
from .tiles import ALL_TILES, CORNER_NUMBERS, IS_TRIPLE, TILE_NAMES, parse_tile


def read_position(state: TripleDominoState, position: Mapping[str, Any]) -> None:
    """Fill a fresh state with `position`, checked against the rules; `state.assumed` says what was guessed."""
    players = state.players
    layout = read_layout(position.get("layout", {}))
    if "hands" not in position:
        raise PositionError("a triple-domino position needs 'hands': each player's tiles")
    raw_hands = position["hands"]
    if not isinstance(raw_hands, Mapping) or set(raw_hands) != set(players):
        raise PositionError(f"'hands' must give each of {', '.join(players)} a list of tiles")
    hands = [_read_tiles(raw_hands[p], f"hands.{p}") for p in players]
    seen = [tile for tile, _ in layout.values()] + [t for h in hands for t in h]
    if "pool" in position and position["pool"] is not None:
        pool = _read_tiles(position["pool"], "pool")
        seen += pool
        missing = ALL_TILES - set(seen)
        if missing:
            raise PositionError(
                f"{len(missing)} tiles are nowhere (layout, hands, pool), e.g. {TILE_NAMES[min(missing)]}"
            )
    else:
        pool = sorted(ALL_TILES - set(seen))
        state.assumed.append("pool not given: every tile not laid or in a hand")
    if len(set(seen)) != len(seen):
        twice = next(t for t in seen if seen.count(t) > 1)
        raise PositionError(f"tile {TILE_NAMES[twice]} appears twice (each tile exists once)")
    phase = position.get("phase")
    if phase is None:
        phase = PLAY if layout or any(hands) else DEAL
        state.assumed.append(f"phase not given: assumed {phase!r}")
    elif phase not in PHASES:
        raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {shown(phase)}")
    start_tile = None
    to_move = position.get("to_move")
    if to_move is not None and to_move not in players:
        raise PositionError(f"to_move must be one of {', '.join(players)}, not {shown(to_move)}")
    if phase == PLAY and not layout:
        if len(players) == 1:
            raise PositionError("a solitaire round starts with its start tile laid on U0,0")
        if not any(hands):
            raise PositionError("nobody holds a tile to open the round with")
        seat, start_tile = opener(hands)
        if to_move is not None and to_move != players[seat]:
            raise PositionError(
                f"{players[seat]} holds {TILE_NAMES[start_tile]} and opens the round (the start rule), not {to_move}"
            )
        to_move = players[seat]
    if to_move is None:
        to_move = players[0]
        state.assumed.append(f"to_move not given: assumed {to_move}")
    given_start = position.get("start_tile")
    if given_start is not None and (start_tile is None or _read_tile(given_start, "start_tile") != start_tile):
        raise PositionError(f"start_tile {shown(given_start)} does not follow from the start rule and the layout")
    seat = players.index(to_move)
    turn = position.get("turn") or {}
    if not isinstance(turn, Mapping):
        raise PositionError('\'turn\' must be an object like {"draws": 0, "drawn": []}')
    draws = turn.get("draws", 0)
    if not _whole(draws) or not 0 <= draws <= MAX_DRAWS:
        raise PositionError("turn.draws must be 0 to 3")
    drawn = tuple(_read_tiles(turn.get("drawn", []), "turn.drawn", keep_order=True))
    if len(drawn) > draws or not set(drawn) <= set(hands[seat]):
        raise PositionError("turn.drawn must list tiles of the player to move, at most one per draw")
    if phase == DRAWING and (not draws or not pool or len(drawn) != draws - 1):
        raise PositionError("phase 'draw' needs a draw under way (draws one more than drawn) and a pool")
    if phase == PLAY and len(drawn) != draws:
        raise PositionError("turn.drawn must list each tile drawn this turn")
    if start_tile is not None and draws:
        raise PositionError("the opener lays the start tile before anyone draws")
    round_number = position.get("round", 1)
    if not _whole(round_number) or round_number < 1:
        raise PositionError("round must be a whole number from 1")
    solitaire_draws = position.get("solitaire_draws", 0)
    if not _whole(solitaire_draws) or solitaire_draws < 0:
        raise PositionError("solitaire_draws must be a whole number ≥ 0")
    points, log = read_scores(position, players)
    result = position.get("result")
    if phase == OVER:
        result = result if isinstance(result, str) and result else "game over"
    elif result is not None:
        raise PositionError("result is given only when the phase is 'over'")
    state.assemble(
        layout=layout,
        hands=hands,
        pool=set(pool),
        points=points,
        log=log,
        scalars=(seat, phase, draws, drawn, start_tile, round_number, solitaire_draws, result),
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_tile(text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise PositionError(f"{what}: {shown(text)} is not a tile like '1-2-3'")
    try:
        return parse_tile(text)
    except IllegalMoveError:
        raise PositionError(f"{what}: {shown(text)} is not a tile like '1-2-3'") from None


def _read_tiles(data: Any, what: str, keep_order: bool = False) -> list[int]:
    if not isinstance(data, list):
        raise PositionError(f"{what} must be a list of tiles like '1-2-3'")
    tiles = [_read_tile(t, what) for t in data]
    return tiles if keep_order else sorted(tiles)


def read_layout(data: Any) -> dict[int, tuple[int, int]]:
    """A validated layout: {position: 'a-b-c rK'} whose corners all match and whose tiles touch edge to edge."""
    if not isinstance(data, Mapping):
        raise PositionError('layout must be an object like {"U0,0": "5-5-5 r0"}')
    layout: dict[int, tuple[int, int]] = {}
    for name, value in data.items():
        try:
            t = parse_position_name(str(name))
        except IllegalMoveError as exc:
            raise PositionError(f"layout: {exc}") from None
        if t in layout:
            raise PositionError(f"layout names {name} twice")
        words = value.split() if isinstance(value, str) else []
        if len(words) != 2 or not re.fullmatch(r"r[0-2]", words[1]):
            raise PositionError(f"layout {name}: write the tile and rotation like '1-2-3 r0', not {shown(value)}")
        tile = _read_tile(words[0], f"layout {name}")
        layout[t] = (tile, 0 if IS_TRIPLE[tile] else int(words[1][1]))
    numbers: dict[int, tuple[int, int]] = {}
    for t, (tile, rot) in layout.items():
        for v, n in zip(CORNERS[t], CORNER_NUMBERS[tile][rot]):
            if v in numbers and numbers[v][0] != n:
                raise PositionError(
                    f"layout: the tiles on {position_name(numbers[v][1])} and {position_name(t)}"
                    f" show {numbers[v][0]} and {n} at a corner they share"
                )
            numbers[v] = (n, t)
    tiles = [tile for tile, _ in layout.values()]
    if len(set(tiles)) != len(tiles):
        raise PositionError("layout: a tile is laid twice (each tile exists once)")
    if layout:
        reached = {next(iter(layout))}
        todo = list(reached)
        while todo:
            for nb in NEIGHBOURS[todo.pop()]:
                if nb in layout and nb not in reached:
                    reached.add(nb)
                    todo.append(nb)
        if len(reached) != len(layout):
            stray = next(t for t in layout if t not in reached)
            raise PositionError(f"layout: the tile on {position_name(stray)} is not joined edge to edge to the others")
    return layout


def read_scores(position: Mapping[str, Any], players: tuple[str, ...]) -> tuple[list[int], list[LogEntry]]:
    """Scores and score log; scores that the log does not explain become an 'earlier score' entry."""
    raw_log = position.get("score_log") or []
    if not isinstance(raw_log, list):
        raise PositionError("score_log must be a list of {round, player, points, reason}")
    log: list[LogEntry] = []
    for entry in raw_log:
        if (
            not isinstance(entry, Mapping)
            or entry.get("player") not in players
            or not _whole(entry.get("points"))
            or not _whole(entry.get("round"))
            or not isinstance(entry.get("reason"), str)
        ):
            raise PositionError(
                f"score_log entry {shown(entry)} must be {{round, player, points, reason}} of a player here"
            )
        log.append((entry["round"], players.index(entry["player"]), entry["points"], entry["reason"]))
    totals = [0] * len(players)
    for _, seat, pts, _ in log:
        totals[seat] += pts
    given = position.get("scores")
    if given is None:
        return totals, log
    if not isinstance(given, Mapping) or not set(given) <= set(players) or not all(_whole(v) for v in given.values()):
        raise PositionError(f"scores must map players ({', '.join(players)}) to whole numbers")
    points = [given.get(p, 0) for p in players]
    earlier = [
        (0, seat, want - have, "earlier score") for seat, (want, have) in enumerate(zip(points, totals)) if want != have
    ]
    return points, earlier + log
