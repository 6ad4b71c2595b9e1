"""What one Blender photo's board, stones, room and light look like, drawn independently of
the POV-Ray generator's design (its own woods, paints, papers, mats, inks, stone shades,
shapes, lights and props), so a reader tuned on one generator is judged on another's choices.

Every choice is recorded in the ground truth as `render.design`.  The keys the two
generators share mean the same (`board_material`, `line_style`, `line_tone`, `markers`,
`pockets`, `stone_material`, `light`, `table`), so `bench/vision.py --by KEY` splits both
kinds of set alike; the values and how often each comes are this generator's own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

import numpy as np

RGB = tuple[int, int, int]


def as_rgb(values: Iterable[float]) -> RGB:
    """Three plain ints (what JSON and Blender take) from any three numbers; more or fewer raise."""
    r, g, b = (int(v) for v in values)
    return (r, g, b)


# woods as (early wood, late wood) in sRGB 0..255: the grain runs between the two
WOODS_LIGHT: dict[str, tuple[RGB, RGB]] = {
    "beech": ((228, 196, 150), (196, 150, 100)),
    "ash": ((224, 208, 172), (176, 150, 110)),
    "pine": ((236, 202, 142), (200, 150, 88)),
    "elm": ((204, 164, 112), (150, 104, 62)),
    "olive": ((212, 186, 136), (128, 96, 58)),
}
WOODS_DARK: dict[str, tuple[RGB, RGB]] = {
    "rosewood": ((112, 58, 42), (58, 26, 18)),
    "ebonised": ((54, 46, 42), (26, 21, 19)),
    "dark-walnut": ((98, 68, 46), (54, 34, 22)),
    "jatoba": ((134, 62, 36), (84, 34, 20)),
}
PAINTS: dict[str, RGB] = {
    "teal": (30, 110, 115),
    "sage": (150, 170, 128),
    "brick": (165, 70, 50),
    "mustard": (212, 166, 52),
    "charcoal": (50, 52, 56),
    "ivory": (240, 232, 210),
    "sky": (140, 180, 215),
    "plum": (100, 45, 80),
    "gloss-black": (18, 18, 20),
}
PAPERS: dict[str, RGB] = {
    "printer-white": (246, 246, 243),
    "manila": (236, 214, 160),
    "newsprint": (214, 209, 194),
    "blue-card": (120, 150, 200),
    "pink-card": (236, 184, 190),
}
MATS: dict[str, RGB] = {  # felt and vinyl
    "billiard-felt": (30, 100, 55),
    "burgundy-felt": (110, 26, 36),
    "charcoal-felt": (56, 56, 60),
    "sand-felt": (206, 190, 156),
    "navy-felt": (30, 40, 82),
    "black-vinyl": (24, 24, 27),
    "white-vinyl": (232, 232, 229),
    "blue-vinyl": (50, 80, 150),
}
INKS_DARK: dict[str, RGB] = {
    "black": (16, 16, 18),
    "sepia": (72, 46, 30),
    "indigo": (36, 40, 92),
    "oxblood": (100, 26, 26),
    "bottle": (26, 60, 36),
}
INKS_LIGHT: dict[str, RGB] = {
    "white": (246, 246, 241),
    "ivory": (236, 226, 190),
    "maple": (232, 202, 152),
    "silver": (202, 202, 207),
    "gold": (222, 182, 92),
}
# a palette colour's shades: a set's red may be crimson or scarlet, its orange close to it
STONE_SHADES: dict[str, tuple[RGB, ...]] = {
    "black": ((15, 15, 18), (42, 40, 42), (26, 20, 36)),
    "white": ((240, 240, 235), (226, 220, 198), (250, 250, 250)),
    "clear": ((240, 248, 245),),
    "red": ((205, 30, 35), (170, 20, 30), (226, 52, 44), (150, 30, 40)),
    "green": ((30, 150, 70), (20, 110, 60), (92, 170, 80)),
    "blue": ((30, 80, 200), (25, 62, 178), (62, 120, 212)),
    "yellow": ((250, 215, 30), (240, 190, 20), (250, 230, 92)),
    "orange": ((240, 120, 30), (230, 96, 26), (250, 150, 52)),
    "purple": ((128, 48, 168), (105, 38, 150), (160, 75, 195)),
}
LIGHTS = ("sun", "window", "tungsten", "mixed", "ceiling")
PROPS = ("spare-stones", "mug", "coin", "pencil", "die", "book", "phone")
DRAWN = ("morris", "rings")  # boards of lines; the others are boards of pockets
DARK_BOARD = 0.42  # lightness below which a board takes light lines (dark walnut 0.29 does, elm 0.67 does not)


@dataclass(frozen=True)
class Design:
    """Every choice that makes one Blender photo look the way it does."""

    board_material: str  # wood-light | wood-dark | painted | paper | mat
    board_finish: str  # the wood, paint, paper or mat by name
    board_rgb: RGB  # its main colour (a wood: the early wood)
    board_near_stone: str  # "" or the stone colour the board was painted or dyed close to
    line_style: str  # ink | inlay | groove (drawn boards; pocket boards: their print)
    line_tone: str  # dark | light | none (a groove has no colour of its own)
    line_rgb: RGB
    line_width_mm: float
    border: str  # none | single | double
    markers: str  # drawn boards: none | dot | big-dot | ring | hole
    marker_tone: str  # dark | light
    marker_size: float  # in stone radii
    pockets: str  # pocket boards: cap | drilled | cone | printed
    pocket_print: str  # printed pockets: ring | disc
    numbers: str  # sage-stones' column numbers: printed | engraved
    stone_material: str  # glass | frosted | glossy | matte (clear stones are always glass)
    stone_shape: str  # dome (flat-bottomed gem) | lens (both sides round) | disc | pebble (oval)
    light: str  # one of LIGHTS
    table: str  # wood | cloth | stone | similar (of the board's own colour)
    props: tuple[str, ...]  # things beside the board, from PROPS

    def to_dict(self) -> dict:
        out = asdict(self)
        out["props"] = list(self.props)
        return out


def lightness(rgb: RGB) -> float:
    r, g, b = (c / 255.0 for c in rgb)
    return 0.299 * r + 0.587 * g + 0.114 * b


def pick(rng: np.random.Generator, options, p=None) -> str:
    keys = list(options)
    if p is not None:
        p = np.asarray(p, float) / np.sum(p)
    return str(keys[int(rng.choice(len(keys), p=p))])


def shades(rng: np.random.Generator) -> dict[str, RGB]:
    """This set's shade of every palette colour: one of its variants, a little off."""
    out = {}
    for name, variants in STONE_SHADES.items():
        base = np.array(variants[int(rng.integers(len(variants)))], float)
        spread = 4 if name in ("black", "white", "clear") else 9
        out[name] = as_rgb(np.clip(base + rng.normal(0, spread, 3), 0, 255))
    return out


