"""Morris hard's opening book: the first placements, searched far deeper than a move's budget allows.

The games hard lost to the classical peer (bench/sparring) slid over the placing, a fraction of a
piece a move, with no single move that a search one or two plies deeper than play calls a mistake.
The first placements are few enough to search long beforehand: `build` walks the placing for
either seat, searches each position where that seat is to move with hard's own search at a fixed
node budget (some twenty times a 0.5 s move's), and keeps the move it finds; every reply of the
other side is walked, so any opponent meets the book. Positions are kept once per class of the
board's sixteen symmetries (the eight of the square, each with the inner and outer squares swapped
or not), so the book is small; a lookup maps the position onto its class and the move back.

    python -m engine.ai.games.morris_book build [--plies 4] [--nodes 1000000] [--jobs 2]

The book is `morris_book.json` beside this file: {"version", "nodes", "options", "positions"},
each position `"<white in hand><black in hand><side to move>:<white mask>:<black mask>"` (the masks
in hex, in the class's own orientation) mapped to [move, value, depth]. It is checked whole when
first read (every key a placing position, every move legal there): a book that fails is refused
with the entry that failed, never half used. Standard library only: the web app's hard reads it
from engine.zip (build.py bundles it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from ...core import IllegalMoveError
from ...games.morris import BIT, COORDS, GAME, MILLS, POINT_NAMES, SIDES, MorrisOptions, MorrisState, Move, make_move

BOOK_FILE = "morris_book.json"
BUILD_COMMAND = "python -m engine.ai.games.morris_book build"
BOOK_VERSION = 1
# Options that cannot change a position of the first placements or a search from it (a search of
# some ten plies from the book's positions never reaches the moving phase, where they apply).
MOVING_PHASE_OPTIONS = frozenset({"flying", "repetition_draw", "no_removal_draw"})
# The build's defaults: positions after fewer than this many placements (69 classes; five placements
# would add some 180 for white alone), each searched to this many nodes (depth 8-9 in the first
# placements, against 6 in a 0.5 s move; some 9 s of CPU each).
DEFAULT_PLIES = 4
DEFAULT_NODES = 1_000_000


class BookError(ValueError):
    """The opening book cannot be used: unreadable, of another version, or an entry that is wrong."""


# ----- the board's symmetries ------------------------------------------------------------------
def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 16 permutations of the points that keep every line a line and every step a step."""
    where = {xy: p for p, xy in enumerate(COORDS)}
    perms = []
    for swap in (False, True):
        for turns in range(4):
            for mirror in (False, True):
                perm = []
                for x, y in COORDS:
                    dx, dy = x - 3, y - 3
                    if mirror:
                        dx = -dx
                    for _ in range(turns):
                        dx, dy = -dy, dx
                    if swap:  # the outer square onto the inner one and back; the middle one stays
                        ring = max(abs(dx), abs(dy))
                        dx, dy = dx // ring * (4 - ring), dy // ring * (4 - ring)
                    perm.append(where[(dx + 3, dy + 3)])
                perms.append(tuple(perm))
    lines = {frozenset(mill) for mill in MILLS}
    for moved in perms:
        assert {frozenset(moved[p] for p in mill) for mill in MILLS} == lines
    assert len(set(perms)) == 16
    return tuple(perms)


SYMMETRIES = _symmetries()
INVERSES = tuple(tuple(perm.index(p) for p in range(len(perm))) for perm in SYMMETRIES)


def map_mask(mask: int, perm: tuple[int, ...]) -> int:
    """A 24-bit mask of points with every point moved by the permutation."""
    out = 0
    for p, q in enumerate(perm):
        if mask >> p & 1:
            out |= BIT[q]
    return out


def map_move(move: Move, perm: tuple[int, ...]) -> Move:
    return make_move(
        None if move.source is None else perm[move.source],
        perm[move.target],
        None if move.take is None else perm[move.take],
    )


def canonical(men: tuple[int, int] | list[int], hand: Iterable[int], turn: int) -> tuple[str, int]:
    """The book key of a position's symmetry class and the symmetry (an index) that carries the
    position onto the class's own orientation."""
    white, black = men
    best, best_index = min(((map_mask(white, p), map_mask(black, p)), i) for i, p in enumerate(SYMMETRIES))
    hand_white, hand_black = hand
    return f"{hand_white}{hand_black}{turn}:{best[0]:06x}:{best[1]:06x}", best_index


