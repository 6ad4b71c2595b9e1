"""The second renderer (vision.photogen.blender): its designs, its camera's projection (the
ground truth), where stones rest, and the photo's JSON; one real render when bpy is installed."""

from __future__ import annotations

import json
import math
from collections import Counter

import cv2
import numpy as np
import pytest

from vision.classify import CLASSES
from vision.layouts import GAMES, get_layout
from vision.photogen.blender import generate, phone
from vision.photogen.blender.artwork import Canvas
from vision.photogen.blender.design import sample_design
from vision.photogen.blender.scene import Camera, Seat, look_at, resting_height, stone_profile

W, H = 160, 120


def designs(game: str, n: int = 300) -> list[dict]:
    rng = np.random.default_rng(7)
    return [sample_design(game, ["black", "white"], rng)[0].to_dict() for _ in range(n)]


def test_every_family_of_boards_comes_up():
    drawn = designs("morris") + designs("rings")
    assert {d["line_tone"] for d in drawn} == {"dark", "light", "none"}
    assert {d["line_style"] for d in drawn} == {"ink", "inlay", "groove"}
    assert {d["markers"] for d in drawn} == {"none", "dot", "big-dot", "ring", "hole"}
    pockets = designs("three-stones") + designs("sage-stones")
    assert {d["pockets"] for d in pockets} == {"cap", "drilled", "cone", "printed"}
    everything = drawn + pockets
    for key, values in {
        "board_material": {"wood-light", "wood-dark", "painted", "paper", "mat"},
        "stone_material": {"glass", "frosted", "glossy", "matte"},
        "stone_shape": {"dome", "lens", "disc", "pebble"},
        "light": {"sun", "window", "tungsten", "mixed", "ceiling"},
        "table": {"wood", "cloth", "stone", "similar"},
    }.items():
        assert {d[key] for d in everything} == values, key
    # light lines on dark wood happen, and light lines are mostly on dark boards
    light = [d for d in drawn if d["line_tone"] == "light"]
    assert any(d["board_material"] == "wood-dark" for d in light)
    assert Counter(d["board_material"] for d in light)["wood-light"] < len(light) / 4


def test_only_carvable_boards_have_grooves_holes_or_cut_pockets():
    for d in designs("morris") + designs("three-stones"):
        if d["board_material"] in ("paper", "mat"):
            assert d["line_style"] == "ink" and d["markers"] != "hole" and d["pockets"] in ("", "printed")


def test_a_board_near_a_stone_colour_takes_that_colour():
    rng = np.random.default_rng(3)
    near = [sample_design("rings", ["red", "orange", "clear"], rng) for _ in range(200)]
    close = [(d, shades) for d, shades in near if d.board_near_stone]
    assert close and all(d.board_near_stone in ("red", "orange") for d, _ in close)
    for d, shades in close:
        gap = np.abs(np.array(d.board_rgb, float) - np.array(shades[d.board_near_stone], float)).max()
        assert gap <= 0.15 * 255


def camera(tilt_deg: float, size=(W, H), lens=24.0) -> Camera:
    t = math.radians(tilt_deg)
    eye = np.array([0.0, -60 * math.sin(t), 60 * math.cos(t)])
    return Camera(look_at(eye, [0, 0, 0], [0, 1, 0]), lens, size)


def test_the_camera_matrix_is_a_proper_rotation_looking_at_its_target():
    m = look_at([10, -40, 50], [1, 2, 0], [0, 1, 0], roll_deg=7)
    rot = m[:3, :3]
    assert np.allclose(rot.T @ rot, np.eye(3), atol=1e-12)
    assert np.linalg.det(rot) == pytest.approx(1.0)  # no mirror: a board is never photographed flipped
    forward = np.array([1, 2, 0]) - np.array([10, -40, 50])
    assert np.allclose(-rot[:, 2], forward / np.linalg.norm(forward))


