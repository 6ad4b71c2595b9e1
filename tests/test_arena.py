"""The arena (bench/arena.py) plays, counts and keeps the games A lost for study."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import pytest

from engine import get_game

ARENA = Path(__file__).resolve().parent.parent / "bench" / "arena.py"


def _arena():
    spec = importlib.util.spec_from_file_location("arena", ARENA)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_arena_reports_and_keeps_the_lost_games(tmp_path: Path, capsys) -> None:
    records = tmp_path / "lost.jsonl"
    _arena().main(
        [
            "morris",
            "random",
            "hard",
            "--games",
            "2",
            "--seed",
            "3",
            "--seconds",
            "0",
            "--nodes",
            "300",
            "--quiet",
            "--records",
            str(records),
        ]
    )
    out = capsys.readouterr().out
    assert "A (random) wins 0, draws 0, losses 2; 2 different games" in out
    lost = [json.loads(line) for line in records.read_text().splitlines()]
    assert [game["index"] for game in lost] == [0, 1]
    for game in lost:  # each record replays to the end it reports: A's seat lost
        state = get_game("morris").new_state(game["options"], seed=0)
        for move in game["moves"]:
            state.push(state.parse_move(move))
        assert state.is_over()
        outcome = state.outcome()
        assert outcome is not None and state.players[game["a_seat"]] not in outcome.winners


def test_arena_plays_one_seat_with_the_full_arenas_games(tmp_path: Path, capsys) -> None:
    # --seat 2: only the odd games (A second), each the same game as in the arena of both seats.
    arena = _arena()
    lost = {}
    for name, seat in (("both", []), ("second", ["--seat", "2"])):
        records = tmp_path / f"{name}.jsonl"
        common = ["morris", "random", "medium", "--games", "4", "--seed", "5", "--seconds", "0", "--nodes", "200"]
        arena.main([*common, "--quiet", "--records", str(records), *seat])
        lost[name] = [json.loads(line) for line in records.read_text().splitlines()]
    out = capsys.readouterr().out
    assert "random vs medium: 2 games, A in seat 2 only" in out
    assert [(game["index"], game["a_seat"]) for game in lost["second"]] == [(1, 1), (3, 1)]
    assert [game["moves"] for game in lost["second"]] == [game["moves"] for game in lost["both"] if game["a_seat"] == 1]


def test_arena_plays_a_level_against_the_sparring_players(capsys) -> None:
    arena = _arena()
    arena.main(["morris", "hard", "peer", "--games", "2", "--seed", "2", "--seconds", "0", "--nodes", "200", "--quiet"])
    arena.main(
        ["sage-stones", "uct", "medium", "--games", "2", "--seed", "2", "--seconds", "0", "--nodes", "20", "--quiet"]
    )
    out = capsys.readouterr().out
    assert "morris  hard vs peer: 2 games" in out and "sage-stones  uct vs medium: 2 games" in out
    assert out.count("2 different games") == 2


@pytest.mark.skipif(not hasattr(time, "thread_time"), reason="no per-thread CPU clock here (Emscripten)")
def test_arena_counts_the_budgets_on_the_clock_it_is_told(capsys) -> None:
    arena = _arena()
    arena.main(["morris", "medium", "peer", "--games", "2", "--seconds", "0.05", "--clock", "cpu", "--quiet"])
    out = capsys.readouterr().out
    assert "budget 0.05 s cpu per move" in out
    assert out.count("ms/move") == out.count("(cpu clock)") == 2


def test_blunders_marks_the_move_that_leaves_a_mill_open(tmp_path: Path, capsys) -> None:
    # bench/blunders.py: white (hard) places d2 while black's g1-g4 waits for g7; g7 was the move.
    spec = importlib.util.spec_from_file_location("blunders", ARENA.parent / "blunders.py")
    assert spec is not None and spec.loader is not None
    blunders = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(blunders)
    record = {
        "game": "morris",
        "options": {},
        "index": 0,
        "a_seat": 0,
        "a": "hard",
        "b": "peer",
        "seed": 1,
        "moves": ["a1", "g1", "d7", "g4", "d2", "g7xa1"],
    }
    records = tmp_path / "lost.jsonl"
    records.write_text(json.dumps(record) + "\n")
    # at depth 3 hard puts d2 0.77 of a piece below g7 and d7 0.48 below a7 (the eighth session's weights):
    # a threshold between the two marks d2 alone
    mistakes = blunders.scan(record, depth=3, peer_depth=2, threshold=60, plies=6)
    assert len(mistakes) == 1
    assert mistakes[0].startswith("game 1 ply 4 white: played d2, better g7 (hard ")
    assert "peer " in mistakes[0] and mistakes[0].endswith("<- mistake")
    assert blunders.main([str(records), "--depth", "3", "--peer-depth", "0", "--plies", "6", "--threshold", "60"]) == 0
    out = capsys.readouterr().out
    assert "ply 0 white: played a1" in out and "ply 2 white: played d7" in out and "ply 1 " not in out
    assert blunders.main([str(records), "--depth", "3", "--peer-depth", "0", "--plies", "6", "--from-ply", "2"]) == 0
    out = capsys.readouterr().out
    assert "ply 2 white: played d7" in out and "ply 0 " not in out  # the placing's first moves skipped
