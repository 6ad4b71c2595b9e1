"""Vision tests need OpenCV; skip them cleanly where it is not installed."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")
pytest.importorskip("numpy")