@pytest.mark.parametrize("size", [(W, H), (H, W)])
def test_projection_puts_the_field_of_view_on_the_long_sides_edges(size):
    cam = camera(0.0, size, lens=24.0)
    w, h = size
    assert np.allclose(cam.project([[0, 0, 0]]), [[w / 2 - 0.5, h / 2 - 0.5]])
    # the sensor (36 mm) spans the long side: a point at half its width / lens lands on that edge
    edge = 60 * 18.0 / 24.0
    x_edge, y_edge = cam.project([[edge, 0, 0], [0, edge, 0]])
    if w >= h:
        assert x_edge[0] == pytest.approx(w - 0.5)
    else:
        assert y_edge[1] == pytest.approx(-0.5)


def test_projection_keeps_the_board_the_right_way_round():
    # camera above, the board's +y at the top of the photo: +x must be on the right, not mirrored
    cam = camera(0.0)
    (rx, ry), (tx, ty) = cam.project([[5, 0, 0], [0, 5, 0]])
    centre = np.array([W / 2 - 0.5, H / 2 - 0.5])
    assert rx > centre[0] and ry == pytest.approx(centre[1])
    assert ty < centre[1] and tx == pytest.approx(centre[0])
    # tilted: the near edge of the board is larger than the far one
    tilted = camera(40.0)
    near = tilted.project([[-5, -5, 0], [5, -5, 0]])
    far = tilted.project([[-5, 5, 0], [5, 5, 0]])
    assert np.ptp(near[:, 0]) > np.ptp(far[:, 0]) and near[0, 1] > far[0, 1]


def test_a_projection_off_blenders_camera_is_refused(tmp_path):
    scene, *_ = generate.plan("morris", 5, tmp_path, (W, H), 1, 1)
    w, h = scene.camera.size
    px = scene.camera.project(scene.spec["check_points"])
    exact = {"camera_view": [[(x + 0.5) / w, 1 - (y + 0.5) / h] for x, y in px]}
    assert generate.check_projection(scene, exact) < 1e-9
    off = {"camera_view": [[(x + 1.5) / w, 1 - (y + 0.5) / h] for x, y in px]}
    with pytest.raises(RuntimeError, match="off Blender's camera"):
        generate.check_projection(scene, off)


def test_stones_rest_on_the_rim_of_a_small_pocket_and_on_the_bottom_of_a_wide_one():
    top = 2.0
    cap = Seat("cap", 1.0, 0.4)
    assert cap.depth_at(0.0) == pytest.approx(0.4) and cap.depth_at(1.0) == pytest.approx(0.0, abs=1e-9)
    big = stone_profile("lens", 1.2, 0.7)
    small = stone_profile("lens", 0.5, 0.3)
    assert top - 0.4 < resting_height(big, cap, top) < top
    assert resting_height(small, cap, top) == pytest.approx(top - 0.4, abs=0.01)
    assert resting_height(big, None, top) == top
    drilled = Seat("drilled", 0.4, 0.5, 0.03)
    assert resting_height(big, drilled, top) > top - 0.1  # a hole marker narrower than the stone
    for seat in (cap, drilled, Seat("cone", 1.0, 0.4)):  # the cutter's floor is the seat's surface
        rho, z = seat.cutter(top)[1] if seat.kind == "cap" else seat.cutter(top)[0]
        assert z == pytest.approx(top - seat.depth_at(rho))


def test_stone_profiles_run_from_pole_to_pole_within_their_size():
    for shape in ("dome", "lens", "disc", "pebble"):
        p = np.array(stone_profile(shape, 1.0, 0.6))
        assert p[0, 0] == 0 and p[-1, 0] == 0 and p[0, 1] == 0 and p[-1, 1] == pytest.approx(0.6)
        assert p[:, 0].max() == pytest.approx(1.0) and (np.diff(p[:, 1]) >= -1e-9).all()


@pytest.mark.parametrize("game", GAMES)
def test_the_scene_and_its_ground_truth(game, tmp_path):
    scene, cells, _, _ = generate.plan(game, 3, tmp_path, (W, H), 1, 1)
    layout = get_layout(game)
    assert list(cells) == list(layout.ids)
    assert all(c is None or (c in CLASSES and c in layout.palette) for c in cells.values())
    json.dumps(scene.spec)  # what bpy_scene.py reads
    w, h = scene.camera.size
    for points in (scene.board.locations(), scene.board.corners()):
        px = scene.camera.project(points)
        assert (px > 0).all() and (px[:, 0] < w - 1).all() and (px[:, 1] < h - 1).all()
    on_board = [s for s in scene.spec["solids"] if s["material"].startswith("stone-")]
    assert len(on_board) >= sum(1 for c in cells.values() if c)
    assert scene.info["design"]["line_style"] in ("ink", "inlay", "groove")


