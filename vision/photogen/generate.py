"""POV-Ray scene generator: board, stones, table, lights, camera; then phone-like post-processing."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from engine.core.geometry import hexagon, octagon, rectangle

from ..layouts import GAMES, SQRT3, get_layout
from . import povscene
from .design import matches, sample_design, stone_shades
from .povscene import v3

WHITE_SHARE = 0.01  # most of the frame a phone lets burn out to white (all channels clipped)
WHITE_LEVEL = 0.98


# ----------------------------------------------------------------- positions


def random_position(game: str, rng: np.random.Generator, empty: bool = False) -> tuple[dict, dict]:
    """A random position of the game; `empty` keeps the board bare (the same draws are made, so
    the seed's design and camera stay as they would be)."""
    L = get_layout(game)
    ids = list(L.ids)
    fill = float(rng.uniform(0.0, 0.95))
    if game == "three-stones":
        colours = ["black", "white", "clear"]
        weights = np.array([30, 30, 12], float)
    elif game == "morris":
        colours = ["white", "black"]
        weights = np.array([1, 1], float)
        fill = float(rng.uniform(0.0, 0.75))
    else:
        pal = ["black", "white", "red", "green", "blue", "yellow", "orange", "purple"]
        if game == "rings" and rng.random() < 0.15:
            pal.append("clear")
        k = int(rng.integers(2, 5))
        colours = list(rng.choice(pal, size=k, replace=False))
        weights = np.ones(k)
    n = int(round(fill * len(ids)))
    if game == "morris":
        n = min(n, 18)
    chosen = rng.choice(len(ids), size=n, replace=False)
    cells: dict[str, str | None] = {i: None for i in ids}
    counts = {c: 0 for c in colours}
    caps = (
        {"black": 30, "white": 30, "clear": 12}
        if game == "three-stones"
        else {c: (9 if game == "morris" else 99) for c in colours}
    )
    for j in chosen:
        for _ in range(20):
            c = str(rng.choice(colours, p=weights / weights.sum()))
            if counts[c] < caps[c]:
                counts[c] += 1
                cells[ids[j]] = c
                break
    if empty:
        cells = {i: None for i in ids}
        counts = {c: 0 for c in colours}
    return cells, {"fill_target": round(fill, 3), "colours": colours, "stones": sum(counts.values())}


# ----------------------------------------------------------------- scene


def board_geometry(game: str, rng) -> dict:
    """This photo's board: the game's outline shape (engine geometry) with its proportions drawn at random."""
    L = get_layout(game)
    if game == "three-stones":
        pitch = rng.uniform(2.2, 2.7)
        h = rng.uniform(4.9, 5.1)
        c = rng.uniform(2.7, 2.95)
        outline = np.array(octagon(h, c))
        unit = pitch
    elif game == "morris":
        pitch = rng.uniform(3.3, 4.3)
        h = rng.uniform(3.85, 3.95)
        outline = np.array(rectangle(-h, -h, h, h))
        unit = pitch
    elif game == "rings":
        pitch = rng.uniform(1.65, 1.9)  # point spacing; circle spacing = pitch * sqrt(3)
        unit = pitch * SQRT3
        R = rng.uniform(10.9, 11.1) / SQRT3
        outline = np.array(hexagon(R))
    else:
        pitch = rng.uniform(2.4, 2.6)
        sx = rng.uniform(3.88, 3.95)
        bot, top = rng.uniform(5.88, 5.98), rng.uniform(4.88, 4.95)
        outline = np.array(rectangle(-sx, -bot, sx, top))
        unit = pitch
    return {"pitch": pitch, "unit": unit, "outline_units": outline, "layout": L}


def build_scene(game: str, cells: dict, rng: np.random.Generator, size=(1600, 1200)) -> tuple[str, dict]:
    g = board_geometry(game, rng)
    L, unit = g["layout"], g["unit"]
    outline_cm = g["outline_units"] * unit
    design = sample_design(game, rng)
    shades = stone_shades(rng)
    made = povscene.board(game, L, design, unit, outline_cm, rng)
    parts = list(made.parts)
    top_y, thick = made.top_y, made.top_y
    xy_cm = L.xy * unit
    # stones: resting on the surface or in the pocket, a little off their locations
    for (x, y), pid in zip(xy_cm, L.ids):
        col = cells.get(pid)
        if not col:
            continue
        jx, jy = rng.normal(0, 0.03 * unit, 2)
        r = made.stone_r * rng.uniform(0.97, 1.03)
        parts.append(
            f"{povscene.stone_shape(design.stone_shape, r, made.stone_h, x + jx, made.rest_y, y + jy)} "
            f"{povscene.stone_material(col, design.stone_material, shades[col], design.glass_filter, design.clear_fade_cm)} }}"
        )
    # spare stones and everyday things on the table, outside the board
    spares = []
    R0 = float(np.abs(outline_cm).max())
    if game != "three-stones" and rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 3))):
            ang = rng.uniform(0, 2 * math.pi)
            d = R0 * rng.uniform(1.15, 1.5)
            col = str(rng.choice([c for c in set(cells.values()) if c] or ["black"]))
            u, v = d * math.cos(ang), d * math.sin(ang)
            parts.append(
                f"{povscene.stone_shape(design.stone_shape, made.stone_r, made.stone_h, u, 0.0, v)} "
                f"{povscene.stone_material(col, design.stone_material, shades[col], design.glass_filter, design.clear_fade_cm)} }}"
            )
            spares.append({"colour": col, "u": round(u, 2), "v": round(v, 2)})
    things: list[str] = []
    if design.clutter:
        extra, things = povscene.clutter(R0, rng)
        parts += extra
    table_tex, table_info = povscene.table(design, rng)
    parts.append(f"plane {{ y, 0 {table_tex} }}")

    # camera
    w_img, h_img = size
    hfov = rng.uniform(60, 72)
    tilt = rng.uniform(0, 45) if rng.random() < 0.85 else rng.uniform(0, 10)
    azim = rng.uniform(0, 360)
    roll = rng.normal(0, 4)
    board_span = np.ptp(outline_cm, axis=0).max()
    cover = rng.uniform(0.68, 0.97)
    tan_half_v = math.tan(math.radians(hfov) / 2) * (1.0 if w_img <= h_img else h_img / w_img)
    dist = (board_span / 2) / (cover * tan_half_v)
    off = rng.normal(0, 0.04 * board_span, 2)
    target = np.array([off[0], thick * 0.5, off[1]])
    t, a = math.radians(tilt), math.radians(azim)
    view = np.array([math.sin(t) * math.cos(a), -math.cos(t), math.sin(t) * math.sin(a)])  # direction of view
    loc = target - view * dist
    D = view / np.linalg.norm(view)
    # up: world +z projected (top of photo points to the far side), then rolled
    up0 = np.array([0, 0, 1.0]) if tilt < 1 else np.array([math.cos(a), 0, math.sin(a)])
    U = up0 - D * (up0 @ D)
    U /= np.linalg.norm(U)
    R = np.cross(U, D)  # left-handed POV: right = up x direction keeps the board unmirrored
    if np.dot(np.cross(R, U), D) < 0:
        R = -R
    rr_ = math.radians(roll)
    R, U = R * math.cos(rr_) + U * math.sin(rr_), U * math.cos(rr_) - R * math.sin(rr_)
    aspect = w_img / h_img
    tan_h = math.tan(math.radians(hfov) / 2)
    cam = {"loc": loc, "D": D, "R": R * aspect, "U": U, "dlen": aspect / 2 / tan_h}
    # keep the whole board (top face and sides) inside the frame, with a small margin
    box = np.array([[x, y_, z] for x, z in outline_cm for y_ in (0.0, thick)])
    for _ in range(60):
        d_ = box - loc
        Dv = D * cam["dlen"]
        tpar = (d_ @ Dv) / (Dv @ Dv)
        u = (d_ @ cam["R"]) / (tpar * (cam["R"] @ cam["R"]))
        v = (d_ @ U) / (tpar * (U @ U))
        if np.abs(u).max() < 0.485 and np.abs(v).max() < 0.485:
            break
        dist *= 1.04
        loc = target - view * dist
        cam["loc"] = loc
    # lights
    light_src, tint, light_info = povscene.lights(design, rng)
    scene = "\n".join(
        [
            "#version 3.7;",
            "global_settings { assumed_gamma 1.0 max_trace_level 5 ambient_light rgb <1,1,1> }",
            "background { rgb <0.5, 0.5, 0.5> }",
            f"camera {{ perspective location {v3(cam['loc'])} direction {v3(cam['D'] * cam['dlen'])} right {v3(cam['R'])} up {v3(cam['U'])} }}",
            *light_src,
            *parts,
        ]
    )

    # ground truth by projecting the board points
    def project(P):
        P = np.asarray(P, float).reshape(-1, 3)
        d = P - cam["loc"]
        Dv = cam["D"] * cam["dlen"]
        tpar = (d @ Dv) / (Dv @ Dv)
        u = (d @ cam["R"]) / (tpar * (cam["R"] @ cam["R"]))
        v = (d @ cam["U"]) / (tpar * (cam["U"] @ cam["U"]))
        return np.stack([(u + 0.5) * w_img, (0.5 - v) * h_img], 1)

    corners = project(np.c_[outline_cm[:, 0], np.full(len(outline_cm), top_y), outline_cm[:, 1]])
    cpx = project(np.c_[xy_cm[:, 0], np.full(len(xy_cm), top_y), xy_cm[:, 1]])
    info = {
        "board_cm": {
            "thickness": round(thick, 2),
            "pitch": round(g["pitch"], 3),
            "outline": [[round(float(x), 3), round(float(y), 3)] for x, y in outline_cm],
        },
        "camera": {
            "hfov_deg": round(hfov, 2),
            "tilt_deg": round(tilt, 2),
            "azimuth_deg": round(azim, 2),
            "roll_deg": round(roll, 2),
            "cover_linear": round(cover, 3),
            "distance_cm": round(dist, 1),
        },
        "scene": {
            **light_info,
            "table": design.table,
            "shades": shades,
            "spare_stones_on_table": spares,
            "things_on_table": things,
            **table_info,
            **made.info,
        },
        "design": design.to_dict(),
    }
    return scene, {"corners": corners, "cell_px": cpx, "info": info, "size": size}


