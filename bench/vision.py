"""Vision accuracy and speed per game on photos with ground truth.

    python bench/vision.py [DIR ...] [--games morris rings] [--json OUT.json]

DIR holds NAME.jpg + NAME.json pairs (the shared examples' shape).  Default: the
project's test set in bench/out/photos -- 20 photos per game, 1600x1200 or 1200x1600,
render seeds 1000..1019, made by
`nice -n 10 python -m vision.photogen --game all --count 20 --seed 1 --out bench/out/photos`
(about 20 minutes of POV-Ray; seeds held out from training, see vision/photogen/seeds.py) --
and ../shared/photos.  A photo rendered with a training seed is refused.  For symmetric boards a reading in any symmetry of the board
counts as right (the best one is used for the whole board).  A refused photo counts
every cell wrong.  Prints per game: cells right %, boards fully right %, median and
90th-percentile wall seconds per photo, median CPU seconds (all threads; on a busy
shared machine the wall time is inflated), refusals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.errors import VisionError  # noqa: E402
from vision.layouts import GAMES, get_layout, permutation  # noqa: E402
from vision.photogen.seeds import TEST_SET_COMMAND, TRAIN_SEEDS, set_of  # noqa: E402
from vision.pipeline import read_board  # noqa: E402


def compare(game: str, cells: dict, truth: dict) -> tuple[int, int]:
    """(cells right, cells) under the best symmetry of the board."""
    L = get_layout(game)
    ids = L.ids
    best = 0
    for S in L.symmetries:
        perm = permutation(L, S)
        right = sum(1 for i, pid in enumerate(ids) if cells.get(pid) == truth.get(ids[perm[i]]))
        best = max(best, right)
    return best, len(ids)


def run(dirs: list[Path], games: list[str], verbose: bool = True) -> dict:
    per = defaultdict(lambda: {"cells": 0, "right": 0, "boards": 0, "boards_right": 0, "secs": [], "cpu": [], "refused": [],
                               "wrong": []})
    for d in dirs:
        for jf in sorted(d.glob("*.json")):
            meta = json.loads(jf.read_text())
            game = meta.get("game")
            if game not in games:
                continue
            if set_of(meta) in TRAIN_SEEDS:
                raise SystemExit(f"{jf}: rendered with training seed {set_of(meta)}: not a test photo")
            photo = jf.with_name(meta.get("image", jf.stem + ".jpg"))
            if not photo.exists():
                continue
            try:
                label = str(d.resolve().relative_to(ROOT))
            except ValueError:
                label = str(d.resolve().relative_to(ROOT.parent)) if d.resolve().is_relative_to(ROOT.parent) else str(d)
            key = f"{game} [{label}]"
            r = per[key]
            t0 = time.perf_counter()
            c0 = time.process_time()
            try:
                reading = read_board(photo, game)
                cells = reading.cells
                err = None
            except VisionError as exc:
                cells, err = {}, str(exc)
            dt = time.perf_counter() - t0
            r["cpu"].append(time.process_time() - c0)
            right, n = compare(game, cells, meta["cells"])
            if err:  # a refused photo reads no cell, not its empty ones
                right = 0
            r["cells"] += n
            r["right"] += right
            r["boards"] += 1
            r["boards_right"] += int(right == n)
            r["secs"].append(dt)
            if err:
                r["refused"].append(f"{photo.name}: {err}")
            elif right != n:
                r["wrong"].append(f"{photo.name}: {n - right} wrong")
            if verbose:
                status = "refused: " + err if err else f"{right}/{n}"
                print(f"  {photo.name:28s} {status:40s} {dt:5.2f}s", file=sys.stderr, flush=True)
    return per


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/vision.py")
    ap.add_argument("dirs", nargs="*", type=Path)
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--json", type=Path)
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)
    if not a.dirs and not (ROOT / "bench/out/photos").is_dir():
        print(f"no test set in bench/out/photos: make it with `{TEST_SET_COMMAND}`", file=sys.stderr)
        return 2
    dirs = a.dirs or [p for p in (ROOT / "bench/out/photos", ROOT.parent / "shared/photos") if p.is_dir()]
    per = run(dirs, a.games, verbose=not a.quiet)
    print(f"{'game [set]':44s} {'photos':>6s} {'cells right':>12s} {'boards right':>13s} {'median s':>9s} {'p90 s':>7s} {'cpu s':>6s} {'refused':>8s}")
    summary = {}
    for key in sorted(per):
        r = per[key]
        secs = sorted(r["secs"])
        med = statistics.median(secs)
        p90 = secs[min(len(secs) - 1, int(0.9 * len(secs)))]
        cells_pct = 100.0 * r["right"] / r["cells"]
        boards_pct = 100.0 * r["boards_right"] / r["boards"]
        print(f"{key:44s} {r['boards']:6d} {cells_pct:11.2f}% {boards_pct:12.1f}% {med:9.2f} {p90:7.2f} {statistics.median(r['cpu']):6.2f} {len(r['refused']):8d}")
        summary[key] = {"photos": r["boards"], "cells_right_pct": round(cells_pct, 2),
                        "boards_right_pct": round(boards_pct, 1), "median_seconds": round(med, 3),
                        "p90_seconds": round(p90, 3),
                        "median_cpu_seconds": round(statistics.median(r["cpu"]), 3), "refused": r["refused"], "wrong": r["wrong"]}
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
