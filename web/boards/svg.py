"""The board kit: the SVG pieces every board draws with, so a board module says only where and what.

- `Plan` places the engine's geometry (board units, y up) on the drawing (px, y down);
- `location` is a clickable location: the group carrying `data-target`, its role and label,
  with `hit` and `focus` shapes (the hit area a finger needs, the ring only :focus-visible shows);
  `pocket` is a location's parts on a pocket board;
- `stone` draws a stone (shadow, body, a glint on glass) in a board's `StoneLook`, and on boards of many
  colours its colour's letter, shown while the colour-blind switch is on (`STONE_LETTERS`);
- `last_ring` marks the stone the last move played;
- `radial`, `grain`, `gold` and `stone_gradients` write a board's `<defs>` for its palette.

Class names stay per board (the style sheet styles each board's wood and stones its own way);
the structure is the kit's.
"""

from __future__ import annotations

import dataclasses
from typing import Iterable, Mapping

from engine.core import Geometry

from . import esc


def px(value: float) -> str:
    """A length or coordinate as markup writes it: one decimal (a tenth of a pixel is below sight)."""
    return f"{value:.1f}"


# ----- where things go -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Plan:
    """Board units to drawing px: `scale` px per unit about `origin`; `turned` stands the board a quarter
    turn round (the engine's x axis pointing up the screen: rings stands point up to fill a phone)."""

    scale: float
    origin: tuple[float, float] = (0.0, 0.0)
    turned: bool = False

    def at(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self.origin
        if self.turned:
            return ox - y * self.scale, oy - x * self.scale
        return ox + x * self.scale, oy - y * self.scale

    def centres(self, geometry: Geometry) -> dict[str, tuple[float, float]]:
        """Every location's centre on the drawing, in the geometry's order."""
        return {loc.id: self.at(loc.x, loc.y) for loc in geometry.locations}


# ----- a location a player can click -----------------------------------------------------------


def location(name: str, label: str, parts: Iterable[str], classes: Iterable[str], clickable: bool) -> str:
    """A location's group: a button (`data-target`, reached by the arrow keys) while it can be played,
    else an image with the same label for a screen reader."""
    kind = f'data-target="{esc(name)}" role="button" tabindex="-1"' if clickable else 'role="img"'
    return f'<g class="{" ".join(c for c in classes if c)}" {kind} aria-label="{esc(label)}">{"".join(parts)}</g>'


def hit_circle(x: float, y: float, r: float) -> str:
    """The transparent area a tap or a click lands on."""
    return f'<circle cx="{px(x)}" cy="{px(y)}" r="{r:.2f}" class="hit"/>'


def hit_square(x: float, y: float, side: float) -> str:
    """A square hit area (pockets in a grid: neighbouring areas touch)."""
    return f'<rect x="{px(x - side / 2)}" y="{px(y - side / 2)}" width="{px(side)}" height="{px(side)}" class="hit"/>'


def hit_polygon(points: str) -> str:
    return f'<polygon points="{points}" class="hit"/>'


def focus_circle(x: float, y: float, r: float) -> str:
    """The keyboard's ring: drawn only while the location has :focus-visible (the style sheet)."""
    return f'<circle cx="{px(x)}" cy="{px(y)}" r="{px(r)}" class="focus-ring"/>'


def focus_polygon(points: str) -> str:
    return f'<polygon points="{points}" class="focus-ring"/>'


def pocket(
    x: float,
    y: float,
    r: float,
    fill: str,
    holds: str,
    glow: bool,
    hit_side: float,
    focus_r: float,
    groove: float = 0.0,
) -> list[str]:
    """A pocket's parts, bottom up: the hole (and its turned groove, as a share of the radius), the glow of a
    pocket that may be played, the stone it `holds` (markup, or ""), the hit square and the focus ring."""
    parts = [f'<circle cx="{x}" cy="{y}" r="{r}" class="hole" fill="{fill}"/>']
    if groove:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{px(r * groove)}" class="groove"/>')
    if glow:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r - 1}" class="glow"/>')
    return parts + ([holds] if holds else []) + [hit_square(x, y, hit_side), focus_circle(x, y, focus_r)]


# ----- stones ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Glint:
    """The highlight on a glass stone: an ellipse up and left of the centre, in shares of the radius."""

    left: float
    up: float
    width: float
    height: float

    def svg(self, x: float, y: float, r: float, classes: str) -> str:
        gx, gy = x - r * self.left, y - r * self.up
        return (
            f'<ellipse cx="{px(gx)}" cy="{px(gy)}" rx="{px(r * self.width)}" ry="{px(r * self.height)}" '
            f'class="{classes}" transform="rotate(-30 {px(gx)} {px(gy)})"/>'
        )


@dataclasses.dataclass(frozen=True)
class StoneLook:
    """How one board draws its stones. Class names may hold `{colour}` and `{extra}` (the caller's
    classes); `group` wraps the stone in a <g> of that class; `glint_on` lists the colours that shine
    (None: all); `groove` is a turned man's inner ring, as a share of its radius (0: none)."""

    gradient: str  # fill url(#<gradient>-<colour>)
    shadow_offset: tuple[float, float]
    shadow: str
    body: str
    group: str = ""
    glint: Glint | None = None
    glint_class: str = "glint"
    glint_on: frozenset[str] | None = None
    groove: float = 0.0
    lettered: bool = False  # the colour's letter on each stone (boards of many colours; shown by the switch)


