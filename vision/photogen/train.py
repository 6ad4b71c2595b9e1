"""Train the cell classifier on rendered photos with ground truth.

    python -m vision.photogen.train DIR [DIR ...] [--per-game] [--out vision/model/cells.xml.gz]
                                    [--without line_tone=light] [--check-share 0.2]
    python -m vision.photogen.train --measure DIR [DIR ...] --out vision/model/cells.xml.gz

Features come from `vision.classify.cell_features` at the true homography and at
slightly disturbed ones (the error a real fit leaves), so the forest learns what the
pipeline will actually see.  `--without KEY=VALUE` leaves out every photo whose design
(`render.design`) has that value, so a benchmark can test on a family the forest never saw.
Each forest is saved with a manifest (`NAME.json`): its feature columns, the photos, seeds
and designs it learned from, how it was grown, and its `metrics`: a forest grown the same way
on the other photos reads a share of the photos (`--check-share`, never learnt from by it) at
their true fit.  `--measure` writes the metrics of a forest already made, read on photos no
forest learnt from (the committed test photos), into its manifest.  `classify.load_model`
refuses a forest without a manifest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from .. import classify
from ..classify import CLASSES, MODEL_PATH, cell_features, feature_names, manifest_path
from ..io import read_image
from ..layouts import GAMES, get_layout
from .design import matches
from .seeds import HELD_OUT, NARROW_TRAIN_SEEDS, TRAIN_SEEDS, set_of

# a photo's features are cached beside it, keyed by the code that computes them
FEATURE_CODE = hashlib.sha256(Path(classify.__file__).read_bytes()).hexdigest()[:12]


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


def photo_features(jf: Path, meta: dict, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of one photo's cells: at the true fit and at three disturbed ones
    (another camera's take each), cached beside the photo."""
    cache = jf.with_name(f"{jf.stem}.features-{FEATURE_CODE}-{seed}.npz")
    if cache.exists():
        with np.load(cache) as z:
            return z["X"], z["y"]
    rng = np.random.default_rng([seed, int(meta["render"]["seed"])])
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
    X, y = [], []
    for k, H in enumerate(Hs):
        im = img if k == 0 else augment(img, rng)
        f, _ = cell_features(im, H, L)
        X.append(f[keep])
        y.append(labels[keep])
    X_all, y_all = np.concatenate(X).astype(np.float32), np.concatenate(y).astype(np.int32)
    np.savez_compressed(cache, X=X_all, y=y_all)
    return X_all, y_all


def training_photos(dirs, game: str | None = None, without: tuple[str, ...] = ()) -> list[tuple[Path, dict]]:
    """The ground-truth records to learn from: never a held-out seed's, none of a left-out design."""
    out = []
    for d in dirs:
        if not Path(d).is_dir():
            # a mistyped folder skipped in silence trains a forest on less than the command says
            raise SystemExit(f"{d}: no such folder of training photos")
        for jf in sorted(Path(d).glob("*.json")):
            meta = json.loads(jf.read_text())
            if meta.get("game") not in GAMES or (game and meta["game"] != game):
                continue
            if (meta.get("render") or {}).get("generator") != "vision.photogen":
                raise SystemExit(
                    f"{jf}: not a photo of the POV-Ray generator the forests learn from "
                    "(the Blender renderer's and real photos are for testing only)"
                )
            if set_of(meta) in HELD_OUT:
                raise SystemExit(
                    f"{jf}: rendered with --seed {set_of(meta)}, which is held out for testing "
                    f"(train on seeds {', '.join(map(str, TRAIN_SEEDS))})"
                )
            design = (meta.get("render") or {}).get("design") or {}
            if any(design and matches(design, cond) for cond in without):
                continue
            out.append((jf, meta))
    return out


def collect(dirs, rng, verbose=True, game=None, without: tuple[str, ...] = (), seed: int = 0):
    X, y = [], []
    for jf, meta in training_photos(dirs, game, without):
        f, labels = photo_features(jf, meta, seed)
        X.append(f)
        y.append(labels)
        if verbose:
            print(jf.name, file=sys.stderr)
    if not X:
        raise SystemExit("no training photos left (check the folders and --without)")
    return np.concatenate(X), np.concatenate(y)


