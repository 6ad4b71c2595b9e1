"""How much of the drawn boards' search a photo needs (`vision.detect.find_board`): the structure
search only where the regions' fits leave the lines unclear."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vision.detect as detect
from fit_error import error_units
from vision.io import read_image
from vision.layouts import get_layout
from vision.pipeline import detection_pool, true_fit

PHOTOS = Path(__file__).parent / "photos"


def _never(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("searched for, though the photo did not need it")


@pytest.mark.parametrize("name", ["morris_3001", "rings_3000"])
def test_a_board_its_regions_fit_clearly_needs_no_structure_search(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(detect, "honeycomb_candidates", _never)
    monkeypatch.setattr(detect, "line_candidates", _never)
    meta = json.loads((PHOTOS / f"{name}.json").read_text())
    found = detect.find_board(read_image(PHOTOS / f"{name}.jpg"), get_layout(meta["game"]), detection_pool())
    assert error_units(found.H, true_fit(meta), meta["game"]) < 0.1


def test_a_refinement_start_left_where_another_is_is_refined_once() -> None:
    """The outline's and the snap's starts often land on the first: refining them again costs a
    line refinement and finds the same fit; a start that moved the board is kept."""
    from vision.tuning import SAME_START

    layout = get_layout("morris")
    H = np.array([[30.0, 2.0, 400.0], [-1.0, 28.0, 300.0], [0.0002, 0.0001, 1.0]])
    shifted = H @ np.array([[1.0, 0.0, 0.1], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])  # the board 0.1 units along
    nearly = H @ np.array([[1.0, 0.0, SAME_START / 4], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    kept = detect.distinct_starts([H, nearly, shifted, shifted.copy()], layout)
    assert len(kept) == 2 and kept[0] is H and kept[1] is shifted
    assert len(detect.distinct_starts([H, shifted], layout)) == 2
