"""Rings boards found by the honeycomb of their locations (`vision.honeycomb`), not by standing
out from the table."""

from __future__ import annotations

import cv2
import numpy as np

from fit_error import error_units, view
from vision.honeycomb import board_hypotheses, board_lattice, grow_honeycomb, honeycombs
from vision.layouts import get_layout

RINGS = get_layout("rings")


def test_the_board_lies_on_its_lattice_and_its_circle_centres_are_the_holes() -> None:
    board = board_lattice()
    at = lambda c: np.c_[c, np.ones(len(c))] @ board.A.T[:, :2]  # noqa: E731
    assert np.allclose(at(board.locations), RINGS.xy)
    # every hole is a full circle's centre: six locations around it, 1/sqrt(3) away
    around = np.linalg.norm(at(board.holes)[:, None] - RINGS.xy[None], axis=2)
    assert (np.sum(np.abs(around - 1 / np.sqrt(3)) < 1e-6, axis=1) == 6).all()
    assert len(board.holes) == 91


def test_a_half_filled_board_is_laid_on_its_honeycomb_at_its_place() -> None:
    """The marks of 60% of the locations (stones, markers) found to a pixel, and the table's own
    pattern: the honeycomb grows through the gaps and the board is laid where its marks are."""
    rng = np.random.default_rng(7)
    truth = view(35.0, 17.0, 22.0, centre=(400.0, 300.0))
    kept = RINGS.xy[rng.random(len(RINGS.xy)) < 0.6]
    marks: np.ndarray = cv2.perspectiveTransform(kept.reshape(-1, 1, 2), truth).reshape(-1, 2)
    marks = marks + rng.normal(0, 0.7, marks.shape)
    stray = rng.uniform((0, 0), (800, 600), (60, 2))
    pts = np.vstack([marks, stray])[rng.permutation(len(marks) + 60)]
    found = [lat for k in range(8) if (lat := grow_honeycomb(pts, np.ones(len(pts)), k)) is not None]
    assert found
    lattice = max(found, key=lambda lat: len(lat.coords))
    assert len(lattice.coords) >= 0.9 * len(kept)
    score, H = board_hypotheses(lattice, RINGS)[0]
    assert score > 0.5
    assert error_units(H, truth, "rings") < 0.05


def test_no_honeycomb_in_a_photo_of_no_board() -> None:
    rng = np.random.default_rng(3)
    noise = cv2.GaussianBlur(rng.uniform(0, 255, (600, 800)).astype(np.float32), (0, 0), 3.0)
    assert honeycombs(noise) == []
