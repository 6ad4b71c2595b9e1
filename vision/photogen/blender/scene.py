"""One Blender photo's scene as data: the board of its design, its stones, things beside it,
the table, the light and the phone's camera; and the camera's projection of the board's
locations, which is the ground truth.

Everything random is drawn here (the main venv, NumPy 2); `bpy_scene.py` only builds what
the spec says.  Lengths are centimetres; Blender's z is up and the board's (x, y) are its x-y
plane, so a board point (x, y) of the layout times the board's unit lies at (x, y, top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...layouts import Layout, get_layout
from ..povscene import srgb_to_lin
from .design import DRAWN, WOODS_DARK, WOODS_LIGHT, Design

SENSOR_MM = 36.0  # the camera's sensor width spans the photo's long side (Blender's AUTO fit)
FRAME_MARGIN = 0.03  # the whole board stays this share of the frame inside its edges
KEY_IRRADIANCE = 3.0  # the main light's strength on the board (the photo is exposed afterwards)
PROFILE_STEPS = 12  # points on a quarter of a round outline (a stone's, a pocket's bowl)


# ----------------------------------------------------------------- shapes


def stone_profile(shape: str, r: float, h: float) -> list[tuple[float, float]]:
    """A stone's outline (radius, height) from its bottom pole to its top pole: a gem with a flat
    base and a domed top, a lens round on both sides, a disc with rounded rims (pebbles are
    lenses squashed to an oval by the caller)."""
    below, p_below, p_above = {
        "dome": (0.12, 5.0, 2.2),
        "lens": (0.5, 2.0, 2.0),
        "pebble": (0.45, 2.3, 2.3),
        "disc": (0.5, 6.0, 6.0),
    }[shape]
    hb, hu = h * below, h * (1 - below)
    out = []
    for i in range(PROFILE_STEPS + 1):
        t = (math.pi / 2) * i / PROFILE_STEPS
        out.append((r * math.sin(t) ** (2 / p_below), hb - hb * math.cos(t) ** (2 / p_below)))
    for i in range(PROFILE_STEPS - 1, -1, -1):
        t = (math.pi / 2) * i / PROFILE_STEPS
        out.append((r * math.sin(t) ** (2 / p_above), hb + hu * math.cos(t) ** (2 / p_above)))
    return [(round(a, 5), round(b, 5)) for a, b in out]


@dataclass(frozen=True)
class Seat:
    """The board's surface where a stone sits: a pocket (cap, drilled, cone) or a drilled hole
    marker, `depth` below the top at its centre, `radius` at the top; flat when depth is 0."""

    kind: str
    radius: float
    depth: float
    chamfer: float = 0.0

    def depth_at(self, rho: float) -> float:
        if self.depth <= 0 or rho >= self.radius + self.chamfer:
            return 0.0
        if self.kind == "cap":
            sphere = (self.radius**2 + self.depth**2) / (2 * self.depth)
            return max(0.0, self.depth - (sphere - math.sqrt(max(sphere**2 - rho**2, 0.0))))
        if self.kind == "cone":
            return self.depth * max(0.0, 1 - rho / self.radius)
        if rho <= self.radius:
            return self.depth
        return self.chamfer - (rho - self.radius)

    def cutter(self, top: float) -> list[tuple[float, float]]:
        """The solid a boolean takes out of the board: this profile turned about the seat's axis
        (it rises a little above the top so the top face is cut through)."""
        above = top + max(0.05, self.chamfer)
        if self.kind == "cap":
            steps = [self.radius * i / PROFILE_STEPS for i in range(PROFILE_STEPS + 1)]
            bowl = [(rho, top - self.depth_at(rho)) for rho in steps]
            return [*bowl, (self.radius * 1.01, above), (0.0, above)]
        if self.kind == "cone":
            return [
                (0.0, top - self.depth),
                (self.radius * 1.05, top + 0.05 * self.depth),
                (0.0, top + 0.05 * self.depth),
            ]
        c = self.chamfer
        return [
            (0.0, top - self.depth),
            (self.radius, top - self.depth),
            (self.radius, top - c),
            (self.radius + 2 * c, top + c),
            (0.0, top + c),
        ]


def resting_height(profile: list[tuple[float, float]], seat: Seat | None, top: float) -> float:
    """Where a stone's bottom comes to rest: the lowest height at which no point of its outline
    dips below the board's surface (in a pocket it rests on the rim or on the bottom)."""
    if seat is None:
        return top
    return max(top - seat.depth_at(rho) - z for rho, z in profile)


