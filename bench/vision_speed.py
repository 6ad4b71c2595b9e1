"""Where a reading's time goes, and whether a faster reader still reads every photo the same.

    python bench/vision_speed.py [DIR ...] [--games G ...] [--limit N] [--unhurried] [--refusals]
                                 [--dump OUT.json] [--against BEFORE.json] [--serial] [--stages]
                                 [--profile N]

Reads every NAME.jpg + NAME.json pair in the DIRs (default: the wide test set bench/out/photos)
as its own game, and prints per game the median CPU and wall seconds a photo (with the load
average: the machine is shared, its wall time is inflated by the others' work).  `--refusals`
also asks each photo as the next game (as `bench/vision.py --refusals` does) and times that refusal.

`--dump` writes every photo's reading (cells, confidences, corners, the refusal's code) and
`--against` compares them with an earlier dump: the speed work must leave every reading as it
was (cells, "sure" flags, refusals alike; confidences and corners within float noise).

`--serial` reads on one thread, OpenCV's too: threads let a reading differ run to run by float
noise (a fit 0.2 px apart), which `--against` would report; a serial reading holds still.  Its
refusals also look for every other game's board however long they took (a refusal names the game
it found only within `REFUSE_LOOK_S`, so a faster or slower reader would name it or not).

`--stages` reads on one thread (the detection pool run inline) and adds up the CPU of each stage
of the reader (exclusive of the stages inside it, `a/b` is b inside a), per game; `--profile N`
also prints cProfile's N costliest functions (by their own time, CPU clock).  Both run serially,
so their seconds are CPU seconds of the work, not of a threaded reading.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import json
import math
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import classify, detect, fit, pipeline  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.layouts import GAMES  # noqa: E402
from vision.tuning import CHECK_BELOW  # noqa: E402

UNHURRIED_LIMIT_S = 120.0  # --unhurried: the search limit, as the vision tests set it
CONFIDENCE_NOISE = 1e-6  # confidences this close are the same reading (float noise)
CORNER_NOISE_PX = 0.05  # board corners this close (pixels) are the same fit

# (module, function name, stage name): the reader's stages, timed where the caller looks them up
STAGES: tuple[tuple[Any, str, str], ...] = (
    (pipeline, "read_image", "decode"),
    (pipeline, "_check_light", "light"),
    (pipeline, "find_board", "search"),
    (pipeline, "_refuse", "refuse"),
    (pipeline, "read_cells", "cells"),
    (pipeline, "off_the_points", "points-check"),
    (pipeline, "cell_features", "features"),
    (pipeline, "classify", "forests"),
    (pipeline, "harmonize", "harmonize"),
    (detect, "candidates", "regions"),
    (fit, "candidate_masks", "segment"),
    (fit, "shape_homographies", "shape-fits"),
    (detect, "lattice_candidates", "lattice"),
    (detect, "_find_on_grid", "grid"),
    (detect, "grid_fit", "grid-fit"),
    (detect, "_find_drawn", "drawn"),
    (detect, "line_candidates", "line-graph"),
    (detect, "honeycomb_candidates", "honeycomb"),
    (detect, "outline_refine", "outline-refine"),
    (detect, "line_snap", "line-snap"),
    (detect, "line_refine", "line-refine"),
    (detect, "on_the_lattice", "on-the-lattice"),
    (detect, "onto_the_points", "onto-the-points"),
    (detect, "line_evidence", "line-evidence"),
    (detect, "stone_evidence", "stone-evidence"),
    (detect, "point_evidence", "point-evidence"),
    (detect, "samples_in_view", "samples-in-view"),
    (detect, "outline_support", "outline-support"),
    (detect, "numbers_ink", "numbers-ink"),
    (detect, "camera_error", "camera"),
    (detect, "plausible", "camera"),
    (fit, "plausible", "camera"),
    (fit, "outline_support", "outline-support"),
    (fit, "fit_polygons", "polygons"),
    (fit, "homographies_for", "polygon-fits"),
    (fit.Scorer, "refine", "ecc"),
    (fit.Scorer, "score", "feature-score"),
    (classify, "load_model", "load-forest"),
)


class Inline(Executor):
    """An executor that runs each call at once on the caller's thread: the stages' CPU then adds up."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        done: Future = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller, as the pool would
            done.set_exception(exc)
        return done

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], timeout=None, chunksize=1) -> Iterator[Any]:
        return iter([fn(*args) for args in zip(*iterables)])


