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

from ..layouts import GAMES, SQRT3, get_layout, ring_circles

SHADES = {
    "black": (22, 22, 26), "white": (232, 230, 222), "clear": (235, 245, 240),
    "red": (200, 25, 30), "green": (32, 140, 62), "blue": (30, 72, 190),
    "yellow": (250, 210, 25), "orange": (236, 112, 28), "purple": (120, 48, 160),
}
WOODS = {  # light, dark ring colours (0..1)
    "birch": ((0.93, 0.82, 0.62), (0.80, 0.64, 0.42)),
    "maple": ((0.95, 0.80, 0.55), (0.82, 0.60, 0.35)),
    "oak": ((0.80, 0.62, 0.40), (0.55, 0.38, 0.20)),
    "teak": ((0.72, 0.46, 0.24), (0.50, 0.28, 0.12)),
    "cherry": ((0.70, 0.38, 0.22), (0.45, 0.20, 0.10)),
    "bamboo": ((0.92, 0.80, 0.52), (0.78, 0.62, 0.36)),
    "walnut": ((0.50, 0.34, 0.22), (0.30, 0.18, 0.10)),
}
FONTS = ("timrom.ttf", "crystal.ttf", "cyrvetic.ttf")
WHITE_SHARE = 0.01   # most of the frame a phone lets burn out to white (all channels clipped)
WHITE_LEVEL = 0.98


def v3(p) -> str:
    return "<%.4f, %.4f, %.4f>" % tuple(p)


def rgb(c) -> str:
    return "rgb <%.4f, %.4f, %.4f>" % tuple(c)


