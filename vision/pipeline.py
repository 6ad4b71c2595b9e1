"""Photo in, position out: `read_board(photo, game) -> Reading`, `score_board` adds the engine's score.

The board's fit is a homography `H` (the usual name in this maths: board units -> image pixels).
The pipeline owns the threads the board search shares (`detection_pool`, made on the first reading).
"""

from __future__ import annotations

import functools
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from collections.abc import Iterator
from typing import Any, NoReturn

import cv2
import numpy as np

from .classify import (
    CLASSES,
    GROUP_NAMED,
    cell_features,
    class_votes,
    classify,
    coloured_glass_named_black,
    feature_names,
    harmonize,
    names_mostly_in_doubt,
    names_of_two_hues,
    reading_in_doubt,
)
from .evidence import (
    line_evidence,
    lines_bar,
    lines_everywhere,
    outline_support,
    pattern_contrast,
    samples_in_view,
)
from .memo import forget, gray32, shrunk
from .refine import lattice_steps, point_kinds, point_look_gap
from .detect import Detection, drawing_fits, find_board
from .errors import VisionError
from .io import read_image
from .layouts import GAMES, Layout, get_layout
from .marks import mark_grid
from .linegraph import chroma_contrast
from .missing import darkest_hue_may_be_black, missing_colour_found
from .presence import inked_empties, rimmed_empties, rimless_stones
from .tuning import (
    BRIGHT_MEAN,
    CHECK_BELOW,
    CLEAN_OUTLINE,
    DARK_MEAN,
    DARK_P99,
    FLAT_STD,
    MAX_CAMERA_ERROR,
    MAX_OUTSIDE,
    MID_SIDE,
    MIN_EVIDENCE,
    MIN_PRESENT,
    MIN_WEAKEST_SIDE,
    MIN_STONE_PX,
    NUDGE_CHECKED,
    NUDGE_PX,
    NUDGES,
    RENAMED_CONFIDENCE,
    REFUSE_LOOK_S,
    RIM_CHECKED,
    SEARCH_LIMIT_S,
    SURE_FIT,
    FAINT_LINES_SHOWN,
    POINT_KINDS_APART,
    UNIT_APART,
)

LOOKALIKES = {"sage-stones": "three-stones"}  # game -> bigger board whose grid holds this one's
# a refused photo may be another game's board: those are looked for cheapest search first, and
# only while the whole reading has taken less than REFUSE_LOOK_S (the refused fit may reorder them: `look_order`)
LOOK_ORDER = ("morris", "three-stones", "sage-stones", "rings")
MAX_DETECTION_WORKERS = 4  # threads a board search uses at most: its fits are a few at a time


@functools.cache
def detection_pool() -> ThreadPoolExecutor:
    """The threads board searches share, made on the first reading (never at import): OpenCV lets go
    of the GIL, so each core fits a region or refines a candidate at once."""
    workers = min(MAX_DETECTION_WORKERS, max(2, os.cpu_count() or 1))
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="vision-detect")


@dataclass
class Reading:
    game: str
    cells: dict[str, str | None]
    confidence: dict[str, float]
    board_corners: list[list[float]]
    orientation: dict[str, Any]
    detection_score: float
    seconds: float
    H: np.ndarray = field(repr=False)
    image: np.ndarray = field(repr=False)

    def position(self) -> dict[str, Any]:
        """The SPEC section 2 position plus the vision fields of section 5."""
        return {
            "game": self.game,
            "cells": dict(self.cells),
            "confidence": dict(self.confidence),
            "board_corners": self.board_corners,
            "orientation": self.orientation,
            "detection_score": round(self.detection_score, 3),
        }


def _check_light(img: np.ndarray) -> None:
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    small: np.ndarray = cv2.resize(gray, (160, 120), interpolation=cv2.INTER_AREA)
    if small.mean() < DARK_MEAN and np.percentile(small, 99) < DARK_P99:
        raise VisionError("photo too dark to read the board (turn on a light or use the flash)", "too_dark")
    if small.mean() > BRIGHT_MEAN:
        raise VisionError("photo overexposed: nothing visible", "too_bright")
    if small.std() < FLAT_STD:
        raise VisionError("photo is blank (one flat colour): no board found", "no_board")


