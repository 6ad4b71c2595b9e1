"""morris drawn: the wooden board of three nested squares joined at their midpoints.

24 points (`a1`..`g7`), white and black men. A turn is one engine move
(`d2`, `d2-d3`, `d2xa1`, `d2-d3xa1`) built here over several clicks:

- placing: a click on an empty point places;
- moving (or flying): a click on one of your men selects it (its destinations
  glow), a click on a destination moves it;
- a placement or a step that closes a mill is held back: the man stands on its
  new point, the mill lights up and the opponent's removable men glow red; a
  click on one of them completes the move (a click on the new point again, or
  Cancel, takes the step back).

Closed mills are drawn along their line (the one the last move closed in gold);
the last move is marked from → to, and a man it took is shown as a fading ghost.
Beside the board: each side's men in hand, on the board and lost, its phase,
and what to do now.
"""

from __future__ import annotations

import re
from typing import Any

from engine import IllegalMoveError
from engine.games import morris as M

from ui.i18n import N_, _, ngettext
from ui.words import ending

from . import Board, Drawing, RulesSection, esc, rules_html
from .svg import Plan, StoneLook, focus_circle, gold, grain, hit_circle, last_ring, linear, location, radial, stone

NAMES = M.POINT_NAMES
STEP = 62
MARGIN = 58
VIEW = 2 * MARGIN + 6 * STEP  # 488
PLAN = Plan(STEP, (VIEW / 2, VIEW / 2))  # d4, the empty centre, in the middle of the view
CENTRES = PLAN.centres(M.GEOMETRY)
R_MAN, R_DOT, R_HIT = 23.5, 6.5, 29
SIDES = ("white", "black")
KEY_CANCEL = ("c", "C", "x", "X")
LOOK = StoneLook("mo", (1.6, 2.4), shadow="man-shadow", body="man-body", group="man man-{colour}{extra}", groove=0.62)


MAN_WORDS = {"white": N_("white man"), "black": N_("black man")}
PLACE_WORDS = {"white": N_("place a white man here"), "black": N_("place a black man here")}
REMOVE_WORDS = {  # {who} removes one of the other side's men
    "white": N_("{who} removes a black man: pick one of those glowing red."),
    "black": N_("{who} removes a white man: pick one of those glowing red."),
}
PHASE_WORDS = {"placing": N_("placing"), "moving": N_("moving"), "flying": N_("flying")}
SIDE_WORDS = {"white": N_("White"), "black": N_("Black")}


def centre(name: str) -> tuple[float, float]:
    return CENTRES[name]


DEFS = (
    "<defs>"
    + linear(
        "mo-wood",
        (
            ("0", "#c99a5f"),
            (".18", "#d9ae72"),
            (".35", "#b8844a"),
            (".55", "#d6a96b"),
            (".78", "#c08d52"),
            ("1", "#d3a468"),
        ),
        y2="0",
    )
    + grain("mo-grain", "0.18 0.006", 3, 11, "0 0 0 0 0.32  0 0 0 0 0.18  0 0 0 0 0.06  0 0 0 0.75 -0.18")
    + radial("mo-white", (("0", "#ffffff"), (".6", "#efebe1"), ("1", "#c9c1ae")), ".38", ".34", ".72")
    + radial("mo-black", (("0", "#5a5a5e"), (".55", "#26262a"), ("1", "#0b0b0c")), ".38", ".34", ".72")
    + gold("mo-gold")
    + "</defs>"
)


def man_svg(colour: str, x: float, y: float, r: float = R_MAN, extra: str = "") -> str:
    """One flat turned man: a disc with a shallow groove, casting a small shadow."""
    return stone(LOOK, colour, x, y, r, extra)


def man_icon(colour: str, faded: bool = False) -> str:
    """A small man for the panel (the board's gradients are on the page with it)."""
    return (
        f'<svg class="man-icon{" faded" if faded else ""}" viewBox="0 0 30 30" aria-hidden="true">'
        f"{man_svg(colour, 14, 14, 12)}</svg>"
    )


