"""Canonical layouts: the engine's geometry, checked against SPEC 3 and on the shared ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine import get_game
from vision.layouts import GAMES, SQRT3, get_layout, permutation

SHARED = Path(__file__).resolve().parents[3] / "shared" / "photos"
COUNTS = {"three-stones": 76, "morris": 24, "rings": 216, "sage-stones": 63}


def spec_ids(game: str) -> set[str]:
    """The id set read from SPEC section 3 alone (an independent check of the engine's geometry)."""
    if game == "three-stones":
        return {f"{c}{r}" for c in "abcdefghi" for r in range(1, 10)} - {"e5", "a1", "a9", "i1", "i9"}
    if game == "morris":
        return set("a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7".split())
    if game == "rings":  # a triangle of the lattice with a corner on a full circle (hex distance <= 5)

        def full(q: int, r: int) -> bool:
            return max(abs(q), abs(r), abs(q + r)) <= 5

        ups = {
            f"U{q},{r}" for q in range(-7, 7) for r in range(-7, 7) if full(q, r) or full(q + 1, r) or full(q, r + 1)
        }
        downs = {
            f"D{q},{r}"
            for q in range(-7, 7)
            for r in range(-7, 7)
            if full(q + 1, r) or full(q, r + 1) or full(q + 1, r + 1)
        }
        return ups | downs
    return {f"c{c}r{r}" for c in range(3, 10) for r in range(1, 10)}


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
