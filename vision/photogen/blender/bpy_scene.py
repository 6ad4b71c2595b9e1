"""Build one photo's scene in Blender from its spec and render it with Cycles.

    .venv-blender/bin/python vision/photogen/blender/bpy_scene.py SPEC.json OUT_DIR

This file runs inside `.venv-blender` (bpy pins numpy<2, the project numpy 2), so it
imports only bpy and the standard library and takes every decision from the spec that
`scene.py` wrote: it draws nothing at random.  It writes OUT_DIR/linear.f32 (the render's
scene-linear RGB as float32, top row first) and OUT_DIR/render.json (the size, the render
seconds and Blender's own `world_to_camera_view` of the spec's check points).
"""

from __future__ import annotations

import array
import json
import math
import sys
import time
from pathlib import Path

import bpy  # first: bpy puts Blender's own modules (bmesh, mathutils) on the path
import bmesh  # noqa: I001
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

LATHE_SEGMENTS = 40  # sides of a round solid: smooth at a stone's size in a 1600 px photo
NOISE_THRESHOLD = 0.08  # adaptive sampling's noise level: the denoiser takes the rest
MIN_SAMPLES = 8  # samples every pixel gets before adaptive sampling may stop it
NOISE_DETAIL = 3.0  # octaves of the procedural textures: finer ones cost time and blur away at 1600 px
MIX_SOCKETS = {"RGBA": (6, 7, 2), "FLOAT": (2, 3, 0)}  # the Mix node's A, B inputs and result per data type
SHARP_DEG = 35.0  # a board edge sharper than this stays sharp; a pocket's facets are shaded smooth


# ----------------------------------------------------------------- geometry


def lathe(
    bm: bmesh.types.BMesh,
    profile: list[list[float]],
    centre=(0.0, 0.0, 0.0),
    segments: int = LATHE_SEGMENTS,
    squash: float = 1.0,
) -> None:
    """A closed solid of revolution about the vertical axis through `centre` (x, y, z).

    `profile` runs (radius, height) from the bottom pole (radius 0) to the top pole (radius 0);
    `squash` scales the y axis (an oval stone).
    """
    cx, cy, cz = centre
    rings: list = []
    for radius, height in profile:
        if radius <= 0.0:
            rings.append(bm.verts.new((cx, cy, cz + height)))
            continue
        rings.append(
            [
                bm.verts.new(
                    (
                        cx + radius * math.cos(2 * math.pi * k / segments),
                        cy + radius * math.sin(2 * math.pi * k / segments) * squash,
                        cz + height,
                    )
                )
                for k in range(segments)
            ]
        )
    for lower, upper in zip(rings, rings[1:]):
        low_pole, up_pole = not isinstance(lower, list), not isinstance(upper, list)
        for k in range(segments):
            k1 = (k + 1) % segments
            if low_pole:
                bm.faces.new((lower, upper[k1], upper[k]))
            elif up_pole:
                bm.faces.new((lower[k], lower[k1], upper))
            else:
                bm.faces.new((lower[k], lower[k1], upper[k1], upper[k]))


def prism(bm: bmesh.types.BMesh, polygon: list[list[float]], z0: float, z1: float) -> None:
    """A straight prism over a convex or concave polygon (counter-clockwise, x-y plane)."""
    bottom = [bm.verts.new((x, y, z0)) for x, y in polygon]
    top = [bm.verts.new((x, y, z1)) for x, y in polygon]
    bm.faces.new(list(reversed(bottom)))
    bm.faces.new(top)
    n = len(polygon)
    for k in range(n):
        k1 = (k + 1) % n
        bm.faces.new((bottom[k], bottom[k1], top[k1], top[k]))


def box(bm: bmesh.types.BMesh, size: list[float]) -> None:
    """A box centred on the origin."""
    sx, sy, sz = (v / 2 for v in size)
    prism(bm, [[-sx, -sy], [sx, -sy], [sx, sy], [-sx, sy]], -sz, sz)


def mesh_object(
    name: str, bm: bmesh.types.BMesh, material: bpy.types.Material | None, smooth: bool
) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    bmesh.ops.recalc_face_normals(bm, faces=bm.faces[:])
    bm.to_mesh(mesh)
    bm.free()
    if smooth:
        mesh.shade_smooth()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    if material is not None:
        obj.data.materials.append(material)
    return obj


def bevel(obj: bpy.types.Object, width: float, segments: int = 2) -> None:
    if width <= 0:
        return
    mod = obj.modifiers.new("bevel", "BEVEL")
    mod.width = width
    mod.segments = segments
    mod.limit_method = "ANGLE"
    mod.harden_normals = False


