"""The POV-Ray objects of one photo: the board of its design, the stones, the table, the light.

All lengths are centimetres; POV-Ray's y is up and the board's (x, y) lie on its x-z plane.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine import get_game

from ..layouts import Layout, drawn_lines
from .design import WOODS, Design

FONTS = ("timrom.ttf", "crystal.ttf", "cyrvetic.ttf")


def v3(p) -> str:
    return "<%.4f, %.4f, %.4f>" % tuple(p)


def rgb(c) -> str:
    return "rgb <%.4f, %.4f, %.4f>" % tuple(c)


def srgb_to_lin(c):
    c = np.asarray(c, float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def wood_texture(name: str, ring: float, grain_deg: float, rng, varnish: bool, spec: float) -> str:
    a, b = WOODS[name]
    jitter = rng.uniform(0.93, 1.05, 3)
    a = srgb_to_lin(np.clip(np.array(a) * jitter, 0, 1) * 255)
    b = srgb_to_lin(np.clip(np.array(b) * jitter, 0, 1) * 255)
    tx, ty, tz = rng.uniform(-50, 50, 3)
    finish = (
        f"finish {{ ambient 0 diffuse 0.85 specular {spec:.3f} roughness {0.02 if varnish else 0.08:.3f} "
        f"{'reflection 0.03' if varnish else ''} }}"
    )
    return (
        f"texture {{ pigment {{ wood turbulence {rng.uniform(0.03, 0.12):.3f} octaves 3 "
        f"color_map {{ [0 {rgb(a)}] [0.55 {rgb(a * 0.97)}] [0.8 {rgb(b)}] [1 {rgb(a)}] }} "
        f"scale <{ring:.3f}, {ring:.3f}, 40> translate <{tx:.2f}, {ty:.2f}, {tz:.2f}> rotate y*{grain_deg:.1f} }} "
        f"normal {{ wood 0.08 scale <{ring:.3f}, {ring:.3f}, 40> translate <{tx:.2f}, {ty:.2f}, {tz:.2f}> rotate y*{grain_deg:.1f} }} "
        f"{finish} }}"
    )


def flat_texture(colour_srgb, rng, kind: str) -> str:
    """Paint, paper or a cloth/vinyl mat: one colour, the finish and surface of its kind."""
    c = srgb_to_lin(np.clip(np.asarray(colour_srgb, float) * rng.uniform(0.95, 1.05, 3), 0, 255))
    if kind == "painted":
        gloss = rng.uniform(0.1, 0.6)
        return (
            f"texture {{ pigment {{ {rgb(c)} }} normal {{ bumps 0.02 scale 0.5 }} "
            f"finish {{ ambient 0 diffuse 0.8 specular {gloss:.2f} roughness 0.02 }} }}"
        )
    if kind == "paper":
        return (
            f"texture {{ pigment {{ granite color_map {{ [0 {rgb(c * 0.97)}] [1 {rgb(c)}] }} scale 0.2 }} "
            f"finish {{ ambient 0 diffuse 0.92 specular 0.02 roughness 0.2 }} }}"
        )
    return (
        f"texture {{ pigment {{ granite color_map {{ [0 {rgb(c * 0.9)}] [1 {rgb(c * 1.04)}] }} scale 0.1 }} "
        f"normal {{ bumps {rng.uniform(0.15, 0.4):.2f} scale 0.05 }} "
        f"finish {{ ambient 0 diffuse 0.9 specular {rng.uniform(0.0, 0.15):.2f} roughness 0.1 }} }}"
    )


def ink_texture(colour_srgb, gloss: float = 0.0) -> str:
    return (
        f"texture {{ pigment {{ {rgb(srgb_to_lin(colour_srgb))} }} "
        f"finish {{ ambient 0 diffuse 0.7 specular {gloss:.2f} roughness 0.03 }} }}"
    )


def stone_material(colour: str, material: str, shade, glass_filter: float = 0.04, clear_fade_cm: float = 2.0) -> str:
    """A stone's material; glass of a colour other than black and white lets `glass_filter` of the
    light through, tinted (crossing it twice, a lighter tint shows the shade), and clear glass takes
    its faint tint over `clear_fade_cm` of glass: the board shows through both, refracted."""
    c = srgb_to_lin(shade)
    if colour == "clear":
        return (
            "material { texture { pigment { rgbf <%.3f, %.3f, %.3f, 0.92> } "
            "finish { ambient 0 diffuse 0.05 specular 0.9 roughness 0.003 reflection { 0.04, 0.6 fresnel } conserve_energy } } "
            "interior { ior 1.5 fade_distance %.2f fade_power 1 fade_color <0.80, 0.95, 0.88> } }"
        ) % (*np.clip(c * 1.02, 0, 1), clear_fade_cm)
    if material == "glass":
        see_through = colour not in ("black", "white")
        f = glass_filter if see_through else 0.04
        tint = np.clip(c**0.6, 0, 1) if see_through and f > 0.04 else c
        return (
            "material { texture { pigment { rgbf <%.3f, %.3f, %.3f, %.3f> } "
            "finish { ambient 0 diffuse %.3f specular 0.8 roughness 0.004 reflection { 0.03, 0.3 fresnel } conserve_energy } } "
            "interior { ior 1.5 } }"
        ) % (*tint, f, 0.55 * (1.0 - f) / 0.96)
    if material == "glossy":
        return (
            "material { texture { pigment { %s } finish { ambient 0 diffuse 0.8 specular 0.5 roughness 0.01 } } }"
            % rgb(c)
        )
    return (
        "material { texture { pigment { %s } finish { ambient 0 diffuse 0.85 specular 0.15 roughness 0.05 } } }"
        % rgb(c)
    )


def stone_shape(shape: str, r: float, h: float, x: float, y_rest: float, z: float) -> str:
    """A domed stone (flattened sphere) or a flat disc with rounded edges, resting at y_rest."""
    if shape == "disc":
        return (
            f"superellipsoid {{ <1, 0.25> rotate x*90 scale <{r:.4f}, {h / 2:.4f}, {r:.4f}> "
            f"translate <{x:.4f}, {y_rest + h / 2:.4f}, {z:.4f}>"
        )
    return f"sphere {{ 0, 1 scale <{r:.4f}, {h:.4f}, {r:.4f}> translate <{x:.4f}, {y_rest + h * 0.92:.4f}, {z:.4f}>"


@dataclass
class Board:
    """The board's objects and what the stones need to know of it."""

    parts: list[str]
    top_y: float
    rest_y: float  # where a stone's bottom rests (in a pocket: below the top)
    stone_r: float
    stone_h: float
    info: dict = field(default_factory=dict)


