"""The outcome fit of morris hard's evaluation weights (bench/texel.py): features, fit, play and fit end to end."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np

from engine import get_game
from engine.ai.games.morris import HARD_WEIGHTS, evaluate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import texel  # noqa: E402


def test_the_features_weighted_give_the_evaluation() -> None:
    """The fit relies on the evaluation being linear in its weights: every position of a random game checks it."""
    state = get_game("morris").new_state({}, seed=0)
    rng = random.Random(5)
    weights = [float(getattr(HARD_WEIGHTS, term)) for term in texel.TERMS]
    checked = 0
    while not state.is_over() and state.ply < 120:
        value = sum(w * f for w, f in zip(weights, texel.features(state)))
        assert abs(value - evaluate(state)) < 1e-9
        checked += 1
        state.push(rng.choice(list(state.legal_moves())))
    assert checked > 18  # the placing and some moving


def test_the_fit_finds_the_weight_the_outcomes_were_drawn_with() -> None:
    rng = np.random.default_rng(3)
    n = 20_000
    x = np.column_stack([rng.integers(-3, 4, n), rng.integers(-6, 7, n)]).astype(float)
    true = np.array([100.0, 40.0])  # the first held at 100 (a piece), the second to find
    scale = 150.0
    p = 1 / (1 + np.exp(-(x @ true) / scale))
    y = (rng.random(n) < p).astype(float)
    fitted, errors = texel.fit_weights(x, y, np.array([100.0, 5.0]), scale, free=[1])
    assert abs(fitted[1] - 40) < 3 * errors[0]
    assert fitted[0] == 100
    assert abs(texel.fit_scale(x, y, true) - scale) < 15


def test_play_keeps_every_game_and_fit_reads_them(tmp_path: Path, capsys) -> None:
    games = tmp_path / "games.jsonl"
    texel.main(["play", str(games), "--pairing", "hard-peer", "--games", "2", "--nodes", "200", "--seed", "4"])
    records = [json.loads(line) for line in games.read_text().splitlines()]
    assert [r["index"] for r in records] == [0, 1] and [r["a_seat"] for r in records] == [0, 1]
    assert all(r["winner"] in (None, 0, 1) and len(r["moves"]) >= 18 for r in records)
    capsys.readouterr()
    texel.main(["fit", str(games), "--terms", "placing_mobility"])
    out = capsys.readouterr().out
    assert "36 placing positions from 2 games" in out
    assert "placing_mobility" in out and "->" in out
