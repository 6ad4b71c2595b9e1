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
LINES_AGREE = 0.8
BETWEEN_OFF = 0.35  # stone radii either side of a line, midway between two points, where the board shows
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
def between_points(game: str, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Board points on the full circles midway between two of their points, where no stone stands,
    and beside them either side of the line (`BETWEEN_OFF` stone radii in and out): (on, beside),
    shaped (places, 1, 2) and (places, 2, 2)."""
    on, beside = [], []
    for circle in get_game(game).geometry().circles:
        if not circle.full:
            continue
        centre = np.array([circle.x, circle.y])
        for k in range(6):  # six points 60 degrees apart: the midways are 30 degrees off them
            first = circle.through[0]
            loc = next(loc for loc in get_game(game).geometry().locations if loc.id == first)
            angle = np.arctan2(loc.y - centre[1], loc.x - centre[0]) + np.radians(30.0 + 60.0 * k)
            way = np.array([np.cos(angle), np.sin(angle)])
            on.append([centre + circle.radius * way])
            beside.append([centre + (circle.radius + d * radius) * way for d in (-BETWEEN_OFF, BETWEEN_OFF)])
    return np.array(on), np.array(beside)


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
    the same ring's between them, in units of the lines' own contrast with the board midway between the points (signed:
    dark ink and light inlay alike): about 1 at an empty point whose lines show, about 0 under a
    stone.  Zeros for a board whose lines miss its locations or do not show clearly (`LINES_AGREE`)."""
    ways = line_ways(layout.game, layout.stone_radius)
    if ways is None:
        return np.zeros(len(layout.xy), np.float32)
    on_line = _sample(foot, frame, ways)
    beside = _sample(foot, frame, _turned(ways, layout.xy, OFF_LINE_DEG))
    mid_on, mid_beside = between_points(layout.game, layout.stone_radius)
    contrast = _sample(foot, frame, mid_on)[:, 0] - _sample(foot, frame, mid_beside).mean(1)
    drawn = float(np.median(contrast))
    if drawn == 0 or float(np.mean(np.sign(contrast) == np.sign(drawn))) < LINES_AGREE:
        return np.zeros(len(layout.xy), np.float32)
    n = len(ways)
    shown = np.nanmedian(on_line.reshape(n, -1), 1) - np.nanmedian(beside.reshape(n, -1), 1)
    return (shown / drawn).astype(np.float32)
