"""Render held-out photos with Blender Cycles and write their ground truth.

The scene is drawn here (main venv), built and rendered by `bpy_scene.py` in `.venv-blender`
(a separate process: bpy pins numpy<2), then developed like a phone photo here again.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from ...layouts import GAMES
from ..generate import random_position
from . import artwork, phone
from .design import sample_design
from .scene import Scene, photo_scene

ROOT = Path(__file__).resolve().parents[3]
BLENDER_PYTHON = ROOT / ".venv-blender" / "bin" / "python"
BPY_SCRIPT = Path(__file__).with_name("bpy_scene.py")
GENERATOR = "vision.photogen.blender"
SAMPLES = 8  # with OpenImageDenoise as clean as 16 here: 120 CPU s a 1600x1200 photo against 200
PROJECTION_TOLERANCE_PX = 0.05  # our projection against Blender's own world_to_camera_view


def photo_name(game: str, seed: int) -> str:
    return f"{game}_b{seed}"


def plan(
    game: str, seed: int, work: Path, size=(1600, 1200), samples: int = SAMPLES, threads: int = 2, denoise: bool = True
) -> tuple[Scene, dict, dict, np.random.Generator]:
    """Every draw of one photo but the render: its position, design and scene (the board's
    drawing written to `work`).  Returns the scene, the cells, the position's summary and the
    generator, whose next draws develop the photo."""
    rng = np.random.default_rng([seed, GAMES.index(game)])
    if rng.random() < 0.5:
        size = (size[1], size[0])
    cells, position = random_position(game, rng)
    design, stone_rgb = sample_design(game, sorted({c for c in cells.values() if c}), rng)

    def draw(board) -> tuple[str, tuple, dict]:
        art, info = artwork.draw(
            game, board.layout, design, board.unit, board.outline, board.stone_r, board.pocket_r, rng
        )
        path = work / "artwork.png"
        cv2.imwrite(str(path), art.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        return str(path), art.box, info

    render = {"size": list(size), "samples": samples, "threads": threads, "denoise": denoise, "seed": seed}
    scene = photo_scene(game, cells, design, stone_rgb, rng, size, draw, render)
    scene.info["design"] = design.to_dict()
    return scene, cells, position, rng


def blender_render(spec: dict, work: Path, python: Path = BLENDER_PYTHON) -> tuple[np.ndarray, dict]:
    """Run bpy_scene.py on the spec: the scene-linear RGB render and what Blender reports."""
    if not python.exists():
        raise RuntimeError(f"no Blender venv at {python.parent.parent}: run ./stones setup (it installs bpy there)")
    (work / "spec.json").write_text(json.dumps(spec))
    done = subprocess.run(
        [str(python), str(BPY_SCRIPT), str(work / "spec.json"), str(work)], capture_output=True, text=True
    )
    if done.returncode != 0 or not (work / "render.json").exists():
        raise RuntimeError("Blender failed: " + (done.stderr or done.stdout)[-1500:])
    report = json.loads((work / "render.json").read_text())
    w, h = report["size"]
    linear = np.fromfile(work / "linear.f32", np.float32).reshape(h, w, 3)
    return linear, report


def check_projection(scene: Scene, report: dict) -> float:
    """The largest gap (pixels) between our projection of the check points and Blender's own:
    the ground truth is only as good as this agreement."""
    w, h = scene.camera.size
    theirs = np.array([[x * w - 0.5, (1 - y) * h - 0.5] for x, y in report["camera_view"]])
    ours = scene.camera.project(scene.spec["check_points"])
    gap = float(np.abs(theirs - ours).max())
    if gap > PROJECTION_TOLERANCE_PX:
        raise RuntimeError(f"the ground truth's projection is {gap:.3f} px off Blender's camera")
    return gap


def render_one(
    game: str,
    seed: int,
    out_dir: Path,
    size=(1600, 1200),
    samples: int = SAMPLES,
    threads: int = 2,
    quality: int | None = None,
    python: Path = BLENDER_PYTHON,
) -> dict:
    """Render one photo: NAME.jpg and its ground truth NAME.json in `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    name = photo_name(game, seed)
    with tempfile.TemporaryDirectory(prefix="stones-blender-") as tmp:
        work = Path(tmp)
        scene, cells, position, rng = plan(game, seed, work, size, samples, threads)
        linear, report = blender_render(scene.spec, work, python)
    gap = check_projection(scene, report)
    picture, post = phone.develop(linear, rng)
    scale, saved = phone.saved_size(scene.camera.size, rng)
    if scale != 1.0:
        picture = cv2.resize(picture, saved, interpolation=cv2.INTER_AREA)
    q = quality or int(rng.integers(70, 96))
    cv2.imwrite(str(out_dir / f"{name}.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, q])
    cell_px = phone.scale_points(scene.camera.project(scene.board.locations()), scale)
    corners = phone.scale_points(scene.camera.project(scene.board.corners()), scale)
    area = abs(cv2.contourArea(corners.astype(np.float32))) / (saved[0] * saved[1])
    meta = {
        "game": game,
        "cells": cells,
        "board_corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "image": f"{name}.jpg",
        "size": list(saved),
        "cell_px": {
            pid: [round(float(x), 2), round(float(y), 2)] for pid, (x, y) in zip(scene.board.layout.ids, cell_px)
        },
        "render": {
            "generator": GENERATOR,
            "seed": seed,
            "blender": report["blender"],
            "render_seconds": report["seconds"],
            "render_cpu_seconds": report["cpu_seconds"],
            "samples": samples,
            "rendered_size": list(scene.camera.size),
            "saved_scale": scale,
            "jpeg_quality": q,
            "board_area_fraction": round(area, 3),
            "projection_check_px": round(gap, 5),
            "position": position,
            **scene.info,
            "post": post,
            "notes": "cell_px: each location on the board's top face, OpenCV pixel coordinates "
            "(the first pixel's centre is 0, 0); board_corners: the top face's outline",
        },
    }
    (out_dir / f"{name}.json").write_text(json.dumps(meta, indent=1))
    return meta


def render_set(games: list[str], count: int, seed: int, out: Path, again: bool = False, **options) -> int:
    """`count` photos a game with render seeds seed*1000.., one game after another in turn so a
    set stopped part way is balanced; photos already there are kept unless `again`."""
    made = 0
    for k in range(count):
        for game in games:
            render_seed = seed * 1000 + k
            if not again and (out / f"{photo_name(game, render_seed)}.json").exists():
                continue
            t0 = time.time()
            meta = render_one(game, render_seed, out, **options)
            made += 1
            print(
                f"{meta['image']}  render {meta['render']['render_seconds']:.1f}s  total {time.time() - t0:.1f}s",
                flush=True,
            )
    return made


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m vision.photogen.blender",
        description="Render held-out board photos with Blender Cycles (bpy in .venv-blender).",
    )
    ap.add_argument("--game", required=True, choices=[*GAMES, "all"])
    ap.add_argument("--count", type=int, default=20, help="photos per game")
    ap.add_argument("--seed", type=int, default=101, help="render seeds SEED*1000 .. SEED*1000+COUNT-1")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--height", type=int, default=1200)
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quality", type=int, default=None, help="JPEG quality (default: random 70..95)")
    ap.add_argument("--again", action="store_true", help="render photos that are already there again")
    ap.add_argument("--python", type=Path, default=BLENDER_PYTHON, help="the Python that has bpy")
    a = ap.parse_args(argv)
    games = list(GAMES) if a.game == "all" else [a.game]
    try:
        render_set(
            games,
            a.count,
            a.seed,
            a.out,
            a.again,
            size=(a.width, a.height),
            samples=a.samples,
            threads=a.threads,
            quality=a.quality,
            python=a.python,
        )
    except RuntimeError as exc:
        ap.exit(1, f"python -m vision.photogen.blender: {exc}\n")
    return 0
