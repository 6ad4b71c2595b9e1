"""Reading every location: empty or a palette colour, with a confidence.

The photo is warped onto the canonical layout (about 12 pixels per stone radius) and
each location is described by what a stone changes there: colour against the board's
own wood (measured between the locations), texture, highlights and dark refraction
edges (what a clear glass stone shows over an empty pocket), the strength of a round
edge at stone size, and the ink of a drawn board's lines where they meet at the
location's foot, which any stone covers.  A random forest trained on rendered photos
(`vision/model/`) turns those numbers into a class; the game's palette restricts the answer.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from .camera import raised
from .drawn import lines_shown
from .fit import gradient_magnitude
from .flat import flat_colours, stones_unlike_the_pockets
from .frame import Frame
from .layouts import Layout
from .naming import (
    HUE_APART_DEG,
    HUE_CHROMA,
    HUELESS,
    LIT_REGIONS,
    NAMED_COLOURS,
    colour_groups,
    colour_space,
    encoded_rgb,
    linear_rgb,
    name_by_groups,
    region_kappa,
    two_hues,
)
from .presence import decide_presence, like_the_marks, stands_out, stands_up
from .segment import thin_lines
from .tuning import (
    CHECK_BELOW,
    DOMED_SHARE,
    EMPTY_LOOKS_APART,
    EMPTY_LOOKS_TIGHT,
    FLAT_SHADE,
    FLAT_SHARE,
    GROUP_MAJORITY,
    HUE_GROUP_MIN,
    LOOK_SURE,
    POCKETS_BY_COLOUR,
    POCKETS_SURE,
    PRESENCE_GAMES,
    PRESENCE_SHADOW_GAIN,
    PRESENCE_SHADOW_MIN,
    RAISED_SHADE,
    RENAME_BELOW,
    RENAMED_CONFIDENCE,
    SAME_COLOUR,
)

CLASSES = ("empty", "black", "white", "clear", "red", "green", "blue", "yellow", "orange", "purple")
MODEL_PATH = Path(__file__).with_name("model") / "cells.xml.gz"
GROUP_NAMED = ("rings",)  # games whose colours are named by groups of look-alike cells (`naming.py`)
PX_PER_RADIUS = 12.0
# stone radii above the board where a stone's body shows: on drawn boards stones stand on the
# board; in pockets they sit low and the pocket's rim, which the forest reads, is on the board
SAMPLE_LIFT = {"morris": 0.4, "rings": 0.4}


def _first_harmonic(o: tuple[np.ndarray, np.ndarray], values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much `values` (one row per location, at offsets `o`) rise toward one side, and the
    angle of that side: their first circular harmonic.  A dome lit from one side is shaded across
    its body and casts a shadow to the other -- every stone of a photo to the same side; a flat
    dot, printed or painted, is even all round."""
    ang = np.arctan2(o[0], o[1]).astype(np.float64)
    centred = values - values.mean(1, keepdims=True)
    x, y = centred @ np.cos(ang), centred @ np.sin(ang)
    return np.hypot(x, y) * (2.0 / len(ang)), np.arctan2(y, x)


def _offsets(rad_px: float, r0: float, r1: float) -> tuple[np.ndarray, np.ndarray]:
    R = int(math.ceil(r1 * rad_px)) + 1
    yy, xx = np.mgrid[-R : R + 1, -R : R + 1]
    d = np.sqrt(xx * xx + yy * yy) / rad_px
    sel = (d >= r0) & (d <= r1)
    return yy[sel], xx[sel]


def feature_names() -> list[str]:
    return [
        "L0",
        "a0",
        "b0",
        "dL",
        "da",
        "db",
        "chroma",
        "hcos",
        "hsin",
        "sL",
        "sa",
        "sb",
        "bright",
        "vbright",
        "dark",
        "grad",
        "ringgrad",
        "cdist",
        "refL",
        "refa",
        "refb",
        "p10",
        "p90",
        "dL_out",
        "cd_in",
        "sat_in",
        "lmax",
        "spot",
        "lapvar",
        "ringstd",
        "ctx_dL",
        "ctx_dcd",
        "ctx_rank",
        "ctx_dsat",
        "ctx_dlap",
        "foot_ink",
        "shade",
        "shadow",
        "lit_x",
        "lit_y",
        "lines_shown",
        "body_L",
        "body_a",
        "body_b",
    ]


def _linear(bgr: np.ndarray) -> np.ndarray:
    """Linear RGB (0..1) of 8-bit BGR pixels: light adds up there, not in the encoded values."""
    return linear_rgb(bgr[..., ::-1].astype(np.float32) / 255.0)


BODY_SHARE = 0.1  # the most colourful share (saturation times value) of a cell's dim pixels, which show its body colour
BODY_LEAST = 5  # pixels no lighter than the board it takes to say a cell's body colour; else its darkest fifth


def _body_colours(L: np.ndarray, colourful: np.ndarray, bgr: np.ndarray, board_L: float) -> np.ndarray:
    """Each cell's body colour (Lab rows), from its pixels (one row of `L`, `colourful` and `bgr` per
    cell): the mean linear light of its most colourful tenth (`BODY_SHARE`) among those no lighter
    than the board (`board_L`).  Light that came through a glass stone off the board under it is no
    lighter than the board, and it carries the glass's own colour; what is lighter is a reflection of
    the room or the lamp (a window's blue sky on black glass), which carries theirs."""
    dim = L <= board_L
    few = dim.sum(1) < BODY_LEAST
    dim[few] = L[few] <= np.percentile(L[few], 20, axis=1, keepdims=True)
    score = np.sort(np.where(dim, colourful, -np.inf), axis=1)
    taken = np.maximum(1, np.ceil(BODY_SHARE * dim.sum(1))).astype(int)
    keep = dim & (colourful >= score[np.arange(len(score)), score.shape[1] - taken][:, None])
    mean = (_linear(bgr) * keep[..., None]).sum(1) / keep.sum(1)[:, None]
    return cv2.cvtColor(encoded_rgb(mean)[None].astype(np.float32), cv2.COLOR_RGB2Lab)[0]


