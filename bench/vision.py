"""Vision accuracy and speed per game on photos with ground truth.

    python bench/vision.py [DIR ...] [--games morris rings] [--json OUT.json]

DIR holds NAME.jpg + NAME.json pairs (the shared examples' shape); several DIRs are reported
side by side (each game per set).  `--by KEY` splits them by a design parameter, `--models DIR`
reads with other forests and `--where KEY=VALUE` keeps the photos of one design (together: a
design-held-out split), `--unhurried` lifts the search's time limit, `--refusals` also times how fast each
photo is refused when asked for as another game.  Default: the
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
from typing import TypedDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.errors import VisionError  # noqa: E402
from vision.layouts import GAMES, get_layout, misread  # noqa: E402
from vision.photogen.design import matches  # noqa: E402
from vision.photogen.seeds import NARROW_TRAIN_SEEDS, TEST_SET_COMMAND, TRAIN_SEEDS, set_of  # noqa: E402
from vision.classify import use_models  # noqa: E402
from vision import pipeline  # noqa: E402
from vision.pipeline import read_board  # noqa: E402
from vision.tuning import CHECK_BELOW  # noqa: E402


UNHURRIED_LIMIT_S = 120.0  # --unhurried: the search limit, as the vision tests set it


def other_game(game: str) -> str:
    """The game a refusal is timed with: the next one, so every board is asked as another's."""
    return GAMES[(GAMES.index(game) + 1) % len(GAMES)]


class Tally(TypedDict):
    """One game and photo set's counts: cells and boards read right, the seconds taken, what went wrong."""

    cells: int
    right: int
    boards: int
    boards_right: int
    secs: list[float]
    cpu: list[float]
    refused: list[str]
    wrong: list[str]
    sure: int
    sure_wrong: int
    wrong_unflagged: list[str]
    refusal_secs: list[float]
    accepted_as_other: list[str]