def _segment_box(a, b, half_width: float, y0: float, y1: float) -> str:
    (ax, az), (bx, bz) = a, b
    x0, x1 = sorted((ax, bx))
    z0, z1 = sorted((az, bz))
    return (
        f"box {{ <{x0 - half_width:.4f}, {y0:.4f}, {z0 - half_width:.4f}>, "
        f"<{x1 + half_width:.4f}, {y1:.4f}, {z1 + half_width:.4f}> }}"
    )


def _segment(a, b, half_width: float, y0: float, y1: float) -> str:
    """A straight stroke of any direction from a to b on the board (x, z), ends squared."""
    (ax, az), (bx, bz) = a, b
    length = math.hypot(bx - ax, bz - az)
    turn = -math.degrees(math.atan2(bz - az, bx - ax))  # POV's rotate y carries +x toward -z
    return (
        f"box {{ <{-half_width:.4f}, {y0:.4f}, {-half_width:.4f}>, <{length + half_width:.4f}, {y1:.4f}, {half_width:.4f}> "
        f"rotate y*{turn:.4f} translate <{ax:.4f}, 0, {az:.4f}> }}"
    )


def _ring(cx: float, cz: float, radius: float, half_width: float, y: float, flat: bool = True) -> str:
    squash = " scale <1, 0.05, 1>" if flat else ""
    return f"torus {{ {radius:.4f}, {half_width:.4f}{squash} translate <{cx:.4f}, {y:.4f}, {cz:.4f}> }}"


