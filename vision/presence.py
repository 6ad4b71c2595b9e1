"""Which locations hold a stone, decided per photo by what makes a stone a stone.

The forest reads one cell at a time and, on a board and a light unlike its training photos,
can call every stone of a set empty (frosted white stones on a white mat with light dots,
black glass on wood with dark dots) or a board's big dots stones.  One photo's empty points
all look alike, and so do one set's stones, so the cells read empty are split into the two
look groups they form.  A group the forest doubts, and doubts more than the other, is stones
when it is raised where the other is flat: a cast shadow on the board beside it, on the side
away from the light (which all stones of a photo share), or the drawn lines at its foot
hidden.  Each of its cells takes the stone colour the forest gives the most votes.  The cells
read as one colour are split alike: a flat group of another colour that shows the lines the
other group hides is the board's marks.  Every cell so decided is marked for a person to check.
"""

from __future__ import annotations

import numpy as np

from .tuning import (
    FOOT_INK_APART,
    PRESENCE_APART,
    PRESENCE_DOUBT,
    PRESENCE_FLAT_NOISE,
    PRESENCE_FOOT_HIDDEN,
    PRESENCE_FOOT_SHOWN,
    PRESENCE_LINES_BARE,
    PRESENCE_LINES_EMPTY,
    PRESENCE_LINES_HIDDEN,
    PRESENCE_LINES_SHOWN,
    PRESENCE_LINES_SPLIT,
    PRESENCE_MIN,
    PRESENCE_OTHER_COLOUR,
    PRESENCE_SAME_LOOK,
    PRESENCE_SAME_LIGHT,
    PRESENCE_SHADOW_GAIN,
    PRESENCE_SHADOW_MIN,
    PRESENCE_TIGHT,
    PRESENCE_UNITS,
    FLAT_SHADE,
    FLAT_SHARE,
    RAISED_SHADE,
    FLAT_OTHER_COLOUR,
    STRUCTURE_CLEAR,
    STRUCTURE_CUES,
    DOMED_SHARE,
    RENAMED_CONFIDENCE,
    RIM_APART,
    RIM_CLEAR,
    RIM_EMPTIES,
    EMPTIES_LOOK_SHARE,
)

READ_AS_STONES = 0.5  # the forest's mean empty share of a group it reads as stones, below (a majority)

# what a cell's look is made of, each in the unit that makes one step of it about as telling:
# its colour at the centre against the board, the cast shadow beside it, the lines at its foot
LOOK = ("dL", "da", "db", "shadow", "foot_ink")


def _looks(feats: np.ndarray, names: list[str]) -> np.ndarray:
    """Each cell's look (`LOOK`), in `PRESENCE_UNITS`."""
    return feats[:, [names.index(n) for n in LOOK]].astype(np.float64) / np.array(PRESENCE_UNITS)


def _raised(x: np.ndarray) -> np.ndarray:
    """How raised each look is: the shadow beside it, less the lines seen at its foot."""
    return x[:, LOOK.index("shadow")] - x[:, LOOK.index("foot_ink")]


def _two_means(x: np.ndarray, side: np.ndarray) -> np.ndarray | None:
    """Two-means on looks from a first split (None when a group empties)."""
    for _ in range(10):
        if side.all() or not side.any():
            return None
        centres = np.stack([x[~side].mean(0), x[side].mean(0)])
        side = np.linalg.norm(x - centres[1], axis=1) < np.linalg.norm(x - centres[0], axis=1)
    return None if side.all() or not side.any() else side


def _within(x: np.ndarray, side: np.ndarray) -> float:
    """The squared spread of the looks about their groups' centres."""
    return float(sum(((x[g] - x[g].mean(0)) ** 2).sum() for g in (side, ~side)))


