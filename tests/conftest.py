"""Shared test set-up."""

from __future__ import annotations

import sys
from pathlib import Path

# Tests import the engine from this checkout, also when run without installing it (e.g. under Pyodide).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
