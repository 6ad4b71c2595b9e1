"""Finding the board in a photo and the homography onto its canonical layout.

1. Candidate regions on a small copy of the photo: colour clusters, colour + wood-grain
   texture clusters, a border (table) colour model, and the density of round blobs
   (pockets, stones).  Each filled region gives outline fits two ways: an N-gon fitted
   to its contour, and a moment/overlap fit refined by ECC on the silhouette.
2. Every candidate homography is scored by correlating the warped photo's edges with a
   drawing of the board's own features (pockets, lines, circles, outline) plus the share
   of the outline that shows a real edge; implausible ones (not what a pinhole camera
   sees of this shape) are dropped.
3. The best few are refined: on the blobs at the pockets (pocket boards), ECC on the
   feature drawing, then at full resolution on the drawn lines (morris, rings) or the
   pockets, the top-face edge (the board's visible side and shadow lie outside it) and
   ECC again.
"""

from __future__ import annotations

import functools
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import VisionError
from .frame import Frame
from .lattice import lattice_candidates
from .marks import grid_fit, mark_grid, ring_response, window_peaks
from .layouts import SQRT3, Layout, grid_symmetries, ring_circles

SMALL = 400                        # long side of the segmentation copy
GRID_CANDIDATES = 10               # distinct outline fits tried on the lattice of round marks
LATTICE_CANDIDATES = 4             # distinct fits from the lattice of round marks itself (`lattice.py`)
GRID_FINE_S = 20.0                 # pixels per board unit of the full-resolution lattice fit
LINE_S = {"morris": 40.0, "rings": 60.0}  # pixels per board unit where drawn lines are followed
LINE_KERNEL = {"morris": 0.2, "rings": 0.35}  # board units: a drawn line is thinner (rings' 6 mm lines ~0.2)
SNAP_S = 24.0                      # pixels per board unit where drawn lines are searched widely
STONE_S = 20.0                     # pixels per board unit where drawn boards' stones are looked for
CLEAR_LINES = {"morris": 0.8, "rings": 0.45}  # line evidence of a fit that needs no second try
LINE_TOL = 0.05                    # board units: a drawn line found this close to the fit's is where it says
HIDDEN = 1.7                       # stone radii from a stone's location: its body hides the lines
MIN_SEEN = 60                      # line samples it takes to judge a fit by the lines left in view
# where a drawing's outer edge may run, in board units beyond the outermost locations: its
# outermost line (morris' outer square, rings' outer circles) or a border drawn nearer the edge
DRAWING_PADS = {"morris": (0.0, 0.3, 0.6), "rings": (1 / math.sqrt(3), 0.85)}
STONE_EDGE = 0.45                  # a stone's round edge: this share of the strongest ones in the warp
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="vision-detect")
MAX_CAMERA_ERROR_CANDIDATE = 0.2   # looser than the final check: ECC still improves them
MAX_CAMERA_ERROR = 0.06            # the final fit must be what a real camera sees of this board's shape
DRAWN_FINALS = 3                   # drawn boards: candidates polished at full resolution, at most
LATTICE_WALK = 3                   # whole lattice steps a drawn fit may be moved by
LATTICE_DRAWN = ("rings",)         # drawn boards whose lines repeat a whole step away (`on_the_lattice`)
STONE_MARKED = ("rings",)          # drawn boards whose stones, when crowded, show the fit better than the lines
CROWDED = 0.5                      # share of the locations holding a stone
POINT_MARKED = ("morris",)         # drawn boards whose points may carry round markers (`point_evidence`)
POINT_SIZES = (0.7, 0.85, 1.0, 1.15)  # a point's round mark, in stone radii: a big dot, a ring, a stone
CENTRED = 0.08                     # board units: a stone's edge centred this close to its location
STONE_LIFT = 0.4                   # stone radii above the board where a stone's edge shows
NUMBERS_S = 30.0                   # pixels per board unit where an oriented board's numbers are looked for
NUMBERS_CLEAR = 2.5                # one end's margin this much inkier than the other's: the numbered one
CLEAR_MARGIN = 0.25                # the orientation margin of a way round the numbers tell (certainty 1)


@dataclass
class Detection:
    H: np.ndarray            # board units -> image pixels
    score: float             # feature correlation after refinement (0..1)
    source: str = ""
    support: float = 0.0     # share of the outline where the photo shows an edge
    camera_error: float = 0.0  # distance from a real camera's view of a flat board
    evidence: float = 0.0    # the board's own marks where the fit puts them: round marks (marks.GridFit), drawn lines
    orientation_margin: float = 0.0  # oriented boards: how much better this way round fits than turned
    present: float = 1.0     # lattice boards: share of the marks seen (marks.GridFit) ...
    outside: float = 0.0     # ... and round edges beyond a side that has none, against the marks'

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), self.H).reshape(-1, 2)


# ----------------------------------------------------------------- canonical frames

def feature_template(frame: Frame) -> np.ndarray:
    """Drawing of the board's own features in the canonical frame (float32, 0..1)."""
    L, s = frame.layout, frame.s
    img = np.zeros((frame.h, frame.w), np.float32)
    sh = 4  # sub-pixel drawing
    k = 1 << sh

    def P(p):
        q = frame.to_px([p])[0]
        return (int(round(q[0] * k)), int(round(q[1] * k)))

    lw = max(1, int(round(0.06 * s)))
    if L.game in ("three-stones", "sage-stones"):
        r = 0.39 * s
        for p in L.xy:
            cv2.circle(img, P(p), int(r * k), 1.0, max(1, int(round(0.10 * s))), cv2.LINE_AA, sh)
    elif L.game == "morris":
        for hsz in (3, 2, 1):
            pts = np.array([P(q) for q in [(-hsz, -hsz), (hsz, -hsz), (hsz, hsz), (-hsz, hsz)]], np.int32)
            cv2.polylines(img, [pts], True, 1.0, lw, cv2.LINE_AA, sh)
        for a, b in [((0, -3), (0, -1)), ((0, 1), (0, 3)), ((-3, 0), (-1, 0)), ((1, 0), (3, 0))]:
            cv2.line(img, P(a), P(b), 1.0, lw, cv2.LINE_AA, sh)
        for p in L.xy:
            cv2.circle(img, P(p), int(0.12 * s * k), 1.0, -1, cv2.LINE_AA, sh)
    elif L.game == "rings":
        full, partial = ring_circles()
        rr = 1 / SQRT3
        for q, r in full + partial:
            cx, cy = q + r / 2, r * SQRT3 / 2
            cv2.circle(img, P((cx, cy)), int(rr * s * k), 1.0, lw, cv2.LINE_AA, sh)
        mask = np.zeros_like(img)
        inner = L.outline * 0.985
        cv2.fillPoly(mask, [np.array([P(q) for q in inner], np.int32)], 1.0, cv2.LINE_AA, sh)
        img *= mask
    # the outline (its margin varies from board to board: drawn softer)
    cv2.polylines(img, [np.array([P(q) for q in L.outline], np.int32)], True, 0.7,
                  max(1, int(round(0.08 * s))), cv2.LINE_AA, sh)
    return img


