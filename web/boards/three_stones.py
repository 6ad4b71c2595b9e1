"""three-stones drawn: a wooden octagon of 76 pockets around an empty centre.

White, black and clear (glass) stones; the ring on the last stone played; the
pockets the next stone may go in glow; scoring triples are drawn as lines (the
ones the last stone completed stand out). Beside the board: the stone drawn
from the pouch and what is left in it, or in pure skill the stone each side
still holds, with the colour choice for the side to move.
"""

from __future__ import annotations

from typing import Any

from engine.games.three_stones import GEOMETRY

from ui.i18n import N_, _, ngettext
from ui.words import colour_word, name_of

from . import Board, Drawing, RulesSection, esc, rules_html
from .svg import (
    Glint,
    Plan,
    StoneLook,
    gold,
    grain,
    last_ring,
    linear,
    location,
    pocket,
    radial,
    stone,
)
from .zoom import Frame, Zoom

COLUMNS = "abcdefghi"
SIZE = 9
CELL = 40
MARGIN = 30
VIEW = 2 * MARGIN + SIZE * CELL  # 420
PLAN = Plan(CELL, (VIEW / 2, VIEW / 2))  # e5, the empty centre, in the middle of the view
CENTRES = PLAN.centres(GEOMETRY)
POCKETS = tuple(sorted(CENTRES, key=lambda name: (CENTRES[name][1], CENTRES[name][0])))  # top row first
COLOURS = ("white", "black", "clear")
KEYS = {"w": "white", "b": "black", "c": "clear", "1": "white", "2": "black", "3": "clear"}
R_POCKET, R_STONE, R_RING = 14.5, 16.5, 19.5
FIT = Frame(VIEW / 2, VIEW / 2, VIEW, VIEW)
ZOOM = Zoom("ts_zoom", most=2.5)  # nine pockets across a phone are 40 px each: pinch or + for a finger's 44+
LOOK = StoneLook(
    "ts",
    (1.5, 2),
    shadow="stone-shadow shadow-{colour}",
    body="stone stone-{colour}",
    glint=Glint(0.35, 0.42, 0.32, 0.18),
    glint_on=frozenset({"clear"}),
)


def centre(name: str) -> tuple[float, float]:
    return CENTRES[name]


def _octagon() -> str:
    lo, hi, cut = MARGIN - 8, MARGIN + SIZE * CELL + 8, 88
    points = [
        (lo + cut, lo),
        (hi - cut, lo),
        (hi, lo + cut),
        (hi, hi - cut),
        (hi - cut, hi),
        (lo + cut, hi),
        (lo, hi - cut),
        (lo, lo + cut),
    ]
    return " ".join(f"{x},{y}" for x, y in points)


DEFS = (
    "<defs>"
    + linear("ts-wood", (("0", "#e2b57a"), (".5", "#c98f52"), ("1", "#b07a42")))
    + grain("ts-grain", "0.012 0.22", 2, 7, "0 0 0 0 0.35  0 0 0 0 0.2  0 0 0 0 0.08  0 0 0 0.55 -0.12")
    + radial("ts-pocket", (("0", "#8a5a2e"), (".7", "#6b431f"), ("1", "#4a2c12")), cy=".42", r=".6")
    + radial("ts-white", (("0", "#ffffff"), (".55", "#ece8de"), ("1", "#aaa393")), ".36", ".32", ".75")
    + radial("ts-black", (("0", "#707070"), (".45", "#2b2b2d"), ("1", "#060607")), ".36", ".32", ".75")
    + radial(
        "ts-clear",
        (("0", "#ffffff", ".95"), (".35", "#e4f6fd", ".62"), (".8", "#a9d8ea", ".5"), ("1", "#d8f2fb", ".9")),
        ".38",
        ".34",
        ".75",
    )
    + f'<clipPath id="ts-clip"><polygon points="{_octagon()}"/></clipPath>'
    + gold("ts-gold", "#d9a520")
    + "</defs>"
)


def stone_svg(colour: str, x: float, y: float, r: float = R_STONE) -> str:
    """One stone; clear stones are glass: the pocket shows through, with a rim and a glint."""
    return stone(LOOK, colour, x, y, r)