class StageClock:
    """CPU seconds per stage path (`search/drawn/line-refine`), each exclusive of the stages inside it."""

    def __init__(self) -> None:
        self.path: list[str] = []
        self.spent: defaultdict[str, float] = defaultdict(float)
        self.inner: list[float] = []

    def wrap(self, fn: Callable[..., Any], name: str) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self.path.append(name)
            self.inner.append(0.0)
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.process_time() - start
                inner = self.inner.pop()
                self.spent["/".join(self.path)] += took - inner
                self.path.pop()
                if self.inner:
                    self.inner[-1] += took

        return timed

    def install(self) -> None:
        for module, name, stage in STAGES:
            setattr(module, name, self.wrap(getattr(module, name), stage))

    def take(self) -> dict[str, float]:
        spent = dict(self.spent)
        self.spent.clear()
        return spent


def other_game(game: str) -> str:
    """The game a refusal is timed with: the next one, as `bench/vision.py --refusals` asks."""
    return GAMES[(GAMES.index(game) + 1) % len(GAMES)]


def read_once(photo: Path, game: str) -> dict[str, Any]:
    """One reading (or refusal) of a photo as `game`, with its CPU and wall seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        r = pipeline.read_board(photo, game)
        out: dict[str, Any] = {
            "error": None,
            "cells": r.cells,
            "confidence": r.confidence,
            "corners": r.board_corners,
            "score": r.detection_score,
        }
    except VisionError as exc:
        out = {"error": exc.code, "message": str(exc)}
    out["cpu"] = time.process_time() - cpu
    out["wall"] = time.perf_counter() - wall
    return out


def photos(dirs: list[Path], games: list[str]) -> list[tuple[str, Path]]:
    found = []
    for d in dirs:
        for jf in sorted(d.glob("*.json")):
            meta = json.loads(jf.read_text())
            photo = jf.with_name(meta.get("image", jf.stem + ".jpg"))
            if meta.get("game") in games and photo.exists():
                found.append((meta["game"], photo))
    return found


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """How a reading changed: its refusal, a cell, a "sure" flag, a confidence or a corner beyond float noise."""
    if before.get("error") != after.get("error"):
        return [f"refusal {before.get('error')} -> {after.get('error')}"]
    if before.get("error"):
        return (
            [] if before.get("message") == after.get("message") else [f"{before['message']!r} -> {after['message']!r}"]
        )
    out = []
    for pid, cell in before["cells"].items():
        b, a = before["confidence"][pid], after["confidence"][pid]
        if after["cells"][pid] != cell:
            out.append(f"{pid} {cell} -> {after['cells'][pid]}")
        elif (b >= CHECK_BELOW) != (a >= CHECK_BELOW):
            out.append(f"{pid} sure {b:.3f} -> {a:.3f}")
        elif abs(a - b) > CONFIDENCE_NOISE:
            out.append(f"{pid} confidence {b:.6f} -> {a:.6f}")
    moved = max(abs(p - q) for c, d in zip(before["corners"], after["corners"]) for p, q in zip(c, d))
    if moved > CORNER_NOISE_PX:
        out.append(f"corners moved {moved:.2f} px")
    return out


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/vision_speed.py")
    ap.add_argument("dirs", nargs="*", type=Path)
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--limit", type=int, help="the first N photos of each game only")
    ap.add_argument("--unhurried", action="store_true", help="lift the search's time limit (readings then hold still)")
    ap.add_argument("--refusals", action="store_true", help="also ask each photo as the next game, timed")
    ap.add_argument("--dump", type=Path, help="write every reading here")
    ap.add_argument("--against", type=Path, help="compare every reading with this earlier dump")
    ap.add_argument("--stages", action="store_true", help="read on one thread and add up each stage's CPU")
    ap.add_argument(
        "--serial",
        action="store_true",
        help="one thread, OpenCV's too, refusals look for every game: the same run to run (--dump/--against)",
    )
    ap.add_argument("--profile", type=int, metavar="N", help="(serial) print cProfile's N costliest functions")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.unhurried:
        pipeline.SEARCH_LIMIT_S = UNHURRIED_LIMIT_S
    clock = StageClock()
    if a.serial:
        cv2.setNumThreads(1)
        pipeline.REFUSE_LOOK_S = (
            math.inf
        )  # a refusal looks for every other game, however long it took (a loaded machine)
    if a.stages or a.profile or a.serial:
        inline = Inline()
        pipeline.detection_pool = lambda: inline  # type: ignore[assignment]
    if a.stages:
        clock.install()
    profiler = cProfile.Profile(time.process_time) if a.profile else None
    todo = photos(a.dirs or [ROOT / "bench/out/photos"], a.games)
    if a.limit:
        todo = [(g, p) for g, p in todo if sum(1 for g2, p2 in todo if g2 == g and p2 <= p) <= a.limit]
    loads = [load()]
    dump: dict[str, Any] = {}
    stages: defaultdict[str, defaultdict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for game, photo in todo:
        if profiler:
            profiler.enable()
        entry: dict[str, Any] = {"game": game, "read": read_once(photo, game)}
        spent = clock.take()
        if a.refusals:
            entry["refusal"] = read_once(photo, other_game(game))
            entry["refusal"]["asked"] = other_game(game)
            spent.update({f"refusal:{k}": v for k, v in clock.take().items()})
        if profiler:
            profiler.disable()
        for k, v in spent.items():
            stages[game][k].append(v)
        stages[game]["(photos)"].append(1.0)
        dump[f"{photo.resolve().parent.name}/{photo.name}"] = entry
        if not a.quiet:
            r = entry["read"]
            line = f"  {photo.name:28s} {r['error'] or 'read':12s} cpu {r['cpu']:5.2f} wall {r['wall']:5.2f}"
            if a.refusals:
                f = entry["refusal"]
                line += f"   as {f['asked']}: {f['error'] or 'READ'} cpu {f['cpu']:5.2f} wall {f['wall']:5.2f}"
            print(line, file=sys.stderr, flush=True)
        loads.append(load())
    print(f"load average (1/5/15 min) at start {loads[0]}, at end {loads[-1]}")
    print(f"{'game':14s} {'photos':>6s} {'cpu med':>8s} {'wall med':>8s} {'cpu max':>8s}", end="")
    print(f" {'refusal cpu':>11s} {'refusal wall':>12s} {'accepted':>8s}" if a.refusals else "")
    for game in GAMES:
        entries = [e for e in dump.values() if e["game"] == game]
        if not entries:
            continue
        cpu = [e["read"]["cpu"] for e in entries]
        wall = [e["read"]["wall"] for e in entries]
        line = (
            f"{game:14s} {len(entries):6d} {statistics.median(cpu):8.2f} {statistics.median(wall):8.2f} {max(cpu):8.2f}"
        )
        if a.refusals:
            rc = [e["refusal"]["cpu"] for e in entries]
            rw = [e["refusal"]["wall"] for e in entries]
            taken = sum(1 for e in entries if e["refusal"]["error"] is None)
            line += f" {statistics.median(rc):11.2f} {statistics.median(rw):12.2f} {taken:8d}"
        print(line)
    if a.stages:
        print("\nCPU seconds per photo by stage (mean over the game's photos; exclusive of the stages inside)")
        for game in GAMES:
            if game not in stages:
                continue
            n = len(stages[game].pop("(photos)"))
            spent = {k: sum(v) / n for k, v in stages[game].items()}
            print(f"{game} ({n} photos, {sum(spent.values()):.2f} s a photo in stages)")
            for k, mean in sorted(spent.items(), key=lambda kv: -kv[1]):
                if mean >= 0.005:
                    print(f"  {k:60s} {mean:6.3f}")
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(a.profile)
    if a.dump:
        a.dump.write_text(json.dumps(dump, indent=1))
    if a.against:
        before = json.loads(a.against.read_text())
        changed = 0
        for key, entry in dump.items():
            if key not in before:
                continue
            for what in ("read", "refusal"):
                if what in entry and what in before[key]:
                    diff = differences(before[key][what], entry[what])
                    if diff:
                        changed += 1
                        print(f"CHANGED {key} ({what}): {'; '.join(diff[:6])}{' ...' if len(diff) > 6 else ''}")
        compared = sum(1 for k in dump if k in before)
        print(f"compared {compared} photos with {a.against}: {changed} readings changed")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
