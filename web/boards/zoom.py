"""Zoom and pan for a board too dense for a finger: the view Python keeps, and what draws it.

A zoomable board draws its svg with `Zoom.svg_attributes` (the viewBox of the
view kept in `ui`, and the fitted frame for web/zoom.js to clamp to) and puts
`Zoom.controls` beside it: buttons to zoom in, out and back to the whole board,
and the hidden button zoom.js clicks when a pinch, a drag or a tap-to-zoom ends.
Its `action` hands "zoom" and "view" to `Zoom.act`. The gestures themselves run
in the browser (zoom.js), so no Python runs while a finger moves.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ui.i18n import _

from . import esc

STEP = 1.5  # one press of + or − zooms by this factor


@dataclasses.dataclass(frozen=True)
class Frame:
    """A rectangle of the board's drawing, in its own units."""

    cx: float
    cy: float
    width: float
    height: float

    @property
    def view_box(self) -> str:
        return f"{self.cx - self.width / 2:.1f} {self.cy - self.height / 2:.1f} {self.width:.1f} {self.height:.1f}"


class Zoom:
    """One board's zoom: kept in `ui[key]` as (cx, cy, width); absent means the whole board (the fit).

    `most` is the largest zoom factor; `tap` (a factor, or 0) lets a finger's first tap on the whole
    board zoom in there instead of playing, for boards whose points are far below a finger's size.
    """

    def __init__(self, key: str, most: float, tap: float = 0.0, wheel: bool = False) -> None:
        self.key = key
        self.most = most
        self.tap = tap
        self.wheel = wheel

    def view(self, ui: dict[str, Any], fit: Frame) -> Frame:
        """The view to draw: the one kept, clamped to the board as it is now, or the fit."""
        kept = ui.get(self.key)
        if not kept:
            return fit
        cx, cy, width = kept
        return self._clamped(fit, cx, cy, width)

    def zoomed(self, ui: dict[str, Any], fit: Frame) -> bool:
        return self.view(ui, fit).width < fit.width * 0.99

    def _clamped(self, fit: Frame, cx: float, cy: float, width: float) -> Frame:
        width = min(fit.width, max(fit.width / self.most, width))
        height = width * fit.height / fit.width
        left, top = fit.cx - fit.width / 2, fit.cy - fit.height / 2
        cx = min(left + fit.width - width / 2, max(left + width / 2, cx))
        cy = min(top + fit.height - height / 2, max(top + height / 2, cy))
        return Frame(cx, cy, width, height)

    def act(self, ui: dict[str, Any], name: str, value: str, fit: Frame) -> bool:
        """A zoom button ("zoom": in, out, fit) or the view a gesture ended on ("view": "cx,cy,width")."""
        if name == "zoom":
            now = self.view(ui, fit)
            if value == "fit":
                ui.pop(self.key, None)
                return True
            factor = STEP if value == "in" else 1 / STEP
            self.keep(ui, fit, self._clamped(fit, now.cx, now.cy, now.width / factor))
            return True
        if name == "view":
            try:
                cx, cy, width = (float(v) for v in value.split(","))
            except ValueError:
                return True
            self.keep(ui, fit, self._clamped(fit, cx, cy, width))
            return True
        return False

    def keep(self, ui: dict[str, Any], fit: Frame, view: Frame) -> None:
        if view.width >= fit.width * 0.99:
            ui.pop(self.key, None)
        else:
            ui[self.key] = (view.cx, view.cy, view.width)

    def svg_attributes(self, ui: dict[str, Any], fit: Frame) -> str:
        """viewBox and the data-* attributes zoom.js reads (and the class it toggles)."""
        left, top = fit.cx - fit.width / 2, fit.cy - fit.height / 2
        extra = (f' data-zoom-tap="{self.tap:g}"' if self.tap else "") + (" data-zoom-wheel" if self.wheel else "")
        return (
            f'viewBox="{self.view(ui, fit).view_box}" data-zoom data-zoom-max="{self.most:g}" '
            f'data-fit="{left:.1f} {top:.1f} {fit.width:.1f} {fit.height:.1f}"{extra}'
        )

    def svg_class(self, ui: dict[str, Any], fit: Frame) -> str:
        return " zoomed" if self.zoomed(ui, fit) else ""

    def controls(
        self,
        ui: dict[str, Any],
        fit: Frame,
        what: str = "",
        zoom_attr: str = 'data-board-action="zoom"',
        view_attr: str = 'data-board-action="view"',
    ) -> str:
        """+, − and whole-board buttons over the board's corner, and zoom.js's hidden commit button
        (`zoom_attr` and `view_attr` name the page's action for each: a board's, or the scan screen's)."""
        now = self.view(ui, fit)
        closest = now.width <= fit.width / self.most * 1.01
        whole = now.width >= fit.width * 0.99
        what = what or _("the board")
        buttons = (
            ("in", "+", _("zoom in on {what}").format(what=what), closest),
            ("out", "−", _("zoom out"), whole),
            ("fit", "⤢", _("show all of {what}").format(what=what), whole),
        )
        html = "".join(
            f'<button type="button" class="zoom-{value}" {zoom_attr} data-value="{value}" '
            f'aria-label="{esc(label)}" title="{esc(label)}"{" disabled" if off else ""}>{text}</button>'
            for value, text, label, off in buttons
        )
        return (
            f'<div class="zoom-controls" role="group" aria-label="{esc(_("zoom"))}">{html}'
            f'<button type="button" hidden {view_attr} data-zoom-commit data-value=""></button></div>'
        )