def board(
    game: str, layout: Layout, design: Design, unit: float, outline_cm: np.ndarray, rng: np.random.Generator
) -> Board:
    """The board body of the design's material, its lines or pockets and markers."""
    thick = {"paper": rng.uniform(0.03, 0.12), "mat": rng.uniform(0.2, 0.5)}.get(
        design.board_material, rng.uniform(1.4, 2.4)
    )
    top_y = float(thick)
    if design.board_material.startswith("wood"):
        surface = wood_texture(
            design.board_finish,
            rng.uniform(0.3, 0.9),
            float(rng.choice([0, 90])) + rng.uniform(-3, 3),
            rng,
            bool(rng.random() < 0.6),
            rng.uniform(0.05, 0.5),
        )
    else:
        surface = flat_texture(design.board_rgb, rng, design.board_material)
    poly = ", ".join("<%.4f, %.4f>" % (x, y) for x, y in list(outline_cm) + [outline_cm[0]])
    body = f"prism {{ linear_sweep linear_spline 0, {top_y:.4f}, {len(outline_cm) + 1}, {poly} }}"
    xy_cm = layout.xy * unit
    cut: list[str] = []  # carved out of the body (pockets, grooves, holes)
    inked: list[str] = []  # drawn on the top face in the line colour
    marked: list[str] = []  # markers in their own tone
    info: dict = {}
    if game in ("three-stones", "sage-stones"):
        pr = unit * rng.uniform(0.37, 0.42)
        if design.pockets == "cap":
            depth = rng.uniform(0.3, 0.45)
            sr = (pr * pr + depth * depth) / (2 * depth)  # spherical cap: the sphere of that radius and depth
            cut += [f"sphere {{ <{x:.4f}, {top_y - depth + sr:.4f}, {y:.4f}>, {sr:.4f} }}" for x, y in xy_cm]
            rest_y = top_y - depth * 0.55
        elif design.pockets == "drilled":
            depth = rng.uniform(0.25, 0.45)
            cut += [
                f"cylinder {{ <{x:.4f}, {top_y - depth:.4f}, {y:.4f}>, <{x:.4f}, {top_y + 0.1:.4f}, {y:.4f}>, {pr:.4f} }}"
                for x, y in xy_cm
            ]
            rest_y = top_y - depth * 0.3
        else:  # printed on a flat board or mat: circles, or discs filled with the ink
            depth = 0.0
            hw = unit * rng.uniform(0.015, 0.04)
            if design.pocket_print == "disc":
                inked += [
                    f"cylinder {{ <{x:.4f}, {top_y - 0.01:.4f}, {y:.4f}>, <{x:.4f}, {top_y + 0.001:.4f}, {y:.4f}>, {pr:.4f} }}"
                    for x, y in xy_cm
                ]
            else:
                inked += [_ring(x, y, pr, hw, top_y + 0.001) for x, y in xy_cm]
            rest_y = top_y
        info["pocket"] = {"radius_cm": round(pr, 3), "depth_cm": round(depth, 3)}
        if game == "sage-stones":  # the engraved column numbers in the wide margin below row 1
            font = str(rng.choice(FONTS))
            nh = unit * rng.uniform(0.55, 0.7)
            ybase = -5.0 * unit - 0.35 * unit - nh / 2
            for col in range(3, 10):
                x = (col - 6) * unit
                inked.append(
                    f'text {{ ttf "{font}" "{col}" 1, 0 scale {nh:.3f} translate <-0.28*{nh:.3f}, -0.35*{nh:.3f}, 0> '
                    f"rotate x*90 translate <{x:.4f}, {top_y + 0.003:.4f}, {ybase + nh / 2:.4f}> }}"
                )
            info.update(font=font, number_height_cm=round(nh, 3))
        stone_r = pr * rng.uniform(1.0, 1.12)
        stone_h = stone_r * rng.uniform(0.55, 0.75)
    else:
        lw = design.line_width_mm / 10.0
        hw = lw / 2
        groove = design.line_style == "groove"
        depth = rng.uniform(0.04, 0.12)
        y0, y1 = (top_y - depth, top_y + 0.1) if groove else (top_y - 0.01, top_y + 0.002)
        target = cut if groove else inked
        if game == "morris":
            stone_r = unit * rng.uniform(0.26, 0.33)
            stone_h = stone_r * rng.uniform(0.4, 0.6)
            target += [_segment_box(a * unit, b * unit, hw, y0, y1) for a, b in drawn_lines(layout)]
            if design.border:
                b = outline_cm[1][0] * rng.uniform(0.9, 0.95)
                for s2 in (b, b - 2.5 * lw):
                    c = [(-s2, -s2), (s2, -s2), (s2, s2), (-s2, s2)]
                    target += [_segment_box(c[i], c[(i + 1) % 4], hw * 0.7, y0, y1) for i in range(4)]
        else:
            stone_r = unit * rng.uniform(0.23, 0.27)
            stone_h = stone_r * rng.uniform(0.45, 0.6)
            clip = ", ".join("<%.4f, %.4f>" % (x, y) for x, y in list(outline_cm * 0.995) + [outline_cm[0] * 0.995])
            yc = top_y + 0.0005  # a flattened ring's upper half shows above the top face; a groove's tube cuts it
            circles = get_game(game).geometry().circles
            for circle in circles:
                if circle.full:
                    target.append(
                        _ring(circle.x * unit, circle.y * unit, circle.radius * unit, hw, yc, flat=not groove)
                    )
            for circle in circles:  # the edge circles are cut at the board's edge
                if circle.full:
                    continue
                cx, cz, rr = circle.x * unit, circle.y * unit, circle.radius * unit
                target.append(
                    f"intersection {{ {_ring(cx, cz, rr, hw, yc, flat=not groove)} "
                    f"prism {{ linear_sweep linear_spline -1, 5, {len(outline_cm) + 1}, {clip} }} "
                    f"bounded_by {{ box {{ <{cx - rr - lw:.3f}, {yc - 0.2:.3f}, {cz - rr - lw:.3f}>, "
                    f"<{cx + rr + lw:.3f}, {yc + 0.2:.3f}, {cz + rr + lw:.3f}> }} }} }}"
                )
            if design.border:
                inner = outline_cm * rng.uniform(0.95, 0.975)
                target += [_segment(inner[i], inner[(i + 1) % len(inner)], hw * 0.7, y0, y1) for i in range(len(inner))]
        mr = design.marker_size * stone_r
        for x, y in xy_cm:
            if design.markers in ("dot", "big-dot"):
                marked.append(
                    f"cylinder {{ <{x:.4f}, {top_y - 0.01:.4f}, {y:.4f}>, <{x:.4f}, {top_y + 0.0015:.4f}, {y:.4f}>, {mr:.4f} }}"
                )
            elif design.markers == "ring":
                inked.append(_ring(x, y, mr, max(hw * 0.8, 0.04), top_y + 0.0005))
            elif design.markers == "hole":
                cut.append(
                    f"cylinder {{ <{x:.4f}, {top_y - 0.4:.4f}, {y:.4f}>, <{x:.4f}, {top_y + 0.1:.4f}, {y:.4f}>, {mr:.4f} }}"
                )
        rest_y = top_y
        info.update(line_width_cm=round(lw, 3), groove_depth_cm=round(depth, 3) if groove else 0.0)
    parts = [f"difference {{ {body} {' '.join(cut)} {surface} }}" if cut else f"object {{ {body} {surface} }}"]
    if inked:
        parts.append(
            f"union {{ {' '.join(inked)} {ink_texture(design.line_rgb, 0.3 if design.line_style == 'inlay' else 0.0)} }}"
            if len(inked) > 1
            else f"object {{ {inked[0]} {ink_texture(design.line_rgb)} }}"
        )
    if marked:
        tone = (
            design.line_rgb
            if design.marker_tone == design.line_tone
            else ((235, 232, 225) if design.marker_tone == "light" else (25, 25, 28))
        )
        parts.append(
            f"union {{ {' '.join(marked)} {ink_texture(tone)} }}"
            if len(marked) > 1
            else f"object {{ {marked[0]} {ink_texture(tone)} }}"
        )
        info["marker_rgb"] = [int(c) for c in tone]
    info["thickness_cm"] = round(top_y, 3)
    return Board(parts, top_y, float(rest_y), float(stone_r), float(stone_h), info)