class MorrisBoard(Board):
    # ----- where the turn stands --------------------------------------------------------
    def _stage(self, state: Any, ui: dict[str, Any]) -> dict[str, Any]:
        """The step of the turn the side to move is at, from the legal moves and `ui`.

        stage: 'place' (click an empty point), 'pick' (click a man to move),
        'dest' (a man is selected: click where it goes), 'remove' (a mill closed:
        click the opponent's man to take), or 'none' (game over / not a turn).
        """
        if state.is_over() or state.is_chance_node():
            return {"stage": "none", "legal": set(), "moves": []}
        mover = state.current_player
        moves = list(state.legal_moves())
        phase = state.phase(mover)
        named = [
            (None if m.source is None else NAMES[m.source], NAMES[m.target], None if m.take is None else NAMES[m.take])
            for m in moves
        ]
        info: dict[str, Any] = {"mover": mover, "phase": phase, "moves": named, "selected": None, "pending": None}
        pending = ui.get("pending")
        if pending:
            src, dst = pending[0] or None, pending[1]
            takes = {t for s, d, t in named if s == src and d == dst and t is not None}
            if takes:
                info.update(stage="remove", pending=(src, dst), legal=takes)
                return info
            ui.pop("pending", None)
        if phase == "placing":
            info.update(stage="place", legal={d for s, d, _removed in named if s is None})
            return info
        sources = {s for s, _dest, _removed in named}
        selected = ui.get("selected")
        if selected in sources:
            info.update(
                stage="dest", selected=selected, legal={d for s, d, _removed in named if s == selected}, movable=sources
            )
            return info
        ui.pop("selected", None)
        info.update(stage="pick", legal=sources, movable=sources)
        return info

    @staticmethod
    def _notation(src: str | None, dst: str, take: str | None = None) -> str:
        text = dst if src is None else f"{src}-{dst}"
        return text if take is None else f"{text}x{take}"

    # ----- the board: frame and lines, mills, the last step, points, the last move's marks ------------
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        position = state.to_position()
        cells: dict[str, str | None] = dict(position["cells"])
        over = state.is_over()
        live = interactive and not over
        info = self._stage(state, ui) if live else {"stage": "none", "legal": set()}
        mover = state.current_player if not over else None
        pending = info.get("pending")
        if pending:  # show the man on its new point while the removal is chosen
            src, dst = pending
            if src:
                cells[src] = None
            cells[dst] = mover
        shown = dict(position, cells=cells)
        if pending and pending[0] is None:  # the man shown comes out of the hand
            shown["in_hand"] = {**position["in_hand"], mover: position["in_hand"][mover] - 1}
        items = self.game.score_position(shown)["items"]
        last = state.peek()
        last = last if isinstance(last, M.Move) else None
        last_src = NAMES[last.source] if last and last.source is not None else None
        last_dst = NAMES[last.target] if last else None
        last_take = NAMES[last.take] if last and last.take is not None else None
        fresh_point = pending[1] if pending else last_dst
        just_took = pending is not None or (last is not None and last.take is not None)
        points, targets = self._points(cells, info, items, live, last_src, last_dst, pending)
        parts = [
            _frame(state.ply, info["stage"]),
            _mills(items, fresh_point if just_took else None),
            _last_path(last_src, last_dst) if last_src and last_dst and not pending else "",
            points,
        ]
        if not pending:
            parts.append(_last_marks(cells, last_dst, last_take, position["to_move"]))
        parts.append("</svg>")
        # legal targets first: the keyboard cursor starts on one
        ordered = {n: targets[n] for n in NAMES if n in info["legal"] and n in targets}
        ordered.update(targets)
        return Drawing("".join(parts), ordered)

    def _points(
        self,
        cells: dict[str, str | None],
        info: dict[str, Any],
        items: list[dict[str, Any]],
        live: bool,
        last_src: str | None,
        last_dst: str | None,
        pending: tuple[str | None, str] | None,
    ) -> tuple[str, dict[str, tuple[float, float]]]:
        """Every point as a location (its dot, glow, halo and man, hit area and focus ring), and the targets."""
        stage, legal = info["stage"], info["legal"]
        movable = info.get("movable", ()) if stage == "dest" else ()
        mills_at = {name for item in items for name in item["cells"]}
        targets: dict[str, tuple[float, float]] = {}
        points = []
        for name in NAMES:
            x, y = centre(name)
            colour = cells[name]
            is_legal = name in legal
            classes = ["point"]
            if is_legal:
                classes += [
                    "legal",
                    {"place": "to-place", "pick": "movable", "dest": "to-move", "remove": "removable"}.get(stage, ""),
                ]
            classes += ["movable"] if name in movable else []
            classes += ["selected"] if name == info.get("selected") else []
            classes += ["pending"] if pending and name == pending[1] else []
            classes += ["filled"] if colour else []
            what = self._label(name, colour, info, is_legal, mills_at, last_src, last_dst, pending)
            inner = [f'<circle cx="{x}" cy="{y}" r="{R_DOT}" class="dot"/>']
            if is_legal and not colour:
                inner.append(f'<circle cx="{x}" cy="{y}" r="13" class="glow"/>')
            if colour:
                if is_legal or name == info.get("selected") or name in movable:
                    inner.append(f'<circle cx="{x}" cy="{y}" r="{R_MAN + 4.5}" class="halo"/>')
                lift = -2 if name == info.get("selected") else 0
                inner.append(man_svg(colour, x, y + lift))
            inner += [hit_circle(x, y, R_HIT), focus_circle(x, y, R_MAN + 7)]
            points.append(location(name, f"{name}: {what}", inner, classes, live))
            if live:
                targets[name] = (x, y)
        return "".join(points), targets

    def _label(
        self,
        name: str,
        colour: str | None,
        info: dict[str, Any],
        is_legal: bool,
        mills_at: set[str],
        last_src: str | None,
        last_dst: str | None,
        pending: tuple[str | None, str] | None,
    ) -> str:
        stage = info["stage"]
        mover = info.get("mover")
        parts = []
        if colour:
            parts.append(_(MAN_WORDS.get(colour, colour)))
            if name in mills_at:
                parts.append(_("in a mill"))
        else:
            parts.append(_("empty"))
        if name == last_dst and not pending:
            parts.append(_("the last move went here"))
        elif name == last_src and not pending:
            parts.append(_("the last move came from here"))
        if stage == "place" and is_legal:
            parts.append(_(PLACE_WORDS.get(mover or "", PLACE_WORDS["white"])))
        elif stage == "pick" and is_legal:
            parts.append(_("yours: select it to move"))
        elif stage == "dest":
            if name == info["selected"]:
                parts.append(_("selected: pick where it goes, or select it again to let go"))
            elif is_legal:
                parts.append(_("move the man from {point} here").format(point=info["selected"]))
            elif colour == mover and name in info.get("movable", ()):
                parts.append(_("yours: select this one instead"))
        elif stage == "remove":
            if pending and name == pending[1]:
                parts.append(
                    _("just moved here and closed a mill: pick a man to remove, or this point to take the move back")
                )
            elif is_legal:
                parts.append(_("remove this man"))
        return ", ".join(parts)

    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        info = self._stage(state, ui)
        stage = info["stage"]
        if stage == "none":
            return target
        mover = info["mover"]
        moves = info["moves"]
        occupant = state.occupant(target) if target in M.INDEX_OF else None
        if stage == "remove":
            src, dst = info["pending"]
            if target in info["legal"]:
                ui.pop("pending", None)
                return self._notation(src, dst, target)
            if target in (src, dst):
                ui.pop("pending", None)
                return None
            return self._notation(src, dst, target)  # the engine says why not (own man, empty, protected)
        if stage == "place":
            options = [t for s, d, t in moves if s is None and d == target]
            if options and all(t is not None for t in options):
                ui["pending"] = (None, target)
                return None
            return target
        # moving or flying
        if occupant == mover:
            if target == info.get("selected"):
                ui.pop("selected", None)
                return None
            if target not in info["movable"]:
                raise IllegalMoveError(
                    f"the {mover} man on {target} cannot move: every point next to it is taken", rule="blocked man"
                )
            ui["selected"] = target
            return None
        selected = info.get("selected")
        if not selected:
            if occupant:
                raise IllegalMoveError(
                    f"{target} holds a {occupant} man: first pick one of your {mover} men to move", rule="own piece"
                )
            raise IllegalMoveError(
                f"first pick one of your {mover} men, then the empty point it moves to", rule="own piece"
            )
        options = [t for s, d, t in moves if s == selected and d == target]
        if options and all(t is not None for t in options):
            ui["pending"] = (selected, target)
            return None
        return self._notation(selected, target)

    # ----- beside the board -------------------------------------------------------------
    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        over = state.is_over()
        live = interactive and not over
        info = self._stage(state, ui) if live else {"stage": "none"}
        rows = []
        for side in SIDES:
            hand = state.pieces_in_hand(side)
            board = state.pieces_on_board(side)
            lost = M.PIECES - hand - board
            phase = state.phase(side)
            to_move = not over and side == state.current_player
            icons = (
                "".join(man_icon(side) for _man in range(hand)) or f'<span class="none">{esc(_("all placed"))}</span>'
            )
            lost_icons = "".join(man_icon(side, faded=True) for _man in range(lost))
            side_name = _(SIDE_WORDS[side])
            turn_tag = f"<span class=turn-tag>{esc(_('to move'))}</span>" if to_move else ""
            rows.append(
                f'<div class="morris-side{" to-move" if to_move else ""}" data-side="{side}" data-phase="{phase}">'
                f'<p class="who"><span class="dot dot-{side}"></span><strong>{esc(side_name)}</strong>'
                f'<span class="phase phase-{phase}">{esc(_(PHASE_WORDS.get(phase, phase)))}</span>{turn_tag}</p>'
                f'<div class="in-hand" aria-hidden="true">{icons}</div>'  # the counts below say it in words
                f'<p class="counts"><span data-in-hand="{side}">{hand}</span> {esc(_("in hand"))} · '
                f'<span data-on-board="{side}">{board}</span> {esc(_("on the board"))} · '
                f'<span data-lost="{side}">{lost}</span> {esc(_("lost"))} {lost_icons}</p></div>'
            )
        prompt = self._prompt(state, info, over)
        cancel = ""
        if info["stage"] in ("remove", "dest"):
            label = _("Take the move back") if info["stage"] == "remove" else _("Let go of the man")
            cancel = (
                f'<button type="button" class="cancel" data-board-action="cancel" aria-keyshortcuts="C">'
                f"{label} (C)</button>"
            )
        return (
            f'<section class="morris-panel" aria-label="{esc(_("men in hand and on the board"))}">{"".join(rows)}'
            f'<div class="prompt stage-{info["stage"]}" aria-live="polite"><p>{prompt}</p>{cancel}</div></section>'
        )

    def _prompt(self, state: Any, info: dict[str, Any], over: bool) -> str:
        if over:
            outcome = state.outcome()
            return f"{esc(_('Game over.'))} {esc(ending(outcome))}" if outcome else esc(_("Game over."))
        stage = info["stage"]
        mover = state.current_player
        who = f"<strong>{esc(_(SIDE_WORDS[mover]))}</strong>"
        if stage == "none":
            return _("{who} to move.").format(who=who)
        if stage == "place":
            left = state.pieces_in_hand(mover)
            return ngettext(
                "{who}: place a man on any glowing point ({count} left in hand).",
                "{who}: place a man on any glowing point ({count} left in hand).",
                left,
            ).format(who=who, count=left)
        if stage == "pick":
            if info["phase"] == "flying":
                return _("{who} is down to three men and may fly: pick a man, then any empty point.").format(who=who)
            return _("{who}: pick a man to move (the ringed ones can move).").format(who=who)
        if stage == "dest":
            point = f"<strong>{info['selected']}</strong>"
            if info["phase"] == "flying":
                return _("{who}: move the man from {point} to any empty point.").format(who=who, point=point)
            return _("{who}: move the man from {point} to a glowing point next to it.").format(who=who, point=point)
        return f"<strong>{esc(_('Mill!'))}</strong> " + _(REMOVE_WORDS[mover]).format(who=who)

    def action(self, state: Any, name: str, value: str, ui: dict[str, Any]) -> None:
        if name == "cancel":
            self._cancel(ui)

    @staticmethod
    def _cancel(ui: dict[str, Any]) -> None:
        if ui.get("pending"):
            ui.pop("pending", None)
        else:
            ui.pop("selected", None)

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool:
        if key in KEY_CANCEL and (ui.get("pending") or ui.get("selected")):
            self._cancel(ui)
            return True
        return False

    def key_help(self) -> str:
        return _("C takes back a half-made move (a selected man, or a step waiting for its removal)")

    def hint_targets(self, state: Any, move: str) -> list[str]:
        """Every point a move names: from, to and the man it removes (`d2-d3xa1`)."""
        return [name for name in NAMES if name in set(re.findall(r"[a-g][1-7]", move))]

    def reset(self, ui: dict[str, Any]) -> None:
        super().reset(ui)
        ui.pop("pending", None)

    # ----- words ----------------------------------------------------------------------------
    def tally(self, state: Any) -> tuple[dict[str, int], str]:
        return state.scores(), _("men on the board")

    def describe(self, before: Any, move: Any, after: Any) -> str:
        """ "places a man on d2", "moves d2 → d3", "flies a1 → g7", each with ", closes a mill, takes f4"."""
        if not isinstance(move, M.Move):
            return str(move)
        target = NAMES[move.target]
        if move.source is None:
            words = _("places a man on {point}").format(point=target)
        elif before.phase(before.current_player) == "flying":
            words = _("flies {source} → {target}").format(source=NAMES[move.source], target=target)
        else:
            words = _("moves {source} → {target}").format(source=NAMES[move.source], target=target)
        if move.take is not None:
            words += ", " + _("closes a mill, takes {point}").format(point=NAMES[move.take])
        return words

    def rules(self) -> str:
        return rules_html(_rules_diagram(), RULES)


