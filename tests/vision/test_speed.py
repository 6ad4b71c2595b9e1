"""The reader's shortcuts (issue 17, item 6: its speed) compute exactly what the plain ways did:
work kept per photo (`vision.memo`), the big line kernel split in two, the round-edge response in
place, and each region fitted once however many clusterings cut it out."""

from __future__ import annotations

import gc
import math
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.fit as fit
from vision.layouts import get_layout
from vision.marks import ring_response
from vision import memo
from vision.io import read_image
from vision.memo import forget, per_image
from vision.pipeline import read_board
from vision.segment import ellipse_parts, thin_lines

PHOTOS = Path(__file__).parent / "photos"


def test_per_image_computes_once_per_image_and_forgets_it_with_the_image() -> None:
    calls: list[float] = []

    @per_image
    def brighter(image: np.ndarray, by: float) -> np.ndarray:
        calls.append(by)
        return image + by

    image = np.zeros((4, 4), np.float32)
    first = brighter(image, 1.0)
    assert brighter(image, 1.0) is first and len(calls) == 1
    assert float(brighter(image, 2.0)[0, 0]) == 2.0 and len(calls) == 2  # other arguments: another answer
    brighter(image.copy(), 1.0)  # the same pixels in another image: computed for it
    assert len(calls) == 3
    with pytest.raises(ValueError):
        first[0, 0] = 5.0  # an answer is shared: nobody may change it
    kept = weakref.ref(first)
    del image, first
    gc.collect()
    assert kept() is None  # gone with its image: a later image at the same address starts empty


def test_a_forgotten_image_keeps_nothing() -> None:
    @per_image
    def copied(image: np.ndarray) -> np.ndarray:
        return image.copy()

    image = np.zeros((4, 4), np.float32)
    kept = weakref.ref(copied(image))
    assert kept() is not None
    forget(image)
    gc.collect()
    assert kept() is None


def test_a_reading_leaves_nothing_kept_for_its_photo() -> None:
    """The `Reading` holds its photo: what the search kept for it (grey and Lab copies, line maps)
    must not live as long."""
    image = read_image(PHOTOS / "morris_3001.jpg")
    read_board(image, "morris")
    assert all(id(image) not in stores for stores in memo._ALL_STORES)


def test_per_image_keys_arrays_by_their_values() -> None:
    calls: list[int] = []

    @per_image
    def moved(image: np.ndarray, H: np.ndarray) -> float:
        calls.append(1)
        return float(H.sum())

    image = np.zeros((2, 2), np.uint8)
    moved(image, np.eye(3))
    moved(image, np.eye(3))  # another array, the same fit
    moved(image, np.eye(3) * 2)
    assert len(calls) == 2


def test_the_rings_line_kernel_splits_into_two_smaller_ellipses() -> None:
    parts = ellipse_parts(21)
    assert parts is not None and [p.shape[0] for p in parts] == [7, 15]
    assert ellipse_parts(9) is None  # morris' kernel: no split pays


@pytest.mark.parametrize("size", [5, 9, 21])
@pytest.mark.parametrize("shape", [(7, 9), (60, 71), (300, 340)])
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_thin_lines_are_opencvs_black_and_top_hats_exactly(size: int, shape: tuple[int, int], dtype: Any) -> None:
    rng = np.random.default_rng(size * 1000 + shape[0])
    gray = (rng.random(shape) * 255).astype(dtype)
    if dtype == np.float32:
        gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    dark, light = thin_lines(gray, size)
    assert dark.dtype == gray.dtype and light.dtype == gray.dtype
    assert np.array_equal(dark, cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel))
    assert np.array_equal(light, cv2.morphologyEx(gray, cv2.MORPH_TOPHAT, kernel))


def _ring_response_plainly(gray: np.ndarray, s: float, radii: tuple[float, ...]) -> np.ndarray:
    """`marks.ring_response` as it was written before it worked in place."""
    g = cv2.GaussianBlur(gray, (0, 0), max(0.7, 0.06 * s))
    gx = np.asarray(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), dtype=np.float32)
    gy = np.asarray(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3), dtype=np.float32)
    k = 1.0 / np.sqrt(np.sqrt(gx * gx + gy * gy) + 1e-3)
    gx *= k
    gy *= k
    h, w = g.shape
    best = None
    for rad in radii:
        r = rad * s
        R = int(math.ceil(r)) + 1
        px = cv2.copyMakeBorder(gx, R, R, R, R, cv2.BORDER_CONSTANT, value=0)
        py = cv2.copyMakeBorder(gy, R, R, R, R, cv2.BORDER_CONSTANT, value=0)
        acc = np.zeros((h, w), np.float32)
        for j in range(16):
            t = 2 * math.pi * j / 16
            c, sn = math.cos(t), math.sin(t)
            dx, dy = int(round(r * c)), int(round(r * sn))
            sx = px[R + dy : R + dy + h, R + dx : R + dx + w]
            sy = py[R + dy : R + dy + h, R + dx : R + dx + w]
            acc += np.abs(sx * c + sy * sn) - np.abs(sy * c - sx * sn)
        acc *= 1.0 / 16
        best = acc if best is None else np.maximum(best, acc)
    assert best is not None
    return best


@pytest.mark.parametrize(("s", "radii"), [(20.0, (0.3, 0.35, 0.4)), (1.0, (2.5,)), (10.0, (0.36, 0.42, 0.48))])
def test_the_round_edge_response_in_place_is_the_plain_one_exactly(s: float, radii: tuple[float, ...]) -> None:
    rng = np.random.default_rng(3)
    gray = cv2.GaussianBlur((rng.random((90, 110)) * 255).astype(np.float32), (0, 0), 2.0)
    assert np.array_equal(ring_response(gray, s, radii), _ring_response_plainly(gray, s, radii))


def test_a_region_two_clusterings_cut_out_is_fitted_once_and_named_for_both(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = get_layout("three-stones")
    small = np.full((300, 400, 3), 60, np.uint8)
    cv2.rectangle(small, (100, 50), (300, 250), (200, 180, 150), -1)
    board = np.zeros((300, 400), np.uint8)
    cv2.rectangle(board, (100, 50), (300, 250), 255, -1)
    other = np.zeros_like(board)
    cv2.rectangle(other, (120, 60), (290, 240), 255, -1)
    monkeypatch.setattr(
        fit, "candidate_masks", lambda *args, **kwargs: [("k2c0", board), ("t2c1", board.copy()), ("k3c1", other)]
    )
    shaped: list[int] = []
    plain = fit.shape_homographies

    def counted(mask: np.ndarray, *args: Any, **kwargs: Any) -> list[np.ndarray]:
        shaped.append(int(np.count_nonzero(mask)))
        return plain(mask, *args, **kwargs)

    monkeypatch.setattr(fit, "shape_homographies", counted)
    with ThreadPoolExecutor(2) as pool:
        found = fit.candidates(small, layout, pool)
    assert len(shaped) == 2  # the board's region once, the other region once
    sources = {c.source for c in found}
    assert {"mk2c0", "mt2c1"} <= sources
    # the same fit from both names ranks the same
    by_name = {name: sorted(round(c.rank, 9) for c in found if c.source == name) for name in ("mk2c0", "mt2c1")}
    assert by_name["mk2c0"] == by_name["mt2c1"]