def table(design: Design, rng: np.random.Generator) -> tuple[str, dict]:
    """The table under the board: a cloth, another wood, or one of the board's own colour."""
    if design.table == "wood" or (design.table == "similar" and design.board_material.startswith("wood")):
        wood = (
            design.board_finish
            if design.table == "similar"
            else str(rng.choice([k for k in WOODS if k != design.board_finish]))
        )
        return wood_texture(wood, rng.uniform(0.8, 2.5), rng.uniform(0, 180), rng, False, rng.uniform(0.02, 0.15)), {
            "table_wood": wood
        }
    if design.table == "similar":
        cloth = np.clip(np.asarray(design.board_rgb, float) / 255.0 * rng.uniform(0.9, 1.1, 3), 0, 1)
    else:
        cloth = rng.choice(
            [
                [0.7, 0.69, 0.63],
                [0.1, 0.18, 0.24],
                [0.03, 0.1, 0.04],
                [0.45, 0.08, 0.08],
                [0.25, 0.25, 0.27],
                [0.55, 0.5, 0.4],
                [0.08, 0.08, 0.1],
            ]
        ) * rng.uniform(0.85, 1.15, 3)
    lin = srgb_to_lin(np.clip(cloth, 0, 1) * 255)
    tex = (
        f"texture {{ pigment {{ granite color_map {{ [0 {rgb(lin * 0.93)}] [1 {rgb(lin * 1.05)}] }} scale 0.5 }} "
        f"normal {{ bumps 0.15 scale 0.08 }} finish {{ ambient 0 diffuse 0.9 }} }}"
    )
    return tex, {"cloth_rgb": [round(float(c), 3) for c in lin]}


