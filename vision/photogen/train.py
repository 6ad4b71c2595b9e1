"""Train the cell classifier on rendered photos with ground truth.

    python -m vision.photogen.train DIR [DIR ...] [--per-game] [--out vision/model/cells.xml.gz]

Features come from `vision.classify.cell_features` at the true homography and at
slightly disturbed ones (the error a real fit leaves), so the forest learns what the
pipeline will actually see.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from ..classify import CLASSES, MODEL_PATH, cell_features
from ..io import read_image
from ..layouts import GAMES, get_layout
from .seeds import HELD_OUT, TRAIN_SEEDS, set_of


def true_homography(meta: dict) -> np.ndarray:
    L = get_layout(meta["game"])
    dst = np.array([meta["cell_px"][i] for i in L.ids], np.float64)
    H, _ = cv2.findHomography(L.xy, dst, 0)
    return H


def jitter(H: np.ndarray, rng, amount: float) -> np.ndarray:
    a = rng.normal(0, amount, 2)
    t = rng.normal(0, amount * 0.02)
    sc = 1 + rng.normal(0, amount * 0.01)
    A = np.array([[sc * np.cos(t), -sc * np.sin(t), a[0]], [sc * np.sin(t), sc * np.cos(t), a[1]], [0, 0, 1]])
    return H @ A


def augment(img: np.ndarray, rng) -> np.ndarray:
    """Another camera's take on the same scene: exposure, white balance, gamma, blur, noise."""
    f = img.astype(np.float32) / 255.0
    f = f ** rng.uniform(0.8, 1.25)
    f = f * rng.uniform(0.75, 1.25) * rng.uniform(0.88, 1.12, 3)[None, None, :]
    if rng.random() < 0.5:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.5, 1.3))
    f = f + rng.normal(0, rng.uniform(0.0, 0.015), f.shape).astype(np.float32)
    return np.clip(f * 255 + 0.5, 0, 255).astype(np.uint8)


def collect(dirs, rng, verbose=True, game=None):
    X, y = [], []
    for d in dirs:
        for jf in sorted(Path(d).glob("*.json")):
            meta = json.loads(jf.read_text())
            if meta.get("game") not in GAMES:
                continue
            if game and meta["game"] != game:
                continue
            if set_of(meta) in HELD_OUT:
                raise SystemExit(f"{jf}: rendered with --seed {set_of(meta)}, which is held out for testing "
                                 f"(train on seeds {', '.join(map(str, TRAIN_SEEDS))})")
            L = get_layout(meta["game"])
            img = read_image(jf.with_name(meta["image"]))
            s = img.shape[1] / meta["size"][0]
            if abs(s - 1) > 1e-6:
                meta = dict(meta)
                meta["cell_px"] = {k: [v[0] * s, v[1] * s] for k, v in meta["cell_px"].items()}
            Ht = true_homography(meta)
            Hs = [Ht, jitter(Ht, rng, 0.06), jitter(Ht, rng, 0.12), jitter(Ht, rng, 0.08)]
            labels = np.array([CLASSES.index(meta["cells"][i]) if meta["cells"][i] else 0 for i in L.ids])
            h, w = img.shape[:2]
            px = np.array([meta["cell_px"][i] for i in L.ids])
            keep = (px[:, 0] > 8) & (px[:, 0] < w - 8) & (px[:, 1] > 8) & (px[:, 1] < h - 8)
            for k, H in enumerate(Hs):
                im = img if k == 0 else augment(img, rng)
                f, _ = cell_features(im, H, L)
                X.append(f[keep])
                y.extend(labels[keep].tolist())
            if verbose:
                print(jf.name, file=sys.stderr)
    return np.concatenate(X).astype(np.float32), np.array(y, np.int32)


def train(X, y, trees=80, depth=16, min_samples=3) -> cv2.ml.RTrees:
    m = cv2.ml.RTrees_create()
    m.setMaxDepth(depth)
    m.setMinSampleCount(min_samples)
    m.setActiveVarCount(0)
    m.setCalculateVarImportance(False)
    m.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER, trees, 0))
    # balance the classes a little: empties dominate
    present = np.unique(y)
    counts = np.array([(y == c).sum() for c in present], np.float64)
    m.setPriors(((counts.sum() / counts) ** 0.5).astype(np.float64))
    m.train(cv2.ml.TrainData_create(X, cv2.ml.ROW_SAMPLE, y))
    return m


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.photogen.train")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--trees", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--games", help="with --per-game: only these games (comma-separated)")
    ap.add_argument("--per-game", action="store_true", help="one forest per game: cells-GAME.xml.gz beside --out")
    a = ap.parse_args(argv)
    if a.games and not a.per_game:
        ap.error("--games chooses among the per-game forests: add --per-game")
    unknown = set(a.games.split(",")) - set(GAMES) if a.games else set()
    if unknown:
        ap.error(f"--games: unknown {', '.join(sorted(unknown))} (games: {', '.join(GAMES)})")
    rng = np.random.default_rng(a.seed)
    cv2.setRNGSeed(a.seed)
    games = [None]
    if a.per_game:
        games = a.games.split(",") if a.games else list(GAMES)
    for game in games:
        out = Path(a.out)
        if game:
            out = out.with_name(f"cells-{game}.xml.gz")
        X, y = collect(a.dirs, rng, game=game)
        print(f"{game or 'all games'}: {len(y)} samples, classes {np.bincount(y, minlength=len(CLASSES)).tolist()}",
              file=sys.stderr)
        m = train(X, y, a.trees, a.depth)
        out.parent.mkdir(parents=True, exist_ok=True)
        m.save(str(out))
        print(f"saved {out} ({out.stat().st_size // 1024} KB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
