"""Fit morris hard's evaluation weights on game outcomes (a Texel-style logistic fit).

    python bench/texel.py play GAMES.jsonl --pairing hard-peer --seed 1 --games 40 --nodes 3000 [--opening 1] [--jobs 2]
    python bench/texel.py fit GAMES.jsonl [GAMES2.jsonl ...] [--phase placing|moving|all] [--terms a b ...]

`play` plays games with a node budget (both seats, the games of `bench/arena.py` by seed and index) and
appends every game, won, drawn or lost, one JSON line each: its moves and the winner's seat. `fit` replays
them, takes the positions of a phase, labels each by the game's result for the side to move (1, 0.5, 0)
and fits the evaluation's weights so that logistic(value / scale) predicts it: the scale first, with the
current weights (the piece stays 100), then the weights named by `--terms` by Newton steps on the mean
log loss, the others held. The evaluation is linear in its weights (each term is a weight times a count,
and the threat terms exclude each other), so a position's features are its values under unit weights.

Positions from one game are far from independent: the printed standard errors are too small by a factor
of about the square root of the positions per game. Run by hand; fitted weights must still win at
0.5 s before they go into engine/ai (node-budget screens have misled, README "peer").
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_game  # noqa: E402
from engine.ai import Budget  # noqa: E402
from engine.ai.games.morris import HARD_WEIGHTS, Weights, evaluate  # noqa: E402
from bench.arena import _indexed_game  # noqa: E402

# The weights of the evaluation, in Weights' order: a position's features are its values with one of them 1.
TERMS = (
    "piece",
    "mill",
    "mobility",
    "placing_mobility",
    "to_move_threat",
    "running_mill",
    "blocked",
    "reopening_mill",
    "cramped",
    "unstoppable_threat",
    "placing_fork",
)
# Not the evaluation's: fitted beside its terms so that they do not stand for who is playing. A mixed
# pairing's stronger program wins from any position more often (and its evaluation's own marks would
# be fitted as if they won), and the first player may win more often.
NUISANCE = ("A to move", "white to move")
PLACING_TERMS = ("mill", "placing_mobility", "to_move_threat", "blocked", "cramped", "placing_fork")
NEWTON_STEPS = 25  # the log loss is convex in the weights: a few Newton steps settle it
HOLDOUT_EVERY = 5  # every fifth game is held out to check that the fit predicts games it did not see
RIDGE = 1e-6  # keeps the Hessian invertible when a term never occurs in the chosen positions


def play(args: argparse.Namespace) -> int:
    """Play the pairing's games and append each with its result."""
    a, b = args.pairing.split("-")
    one_game = functools.partial(
        _indexed_game, "morris", {}, 2, args.seed, a, b, Budget.of_nodes(args.nodes), args.max_plies, args.opening
    )
    indices = list(range(args.games))
    with concurrent.futures.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else contextlib.nullcontext() as pool:
        games = (pool.map if pool is not None else map)(one_game, indices)
        for index, (result, _margin, _fingerprint, _stats, moves) in zip(indices, games):
            a_seat = index % 2
            winner = None if result == "draw" else a_seat if result == "win" else 1 - a_seat
            record = {"a": a, "b": b, "seed": args.seed, "index": index, "a_seat": a_seat, "winner": winner}
            with args.out.open("a", encoding="utf-8") as out:
                out.write(json.dumps({**record, "moves": moves, "nodes": args.nodes}) + "\n")
            print(f"game {index + 1}: {a} as {a_seat + 1}, {result}, {len(moves)} plies", flush=True)
    return 0


def unit_weights(term: str) -> Weights:
    """Weights with every term 0 but `term` (the placing mobility is its own term, never the moving one)."""
    values: dict[str, Any] = {name: 0.0 for name in TERMS}
    values[term] = 1.0
    return Weights(**values)


UNITS = tuple(unit_weights(term) for term in TERMS)


def features(state: Any) -> list[float]:
    """The evaluation's terms for the side to move: its value is the weights' dot product with these."""
    return [evaluate(state, unit) for unit in UNITS]


def in_phase(state: Any, phase: str) -> bool:
    placing = bool(state.hand[0] or state.hand[1])
    return phase == "all" or placing == (phase == "placing")