def clutter(radius_cm: float, rng: np.random.Generator) -> tuple[list[str], list[str]]:
    """Everyday things beside the board: a cup, a coin, a pencil."""
    parts, names = [], []
    for kind in rng.choice(["cup", "coin", "pencil"], size=int(rng.integers(1, 3)), replace=False):
        ang = rng.uniform(0, 2 * math.pi)
        d = radius_cm * rng.uniform(1.2, 1.6)
        x, z = d * math.cos(ang), d * math.sin(ang)
        if kind == "cup":
            r = rng.uniform(3.5, 4.5)
            colour = srgb_to_lin(rng.uniform(40, 240, 3))
            parts.append(
                f"difference {{ cylinder {{ <{x:.2f}, 0, {z:.2f}>, <{x:.2f}, 9, {z:.2f}>, {r:.2f} }} "
                f"cylinder {{ <{x:.2f}, 0.6, {z:.2f}>, <{x:.2f}, 9.5, {z:.2f}>, {r - 0.4:.2f} }} "
                f"texture {{ pigment {{ {rgb(colour)} }} finish {{ ambient 0 diffuse 0.8 specular 0.4 roughness 0.01 }} }} }}"
            )
        elif kind == "coin":
            parts.append(
                f"cylinder {{ <{x:.2f}, 0, {z:.2f}>, <{x:.2f}, 0.2, {z:.2f}>, {rng.uniform(1.0, 1.3):.2f} "
                "texture { pigment { rgb <0.75, 0.6, 0.35> } finish { ambient 0 diffuse 0.4 metallic specular 0.7 roughness 0.02 reflection 0.2 } } }"
            )
        else:
            a2 = rng.uniform(0, 2 * math.pi)
            dx, dz = 8.5 * math.cos(a2), 8.5 * math.sin(a2)
            parts.append(
                f"cylinder {{ <{x - dx:.2f}, 0.4, {z - dz:.2f}>, <{x + dx:.2f}, 0.4, {z + dz:.2f}>, 0.4 "
                "texture { pigment { rgb <0.9, 0.6, 0.05> } finish { ambient 0 diffuse 0.8 specular 0.3 } } }"
            )
        names.append(str(kind))
    return parts, names


