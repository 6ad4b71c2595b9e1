"""Refinement at full resolution: a rough fit pulled onto the board's drawn lines, its stones'
round edges, or its top face's edge.

A fit is a homography `H` (the usual name in this maths: board units -> image pixels).  Each
function returns a better one, or `H` unchanged when the photo does not show enough to move it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from .camera import raised
from .consensus import consensus_homography
from .evidence import (
    line_evidence,
    line_kernel,
    line_peaks,
    line_samples,
    lines_bar,
    outline_support,
    lines_everywhere,
    outline_samples,
    stronger_on,
    sure_stones,
)
from .frame import Frame
from .layouts import Layout
from .memo import per_image
from .naming import colour_space
from .segment import thin_lines
from .tuning import (
    LATTICE_DRAWN,
    LATTICE_WALK,
    CLEAN_OUTLINE,
    NESTED_SCALES,
    OUTLINE_STEP_GAIN,
    STEPPED_BY_OUTLINE,
    NESTED_SURE,
    REPEATING,
    WALK_BY_LINES,
    WALK_LINES_LOSS,
    FAINT_LINES_SHOWN,
    LINE_REFINE_ROUNDS,
    LINE_FIT_HOLD,
    LINE_FIT_ROUNDS,
    LINE_FIT_SPREAD,
    LINE_SETTLED,
    LINE_SETTLE_ROUNDS,
    MIN_LINE_MARKS,
    MIN_OUTLINE_EDGES,
    MIN_STONE_MARKS,
    OUTLINE_EDGE_SHARE,
    OUTLINE_INLIERS,
    OUTLINE_RANSAC,
    OUTLINE_REFINE_ROUNDS,
    OUTLINE_STEPS,
    POINT_KINDS_APART,
    POINT_LOOK_S,
    MIN_OUTLINE_CHANGE,
    MIN_SELF_CONSISTENT,
    SNAP_REACH,
    SNAP_S,
    SNAP_SCALES,
    SNAP_STEP,
    MARK_RANSAC,
    STONE_LIFT,
    STONE_MARKED,
)


def _unit_px(H: np.ndarray) -> float:
    """How many pixels one board unit spans at the board's centre."""
    c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
    return float(np.linalg.norm(c[1] - c[0]))


def _moved(H: np.ndarray, scale: float, dx: float, dy: float) -> np.ndarray:
    """H after scaling the board by `scale` and moving it by (dx, dy) board units."""
    return H @ np.array([[scale, 0.0, dx], [0.0, scale, dy], [0.0, 0.0, 1.0]])


def line_snap(
    gray: np.ndarray,
    H: np.ndarray,
    layout: Layout,
    reach: float = SNAP_REACH,
    step: float = SNAP_STEP,
    scales: tuple[float, ...] = SNAP_SCALES,
) -> np.ndarray:
    """Drawn boards: the shift (and slight scale) within `reach` board units that lays the most
    drawn-line samples on dark thin lines -- a wider reach than `line_refine`'s, for outline fits
    pushed off by the board's visible side or its shadow."""
    pts, _ = line_samples(layout.game)
    fr = Frame(layout, SNAP_S, margin=0.5 + reach)
    maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), line_kernel(layout.game, SNAP_S))
    ink = stronger_on(maps, fr.to_px(pts))
    ink = cv2.GaussianBlur(np.minimum(ink, np.percentile(ink, 99.5)), (0, 0), 0.6)
    d = np.arange(-reach, reach + 1e-9, step)
    dx, dy = np.meshgrid(d, d)
    shifts = np.stack([dx.ravel(), dy.ravel()], 1)
    best = (-1.0, 1.0, np.zeros(2))
    for scale in scales:
        moved = (pts * scale)[None, :, :] + shifts[:, None, :]
        px = fr.to_px(moved.reshape(-1, 2)).astype(np.float32).reshape(len(shifts), len(pts), 2)
        score = cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean(1)
        i = int(np.argmax(score))
        if score[i] > best[0]:
            best = (float(score[i]), scale, shifts[i])
    _, scale, (tx, ty) = best
    return _moved(H, scale, tx, ty)


def lattice_steps(game: str) -> list[np.ndarray]:
    """The whole steps a drawn board's lines repeat by (none: the fit stays): rings' circles the six
    of its triangular lattice; morris' squares one unit along either axis, which lays the nested
    squares' sides and the cross lines on other lines for most of their length."""
    turns = REPEATING.get(game, 0)
    return [np.array([math.cos(2 * math.pi * j / turns), math.sin(2 * math.pi * j / turns)]) for j in range(turns)]