def run(
    dirs: list[Path],
    games: list[str],
    verbose: bool = True,
    by: str | None = None,
    refusals: bool = False,
    where: tuple[str, ...] = (),
) -> dict:
    per: defaultdict[str, Tally] = defaultdict(
        lambda: {
            "cells": 0,
            "right": 0,
            "boards": 0,
            "boards_right": 0,
            "secs": [],
            "cpu": [],
            "refused": [],
            "wrong": [],
            "sure": 0,
            "sure_wrong": 0,
            "wrong_unflagged": [],
            "refusal_secs": [],
            "accepted_as_other": [],
        }
    )
    for d in dirs:
        for jf in sorted(d.glob("*.json")):
            meta = json.loads(jf.read_text())
            game = meta.get("game")
            if game not in games:
                continue
            design = (meta.get("render") or {}).get("design") or {}
            if where and not (design and all(matches(design, cond) for cond in where)):
                continue
            if set_of(meta) in TRAIN_SEEDS + NARROW_TRAIN_SEEDS:
                raise SystemExit(f"{jf}: rendered with training seed {set_of(meta)}: not a test photo")
            photo = jf.with_name(meta.get("image", jf.stem + ".jpg"))
            if not photo.exists():
                continue
            try:
                label = str(d.resolve().relative_to(ROOT))
            except ValueError:
                label = str(d.resolve().relative_to(ROOT.parent)) if d.resolve().is_relative_to(ROOT.parent) else str(d)
            if by:
                label += f" {by}={((meta.get('render') or {}).get('design') or {}).get(by, '?')}"
            r = per[f"{game} [{label}]"]
            t0 = time.perf_counter()
            c0 = time.process_time()
            try:
                reading = read_board(photo, game)
                cells, conf = reading.cells, reading.confidence
                err = None
            except VisionError as exc:
                cells, conf, err = {}, {}, str(exc)
            dt = time.perf_counter() - t0
            r["cpu"].append(time.process_time() - c0)
            wrong = set(misread(game, cells, meta["cells"]))
            right = [pid not in wrong for pid in get_layout(game).ids]
            n = len(right)
            ok = 0 if err else sum(right)  # a refused photo reads no cell, not its empty ones
            r["cells"] += n
            r["right"] += ok
            r["boards"] += 1
            r["boards_right"] += int(ok == n)
            r["secs"].append(dt)
            if not err:
                ids = get_layout(game).ids
                sure = [conf[pid] >= CHECK_BELOW for pid in ids]
                r["sure"] += sum(sure)
                r["sure_wrong"] += sum(1 for s, good in zip(sure, right) if s and not good)
                if ok != n and all(sure):
                    r["wrong_unflagged"].append(photo.name)
            if err:
                r["refused"].append(f"{photo.name}: {err}")
            elif ok != n:
                r["wrong"].append(f"{photo.name}: {n - ok} wrong")
            if refusals:
                asked = other_game(game)
                t1 = time.perf_counter()
                try:
                    read_board(photo, asked)
                    r["accepted_as_other"].append(f"{photo.name} read as {asked}")
                except VisionError:
                    pass
                r["refusal_secs"].append(time.perf_counter() - t1)
            if verbose:
                status = "refused: " + err if err else f"{ok}/{n}"
                print(f"  {photo.name:28s} {status:40s} {dt:5.2f}s", file=sys.stderr, flush=True)
    return per


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/vision.py")
    ap.add_argument("dirs", nargs="*", type=Path)
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--by", metavar="KEY", help="also split the numbers by this design parameter (render.design)")
    ap.add_argument(
        "--models", type=Path, help="read with the forests in this folder (e.g. one trained --without a design)"
    )
    ap.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="only photos whose design has this value (the held-out family of a design-held-out split)",
    )
    ap.add_argument(
        "--refusals", action="store_true", help="also ask for each photo as another game and time the refusal"
    )
    ap.add_argument(
        "--unhurried",
        action="store_true",
        help="lift the reading's search time limit (a loaded machine refuses photos the reader gets right)",
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)
    if not a.dirs and not (ROOT / "bench/out/photos").is_dir():
        print(f"no test set in bench/out/photos: make it with `{TEST_SET_COMMAND}`", file=sys.stderr)
        return 2
    if a.models:
        use_models(a.models)
    if a.unhurried:
        pipeline.SEARCH_LIMIT_S = UNHURRIED_LIMIT_S
    dirs = a.dirs or [p for p in (ROOT / "bench/out/photos", ROOT.parent / "shared/photos") if p.is_dir()]
    per = run(dirs, a.games, verbose=not a.quiet, by=a.by, refusals=a.refusals, where=tuple(a.where))
    print(
        f"{'game [set]':44s} {'photos':>6s} {'cells right':>12s} {'boards right':>13s} {'median s':>9s} {'p90 s':>7s} "
        f"{'cpu s':>6s} {'refused':>8s} {'sure wrong':>14s} {'unflagged':>9s}"
        + (f" {'refusal s':>9s} {'taken':>5s}" if a.refusals else "")
    )
    summary = {}
    for key in sorted(per):
        r = per[key]
        secs = sorted(r["secs"])
        med = statistics.median(secs)
        p90 = secs[min(len(secs) - 1, int(0.9 * len(secs)))]
        cells_pct = 100.0 * r["right"] / r["cells"]
        boards_pct = 100.0 * r["boards_right"] / r["boards"]
        sure_wrong = f"{r['sure_wrong']}/{r['sure']}"
        wrong_boards = r["boards"] - r["boards_right"] - len(r["refused"])
        line = (
            f"{key:44s} {r['boards']:6d} {cells_pct:11.2f}% {boards_pct:12.1f}% {med:9.2f} {p90:7.2f} "
            f"{statistics.median(r['cpu']):6.2f} {len(r['refused']):8d} {sure_wrong:>14s} "
            f"{len(r['wrong_unflagged']):>4d}/{wrong_boards:<4d}"
        )
        if a.refusals:
            line += f" {statistics.median(r['refusal_secs']):9.2f} {len(r['accepted_as_other']):5d}"
        print(line)
        summary[key] = {
            "photos": r["boards"],
            "cells_right_pct": round(cells_pct, 2),
            "boards_right_pct": round(boards_pct, 1),
            "median_seconds": round(med, 3),
            "p90_seconds": round(p90, 3),
            "median_cpu_seconds": round(statistics.median(r["cpu"]), 3),
            "refused": r["refused"],
            "wrong": r["wrong"],
            "sure_cells": r["sure"],
            "sure_cells_wrong": r["sure_wrong"],
            "wrong_boards_with_no_cell_flagged": r["wrong_unflagged"],
        }
        if a.refusals:
            summary[key].update(
                median_refusal_seconds=round(statistics.median(r["refusal_secs"]), 3),
                accepted_as_another_game=r["accepted_as_other"],
            )
    print(
        f"sure wrong: cells read with confidence >= {CHECK_BELOW} that are wrong, of all such cells "
        f"(target at most 1 in 500); unflagged: boards read wrong with no cell marked for checking, of the boards read wrong"
    )
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
