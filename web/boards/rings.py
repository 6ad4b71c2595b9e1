"""rings drawn: a hexagonal board of 91 interlocking circles, stones where three circles meet.

The board stands point up (the engine's lattice turned a quarter turn) so it
fills a phone's width. Full circles are engraved grooves; the partial circles at
the edge are cut off by the board's rim and drawn fainter. A circle whose
majority a player holds (a point of their score) is tinted in that colour; a
ring (six stones of one colour on one full circle) is a bold circle in it.

A turn takes several clicks, kept in `ui` until it is committed as one `Turn`:
click an empty point (or Pass), then the circles that can be converted light up
(`state.convertible_circles`); click a circle's centre to convert it (its
opponent stones flip, animated), as often as you like, then End turn. A
placement that leaves nothing to convert ends the turn at once. Clicks the rules
refuse (a taken point, a circle without the majority) are handed to the engine
as moves, so its reason is what the page shows.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from engine.games.rings import (
    CIRCLE_NAMES,
    CIRCLE_POINTS,
    FULL_CIRCLES,
    GEOMETRY,
    POINT_CIRCLES,
    POINT_INDEX,
    POINT_NAMES,
    RING_SIZE,
    Turn,
)

from ui.i18n import N_, _, ngettext
from ui.words import colour_word, name_of

from . import Board, Drawing, RulesSection, esc, rules_html
from .svg import (
    Glint,
    Plan,
    StoneLook,
    focus_circle,
    grain,
    hit_circle,
    last_ring,
    linear,
    location,
    radial,
    stone,
    stone_gradients,
)
from .zoom import Frame, Zoom

S = 40.0  # px per lattice step (the distance between neighbouring circle centres)
PLAN = Plan(S, turned=True)  # the engine's lattice turned a quarter turn: the board stands point up
R_CIRCLE = GEOMETRY.circles[0].radius * S  # every circle passes through its six points
APOTHEM = 5.34 * S  # the board's hexagon, measured to its flat sides
R_HEX = APOTHEM / math.cos(math.pi / 6)
R_STONE, R_HOLE = 9.6, 3.6
R_HIT = R_CIRCLE / 2  # neighbouring points' hit areas touch: a tap anywhere on the board finds one
PAD = 8
VIEW_W, VIEW_H = 2 * (APOTHEM + PAD), 2 * (R_HEX + PAD)
FIT = Frame(0.0, 0.0, VIEW_W, VIEW_H)
# 217 points 20 px apart on a phone: a finger's first tap zooms 2.6× there (points 44+ px apart), the next plays
ZOOM = Zoom("rg_zoom", most=3.5, tap=2.6)
PLACES = ((0.2, N_("in the centre")), (0.5, N_("near the centre")), (0.8, N_("halfway out")), (2.0, N_("by the edge")))
SIDES = (
    N_("right"),
    N_("upper right"),
    N_("top"),
    N_("upper left"),
    N_("left"),
    N_("lower left"),
    N_("bottom"),
    N_("lower right"),
)
BAR_KEYS = {"pass": "P", "all": "A", "end": "E", "back": "X"}

# colour → (light, mid, dark, ink): the stone's gradient and the colour lines are drawn in
COLOURS: dict[str, tuple[str, str, str, str]] = {
    "black": ("#7a7a7c", "#2a2a2d", "#050506", "#1b1b1d"),
    "white": ("#ffffff", "#ece8df", "#a59f92", "#fbfaf6"),
    "clear": ("#ffffff", "#dff3fb", "#9fcfe2", "#8cc9e0"),
    "red": ("#ff9285", "#c8342a", "#71110b", "#bb281f"),
    "green": ("#abe7ae", "#34a94c", "#156125", "#279541"),
    "blue": ("#93bcff", "#2d5fbd", "#0f2960", "#2855b1"),
    "yellow": ("#fff7b0", "#efc723", "#a17a04", "#e0b40c"),
    "orange": ("#ffcd9f", "#ef8832", "#a44806", "#ed781b"),
    "purple": ("#d6a8f0", "#5d317c", "#1a0828", "#552874"),
}
LIGHT_INKS = {"white", "clear", "yellow"}  # drawn with a dark edge so they show on the wood
LOOK = StoneLook(
    "rg",
    (1.2, 1.6),
    shadow="shadow{extra}",
    body="stone stone-{colour}{extra}",
    glint=Glint(0.35, 0.4, 0.3, 0.17),
    glint_class="glint{extra}",
    glint_on=frozenset({"clear"}),
    lettered=True,
)

POINT_SVG = tuple(PLAN.at(loc.x, loc.y) for loc in GEOMETRY.locations)
CIRCLE_SVG = tuple(PLAN.at(circle.x, circle.y) for circle in GEOMETRY.circles)
CIRCLE_INDEX = {name: i for i, name in enumerate(CIRCLE_NAMES)}


def _hexagon(r: float) -> str:
    return " ".join(
        f"{r * math.cos(math.radians(90 + 60 * k)):.1f},{r * math.sin(math.radians(90 + 60 * k)):.1f}" for k in range(6)
    )


def _defs() -> str:
    return (
        "<defs>"
        + linear("rg-wood", (("0", "#efd3a4"), (".55", "#dcb47a"), ("1", "#c79a5e")))
        + grain("rg-grain", "0.22 0.011", 2, 3, "0 0 0 0 0.42  0 0 0 0 0.26  0 0 0 0 0.1  0 0 0 0.45 -0.1")
        + f'<clipPath id="rg-clip"><polygon points="{_hexagon(R_HEX - 5)}"/></clipPath>'
        + radial("rg-hole", (("0", "#7b5327"), ("1", "#4d3112")), cy=".4", r=".6")
        + stone_gradients("rg", {c: shades[:3] for c, shades in COLOURS.items()}, COLOURS, ".36", ".3", ".78")
        + "</defs>"
    )


def stone_svg(colour: str, x: float, y: float, r: float = R_STONE) -> str:
    return stone(LOOK, colour, x, y, r)


def stone_icon(colour: str) -> str:
    return f'<svg class="rg-icon" viewBox="-11 -11 22 22" aria-hidden="true">{stone_svg(colour, 0, 0, 9.5)}</svg>'


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return _("{players} and {last}").format(players=", ".join(items[:-1]), last=items[-1])


class RingsBoard(Board):
    picture_plies = 24  # 91 circles: a dozen stones look lost on them

    # ----- the turn being built --------------------------------------------------------
    def _turn(self, state: Any, ui: dict[str, Any]) -> tuple[str | None, list[str]]:
        """(placement or 'pass' or None, circles converted so far): the turn in progress."""
        place = ui.get("rg_place")
        conv = list(ui.get("rg_conv", []))
        if place is None:
            return None, []
        if ui.get("rg_ply") != state.ply:  # made on another position (undo, reload): forget it
            self._forget_turn(ui)
            return None, []
        try:
            state.preview(place, conv)
        except Exception:
            self._forget_turn(ui)
            return None, []
        return place, conv

    def _start(self, state: Any, place: str, ui: dict[str, Any]) -> str | None:
        """Placement chosen: offer the conversions, or end the turn at once if there are none."""
        if not state.convertible_circles(place, []):
            return place
        ui["rg_place"], ui["rg_conv"], ui["rg_ply"] = place, [], state.ply
        return None

    def _commit(self, state: Any, place: str, conv: list[str], ui: dict[str, Any]) -> str:
        ui["rg_quiet_ply"] = state.ply + 1  # its flips were shown while it was built: no replay
        if place != "pass":
            ui["cursor"] = place  # the keyboard cursor stays on the stone just played
        head = "pass" if place == "pass" else place
        return " ".join([head, *(f"x{c}" for c in conv)])

    # ----- the board: frame, circles, points, circle centres, marks, the turn's buttons ----------------
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        live = interactive and not state.is_over()
        scene = self._scene(state, ui, live)
        points, targets = self._points(scene)
        if "U0,0" in targets:  # the keyboard cursor starts in the middle of the board
            targets = {"U0,0": targets.pop("U0,0"), **targets}
        centres = self._centres(scene, targets) if live and scene.place is not None else ""
        parts = [
            _frame(ui, scene.place is not None),
            _grooves(),
            _circle_marks(scene),
            points,
            centres,
            _turn_marks(scene),
            f"</svg>{ZOOM.controls(ui, FIT)}",
            _bar(scene, ui, targets),
            "</div>",
        ]
        return Drawing("".join(parts), targets)

    def _scene(self, state: Any, ui: dict[str, Any], live: bool) -> _Scene:
        """What the drawing shows: the board (as the turn being built leaves it) and what just changed."""
        place, conv = self._turn(state, ui) if live else (None, [])
        if place is not None:
            view = state.preview(place, conv)
            cells, holders, rings = view["cells"], view["holders"], view["rings"]
            convertible = set(view["convertible"])
        else:
            cells, holders, rings = state.to_position()["cells"], state.holders(), state.rings()
            convertible = set()
        last = state.peek() if state.ply else None
        scene = _Scene(
            live=live,
            me=state.current_player,
            place=place,
            conv=conv,
            cells=cells,
            holders=holders,
            rings=rings,
            convertible=convertible,
            guarded={POINT_NAMES[p] for name in rings for p in CIRCLE_POINTS[CIRCLE_INDEX[name]]},
            last_point=POINT_NAMES[last.point] if isinstance(last, Turn) and last.point is not None else None,
            last_conv=[CIRCLE_NAMES[c] for c in last.conversions] if isinstance(last, Turn) else [],
        )
        self._changes(state, ui, scene, last)
        return scene

    @staticmethod
    def _changes(state: Any, ui: dict[str, Any], scene: _Scene, last: Any) -> None:
        """Which stones flip now (animated once): the last conversion step, or the last whole turn."""
        if scene.place is not None:
            key: tuple[Any, ...] = ("mid", state.ply, scene.place, tuple(scene.conv))
            if scene.conv and ui.get("rg_anim") != key:
                before = state.preview(scene.place, scene.conv[:-1])["cells"]
                scene.flips = {pt: before[pt] for pt, c in scene.cells.items() if c and before[pt] and before[pt] != c}
                scene.ripples = scene.conv[-1:]
            ui["rg_anim"] = key
        else:
            key = ("turn", state.ply, str(last))
            if scene.last_conv and ui.get("rg_seen") != key and ui.get("rg_quiet_ply") != state.ply:
                probe = state.copy()
                probe.pop()
                before = probe.to_position()["cells"]
                scene.flips = {pt: before[pt] for pt, c in scene.cells.items() if c and before[pt] and before[pt] != c}
                scene.ripples = scene.last_conv
            ui["rg_seen"] = key

    def _points(self, scene: _Scene) -> tuple[str, dict[str, tuple[float, float]]]:
        """The points: a dimple, the stone, a hit area (every point is a target while playing)."""
        targets: dict[str, tuple[float, float]] = {}
        pts = ['<g class="points">']
        place, conv = scene.place, scene.conv
        for i, name in enumerate(POINT_NAMES):
            x, y = POINT_SVG[i]
            colour = scene.cells[name]
            legal = scene.live and colour is None and place is None
            classes = (
                ["pt"]
                + (["legal"] if legal else [])
                + (["filled"] if colour else [])
                + (["placed"] if name == place else [])
                + (["last"] if name == scene.last_point and place is None else [])
            )
            label = self._point_label(
                name,
                colour,
                scene.holders,
                name in scene.guarded,
                name == scene.last_point,
                name == place,
                legal,
                scene.me,
            )
            clickable = scene.live and (place is None or (not conv and colour is None) or name == place)
            inner = [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_HOLE}" class="hole"/>']
            if legal:
                inner.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_STONE - 1:.1f}" class="glow"/>')
            if colour:
                if name in scene.flips:
                    inner.append(
                        f'<g class="flip-old">{stone_svg(scene.flips[name], x, y)}</g>'
                        f'<g class="flip-new">{stone_svg(colour, x, y)}</g>'
                    )
                else:
                    inner.append(stone_svg(colour, x, y))
                if name in scene.guarded:
                    inner.append(
                        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_STONE * 0.38:.1f}" class="safe safe-{colour}"/>'
                    )
            inner += [hit_circle(x, y, R_HIT), focus_circle(x, y, R_STONE + 2.6)]
            pts.append(location(name, label, inner, classes, clickable))
            if clickable and place is None:
                targets[name] = (x, y)
        pts.append("</g>")
        return "".join(pts), targets

    def _centres(self, scene: _Scene, targets: dict[str, tuple[float, float]]) -> str:
        """Circle centres, the conversion buttons while converting (every full circle answers a click)."""
        centres = ['<g class="centres">']
        me = scene.me
        for c in range(FULL_CIRCLES):
            name = CIRCLE_NAMES[c]
            x, y = CIRCLE_SVG[c]
            can = name in scene.convertible
            flip = (
                sum(
                    1
                    for p in CIRCLE_POINTS[c]
                    if scene.cells[POINT_NAMES[p]] not in (None, me) and POINT_NAMES[p] not in scene.guarded
                )
                if can
                else 0
            )
            on_circle: dict[str, int] = {}
            for p in CIRCLE_POINTS[c]:
                stone_there = scene.cells[POINT_NAMES[p]]
                if stone_there is not None:
                    on_circle[stone_there] = on_circle.get(stone_there, 0) + 1
            label = self._circle_label(name, scene.holders, scene.rings, can, flip, me, on_circle)
            inner = [hit_circle(x, y, R_HIT), focus_circle(x, y, R_STONE + 2.6)]
            if can:
                inner[:0] = [
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8.6" class="badge" fill="{COLOURS[me][3]}"/>'
                    f'<text x="{x:.1f}" y="{y + 3.6:.1f}" class="badge-text badge-{me}">{flip}</text>'
                ]
                targets[f"x{name}"] = (x, y)
            centres.append(location(f"x{name}", label, inner, ["centre", "can" if can else ""], True))
        centres.append("</g>")
        return "".join(centres)

    def _point_label(
        self,
        name: str,
        colour: str | None,
        holders: dict[str, str],
        guarded: bool,
        last: bool,
        placed: bool,
        legal: bool,
        me: str,
    ) -> str:
        circles = []
        for c in POINT_CIRCLES[POINT_INDEX[name]]:
            circle = CIRCLE_NAMES[c]
            if c >= FULL_CIRCLES:
                circles.append(_("{circle} (edge)").format(circle=circle))
            elif circle in holders:
                circles.append(
                    _("{circle} (held by {player})").format(circle=circle, player=colour_word(holders[circle]))
                )
            else:
                circles.append(circle)
        where = _("on circles {circles}").format(circles=_names(circles))
        if colour is None:
            what = [
                _("empty, you may place a {colour} stone here").format(colour=colour_word(me)) if legal else _("empty")
            ]
        else:
            what = [_("{colour} stone").format(colour=colour_word(colour))]
            what += [_("in a ring (safe)")] if guarded else []
            what += [_("the last stone played")] if last else []
            what += [_("placed this turn")] if placed else []
        return _("point {name}: {what}, {where}").format(name=name, what=", ".join(what), where=where)

    def _circle_label(
        self,
        name: str,
        holders: dict[str, str],
        rings: dict[str, str],
        can: bool,
        flip: int,
        me: str,
        on_circle: dict[str, int],
    ) -> str:
        """What a circle holds, for a listener: "circle 3 4, held by black 4 to 2, convert it: …"."""
        bits = [_("circle {name}").format(name=name)]
        if name in rings:
            bits.append(_("a {colour} ring").format(colour=colour_word(rings[name])))
        holder = holders.get(name)
        if holder:
            others = sum(count for colour, count in on_circle.items() if colour != holder)
            bits.append(
                _("held by {player} {count} to {others}").format(
                    player=colour_word(holder), count=on_circle.get(holder, 0), others=others
                )
            )
        elif on_circle:
            held = ", ".join(
                _("{count} {colour}").format(count=count, colour=colour_word(colour))
                for colour, count in on_circle.items()
            )
            bits.append(_("nobody holds it: {stones}").format(stones=held))
        else:
            bits.append(_("empty"))
        if can:
            words = ngettext(
                "convert it: turns {count} stone {colour}", "convert it: turns {count} stones {colour}", flip
            )
            bits.append(words.format(count=flip, colour=colour_word(me)))
        else:
            bits.append(_("cannot be converted now"))
        return ", ".join(bits)

    # ----- clicks --------------------------------------------------------------------------
    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        place, conv = self._turn(state, ui)
        ui.pop("rg_hint", None)
        if target == "pass":
            if place is not None:
                return None
            return self._start(state, "pass", ui)
        if target in POINT_INDEX:
            if place is None or (not conv and target != place):
                if state.to_position()["cells"][target] is not None:
                    return target  # taken: the engine says so
                return self._start(state, target, ui)
            if target == place and not conv:
                self._forget_turn(ui)  # click the placed stone again: take it back
                return None
            ui["rg_hint"] = N_("Take back the conversions first (X) to move your stone.")
            return None
        if place is None:
            return None
        if target == "back":
            if conv:
                ui["rg_conv"] = conv[:-1]
            else:
                self._forget_turn(ui)
            return None
        if target == "all":
            while True:
                ready = state.convertible_circles(place, conv)
                if not ready:
                    break
                conv.append(ready[0])
            ui["rg_conv"] = conv
            return None
        if target == "end":
            return self._commit(state, place, conv, ui)
        if target.startswith("x") and target[1:] in CIRCLE_INDEX:
            circle = target[1:]
            if circle in state.convertible_circles(place, conv):
                ui["rg_conv"] = conv + [circle]
                return None
            return str(
                Turn(None if place == "pass" else POINT_INDEX[place], tuple(CIRCLE_INDEX[c] for c in conv + [circle]))
            )  # refused: the engine explains
        return None

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool | str:
        """P pass, A convert all, E end turn, X take back: the target each stands for."""
        place, _converted = self._turn(state, ui)
        name = {"p": "pass", "a": "all", "e": "end", "x": "back"}.get(key.lower())
        if name is None:
            return False
        if (name == "pass") != (place is None):
            return False
        return name

    def key_help(self) -> str:
        return _("P passes, then A converts every circle you can, X takes back a step and E ends the turn")

    def _forget_turn(self, ui: dict[str, Any]) -> None:
        """Drop the turn being built (its placement and conversions)."""
        super().reset(ui)
        for k in ("rg_place", "rg_conv", "rg_ply", "rg_hint"):
            ui.pop(k, None)

    def reset(self, ui: dict[str, Any]) -> None:
        """After a move: the turn being built goes, and the whole board is shown again."""
        self._forget_turn(ui)
        ui.pop(ZOOM.key, None)

    def action(self, state: Any, name: str, value: str, ui: dict[str, Any]) -> None:
        ZOOM.act(ui, name, value, FIT)

    # ----- words ----------------------------------------------------------------------------
    def tally(self, state: Any) -> tuple[dict[str, int], str]:
        return state.scores(), _("circles held")

    def describe(self, before: Any, move: Any, after: Any) -> str:
        """ "near the centre, upper left; converts 2 circles (5 stones)", or "passes"."""
        if not isinstance(move, Turn):
            return str(move)
        words = _("passes") if move.point is None else where(POINT_NAMES[move.point])
        if move.conversions:
            was, now = before.to_position()["cells"], after.to_position()["cells"]
            flipped = sum(1 for pt, colour in now.items() if was[pt] and colour != was[pt])
            count = len(move.conversions)
            circles = ngettext("converts {count} circle", "converts {count} circles", count).format(count=count)
            stones = ngettext("{count} stone", "{count} stones", flipped).format(count=flipped)
            words += f"; {circles} ({stones})"
        return words

    def rules(self) -> str:
        return rules_html(_rules_diagram(), RULES)

    # ----- beside the board ----------------------------------------------------------------
    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        over = state.is_over()
        live = interactive and not over
        place, conv = self._turn(state, ui) if live else (None, [])
        me = state.current_player
        scores = state.scores()
        rings = state.rings()
        preview = state.preview(place, conv) if place is not None else None
        cells = state.to_position()["cells"]
        on_board = {p: sum(1 for v in cells.values() if v == p) for p in state.players}

        who = f"<strong>{esc(name_of(me))}</strong>"
        if over:
            step = f"<p>{esc(_('The game is over: every player passed in turn.'))}</p>"
        elif not live:
            step = f"<p>{stone_icon(me)} {_('{player} is to play.').format(player=who)}</p>"
        elif place is None:
            words = _("{player}: place a stone on an empty point where three circles meet, or pass (P).")
            step = f'<p class="step">{stone_icon(me)} {words.format(player=who)}</p>'
        else:
            where = esc(_("You passed") if place == "pass" else _("Stone on {point}").format(point=place))
            ready = preview["convertible"] if preview else []
            done = " " + esc(_("Converted: {circles}.").format(circles=", ".join(conv))) if conv else ""
            if ready:
                todo = ngettext(
                    "You may convert {count} circle (the numbered centres: stones that turn {player}); A converts all.",
                    "You may convert {count} circles (the numbered centres: stones that turn {player}); A converts all.",
                    len(ready),
                ).format(count=f"<strong>{len(ready)}</strong>", player=esc(colour_word(me)))
            else:
                todo = esc(_("Nothing more to convert."))
            end = _("Then {end_turn} (E).").format(end_turn=f"<strong>{esc(_('End turn'))}</strong>")
            step = f'<p class="step">{stone_icon(me)} {who} — {where}.{done} {todo} {end}</p>'

        rows = []
        for p in state.players:
            after = preview["scores"][p] if preview else None
            change = ""
            if after is not None and after != scores[p]:
                change = f' <span class="rg-after" data-after="{esc(p)}">→ {after}</span>'
            ring_count = sum(1 for v in rings.values() if v == p)
            rows.append(
                f'<tr class="{"to-move" if p == me and not over else ""}" data-player-row="{esc(p)}">'
                f'<th scope="row">{stone_icon(p)} {esc(colour_word(p))}</th>'
                f'<td><b data-held-count="{esc(p)}">{scores[p]}</b>{change}</td>'
                f"<td>{ring_count}</td><td>{on_board[p]}</td></tr>"
            )
        heads = "".join(
            f'<th scope="col">{esc(_(h))}</th>' for h in (N_("player"), N_("held"), N_("rings"), N_("stones"))
        )
        table = (
            f'<table class="rg-scores"><caption>{esc(_("Circles held (the score)"))}</caption>'
            f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )

        last = state.peek() if state.ply else None
        last_text = ""
        if isinstance(last, Turn):
            player = colour_word(state.players[(state.players.index(me) - 1) % len(state.players)])
            if last.point is None:
                head = _("{player} passed").format(player=player)
            else:
                head = _("{player} placed on {point}").format(player=player, point=POINT_NAMES[last.point])
            if last.conversions:
                circles = ", ".join(CIRCLE_NAMES[c] for c in last.conversions)
                head += " " + _("and converted {circles}").format(circles=circles)
            last_text = f'<p class="rg-last">{esc(_("Last turn: {turn}.").format(turn=head))}</p>'
        passes = ""
        if not over and state.passes:
            words = ngettext(
                "{count} pass in a row: the game ends when all {players} players pass in turn.",
                "{count} passes in a row: the game ends when all {players} players pass in turn.",
                state.passes,
            )
            passes = f'<p class="rg-passes">{esc(words.format(count=state.passes, players=len(state.players)))}</p>'
        legend = (
            '<p class="rg-legend"><svg viewBox="-13 -13 26 26" aria-hidden="true"><circle r="11" class="lg-held"/>'
            f"</svg> {esc(_('a held circle (tinted: one point each)'))} "
            '<svg viewBox="-13 -13 26 26" aria-hidden="true"><circle r="11" class="lg-ring"/></svg> '
            f"{esc(_('a ring (its stones are safe; +1 influence on the six circles around)'))}</p>"
        )
        return (
            f'<section class="rg-panel" aria-label="{esc(_("turn and scores"))}">'
            f"{step}{table}{last_text}{passes}{legend}</section>"
        )


@dataclasses.dataclass
class _Scene:
    """One drawing's state: the board shown, the turn being built, and what the last change did."""

    live: bool
    me: str
    place: str | None  # the turn being built: its point (or "pass"), None before
    conv: list[str]  # and the circles it converted so far
    cells: dict[str, str | None]
    holders: dict[str, str]
    rings: dict[str, str]
    convertible: set[str]
    guarded: set[str]  # points in a ring (safe)
    last_point: str | None
    last_conv: list[str]
    flips: dict[str, str] = dataclasses.field(default_factory=dict)  # point -> colour it flips from
    ripples: list[str] = dataclasses.field(default_factory=list)  # circles converting now


