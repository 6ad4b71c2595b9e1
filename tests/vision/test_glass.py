"""The generator's glass (`design._glass`, `povscene.stone_material`): coloured glass a design lets
the board show through, water-clear clear glass, and the first generator's dense glass kept for a share."""

from __future__ import annotations

import re

import numpy as np

from vision.photogen.design import DENSE_GLASS, GREEN_FADE_CM, sample_design
from vision.photogen.povscene import stone_material

PURPLE = (120, 48, 160)


def filter_of(material: str) -> float:
    """The filter (share of light let through) of a POV-Ray material's pigment."""
    found = re.search(r"rgbf <[^>]*, ([0-9.]+)>", material)
    assert found, material
    return float(found.group(1))


def test_coloured_glass_lets_the_design_s_share_through_and_black_and_white_glass_none():
    assert filter_of(stone_material("purple", "glass", PURPLE, glass_filter=0.6)) == 0.6
    assert filter_of(stone_material("black", "glass", (22, 22, 26), glass_filter=0.6)) == DENSE_GLASS
    assert filter_of(stone_material("white", "glass", (240, 240, 232), glass_filter=0.6)) == DENSE_GLASS
    # the first generator's glass, as every photo made before drew it
    first = stone_material("purple", "glass", PURPLE)
    assert filter_of(first) == DENSE_GLASS and "diffuse 0.550" in first
    assert "fade_distance 2.00" in stone_material("clear", "glass", (235, 245, 240))
    assert "fade_distance 24.00" in stone_material("clear", "glass", (235, 245, 240), clear_fade_cm=24.0)


def test_designs_draw_see_through_glass_and_keep_the_first_glass_for_a_share():
    designs = [sample_design("three-stones", np.random.default_rng(seed)) for seed in range(99000, 99060)]
    first = [d for d in designs if (d.glass_filter, d.clear_fade_cm) == (DENSE_GLASS, GREEN_FADE_CM)]
    clearer = [d for d in designs if d.glass_filter > DENSE_GLASS and d.clear_fade_cm > GREEN_FADE_CM]
    assert first and clearer and len(first) + len(clearer) == len(designs)
    assert all("glass_filter" in d.to_dict() and "clear_fade_cm" in d.to_dict() for d in designs)
