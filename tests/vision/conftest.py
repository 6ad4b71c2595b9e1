"""Vision tests need OpenCV and NumPy: without them the folder is left out, not failed."""

from __future__ import annotations

try:
    import cv2  # noqa: F401
    import numpy  # noqa: F401
except ImportError:  # the engine-only install
    collect_ignore_glob = ["test_*.py"]