# ----------------------------------------------------------------- the board


@dataclass(frozen=True)
class Board:
    layout: Layout
    unit: float  # cm of one board unit
    outline: np.ndarray  # (k, 2) cm, the board's edge (the layout's outline, this maker's margin)
    thickness: float
    stone_r: float
    stone_h: float
    seat: Seat | None  # the same at every location
    pocket_r: float  # pocket boards: the printed or cut pocket's radius

    @property
    def top(self) -> float:
        return self.thickness

    def locations(self) -> np.ndarray:
        """Every location on the board's top face, (n, 3) cm: the ground truth's points."""
        xy = self.layout.xy * self.unit
        return np.c_[xy, np.full(len(xy), self.top)]

    def corners(self) -> np.ndarray:
        return np.c_[self.outline, np.full(len(self.outline), self.top)]


# unit: cm between neighbouring locations (rings: between circle centres); margin: the outline's scale
SIZES = {
    "three-stones": ((2.3, 2.9), (0.97, 1.05)),
    "morris": ((2.9, 4.6), (0.94, 1.1)),
    "rings": ((2.7, 3.4), (0.995, 1.03)),
    "sage-stones": ((2.3, 2.8), (0.98, 1.04)),
}
THICKNESS = {
    "paper": (0.04, 0.15),
    "mat": (0.15, 0.4),
    "painted": (1.0, 2.0),
    "wood-light": (1.2, 2.6),
    "wood-dark": (1.2, 2.6),
}


def make_board(game: str, design: Design, rng: np.random.Generator) -> Board:
    layout = get_layout(game)
    (u0, u1), (m0, m1) = SIZES[game]
    unit = float(rng.uniform(u0, u1))
    outline = layout.outline * unit * float(rng.uniform(m0, m1))
    thickness = float(rng.uniform(*THICKNESS[design.board_material]))
    seat, pocket_r = None, 0.0
    if game in DRAWN:
        stone_r = unit * float(rng.uniform(0.25, 0.34) if game == "morris" else rng.uniform(0.22, 0.27))
        if design.markers == "hole":
            seat = Seat(
                "drilled", design.marker_size * stone_r, min(thickness * 0.7, float(rng.uniform(0.3, 0.6))), 0.03
            )
    else:
        pocket_r = unit * float(rng.uniform(0.36, 0.43))
        stone_r = pocket_r * float(rng.uniform(0.9, 1.1))
        depth = min(thickness * 0.6, float(rng.uniform(0.25, 0.5)))
        if design.pockets in ("cap", "cone"):
            seat = Seat(design.pockets, pocket_r, depth)
        elif design.pockets == "drilled":
            seat = Seat("drilled", pocket_r, depth, float(rng.uniform(0.03, 0.1)))
    ratio = {"dome": (0.45, 0.7), "lens": (0.45, 0.7), "pebble": (0.5, 0.75), "disc": (0.25, 0.4)}[design.stone_shape]
    return Board(layout, unit, outline, thickness, stone_r, stone_r * float(rng.uniform(*ratio)), seat, pocket_r)


# ----------------------------------------------------------------- the camera


def look_at(eye, target, up_hint, roll_deg: float = 0.0) -> np.ndarray:
    """A Blender object matrix at `eye` whose -z looks at `target` and whose +y leans to `up_hint`."""
    eye, target = np.asarray(eye, float), np.asarray(target, float)
    forward = target - eye
    forward /= np.linalg.norm(forward)
    up = np.asarray(up_hint, float) - forward * (np.asarray(up_hint, float) @ forward)
    if np.linalg.norm(up) < 1e-9:  # looking along the hint: any up will do
        up = np.array([1.0, 0.0, 0.0]) - forward * forward[0]
    up /= np.linalg.norm(up)
    right = np.cross(up, -forward)
    roll = math.radians(roll_deg)
    right, up = right * math.cos(roll) + up * math.sin(roll), up * math.cos(roll) - right * math.sin(roll)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = right, up, -forward, eye
    return m