def edge_map(gray: np.ndarray, blur: float) -> np.ndarray:
    g = cv2.GaussianBlur(gray, (0, 0), max(0.6, blur * 0.5))
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    m = cv2.magnitude(gx, gy)
    m = np.sqrt(m)
    if blur > 0:
        m = cv2.GaussianBlur(m, (0, 0), blur)
    return m


def thin_lines(gray: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Strokes thinner than `size` pixels, dark (ink on a light board) and light (inlay or paint on
    a dark board) -- an engraved groove shows in one or both by its shading."""
    kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kern), cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, kern)


def stronger_on(maps: tuple[np.ndarray, ...], px: np.ndarray) -> np.ndarray:
    """Of several line maps, the one that shows more at the pixels where the drawing should be."""
    flat = px.reshape(-1, 2).astype(np.float32)
    flat = np.concatenate([flat, np.repeat(flat[:1], -len(flat) % 256, 0)])  # remap wants short rows
    x, y = flat[:, 0].reshape(-1, 256), flat[:, 1].reshape(-1, 256)
    return max(maps, key=lambda m: float(cv2.remap(m, x, y, cv2.INTER_LINEAR).mean()))


def ncc(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    if mask is not None:
        a, b = a[mask], b[mask]
    a = a - a.mean()
    b = b - b.mean()
    d = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    return float((a * b).sum() / d) if d > 0 else 0.0


# ----------------------------------------------------------------- candidates

def _fill(mask: np.ndarray) -> np.ndarray:
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, cnts, -1, 255, -1)
    return out


def _biggest_piece(lines: np.ndarray) -> np.ndarray | None:
    """The largest connected piece of the strongest thin lines (a mask), None on a blank map."""
    joined = cv2.morphologyEx((lines > np.percentile(lines, 93)).astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    count, comp, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    if count < 2:
        return None
    return (comp == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8) * 255


def _largest_piece(lines: np.ndarray) -> int:
    """How big the drawing of this polarity holds together: a board's lines join up, grain does not."""
    piece = _biggest_piece(lines)
    return 0 if piece is None else int(np.count_nonzero(piece))


def candidate_masks(small: np.ndarray, stone_px: float, drawn: bool = False) -> list[tuple[str, np.ndarray]]:
    """Regions that may be the board: colour clusters, colour + grain texture clusters, round-blob
    density, for drawn boards thin-dark-line density, and what differs from the frame's border."""
    h, w = small.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.5), cv2.COLOR_BGR2Lab).astype(np.float32)
    feats = lab.reshape(-1, 3).copy()
    feats[:, 0] *= 0.6
    out: list[tuple[str, np.ndarray]] = []
    rng = np.random.default_rng(0)
    k_close = max(3, int(stone_px * 1.3) | 1)
    kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k_close, k_close))
    kern_open = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    # texture: wood grain direction (structure tensor), so a board on a table of the
    # same wood still stands apart when its grain runs another way
    g = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    sig = max(3.0, stone_px * 0.8)
    jxx = cv2.GaussianBlur(gx * gx, (0, 0), sig)
    jyy = cv2.GaussianBlur(gy * gy, (0, 0), sig)
    jxy = cv2.GaussianBlur(gx * gy, (0, 0), sig)
    tr = jxx + jyy + 50.0
    tex = np.stack([(jxx - jyy) / tr * 60, 2 * jxy / tr * 60, np.log1p(tr) * 6], -1).reshape(-1, 3)
    lab_s = cv2.GaussianBlur(lab, (0, 0), sig).reshape(-1, 3).copy()
    lab_s[:, 0] *= 0.6
    feats_t = np.concatenate([lab_s, tex], 1).astype(np.float32)
    idx = rng.choice(len(feats), min(len(feats), 12000), replace=False)
    for fname, F, Ks in (("k", feats, (2, 3, 4)), ("t", feats_t, (2, 3))):
        sample = F[idx]
        for K in Ks:
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
            cv2.setRNGSeed(K)
            _, _, centres = cv2.kmeans(sample, K, None, crit, 2, cv2.KMEANS_PP_CENTERS)
            d = ((F[:, None, :] - centres[None, :, :]) ** 2).sum(-1)
            lab_idx = d.argmin(1).reshape(h, w)
            for c in range(K):
                m = (lab_idx == c).astype(np.uint8) * 255
                m = cv2.morphologyEx(m, cv2.MORPH_OPEN, kern_open)
                m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, kern)
                out.append((f"{fname}{K}c{c}", m))
    # where the board's own round features (pockets, stones) are dense: blobs by the
    # determinant of the Hessian (wood grain stripes give none), then their density
    gs = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    doh = np.zeros_like(gs)
    for sg in (2.5, 4.0, 6.5):
        b = cv2.GaussianBlur(gs, (0, 0), sg)
        lxx = cv2.Sobel(b, cv2.CV_32F, 2, 0)
        lyy = cv2.Sobel(b, cv2.CV_32F, 0, 2)
        lxy = cv2.Sobel(b, cv2.CV_32F, 1, 1)
        doh = np.maximum(doh, (lxx * lyy - lxy * lxy) * sg ** 4)
    blobs = (doh > np.percentile(doh, 90)).astype(np.float32)
    dens = cv2.GaussianBlur(blobs, (0, 0), max(6.0, stone_px * 1.5))
    d8 = np.clip(dens * 255 / max(1e-6, float(dens.max())), 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for tt in (t * 0.7, t):
        m = (d8 > tt).astype(np.uint8) * 255
        out.append((f"blob{int(tt)}", m))
    if drawn:
        # where thin lines are dense: a drawn board on a table of its own wood still has its
        # lines (table grain is broad or sparse at this scale)
        bh = max(thin_lines(gs, 5), key=_largest_piece)
        thin = (bh > np.percentile(bh, 95)).astype(np.float32)
        dens = cv2.GaussianBlur(thin, (0, 0), max(6.0, stone_px * 1.5))
        d8 = np.clip(dens * 255 / max(1e-6, float(dens.max())), 0, 255).astype(np.uint8)
        t, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        out.append((f"lines{int(t)}", (d8 > t).astype(np.uint8) * 255))
        # the drawing itself: the largest connected piece of thin line, filled -- its outer edge
        # is the drawing's (morris' outer square, rings' outer circles), whatever the wood
        piece = _biggest_piece(bh)
        if piece is not None:
            out.append(("drawing", piece))
    # border colour model: what touches the frame's edge is table
    bw = max(4, int(0.03 * min(h, w)))
    border = np.concatenate([lab[:bw].reshape(-1, 3), lab[-bw:].reshape(-1, 3),
                             lab[:, :bw].reshape(-1, 3), lab[:, -bw:].reshape(-1, 3)])
    bs = border.copy()
    bs[:, 0] *= 0.6
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(7)
    _, _, bc = cv2.kmeans(bs, 3, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    dist = np.sqrt(((feats[:, None, :] - bc[None]) ** 2).sum(-1).min(1)).reshape(h, w)
    dist8 = np.clip(dist * 4, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    for tt in (t, t * 0.6):
        m = (dist8 > tt).astype(np.uint8) * 255
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, kern_open)
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, kern)
        out.append((f"border{int(tt)}", m))
    return out


def _reduce_polygon(pts: np.ndarray, n: int) -> np.ndarray:
    pts = [tuple(p) for p in pts]
    while len(pts) > n:
        best, bi = None, 0
        for i in range(len(pts)):
            a, b, c = np.array(pts[i - 1]), np.array(pts[i]), np.array(pts[(i + 1) % len(pts)])
            area = abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]))
            if best is None or area < best:
                best, bi = area, i
        pts.pop(bi)
    return np.array(pts, np.float64)


