"""Does the hard player keep to its time budget? Run by hand, on a quiet-ish machine.

    python bench/ai_budget.py [--budgets 1 0.25] [--positions 10] [--games three-stones morris ...]

For every game, a real game is played (medium against medium: fast, and it goes
through opening, middle and end), and `--positions` positions are taken from it
at even intervals. The hard player then chooses a move in each with a time-only
budget, and the table shows, per game and budget, the median and largest seconds
per move and the largest as a ratio of the budget (the target is at most 1.10).
The ratio measures the whole `choose` call, bookkeeping included.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAME_IDS, get_game  # noqa: E402
from engine.ai import Budget, get_player  # noqa: E402

TARGET_RATIO = 1.10


def sample_positions(
    game_id: str, count: int, seed: int, options: dict | None = None, nodes: int = 2_000, max_plies: int = 5_000
) -> list:
    """`count` positions (a player to move) spread evenly over one medium-against-medium game
    (`nodes` per medium move, cut after `max_plies`)."""
    state = get_game(game_id).new_state(options or {}, seed=seed)
    players = {p: get_player(game_id, "medium", seed=seed + i) for i, p in enumerate(state.players)}
    decisions = []
    while not state.is_over() and state.ply < max_plies:
        if state.is_chance_node():
            state.push_unchecked(state.sample_chance())
            continue
        decisions.append(state.copy())
        state.push(players[state.current_player].choose(state.view(state.current_player), Budget.of_nodes(nodes)))
    if len(decisions) <= count:
        return decisions
    step = (len(decisions) - 1) / (count - 1)
    return [decisions[round(i * step)] for i in range(count)]


def measure(game_id: str, positions: list, seconds: float) -> list[float]:
    """Wall-clock seconds of the hard player's `choose` in each position (a fresh player each time)."""
    spent = []
    for i, state in enumerate(positions):
        player = get_player(game_id, "hard", seed=i)
        view = state.view(state.current_player)
        started = time.perf_counter()
        player.choose(view, Budget(seconds=seconds))
        spent.append(time.perf_counter() - started)
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=float, nargs="+", default=[1.0, 0.25], help="seconds per move")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--games", nargs="+", default=list(GAME_IDS), choices=GAME_IDS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {args.positions} positions per game from a medium-vs-medium game")
    print("| game | budget | positions | median s | max s | max / budget |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for game_id in args.games:
        positions = sample_positions(game_id, args.positions, args.seed)
        for seconds in args.budgets:
            spent = measure(game_id, positions, seconds)
            ratio = max(spent) / seconds
            worst = max(worst, ratio)
            flag = "" if ratio <= TARGET_RATIO else " (over)"
            print(
                f"| {game_id} | {seconds:g} s | {len(spent)} | {statistics.median(spent):.3f} |"
                f" {max(spent):.3f} | {ratio:.2f}{flag} |",
                flush=True,
            )
    print(f"largest ratio {worst:.2f} (target <= {TARGET_RATIO:.2f})")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