# ----------------------------------------------------------------- post-processing


def postprocess(img: np.ndarray, rng: np.random.Generator, tint=(1.0, 1.0, 1.0)) -> tuple[np.ndarray, dict]:
    f = img.astype(np.float32) / 255.0
    h, w = f.shape[:2]
    gain = float(rng.uniform(0.75, 1.35))
    wb_corr = float(rng.uniform(0.5, 0.85))
    # partial auto white balance: the camera takes out part of the light's tint
    tint = np.asarray(tint, np.float32)[::-1]  # BGR
    f = f / (tint / tint.mean()) ** wb_corr
    f = f * gain
    # vignetting
    vig = float(rng.uniform(0.05, 0.28))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rr = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    f *= (1 - vig * rr)[..., None]
    # glare: bloom of bright parts
    glare = float(rng.uniform(0.0, 0.25))
    bright = np.clip(f - 0.8, 0, None)
    f += glare * cv2.GaussianBlur(bright, (0, 0), 25) * 3
    # a phone's auto exposure holds the highlights of a large bright area (a light board
    # under a lamp): at most WHITE_SHARE of the frame may burn out to white (specular
    # glints on stones, not half the board)
    white = float(np.percentile(f.min(axis=2), 100 * (1 - WHITE_SHARE)))
    protect = min(1.0, WHITE_LEVEL / white) if white > 0 else 1.0
    f *= protect
    # lens distortion (small k1)
    k1 = float(rng.uniform(-0.025, 0.005))
    if abs(k1) > 1e-4:
        nx, ny = (xx - w / 2) / (w / 2), (yy - h / 2) / (w / 2)
        r2 = nx * nx + ny * ny
        mx = (nx * (1 + k1 * r2)) * (w / 2) + w / 2
        my = (ny * (1 + k1 * r2)) * (w / 2) + h / 2
        f = cv2.remap(f, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    blur = float(rng.uniform(0.4, 1.0)) if rng.random() < 0.8 else float(rng.uniform(1.0, 2.2))  # or out of focus
    f = cv2.GaussianBlur(f, (0, 0), blur)
    motion = float(rng.uniform(2.0, 6.0)) if rng.random() < 0.15 else 0.0  # a hand that moved
    if motion:
        k = int(math.ceil(motion)) * 2 + 1
        kernel: np.ndarray = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0
        turn = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (k, k))
        f = cv2.filter2D(f, -1, kernel / kernel.sum())
    noise = float(rng.uniform(0.004, 0.012))
    f += rng.normal(0, noise, f.shape).astype(np.float32)
    out = np.clip(f * 255 + 0.5, 0, 255).astype(np.uint8)
    return out, {
        "exposure_gain": round(gain, 3),
        "wb_correction": round(wb_corr, 2),
        "vignetting": round(vig, 3),
        "glare": round(glare, 3),
        "highlight_protection": round(protect, 3),
        "k1": round(k1, 4),
        "blur_sigma": round(blur, 2),
        "motion_blur_px": round(motion, 1),
        "noise_sigma": round(noise, 4),
    }


