"""`python -m engine`: the commands, their output, and one-line errors."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any
from pathlib import Path

import pytest

from engine import GAME_IDS, get_game, load_record, save_record
from engine.cli import TerminalGame

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


def test_perft_morris_4_is_255024() -> None:
    result = run("perft", "morris", "4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "255024"


def test_perft_from_a_position_with_options(tmp_path: Path) -> None:
    cells: dict[str, str | None] = {name: None for name in get_game("three-stones").locations()}
    cells["c3"] = "white"
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"game": "three-stones", "cells": cells, "last": "c3", "to_move": "black"}))
    result = run("perft", "three-stones", "1", "--position", str(path), "--option", "mode=pure-skill")
    assert result.returncode == 0, result.stderr
    # black's stone must go in row 3 or column c: 8 + 8 empty pockets there, 3 stone colours.
    assert result.stdout.strip().splitlines()[-1] == str(16 * 3)


def test_score_prints_the_score_json(tmp_path: Path) -> None:
    cells: dict[str, str | None] = {name: None for name in get_game("three-stones").locations()}
    cells.update({"b2": "white", "c3": "clear", "d4": "white"})
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "three-stones", "cells": cells}))
    result = run("score", str(path))
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert report["scores"] == {"white": 1, "black": 0}
    assert report["items"] == [{"side": "white", "cells": ["b2", "c3", "d4"]}]


@pytest.mark.parametrize(
    "args,content,message",
    [
        (("score", "{path}"), "{not json", "not valid JSON"),
        (("score", "{path}"), '{"game": "go"}', "unknown game"),
        (("score", "{missing}"), None, "cannot read"),
        (("perft", "three-stones", "1", "--option", "mode=bag"), None, "must be one of"),
        (("perft", "three-stones", "1", "--option", "colour=red"), None, "has no option"),
        (("selfplay", "three-stones", "0"), None, "at least one game"),
    ],
)
def test_errors_are_one_line_and_exit_non_zero(tmp_path: Path, args, content, message: str) -> None:
    path = tmp_path / "f.json"
    if content is not None:
        path.write_text(content)
    words = [a.format(path=path, missing=tmp_path / "nope.json") for a in args]
    result = run(*words)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def _clocked_record(elapsed: list) -> str:
    """A three-stones record with the clock on, its move times replaced by `elapsed`."""
    state = get_game("three-stones").new_state({"clock_white_minutes": 1, "clock_black_minutes": 1}, seed=3)
    state.push(state.sample_chance(), seconds=1.0)
    state.push(next(iter(state.legal_moves())), seconds=2.0)
    return json.dumps({**json.loads(json.dumps(save_record(state))), "elapsed": elapsed})


def _empty_position(game_id: str, **fields) -> str:
    cells: dict[str, str | None] = {name: None for name in get_game(game_id).locations()}
    return json.dumps({"game": game_id, "cells": cells, **fields})


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "args,content,message",
    [
        (("score", "{path}"), '{"game": ["morris"], "cells": {}}', "unknown game ['morris']"),
        (("score", "{path}"), DEEP, "nested more than 64 deep"),
        (("play", "morris", "--load", "{path}"), DEEP, "nested more than 64 deep"),
        (("play", "three-stones", "--load", "{path}"), _clocked_record([1.0, "x"]), "'elapsed' of move 2"),
        (("play", "three-stones", "--load", "{path}"), _clocked_record([1.0, {}]), "'elapsed' of move 2"),
        (("play", "three-stones", "--load", "{path}"), _clocked_record([-1e308, 1.0]), "'elapsed' of move 1"),
        (
            ("perft", "three-stones", "1", "--position", "{path}"),
            _empty_position("three-stones", options=5),
            "options must be an object",
        ),
        (
            ("perft", "three-stones", "1", "--position", "{path}", "-o", "mode=pure-skill"),
            _empty_position("three-stones", options=5),
            "options must be an object",
        ),
        (
            ("perft", "three-stones", "1", "--position", "{path}"),
            _empty_position("three-stones", last={}),
            "last must name an occupied pocket",
        ),
        (("perft", "rings", "1", "--position", "{path}"), _empty_position("rings", to_move={}), "to_move must be"),
        (
            ("play", "rings", "--load", "{path}"),
            json.dumps(save_record(get_game("morris").new_state())),
            "a record of morris, not rings",
        ),
        (
            ("play", "morris", "--load", "{path}", "-o", "flying=true"),
            json.dumps(save_record(get_game("morris").new_state())),
            "options and seed come from the record",
        ),
    ],
    ids=[
        "list-game",
        "deep-score",
        "deep-load",
        "elapsed-text",
        "elapsed-object",
        "elapsed-negative",
        "options-5",
        "options-5-merged",
        "last-object",
        "to-move-object",
        "record-of-another-game",
        "options-with-load",
    ],
)
def test_hostile_files_are_refused_in_one_line_with_exit_2(tmp_path: Path, args, content: str, message: str) -> None:
    path = tmp_path / "f.json"
    path.write_text(content)
    result = run(*[a.format(path=path) for a in args])
    assert "Traceback" not in result.stderr
    assert result.returncode == 2, result.stderr[-500:]
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


def test_selfplay_prints_results_and_average_length() -> None:
    result = run("selfplay", "three-stones", "3", "--seed", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 4 and "average length 72.0 moves" in lines[-1]


def test_games_lists_every_game_with_options() -> None:
    result = run("games")
    assert result.returncode == 0
    for game_id in GAME_IDS:
        assert game_id in result.stdout


def test_terminal_play_explains_errors_and_undoes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = "\n".join(["help", "moves", "white@e5", "white@c3", "undo", "white@d3", f"save {save}", "quit"]) + "\n"
    result = run("play", "three-stones", "--vs", "random", "--seed", "1", "-o", "mode=pure-skill", stdin=script)
    assert result.returncode == 0, result.stderr
    assert "illegal: white@e5: e5 is not a pocket" in result.stdout
    assert "legal moves" in result.stdout and "black plays" in result.stdout
    record = load_record(json.loads(save.read_text()))
    assert record.moves_text()[0] == "white@d3"


def test_terminal_play_against_the_computer_gives_hints() -> None:
    """--vs hard: the computer answers within --think, and `hint` names a legal move with its reasoning."""
    script = "\n".join(["hint", "d2", "hint", "quit"]) + "\n"
    result = run("play", "morris", "--vs", "hard", "--think", "0.05", "--seed", "3", stdin=script)
    assert result.returncode == 0, result.stderr
    hints = [line for line in result.stdout.splitlines() if "hint: " in line]
    assert len(hints) == 2, result.stdout
    state = get_game("morris").new_state({}, seed=3)
    first = hints[0].split("hint: ", 1)[1].split(" ", 1)[0]
    state.push(first)  # the first hint is a legal opening move
    assert "black plays" in result.stdout


def test_terminal_play_stops_cleanly_at_end_of_input() -> None:
    result = run("play", "three-stones", "--seed", "1", stdin="")
    assert result.returncode == 0 and "unfinished" in result.stdout


PLAYABLE: list[tuple[str, dict[str, Any]]] = [(g, {}) for g in GAME_IDS] + [
    ("rings", {"players": 4}),
    ("triple-domino", {"players": 1}),
    ("three-stones", {"mode": "pure-skill"}),
    ("rings", {"random_first": True}),
    ("sage-stones", {"players": 3, "play_for_places": True}),
]


@pytest.mark.parametrize("game_id,options", PLAYABLE)
def test_a_person_can_play_each_game_to_the_end(game_id: str, options: dict) -> None:
    """Drive the terminal game with typed moves (chosen at random among the legal ones)."""
    state = get_game(game_id).new_state(options, seed=5)
    chooser = random.Random(5)

    def typed(prompt: str) -> str:
        assert prompt.endswith("> ")
        return str(chooser.choice(list(state.legal_moves())))

    out = io.StringIO()
    TerminalGame(state, set(state.players[:1]), random.Random(1), read=typed, out=out).run()
    assert state.is_over(), out.getvalue()[-2000:]
    assert "Game over" in out.getvalue()