def stone_icon(colour: str, label: str = "") -> str:
    """A small stone for the panel (uses the board's gradients: the board is always on screen)."""
    title = f"<title>{esc(label)}</title>" if label else ""
    return (
        f'<svg class="stone-icon" viewBox="0 0 40 40" aria-hidden="{"false" if label else "true"}">{title}'
        f'<circle cx="20" cy="20" r="15" fill="url(#ts-pocket)"/>{stone_svg(colour, 20, 20, 16)}</svg>'
    )


class ThreeStonesBoard(Board):
    def _choice(self, state: Any, ui: dict[str, Any]) -> str | None:
        """The stone the side to move will play: drawn (pouch) or chosen (pure skill)."""
        if state.options.mode == "pouch":
            return state.drawn
        hand = state.hands[state.side_to_move]
        chosen = ui.get(f"choice:{state.side_to_move}")
        if chosen in COLOURS and hand.get(chosen, 0) > 0:
            return chosen
        return next((c for c in COLOURS if hand.get(c, 0) > 0), None)

    # ----- the board: frame, ring lines, pockets, triples, last ring ------------------------------------
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        position = state.to_position()
        cells: dict[str, str | None] = position["cells"]
        last = position.get("last")
        over = state.is_over()
        live = interactive and not over and not state.is_chance_node()
        allowed = {_name(p) for p in state.allowed_pockets()} if not over else set()
        empty = sum(1 for v in cells.values() if v is None)
        restricted = bool(allowed) and len(allowed) < empty
        choice = self._choice(state, ui) if live else None
        items = self.game.score_position(position)["items"]
        pockets, targets = _pockets(cells, last, allowed if live else set(), live, restricted, choice)
        parts = [
            _frame(ui),
            _ring_lines(last) if live and restricted and last else "",
            pockets,
            _triples(items, last),
            last_ring(*centre(last), R_RING, "url(#ts-gold)") if last else "",
            f"</svg>{ZOOM.controls(ui, FIT)}</div>",
        ]
        return Drawing("".join(parts), targets)

    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        colour = self._choice(state, ui)
        return f"{colour}@{target}" if colour else target

    # ----- beside the board -------------------------------------------------------------
    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        position = state.to_position()
        over = state.is_over()
        if state.options.mode == "pouch":
            pouch = position["pouch"]
            left = sum(pouch.values())
            counts = " · ".join(f'<span data-pouch="{c}">{pouch[c]} {esc(colour_word(c))}</span>' for c in COLOURS)
            if past:
                drawn = ""
            elif state.drawn and not over:
                stone = _("{colour} stone").format(colour=colour_word(state.drawn))
                words = _("{player} drew a {colour} stone and must play it.").format(
                    player=f"<strong>{esc(name_of(state.side_to_move))}</strong>",
                    colour=f"<strong>{esc(colour_word(state.drawn))}</strong>",
                )
                drawn = f'<div class="drawn" data-drawn="{state.drawn}">{stone_icon(state.drawn, stone)}<p>{words}</p></div>'
            else:
                drawn = f'<div class="drawn"><p>{esc(_("No stone drawn."))}</p></div>'
            in_pouch = ngettext(
                "In the pouch: {count} stone ({colours})", "In the pouch: {count} stones ({colours})", left
            ).format(count=f"<strong data-pouch-left>{left}</strong>", colours=counts)
            return (
                f'<section class="pouch" aria-label="{esc(_("pouch"))}">{drawn}'
                f'<p class="pouch-count">{in_pouch}</p></section>'
            )
        live = interactive and not over
        choice = self._choice(state, ui) if live else None
        rows = []
        for side in ("white", "black"):
            hand = position["in_hand"][side]
            to_move = live and side == state.side_to_move
            cells = []
            for colour in COLOURS:
                count = hand[colour]
                label = f"{count} {colour_word(colour)}"
                if to_move:
                    pressed = "true" if colour == choice else "false"
                    disabled = " disabled" if count == 0 else ""
                    play = _("play {colour} stones ({count} left, key {key})").format(
                        colour=colour_word(colour), count=count, key=colour[0].upper()
                    )
                    cells.append(
                        f'<button type="button" class="choose" data-board-action="choose" data-value="{colour}" '
                        f'aria-pressed="{pressed}" aria-label="{esc(play)}"{disabled}>'
                        f"{stone_icon(colour)}<span>{count}</span></button>"
                    )
                else:
                    cells.append(
                        f'<span class="held" aria-label="{label}">{stone_icon(colour)}<span>{count}</span></span>'
                    )
            heading = _("{player} holds").format(player=name_of(side))
            heading += " — " + _("choose a stone:") if to_move else ""
            rows.append(
                f'<div class="hand{" to-move" if to_move else ""}" data-hand="{side}">'
                f'<p>{esc(heading)}</p><div class="stones">{"".join(cells)}</div></div>'
            )
        return f'<section class="hands" aria-label="{esc(_("stones in hand"))}">{"".join(rows)}</section>'

    def action(self, state: Any, name: str, value: str, ui: dict[str, Any]) -> None:
        if name == "choose" and value in COLOURS:
            ui[f"choice:{state.side_to_move}"] = value
        else:
            ZOOM.act(ui, name, value, FIT)

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool:
        if state.options.mode == "pure-skill" and key.lower() in KEYS:
            ui[f"choice:{state.side_to_move}"] = KEYS[key.lower()]
            return True
        return False

    def key_help(self) -> str:
        return _("W / B / C (or 1 2 3) choose the stone in pure skill")

    def reset(self, ui: dict[str, Any]) -> None:
        """After a move: the selection goes, and the whole board is shown again (the reply may be anywhere)."""
        super().reset(ui)
        ui.pop(ZOOM.key, None)

    # ----- words ----------------------------------------------------------------------------
    def status_note(self, state: Any, past: bool = False) -> str:
        """In the pouch game: the stone the player to move drew."""
        if past or state.options.mode != "pouch" or not state.drawn or state.is_over():
            return ""
        return _("{player} drew {stone}").format(
            player=esc(name_of(state.side_to_move)),
            stone=f'{_stone_dot(state.drawn)} <b data-drawn-note="{state.drawn}">{esc(colour_word(state.drawn))}</b>',
        )

    def describe(self, before: Any, move: Any, after: Any) -> str:
        """ "clear stone on b9, scores 1" (a clear stone may score for both sides)."""
        text = str(move)
        if "@" not in text:
            return text
        colour, pocket = text.split("@")
        gained = {side: after.scores()[side] - before.scores()[side] for side in ("white", "black")}
        mover = before.side_to_move
        words = _("{colour} stone on {pocket}").format(colour=colour_word(colour), pocket=pocket)
        if gained[mover] and not gained[other(mover)]:
            words += ", " + _("scores {points}").format(points=gained[mover])
        elif any(gained.values()):
            words += ", " + ", ".join(f"{colour_word(side)} +{n}" for side, n in gained.items() if n)
        return words

    def public_text(self, text: str) -> str:
        """ "draw white" → "drew white" (the move list's words for the pouch)."""
        return _("drew {colour}").format(colour=colour_word(text[5:])) if text.startswith("draw ") else text

    def rules(self) -> str:
        return rules_html(_rules_diagram(), RULES)


