"""How much of the drawn boards' search a photo needs (`vision.detect.find_board`): the structure
search only where the regions' fits leave the lines unclear."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
