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
from vision.errors import VisionError
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


@pytest.mark.parametrize("name", ["morris_3001", "rings_3000"])
def test_a_glance_finds_a_board_that_stands_out_as_the_search_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal's glance at a drawn board (`find_board(..., glance=True)`) polishes the best region's fit
    alone and searches no structure: where the board stands out, the fit the whole search finds."""
    meta = json.loads((PHOTOS / f"{name}.json").read_text())
    img, layout = read_image(PHOTOS / f"{name}.jpg"), get_layout(meta["game"])
    searched = detect.find_board(img, layout, detection_pool())
    finals: list[int] = []
    outline_refine = detect.outline_refine

    def counted_final(photo: np.ndarray, H: np.ndarray, layout: Any) -> np.ndarray:
        finals.append(1)  # once for each candidate refined at full resolution
        return outline_refine(photo, H, layout)

    monkeypatch.setattr(detect, "outline_refine", counted_final)
    monkeypatch.setattr(detect, "honeycomb_candidates", _never)
    monkeypatch.setattr(detect, "line_candidates", _never)
    glanced = detect.find_board(img, layout, detection_pool(), glance=True)
    assert len(finals) == 1
    assert error_units(glanced.H, searched.H, meta["game"]) < 1e-6
    assert glanced.evidence == searched.evidence


def test_a_glance_at_a_photo_of_another_board_polishes_one_fit() -> None:
    """The whole search polished up to five fits of a pocket board as rings (ECC a third of a second each)."""
    img = read_image(PHOTOS / "three-stones_3000.jpg")
    finals: list[int] = []
    outline_refine = detect.outline_refine

    def counted_final(photo: np.ndarray, H: np.ndarray, layout: Any) -> np.ndarray:
        finals.append(1)
        return outline_refine(photo, H, layout)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(detect, "outline_refine", counted_final)
        try:
            detect.find_board(img, get_layout("rings"), detection_pool(), glance=True)
        except VisionError:
            pass
    assert len(finals) == 1