def look_groups(x: np.ndarray) -> np.ndarray | None:
    """Two-means on looks, the tightest of three starts (the cells more raised than the average,
    than the median, and the cells nearer the most raised one than the one least like it: a lone
    odd cell or a spread-out group can hold one start in a poor split): the boolean split (True: the
    more raised group) when the looks form two tight groups far apart, else None."""
    raised = _raised(x)
    top = x[np.argmax(raised)]
    far = x[np.argmax(np.linalg.norm(x - top, axis=1))]
    starts = (
        raised > raised.mean(),
        raised > np.median(raised),
        np.linalg.norm(x - top, axis=1) < np.linalg.norm(x - far, axis=1),
    )
    splits = [side for side in (_two_means(x, s) for s in starts) if side is not None]
    if not splits:
        return None
    side = min(splits, key=lambda s: _within(x, s))
    if raised[side].mean() < raised[~side].mean():
        side = ~side
    if min(side.sum(), (~side).sum()) < PRESENCE_MIN:
        return None
    centres = np.stack([x[~side].mean(0), x[side].mean(0)])
    apart = float(np.linalg.norm(centres[1] - centres[0]))
    spread = max(float(np.median(np.linalg.norm(x[g] - centres[k], axis=1))) for k, g in enumerate((~side, side)))
    return side if apart >= PRESENCE_APART and apart >= PRESENCE_TIGHT * spread else None


def lit_side(rows: np.ndarray, names: list[str]) -> np.ndarray:
    """The mean of the rows' lit sides (the side their shadow is away from), each weighed by how
    strong its shadow is: as long as 1 when they all agree, as the stones under one photo's light
    do; the board's edge, a table's pattern or a neighbour's shadow darkens a ring on any side.  A
    stone whose shadow falls on its neighbour shows almost none, and its side says next to nothing:
    weighed alike it would turn the whole group's answer on whether it is counted among them."""
    sides = rows[:, [names.index("lit_x"), names.index("lit_y")]].astype(np.float64)
    strength = np.maximum(rows[:, names.index("shadow")].astype(np.float64), 0.0)
    if strength.sum() <= 0:
        return sides.mean(0)
    return (sides * strength[:, None]).sum(0) / strength.sum()


def lit_alike(rows: np.ndarray, stones: np.ndarray, names: list[str]) -> bool:
    """Whether the rows' lit sides agree among themselves, and with the lit side of the `stones`
    read already (the same light) when there are enough of those to show it."""
    side = lit_side(rows, names)
    if float(np.linalg.norm(side)) < PRESENCE_SAME_LIGHT:
        return False
    if len(stones) < PRESENCE_MIN:
        return True
    known = lit_side(stones, names)
    return float(np.dot(side, known)) >= PRESENCE_SAME_LIGHT * float(np.linalg.norm(side)) * float(
        np.linalg.norm(known)
    )


# the measures of the drawn lines a location shows (`classify.feature_names`), each with how clearly a flat
# group shows them and what share of that stones show at most: the strokes at its foot, where morris'
# lines meet; the circles beside a rings point, past its marker (`drawn.lines_shown`; 0 on other boards)
LINE_MEASURES = (
    ("foot_ink", PRESENCE_FOOT_SHOWN, PRESENCE_FOOT_HIDDEN),
    ("lines_shown", PRESENCE_LINES_SHOWN, PRESENCE_LINES_HIDDEN),
)


def hides_lines(stones: np.ndarray, flat: np.ndarray, names: list[str]) -> bool:
    """Whether the `stones` rows hide the drawn lines the `flat` rows show (by any of `LINE_MEASURES`):
    a raised stone covers where the lines meet and run out, a printed or painted dot is drawn over by
    them or lets them show beside it."""
    for measure, shown, hidden in LINE_MEASURES:
        k = names.index(measure)
        f_stones, f_flat = float(np.median(stones[:, k])), float(np.median(flat[:, k]))
        if f_flat >= shown and f_stones <= hidden * f_flat:
            return True
    return False