def whole_steps(game: str, reach: int = LATTICE_WALK) -> list[np.ndarray]:
    """Every shift by up to `reach` whole steps of a drawn board's repeating lattice (board units),
    the zero shift first: rings' triangular lattice of circles, a hexagon of them."""
    steps = lattice_steps(game)
    if len(steps) != 6:
        return [np.zeros(2)]
    a, b = steps[0], steps[1]
    return [
        i * a + j * b
        for i, j in sorted(
            ((i, j) for i in range(-reach, reach + 1) for j in range(-reach, reach + 1) if abs(i + j) <= reach),
            key=lambda ij: (abs(ij[0]) + abs(ij[1]) + abs(ij[0] + ij[1]), ij),
        )
    ]


def outline_shown_by_step(
    mid: np.ndarray, lab: np.ndarray, to_mid: np.ndarray, H: np.ndarray, layout: Layout
) -> np.ndarray:
    """`outline_support` of the fit moved by each of `whole_steps` (on `mid`, a copy of the photo that
    `to_mid` maps full-size pixels onto, and `lab` its `support_lab`), in their order."""
    return np.array(
        [outline_support(mid, to_mid @ _moved(H, 1.0, s[0], s[1]), layout, lab=lab) for s in whole_steps(layout.game)]
    )


def onto_the_board(mid: np.ndarray, lab: np.ndarray, to_mid: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """A rings fit whole steps of its lattice off lies on drawn circles and stones as well as the right
    one where the two overlap, and its circles run off the board, where a textured table shows ink
    (`on_the_lattice` walked the wrong way): only the board's edge tells the step.  Of the fit moved
    by up to LATTICE_WALK whole steps, the one whose outline shows a clean edge (CLEAN_OUTLINE) where
    the fit's does not, by OUTLINE_STEP_GAIN more, is on the board; `H` unchanged otherwise."""
    if layout.game not in STEPPED_BY_OUTLINE:
        return H
    shown = outline_shown_by_step(mid, lab, to_mid, H, layout)
    best = int(np.argmax(shown))
    if shown[best] < CLEAN_OUTLINE or shown[best] - shown[0] < OUTLINE_STEP_GAIN:
        return H
    step = whole_steps(layout.game)[best]
    return _moved(H, 1.0, step[0], step[1])


def on_the_lattice(gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """A drawn board's lines repeat, so a fit a whole step off (`lattice_steps`), or on another of
    morris' nested squares, lies on lines nearly everywhere: of the fit and its neighbours one step
    away, the one whose drawn-line samples show the most ink (morris: the most lines) wins (a shifted
    fit runs its edge lines off the board, onto the table), and from there its neighbours, for a
    few steps. Morris' nested squares are tried first, by scaling."""
    shown: Callable[[np.ndarray], float]
    if layout.game in WALK_BY_LINES:
        bar = lines_bar(gray, H, layout)  # one bar for every fit compared

        def lines_at(fit_h: np.ndarray) -> float:
            return lines_everywhere(gray, fit_h, layout, bar)

        H = _onto_its_own_square(gray, H, layout, lines_at)
        # faint lines pass under the bar: the count then sees the stones' and the board's edges, not lines
        faint = lines_at(H) < FAINT_LINES_SHOWN.get(layout.game, 0.0)

        def shown(step: np.ndarray) -> float:
            return lines_at(_moved(H, 1.0, step[0], step[1]))

    else:
        faint = False
        pts, _ = line_samples(layout.game)
        fr = Frame(layout, SNAP_S, margin=LATTICE_WALK + 0.5)
        maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), line_kernel(layout.game, SNAP_S))
        ink = stronger_on(maps, fr.to_px(pts))

        def shown(step: np.ndarray) -> float:
            px = fr.to_px(pts + step).astype(np.float32).reshape(1, -1, 2)
            return float(cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean())

    steps = lattice_steps(layout.game)
    if not steps:
        return H
    steps = [np.zeros(2), *steps]
    at = np.zeros(2)
    for _ in range(LATTICE_WALK):  # walk while a neighbour shows more: a coarse fit may be steps off
        here = line_evidence(gray, _moved(H, 1.0, at[0], at[1]), layout) if faint else 0.0
        best = max(
            (at + step for step in steps if not faint or _keeps_its_lines(gray, H, here, step, at + step, layout)),
            key=shown,
        )
        if np.allclose(best, at):
            break
        at = best
    return _moved(H, 1.0, at[0], at[1])


