"""Drawn boards found by their structure: the graph of their straight lines.

The region search (`segment.candidate_masks`) needs the board to stand out from the table;
a plain board on a table of its colour, a board merged with a bright reflection, or light
lines inlaid in dark wood often do not.  Morris' drawing still does: three nested squares
and four midlines, two families of straight lines, each family's lines at seven equally
spaced positions (-3..3 board units) that one homography bends into the photo.  So:

1. `long_lines`: straight edges of either polarity (OpenCV's line segment detector finds a
   drawn line's two sides, a groove's shading, an inlay's rim alike), collinear pieces
   merged into long lines (stones and point markers break a drawn line into pieces).  The
   detector's fixed gradient threshold misses a thin line faint against its board (gold
   inlay on ivory paint, a line under a highlight), so its pieces are also looked for on a
   copy whose contrast is stretched tile by tile (`local_contrast`), and a line of another hue
   than its board but of its lightness (blue paint on light wood) on a copy of the colour's
   departure from its surroundings (`chroma_contrast`).
2. `families`: the long lines split by direction into the two families of the drawing's
   sides (near-parallel within a family: a phone sees the board from at most about 45
   degrees).
3. `board_hypotheses`: two lines of each family, the longest first, make a quadrilateral
   that may be the outer square (or a border drawn around it); its corners give a
   homography (board units -> pixels).  A hypothesis counts the family lines that land on
   the drawing's positions under it (the spacing pattern: a board's inner squares and
   midlines, never a table's grain), and the best are scored by the drawing's correlation
   with the photo (`fit.Scorer`), as region candidates are.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import plausible
from .evidence import outline_support, support_lab
from .fit import Scorer
from .layouts import Layout
from .memo import gray32, shrunk
from .tuning import SUPPORT_WEIGHT

LINE_SIDE = 800  # pixels: long side of the copy lines are found on (a 1 mm line still shows)
MIN_PIECE = 0.015  # of the long side: shorter segments are grain, text or a stone's rim
CONTRAST_SAMPLES = 9  # points along a segment where the step across it is measured
CONTRAST_PX = 1.5  # pixels either side of a segment where its step is measured
MERGE_PX = 0.006  # of the long side: pieces this near one line are that line (a line's two sides)
MERGE_DEG = 3.0  # degrees: pieces of one line point this close to the same way
MIN_EXTENT = 0.03  # of the long side: a shorter line is no line of the drawing (markers break the inner ones)
MIN_SIDE = 0.08  # of the long side: the shortest line a side of the outer square can be
FAMILY_SPREAD_DEG = 30.0  # degrees a family's lines spread over (a wide lens at 45 degrees bends them this far apart)
MIN_FAMILY_GAP_DEG = 35.0  # degrees at least between the two families (a square seen at a slant)
SAME_LINE_PX = 0.015  # of the long side: a drawn line's sides, a border's two lines are one side
DIRECTIONS = 3  # strongest line directions paired into families
LINES_PER_FAMILY = 8  # the longest lines of a family the outer square's sides are chosen from
SIDE_COVER = 0.5  # share of a side between its corners the line must run along
POSITION_TOL = 0.12  # board units: a family line this near a drawing position lies on it
MIN_POSITIONS = 6  # drawing positions (of the 14, both families) a hypothesis must have lines on
DRAWING_HALVES = (3.0, 3.3, 3.6)  # half sides the quadrilateral may be: the outer square, a border
SCORED = 40  # hypotheses (most positions first) the drawing's correlation is computed for
KEEP = 3  # line candidates handed on
MIN_SCORE = 0.1  # the drawing's correlation (coarse scorer) a line candidate needs
CONTRAST_CLIP = 2.0  # CLAHE clip limit: lifts a faint line's step over the detector's threshold, not the noise
CONTRAST_TILES = 8  # tiles a side the contrast is stretched over: a board spans a few, so its own shade sets them
CHROMA_SURROUND = 1 / 80  # of the long side: the blur a line's surroundings' colour is taken over (many line widths)
CHROMA_GAIN = 4.0  # gray levels per Lab chroma unit: a painted line's hue step (~20) gets a drawn line's step (~80)


@dataclass(frozen=True)
class Line:
    """A long straight line in the photo: pixels p with n . p = offset, running from t0 to t1
    along the direction d = (-n[1], n[0]); `strength` sums its pieces' lengths times their
    contrast."""

    n: np.ndarray
    offset: float
    t0: float
    t1: float
    strength: float

    @property
    def angle(self) -> float:
        """Direction in degrees, 0..180."""
        return math.degrees(math.atan2(self.n[0], -self.n[1])) % 180.0

    def homogeneous(self) -> np.ndarray:
        return np.array([self.n[0], self.n[1], -self.offset])

    def cover(self, a: np.ndarray, b: np.ndarray) -> float:
        """Share of the stretch a..b (points on or near this line) the line runs along."""
        d = np.array([-self.n[1], self.n[0]])
        ta, tb = sorted((float(d @ a), float(d @ b)))
        return max(0.0, min(tb, self.t1) - max(ta, self.t0)) / max(tb - ta, 1e-9)


def segments(gray: np.ndarray) -> np.ndarray:
    """Straight edge segments of either polarity in an 8-bit gray image: rows (x1, y1, x2, y2,
    contrast), contrast the median step in gray level across the segment (a drawn line's
    rim is sharp, a table's grain is faint)."""
    found = cv2.createLineSegmentDetector().detect(gray)[0]
    if found is None:
        return np.zeros((0, 5))
    seg = found.reshape(-1, 4).astype(np.float64)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    seg, length = seg[length >= MIN_PIECE * max(gray.shape)], length[length >= MIN_PIECE * max(gray.shape)]
    if not len(seg):
        return np.zeros((0, 5))
    a, b = seg[:, None, :2], seg[:, None, 2:]
    along = a + np.linspace(0.1, 0.9, CONTRAST_SAMPLES)[None, :, None] * (b - a)  # (n, samples, 2)
    normal = np.stack([-(b - a)[..., 1], (b - a)[..., 0]], -1) / length[:, None, None]
    img = gray.astype(np.float32)

    def sample(pts: np.ndarray) -> np.ndarray:
        return cv2.remap(img, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR)

    step = np.abs(sample(along + CONTRAST_PX * normal) - sample(along - CONTRAST_PX * normal))
    return np.hstack([seg, np.median(step, axis=1)[:, None]])


def local_contrast(gray: np.ndarray) -> np.ndarray:
    """The gray copy with its contrast stretched tile by tile (CLAHE): a line whose step is a few
    gray levels on a pale board, or under a highlight, gets the step a drawn line has elsewhere."""
    return cv2.createCLAHE(CONTRAST_CLIP, (CONTRAST_TILES, CONTRAST_TILES)).apply(gray)


def chroma_contrast(bgr: np.ndarray) -> np.ndarray:
    """An 8-bit copy showing how far each pixel's hue (Lab a, b) departs from its surroundings': a
    painted line as light as its board (blue on light wood) has no step in gray, only in colour, and
    a table's grain, light and dark of one hue, fades here."""
    ab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)[..., 1:].astype(np.float32)
    around = cv2.GaussianBlur(ab, (0, 0), CHROMA_SURROUND * max(bgr.shape[:2]))
    return np.clip(CHROMA_GAIN * np.linalg.norm(ab - around, axis=2), 0, 255).astype(np.uint8)