def _frame(ply: int, stage: str) -> str:
    """The svg, the wooden board, the column letters and row numbers, and the drawn lines."""
    parts = [
        f'<svg class="board board-morris" viewBox="0 0 {VIEW} {VIEW}" role="group" data-ply="{ply}" '
        f'data-stage="{stage}" aria-label="'
        f'{esc(_("morris board: three nested squares, 24 points, columns a to g, rows 1 to 7"))}">',
        DEFS,
        f'<rect x="6" y="6" width="{VIEW - 12}" height="{VIEW - 12}" rx="16" class="wood" '
        f'fill="url(#mo-wood)" filter="url(#mo-grain)"/>',
        f'<rect x="6" y="6" width="{VIEW - 12}" height="{VIEW - 12}" rx="16" class="wood-rim"/>',
    ]
    for i, col in enumerate("abcdefg"):
        parts.append(f'<text x="{MARGIN + i * STEP}" y="{VIEW - 14}" class="coord" aria-hidden="true">{col}</text>')
    for row in range(1, 8):
        parts.append(f'<text x="20" y="{MARGIN + (7 - row) * STEP + 5}" class="coord" aria-hidden="true">{row}</text>')
    lines = []
    for line in M.GEOMETRY.lines:
        for a, b in line.segments():
            (x1, y1), (x2, y2) = centre(a), centre(b)
            lines.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')
    parts.append(f'<g class="lines" aria-hidden="true">{"".join(lines)}</g>')
    return "".join(parts)