@dataclass(frozen=True)
class Camera:
    matrix: np.ndarray  # 4x4 object matrix (Blender: looks along its -z, +y up)
    lens_mm: float
    size: tuple[int, int]  # the rendered photo, pixels (width, height)

    def project(self, points) -> np.ndarray:
        """Pixel coordinates (x right, y down; OpenCV's: the first pixel's centre is 0, 0) of
        world points, for Blender's perspective camera with the sensor on the long side."""
        p = np.asarray(points, float).reshape(-1, 3) - self.matrix[:3, 3]
        local = p @ self.matrix[:3, :3]  # rotation is orthonormal: its transpose inverts it
        depth = -local[:, 2]
        w, h = self.size
        f = self.lens_mm / SENSOR_MM * max(w, h)  # focal length in pixels
        return np.stack([w / 2 + f * local[:, 0] / depth - 0.5, h / 2 - f * local[:, 1] / depth - 0.5], 1)

    def frame_share(self, points) -> float:
        """How far the farthest point lies from the photo's centre, as a share of the half frame."""
        px = self.project(points) + 0.5
        w, h = self.size
        return float(max(np.abs(px[:, 0] / w - 0.5).max(), np.abs(px[:, 1] / h - 0.5).max()) * 2)


def place_camera(board: Board, size: tuple[int, int], rng: np.random.Generator) -> tuple[Camera, dict]:
    """A phone held over the board: straight down to 45 degrees, any way round, the board
    filling most of the frame but never cut by its edge."""
    fov_long = float(rng.uniform(62, 75))
    lens = SENSOR_MM / 2 / math.tan(math.radians(fov_long) / 2)
    tilt = float(rng.uniform(0, 10) if rng.random() < 0.25 else rng.uniform(10, 45))
    azimuth = float(rng.uniform(0, 360))
    roll = float(rng.normal(0, 3))
    span = float(np.ptp(board.outline, axis=0).max())
    cover = float(rng.uniform(0.7, 0.95))
    tan_short = math.tan(math.radians(fov_long) / 2) * min(size) / max(size)
    distance = span / 2 / (cover * tan_short)
    target = np.array([*rng.normal(0, 0.04 * span, 2), board.top])
    t, a = math.radians(tilt), math.radians(azimuth)
    back = np.array([-math.sin(t) * math.cos(a), -math.sin(t) * math.sin(a), math.cos(t)])
    up_hint = np.array([math.cos(a), math.sin(a), 0.0])  # the far side of the board at the top
    box = np.r_[board.corners(), np.c_[board.outline, np.zeros(len(board.outline))]]
    for _ in range(80):
        camera = Camera(look_at(target + back * distance, target, up_hint, roll), lens, size)
        if camera.frame_share(box) <= 1 - 2 * FRAME_MARGIN:
            break
        distance *= 1.03
    info = {
        "fov_long_deg": round(fov_long, 2),
        "lens_mm": round(lens, 2),
        "tilt_deg": round(tilt, 2),
        "azimuth_deg": round(azimuth, 2),
        "roll_deg": round(roll, 2),
        "cover": round(cover, 3),
        "distance_cm": round(distance, 1),
    }
    return camera, info


# ----------------------------------------------------------------- materials


def lin(rgb) -> list[float]:
    return [round(float(c), 5) for c in srgb_to_lin(rgb)]