def other(side: str) -> str:
    return "black" if side == "white" else "white"


def _stone_dot(colour: str) -> str:
    return f'<span class="dot dot-{colour}" aria-hidden="true"></span>'


def _rules_diagram() -> str:
    """A row of the board: white, clear, white in a line scores 1 for white; the ring's row glows."""
    stones = "".join(
        f'<circle cx="{20 + 36 * i}" cy="26" r="13" class="rd-{c}"/>' for i, c in enumerate(("white", "clear", "white"))
    )
    pockets = "".join(f'<circle cx="{20 + 36 * i}" cy="26" r="11" class="rd-pocket"/>' for i in range(3, 6))
    return (
        f'<svg class="rules-diagram" viewBox="0 0 210 52" role="img" aria-label="'
        f'{esc(_("white, clear, white in a row: one point for white"))}">{pockets}'
        f'<line x1="20" y1="26" x2="92" y2="26" class="rd-line"/>{stones}'
        f'<text x="120" y="31" class="rd-text">{esc(_("+1 for white"))}</text></svg>'
    )


RULES: tuple[RulesSection, ...] = (
    (
        N_("Goal"),
        (N_("Score the most points: every three stones in a row of your colour score 1."),),
    ),
    (
        N_("On your turn"),
        (
            N_(
                "<b>Pouch</b> (the usual game): draw a stone and play it. <b>Pure skill</b>: choose one of the stones you hold."
            ),
            N_(
                "Play it in an empty pocket in the same row or column as the last stone played (the gold ring). If that row and column are full, play anywhere."
            ),
        ),
    ),
    (
        N_("Scoring"),
        (
            N_("Three in a row counts across, down or diagonally."),
            N_("A clear (glass) stone counts for both sides; three clear stones score nothing."),
            N_("No line runs through the empty centre."),
        ),
    ),
    (
        N_("The end"),
        (N_("The game ends with the last stone; the higher score wins."),),
    ),
)


