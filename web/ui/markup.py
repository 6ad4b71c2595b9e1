"""Text made safe for HTML: the one helper the first screen needs, importing nothing else.

The home screen draws before the engine or any board module is imported (a phone's
start-up); the boards use it too (`boards.esc` is this one).
"""

from __future__ import annotations

from typing import Any

# html.escape's replacements, without importing `html`: its entity table costs ~0.1 s of start-up in Pyodide.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def esc(text: Any) -> str:
    """Text made safe for HTML and SVG markup and attribute values (what html.escape(quote=True) gives)."""
    return str(text).translate(_ESCAPES)