def wood(light, dark, rng: np.random.Generator, planks: bool = False) -> dict:
    return {
        "kind": "wood",
        "light": lin(light),
        "dark": lin(dark),
        "wave": str(rng.choice(["BANDS", "RINGS"])),
        "ring_scale": round(float(rng.uniform(0.08, 0.25) if planks else rng.uniform(0.12, 0.4)), 3),
        "distortion": round(float(rng.uniform(0.5, 4)), 2),
        "detail_scale": round(float(rng.uniform(0.4, 1.2)), 2),
        "late_share": round(float(rng.uniform(0.72, 0.92)), 3),
        "grain_scale": [1.0, 1.0, 1.0],
        "grain_deg": round(float(rng.choice([0, 90]) + rng.normal(0, 3)), 2),
        "offset": [round(float(v), 2) for v in rng.uniform(-50, 50, 3)],
        "fibre_scale": round(float(rng.uniform(3, 8)), 2),
        "roughness": round(float(rng.uniform(0.3, 0.6)), 3),
        "coat": round(float(rng.uniform(0.3, 1.0)), 2) if rng.random() < 0.55 else 0.0,
        "coat_roughness": round(float(rng.uniform(0.03, 0.15)), 3),
        "bump": 0.05,
        "bump_scale": 40.0,
    }


def flat(rgb, kind: str, rng: np.random.Generator) -> dict:
    """Paint, paper, felt, vinyl, cloth or stone: one colour with the mottle, gloss and tooth of its kind."""
    spec: dict[str, Any] = {
        "kind": "flat",
        "rgb": lin(np.clip(np.asarray(rgb, float) * rng.uniform(0.96, 1.04, 3), 0, 255)),
    }
    if kind == "painted":
        spec.update(
            roughness=float(rng.uniform(0.15, 0.6)),
            mottle=0.04,
            mottle_scale=0.5,
            bump=0.02,
            bump_scale=8.0,
            coat=float(rng.uniform(0.0, 0.6)),
        )
    elif kind == "paper":
        spec.update(roughness=float(rng.uniform(0.6, 0.9)), mottle=0.03, mottle_scale=6.0, bump=0.04, bump_scale=30.0)
    elif kind == "felt" or kind == "cloth":
        spec.update(
            roughness=1.0,
            mottle=0.1,
            mottle_scale=3.0,
            bump=0.35,
            bump_scale=float(rng.uniform(25, 60)),
            sheen=float(rng.uniform(0.4, 1.0)),
        )
    elif kind == "vinyl":
        spec.update(roughness=float(rng.uniform(0.25, 0.5)), mottle=0.02, mottle_scale=2.0, bump=0.06, bump_scale=12.0)
    else:  # a stone table top: speckled
        spec.update(
            roughness=float(rng.uniform(0.2, 0.5)), mottle=0.35, mottle_scale=float(rng.uniform(4, 12)), coat=0.3
        )
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in spec.items()}


def board_surface(design: Design, rng: np.random.Generator) -> dict:
    if design.board_material.startswith("wood"):
        light, dark = {**WOODS_LIGHT, **WOODS_DARK}[design.board_finish]
        return wood(light, dark, rng)
    kind = design.board_material
    if kind == "mat":
        kind = "vinyl" if "vinyl" in design.board_finish else "felt"
    return flat(design.board_rgb, kind, rng)


def table_surface(design: Design, board: dict, rng: np.random.Generator) -> tuple[dict, dict]:
    """The table: a wood other than the board's, a cloth, a stone top, or one of the board's own colour."""
    if design.table == "similar":
        twin = dict(board)
        if twin["kind"] == "flat":
            twin["rgb"] = [round(c * float(rng.uniform(0.85, 1.12)), 5) for c in twin["rgb"]]
        else:
            twin.update(
                offset=[round(float(v), 2) for v in rng.uniform(-80, 80, 3)], ring_scale=twin["ring_scale"] * 0.7
            )
        return twin, {"table_like_board": True}
    if design.table == "wood":
        woods = {**WOODS_LIGHT, **WOODS_DARK}
        name = str(rng.choice([k for k in woods if k != design.board_finish]))
        return wood(*woods[name], rng, planks=True), {"table_wood": name}
    if design.table == "cloth":
        colour = rng.choice([[235, 232, 222], [40, 60, 90], [150, 40, 40], [70, 90, 60], [190, 170, 130], [60, 60, 62]])
        return flat(colour, "cloth", rng), {"table_cloth_rgb": [int(c) for c in colour]}
    colour = rng.choice([[200, 200, 196], [70, 70, 72], [230, 225, 215], [120, 100, 90]])
    return flat(colour, "stone", rng), {"table_stone_rgb": [int(c) for c in colour]}