def _refine_edges(poly: np.ndarray, contour: np.ndarray) -> np.ndarray:
    n = len(poly)
    lines = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ab = b - a
        L = np.linalg.norm(ab)
        if L < 1e-6:
            return poly
        t = ((contour - a) @ ab) / (L * L)
        rel = contour - a
        dist = np.abs(ab[0] * rel[:, 1] - ab[1] * rel[:, 0]) / L
        sel = contour[(t > 0.12) & (t < 0.88) & (dist < max(3.0, 0.04 * L))]
        if len(sel) < 5:
            lines.append((a, ab / L))
            continue
        vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = []
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        A = np.array([d1, -d2]).T
        if abs(np.linalg.det(A)) < 1e-6:
            out.append(poly[i])
            continue
        t = np.linalg.solve(A, p2 - p1)
        out.append(p1 + t[0] * d1)
    out = np.array(out)
    if np.abs(out - poly).max() > 0.2 * np.linalg.norm(poly.max(0) - poly.min(0)):
        return poly
    return out


def fit_polygons(mask: np.ndarray, n: int, min_area: float, max_area: float) -> list[np.ndarray]:
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    polys = []
    for c in sorted(cnts, key=cv2.contourArea, reverse=True)[:3]:
        area = cv2.contourArea(c)
        if not (min_area <= area <= max_area):
            continue
        hull = cv2.convexHull(c).reshape(-1, 2).astype(np.float64)
        if len(hull) < n:
            continue
        solidity = area / max(1.0, cv2.contourArea(hull.astype(np.float32)))
        if solidity < 0.75:
            continue
        poly = _reduce_polygon(hull, n)
        poly = _refine_edges(poly, c.reshape(-1, 2).astype(np.float64))
        polys.append(poly)
    return polys


def _cov_sqrt(S: np.ndarray, inv: bool = False) -> np.ndarray:
    w, V = np.linalg.eigh(S)
    w = np.maximum(w, 1e-9)
    return V @ np.diag(w ** (-0.5 if inv else 0.5)) @ V.T


def _poly_moments(poly: np.ndarray, res: int = 200) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = poly.min(0), poly.max(0)
    s = res / float((hi - lo).max())
    m = np.zeros((int((hi - lo)[1] * s) + 3, int((hi - lo)[0] * s) + 3), np.uint8)
    cv2.fillPoly(m, [np.round((poly - lo) * s + 1).astype(np.int32)], 1)
    ys, xs = np.nonzero(m)
    pts = np.stack([xs, ys], 1) / s + lo - 1 / s
    return pts.mean(0), np.cov(pts.T)


def _silhouette_ecc(region: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """Refine H so the projected outline covers the region (ECC on the two masks)."""
    span = float(np.ptp(layout.outline[:, 0]))
    fr = Frame(layout, 64.0 / span, margin=0.8)
    tpl = np.zeros((fr.h, fr.w), np.float32)
    cv2.fillPoly(tpl, [np.round(fr.to_px(layout.outline)).astype(np.int32)], 1.0)
    tpl = cv2.GaussianBlur(tpl, (0, 0), 1.5)
    inp = cv2.GaussianBlur(region.astype(np.float32) / 255.0, (0, 0), 1.5)
    W = (H @ np.linalg.inv(fr.C)).astype(np.float32)
    W /= W[2, 2]
    try:
        _, W = cv2.findTransformECC(tpl, inp, W, cv2.MOTION_HOMOGRAPHY,
                                    (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 1e-3), None, 1)
    except cv2.error:
        return H
    H2 = W.astype(np.float64) @ fr.C
    return H2 / H2[2, 2]


def shape_homographies(mask: np.ndarray, layout: Layout, steps: int = 36,
                       target: np.ndarray | None = None) -> list[np.ndarray]:
    """Homographies laying the board outline over a filled region: moments give an affine
    fit for each rotation, the best overlaps are then refined with ECC on the masks."""
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cnts:
        return []
    c = max(cnts, key=cv2.contourArea)
    h, w = mask.shape[:2]
    if not (0.05 * w * h <= cv2.contourArea(c) <= 0.97 * w * h):
        return []
    region = np.zeros_like(mask)
    cv2.drawContours(region, [c], -1, 255, -1)
    ys, xs = np.nonzero(region)
    pts = np.stack([xs, ys], 1).astype(np.float64)
    mu, S = pts.mean(0), np.cov(pts.T)
    # canonical outline in y-down coordinates (so rotations stay proper)
    outl = (layout.outline if target is None else target) * np.array([1.0, -1.0])
    mu0, S0 = _poly_moments(outl)
    half, inv0 = _cov_sqrt(S), _cov_sqrt(S0, inv=True)
    scored = []
    for k in range(steps):
        t = 2 * math.pi * k / steps
        R = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        A = half @ R @ inv0
        if np.linalg.det(A) <= 0:
            continue
        p = (outl - mu0) @ A.T + mu
        m2 = np.zeros_like(mask)
        cv2.fillPoly(m2, [np.round(p).astype(np.int32)], 255)
        inter = np.count_nonzero(m2 & region)
        union = np.count_nonzero(m2 | region)
        F = np.eye(3)
        F[1, 1] = -1.0  # canonical (y up) -> y-down
        M = np.eye(3)
        M[:2, :2] = A
        M[:2, 2] = mu - A @ mu0
        scored.append((inter / max(1, union), M @ F))
    # every local maximum of the overlap over the angle (an octagon fits well at 0 and 45 degrees)
    n = len(scored)
    peaks = [scored[i] for i in range(n)
             if scored[i][0] >= scored[i - 1][0] and scored[i][0] >= scored[(i + 1) % n][0]]
    peaks.sort(key=lambda x: -x[0])
    if target is not None and scored:
        # a feature-density region is soft and roundish: its overlap barely tells the angle,
        # so every angle that overlaps nearly as well goes on to the feature score
        top = max(s for s, _ in scored)
        return [H for iou, H in scored if iou >= max(0.6, 0.9 * top)]
    return [_silhouette_ecc(region, H, layout) for iou, H in peaks[:2] if iou >= 0.6]


def _signed_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum())


def feature_outline(layout: Layout, pad: float = 0.42) -> np.ndarray:
    """The polygon around the board's features: every side of the outline moved in until it
    runs `pad` (about a stone) outside the outermost locations."""
    P = layout.outline
    n = len(P)
    c = P.mean(0)
    lines = []
    for i in range(n):
        a, b = P[i], P[(i + 1) % n]
        e = (b - a) / np.linalg.norm(b - a)
        nv = np.array([e[1], -e[0]])
        if np.dot(nv, (a + b) / 2 - c) < 0:
            nv = -nv
        off = float((layout.xy @ nv).max()) + pad
        lines.append((nv * off, e))
    out = []
    for i in range(n):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.array([d1, -d2]).T, p2 - p1)
        out.append(p1 + t[0] * d1)
    return np.array(out)


