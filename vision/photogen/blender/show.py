"""Draw a photo's ground truth over it, to look at before trusting a set:

    python -m vision.photogen.blender.show NAME.json OUT.png

Every location's id at its `cell_px` (a cross, with the stone's colour when it holds one)
and the board's outline from `board_corners`.  Reads any ground truth of the shared shape.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

MARK = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "clear": (200, 255, 200),
    "red": (0, 0, 255),
    "green": (0, 160, 0),
    "blue": (255, 0, 0),
    "yellow": (0, 230, 255),
    "orange": (0, 140, 255),
    "purple": (160, 0, 160),
}


def overlay(meta: dict, image: np.ndarray) -> np.ndarray:
    out = image.copy()
    scale = out.shape[1] / meta["size"][0]
    corners = (np.array(meta["board_corners"]) * scale).round().astype(np.int32)
    cv2.polylines(out, [corners], True, (255, 0, 255), 1, cv2.LINE_AA)
    for pid, (x, y) in meta["cell_px"].items():
        p = (int(round(x * scale)), int(round(y * scale)))
        colour = meta["cells"].get(pid)
        cv2.drawMarker(out, p, MARK.get(colour, (0, 255, 255)), cv2.MARKER_CROSS, 9, 2 if colour else 1)
        cv2.putText(out, pid, (p[0] + 3, p[1] - 3), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 255, 255), 1, cv2.LINE_AA)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.photogen.blender.show")
    ap.add_argument("truth", type=Path)
    ap.add_argument("out", type=Path)
    a = ap.parse_args(argv)
    meta = json.loads(a.truth.read_text())
    image = cv2.imread(str(a.truth.with_name(meta["image"])))
    if image is None:
        ap.exit(2, f"cannot read {meta['image']} beside {a.truth}\n")
    cv2.imwrite(str(a.out), overlay(meta, image))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
