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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import VisionError
from .layouts import SQRT3, Layout, ring_circles

SMALL = 400  # long side of the segmentation copy
DEBUG: dict | None = None          # set to {} to collect the candidates (for tuning scripts)
OUTLINE_REFINE = True
SILHOUETTE_ECC = True
_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="vision-detect")
MAX_CAMERA_ERROR_CANDIDATE = 0.2   # looser than the final check: ECC still improves them  # long side of the segmentation copy


@dataclass
class Detection:
    H: np.ndarray            # board units -> image pixels
    score: float             # feature correlation after refinement (0..1)
    polygon: np.ndarray      # fitted outline in image pixels (canonical order)
    source: str = ""
    support: float = 0.0     # share of the outline where the photo shows an edge
    camera_error: float = 0.0  # distance from a real camera's view of a flat board

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), self.H).reshape(-1, 2)


# ----------------------------------------------------------------- canonical frames

class Frame:
    """Canonical raster of a layout: `s` pixels per board unit, margin `m` units."""

    def __init__(self, layout: Layout, s: float, margin: float = 0.6):
        x0, y0, x1, y1 = layout.bounds()
        self.layout, self.s = layout, s
        self.x0, self.y1 = x0 - margin, y1 + margin
        self.w = int(math.ceil((x1 - x0 + 2 * margin) * s))
        self.h = int(math.ceil((y1 - y0 + 2 * margin) * s))
        self.C = np.array([[s, 0, -self.x0 * s], [0, -s, self.y1 * s], [0, 0, 1.0]])

    def to_px(self, pts) -> np.ndarray:
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        return np.stack([(pts[:, 0] - self.x0) * self.s, (self.y1 - pts[:, 1]) * self.s], axis=1)

    def warp(self, img: np.ndarray, H: np.ndarray, interp=cv2.INTER_LINEAR) -> np.ndarray:
        M = H @ np.linalg.inv(self.C)
        return cv2.warpPerspective(img, M, (self.w, self.h), flags=interp | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)


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


def candidate_masks(small: np.ndarray, stone_px: float) -> list[tuple[str, np.ndarray]]:
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
    out = [H for iou, H in peaks[:2] if iou >= 0.6]
    if SILHOUETTE_ECC:
        out = [_silhouette_ecc(region, H, layout) for H in out]
    return out


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


def blob_refine(gray: np.ndarray, H: np.ndarray, layout: Layout, rounds=(0.5, 0.35, 0.2)) -> np.ndarray:
    """Pocket boards: pull the fit onto the round things (pockets, stones) near each location."""
    fr = Frame(layout, 20.0, margin=0.8)
    sig = 0.28 * fr.s
    for win in rounds:
        w = fr.warp(gray, H)
        b = cv2.GaussianBlur(w, (0, 0), sig)
        lxx = cv2.Sobel(b, cv2.CV_32F, 2, 0)
        lyy = cv2.Sobel(b, cv2.CV_32F, 0, 2)
        lxy = cv2.Sobel(b, cv2.CV_32F, 1, 1)
        doh = lxx * lyy - lxy * lxy
        cen = fr.to_px(layout.xy)
        R = int(win * fr.s)
        src_pts, dst_pts = [], []
        for (cx, cy), xy in zip(cen, layout.xy):
            x0, y0 = int(round(cx)) - R, int(round(cy)) - R
            x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
            if x0 < 0 or y0 < 0 or x1 > doh.shape[1] or y1 > doh.shape[0]:
                continue
            patch = doh[y0:y1, x0:x1]
            j = int(np.argmax(patch))
            py, px = divmod(j, patch.shape[1])
            if patch[py, px] <= 0:
                continue
            src_pts.append(xy)
            dst_pts.append((x0 + px, y0 + py))
        if len(src_pts) < 8:
            return H
        dst = np.array(dst_pts, np.float64)
        # canonical px -> board units (what the current H would call them)
        units = np.stack([dst[:, 0] / fr.s + fr.x0, fr.y1 - dst[:, 1] / fr.s], 1)
        img_pts = cv2.perspectiveTransform(units.reshape(-1, 1, 2), H).reshape(-1, 2)
        # the RANSAC threshold: 0.15 board units in image pixels
        c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
        thr = max(1.0, 0.15 * float(np.linalg.norm(c[1] - c[0])))
        H2, inl = cv2.findHomography(np.array(src_pts), img_pts, cv2.RANSAC, thr)
        if H2 is None or inl is None or inl.sum() < max(8, 0.4 * len(src_pts)):
            return H
        H = H2 / H2[2, 2]
    return H


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