def long_lines(seg: np.ndarray, side: int) -> list[Line]:
    """Collinear segments merged into lines, the strongest first: a piece joins the first line
    (longest piece first) whose first piece it lies along, and each line is fitted through its
    pieces' ends at the end."""
    tol = MERGE_PX * side
    order = np.argsort(-np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]))
    groups: list[list[int]] = []
    normals = np.zeros((len(seg), 2))  # each group's first piece: its normal, offset and angle
    offsets = np.zeros(len(seg))
    angles = np.zeros(len(seg))
    for k in order:
        a, b = seg[k, :2], seg[k, 2:4]
        d = (b - a) / np.linalg.norm(b - a)
        angle = math.degrees(math.atan2(d[1], d[0])) % 180.0
        g = len(groups)
        turn = np.abs(angles[:g] - angle)
        along = (
            (np.minimum(turn, 180.0 - turn) <= MERGE_DEG)
            & (np.abs(normals[:g] @ a - offsets[:g]) <= tol)
            & (np.abs(normals[:g] @ b - offsets[:g]) <= tol)
        )
        if along.any():
            groups[int(np.argmax(along))].append(int(k))
            continue
        normals[g] = (-d[1], d[0])
        offsets[g], angles[g] = normals[g] @ a, angle
        groups.append([int(k)])
    out = []
    for members in groups:
        pieces = seg[members]
        n, off = _fit(pieces)
        t = pieces[:, :4].reshape(-1, 2) @ np.array([-n[1], n[0]])
        strength = float((np.hypot(pieces[:, 2] - pieces[:, 0], pieces[:, 3] - pieces[:, 1]) * pieces[:, 4]).sum())
        out.append(Line(n=n, offset=off, t0=float(t.min()), t1=float(t.max()), strength=strength))
    out.sort(key=lambda line: -line.strength)
    return [line for line in out if line.t1 - line.t0 >= MIN_EXTENT * side]