def split_photos(photos: list[tuple[Path, dict]], share: float, seed: int) -> tuple[list, list]:
    """The photos to learn from and the ones (`share` of them, at least one, seeded) kept to check."""
    if not 0 < share < 1 or len(photos) < 2:
        return photos, []
    order = np.random.default_rng(seed).permutation(len(photos))
    check = set(order[: max(1, round(share * len(photos)))].tolist())
    return ([p for i, p in enumerate(photos) if i not in check], [p for i, p in enumerate(photos) if i in check])


def true_fit_cells(photos: list[tuple[Path, dict]]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of the photos' cells at their true fit, as a reading sees them (nothing
    cached: these may be the committed test photos)."""
    X, y = [], []
    for jf, meta in photos:
        layout = get_layout(meta["game"])
        img = read_image(jf.with_name(meta["image"]))
        scale = img.shape[1] / meta["size"][0]
        dst = np.array([meta["cell_px"][i] for i in layout.ids], np.float64) * scale
        H, _ = cv2.findHomography(layout.xy, dst, 0)
        X.append(cell_features(img, H, layout)[0])
        y.append([CLASSES.index(meta["cells"][i]) if meta["cells"][i] else 0 for i in layout.ids])
    return np.concatenate(X), np.concatenate(y).astype(np.int32)


def accuracy(forest: cv2.ml.RTrees, X: np.ndarray, y: np.ndarray) -> dict:
    """The share of cells the forest reads right, of every cell and of the cells holding a stone."""
    _, predicted = forest.predict(np.ascontiguousarray(X[:, : forest.getVarCount()]))
    right = predicted.ravel().astype(int) == y
    stones = y != 0
    return {
        "cells": int(len(y)),
        "accuracy": round(float(right.mean()), 4),
        "stones": int(stones.sum()),
        "stone_accuracy": round(float(right[stones].mean()), 4) if stones.any() else None,
    }


def checked(photos: list[tuple[Path, dict]], share: float, a: argparse.Namespace) -> dict:
    """Metrics of a forest grown like the one saved on all but `share` of the photos, read on that share."""
    learn, check = split_photos(photos, share, a.seed)
    if not check:
        return {"check": "none (--check-share 0 or one photo)"}
    X, y = [], []
    for jf, meta in learn:
        f, labels = photo_features(jf, meta, a.seed)
        X.append(f)
        y.append(labels)
    forest = train(np.concatenate(X), np.concatenate(y), a.trees, a.depth)
    return {
        "check": f"{len(check)} of {len(photos)} photos held out from a forest grown alike, read at their true fit",
        "check_photos": sorted(jf.stem for jf, _ in check),
        **accuracy(forest, *true_fit_cells(check)),
    }


def measured(dirs, forest_path: Path, games: list[str]) -> dict:
    """Metrics of a forest already made, on the ground-truth photos of `games` in `dirs` (no
    training seed's)."""
    photos = []
    for d in dirs:
        for jf in sorted(Path(d).glob("*.json")):
            meta = json.loads(jf.read_text())
            if meta.get("game") not in games or "cell_px" not in meta:
                continue
            if set_of(meta) in (*TRAIN_SEEDS, *NARROW_TRAIN_SEEDS):
                raise SystemExit(f"{jf}: a training seed's photo says nothing of how a forest reads new photos")
            photos.append((jf, meta))
    if not photos:
        raise SystemExit("no ground-truth photos to measure on")
    forest = cv2.ml.RTrees.load(str(forest_path))
    return {
        "check": f"{len(photos)} photos no forest learnt from ({', '.join(map(str, dirs))}), read at their true fit",
        **accuracy(forest, *true_fit_cells(photos)),
    }


def train(X, y, trees=80, depth=16, min_samples=3) -> cv2.ml.RTrees:
    m = cv2.ml.RTrees.create()
    m.setMaxDepth(depth)
    m.setMinSampleCount(min_samples)
    m.setActiveVarCount(0)
    m.setCalculateVarImportance(False)
    m.setTermCriteria((cv2.TERM_CRITERIA_MAX_ITER, trees, 0))
    # balance the classes a little: empties dominate
    present = np.unique(y)
    counts = np.array([(y == c).sum() for c in present], np.float64)
    m.setPriors(((counts.sum() / counts) ** 0.5).astype(np.float64))
    m.train(cv2.ml.TrainData.create(X, cv2.ml.ROW_SAMPLE, y))
    return m


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.photogen.train")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument(
        "--check-share",
        type=float,
        default=0.2,
        help="share of the photos a forest grown alike is checked on (its accuracy goes in the manifest)",
    )
    ap.add_argument(
        "--measure",
        action="store_true",
        help="train nothing: read DIRs' photos with the forest --out and write the metrics in its manifest",
    )
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--trees", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--games", help="with --per-game: only these games (comma-separated)")
    ap.add_argument("--per-game", action="store_true", help="one forest per game: cells-GAME.xml.gz beside --out")
    ap.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="leave out photos of this design (render.design; VALUE may list several with |)",
    )
    a = ap.parse_args(argv)
    if a.games and not a.per_game:
        ap.error("--games chooses among the per-game forests: add --per-game")
    unknown = set(a.games.split(",")) - set(GAMES) if a.games else set()
    if unknown:
        ap.error(f"--games: unknown {', '.join(sorted(unknown))} (games: {', '.join(GAMES)})")
    if a.measure:
        out = Path(a.out)
        manifest = classify.read_manifest(out)
        manifest["metrics"] = measured(a.dirs, out, manifest.get("games", list(GAMES)))
        manifest_path(out).write_text(json.dumps(manifest, indent=1) + "\n")
        print(
            f"{out.name}: {manifest['metrics']['accuracy']:.1%} of {manifest['metrics']['cells']} cells",
            file=sys.stderr,
        )
        return 0
    rng = np.random.default_rng(a.seed)
    cv2.setRNGSeed(a.seed)
    games: list[str | None] = [None]  # None: one forest for every game
    if a.per_game:
        games = a.games.split(",") if a.games else list(GAMES)
    saved: list[tuple[Path, list[tuple[Path, dict]], dict]] = []
    for game in games:
        out = Path(a.out)
        if game:
            out = out.with_name(f"cells-{game}.xml.gz")
        photos = training_photos(a.dirs, game, tuple(a.without))
        X, y = collect(a.dirs, rng, game=game, without=tuple(a.without), seed=a.seed)
        counts = np.bincount(y, minlength=len(CLASSES)).tolist()
        print(f"{game or 'all games'}: {len(y)} samples, classes {counts}", file=sys.stderr)
        m = train(X, y, a.trees, a.depth)
        out.parent.mkdir(parents=True, exist_ok=True)
        m.save(str(out))
        manifest = {
            "features": feature_names(),
            "games": [game] if game else sorted({mt["game"] for _, mt in photos}),
            "photos": len(photos),
            "seeds": sorted({set_of(mt) for _, mt in photos}, key=str),
            "generators": sorted({(mt.get("render") or {}).get("generator", "?") for _, mt in photos}),
            "without": list(a.without),
            "samples": int(len(y)),
            "classes": dict(zip(CLASSES, counts)),
            "trees": a.trees,
            "depth": a.depth,
            "seed": a.seed,
            "command": "python -m vision.photogen.train " + " ".join(argv if argv is not None else sys.argv[1:]),
        }
        manifest_path(out).write_text(json.dumps(manifest, indent=1) + "\n")
        saved.append((out, photos, manifest))
        print(f"saved {out} ({out.stat().st_size // 1024} KB) and its manifest", file=sys.stderr)
    # the checks grow their forests after the saved ones: those grow as they would without them
    for out, photos, manifest in saved:
        manifest["metrics"] = checked(photos, a.check_share, a)
        manifest_path(out).write_text(json.dumps(manifest, indent=1) + "\n")
        print(
            f"{out.name}: {manifest['metrics'].get('accuracy', 'no')} of the checked cells read right "
            "(its manifest's metrics)",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