def line_refine(gray: np.ndarray, H: np.ndarray, layout: Layout, rounds=(0.3, 0.2, 0.12)) -> np.ndarray:
    """Drawn boards: pull the fit onto the dark lines (morris squares, rings circles)."""
    pts, nrm = _line_samples(layout.game)
    if len(pts) < 20:
        return H
    s = 40.0 if layout.game == "morris" else 60.0
    fr = Frame(layout, s, margin=0.5)
    for win in rounds:
        w = fr.warp(gray, H)
        k = max(3, int(round(0.2 * s)) | 1)
        bh = cv2.morphologyEx(cv2.GaussianBlur(w, (0, 0), 1.0), cv2.MORPH_BLACKHAT,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        offs = np.linspace(-win, win, int(2 * win * s) + 1)
        # sample the black-hat along each normal
        P = pts[:, None, :] + offs[None, :, None] * nrm[:, None, :]
        px = fr.to_px(P.reshape(-1, 2)).reshape(len(pts), len(offs), 2).astype(np.float32)
        vals = cv2.remap(bh, px[..., 0], px[..., 1], cv2.INTER_LINEAR)
        j = np.argmax(vals, axis=1)
        peak = vals[np.arange(len(pts)), j]
        strong = peak > max(2.0, np.percentile(peak, 40))
        if strong.sum() < 20:
            return H
        found = pts + offs[j][:, None] * nrm
        img_pts = cv2.perspectiveTransform(found[strong].reshape(-1, 1, 2), H).reshape(-1, 2)
        c = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]), H).reshape(-1, 2)
        thr = max(1.0, 0.05 * float(np.linalg.norm(c[1] - c[0])))
        H2, inl = cv2.findHomography(pts[strong], img_pts, cv2.RANSAC, thr)
        if H2 is None or inl is None or inl.sum() < 0.3 * strong.sum():
            return H
        H = H2 / H2[2, 2]
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