def _canonical_orientation(H: np.ndarray, layout: Layout) -> np.ndarray:
    """For a symmetric board: the fit turned by the symmetry that puts row 1 nearest the bottom
    of the photo (and column a on its left)."""
    best = None
    for turn in (S for S in layout.symmetries if np.linalg.det(S) > 0):
        A = np.eye(3)
        A[:2, :2] = turn
        turned = H @ A
        p = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[0.0, 1.0]], [[1.0, 0.0]]]), turned).reshape(-1, 2)
        up = p[1] - p[0]
        right = p[2] - p[0]
        key = (-up[1] / (np.linalg.norm(up) + 1e-9), right[0] / (np.linalg.norm(right) + 1e-9))
        if best is None or key > best[0]:
            best = (key, turned)
    if best is None:
        raise ValueError(f"the {layout.game} layout lists no turn among its symmetries (not even the identity)")
    return best[1]


def read_board(source, game: str) -> Reading:
    t0 = time.perf_counter()
    if game not in GAMES:
        if game == "triple-domino":
            raise VisionError("triple-domino boards cannot be read from photos yet", "unsupported_game")
        raise VisionError(f"unknown game {game!r} (readable: {', '.join(GAMES)})", "unknown_game")
    img = source if isinstance(source, np.ndarray) else read_image(source)
    try:
        return _read(img, game, t0)
    finally:
        forget(img)  # the search's copies and maps of the photo: the reading is done with them


def _read(img: np.ndarray, game: str, t0: float) -> Reading:
    """`read_board` from the decoded photo on (`t0`: when the reading began)."""
    _check_light(img)
    layout = get_layout(game)
    deadline = t0 + SEARCH_LIMIT_S
    try:
        det = find_board(img, layout, detection_pool(), deadline)
    except VisionError:
        if time.perf_counter() > deadline:
            raise
        det = None
    if det is None or not _accept(det, game):
        _refuse(img, game, t0, det)
    if game in LOOKALIKES and det.support < CLEAN_OUTLINE:  # a clean outline all round needs no second look
        # a bigger board of another game can hold this one's grid (three-stones' 9x9 pockets
        # hold sage-stones' 7x9): if that game's board fits clearly better, say so
        other = LOOKALIKES[game]
        try:
            bigger = find_board(img, get_layout(other), detection_pool(), deadline)
        except VisionError:
            bigger = None
        if bigger is not None and _accept(bigger, other) and _quality(bigger, other) > _quality(det, game):
            raise VisionError(f"this looks like a {other} board, not {game}", "wrong_game")
    H = det.H
    orientation: dict[str, Any]
    if layout.oriented:  # the detection chose the way round (the numbered edge's wide margin)
        orientation = {
            "canonical": False,
            "how": "from the board: the numbered short edge (wide margin with the engraved column numbers) is below row 1",
            "certainty": round(float(min(1.0, max(0.0, det.orientation_margin * 4))), 2),
        }
    else:
        H = _canonical_orientation(H, layout)
        orientation = {
            "canonical": True,
            "how": "symmetric board: reported with row 1 nearest the bottom of the photo; "
            "any symmetry of the board is the same position",
        }
    corners = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
    # stone size in pixels: too small a board cannot be read
    stone = cv2.perspectiveTransform(
        np.array([[[0.0, 0.0]], [[layout.stone_radius, 0.0]], [[0.0, layout.stone_radius]]]), H
    ).reshape(-1, 2)
    rad_px = min(np.linalg.norm(stone[1] - stone[0]), np.linalg.norm(stone[2] - stone[0]))
    if rad_px < MIN_STONE_PX:
        raise VisionError(f"board too small in the photo (stones ~{rad_px:.0f} px across): move closer", "too_small")
    labels, conf = read_cells(img, H, layout)
    if game in NUDGE_CHECKED:  # a cell whose reading turns when the fit moves by under a pixel is not sure
        for nudged in nudged_fits(H, layout, NUDGE_PX, NUDGES):
            moved, _ = read_cells(img, nudged, layout)
            conf = [c if a == b else min(c, RENAMED_CONFIDENCE) for c, a, b in zip(conf, labels, moved)]
    if layout.oriented:  # a cell is read no surer than the way round it is read in
        conf = [min(c, orientation["certainty"]) for c in conf]
    # nor surer than its fit: marks barely shown, off the points, or held by stones a step may be off (on the
    # search's own fit, whose line samples the search measured already)
    if (
        det.evidence < SURE_FIT.get(game, 0.0)
        or off_the_points(img, H, layout)
        or a_step_in_doubt(img, det.H, layout)
        or faint_lines(img, det.H, layout)
        or a_unit_in_doubt(img, det.H, layout)
    ):
        conf = [min(c, RENAMED_CONFIDENCE) for c in conf]
    cells = dict(zip(layout.ids, labels))
    confidence = dict(zip(layout.ids, conf))
    return Reading(
        game=game,
        cells=cells,
        confidence=confidence,
        board_corners=[[round(float(x), 1), round(float(y), 1)] for x, y in corners],
        orientation=orientation,
        detection_score=det.score,
        seconds=time.perf_counter() - t0,
        H=H,
        image=img,
    )