def _circle(name: str, classes: str = "", extra: str = "") -> str:
    x, y = CIRCLE_SVG[CIRCLE_INDEX[name]]
    kind = f' class="{classes}"' if classes else ""
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_CIRCLE:.2f}"{kind}{extra}/>'


def _stroke(colour: str) -> str:
    """A stroke attribute in the colour's ink."""
    return f' stroke="{COLOURS[colour][3]}"'


def _frame(ui: dict[str, Any], converting: bool) -> str:
    """The zoomable svg, the hexagonal board's rim, wood and inlay."""
    return (
        f'<div class="rg-wrap zoom-wrap"><svg class="board board-rings phase-{"convert" if converting else "place"}'
        f'{ZOOM.svg_class(ui, FIT)}" {ZOOM.svg_attributes(ui, FIT)} role="group" '
        f'aria-label="{esc(_("rings board: 91 full circles, 216 points where three circles meet"))}">{_defs()}'
        f'<polygon points="{_hexagon(R_HEX + 3)}" class="rim"/>'
        f'<polygon points="{_hexagon(R_HEX)}" class="wood" fill="url(#rg-wood)" filter="url(#rg-grain)"/>'
        f'<polygon points="{_hexagon(R_HEX - 5)}" class="inlay"/>'
    )


def _grooves() -> str:
    """The engraved circles: the partial ones cut by the rim, then the full circles."""
    partial = [_circle(c.id, "partial") for c in GEOMETRY.circles if not c.full]
    full = [_circle(c.id, "groove") for c in GEOMETRY.circles if c.full]
    return f'<g class="grooves" clip-path="url(#rg-clip)" aria-hidden="true">{"".join(partial + full)}</g>'


