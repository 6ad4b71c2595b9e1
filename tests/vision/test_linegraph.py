"""Drawn boards found by the graph of their lines (`vision.linegraph`), not by standing out
from the table."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from fit_error import error_units
from vision.detect import find_board
from vision.errors import VisionError
from vision.fit import candidates, distinct
from vision.layouts import get_layout
from vision.linegraph import families, line_candidates, long_lines, segments
from vision.pipeline import _accept, detection_pool
from vision.tuning import DRAWN_CANDIDATES, DRAWN_PER_SOURCE, SAME_FIT_SHARE, SMALL_SIDE

PHOTOS = Path(__file__).parent / "photos" / "lines"
HARD = Path(__file__).parent / "photos" / "hard"
MORRIS = get_layout("morris")


def _photo(name: str, folder: Path = PHOTOS) -> tuple[np.ndarray, np.ndarray]:
    """A committed photo and its true fit (board units -> pixels) from the ground truth's points."""
    meta = json.loads((folder / f"{name}.json").read_text())
    board = np.array([MORRIS.xy[MORRIS.ids.index(cell)] for cell in meta["cell_px"]], np.float64)
    seen = np.array(list(meta["cell_px"].values()), np.float64)
    truth, _ = cv2.findHomography(board, seen, 0)
    photo = cv2.imread(str(folder / meta["image"]))
    assert photo is not None
    return photo, truth


def _small(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The search's small copy of the photo, and the homography pixels -> its pixels."""
    h, w = img.shape[:2]
    shrink = SMALL_SIDE / max(h, w)
    small = cv2.resize(img, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA)
    return small, np.diag([shrink, shrink, 1.0])


def test_light_lines_on_a_board_like_its_table_are_found_by_the_lines() -> None:
    """Light inlaid lines on a wooden board on a wooden table: no region fit comes near the
    board, the line graph puts it within a few hundredths of a point, and the reader accepts it."""
    photo, truth = _photo("morris_63025")
    small, to_small = _small(photo)
    tol = SAME_FIT_SHARE * max(small.shape[:2])
    regions = distinct(candidates(small, MORRIS, detection_pool()), MORRIS, tol, DRAWN_CANDIDATES, DRAWN_PER_SOURCE)
    assert min(error_units(c.H, to_small @ truth, "morris") for c in regions) > 0.5
    found = line_candidates(photo, small, MORRIS)
    assert found and min(error_units(H, to_small @ truth, "morris") for _, H in found[:2]) < 0.1
    det = find_board(photo, MORRIS, detection_pool())
    assert det.source == "lines"
    assert error_units(det.H, truth, "morris") < 0.05
    assert _accept(det, "morris")


def _line_graph_finds_the_board(name: str) -> None:
    """A hard morris photo: one of the line graph's first two candidates within a tenth of a point of
    the truth, and the whole search's fit within 0.05, accepted."""
    photo, truth = _photo(name, HARD)
    small, to_small = _small(photo)
    found = line_candidates(photo, small, MORRIS)
    assert found and min(error_units(H, to_small @ truth, "morris") for _, H in found[:2]) < 0.1
    det = find_board(photo, MORRIS, detection_pool())
    assert error_units(det.H, truth, "morris") < 0.05
    assert _accept(det, "morris")


def test_thin_faint_lines_are_found_on_the_contrast_stretched_copy() -> None:
    """Blender seed 115: 1.5 mm gold inlay on ivory paint, a table of dark wavy grain.  On the
    photo's gray the line detector finds few pieces of the drawing and the grain's make the
    families: no line candidate, and the photo was refused.  With the pieces found on the copy
    stretched tile by tile (`linegraph.local_contrast`) the drawing's lines show, and the
    line graph puts the board within a few hundredths of a point."""
    _line_graph_finds_the_board("morris_b115002")


def test_a_line_of_another_hue_as_light_as_its_board_is_found_by_its_hue() -> None:
    """Blender seed 117 (009): blue paint on light wood, as light as the wood, on a table of wavy grain.
    On the gray copies the line detector sees the table's grain and the board's pieces along it, not
    the blue lines across it: one family only, no line candidate near the board, and the photo was
    refused.  On the copy of the colour's departure from its surroundings (`chroma_contrast`) the
    drawing shows alone and makes its own hypotheses: the board within a few hundredths of a point."""
    _line_graph_finds_the_board("morris_b117009")


def _desk(seed: int) -> np.ndarray:
    """A photo of no board: a grained wooden desk with a ruled notebook (one family of equally
    spaced lines), a closed book and two pencils on it -- straight lines in two directions."""
    rng = np.random.default_rng(seed)
    h, w = 900, 1200
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = 14 * np.sin((xx * 0.8 + yy * 0.6) / 9.0 + 3 * np.sin(yy / 140.0))
    img = np.dstack([110 + grain, 150 + grain, 190 + grain])
    notebook = cv2.boxPoints(((520.0, 430.0), (420.0, 540.0), 12.0))
    cv2.fillPoly(img, [notebook.astype(np.int32)], (235, 238, 240), cv2.LINE_AA)
    a, b, c, d = notebook
    for t in np.linspace(0.12, 0.92, 16):  # the ruled lines, across the page
        p, q = a + t * (b - a), d + t * (c - d)
        cv2.line(img, tuple(int(v) for v in p), tuple(int(v) for v in q), (200, 160, 120), 2, cv2.LINE_AA)
    book = cv2.boxPoints(((950.0, 620.0), (260.0, 360.0), -25.0))
    cv2.fillPoly(img, [book.astype(np.int32)], (40, 60, 150), cv2.LINE_AA)
    for x0, y0, x1, y1 in ((80, 780, 560, 700), (780, 120, 1120, 300)):
        cv2.line(img, (x0, y0), (x1, y1), (30, 170, 220), 9, cv2.LINE_AA)
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_desk_with_straight_lines_and_no_board_gives_no_line_candidates() -> None:
    photo = _desk(4)
    gray = cv2.cvtColor(cv2.resize(photo, (800, 600), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    assert families(long_lines(segments(gray), 800))  # it has two families of long lines ...
    small, _ = _small(photo)
    assert line_candidates(photo, small, MORRIS) == []  # ... none of them a morris drawing
    try:
        det = find_board(photo, MORRIS, detection_pool())
    except VisionError as refused:
        assert refused.code == "no_board"
    else:
        assert not _accept(det, "morris")


def test_line_candidates_are_for_morris_only() -> None:
    photo, _ = _photo("morris_63025")
    small, _ = _small(photo)
    assert line_candidates(photo, small, get_layout("rings")) == []