def homographies_for(poly: np.ndarray, layout: Layout, target: np.ndarray | None = None) -> list[np.ndarray]:
    """Every proper (non-mirrored) way of laying the outline (or `target`) on the polygon."""
    target = layout.outline if target is None else target
    if _signed_area(target) < 0:
        target = target[::-1]
    if _signed_area(poly) > 0:  # canonical CCW (y up) shows as negative area in image coords
        poly = poly[::-1]
    out = []
    n = len(poly)
    for k in range(n):
        P = np.roll(poly, -k, axis=0)
        H, _ = cv2.findHomography(target, P, 0)
        if H is not None and abs(np.linalg.det(H)) > 1e-12:
            out.append(H)
    return out


# ----------------------------------------------------------------- scoring and ECC

class Scorer:
    def __init__(self, layout: Layout, s: float, blur: float):
        self.frame = Frame(layout, s)
        self.blur = blur
        self.tpl = cv2.GaussianBlur(feature_template(self.frame), (0, 0), blur)
        m = np.zeros((self.frame.h, self.frame.w), np.uint8)
        cv2.fillPoly(m, [np.round(self.frame.to_px(layout.outline * 1.04)).astype(np.int32)], 1)
        self.mask = m.astype(bool)

    def edges(self, gray: np.ndarray, H: np.ndarray) -> np.ndarray:
        w = self.frame.warp(gray, H)
        e = edge_map(w, self.blur)
        return e

    def score(self, gray: np.ndarray, H: np.ndarray) -> float:
        return ncc(self.tpl, self.edges(gray, H), self.mask)

    def refine(self, gray: np.ndarray, H: np.ndarray, iters: int = 60) -> tuple[np.ndarray, float]:
        e = self.edges(gray, H)
        W = np.eye(3, dtype=np.float32)
        crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iters, 1e-5)
        try:
            cc, W = cv2.findTransformECC(self.tpl, e, W, cv2.MOTION_HOMOGRAPHY, crit,
                                         self.mask.astype(np.uint8), 1)
        except cv2.error:
            return H, self.score(gray, H)
        Ci = np.linalg.inv(self.frame.C)
        H2 = H @ Ci @ W.astype(np.float64) @ self.frame.C
        H2 /= H2[2, 2]
        return H2, self.score(gray, H2)


def _plausible(H: np.ndarray, layout: Layout, shape) -> bool:
    """Outline projects to a convex polygon of sane size inside (mostly) the image."""
    try:
        p = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
    except cv2.error:
        return False
    if not np.isfinite(p).all():
        return False
    h, w = shape[:2]
    if not cv2.isContourConvex(p.astype(np.float32)):
        return False
    # the homography must keep every outline vertex in front of the camera
    v = np.c_[layout.outline, np.ones(len(layout.outline))] @ H.T
    if (v[:, 2] <= 0).any() and (v[:, 2] >= 0).any():
        return False
    area = abs(_signed_area(p))
    if not 0.02 * w * h <= area <= 1.3 * w * h:
        return False
    return camera_error(H, shape) < MAX_CAMERA_ERROR_CANDIDATE


@functools.lru_cache(maxsize=8)
def _line_samples(game: str, step: float = 0.08) -> tuple[np.ndarray, np.ndarray]:
    """Points on the board's drawn lines (board units) and their normals, away from the locations."""
    from .layouts import get_layout
    L = get_layout(game)
    pts, nrm = [], []
    if game == "morris":
        segs = []
        for s in (3, 2, 1):
            c = [(-s, -s), (s, -s), (s, s), (-s, s)]
            segs += [(c[i], c[(i + 1) % 4]) for i in range(4)]
        segs += [((0, -3), (0, -1)), ((0, 1), (0, 3)), ((-3, 0), (-1, 0)), ((1, 0), (3, 0))]
        for a, b in segs:
            a, b = np.array(a, float), np.array(b, float)
            n = int(np.linalg.norm(b - a) / step)
            e = (b - a) / np.linalg.norm(b - a)
            for t in np.linspace(0, 1, n + 1):
                pts.append(a + t * (b - a))
                nrm.append([-e[1], e[0]])
        keep_from = 0.42
    elif game == "rings":
        full, partial = ring_circles()
        rr = 1 / SQRT3
        n = int(2 * math.pi * rr / step)
        for q, r in full + partial:
            c = np.array([q + r / 2, r * SQRT3 / 2])
            for k in range(n):
                t = 2 * math.pi * k / n
                d = np.array([math.cos(t), math.sin(t)])
                pts.append(c + rr * d)
                nrm.append(d)
        keep_from = 0.2
    else:
        return np.zeros((0, 2)), np.zeros((0, 2))
    pts, nrm = np.array(pts), np.array(nrm)
    d = np.min(np.linalg.norm(pts[:, None, :] - L.xy[None], axis=2), axis=1)
    inside = cv2.pointPolygonTest
    poly = (L.outline * 0.96).astype(np.float32)
    ok = (d > keep_from) & np.array([inside(poly, (float(x), float(y)), False) > 0 for x, y in pts])
    return pts[ok], nrm[ok]


