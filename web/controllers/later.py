"""The engine and the rest of the page, unpacked when a screen first needs them.

python.js downloads `engine.zip` and `ui.zip` while Pyodide starts and keeps their bytes
(`window.stonesLater`); the list of games is drawn without them. The first screen beyond it
(or a saved game to open; a language switch on the list only fetches its catalog) unpacks them here, beside the first screen's own
files, so that `import engine` and `from controllers.page import Page` find them.
"""

from __future__ import annotations

import importlib
import io
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_unpacked = False


def as_bytes(data: Any) -> bytes:
    """A bundle's bytes: a JS Uint8Array (in the browser) or bytes (in the tests)."""
    return data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)


def unpack_later(bundles: Mapping[str, Any], into: Path) -> None:
    """Unpack every downloaded bundle into `into` (once: later calls do nothing)."""
    global _unpacked
    if _unpacked:
        return
    for name in bundles.keys():
        with zipfile.ZipFile(io.BytesIO(as_bytes(bundles[name]))) as archive:
            archive.extractall(into)
    importlib.invalidate_caches()  # the new modules sit in folders Python has already listed
    _unpacked = True
