"""Finding the board in a photo: the search that runs the stages, `find_board`.

1. Candidate regions on a small copy of the photo (`segment`): colour clusters, colour +
   wood-grain texture clusters, a border (table) colour model, and the density of round blobs
   (pockets, stones).  Each filled region gives outline fits two ways (`fit`): an N-gon
   fitted to its contour, and a moment/overlap fit refined by ECC on the silhouette.
   Beside them, pocket boards' fits from the lattice of their round marks (`lattice`),
   morris' from the graph of its drawn lines (`linegraph`) and rings' from the honeycomb of
   its locations (`honeycomb`; these two searched for and refined only where the region fits
   leave the lines unclear).
2. Every candidate homography is scored by correlating the warped photo's edges with a
   drawing of the board's own features (pockets, lines, circles, outline) plus the share
   of the outline that shows a real edge (`evidence.outline_support`); implausible ones (not
   what a pinhole camera sees of this shape, `camera`) are dropped.
3. The best few are refined (`refine`): on the blobs at the pockets (pocket boards,
   `marks.grid_fit`), ECC on the feature drawing, then at full resolution on the drawn lines
   (morris, rings) or the pockets, the top-face edge (the board's visible side and shadow lie
   outside it) and ECC again; a rings fit whole steps of its lattice off is moved back to where the
   board's outline shows (`refine.onto_the_board`).

A fit is a homography `H` (the usual name in this maths: board units -> image pixels).  The
thread pool the stages share is the caller's (`pipeline.detection_pool`): OpenCV lets go of
the GIL, so the cores fit regions and refine candidates side by side.  The tuned numbers are
in `tuning`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

from .camera import camera_error, plausible
from .errors import VisionError
from .evidence import (
    line_evidence,
    numbers_ink,
    outline_support,
    point_evidence,
    samples_in_view,
    stone_evidence,
    support_lab,
)
from .fit import Candidate, Scorer, candidates, distinct, same_fit
from .honeycomb import honeycomb_candidates
from .lattice import lattice_candidates
from .linegraph import line_candidates
from .layouts import Layout
from .marks import NUMBERS_UNLIKE_CLEAR, grid_fit, mark_grid, numbers_row_gain
from .memo import gray32, per_image, shrunk
from .refine import line_refine, line_snap, moved_by, on_the_lattice, onto_the_board, onto_the_points, outline_refine
from .tuning import (
    CLEAR_LINES,
    CLEAR_MARGIN,
    COARSE_ECC_ITERS,
    DRAWN_CANDIDATES,
    DRAWN_FINALS,
    DRAWN_PER_SOURCE,
    FINE_ECC_ITERS,
    GRID_CANDIDATES,
    GRID_FINE_ROUNDS,
    GRID_FINE_S,
    GRID_PER_SOURCE,
    LATTICE_CANDIDATES,
    LINE_CANDIDATES,
    MAX_CAMERA_ERROR,
    MID_SIDE,
    NUMBERS_CLEAR,
    SAME_FIT_SHARE,
    SAME_START,
    SMALL_SIDE,
    STONE_MARKED,
    SUPPORT_WEIGHT,
)


@dataclass
class Detection:
    H: np.ndarray  # board units -> image pixels
    score: float  # feature correlation after refinement (0..1)
    source: str = ""
    support: float = 0.0  # share of the outline where the photo shows an edge
    camera_error: float = 0.0  # distance from a real camera's view of a flat board
    evidence: float = 0.0  # the board's own marks where the fit puts them: round marks (marks.GridFit), drawn lines
    orientation_margin: float = 0.0  # oriented boards: how much better this way round fits than turned
    present: float = 1.0  # lattice boards: share of the marks seen (marks.GridFit) ...
    weakest_side: float = 1.0  # ... the weakest outer line of marks against them all ...
    outside: float = 0.0  # ... and round edges beyond a side that has none, against the marks'


def _scaling(factor: float) -> np.ndarray:
    """The homography that scales pixels by `factor` (to a smaller or bigger copy of the photo)."""
    return np.diag([factor, factor, 1.0])


def find_board(
    img: np.ndarray, layout: Layout, pool: Executor, deadline: float | None = None, glance: bool = False
) -> Detection:
    """The board's fit in the photo; `pool` runs independent fits side by side; `deadline` (a
    `time.perf_counter()` value) ends the search with a refusal when the candidates alone take
    past it, and stops polishing more of them.  A `glance` at a drawn board polishes only the best
    region's fit and searches no structure: it finds a board that stands out clearly, at about half
    the cost of a search that finds none (a refusal's look at another game, `pipeline._looks`)."""
    small = shrunk(img, SMALL_SIDE)
    drawn = mark_grid(layout.game) is None
    # a pocket board's lattice of round marks is looked for beside the regions' fits (on another core)
    lattice_search = pool.submit(lattice_candidates, gray32(small), layout) if not drawn else None
    cands = candidates(small, layout, pool)
    if deadline is not None and time.perf_counter() > deadline:
        raise VisionError(
            f"no {layout.game} board found in the time a reading may take "
            "(a busy photo: take it closer, the board filling most of the frame)",
            "no_board",
        )
    tol = SAME_FIT_SHARE * max(small.shape[:2])
    if lattice_search is not None:
        # the lattice of its round marks finds a pocket board that does not stand out from its table
        structural = [Candidate(score, H, "lattice") for score, H in lattice_search.result()]
        picked = distinct(structural, layout, tol, LATTICE_CANDIDATES, LATTICE_CANDIDATES)
        picked += [
            c
            for c in distinct(cands, layout, tol, GRID_CANDIDATES, GRID_PER_SOURCE)
            if not any(same_fit(c.H, q.H, layout, tol) for q in picked)
        ]
        if not picked:
            raise VisionError(f"no {layout.game} board found in the photo", "no_board")
        return _find_on_grid(img, small, picked, layout, pool)
    regions = distinct(cands, layout, tol, DRAWN_CANDIDATES, DRAWN_PER_SOURCE)
    found = _find_drawn(img, small, regions, layout, pool, deadline, 1 if glance else DRAWN_FINALS) if regions else None
    if glance:
        if found is None:
            raise VisionError(f"no {layout.game} board found in the photo", "no_board")
        return found
    # the drawing's structure (morris' line graph, rings' honeycomb of locations) finds a drawn
    # board that does not stand out from its table: it is searched for only where the regions'
    # fits leave the lines unclear (most photos need no structure search: a second or so saved)
    if (found is None or not _clear(found, layout)) and (deadline is None or time.perf_counter() < deadline):
        source = "honeycomb" if layout.game == "rings" else "lines"
        lines = [Candidate(rank, H, source) for rank, H in drawing_fits(img, layout)]
        lines = distinct(lines, layout, tol, LINE_CANDIDATES, LINE_CANDIDATES)
        if lines and (deadline is None or time.perf_counter() < deadline):
            by_graph = _find_drawn(img, small, lines, layout, pool, deadline)
            found = by_graph if found is None else max(found, by_graph, key=_trust)
    if found is None:
        raise VisionError(f"no {layout.game} board found in the photo", "no_board")
    return found


@per_image
def drawing_fits(img: np.ndarray, layout: Layout) -> tuple[tuple[float, np.ndarray], ...]:
    """A drawn board's fits from its drawing's structure (morris' line graph, rings' honeycomb of
    locations; rank, board units -> pixels of the search's small copy), once per photo: a refusal asks
    whether the photo shows the drawing at all (`pipeline._looks`) before the search that uses them."""
    by_structure = honeycomb_candidates if layout.game == "rings" else line_candidates
    return tuple(by_structure(img, shrunk(img, SMALL_SIDE), layout))


def distinct_starts(starts: Iterable[np.ndarray], layout: Layout) -> list[np.ndarray]:
    """The line refinement's starts less any left (nearly) where an earlier one is (the outline or
    the snap moved it by less than `SAME_START`): it would refine to the same fit, at the same cost."""
    kept: list[np.ndarray] = []
    for start in starts:
        if not any(moved_by(other, start, layout) < SAME_START for other in kept):
            kept.append(start)
    return kept


def _trust(det: Detection) -> tuple[bool, float]:
    """How far a drawn board's fit can be trusted: a fit a real camera can make first, then
    its board's own marks where it puts them."""
    return det.camera_error <= MAX_CAMERA_ERROR, det.evidence


def _clear(det: Detection, layout: Layout) -> bool:
    """A drawn board's fit that needs no second search."""
    return _trust(det) >= (True, CLEAR_LINES[layout.game])


def _find_on_grid(
    img: np.ndarray, small: np.ndarray, picked: list[Candidate], layout: Layout, pool: Executor
) -> Detection:
    """Boards with a lattice of round marks (pockets, rings' circles): every candidate is pulled
    onto the lattice at low resolution; the one with the clearest lattice is polished at full
    resolution."""
    gray_small = gray32(small)
    fits = list(pool.map(lambda c: grid_fit(gray_small, c.H, layout), picked))
    i = max(range(len(fits)), key=lambda j: fits[j].evidence)
    shrink = small.shape[1] / img.shape[1]
    full_from_small = _scaling(1 / shrink)
    gray = gray32(img)
    fit = grid_fit(gray, full_from_small @ fits[i].H, layout, s=GRID_FINE_S, rounds=GRID_FINE_ROUNDS, shift=False)
    fine = Scorer.fine(layout)
    small_from_full = np.linalg.inv(full_from_small)

    def rank(fit_h: np.ndarray) -> tuple[float, float, float]:
        score, support = fine.score(gray, fit_h), outline_support(small, small_from_full @ fit_h, layout)
        return score + SUPPORT_WEIGHT * support, score, support

    H, margin = fit.H, 0.0
    ranked, score, support = rank(H)
    if layout.oriented:
        # the pocket lattice fits either way round: the outline (the numbered edge's wide margin) decides
        H_turned = H @ np.diag([-1.0, -1.0, 1.0])
        ranked_turned, score_turned, support_turned = rank(H_turned)
        margin = abs(ranked - ranked_turned)
        if ranked_turned > ranked:
            H, H_turned, score, support = H_turned, H, score_turned, support_turned
        # the engraved numbers, where they show clearly, tell it better (a table of the board's
        # own wood hides the outline)
        ink, ink_turned = numbers_ink(gray, H, layout), numbers_ink(gray, H_turned, layout)
        if max(ink, ink_turned) >= NUMBERS_CLEAR * max(min(ink, ink_turned), 1e-6):
            margin = max(margin, CLEAR_MARGIN)
            if ink_turned > ink:
                H, score, support = H_turned, *rank(H_turned)[1:]
        # turned end for end onto its lattice the board shows the same outline, and the numbers' loops can pass
        # for a row of pockets: they are no row of pockets (`marks.numbers_row_gain`)
        H_end, gain = numbers_row_gain(gray, H, layout)
        if gain >= NUMBERS_UNLIKE_CLEAR:
            # pulled onto the pockets afresh (the numbers bent the fit: Blender dev 115008 12 cells wrong as it
            # lay, 3 pulled), unless that makes a fit no camera would (115010: camera error 0.12, refused)
            pulled = grid_fit(gray, H_end, layout, s=GRID_FINE_S, rounds=GRID_FINE_ROUNDS, shift=False).H
            if camera_error(pulled, img.shape) <= max(MAX_CAMERA_ERROR, camera_error(H_end, img.shape)):
                H_end = pulled
            H, (score, support) = H_end, rank(H_end)[1:]
            margin = CLEAR_MARGIN * min(1.0, gain / (2 * NUMBERS_UNLIKE_CLEAR))
    return Detection(
        H=H,
        score=score,
        source=picked[i].source,
        support=support,
        camera_error=camera_error(H, img.shape),
        evidence=fit.evidence,
        orientation_margin=margin,
        present=fit.present,
        weakest_side=fit.weakest_side,
        outside=fit.outside,
    )


def _find_drawn(
    img: np.ndarray,
    small: np.ndarray,
    picked: list[Candidate],
    layout: Layout,
    pool: Executor,
    deadline: float | None = None,
    finals: int = DRAWN_FINALS,
) -> Detection:
    """Drawn boards (morris, rings): refine the best few at low resolution on the feature drawing,
    the best `finals` at full resolution on the drawn lines, the outline and the drawing again."""
    h, w = img.shape[:2]
    shrink = small.shape[1] / w
    gray_small = gray32(small)
    lab_small = support_lab(small)
    coarse = Scorer.coarse(layout)

    def coarse_refine(c: Candidate) -> tuple[float, np.ndarray, str]:
        refined, score = coarse.refine(gray_small, c.H, COARSE_ECC_ITERS)
        if not plausible(refined, layout, small.shape):
            refined, score = c.H, coarse.score(gray_small, c.H)
        support = outline_support(small, refined, layout, lab=lab_small)
        return (score + SUPPORT_WEIGHT * support, refined, c.source)

    refined = sorted(pool.map(coarse_refine, picked), key=lambda r: -r[0])
    full_from_small = _scaling(1 / shrink)
    gray = gray32(img)
    fine = Scorer.fine(layout)
    mid_shrink = MID_SIDE / max(h, w)
    mid = shrunk(img, MID_SIDE) if mid_shrink < 1 else img
    mid_from_full = _scaling(mid_shrink) if mid_shrink < 1 else np.eye(3)
    lab_mid = support_lab(mid)

    def marks_shown(fit_h: np.ndarray) -> float:
        """The board's marks where the fit puts them: its drawn lines, or on a crowded board whose
        stones show the fit better (`STONE_MARKED`) their round edges, whichever show more."""
        shown = line_evidence(gray, fit_h, layout)
        if layout.game in STONE_MARKED:
            shown = max(shown, stone_evidence(gray, fit_h, layout, img.shape))
        return shown

    def final(item: tuple[float, np.ndarray, str]) -> tuple[float, np.ndarray, str]:
        _, on_small, name = item
        H = full_from_small @ on_small
        starts = distinct_starts((H, outline_refine(img, H, layout), line_snap(gray, H, layout)), layout)
        options = [
            on_the_lattice(gray, fit_h, layout)
            for fit_h in pool.map(lambda start: line_refine(gray, start, layout), starts)
            if plausible(fit_h, layout, img.shape)
        ] or [H]
        shown = [marks_shown(fit_h) for fit_h in options]
        if max(shown) < CLEAR_LINES[layout.game]:
            # ECC on the whole drawing from the best of them (it holds where stones hide the lines)
            H_ecc = fine.refine(gray, options[int(np.argmax(shown))], FINE_ECC_ITERS)[0]
            if plausible(H_ecc, layout, img.shape):
                options.append(H_ecc)
                shown.append(marks_shown(H_ecc))
        k = int(np.argmax(shown))
        return shown[k], options[k] / options[k][2, 2], name

    # the best candidate first; the next ones only while the lines do not clearly agree with a
    # fit a real camera can make (a fit squeezed onto a few lines can agree with them)
    def key(result: tuple[float, np.ndarray, str]) -> tuple[bool, float]:
        return camera_error(result[1], img.shape) <= MAX_CAMERA_ERROR, result[0]

    best = final(refined[0])
    for item in refined[1:finals]:
        if key(best) >= (True, CLEAR_LINES[layout.game]) or (deadline is not None and time.perf_counter() > deadline):
            break
        best = max(best, final(item), key=key)
    evidence, H, name = best
    on_points = onto_the_points(img, gray, H, layout)
    if on_points is not H:  # the fit lay a third of a triangle off rings' points
        H, evidence = on_points / on_points[2, 2], marks_shown(on_points)
    on_board = onto_the_board(mid, lab_mid, mid_from_full, H, layout)
    if on_board is not H:  # the fit lay whole steps of rings' lattice off the board's edge
        H, evidence = on_board / on_board[2, 2], marks_shown(on_board)
    # fits are ranked on all their line samples alike; the one chosen may show more of its
    # board where stones hide the lines: by the lines still in view, or by the stones themselves
    evidence = max(evidence, line_evidence(gray, H, layout, samples_in_view(gray, H, layout)))
    evidence = max(evidence, point_evidence(gray, H, layout, img.shape))
    return Detection(
        H=H,
        score=fine.score(gray, H),
        source=name,
        support=outline_support(mid, mid_from_full @ H, layout, lab=lab_mid),
        camera_error=camera_error(H, img.shape),
        evidence=evidence,
    )