@pytest.mark.parametrize("game", ["morris", "rings"])
def test_the_drawing_passes_through_every_location(game, tmp_path):
    """The drawn lines (morris' mills, the rings circles) and the ground truth's points come
    from the same layout: every location lies on the drawing (ink, inlay or groove alike)."""
    for seed in range(3):
        scene, *_ = generate.plan(game, seed, tmp_path, (W, H), 1, 1)
        art = scene.spec["materials"]["board"]["artwork"]
        artwork = cv2.imread(art["image"])
        assert artwork is not None
        drawing = artwork[..., 2]
        canvas = Canvas(scene.board.outline)
        assert tuple(round(v, 4) for v in canvas.box) == tuple(art["box"])
        for x, y, _ in scene.board.locations():
            col, row = (round(v / 16) for v in canvas.px((x, y)))  # OpenCV's fixed point: 4 bits
            assert drawing[row - 2 : row + 3, col - 2 : col + 3].max() > 128, (seed, x, y)


def test_a_photos_json_has_what_the_bench_reads(tmp_path, monkeypatch):
    def fake_render(spec, work, python=None):
        w, h = spec["render"]["size"]
        cam = Camera(np.array(spec["camera"]["matrix"]), spec["camera"]["lens_mm"], (w, h))
        px = cam.project(spec["check_points"])
        report = {
            "size": [w, h],
            "seconds": 0.1,
            "cpu_seconds": 0.1,
            "blender": "test",
            "camera_view": [[(x + 0.5) / w, 1 - (y + 0.5) / h] for x, y in px],
        }
        return np.full((h, w, 3), 0.2, np.float32), report

    monkeypatch.setattr(generate, "blender_render", fake_render)
    monkeypatch.setattr(phone, "SAVED_SHARES", (0.0, 0.0, 1.0))  # saved at 0.6: the points scale too
    meta = generate.render_one("sage-stones", 101000, tmp_path, size=(W, H))
    saved = json.loads((tmp_path / "sage-stones_b101000.json").read_text())
    assert saved == json.loads(json.dumps(meta))
    assert meta["render"]["generator"] == "vision.photogen.blender" and meta["render"]["seed"] == 101000
    assert set(meta["cell_px"]) == set(get_layout("sage-stones").ids) == set(meta["cells"])
    assert meta["image"] == "sage-stones_b101000.jpg" and (tmp_path / meta["image"]).exists()
    h, w = cv2.imread(str(tmp_path / meta["image"])).shape[:2]
    assert meta["size"] == [w, h] and max(w, h) == round(W * 0.6)
    scene, *_ = generate.plan("sage-stones", 101000, tmp_path, (W, H), 16, 2)
    full = scene.camera.project(scene.board.locations())
    got = np.array([meta["cell_px"][pid] for pid in get_layout("sage-stones").ids])
    assert np.allclose(got, (full + 0.5) * 0.6 - 0.5, atol=0.01)
    assert isinstance(meta["render"]["design"], dict) and meta["render"]["design"]["numbers"] in ("printed", "engraved")


@pytest.mark.skipif(not generate.BLENDER_PYTHON.exists(), reason="no .venv-blender (./stones setup installs bpy)")
def test_blender_renders_a_tiny_photo_where_the_ground_truth_says(tmp_path):
    meta = generate.render_one("morris", 7, tmp_path, size=(96, 72), samples=1, threads=1)
    assert meta["render"]["projection_check_px"] < generate.PROJECTION_TOLERANCE_PX
    assert meta["render"]["blender"].startswith("5.0")
    image = cv2.imread(str(tmp_path / meta["image"]))
    assert image is not None and [image.shape[1], image.shape[0]] == meta["size"]