def find_board(img: np.ndarray, layout: Layout) -> Detection:
    h, w = img.shape[:2]
    sc = SMALL / max(h, w)
    small = cv2.resize(img, (round(w * sc), round(h * sc)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    gray_small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab_small = support_lab(small)
    # expected stone size when the board fills ~ a third of the frame
    span = float(np.ptp(layout.outline[:, 0]))
    stone_px = 2 * layout.stone_radius * min(sh, sw) * 0.6 / span
    n = len(layout.outline)
    coarse = Scorer(layout, s=max(6.0, 160.0 / span), blur=1.5)
    cands = []
    seen = []
    for name, mask in candidate_masks(small, stone_px):
        filled = _fill(mask)
        ko = max(5, int(stone_px * 2.0) | 1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko)))
        polys = fit_polygons(filled, n, 0.06 * sw * sh, 0.97 * sw * sh)
        if np.count_nonzero(opened != filled) > 0.01 * sw * sh:
            polys += fit_polygons(opened, n, 0.06 * sw * sh, 0.97 * sw * sh)
        for H in shape_homographies(filled, layout, target=feature_outline(layout) if name.startswith("blob") else None):
            if _plausible(H, layout, small.shape):
                s0 = coarse.score(gray_small, H)
                u0 = outline_support(small, H, layout, lab=lab_small)
                p = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
                cands.append((s0 + 0.5 * u0, H, p, "m" + name))
        for poly in polys:
            key = poly.mean(0)
            if any(np.linalg.norm(key - k2) < 3 and abs(abs(_signed_area(poly)) - a2) < 0.02 * a2 for k2, a2 in seen):
                continue
            seen.append((key, abs(_signed_area(poly))))
            target = feature_outline(layout) if name.startswith("blob") else None
            for H in homographies_for(poly, layout, target):
                if _plausible(H, layout, small.shape):
                    s0 = coarse.score(gray_small, H)
                    u0 = outline_support(small, H, layout, lab=lab_small)
                    cands.append((s0 + 0.5 * u0, H, poly, name))
    if not cands:
        raise VisionError(f"no {layout.game} board found in the photo", "no_board")
    cands.sort(key=lambda c: -c[0])
    if DEBUG is not None:
        DEBUG["cands"] = cands
    # refine the best few distinct ones at low resolution, keep the best
    picked = []
    tried: list[np.ndarray] = []
    tol = 0.03 * max(sw, sh)
    per_source: dict[str, int] = {}
    for sc0, H, poly, name in cands:
        if len(tried) >= 6:
            break
        p = cv2.perspectiveTransform(layout.outline.reshape(-1, 1, 2), H).reshape(-1, 2)
        if any(np.abs(p - q).max() < tol for q in tried):
            continue
        src_key = name.lstrip("m")
        if per_source.get(src_key, 0) >= 2:
            continue
        per_source[src_key] = per_source.get(src_key, 0) + 1
        tried.append(p)
        picked.append((H, poly, name))

    def coarse_refine(item):
        H, poly, name = item
        if layout.marks == "pocket":
            H = blob_refine(gray_small, H, layout)
        H1, s1 = coarse.refine(gray_small, H, 15)
        if not _plausible(H1, layout, small.shape):
            H1, s1 = H, coarse.score(gray_small, H)
        sup = outline_support(small, H1, layout, lab=lab_small)
        return (s1 + 0.5 * sup, H1, poly, name)

    # OpenCV lets go of the GIL: the two cores refine two candidates at once
    refined = list(_POOL.map(coarse_refine, picked))
    refined.sort(key=lambda r: -r[0])
    # the best two at full resolution: local refinement on the board's own marks, then ECC
    S = np.diag([1 / sc, 1 / sc, 1.0])
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine = Scorer(layout, s=max(12.0, 320.0 / span), blur=1.3)
    half = 800.0 / max(h, w)
    mid = cv2.resize(img, (round(w * half), round(h * half)), interpolation=cv2.INTER_AREA) if half < 1 else img
    Mh = np.diag([half, half, 1.0]) if half < 1 else np.eye(3)
    lab_mid = support_lab(mid)

    def local(Hx):
        if layout.marks in ("point", "crossing"):
            return line_refine(gray, Hx, layout)
        return blob_refine(gray, Hx, layout, rounds=(0.3, 0.2))

    def final(item):
        _, Hs, poly, name = item
        H = S @ Hs
        options = [H, local(H)]
        if OUTLINE_REFINE:
            options.append(local(outline_refine(img, H, layout)))
        H = max(options, key=lambda Hx: fine.score(gray, Hx) if _plausible(Hx, layout, img.shape) else -9)
        H2, s2 = fine.refine(gray, H, 30)
        score = fine.score(gray, H)
        if _plausible(H2, layout, img.shape) and s2 >= score - 1e-3:
            H, score = H2, s2
        support = outline_support(mid, Mh @ H, layout, lab=lab_mid)
        return (score + 0.5 * support, H / H[2, 2], score, support, poly, name)

    best = max(_POOL.map(final, refined[:2]), key=lambda r: r[0])
    _, H, score, support, poly, name = best
    return Detection(H=H, score=score, polygon=poly / sc, source=name, support=support,
                     camera_error=camera_error(H, img.shape))


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


def camera_error(H: np.ndarray, shape) -> float:
    """How far the homography is from a real pinhole camera looking at a flat board (square
    pixels, centred principal point, any focal length in a phone's range): 0 is perfect."""
    h, w = shape[:2]
    f = _F_GRID * max(w, h)
    h1, h2 = H[:, 0], H[:, 1]
    # K^-1 h for every focal length at once
    a = np.stack([(h1[0] - w / 2 * h1[2]) / f, (h1[1] - h / 2 * h1[2]) / f, np.full_like(f, h1[2])], 1)
    b = np.stack([(h2[0] - w / 2 * h2[2]) / f, (h2[1] - h / 2 * h2[2]) / f, np.full_like(f, h2[2])], 1)
    na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
    ok = (na > 0) & (nb > 0)
    if not ok.any():
        return float("inf")
    err = np.abs(np.log(na[ok] / nb[ok])) + np.abs((a[ok] * b[ok]).sum(1)) / (na[ok] * nb[ok])
    return float(err.min())

