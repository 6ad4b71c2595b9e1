"""Clear glass stones read empty, found per photo as a tight group of pockets seen darker.

A clear stone shows the pocket under it, so the forest, one cell at a time, can call a whole set
of them empty.  But glass bends the light: the pocket seen through a dome is darker at its centre
and at its rim than a bare pocket, every stone of a set alike.  So when the cells read empty form
two tight groups far apart, one of them darker both ways, no bigger than the clear stones the box
still holds, and leaning towards clear in the forest's votes more than the other group, that
group is clear stones; each is marked for a person to check.
"""

from __future__ import annotations

import numpy as np

from .presence import _two_means, _within
from .tuning import GLASS_DARKER, GLASS_LEAN, GLASS_TIGHT, PRESENCE_MIN


def darker_group(x: np.ndarray) -> np.ndarray | None:
    """The cells (rows of `x`: lightness at the centre and at the rim, against the board) of the
    darker of two tight groups far apart, as a boolean mask; None when they form no such groups."""
    starts = (x.sum(1) < x.sum(1).mean(), x.sum(1) < np.median(x.sum(1)))
    splits = [side for side in (_two_means(x, s) for s in starts) if side is not None]
    if not splits:
        return None
    side = min(splits, key=lambda s: _within(x, s))
    if x[side].sum(1).mean() > x[~side].sum(1).mean():
        side = ~side
    if min(side.sum(), (~side).sum()) < PRESENCE_MIN:
        return None
    darker = x[~side].mean(0) - x[side].mean(0)
    spread = max(float(np.median(np.linalg.norm(x[g] - x[g].mean(0), axis=1))) for g in (side, ~side))
    if darker.min() < GLASS_DARKER or float(np.linalg.norm(darker)) < GLASS_TIGHT * spread:
        return None
    return side


def missed_glass(
    best: np.ndarray, P: np.ndarray, feats: np.ndarray, names: list[str], clear: int, room: int
) -> np.ndarray:
    """Class per cell after the darker look group of the cells read empty, when it is glass by
    `darker_group`, no more cells than the `room` left in the box for clear stones, and the forest
    leans to clear on it more than on the other empty cells, takes clear."""
    empty = np.flatnonzero(best == 0)
    if len(empty) < 2 * PRESENCE_MIN or room < PRESENCE_MIN:
        return best
    x = feats[empty][:, [names.index("dL"), names.index("dL_out")]].astype(np.float64)
    side = darker_group(x)
    if side is None or side.sum() > room:
        return best
    glass, bare = empty[side], empty[~side]
    if P[glass, clear].mean() < GLASS_LEAN * P[bare, clear].mean():
        return best
    best = best.copy()
    best[glass] = clear
    return best
