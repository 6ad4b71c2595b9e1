"""A reading must not depend on what the process read before it (the companion server reads many
photos in one process): the same pixels give the same bits wherever their arrays lie in memory."""

from __future__ import annotations

import numpy as np

from vision.fit import edge_map, gradient_magnitude

ALIGNMENTS = range(0, 64, 4)  # byte offsets of a float32 array's start within a cache line


def _placed(values: np.ndarray, offset: int) -> np.ndarray:
    """A copy of `values` starting `offset` bytes past a 64-byte boundary."""
    raw = np.empty(values.nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + offset
    placed = raw[start : start + values.nbytes].view(values.dtype).reshape(values.shape)
    placed[:] = values
    return placed


def test_gradient_magnitude_is_the_same_at_every_alignment() -> None:
    rng = np.random.default_rng(3)
    gx, gy = ((rng.standard_normal((97, 131)) * 50).astype(np.float32) for _ in range(2))
    found = {gradient_magnitude(_placed(gx, a), _placed(gy, b)).tobytes() for a in ALIGNMENTS for b in ALIGNMENTS}
    assert len(found) == 1


def test_edge_map_is_the_same_at_every_alignment() -> None:
    gray = (np.random.default_rng(4).random((120, 160)) * 255).astype(np.float32)
    assert len({edge_map(_placed(gray, a), 1.5).tobytes() for a in ALIGNMENTS}) == 1