def stone_surface(colour: str, design: Design, shade, rng: np.random.Generator) -> dict:
    """One colour's stones in the design's material; clear stones are always clear glass."""
    linear = srgb_to_lin(shade)
    if colour == "clear":
        return {
            "kind": "solid",
            "rgb": lin(shade),
            "roughness": round(float(rng.uniform(0.0, 0.04)), 3),
            "transmission": 1.0,
            "ior": 1.5,
        }
    material = design.stone_material
    if material in ("glass", "frosted"):
        rough = rng.uniform(0.0, 0.05) if material == "glass" else rng.uniform(0.25, 0.45)
        if colour == "black":  # black glass lets no light through
            return {"kind": "solid", "rgb": lin(shade), "roughness": round(float(rough), 3), "coat": 0.5}
        if colour == "white":  # milk glass
            return {"kind": "solid", "rgb": lin(shade), "roughness": round(float(rough), 3), "subsurface": 0.6}
        tint = np.clip(linear**0.6, 0, 1)  # light crosses the glass twice: a lighter tint shows the shade
        return {
            "kind": "solid",
            "rgb": [round(float(c), 5) for c in tint],
            "roughness": round(float(rough), 3),
            "transmission": 1.0,
            "ior": 1.5,
        }
    if material == "glossy":
        return {
            "kind": "solid",
            "rgb": lin(shade),
            "roughness": round(float(rng.uniform(0.08, 0.2)), 3),
            "coat": round(float(rng.uniform(0.2, 0.7)), 2),
        }
    return {"kind": "solid", "rgb": lin(shade), "roughness": round(float(rng.uniform(0.55, 0.85)), 3)}


# ----------------------------------------------------------------- light


def kelvin(rng: np.random.Generator, low: float, high: float) -> float:
    return round(float(rng.uniform(low, high)), 0)


def from_sky(elevation_deg: float, azimuth_deg: float, distance: float) -> np.ndarray:
    e, a = math.radians(elevation_deg), math.radians(azimuth_deg)
    return distance * np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


def lights(design: Design, rng: np.random.Generator) -> tuple[list[dict], dict, dict]:
    """The light of the design's kind: sources (powers set for the irradiance they give the
    board, their balance with the room's fill chosen per kind), the room's fill, what was chosen."""
    out: list[dict] = []
    centre = np.zeros(3)

    def sun(elevation: float, k: float) -> None:
        pos = from_sky(elevation, rng.uniform(0, 360), 1000.0)
        out.append(
            {
                "kind": "SUN",
                "kelvin": k,
                "energy": KEY_IRRADIANCE,
                "angle_deg": round(float(rng.uniform(0.5, 2.0)), 2),
                "matrix": look_at(pos, centre, [0, 0, 1]).tolist(),
            }
        )

    def area(elevation: float, distance: float, size, k: float, share: float) -> None:
        pos = from_sky(elevation, rng.uniform(0, 360), distance)
        out.append(
            {
                "kind": "AREA",
                "kelvin": k,
                "energy": round(share * KEY_IRRADIANCE * math.pi * distance**2, 1),
                "size": [round(float(s), 1) for s in size],
                "matrix": look_at(pos, centre, [0, 0, 1]).tolist(),
            }
        )

    def bulb(elevation: float, distance: float, k: float, share: float) -> None:
        pos = from_sky(elevation, rng.uniform(0, 360), distance)
        out.append(
            {
                "kind": "POINT",
                "kelvin": k,
                "energy": round(share * KEY_IRRADIANCE * 4 * math.pi * distance**2, 1),
                "radius": round(float(rng.uniform(0.5, 4.0)), 2),
                "matrix": look_at(pos, centre, [0, 0, 1]).tolist(),
            }
        )

    if design.light == "sun":
        sun(rng.uniform(30, 75), kelvin(rng, 5200, 5900))
        fill, sky = rng.uniform(0.15, 0.35), [0.55, 0.7, 1.0]
    elif design.light == "window":
        area(rng.uniform(10, 40), rng.uniform(150, 300), rng.uniform(70, 170, 2), kelvin(rng, 6000, 7500), 1.0)
        fill, sky = rng.uniform(0.1, 0.3), [0.85, 0.9, 1.0]
    elif design.light == "tungsten":
        for share in [1.0] if rng.random() < 0.6 else [0.75, 0.35]:
            bulb(rng.uniform(45, 85), rng.uniform(60, 140), kelvin(rng, 2500, 3200), share)
        fill, sky = rng.uniform(0.03, 0.12), [1.0, 0.8, 0.6]
    elif design.light == "mixed":
        bulb(rng.uniform(45, 85), rng.uniform(70, 140), kelvin(rng, 2600, 3100), 0.7)
        area(rng.uniform(10, 40), rng.uniform(150, 300), rng.uniform(70, 170, 2), kelvin(rng, 6000, 7500), 0.5)
        fill, sky = rng.uniform(0.06, 0.18), [0.95, 0.9, 0.85]
    else:  # an LED panel over the table
        area(
            rng.uniform(65, 90),
            rng.uniform(150, 230),
            [rng.uniform(30, 120), rng.uniform(30, 120)],
            kelvin(rng, 3500, 5000),
            1.0,
        )
        fill, sky = rng.uniform(0.2, 0.4), [1.0, 0.97, 0.92]
    world = {"rgb": sky, "strength": round(float(fill * KEY_IRRADIANCE / math.pi), 4)}
    info = {
        "sources": [
            {"kind": s["kind"], "kelvin": s["kelvin"], "at": [round(float(v), 1) for v in np.array(s["matrix"])[:3, 3]]}
            for s in out
        ],
        "fill": round(float(fill), 3),
    }
    return out, world, info