def read_cells(img: np.ndarray, H: np.ndarray, layout: Layout) -> tuple[list[str | None], list[float]]:
    """Each location's class and confidence on the fit `H` (board units -> pixels), before the
    fit's own doubts (its way round, its evidence) cap the confidence."""
    feats, _ = cell_features(img, H, layout)
    labels, conf = classify(feats, layout)
    # many-colour sets: one name per physical colour (where colour groups named the cells, they did: harmonizing
    # again votes with confidences their doubts lowered, and a doubted right name loses to a wrong one)
    if len(layout.palette) > 3 and layout.game not in GROUP_NAMED:
        labels, conf = harmonize(labels, conf, feats)
    if layout.marks == "pocket":
        P, allowed = class_votes(feats, layout)
        # a colour the box all but surely shows, missing: the forest took its stones for one of the pockets' looks
        labels, conf = missing_colour_found(
            labels, conf, feats, P[:, 0], layout.stone_set, np.asarray(layout.xy, float)
        )
        labels, conf = coloured_glass_named_black(labels, conf, feats, P, [CLASSES[k] for k in allowed])
        conf = darkest_hue_may_be_black(labels, conf, feats, [CLASSES[k] for k in allowed])
        conf = names_mostly_in_doubt(labels, names_of_two_hues(labels, conf, feats))
        if reading_in_doubt(labels, layout):
            conf = [min(c, RENAMED_CONFIDENCE) for c in conf]
    if layout.game in RIM_CHECKED:
        # a highlight on a glossy board is no stone, and a rim round a shaded body is one, whatever the forest
        # leant to (`presence.rimless_stones`, `rimmed_empties`)
        labels, conf = rimless_stones(labels, conf, feats, feature_names())
        votes, allowed = class_votes(feats, layout)
        stone_names = [CLASSES[k] for k in allowed[1:]]
        labels, conf = rimmed_empties(labels, conf, votes, stone_names, feats, feature_names())
        conf = inked_empties(labels, conf, feats, feature_names())
    return labels, conf


def true_fit(meta: dict) -> np.ndarray:
    """The fit that puts the board's locations where a generated photo's ground truth (`cell_px`) has them."""
    layout = get_layout(meta["game"])
    seen = np.array([meta["cell_px"][pid] for pid in layout.ids], np.float64)
    fit, _ = cv2.findHomography(layout.xy.astype(np.float64), seen)
    return fit


def nudged_fits(H: np.ndarray, layout: Layout, px: float, count: int, seed: int = 0) -> list[np.ndarray]:
    """`count` fits each moved from `H` by at most `px` pixels at every corner of the board's
    outline (each corner its own random way): what a fit found again on the same photo may
    differ by, to see whether a reading holds still under it."""
    rng = np.random.default_rng(seed)
    corners = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
    fits = []
    for _ in range(count):
        angle = rng.uniform(0, 2 * np.pi, len(corners))
        step = px * np.sqrt(rng.uniform(0, 1, len(corners)))  # evenly over the disc of radius px
        moved = corners + step[:, None] * np.stack([np.cos(angle), np.sin(angle)], 1)
        fit, _ = cv2.findHomography(layout.outline.astype(np.float64), moved.astype(np.float64))
        fits.append(fit)
    return fits


def off_the_points(img: np.ndarray, H: np.ndarray, layout: Layout) -> bool:
    """Whether rings' up and down points still look unlike each other on the fit read at: it lies
    off the points (`refine.onto_the_points` found no shift that puts it on them)."""
    up = point_kinds(layout)
    return up is not None and point_look_gap(img, H, layout, up) >= POINT_KINDS_APART


def _mid_copy(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The photo at the line search's size (MID_SIDE on its long side, never enlarged), and the map of
    full-size pixels onto it: what a doubt about a fit's step is asked on, at a fraction of the CPU."""
    scale = min(1.0, MID_SIDE / max(img.shape[:2]))
    return (shrunk(img, MID_SIDE) if scale < 1 else img), np.diag([scale, scale, 1.0])


def _unit_moves(game: str) -> list[np.ndarray]:
    """Board units -> board units: the board moved one step of its repeating lattice each way
    (`refine.lattice_steps`); `H @ move` is the fit a step off."""
    return [np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) for dx, dy in lattice_steps(game)]