def distort_points(p: np.ndarray, k1: float, w: int, h: int) -> np.ndarray:
    """Where an undistorted pixel lands after `postprocess`'s remap (inverse of the map)."""
    out = []
    for x, y in p:
        tx, ty = (x - w / 2) / (w / 2), (y - h / 2) / (w / 2)
        nx, ny = tx, ty
        for _ in range(20):  # solve n * (1 + k1 |n|^2) = t
            r2 = nx * nx + ny * ny
            nx, ny = tx / (1 + k1 * r2), ty / (1 + k1 * r2)
        out.append((nx * (w / 2) + w / 2, ny * (w / 2) + h / 2))
    return np.array(out)


# ----------------------------------------------------------------- driver


def design_of(game: str, seed: int) -> dict:
    """The design `render_one` gives this seed, without rendering (the same draws, in order)."""
    rng = np.random.default_rng(seed)
    rng.random()
    random_position(game, rng)
    board_geometry(game, rng)
    return sample_design(game, rng).to_dict()


def render_one(
    game: str,
    seed: int,
    out_dir: Path,
    name: str | None = None,
    size=(1600, 1200),
    quality: int | None = None,
    threads: int = 1,
    render_scale: float = 0.6,
    empty: bool = False,
) -> dict:
    if shutil.which("povray") is None:
        raise RuntimeError("povray is not installed (apt-get install -y povray)")
    rng = np.random.default_rng(seed)
    if rng.random() < 0.5:
        size = (size[1], size[0])
    cells, pos_info = random_position(game, rng, empty)
    scene, gt = build_scene(game, cells, rng, size)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = name or f"{game}_{seed:04d}{'_empty' if empty else ''}"
    with tempfile.TemporaryDirectory() as td:
        pov = Path(td) / "scene.pov"
        pov.write_text(scene)
        png = Path(td) / "out.png"
        t0 = time.time()
        rw, rh = round(size[0] * render_scale), round(size[1] * render_scale)
        cmd = [
            "povray",
            f"+I{pov}",
            f"+O{png}",
            f"+W{rw}",
            f"+H{rh}",
            "-D",
            "-V",
            "+FN",
            "-A",
            f"+WT{threads}",
            "File_Gamma=sRGB",
            "Display_Gamma=2.2",
            "+L/usr/share/povray-3.7/include",
        ]
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=td)
        secs = time.time() - t0
        if res.returncode != 0 or not png.exists():
            raise RuntimeError("povray failed: " + res.stderr[-800:])
        img = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if img is None:
            raise RuntimeError(f"povray's {png.name} is not an image OpenCV can read")
        if img.shape[1] != size[0]:
            img = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
    img, post = postprocess(img, rng, gt["info"]["scene"]["light_tint"])
    q = quality or int(rng.integers(70, 96))
    w, h = size
    corners = distort_points(gt["corners"], post["k1"], w, h)
    cpx = distort_points(gt["cell_px"], post["k1"], w, h)
    # phones save anything from 720p up: sometimes a smaller photo than rendered
    shrink = float(rng.choice([1.0, 0.8, 0.6], p=[0.7, 0.15, 0.15])) if max(size) >= 1280 else 1.0
    if shrink < 1.0:
        w, h = round(w * shrink), round(h * shrink)
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
        corners, cpx = corners * (w / size[0]), cpx * (h / size[1])
        post["saved_scale"] = shrink
    cv2.imwrite(str(out_dir / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, q])
    L = get_layout(game)
    area = abs(cv2.contourArea(corners.astype(np.float32))) / (w * h)
    meta = {
        "game": game,
        "cells": cells,
        "board_corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        "image": f"{name}.jpg",
        "size": [w, h],
        "cell_px": {i: [round(float(x), 1), round(float(y), 1)] for i, (x, y) in zip(L.ids, cpx)},
        "render": {
            "seed": seed,
            "povray_seconds": round(secs, 2),
            "jpeg_quality": q,
            "board_area_fraction": round(area, 3),
            "position": pos_info,
            **gt["info"],
            "post": post,
            "generator": "vision.photogen",
        },
    }
    (out_dir / f"{name}.json").write_text(json.dumps(meta, indent=1))
    return meta


