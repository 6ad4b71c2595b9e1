"""How board detection is laid out: one stage a module, the tuned numbers in one place, and the
thread pool the owner of the process makes and hands in."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import pipeline
from vision.detect import find_board
from vision.layouts import get_layout

ROOT = Path(__file__).resolve().parents[2]
VISION = ROOT / "vision"
STAGES = ("detect", "segment", "fit", "evidence", "refine", "camera")
PHOTOS = Path(__file__).parent / "photos"


@pytest.mark.parametrize("path", sorted(VISION.glob("*.py")), ids=lambda p: p.name)
def test_every_vision_module_stays_well_under_900_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) < 900


def _numbers_at_module_level(path: Path) -> list[str]:
    """Upper-case names a module binds to a number, or to a tuple or dict holding numbers."""
    found = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()]
            holds_number = any(
                isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) for n in ast.walk(node.value)
            )
            if names and holds_number:
                found += names
    return found


@pytest.mark.parametrize("stage", STAGES)
def test_the_tuned_numbers_of_detection_live_in_tuning(stage: str) -> None:
    assert _numbers_at_module_level(VISION / f"{stage}.py") == []


def test_the_scan_screen_asks_to_check_the_cells_the_reader_calls_doubtful() -> None:
    # the web page cannot import vision (no OpenCV in the browser): its line is the reader's
    from vision.tuning import CHECK_BELOW, RENAMED_CONFIDENCE

    scan = ast.parse((ROOT / "web" / "ui" / "scan.py").read_text())
    line = next(
        node.value.value
        for node in scan.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and any(isinstance(t, ast.Name) and t.id == "LOW_CONFIDENCE" for t in node.targets)
    )
    assert line == CHECK_BELOW
    assert RENAMED_CONFIDENCE < CHECK_BELOW  # a cell its colour group renamed is always checked


def test_importing_the_reader_makes_no_thread_pool() -> None:
    code = """
import concurrent.futures
made = []
original = concurrent.futures.ThreadPoolExecutor.__init__
def counting(self, *args, **kwargs):
    made.append(kwargs.get("max_workers", args[0] if args else None))
    original(self, *args, **kwargs)
concurrent.futures.ThreadPoolExecutor.__init__ = counting
import vision.api, vision.classify, vision.cli, vision.detect, vision.pipeline
assert made == [], made
pool = vision.pipeline.detection_pool()
assert vision.pipeline.detection_pool() is pool and len(made) == 1, made
"""
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=120)


@pytest.mark.parametrize("cores, workers", [(1, 2), (None, 2), (3, 3), (64, 4)])
def test_the_pipelines_pool_is_sized_by_the_cores(monkeypatch: pytest.MonkeyPatch, cores, workers) -> None:
    monkeypatch.setattr(pipeline.os, "cpu_count", lambda: cores)
    pipeline.detection_pool.cache_clear()
    try:
        pool = pipeline.detection_pool()
        assert pool._max_workers == workers
        pool.shutdown()
    finally:
        pipeline.detection_pool.cache_clear()


class CountingPool(ThreadPoolExecutor):
    """A one-thread pool that counts the batches of work it is handed."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.batches = 0

    def map(self, fn, *iterables, **kwargs):
        self.batches += 1
        return super().map(fn, *iterables, **kwargs)


@pytest.mark.parametrize("name", ["morris_3000", "three-stones_3000"])
def test_the_search_runs_on_the_pool_it_is_handed(name: str) -> None:
    meta = json.loads((PHOTOS / f"{name}.json").read_text())
    img = pipeline.read_image(PHOTOS / meta["image"])
    layout = get_layout(meta["game"])
    with CountingPool() as pool:
        alone = find_board(img, layout, pool)
    assert pool.batches >= 3
    assert pipeline._accept(alone, layout.game)
    # one thread or the pipeline's own: the same board, each location where it is to a pixel
    shared = find_board(img, layout, pipeline.detection_pool())
    at = cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), alone.H).reshape(-1, 2)
    assert np.abs(at - cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), shared.H).reshape(-1, 2)).max() < 1.0


def test_a_symmetric_board_is_turned_to_its_canonical_way_round() -> None:
    layout = get_layout("three-stones")
    turned = np.array([[0.0, -40.0, 500.0], [-40.0, 0.0, 400.0], [0.0, 0.0, 1.0]])  # columns run up the photo
    H = pipeline._canonical_orientation(turned, layout)
    up = H @ [0.0, 1.0, 0.0]
    right = H @ [1.0, 0.0, 0.0]
    assert up[1] < 0 and right[0] > 0  # rows go up the photo, columns to the right