def _circle_marks(scene: _Scene) -> str:
    """Held circles (the score items), rings, the last turn's conversions, what can be converted now."""
    held = "".join(
        _circle(
            name,
            f"held held-{colour}",
            f' data-held="{name}" data-holder="{colour}" fill="{COLOURS[colour][3]}"{_stroke(colour)}',
        )
        for name, colour in scene.holders.items()
    )
    rings = "".join(
        f'<g class="ring ring-{colour}" data-ring="{name}">{_circle(name, "ring-under")}'
        f"{_circle(name, 'ring-over', _stroke(colour))}</g>"
        for name, colour in scene.rings.items()
    )
    parts = [
        f'<g class="held-circles" aria-hidden="true">{held}</g>',
        f'<g class="rings" aria-hidden="true">{rings}</g>',
    ]
    if scene.last_conv and scene.place is None:
        parts.append(f'<g class="last-converted" aria-hidden="true">{"".join(_circle(n) for n in scene.last_conv)}</g>')
    if scene.convertible:
        parts.append(
            f'<g class="convertible-rims" aria-hidden="true">'
            f"{''.join(_circle(n) for n in sorted(scene.convertible))}</g>"
        )
    for name in scene.ripples:
        parts.append(
            _circle(name, "ripple", ' aria-hidden="true"' + _stroke(cells_colour(scene.cells, name) or scene.me))
        )
    return "".join(parts)