def positions(paths: list[Path], phase: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels (the result for the side to move) and game numbers of every position in `phase`."""
    game = get_game("morris")
    rows, labels, game_ids = [], [], []
    number = 0
    for path in paths:
        for raw in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(raw)
            number += 1
            state = game.new_state({}, seed=0)
            winner = record["winner"]
            for text in record["moves"]:
                if state.is_over():
                    break
                if in_phase(state, phase):
                    a_to_move = 0 if record["a"] == record["b"] else 1 if state.turn == record["a_seat"] else -1
                    rows.append(features(state) + [a_to_move, 1 if state.turn == 0 else -1])
                    labels.append(0.5 if winner is None else 1.0 if state.turn == winner else 0.0)
                    game_ids.append(number)
                state.push(state.parse_move(text))
    return np.array(rows, dtype=float), np.array(labels), np.array(game_ids)


def mean_log_loss(z: np.ndarray, y: np.ndarray) -> float:
    """The mean log loss of predicting `y` by logistic(z), in a form that cannot overflow."""
    return float(np.mean(np.logaddexp(0, z) - y * z))


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray, scale: float) -> float:
    return mean_log_loss(x @ w / scale, y)


def fit_scale(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The logistic scale (hundredths of a piece per unit of log-odds) that fits the current weights best."""
    lo, hi = 10.0, 2000.0  # golden-section search on log scale
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        m1, m2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if log_loss(x, y, w, m1) < log_loss(x, y, w, m2):
            hi = m2
        else:
            lo = m1
    return (lo + hi) / 2


def fit_weights(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, scale: float, free: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Newton steps on the mean log loss over the free terms; returns the weights and their standard errors."""
    w = w.copy()
    fixed = [i for i in range(len(w)) if i not in free]
    xf = x[:, free]
    offset = x[:, fixed] @ w[fixed] / scale
    beta = w[free] / scale

    def loss(b: np.ndarray) -> float:
        return mean_log_loss(offset + xf @ b, y)

    hessian = np.eye(len(free))
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-np.clip(offset + xf @ beta, -30, 30)))
        gradient = xf.T @ (p - y) / len(y)
        hessian = (xf * (p * (1 - p))[:, None]).T @ xf / len(y) + RIDGE * np.eye(len(free))
        step, before = np.linalg.solve(hessian, gradient), loss(beta)
        while loss(beta - step) > before and np.abs(step).max() > 1e-12:
            step /= 2  # a full Newton step can overshoot far from the optimum: halve it until it helps
        beta -= step
    w[free] = beta * scale
    errors = np.sqrt(np.diag(np.linalg.inv(hessian)) / len(y)) * scale
    return w, errors


def fit(args: argparse.Namespace) -> int:
    x, y, games = positions(args.games, args.phase)
    if not len(y):
        print("no positions in that phase")
        return 1
    current = np.array([float(getattr(HARD_WEIGHTS, term)) for term in TERMS] + [0.0] * len(NUISANCE))
    scale = fit_scale(x, y, current)
    print(f"{len(y)} {args.phase} positions from {len(set(games.tolist()))} games; mean label {y.mean():.3f}")
    print(
        f"scale {scale:.0f} (hundredths a unit of log-odds); log loss with current weights {log_loss(x, y, current, scale):.4f}"
    )
    free = [TERMS.index(term) for term in args.terms] + [len(TERMS) + i for i in range(len(NUISANCE))]
    held = games % HOLDOUT_EVERY == 0  # whole games held out: a game's positions share their label
    if held.any() and not held.all():
        train_fit = fit_weights(x[~held], y[~held], current, scale, free)[0]
        print(
            f"held-out games' log loss: current {log_loss(x[held], y[held], current, scale):.4f}, "
            f"fitted on the others {log_loss(x[held], y[held], train_fit, scale):.4f}"
        )
    fitted, errors = fit_weights(x, y, current, scale, free)
    print(f"log loss with fitted weights {log_loss(x, y, fitted, scale):.4f}")
    for i, term in enumerate(TERMS + NUISANCE):
        occurs = int(np.count_nonzero(x[:, i]))
        if i in free:
            err = errors[free.index(i)]
            print(f"  {term:20s} {current[i]:7.1f} -> {fitted[i]:7.1f} (+-{err:.1f}; nonzero in {occurs})")
        else:
            print(f"  {term:20s} {current[i]:7.1f}   held (nonzero in {occurs})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play_parser = sub.add_parser("play", help="play games with a node budget and keep them all")
    play_parser.add_argument("out", type=Path)
    play_parser.add_argument("--pairing", default="hard-peer", help="A-B, levels or sparring players")
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--games", type=int, default=40)
    play_parser.add_argument("--nodes", type=int, default=3000)
    play_parser.add_argument("--opening", type=int, default=0, help="random placements first (more varied games)")
    play_parser.add_argument("--max-plies", type=int, default=400)
    play_parser.add_argument("--jobs", type=int, default=1)
    fit_parser = sub.add_parser("fit", help="fit the weights on the kept games' outcomes")
    fit_parser.add_argument("games", type=Path, nargs="+")
    fit_parser.add_argument("--phase", choices=("placing", "moving", "all"), default="placing")
    fit_parser.add_argument("--terms", nargs="+", default=list(PLACING_TERMS), choices=TERMS)
    args = parser.parse_args(argv)
    return play(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
