"""triple-domino drawn: ivory triangular tiles on a green table, the hand of the player to move beside it.

The layout grows from the middle; the drawing fits it automatically, and the
zoom buttons, a pinch, the mouse wheel and a drag look closer (boards/zoom.py). Choose a tile
from your hand (click it, or keys 1-9, 0, N): every open place where it fits
lights up, with the tile shown as it would lie there; where it fits more than
one way round, the ↻ on it (or key T) turns it to the next fitting rotation.
Click a lit place to lay it. Draw (−5) and Pass sit under the hand.

Rotation is automatic: every open place already has two corners fixed (it shares an
edge with the layout), so a tile that is not a triple fits it at most one way round
under these rules, and the ghost tile shows that way. The ↻ control and key T only
appear and act where more than one rotation fits (kept for any rule variant that
allows it; the engine's rules never produce one). The last
tile laid is outlined in its player's colour, with what it scored: the bridge
corner, the two matched edges of a double connection, the closed hexagon.

Hidden information: only the hand of a human player is ever drawn. The board
learns who is human from being asked to draw interactively (which the page does
only for a human to move); with several humans (hot seat) the hand shown is the
one of the player to move. Chance moves are written in the move list without
the tiles they reveal (`public_text`).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from engine.games.triple_domino import CORNER_NUMBERS, GAME, Deal, Lay, parse_tile, position_name, tile_name

from ui.i18n import DEFAULT, N_, _, language, ngettext
from ui.words import colour_word, ending

from . import Board, Drawing, RulesSection, esc, rules_html
from .svg import Plan, focus_polygon, hit_polygon, location
from .zoom import Frame, Zoom

S = 60.0  # px per tile edge
ASPECT = 0.84  # the layout view: height / width
MIN_VIEW = 5.2 * S  # the fitted view is never narrower than this
ZOOM = Zoom("td_view", most=8, wheel=True)  # a big layout's fit is wide: zoom far enough for 44 px places
NUMBER_INK = ("#4a4a4a", "#c0392b", "#2467b0", "#23853a", "#cf5a00", "#7d3c98")
SEAT_INK = ("#c5382e", "#2964a6", "#38a969", "#e59211", "#612f76", "#3fe5c4")
KEYS = "1234567890"
PLAN = Plan(S)  # the first tile's lattice point at the origin; the view fits whatever is laid
_CORNERS = GAME.geometry().cell_corners
assert _CORNERS is not None  # the tile game's geometry names each cell's corners
CELL_CORNERS: Callable[[str], tuple[tuple[float, float], ...]] = _CORNERS


def svg_xy(x: float, y: float) -> tuple[float, float]:
    return PLAN.at(x, y)


def corners_of(position: str) -> list[tuple[float, float]]:
    return [svg_xy(x, y) for x, y in CELL_CORNERS(position)]


def _inset(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy)
        k = (d - 2 * by) / d if d else 1
        out.append((cx + (x - cx) * k, cy + (y - cy) * k))
    return out


def _poly(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _numbers(points: list[tuple[float, float]], numbers: tuple[int, ...] | list[int], size: float) -> str:
    """The three numbers, each in its corner (upright: a screen cannot be turned like a table)."""
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    out = []
    for (x, y), n in zip(points, numbers):
        nx, ny = x + (cx - x) * 0.52, y + (cy - y) * 0.52
        out.append(
            f'<text x="{nx:.1f}" y="{ny:.1f}" class="num n{n}" font-size="{size:.1f}" fill="{NUMBER_INK[n]}">{n}</text>'
        )
    return " ".join(out)  # spaced, so the numbers read as three (a place names its corners "2, 2, 2")


def tile_svg(
    points: list[tuple[float, float]], numbers: tuple[int, ...] | list[int], cls: str = "tile", size: float = 13.5
) -> str:
    body = _inset(points, 2.6)
    shadow = [(x + 1.6, y + 2.2) for x, y in body]
    return (
        f'<polygon points="{_poly(shadow)}" class="t-shadow"/>'
        f'<polygon points="{_poly(body)}" class="{cls}-face"/>'
        f'<polygon points="{_poly(_inset(points, 7))}" class="{cls}-bevel"/>' + _numbers(points, numbers, size)
    )


def hand_tile_icon(name: str) -> str:
    a, b, c = (int(n) for n in name.split("-"))
    pts = [(30.0, 2.0), (58.0, 50.5), (2.0, 50.5)]
    return f'<svg class="td-icon" viewBox="0 0 60 53" aria-hidden="true">{tile_svg(pts, (a, b, c), "tile", 16)}</svg>'


DEFS = (
    '<defs><radialGradient id="td-felt" cx=".5" cy=".45" r=".75"><stop offset="0" stop-color="#2f7a52"/>'
    '<stop offset="1" stop-color="#1b5237"/></radialGradient>'
    '<linearGradient id="td-ivory" x1="0" y1="0" x2=".6" y2="1"><stop offset="0" stop-color="#fffdf6"/>'
    '<stop offset="1" stop-color="#eadfc4"/></linearGradient></defs>'
)


def _meetings(laid: list[dict[str, Any]]) -> dict[tuple[float, float], int]:
    """How many laid tiles meet at each lattice point (six: a closed hexagon)."""
    meet: dict[tuple[float, float], int] = {}
    for tile in laid:
        for corner in tile["corners"]:
            key = (round(corner["x"], 3), round(corner["y"], 3))
            meet[key] = meet.get(key, 0) + 1
    return meet


def _laid_tiles(laid: list[dict[str, Any]], last_at: str | None, last_by: str | None) -> str:
    """The tiles laid, each an image labelled with its numbers (the last one outlined by its marks)."""
    tiles = ['<g class="laid">']
    for tile in laid:
        pts = [svg_xy(c["x"], c["y"]) for c in tile["corners"]]
        numbers = [c["number"] for c in tile["corners"]]
        is_last = tile["at"] == last_at
        label = _("{at}: tile {tile}, corners {a}, {b}, {c} clockwise from the point").format(
            at=tile["at"], tile=tile["tile"], a=numbers[0], b=numbers[1], c=numbers[2]
        )
        label += ", " + _("laid last by {player}").format(player=colour_word(last_by)) if is_last and last_by else ""
        tiles.append(
            f'<g class="laid-tile{" last" if is_last else ""}" data-tile-at="{tile["at"]}" '
            f'data-tile="{tile["tile"]}" role="img" aria-label="{esc(label)}">{tile_svg(pts, numbers)}</g>'
        )
    tiles.append("</g>")
    return "".join(tiles)


def seat_ink(players: tuple[str, ...], player: str) -> str:
    return SEAT_INK[players.index(player) % len(SEAT_INK)] if player in players else "#333"


class TripleDominoBoard(Board):
    picture_plies = 24  # a few tiles laid in a cluster show the game; twelve moves are mostly draws

    # ----- what the player to move can do --------------------------------------------------
    def _options(self, state: Any) -> dict[str, Any]:
        """Legal lays by tile and position (rotations), and whether draw and pass are legal."""
        lays: dict[str, dict[str, list[int]]] = {}
        can_draw = can_pass = False
        for move in state.legal_moves():
            if isinstance(move, Lay):
                name = tile_name(move.tile)
                at = _position(move)
                lays.setdefault(name, {}).setdefault(at, []).append(move.rotation)
            elif str(move) == "draw":
                can_draw = True
            elif str(move) == "pass":
                can_pass = True
        return {"lays": lays, "draw": can_draw, "pass": can_pass}

    def _selected(self, state: Any, ui: dict[str, Any], hand: list[str]) -> str | None:
        if state.start_tile is not None:
            return tile_name(state.start_tile)
        chosen = ui.get("td_tile")
        if chosen in hand:
            return chosen
        drawn = state.to_position()["turn"]["drawn"]
        if state.draws and drawn and drawn[-1] in hand:
            return drawn[-1]
        return None

    def _rotation(self, ui: dict[str, Any], tile: str, at: str, rotations: list[int]) -> int:
        turns = ui.get("td_rot", {}).get(f"{tile}@{at}", 0)
        return rotations[turns % len(rotations)]

    def _learn(self, state: Any, ui: dict[str, Any], interactive: bool) -> None:
        """Remember who is human: the page asks for an interactive drawing only for a human to move."""
        if interactive and not state.is_over() and state.current_player in state.players:
            humans = ui.setdefault("td_humans", [])
            if state.current_player not in humans:
                humans.append(state.current_player)

    def _shown_hand(self, state: Any, ui: dict[str, Any], interactive: bool) -> str | None:
        """Whose hand may be drawn: the human to move, else the only human known (never an AI's)."""
        if interactive:
            return state.current_player
        humans = ui.get("td_humans", [])
        return humans[0] if len(humans) == 1 else None

    # ----- the view: fitted to the layout, or the player's own zoom and pan ----------------------
    def _fit(self, state: Any) -> Frame:
        xs, ys = [], []
        places = [t["at"] for t in state.layout_tiles()] + state.open_positions()
        for at in places or ["U0,0"]:
            for x, y in corners_of(at):
                xs.append(x)
                ys.append(y)
        pad = 0.45 * S
        width = max(max(xs) - min(xs) + 2 * pad, (max(ys) - min(ys) + 2 * pad) / ASPECT, MIN_VIEW)
        return Frame((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, width, width * ASPECT)

    # ----- the layout --------------------------------------------------------------------------
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        self._learn(state, ui, interactive)
        over = state.is_over()
        live = interactive and not over and not state.is_chance_node()
        position = state.to_position()
        hand = position["hands"].get(state.current_player, []) if live else []
        options = self._options(state) if live else {"lays": {}, "draw": False, "pass": False}
        selected = self._selected(state, ui, hand) if live else None
        fits = options["lays"].get(selected, {}) if selected else {}
        laid = state.layout_tiles()
        fit = self._fit(state)
        last_at, last_by, last_items = self._last_lay(state)
        opens, targets = self._opens(state, ui, selected, fits) if live else ("", {})
        layout = ngettext(
            "triple-domino layout: {count} tile laid", "triple-domino layout: {count} tiles laid", len(laid)
        )
        layout = layout.format(count=len(laid))
        parts = [
            f'<div class="td-wrap zoom-wrap"><svg class="board board-triple-domino{ZOOM.svg_class(ui, fit)}" '
            f'{ZOOM.svg_attributes(ui, fit)} role="group" '
            f'aria-label="{esc(layout)}">',
            DEFS,
            f'<rect x="{fit.cx - fit.width:.0f}" y="{fit.cy - fit.height:.0f}" width="{2 * fit.width:.0f}" '
            f'height="{2 * fit.height:.0f}" fill="url(#td-felt)" class="felt"/>',
            _laid_tiles(laid, last_at, last_by),
            self._score_marks(state, last_at, last_by, laid, _meetings(laid), last_items) if last_at else "",
            f'<g class="opens">{opens}</g></svg>',
            f"{ZOOM.controls(ui, fit, _('the layout'))}</div>",
        ]
        return Drawing("".join(parts), targets)

    def _opens(
        self,
        state: Any,
        ui: dict[str, Any],
        selected: str | None,
        fits: dict[str, list[int]],
    ) -> tuple[str, dict[str, tuple[float, float]]]:
        """Open places: every one answers a click; the ones the chosen tile fits are lit, with the tile shown."""
        targets: dict[str, tuple[float, float]] = {}
        opens = []
        for at in state.open_positions():
            pts = corners_of(at)
            mx, my = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
            rotations = fits.get(at)
            inner = [f'<polygon points="{_poly(_inset(pts, 3))}" class="slot"/>']
            if rotations and selected:
                rot = self._rotation(ui, selected, at, rotations)
                numbers = CORNER_NUMBERS[parse_tile(selected)][rot]
                inner.append(f'<g class="ghost">{tile_svg(pts, numbers, "ghost")}</g>')
                what = _("{tile} fits here, corners {a}, {b}, {c}").format(
                    tile=selected, a=numbers[0], b=numbers[1], c=numbers[2]
                )
                if len(rotations) > 1:
                    what += " " + _("({count} ways round: T turns it)").format(count=len(rotations))
                    inner.append(
                        f'<g class="rotate" data-board-action="rotate" data-value="{at}" '
                        f'aria-hidden="true"><circle cx="{mx:.1f}" cy="{my:.1f}" r="11"/>'
                        f'<text x="{mx:.1f}" y="{my + 5:.1f}">↻</text></g>'
                    )
                cls = "open fits"
            else:
                need = state.required_corners(at)
                shown = ", ".join(_("any") if n is None else str(n) for n in need)
                what = _("open, corners must show {numbers}").format(numbers=shown)
                what += "; " + _("{tile} does not fit").format(tile=selected) if selected else ""
                cls = "open"
            inner += [hit_polygon(_poly(pts)), focus_polygon(_poly(_inset(pts, 1.5)))]
            opens.append(location(at, f"{at}: {what}", inner, [cls], True))
            if rotations or not fits:
                targets[at] = (mx, my)
        return "".join(opens), targets

    def _last_lay(self, state: Any) -> tuple[str | None, str | None, list[dict[str, Any]]]:
        """The last tile laid this round: (position, who laid it, what that lay scored)."""
        history = state.history
        for back, move in enumerate(reversed(history)):
            if isinstance(move, Deal):
                break
            if isinstance(move, Lay):
                probe = state.copy()
                for _step in range(back + 1):
                    probe.pop()
                player = probe.current_player
                probe.push_unchecked(move)
                return position_name(move.at), player, probe.last_score_items
        return None, None, []

    def _score_marks(
        self,
        state: Any,
        at: str,
        by: str | None,
        laid: list[dict[str, Any]],
        meet: dict[tuple[float, float], int],
        items: list[dict[str, Any]],
    ) -> str:
        reasons = [i["reason"] for i in items]
        pts = corners_of(at)
        ink = seat_ink(state.players, by) if by else "#ffd23a"
        marks = [
            f'<g class="score-marks" aria-hidden="true">'
            f'<polygon points="{_poly(_inset(pts, 2.6))}" class="last-outline" stroke="{ink}"/>'
        ]
        engine_corners = [(round(x, 3), round(y, 3)) for x, y in CELL_CORNERS(at)]
        if any("hexagon" in r for r in reasons):
            for (ex, ey), (sx, sy) in zip(engine_corners, pts):
                if meet.get((ex, ey)) == 6:
                    hexagon = [
                        (sx + S * math.cos(math.radians(60 * k)), sy + S * math.sin(math.radians(60 * k)))
                        for k in range(6)
                    ]
                    marks.append(f'<polygon points="{_poly(hexagon)}" class="mark-hexagon"/>')
        neighbours = []
        for tile in laid:
            if tile["at"] == at:
                continue
            shared = [
                i
                for i, c in enumerate(engine_corners)
                if any((round(t["x"], 3), round(t["y"], 3)) == c for t in tile["corners"])
            ]
            if len(shared) == 2:
                neighbours.append(shared)
        if "double connection" in reasons:
            for a, b in neighbours:
                marks.append(
                    f'<line x1="{pts[a][0]:.1f}" y1="{pts[a][1]:.1f}" x2="{pts[b][0]:.1f}" y2="{pts[b][1]:.1f}" '
                    f'class="mark-edge"/>'
                )
        if "bridge" in reasons and len(neighbours) == 1:
            corner = ({0, 1, 2} - set(neighbours[0])).pop()
            marks.append(f'<circle cx="{pts[corner][0]:.1f}" cy="{pts[corner][1]:.1f}" r="9" class="mark-bridge"/>')
        total = sum(i["points"] for i in items if i["player"] == by)
        if total:
            mx, my = sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3
            marks.append(
                f'<g class="gain"><rect x="{mx - 11.5:.1f}" y="{my - 6.5:.1f}" width="23" height="13" rx="6.5" '
                f'fill="{ink}"/><text x="{mx:.1f}" y="{my + 3.1:.1f}">{total:+d}</text></g>'
            )
        marks.append("</g>")
        return "".join(marks)

    # ----- clicks, keys, panel actions -----------------------------------------------------------
    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        ui.pop("td_hint", None)
        if target in ("draw", "pass"):
            return target
        position = state.to_position()
        hand = position["hands"].get(state.current_player, [])
        selected = self._selected(state, ui, hand)
        if selected is None:
            ui["td_hint"] = N_("Choose a tile from your hand first (click it, or keys 1–9).")
            return None
        fits = self._options(state)["lays"].get(selected, {})
        rotations = fits.get(target)
        rot = self._rotation(ui, selected, target, rotations) if rotations else 0
        return f"lay {selected} @ {target} r{rot}"  # one that does not fit is refused by the engine, with its reason

    def action(self, state: Any, name: str, value: str, ui: dict[str, Any]) -> None:
        if name == "tile":
            ui["td_tile"] = value
            ui.pop("td_hint", None)
        elif name == "rotate":
            self._turn_tile(state, ui, value)
        else:
            ZOOM.act(ui, name, value, self._fit(state))

    def _turn_tile(self, state: Any, ui: dict[str, Any], at: str | None) -> bool:
        """Turn the chosen tile to its next fitting rotation on `at` (default: the cursor's place)."""
        hand = state.to_position()["hands"].get(state.current_player, [])
        selected = self._selected(state, ui, hand)
        if not selected:
            return False
        fits = self._options(state)["lays"].get(selected, {})
        at = at if at in fits else ui.get("cursor") if ui.get("cursor") in fits else next(iter(fits), None)
        if at is None or len(fits[at]) < 2:
            return False
        turns = ui.setdefault("td_rot", {})
        key = f"{selected}@{at}"
        turns[key] = turns.get(key, 0) + 1
        ui["cursor"] = at
        return True

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool | str:
        """Digits choose a tile, N the next one, T turns it, D draws, P passes, + − F zoom."""
        k = key.lower()
        hand = state.to_position()["hands"].get(state.current_player, [])
        if k in KEYS:
            index = KEYS.index(k)
            if index < len(hand):
                self.action(state, "tile", hand[index], ui)
                return True
            return False
        if k == "n" and hand:
            current = self._selected(state, ui, hand)
            index = (hand.index(current) + 1) % len(hand) if current in hand else 0
            self.action(state, "tile", hand[index], ui)
            return True
        if k == "t":
            return self._turn_tile(state, ui, None)
        if k in ("d", "p"):
            return "draw" if k == "d" else "pass"
        how = {"+": "in", "=": "in", "-": "out", "_": "out", "f": "fit"}.get(k)
        if how:
            ZOOM.act(ui, "zoom", how, self._fit(state))
            return True
        return False

    def key_help(self) -> str:
        return _(
            "1–9 and 0 choose a tile (N the next), T turns it where it fits two ways, D draws (−5), P passes, "
            "+ and − zoom, F fits the layout"
        )

    def reset(self, ui: dict[str, Any]) -> None:
        super().reset(ui)
        for k in ("td_tile", "td_rot", "td_hint"):
            ui.pop(k, None)

    # ----- words ----------------------------------------------------------------------------
    def describe(self, before: Any, move: Any, after: Any) -> str:
        """ "lays 0-4-5, +14 (bridge)", "draws a tile, −5", "passes"."""
        mover = before.current_player
        gained = [i for i in after.last_score_items if i["player"] == mover]
        points = sum(i["points"] for i in gained)
        if isinstance(move, Lay):
            words = _("lays {tile}").format(tile=tile_name(move.tile))
            bonus = [reason_words(i["reason"]) for i in gained if not i["reason"].startswith("tile")]
        elif str(move) in ("draw", "pass"):
            words, bonus = (_("draws a tile") if str(move) == "draw" else _("passes")), []
        else:
            return str(move)
        if points:
            words += f", {points:+d}".replace("-", "−") + (f" ({', '.join(bonus)})" if bonus else "")
        return words

    def rules(self) -> str:
        return rules_html(_rules_diagram(), RULES)

    def public_text(self, text: str) -> str:
        """A chance move as the move list may show it: no dealt hands, no drawn tiles."""
        if text.startswith("deal "):
            body, _sep, start = text[5:].partition(" start ")
            hands = body.split("|")
            size = len(hands[0].split(",")) if hands and hands[0] else 0
            if len(hands) > 1:
                return _("deal: {count} tiles each").format(count=size)
            if start:
                return _("deal: {count} tiles, start tile {tile}").format(count=size, tile=start)
            return _("deal: {count} tiles").format(count=size)
        if text.startswith("draw ") and text != "draw":
            return _("a tile drawn")
        return text

    # ----- beside the layout -----------------------------------------------------------------------
    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        self._learn(state, ui, interactive)
        over = state.is_over()
        live = interactive and not over and not state.is_chance_node()
        position = state.to_position()
        players = state.players
        me = state.current_player if state.current_player in players else position["to_move"]
        shown = None if over else self._shown_hand(state, ui, live)
        options = self._options(state) if live else {"lays": {}, "draw": False, "pass": False}
        hand = position["hands"].get(shown, []) if shown else []
        selected = self._selected(state, ui, hand) if live else None
        drawn = position["turn"]["drawn"] if live else []
        solo = len(players) == 1

        pool = len(position["pool"])
        round_line = ngettext("Round {round} · pool {count} tile", "Round {round} · pool {count} tiles", pool).format(
            round=position["round"], count=f"<strong data-pool>{pool}</strong>"
        )
        if solo and state.options.solitaire_draw_limit:
            draws_left = max(0, state.options.solitaire_draw_limit - state.solitaire_draws)
            round_line += " · " + _("draws left {count}").format(count=draws_left)
        info = [f'<p class="td-round">{round_line}</p>']
        who = f"<strong>{esc(colour_word(me))}</strong>"
        if over:
            outcome = state.outcome()  # the engine's own account (its round and totals) is English
            result = position["result"] or "" if language() == DEFAULT else ending(outcome) if outcome else ""
            info.append(f'<p class="td-step"><strong>{esc(_("Game over."))}</strong> {esc(result)}</p>')
        elif live:
            if state.start_tile is not None:
                step = _("{player} holds the highest tile and opens the round: click the middle to lay {tile} (+5).")
                step = step.format(player=who, tile=f"<strong>{esc(tile_name(state.start_tile))}</strong>")
            elif state.draws:
                step = ngettext(
                    "{player} drew {count} tile this turn ({penalty}).",
                    "{player} drew {count} tiles this turn ({penalty}).",
                    state.draws,
                ).format(player=who, count=state.draws, penalty=f"−{5 * state.draws}")
                if options["lays"]:
                    then = (
                        _("Lay it if it fits, draw again or pass.")
                        if options["draw"]
                        else _("Lay it if it fits, pass.")
                    )
                else:
                    then = _("It does not fit: draw again or pass.") if options["draw"] else _("It does not fit: pass.")
                step += " " + esc(then)
            elif options["lays"]:
                step = _("{player}: choose a tile, then a lit place (green) to lay it.").format(player=who)
            elif options["draw"]:
                step = _("{player}: no tile fits. Draw one (−5).").format(player=who)
            else:
                step = _("{player}: no tile fits and nothing can be drawn: pass.").format(player=who)
            info.append(f'<p class="td-step">{step}</p>')
        else:
            info.append(
                f'<p class="td-step"><span class="dot dot-{esc(me)}"></span> '
                f"{_('{player} is to play.').format(player=who)}</p>"
            )
        hint = ui.get("td_hint")
        if hint and live:
            info.append(f'<p class="td-hint" role="note">{esc(_(hint))}</p>')

        # the hand
        hand_html = ""
        if shown:
            buttons = []
            for i, name in enumerate(hand):
                places = options["lays"].get(name, {})
                key = KEYS[i] if i < len(KEYS) else ""
                classes = ["td-tile"] + (["fits"] if places else []) + (["new"] if name in drawn else [])
                label = name
                if places:
                    label += ", " + ngettext("fits {count} place", "fits {count} places", len(places)).format(
                        count=len(places)
                    )
                elif live:
                    label += ", " + _("does not fit now")
                label += ", " + _("just drawn") if name in drawn else ""
                label += " " + _("(key {key})").format(key=key) if key and live else ""
                if live:
                    buttons.append(
                        f'<button type="button" class="{" ".join(classes)}" data-board-action="tile" data-value="{name}" '
                        f'aria-pressed="{"true" if name == selected else "false"}">{hand_tile_icon(name)}'
                        f'<span class="sr-only">{esc(label)}</span><span class="td-key" aria-hidden="true">{key}</span>'
                        "</button>"
                    )
                else:
                    buttons.append(
                        f'<span class="{" ".join(classes)}" role="img" aria-label="{esc(label)}">'
                        f"{hand_tile_icon(name)}</span>"
                    )
            value = sum(int(n) for name in hand for n in name.split("-"))
            if live or len(ui.get("td_humans", [])) == 1:
                title = _("Your hand")
            else:
                title = _("{player}'s hand").format(player=colour_word(shown))
            count = ngettext("{count} tile, worth {value}", "{count} tiles, worth {value}", len(hand)).format(
                count=len(hand), value=value
            )
            nothing = f"<em>{esc(_('empty'))}</em>"
            hand_html = (
                f'<div class="td-hand" data-hand-of="{esc(shown)}"><p>{esc(title)} ({esc(colour_word(shown))}): '
                f"{esc(count)}</p>"
                f'<div class="td-tiles">{"".join(buttons) or nothing}</div></div>'
            )
        elif over:
            rows = "".join(
                f'<p class="td-final-hand" data-final-hand="{esc(p)}">{esc(colour_word(p))}: '
                f"{esc(', '.join(position['hands'][p]) or _('no tiles'))}</p>"
                for p in players
            )
            hand_html = f'<div class="td-hand"><p>{esc(_("Tiles left in hand at the end:"))}</p>{rows}</div>'
        buttons_html = ""
        if live:

            def act(target: str, text: str, legal: bool, key: str) -> str:
                muted = "" if legal else ' aria-disabled="true"'
                return (
                    f'<button type="button" class="td-act{"" if legal else " muted"}" data-target="{target}" '
                    f'aria-keyshortcuts="{key}"{muted}>{esc(text)} <kbd>{key}</kbd></button>'
                )

            turnable = selected and any(len(r) > 1 for r in options["lays"].get(selected, {}).values())
            buttons_html = (
                '<div class="td-actions">'
                + (
                    '<button type="button" class="td-act" data-board-action="rotate" data-value="" '
                    f'aria-keyshortcuts="T">↻ {esc(_("Turn"))} <kbd>T</kbd></button>'
                    if turnable
                    else ""
                )
                + act("draw", _("Draw −5"), options["draw"], "D")
                + act("pass", _("Pass"), options["pass"], "P")
                + "</div>"
            )
        others = [
            f'<li><span class="dot dot-{esc(p)}"></span> {esc(colour_word(p))}: '
            f"{esc(ngettext('{count} tile', '{count} tiles', len(position['hands'][p])).format(count=len(position['hands'][p])))}</li>"
            for p in players
            if p != shown
        ]
        others_html = (
            f'<ul class="td-others" aria-label="{esc(_("tiles in the other hands"))}">{"".join(others)}</ul>'
            if others and not over
            else ""
        )

        # scoring: the last move, the round so far, and per-round totals
        last_items = state.last_score_items
        if not last_items and state.ply and state.history[-1].__class__.__name__ in ("Drawn", "Deal"):
            probe = state.copy()  # the last decision is just before the tile that came out of the pool
            probe.pop()
            last_items = probe.last_score_items
        last_html = ""
        if last_items:
            text = ", ".join(
                f'<span class="item{" bonus" if not i["reason"].startswith("tile") else ""}'
                f'{" penalty" if i["points"] < 0 else ""}">{esc(colour_word(i["player"]))} {i["points"]:+d} '
                f"{esc(reason_words(i['reason']))}</span>"
                for i in last_items
            )
            last_html = f'<p class="td-last" data-last-score>{_("Last move scored: {items}").format(items=text)}</p>'
        log = [i for i in state.score_items if i["round"] == position["round"]][-7:]
        recent = "".join(
            f'<li class="{"penalty" if i["points"] < 0 else ""}"><span class="dot dot-{esc(i["player"])}"></span>'
            f"{esc(colour_word(i['player']))} <b>{i['points']:+d}</b> {esc(reason_words(i['reason']))}</li>"
            for i in reversed(log)
        )
        recent_html = (
            f'<details class="td-log" open><summary>{esc(_("This round"))}</summary><ol>{recent}</ol></details>'
            if recent
            else ""
        )
        rounds: dict[int, dict[str, int]] = {}
        for i in state.score_items:
            rounds.setdefault(i["round"], {p: 0 for p in players})[i["player"]] += i["points"]
        head = "".join(
            f'<th scope="col"><span class="dot dot-{esc(p)}"></span>{esc(colour_word(p))}</th>' for p in players
        )
        body = "".join(
            f'<tr><th scope="row">{esc(_("earlier")) if r == 0 else r}</th>'
            + "".join(f'<td data-round="{r}" data-player="{esc(p)}">{v[p]}</td>' for p in players)
            + "</tr>"
            for r, v in sorted(rounds.items())
        )
        totals = state.scores()
        body += (
            f'<tr class="total"><th scope="row">{esc(_("total"))}</th>'
            + "".join(f'<td data-total="{esc(p)}">{totals[p]}</td>' for p in players)
            + "</tr>"
        )
        if solo:
            caption = _("Scores by round")
        else:
            caption = _("Scores by round (game to {target})").format(target=state.options.target_score)
        table = (
            f'<table class="td-rounds"><caption>{esc(caption)}</caption>'
            f'<thead><tr><th scope="col">{esc(_("round"))}</th>{head}</tr></thead><tbody>{body}</tbody></table>'
        )
        return (
            f'<section class="td-panel" aria-label="{esc(_("hand and scores"))}">{"".join(info)}{hand_html}{buttons_html}'
            f"{others_html}{last_html}{recent_html}{table}</section>"
        )


REASON_WORDS = {  # the engine's score reasons → the words shown for them
    "draw": N_("draw"),
    "empty pool": N_("empty pool"),
    "start tile": N_("start tile"),
    "hexagon": N_("hexagon"),
    "double connection": N_("double connection"),
    "bridge": N_("bridge"),
    "last tile": N_("last tile"),
    "tiles left in the other hands": N_("tiles left in the other hands"),
    "blocked: tiles left in the other hands": N_("blocked: tiles left in the other hands"),
    "blocked: own tiles left": N_("blocked: own tiles left"),
}


def reason_words(reason: str) -> str:
    """A score's reason in the language in use: "tile 5-5-5", "bridge", "2 hexagons"."""
    if reason in REASON_WORDS:
        return _(REASON_WORDS[reason])
    if reason.startswith("tile "):
        return _("tile {tile}").format(tile=reason[5:])
    count, _space, rest = reason.partition(" ")
    if rest == "hexagons" and count.isdigit():
        return ngettext("{count} hexagon", "{count} hexagons", int(count)).format(count=count)
    return reason


def _rules_diagram() -> str:
    """Two tiles sharing an edge: the numbers at both ends of the shared edge match."""
    left = [(10.0, 80.0), (50.0, 10.7), (90.0, 80.0)]
    right = [(50.0, 10.7), (130.0, 10.7), (90.0, 80.0)]
    return (
        f'<svg class="rules-diagram" viewBox="0 0 250 90" role="img" aria-label="'
        f'{esc(_("two tiles side by side: the shared edge shows 3 and 5 on both"))}">'
        f"{tile_svg(left, (2, 3, 5), 'rd-tile', 14)}"
        f'{tile_svg(right, (3, 1, 5), "rd-tile", 14)}<line x1="50" y1="10.7" x2="90" y2="80" class="rd-line"/>'
        f'<text x="142" y="40" class="rd-text">{esc(_("edges and"))}</text>'
        f'<text x="142" y="60" class="rd-text">{esc(_("corners match"))}</text></svg>'
    )


RULES: tuple[RulesSection, ...] = (
    (
        N_("Goal"),
        (
            N_(
                "Score the most points over the rounds; the game ends after the round in which someone reaches the target (300)."
            ),
        ),
    ),
    (
        N_("On your turn"),
        (
            N_(
                "Lay a tile from your hand against the layout so that the numbers of every shared edge and every touching corner match."
            ),
            N_("Cannot or will not lay: draw (−5 each, up to three) and lay the tile just drawn if it fits, or pass."),
        ),
    ),
    (
        N_("Scoring"),
        (
            N_("A tile scores its three numbers."),
            N_("Bridge +30, double connection +25, closing a hexagon +40."),
            N_("The highest triple opens the round (+5)."),
            N_("Laying your last tile ends the round: +20 and the values left in the other hands."),
        ),
    ),
)


def _position(move: Any) -> str:
    return position_name(move.at)


BOARD = TripleDominoBoard
