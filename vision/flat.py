"""Empty pockets read as stones of a colour, found per photo by their flat look; stones read as
empty pockets, by their colour unlike the pockets'.

On a pocket board the forest, reading one cell at a time, can take a whole photo's empty pockets
for stones of one colour: light discs printed on a dark felt read as white stones, a navy cap's
shaded pockets as blue ones.  Stones stand up from the board and cast a shadow beside them, every
stone of one set under one light to the same side; a printed disc or an empty cup casts none.  So
a colour the forest doubts whose cells are flat where the photo's other stones are raised, and
no more raised than the empty pockets, is the board: its cells go empty, marked for a person to
check.  Clear glass is left alone: it casts hardly any shadow of its own.
"""

from __future__ import annotations

import numpy as np

from .presence import is_raised
from .tuning import (
    POCKETS_GAP,
    POCKETS_SURE,
    POCKETS_SURE_MIN,
    POCKETS_UNLIKE,
    POCKETS_UNLIKE_MIN,
    PRESENCE_DOUBT,
    PRESENCE_MIN,
    PRESENCE_SHADOW_GAIN,
)


def flat_colours(best: np.ndarray, P: np.ndarray, feats: np.ndarray, names: list[str], clear: int | None) -> np.ndarray:
    """Class per cell (0 empty, columns of `P` otherwise) after each colour read on cells that are
    flat beside the photo's other stones, and that the forest doubts, is taken for empty pockets.
    Where no other colour is read, the cells read empty stand for the stones: a whole board of dark
    discs read black beside three blue stones read empty (dev seed 103), flat where they stand up.
    `clear` is the column of clear glass stones (never flat by this test), if the game has them."""
    best = best.copy()
    shadow, shade = names.index("shadow"), names.index("shade")
    glass = best == clear if clear is not None else np.zeros(len(best), bool)
    for c in range(1, P.shape[1]):
        cells = np.flatnonzero(best == c)
        others = np.flatnonzero((best > 0) & (best != c) & ~glass)
        from_empty = len(others) < PRESENCE_MIN  # no other colour read: the cells read empty stand for it
        if from_empty:
            others = np.flatnonzero(best == 0)
        if c == clear or len(cells) < 2 * PRESENCE_MIN or len(others) < PRESENCE_MIN:
            continue
        if P[cells, c].mean() >= PRESENCE_DOUBT:
            continue
        if np.median(feats[others, shade]) < PRESENCE_SHADOW_GAIN * np.median(feats[cells, shade]):
            continue  # shaded across its body like the others: a lower stone, not a flat print
        if not is_raised(feats[others], feats[cells], feats[others], names, lines_meet=False, bodies_apart=True):
            continue
        empty = np.flatnonzero(best == 0)
        if (
            not from_empty
            and len(empty) >= PRESENCE_MIN
            and np.median(feats[cells, shadow]) >= PRESENCE_SHADOW_GAIN * np.median(feats[empty, shadow])
        ):
            continue  # raised over the empty pockets: stones after all, only lower than the others
        best[cells] = 0
    return best


def stones_unlike_the_pockets(
    best: np.ndarray, P: np.ndarray, post: np.ndarray, feats: np.ndarray, names: list[str], flat: np.ndarray
) -> np.ndarray:
    """Class per cell (0 empty, columns of `P` otherwise) after the cells read empty whose colour
    stands far from the photo's empty look, and that the forest doubts as a group, take the stone
    colour each is likeliest to be (`post`: the forest's votes weighed by the photo's looks).  One
    photo's empty pockets look alike, whatever the light does to the stones: white matte discs on
    cream paint, orange glass under a tungsten lamp, read empty one by one, stand 14-38 Lab from
    the pockets the forest is sure of, which spread about 1 around their look (`POCKETS_UNLIKE`), with
    no pocket between (`POCKETS_GAP`: a lamp's light moves pockets from the look by every amount).
    The pockets `flat_colours` found flat (`flat` per cell) show the look too, however the forest
    voted on them: light discs on red felt, beside which red stones read empty (dev seed 81).
    The colour is the forest's guess and often wrong (white read black, yellow black): the caller
    marks every cell so found for checking."""
    empty = np.flatnonzero(best == 0)
    sure = empty[(P[empty, 0] >= POCKETS_SURE) | flat[empty]]
    if len(sure) < POCKETS_SURE_MIN:
        return best
    colour = feats[:, [names.index("dL"), names.index("da"), names.index("db")]].astype(np.float64)
    look = np.median(colour[sure], 0)
    spread = float(np.median(np.linalg.norm(colour[sure] - look, axis=1)))
    apart = np.linalg.norm(colour[empty] - look, axis=1)
    is_far = apart >= max(POCKETS_UNLIKE * spread, POCKETS_UNLIKE_MIN)
    far = empty[is_far]
    if len(far) < 2 * PRESENCE_MIN or P[far, 0].mean() >= PRESENCE_DOUBT:
        return best
    if apart[is_far].min() < POCKETS_GAP * apart[~is_far].max():
        return best  # pockets at every distance between: a light across the board, not stones
    best = best.copy()
    best[far] = 1 + post[far, 1:].argmax(1)
    return best