def state_of(key: str, options: MorrisOptions) -> MorrisState:
    """The position a book key stands for (in the class's own orientation); BookError if none can."""
    try:
        counts, white_hex, black_hex = key.split(":")
        hand_white, hand_black, turn = (int(c) for c in counts)
        white, black = int(white_hex, 16), int(black_hex, 16)
    except ValueError:
        raise BookError(f"opening book: {key!r} is not a position key (<hands><turn>:<white>:<black>)") from None
    placed = (9 - hand_white, 9 - hand_black)
    if (
        len(counts) != 3
        or white >> 24
        or black >> 24
        or white & black
        or turn not in (0, 1)
        or not (hand_white if turn == 0 else hand_black)
        or white.bit_count() > placed[0]
        or black.bit_count() > placed[1]
        or placed[0] - placed[1] != turn
    ):
        raise BookError(f"opening book: {key!r} is no placing position of the side to move")
    return position_state((white, black), (hand_white, hand_black), turn, options)


def position_state(men: tuple[int, int], hand: tuple[int, int], turn: int, options: MorrisOptions) -> MorrisState:
    """A placing position as a state, from the two sides' masks, hands and the side to move."""
    cells = {
        name: SIDES[0] if men[0] >> p & 1 else SIDES[1] if men[1] >> p & 1 else None
        for p, name in enumerate(POINT_NAMES)
    }
    return GAME.from_position(
        {
            "game": GAME.id,
            "cells": cells,
            "to_move": SIDES[turn],
            "in_hand": dict(zip(SIDES, hand)),
            "options": options.to_dict(),
        }
    )


# ----- the book --------------------------------------------------------------------------------
class Book:
    """Positions (by symmetry class) and the deep search's move, value and depth in each."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("version") != BOOK_VERSION:
            found = data.get("version") if isinstance(data, dict) else type(data).__name__
            raise BookError(f"opening book: version {found!r}, this engine reads version {BOOK_VERSION}")
        try:
            self.options = MorrisOptions.from_dict(data["options"])
        except (KeyError, TypeError, ValueError) as error:
            raise BookError(f"opening book: its rule options cannot be read ({error})") from None
        self.nodes = data.get("nodes")
        positions = data.get("positions")
        if not isinstance(positions, dict):
            raise BookError("opening book: no positions")
        self.entries: dict[str, tuple[Move, float, int]] = {}
        for key, entry in positions.items():
            state = state_of(key, self.options)
            if canonical(state.men, state.hand, state.turn)[0] != key:
                raise BookError(f"opening book: {key!r} is not its symmetry class's own orientation")
            try:
                text, value, depth = entry
                move = state.parse_move(text)
                state.check(move)
                if move.source is not None:
                    raise IllegalMoveError(f"{text}: a step, not a placement", rule="placing phase")
                self.entries[key] = (move, float(value), int(depth))
            except (TypeError, ValueError) as error:  # IllegalMoveError is a ValueError
                raise BookError(f"opening book: the entry for {key!r} is wrong: {entry!r} ({error})") from None

    def applies_to(self, options: MorrisOptions) -> bool:
        """Whether the book's moves hold under these rules (those of the moving phase aside)."""
        mine, theirs = self.options.to_dict(), options.to_dict()
        return all(mine[name] == theirs[name] for name in mine if name not in MOVING_PHASE_OPTIONS)

    def lookup(self, state: MorrisState) -> tuple[Move, float, int] | None:
        """The book's move (in the position's own orientation), value and depth, or None."""
        if not state.hand[state.turn] or not self.applies_to(state.options):
            return None
        key, index = canonical(state.men, state.hand, state.turn)
        entry = self.entries.get(key)
        if entry is None:
            return None
        move, value, depth = entry
        return map_move(move, INVERSES[index]), value, depth

    def to_json(self) -> str:
        """The book as JSON text, a position a line (so a rebuilt book's diff shows what moved)."""
        head = {"version": BOOK_VERSION, "nodes": self.nodes, "options": self.options.to_dict()}
        lines = [
            f"{json.dumps(key)}: {json.dumps([str(m), round(v, 1), d])}"
            for key, (m, v, d) in sorted(self.entries.items())
        ]
        return json.dumps(head)[:-1] + ', "positions": {\n' + ",\n".join(lines) + "\n}}\n"


