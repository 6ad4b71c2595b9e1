"""The suite's random-game property test at scale: thousands of random games per game.

    nice -n 5 python bench/properties.py [--games-per-game 10000] [--round 200] [--jobs 1] [--games morris ...]

Runs `test_random_game_keeps_every_invariant` of tests/test_properties.py (undo,
records and replay, notation, conservation, scores against a recount, positions,
copies) in rounds of `--round` random games, one game after another, so that a
run stopped early has covered every game about equally. Each finished round
prints a line; the end prints, per game, the random games played, the failures
and the games per CPU second (CPU time, so a busy machine still gives its cost). A failing round prints hypothesis' smallest falsifying
example. The suite itself plays 100 per game; `pytest --hypothesis-profile=thorough
tests/test_properties.py` plays 10,000 per game in one go, without the running count.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import test_properties  # noqa: E402
from engine import GAME_IDS  # noqa: E402


def play_round(game_id: str, games: int) -> tuple[str, int, float, str | None]:
    """(game, random games played, CPU seconds, the failure's report or None) of one round.

    CPU seconds of the process, not wall-clock: on a shared machine they still compare.
    """
    invariants = test_properties.test_random_game_keeps_every_invariant.hypothesis.inner_test

    @settings(test_properties.SETTINGS, max_examples=games, database=None)
    @given(seed=test_properties.GAME_SEEDS, variant=test_properties.VARIANT_INDEXES, data=st.data())
    def random_games(seed: int, variant: int, data: st.DataObject) -> None:
        invariants(game_id, seed, variant, data)

    started = time.process_time()
    try:
        random_games()
    except Exception:  # the property failed: hypothesis has shrunk it, the report says how
        return game_id, games, time.process_time() - started, traceback.format_exc(limit=3)
    return game_id, games, time.process_time() - started, None


def rounds(total: int, size: int, game_ids: list[str]) -> list[tuple[str, int]]:
    """(game, games in the round) in turn: every game's first round, then every game's second, ..."""
    sizes = [size] * (total // size) + ([total % size] if total % size else [])
    return [(game_id, n) for n in sizes for game_id in game_ids]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-game", type=int, default=10_000, help="random games per game (default 10000)")
    parser.add_argument("--round", type=int, default=200, help="random games per round")
    parser.add_argument("--jobs", type=int, default=1, help="processes (each plays whole rounds)")
    parser.add_argument("--games", nargs="*", default=list(GAME_IDS), choices=GAME_IDS)
    args = parser.parse_args(argv)
    played = dict.fromkeys(args.games, 0)
    seconds = dict.fromkeys(args.games, 0.0)
    failed: dict[str, str] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(play_round, *zip(*rounds(args.games_per_game, args.round, args.games)))
        for game_id, games, spent, failure in results:
            if game_id in failed:
                continue
            played[game_id] += games
            seconds[game_id] += spent
            if failure:
                failed[game_id] = failure
                print(f"{game_id}: FAILED in a round of {games}\n{failure}", flush=True)
            print(
                f"{time.perf_counter() - started:7.0f} s  {game_id}: {played[game_id]} random games,"
                f" {games / spent:.1f} per CPU second",
                flush=True,
            )
    print("\n| game | random games | failures | CPU seconds | games per CPU second |\n|---|---|---|---|---|")
    for game_id in args.games:
        rate = played[game_id] / seconds[game_id] if seconds[game_id] else 0.0
        print(f"| {game_id} | {played[game_id]} | {int(game_id in failed)} | {seconds[game_id]:.0f} | {rate:.1f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
