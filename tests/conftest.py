"""Shared test set-up."""

from __future__ import annotations

import sys
from pathlib import Path

# Tests import the engine from this checkout, also when run without installing it (e.g. under Pyodide).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import settings  # noqa: E402

# `pytest --hypothesis-profile=thorough tests/test_properties.py`: 10,000 random games per game
# (the suite plays 100); bench/properties.py runs the same test in rounds with a running count.
settings.register_profile("thorough", max_examples=10_000)