def srgb_to_lin(c):
    c = np.asarray(c, float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


# ----------------------------------------------------------------- positions

def random_position(game: str, rng: np.random.Generator) -> tuple[dict, dict]:
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
    cells = {i: None for i in ids}
    counts = {c: 0 for c in colours}
    caps = {"black": 30, "white": 30, "clear": 12} if game == "three-stones" else {c: (9 if game == "morris" else 99) for c in colours}
    for j in chosen:
        for _ in range(20):
            c = str(rng.choice(colours, p=weights / weights.sum()))
            if counts[c] < caps[c]:
                counts[c] += 1
                cells[ids[j]] = c
                break
    return cells, {"fill_target": round(fill, 3), "colours": colours, "stones": sum(counts.values())}


# ----------------------------------------------------------------- scene

def wood_texture(name: str, ring: float, grain_deg: float, rng, varnish: bool, spec: float) -> str:
    a, b = WOODS[name]
    jitter = rng.uniform(0.93, 1.05, 3)
    a = srgb_to_lin(np.clip(np.array(a) * jitter, 0, 1) * 255)
    b = srgb_to_lin(np.clip(np.array(b) * jitter, 0, 1) * 255)
    tx, ty, tz = rng.uniform(-50, 50, 3)
    finish = (f"finish {{ ambient 0 diffuse 0.85 specular {spec:.3f} roughness {0.02 if varnish else 0.08:.3f} "
              f"{'reflection 0.03' if varnish else ''} }}")
    return (f"texture {{ pigment {{ wood turbulence {rng.uniform(0.03, 0.12):.3f} octaves 3 "
            f"color_map {{ [0 {rgb(a)}] [0.55 {rgb(a * 0.97)}] [0.8 {rgb(b)}] [1 {rgb(a)}] }} "
            f"scale <{ring:.3f}, {ring:.3f}, 40> translate <{tx:.2f}, {ty:.2f}, {tz:.2f}> rotate y*{grain_deg:.1f} }} "
            f"normal {{ wood 0.08 scale <{ring:.3f}, {ring:.3f}, 40> translate <{tx:.2f}, {ty:.2f}, {tz:.2f}> rotate y*{grain_deg:.1f} }} "
            f"{finish} }}")


def stone_material(colour: str, style: str, shade) -> str:
    c = srgb_to_lin(shade) ** (1 / 2.2)  # POV with assumed_gamma 1 + sRGB output: pass linear-ish
    c = srgb_to_lin(shade)
    if colour == "clear":
        return ("material { texture { pigment { rgbf <%.3f, %.3f, %.3f, 0.92> } "
                "finish { ambient 0 diffuse 0.05 specular 0.9 roughness 0.003 reflection { 0.04, 0.6 fresnel } conserve_energy } } "
                "interior { ior 1.5 fade_distance 2 fade_power 1 fade_color <0.80, 0.95, 0.88> } }") % tuple(
            np.clip(c * 1.02, 0, 1))
    if style == "glass":
        return ("material { texture { pigment { rgbf <%.3f, %.3f, %.3f, 0.04> } "
                "finish { ambient 0 diffuse 0.55 specular 0.8 roughness 0.004 reflection { 0.03, 0.3 fresnel } conserve_energy } } "
                "interior { ior 1.5 } }") % tuple(c)
    if style == "plastic":
        return "material { texture { pigment { %s } finish { ambient 0 diffuse 0.8 specular 0.5 roughness 0.01 } } }" % rgb(c)
    return "material { texture { pigment { %s } finish { ambient 0 diffuse 0.85 specular 0.15 roughness 0.05 } } }" % rgb(c)


def board_geometry(game: str, rng) -> dict:
    L = get_layout(game)
    if game == "three-stones":
        pitch = rng.uniform(2.2, 2.7)
        h = rng.uniform(4.9, 5.1)
        c = rng.uniform(2.7, 2.95)
        outline = np.array([[-c, -h], [c, -h], [h, -c], [h, c], [c, h], [-c, h], [-h, c], [-h, -c]])
        unit = pitch
    elif game == "morris":
        pitch = rng.uniform(3.3, 4.3)
        h = rng.uniform(3.85, 3.95)
        outline = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        unit = pitch
    elif game == "rings":
        pitch = rng.uniform(1.65, 1.9)  # point spacing; circle spacing = pitch * sqrt(3)
        unit = pitch * SQRT3
        R = rng.uniform(10.9, 11.1) / SQRT3
        outline = np.array([[-R / 2, -R * SQRT3 / 2], [R / 2, -R * SQRT3 / 2], [R, 0.0],
                            [R / 2, R * SQRT3 / 2], [-R / 2, R * SQRT3 / 2], [-R, 0.0]])
    else:
        pitch = rng.uniform(2.4, 2.6)
        sx = rng.uniform(3.88, 3.95)
        bot, top = rng.uniform(5.88, 5.98), rng.uniform(4.88, 4.95)
        outline = np.array([[-sx, -bot], [sx, -bot], [sx, top], [-sx, top]])
        unit = pitch
    return {"pitch": pitch, "unit": unit, "outline_units": outline, "layout": L}


def build_scene(game: str, cells: dict, rng: np.random.Generator, size=(1600, 1200)) -> tuple[str, dict]:
    g = board_geometry(game, rng)
    L, unit = g["layout"], g["unit"]
    outline_cm = g["outline_units"] * unit
    thick = rng.uniform(1.4, 2.4)
    wood = str(rng.choice(list(WOODS)))
    ring = rng.uniform(0.3, 0.9)
    grain = float(rng.choice([0, 90])) + rng.uniform(-3, 3)
    varnish = bool(rng.random() < 0.6)
    spec = rng.uniform(0.05, 0.5)
    style = str(rng.choice(["glass", "plastic", "opaque"], p=[0.45, 0.35, 0.2]))
    if game == "three-stones":
        style = "glass" if rng.random() < 0.7 else style
    shades = {k: tuple(int(np.clip(v + rng.normal(0, 6 if k in ("white", "clear") else 12), 0, 255)) for v in val)
              for k, val in SHADES.items()}
    shades["black"] = tuple(int(np.clip(v + rng.normal(0, 3), 0, 50)) for v in SHADES["black"])
    line_rgb = [int(x) for x in rng.choice([[20, 20, 26], [90, 28, 20], [30, 22, 18], [40, 40, 80]])]
    parts = []
    top_y = thick
    # board body
    poly = ", ".join("<%.4f, %.4f>" % (x, y) for x, y in list(outline_cm) + [outline_cm[0]])
    body = f"prism {{ linear_sweep linear_spline 0, {top_y:.4f}, {len(outline_cm) + 1}, {poly} }}"
    wood_tex = wood_texture(wood, ring, grain, rng, varnish, spec)
    xy_cm = L.xy * unit
    render_info: dict = {}
    if game in ("three-stones", "sage-stones"):
        pr = unit * rng.uniform(0.37, 0.42)
        depth = rng.uniform(0.3, 0.45)
        # spherical cap: sphere radius from cap radius and depth
        sr = (pr * pr + depth * depth) / (2 * depth)
        holes = " ".join(f"sphere {{ <{x:.4f}, {top_y - depth + sr:.4f}, {y:.4f}>, {sr:.4f} }}" for x, y in xy_cm)
        extra = ""
        if game == "sage-stones":
            font = str(rng.choice(FONTS))
            nh = unit * rng.uniform(0.55, 0.7)
            ink = rgb(srgb_to_lin(line_rgb))
            texts = []
            ybase = -5.0 * unit - 0.35 * unit - nh / 2  # below row 1
            for col in range(3, 10):
                x = (col - 6) * unit
                texts.append(
                    f"text {{ ttf \"{font}\" \"{col}\" 1, 0 scale {nh:.3f} translate <-0.28*{nh:.3f}, -0.35*{nh:.3f}, 0> "
                    f"rotate x*90 translate <{x:.4f}, {top_y + 0.003:.4f}, {ybase + nh / 2:.4f}> "
                    f"texture {{ pigment {{ {ink} }} finish {{ ambient 0 diffuse 0.7 }} }} }}")
            extra = " ".join(texts)
            render_info.update(font=font, number_height_cm=round(nh, 3))
        parts.append(f"difference {{ {body} {holes} {wood_tex} }}")
        if extra:
            parts.append(f"union {{ {extra} }}")
        render_info["pocket"] = {"radius_cm": round(pr, 3), "depth_cm": round(depth, 3)}
        stone_r = pr * rng.uniform(1.0, 1.12)
        stone_h = stone_r * rng.uniform(0.55, 0.75)
        rest_y = top_y - depth * 0.55
    else:
        parts.append(f"object {{ {body} {wood_tex} }}")
        lw = rng.uniform(0.08, 0.16)
        ink = f"texture {{ pigment {{ {rgb(srgb_to_lin(line_rgb))} }} finish {{ ambient 0 diffuse 0.7 }} }}"
        drawn = []
        yl = top_y + 0.002
        if game == "morris":
            segs = []
            for s in (3, 2, 1):
                c = [(-s, -s), (s, -s), (s, s), (-s, s)]
                segs += [(c[i], c[(i + 1) % 4]) for i in range(4)]
            segs += [((0, -3), (0, -1)), ((0, 1), (0, 3)), ((-3, 0), (-1, 0)), ((1, 0), (3, 0))]
            for (ax, ay), (bx, by) in segs:
                x0, x1 = sorted((ax * unit, bx * unit))
                z0, z1 = sorted((ay * unit, by * unit))
                drawn.append(f"box {{ <{x0 - lw / 2:.4f}, {yl - 0.01:.4f}, {z0 - lw / 2:.4f}>, <{x1 + lw / 2:.4f}, {yl:.4f}, {z1 + lw / 2:.4f}> }}")
            marks = str(rng.choice(["dot", "ring", "none"]))
            dot_r = float(rng.uniform(0.05, 0.12))
            for x, y in xy_cm:
                if marks == "dot":
                    drawn.append(f"cylinder {{ <{x:.4f}, {yl - 0.01:.4f}, {y:.4f}>, <{x:.4f}, {yl + 0.001:.4f}, {y:.4f}>, {unit * dot_r:.4f} }}")
                elif marks == "ring":
                    drawn.append(f"torus {{ {unit * 0.25:.4f}, {lw / 2:.4f} scale <1, 0.05, 1> translate <{x:.4f}, {yl - 0.004:.4f}, {y:.4f}> }}")
            render_info["point_marks"] = marks
            if rng.random() < 0.4:  # a border line near the edge
                b = outline_cm[1][0] * rng.uniform(0.9, 0.95)
                for s2 in (b, b - 2.5 * lw):
                    c = [(-s2, -s2), (s2, -s2), (s2, s2), (-s2, s2)]
                    for i in range(4):
                        (ax, ay), (bx, by) = c[i], c[(i + 1) % 4]
                        x0, x1 = sorted((ax, bx)); z0, z1 = sorted((ay, by))
                        drawn.append(f"box {{ <{x0 - lw / 3:.4f}, {yl - 0.01:.4f}, {z0 - lw / 3:.4f}>, <{x1 + lw / 3:.4f}, {yl:.4f}, {z1 + lw / 3:.4f}> }}")
            stone_r = unit * rng.uniform(0.26, 0.33)
            stone_h = stone_r * rng.uniform(0.4, 0.6)
        else:
            full, partial = ring_circles()
            rr = unit / SQRT3
            clip = ", ".join("<%.4f, %.4f>" % (x, y) for x, y in list(outline_cm * 0.995) + [outline_cm[0] * 0.995])
            for q, r in full:
                cx, cy = (q + r / 2) * unit, r * SQRT3 / 2 * unit
                drawn.append(f"torus {{ {rr:.4f}, {lw / 2:.4f} scale <1, 0.05, 1> translate <{cx:.4f}, {yl - 0.004:.4f}, {cy:.4f}> }}")
            for q, r in partial:  # only the edge circles need cutting at the board's edge
                cx, cy = (q + r / 2) * unit, r * SQRT3 / 2 * unit
                drawn.append(f"intersection {{ torus {{ {rr:.4f}, {lw / 2:.4f} scale <1, 0.05, 1> translate <{cx:.4f}, {yl - 0.004:.4f}, {cy:.4f}> }} "
                             f"prism {{ linear_sweep linear_spline -1, 5, {len(outline_cm) + 1}, {clip} }} "
                             f"bounded_by {{ box {{ <{cx - rr - lw:.3f}, {yl - 0.1:.3f}, {cy - rr - lw:.3f}>, <{cx + rr + lw:.3f}, {yl + 0.1:.3f}, {cy + rr + lw:.3f}> }} }} }}")
            stone_r = unit * rng.uniform(0.23, 0.27)
            stone_h = stone_r * rng.uniform(0.45, 0.6)
        parts.append(f"union {{ {' '.join(drawn)} {ink} }}")
        rest_y = top_y
        render_info["line_rgb"] = line_rgb
        render_info["line_width_cm"] = round(lw, 3)
    # stones: flattened spheres resting on the surface (or in the pocket)
    for (x, y), pid in zip(xy_cm, L.ids):
        col = cells.get(pid)
        if not col:
            continue
        jx, jy = rng.normal(0, 0.03 * unit, 2)
        r = stone_r * rng.uniform(0.97, 1.03)
        parts.append(f"sphere {{ 0, 1 scale <{r:.4f}, {stone_h:.4f}, {r:.4f}> translate <{x + jx:.4f}, {rest_y + stone_h * 0.92:.4f}, {y + jy:.4f}> "
                     f"{stone_material(col, style, shades[col])} }}")
    # spare stones on the table, outside the board
    spares = []
    if game != "three-stones" and rng.random() < 0.3:
        R0 = np.abs(outline_cm).max()
        for _ in range(int(rng.integers(1, 3))):
            ang = rng.uniform(0, 2 * math.pi)
            d = R0 * rng.uniform(1.15, 1.5)
            col = str(rng.choice([c for c in set(cells.values()) if c] or ["black"]))
            u, v = d * math.cos(ang), d * math.sin(ang)
            parts.append(f"sphere {{ 0, 1 scale <{stone_r:.4f}, {stone_h:.4f}, {stone_r:.4f}> translate <{u:.3f}, {stone_h * 0.92:.4f}, {v:.3f}> "
                         f"{stone_material(col, style, shades[col])} }}")
            spares.append({"colour": col, "u": round(u, 2), "v": round(v, 2)})
    # table
    table = str(rng.choice(["cloth", "wood"], p=[0.55, 0.45]))
    if table == "cloth":
        cloth = rng.choice([[0.7, 0.69, 0.63], [0.1, 0.18, 0.24], [0.03, 0.1, 0.04], [0.45, 0.08, 0.08],
                            [0.25, 0.25, 0.27], [0.55, 0.5, 0.4], [0.08, 0.08, 0.1]]) * rng.uniform(0.85, 1.15, 3)
        cloth = np.clip(cloth, 0, 1)
        cloth = srgb_to_lin(cloth * 255)
        table_tex = (f"texture {{ pigment {{ granite color_map {{ [0 {rgb(cloth * 0.93)}] [1 {rgb(cloth * 1.05)}] }} scale 0.5 }} "
                     f"normal {{ bumps 0.15 scale 0.08 }} finish {{ ambient 0 diffuse 0.9 }} }}")
        render_info["cloth_rgb"] = [round(float(c), 3) for c in cloth]
    else:
        twood = str(rng.choice([k for k in WOODS if k != wood]))
        table_tex = wood_texture(twood, rng.uniform(0.8, 2.5), rng.uniform(0, 180), rng, False, rng.uniform(0.02, 0.15))
        render_info["table_wood"] = twood
    parts.append(f"plane {{ y, 0 {table_tex} }}")
    # camera
    w_img, h_img = size
    hfov = rng.uniform(60, 72)
    tilt = rng.uniform(0, 40) if rng.random() < 0.85 else rng.uniform(0, 10)
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
    lights = []
    for i in range(int(rng.integers(1, 3))):
        ang = rng.uniform(0, 2 * math.pi)
        el = rng.uniform(45, 80) if i == 0 else rng.uniform(30, 85)
        d = rng.uniform(130, 220)
        pos = np.array([d * math.cos(math.radians(el)) * math.cos(ang), d * math.sin(math.radians(el)),
                        d * math.cos(math.radians(el)) * math.sin(ang)])
        size_cm = rng.uniform(8, 60)
        power = rng.uniform(0.75, 1.05) if i == 0 else rng.uniform(0.2, 0.45)
        lights.append({"pos": pos, "size_cm": size_cm, "power": power})
    wb = str(rng.choice(["neutral", "warm", "cool"]))
    tint = {"neutral": [1.0, 0.97, 0.92], "warm": [1.0, rng.uniform(0.78, 0.88), rng.uniform(0.6, 0.72)],
            "cool": [rng.uniform(0.85, 0.92), rng.uniform(0.94, 0.98), 1.0]}[wb]
    tint = np.array(tint)
    light_src = []
    for li in lights:
        c = tint * li["power"]
        s = li["size_cm"]
        light_src.append(f"light_source {{ {v3(li['pos'])} color {rgb(c)} area_light <{s:.2f}, 0, 0>, <0, 0, {s:.2f}>, 3, 3 adaptive 0 circular orient }}")
    ambient = rng.uniform(0.1, 0.25)
    scene = "\n".join([
        "#version 3.7;",
        "global_settings { assumed_gamma 1.0 max_trace_level 5 ambient_light rgb <1,1,1> }",
        "background { rgb <0.5, 0.5, 0.5> }",
        f"camera {{ perspective location {v3(cam['loc'])} direction {v3(cam['D'] * cam['dlen'])} right {v3(cam['R'])} up {v3(cam['U'])} }}",
        *light_src,
        # soft fill light from the room (sky dome approximation)
        f"light_source {{ <0, 300, 0> color {rgb(tint * ambient)} shadowless }}",
        *parts,
    ])
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
        "board_cm": {"thickness": round(thick, 2), "pitch": round(g["pitch"], 3),
                     "outline": [[round(float(x), 3), round(float(y), 3)] for x, y in outline_cm]},
        "camera": {"hfov_deg": round(hfov, 2), "tilt_deg": round(tilt, 2), "azimuth_deg": round(azim, 2),
                   "roll_deg": round(roll, 2), "cover_linear": round(cover, 3), "distance_cm": round(dist, 1)},
        "scene": {"lights": [{"pos": [round(float(x), 1) for x in li["pos"]], "size_cm": round(li["size_cm"], 1),
                              "power": round(li["power"], 2)} for li in lights],
                  "white_balance": wb, "light_tint": [round(float(x), 3) for x in tint], "table": table,
                  "wood": wood, "ring_cm": round(ring, 3), "grain_deg": round(grain, 1), "specular": round(spec, 3),
                  "varnish": varnish, "stone_style": style, "shades": shades, "spare_stones_on_table": spares,
                  **render_info},
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
    blur = float(rng.uniform(0.4, 1.0))
    f = cv2.GaussianBlur(f, (0, 0), blur)
    noise = float(rng.uniform(0.004, 0.012))
    f += rng.normal(0, noise, f.shape).astype(np.float32)
    out = np.clip(f * 255 + 0.5, 0, 255).astype(np.uint8)
    return out, {"exposure_gain": round(gain, 3), "wb_correction": round(wb_corr, 2), "vignetting": round(vig, 3),
                 "glare": round(glare, 3), "highlight_protection": round(protect, 3), "k1": round(k1, 4), "blur_sigma": round(blur, 2), "noise_sigma": round(noise, 4)}


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

def render_one(game: str, seed: int, out_dir: Path, name: str | None = None, size=(1600, 1200),
               quality: int | None = None, threads: int = 1, render_scale: float = 0.6) -> dict:
    if shutil.which("povray") is None:
        raise RuntimeError("povray is not installed (apt-get install -y povray)")
    rng = np.random.default_rng(seed)
    if rng.random() < 0.5:
        size = (size[1], size[0])
    cells, pos_info = random_position(game, rng)
    scene, gt = build_scene(game, cells, rng, size)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = name or f"{game}_{seed:04d}"
    with tempfile.TemporaryDirectory() as td:
        pov = Path(td) / "scene.pov"
        pov.write_text(scene)
        png = Path(td) / "out.png"
        t0 = time.time()
        rw, rh = round(size[0] * render_scale), round(size[1] * render_scale)
        cmd = ["povray", f"+I{pov}", f"+O{png}", f"+W{rw}", f"+H{rh}", "-D", "-V", "+FN",
               "-A", f"+WT{threads}", "File_Gamma=sRGB", "Display_Gamma=2.2",
               "+L/usr/share/povray-3.7/include"]
        res = subprocess.run(cmd, capture_output=True, text=True, cwd=td)
        secs = time.time() - t0
        if res.returncode != 0 or not png.exists():
            raise RuntimeError("povray failed: " + res.stderr[-800:])
        img = cv2.imread(str(png), cv2.IMREAD_COLOR)
        if img.shape[1] != size[0]:
            img = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
    img, post = postprocess(img, rng, gt["info"]["scene"]["light_tint"])
    q = quality or int(rng.integers(85, 95))
    w, h = size
    corners = distort_points(gt["corners"], post["k1"], w, h)
    cpx = distort_points(gt["cell_px"], post["k1"], w, h)
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
        "render": {"seed": seed, "povray_seconds": round(secs, 2), "jpeg_quality": q,
                   "board_area_fraction": round(area, 3), "position": pos_info, **gt["info"], "post": post,
                   "generator": "vision.photogen"},
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
    ap.add_argument("--quality", type=int, default=None, help="JPEG quality (default: random 85..94)")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args(argv)
    games = list(GAMES) if a.game == "all" else [a.game]
    for g in games:
        for k in range(a.count):
            m = render_one(g, a.seed * 1000 + k, a.out, size=(a.width, a.height), quality=a.quality, threads=a.threads)
            print(f"{m['image']}  {m['render']['povray_seconds']:.1f}s", flush=True)
    return 0
