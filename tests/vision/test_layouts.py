"""Canonical layouts: ids from the engine, geometry from SPEC 3, checked on the shared ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine import get_game
from vision.layouts import GAMES, SQRT3, get_layout, permutation, spec_ids

SHARED = Path(__file__).resolve().parents[3] / "shared" / "photos"
COUNTS = {"three-stones": 76, "morris": 24, "rings": 216, "sage-stones": 63}


@pytest.mark.parametrize("game", GAMES)
def test_ids_match_engine_and_spec(game):
    layout = get_layout(game)
    assert set(layout.ids) == set(get_game(game).locations())
    assert set(layout.ids) == spec_ids(game)
    assert layout.n == COUNTS[game] == len(set(layout.ids))


@pytest.mark.parametrize("game", GAMES)
def test_symmetries_permute_locations(game):
    layout = get_layout(game)
    for S in layout.symmetries:
        perm = permutation(layout, S)
        assert sorted(perm) == list(range(layout.n))


def test_rings_geometry_follows_spec():
    layout = get_layout("rings")
    xy = dict(zip(layout.ids, layout.xy))
    # U0,0 is the centroid of (0,0), (1,0), (0,1)
    assert np.allclose(xy["U0,0"], [(0 + 1 + 0.5) / 3, (SQRT3 / 2) / 3])
    assert np.allclose(xy["D0,0"], [(1 + 0.5 + 1.5) / 3, (SQRT3 / 2 * 2) / 3])


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared example photos not present")
@pytest.mark.parametrize("name", sorted(p.stem for p in SHARED.glob("*.json")) if SHARED.is_dir() else [])
def test_layout_matches_shared_ground_truth(name):
    """The example boards' own outline (in pitches) maps every location onto its true pixel."""
    meta = json.loads((SHARED / f"{name}.json").read_text())
    layout = get_layout(meta["game"])
    bc = meta["render"]["board_cm"]
    unit = bc["pitch"] * (SQRT3 if meta["game"] == "rings" else 1.0)
    outline = np.array(bc["outline"]) / unit
    H, _ = cv2.findHomography(outline, np.array(meta["board_corners"]))
    pts = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H).reshape(-1, 2)
    truth = np.array([meta["cell_px"][i] for i in layout.ids])
    assert np.abs(pts - truth).max() < 2.0
    # and the nominal outline is within a few per cent of this board's
    assert np.abs(layout.outline - outline).max() < 0.25