def generate(game: str, count: int, seed: int, out: Path, size=(1600, 1200), quality=None, threads=1):
    metas = []
    for k in range(count):
        metas.append(render_one(game, seed * 1000 + k, out, size=size, quality=quality, threads=threads))
    return metas


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.photogen", description=__doc__)
    ap.add_argument("--game", required=True, choices=[*GAMES, "all"])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--height", type=int, default=1200)
    ap.add_argument("--quality", type=int, default=None, help="JPEG quality (default: random 70..95)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--empty", action="store_true", help="bare boards: no stone on them")
    ap.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="render only the seeds whose design has this value (render.design; VALUE may list several with |); "
        "--count then counts the photos rendered, from the first seeds of the set that qualify",
    )
    a = ap.parse_args(argv)
    games = list(GAMES) if a.game == "all" else [a.game]
    for g in games:
        made = 0
        for k in range(1000):
            seed = a.seed * 1000 + k
            if made == a.count:
                break
            if a.where and not all(matches(design_of(g, seed), cond) for cond in a.where):
                continue
            m = render_one(
                g, seed, a.out, size=(a.width, a.height), quality=a.quality, threads=a.threads, empty=a.empty
            )
            made += 1
            print(f"{m['image']}  {m['render']['povray_seconds']:.1f}s", flush=True)
    return 0