def covered_groups(groups: list[np.ndarray], feats: np.ndarray, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per group of cells (a colour group of rings' points), whether it hides the drawn circles beside
    its points and whether it shows them, measured against the group that shows them most: a stone
    covers them whatever its colour, an empty point shows them whatever its marker.  Neither, for every
    group, when no group shows them clearly (grooves, lines of the dots' own tone)."""
    k = names.index("lines_shown")
    shown = np.array([float(np.median(feats[g, k])) for g in groups])
    top = lines_top(groups, feats, names)
    if top < PRESENCE_LINES_SHOWN:
        return np.zeros(len(groups), bool), np.zeros(len(groups), bool)
    return shown <= PRESENCE_LINES_HIDDEN * top, shown >= max(PRESENCE_LINES_BARE * top, PRESENCE_LINES_EMPTY)


def lines_top(groups: list[np.ndarray], feats: np.ndarray, names: list[str]) -> float:
    """How clearly the group of cells that shows the drawn circles beside its points most shows them
    (its median `lines_shown`): the empty points' look, when the board's lines show at all."""
    k = names.index("lines_shown")
    return max(float(np.median(feats[g, k])) for g in groups)


def covered_cells(rows: np.ndarray, names: list[str], top: float) -> np.ndarray | None:
    """Which of a group's cells hide the drawn circles beside them (`lines_shown` below
    `PRESENCE_LINES_SPLIT` of `top`, how clearly the points that show them most show them), when the
    board's lines show that clearly anywhere; else None."""
    if top < PRESENCE_LINES_SHOWN:
        return None
    return rows[:, names.index("lines_shown")] < PRESENCE_LINES_SPLIT * top


def stones_among(
    rows: np.ndarray, empty_share: np.ndarray, names: list[str], top: float = 0.0, by_look: bool = True
) -> np.ndarray | None:
    """Which of one colour group's cells (`rows`) are stones among the board's empty points: stones of
    the board's own colour in its empty look (dark red stones on a dark red board), a look group of
    their own (`by_look`), or, on a board whose drawn circles show beside its empty points as clearly
    as `top` (`covered_cells`), the cells that hide them (white stones grouped with the pale empty
    points of a dark board).  Either hides the drawn lines the others show (`hides_lines`), and has
    the lower empty share of the forest's votes (`empty_share`).  None when there is no such group."""
    if len(rows) < 2 * PRESENCE_MIN:
        return None
    splits = ([look_groups(_looks(rows, names))] if by_look else []) + [covered_cells(rows, names, top)]
    for side in splits:
        if side is None or side.all() or not side.any():
            continue
        if empty_share[side].mean() < empty_share[~side].mean() and hides_lines(rows[side], rows[~side], names):
            return side
    return None


def is_raised(
    stones: np.ndarray,
    flat: np.ndarray,
    read: np.ndarray,
    names: list[str],
    lines_meet: bool,
    bodies_apart: bool = False,
) -> bool:
    """Whether the `stones` rows stand up from the board where the `flat` rows do not: a clearly
    stronger cast shadow, all on one side (that of the stones `read` already), or, where drawn
    lines meet at the locations (`lines_meet`), the lines the flat group shows at its foot hidden.
    Clearly stronger is measured against the flat group's own noise: on a quiet board (printed
    discs on felt, where nearly no flat cell shows any shadow) a stone's shadow of 5 stands as
    clear as one of 6 beside drawn lines, and a fixed floor between them turned a whole photo's
    reading on which stones a sub-pixel move of the fit let the forest read.  Where the caller has
    seen the stones' bodies shaded across and the flat rows' not (`bodies_apart`), the shadow needs
    no floor and no one side: a printed disc beside glass stones catches their weak shadows (its 90th
    percentile 4.2, the stones' median 4.5: dev seed 81), three stones' lit sides agree or not as a
    fit moves by a pixel (dev seed 103), and the shading already told them apart."""
    shadow = names.index("shadow")
    s_stones, s_flat = float(np.median(stones[:, shadow])), float(np.median(flat[:, shadow]))
    noise = PRESENCE_SHADOW_GAIN * float(np.percentile(flat[:, shadow], PRESENCE_FLAT_NOISE))
    floor = 0.0 if bodies_apart else min(PRESENCE_SHADOW_MIN, noise)
    one_side = bodies_apart or lit_alike(stones, read, names)
    shadowed = s_stones >= max(PRESENCE_SHADOW_GAIN * s_flat, floor) and one_side
    return shadowed or (lines_meet and hides_lines(stones, flat, names))


def missed_stones(
    best: np.ndarray, P: np.ndarray, feats: np.ndarray, names: list[str], most: int, lines_meet: bool
) -> np.ndarray:
    """Class per cell (0 empty, columns of `P` otherwise) after the raised look group of the cells
    read empty, when there is one, takes stones: each cell the stone colour the forest gives the
    most votes.  `most` is how many stones the box holds in all: a bigger group is no set's."""
    empty = np.flatnonzero(best == 0)
    if len(empty) < 2 * PRESENCE_MIN:
        return best
    side = look_groups(_looks(feats[empty], names))
    if side is None:
        return best
    stones, flat = empty[side], empty[~side]
    doubt = P[stones, 0].mean()
    if len(stones) > most or doubt >= PRESENCE_DOUBT or doubt >= P[flat, 0].mean():
        return best
    if not is_raised(feats[stones], feats[flat], feats[best > 0], names, lines_meet):
        return best
    best = best.copy()
    best[stones] = 1 + P[stones, 1:].argmax(1)
    return best


def flat_marks(best: np.ndarray, P: np.ndarray, feats: np.ndarray, names: list[str]) -> np.ndarray:
    """Class per cell after the flat look group of the cells read as one stone colour, when it is
    of another colour than the other group, the other group hides the drawn lines this one shows
    at its foot and the forest is less sure of it, is taken for the board's own marks: empty (big
    dark dots read as black glass stones)."""
    best = best.copy()
    for c in range(1, P.shape[1]):
        cells = np.flatnonzero(best == c)
        if len(cells) < 2 * PRESENCE_MIN:
            continue
        looks = _looks(feats[cells], names)
        side = look_groups(looks)
        if side is None:
            continue
        stones, flat = cells[side], cells[~side]
        doubt = P[flat, c].mean()
        if doubt >= PRESENCE_DOUBT or doubt >= P[stones, c].mean():
            continue
        # one set's stones share a colour (glass over the lines shows them in some places, not others)
        colours = looks[:, : LOOK.index("shadow")]
        apart = float(np.linalg.norm(np.median(colours[side], 0) - np.median(colours[~side], 0)))
        if apart >= PRESENCE_OTHER_COLOUR and hides_lines(feats[stones], feats[flat], names):
            best[flat] = 0
    return best


def like_the_marks(best: np.ndarray, marks: np.ndarray, feats: np.ndarray, names: list[str]) -> np.ndarray:
    """Class per cell after every stone read that looks like the board's `marks` goes empty.

    `marks` are the cells a colour read on more locations than its box holds gave up: the board's
    own marks under this light (grey discs printed on paper, read white).  The trim keeps as many
    of them as the box allows, chosen by the forest's lead, not by look, so the rest of that look
    stays read as stones, and the same look read as another colour stays too.  One look is one
    thing: a stone inside the marks' own cloud of looks (within `PRESENCE_TIGHT` times their
    median distance from its centre, or `PRESENCE_SAME_LOOK` when they are tighter) is one of
    them: the cloud holds their shadows too, so a stone raised where they are flat is outside."""
    looks = _looks(feats, names)
    if len(marks) < 2 * PRESENCE_MIN or look_groups(looks[marks]) is not None:
        return best  # too few to have a look, or two looks: stones the trim gave up among the marks
    x = looks[:, : LOOK.index("foot_ink")]  # a pocket's rim shows as foot ink, lit unevenly
    centre = np.median(x[marks], 0)
    spread = float(np.median(np.linalg.norm(x[marks] - centre, axis=1)))
    near = np.linalg.norm(x - centre, axis=1) <= max(PRESENCE_TIGHT * spread, PRESENCE_SAME_LOOK)
    best = best.copy()
    best[(best > 0) & near] = 0
    return best


def decide_presence(
    best: np.ndarray, P: np.ndarray, feats: np.ndarray, names: list[str], most: int, lines_meet: bool
) -> np.ndarray:
    """Class per cell after each photo's look groups have said which cells are stones: where drawn
    lines meet at the locations (`lines_meet`: morris' points, not pockets, whose rims show as
    strokes of their own), the board's marks read as stones go empty (`flat_marks`); then stones
    read empty are found (`missed_stones`)."""
    if lines_meet:
        best = flat_marks(best, P, feats, names)
    return missed_stones(best, P, feats, names, most, lines_meet)


def _domed(shade: np.ndarray) -> bool:
    """Whether cells whose shading is `shade` are domes: even the least shaded quarter of them shaded
    (`RAISED_SHADE`); disc-shaped stones show their side to the light unevenly, and some of a colour
    look domed, most flat."""
    return float(np.percentile(shade, DOMED_SHARE)) >= RAISED_SHADE


def _shade_split(shade: np.ndarray, colours: np.ndarray, flat_below: float, least: int) -> np.ndarray | None:
    """Two-means on one group's shading (`shade` per cell), started at its mean: True for the cells
    of the shaded part, when it is domes (`_domed`) beside a part flat below `flat_below`, each of at
    least `least` cells, and the two differ in colour (`colours`) by `FLAT_OTHER_COLOUR`; else None."""
    side = shade > shade.mean()
    for _ in range(10):
        if side.all() or not side.any():
            return None
        side = shade > (shade[side].mean() + shade[~side].mean()) / 2
    if min(side.sum(), (~side).sum()) < least:
        return None
    apart = float(np.linalg.norm(colours[side].mean(0) - colours[~side].mean(0)))
    flat = float(np.median(shade[~side])) <= flat_below
    return side if _domed(shade[side]) and flat and apart >= FLAT_OTHER_COLOUR else None


def flat_among_raised(
    groups: list[np.ndarray],
    empty_share: np.ndarray,
    colours: np.ndarray,
    feats: np.ndarray,
    names: list[str],
    least: int,
) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Rings' colour groups (each of at least `least` cells; `colours` per cell) after one that holds
    flat cells and domes of another colour is split in two (big dark dots beside black glass), and
    which of them are the board's flat marks and which raised stones.  Domes under one light are all
    shaded across their bodies, a printed dot or the plain board is not: where every group the forest
    reads as stones (`empty_share` per cell under a half) but one is clearly domes, that one, far less
    shaded than the least shaded of them and no smaller than any group read empty, is the board's marks,
    whatever the forest reads it as.
    Neither, for every group, on other photos: disc-shaped stones are shaded unevenly (some of a
    colour look domed, most flat), so a photo of them shows stone groups of both looks."""
    shade = feats[:, names.index("shade")].astype(np.float64)
    median = np.array([float(np.median(shade[g])) for g in groups])
    read_stones = np.array([float(empty_share[g].mean()) < READ_AS_STONES for g in groups])
    domes = read_stones & np.array([_domed(shade[g]) for g in groups])
    odd = np.flatnonzero(read_stones & ~domes)
    nothing = np.zeros(len(groups), bool)
    if len(odd) != 1 or not domes.any():
        return groups, nothing, nothing.copy()
    k = int(odd[0])
    least_domed = min(float(np.percentile(shade[g], DOMED_SHARE)) for g, dome in zip(groups, domes) if dome)
    flat_below = min(FLAT_SHADE, FLAT_SHARE * least_domed)
    side = _shade_split(shade[groups[k]], colours[groups[k]], flat_below, least)
    if side is not None:  # the marks and the domes of their colour: two groups
        groups = groups[:k] + [groups[k][~side], groups[k][side]] + groups[k + 1 :]
        median = np.insert(median, k + 1, float(np.median(shade[groups[k + 1]])))
        median[k] = float(np.median(shade[groups[k]]))
        domes = np.insert(domes, k + 1, True)
    # every empty point shows the marks: no group the forest reads empty is bigger than theirs
    read_empty = [len(g) for g in groups if float(empty_share[g].mean()) >= READ_AS_STONES]
    flat = np.zeros(len(groups), bool)
    flat[k] = median[k] <= flat_below and len(groups[k]) >= max(read_empty, default=0)
    return groups, flat, domes & flat[k]


# what a stone has and an empty pocket has not (`classify.feature_names`): an edge round its rim, a rim whose
# lightness varies, a highlight, texture across its body, a shadow cast beside it
STONE_CUES = ("ringgrad", "ringstd", "spot", "lapvar", "shadow")


def _larger_share(one: np.ndarray, other: np.ndarray) -> float:
    """The share of the pairs of a value of `one` and one of `other` in which `one`'s is the larger (ties half)."""
    larger = (one[:, None] > other[None]).mean() + 0.5 * (one[:, None] == other[None]).mean()
    return float(larger)


def stands_up(rows: np.ndarray, other: np.ndarray, names: list[str]) -> bool:
    """Whether the `rows` cast clearly more shadow than the `other` rows (`STRUCTURE_CLEAR` of the pairs)."""
    k = names.index("shadow")
    return _larger_share(rows[:, k], other[:, k]) >= STRUCTURE_CLEAR


def stands_out(rows: np.ndarray, other: np.ndarray, names: list[str]) -> bool:
    """Whether the `rows` look like objects where the `other` rows do not: clearly more (`STRUCTURE_CLEAR` of
    the pairs) of `STRUCTURE_CUES` or more of the `STONE_CUES`, and the other rows clearly more of none.  Each
    cue alone also shows on some boards' pockets (a printed ring's edge, a cone's shade), not all of them."""
    shares = np.array([_larger_share(rows[:, names.index(c)], other[:, names.index(c)]) for c in STONE_CUES])
    return int((shares >= STRUCTURE_CLEAR).sum()) >= STRUCTURE_CUES and not (shares <= 1.0 - STRUCTURE_CLEAR).any()


def rimless_stones(
    labels: list[str | None], conf: list[float], feats: np.ndarray, names: list[str]
) -> tuple[list[str | None], list[float]]:
    """The labels and confidences after the cells read as a stone colour that show no stone's rim,
    where stones of that colour on the same photo show a clear one, are read empty and marked for
    checking.  A stone is a body with an edge all round it (`ringgrad`: the gradient on the ring at
    its radius, against the board's own); a lamp's or a window's highlight on a glossy board is light
    spread smoothly over the board, brighter than an empty point anywhere else on it, and the forest
    reads an empty point inside it as a white stone (Blender seed 115: a sun on ebonised wood, a lamp
    on black paint, 4 and 7 points).  Compared within one colour on one photo, not against a fixed
    floor: matte stones in diffuse light show weak rims all alike."""
    rim = feats[:, names.index("ringgrad")].astype(np.float64)
    labels, conf = list(labels), list(conf)
    for colour in {label for label in labels if label is not None}:
        cells = np.array([i for i, label in enumerate(labels) if label == colour])
        clear = cells[rim[cells] >= RIM_CLEAR]
        if not len(clear):
            continue
        for i in cells[rim[cells] <= rim[clear].min() / RIM_APART]:
            labels[i] = None
            conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


def rimmed_empties(
    labels: list[str | None],
    conf: list[float],
    P: np.ndarray,
    stone_names: list[str],
    feats: np.ndarray,
    names: list[str],
) -> tuple[list[str | None], list[float]]:
    """The labels and confidences after the cells read empty that show both a stone's rim and a body
    shaded across, each RIM_APART times what the photo's empty points show at the median, are read as
    the stone colour the forest gives the most votes (`P`'s columns after the first, named
    `stone_names`), marked for checking.  Glass on pale card in a dim room, white on ivory: the forest
    leans empty (0.5-0.7), yet the cell has the edge all round and the shading of a raised body
    (Blender seed 115's 002, 117's 003, dev 91's 003).  Both, since either alone also shows where the
    board's edge runs beside a corner point.

    Where the forest reads as many stones empty as there are empty points (white glass on ivory
    paint, Blender 117's 005: 9 of 18), the median is a stone's look and no stone stands out from it:
    the empty points' look is then taken at the lower quartile (EMPTIES_LOOK_SHARE), which the stones
    do not reach while a quarter of the cells read empty are empty.  A cell RIM_APART times that look
    is in doubt (marked), and twice as far from it a stone."""
    empty = np.array([i for i, label in enumerate(labels) if label is None])
    if len(empty) < RIM_EMPTIES:
        return labels, conf
    rim, shade = (feats[:, names.index(n)].astype(np.float64) for n in ("ringgrad", "shade"))

    def apart(reference: float, times: float) -> np.ndarray:
        """The cells read empty whose rim and shade are each `times` the empty points' at `reference`."""
        return (rim[empty] >= times * np.percentile(rim[empty], reference)) & (
            shade[empty] >= times * np.percentile(shade[empty], reference)
        )

    rimmed = apart(50, RIM_APART) | apart(EMPTIES_LOOK_SHARE, 2 * RIM_APART)
    doubted = apart(EMPTIES_LOOK_SHARE, RIM_APART)
    labels, conf = list(labels), list(conf)
    for i in empty[rimmed]:
        labels[i] = stone_names[int(np.argmax(P[i, 1:]))]
    for i in empty[rimmed | doubted]:
        conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


def inked_empties(labels: list[str | None], conf: list[float], feats: np.ndarray, names: list[str]) -> list[float]:
    """The confidences after the cells read empty whose thin strokes at the foot (`foot_ink`) are
    FOOT_INK_APART times the median of the photo's cells read empty are marked for checking.  The
    empty points of one board show its drawn lines alike; a cell that shows many times their strokes
    is not one of them, whatever the forest leant to: white glossy glass on a dark mat mirrors the
    lines and its own edge as bright thin strokes (Blender 119's 009: four stones read empty, three
    sure).  Marked, not renamed: the strokes alone do not say which stone, or that it is one."""
    empty = np.array([i for i, label in enumerate(labels) if label is None])
    if len(empty) < RIM_EMPTIES:
        return list(conf)
    ink = feats[:, names.index("foot_ink")].astype(np.float64)
    conf = list(conf)
    for i in empty[ink[empty] >= FOOT_INK_APART * np.median(ink[empty])]:
        conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return conf
