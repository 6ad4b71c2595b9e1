"""The cell-classifier trainer's guards: it never learns from a held-out photo."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.photogen.train import collect, main


def test_a_held_out_photo_is_refused_before_anything_is_learnt(tmp_path):
    # a ground-truth record of the test set (render seed 1000 -> --seed 1)
    (tmp_path / "morris_1000.json").write_text(json.dumps(
        {"game": "morris", "image": "morris_1000.jpg", "render": {"generator": "vision.photogen", "seed": 1000}}))
    with pytest.raises(SystemExit, match="held out"):
        collect([tmp_path], np.random.default_rng(0), verbose=False)


def test_games_without_per_game_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main([str(tmp_path), "--games", "morris"])
    assert e.value.code == 2
    assert "--per-game" in capsys.readouterr().err


def test_an_unknown_game_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main([str(tmp_path), "--per-game", "--games", "morris,chess"])
    assert e.value.code == 2
    assert "unknown chess" in capsys.readouterr().err
