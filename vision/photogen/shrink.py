"""Re-encode generated photos small for committing: `python -m vision.photogen.shrink SRC DST [--long 1200 --quality 82]`.

Scales the ground truth (`board_corners`, `cell_px`, `size`) with the image.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2


def shrink(src: Path, dst: Path, long_side: int = 1200, quality: int = 82) -> list[Path]:
    dst.mkdir(parents=True, exist_ok=True)
    out = []
    for jf in sorted(src.glob("*.json")):
        meta = json.loads(jf.read_text())
        img = cv2.imread(str(jf.with_name(meta["image"])))
        if img is None:
            raise RuntimeError(f"{jf.with_name(meta['image'])}: missing or not an image OpenCV can read")
        h, w = img.shape[:2]
        s = long_side / max(h, w)
        if s < 1:
            img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        else:
            s = 1.0
        name = Path(meta["image"]).stem + ".jpg"
        cv2.imwrite(str(dst / name), img, [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1])
        meta["image"] = name
        meta["size"] = [img.shape[1], img.shape[0]]
        meta["board_corners"] = [[round(x * s, 1), round(y * s, 1)] for x, y in meta["board_corners"]]
        meta["cell_px"] = {k: [round(x * s, 1), round(y * s, 1)] for k, (x, y) in meta["cell_px"].items()}
        meta.setdefault("render", {})["shrunk"] = {"long_side": long_side, "jpeg_quality": quality}
        (dst / (Path(name).stem + ".json")).write_text(json.dumps(meta, indent=1))
        out.append(dst / name)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.photogen.shrink")
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--long", type=int, default=1200)
    ap.add_argument("--quality", type=int, default=82)
    a = ap.parse_args(argv)
    for p in shrink(a.src, a.dst, a.long, a.quality):
        print(p, p.stat().st_size // 1024, "KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