def _fit(pieces: np.ndarray) -> tuple[np.ndarray, float]:
    """The line through pieces' ends (rows x1, y1, x2, y2, ...), weighted by length: (unit
    normal, offset)."""
    ends = pieces[:, :4].reshape(-1, 2)
    weight = np.repeat(np.hypot(pieces[:, 2] - pieces[:, 0], pieces[:, 3] - pieces[:, 1]), 2)
    centre = (ends * weight[:, None]).sum(0) / weight.sum()
    _, _, vt = np.linalg.svd((ends - centre) * np.sqrt(weight)[:, None], full_matrices=False)
    n = np.array([-vt[0, 1], vt[0, 0]])
    return n, float(n @ centre)


def _angle_gap(a: float, b: float) -> float:
    turn = abs(a - b) % 180.0
    return min(turn, 180.0 - turn)


def families(lines: list[Line]) -> list[tuple[list[Line], list[Line]]]:
    """Pairs of line families: the DIRECTIONS strongest directions (by summed strength, each
    FAMILY_SPREAD_DEG from a stronger one) taken two at a time when they are MIN_FAMILY_GAP_DEG
    apart, each family the lines nearer its direction than the other's, strongest first (a
    table's grain may be stronger than one of the board's directions)."""
    if not lines:
        return []
    angles = np.array([line.angle for line in lines])
    weight = np.array([line.strength for line in lines])

    def gaps(theta: float) -> np.ndarray:
        turn = np.abs(angles - theta) % 180.0
        return np.minimum(turn, 180.0 - turn)

    mass = np.array([weight[gaps(a) <= FAMILY_SPREAD_DEG / 2].sum() for a in angles])
    peaks: list[float] = []
    for k in np.argsort(-mass):
        if len(peaks) == DIRECTIONS:
            break
        if all(_angle_gap(angles[k], p) > FAMILY_SPREAD_DEG for p in peaks):
            peaks.append(float(angles[k]))
    pairs = []
    for first, second in itertools.combinations(peaks, 2):
        if _angle_gap(first, second) < MIN_FAMILY_GAP_DEG:
            continue
        to_first, to_second = gaps(first), gaps(second)
        near_first = (to_first <= FAMILY_SPREAD_DEG) & (to_first < to_second)
        near_second = (to_second <= FAMILY_SPREAD_DEG) & (to_second < to_first)
        pairs.append(
            (
                [line for line, ok in zip(lines, near_first, strict=True) if ok],
                [line for line, ok in zip(lines, near_second, strict=True) if ok],
            )
        )
    return pairs


