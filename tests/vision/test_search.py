"""How much of the drawn boards' search a photo needs (`vision.detect.find_board`): the structure
search only where the regions' fits leave the lines unclear, the full-resolution polish only for
fits that show the drawing, and the thin-line maps on 8 bits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.detect as detect
from fit_error import error_units
from vision.errors import VisionError
from vision.io import read_image
from vision.layouts import get_layout
from vision.pipeline import detection_pool, read_board, true_fit
from vision.segment import thin_lines

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


@pytest.mark.parametrize(("name", "asked"), [("morris_3000", "rings")])
def test_another_games_board_is_refused_without_a_full_resolution_polish(
    name: str, asked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its drawing does not show under any candidate on the small copy (MIN_DRAWING): the line
    refinement at full resolution, most of a search's time, never runs, and the refusal says why."""
    img = read_image(PHOTOS / f"{name}.jpg")
    with monkeypatch.context() as search:
        search.setattr(detect, "line_refine", _never)
        with pytest.raises(VisionError) as refused:
            detect.find_board(img, get_layout(asked), detection_pool())
    assert refused.value.code == "no_board" and f"no {asked} board found" in str(refused.value)
    # the reading names the board it found instead
    with pytest.raises(VisionError) as named:
        read_board(img, asked)
    assert (
        named.value.code == "wrong_game"
        and str(named.value) == f"this looks like a {name.split('_')[0]} board, not {asked}"
    )


def test_thin_lines_on_8_bits_keep_the_strokes_of_a_float_image() -> None:
    """A float image's strokes, found on its levels stretched over 8 bits, are the float
    morphology's within a level (a stroke's strength is compared against STRONG_PEAK = 2)."""
    rng = np.random.default_rng(5)
    img = cv2.GaussianBlur(rng.uniform(90, 160, (120, 160)).astype(np.float32), (0, 0), 2.0)
    cv2.line(img, (10, 60), (150, 70), 40.0, 2)
    cv2.circle(img, (80, 60), 30, 210.0, 2)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    exact = cv2.morphologyEx(img, cv2.MORPH_BLACKHAT, kernel), cv2.morphologyEx(img, cv2.MORPH_TOPHAT, kernel)
    for fast, slow in zip(thin_lines(img, 9), exact, strict=True):
        assert fast.dtype == np.float32
        assert np.abs(fast - slow).max() <= 1.0
