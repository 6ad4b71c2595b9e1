"""Whether a reading holds still when its fit moves by less than a pixel.

    python bench/vision_jitter.py DIR [DIR ...] [--games three-stones] [--px 1.0] [--count 8] [--found]

Each photo's cells are read on its true fit (from the generator's `cell_px`), or with `--found` on
the fit the reader finds, then again on `--count` fits nudged by at most `--px` pixels at each
corner of the board (`pipeline.nudged_fits`).  A fit found on the same photo twice differs by
about that much, so a cell whose reading changes under it is read on a knife edge.  Prints per
photo the cells right on the fit and their least and most over the nudged fits, and the cells
whose reading changed at least once; then the totals per game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.errors import VisionError  # noqa: E402
from vision.io import read_image  # noqa: E402
from vision.layouts import GAMES, get_layout, misread  # noqa: E402
from vision import pipeline  # noqa: E402
from vision.pipeline import nudged_fits, read_board, read_cells, true_fit  # noqa: E402


def steadiness(photo: Path, meta: dict, px: float, count: int, found: bool) -> dict:
    """One photo's cells right on its fit, least and most right over the nudged fits, and the
    locations whose reading changed."""
    game = meta["game"]
    layout = get_layout(game)
    img = read_image(photo)
    fit = read_board(img, game).H if found else true_fit(meta)
    base, _ = read_cells(img, fit, layout)
    n = len(layout.ids)

    def right(labels: list[str | None]) -> int:
        return n - len(misread(game, dict(zip(layout.ids, labels)), meta["cells"]))

    changed: set[str] = set()
    scores = []
    for nudged in nudged_fits(fit, layout, px, count, seed=len(photo.name)):
        labels, _ = read_cells(img, nudged, layout)
        changed |= {pid for pid, a, b in zip(layout.ids, base, labels) if a != b}
        scores.append(right(labels))
    return {"cells": n, "right": right(base), "least": min(scores), "most": max(scores), "changed": len(changed)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="bench/vision_jitter.py")
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--px", type=float, default=1.0, help="how far each corner of the fit moves, at most")
    ap.add_argument("--count", type=int, default=8, help="nudged fits per photo")
    ap.add_argument("--found", action="store_true", help="nudge the fit the reader finds, not the true one")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    pipeline.SEARCH_LIMIT_S = 120.0  # judged on the reading, not on a loaded machine's clock
    per_photo: dict[str, dict] = {}
    totals: defaultdict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
    for d in a.dirs:
        for jf in sorted(d.glob("*.json")):
            meta = json.loads(jf.read_text())
            if meta.get("game") not in a.games or "cell_px" not in meta:
                continue
            photo = jf.with_name(meta.get("image", jf.stem + ".jpg"))
            if not photo.exists():
                continue
            try:
                r = steadiness(photo, meta, a.px, a.count, a.found)
            except VisionError as exc:
                print(f"  {photo.name:28s} refused: {exc}", flush=True)
                continue
            per_photo[photo.name] = r
            t = totals[meta["game"]]
            t["photos"] += 1
            t["unsteady photos"] += int(r["changed"] > 0)
            for key in r:
                t[key] += r[key]
            print(
                f"  {photo.name:28s} {r['right']:3d}/{r['cells']:<3d} nudged {r['least']:3d}..{r['most']:<3d} "
                f"changed {r['changed']:3d}",
                flush=True,
            )
    for game, t in sorted(totals.items()):
        print(
            f"{game}: {t['photos']} photos, cells right {t['right']}/{t['cells']} on the fit, "
            f"{t['least']}..{t['most']} nudged; cells changed {t['changed']}, photos with a change {t['unsteady photos']}"
        )
    if a.json:
        a.json.write_text(json.dumps({"photos": per_photo, "totals": totals}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
