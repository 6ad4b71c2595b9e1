"""What a board, its stones and the room look like: the design of one generated photo.

Real boards come in every style, so the generator draws each photo's design from wide
families -- the lines' polarity (dark ink, light inlay, engraved grooves) and width, the
point or pocket markers, the board's material, the stones' material and shape, the kind of
light -- and records every choice in the ground truth (`render.design`), so a benchmark can
hold a whole family out of training and test on it alone (`vision.photogen.train --without`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

import numpy as np

WOODS_LIGHT = {  # light, dark ring colours (sRGB 0..1)
    "birch": ((0.93, 0.82, 0.62), (0.80, 0.64, 0.42)),
    "maple": ((0.95, 0.80, 0.55), (0.82, 0.60, 0.35)),
    "oak": ((0.80, 0.62, 0.40), (0.55, 0.38, 0.20)),
    "teak": ((0.72, 0.46, 0.24), (0.50, 0.28, 0.12)),
    "cherry": ((0.70, 0.38, 0.22), (0.45, 0.20, 0.10)),
    "bamboo": ((0.92, 0.80, 0.52), (0.78, 0.62, 0.36)),
}
WOODS_DARK = {
    "walnut": ((0.50, 0.34, 0.22), (0.30, 0.18, 0.10)),
    "wenge": ((0.32, 0.22, 0.16), (0.16, 0.10, 0.07)),
    "mahogany": ((0.45, 0.20, 0.12), (0.28, 0.11, 0.06)),
    "smoked-oak": ((0.36, 0.28, 0.20), (0.20, 0.15, 0.10)),
}
WOODS = {**WOODS_LIGHT, **WOODS_DARK}
PAINTS = {  # painted boards in solid colours (sRGB 0..255)
    "black": (28, 28, 30),
    "forest": (30, 80, 50),
    "navy": (28, 40, 80),
    "red": (150, 35, 35),
    "cream": (236, 226, 200),
    "white": (240, 240, 236),
    "grey": (120, 122, 125),
    "ochre": (200, 150, 60),
}
PAPERS = {"white": (244, 243, 238), "cream": (238, 228, 200), "kraft": (190, 160, 120), "grey": (200, 200, 200)}
MATS = {
    "green-felt": (40, 110, 60),
    "blue-felt": (40, 70, 130),
    "grey-vinyl": (110, 112, 115),
    "black-vinyl": (35, 35, 38),
    "red-felt": (140, 40, 45),
    "beige-felt": (200, 185, 150),
}
INKS_DARK = {"black": (20, 20, 26), "brown": (60, 30, 18), "dark-red": (90, 28, 20), "navy": (30, 32, 80)}
INKS_LIGHT = {"white": (236, 234, 228), "cream": (230, 215, 175), "gold": (215, 175, 80), "pale-wood": (225, 190, 140)}
# a colour's shade varies between sets: close pairs (red / dark red / orange, blue / purple) happen
STONE_SHADES = {
    "black": ((22, 22, 26), (35, 32, 30)),
    "white": ((232, 230, 222), (245, 242, 232), (220, 220, 214)),
    "clear": ((235, 245, 240),),
    "red": ((200, 25, 30), (150, 18, 28), (215, 45, 40)),
    "green": ((32, 140, 62), (40, 110, 50), (60, 160, 90)),
    "blue": ((30, 72, 190), (36, 50, 150), (40, 100, 200)),
    "yellow": ((250, 210, 25), (240, 190, 40)),
    "orange": ((236, 112, 28), (242, 140, 40), (220, 88, 30)),
    "purple": ((120, 48, 160), (95, 40, 135), (150, 60, 170)),
}
LIGHTS = ("sun", "window", "tungsten", "mixed", "lamp")
POCKET_PRINTS = ("ring", "disc")  # a printed pocket: its outline, or a disc filled with the ink
PRINT_STREAM = 1  # the spawn key of the random stream the print style is drawn from (`_pocket_print`)
GLASS_STREAM = 2  # ... and of the stream the glass's clarity is drawn from (`_glass`)
DENSE_GLASS = 0.04  # filter of the first glass: coloured glass that lets almost no board through
TINTED_GLASS = (0.3, 0.85)  # see-through coloured glass, as a real set's (Blender's glass lets all through)
GREEN_FADE_CM = 2.0  # clear glass of the first generator: a green tint within 2 cm of glass
CLEAR_FADE_CM = (4.0, 30.0)  # nearly colourless clear glass shows the board through it, barely darker
OLD_GLASS_SHARE = 0.35  # of designs keep the first generator's glass


@dataclass(frozen=True)
class Design:
    """Every choice that makes one photo's board, stones and light look the way they do."""

    board_material: str  # wood-light | wood-dark | painted | paper | mat
    board_finish: str  # the wood, paint, paper or mat by name
    board_rgb: tuple[int, int, int]  # its main colour (sRGB; wood: the light ring colour)
    line_style: str  # ink | inlay | groove (drawn boards); "" on pocket boards
    line_tone: str  # dark | light | none (a groove has no colour of its own)
    line_rgb: tuple[int, int, int]
    line_width_mm: float
    border: bool  # a border line drawn near the edge
    markers: str  # drawn boards: none | dot | big-dot | ring | hole
    marker_tone: str  # dark | light (dots)
    marker_size: float  # in stone radii
    pockets: str  # pocket boards: cap | drilled | printed
    pocket_print: str  # printed pockets: ring | disc ("" for any other pocket)
    stone_material: str  # glass | glossy | matte
    glass_filter: float  # share of the light coloured glass stones let through (not black or white)
    clear_fade_cm: float  # glass depth over which clear stones take their faint tint: long is colourless
    stone_shape: str  # dome | disc
    light: str  # one of LIGHTS
    table: str  # cloth | wood | similar (of the board's own colour)
    clutter: bool  # everyday objects on the table beside the board

    def to_dict(self) -> dict:
        return asdict(self)