def distinct_lines(family: list[Line], tol: float) -> list[Line]:
    """The family's lines less those within `tol` pixels of a longer one along its length (a
    drawn line's two sides are one side of a square)."""
    kept: list[Line] = []
    for line in family:
        ends = _ends([line])[0, :, :2]
        if not any(np.abs(ends @ other.n - other.offset).max() <= tol for other in kept):
            kept.append(line)
    return kept


def _ends(lines: list[Line]) -> np.ndarray:
    """Each line's two ends in pixels, homogeneous: shape (len(lines), 2, 3)."""
    out = np.ones((len(lines), 2, 3))
    for k, line in enumerate(lines):
        d = np.array([-line.n[1], line.n[0]])
        out[k, :, :2] = line.offset * line.n + np.array([line.t0, line.t1])[:, None] * d
    return out


UNIT_SQUARE = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]], np.float32)


def outer_squares(sides_a: list[Line], sides_b: list[Line]) -> list[np.ndarray]:
    """Homographies laying the square of half side 1 (y up, not mirrored: a camera above the
    board sees its counter-clockwise as clockwise) on every quadrilateral two lines of each
    family make where each line runs along at least SIDE_COVER of its side."""
    if len(sides_a) < 2 or len(sides_b) < 2:
        return []
    ha = np.array([line.homogeneous() for line in sides_a])
    hb = np.array([line.homogeneous() for line in sides_b])
    x = np.cross(ha[:, None, :], hb[None, :, :])  # (na, nb, 3): where line i of a crosses line j of b
    with np.errstate(divide="ignore", invalid="ignore"):
        corner = x[..., :2] / x[..., 2:]
    da = np.array([[-line.n[1], line.n[0]] for line in sides_a])
    db = np.array([[-line.n[1], line.n[0]] for line in sides_b])
    ta = np.einsum("ijk,ik->ij", corner, da)  # each crossing's place along the a line ...
    tb = np.einsum("ijk,jk->ij", corner, db)  # ... and along the b line

    def covers(line: Line, t1: float, t2: float) -> bool:
        lo, hi = min(t1, t2), max(t1, t2)
        return min(hi, line.t1) - max(lo, line.t0) >= SIDE_COVER * (hi - lo)

    out = []
    for (i1, i2), (j1, j2) in itertools.product(
        itertools.combinations(range(len(sides_a)), 2), itertools.combinations(range(len(sides_b)), 2)
    ):
        quad = corner[[i1, i1, i2, i2], [j1, j2, j2, j1]]
        if not np.isfinite(quad).all():
            continue
        if not (
            covers(sides_a[i1], ta[i1, j1], ta[i1, j2])
            and covers(sides_a[i2], ta[i2, j1], ta[i2, j2])
            and covers(sides_b[j1], tb[i1, j1], tb[i2, j1])
            and covers(sides_b[j2], tb[i1, j2], tb[i2, j2])
        ):
            continue
        quad32 = quad.astype(np.float32)
        if not cv2.isContourConvex(quad32):
            continue
        if cv2.contourArea(quad32, oriented=True) < 0:
            quad32 = quad32[::-1].copy()
        out.append(cv2.getPerspectiveTransform(UNIT_SQUARE, quad32).astype(np.float64))
    return out