def cell_features(img: np.ndarray, H: np.ndarray, layout: Layout) -> tuple[np.ndarray, dict]:
    r = layout.stone_radius
    s = PX_PER_RADIUS / r
    frame = Frame(layout, s, margin=0.3)
    # looked at where a stone's body shows (above its foot), not on the board
    lift = SAMPLE_LIFT.get(layout.game, 0.0) * r
    warped = frame.warp(img, raised(H, img.shape, lift))
    lab = cv2.cvtColor(warped.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    L, A, B = lab[..., 0], lab[..., 1], lab[..., 2]
    # the board right at a location's foot, which a stone covers from any camera (a drawn
    # board's lines meet there, often in a dot)
    if lift:
        foot = frame.warp(img, H)
        L_foot = cv2.cvtColor(foot.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)[..., 0]
    else:
        L_foot = L
    g = cv2.GaussianBlur(L, (0, 0), 1.0)
    grad = gradient_magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    # specular highlights: small bright spots above their surroundings
    spot_map = L - cv2.GaussianBlur(L, (0, 0), 0.35 * PX_PER_RADIUS)
    lap = np.abs(cv2.Laplacian(cv2.GaussianBlur(L, (0, 0), 0.8), cv2.CV_32F))
    # thin strokes at the foot, dark or light: a drawn board's lines meet at an empty location
    strokes = thin_lines(cv2.GaussianBlur(L_foot, (0, 0), 0.7), int(round(0.5 * PX_PER_RADIUS)) | 1)
    foot_strokes = np.maximum(*strokes)
    hsv = cv2.cvtColor(warped, cv2.COLOR_BGR2HSV)
    sat = hsv[..., 1].astype(np.float32) / 255.0
    centres = frame.to_px(layout.xy)
    # board background: inside the outline, away from every location
    inside = np.zeros(L.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(frame.to_px(layout.outline * 0.93)).astype(np.int32)], 1)
    away = inside.copy()
    for cx, cy in centres:
        cv2.circle(away, (int(round(cx)), int(round(cy))), int(1.45 * PX_PER_RADIUS), 0, -1)
    bg = away.astype(bool)
    if bg.sum() < 50:
        bg = inside.astype(bool)
    refL, refa, refb = (float(np.median(ch[bg])) for ch in (L, A, B))
    refg = float(np.mean(grad[bg])) + 1.0
    reflap = float(np.mean(lap[bg])) + 0.5
    reffoot = float(np.percentile(foot_strokes[bg], 99)) + 1.0
    o_in = _offsets(PX_PER_RADIUS, 0, 0.5)
    o_mid = _offsets(PX_PER_RADIUS, 0, 0.9)
    o_ring = _offsets(PX_PER_RADIUS, 0.8, 1.2)
    o_foot = _offsets(PX_PER_RADIUS, 0, 0.45)
    o_body = _offsets(PX_PER_RADIUS, 0.2, 0.75)
    o_shadow = _offsets(PX_PER_RADIUS, 1.05, 1.45)
    h, w = L.shape
    ix, iy = np.round(centres).astype(int).T

    def take(o: tuple[np.ndarray, np.ndarray], ch: np.ndarray) -> np.ndarray:
        """The pixels of `ch` at offsets `o` around every location: one row per location."""
        return ch[np.clip(o[0][None] + iy[:, None], 0, h - 1), np.clip(o[1][None] + ix[:, None], 0, w - 1)]

    Li, ai, bi = take(o_in, L), take(o_in, A), take(o_in, B)
    Lm, am, bm = take(o_mid, L), take(o_mid, A), take(o_mid, B)
    Lr = take(o_ring, L)
    L0, a0, b0 = (np.median(ch, 1).astype(np.float64) for ch in (Li, ai, bi))
    hang = np.arctan2(b0, a0)
    cd = np.sqrt((Lm - refL) ** 2 + (am - refa) ** 2 + (bm - refb) ** 2)
    cdi = np.sqrt((Li - refL) ** 2 + (ai - refa) ** 2 + (bi - refb) ** 2)
    n = len(centres)
    F = np.stack(
        [
            L0,
            a0,
            b0,
            L0 - refL,
            a0 - refa,
            b0 - refb,
            np.hypot(a0, b0),
            np.cos(hang),
            np.sin(hang),
            Lm.std(1),
            am.std(1),
            bm.std(1),
            (Lm > refL + 20).mean(1),
            (Lm > 92).mean(1),
            (Lm < refL - 20).mean(1),
            take(o_mid, grad).mean(1) / refg,
            take(o_ring, grad).mean(1) / refg,
            cd.mean(1),
            np.full(n, refL),
            np.full(n, refa),
            np.full(n, refb),
            np.percentile(Lm, 10, axis=1),
            np.percentile(Lm, 90, axis=1),
            np.median(Lr, 1) - refL,
            np.median(cdi, 1),
            np.median(take(o_in, sat), 1),
            Lm.max(1) - refL,
            take(o_mid, spot_map).max(1),
            take(o_mid, lap).mean(1) / reflap,
            Lr.std(1),
        ],
        1,
    ).astype(np.float32)
    foot_ink = np.percentile(take(o_foot, foot_strokes), 90, axis=1) / reffoot
    # context: how this location compares with the other locations of the same photo
    names = feature_names()
    iL, icd, isat, ilap = names.index("L0"), names.index("cd_in"), names.index("sat_in"), names.index("lapvar")
    ctx = np.stack(
        [
            F[:, iL] - np.median(F[:, iL]),
            F[:, icd] - np.median(F[:, icd]),
            (np.argsort(np.argsort(F[:, iL])) + 0.5) / len(F),
            F[:, isat] - np.median(F[:, isat]),
            F[:, ilap] - np.median(F[:, ilap]),
        ],
        1,
    ).astype(np.float32)
    # a stone is a raised body: shaded across, with a shadow beside it (on the board's plane)
    shade, _ = _first_harmonic(o_body, take(o_body, L))
    shadow, lit_side = _first_harmonic(o_shadow, take(o_shadow, L_foot))
    raised_body = np.stack([shade, shadow, np.cos(lit_side), np.sin(lit_side)], 1).astype(np.float32)
    shown = lines_shown(cv2.GaussianBlur(L_foot, (0, 0), 0.7), frame, layout)
    body = _body_colours(take(o_mid, L), take(o_mid, sat * hsv[..., 2]), take(o_mid, warped), refL)
    F = np.concatenate([F, ctx, foot_ink.astype(np.float32)[:, None], raised_body, shown[:, None], body], 1)
    return F, {"frame": frame, "warped": warped, "ref": (refL, refa, refb)}


