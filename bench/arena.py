"""Play two computer players against each other and report who is stronger.

    python bench/arena.py GAME A B --games N --seed S [--seconds 0.2 | --nodes 5000] [--clock cpu] [-o name=value]

A and B are levels (random, easy, medium, hard) or sparring players from
bench/sparring (uct for every game, peer for morris). Seats alternate from game to
game (A plays the first player in even games, the second in odd ones; with more
players A takes one seat in turn and B all the others), and each pair of games
shares its seed, so both sides meet the same draws, rolls and deals. Prints wins,
draws and losses of A, A's win rate among decided games with a 95% (Wilson)
confidence interval, the mean score margin, and the mean and largest time per
move of each side, on the clock the budgets count (`--clock wall`, the default, or
`--clock cpu`: the searching thread's CPU time, so a loaded machine starves no side
and --jobs does not change the games' strength). Run by hand; one process unless --jobs asks for more (the
games are the same either way: each depends only on its index and the seed).
`--records FILE` keeps A's lost games (their moves, one JSON line each) to study.
`--seat K` plays only the games where A sits in seat K (1 = first player): the same games,
by index, as the full arena's, so a side that loses only in one seat is studied at half the cost.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from engine.ai import LEVELS, Budget, get_player  # noqa: E402
from bench.sparring import SPARRING, sparring_player  # noqa: E402

PLAYERS = LEVELS + tuple(SPARRING)
# What a budget's seconds are counted on, by name: looked up when asked for (Emscripten has no thread_time).
CLOCKS = {"wall": "perf_counter", "cpu": "thread_time"}


def make_player(game_id: str, name: str, seed: int):
    """A level of engine/ai or a sparring player: both answer `choose(view, budget)`."""
    return sparring_player(game_id, name, seed) if name in SPARRING else get_player(game_id, name, seed=seed)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(
    game_id: str,
    options: dict,
    seed: int,
    a_seat: int,
    level_a: str,
    level_b: str,
    budget: Budget,
    player_seed: int,
    stats: dict,
    max_plies: int,
    opening: int = 0,
) -> tuple[str, float, str, list[str]]:
    """One game; returns ('win' | 'draw' | 'loss', A's score margin over the best other player, a hash
    of its moves (how many different games an arena played is worth knowing where nothing is left
    to chance but the players' seeds), and the moves themselves)."""
    game = get_game(game_id)
    state = game.new_state(options, seed=seed)
    players = state.players
    a_name = players[a_seat]
    ai_a = make_player(game_id, level_a, player_seed)
    ai_b = make_player(game_id, level_b, player_seed + 1)
    opening_rng = random.Random(f"opening/{seed}")
    decisions = 0
    while not state.is_over() and state.ply < max_plies:
        if state.is_chance_node():
            state.push_unchecked(state.sample_chance())
            continue
        mover = state.current_player
        if decisions < opening:  # a random opening, the same for both seatings of a seed
            decisions += 1
            state.push(opening_rng.choice(list(state.legal_moves())))
            continue
        side = "a" if mover == a_name else "b"
        ai = ai_a if side == "a" else ai_b
        started = budget.timer()
        move = ai.choose(state.view(mover), budget)
        spent = budget.timer() - started
        stats[side]["moves"] += 1
        stats[side]["time"] += spent
        stats[side]["max"] = max(stats[side]["max"], spent)
        state.push(move)  # checked: an illegal move stops the arena with an error
    outcome = state.outcome()
    scores = state.scores()
    others = [scores[p] for p in players if p != a_name]
    margin = scores[a_name] - max(others) if others else 0.0
    moves = state.moves_text()
    fingerprint = hashlib.blake2b(" ".join(moves).encode(), digest_size=8).hexdigest()
    if outcome is None or not outcome.winners or (a_name in outcome.winners and len(outcome.winners) > 1):
        return "draw", margin, fingerprint, moves
    return ("win" if outcome.winners == (a_name,) else "loss"), margin, fingerprint, moves


def _indexed_game(
    game_id: str,
    options: dict,
    n_players: int,
    seed: int,
    level_a: str,
    level_b: str,
    budget: Budget,
    max_plies: int,
    opening: int,
    index: int,
) -> tuple[str, float, str, dict, list[str]]:
    """Game number `index` of an arena: its seat, chance seed and player seeds follow from the index alone."""
    stats = {side: {"moves": 0, "time": 0.0, "max": 0.0} for side in "ab"}
    game_seed = seed * 100_003 + index // n_players  # each seat rotation meets the same chance
    result, margin, fingerprint, moves = play_game(
        game_id,
        options,
        game_seed,
        index % n_players,
        level_a,
        level_b,
        budget,
        seed * 1_000_003 + 2 * index,
        stats,
        max_plies,
        opening,
    )
    return result, margin, fingerprint, stats, moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("a", choices=PLAYERS)
    parser.add_argument("b", choices=PLAYERS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per move (default 1 s)")
    parser.add_argument("--nodes", type=int, default=None, help="node budget per move (with --seconds 0: nodes only)")
    parser.add_argument(
        "--clock",
        choices=CLOCKS,
        default="wall",
        help="count the seconds on the wall clock or on the searching thread's CPU time (fair under load)",
    )
    parser.add_argument("--max-plies", type=int, default=20_000)
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--opening",
        type=int,
        default=0,
        help="play this many random decisions first (varies games without chance; same for both seatings)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        default=None,
        help="play only the games where A takes this seat (1 = first player; the full arena's indices)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side in worker processes")
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        help="append A's lost games to this file, one JSON line each (index, seat, seed, moves)",
    )
    args = parser.parse_args(argv)
    game = get_game(args.game)
    options = game.Options.parse_assignments(args.option).to_dict() if args.option else {}
    budget = Budget(seconds=args.seconds or None, nodes=args.nodes, timer=getattr(time, CLOCKS[args.clock]))
    n_players = len(game.new_state(options, seed=0).players)
    if args.seat is not None and not 1 <= args.seat <= n_players:
        parser.error(f"--seat must be 1 to {n_players}")
    indices = [i for i in range(args.games) if args.seat is None or i % n_players == args.seat - 1]
    if not indices:
        parser.error("no game to play: more --games")
    stats = {side: {"moves": 0, "time": 0.0, "max": 0.0} for side in "ab"}
    results = {"win": 0, "draw": 0, "loss": 0}
    margins = []
    fingerprints: set[str] = set()
    started = time.perf_counter()
    one_game = functools.partial(
        _indexed_game, args.game, options, n_players, args.seed, args.a, args.b, budget, args.max_plies, args.opening
    )
    with concurrent.futures.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else contextlib.nullcontext() as pool:
        games = (pool.map if pool is not None else map)(one_game, indices)
        for index, (result, margin, fingerprint, game_stats, moves) in zip(indices, games):
            fingerprints.add(fingerprint)
            if args.records is not None and result == "loss":
                with args.records.open("a", encoding="utf-8") as out:
                    out.write(
                        json.dumps(
                            {
                                "game": args.game,
                                "options": options,
                                "index": index,
                                "a_seat": index % n_players,
                                "a": args.a,
                                "b": args.b,
                                "seed": args.seed,
                                "moves": moves,
                            }
                        )
                        + "\n"
                    )
            for side in "ab":
                stats[side]["moves"] += game_stats[side]["moves"]
                stats[side]["time"] += game_stats[side]["time"]
                stats[side]["max"] = max(stats[side]["max"], game_stats[side]["max"])
            results[result] += 1
            margins.append(margin)
            if not args.quiet:
                print(
                    f"game {index + 1}: A seat {index % n_players + 1} {result} (margin {margin:+g});"
                    f" W/D/L {results['win']}/{results['draw']}/{results['loss']}",
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    decided = results["win"] + results["loss"]
    low, high = wilson(results["win"], decided)
    rate = results["win"] / decided if decided else float("nan")
    mean_margin = sum(margins) / len(margins)
    opts = " ".join(f"-o {w}" for w in args.option)
    budget_text = (f"{args.seconds:g} s {args.clock}" if args.seconds else "") + (
        f" {args.nodes} nodes" if args.nodes else ""
    )
    opening = f", {args.opening} random opening moves" if args.opening else ""
    seat = f", A in seat {args.seat} only" if args.seat is not None else ""
    print(
        f"{args.game} {opts} {args.a} vs {args.b}: {len(indices)} games{seat}, budget {budget_text.strip()} per move{opening}"
    )
    print(
        f"  A ({args.a}) wins {results['win']}, draws {results['draw']}, losses {results['loss']};"
        f" {len(fingerprints)} different games"
    )
    print(
        f"  A win rate among decided games {100 * rate:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%),"
        f" score rate {100 * (results['win'] + results['draw'] / 2) / len(indices):.1f}%,"
        f" mean margin {mean_margin:+.2f}"
    )
    for side, level in (("a", args.a), ("b", args.b)):
        s = stats[side]
        mean = s["time"] / s["moves"] if s["moves"] else 0.0
        print(
            f"  {level} ({side.upper()}): {s['moves']} moves, mean {1000 * mean:.1f} ms/move, max {1000 * s['max']:.0f} ms"
            f" ({args.clock} clock)"
        )
    print(f"  {elapsed:.0f} s in all")
    print(
        f"| {args.game} | {args.a} vs {args.b} | {budget_text.strip()} | {len(indices)} | {results['win']}/{results['draw']}/{results['loss']} |"
        f" {100 * rate:.1f}% ({100 * low:.0f}-{100 * high:.0f}%) | {mean_margin:+.1f} |"
        f" {1000 * stats['a']['time'] / max(1, stats['a']['moves']):.0f} / {1000 * stats['b']['time'] / max(1, stats['b']['moves']):.0f} ms {args.clock} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
