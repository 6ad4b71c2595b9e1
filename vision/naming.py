"""Naming the stones' colours as a person would: by groups of look-alike cells, not cell by cell.

On one photo the stones of one colour look alike and unlike every other colour, whatever the
light: a person sees the groups first, then names each.  The forest, trained on other photos,
reads each cell alone, and under an unusual light or board it misnames whole colours at once
(blue stones on a blue card read empty, black under warm light reads blue).  Here the cells
are grouped by colour (`colour_groups`), each group is named as a whole from its members'
summed evidence (`name_groups`), under what a board allows: no two groups of clearly different
colour share a stone colour, and the empty points are one look (the board's, with its marks),
so a group unlike it is stones even when the forest calls its cells empty.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .presence import covered_groups, flat_among_raised, lines_top, stones_among
from .tuning import PRESENCE_FOOT_HIDDEN, PRESENCE_FOOT_SHOWN

EMPTY = 0  # the class index of an empty location (`classify.class_votes` puts it first)
GROUP_APART = 10.0  # colour distance (`colour_space`) between the average members of two
# groups: two colours of one set stand 12 or more apart on a photo, one colour's stones within 6
DISTINCT_APART = 16.0  # colour distance between two groups' centres past which they are two colours of the
# set (never one name); nearer, they may be one colour split by the light (a shadow, a dark corner)
MAX_VISITS = 20000  # names tried in the search for the best naming, at most (it needs a few hundred)
MIN_GROUP = 4  # cells it takes to name a group as a whole; a smaller group keeps its cells' readings
VOTE_FLOOR = 0.05  # added to each vote share before its log: one cell's doubt never vetoes its group
EMPTY_FAMILY = 14.0  # colour distance from the board's empty look within which a group may be empty too
# (the same points in a shadow or a glare); a group further off is stones
SPLIT_SHARE = 0.1  # a group whose cells' own readings hold two classes, each this share of it (and
# MIN_GROUP cells), is two groups: white and clear stones, or clear stones and light marks, alike in colour
SPLIT_APART = 5.0  # ... when the parts' colours stand this far apart: one look read two ways (big dark
# dots, some read red) is the forest's doubt, and the group is named as one
HUE_SAME_DEG = 12.0  # hue angle (a, b) within which two clearly coloured groups may be one colour: red
# and orange stones stand 20 degrees or more apart on one photo, one colour's shades within 11 (dev seed 75)
HUE_APART_DEG = 20.0  # hue angle past which two clearly coloured groups are two colours, however near
HUE_CHROMA = 15.0  # chroma (a, b) from which a group's hue is clear: black, white and clear have none
HUELESS = ("black", "white", "clear")  # stone colours with no hue of their own (clear shows the board's)
TINT_SEEN = 3.0  # chroma (a, b) from which a hueless group's tint has a direction: one light tints one colour's
# lit and shaded stones the same way (black glass on dev seeds 75-105: 0.2-9, each photo's tints within 1 degree)
TINTS_OPPOSED_DEG = 90.0  # tints turned this far apart are two colours, not one hueless colour under one light
BARE_DOUBT = 0.2  # the forest's mean empty share of a group that shows the board's lines, from which it is
# empty points (glossy yellow stones that mirror the lines: 0.01; empty points with dots read a colour: 0.3-0.5)
LIT_NEIGHBOURS = 6  # board neighbours each point is compared with to see whether two groups hold regions of the board
LIT_REGIONS = 0.4  # how much more often than chance (0: a random scatter, 1: two clean regions) two groups' points
# have neighbours of their own group, from which they are one look lit two ways: a sunlit far half, the points along the
# edge (Blender dev 115002, 115007: 0.84, 0.49); stones among the empty points scatter (dev sets: -0.11 to 0.10),
# unless they crowd one part of the board (0.44-0.83: dev 75010, 75017, 109013; `LIT_SHADOW_GAIN` stops two)
LIT_SHADOW_GAIN = 2.0  # a group holding a region beside the empty points that casts this many times their shadow
# stands up: stones (dev 75010, 75017: 2.3 and 2.6 times), where the points' other light casts 0.6-1.7 times
LIT_MIN_POINTS = 12  # points each of the two groups holds, at least: the light's regions hold dozens (45 on Blender dev
# 115002 and 115007), while four neighbouring stones hold a cluster by chance (0.19-0.26, dev 83013)
SURE_MARGIN = 0.7  # log-evidence per cell by which a group's name beats its next best naming to stand sure
# What a person calls each colour (sRGB), the light aside; clear glass shows the board, so it has none.
NAMED_COLOURS = {
    "black": (28, 27, 28),
    "white": (235, 233, 225),
    "red": (190, 30, 33),
    "green": (45, 137, 67),
    "blue": (35, 74, 180),
    "yellow": (245, 200, 32),
    "orange": (233, 113, 33),
    "purple": (122, 49, 155),
}
LIGHT_FLOOR = 0.004  # linear light added before a log: a black stone's colour is mostly noise and glare
# the light-balanced colour of a group fits another name better than its own by this much (log units,
# a fifth of the way from red to orange, 2.3 apart): the name is checked by a person
COLOUR_DOUBT = 0.5
LIGHT_FROM = 1  # other stone groups it takes to say what the light is
# log-evidence per cell one log unit of light-balanced misfit costs a name (`name_with_light`; 0.5 and 0.7 read
# alike on Blender dev 115 and POV-Ray dev 75-109, 0.3 left 115001's blue glass purple, 1.0 renamed 115000's stones)
LIGHT_WEIGHT = 0.5
LIGHT_SPAN = 2.0  # log-evidence per cell behind a group's best name within which the light may choose another
# (hard photo rings_65003: red glass read orange, red 1.6 behind; 3.5, every name, is 2,700 namings and more)


@dataclass(frozen=True)
class Naming:
    """What the groups make of a photo: a class per cell and the cells a person should check."""

    best: np.ndarray  # class index per cell
    doubted: np.ndarray  # bool per cell: named against its own reading, or its group's name was near a tie


def linear_rgb(encoded: np.ndarray) -> np.ndarray:
    """Linear light of sRGB-encoded values (0..1): lights add and scale there, not in the encoded values."""
    return np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)


def encoded_rgb(linear: np.ndarray) -> np.ndarray:
    """sRGB-encoded values (0..1) of linear light: the inverse of `linear_rgb`."""
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)


def colour_space(lab: np.ndarray) -> np.ndarray:
    """Where cells are grouped: L, a, b with lightness halved (a light's strength moves it most)."""
    return lab * np.array([0.5, 1.0, 1.0])


def colour_groups(colours: np.ndarray, apart: float = GROUP_APART) -> list[np.ndarray]:
    """Cells joined while the average distance between two groups' members is below `apart`
    (average linkage): a colour's stones stay one group, two colours never meet.  Largest first."""
    n = len(colours)
    dist = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    size = np.ones(n)
    members: list[list[int]] = [[i] for i in range(n)]
    for _ in range(n - 1):
        a, b = np.unravel_index(int(np.argmin(dist)), dist.shape)
        if dist[a, b] >= apart:
            break
        # the average distance to the joined group, from the two groups' (Lance-Williams)
        dist[a] = (size[a] * dist[a] + size[b] * dist[b]) / (size[a] + size[b])
        dist[:, a] = dist[a]
        dist[a, a] = np.inf
        dist[b] = dist[:, b] = np.inf  # b is gone into a
        size[a] += size[b]
        members[a] += members[b]
        members[b] = []
    return sorted((np.array(m) for m in members if m), key=len, reverse=True)


def split_by_readings(group: np.ndarray, post: np.ndarray, colours: np.ndarray | None = None) -> list[np.ndarray]:
    """The group, or its parts by the cells' own readings (`post`'s best class) when two or more
    classes each hold a fair share of it (`SPLIT_SHARE`) and the parts differ in colour
    (`SPLIT_APART`, when `colours` are given): colour alone hardly tells a clear stone from a
    white one.  A cell of another reading joins the part it gives most votes to."""
    own = post[group].argmax(1)
    classes, counts = np.unique(own, return_counts=True)
    big = classes[(counts >= MIN_GROUP) & (counts >= SPLIT_SHARE * len(group))]
    if len(big) < 2:
        return [group]
    part = big[post[np.ix_(group, big)].argmax(1)]
    parts = [group[part == k] for k in big]
    if colours is not None:
        centres = np.stack([colours[p].mean(0) for p in parts])
        if np.linalg.norm(centres[:, None] - centres[None], axis=2).max() < SPLIT_APART:
            return [group]  # one look read two ways: the forest's doubt, not two kinds of cell
    return parts


def _best_naming(
    evidence: np.ndarray,
    apart: np.ndarray,
    may_be_empty: np.ndarray,
    empties: np.ndarray,
    banned: tuple[int, int] | None = None,
) -> tuple[float, list[int]]:
    """The names of the groups (rows of `evidence`, one column per class, empty first) with the most
    summed evidence such that no stone colour names two groups that are `apart` (a boolean matrix),
    the groups `empties` (bool per group) are empty and only the groups `may_be_empty` are empty too; `banned` (group,
    class) forbids one choice.  A search over the groups, largest evidence first, that drops a
    branch once even its best remaining names cannot beat the best naming found."""
    groups, classes = evidence.shape
    allowed = np.ones_like(evidence, bool)
    allowed[:, EMPTY] = may_be_empty
    allowed[empties] = False
    allowed[empties, EMPTY] = True
    if banned is not None:
        allowed[banned] = False
    score = np.where(allowed, evidence, -np.inf)
    order = np.argsort(score.max(1))  # the clearest groups first: their names constrain the rest
    order = order[::-1]
    choices = [[int(k) for k in np.argsort(-score[g]) if allowed[g, k]] for g in order]
    still = np.concatenate([np.cumsum(score[order].max(1)[::-1])[::-1][1:], [0.0]])  # best of the rest
    names = [EMPTY] * groups
    found: list = [-np.inf, list(names)]
    visits = [0]

    def walk(depth: int, total: float) -> None:
        if depth == groups:
            if total > found[0]:
                found[0], found[1] = total, list(names)
            return
        g = order[depth]
        for k in choices[depth]:
            visits[0] += 1
            if total + score[g, k] + still[depth] <= found[0] or visits[0] > MAX_VISITS:
                return
            if k != EMPTY and any(names[h] == k and apart[g, h] for h in order[:depth]):
                continue
            names[g] = k
            walk(depth + 1, total + score[g, k])

    walk(0, 0.0)
    return found[0], found[1]


def _hues(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair of groups (`colour_space` centres): whether both are clearly coloured, and the
    angle between their hues (radians)."""
    chroma = np.hypot(centres[:, 1], centres[:, 2])
    hue = np.arctan2(centres[:, 2], centres[:, 1])
    turn = np.abs(np.angle(np.exp(1j * (hue[:, None] - hue[None]))))
    coloured = chroma >= HUE_CHROMA
    return coloured[:, None] & coloured[None], turn


def one_hue(centres: np.ndarray) -> np.ndarray:
    """Per pair of groups (`colour_space` centres), whether both are clearly coloured and of one hue:
    one colour's glass stones, thick or thin, lit or shaded, vary in lightness and strength of
    colour but not in hue, so two such groups may share a name however far apart."""
    coloured, turn = _hues(centres)
    return coloured & (turn < np.radians(HUE_SAME_DEG))


def two_hues(centres: np.ndarray) -> np.ndarray:
    """Per pair of groups, whether both are clearly coloured and their hues stand `HUE_APART_DEG`
    apart: two colours of the set however near in colour (dark orange glass beside red under a
    lamp, 12 apart, which one light's shades of one colour never are)."""
    coloured, turn = _hues(centres)
    return coloured & (turn >= np.radians(HUE_APART_DEG))


def by_hue(
    names: list[int], centres: np.ndarray, sizes: np.ndarray, classes: list[str]
) -> tuple[list[int], np.ndarray]:
    """The groups' names after a clearly coloured group named black, white or clear, which have no
    hue, takes the name of the biggest coloured-named group of its hue (`one_hue`): dark blue glass
    in shade read black beside lit blue.  Also which groups were renamed."""
    hueless = {k for k, c in enumerate(classes) if c in HUELESS}
    coloured = [g for g, k in enumerate(names) if k != EMPTY and k not in hueless]
    same = one_hue(centres)
    renamed = np.zeros(len(names), bool)
    names = list(names)
    for g, k in enumerate(names):
        partners = [h for h in coloured if same[g, h]]
        if k in hueless and partners:
            names[g] = names[max(partners, key=lambda h: sizes[h])]
            renamed[g] = True
    return names, renamed


def _lean(evidence: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Per group, how far its cells lean towards empty on average (log-evidence per cell over its best stone colour)."""
    return (evidence[:, EMPTY] - np.delete(evidence, EMPTY, 1).max(1)) / sizes


def empty_look(evidence: np.ndarray, sizes: np.ndarray, among: np.ndarray | None = None) -> int:
    """The group that is the board's empty look, among the groups `among` (bool per group) when given:
    of the groups whose cells lean towards empty, the one with the most summed lean (a handful of
    cells leaning hard is no board's empty points beside a hundred that lean too); when none leans
    towards empty, the one whose cells lean least away (a board shows some empty points)."""
    lean = _lean(evidence, sizes)
    pool = np.ones(len(lean), bool) if among is None else among
    leaning = pool & (lean > 0)
    if leaning.any():
        return int(np.argmax(np.where(leaning, lean * sizes, -np.inf)))
    return int(np.argmax(np.where(pool, lean, -np.inf)))


def _board_rules(
    evidence: np.ndarray,
    centres: np.ndarray,
    sizes: np.ndarray,
    stones: np.ndarray | None,
    bare: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a board allows a naming (`name_groups`): which pairs of groups are two colours, which groups may be
    empty, and which are empty."""
    main = empty_look(evidence, sizes)
    if stones is not None and bare is not None and stones[main] and bare.any():
        main = empty_look(evidence, sizes, bare)  # the forest's empty look hides the lines other points show
    between = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    apart = ((between >= DISTINCT_APART) | two_hues(centres)) & ~one_hue(centres)
    family = between[main] < EMPTY_FAMILY
    empties = np.arange(len(evidence)) == main
    if bare is not None:
        family |= bare
        empties |= bare
    if stones is not None:
        family &= ~stones
    return apart, family, empties


def name_groups(
    evidence: np.ndarray,
    centres: np.ndarray,
    sizes: np.ndarray,
    stones: np.ndarray | None = None,
    misfit: np.ndarray | None = None,
    bare: np.ndarray | None = None,
    fixed: list[int] | None = None,
) -> tuple[list[int], np.ndarray]:
    """Each group's class and how clearly it won (log-evidence per cell over the best naming that
    gives the group another class).  The empty points are one look (`empty_look`), and only groups
    near it in colour may be empty as well, unless `stones` (bool per group) says they stand up; the
    groups `bare` shows the board's lines as empty points do are empty, and one of them is the empty
    look when the forest's hides the lines (frosted white stones it reads empty beside dark dots).
    With `misfit` (per group and class, in evidence per cell) the names are chosen on the evidence
    less the misfit, and a name stands only as clearly as it wins on both; `fixed` names the groups so, and
    only their margins are measured."""
    apart, family, empties = _board_rules(evidence, centres, sizes, stones, bare)
    weighed = [evidence] if misfit is None else [evidence - sizes[:, None] * misfit, evidence]
    best_names = fixed if fixed is not None else _best_naming(weighed[0], apart, family, empties)[1]
    margins = np.full(len(evidence), np.inf)
    for scores in weighed:
        total = float(scores[np.arange(len(scores)), best_names].sum())
        for g, k in enumerate(best_names):
            other, _ = _best_naming(scores, apart, family, empties, banned=(g, k))
            margins[g] = min(margins[g], (total - other) / sizes[g])
    return best_names, margins


def _log_light(lab: np.ndarray) -> np.ndarray:
    """Log linear RGB of Lab rows (OpenCV's float Lab: L 0..100): a light's colour and strength
    scale the channels, so in logs they add one shift to every colour of the photo."""
    seen = cv2.cvtColor(lab.reshape(1, -1, 3).astype(np.float32), cv2.COLOR_Lab2RGB)
    rgb = np.clip(seen.reshape(-1, 3).astype(np.float64), 0.0, 1.0)
    return np.log(linear_rgb(rgb) + LIGHT_FLOOR)


def _named_log_light(classes: list[str]) -> dict[int, np.ndarray]:
    """The named colours of the columns `classes` that have one, in log linear RGB."""
    columns = [k for k, c in enumerate(classes) if c in NAMED_COLOURS]
    srgb = np.array([NAMED_COLOURS[classes[k]] for k in columns], np.float32)[None] / 255.0
    lab = cv2.cvtColor(srgb, cv2.COLOR_RGB2Lab).reshape(-1, 3)
    return dict(zip(columns, _log_light(lab)))


def light_misfits(names: list[int], lab: np.ndarray, classes: list[str]) -> np.ndarray:
    """Per group (`lab`: its median colour) and class, how much worse the class's named colour fits
    the group than the best-fitting named colour once the light is taken out (log linear RGB; 0 for
    a class with no named colour).  The light is the shift that carries the *other* stone groups'
    named colours onto theirs, so one misnamed group cannot hide its own error; a group with fewer
    than `LIGHT_FROM` others to take it from gets no misfit."""
    named = _named_log_light(classes)
    seen = _log_light(lab)
    misfit = np.zeros((len(names), len(classes)))
    stones = [g for g, k in enumerate(names) if k in named]
    for g in range(len(names)):
        others = [h for h in stones if h != g]
        if len(others) < LIGHT_FROM:
            continue
        light = np.median([seen[h] - named[names[h]] for h in others], axis=0)
        for k, ref in named.items():
            misfit[g, k] = np.linalg.norm(seen[g] - light - ref)
        misfit[g, list(named)] -= misfit[g, list(named)].min()
    return misfit


def no_other_name(names: list[int]) -> np.ndarray:
    """Per group, whether it is named a stone colour while no group bears another stone name: the light is
    then known only from the group itself (`light_misfits`), and a colour under a tinted light is another
    colour under a white one (dev 109000: orange and red glass under a lamp, one group read red, 24 sure and
    wrong), so the name is the forest's guess alone."""
    named = np.array(names)
    stone_names = set(named[named != EMPTY].tolist())
    return (named != EMPTY) & (len(stone_names) < 2)


def colour_doubts(names: list[int], lab: np.ndarray, classes: list[str]) -> np.ndarray:
    """Per group, whether another colour name fits it clearly better than its own once the light
    is taken out (`light_misfits`)."""
    misfit = light_misfits(names, lab, classes)
    return misfit[np.arange(len(names)), names] > COLOUR_DOUBT


def light_penalty(names: list[int], lab: np.ndarray, classes: list[str]) -> np.ndarray:
    """Per group and class, what the light-balanced misfit (`light_misfits`, from the light that
    `names` imply) costs a name, in evidence per cell: under a lamp the forest reads orange glass
    red, while with the light taken out the group fits orange.  A class with no named colour
    (empty, clear) costs what the group's present name does, so the light moves no group to it."""
    misfit = LIGHT_WEIGHT * light_misfits(names, lab, classes)
    plain = [k for k, c in enumerate(classes) if c not in NAMED_COLOURS]
    misfit[:, plain] = misfit[np.arange(len(names)), names][:, None]
    return misfit


def _namings(
    evidence: np.ndarray,
    sizes: np.ndarray,
    apart: np.ndarray,
    may_be_empty: np.ndarray,
    empties: np.ndarray,
    keep: np.ndarray,
    plain: np.ndarray,
    named: np.ndarray,
) -> list[list[int]] | None:
    """Every naming of the groups from the names each allows (as `_best_naming` does) whose evidence per
    cell stands within `LIGHT_SPAN` of the group's best such name, no stone colour naming two groups
    `apart`; None when they are more than `MAX_VISITS`."""
    allowed = np.ones_like(evidence, bool)
    allowed[:, EMPTY] = may_be_empty
    allowed[empties] = False
    allowed[empties, EMPTY] = True
    allowed[~keep] &= named[None]
    allowed[keep] = False
    allowed[keep, plain[keep]] = True
    per_cell = np.where(allowed, evidence, -np.inf) / sizes[:, None]
    choices = [[int(k) for k in np.flatnonzero(row >= row.max() - LIGHT_SPAN)] for row in per_cell]
    if np.prod([float(len(c)) for c in choices]) > MAX_VISITS:
        return None
    namings: list[list[int]] = [[]]
    for g, ks in enumerate(choices):
        namings = [
            n + [k] for n in namings for k in ks if k == EMPTY or not any(n[h] == k and apart[g, h] for h in range(g))
        ]
    return namings


def light_costs(names: list[int], lab: np.ndarray, classes: list[str], plain: list[int]) -> np.ndarray:
    """Per group, its name's light-balanced misfit (`light_misfits`) under the light the *other* groups'
    names imply; a name with no named colour (empty, clear) costs what the name `plain` gives the group
    does under that light, so the light moves no group to or from it."""
    misfit = light_misfits(names, lab, classes)
    named = _named_log_light(classes)
    return np.array(
        [
            misfit[g, k] if k in named else (misfit[g, plain[g]] if plain[g] in named else 0.0)
            for g, k in enumerate(names)
        ]
    )


def name_with_light(
    evidence: np.ndarray,
    centres: np.ndarray,
    sizes: np.ndarray,
    stones: np.ndarray | None,
    lab: np.ndarray,
    classes: list[str],
    plain: list[int],
    bare: np.ndarray | None = None,
) -> tuple[list[int], np.ndarray]:
    """The groups' names and light chosen together: each naming the groups allow is judged by its summed
    evidence less what each group's name misfits under the light the other groups' names imply
    (`light_costs`, `LIGHT_WEIGHT`), so a light taken from a misnamed group cannot rename a right one
    (Blender dev 115001: green glass that fits yellow under the light its blue neighbours, read purple,
    imply).  Margins as `name_groups` gives them, and no wider than the best naming giving the group
    another name wins by.  Falls back on naming once with the light of the names `plain` when there
    are too many namings to judge."""
    apart, family, empties = _board_rules(evidence, centres, sizes, stones, bare)
    # the light names colours, not what stands on the board: a group first named empty or clear stays so,
    # and a group first named a colour takes a colour (a black group added to the light's sources shifts it)
    coloured = _named_log_light(classes)
    named = np.array([k in coloured for k in range(len(classes))])
    keep = np.array([k not in coloured for k in plain])
    namings = _namings(evidence, sizes, apart, family, empties, keep, np.array(plain), named)
    if not namings:
        return name_groups(evidence, centres, sizes, stones, light_penalty(plain, lab, classes), bare)
    rows = np.arange(len(evidence))
    scores = np.array(
        [
            float(evidence[rows, n].sum() - LIGHT_WEIGHT * (sizes * light_costs(n, lab, classes, plain)).sum())
            for n in namings
        ]
    )
    best = namings[int(np.argmax(scores))]
    _, margins = name_groups(evidence, centres, sizes, stones, bare=bare, fixed=best)
    for g, k in enumerate(best):
        rivals = [s for s, n in zip(scores, namings) if n[g] != k]
        if rivals:
            margins[g] = min(margins[g], (scores.max() - max(rivals)) / sizes[g])
    return best, margins


def name_by_groups(
    P: np.ndarray,
    post: np.ndarray,
    lab: np.ndarray,
    classes: list[str],
    body: tuple[np.ndarray, list[str]] | None = None,
    where: np.ndarray | None = None,
) -> Naming:
    """Class per cell from the groups' names (`P` the forest's shares, `post` after the photo's
    looks, one column per class of `classes`, empty first; `lab` each cell's colour: L, a, b).
    With `body` (each cell's features and their names), stones of the board's own colour, in the
    empty look's group, are found by hiding the lines its empty points show (`presence.stones_among`);
    with `where` (each cell's place on the board), a group that holds a region of the board beside the
    empty points, near them in colour, is their look in another light (`lit_regions`), not stones."""
    colours = colour_space(lab)
    own = post.argmax(1)
    best = own.copy()
    doubted = np.zeros(len(P), bool)
    groups = [p for g in colour_groups(colours) if len(g) >= MIN_GROUP for p in split_by_readings(g, post, colours)]
    if not groups:
        return Naming(best, doubted)
    # the forest's shares and the photo's looks weigh alike, as in a cell's confidence
    shares = (P + post) / 2

    def summed(cells: np.ndarray) -> np.ndarray:
        return np.log(shares[cells] + VOTE_FLOOR).sum(0)

    flat, stones = np.zeros(len(groups), bool), np.zeros(len(groups), bool)
    if body is not None:  # the board's flat marks beside domed stones, whatever the forest reads them as
        groups, flat, stones = flat_among_raised(groups, P[:, EMPTY], colours, *body, MIN_GROUP)
    evidence = np.stack([summed(g) for g in groups])
    if body is not None:
        main = empty_look(evidence, np.array([len(g) for g in groups], float))
        feats, columns = body
        top = lines_top(groups, feats, columns)
        for i in range(len(groups)):  # the empty look's group by look, any other by the lines its cells hide
            side = stones_among(feats[groups[i]], P[groups[i], EMPTY], columns, 0.0 if i == main else top, i == main)
            if side is not None and min(side.sum(), (~side).sum()) >= MIN_GROUP:
                if i == main and where is not None and lit_regions(groups[i][side], groups[i][~side], where):
                    continue  # the empty points along the board's edge or across its far half, not stones
                groups.append(groups[i][side])
                groups[i] = groups[i][~side]
                stones = np.r_[stones, True]
                flat = np.r_[flat, False]
        evidence = np.stack([summed(g) for g in groups])
    bare = np.zeros(len(groups), bool)
    if body is not None:  # the groups that hide the drawn circles beside their points are stones
        covered, bare = covered_groups(groups, *body)
        stones |= covered
        # ... and those that show them, and the forest does not call sure stones, are empty points
        bare &= np.array([P[g, EMPTY].mean() >= BARE_DOUBT for g in groups])
        bare |= flat
    centres = np.stack([colours[g].mean(0) for g in groups])
    lit = np.zeros(len(groups), bool)
    if body is not None and where is not None:  # the empty points' look in another light is empty points still
        lit = empty_points_lit_apart(groups, evidence, centres, where, *body)
        stones &= ~lit
        bare |= lit
    sizes = np.array([len(g) for g in groups], float)
    medians = np.stack([np.median(lab[g], 0) for g in groups])
    names, margins = name_groups(evidence, centres, sizes, stones, bare=bare)
    names, _ = by_hue(names, centres, sizes, classes)
    # named again, each naming with the light it implies taken out of each group's colour
    names, margins = name_with_light(evidence, centres, sizes, stones, medians, classes, names, bare)
    names, hued = by_hue(names, centres, sizes, classes)
    margins[hued] = 0.0  # named against the forest's votes: checked
    misfits = colour_doubts(names, medians, classes) | no_other_name(names)
    lean = _lean(evidence, sizes)
    in_doubt = (margins < SURE_MARGIN) | misfits
    in_doubt |= opposed_tints(names, centres, classes) | empty_look_in_doubt(names, centres, lean, stones)
    if body is not None:
        in_doubt |= feet_like_the_empty_points(groups, names, *body)
    # a stone group near in colour to the empty points' other light: which points of that look stand up is the
    # shadow's guess (dev 75017: black glass beside the shaded points, one of them taken in, sure)
    in_doubt |= (near(centres) & lit[None, :]).any(1) & (np.array(names) != EMPTY)
    standing = stones | feet_hidden(groups, names, *body) if body is not None else stones
    in_doubt |= doubt_shared(
        names, centres, near_other_names(names, centres) | near_the_empty_points(names, centres, standing)
    ) | far_namesakes(names, centres, hued)
    in_doubt |= empty_look_outgrown(names, sizes, in_doubt)
    for g, k, flag in zip(groups, names, in_doubt):
        best[g] = k
        doubted[g] = (best[g] != own[g]) | flag
    doubted |= lone_cells_in_doubt(groups, names, in_doubt, colours, own)
    joined = lone_cells_joined(groups, names, colours, own)
    best[joined != own] = joined[joined != own]
    if not (lean > 0).any():
        # no group looks like empty points to the forest: which one is the board's empty look is a guess,
        # and every name hangs on it (dev seeds 95 and 97: 36-117 cells wrong on such readings of true fits)
        doubted[:] = True
    return Naming(best, doubted)


def region_kappa(one: np.ndarray, other: np.ndarray, where: np.ndarray) -> float:
    """How much more often than chance each of two sets of cells' (indices into `where`, their places on
    the board) `LIT_NEIGHBOURS` nearest points among both sets are of its own set: a kappa, 0 for a random
    scatter, 1 for two regions with no border."""
    cells = np.r_[one, other]
    side = np.r_[np.ones(len(one), bool), np.zeros(len(other), bool)]
    n = len(cells)
    apart = np.linalg.norm(where[cells][:, None] - where[cells][None], axis=2)
    np.fill_diagonal(apart, np.inf)
    neighbours = np.argsort(apart, axis=1)[:, : min(LIT_NEIGHBOURS, n - 1)]
    same = float((side[neighbours] == side[:, None]).mean())
    chance = (len(one) * (len(one) - 1) + len(other) * (len(other) - 1)) / (n * (n - 1))
    return (same - chance) / (1.0 - chance)


def lit_regions(one: np.ndarray, other: np.ndarray, where: np.ndarray) -> bool:
    """Whether two sets of cells hold regions of the board rather than scattered points (`region_kappa`
    `LIT_REGIONS` or more, `LIT_MIN_POINTS` each).  One look of the board's points split by the light (a
    sunlit far half, the points along the edge) holds regions; stones stand wherever the game put them,
    scattered among the points."""
    if min(len(one), len(other)) < LIT_MIN_POINTS:
        return False
    return region_kappa(one, other, where) >= LIT_REGIONS


def empty_points_lit_apart(
    groups: list[np.ndarray],
    evidence: np.ndarray,
    centres: np.ndarray,
    where: np.ndarray,
    feats: np.ndarray,
    columns: list[str],
) -> np.ndarray:
    """Per group, whether it is the board's empty points in another light: near the empty look's group in
    colour (`near`), holding a region of the board beside it (`lit_regions`), and casting no clearly stronger
    shadow than it (`LIT_SHADOW_GAIN`).  A sunlit far half shows the drawn circles less and reads as pale
    stones to the forest (Blender dev 115002: 45 points read white; wide set 1000, 1002: 39 and 22 points)."""
    main = empty_look(evidence, np.array([len(g) for g in groups], float))
    close = near(centres)[main]
    k = columns.index("shadow")
    shadow = np.array([float(np.median(feats[g, k])) for g in groups])
    flat = shadow <= LIT_SHADOW_GAIN * shadow[main]
    return np.array(
        [g != main and close[g] and flat[g] and lit_regions(groups[g], groups[main], where) for g in range(len(groups))]
    )


def opposed_tints(names: list[int], centres: np.ndarray, classes: list[str]) -> np.ndarray:
    """Per group (`colour_space` centres), whether it shares a hueless stone name (black, white, clear)
    with a group tinted the opposite way (`TINTS_OPPOSED_DEG`, both tints `TINT_SEEN`): one light tints
    a hueless colour's lit and shaded stones alike, so these are two colours, and the name of one (or
    both) is wrong (dev 75013: dark green and purple glass in a dim photo, both read black)."""
    chroma = np.hypot(centres[:, 1], centres[:, 2])
    hue = np.arctan2(centres[:, 2], centres[:, 1])
    turn = np.abs(np.angle(np.exp(1j * (hue[:, None] - hue[None]))))
    hueless = np.array([k != EMPTY and classes[k] in HUELESS for k in names])
    same = (np.array(names)[:, None] == np.array(names)[None]) & hueless[:, None] & hueless[None]
    tinted = chroma >= TINT_SEEN
    opposed = same & tinted[:, None] & tinted[None] & (turn >= np.radians(TINTS_OPPOSED_DEG))
    return opposed.any(1)


def near(centres: np.ndarray) -> np.ndarray:
    """Per pair of groups (`colour_space` centres), whether they stand near enough to be one colour of
    the set: within `DISTINCT_APART` and not `two_hues` apart (what `name_groups` lets share a name)."""
    between = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    return (between < DISTINCT_APART) & ~two_hues(centres)


def doubt_shared(names: list[int], centres: np.ndarray, in_doubt: np.ndarray) -> np.ndarray:
    """The groups in doubt once doubt passes between near groups (`near`) of one stone name: they are one
    colour, named on one guess, when the doubt is which name the colour has (`near_other_names`; Blender dev
    115002: yellow glass in the sun, orange groups near a yellow one and further orange groups near those)."""
    named = np.array(names)
    joined = near(centres) & (named[:, None] == named[None]) & (named != EMPTY)[:, None]
    doubt = in_doubt.copy()
    while True:
        spread = doubt | (joined & doubt[None]).any(1)
        if (spread == doubt).all():
            return doubt
        doubt = spread


def far_namesakes(names: list[int], centres: np.ndarray, hued: np.ndarray) -> np.ndarray:
    """Per group (`colour_space` centres), whether the forest gave its stone name to a group `DISTINCT_APART` or
    more from it as well (which only `one_hue` allows: thick and thin glass of one colour): that they are one
    colour is a guess (Blender dev 115008: 6 mm indigo inlay and dark rings round the points of an orange board,
    the empty points' look, named blue with the blue stones 19 apart, 124 cells sure and wrong).  A group
    `hued` (named by `by_hue` against the forest's votes) is checked already and leaves its namesake sure."""
    named = np.array(names)
    between = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    same = (named[:, None] == named[None]) & (named != EMPTY)[:, None] & ~hued[:, None] & ~hued[None]
    return (same & (between >= DISTINCT_APART)).any(1)


def near_other_names(names: list[int], centres: np.ndarray) -> np.ndarray:
    """Per group (`colour_space` centres), whether it is named a stone colour while a group it stands
    near (neither `DISTINCT_APART` nor `two_hues` from it) bears another stone name: two such groups
    may be one colour split by the light, so which name is the colour's is the forest's guess (Blender
    dev 115002: sunlit yellow glass split into yellow and orange groups 13 apart, 10 degrees of hue)."""
    named = np.array(names)
    stone = named != EMPTY
    other = stone[:, None] & stone[None] & (named[:, None] != named[None])
    return (near(centres) & other).any(1)


def _lone_cells_beside(groups: list[np.ndarray], colours: np.ndarray, own: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells read as stones that no named group holds (too few like them, `MIN_GROUP`), and per such
    cell which groups it stands near (`near`, one row each); none when there is no group to set them beside."""
    if not groups:
        return np.zeros(0, int), np.zeros((0, 0), bool)
    lone = np.setdiff1d(np.flatnonzero(own != EMPTY), np.concatenate(groups))
    centres = np.stack([colours[g].mean(0) for g in groups])
    beside = [near(np.vstack([colours[c][None], centres]))[0, 1:] for c in lone]
    return lone, np.array(beside, bool).reshape(len(lone), len(groups))


def lone_cells_in_doubt(
    groups: list[np.ndarray], names: list[int], in_doubt: np.ndarray, colours: np.ndarray, own: np.ndarray
) -> np.ndarray:
    """Per cell, whether it was left out of the named groups (too few like it, `MIN_GROUP`) and keeps a
    stone reading of its own while it stands near (`near`) a group whose name is in doubt or
    that bears another stone name: it is one of them, split off by the light, and no surer than they
    are (Blender dev 115002: four sunlit yellow glass stones read orange, sure, beside a doubted group)."""
    doubted = np.zeros(len(colours), bool)
    named = np.array(names)
    for c, beside in zip(*_lone_cells_beside(groups, colours, own)):
        doubted[c] = bool((beside & (in_doubt | ((named != EMPTY) & (named != own[c])))).any())
    return doubted


def lone_cells_joined(groups: list[np.ndarray], names: list[int], colours: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Each cell's class once a cell left out of the named groups (too few like it, `MIN_GROUP`) whose own
    stone reading no group bears, and that stands near (`near`) groups of one stone name and of no other
    name, takes that name: it is one of them split off by the light, not a colour of its own (shared example
    rings_002: two sunlit orange stones read yellow beside fifty orange ones).  It stays marked for checking
    (`lone_cells_in_doubt`: it stands near a group of another name than its own reading)."""
    joined = own.copy()
    named = np.array(names)
    for c, beside in zip(*_lone_cells_beside(groups, colours, own)):
        names_beside = named[beside]
        if (
            own[c] not in named
            and len(names_beside)
            and EMPTY not in names_beside
            and len(set(names_beside.tolist())) == 1
        ):
            joined[c] = names_beside[0]
    return joined


def near_the_empty_points(names: list[int], centres: np.ndarray, stones: np.ndarray) -> np.ndarray:
    """Per group (`colour_space` centres), whether it is named a stone colour while nothing says it stands up
    (`stones`) and it stands near (`near`) a group named empty: the two may be one look of the board's points
    split by the light (Blender dev 115002: a sunlit board's far points, 6 apart from its near ones, read as 51
    white stones)."""
    named = np.array(names)
    shown = near(centres) & (named == EMPTY)[None]
    return (named != EMPTY) & ~stones & shown.any(1)


def empty_look_outgrown(names: list[int], sizes: np.ndarray, in_doubt: np.ndarray) -> np.ndarray:
    """Per group, whether it is named empty while a group bigger than every empty-named one bears a stone name
    in doubt (`in_doubt`): the board's points are the look its empty points share, and a bigger look whose name
    is a guess may be they, the empty-named group then stones of the board's colour (Blender dev 115008: 138
    empty points of an indigo inlay named blue, in doubt, beside 17 orange stones on orange tiles read empty, sure)."""
    named = np.array(names)
    empty = named == EMPTY
    if not empty.any():
        return np.zeros(len(names), bool)
    rival = ~empty & in_doubt & (sizes > sizes[empty].max())
    return empty & rival.any()


def empty_look_in_doubt(names: list[int], centres: np.ndarray, lean: np.ndarray, stones: np.ndarray) -> np.ndarray:
    """Per group, whether it is named empty on a photo where another look could be the empty points: a
    group the forest leans empty on (`lean`), with no clear hue of its own (`HUE_CHROMA`), that nothing
    says stands up (`stones`), yet named a stone colour because it lies off the chosen empty look.
    Boards are black, white or grey as often as stones are; which of the two is the board is a guess
    (dev 75013: orange glass on light wood in a dim photo taken for the empty points, the grey-blue
    empty points read black; 91001: yellow glass on navy paint, its empty points read clear)."""
    chroma = np.hypot(centres[:, 1], centres[:, 2])
    named = np.array(names)
    rival = (named != EMPTY) & (lean > 0) & ~stones & (chroma < HUE_CHROMA)
    return (named == EMPTY) & rival.any()


def feet_hidden(groups: list[np.ndarray], names: list[int], feats: np.ndarray, columns: list[str]) -> np.ndarray:
    """Per group, whether the drawn lines at its cells' foot are hidden (`PRESENCE_FOOT_HIDDEN`) where every
    group named empty shows them (`PRESENCE_FOOT_SHOWN`): it stands up, as a stone covers where the lines meet."""
    foot, least = _foot_ink(groups, names, feats, columns)
    if least is None:
        return np.zeros(len(groups), bool)
    return foot <= PRESENCE_FOOT_HIDDEN * least


def _foot_ink(
    groups: list[np.ndarray], names: list[int], feats: np.ndarray, columns: list[str]
) -> tuple[np.ndarray, float | None]:
    """Each group's typical ink of the drawn lines at its cells' foot, and the least that a group named empty
    shows clearly (`PRESENCE_FOOT_SHOWN`; None when none does): the empty points' measure of a foot left bare."""
    k = columns.index("foot_ink")
    foot = np.array([float(np.median(feats[g, k])) for g in groups])
    shown = foot[(np.array(names) == EMPTY) & (foot >= PRESENCE_FOOT_SHOWN)]
    return foot, float(shown.min()) if len(shown) else None


def feet_like_the_empty_points(
    groups: list[np.ndarray], names: list[int], feats: np.ndarray, columns: list[str]
) -> np.ndarray:
    """Per group, whether it is named a stone colour while the drawn lines show at its cells' foot as
    clearly as at the empty points', where every other stone group hides them (`PRESENCE_FOOT_HIDDEN`):
    a stone covers where the lines meet whatever its colour (dev 105003: a black painted board's
    points, read as 33 black stones beside red and orange ones that hide its grooves)."""
    foot, least = _foot_ink(groups, names, feats, columns)  # every group named empty shows them at least `least`
    unsure = np.zeros(len(groups), bool)
    if least is None:
        return unsure
    stones = np.flatnonzero(np.array(names) != EMPTY)
    for g in stones:
        others = foot[stones[stones != g]]
        unsure[g] = len(others) > 0 and bool((others <= PRESENCE_FOOT_HIDDEN * least).all()) and foot[g] >= least
    return unsure