def _keeps_its_lines(
    gray: np.ndarray, H: np.ndarray, here: float, step: np.ndarray, to: np.ndarray, layout: Layout
) -> bool:
    """Whether a lattice `step` to `to` (board units from `H`) keeps the drawn lines where the fit puts them
    (`line_evidence`, within WALK_LINES_LOSS of `here`, the fit's before the step), asked on faint lines only: there the walk's count of
    strong peaks sees only stones' and the board's edges, and a step that follows them leaves the lines
    (Blender 117005: gold on ivory).  On clear lines the count is right, and a fit a unit off may show a
    higher line evidence than its own (its samples on other lines, its own hidden by stones: the guard kept
    unit-off starts there on Blender 117004, 119003, dev 91000)."""
    if np.allclose(step, 0.0):
        return True
    return line_evidence(gray, _moved(H, 1.0, to[0], to[1]), layout) >= here - WALK_LINES_LOSS


def _onto_its_own_square(
    gray: np.ndarray, H: np.ndarray, layout: Layout, lines_at: Callable[[np.ndarray], float]
) -> np.ndarray:
    """A fit on another of morris' nested squares, scaled back onto its own: the scale whose fit shows
    lines at more of its samples, refined again (scaled with it, the fit's error on the other square
    grew) and kept only where then nearly all its samples show a line (the right fits of dev seeds
    69, 71, 91 show 0.85-1.0; a wide groove's fit scaled up onto the table showed less)."""
    if layout.game not in NESTED_SCALES:
        return H
    lines_now = lines_at(H)
    lines_scaled, scaled = max(
        ((lines_at(fit_h), fit_h) for fit_h in (_moved(H, k, 0.0, 0.0) for k in NESTED_SCALES[layout.game])),
        key=lambda item: item[0],
    )
    if lines_scaled <= lines_now:
        return H
    refined = line_refine(gray, scaled, layout)
    return refined if lines_at(refined) >= max(NESTED_SURE, lines_now) else H


def point_kinds(layout: Layout) -> np.ndarray | None:
    """Rings' two kinds of point (True: an up triangle's, `U...`): mirror images of each other on
    the drawing, so on a fit that lies on the points the empty ones of both kinds look alike.
    None for boards of one kind of point."""
    if layout.game not in LATTICE_DRAWN:
        return None
    return np.array([pid.startswith("U") for pid in layout.ids])