def a_step_in_doubt(img: np.ndarray, H: np.ndarray, layout: Layout) -> bool:
    """Whether a rings fit that its stones hold, not its lines, may lie a whole lattice step off: the
    stones sit on a lattice that repeats, so only the board's outline tells the step, and here a fit one
    step away (`refine.lattice_steps`) shows the outline as well (dev seed 95: a crowded board read one
    step off, 64 cells sure and wrong).  A cell is then read no surer than RENAMED_CONFIDENCE."""
    if layout.game not in SURE_FIT:
        return False
    gray = gray32(img)
    lines = max(line_evidence(gray, H, layout), line_evidence(gray, H, layout, samples_in_view(gray, H, layout)))
    if lines >= SURE_FIT[layout.game]:
        return False
    mid, to_mid = _mid_copy(img)
    shown = outline_support(mid, to_mid @ H, layout)
    return any(outline_support(mid, to_mid @ H @ step, layout) >= shown for step in _unit_moves(layout.game))


def faint_lines(img: np.ndarray, H: np.ndarray, layout: Layout) -> bool:
    """Whether a morris fit shows its drawn lines at under FAINT_LINES_SHOWN of all its line samples: lines too
    faint for the lattice walk's bar, which then follows the stones' and the board's edges, so the fit may lie
    a unit off however well the few clear samples agree (its line evidence stays near 1)."""
    if layout.game not in FAINT_LINES_SHOWN:
        return False
    gray = gray32(img)
    return lines_everywhere(gray, H, layout, lines_bar(gray, H, layout)) < FAINT_LINES_SHOWN[layout.game]


def a_unit_in_doubt(img: np.ndarray, H: np.ndarray, layout: Layout) -> bool:
    """Whether a morris fit beats its neighbours a unit off (`refine.lattice_steps`) by under UNIT_APART in its
    drawn pattern (`evidence.pattern_contrast`), on the photo's gray and on its hue's copy (blue paint as
    light as its wood shows only there: `linegraph.chroma_contrast`): a fit started a unit off stays there on
    clear lines (its samples on other lines show as many lines as its own, hidden by stones: Blender 117004,
    119003, dev 91000), and only the undrawn segments -- the centre's gap, the lines' ends at the outer square
    -- tell it; where they cannot (faint lines, wood grain as strong as the lines) the fit is in doubt too."""
    if layout.game not in UNIT_APART:
        return False
    steps = _unit_moves(layout.game)
    own, *others = pattern_contrast(gray32(img), [H, *(H @ step for step in steps)], layout)
    if own - max(others) >= UNIT_APART[layout.game]:
        return False
    mid, to_mid = _mid_copy(img)  # the hue's copy at the line search's size: a tenth the CPU
    on_mid = to_mid @ H
    own, *others = pattern_contrast(
        chroma_contrast(mid).astype(np.float32), [on_mid, *(on_mid @ step for step in steps)], layout
    )
    return own - max(others) < UNIT_APART[layout.game]


def _quality(det: Detection, game: str) -> float:
    """How clearly the board's own marks show where the fit puts them, 1 at the acceptance line."""
    return det.evidence / MIN_EVIDENCE[game]


def _accept(det: Detection, game: str) -> bool:
    # the board's own marks (pockets, drawn lines) right where the fit puts them -- for a
    # pocket lattice most of them, missed here and there, never whole lines at a side, however
    # many are seen (a smaller board's border lines and numbers pass for a bigger one's pockets),
    # and no more beyond its clear sides -- and a fit a real camera can make of a flat board of
    # this shape
    return (
        _quality(det, game) >= 1.0
        and det.present >= MIN_PRESENT
        and det.weakest_side >= MIN_WEAKEST_SIDE
        and det.outside <= MAX_OUTSIDE
        and det.camera_error <= MAX_CAMERA_ERROR
    )


def _another_pocket_board(det: Detection, game: str) -> bool:
    """Whether a pocket game's refused fit shows a pocket board of another size: its pockets seen clearly,
    where a real camera can see them, and only the board's extent wrong (a whole side bare, or round
    edges beyond a side): three-stones' 9x9 pockets hold sage-stones' 7x9 grid and the other way round."""
    if get_layout(game).marks != "pocket":
        return False
    pockets_shown = _quality(det, game) >= 1.0 and det.present >= MIN_PRESENT
    extent_wrong = det.weakest_side < MIN_WEAKEST_SIDE or det.outside > MAX_OUTSIDE
    return pockets_shown and det.camera_error <= MAX_CAMERA_ERROR and extent_wrong


