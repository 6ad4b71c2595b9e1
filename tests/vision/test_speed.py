"""The reader's shortcuts (issue 17, item 6: its speed) compute exactly what the plain ways did:
work kept per photo (`vision.memo`), the big line kernel split in two, the round-edge response in
place, each region fitted once however many clusterings cut it out, a region's overlaps counted in
the outline's box, a photo's lattices found once, and RANSAC's search for a consensus no caller
takes ended at the draws the share it needs takes, and no stones looked for where every line agrees;
the round-edge products shared by directions and radii, k-means labels by each centre's distances,
a photo's clusterings kept for every game, and a region opened in its box."""

from __future__ import annotations

import gc
import json
import math
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.fit as fit
from vision import consensus, lattice, marks, refine, segment
from vision.evidence import line_samples
from vision.layouts import get_layout
from vision.marks import ring_response
from vision import memo
from vision.io import read_image
from vision.memo import forget, per_image
from vision.pipeline import read_board, true_fit
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


@pytest.mark.parametrize(
    ("s", "radii", "shape"),
    [
        (20.0, (0.3, 0.35, 0.4), (90, 110)),
        (1.0, (2.5,), (90, 110)),
        (10.0, (0.36, 0.42, 0.48), (90, 110)),
        (1.0, (4.0, 22.0), (300, 400)),  # the small copy, as the lattice search looks at it
    ],
)
def test_the_round_edge_response_in_place_is_the_plain_one_exactly(
    s: float, radii: tuple[float, ...], shape: tuple[int, int]
) -> None:
    rng = np.random.default_rng(3)
    gray = cv2.GaussianBlur((rng.random(shape) * 255).astype(np.float32), (0, 0), 2.0)
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


def _overlap_over_the_whole_mask(polygon: np.ndarray, region: np.ndarray) -> tuple[int, int]:
    """`fit._overlap` as it was counted before: the polygon filled into a canvas the mask's size."""
    laid = np.zeros_like(region)
    cv2.fillPoly(laid, [polygon], 255)
    return int(np.count_nonzero(laid & region)), int(np.count_nonzero(laid | region))


def test_the_overlap_counted_in_the_polygons_box_is_the_whole_masks_exactly() -> None:
    rng = np.random.default_rng(5)
    region = np.zeros((300, 400), np.uint8)
    cv2.ellipse(region, (210, 140), (150, 100), 20, 0, 360, 255, -1)
    area = int(np.count_nonzero(region))
    for _ in range(400):
        centre = rng.uniform((-100, -100), (500, 400))
        # octagons and quadrilaterals of any size, some reaching past the image's edges or wholly beyond
        corners = rng.choice((4, 8))
        angles = np.sort(rng.uniform(0, 2 * np.pi, corners))
        radii = rng.uniform(5, 320, corners)
        polygon = np.round(centre + np.stack([np.cos(angles), np.sin(angles)], 1) * radii[:, None]).astype(np.int32)
        assert fit._overlap(polygon, region, area) == _overlap_over_the_whole_mask(polygon, region)


def test_a_consensus_search_ends_at_the_draws_the_share_it_needs_takes() -> None:
    assert consensus.draws_for(0.3) == 652 and consensus.draws_for(0.5) == 83  # OpenCV's own count at 0.995
    assert consensus.draws_for(0.01) == consensus.RANSAC_DRAWS


@pytest.mark.parametrize("inlier_share", [0.35, 0.5, 0.8])
def test_a_consensus_of_the_needed_share_is_found_as_before_exactly(inlier_share: float) -> None:
    """The draws are the same seeded sequence: a consensus clearly over the share the caller takes
    is found within them as the full search finds it (the same fit, the same inliers)."""
    rng = np.random.default_rng(int(inlier_share * 100))
    src = np.stack(np.meshgrid(np.arange(9.0), np.arange(9.0)), -1).reshape(-1, 2)
    H = np.array([[30.0, 4.0, 100.0], [-3.0, 28.0, 80.0], [0.002, 0.001, 1.0]])
    dst = cv2.perspectiveTransform(src.reshape(-1, 1, 2), H).reshape(-1, 2) + rng.normal(0, 0.3, src.shape)
    outliers = rng.random(len(src)) > inlier_share
    dst[outliers] += rng.uniform(-60, 60, (int(outliers.sum()), 2))
    capped, kept = consensus.consensus_homography(src, dst, 1.5, least_share=0.3)
    full, kept_full = consensus.consensus_homography(src, dst, 1.5)
    assert capped is not None and full is not None and kept is not None and kept_full is not None
    assert kept.mean() >= 0.3
    assert np.array_equal(capped, full) and np.array_equal(kept, kept_full)


def test_a_consensus_that_is_not_there_is_given_up_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    draws: list[int] = []
    plain = cv2.findHomography

    def counted(*args: Any, **kwargs: Any) -> Any:
        draws.append(kwargs.get("maxIters", consensus.RANSAC_DRAWS))
        return plain(*args, **kwargs)

    monkeypatch.setattr(cv2, "findHomography", counted)
    rng = np.random.default_rng(1)
    src, dst = rng.uniform(0, 9, (76, 2)), rng.uniform(0, 300, (76, 2))  # no lattice at all
    consensus.consensus_homography(src, dst, 2.0, least_share=0.3)
    consensus.consensus_homography(src, dst, 2.0)
    assert draws == [652, consensus.RANSAC_DRAWS]