def point_look_gap(img: np.ndarray, H: np.ndarray, layout: Layout, up: np.ndarray) -> float:
    """The colour distance (`naming.colour_space`) between the median look at the up points and at
    the down points, each the median Lab of a disc half a stone across at the point's foot: stones
    fall on both kinds alike, so only a fit off the points sets the two kinds apart."""
    fr = Frame(layout, POINT_LOOK_S, margin=0.3)
    lab = cv2.cvtColor(fr.warp(img, H).astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    r = max(1, int(round(0.5 * layout.stone_radius * POINT_LOOK_S)))
    yy, xx = np.mgrid[-r : r + 1, -r : r + 1]
    disc = (yy * yy + xx * xx) <= r * r
    ix, iy = np.round(fr.to_px(layout.xy)).astype(int).T
    rows = np.clip(iy[:, None] + yy[disc][None], 0, lab.shape[0] - 1)
    cols = np.clip(ix[:, None] + xx[disc][None], 0, lab.shape[1] - 1)
    look = colour_space(np.median(lab[rows, cols], axis=1).astype(np.float64))
    return float(np.linalg.norm(np.median(look[up], 0) - np.median(look[~up], 0)))


def third_steps() -> list[tuple[float, float]]:
    """A third of the way across a lattice triangle, six ways (board units): the shifts that carry
    the up points onto the down points, the down points onto the circles' centres and the centres
    onto the up points."""
    turns = [math.pi / 6 + math.pi * j / 3 for j in range(6)]
    return [(math.cos(a) / math.sqrt(3), math.sin(a) / math.sqrt(3)) for a in turns]


def onto_the_points(img: np.ndarray, gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """A rings fit a third of a triangle off lies on drawn circles where its up points and down
    points look unlike each other (one kind lands on the circles' centres): of the fits a third
    step away, each walked onto the lattice (`on_the_lattice`), those whose two kinds look alike
    and whose drawn lines show more ink than `H`'s are on the points, and the one whose lines show
    the most wins.  `H` unchanged when
    its two kinds look alike already, or no shift makes them."""
    up = point_kinds(layout)
    if up is None:
        return H
    gap = point_look_gap(img, H, layout, up)
    if gap < POINT_KINDS_APART:
        return H
    shifted = [on_the_lattice(gray, _moved(H, 1.0, dx, dy), layout) for dx, dy in third_steps()]
    alike = min(POINT_KINDS_APART, gap / 2)  # and clearly more alike than on `H`
    # ... and on the drawing: a fit on the points shows the circles, one a third off misses them
    # (a real photo's light can set the kinds apart on the right fit: ../shared/photos/rings_001)
    shown = line_evidence(gray, H, layout)
    on_points = [
        (ink, fit_h)
        for fit_h in shifted
        if point_look_gap(img, fit_h, layout, up) < alike and (ink := line_evidence(gray, fit_h, layout)) > shown
    ]
    if not on_points:
        return H
    return max(on_points, key=lambda item: item[0])[1]


def line_refine(
    gray: np.ndarray, H: np.ndarray, layout: Layout, rounds: tuple[float, ...] = LINE_REFINE_ROUNDS
) -> np.ndarray:
    """Drawn boards: pull the fit onto the drawn lines (morris squares, rings circles) or onto
    the round edges of the stones (a crowded rings board hides most of its lines).  A line sample
    is matched straight across its line, so a fit that is off along the lines comes back only a
    part of the way in a round: the last window is looked in again until the fit settles."""
    _, nrm = line_samples(layout.game)
    if len(nrm) < MIN_LINE_MARKS:
        return H
    windows = list(rounds) + [rounds[-1]] * LINE_SETTLE_ROUNDS
    for k, win in enumerate(windows):
        refitted = _line_round(gray, H, layout, win, nrm)
        if refitted is None:
            return H
        H, moved = refitted, moved_by(H, refitted, layout)
        if k >= len(rounds) - 1 and moved < LINE_SETTLED:
            break
    return H


def _line_round(gray: np.ndarray, H: np.ndarray, layout: Layout, win: float, nrm: np.ndarray) -> np.ndarray | None:
    """One round of `line_refine`: the refit to the lines or the stones, whichever agrees more with
    itself, or None when neither does."""
    pts, off, strong = line_peaks(gray, H, layout, win)
    # each kind of mark on its own (the stones stand a little above the lines): the
    # more self-consistent fit wins
    best = None
    if strong.sum() >= MIN_LINE_MARKS:
        best = _onto_the_lines(H, pts[strong], nrm[strong], off[strong])
        if best[0] >= 1.0:  # every line sample agrees: no stones' refit can agree more (nor is looked for)
            return best[1]
    # stones: the strongest round edge of a stone's size near each location.  A stone's edge shows
    # above the board, toward the camera: where stones mark the fit, they are found on that raised
    # plane and the refit is lowered back onto the board
    lift = STONE_LIFT * layout.stone_radius if layout.game in STONE_MARKED else 0.0
    H_stones = raised(H, gray.shape, lift)
    src, found = sure_stones(gray, H_stones, layout, win)
    if len(src) >= MIN_STONE_MARKS:
        img_pts = cv2.perspectiveTransform(found.reshape(-1, 1, 2), H_stones).reshape(-1, 2)
        refitted, inliers = consensus_homography(
            src, img_pts, max(1.0, MARK_RANSAC * _unit_px(H)), least_share=MIN_SELF_CONSISTENT
        )
        if refitted is not None and inliers is not None and (best is None or inliers.mean() > best[0]):
            best = (float(inliers.mean()), raised(refitted, gray.shape, -lift))
    return None if best is None or best[0] < MIN_SELF_CONSISTENT else best[1]


def _onto_the_lines(H: np.ndarray, pts: np.ndarray, nrm: np.ndarray, off: np.ndarray) -> tuple[float, np.ndarray]:
    """(share of the samples it agrees with, the refit) moving each line sample across its line by
    its offset and leaving it free along it: a small homography A of the board (H' = H A), linear
    in its eight entries, such that n . (A(p) - p) = offset for every sample p with normal n,
    solved by least squares on the samples that agree with it (a peak on the wrong line does not).
    Matching each sample to a point instead holds the fit where it is along the lines."""
    x, y = pts[:, 0], pts[:, 1]
    nx, ny = nrm[:, 0], nrm[:, 1]
    # d A(p) / d (a, b, c, d, e, f, g, h) at A = identity, across the line
    rows = np.stack([nx * x, nx * y, nx, ny * x, ny * y, ny, -x * (nx * x + ny * y), -y * (nx * x + ny * y)], 1)
    agree = np.ones(len(off), bool)
    step = np.zeros(8)
    # what the samples leave open (lines of one family only say nothing along them) stays as it is:
    # each entry is held at zero as strongly as LINE_FIT_HOLD samples would, scaled by how far it
    # moves a point at the board's edge
    hold = np.diag(LINE_FIT_HOLD * np.array([3.0, 3.0, 1.0, 3.0, 3.0, 1.0, 9.0, 9.0]))
    for _ in range(LINE_FIT_ROUNDS):
        step = np.linalg.lstsq(np.vstack([rows[agree], hold]), np.concatenate([off[agree], np.zeros(8)]), rcond=None)[0]
        miss = np.abs(rows @ step - off)
        spread = 1.4826 * float(np.median(miss[agree]))
        now = miss <= max(MARK_RANSAC, LINE_FIT_SPREAD * spread)
        if np.array_equal(now, agree) or now.sum() < MIN_LINE_MARKS:
            break
        agree = now
    a, b, c, d, e, f, g, h = step
    A = np.array([[1 + a, b, c], [d, 1 + e, f], [g, h, 1.0]])
    refit = H @ A
    return float(np.mean(np.abs(rows @ step - off) <= MARK_RANSAC)), refit / refit[2, 2]


def moved_by(H: np.ndarray, refitted: np.ndarray, layout: Layout) -> float:
    """How far (board units) the refit moves the board's outline corners, at most."""
    corners = layout.outline.reshape(-1, 1, 2).astype(np.float64)
    back = cv2.perspectiveTransform(cv2.perspectiveTransform(corners, refitted), np.linalg.inv(H))
    return float(np.linalg.norm((back - corners).reshape(-1, 2), axis=1).max())


@per_image
def _edge_lab(img: np.ndarray) -> np.ndarray:
    """The photo in Lab, lightly smoothed, where `outline_refine` looks for the top face's edge."""
    return cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.2), cv2.COLOR_BGR2Lab).astype(np.float32)


