"""The cell-classifier trainer's guards: it never learns from a held-out photo."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.photogen.train import collect, main


def test_a_held_out_photo_is_refused_before_anything_is_learnt(tmp_path):
    # a ground-truth record of the test set (render seed 1000 -> --seed 1)
    (tmp_path / "morris_1000.json").write_text(
        json.dumps(
            {"game": "morris", "image": "morris_1000.jpg", "render": {"generator": "vision.photogen", "seed": 1000}}
        )
    )
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
    (tmp_path / "morris_b101000.json").write_text(
        json.dumps(
            {
                "game": "morris",
                "image": "morris_b101000.jpg",
                "render": {"generator": "vision.photogen.blender", "seed": 101000},
            }
        )
    )
    with pytest.raises(SystemExit, match="testing only"):
        collect([tmp_path], np.random.default_rng(0), verbose=False)


def test_a_training_folder_that_is_not_there_is_refused_not_skipped(tmp_path):
    from vision.photogen.train import training_photos

    _record(tmp_path, "morris_41001", "dark")
    with pytest.raises(SystemExit, match="train53: no such folder"):
        training_photos([tmp_path, tmp_path / "train53"])


def _record(tmp_path, name: str, line_tone: str) -> None:
    (tmp_path / f"{name}.json").write_text(
        json.dumps(
            {
                "game": "morris",
                "image": f"{name}.jpg",
                "render": {
                    "generator": "vision.photogen",
                    "seed": 41000 + len(name),
                    "design": {"line_tone": line_tone},
                },
            }
        )
    )


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
    # the columns it was trained on: the first of `feature_names()` (features are only appended)
    trained = classify.read_manifest(classify.model_path("morris"))["features"]
    classify.use_models(tmp_path)
    try:
        (tmp_path / "cells-morris.json").write_text(json.dumps({"features": ["L0", "a0", "something else"]}))
        with pytest.raises(RuntimeError, match="other feature columns"):
            classify.load_model("morris")
        (tmp_path / "cells-morris.json").write_text(json.dumps({"features": trained}))
        assert classify.load_model("morris") is not None
    finally:
        classify.use_models(None)


def _forest_in(tmp_path, features):
    """The committed morris forest copied to tmp_path, with a manifest naming `features` (None: none)."""
    import shutil

    from vision import classify

    shutil.copy(classify.model_path("morris"), tmp_path / "cells-morris.xml.gz")
    if features is not None:
        (tmp_path / "cells-morris.json").write_text(json.dumps({"features": features}))
    classify.use_models(tmp_path)


def test_a_forest_without_a_manifest_is_refused(tmp_path):
    from vision import classify

    _forest_in(tmp_path, None)
    try:
        with pytest.raises(RuntimeError, match="cells-morris.xml.gz has no manifest"):
            classify.load_model("morris")
    finally:
        classify.use_models(None)


def test_a_manifest_naming_fewer_columns_than_the_forest_reads_is_refused(tmp_path):
    from vision import classify

    _forest_in(tmp_path, classify.feature_names()[:30])
    try:
        with pytest.raises(RuntimeError, match="names 30, the forest reads 38"):
            classify.load_model("morris")
    finally:
        classify.use_models(None)


@pytest.mark.parametrize(
    "forest", sorted(p.name for p in (Path(__file__).parents[2] / "vision" / "model").glob("*.xml.gz"))
)
def test_every_committed_forest_says_what_it_learnt_and_how_well_it_reads(forest):
    import cv2

    from vision import classify

    path = classify.MODEL_PATH.with_name(forest)
    manifest = classify.read_manifest(path)
    assert len(manifest["features"]) == cv2.ml.RTrees.load(str(path)).getVarCount()
    assert manifest["seeds"] and manifest["trees"] > 0
    assert 0.9 < manifest["metrics"]["accuracy"] <= 1.0 and manifest["metrics"]["cells"] > 100
    assert classify.load_model(None if forest == "cells.xml.gz" else forest[6:-7]) is not None


def test_the_check_share_is_seeded_and_never_learnt_from():
    from vision.photogen.train import split_photos

    photos: list[tuple[Path, dict]] = [(Path(f"p{i}.json"), {}) for i in range(10)]
    learn, check = split_photos(photos, 0.2, seed=0)
    assert len(check) == 2 and len(learn) == 8
    assert not {jf for jf, _ in learn} & {jf for jf, _ in check}
    assert split_photos(photos, 0.2, seed=0) == (learn, check)
    assert split_photos(photos, 0.0, seed=0) == (photos, [])


def test_training_writes_a_held_out_shares_accuracy_in_the_manifest(tmp_path):
    import shutil

    from vision import classify

    photos = Path(__file__).parent / "photos"
    for k, name in enumerate(("morris_3000", "morris_3001", "morris_3002")):
        meta = json.loads((photos / f"{name}.json").read_text())
        meta["render"]["seed"] = 41000 + k  # as if rendered for training
        (tmp_path / f"{name}.json").write_text(json.dumps(meta))
        shutil.copy(photos / meta["image"], tmp_path / meta["image"])
    out = tmp_path / "model" / "cells.xml.gz"
    assert main([str(tmp_path), "--out", str(out), "--trees", "4", "--check-share", "0.34"]) == 0
    manifest = classify.read_manifest(out)
    metrics = manifest["metrics"]
    assert len(metrics["check_photos"]) == 1 and metrics["cells"] == 24
    assert 0.0 <= metrics["accuracy"] <= 1.0
    assert manifest["trees"] == 4 and manifest["seeds"] == [41]