def look_order(game: str, det: Detection | None) -> list[str]:
    """The other games a photo refused as `game` is looked at for, in turn: LOOK_ORDER, but the other
    pocket games first where the refused fit shows a pocket board of another size (`det`, the search's
    best fit, None when it found none): a morris search on a pocket board finds no clear line and polishes
    every candidate (1-3 s CPU) before the pocket board is looked for."""
    others = [g for g in LOOK_ORDER if g != game]
    if det is not None and _another_pocket_board(det, game):
        others.sort(key=lambda g: get_layout(g).marks != "pocket")  # stable: LOOK_ORDER within each kind
    return others


def _looks(img: np.ndarray, game: str, det: Detection | None, started: float) -> Iterator[tuple[str, bool]]:
    """The games `_refuse` searches the photo for, in turn, while the reading has taken less than
    REFUSE_LOOK_S (`look_order`), each with whether a glance will do (`detect.find_board`): a drawn
    board whose drawing's structure (morris' line graph, rings' honeycomb, `detect.drawing_fits`) shows
    nowhere in the photo is found only where it stands out clearly, by its best region's fit; the whole
    search would polish every region (1-3 s CPU) to find none."""
    for g in look_order(game, det):
        if time.perf_counter() - started > REFUSE_LOOK_S:
            return
        yield g, mark_grid(g) is None and not drawing_fits(img, get_layout(g))


def _refuse(img: np.ndarray, game: str, started: float, det: Detection | None = None) -> NoReturn:
    """Refuse the photo, naming the game whose board it shows when one is found in time (`det`: the
    refused search's best fit, which tells where to look first, `look_order`)."""
    for g, glance in _looks(img, game, det, started):
        try:
            found = find_board(img, get_layout(g), detection_pool(), started + SEARCH_LIMIT_S, glance)
        except VisionError:
            continue
        if _accept(found, g):
            raise VisionError(f"this looks like a {g} board, not {game}", "wrong_game")
    raise VisionError(f"no {game} board found in the photo", "no_board")


def score_board(source, game: str) -> tuple[Reading, dict]:
    from engine import score_position

    reading = read_board(source, game)
    pos = {"game": game, "cells": reading.cells}
    return reading, score_position(pos)


def debug_image(reading: Reading) -> np.ndarray:
    """The photo with the found outline and every location's reading drawn on it."""
    img = reading.image.copy()
    layout = get_layout(reading.game)
    H = reading.H
    pts = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H).reshape(-1, 2)
    outline = np.array(reading.board_corners, np.float32)
    lw = max(2, round(max(img.shape[:2]) / 500))
    cv2.polylines(img, [np.round(outline).astype(np.int32)], True, (255, 0, 255), lw, cv2.LINE_AA)
    cv2.circle(img, tuple(np.round(outline[0]).astype(int)), 3 * lw, (255, 0, 255), -1)
    colours = {
        "black": (0, 0, 0),
        "white": (255, 255, 255),
        "clear": (200, 255, 200),
        "red": (0, 0, 230),
        "green": (0, 170, 0),
        "blue": (230, 60, 0),
        "yellow": (0, 230, 255),
        "orange": (0, 140, 255),
        "purple": (170, 40, 140),
    }
    rad = max(3, int(0.35 * np.linalg.norm(pts[1] - pts[0]) if len(pts) > 1 else 6))
    rad = max(3, min(rad, 14))
    for pid, (x, y) in zip(layout.ids, pts):
        c = reading.cells[pid]
        p = (int(round(x)), int(round(y)))
        if c is None:
            cv2.circle(img, p, max(2, rad // 3), (0, 255, 255), -1, cv2.LINE_AA)
        else:
            cv2.circle(img, p, rad // 2 + 1, colours[c], -1, cv2.LINE_AA)
            cv2.circle(img, p, rad // 2 + 2, (0, 255, 255), 1, cv2.LINE_AA)
        if reading.confidence[pid] < CHECK_BELOW:
            cv2.circle(img, p, rad, (0, 0, 255), 2, cv2.LINE_AA)
    label = f"{reading.game}: magenta dot = left end of the edge below row 1"
    cv2.putText(img, label, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 0, 255), 2, cv2.LINE_AA)
    return img