def _lightness(rgb) -> float:
    r, g, b = (float(c) / 255.0 for c in rgb)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _rgb(values: Iterable[float]) -> tuple[int, int, int]:
    """Three plain ints (what JSON and POV-Ray take) from any three numbers; more or fewer raise."""
    r, g, b = (int(v) for v in values)
    return (r, g, b)


def _pick(rng: np.random.Generator, options, p=None):
    keys = list(options)
    return keys[int(rng.choice(len(keys), p=p))]


def _pocket_print(rng: np.random.Generator) -> str:
    """How printed pockets are printed, drawn from a stream of the seed's own that `rng` never
    reaches: the print style came after the other choices, and every seed keeps them as they were."""
    return _pick(_own_stream(rng, PRINT_STREAM), POCKET_PRINTS)


def _own_stream(rng: np.random.Generator, key: int) -> np.random.Generator:
    """A stream of the seed's own that `rng` never reaches: choices that came after the others
    are drawn from it, and every seed keeps its other choices as they were."""
    seeded = rng.bit_generator.seed_seq
    if not isinstance(seeded, np.random.SeedSequence):
        raise TypeError("a design's generator is made from a seed (np.random.default_rng(seed))")
    return np.random.default_rng(np.random.SeedSequence(seeded.entropy, spawn_key=(key,)))


def _glass(rng: np.random.Generator) -> tuple[float, float]:
    """How clear the design's glass is (`glass_filter`, `clear_fade_cm`): a share of designs keep
    the first generator's dense coloured glass and green-tinted clear glass."""
    own = _own_stream(rng, GLASS_STREAM)
    if own.random() < OLD_GLASS_SHARE:
        return DENSE_GLASS, GREEN_FADE_CM
    return round(float(own.uniform(*TINTED_GLASS)), 3), round(float(own.uniform(*CLEAR_FADE_CM)), 1)