def _line_peaks(gray: np.ndarray, H: np.ndarray, layout: Layout, win: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the normal of every drawn-line sample: where, within +-win board units, the strongest
    thin line (of the polarity the drawing has) lies.  Returns (samples, offsets along their normals, peak is strong)."""
    pts, nrm = _line_samples(layout.game)
    s = LINE_S[layout.game]
    fr = Frame(layout, s, margin=0.5)
    w = fr.warp(gray, H)
    k = max(3, int(round(LINE_KERNEL[layout.game] * s)) | 1)
    maps = thin_lines(cv2.GaussianBlur(w, (0, 0), 1.0), k)
    offs = np.linspace(-win, win, int(2 * win * s) + 1)
    P = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
    px = fr.to_px(P.reshape(-1, 2)).reshape(len(pts), len(offs), 2).astype(np.float32)
    ink = stronger_on(maps, px)
    vals = cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR)
    j = np.argmax(vals, axis=1)
    peak = vals[np.arange(len(pts)), j]
    return pts, offs[j], peak > max(2.0, float(np.percentile(peak, 40)))


def line_snap(gray: np.ndarray, H: np.ndarray, layout: Layout, reach: float = 0.5, step: float = 0.05,
              scales: tuple[float, ...] = (0.97, 1.0, 1.03)) -> np.ndarray:
    """Drawn boards: the shift (and slight scale) within `reach` board units that lays the most
    drawn-line samples on dark thin lines -- a wider reach than `line_refine`'s, for outline fits
    pushed off by the board's visible side or its shadow."""
    pts, _ = _line_samples(layout.game)
    s = SNAP_S
    fr = Frame(layout, s, margin=0.5 + reach)
    k = max(3, int(round(LINE_KERNEL[layout.game] * s)) | 1)
    maps = thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), k)
    bh = stronger_on(maps, fr.to_px(pts))
    bh = cv2.GaussianBlur(np.minimum(bh, np.percentile(bh, 99.5)), (0, 0), 0.6)
    d = np.arange(-reach, reach + 1e-9, step)
    dx, dy = np.meshgrid(d, d)
    shifts = np.stack([dx.ravel(), dy.ravel()], 1)
    best = (-1.0, 1.0, np.zeros(2))
    for sc in scales:
        P = (pts * sc)[None, :, :] + shifts[:, None, :]
        px = fr.to_px(P.reshape(-1, 2)).astype(np.float32).reshape(len(shifts), len(pts), 2)
        score = cv2.remap(bh, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean(1)
        i = int(np.argmax(score))
        if score[i] > best[0]:
            best = (float(score[i]), sc, shifts[i])
    _, sc, (tx, ty) = best
    return H @ np.array([[sc, 0.0, tx], [0.0, sc, ty], [0.0, 0.0, 1.0]])


def on_the_lattice(gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray:
    """Rings' circles repeat, so a fit a whole lattice step off lies on circles nearly everywhere:
    of the fit and its six neighbours one step away, the one whose drawn-line samples show the
    most ink wins (a shifted fit runs its edge circles off the board, onto the table), and
    from there its neighbours, for a few steps."""
    if layout.game not in LATTICE_DRAWN:
        return H
    pts, _ = _line_samples(layout.game)
    fr = Frame(layout, SNAP_S, margin=LATTICE_WALK + 0.5)
    k = max(3, int(round(LINE_KERNEL[layout.game] * SNAP_S)) | 1)
    ink = stronger_on(thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.7), k), fr.to_px(pts))
    steps = [np.zeros(2)] + [np.array([math.cos(math.pi * j / 3), math.sin(math.pi * j / 3)]) for j in range(6)]

    def shown(step: np.ndarray) -> float:
        px = fr.to_px(pts + step).astype(np.float32).reshape(1, -1, 2)
        return float(cv2.remap(ink, px[..., 0], px[..., 1], cv2.INTER_LINEAR).mean())
    at = np.zeros(2)
    for _ in range(LATTICE_WALK):  # walk while a neighbour shows more: a coarse fit may be steps off
        best = max((at + step for step in steps), key=shown)
        if np.allclose(best, at):
            break
        at = best
    return H @ np.array([[1.0, 0.0, at[0]], [0.0, 1.0, at[1]], [0.0, 0.0, 1.0]])


def sure_stones(gray: np.ndarray, H: np.ndarray, layout: Layout, win: float) -> tuple[np.ndarray, np.ndarray]:
    """Drawn boards: the locations (board units) with a clear stone's round edge within `win`
    board units of where the fit puts them, and where that edge's centre lies (board units)."""
    fr = Frame(layout, STONE_S, margin=0.5)
    radii = tuple(layout.stone_radius * f for f in (0.85, 1.0, 1.15))
    resp = ring_response(fr.warp(gray, H), STONE_S, radii)
    ok, pos, val = window_peaks(resp, fr.to_px(layout.xy), max(1, int(round(win * STONE_S))))
    sure = val > STONE_EDGE * (float(np.percentile(resp, 99.5)) + 1e-6)
    return layout.xy[ok][sure], fr.to_units(pos[sure])


def samples_in_view(gray: np.ndarray, H: np.ndarray, layout: Layout) -> np.ndarray | None:
    """Drawn boards: which drawn-line samples no stone hides where the fit puts the stones
    (None: too few left to judge by)."""
    pts, _ = _line_samples(layout.game)
    stones, _ = sure_stones(gray, H, layout, 0.1)
    if not len(stones):
        return None
    seen = np.min(np.linalg.norm(pts[:, None] - stones[None], axis=2), axis=1) > HIDDEN * layout.stone_radius
    return seen if seen.sum() >= MIN_SEEN else None


def line_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, seen: np.ndarray | None = None) -> float:
    """Drawn boards: share of the drawn-line samples whose line lies right where the fit puts it,
    among the samples in view (`seen`: a crowded rings board covers most of its circles, and a
    stone's edge is no line)."""
    _, off, strong = _line_peaks(gray, H, layout, 0.2)
    if seen is not None:
        strong = strong & seen
    return float((strong & (np.abs(off) <= LINE_TOL)).sum()) / max(1, int(strong.sum()))


def line_refine(gray: np.ndarray, H: np.ndarray, layout: Layout, rounds=(0.3, 0.2, 0.12)) -> np.ndarray:
    """Drawn boards: pull the fit onto the drawn lines (morris squares, rings circles) or onto
    the round edges of the stones (a crowded rings board hides most of its lines)."""
    _, nrm = _line_samples(layout.game)
    if len(nrm) < 20:
        return H
    for win in rounds:
        pts, off, strong = _line_peaks(gray, H, layout, win)
        lines = (pts[strong], (pts + off[:, None] * nrm)[strong])
        # stones: the strongest round edge of a stone's size near each location
        stones = sure_stones(gray, H, layout, win)
        # each kind of mark on its own (the stones stand a little above the lines): the
        # more self-consistent fit wins
        best = None
        for (src, found), least in ((lines, 20), (stones, 12)):
            if len(src) < least:
                continue
            img_pts = cv2.perspectiveTransform(found.reshape(-1, 1, 2), H).reshape(-1, 2)
            c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
            thr = max(1.0, 0.05 * float(np.linalg.norm(c[1] - c[0])))
            H2, inl = cv2.findHomography(src, img_pts, cv2.RANSAC, thr)
            if H2 is None or inl is None:
                continue
            share = float(inl.sum()) / len(src)
            if share >= 0.3 and (best is None or share > best[0]):
                best = (share, H2 / H2[2, 2])
        if best is None:
            return H
        H = best[1]
    return H