def _turn_marks(scene: _Scene) -> str:
    """The last stone played (a gold ring), or the stone placed in the turn being built (marching ants)."""
    if scene.last_point and scene.place is None:
        return last_ring(*POINT_SVG[POINT_INDEX[scene.last_point]], R_STONE + 2.4)
    if scene.place is not None and scene.place != "pass":
        x, y = POINT_SVG[POINT_INDEX[scene.place]]
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_STONE + 2.6:.1f}" class="placed-ring" aria-hidden="true"/>'
    return ""


def _bar(scene: _Scene, ui: dict[str, Any], targets: dict[str, tuple[float, float]]) -> str:
    """The turn's buttons, under the board (in the board, so the arrow keys reach them)."""
    bar = []
    if scene.live:
        bottom = VIEW_H / 2 + 30
        buttons = (
            [("pass", _("Pass"))]
            if scene.place is None
            else [("back", _("Take back")), ("all", _("Convert all")), ("end", _("End turn"))]
        )
        for k, (name, text) in enumerate(buttons):
            disabled = name == "all" and not scene.convertible
            cls = "primary" if name == "end" else ""
            bar.append(
                f'<button type="button" class="rg-act {cls}" data-target="{name}" tabindex="-1" '
                f'aria-keyshortcuts="{BAR_KEYS[name]}"{" disabled" if disabled else ""}>'
                f"{esc(text)} <kbd>{BAR_KEYS[name]}</kbd></button>"
            )
            if not disabled:
                targets[name] = (-VIEW_W / 4 + k * VIEW_W / 4, bottom)
    hint = ui.get("rg_hint", "")
    return (
        f'<div class="rg-bar" role="group" aria-label="{esc(_("turn"))}">{"".join(bar)}'
        f"{f'<p class=rg-hint>{esc(_(hint))}</p>' if hint and scene.live else ''}</div>"
    )


