"""Held-out test photos from a second renderer: Blender Cycles through the `bpy` package.

    python -m vision.photogen.blender --game all --count 20 --seed 101 --out bench/out/blender101

Its own designs (`design.py`), its own scene and phone (`scene.py`, `phone.py`); the
geometry comes from `vision.layouts` like everything else.  Each photo comes with NAME.json
in the POV-Ray generator's shape (`game`, `cells`, `board_corners`, `cell_px`, `image`, `size`,
`render` with `generator: "vision.photogen.blender"`), so `bench/vision.py` reads both kinds
of set and the trainer refuses these.  bpy lives in `.venv-blender` (`./stones setup`).
"""