def _board(game: str, colours: list[str], stone_rgb: dict[str, RGB], rng) -> tuple[str, str, RGB, str]:
    """The board's material, finish and colour; now and then dyed close to one of its stones."""
    solid = [c for c in colours if c != "clear"]  # no board is made of clear glass
    if solid and rng.random() < 0.18:
        near = pick(rng, solid)
        material = pick(rng, ["painted", "mat"])
        rgb = as_rgb(np.clip(np.array(stone_rgb[near]) * rng.uniform(0.85, 1.08), 0, 255))
        return material, f"{near}-like", rgb, near
    material = pick(rng, ["wood-light", "wood-dark", "painted", "paper", "mat"], p=[0.28, 0.22, 0.2, 0.15, 0.15])
    table = {
        "wood-light": {k: v[0] for k, v in WOODS_LIGHT.items()},
        "wood-dark": {k: v[0] for k, v in WOODS_DARK.items()},
        "painted": PAINTS,
        "paper": PAPERS,
        "mat": MATS,
    }[material]
    finish = pick(rng, table)
    return material, finish, table[finish], ""


def _contrary(rgb: RGB) -> str:
    """The tone that shows on a surface of this colour."""
    return "light" if lightness(rgb) < DARK_BOARD else "dark"


def _ink(tone: str, rng) -> RGB:
    inks = INKS_LIGHT if tone == "light" else INKS_DARK
    return inks[pick(rng, inks)]


