"""How many nodes a second does a level search? Run by hand, before and after a change to a search.

    python bench/ai_speed.py [--game morris] [--level hard] [--positions 8] [--nodes 20000] [--repeat 5] [--profile 25]

Positions come from one medium-against-medium game (bench/ai_budget.py's sample, the
placing and the moving phase both); the level analyses each with a node budget and a
fixed seed, so the work is the same on every run and only the time differs. Prints
each position's move, nodes and depth (a change that should keep the play must keep
these lines), then nodes a second on the CPU time of this thread, each position's
best of `--repeat` runs (other work on a shared machine slows a run, never speeds
it up). `--profile N`
also prints cProfile's N most expensive functions (slower: compare the shares, not
the speed).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_budget import sample_positions  # noqa: E402  (bench/ is the script's folder)
from engine import GAME_IDS  # noqa: E402
from engine.ai import Budget, get_player  # noqa: E402


def search_all(game_id: str, level: str, positions: list, nodes: int, repeat: int) -> tuple[int, float]:
    """Analyse every position (a fresh player each, seeded by its index); the nodes searched and the
    CPU seconds (each position's fastest of `repeat` runs)."""
    total_nodes, total_seconds = 0, 0.0
    for i, state in enumerate(positions):
        view = state.view(state.current_player)
        fastest = float("inf")
        for _ in range(repeat):
            player = get_player(game_id, level, seed=i)
            started = time.thread_time()
            analysis = player.analyse(view, Budget.of_nodes(nodes))
            fastest = min(fastest, time.thread_time() - started)
        total_seconds += fastest
        total_nodes += analysis.nodes
        print(f"ply {state.ply}: {analysis.move} nodes={analysis.nodes} depth={analysis.depth}", flush=True)
    return total_nodes, total_seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="morris", choices=GAME_IDS)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget of every analysis")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs per position (the fastest counts)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    args = parser.parse_args(argv)
    positions = sample_positions(args.game, args.positions, args.seed)
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    nodes, seconds = search_all(args.game, args.level, positions, args.nodes, args.repeat)
    if profiler is not None:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
    print(f"{args.game} {args.level}: {nodes} nodes in {seconds:.2f} s of CPU, {nodes / seconds:,.0f} nodes/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