_model_dir = MODEL_PATH.parent


def use_models(folder: Path | None = None) -> None:
    """Read the forests from another folder (a benchmark's model trained without some designs);
    None goes back to the committed ones."""
    global _model_dir
    _model_dir = Path(folder) if folder else MODEL_PATH.parent
    load_model.cache_clear()


def model_path(game: str | None = None) -> Path:
    """One forest per game (its boards and stones differ); `cells.xml.gz` serves any game."""
    if game:
        p = _model_dir / f"cells-{game}.xml.gz"
        if p.exists():
            return p
    return _model_dir / MODEL_PATH.name


def manifest_path(model: Path) -> Path:
    """What a forest learned from and which feature columns it reads: `cells-GAME.json`."""
    return model.with_name(model.name.removesuffix(".xml.gz") + ".json")


def read_manifest(model: Path) -> dict:
    """The manifest beside a forest (`manifest_path`): what it was trained on; a forest without
    one is refused."""
    manifest = manifest_path(model)
    if not manifest.exists():
        raise RuntimeError(
            f"{model.name} has no manifest ({manifest.name}): a forest is read only with the record of "
            "its feature columns and training (vision/model/README.md)"
        )
    return json.loads(manifest.read_text())


@functools.lru_cache(maxsize=8)
def load_model(game: str | None = None):
    """The game's forest (None when there is none), refused when its manifest is missing or names
    other feature columns than `cell_features` computes, or another number than the forest reads."""
    p = model_path(game)
    if not p.exists():
        return None
    trained = read_manifest(p)["features"]
    forest = cv2.ml.RTrees.load(str(p))
    if trained != feature_names()[: len(trained)] or len(trained) != forest.getVarCount():
        raise RuntimeError(
            f"{p.name} was trained on other feature columns than vision/classify.py computes "
            f"({manifest_path(p).name} names {len(trained)}, the forest reads {forest.getVarCount()}): "
            "train it again (vision/model/README.md)"
        )
    return forest


def class_votes(feats: np.ndarray, layout: Layout, model=None) -> tuple[np.ndarray, list[int]]:
    """The forest's share of votes per cell for empty and each colour of the game's palette
    (columns in the order of the returned class indices)."""
    model = model or load_model(layout.game)
    if model is None:
        raise RuntimeError(f"cell model missing: {model_path(layout.game)}")
    allowed = [0] + [CLASSES.index(c) for c in layout.palette]
    # features are only ever appended: a forest trained before one was added reads the ones it knows
    votes = model.getVotes(np.ascontiguousarray(feats[:, : model.getVarCount()]), 0)  # labels, then votes
    P = np.zeros((len(feats), len(allowed)), np.float64)
    for j, lab in enumerate(votes[0].astype(int)):
        if lab in allowed:
            P[:, allowed.index(lab)] = votes[1:, j]
    return P / np.maximum(votes[1:].sum(1, keepdims=True), 1.0), allowed


# Stones of one colour look alike on one photo, and unlike its empty locations: a class's look
# on this photo (its surest cells) tells a doubtful cell what it is when the forest, trained on
# other photos, hesitates -- whole colours under an unusual light read as empty otherwise.
LOOK = ("dL", "da", "db", "sL", "ringgrad", "cd_in", "spot", "lapvar", "ringstd", "dL_out", "p10", "p90")
MIN_LOOK = 3  # cells it takes to say how a class looks on this photo
UNLIKE = 25.0  # mean squared z-score: this far from a class's look is as far as it gets
LOOK_WEIGHT = 0.5  # of a mean squared z-score against the log of the forest's vote share
PLAUSIBLE = 0.1  # the photo chooses only among classes the forest gives this share or more
# mean squared z-score from the look its name's cells share on the photo past which a cell named by its colour
# group is in doubt: another kind of cell under that name (Blender dev 117000: red glass domes among a red board's
# flat points, 36 read empty, sure; chosen on POV-Ray dev 109, 105, 95 and Blender dev 115: 1.5% of sure right cells)
UNLIKE_ITS_NAME = 16.0


