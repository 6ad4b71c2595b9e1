"""Reading every location: empty or a palette colour, with a confidence.

The photo is warped onto the canonical layout (about 12 pixels per stone radius) and
each location is described by what a stone changes there: colour against the board's
own wood (measured between the locations), texture, highlights and dark refraction
edges (what a clear glass stone shows over an empty pocket), the strength of a round
edge at stone size.  A random forest trained on rendered photos (`vision/model/`)
turns those numbers into a class; the game's palette restricts the answer.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import cv2
import numpy as np

from .detect import Frame, raised
from .layouts import Layout

CLASSES = ("empty", "black", "white", "clear", "red", "green", "blue", "yellow", "orange", "purple")
MODEL_PATH = Path(__file__).with_name("model") / "cells.xml.gz"
PX_PER_RADIUS = 12.0
# stone radii above the board where a stone's body shows: on drawn boards stones stand on the
# board; in pockets they sit low and the pocket's rim, which the forest reads, is on the board
SAMPLE_LIFT = {"morris": 0.4, "rings": 0.4}


def _offsets(rad_px: float, r0: float, r1: float) -> tuple[np.ndarray, np.ndarray]:
    R = int(math.ceil(r1 * rad_px)) + 1
    yy, xx = np.mgrid[-R:R + 1, -R:R + 1]
    d = np.sqrt(xx * xx + yy * yy) / rad_px
    sel = (d >= r0) & (d <= r1)
    return yy[sel], xx[sel]


def feature_names() -> list[str]:
    return ["L0", "a0", "b0", "dL", "da", "db", "chroma", "hcos", "hsin", "sL", "sa", "sb",
            "bright", "vbright", "dark", "grad", "ringgrad", "cdist", "refL", "refa", "refb",
            "p10", "p90", "dL_out", "cd_in", "sat_in", "lmax", "spot", "lapvar", "ringstd",
            "ctx_dL", "ctx_dcd", "ctx_rank", "ctx_dsat", "ctx_dlap"]


def cell_features(img: np.ndarray, H: np.ndarray, layout: Layout) -> tuple[np.ndarray, dict]:
    r = layout.stone_radius
    s = PX_PER_RADIUS / r
    frame = Frame(layout, s, margin=0.3)
    # looked at where a stone's body shows (above its foot), not on the board
    warped = frame.warp(img, raised(H, img.shape, SAMPLE_LIFT.get(layout.game, 0.0) * r))
    lab = cv2.cvtColor(warped.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    L, A, B = lab[..., 0], lab[..., 1], lab[..., 2]
    g = cv2.GaussianBlur(L, (0, 0), 1.0)
    grad = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    # specular highlights: small bright spots above their surroundings
    spot_map = L - cv2.GaussianBlur(L, (0, 0), 0.35 * PX_PER_RADIUS)
    lap = np.abs(cv2.Laplacian(cv2.GaussianBlur(L, (0, 0), 0.8), cv2.CV_32F))
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
    o_in = _offsets(PX_PER_RADIUS, 0, 0.5)
    o_mid = _offsets(PX_PER_RADIUS, 0, 0.9)
    o_ring = _offsets(PX_PER_RADIUS, 0.8, 1.2)
    h, w = L.shape
    feats = []
    for cx, cy in centres:
        ix, iy = int(round(cx)), int(round(cy))

        def take(o, ch):
            yy = np.clip(o[0] + iy, 0, h - 1)
            xx = np.clip(o[1] + ix, 0, w - 1)
            return ch[yy, xx]

        Li, ai, bi = take(o_in, L), take(o_in, A), take(o_in, B)
        Lm, am, bm = take(o_mid, L), take(o_mid, A), take(o_mid, B)
        L0, a0, b0 = float(np.median(Li)), float(np.median(ai)), float(np.median(bi))
        chroma = math.hypot(a0, b0)
        hang = math.atan2(b0, a0)
        cd = np.sqrt((Lm - refL) ** 2 + (am - refa) ** 2 + (bm - refb) ** 2)
        cdi = np.sqrt((Li - refL) ** 2 + (ai - refa) ** 2 + (bi - refb) ** 2)
        Lr = take(o_ring, L)
        feats.append([
            L0, a0, b0, L0 - refL, a0 - refa, b0 - refb, chroma, math.cos(hang), math.sin(hang),
            float(Lm.std()), float(am.std()), float(bm.std()),
            float((Lm > refL + 20).mean()), float((Lm > 92).mean()), float((Lm < refL - 20).mean()),
            float(take(o_mid, grad).mean() / refg), float(take(o_ring, grad).mean() / refg),
            float(cd.mean()), refL, refa, refb,
            float(np.percentile(Lm, 10)), float(np.percentile(Lm, 90)),
            float(np.median(Lr) - refL), float(np.median(cdi)), float(np.median(take(o_in, sat))),
            float(Lm.max() - refL), float(take(o_mid, spot_map).max()), float(take(o_mid, lap).mean() / reflap),
            float(Lr.std()),
        ])
    F = np.array(feats, np.float32)
    # context: how this location compares with the other locations of the same photo
    names = feature_names()
    iL, icd, isat, ilap = names.index("L0"), names.index("cd_in"), names.index("sat_in"), names.index("lapvar")
    ctx = np.stack([
        F[:, iL] - np.median(F[:, iL]),
        F[:, icd] - np.median(F[:, icd]),
        (np.argsort(np.argsort(F[:, iL])) + 0.5) / len(F),
        F[:, isat] - np.median(F[:, isat]),
        F[:, ilap] - np.median(F[:, ilap]),
    ], 1).astype(np.float32)
    F = np.concatenate([F, ctx], 1)
    return F, {"frame": frame, "warped": warped, "ref": (refL, refa, refb)}


def model_path(game: str | None = None) -> Path:
    """One forest per game (its boards and stones differ); `cells.xml.gz` serves any game."""
    if game:
        p = MODEL_PATH.with_name(f"cells-{game}.xml.gz")
        if p.exists():
            return p
    return MODEL_PATH


@functools.lru_cache(maxsize=8)
def load_model(game: str | None = None):
    p = model_path(game)
    if not p.exists():
        return None
    return cv2.ml.RTrees_load(str(p))


def classify(feats: np.ndarray, layout: Layout, model=None) -> tuple[list[str | None], list[float]]:
    model = model or load_model(layout.game)
    if model is None:
        raise RuntimeError(f"cell model missing: {model_path(layout.game)}")
    allowed = [0] + [CLASSES.index(c) for c in layout.palette]
    votes = model.getVotes(feats, 0)  # first row: class labels, then votes per sample
    labels = votes[0].astype(int)
    counts = votes[1:].astype(np.float32)
    out, conf = [], []
    for row in counts:
        best, bestv, tot = 0, -1.0, float(row.sum()) or 1.0
        for j, lab in enumerate(labels):
            if lab in allowed and row[j] > bestv:
                best, bestv = lab, row[j]
        out.append(None if best == 0 else CLASSES[best])
        conf.append(round(float(bestv / tot), 3))
    return out, conf


def harmonize(labels: list[str | None], conf: list[float], feats: np.ndarray,
              radius: float = 9.0) -> tuple[list[str | None], list[float]]:
    """Stones of one physical colour look alike on one photo: group the occupied cells by
    their colour and give a group's odd ones out the group's colour name."""
    occ = [i for i, l in enumerate(labels) if l is not None]
    if len(occ) < 3:
        return labels, conf
    lab = feats[:, :3].astype(np.float64) * np.array([0.5, 1.0, 1.0])
    order = sorted(occ, key=lambda i: -conf[i])
    groups: list[list[int]] = []
    centres: list[np.ndarray] = []
    for i in order:
        if centres:
            d = np.linalg.norm(np.array(centres) - lab[i], axis=1)
            j = int(np.argmin(d))
            if d[j] < radius:
                groups[j].append(i)
                centres[j] = lab[groups[j]].mean(0)
                continue
        groups.append([i])
        centres.append(lab[i].copy())
    labels, conf = list(labels), list(conf)
    for g in groups:
        if len(g) < 3:
            continue
        votes: dict[str, float] = {}
        for i in g:
            votes[labels[i]] = votes.get(labels[i], 0.0) + conf[i]
        win, wv = max(votes.items(), key=lambda kv: kv[1])
        if wv < 0.6 * sum(votes.values()):
            continue
        for i in g:
            if labels[i] != win and conf[i] < 0.75:
                labels[i] = win
                conf[i] = round(min(conf[i], 0.6), 3)
    return labels, conf
