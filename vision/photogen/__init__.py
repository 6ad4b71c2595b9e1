"""Realistic test photos of the four boards, rendered with POV-Ray, with ground truth.

    python -m vision.photogen --game morris --count 20 --seed 1 --out DIR

Each photo comes with NAME.json in the shape of the shared examples: `game`, `cells`,
`board_corners`, `cell_px`, `image`, `size` and a `render` block telling how it was made.
"""

from .generate import generate, render_one  # noqa: F401