def _mills(items: list[dict[str, Any]], fresh_point: str | None) -> str:
    """Closed mills: a band along the line, under the men (the one just closed, through `fresh_point`, in gold)."""
    bands = []
    for item in items:
        (x1, y1), (x2, y2) = centre(item["cells"][0]), centre(item["cells"][2])
        kind = f"mill mill-{item['side']}" + (" fresh" if fresh_point in item["cells"] else "")
        bands.append(
            f'<g class="{kind}" data-mill="{" ".join(item["cells"])}">'
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="edge"/>'
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="band"/>'
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="core"/></g>'
        )
    return f'<g class="mills" aria-hidden="true">{"".join(bands)}</g>' if bands else ""


def _last_path(source: str, target: str) -> str:
    """The last step, from → to."""
    (x1, y1), (x2, y2) = centre(source), centre(target)
    return (
        f'<g class="last-path" aria-hidden="true"><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>'
        f'<circle cx="{x1}" cy="{y1}" r="11"/></g>'
    )


def _last_marks(cells: dict[str, str | None], moved_to: str | None, took: str | None, loser: str) -> str:
    """The last move: a gold ring on the man that moved, the man it took (from `loser`) fading out."""
    parts = []
    if moved_to and cells.get(moved_to):
        parts.append(last_ring(*centre(moved_to), R_MAN + 2, "url(#mo-gold)"))
    if took and not cells.get(took):
        x, y = centre(took)
        parts.append(
            f'<g class="taken" aria-hidden="true">{man_svg(loser, x, y, extra="ghost")}'
            f'<path d="M{x - 9} {y - 9}L{x + 9} {y + 9}M{x + 9} {y - 9}L{x - 9} {y + 9}" class="cross"/></g>'
        )
    return "".join(parts)


