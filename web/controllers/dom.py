"""The few helpers that touch the browser's page (PyScript, main thread)."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_once_callable, to_js
from pyscript import document, window


def el(element_id: str) -> Any:
    return document.getElementById(element_id)


def js_object(data: dict[str, Any]) -> Any:
    return to_js(data, dict_converter=window.Object.fromEntries)


def after_paint(callback: Any) -> None:
    """Call `callback()` once the next frame is painted (a task after that frame's animation callbacks)."""
    window.requestAnimationFrame(create_once_callable(lambda *_: window.setTimeout(create_once_callable(callback), 0)))


def next_frame(callback: Any) -> None:
    """Call `callback()` in the next frame, before it is laid out and painted."""
    window.requestAnimationFrame(create_once_callable(lambda *_: callback()))


def scroll_to_current(moves: Any) -> None:
    """Scroll the move list's own box (not the page) so that its current row shows."""
    current = moves.querySelector("li.current") if moves else None
    if not current:
        return
    top, bottom = current.offsetTop, current.offsetTop + current.offsetHeight
    if top < moves.scrollTop:
        moves.scrollTop = top
    elif bottom > moves.scrollTop + moves.clientHeight:
        moves.scrollTop = bottom - moves.clientHeight


def focus_quietly(node: Any) -> None:
    """Focus without scrolling the page (the page never moves by itself)."""
    node.focus(js_object({"preventScroll": True}))


# what finds a control again once its part of the screen is drawn anew: what it does, not which node it was
SAME_CONTROL = (("data-action", "data-ply"), ("data-board-action", "data-value"), ("data-target",), ("data-tile",))


def same_control(node: Any) -> str | None:
    """A selector for the control `node` is, in a redrawn copy of its part (None: nothing to find it by)."""
    if not node or not getattr(node, "hasAttribute", None):
        return None
    for names in SAME_CONTROL:
        if node.hasAttribute(names[0]):
            return "".join(
                f'[{name}="{window.CSS.escape(node.getAttribute(name))}"]' for name in names if node.hasAttribute(name)
            )
    return f"#{window.CSS.escape(node.id)}" if node.id else None