def where(point: str) -> str:
    """A point in a player's words: how far out ("near the centre") and which way ("upper left")."""
    x, y = POINT_SVG[POINT_INDEX[point]]
    out = math.hypot(x, y) / APOTHEM
    band = _(next(words for limit, words in PLACES if out < limit))
    if out < PLACES[0][0]:
        return band
    side = _(SIDES[round(math.degrees(math.atan2(-y, x)) / 45) % 8])
    return f"{band}, {side}"


def _rules_diagram() -> str:
    """Three circles meeting: stones where they cross; the circle black holds is tinted black."""
    centres = ((40, 34), (80, 34), (60, 68.6))
    circles = "".join(
        f'<circle cx="{x}" cy="{y}" r="23.1" class="rd-circle{" rd-held" if i == 0 else ""}"/>'
        for i, (x, y) in enumerate(centres)
    )
    stones = (
        '<circle cx="60" cy="22.5" r="6" class="rd-black"/><circle cx="40" cy="57.1" r="6" class="rd-black"/>'
        '<circle cx="20" cy="22.5" r="6" class="rd-black"/><circle cx="60" cy="45.5" r="6" class="rd-white"/>'
    )
    return (
        f'<svg class="rules-diagram" viewBox="0 0 230 96" role="img" aria-label="'
        f'{esc(_("three circles meeting; black holds the left circle with three stones on it"))}">{circles}{stones}'
        f'<text x="112" y="30" class="rd-text">{esc(_("black holds"))}</text><text x="112" y="50" class="rd-text">'
        f'{esc(_("the left circle:"))}</text><text x="112" y="70" class="rd-text">{esc(_("one point"))}</text></svg>'
    )