def _lines(material: str, board_rgb: RGB, rng) -> tuple[str, str, RGB]:
    """A drawing's style, tone and colour: mostly the tone that shows on the board, now and then
    the other (a dark line on a mid-brown wood, a cream one on a pale paint)."""
    carvable = material in ("wood-light", "wood-dark", "painted")
    style = pick(rng, ["ink", "inlay", "groove"], p=[0.5, 0.28, 0.22] if carvable else [1, 0, 0])
    if style == "groove":
        return style, "none", board_rgb
    tone = _contrary(board_rgb)
    if rng.random() < 0.12:
        tone = "dark" if tone == "light" else "light"
    return style, tone, _ink(tone, rng)


def sample_design(game: str, colours: list[str], rng: np.random.Generator) -> tuple[Design, dict[str, RGB]]:
    """One photo's design, given the colours its position uses, and the set's stone shades."""
    stone_rgb = shades(rng)
    material, finish, board_rgb, near = _board(game, colours, stone_rgb, rng)
    carvable = material in ("wood-light", "wood-dark", "painted")
    style, tone, line_rgb = _lines(material, board_rgb, rng)
    width = round(float(rng.uniform(1.0, 6.0)), 2)
    border = pick(rng, ["none", "single", "double"], p=[0.5, 0.3, 0.2])
    markers, marker_size, pockets, pocket_print, numbers = "none", 0.0, "", "", ""
    marker_tone = _contrary(board_rgb) if tone == "none" else tone
    if game in DRAWN:
        markers = pick(
            rng,
            ["none", "dot", "big-dot", "ring", "hole"],
            p=[0.24, 0.24, 0.22, 0.15, 0.15] if carvable else [0.28, 0.28, 0.26, 0.18, 0.0],
        )
        if markers == "big-dot" and rng.random() < 0.3:
            marker_tone = "dark" if marker_tone == "light" else "light"
        low, high = {
            "none": (0, 0),
            "dot": (0.15, 0.4),
            "big-dot": (0.7, 1.05),
            "ring": (0.8, 1.15),
            "hole": (0.3, 0.6),
        }[markers]
        marker_size = round(float(rng.uniform(low, high)), 3)
    else:
        pockets = pick(
            rng, ["cap", "drilled", "cone", "printed"], p=[0.45, 0.25, 0.15, 0.15] if carvable else [0, 0, 0, 1]
        )
        pocket_print = pick(rng, ["ring", "disc"]) if pockets == "printed" else ""
        if pockets == "printed" and style == "groove":  # a print is ink: grooves would leave it unseen
            tone = _contrary(board_rgb)
            style, line_rgb = "ink", _ink(tone, rng)
        width = round(float(rng.uniform(1.0, 3.0)), 2)
        if game == "sage-stones":
            numbers = "engraved" if style == "groove" else "printed"
    stone_material = pick(rng, ["glass", "frosted", "glossy", "matte"], p=[0.35, 0.1, 0.35, 0.2])
    if game == "three-stones" and rng.random() < 0.5:
        stone_material = "glass"
    stone_shape = pick(rng, ["dome", "lens", "disc", "pebble"], p=[0.35, 0.25, 0.2, 0.2])
    light = pick(rng, LIGHTS, p=[0.25, 0.25, 0.15, 0.15, 0.2])
    table = pick(rng, ["wood", "cloth", "stone", "similar"], p=[0.35, 0.3, 0.15, 0.2])
    props: tuple[str, ...] = ()
    if rng.random() < 0.5:
        props = tuple(sorted(str(p) for p in rng.choice(PROPS, size=int(rng.integers(1, 4)), replace=False)))
    design = Design(
        board_material=material,
        board_finish=finish,
        board_rgb=as_rgb(board_rgb),
        board_near_stone=near,
        line_style=style,
        line_tone=tone,
        line_rgb=as_rgb(line_rgb),
        line_width_mm=width,
        border=border,
        markers=markers,
        marker_tone=marker_tone,
        marker_size=marker_size,
        pockets=pockets,
        pocket_print=pocket_print,
        numbers=numbers,
        stone_material=stone_material,
        stone_shape=stone_shape,
        light=light,
        table=table,
        props=props,
    )
    return design, stone_rgb
