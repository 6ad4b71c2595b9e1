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


def test_the_second_renderers_photos_are_never_learnt_from(tmp_path):
    (tmp_path / "morris_b101000.json").write_text(json.dumps(
        {"game": "morris", "image": "morris_b101000.jpg", "render": {"generator": "vision.photogen.blender", "seed": 101000}}))
    with pytest.raises(SystemExit, match="testing only"):
        collect([tmp_path], np.random.default_rng(0), verbose=False)


def _record(tmp_path, name: str, line_tone: str) -> None:
    (tmp_path / f"{name}.json").write_text(json.dumps(
        {"game": "morris", "image": f"{name}.jpg",
         "render": {"generator": "vision.photogen", "seed": 41000 + len(name), "design": {"line_tone": line_tone}}}))


def test_without_leaves_a_design_out(tmp_path):
    from vision.photogen.train import training_photos
    _record(tmp_path, "morris_41001", "light")
    _record(tmp_path, "morris_41002x", "dark")
    kept = [jf.stem for jf, _ in training_photos([tmp_path], without=("line_tone=light",))]
    assert kept == ["morris_41002x"]
    assert len(training_photos([tmp_path], without=("line_tone=light|dark",))) == 0
    with pytest.raises(KeyError, match="no design parameter"):
        training_photos([tmp_path], without=("colour=red",))


def test_a_forest_trained_on_other_feature_columns_is_refused(tmp_path):
    import shutil

    from vision import classify
    shutil.copy(classify.model_path("morris"), tmp_path / "cells-morris.xml.gz")
    classify.use_models(tmp_path)
    try:
        (tmp_path / "cells-morris.json").write_text(json.dumps({"features": ["L0", "a0", "something else"]}))
        with pytest.raises(RuntimeError, match="other feature columns"):
            classify.load_model("morris")
        (tmp_path / "cells-morris.json").write_text(json.dumps({"features": classify.feature_names()}))
        assert classify.load_model("morris") is not None
    finally:
        classify.use_models(None)