# ----------------------------------------------------------------- things on the table


def placed(x: float, y: float, z: float, turn: float = 0.0, lying: bool = False) -> list[list[float]]:
    """An object matrix: at (x, y, z), turned about z; `lying` lays a lathed solid on its side."""
    c, s = math.cos(turn), math.sin(turn)
    m = np.array([[c, -s, 0, x], [s, c, 0, y], [0, 0, 1, z], [0, 0, 0, 1.0]])
    if lying:
        m = m @ np.array([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1.0]])
    return np.round(m, 5).tolist()


def stone_solid(profile, material: str, x: float, y: float, z: float, squash: float, turn: float) -> dict:
    return {
        "shape": "lathe",
        "profile": profile,
        "material": material,
        "squash": squash,
        "matrix": placed(x, y, z, turn),
    }


def props(
    design: Design, board: Board, colours: list[str], profile, rng: np.random.Generator
) -> tuple[list[dict], dict, list]:
    """Things beside the board (never on it): spare stones, a mug, a coin, a pencil, a die, a book, a phone."""
    solids: list[dict] = []
    materials: dict[str, dict] = {}
    names: list = []
    reach = float(np.linalg.norm(board.outline, axis=1).max())
    angles = rng.permutation(8)[: len(design.props)] * (2 * math.pi / 8) + rng.uniform(0, 0.5)
    for name, angle in zip(design.props, angles):

        def at(size: float, angle: float = angle) -> tuple[float, float]:  # this prop's angle, bound now
            d = reach + size + float(rng.uniform(1.0, 8.0))
            return d * math.cos(angle), d * math.sin(angle)

        turn = float(rng.uniform(0, 2 * math.pi))
        if name == "spare-stones":
            for k in range(int(rng.integers(1, 5))):
                x, y = at(board.stone_r * (1 + 2.5 * k))
                colour = str(rng.choice(colours or ["black", "white"]))
                solids.append(stone_solid(profile, f"stone-{colour}", x, y, 0.0, 1.0, turn))
                names.append(colour)
        elif name == "mug":
            r, h = float(rng.uniform(3.8, 4.4)), float(rng.uniform(8.5, 10.0))
            materials["mug"] = {"kind": "solid", "rgb": lin(rng.uniform(30, 240, 3)), "roughness": 0.1, "coat": 0.6}
            solids.append(
                {
                    "shape": "lathe",
                    "material": "mug",
                    "matrix": placed(*at(r), 0.0),
                    "profile": [(0, 0), (r, 0), (r, h), (r - 0.35, h), (r - 0.35, 0.6), (0, 0.6)],
                }
            )
        elif name == "coin":
            r = float(rng.uniform(1.0, 1.3))
            materials["coin"] = {
                "kind": "solid",
                "rgb": lin([212, 175, 100] if rng.random() < 0.5 else [200, 200, 200]),
                "roughness": 0.25,
                "metallic": 1.0,
            }
            solids.append(
                {
                    "shape": "lathe",
                    "material": "coin",
                    "profile": stone_profile("disc", r, 0.2),
                    "matrix": placed(*at(r), 0.0),
                }
            )
        elif name == "pencil":
            length = float(rng.uniform(13, 18))
            materials["pencil"] = {"kind": "solid", "rgb": lin([235, 170, 20]), "roughness": 0.35}
            solids.append(
                {
                    "shape": "lathe",
                    "material": "pencil",
                    "segments": 6,
                    "smooth": False,
                    "profile": [(0, 0), (0.38, 0), (0.38, length), (0.1, length + 1.6), (0, length + 1.8)],
                    "matrix": placed(*at(length / 2), 0.34, turn, lying=True),
                }
            )
        elif name == "die":
            materials["die"] = {
                "kind": "solid",
                "rgb": lin([240, 240, 236] if rng.random() < 0.5 else [200, 30, 30]),
                "roughness": 0.2,
            }
            solids.append(
                {
                    "shape": "box",
                    "material": "die",
                    "size": [1.6, 1.6, 1.6],
                    "bevel": 0.2,
                    "matrix": placed(*at(1.2), 0.8, turn),
                    "smooth": False,
                }
            )
        elif name == "book":
            w, d, t = float(rng.uniform(14, 20)), float(rng.uniform(20, 27)), float(rng.uniform(1.5, 3.0))
            materials["book"] = {"kind": "solid", "rgb": lin(rng.uniform(20, 220, 3)), "roughness": 0.6}
            solids.append(
                {
                    "shape": "box",
                    "material": "book",
                    "size": [w, d, t],
                    "bevel": 0.1,
                    "matrix": placed(*at(max(w, d) / 2), t / 2, turn),
                    "smooth": False,
                }
            )
        else:  # a phone, face up
            materials["phone"] = {"kind": "solid", "rgb": lin([12, 12, 14]), "roughness": 0.05, "coat": 1.0}
            solids.append(
                {
                    "shape": "box",
                    "material": "phone",
                    "size": [7.2, 15.0, 0.8],
                    "bevel": 0.3,
                    "matrix": placed(*at(7.5), 0.4, turn),
                    "smooth": False,
                }
            )
    return solids, materials, names


