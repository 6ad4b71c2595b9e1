"""How much of a drawn board's lines shows beside each location: an empty point shows them, a stone hides them.

At an empty rings point three drawn circles cross; their ink (or groove) runs out of the point in six
directions, through the ring between the point's marker and a stone's edge.  A stone covers that ring
whatever its colour, and a flat marker never does (the lines are drawn over it or beside it).  So the
lines' strokes on the circles, against the same ring's strokes between them, say whether a location
is covered, where colour cannot: frosted white stones on a white mat, dark dots beside black stones.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from engine.games import get_game

from .frame import Frame
from .layouts import Layout

# stone radii from the point at which the lines are looked at: past the point's own marker (a dot
# reaches 0.4), within the stone that covers them (a stone's edge is at 1; its outline is not a line)
SHOWN_FROM, SHOWN_TO = 0.5, 0.8
SHOWN_STEPS = 4  # samples along each line's way out of the point, between those radii
# share of the midways between points where the lines differ from the board the same way (darker or
# lighter), at least, for them to show: ink and inlay 0.84 or more; grooves, faint lines, a noisy mat 0.76 or less
LINES_AGREE = 0.85
# stone radii from a line's middle, midway, where a line of this share of its contrast or more is too wide to
# tell a point's from the board between them: 5 mm ink covers an empty point's ring (0.7-0.95 there), 1-4.6 mm 0.61 or less
LINE_EDGE, WIDE_LINE = 0.2, 0.65
BETWEEN_OFF = 0.35  # stone radii either side of a line, midway between two points, where the board shows
LINE_REACH = 3.0  # pixels of the canonical raster (12 a stone radius) either side of where the fit draws a line
OFF_LINE_DEG = 30.0  # the same ring, between two of the lines' six ways out (they leave 60 degrees apart)


@functools.cache
def line_ways(game: str, radius: float) -> np.ndarray | None:
    """Per location, where its drawn lines run on the way out of it: an array (locations, ways,
    steps, 2) of board points, `SHOWN_STEPS` along each way between `SHOWN_FROM` and `SHOWN_TO`
    stone radii (`radius`) from the location.  None for a board whose lines do not run through its
    locations (pockets)."""
    geometry = get_game(game).geometry()
    if not geometry.circles:
        return None
    at = {loc.id: np.array([loc.x, loc.y]) for loc in geometry.locations}
    reach = np.linspace(SHOWN_FROM, SHOWN_TO, SHOWN_STEPS) * radius
    ways: dict[str, list[np.ndarray]] = {pid: [] for pid in at}
    for circle in geometry.circles:
        centre = np.array([circle.x, circle.y])
        for pid in circle.through:
            start = np.arctan2(*(at[pid] - centre)[::-1])
            for turn in (1.0, -1.0):  # along the circle both ways: an arc of length `reach`
                angle = start + turn * reach / circle.radius
                ways[pid].append(centre + circle.radius * np.stack([np.cos(angle), np.sin(angle)], 1))
    most = max(len(w) for w in ways.values())
    out = np.full((len(at), most, SHOWN_STEPS, 2), np.nan)
    for i, loc in enumerate(geometry.locations):
        out[i, : len(ways[loc.id])] = ways[loc.id]
    return out


@functools.cache
def between_points(game: str) -> tuple[np.ndarray, np.ndarray]:
    """Board points on the full circles midway between two of their points, where no stone stands,
    and the line's normal there (away from the circle's centre): (places, 2) each."""
    geometry = get_game(game).geometry()
    at = {loc.id: (loc.x, loc.y) for loc in geometry.locations}
    on, normal = [], []
    for circle in geometry.circles:
        if not circle.full:
            continue
        x, y = at[circle.through[0]]
        for k in range(6):  # six points 60 degrees apart: the midways are 30 degrees off them
            angle = np.arctan2(y - circle.y, x - circle.x) + np.radians(30.0 + 60.0 * k)
            way = np.array([np.cos(angle), np.sin(angle)])
            on.append(np.array([circle.x, circle.y]) + circle.radius * way)
            normal.append(way)
    return np.array(on), np.array(normal)


def _basis(pts: np.ndarray) -> np.ndarray:
    """The terms of a smooth correction over the board (constant, linear, quadratic in x and y)."""
    x, y = pts[..., 0], pts[..., 1]
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], -1)


def line_offsets(foot: np.ndarray, frame: Frame, sign: float) -> np.ndarray:
    """Midway between the points (`between_points`), how far along its normal each line lies from where
    the fit draws it (board units, within `LINE_REACH` pixels): the darkest place for dark lines
    (`sign` -1), the lightest for light ones."""
    on, normal = between_points(frame.layout.game)
    steps = np.arange(-LINE_REACH, LINE_REACH + 1e-9, 0.5) / frame.s
    profile = sign * _sample(foot, frame, on[:, None] + steps[None, :, None] * normal[:, None])
    return steps[profile.argmax(1)]


def fit_correction(foot: np.ndarray, frame: Frame, sign: float) -> np.ndarray:
    """The coefficients (`_basis` terms, then x and y) of the smooth shift that puts the drawn circles
    where the photo shows them: a fit found on the photo lies a pixel or two off its lines, about as wide
    as they are.  Fitted to each midway line's offset along its normal, then again without the worst
    fifth (a stone's edge or shadow across a midway)."""
    on, normal = between_points(frame.layout.game)
    offset = line_offsets(foot, frame, sign)
    rows = np.concatenate([_basis(on) * normal[:, :1], _basis(on) * normal[:, 1:]], 1)
    keep = np.ones(len(on), bool)
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(rows[keep], offset[keep], rcond=None)
        miss = np.abs(rows @ coef - offset)
        keep = miss <= np.percentile(miss, 80)
    return coef.reshape(2, -1)


def corrected(pts: np.ndarray, coef: np.ndarray) -> np.ndarray:
    """Board points moved by the correction `coef` (`fit_correction`)."""
    return pts + _basis(pts) @ coef.T


def _turned(ways: np.ndarray, xy: np.ndarray, degrees: float) -> np.ndarray:
    """The `ways` turned about their locations `xy` by `degrees`: the same ring, off the lines."""
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    rel = ways - xy[:, None, None, :]
    return xy[:, None, None, :] + rel @ turn.T


def _sample(strokes: np.ndarray, frame: Frame, pts: np.ndarray) -> np.ndarray:
    """`strokes` at board points `pts` (any shape ending in 2); NaN points read NaN."""
    flat = pts.reshape(-1, 2)
    bad = np.isnan(flat).any(1)
    px = frame.to_px(np.where(bad[:, None], 0.0, flat)).astype(np.float32)
    seen = cv2.remap(strokes, px[:, :1], px[:, 1:], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[:, 0]
    return np.where(bad, np.nan, seen).reshape(pts.shape[:-1])


def lines_shown(foot: np.ndarray, frame: Frame, layout: Layout) -> np.ndarray:
    """Per location, how much the board plane's lightness (`foot`) where its lines run differs from
    the same ring's between them, in units of the lines' own contrast with the board midway between
    the points: about 1 at an empty point whose lines show, about 0 under a stone.  The lines are dark
    ink or light inlay, whichever shows more clearly midway, and are looked for where the photo shows
    them (`fit_correction`).  Zeros for a board whose lines miss its locations, do not show clearly
    (`LINES_AGREE`) or are too wide (`WIDE_LINE`)."""
    ways = line_ways(layout.game, layout.stone_radius)
    if ways is None:
        return np.zeros(len(layout.xy), np.float32)
    on, normal = between_points(layout.game)
    side = BETWEEN_OFF * layout.stone_radius * normal
    edge = LINE_EDGE * layout.stone_radius * normal
    found = []
    for sign in (-1.0, 1.0):  # dark lines, light lines
        coef = fit_correction(foot, frame, sign)
        on_line = corrected(on, coef)
        board = (_sample(foot, frame, on_line - side) + _sample(foot, frame, on_line + side)) / 2
        contrast = sign * (_sample(foot, frame, on_line) - board)
        at_edge = sign * ((_sample(foot, frame, on_line - edge) + _sample(foot, frame, on_line + edge)) / 2 - board)
        drawn = float(np.median(contrast))
        width = float(np.median(at_edge)) / drawn if drawn > 0 else np.inf
        found.append((float(np.mean(contrast > 0)), sign * drawn, width, coef))
    agree, drawn, width, coef = max(found, key=lambda f: f[0])
    if agree < LINES_AGREE or width > WIDE_LINE:
        return np.zeros(len(layout.xy), np.float32)
    n = len(ways)
    on_way = np.nanmedian(_sample(foot, frame, corrected(ways, coef)).reshape(n, -1), 1)
    beside = np.nanmedian(
        _sample(foot, frame, corrected(_turned(ways, layout.xy, OFF_LINE_DEG), coef)).reshape(n, -1), 1
    )
    return ((on_way - beside) / drawn).astype(np.float32)