def outline_refine(img: np.ndarray, H: np.ndarray, layout: Layout, rounds=(0.35, 0.18)) -> np.ndarray:
    """Pull the outline onto the board's top-face edge: along each side's normal take the innermost
    strong colour edge (outside it there may be the board's visible side and its shadow)."""
    pts, nrm = _outline_samples(layout.game, 160)
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.2), cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = img.shape[:2]
    for win in rounds:
        offs = np.linspace(-win, win, 41)
        P = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
        px = cv2.perspectiveTransform(P.reshape(-1, 1, 2), H).reshape(len(pts), len(offs), 2).astype(np.float32)
        vals = cv2.remap(lab, px[..., 0], px[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        diff = np.linalg.norm(vals[:, 2:] - vals[:, :-2], axis=2)  # colour change along the normal
        inside_img = ((px[..., 0] > 1) & (px[..., 0] < w - 2) & (px[..., 1] > 1) & (px[..., 1] < h - 2)).all(1)
        found, src_pts = [], []
        for i in range(len(pts)):
            d = diff[i]
            m = float(d.max())
            if not inside_img[i] or m < 8.0:
                continue
            j = int(np.argmax(d >= 0.6 * m))  # innermost strong edge
            # local maximum from there
            while j + 1 < len(d) and d[j + 1] > d[j]:
                j += 1
            found.append(pts[i] + offs[j + 1] * nrm[i])
            src_pts.append(pts[i])
        if len(found) < 12:
            return H
        img_pts = cv2.perspectiveTransform(np.array(found).reshape(-1, 1, 2), H).reshape(-1, 2)
        c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
        thr = max(1.0, 0.06 * float(np.linalg.norm(c[1] - c[0])))
        H2, inl = cv2.findHomography(np.array(src_pts), img_pts, cv2.RANSAC, thr)
        if H2 is None or inl is None or inl.sum() < 0.5 * len(src_pts):
            return H
        H = H2 / H2[2, 2]
    return H


@dataclass
class Candidate:
    rank: float              # coarse feature score + half the outline support
    H: np.ndarray            # board units -> pixels of the small copy
    source: str              # which mask and fit made it


def candidates(small: np.ndarray, layout: Layout) -> list[Candidate]:
    """Every plausible outline fit to every candidate region, best ranked first."""
    sh, sw = small.shape[:2]
    gray_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab_small = support_lab(small)
    # expected stone size when the board fills ~ a third of the frame
    span = float(np.ptp(layout.outline[:, 0]))
    stone_px = 2 * layout.stone_radius * min(sh, sw) * 0.6 / span
    n = len(layout.outline)
    coarse = _coarse_scorer(layout)

    def outline_fits(item: tuple[str, np.ndarray]) -> tuple[str, list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
        """One region's fits: the outline laid over its shape, its polygons, and the outlines they are fitted to."""
        name, mask = item
        filled = _fill(mask)
        ko = max(5, int(stone_px * 2.0) | 1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko)))
        polys = fit_polygons(filled, n, 0.06 * sw * sh, 0.97 * sw * sh)
        if np.count_nonzero(opened != filled) > 0.01 * sw * sh:
            polys += fit_polygons(opened, n, 0.06 * sw * sh, 0.97 * sw * sh)
        # feature-density regions end about a stone outside the outermost locations
        # the drawing's outer edge is its outermost line or a border drawn between it and the edge
        targets = ([feature_outline(layout)] if name.startswith(("blob", "lines"))
                   else [feature_outline(layout, pad) for pad in DRAWING_PADS[layout.game]] if name == "drawing"
                   else [None])
        shaped = [H for target in targets for H in shape_homographies(filled, layout, target=target)]
        return name, targets, shaped, polys

    # OpenCV lets go of the GIL: the two cores fit two regions, then rank two fits, at once
    fits: list[tuple[np.ndarray, str]] = []
    seen: list[tuple[np.ndarray, float]] = []
    drawn = mark_grid(layout.game) is None
    for name, targets, shaped, polys in _POOL.map(outline_fits, candidate_masks(small, stone_px, drawn=drawn)):
        fits += [(H, "m" + name) for H in shaped]
        for poly in polys:
            key = poly.mean(0)
            if any(np.linalg.norm(key - k2) < 3 and abs(abs(_signed_area(poly)) - a2) < 0.02 * a2 for k2, a2 in seen):
                continue
            seen.append((key, abs(_signed_area(poly))))
            # the polygon's corners taken in turn: turns the lattice maps onto itself are one fit
            kept: list[np.ndarray] = []
            for target in targets:
                for H in homographies_for(poly, layout, target):
                    if not any(same_fit(H, K, layout, 1.0) for K in kept):
                        kept.append(H)
                        fits.append((H, name))

    def ranked(fit: tuple[np.ndarray, str]) -> Candidate | None:
        H, name = fit
        if not _plausible(H, layout, small.shape):
            return None
        return Candidate(coarse.score(gray_small, H) + 0.5 * outline_support(small, H, layout, lab=lab_small), H, name)

    out = [c for c in _POOL.map(ranked, fits) if c is not None]
    out.sort(key=lambda c: -c.rank)
    return out


def same_fit(H1: np.ndarray, H2: np.ndarray, layout: Layout, tol: float) -> bool:
    """True when two fits put the board's locations in the same places (up to the grid's turns)."""
    p1 = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H1).reshape(-1, 2)
    for S in grid_symmetries(layout.game):
        p2 = cv2.perspectiveTransform((layout.xy @ S.T).reshape(-1, 1, 2), H2).reshape(-1, 2)
        if np.abs(p1 - p2).max() < tol:
            return True
    return False


def distinct(cands: list[Candidate], layout: Layout, tol: float, k: int, per_source: int) -> list[Candidate]:
    """The best `k` candidates that differ from each other, at most `per_source` per mask."""
    picked: list[Candidate] = []
    used: dict[str, int] = {}
    for c in cands:
        if len(picked) >= k:
            break
        key = c.source.lstrip("m")
        if used.get(key, 0) >= per_source or any(same_fit(c.H, q.H, layout, tol) for q in picked):
            continue
        used[key] = used.get(key, 0) + 1
        picked.append(c)
    return picked


def find_board(img: np.ndarray, layout: Layout, deadline: float | None = None) -> Detection:
    """The board's fit in the photo; `deadline` (a `time.perf_counter()` value) ends the search
    with a refusal when the candidates alone take past it, and stops polishing more of them."""
    h, w = img.shape[:2]
    sc = SMALL / max(h, w)
    small = cv2.resize(img, (round(w * sc), round(h * sc)), interpolation=cv2.INTER_AREA)
    cands = candidates(small, layout)
    if deadline is not None and time.perf_counter() > deadline:
        raise VisionError(f"no {layout.game} board found in the time a reading may take "
                          "(a busy photo: take it closer, the board filling most of the frame)", "no_board")
    tol = 0.03 * max(small.shape[:2])
    if mark_grid(layout.game) is not None:
        # the lattice of its round marks finds a pocket board that does not stand out from its table
        gray_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
        structural = [Candidate(score, H, "lattice") for score, H in lattice_candidates(gray_small, layout)]
        picked = distinct(structural, layout, tol, LATTICE_CANDIDATES, LATTICE_CANDIDATES)
        picked += [c for c in distinct(cands, layout, tol, GRID_CANDIDATES, 3)
                   if not any(same_fit(c.H, q.H, layout, tol) for q in picked)]
        if not picked:
            raise VisionError(f"no {layout.game} board found in the photo", "no_board")
        return _find_on_grid(img, small, picked, layout)
    if not cands:
        raise VisionError(f"no {layout.game} board found in the photo", "no_board")
    return _find_drawn(img, small, distinct(cands, layout, tol, 6, 2), layout, deadline)


