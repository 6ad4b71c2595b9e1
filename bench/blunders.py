"""Find the losing side's mistakes in games kept by `bench/arena.py --records FILE`.

    python bench/blunders.py RECORDS [--depth 9] [--peer-depth 6] [--threshold 60] [--plies 40] [--from-ply 0] [--game N]

Each record is a game that level A lost. Every position where A moved (plies `--from-ply`
to `--plies`) is searched again deeper than A could at play: A's level to a fixed
`--depth` (the value of its best move, then the value of the move it played, searched
a ply less from the position after it), and, as a second opinion built apart, the
sparring peer's evaluation to `--peer-depth` (morris). Every such ply is printed as it is
found; a move whose value falls more than `--threshold` (hundredths of a piece) below the best
is marked, with the peer's opinion of it:

    game 7 ply 12 white: played d1, the best (hard +34)
    game 7 ply 14 white: played b6, better g1 (hard -144 vs -49, peer +31 vs +59 for g1)  <- mistake

Fixed depths and node counts, no clock: the same records give the same lines.
Run by hand, at nice 19; a depth-9 look at a placing position takes seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from engine.ai import Budget, get_player  # noqa: E402
from engine.ai.alphabeta import WIN  # noqa: E402
from engine.ai.base import Clock  # noqa: E402
from bench.sparring import morris_peer  # noqa: E402
from bench.sparring.deadline import Deadline  # noqa: E402

UNLIMITED_NODES = 10**12  # a fixed-depth search needs a budget object; this one never runs out


def level_values(level: str, game_id: str, state: Any, played: Any, depth: int) -> tuple[Any, float, float]:
    """The level's best move and its value at `depth`, and the value of `played` (a ply less after it)."""
    player = get_player(game_id, level, seed=0)
    search = player.search  # type: ignore[attr-defined]  # the alpha-beta levels keep theirs here
    search.max_depth = depth
    rng = random.Random(0)
    best = search.search(state.copy(), Clock(Budget.of_nodes(UNLIMITED_NODES)), rng)
    if best.move == played:
        return best.move, best.value, best.value
    after = state.copy()
    after.push(played)
    if after.is_over():  # a move can only end the game in the mover's favour or drawn
        outcome = after.outcome()
        return best.move, best.value, (0.0 if outcome is None or not outcome.winners else WIN)
    search.max_depth = depth - 1
    reply = search.search(after, Clock(Budget.of_nodes(UNLIMITED_NODES)), rng)
    return best.move, best.value, -reply.value


def peer_values(state: Any, played: Any, depth: int) -> tuple[str, int, int]:
    """The sparring peer's best move and value at `depth`, and the value of `played` (full window)."""
    pos, rules = morris_peer.read(state.view(state.current_player).to_position())
    peer = morris_peer.MorrisPeer()
    deadline = Deadline(Budget.of_nodes(UNLIMITED_NODES))
    root = morris_peer.moves(pos, rules)
    value, best = peer._root(pos, rules, root, depth, deadline)
    text = str(played)
    chosen = next(m for m in root if _peer_text(m) == text)
    played_value = -peer._search(
        morris_peer.play(pos, chosen, rules),
        rules,
        depth - 1,
        -morris_peer.WIN - 1,
        morris_peer.WIN + 1,
        1,
        {pos},
        deadline,
    )
    return _peer_text(best), value, played_value


def _peer_text(move: tuple[int | None, int, int | None]) -> str:
    source, target, removed = move
    names = morris_peer.POINT_NAMES
    text = names[target] if source is None else f"{names[source]}-{names[target]}"
    return text if removed is None else f"{text}x{names[removed]}"


def scan(record: dict, depth: int, peer_depth: int, threshold: float, plies: int, from_ply: int = 0) -> list[str]:
    """Print a line for each of A's moves in one lost game; return the lines of its mistakes (moves
    valued more than `threshold` below the best)."""
    game = get_game(record["game"])
    state = game.new_state(record.get("options") or {}, seed=0)
    a_colour = state.players[record["a_seat"]]
    level = record["a"]
    mistakes = []
    for ply, text in enumerate(record["moves"][:plies]):
        move = state.parse_move(text)
        if state.current_player == a_colour and ply >= from_ply:
            best, best_value, played_value = level_values(level, record["game"], state, move, depth)
            line = f"game {record['index'] + 1} ply {ply} {a_colour}: played {text}"
            if best == move:
                line += f", the best ({level} {best_value:+.0f})"
            else:
                line += f", better {best} ({level} {played_value:+.0f} vs {best_value:+.0f}"
                if best_value - played_value > threshold and record["game"] == "morris" and peer_depth:
                    peer_best, peer_value, peer_played = peer_values(state, move, peer_depth)
                    line += f", peer {peer_played:+d} vs {peer_value:+d} for {peer_best}"
                line += ")"
            if best_value - played_value > threshold:
                line += "  <- mistake"
                mistakes.append(line)
            print(line, flush=True)
        state.push(move)
    return mistakes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", type=Path)
    parser.add_argument("--depth", type=int, default=9, help="the level's fixed search depth")
    parser.add_argument("--peer-depth", type=int, default=6, help="the peer's depth (0: no second opinion)")
    parser.add_argument("--threshold", type=float, default=60, help="hundredths of a piece below the best")
    parser.add_argument("--plies", type=int, default=40, help="look at the first N plies of each game")
    parser.add_argument("--from-ply", type=int, default=0, help="skip A's moves before this ply (the placing)")
    parser.add_argument("--game", type=int, default=None, help="only the record of this game number")
    args = parser.parse_args(argv)
    for raw in args.records.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        if args.game is not None and record["index"] + 1 != args.game:
            continue
        print(f"game {record['index'] + 1}: {record['a']} as {record['a_seat'] + 1} lost to {record['b']}", flush=True)
        scan(record, args.depth, args.peer_depth, args.threshold, args.plies, args.from_ply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