def lights(design: Design, rng: np.random.Generator) -> tuple[list[str], np.ndarray, dict]:
    """The light of the design's kind: its sources, their tint and what was chosen."""
    specs = []  # (position, area size in cm or 0 for a hard point light, power, tint)
    warm = np.array([1.0, rng.uniform(0.74, 0.84), rng.uniform(0.52, 0.66)])
    cool = np.array([rng.uniform(0.85, 0.92), rng.uniform(0.94, 0.98), 1.0])
    neutral = np.array([1.0, 0.97, 0.92])

    def at(el_deg: float, dist: float) -> np.ndarray:
        ang = rng.uniform(0, 2 * math.pi)
        el = math.radians(el_deg)
        return np.array([dist * math.cos(el) * math.cos(ang), dist * math.sin(el), dist * math.cos(el) * math.sin(ang)])

    if design.light == "sun":
        specs.append((at(rng.uniform(35, 75), 2000), 0.0, rng.uniform(0.9, 1.15), neutral))
        tint, ambient = neutral, rng.uniform(0.2, 0.35)
    elif design.light == "window":
        specs.append((at(rng.uniform(20, 45), 180), rng.uniform(80, 150), rng.uniform(0.85, 1.1), cool))
        tint, ambient = cool, rng.uniform(0.12, 0.25)
    elif design.light == "tungsten":
        for i in range(int(rng.integers(1, 3))):
            specs.append(
                (
                    at(rng.uniform(50, 85), rng.uniform(80, 160)),
                    rng.uniform(8, 30),
                    rng.uniform(0.75, 1.0) if i == 0 else rng.uniform(0.2, 0.4),
                    warm,
                )
            )
        tint, ambient = warm, rng.uniform(0.08, 0.18)
    elif design.light == "mixed":
        specs.append((at(rng.uniform(45, 80), 150), rng.uniform(10, 40), rng.uniform(0.6, 0.85), warm))
        specs.append((at(rng.uniform(20, 50), 180), rng.uniform(60, 120), rng.uniform(0.35, 0.6), cool))
        tint, ambient = (warm + cool) / 2, rng.uniform(0.1, 0.2)
    else:  # a lamp or two over the table
        wb = [neutral, warm, cool][int(rng.integers(3))]
        for i in range(int(rng.integers(1, 3))):
            specs.append(
                (
                    at(rng.uniform(45, 80) if i == 0 else rng.uniform(30, 85), rng.uniform(130, 220)),
                    rng.uniform(8, 60),
                    rng.uniform(0.75, 1.05) if i == 0 else rng.uniform(0.2, 0.45),
                    wb,
                )
            )
        tint, ambient = wb, rng.uniform(0.1, 0.25)
    out = []
    for pos, size_cm, power, colour in specs:
        c = colour * power
        area = (
            f" area_light <{size_cm:.2f}, 0, 0>, <0, 0, {size_cm:.2f}>, 3, 3 adaptive 0 circular orient"
            if size_cm
            else ""
        )
        out.append(f"light_source {{ {v3(pos)} color {rgb(c)}{area} }}")
    # soft fill light from the room (sky dome approximation)
    out.append(f"light_source {{ <0, 300, 0> color {rgb(tint * ambient)} shadowless }}")
    info = {
        "lights": [
            {"pos": [round(float(x), 1) for x in p], "size_cm": round(float(s), 1), "power": round(float(w), 2)}
            for p, s, w, _ in specs
        ],
        "light_tint": [round(float(x), 3) for x in tint],
        "ambient": round(float(ambient), 3),
    }
    return out, tint, info