# Each stone colour's letter for the colour-blind switch: blue is U, as card games write it, black being B.
STONE_LETTERS = {
    "black": "B",
    "white": "W",
    "clear": "C",
    "red": "R",
    "green": "G",
    "blue": "U",
    "yellow": "Y",
    "orange": "O",
    "purple": "P",
}
LETTER_SIZE = 1.15  # the letter's height as a share of the stone's radius: big, inside the stone's edge


def _classes(template: str, colour: str, extra: str) -> str:
    return template.format(colour=colour, extra=f" {extra}" if extra else "")


def stone(look: StoneLook, colour: str, x: float, y: float, r: float, extra: str = "") -> str:
    """One stone: its shadow, its body in the colour's gradient, and a glint where the look has one."""
    dx, dy = look.shadow_offset
    parts = [
        f'<circle cx="{px(x + dx)}" cy="{px(y + dy)}" r="{px(r)}" class="{_classes(look.shadow, colour, extra)}"/>',
        f'<circle cx="{px(x)}" cy="{px(y)}" r="{px(r)}" fill="url(#{look.gradient}-{colour})" '
        f'class="{_classes(look.body, colour, extra)}"/>',
    ]
    if look.groove:
        parts.append(f'<circle cx="{px(x)}" cy="{px(y)}" r="{px(r * look.groove)}" class="man-groove"/>')
    if look.glint and (look.glint_on is None or colour in look.glint_on):
        parts.append(look.glint.svg(x, y, r, _classes(look.glint_class, colour, extra)))
    if look.lettered and colour in STONE_LETTERS:
        parts.append(
            f'<text x="{px(x)}" y="{px(y + r * LETTER_SIZE * 0.36)}" font-size="{px(r * LETTER_SIZE)}" '
            f'class="stone-letter" aria-hidden="true">{STONE_LETTERS[colour]}</text>'
        )
    if look.group:
        return f'<g class="{_classes(look.group, colour, extra)}">{"".join(parts)}</g>'
    return "".join(parts)


def last_ring(x: float, y: float, r: float, stroke: str = "") -> str:
    """The ring round the stone the last move played: a dark shadow under a gold ring."""
    paint = f' stroke="{stroke}"' if stroke else ""
    return (
        f'<g class="last-ring" aria-hidden="true"><circle cx="{px(x)}" cy="{px(y)}" r="{px(r)}" class="ring-shadow"/>'
        f'<circle cx="{px(x)}" cy="{px(y)}" r="{px(r)}" class="ring"{paint}/></g>'
    )


# ----- defs ----------------------------------------------------------------------------------------


Stop = tuple[str, str] | tuple[str, str, str]
"""A gradient stop: (offset, colour) or (offset, colour, opacity)."""


def _stops(stops: Iterable[Stop]) -> str:
    out = []
    for stop in stops:
        opacity = f' stop-opacity="{stop[2]}"' if len(stop) == 3 else ""
        out.append(f'<stop offset="{stop[0]}" stop-color="{stop[1]}"{opacity}/>')
    return "".join(out)


def radial(id: str, stops: Iterable[Stop], cx: str = ".5", cy: str = ".5", r: str = ".5") -> str:
    return f'<radialGradient id="{id}" cx="{cx}" cy="{cy}" r="{r}">{_stops(stops)}</radialGradient>'


def linear(id: str, stops: Iterable[Stop], x2: str = "1", y2: str = "1") -> str:
    return f'<linearGradient id="{id}" x1="0" y1="0" x2="{x2}" y2="{y2}">{_stops(stops)}</linearGradient>'


def gold(id: str, middle: str = "#e0aa22") -> str:
    """The last-move ring's gold."""
    return linear(id, (("0", "#fff1a8"), (".5", middle), ("1", "#8c6410")))


def grain(id: str, frequency: str, octaves: int, seed: int, ink: str) -> str:
    """Wood grain: stretched noise tinted by `ink` (a colour matrix's last column and alpha row), laid
    over the board's own fill."""
    return (
        f'<filter id="{id}" x="0" y="0" width="100%" height="100%">'
        f'<feTurbulence type="fractalNoise" baseFrequency="{frequency}" numOctaves="{octaves}" seed="{seed}" '
        f'result="noise"/><feColorMatrix in="noise" type="matrix" values="{ink}" result="lines"/>'
        '<feComposite in="lines" in2="SourceGraphic" operator="in" result="grain"/>'
        '<feMerge><feMergeNode in="SourceGraphic"/><feMergeNode in="grain"/></feMerge></filter>'
    )


def stone_gradients(
    prefix: str,
    shades: Mapping[str, tuple[str, str, str]],
    colours: Iterable[str],
    cx: str,
    cy: str,
    r: str,
    see_through: Mapping[str, str] | None = None,
) -> str:
    """One radial gradient per colour, `<prefix>-<colour>`, from its (light, mid, dark) shades; a colour
    in `see_through` has its mid and dark stops at that opacity (glass)."""
    out = []
    for colour in colours:
        light, mid, dark = shades[colour]
        opacity = (see_through or {}).get(colour)
        stops: list[Stop] = (
            [("0", light), (".5", mid, opacity), ("1", dark, opacity)]
            if opacity
            else [("0", light), (".5", mid), ("1", dark)]
        )
        out.append(radial(f"{prefix}-{colour}", stops, cx, cy, r))
    return "".join(out)