def _frame(ui: dict[str, Any]) -> str:
    """The zoomable svg, the wooden octagon with its empty centre, the column letters and row numbers."""
    cx, cy = PLAN.at(0, 0)
    parts = [
        f'<div class="zoom-wrap"><svg class="board board-three-stones{ZOOM.svg_class(ui, FIT)}" '
        f'{ZOOM.svg_attributes(ui, FIT)} role="group" '
        f'aria-label="{esc(_("three-stones board: 76 pockets, columns a to i, rows 1 to 9"))}">',
        DEFS,
        f'<polygon points="{_octagon()}" class="wood" fill="url(#ts-wood)" filter="url(#ts-grain)"/>',
        f'<polygon points="{_octagon()}" class="wood-rim"/>',
        f'<g class="centre" aria-hidden="true"><circle cx="{cx}" cy="{cy}" r="13"/>'
        f'<circle cx="{cx}" cy="{cy}" r="5"/></g>',
    ]
    for i, col in enumerate(COLUMNS):
        x = MARGIN + i * CELL + CELL / 2
        parts.append(f'<text x="{x}" y="{VIEW - 6}" class="coord" aria-hidden="true">{col}</text>')
    for row in range(1, SIZE + 1):
        y = MARGIN + (SIZE - row) * CELL + CELL / 2 + 4
        parts.append(f'<text x="10" y="{y}" class="coord" aria-hidden="true">{row}</text>')
    return "".join(parts)


def _ring_lines(last: str) -> str:
    """The row and the column of the last stone glow: the next stone must go in one of them."""
    lx, ly = centre(last)
    band = CELL - 6
    return (
        f'<g class="ring-lines" aria-hidden="true" clip-path="url(#ts-clip)">'
        f'<rect x="{MARGIN}" y="{ly - band / 2}" width="{SIZE * CELL}" height="{band}" rx="{band / 2}"/>'
        f'<rect x="{lx - band / 2}" y="{MARGIN}" width="{band}" height="{SIZE * CELL}" rx="{band / 2}"/></g>'
    )


def _pockets(
    cells: dict[str, str | None], last: str | None, allowed: set[str], live: bool, restricted: bool, choice: str | None
) -> tuple[str, dict[str, tuple[float, float]]]:
    """Every pocket as a location (its hole, glow, stone, hit square and focus ring), and the targets."""
    targets: dict[str, tuple[float, float]] = {}
    out = []
    for name in POCKETS:
        x, y = centre(name)
        colour = cells[name]
        legal = live and colour is None and name in allowed
        classes = (
            ["pocket"]
            + (["legal"] if legal else [])
            + (["open"] if legal and not restricted else [])
            + (["filled"] if colour else [])
        )
        if colour:
            what = _("{colour} stone").format(colour=colour_word(colour))
            what += ", " + _("the last stone played (the ring)") if name == last else ""
        elif legal and choice:
            what = _("empty, you may play a {colour} stone here").format(colour=colour_word(choice))
        elif legal:
            what = _("empty, you may play here")
        else:
            what = _("empty")
            what += ", " + _("not in the ring's row or column") if live and restricted else ""
        inner = pocket(
            x, y, R_POCKET, "url(#ts-pocket)", stone_svg(colour, x, y) if colour else "", legal, CELL, R_RING + 1
        )
        out.append(location(name, f"{name}: {what}", inner, classes, live))
        if live:
            targets[name] = (x, y)
    return "".join(out), targets


def _triples(items: list[dict[str, Any]], last: str | None) -> str:
    """The scoring triples as lines (the ones the last stone completed stand out)."""
    lines = []
    for item in items:
        (x1, y1), (x2, y2) = centre(item["cells"][0]), centre(item["cells"][2])
        kind = "triple fresh" if last in item["cells"] else "triple"
        lines.append(
            f'<g class="{kind} triple-{item["side"]}" data-triple="{" ".join(item["cells"])}">'
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="under"/>'
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" class="over"/></g>'
        )
    return f'<g class="triples" aria-hidden="true">{"".join(lines)}</g>' if lines else ""


def _name(index: int) -> str:
    return f"{COLUMNS[index % SIZE]}{index // SIZE + 1}"


BOARD = ThreeStonesBoard
