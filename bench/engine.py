"""Engine speed per game: random playouts per second and legal-move generations per second.

    python bench/engine.py [--seconds 2] [--games morris rings]

Run by hand; prints a table. Playouts use the fast path (`push_unchecked`) that
search uses; the legal-move figure lists every move of positions sampled from
random games (the chance outcomes at chance nodes).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAME_IDS, get_game  # noqa: E402
from engine.core import State  # noqa: E402
from engine.cli import random_game  # noqa: E402


def playouts(game_id: str, seconds: float) -> tuple[float, float]:
    """(games per second, plies per second) of uniformly random play from the start."""
    game = get_game(game_id)
    rng = random.Random(1)
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or games == 0:
        state = random_game(game.new_state(seed=games), rng)
        games += 1
        plies += state.ply
    elapsed = time.perf_counter() - started
    return games / elapsed, plies / elapsed


def sample_states(game_id: str, count: int = 60) -> list[State]:
    game = get_game(game_id)
    rng = random.Random(2)
    states: list[State] = []
    while len(states) < count:
        state = game.new_state(seed=len(states))
        stop = rng.randrange(0, 80)
        while state.ply < stop and not state.is_over():
            state.push_unchecked(
                state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves()))
            )
        if not state.is_over():
            states.append(state)
    return states


def generations(game_id: str, seconds: float) -> tuple[float, float]:
    """(legal-move generations per second, average moves per generation)."""
    states = sample_states(game_id)
    calls = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for state in states:
            moves += len(list(state.legal_moves()))
            calls += 1
    elapsed = time.perf_counter() - started
    return calls / elapsed, moves / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--games", nargs="*", default=list(GAME_IDS), choices=GAME_IDS)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {args.seconds:.1f} s per measurement")
    header = f"{'game':<15}{'playouts/s':>12}{'plies/s':>12}{'movegen/s':>12}{'moves/gen':>11}"
    print(header)
    print("-" * len(header))
    for game_id in args.games:
        games_per_s, plies_per_s = playouts(game_id, args.seconds)
        gens_per_s, avg_moves = generations(game_id, args.seconds)
        print(f"{game_id:<15}{games_per_s:>12.1f}{plies_per_s:>12.0f}{gens_per_s:>12.0f}{avg_moves:>11.1f}")


if __name__ == "__main__":
    main()