def unlike_looks(
    P: np.ndarray, feats: np.ndarray, labels: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell and class, how unlike the cell is to the class's look on this photo (mean squared
    z-score over `LOOK`, at most `UNLIKE`; the looks of the forest's sure cells, or of every cell of
    `labels`), whether the class showed a look at all, and each cell's class (`labels` or the forest's)."""
    names = feature_names()
    X = feats[:, [names.index(n) for n in LOOK]].astype(np.float64)
    if labels is None:
        label, conf = P.argmax(1), P.max(1)
    else:
        label, conf = labels, np.ones(len(labels))
    looks: dict[int, np.ndarray] = {}
    spreads = []
    for c in range(P.shape[1]):
        sure = np.flatnonzero((label == c) & (conf >= LOOK_SURE))
        if len(sure) >= MIN_LOOK:
            looks[c] = np.median(X[sure], 0)
            spreads.append(1.4826 * np.median(np.abs(X[sure] - looks[c]), 0))
        elif np.count_nonzero(label == c) >= MIN_LOOK:  # a whole colour in doubt still looks alike
            looks[c] = np.median(X[label == c], 0)
    unlike = np.full(P.shape, UNLIKE)
    shown = np.isin(np.arange(P.shape[1]), list(looks)) & bool(spreads)
    if not spreads:
        return unlike, shown, label
    # the spread within a class on this photo; never below a tenth of the spread of all its cells
    scale = np.maximum(np.median(spreads, 0), 0.1 * X.std(0) + 1e-3)
    for c, look in looks.items():
        unlike[:, c] = np.minimum((((X - look) / scale) ** 2).mean(1), UNLIKE)
    return unlike, shown, label


def photo_adapt(P: np.ndarray, feats: np.ndarray, labels: np.ndarray | None = None) -> np.ndarray:
    """Class probabilities after weighing each cell's likeness to every class's look on this photo:
    the looks of the forest's sure cells, or of every cell of `labels` (a reading already mended)."""
    unlike, shown, label = unlike_looks(P, feats, labels)
    if not shown.any():
        return P
    # a class the photo does not show clearly enough gains or loses nothing by the looks
    unlike[:, ~shown] = unlike[:, shown].min(1, keepdims=True)
    score = np.log(P + 0.02) - LOOK_WEIGHT * unlike
    score[(P < PLAUSIBLE) & (np.arange(P.shape[1])[None, :] != label[:, None])] = -np.inf
    score -= score.max(1, keepdims=True)
    post = np.exp(score)
    return post / post.sum(1, keepdims=True)