def drawing_fit(squares: list[np.ndarray], ends: np.ndarray, half: float) -> np.ndarray:
    """How well each fit (square of half side 1 -> pixels, taken as the square of half side
    `half`) puts the family lines on the drawing's line positions (7 a family, at -3..3 board
    units): the positions that have a line on them less the lines that lie between positions
    inside the outer square (a board's lines are on positions, a table's grain is not)."""
    inv = np.linalg.inv(np.array(squares))  # (q, 3, 3)
    u = np.einsum("qij,lej->qlei", inv, ends)  # (q, lines, 2 ends, 3)
    u = half * u[..., :2] / u[..., 2:]
    score = np.zeros(len(squares))
    for axis in (0, 1):
        c, along = u[..., axis], u[..., 1 - axis]
        straight = np.abs(c[..., 0] - c[..., 1]) <= POSITION_TOL  # runs along this axis
        inside = straight & (np.abs(along).max(-1) <= 3 + POSITION_TOL) & (np.abs(c).max(-1) <= 3 + POSITION_TOL)
        mean = c.mean(-1)
        k = np.round(mean)
        on = inside & (np.abs(c - k[..., None]).max(-1) <= POSITION_TOL)
        off = inside & (np.abs(mean - k) > 2 * POSITION_TOL)
        hit = np.zeros((len(squares), 7), bool)
        q, line = np.nonzero(on)
        hit[q, k[q, line].astype(int) + 3] = True
        score += hit.sum(1) - off.sum(1)
    return score


def _square_hypotheses(fam_a: list[Line], fam_b: list[Line], side: int, scale: float) -> list[tuple[float, np.ndarray]]:
    """(drawing_fit, board units -> pixels scaled by `scale`) of every outer square two
    families make that puts lines on at least MIN_POSITIONS of the drawing's positions."""
    long_a, long_b = ([line for line in fam if line.t1 - line.t0 >= MIN_SIDE * side] for fam in (fam_a, fam_b))
    squares = outer_squares(
        distinct_lines(long_a, SAME_LINE_PX * side)[:LINES_PER_FAMILY],
        distinct_lines(long_b, SAME_LINE_PX * side)[:LINES_PER_FAMILY],
    )
    if not squares:
        return []
    ends = _ends(fam_a + fam_b)
    return [
        (float(fit), np.diag([scale, scale, 1.0]) @ H1 @ np.diag([1 / half, 1 / half, 1.0]))
        for half in DRAWING_HALVES
        for fit, H1 in zip(drawing_fit(squares, ends, half), squares, strict=True)
        if fit >= MIN_POSITIONS
    ]


def line_candidates(img: np.ndarray, small: np.ndarray, layout: Layout) -> list[tuple[float, np.ndarray]]:
    """Morris fits (rank, board units -> pixels of `small`) from the photo's line graph: rank is
    the coarse drawing score plus the outline's support, as region candidates are ranked."""
    if layout.game != "morris":
        return []
    mid = shrunk(img, min(LINE_SIDE, max(img.shape[:2])))
    gray_mid = cv2.cvtColor(mid, cv2.COLOR_BGR2GRAY)
    side = max(gray_mid.shape)
    hypotheses: list[tuple[float, np.ndarray]] = []
    # the pieces on the photo's own gray, on the stretched copy and on the hue's: a clear line found
    # on all counts thrice, a faint one only found stretched or by its hue once (it still makes a family)
    by_hue = segments(chroma_contrast(mid))
    seg = np.vstack([segments(gray_mid), segments(local_contrast(gray_mid)), by_hue])
    # ... and the hue's pieces on their own: a table's grain, as long as the board's lines and
    # many, crowds them out of the longest of their family, and the hue's copy shows no grain
    for pieces in (seg, by_hue):
        for fam_a, fam_b in families(long_lines(pieces, side)):
            hypotheses += _square_hypotheses(fam_a, fam_b, side, small.shape[1] / mid.shape[1])
    hypotheses.sort(key=lambda hyp: -hyp[0])
    gray_small = gray32(small)
    lab_small = support_lab(small)
    coarse = Scorer.coarse(layout)
    out = []
    for _, H in hypotheses[:SCORED]:
        if not plausible(H, layout, small.shape):
            continue
        score = coarse.score(gray_small, H)
        if score >= MIN_SCORE:
            out.append((score + SUPPORT_WEIGHT * outline_support(small, H, layout, lab=lab_small), H))
    out.sort(key=lambda o: -o[0])
    return out
