"""A board's drawing as a texture: lines, circles, rings, borders and numbers in the red
channel, point markers and printed pocket discs in the green one.

Blender lays it on the board's top face (`bpy_scene.add_artwork`) as ink, inlay or an
engraved groove.  Drawn here with OpenCV, in centimetres on the board's plane, from the
project's one geometry, the engine's `Game.geometry()`: the locations of `vision.layouts`,
morris' lines (`layouts.drawn_lines`), the rings circles.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine import get_game

from ...layouts import Layout, drawn_lines
from .design import Design

TEXELS = 4096  # the long side of the texture: a 1 mm line is about 10 texels wide
SUBPIXEL_BITS = 4  # OpenCV draws at 1/16 texel
BORDER_INSET = {"single": (0.93,), "double": (0.93, 0.905)}  # border lines, as a share of the outline


@dataclass(frozen=True)
class Artwork:
    image: np.ndarray  # (h, w, 3) uint8, BGR: red = lines, green = markers
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in cm that the image spans


class Canvas:
    """Two masks over the board's bounding box, drawn in board centimetres (y up)."""

    def __init__(self, outline_cm: np.ndarray):
        x0, y0 = outline_cm.min(axis=0) - 0.5
        x1, y1 = outline_cm.max(axis=0) + 0.5
        self.box = (float(x0), float(y0), float(x1), float(y1))
        self.scale = TEXELS / max(x1 - x0, y1 - y0)
        w, h = int(np.ceil((x1 - x0) * self.scale)), int(np.ceil((y1 - y0) * self.scale))
        self.lines: np.ndarray = np.zeros((h, w), np.uint8)
        self.marks: np.ndarray = np.zeros((h, w), np.uint8)

    def px(self, xy) -> tuple[int, int]:
        """A board point as OpenCV's fixed-point pixel (row 0 is the board's far edge)."""
        x, y = xy
        one = 1 << SUBPIXEL_BITS
        return (int(round((x - self.box[0]) * self.scale * one)), int(round((self.box[3] - y) * self.scale * one)))

    def width(self, cm: float) -> int:
        return max(1, int(round(cm * self.scale)))

    def radius(self, cm: float) -> int:
        return int(round(cm * self.scale * (1 << SUBPIXEL_BITS)))

    def line(self, a, b, width_cm: float) -> None:
        cv2.line(self.lines, self.px(a), self.px(b), 255, self.width(width_cm), cv2.LINE_AA, SUBPIXEL_BITS)

    def polygon(self, points: np.ndarray, width_cm: float) -> None:
        pts = np.array([self.px(p) for p in points], np.int32)
        cv2.polylines(self.lines, [pts], True, 255, self.width(width_cm), cv2.LINE_AA, SUBPIXEL_BITS)

    def circle(self, centre, radius_cm: float, width_cm: float) -> None:
        cv2.circle(
            self.lines, self.px(centre), self.radius(radius_cm), 255, self.width(width_cm), cv2.LINE_AA, SUBPIXEL_BITS
        )

    def dot(self, centre, radius_cm: float) -> None:
        cv2.circle(self.marks, self.px(centre), self.radius(radius_cm), 255, -1, cv2.LINE_AA, SUBPIXEL_BITS)

    def text(self, label: str, centre, height_cm: float, font: int) -> None:
        """A label centred on a board point, upright when the board is read from row 1."""
        scale = 1.0
        (tw, th), _ = cv2.getTextSize(label, font, scale, 1)
        scale = height_cm * self.scale / th
        thickness = max(1, int(round(height_cm * self.scale / 9)))
        (tw, th), _ = cv2.getTextSize(label, font, scale, thickness)
        x, y = self.px(centre)
        one = 1 << SUBPIXEL_BITS
        cv2.putText(
            self.lines, label, (int(x / one - tw / 2), int(y / one + th / 2)), font, scale, 255, thickness, cv2.LINE_AA
        )

    def clip(self, outline_cm: np.ndarray) -> None:
        """Nothing drawn past the board's edge (the rings board's edge circles are cut there)."""
        inside = np.zeros_like(self.lines)
        cv2.fillPoly(inside, [np.array([self.px(p) for p in outline_cm], np.int32)], 255, cv2.LINE_AA, SUBPIXEL_BITS)
        self.lines = cv2.min(self.lines, inside)
        self.marks = cv2.min(self.marks, inside)

    def artwork(self) -> Artwork:
        return Artwork(cv2.merge([np.zeros_like(self.lines), self.marks, self.lines]), self.box)


def draw(
    game: str,
    layout: Layout,
    design: Design,
    unit: float,
    outline_cm: np.ndarray,
    stone_r: float,
    pocket_r: float,
    rng: np.random.Generator,
) -> tuple[Artwork, dict]:
    """The board's drawing for its design; `unit` is the centimetres of one board unit."""
    canvas = Canvas(outline_cm)
    lw = design.line_width_mm / 10.0
    xy_cm = layout.xy * unit
    info: dict = {}
    if game == "morris":
        for a, b in drawn_lines(layout):
            canvas.line(a * unit, b * unit, lw)
    elif game == "rings":
        for circle in get_game(game).geometry().circles:
            canvas.circle((circle.x * unit, circle.y * unit), circle.radius * unit, lw)
    elif design.pockets == "printed":
        for p in xy_cm:
            if design.pocket_print == "ring":
                canvas.circle(p, pocket_r, lw)
            else:
                canvas.dot(p, pocket_r)
    if game == "sage-stones":
        font = int(
            rng.choice(
                [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX]
            )
        )
        height = unit * rng.uniform(0.45, 0.65)
        below = float(layout.xy[:, 1].min()) - rng.uniform(0.95, 1.15)  # the numbered margin below row 1
        columns = sorted({int(pid[1 : pid.index("r")]) for pid in layout.ids})
        for col in columns:
            x = float(np.mean([p[0] for pid, p in zip(layout.ids, layout.xy) if pid.startswith(f"c{col}r")]))
            canvas.text(str(col), (x * unit, below * unit), height, font)
        info.update(number_font=font, number_height_cm=round(float(height), 3))
    for share in BORDER_INSET.get(design.border, ()):
        canvas.polygon(outline_cm * share, lw * 0.8)
    if design.markers in ("dot", "big-dot"):
        for p in xy_cm:
            canvas.dot(p, design.marker_size * stone_r)
    elif design.markers == "ring":
        for p in xy_cm:
            canvas.circle(p, design.marker_size * stone_r, max(lw * 0.8, 0.08))
    canvas.clip(outline_cm * 0.995)
    return canvas.artwork(), info
