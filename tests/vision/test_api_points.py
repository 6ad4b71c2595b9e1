"""POST /api/read tells where each location lies in the photo as the browser shows it.

The overlay of the web app's scan screen is drawn at these points, so they are checked
against the generator's ground truth (`cell_px` of each test photo): every point lies on
a true location, the photo is dark at the black stones' points and light at the white
ones', and a photo bigger than the pipeline's working size or turned by its EXIF
orientation still gets points in its own (shown) pixels.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_cli_api import _call, _multipart

from vision.io import WORK_LONG_SIDE

PHOTOS = Path(__file__).parent / "photos"
SAMPLE = {
    "morris": "morris_3002",
    "three-stones": "three-stones_3000",
    "rings": "rings_3000",
    "sage-stones": "sage-stones_3002",
}


def _truth(name: str) -> dict:
    path = PHOTOS / f"{name}.json"
    if not path.exists():
        pytest.skip("no committed test photos")
    return json.loads(path.read_text())


def _read(app, game: str, data: bytes) -> dict:
    body, ctype = _multipart({"game": game}, {"image": ("photo.jpg", data)})
    status, out = _call(app, body, ctype)
    assert status == 200, out
    return out


def _nearest_truth(points: dict, truth_px: dict, scale: float = 1.0) -> tuple[dict[str, str], float, float]:
    """Each read location -> the true location nearest its point; the worst distance; the pitch (px)."""
    ids = list(truth_px)
    truth = np.array([truth_px[i] for i in ids], float) * scale
    gaps = np.linalg.norm(truth[:, None] - truth[None], axis=2)
    np.fill_diagonal(gaps, np.inf)
    pitch = float(np.median(gaps.min(axis=1)))
    match, worst = {}, 0.0
    for pid, xy in points.items():
        d = np.linalg.norm(truth - np.array(xy), axis=1)
        j = int(np.argmin(d))
        match[pid] = ids[j]
        worst = max(worst, float(d[j]))
    return match, worst, pitch


def _patch_grey(grey: np.ndarray, xy: list[float], r: int) -> float:
    """Median grey around a point (a median: a stone's glint is a few bright pixels)."""
    x, y = int(round(xy[0])), int(round(xy[1]))
    return float(np.median(grey[y - r : y + r + 1, x - r : x + r + 1]))


@pytest.mark.parametrize("game", sorted(SAMPLE))
def test_points_land_on_the_true_locations(app, game: str) -> None:
    meta = _truth(SAMPLE[game])
    data = (PHOTOS / meta["image"]).read_bytes()
    out = _read(app, game, data)
    assert out["image_size"] == meta["size"]
    assert set(out["points"]) == set(out["cells"])
    match, worst, pitch = _nearest_truth(out["points"], meta["cell_px"])
    assert worst < 0.2 * pitch, f"a point is {worst:.1f} px from every true location (pitch {pitch:.0f} px)"
    assert len(set(match.values())) == len(match), "two points on one location"
    # what was read at each point is what lies there (a symmetric board may be named turned)
    assert all(out["cells"][pid] == meta["cells"][true] for pid, true in match.items())
    photo = cv2.imread(str(PHOTOS / meta["image"]))
    assert photo is not None
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    r = max(2, int(0.15 * pitch))
    blacks = [_patch_grey(grey, out["points"][p], r) for p, t in match.items() if meta["cells"][t] == "black"]
    whites = [_patch_grey(grey, out["points"][p], r) for p, t in match.items() if meta["cells"][t] == "white"]
    if blacks:
        assert max(blacks) < 80, blacks
    if blacks and whites:
        assert min(whites) > max(blacks) + 60, (whites, blacks)


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an APP1 Exif segment holding only the orientation tag."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def test_points_follow_a_big_photo_turned_by_its_exif_orientation(app) -> None:
    """Twice the size (so the pipeline works on a reduced copy), stored on its side with
    EXIF orientation 6 ("turn 90 degrees clockwise to show"): the points are in the shown,
    full-size photo's pixels."""
    meta = _truth(SAMPLE["three-stones"])
    shown = cv2.imread(str(PHOTOS / meta["image"]))
    assert shown is not None
    big = cv2.resize(shown, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    assert max(big.shape[:2]) > WORK_LONG_SIDE
    stored = cv2.rotate(big, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    out = _read(app, "three-stones", _with_exif_orientation(jpeg.tobytes(), 6))
    assert out["image_size"] == [2 * meta["size"][0], 2 * meta["size"][1]]
    match, worst, pitch = _nearest_truth(out["points"], meta["cell_px"], scale=2.0)
    assert worst < 0.2 * pitch, f"a point is {worst:.1f} px from every true location (pitch {pitch:.0f} px)"
    assert all(out["cells"][pid] == meta["cells"][true] for pid, true in match.items())


def test_get_tells_the_page_the_companion_is_there(app) -> None:
    status, info = _call(app, method="GET")
    assert status == 200
    assert info["ok"] is True and info["games"] == ["three-stones", "morris", "rings", "sage-stones"]