# ----------------------------------------------------------------- the whole photo

TABLE_CM = 400.0  # the table reaches past every edge of the photo


@dataclass(frozen=True)
class Scene:
    spec: dict  # what bpy_scene.py builds (JSON)
    board: Board
    camera: Camera
    info: dict  # what was chosen, for the ground truth's `render` block


def artwork_spec(design: Design, image_path: str, box, rng: np.random.Generator) -> dict:
    """How the drawing lies on the board: its style and colours, a groove's depth and grime."""
    if design.pockets == "printed":  # a printed pocket's disc is a tint of the ink, not a stone's colour
        share = rng.uniform(0.2, 0.5)
        marker = tuple(np.asarray(design.board_rgb) * (1 - share) + np.asarray(design.line_rgb) * share)
    elif design.marker_tone == design.line_tone:
        marker = design.line_rgb
    else:
        marker = (240, 238, 230) if design.marker_tone == "light" else (22, 22, 24)
    return {
        "image": image_path,
        "box": [round(float(v), 4) for v in box],
        "style": design.line_style,
        "line_rgb": lin(design.line_rgb),
        "marker_rgb": lin(marker),
        "line_roughness": round(
            float(rng.uniform(0.15, 0.3) if design.line_style == "inlay" else rng.uniform(0.5, 0.8)), 3
        ),
        "groove_depth": round(float(rng.uniform(0.04, 0.12)), 3),
        "groove_shade": round(float(rng.uniform(0.0, 0.2)), 3),
    }