RULES: tuple[RulesSection, ...] = (
    (
        N_("Goal"),
        (N_("Hold the most full circles when the game ends: one point each."),),
    ),
    (
        N_("On your turn"),
        (
            N_("Place a stone on an empty point, where three circles meet, or pass."),
            N_(
                "Then convert as many circles as you may, one after another: every other player's stone on the circle becomes yours."
            ),
        ),
    ),
    (
        N_("When a circle converts"),
        (
            N_(
                "Your influence on a circle is your stones on it, plus one for each of your rings on the six circles around it."
            ),
            N_("You may convert it when your influence is more than everyone else's plus its empty points."),
            N_("Six stones of one colour on one circle make a ring: they are safe for ever."),
            N_("The part circles at the edge never convert, never make rings and never score."),
        ),
    ),
    (
        N_("The end"),
        (N_("When every player has passed in turn, the game ends; the most circles held wins."),),
    ),
    (
        N_("On a phone"),
        (
            N_(
                "The first tap zooms in where you tap; then tap a point to play. Pinch to zoom, ⤢ shows the whole board."
            ),
        ),
    ),
)


def cells_colour(cells: dict[str, str | None], circle: str) -> str | None:
    """The colour most stones on a circle show (for the ripple of a conversion)."""
    counts: dict[str, int] = {}
    for p in CIRCLE_POINTS[CIRCLE_INDEX[circle]]:
        colour = cells[POINT_NAMES[p]]
        if colour:
            counts[colour] = counts.get(colour, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


assert RING_SIZE == 6
BOARD = RingsBoard