def _find_on_grid(img: np.ndarray, small: np.ndarray, picked: list[Candidate], layout: Layout) -> Detection:
    """Boards with a lattice of round marks (pockets, rings' circles): every candidate is pulled
    onto the lattice at low resolution; the one with the clearest lattice is polished at full
    resolution."""
    gray_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fits = list(_POOL.map(lambda c: grid_fit(gray_small, c.H, layout), picked))
    i = max(range(len(fits)), key=lambda j: fits[j].evidence)
    sc = small.shape[1] / img.shape[1]
    S = np.diag([1 / sc, 1 / sc, 1.0])
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fit = grid_fit(gray, S @ fits[i].H, layout, s=GRID_FINE_S, rounds=(0.2, 0.1), shift=False)
    span = float(np.ptp(layout.outline[:, 0]))
    fine = Scorer(layout, s=max(12.0, 320.0 / span), blur=1.3)
    Ms = np.linalg.inv(S)

    def rank(Hx: np.ndarray) -> tuple[float, float, float]:
        score, support = fine.score(gray, Hx), outline_support(small, Ms @ Hx, layout)
        return score + 0.5 * support, score, support

    H, margin = fit.H, 0.0
    (r, score, support) = rank(H)
    if layout.oriented:
        # the pocket lattice fits either way round: the outline (the numbered edge's wide margin) decides
        H_turned = H @ np.diag([-1.0, -1.0, 1.0])
        r2, score2, support2 = rank(H_turned)
        margin = abs(r - r2)
        if r2 > r:
            H, H_turned, score, support = H_turned, H, score2, support2
        # the engraved numbers, where they show clearly, tell it better (a table of the board's
        # own wood hides the outline)
        ink, ink_turned = numbers_ink(gray, H, layout), numbers_ink(gray, H_turned, layout)
        if max(ink, ink_turned) >= NUMBERS_CLEAR * max(min(ink, ink_turned), 1e-6):
            margin = max(margin, CLEAR_MARGIN)
            if ink_turned > ink:
                H, score, support = H_turned, *rank(H_turned)[1:]
    return Detection(H=H, score=score, source=picked[i].source, support=support,
                     camera_error=camera_error(H, img.shape), evidence=fit.evidence, orientation_margin=margin,
                     present=fit.present, outside=fit.outside)


def stone_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, shape) -> float:
    """Drawn boards crowded with stones: the share of the stones whose round edge is centred on
    their location (a wrong lattice puts few there); 0 while under CROWDED of the locations hold one."""
    locs, found = sure_stones(gray, raised(H, shape, STONE_LIFT * layout.stone_radius), layout, 0.2)
    if len(locs) < CROWDED * len(layout.xy):
        return 0.0
    return float((np.linalg.norm(found - locs, axis=1) < CENTRED).mean())


@functools.lru_cache(maxsize=4)
def _between_points(game: str) -> np.ndarray:
    """Lattice points inside a drawn board's outer square where no location is (board units):
    a board of pockets has a mark there, a morris board never does."""
    from .layouts import get_layout
    xy = get_layout(game).xy
    have = set(map(tuple, np.round(xy).astype(int)))
    lo, hi = np.round(xy.min(0)).astype(int), np.round(xy.max(0)).astype(int)
    return np.array([(x, y) for x in range(lo[0], hi[0] + 1) for y in range(lo[1], hi[1] + 1)
                     if (x, y) not in have], np.float64)


def point_evidence(gray: np.ndarray, H: np.ndarray, layout: Layout, shape) -> float:
    """Morris boards whose points carry round marks -- markers up to a stone's size, or stones --
    show the fit by them where faint or hidden lines cannot: the share of the locations with a
    round edge centred on them (on the board or on a stone's raised body), less the share of
    the lattice points between the locations that have one (a pocket board has them everywhere)."""
    if layout.game not in POINT_MARKED:
        return 0.0
    fr = Frame(layout, STONE_S, margin=0.5)
    radii = tuple(layout.stone_radius * f for f in POINT_SIZES)
    reach = max(1, int(round(0.2 * STONE_S)))
    centred = np.zeros(len(layout.xy), bool)
    between = 0.0
    for k, Hx in enumerate((H, raised(H, shape, STONE_LIFT * layout.stone_radius))):
        resp = ring_response(fr.warp(gray, Hx), STONE_S, radii)
        level = STONE_EDGE * (float(np.percentile(resp, 99.5)) + 1e-6)
        ok, pos, val = window_peaks(resp, fr.to_px(layout.xy), reach)
        near = np.linalg.norm(fr.to_units(pos) - layout.xy[ok], axis=1) < CENTRED
        centred[ok[(val > level) & near]] = True
        if k == 0:
            spots = _between_points(layout.game)
            ok_b, pos_b, val_b = window_peaks(resp, fr.to_px(spots), reach)
            near_b = np.linalg.norm(fr.to_units(pos_b) - spots[ok_b], axis=1) < 2 * CENTRED
            between = float(((val_b > level) & near_b).sum()) / max(1, len(spots))
    return max(0.0, float(centred.mean()) - between)


def numbers_ink(gray: np.ndarray, H: np.ndarray, layout: Layout) -> float:
    """Fine strokes, dark or light, in the wide margin below row 1 where the fit puts it: the
    engraved or printed column numbers of an oriented board (sage-stones) -- the other end's
    margin has none."""
    fr = Frame(layout, NUMBERS_S, margin=0.3)
    bh = np.maximum(*thin_lines(cv2.GaussianBlur(fr.warp(gray, H), (0, 0), 0.8), int(0.25 * NUMBERS_S) | 1))
    x0, x1 = layout.xy[:, 0].min() - 0.4, layout.xy[:, 0].max() + 0.4
    y0, y1 = layout.outline[:, 1].min() + 0.4, layout.xy[:, 1].min() - 0.6
    (a, b), (c, d) = np.round(fr.to_px(np.array([[x0, y1], [x1, y0]]))).astype(int)
    return float(bh[b:d, a:c].mean())