def unlike_its_name(P: np.ndarray, feats: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Per cell, whether it looks unlike the other cells of its class on this photo (`UNLIKE_ITS_NAME`; a
    class of fewer than `MIN_LOOK` cells has no look to compare with): a colour group names its cells by colour
    alone, and a cell of that colour that is another kind of thing (a dome among flat points of the board's own
    colour, a lit stone of another colour) takes a name the physics of the photo does not back."""
    unlike, shown, _ = unlike_looks(P, feats, best)
    rows = np.arange(len(best))
    return shown[best] & (unlike[rows, best] > UNLIKE_ITS_NAME)


# Two physical colours never look the same on one photo: when the cells of one colour split into
# two clearly different colours and the forest's second choice for one of the two groups is a
# palette colour no cell has, that group is that colour (dark red stones beside orange ones,
# both read orange under a warm light).
SPLIT_MIN = 3  # stones in each of the two groups
SPLIT_APART = 12.0  # distance between the groups' colours (`_stone_colours`)
SPLIT_TIGHT = 6.0  # ... and this many times the spread within a group (an even spread: 4)
SPLIT_VOTES = 0.05  # the group's mean vote share for the missing colour, at least
SPLIT_LEAD = 3.0  # ... and this many times the other group's


def _stone_colours(feats: np.ndarray) -> np.ndarray:
    """Each cell's colour (L, a, b at its centre) in `naming.colour_space`, where groups of one colour are found."""
    return colour_space(feats[:, :3].astype(np.float64))


def two_groups(x: np.ndarray, apart_at_least: float = SPLIT_APART, tight: float = SPLIT_TIGHT) -> np.ndarray | None:
    """Two-means on colour rows (started from the darkest and the lightest): the boolean split
    when the rows form two tight groups far apart (`apart_at_least`, and `tight` times the spread
    within a group), else None."""
    order = np.argsort(x[:, 0])
    centres = np.stack([x[order[0]], x[order[-1]]])
    for _ in range(10):
        side = np.linalg.norm(x - centres[1], axis=1) < np.linalg.norm(x - centres[0], axis=1)
        if side.all() or not side.any():
            return None
        centres = np.stack([x[~side].mean(0), x[side].mean(0)])
    if min(side.sum(), (~side).sum()) < SPLIT_MIN:
        return None
    apart = float(np.linalg.norm(centres[1] - centres[0]))
    spread = max(float(np.median(np.linalg.norm(x[g] - centres[k], axis=1))) for k, g in enumerate((~side, side)))
    return side if apart >= apart_at_least and apart >= tight * spread else None


def _looks_like(colour: np.ndarray, of: np.ndarray, group: np.ndarray, other: np.ndarray) -> bool:
    """Whether the cells `of` a colour are nearer in colour to the `group` than to the `other`
    group (a colour no cell has yet is near any)."""
    if not len(of):
        return True
    mine = np.median(colour[of], 0)
    return bool(np.linalg.norm(mine - colour[group].mean(0)) < np.linalg.norm(mine - colour[other].mean(0)))


def split_lookalikes(best: np.ndarray, P: np.ndarray, feats: np.ndarray) -> np.ndarray:
    """Class per cell, after one of two distinct groups of a colour's cells that the forest leans
    towards another colour is given that colour, when it has no cells yet or its cells look like
    that group (clear glass over dark wood read white beside the white stones, while the few
    clear stones read clear look like the group, not like the white stones)."""
    best = best.copy()
    colour = _stone_colours(feats)
    for c in range(1, P.shape[1]):
        cells = np.flatnonzero(best == c)
        if len(cells) < 2 * SPLIT_MIN:
            continue
        side = two_groups(colour[cells])
        if side is None:
            continue
        groups = (cells[~side], cells[side])
        others = [m for m in range(1, P.shape[1]) if m != c]
        share = np.array([[P[g, m].mean() for m in others] for g in groups])  # group x other colour
        for mine, other in ((0, 1), (1, 0)):  # a colour whose cells look like the other group is not this one's
            for col, m in enumerate(others):
                if not _looks_like(colour, np.flatnonzero(best == m), groups[mine], groups[other]):
                    share[mine, col] = 0.0
        k, j = np.unravel_index(int(np.argmax(share)), share.shape)
        # a colour read already is handed on only where the forest leans to it as to a choice of its own
        least = SPLIT_VOTES if not np.any(best == others[j]) else PLAUSIBLE
        if share[k, j] >= least and share[k, j] >= SPLIT_LEAD * share[1 - k, j]:
            best[groups[k]] = others[j]
    return best


def empty_looks(best: np.ndarray, feats: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The cells read empty as two tight colour groups apart (`two_groups` with EMPTY_LOOKS_APART and
    EMPTY_LOOKS_TIGHT), or None when they are one look: one photo's empty pockets look alike."""
    empty = np.flatnonzero(best == 0)
    if len(empty) < 2 * SPLIT_MIN:
        return None
    side = two_groups(_stone_colours(feats[empty]), EMPTY_LOOKS_APART, EMPTY_LOOKS_TIGHT)
    return None if side is None else (empty[side], empty[~side])


def raised_empty_look(best: np.ndarray, P: np.ndarray, post: np.ndarray, feats: np.ndarray) -> np.ndarray:
    """Class per cell after, of two looks read empty (`empty_looks`), one the forest doubts (mean empty
    share under POCKETS_SURE) that is domes (its least shaded quarter shaded across the body,
    RAISED_SHADE) beside the other flat (median shade under FLAT_SHADE and FLAT_SHARE of the domes'),
    is taken for stones of the colour its cells' votes weigh most to (`post`): white glass on a felt
    printed with dark red discs, white glossy stones on white paper printed with rings (dev seed 103,
    the wide set).  A printed disc or ring is flat, and a cup's rim shades the cup's own pockets alike."""
    looks = empty_looks(best, feats)
    if looks is None:
        return best
    shade = feats[:, feature_names().index("shade")].astype(np.float64)
    best = best.copy()
    for domed, other in (looks, looks[::-1]):
        domes = float(np.percentile(shade[domed], DOMED_SHARE))
        flat = float(np.median(shade[other])) <= min(FLAT_SHADE, FLAT_SHARE * domes)
        if P[domed, 0].mean() < POCKETS_SURE and domes >= RAISED_SHADE and flat:
            best[domed] = 1 + int(post[domed, 1:].sum(0).argmax())
    return best


def structured_empty_look(
    best: np.ndarray, P: np.ndarray, post: np.ndarray, feats: np.ndarray, where: np.ndarray, most: int
) -> np.ndarray:
    """Class per cell after, of two looks read empty (`empty_looks`) scattered among each other on the board
    (`naming.region_kappa` under `LIT_REGIONS`), one that stands out as objects (`presence.stands_out`) is
    taken for stones of the colour its cells' votes weigh most to (`post`), while the box holds them (`most`
    stones in all), and when the forest doubts it more than the other look (mean empty share of `P`) or it
    casts clearly more shadow (`presence.stands_up`): a cap pocket's rim shows more edge and texture than
    glass that smooths it (dev 107014: 50 pockets, the forest 0.96 sure, beside 3 orange glass stones).
    One board's empty pockets look alike; a light that splits them splits the board into
    regions, and stones stand wherever the game put them.  Blender dev 115's glass read empty: black glass
    in dark cone pockets (b115004, 25), clear glass on painted wood (b115003, 11), white glass discs on paper
    (b115006, 10), white glass on light wood in the sun (b115008, 19) -- flatter than `raised_empty_look`
    asks, or beside pockets shaded by their cones.  Of three looks the first split may part the odd one
    from the other two, so its larger part is split again (dev 103006: black glass among the pockets)."""
    best = best.copy()
    names = feature_names()
    for _ in range(2):  # three looks: the clearest stones first, then the rest split again
        looks = empty_looks(best, feats)
        if looks is None:
            return best
        # of three looks the first split may part one from the other two: the larger part is split again
        larger = max(looks, key=len)
        again = two_groups(_stone_colours(feats[larger]), EMPTY_LOOKS_APART, EMPTY_LOOKS_TIGHT)
        pairs = [looks] + ([] if again is None else [(larger[again], larger[~again])])
        found = [
            stones
            for pair in pairs
            if region_kappa(pair[0], pair[1], where) < LIT_REGIONS
            for stones, other in (pair, pair[::-1])
            if (best > 0).sum() + len(stones) <= most
            and stands_out(feats[stones], feats[other], names)
            and (P[stones, 0].mean() < P[other, 0].mean() or stands_up(feats[stones], feats[other], names))
        ]
        if not found:
            return best
        best[found[0]] = 1 + int(post[found[0], 1:].sum(0).argmax())
    return best


def empty_looks_in_doubt(best: np.ndarray, P: np.ndarray, feats: np.ndarray) -> np.ndarray:
    """Per cell, whether it is read empty among empty cells of two looks (`empty_looks`) that the forest
    is not sure of: one of them is likely stones it takes for pockets (a colour of stones on a board of
    another look, neither domed nor flat enough for `raised_empty_look`).  A group whose mean empty share
    is POCKETS_SURE or more is the board's empty look (a lamp's dark corner's pockets beside it are
    another, doubted), unless it casts a shadow the other look does not (PRESENCE_SHADOW_GAIN times the
    other's, PRESENCE_SHADOW_MIN at least): stones stand up, pockets do not (Blender seed 115's
    three-stones_b115006: white glass discs on paper printed with pale discs, the forest 0.81 sure they
    were empty, shadows 9.7 beside the pockets' 3.1; 9 of them read sure and wrong).  Every other group
    is in doubt, whichever it is."""
    doubted = np.zeros(len(best), bool)
    looks = empty_looks(best, feats)
    if looks is None:
        return doubted
    shadow = feats[:, feature_names().index("shadow")].astype(np.float64)
    for group, other in (looks, looks[::-1]):
        cast = float(np.median(shadow[group]))
        stands_up = cast >= max(PRESENCE_SHADOW_GAIN * float(np.median(shadow[other])), PRESENCE_SHADOW_MIN)
        doubted[group] = P[group, 0].mean() < POCKETS_SURE or stands_up
    return doubted


def _over_the_set(best: np.ndarray, limits: list[int | None]) -> list[int]:
    """The classes read on more cells than the box holds stones of that colour."""
    counts = np.bincount(best, minlength=len(limits))
    return [c for c, most in enumerate(limits) if most is not None and counts[c] > most]


def within_the_set(post: np.ndarray, best: np.ndarray, limits: list[int | None]) -> np.ndarray:
    """Class per cell with no colour on more cells than its `limits` (None: no limit): a colour read
    too often keeps the cells it is surest of, against their next choice with room, and the others
    take that next choice (for a box of 12 clear stones, 52 light dots read clear go mostly empty)."""
    best = best.copy()
    logp = np.log(post + 1e-6)
    limit_of = {c: most for c, most in enumerate(limits) if most is not None}
    for _ in range(len(limits)):  # each round empties one colour's excess; a filled one goes after
        over = _over_the_set(best, limits)
        if not over:
            break
        c = over[0]
        counts = np.bincount(best, minlength=len(limits))
        cells = np.flatnonzero(best == c)
        excess_count = len(cells) - limit_of[c]
        # the excess is mostly one look (the board's marks under this light): a colour with less
        # room than the whole excess cannot be it
        room = np.array(
            [k for k, most in enumerate(limits) if k != c and (most is None or most - counts[k] >= excess_count)]
        )
        other = logp[np.ix_(cells, room)]
        choice = other.argmax(1)
        lead = logp[cells, c] - other[np.arange(len(cells)), choice]
        excess = np.argsort(lead)[:excess_count]
        best[cells[excess]] = room[choice[excess]]
    return best


def classify(feats: np.ndarray, layout: Layout, model=None) -> tuple[list[str | None], list[float]]:
    """Each location's class and confidence: the forest's votes weighed by the photo's own looks.
    The confidence is the mean of the forest's share and the weighed probability, so a cell the
    forest doubted stays marked for a person to check even when the photo decided it (a group
    `split_lookalikes` renamed keeps the forest's low share for its new colour)."""
    P, allowed = class_votes(feats, layout, model)
    post = photo_adapt(P, feats)
    named = (
        name_by_groups(
            P,
            post,
            feats[:, :3].astype(np.float64),
            [CLASSES[k] for k in allowed],
            (feats, feature_names()),
            np.asarray(layout.xy, np.float64),
        )
        if layout.game in GROUP_NAMED
        else None
    )
    best = named.best if named else split_lookalikes(post.argmax(1), P, feats)
    # cells a group decided against the forest, or near a tie: a person checks them
    decided = named.doubted.copy() if named else np.zeros(len(best), bool)
    if named:
        decided |= unlike_its_name(P, feats, best)
    if layout.game in PRESENCE_GAMES:
        most = sum(layout.stone_set.values()) or len(best)
        grouped = best
        if layout.marks == "pocket":  # a drawn board's marks are `decide_presence`'s
            clear = allowed.index(CLASSES.index("clear")) if "clear" in layout.palette else None
            grouped = flat_colours(grouped, P, feats, feature_names(), clear)
        found_flat = (grouped == 0) & (best != 0)
        grouped = decide_presence(grouped, P, feats, feature_names(), most, lines_meet=layout.marks == "point")
        if layout.game in POCKETS_BY_COLOUR:
            grouped = stones_unlike_the_pockets(grouped, P, post, feats, feature_names(), found_flat)
        if layout.marks == "pocket":
            grouped = raised_empty_look(grouped, P, post, feats)
            grouped = structured_empty_look(grouped, P, post, feats, np.asarray(layout.xy, np.float64), most)
        decided, best = decided | (grouped != best), grouped
    limits = [layout.stone_set.get(CLASSES[k]) if k else None for k in allowed]
    broken = _over_the_set(best, limits)
    first = best
    if broken:
        # more stones of a colour than the box holds: the forest took a look of this board (its
        # marks, its light) for stones -- the looks are learnt again from a reading the set allows
        best = within_the_set(post, best, limits)
        post = photo_adapt(P, feats, best)
        best = within_the_set(post, post.argmax(1), limits)
        if layout.game in PRESENCE_GAMES:
            alike = like_the_marks(best, np.flatnonzero(np.isin(first, broken) & (best == 0)), feats, feature_names())
            decided, best = decided | (alike != best), alike
    if layout.marks == "pocket":
        decided |= empty_looks_in_doubt(best, P, feats)
    rows = np.arange(len(best))
    conf = (P[rows, best] + post[rows, best]) / 2
    conf[decided] = np.minimum(conf[decided], RENAMED_CONFIDENCE)
    if broken:  # every cell the broken reading called those colours is in doubt, whatever it is now
        doubted = np.isin(first, broken) | np.isin(best, broken)
        conf[doubted] = np.minimum(conf[doubted], RENAMED_CONFIDENCE)
    return ([None if allowed[k] == 0 else CLASSES[allowed[k]] for k in best], [round(float(c), 3) for c in conf])


# A stone whose colour is as close to stones of another name as they are to each other, while no
# stone of its own name is, is one of them: a lone light orange read yellow beside fifty oranges.
def join_lone_stones(
    labels: list[str | None], conf: list[float], feats: np.ndarray
) -> tuple[list[str | None], list[float]]:
    """Each stone marked for checking with no stone of its own name near it in colour takes the
    name of its near neighbours, when they agree and are two or more, or that name is held by three or more
    stones on the board."""
    occ = [i for i, label in enumerate(labels) if label is not None]
    if len(occ) < 3:
        return labels, conf
    colour = _stone_colours(feats)[occ]
    near = np.linalg.norm(colour[:, None] - colour[None], axis=2) < SAME_COLOUR
    names = [labels[i] for i in occ]
    renamed = list(names)
    for a, i in enumerate(occ):
        neighbours = [names[b] for b in np.flatnonzero(near[a]) if b != a]
        if conf[i] >= CHECK_BELOW or not neighbours or names[a] in neighbours:
            continue
        win = max(set(neighbours), key=neighbours.count)
        agreed = neighbours.count(win)
        if agreed >= 0.8 * len(neighbours) and (agreed >= 2 or names.count(win) >= 3):
            renamed[a] = win
    labels, conf = list(labels), list(conf)
    for a, i in enumerate(occ):
        if renamed[a] != labels[i]:
            labels[i] = renamed[a]
            conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


def names_of_two_hues(labels: list[str | None], conf: list[float], feats: np.ndarray) -> list[float]:
    """The confidences after every stone whose name is also held by stones of a clearly different hue
    (`naming.two_hues` between their colour groups) is marked for checking: one colour of a set shares
    one hue on a photo, so a name across two hues is wrong for some of them, and which is not known
    (glossy green, red, purple and yellow stones all read white under a window, dev seed 103)."""
    colour = _stone_colours(feats)
    conf = list(conf)
    for name in {label for label in labels if label is not None}:
        cells = np.array([i for i, label in enumerate(labels) if label == name])
        groups = [g for g in colour_groups(colour[cells]) if len(g) >= HUE_GROUP_MIN]
        if len(groups) < 2 or not two_hues(np.stack([colour[cells[g]].mean(0) for g in groups])).any():
            continue
        for i in cells:
            conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return conf


def harmonize(
    labels: list[str | None], conf: list[float], feats: np.ndarray, radius: float = 9.0
) -> tuple[list[str | None], list[float]]:
    """Stones of one physical colour look alike on one photo: a lone stone takes its look-alikes'
    name (`join_lone_stones`), then the occupied cells are grouped by their colour (average
    linkage, groups `radius` apart) and a group's odd ones out get the group's colour name."""
    labels, conf = join_lone_stones(labels, conf, feats)
    stones = {i: label for i, label in enumerate(labels) if label is not None}  # each occupied cell's colour
    occ = list(stones)
    if len(occ) < 3:
        return labels, conf
    # the same grouping that names rings' colours (`naming.colour_groups`), over the stones alone
    groups = [[occ[k] for k in g] for g in colour_groups(_stone_colours(feats)[occ], radius)]
    labels, conf = list(labels), list(conf)
    for g in groups:
        if len(g) < 3:
            continue
        votes: dict[str, float] = {}
        for i in g:
            votes[stones[i]] = votes.get(stones[i], 0.0) + conf[i]  # groups are disjoint: still its first name
        win, wv = max(votes.items(), key=lambda kv: kv[1])
        if wv < GROUP_MAJORITY * sum(votes.values()):
            continue
        for i in g:
            if labels[i] != win and conf[i] < RENAME_BELOW:
                labels[i] = win
                conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


GLASS_HUE_MIN = 2  # stones of one body colour it takes to name them by it: one stone's may be a reflection
# the forest's mean vote share for the colour of a hue, at least, to name dark glass by it: it sees that colour faintly
# in glass it reads black (0.046-0.18 on dev seeds 81, 91, 107 and Blender 115), where black glass that shows a lamp-lit
# wood in its body gets next to none (Blender dev 117001: 0.011-0.013)
GLASS_HUE_VOTES = 0.025


def _hue(ab: np.ndarray) -> np.ndarray:
    """Hue angle (radians) of a, b colour rows."""
    return np.arctan2(ab[..., 1], ab[..., 0])


def _turn(a: np.ndarray | float, b: np.ndarray | float) -> float:
    """The angle between two hues (radians, 0..pi)."""
    return float(np.abs(np.angle(np.exp(1j * (np.asarray(a) - np.asarray(b))))))


def _named_hues(palette: tuple[str, ...]) -> dict[str, float]:
    """The hue (Lab) of each colour of the palette that has one (`naming.NAMED_COLOURS`, not `HUELESS`)."""
    hued = [c for c in palette if c in NAMED_COLOURS and c not in HUELESS]
    if not hued:
        return {}
    srgb = np.array([NAMED_COLOURS[c] for c in hued], np.float32)[None] / 255.0
    lab = cv2.cvtColor(srgb, cv2.COLOR_RGB2Lab)[0]
    return dict(zip(hued, _hue(lab[:, 1:]).tolist()))


def _tinted_by(colour: np.ndarray, board: np.ndarray) -> bool:
    """Whether a body colour (a, b) is a board's (a, b) tint: of its hue (`HUE_APART_DEG`), no stronger."""
    return _turn(_hue(colour), _hue(board)) < np.radians(HUE_APART_DEG) and np.hypot(*colour) <= np.hypot(*board)


def coloured_glass_named_black(
    labels: list[str | None], conf: list[float], feats: np.ndarray, P: np.ndarray, classes: list[str]
) -> tuple[list[str | None], list[float]]:
    """The names after each group of stones read black (`naming.colour_groups` of their body colours, two or
    more stones: `GLASS_HUE_MIN`) whose body colour (`_body_colours`) has a clear hue (`HUE_CHROMA`) that the
    board does not give it is named by that hue (the palette colour nearest in hue), marked for checking,
    when the forest sees that colour in them at all (`GLASS_HUE_VOTES`).  Dark glass shows its colour only
    in the light that comes back through it off the board: the forest, trained on lighter glass, reads it
    black (Blender dev 115: red glass on a blue mat, red and purple glass on dark wood; dev seed 91: red,
    orange and yellow glass under a lamp).  Black glass shows the board's own tint, of the board's hue and
    no stronger (`_tinted_by`: the body colour of the cells read empty, or the board's between the
    locations), so it stays black.  `P`: the forest's shares (`class_votes`), one column per class of
    `classes`, empty first."""
    hues = _named_hues(tuple(classes))
    black = np.array([i for i, label in enumerate(labels) if label == "black"], int)
    empty = np.array([i for i, label in enumerate(labels) if label is None], int)
    if not hues or not len(black) or len(empty) < MIN_LOOK:
        return labels, conf
    names = feature_names()
    body = feats[:, [names.index(n) for n in ("body_L", "body_a", "body_b")]].astype(np.float64)
    boards = (np.median(body[empty, 1:], 0), feats[0, [names.index("refa"), names.index("refb")]].astype(np.float64))
    labels, conf = list(labels), list(conf)
    for group in colour_groups(colour_space(body[black])):
        if len(group) < GLASS_HUE_MIN:
            continue
        cells = black[group]
        colour = np.median(body[cells, 1:], 0)
        if np.hypot(*colour) < HUE_CHROMA or any(_tinted_by(colour, board) for board in boards):
            continue
        name = min(hues, key=lambda c: _turn(hues[c], _hue(colour)))
        if P[cells, classes.index(name)].mean() < GLASS_HUE_VOTES:
            continue
        for i in cells:
            labels[i] = name
            conf[i] = round(min(conf[i], RENAMED_CONFIDENCE), 3)
    return labels, conf


# How unlikely a reading's counts may be under a random draw from the box before the reading is doubted: a
# colour of the set missing from this many stones happens once in a thousand photos of a game drawn from the
# pouch (three-stones' own mode); a reading that improbable more likely took that colour for another name.
ABSENT_COLOUR_CHANCE = 1e-3


def chance_colour_absent(labels: Sequence[str | None], stone_set: Mapping[str, int]) -> float:
    """The chance that stones drawn at random from the set (`stone_set`, colour -> how many the box holds), as
    many as `labels` names, leave out a colour the reading leaves out (the least likely such colour; 0 when the
    box cannot leave it out, 1 when no colour is missing or the set is not counted)."""
    total = sum(stone_set.values())
    drawn = sum(1 for label in labels if label is not None)
    chance = 1.0
    for colour, held in stone_set.items():
        if colour not in labels:
            chance = min(chance, math.comb(total - held, drawn) / math.comb(total, drawn) if total else 1.0)
    return chance


def reading_in_doubt(labels: Sequence[str | None], layout: Layout) -> bool:
    """Whether a pocket board's reading as a whole is one the photo cannot back, so no cell of it is sure:
    - fewer than `MIN_LOOK` cells read empty: the empty pockets are the look every other cell is told from, and
      without it a group of empty pockets is as likely a colour (dev seed 91008: 19 empty paper pockets read
      black, sure, on a board read full);
    - a colour of the set missing that a random draw of as many stones would hold all but surely
      (`ABSENT_COLOUR_CHANCE`): that colour was read as another name, which one is not known (Blender dev
      117006: 25 white glass stones on light wood read empty, sure, beside 18 black and 6 clear)."""
    empty = sum(1 for label in labels if label is None)
    return empty < MIN_LOOK or chance_colour_absent(labels, layout.stone_set) < ABSENT_COLOUR_CHANCE


def names_mostly_in_doubt(labels: Sequence[str | None], conf: Sequence[float]) -> list[float]:
    """The confidences after every stone is marked for checking whose name most of its bearers (`MIN_LOOK` or
    more) are marked under: the stones of one name were named on one look, and a name the photo mostly doubts
    is no surer where a few of them passed (Blender dev 117009: 20 empty pockets of dark wood under frosted
    light read white, 3 of them sure; dev seed 81019: 12 empty paper pockets read white beside glass, 4 sure)."""
    conf = list(conf)
    for name in {label for label in labels if label is not None}:
        cells = [i for i, label in enumerate(labels) if label == name]
        doubted = sum(1 for i in cells if conf[i] < CHECK_BELOW)
        if len(cells) >= MIN_LOOK and 2 * doubted > len(cells):
            for i in cells:
                conf[i] = min(conf[i], RENAMED_CONFIDENCE)
    return conf