def photo_scene(
    game: str,
    cells: dict,
    design: Design,
    stone_rgb: dict,
    rng: np.random.Generator,
    size: tuple[int, int],
    draw_artwork,
    render: dict,
) -> Scene:
    """Everything one photo shows.  `draw_artwork(board) -> (image path, box, info)` draws the
    board's texture (kept apart so tests build scenes without writing images)."""
    board = make_board(game, design, rng)
    image_path, box, art_info = draw_artwork(board)
    surface = board_surface(design, rng)
    surface["artwork"] = artwork_spec(design, image_path, box, rng)
    table, table_info = table_surface(design, surface, rng)
    table = {k: v for k, v in table.items() if k != "artwork"}
    materials = {"board": surface, "table": table}
    used = sorted({c for c in cells.values() if c})
    for colour in sorted(set(used) | {"black", "white"}):
        materials[f"stone-{colour}"] = stone_surface(colour, design, stone_rgb[colour], rng)
    solids = [
        {
            "shape": "box",
            "material": "table",
            "size": [TABLE_CM, TABLE_CM, 2.0],
            "smooth": False,
            "matrix": placed(0.0, 0.0, -1.0),
        }
    ]
    squash = float(rng.uniform(0.85, 0.95)) if design.stone_shape == "pebble" else 1.0
    jitter = 0.06 if game in DRAWN else 0.03  # stones on points wander; in pockets they centre
    for (x, y, _), pid in zip(board.locations(), board.layout.ids):
        colour = cells.get(pid)
        if not colour:
            continue
        r = board.stone_r * float(rng.uniform(0.97, 1.03))
        profile = stone_profile(design.stone_shape, r, board.stone_h * r / board.stone_r)
        dx, dy = rng.normal(0, jitter * r, 2)
        solids.append(
            stone_solid(
                profile,
                f"stone-{colour}",
                x + dx,
                y + dy,
                resting_height(profile, board.seat, board.top),
                squash,
                float(rng.uniform(0, 2 * math.pi)),
            )
        )
    spare_profile = stone_profile(design.stone_shape, board.stone_r, board.stone_h)
    extra, extra_materials, spares = props(design, board, used, spare_profile, rng)
    solids += extra
    materials.update(extra_materials)
    cuts = []
    if board.seat is not None:
        cutter = [(round(a, 5), round(b, 5)) for a, b in board.seat.cutter(board.top)]
        cuts = [
            {"profile": cutter, "centre": [round(float(x), 4), round(float(y), 4), 0.0]}
            for x, y, _ in board.locations()
        ]
    light_specs, world, light_info = lights(design, rng)
    camera, camera_info = place_camera(board, size, rng)
    bevel = 0.0 if design.board_material in ("paper", "mat") else float(rng.uniform(0.05, 0.3))
    spec = {
        "render": render,
        "materials": materials,
        "board": {
            "outline": np.round(board.outline, 4).tolist(),
            "thickness": round(board.thickness, 4),
            "bevel": round(bevel, 3),
            "cuts": cuts,
        },
        "solids": solids,
        "lights": light_specs,
        "world": world,
        "camera": {"matrix": np.round(camera.matrix, 6).tolist(), "lens_mm": camera.lens_mm, "sensor_mm": SENSOR_MM},
        "check_points": np.round(np.r_[board.locations(), board.corners()], 5).tolist(),
    }
    info = {
        "board_cm": {
            "unit": round(board.unit, 3),
            "thickness": round(board.thickness, 3),
            "stone_radius": round(board.stone_r, 3),
            "stone_height": round(board.stone_h, 3),
            "pocket_radius": round(board.pocket_r, 3),
            "seat": None
            if board.seat is None
            else {"kind": board.seat.kind, "radius": round(board.seat.radius, 3), "depth": round(board.seat.depth, 3)},
            "outline": np.round(board.outline, 3).tolist(),
        },
        "camera": camera_info,
        "light": light_info,
        "scene": {
            "table": table_info,
            "spare_stones": spares,
            "stone_shades": {c: list(stone_rgb[c]) for c in used},
            **art_info,
        },
    }
    return Scene(spec, board, camera, info)
