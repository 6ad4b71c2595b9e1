"""A colour of the set a pocket board's reading leaves out, found among the cells read empty.

Stones drawn from a box of 30 black, 30 white and 12 clear hold every colour once there are a dozen of
them; a reading of forty stones with no white one took the white stones for something else, and on
a pocket board the forest's likeliest mistake is the empty pocket (Blender dev 117006: 25 white glass
stones on light wood read empty beside 18 black; 117003: 18 white glass on paper printed with rings).
The cells read empty are then two looks, the pockets' one and the stones', scattered among each other
as a game places stones, where without the missing colour two such looks could be a lamp's two halves.
A missing black may instead have been named by a colour its glass shows (`darkest_hue_may_be_black`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from .classify import ABSENT_COLOUR_CHANCE, MIN_LOOK, feature_names, two_groups
from .naming import HUELESS, LIT_REGIONS, colour_space, region_kappa
from .tuning import EMPTY_LOOKS_TIGHT, RENAMED_CONFIDENCE


def chance_missing(colour: str, drawn: int, stone_set: Mapping[str, int]) -> float:
    """The chance that `drawn` stones taken at random from the box (`stone_set`: colour -> how many) hold no
    stone of `colour` (1 when the set is not counted)."""
    total = sum(stone_set.values())
    if not total or drawn > total:
        return 1.0 if not total else 0.0
    return math.comb(total - stone_set[colour], drawn) / math.comb(total, drawn)


def colour_looks(colours: np.ndarray) -> np.ndarray | None:
    """The colour rows split in two looks (`classify.two_groups`) that stand `EMPTY_LOOKS_TIGHT` times their
    spread apart, else None.  No floor on the distance: the missing colour already says one of the looks is
    stones, and glass takes on the pockets' colour, all but its tint."""
    return two_groups(colours, 0.0, EMPTY_LOOKS_TIGHT)


def missing_colour_found(
    labels: Sequence[str | None],
    conf: Sequence[float],
    feats: np.ndarray,
    empty_share: np.ndarray,
    stone_set: Mapping[str, int],
    where: np.ndarray,
) -> tuple[list[str | None], list[float]]:
    """The labels and confidences after, where a colour of the set is missing that a random draw of as many
    stones would hold all but surely (`ABSENT_COLOUR_CHANCE`), the cells read empty form two colour looks
    (`colour_looks`) scattered among each other (`naming.region_kappa` under `LIT_REGIONS`), and the look the
    forest doubts more (mean `empty_share`, the forest's vote for empty) fits in the box's count of that colour,
    that look is read as the missing colour, marked for checking.  Of several missing colours the least
    likely is taken."""
    labels, conf = list(labels), list(conf)
    drawn = sum(1 for label in labels if label is not None)
    missing = [c for c in stone_set if c not in labels and chance_missing(c, drawn, stone_set) < ABSENT_COLOUR_CHANCE]
    empty = np.array([i for i, label in enumerate(labels) if label is None], int)
    if not missing or len(empty) < 2 * MIN_LOOK:
        return labels, conf
    colour = min(missing, key=lambda c: chance_missing(c, drawn, stone_set))
    side = colour_looks(colour_space(feats[empty, :3].astype(np.float64)))
    if side is None:
        return labels, conf
    one, other = empty[side], empty[~side]
    if empty_share[one].mean() > empty_share[other].mean():
        one, other = other, one
    if len(one) > stone_set[colour] or region_kappa(one, other, where) >= LIT_REGIONS:
        return labels, conf
    for i in one:
        labels[i] = colour
        conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


def darkest_hue_may_be_black(
    labels: Sequence[str | None], conf: Sequence[float], feats: np.ndarray, classes: Sequence[str]
) -> list[float]:
    """The confidences after the darkest name's stones (median body colour, `MIN_LOOK` stones or more a name) are
    marked for checking when it is the least colourful hued name and no stone reads black though the set has it:
    black glass under a window shows the sky's blue over its dome (Blender dev 117003: nine read blue, sure)."""
    conf = list(conf)
    names = feature_names()
    body = feats[:, [names.index(n) for n in ("body_L", "body_a", "body_b")]].astype(np.float64)
    cells = {n: [i for i, label in enumerate(labels) if label == n] for n in set(labels) - {None}}
    cells = {n: at for n, at in cells.items() if len(at) >= MIN_LOOK}
    chroma = {n: float(np.median(np.hypot(*body[at, 1:].T))) for n, at in cells.items() if n not in HUELESS}
    if "black" not in classes or "black" in labels or not chroma:
        return conf
    darkest = min(cells, key=lambda n: float(np.median(body[cells[n], 0])))
    for i in cells[darkest] if chroma.get(darkest, np.inf) <= min(chroma.values()) else []:
        conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return conf
