"""Drawn boards' line evidence: where a fit's line samples find their line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.evidence import _lens_offsets, line_evidence
from vision.io import read_image
from vision.layouts import get_layout
from vision.memo import gray32
from vision.pipeline import true_fit
from vision.tuning import LINE_HALF_WIDTH

HARD = Path(__file__).parent / "photos" / "hard"


def _profiles(inner: float, outer: float, offs: np.ndarray, samples: int = 40) -> np.ndarray:
    """Line strength across `samples` line samples: a flat band from `inner` to `outer` (board units),
    of a strength that differs from sample to sample (the strongest three fifths count as lines)."""
    band = ((offs >= inner) & (offs <= outer)).astype(np.float64)
    return np.linspace(5.0, 15.0, samples)[:, None] * band[None]


def test_a_band_of_two_merged_lines_is_placed_by_its_outer_edge() -> None:
    # a 0.1 board unit line on the fit's circle, merged with its neighbour's 0.15 inside it: a band
    # from -0.2 to +0.05, whose strongest place is anywhere across it
    offs = np.linspace(-0.2, 0.45, 40)
    vals = _profiles(-0.2, 0.05, offs)
    off, peak = _lens_offsets(offs, vals, vals.max(1))
    assert np.all(np.abs(off) < 0.01) and np.all(peak > 0)


def test_an_edge_no_line_is_that_wide_from_the_fit_is_off_the_line() -> None:
    # every sample's band ends 0.35 outside the fit's circle (a fit a third of a triangle off, on other
    # marks): the same distance everywhere, but no line is that wide
    offs = np.linspace(-0.2, 0.45, 40)
    vals = _profiles(0.25, 0.35, offs)
    off, _ = _lens_offsets(offs, vals, vals.max(1))
    assert np.all(off > 0.35 - LINE_HALF_WIDTH - 0.03)


def test_an_edge_past_the_reach_counts_as_no_line() -> None:
    offs = np.linspace(-0.2, 0.45, 40)
    vals = _profiles(-0.1, 0.5, offs)
    _, peak = _lens_offsets(offs, vals, vals.max(1))
    assert np.all(peak == 0)


def test_wide_lines_show_where_the_true_fit_puts_them_and_not_a_tenth_off() -> None:
    # rings_83011 (seed 83): 5.7 mm dark ink on oak.  Its true fit showed 0.46 of its line samples on
    # their line (the band's strongest place anywhere across it), a fit a tenth of a unit off 0.18
    meta = json.loads((HARD / "rings_83011.json").read_text())
    layout = get_layout("rings")
    gray = gray32(read_image(HARD / meta["image"]))
    fit = true_fit(meta)
    off = fit @ np.array([[1.0, 0.0, 0.1], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert line_evidence(gray, fit, layout) >= 0.7
    assert line_evidence(gray, off, layout) <= 0.45
