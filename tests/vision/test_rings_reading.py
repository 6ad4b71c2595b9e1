"""Rings readings: the fit refined on its stones, and how sure a reading may be of a fit whose
board marks barely show."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from fit_error import error_units
from vision import pipeline
from vision.detect import Detection
from vision.layouts import get_layout
from vision.refine import line_refine
from vision.tuning import CHECK_BELOW, SURE_FIT

PHOTOS = Path(__file__).parent / "photos"
RINGS = get_layout("rings")


def _found_at_truth(evidence: float):
    """A board search that finds rings_3000's board exactly, its marks showing `evidence`."""
    meta = json.loads((PHOTOS / "rings_3000.json").read_text())
    seen = np.array([meta["cell_px"][i] for i in RINGS.ids], np.float64)
    truth, _ = cv2.findHomography(RINGS.xy.astype(np.float64), seen, 0)

    def find_board(img, layout, pool, deadline=None) -> Detection:
        return Detection(H=truth, score=0.5, support=1.0, evidence=evidence)

    return meta, find_board


@pytest.mark.parametrize("evidence", [SURE_FIT["rings"] - 0.1, SURE_FIT["rings"] + 0.3])
def test_a_fit_whose_marks_barely_show_has_every_cell_checked(monkeypatch, evidence):
    # rings' circles and locations repeat: a fit a whole lattice step off still lays a third of
    # its circles on drawn ones (two photos of the wide set were read so, every cell sure and wrong)
    meta, find_board = _found_at_truth(evidence)
    monkeypatch.setattr(pipeline, "find_board", find_board)
    reading = pipeline.read_board(PHOTOS / meta["image"], "rings")
    sure = [c for c in reading.confidence.values() if c >= CHECK_BELOW]
    assert (not sure) if evidence < SURE_FIT["rings"] else len(sure) > 100


def test_a_crowded_board_is_refit_on_its_stones_at_the_height_they_show() -> None:
    # 202 stones, tilted 37 degrees: a stone's round edge shows a stone's lift above its
    # location, toward the camera; refit there as if on the board, the fit slid 0.15 units off
    meta = json.loads((PHOTOS / "hard" / "rings_19017.json").read_text())
    seen = np.array([meta["cell_px"][i] for i in RINGS.ids], np.float64)
    truth, _ = cv2.findHomography(RINGS.xy.astype(np.float64), seen, 0)
    photo = cv2.imread(str(PHOTOS / "hard" / meta["image"]))
    assert photo is not None
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY).astype(np.float32)
    start = truth @ np.array([[1.0, 0.0, 0.06], [0.0, 1.0, -0.05], [0.0, 0.0, 1.0]])
    assert error_units(line_refine(gray, start, RINGS), truth, "rings") < 0.05