def test_the_lattices_of_a_photo_are_found_once_for_both_pocket_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[int] = []
    plain = lattice.round_marks

    def counted(gray: np.ndarray) -> Any:
        found.append(1)
        return plain(gray)

    monkeypatch.setattr(lattice, "round_marks", counted)
    image = read_image(PHOTOS / "sage-stones_3000.jpg")
    gray = memo.gray32(memo.shrunk(image, 400))
    for game in ("sage-stones", "three-stones", "sage-stones"):
        assert lattice.lattice_candidates(gray, get_layout(game))
    assert len(found) == 1


@pytest.mark.parametrize("lines_share", [1.0, 0.9])
def test_a_line_round_every_line_sample_agrees_with_looks_for_no_stones(
    monkeypatch: pytest.MonkeyPatch, lines_share: float
) -> None:
    """A stones' refit replaces the lines' only where more of its marks agree with it: with every
    line sample agreeing none can, so its round edges are not looked for (a morris reading's line
    rounds agree all but never: 164 of 165 on the wide set's first 8)."""
    meta = json.loads((PHOTOS / "morris_3000.json").read_text())
    gray = memo.gray32(read_image(PHOTOS / meta.get("image", "morris_3000.jpg")))
    layout = get_layout("morris")
    H = true_fit(meta)
    plain_lines, plain_stones = refine._onto_the_lines, refine.sure_stones
    looked: list[int] = []

    def lines(*args: Any) -> tuple[float, np.ndarray]:
        return lines_share, plain_lines(*args)[1]

    def stones(*args: Any) -> tuple[np.ndarray, np.ndarray]:
        looked.append(1)
        return plain_stones(*args)

    monkeypatch.setattr(refine, "_onto_the_lines", lines)
    monkeypatch.setattr(refine, "sure_stones", stones)
    _, nrm = line_samples("morris")
    refitted = refine._line_round(gray, H, layout, 0.2, nrm)
    assert refitted is not None
    assert len(looked) == (0 if lines_share == 1.0 else 1)


def test_an_outlines_moments_are_rasterised_once_and_the_same() -> None:
    outline = get_layout("morris").outline * np.array([1.0, -1.0])
    centre, cov = fit._poly_moments(outline.copy())
    again = fit._poly_moments(outline.copy())
    assert again[0] is centre and again[1] is cov  # kept
    fresh = fit._rasterised_moments(outline, 200)
    assert np.array_equal(centre, fresh[0]) and np.array_equal(cov, fresh[1])
    with pytest.raises(ValueError):
        centre[0] = 1.0  # shared: read-only


@pytest.mark.parametrize(("columns", "centres"), [(3, 2), (3, 4), (6, 3)])
def test_the_distances_to_the_cluster_centres_are_the_broadcast_ones_exactly(columns: int, centres: int) -> None:
    rng = np.random.default_rng(columns * 10 + centres)
    features = (rng.normal(0, 40, (5000, columns)) + 50).astype(np.float32)
    middles = (rng.normal(0, 40, (centres, columns)) + 50).astype(np.float32)
    plain = ((features[:, None, :] - middles[None, :, :]) ** 2).sum(-1)
    assert np.array_equal(segment._squared_distances(features, middles), plain.T)


@pytest.mark.parametrize("size", [5, 29, 37])
def test_a_region_opened_in_its_box_is_opened_as_the_whole_mask_exactly(size: int) -> None:
    rng = np.random.default_rng(size)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    for _ in range(30):
        mask = np.zeros((300, 400), np.uint8)
        # blobs anywhere, some cut by the image's edges, some with limbs thinner than the kernel
        for _ in range(int(rng.integers(1, 4))):
            centre = tuple(int(v) for v in rng.uniform((-50, -50), (450, 350)))
            axes = tuple(int(v) for v in rng.uniform(5, 160, 2))
            cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
        cv2.line(mask, (int(rng.integers(0, 400)), 0), (int(rng.integers(0, 400)), 299), 255, int(rng.integers(1, 9)))
        assert np.array_equal(fit.opened_in_box(mask, size), cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))
    assert not fit.opened_in_box(np.zeros((30, 40), np.uint8), size).any()


def test_the_round_marks_responses_share_one_gradient_and_are_each_radius_plain_one_exactly() -> None:
    rng = np.random.default_rng(4)
    gray = cv2.GaussianBlur((rng.random((300, 400)) * 255).astype(np.float32), (0, 0), 2.0)
    radii = list(lattice.MARK_RADII_PX)
    shared = marks.ring_responses(*marks.unit_gradients(gray, 1.0), radii)
    assert len(shared) == len(radii)
    for r, resp in zip(radii, shared):
        assert np.array_equal(resp, _ring_response_plainly(gray, 1.0, (r,)))


def test_a_photos_regions_for_another_game_reuse_its_clusterings_and_are_the_fresh_ones_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = cv2.resize(read_image(PHOTOS / "three-stones_3000.jpg"), (400, 300), interpolation=cv2.INTER_AREA)
    learnt: list[int] = []
    plain = segment._cluster_centres

    def counted(features: np.ndarray, clusters: int, seed: int) -> np.ndarray:
        learnt.append(clusters)
        return plain(features, clusters, seed)

    monkeypatch.setattr(segment, "_cluster_centres", counted)
    segment.candidate_masks(small, 20.0)
    assert len(learnt) == 6  # colour 2, 3, 4; colour + grain 2, 3; the table's colours
    again = segment.candidate_masks(small, 30.0, drawn=True)
    assert len(learnt) == 8  # only the grain, averaged over the other stone size, is clustered again
    fresh = segment.candidate_masks(small.copy(), 30.0, drawn=True)
    assert [name for name, _ in again] == [name for name, _ in fresh]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(again, fresh))