def _find_drawn(img: np.ndarray, small: np.ndarray, picked: list[Candidate], layout: Layout,
                deadline: float | None = None) -> Detection:
    """Drawn boards (morris, rings): refine the best few at low resolution on the feature drawing,
    the best two at full resolution on the drawn lines, the outline and the drawing again."""
    h, w = img.shape[:2]
    sc = small.shape[1] / w
    gray_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab_small = support_lab(small)
    coarse = _coarse_scorer(layout)
    span = float(np.ptp(layout.outline[:, 0]))

    def coarse_refine(c: Candidate):
        H1, s1 = coarse.refine(gray_small, c.H, 15)
        if not _plausible(H1, layout, small.shape):
            H1, s1 = c.H, coarse.score(gray_small, c.H)
        sup = outline_support(small, H1, layout, lab=lab_small)
        return (s1 + 0.5 * sup, H1, c.source)

    # OpenCV lets go of the GIL: the two cores refine two candidates at once
    refined = sorted(_POOL.map(coarse_refine, picked), key=lambda r: -r[0])
    S = np.diag([1 / sc, 1 / sc, 1.0])
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine = Scorer(layout, s=max(12.0, 320.0 / span), blur=1.3)
    half = 800.0 / max(h, w)
    mid = cv2.resize(img, (round(w * half), round(h * half)), interpolation=cv2.INTER_AREA) if half < 1 else img
    Mh = np.diag([half, half, 1.0]) if half < 1 else np.eye(3)
    lab_mid = support_lab(mid)

    def final(item) -> tuple[float, np.ndarray, str]:
        _, Hs, name = item
        H = S @ Hs
        starts = (H, outline_refine(img, H, layout), line_snap(gray, H, layout))
        options = [on_the_lattice(gray, Hx, layout) for Hx in _POOL.map(lambda H0: line_refine(gray, H0, layout), starts)
                   if _plausible(Hx, layout, img.shape)] or [H]
        ev = [line_evidence(gray, Hx, layout) for Hx in options]
        if max(ev) < CLEAR_LINES[layout.game]:
            # ECC on the whole drawing from the best of them (it holds where stones hide the lines)
            H_ecc = fine.refine(gray, options[int(np.argmax(ev))], 30)[0]
            if _plausible(H_ecc, layout, img.shape):
                options.append(H_ecc)
                ev.append(line_evidence(gray, H_ecc, layout))
        k = int(np.argmax(ev))
        return ev[k], options[k] / options[k][2, 2], name

    # the best candidate first; the next ones only while the lines do not clearly agree with a
    # fit a real camera can make (a fit squeezed onto a few lines can agree with them)
    def key(result) -> tuple[bool, float]:
        return camera_error(result[1], img.shape) <= MAX_CAMERA_ERROR, result[0]

    best = final(refined[0])
    for item in refined[1:DRAWN_FINALS]:
        if key(best) >= (True, CLEAR_LINES[layout.game]) or (deadline is not None and time.perf_counter() > deadline):
            break
        best = max(best, final(item), key=key)
    ev, H, name = best
    # fits are ranked on all their line samples alike; the one chosen may show more of its
    # board where stones hide the lines: by the lines still in view, or by the stones themselves
    ev = max(ev, line_evidence(gray, H, layout, samples_in_view(gray, H, layout)))
    if layout.game in STONE_MARKED:
        ev = max(ev, stone_evidence(gray, H, layout, img.shape))
    ev = max(ev, point_evidence(gray, H, layout, img.shape))
    return Detection(H=H, score=fine.score(gray, H), source=name, support=outline_support(mid, Mh @ H, layout, lab=lab_mid),
                     camera_error=camera_error(H, img.shape), evidence=ev)


def _coarse_scorer(layout: Layout) -> "Scorer":
    span = float(np.ptp(layout.outline[:, 0]))
    return Scorer(layout, s=max(6.0, 160.0 / span), blur=1.5)


def support_lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 2.0), cv2.COLOR_BGR2Lab).astype(np.float32)


@functools.lru_cache(maxsize=16)
def _outline_samples(game: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    from .layouts import get_layout
    P = get_layout(game).outline
    k = len(P)
    seg = np.linalg.norm(np.roll(P, -1, 0) - P, axis=1)
    cum = np.concatenate([[0], np.cumsum(seg)])
    centre = P.mean(0)
    pts, nrm = [], []
    for t in np.linspace(0, seg.sum(), n, endpoint=False):
        i = int(np.searchsorted(cum, t, side="right") - 1)
        a, b = P[i], P[(i + 1) % k]
        u = (t - cum[i]) / seg[i]
        if u < 0.08 or u > 0.92:
            continue  # corners are ambiguous
        p = a + u * (b - a)
        e = (b - a) / seg[i]
        nv = np.array([e[1], -e[0]])
        if np.dot(nv, p - centre) < 0:
            nv = -nv
        pts.append(p)
        nrm.append(nv)
    return np.array(pts), np.array(nrm)


def outline_support(img: np.ndarray, H: np.ndarray, layout: Layout, d: float = 0.22, n: int = 240,
                    lab: np.ndarray | None = None) -> float:
    """Share of the projected outline where the photo changes colour across it (a real board edge)."""
    pts, nrm = _outline_samples(layout.game, n)
    inner = cv2.perspectiveTransform((pts - d * nrm).reshape(-1, 1, 2), H).reshape(-1, 2)
    outer = cv2.perspectiveTransform((pts + d * nrm).reshape(-1, 1, 2), H).reshape(-1, 2)
    h, w = img.shape[:2]
    ok = ((inner >= 0) & (inner < [w - 1, h - 1])).all(1) & ((outer >= 0) & (outer < [w - 1, h - 1])).all(1)
    if ok.sum() < 10:
        return 0.0
    if lab is None:
        lab = support_lab(img)
    ii = np.round(inner[ok]).astype(int)
    oo = np.round(outer[ok]).astype(int)
    a = lab[ii[:, 1], ii[:, 0]]
    b = lab[oo[:, 1], oo[:, 0]]
    de = np.sqrt(((a - b) ** 2).sum(1))
    return float((de > 10).mean()) * float(ok.mean())


_F_GRID = np.geomspace(0.45, 2.5, 32)
PHONE_FOCAL = 0.85  # a phone's main camera: focal length in pixels over the long side


def _camera_fits(H: np.ndarray, shape) -> tuple[np.ndarray, np.ndarray]:
    """Focal lengths of a phone's range and, for each, how far the homography is from a real
    pinhole camera with it looking at a flat board (square pixels, centred principal point)."""
    h, w = shape[:2]
    f = _F_GRID * max(w, h)
    h1, h2 = H[:, 0], H[:, 1]
    # K^-1 h for every focal length at once
    a = np.stack([(h1[0] - w / 2 * h1[2]) / f, (h1[1] - h / 2 * h1[2]) / f, np.full_like(f, h1[2])], 1)
    b = np.stack([(h2[0] - w / 2 * h2[2]) / f, (h2[1] - h / 2 * h2[2]) / f, np.full_like(f, h2[2])], 1)
    na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    err = np.full_like(f, np.inf)
    ok = (na > 0) & (nb > 0)
    err[ok] = np.abs(np.log(na[ok] / nb[ok])) + np.abs((a[ok] * b[ok]).sum(1)) / (na[ok] * nb[ok])
    return f, err


def camera_error(H: np.ndarray, shape) -> float:
    """How far the homography is from a real camera at its best focal length: 0 is perfect."""
    return float(_camera_fits(H, shape)[1].min())


def raised(H: np.ndarray, shape, height: float) -> np.ndarray:
    """The homography of the plane `height` board units above the board, toward the camera.

    A stone stands up from the board: seen at a slant its body shows above its foot, toward
    the far side. The camera is the pinhole `camera_error` finds best (centred principal point,
    square pixels); a homography no such camera makes is returned unchanged."""
    if not height:
        return H
    h, w = shape[:2]
    f, err = _camera_fits(H, shape)
    if not np.isfinite(err).all():
        return H
    # seen straight down every focal length fits: then a phone's usual one among those that do
    fits = err <= err.min() + 0.01
    focal = float(f[fits][int(np.argmin(np.abs(np.log(f[fits] / (PHONE_FOCAL * max(w, h))))))])
    K = np.array([[focal, 0.0, w / 2], [0.0, focal, h / 2], [0.0, 0.0, 1.0]])
    M = np.linalg.solve(K, H)
    scale = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t = M[:, 0] * scale, M[:, 1] * scale, M[:, 2] * scale
    if t[2] < 0:  # the board lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    normal = np.cross(r1, r2)
    normal /= np.linalg.norm(normal)
    if np.dot(normal, t) > 0:  # up from the board is toward the camera
        normal = -normal
    lifted = K @ np.column_stack([r1, r2, t + height * normal])
    return lifted / lifted[2, 2]