def outline_refine(
    img: np.ndarray, H: np.ndarray, layout: Layout, rounds: tuple[float, ...] = OUTLINE_REFINE_ROUNDS
) -> np.ndarray:
    """Pull the outline onto the board's top-face edge: along each side's normal take the innermost
    strong colour edge (outside it there may be the board's visible side and its shadow)."""
    pts, nrm = outline_samples(layout.game, 160)
    lab = _edge_lab(img)
    h, w = img.shape[:2]
    for win in rounds:
        offs = np.linspace(-win, win, OUTLINE_STEPS)
        across = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
        px = cv2.perspectiveTransform(across.reshape(-1, 1, 2), H).reshape(len(pts), len(offs), 2).astype(np.float32)
        vals = cv2.remap(lab, px[..., 0], px[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        change = np.linalg.norm(vals[:, 2:] - vals[:, :-2], axis=2)  # colour change along the normal
        inside_img = ((px[..., 0] > 1) & (px[..., 0] < w - 2) & (px[..., 1] > 1) & (px[..., 1] < h - 2)).all(1)
        found, src_pts = [], []
        for i in range(len(pts)):
            d = change[i]
            strongest = float(d.max())
            if not inside_img[i] or strongest < MIN_OUTLINE_CHANGE:
                continue
            j = int(np.argmax(d >= OUTLINE_EDGE_SHARE * strongest))  # innermost strong edge
            # local maximum from there
            while j + 1 < len(d) and d[j + 1] > d[j]:
                j += 1
            found.append(pts[i] + offs[j + 1] * nrm[i])
            src_pts.append(pts[i])
        if len(found) < MIN_OUTLINE_EDGES:
            return H
        img_pts = cv2.perspectiveTransform(np.array(found).reshape(-1, 1, 2), H).reshape(-1, 2)
        refitted, inliers = consensus_homography(
            np.array(src_pts), img_pts, max(1.0, OUTLINE_RANSAC * _unit_px(H)), least_share=OUTLINE_INLIERS
        )
        if refitted is None or inliers is None or inliers.sum() < OUTLINE_INLIERS * len(src_pts):
            return H
        H = refitted
    return H