def load(text: str) -> Book:
    """A book from its JSON text (BookError if it is not a good one)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise BookError(f"opening book: not JSON ({error})") from None
    return Book(data)


_BOOK: list[Book] = []


def shipped_book() -> Book:
    """The committed book, read and checked once (importlib.resources: a file here, a zip's entry too)."""
    if not _BOOK:
        try:
            text = resources.files(__package__).joinpath(BOOK_FILE).read_text(encoding="utf-8")
        except OSError as error:
            raise BookError(f"opening book: {BOOK_FILE} cannot be read ({error}); build it: {BUILD_COMMAND}") from None
        _BOOK.append(load(text))
    return _BOOK[0]


def book_move(state: MorrisState) -> tuple[Move, float, int] | None:
    """The shipped book's move here, if it has one: what the hard player asks before it searches."""
    return shipped_book().lookup(state)


# ----- building it -----------------------------------------------------------------------------
def _search(args: tuple[str, int, dict[str, Any]]) -> tuple[str, str, float, int]:
    """Hard's own search of one book position to a node budget: a fresh player, so the result depends
    on the position alone (not on what was searched before it, nor on the order of a parallel build)."""
    from ..base import Budget, Clock
    from ..levels import get_player

    key, nodes, options = args
    state = state_of(key, MorrisOptions.from_dict(options))
    player = get_player("morris", "hard", seed=0)
    result = player.search.search(state, Clock(Budget.of_nodes(nodes)), player.rng_for(state))  # type: ignore[attr-defined]
    return key, str(result.move), result.value, result.depth


def successors(key: str, options: MorrisOptions) -> list[str]:
    """The classes of the positions one placement after this one (every move of the side to move)."""
    state = state_of(key, options)
    found = []
    for move in state.generate_moves():
        state.push_unchecked(move)
        found.append(canonical(state.men, state.hand, state.turn)[0])
        state.pop()
    return sorted(set(found))


def book_positions(book: Book, plies: int, seat: int, options: MorrisOptions) -> Iterable[list[str]]:
    """The positions, ply by ply, where `seat` (0 white) is to move after fewer than `plies` placements
    when it plays the book's moves and the other side anything. A generator: each ply's list is asked
    for once the book holds the moves of the ply before."""
    start = GAME.new_state(options)
    layer = [canonical(start.men, start.hand, start.turn)[0]]
    for ply in range(plies):
        if ply % 2 == seat:
            yield layer
            after = []
            for key in layer:
                move = book.entries[key][0]
                state = state_of(key, options)
                state.push_unchecked(move)
                after.append(canonical(state.men, state.hand, state.turn)[0])
            layer = sorted(set(after))
        else:
            layer = sorted({nxt for key in layer for nxt in successors(key, options)})


def build(path: Path, plies: int, nodes: int, jobs: int) -> Book:
    """Search every book position not yet in the book at `path` (kept: a build can be resumed, or
    extended to more plies); the file is written after each ply."""
    options = MorrisOptions()
    if path.exists():
        book = load(path.read_text(encoding="utf-8"))
        if book.nodes != nodes:
            raise BookError(f"{path} was searched to {book.nodes} nodes a position, not {nodes}: start a new file")
    else:
        book = Book({"version": BOOK_VERSION, "nodes": nodes, "options": options.to_dict(), "positions": {}})
    pool = None
    if jobs > 1:
        import concurrent.futures

        pool = concurrent.futures.ProcessPoolExecutor(jobs)
    try:
        for seat in (1, 0):  # black, the seat hard lost with, first
            for layer in book_positions(book, plies, seat, options):
                todo = [(key, nodes, options.to_dict()) for key in layer if key not in book.entries]
                started = time.perf_counter()
                results = pool.map(_search, todo) if pool is not None else map(_search, todo)
                for key, text, value, depth in results:
                    state = state_of(key, options)
                    book.entries[key] = (state.parse_move(text), value, depth)
                path.write_text(book.to_json(), encoding="utf-8")
                print(
                    f"{'black' if seat else 'white'}: {len(layer)} positions ({len(todo)} searched,"
                    f" {time.perf_counter() - started:.0f} s); {len(book.entries)} in the book",
                    flush=True,
                )
    finally:
        if pool is not None:
            pool.shutdown()
    return book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="morris hard's opening book")
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="search the book's positions (resumes an existing file)")
    make.add_argument("--plies", type=int, default=DEFAULT_PLIES, help="positions after fewer placements than this")
    make.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="nodes searched a position")
    make.add_argument("--jobs", type=int, default=1, help="positions searched side by side")
    make.add_argument("--out", type=Path, default=Path(__file__).with_name(BOOK_FILE))
    args = parser.parse_args(argv)
    build(args.out, args.plies, args.nodes, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