def _rules_diagram() -> str:
    """The three squares with a white mill along the top: it takes a black man."""
    squares = "".join(
        f'<rect x="{8 + 14 * k}" y="{8 + 14 * k}" width="{84 - 28 * k}" height="{84 - 28 * k}" class="rd-board"/>'
        for k in range(3)
    )
    joins = (
        '<path d="M50 8V36M50 64V92M8 50H36M64 50H92" class="rd-board"/>'
        '<line x1="8" y1="8" x2="92" y2="8" class="rd-mill"/>'
    )
    men = "".join(f'<circle cx="{x}" cy="8" r="7" class="rd-white"/>' for x in (8, 50, 92))
    men += '<circle cx="36" cy="64" r="7" class="rd-black"/><circle cx="78" cy="50" r="7" class="rd-black"/>'
    return (
        f'<svg class="rules-diagram" viewBox="-2 -2 200 104" role="img" aria-label="'
        f'{esc(_("three white men in a row along a line: a mill, which takes a black man"))}">{squares}{joins}{men}'
        f'<text x="108" y="14" class="rd-text">{esc(_("a mill:"))}</text>'
        f'<text x="108" y="34" class="rd-text">{esc(_("take one"))}</text>'
        f'<text x="108" y="54" class="rd-text">{esc(_("black man"))}</text></svg>'
    )


RULES: tuple[RulesSection, ...] = (
    (
        N_("Goal"),
        (N_("Leave your opponent with two men, or with no move."),),
    ),
    (
        N_("Placing"),
        (N_("Take turns placing your nine men on empty points."),),
    ),
    (
        N_("Moving"),
        (
            N_("Once all are placed, move one man along a line to the next empty point."),
            N_("Some rules let a player down to three men fly to any empty point (More options)."),
        ),
    ),
    (
        N_("Mills"),
        (
            N_(
                "Three of your men in a row along a line (never diagonally) is a mill: take one of your opponent's men at once."
            ),
            N_("Only a mill you close now counts; open it and close it again to take again."),
        ),
    ),
)


BOARD = MorrisBoard