def smooth_by_angle(obj: bpy.types.Object, degrees: float) -> None:
    """Shade smooth across edges flatter than `degrees`, after every other modifier (the pockets
    the boolean cut), so curved walls look round and the board's faces stay flat."""
    tree = bpy.data.node_groups.new("smooth by angle", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    given, result = tree.nodes.new("NodeGroupInput"), tree.nodes.new("NodeGroupOutput")
    faces = tree.nodes.new("GeometryNodeSetShadeSmooth")
    faces.domain = "FACE"
    faces.inputs["Shade Smooth"].default_value = True
    edges = tree.nodes.new("GeometryNodeSetShadeSmooth")
    edges.domain = "EDGE"
    angle = tree.nodes.new("GeometryNodeInputMeshEdgeAngle")
    flat = tree.nodes.new("ShaderNodeMath")
    flat.operation = "LESS_THAN"
    flat.inputs[1].default_value = math.radians(degrees)
    tree.links.new(angle.outputs["Unsigned Angle"], flat.inputs[0])
    tree.links.new(flat.outputs[0], edges.inputs["Shade Smooth"])
    tree.links.new(given.outputs[0], faces.inputs["Geometry"])
    tree.links.new(faces.outputs["Geometry"], edges.inputs["Geometry"])
    tree.links.new(edges.outputs["Geometry"], result.inputs[0])
    obj.modifiers.new("smooth by angle", "NODES").node_group = tree


# ----------------------------------------------------------------- materials


class Nodes:
    """A material's node tree with short helpers: node(kind, **inputs) and link(a, b)."""

    def __init__(self, material: bpy.types.Material):
        self.tree = material.node_tree
        self.tree.nodes.clear()
        self.out = self.tree.nodes.new("ShaderNodeOutputMaterial")
        self.bsdf = self.tree.nodes.new("ShaderNodeBsdfPrincipled")
        self.tree.links.new(self.bsdf.outputs["BSDF"], self.out.inputs["Surface"])

    def node(self, kind: str, **settings) -> bpy.types.Node:
        n = self.tree.nodes.new(kind)
        for key, value in settings.items():
            if hasattr(n, key):
                setattr(n, key, value)
            else:
                n.inputs[key.replace("_", " ")].default_value = value
        return n

    def link(self, source, target) -> None:
        self.tree.links.new(source, target)

    def set(self, **inputs) -> None:
        for key, value in inputs.items():
            self.bsdf.inputs[key.replace("_", " ")].default_value = value

    def feed(self, socket, value) -> None:
        """An input from a number, an RGB list or another node's output."""
        if isinstance(value, (int, float)):
            socket.default_value = float(value)
        elif isinstance(value, (list, tuple)):
            socket.default_value = (*value, 1.0)
        else:
            self.link(value, socket)

    def math(self, op: str, a, b=None):
        n = self.node("ShaderNodeMath", operation=op)
        self.feed(n.inputs[0], a)
        if b is not None:
            self.feed(n.inputs[1], b)
        return n.outputs[0]

    def mix(self, data_type: str, factor, a, b):
        """Blender's Mix node: `a` where factor is 0, `b` where it is 1 (RGBA colours or FLOAT values)."""
        first, second, result = MIX_SOCKETS[data_type]
        n = self.node("ShaderNodeMix", data_type=data_type)
        for slot, v in ((0, factor), (first, a), (second, b)):
            self.feed(n.inputs[slot], v)
        return n.outputs[result]

    def object_coords(self, scale: list[float] | float = 1.0, turn_deg: float = 0.0, offset=(0.0, 0.0, 0.0)):
        """The object's own coordinates (cm), turned about z, then scaled per axis, then moved:
        a grain stretched along x turns with the board's grain."""
        coords = self.node("ShaderNodeTexCoord")
        turn = self.node("ShaderNodeVectorRotate", rotation_type="Z_AXIS", Angle=math.radians(turn_deg))
        mapping = self.node("ShaderNodeMapping")
        mapping.inputs["Location"].default_value = offset
        mapping.inputs["Scale"].default_value = scale if isinstance(scale, (list, tuple)) else (scale,) * 3
        self.link(coords.outputs["Object"], turn.inputs["Vector"])
        self.link(turn.outputs["Vector"], mapping.inputs["Vector"])
        return mapping.outputs["Vector"]


def surface_colour(nodes: Nodes, spec: dict):
    """The base colour socket of a surface kind: wood grain, or a flat colour with its mottle."""
    kind = spec["kind"]
    if kind == "wood":
        vec = nodes.object_coords(spec["grain_scale"], spec["grain_deg"], spec["offset"])
        wave = nodes.node(
            "ShaderNodeTexWave",
            wave_type=spec["wave"],
            bands_direction="Y",
            rings_direction="X",
            wave_profile="SAW",
            Scale=spec["ring_scale"],
            Distortion=spec["distortion"],
            Detail=NOISE_DETAIL,
            Detail_Scale=spec["detail_scale"],
        )
        nodes.link(vec, wave.inputs["Vector"])
        ramp = nodes.node("ShaderNodeValToRGB")  # each growth ring: early wood, then a thinner band of late wood
        early, late = ramp.color_ramp.elements[0], ramp.color_ramp.elements[1]
        early.position, early.color = 0.0, (*spec["light"], 1.0)
        late.position, late.color = 1.0, (*spec["dark"], 1.0)
        middle = ramp.color_ramp.elements.new(spec["late_share"])
        middle.color = (*spec["light"], 1.0)
        nodes.link(wave.outputs["Fac"], ramp.inputs["Fac"])
        fibre = nodes.node("ShaderNodeTexNoise", Scale=spec["fibre_scale"], Detail=NOISE_DETAIL)
        nodes.link(nodes.object_coords([0.08, 3.0, 1.0], spec["grain_deg"]), fibre.inputs["Vector"])
        return nodes.mix(
            "RGBA", nodes.math("MULTIPLY", fibre.outputs["Fac"], 0.25), ramp.outputs["Color"], spec["dark"]
        )
    noise = nodes.node("ShaderNodeTexNoise", Scale=spec.get("mottle_scale", 2.0), Detail=NOISE_DETAIL)
    nodes.link(nodes.object_coords(1.0), noise.inputs["Vector"])
    darker = [c * (1.0 - spec.get("mottle", 0.05)) for c in spec["rgb"]]
    return nodes.mix("RGBA", noise.outputs["Fac"], darker, spec["rgb"])


def surface_bump(nodes: Nodes, spec: dict):
    """A fine bump of the surface's texture (felt fibres, wood pores, paper tooth) or None."""
    if not spec.get("bump"):
        return None
    noise = nodes.node("ShaderNodeTexNoise", Scale=spec["bump_scale"], Detail=NOISE_DETAIL)
    nodes.link(nodes.object_coords(1.0), noise.inputs["Vector"])
    bump = nodes.node("ShaderNodeBump", Strength=spec["bump"], Distance=0.02)
    nodes.link(noise.outputs["Fac"], bump.inputs["Height"])
    return bump


def finish(nodes: Nodes, spec: dict) -> None:
    nodes.set(Roughness=spec.get("roughness", 0.5))
    if spec.get("coat"):
        nodes.set(Coat_Weight=spec["coat"], Coat_Roughness=spec.get("coat_roughness", 0.05))
    if spec.get("sheen"):
        nodes.set(Sheen_Weight=spec["sheen"], Sheen_Roughness=0.5)


def make_surface(name: str, spec: dict) -> bpy.types.Material:
    """Wood, paint, paper, felt, vinyl, cloth or stone-top: the board's and the table's surfaces."""
    material = bpy.data.materials.new(name)
    nodes = Nodes(material)
    colour = surface_colour(nodes, spec)
    bump = surface_bump(nodes, spec)
    finish(nodes, spec)
    art = spec.get("artwork")
    if art:
        colour, bump = add_artwork(nodes, art, colour, bump)
    nodes.link(colour, nodes.bsdf.inputs["Base Color"])
    if bump is not None:
        nodes.link(bump.outputs["Normal"], nodes.bsdf.inputs["Normal"])
    return material


def add_artwork(nodes: Nodes, art: dict, colour, bump):
    """The board's drawing (lines, rings, numbers: the red channel; point markers: green) on its top face.

    Ink and inlay colour the surface (inlay a little glossier); an engraved drawing has no
    colour of its own and shows only by its shading (a bump), a little darker in the groove.
    """
    x0, y0, x1, y1 = art["box"]
    vec = nodes.object_coords([1.0 / (x1 - x0), 1.0 / (y1 - y0), 1.0], 0.0, (-x0 / (x1 - x0), -y0 / (y1 - y0), 0.0))
    image = bpy.data.images.load(art["image"])
    image.colorspace_settings.name = "Non-Color"
    tex = nodes.node("ShaderNodeTexImage", interpolation="Linear", extension="CLIP")
    tex.image = image
    nodes.link(vec, tex.inputs["Vector"])
    channels = nodes.node("ShaderNodeSeparateColor")
    nodes.link(tex.outputs["Color"], channels.inputs["Color"])
    geometry = nodes.node("ShaderNodeNewGeometry")
    normal = nodes.node("ShaderNodeSeparateXYZ")
    nodes.link(geometry.outputs["Normal"], normal.inputs["Vector"])
    on_top = nodes.math("GREATER_THAN", normal.outputs["Z"], 0.95)  # not in pockets, holes or on the sides
    lines = nodes.math("MULTIPLY", channels.outputs["Red"], on_top)
    marks = nodes.math("MULTIPLY", channels.outputs["Green"], on_top)
    if art["style"] == "groove":
        colour = nodes.mix("RGBA", nodes.math("MULTIPLY", lines, art["groove_shade"]), colour, [0.0, 0.0, 0.0])
        groove = nodes.node("ShaderNodeBump", invert=True, Strength=1.0, Distance=art["groove_depth"])
        nodes.link(lines, groove.inputs["Height"])
        if bump is not None:
            nodes.link(bump.outputs["Normal"], groove.inputs["Normal"])
        bump = groove
    else:
        colour = nodes.mix("RGBA", lines, colour, art["line_rgb"])
        rough = nodes.mix("FLOAT", lines, nodes.bsdf.inputs["Roughness"].default_value, art["line_roughness"])
        nodes.link(rough, nodes.bsdf.inputs["Roughness"])
    colour = nodes.mix("RGBA", marks, colour, art["marker_rgb"])
    return colour, bump


def make_solid(name: str, spec: dict) -> bpy.types.Material:
    """Stones and things: plastic (glossy or matte), glass (clear, coloured, frosted), metal, ceramic."""
    material = bpy.data.materials.new(name)
    nodes = Nodes(material)
    nodes.set(Base_Color=(*spec["rgb"], 1.0), Roughness=spec["roughness"])
    if spec.get("transmission"):
        nodes.set(Transmission_Weight=spec["transmission"], IOR=spec.get("ior", 1.5))
    if spec.get("metallic"):
        nodes.set(Metallic=spec["metallic"])
    if spec.get("coat"):
        nodes.set(Coat_Weight=spec["coat"], Coat_Roughness=spec.get("coat_roughness", 0.03))
    if spec.get("subsurface"):
        nodes.set(Subsurface_Weight=spec["subsurface"], Subsurface_Scale=0.2)
    return material


# ----------------------------------------------------------------- the scene


def build_board(spec: dict, material: bpy.types.Material) -> None:
    bm = bmesh.new()
    prism(bm, spec["outline"], 0.0, spec["thickness"])
    board = mesh_object("board", bm, material, smooth=False)
    bevel(board, spec["bevel"])
    if spec["cuts"]:
        bm = bmesh.new()
        for cut in spec["cuts"]:
            lathe(bm, cut["profile"], cut["centre"], segments=cut.get("segments", LATHE_SEGMENTS))
        cutter = mesh_object("cuts", bm, None, smooth=True)
        cutter.hide_render = True
        cutter.display_type = "BOUNDS"
        mod = board.modifiers.new("cuts", "BOOLEAN")
        mod.operation = "DIFFERENCE"
        mod.solver = "MANIFOLD"
        mod.object = cutter
    smooth_by_angle(board, SHARP_DEG)


def build_solids(items: list[dict], materials: dict[str, bpy.types.Material]) -> None:
    """The table, the stones and the things on it: lathed solids and boxes built about their own
    origin, each placed by its matrix."""
    for k, item in enumerate(items):
        bm = bmesh.new()
        if item["shape"] == "box":
            box(bm, item["size"])
        else:
            lathe(bm, item["profile"], segments=item.get("segments", LATHE_SEGMENTS), squash=item.get("squash", 1.0))
        obj = mesh_object(f"{item['material']}{k}", bm, materials[item["material"]], smooth=item.get("smooth", True))
        obj.matrix_world = Matrix(item["matrix"])
        bevel(obj, item.get("bevel", 0.0), 3)


def build_lights(lights: list[dict], world: dict) -> None:
    for k, spec in enumerate(lights):
        light = bpy.data.lights.new(f"light{k}", spec["kind"])
        light.use_temperature = True
        light.temperature = spec["kelvin"]
        light.energy = spec["energy"]
        if spec["kind"] == "SUN":
            light.angle = math.radians(spec["angle_deg"])
        elif spec["kind"] == "AREA":
            light.shape = "RECTANGLE"
            light.size, light.size_y = spec["size"]
        else:
            light.shadow_soft_size = spec["radius"]
        obj = bpy.data.objects.new(f"light{k}", light)
        bpy.context.scene.collection.objects.link(obj)
        obj.matrix_world = Matrix(spec["matrix"])
    w = bpy.data.worlds.new("room")
    bg = w.node_tree.nodes.get("Background") or w.node_tree.nodes.new("ShaderNodeBackground")
    bg.inputs["Color"].default_value = (*world["rgb"], 1.0)
    bg.inputs["Strength"].default_value = world["strength"]
    out = next(n for n in w.node_tree.nodes if n.type == "OUTPUT_WORLD")
    w.node_tree.links.new(bg.outputs["Background"], out.inputs["Surface"])
    bpy.context.scene.world = w


def build_camera(spec: dict) -> bpy.types.Object:
    cam = bpy.data.cameras.new("phone")
    cam.lens = spec["lens_mm"]
    cam.sensor_width = spec["sensor_mm"]
    cam.sensor_fit = "AUTO"  # the sensor width spans the photo's long side, portrait or landscape
    cam.clip_start, cam.clip_end = 1.0, 5000.0
    obj = bpy.data.objects.new("phone", cam)
    bpy.context.scene.collection.objects.link(obj)
    obj.matrix_world = Matrix(spec["matrix"])
    bpy.context.scene.camera = obj
    return obj


def settings(spec: dict) -> None:
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = spec["samples"]
    scene.cycles.use_adaptive_sampling = True  # plain table and board stop early, stones and edges get every sample
    scene.cycles.adaptive_threshold = NOISE_THRESHOLD
    scene.cycles.adaptive_min_samples = min(spec["samples"], MIN_SAMPLES)
    scene.cycles.use_denoising = spec["denoise"]
    if spec["denoise"]:
        scene.cycles.denoiser = "OPENIMAGEDENOISE"
    scene.cycles.seed = spec["seed"] % (2**31)
    scene.cycles.max_bounces = 8
    scene.cycles.diffuse_bounces = 2
    scene.cycles.glossy_bounces = 4
    scene.cycles.transmission_bounces = 8
    scene.cycles.blur_glossy = 1.0  # caustics through glass stones converge in few samples
    scene.render.threads_mode = "FIXED"
    scene.render.threads = spec["threads"]
    scene.render.resolution_x, scene.render.resolution_y = spec["size"]
    scene.render.resolution_percentage = 100
    scene.render.film_transparent = False
    scene.view_settings.view_transform = "Standard"  # the phone's tone curve is applied afterwards
    scene.view_settings.look = "None"
    scene.unit_settings.scale_length = 0.01  # one Blender unit is a centimetre


def render(spec: dict, out_dir: Path) -> dict:
    exr = out_dir / "render.exr"
    scene = bpy.context.scene
    scene.render.image_settings.file_format = "OPEN_EXR"
    scene.render.image_settings.color_depth = "32"
    scene.render.filepath = str(exr)
    t0, c0 = time.time(), time.process_time()
    bpy.ops.render.render(write_still=True)
    seconds, cpu = time.time() - t0, time.process_time() - c0
    image = bpy.data.images.load(str(exr))
    w, h = image.size
    rgba = array.array("f", bytes(4 * w * h * 4))
    image.pixels.foreach_get(rgba)
    rgb = array.array("f", bytes(4 * w * h * 3))
    for c in range(3):
        rgb[c::3] = rgba[c::4]
    rows = [rgb[(h - 1 - y) * w * 3 : (h - y) * w * 3] for y in range(h)]  # Blender's rows run bottom-up
    with open(out_dir / "linear.f32", "wb") as f:
        for row in rows:
            row.tofile(f)
    exr.unlink()
    return {"size": [w, h], "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2)}


def camera_view(cam: bpy.types.Object, points: list[list[float]]) -> list[list[float]]:
    """Blender's own projection of the check points: (x, y) of the frame from its bottom left, 0..1."""
    scene = bpy.context.scene
    return [list(world_to_camera_view(scene, cam, Vector(p)))[:2] for p in points]


def main(spec_path: str, out: str) -> int:
    spec = json.loads(Path(spec_path).read_text())
    out_dir = Path(out)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    settings(spec["render"])
    materials = {
        name: (make_surface if m["kind"] in ("wood", "flat") else make_solid)(name, m)
        for name, m in spec["materials"].items()
    }
    build_board(spec["board"], materials["board"])
    build_solids(spec["solids"], materials)
    build_lights(spec["lights"], spec["world"])
    cam = build_camera(spec["camera"])
    result = render(spec["render"], out_dir)
    result["camera_view"] = camera_view(cam, spec["check_points"])
    result["blender"] = bpy.app.version_string
    (out_dir / "render.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