def sample_design(game: str, rng: np.random.Generator) -> Design:
    """One photo's design: every family of the wide world of real boards has its share."""
    drawn = game in ("morris", "rings")
    pockets_game = not drawn
    mats = ["wood-light", "wood-dark", "painted", "paper", "mat"]
    material = _pick(rng, mats, p=[0.4, 0.2, 0.15, 0.12, 0.13])
    if material == "wood-light":
        finish = _pick(rng, WOODS_LIGHT)
        board_rgb = _rgb(255 * c for c in WOODS_LIGHT[finish][0])
    elif material == "wood-dark":
        finish = _pick(rng, WOODS_DARK)
        board_rgb = _rgb(255 * c for c in WOODS_DARK[finish][0])
    elif material == "painted":
        finish = _pick(rng, PAINTS)
        board_rgb = PAINTS[finish]
    elif material == "paper":
        finish = _pick(rng, PAPERS)
        board_rgb = PAPERS[finish]
    else:
        finish = _pick(rng, MATS)
        board_rgb = MATS[finish]
    dark_board = _lightness(board_rgb) < 0.45
    line_style, line_tone, line_rgb, width, border = "", "none", (0, 0, 0), 0.0, False
    markers, marker_tone, marker_size, pockets = "none", "dark", 0.0, ""
    if drawn:
        carvable = material in ("wood-light", "wood-dark", "painted")
        line_style = _pick(rng, ["ink", "inlay", "groove"], p=[0.55, 0.25, 0.2] if carvable else [1.0, 0.0, 0.0])
        if line_style == "groove":
            line_tone = "none"
        elif line_style == "inlay" or (dark_board and rng.random() < 0.85):
            line_tone = "light" if dark_board or rng.random() < 0.3 else "dark"
        else:
            line_tone = "dark" if not dark_board or rng.random() < 0.15 else "light"
        inks = INKS_LIGHT if line_tone == "light" else INKS_DARK
        line_rgb = inks[_pick(rng, inks)] if line_tone != "none" else board_rgb
        width = float(rng.uniform(1.0, 6.0))
        border = bool(rng.random() < 0.4)
        markers = _pick(
            rng,
            ["none", "dot", "big-dot", "ring", "hole"],
            p=[0.3, 0.25, 0.2, 0.15, 0.1] if carvable else [0.35, 0.3, 0.2, 0.15, 0.0],
        )
        marker_tone = line_tone if line_tone != "none" else ("light" if dark_board else "dark")
        if markers == "big-dot" and rng.random() < 0.3:
            marker_tone = "dark" if marker_tone == "light" else "light"
        marker_size = {
            "none": 0.0,
            "dot": float(rng.uniform(0.15, 0.4)),
            "big-dot": float(rng.uniform(0.7, 1.0)),
            "ring": float(rng.uniform(0.8, 1.1)),
            "hole": float(rng.uniform(0.35, 0.6)),
        }[markers]
    if pockets_game:
        pockets = _pick(
            rng,
            ["cap", "drilled", "printed"],
            p=[0.7, 0.3, 0.0] if material in ("wood-light", "wood-dark", "painted") else [0.0, 0.0, 1.0],
        )
        line_tone = "light" if dark_board else "dark"
        inks = INKS_LIGHT if dark_board else INKS_DARK
        line_rgb = inks[_pick(rng, inks)]
    stone_material = _pick(rng, ["glass", "glossy", "matte"], p=[0.45, 0.35, 0.2])
    if game == "three-stones" and rng.random() < 0.6:
        stone_material = "glass"
    stone_shape = "disc" if rng.random() < 0.2 else "dome"
    light = _pick(rng, LIGHTS, p=[0.2, 0.2, 0.15, 0.15, 0.3])
    table = _pick(rng, ["cloth", "wood", "similar"], p=[0.45, 0.4, 0.15])
    glass_filter, clear_fade_cm = _glass(rng)
    return Design(
        board_material=material,
        board_finish=finish,
        board_rgb=_rgb(board_rgb),
        line_style=line_style,
        line_tone=line_tone,
        line_rgb=_rgb(line_rgb),
        line_width_mm=round(width, 2),
        border=border,
        markers=markers,
        marker_tone=marker_tone,
        marker_size=round(marker_size, 3),
        pockets=pockets,
        pocket_print=_pocket_print(rng) if pockets == "printed" else "",
        stone_material=stone_material,
        glass_filter=glass_filter,
        clear_fade_cm=clear_fade_cm,
        stone_shape=stone_shape,
        light=light,
        table=table,
        clutter=bool(rng.random() < 0.25),
    )


def stone_shades(rng: np.random.Generator) -> dict[str, tuple[int, int, int]]:
    """This set's shade of every colour: one of the colour's variants, a little off."""
    out = {}
    for name, variants in STONE_SHADES.items():
        base = np.array(variants[int(rng.integers(len(variants)))], float)
        spread = 3 if name == "black" else 6 if name in ("white", "clear") else 10
        out[name] = _rgb(np.clip(v + rng.normal(0, spread), 0, 255) for v in base)
    return out


def matches(design: dict, condition: str) -> bool:
    """`key=value` (several values with `|`) against a recorded design."""
    key, _, want = condition.partition("=")
    if key not in design:
        raise KeyError(f"no design parameter {key!r} (known: {', '.join(sorted(design))})")
    return str(design[key]).lower() in want.lower().split("|")
