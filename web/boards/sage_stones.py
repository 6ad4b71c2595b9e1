"""sage-stones drawn: the pine pocket board, 7 columns numbered 3..9 on its short edge, 9 rows.

Above the board a dice tray shows the three dice of the roll (faces 1-3) and
what they mean: the column to play, "1-2-3: turn lost", "triple: roll again",
"column N full: column 6", or the wipe. The rolled column glows and its empty
pockets are the targets; a lost turn or a wipe is one button (in the tray and
in the panel), since the engine wants the move `pass` / `wipe` played.

Stones are marbles in the seat colours; the last stone placed wears a gold
ring and the stones it captured stay a moment as fading ghosts. Beside the
board: which colour the player to move is placing, every seat's supply (stones
left to place, the seat closest to winning marked), and the last few turns in
words (rolls, lost turns, extra rolls, captures, wipes), so an AI seat's turns
can be followed.
"""

from __future__ import annotations

from typing import Any

from engine.games import sage_stones as S

from ui.i18n import N_, _, ngettext
from ui.words import colour_word, ending, name_of

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
    stone_gradients,
)

CELL = 46
PAD = 22
TRAY = 104  # the dice tray above the board
TOP = TRAY + 12  # the board's top edge
NUMBERS = 40  # the engraved numbers' strip
W = 2 * PAD + 7 * CELL  # 366
H = TOP + NUMBERS + 9 * CELL + 16  # 586
R_POCKET, R_STONE = 17, 16.5
FORCED_HEIGHT = 44  # the tray's Pass / Wipe button: a finger's height at a phone's width (1 unit ≈ 1 px)
TRIPLE_NOTE = N_("triple: rolled again")  # a turn's note the log and the tray look for (shown translated)

COLOURS = {  # light, base, dark: the marbles' gradients
    "black": ("#6a6a70", "#26262b", "#050506"),
    "white": ("#ffffff", "#eeebe3", "#a9a294"),
    "clear": ("#ffffff", "#d9f1fa", "#9fd2e6"),
    "red": ("#ff8068", "#c73724", "#71140a"),
    "green": ("#abe8ab", "#38a94b", "#156724"),
    "blue": ("#83aeff", "#2d5dbf", "#102964"),
    "yellow": ("#fff6b5", "#f1c538", "#a67906"),
    "orange": ("#ffc383", "#ee8923", "#98460a"),
    "purple": ("#c9a2f2", "#593383", "#1a0b2b"),
}
SOLID = {name: base for name, (_light, base, _dark) in COLOURS.items()}


# c6r5, the middle pocket, at the middle of the board below the tray and the numbered strip
PLAN = Plan(CELL, (PAD + 3.5 * CELL, TOP + NUMBERS + 4.5 * CELL))
CENTRES = PLAN.centres(S.GEOMETRY)
LOOK = StoneLook(
    "ss",
    (1.4, 2),
    shadow="stone-shadow",
    body="stone-body",
    group="stone stone-{colour}{extra}",
    glint=Glint(0.33, 0.38, 0.3, 0.18),
    lettered=True,
)


def centre_of(index: int) -> tuple[float, float]:
    return CENTRES[S.NAMES[index]]


def defs(seat_colours: tuple[str, ...]) -> str:
    return (
        "<defs>"
        + linear("ss-pine", (("0", "#ecd2a2"), (".45", "#e2c08a"), ("1", "#d9b47c")), y2=".25")
        + grain("ss-grain", "0.07 0.004", 3, 4, "0 0 0 0 0.6  0 0 0 0 0.38  0 0 0 0 0.15  0 0 0 1.3 -0.45")
        + radial("ss-pocket", (("0", "#c79b62"), (".75", "#b5854d"), ("1", "#8e6231")), cy=".4", r=".62")
        + linear("ss-felt", (("0", "#2f5a44"), ("1", "#244836")), x2="0")
        + gold("ss-gold")
        + stone_gradients(
            "ss", COLOURS, sorted(set(seat_colours) | {"white"}), ".36", ".32", ".78", see_through={"clear": ".72"}
        )
        + "</defs>"
    )


def stone_svg(colour: str, x: float, y: float, r: float = R_STONE, extra: str = "") -> str:
    return stone(LOOK, colour, x, y, r, extra)


def stone_icon(colour: str, label: str = "", size: str = "") -> str:
    title = f"<title>{esc(label)}</title>" if label else ""
    return (
        f'<svg class="ss-icon{(" " + size) if size else ""}" viewBox="0 0 36 36" aria-hidden="{"false" if label else "true"}">'
        f"{title}{stone_svg(colour, 17, 17, 15)}</svg>"
    )


PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1))}


def die_svg(value: int, x: float, y: float, size: float, tilt: float) -> str:
    """A six-sided die numbered 1-3 twice, showing `value`."""
    h = size / 2
    pips = "".join(
        f'<circle cx="{x + dx * size * 0.27:.1f}" cy="{y + dy * size * 0.27:.1f}" r="{size * 0.095:.1f}" class="pip"/>'
        for dx, dy in PIPS[value]
    )
    return (
        f'<g class="die-drop"><g class="die" data-face="{value}" transform="rotate({tilt:.0f} {x:.1f} {y:.1f})">'
        f'<rect x="{x - h + 1.5:.1f}" y="{y - h + 2.5:.1f}" width="{size}" height="{size}" rx="{size * 0.2:.1f}" class="die-shadow"/>'
        f'<rect x="{x - h:.1f}" y="{y - h:.1f}" width="{size}" height="{size}" rx="{size * 0.2:.1f}" class="die-body"/>'
        f"{pips}</g></g>"
    )


def _pine(column: int | None, rolled: int | None) -> str:
    """The pine board, its numbered edge, the rolled column (glowing, or marked full), the row numbers."""
    parts = [
        f'<rect x="3" y="{TOP}" width="{W - 6}" height="{H - TOP - 3}" rx="10" class="pine" '
        f'fill="url(#ss-pine)" filter="url(#ss-grain)"/>',
        f'<rect x="3" y="{TOP}" width="{W - 6}" height="{H - TOP - 3}" rx="10" class="pine-rim"/>',
    ]
    for c in S.COLUMNS:
        x = PAD + (c - S.FIRST_COLUMN) * CELL + CELL / 2
        kind = "num"
        if c == column:
            kind += " rolled"
        elif c == rolled:
            kind += " full"
        parts.append(f'<text x="{x}" y="{TOP + 30}" class="{kind}" aria-hidden="true">{c}</text>')
    for shown, kind in ((column, "column-glow"), (rolled if rolled != column else None, "column-full")):
        if shown is not None:
            x = PAD + (shown - S.FIRST_COLUMN) * CELL
            parts.append(
                f'<rect x="{x + 3}" y="{TOP + 6}" width="{CELL - 6}" height="{NUMBERS + 9 * CELL}" '
                f'rx="{CELL / 2 - 3}" class="{kind}" aria-hidden="true"/>'
            )
    for row, first_pocket in enumerate(S.COLUMN_CELLS[S.FIRST_COLUMN], start=1):
        _x, y = centre_of(first_pocket)
        parts.append(f'<text x="{PAD / 2 + 1}" y="{y + 3.5}" class="rownum" aria-hidden="true">{row}</text>')
    return "".join(parts)


def _pockets(
    state: Any,
    allowed: set[int],
    live: bool,
    fresh_captures: list[tuple[int, str]],
    last_pocket: int | None,
    targets: dict[str, tuple[float, float]],
) -> tuple[str, dict[str, tuple[float, float]]]:
    """Every pocket as a location (hole, groove, glow, marble, hit square, focus ring); the legal ones'
    targets are returned apart (the keyboard cursor starts on one), the others go into `targets`."""
    seat = state.seat_to_move
    cells = []
    legal_first: dict[str, tuple[float, float]] = {}
    for i, name in enumerate(S.NAMES):
        x, y = centre_of(i)
        s = state.board[i]
        colour = state.seats[s] if s != S.EMPTY else None
        legal = i in allowed
        classes = ["pocket"] + (["legal"] if legal else []) + (["filled"] if colour else [])
        if colour:
            what = _("{colour} stone ({owner})").format(colour=colour_word(colour), owner=state.owners[s])
            if i == last_pocket:
                what += ", " + _("the last stone placed")
        else:
            what = _("empty")
            captured = [c for j, c in fresh_captures if j == i]
            if captured:
                what += ", " + _("a {colour} stone was just captured here").format(colour=colour_word(captured[0]))
        if legal:
            what += ", " + _("place {colour} here").format(colour=colour_word(seat))
        inner = pocket(
            x,
            y,
            R_POCKET,
            "url(#ss-pocket)",
            stone_svg(colour, x, y) if colour else "",
            legal,
            CELL,
            R_POCKET + 4,
            groove=0.55,
        )
        cells.append(location(name, f"{name}: {what}", inner, classes, live))
        if live:
            (legal_first if legal else targets)[name] = (x, y)
    return "".join(cells), legal_first


def _marks(board: list[int], fresh_captures: list[tuple[int, str]], last_pocket: int | None) -> str:
    """The stones the last placement captured (fading ghosts) and the gold ring on the stone placed."""
    marks = []
    for i, colour in fresh_captures:
        if board[i] == S.EMPTY:
            x, y = centre_of(i)
            marks.append(
                f'<g class="captured" data-captured="{S.NAMES[i]}">{stone_svg(colour, x, y, extra="ghost")}'
                f'<circle cx="{x}" cy="{y}" r="{R_STONE}" class="captured-ring" stroke="{SOLID[colour]}"/></g>'
            )
    if last_pocket is not None and board[last_pocket] != S.EMPTY:
        marks.append(last_ring(*centre_of(last_pocket), R_STONE + 2.5, "url(#ss-gold)"))
    return f'<g class="marks" aria-hidden="true">{"".join(marks)}</g>' if marks else ""


# ----- what happened: the last turns, read back from the history --------------------------
def recent_turns(state: Any, limit: int = 6) -> list[dict[str, Any]]:
    """The last completed turns, newest first: who, the dice, what they did, what they took.

    Walks a copy of the state backwards (pop), comparing the board before and
    after each decision; the pending roll of the seat to move is not a turn yet.
    """
    probe = state.copy()
    turns: list[dict[str, Any]] = []
    after = list(probe.board)
    decision: tuple[Any, list[int], list[int]] | None = None
    while probe.ply and len(turns) < limit:
        move = probe.pop()
        # the engine's wipe undo hands back its saved lists: keep the probe's own copies
        probe.board, probe.supply = list(probe.board), list(probe.supply)
        before = list(probe.board)
        if isinstance(move, S.Roll):
            if decision is not None:
                turns.append(_turn(probe, probe.seat, move, *decision))
                decision = None
        elif move is not None and not isinstance(move, S.Roll):
            decision = (move, before, after)
        after = before
    if decision is not None and not probe.ply and probe.roll is not None and len(turns) < limit:
        turns.append(_turn(probe, probe.seat, probe.roll, *decision))  # a position that began with its roll
    if turns and state.is_over() and isinstance(state.peek(), S.Place):
        turns[0]["won"] = True
        if turns[0]["note"] == TRIPLE_NOTE:
            turns[0]["note"] = ""  # the game ended: no roll again
    return turns


def _turn(state: Any, seat: int, roll: Any, move: Any, before: list[int], after: list[int]) -> dict[str, Any]:
    colour = state.seats[seat]
    turn: dict[str, Any] = {
        "seat": colour,
        "owner": state.owners[seat],
        "dice": roll.dice,
        "total": roll.total,
        "move": str(move),
        "pocket": None,
        "captured": [],
        "note": "",
        "won": False,
    }
    if isinstance(move, S.Pass):
        turn["note"] = _("turn lost")
    elif isinstance(move, S.Wipe):
        turn["note"] = _("column {column} and column 6 full: the board was wiped").format(column=roll.total)
    elif isinstance(move, S.Place):
        turn["pocket"] = move.pocket
        column = S.COLUMN_OF[move.pocket]
        if column != roll.total:
            turn["note"] = _("column {column} full: column 6").format(column=roll.total)
        elif roll.is_triple:
            turn["note"] = TRIPLE_NOTE
        turn["captured"] = [
            (i, state.seats[before[i]])
            for i in range(S.CELLS)
            if before[i] != S.EMPTY and after[i] == S.EMPTY and i != move.pocket
        ]
    return turn


def _captured_text(captured: list[tuple[int, str]]) -> str:
    counts: dict[str, int] = {}
    for _pocket, colour in captured:
        counts[colour] = counts.get(colour, 0) + 1
    return ", ".join(f"{n} {colour_word(c)}" for c, n in counts.items())


class SageStonesBoard(Board):
    picture_plies = 30  # rolls and passes take moves too: thirty plies put stones in most columns

    # ----- the board: tray, pine board, pockets, marks ------------------------------------------
    def draw(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> Drawing:
        over = state.is_over()
        live = interactive and not over and not state.is_chance_node()
        phase = state.phase if not over else None
        seat = state.seat_to_move
        roll = state.last_roll()
        turns = recent_turns(state, 6)
        fresh_captures = turns[0]["captured"] if turns and turns[0]["pocket"] is not None else []
        last_pocket = turns[0]["pocket"] if turns else None
        fresh = ui.get("dice_ply") != state.ply  # roll the dice in only when they are new
        ui["dice_ply"] = state.ply
        rolled = roll.total if (roll is not None and phase in (S.MUST_PLACE, S.MUST_WIPE)) else None
        targets: dict[str, tuple[float, float]] = {}
        if live and phase in (S.MUST_PASS, S.MUST_WIPE):
            targets["pass" if phase == S.MUST_PASS else "wipe"] = (W / 2, TRAY / 2)
        allowed = set(state.target_pockets()) if not over else set()
        pockets, legal_first = _pockets(state, allowed if live else set(), live, fresh_captures, last_pocket, targets)
        parts = [
            f'<svg class="board board-sage-stones" viewBox="0 0 {W} {H}" role="group" data-ply="{state.ply}" '
            f'data-seat="{seat}" data-phase="{self._phase_name(state)}" '
            f'aria-label="{esc(_("sage-stones board: columns 3 to 9 along the numbered edge, rows 1 to 9"))}">',
            defs(state.seats),
            self._past_tray() if past else self._tray(state, roll, live, turns, fresh),
            _pine(state.column if phase == S.MUST_PLACE else None, rolled),
            pockets,
            _marks(state.board, fresh_captures, last_pocket),
            self._spotlight_style(state),
            "</svg>",
        ]
        ordered = {**{k: v for k, v in targets.items() if k in ("pass", "wipe")}, **legal_first, **targets}
        return Drawing("".join(parts), ordered)

    @staticmethod
    def _phase_name(state: Any) -> str:
        if state.is_over():
            return "over"
        return {S.AWAIT_ROLL: "roll", S.MUST_PLACE: "place", S.MUST_PASS: "pass", S.MUST_WIPE: "wipe"}[state.phase]

    @staticmethod
    def _spotlight_style(state: Any) -> str:
        """Hovering (or focusing) a seat in the panel lights up that colour's stones: its score items."""
        rules = "".join(
            f'.play:has([data-seat-row="{c}"]:hover) .board-sage-stones .stone-{c}:not(.ghost) .stone-body,'
            f'.play:has([data-seat-row="{c}"]:focus-within) .board-sage-stones .stone-{c}:not(.ghost) .stone-body'
            f"{{stroke:#ffcf3a;stroke-width:3.5}}"
            for c in state.seats
        )
        return f"<style>{rules}</style>"

    @staticmethod
    def _past_tray() -> str:
        """An earlier position: the tray holds no dice (what was rolled then is in the move list)."""
        return (
            f'<g class="tray past"><rect x="3" y="3" width="{W - 6}" height="{TRAY}" rx="12" class="felt" '
            f'fill="url(#ss-felt)"/><text x="{W / 2}" y="{TRAY / 2 + 5}" class="tray-none" text-anchor="middle">'
            f"{esc(_('an earlier position'))}</text></g>"
        )

    def _tray(self, state: Any, roll: Any, live: bool, turns: list[dict[str, Any]], fresh: bool) -> str:
        """The dice and what they say, with the one-button turn when the roll allows no stone."""
        parts = [
            f'<g class="tray{" fresh" if fresh else ""}">'
            f'<rect x="3" y="3" width="{W - 6}" height="{TRAY}" rx="12" class="felt" fill="url(#ss-felt)"/>'
        ]
        size = 38
        if roll is not None:
            for k, value in enumerate(roll.dice):
                tilt = ((state.ply * 7 + k * 13) % 17) - 8
                parts.append(die_svg(value, 30 + k * (size + 9), TRAY / 2 + 4, size, tilt))
        else:
            parts.append(
                f'<text x="{30 + size + 9}" y="{TRAY / 2 + 9}" class="tray-none">{esc(_("no roll yet"))}</text>'
            )
        seat, owner = state.seat_to_move, state.owners[state.seat]
        x = 160
        lines: list[tuple[str, str]] = []
        button = None
        if state.is_over():
            winner = state.seats[state.winner] if state.winner is not None else None
            if winner is not None:
                lines = [
                    (_("{colour}: last stone in!").format(colour=name_of(winner)), "strong"),
                    (_("{owner} wins the game").format(owner=state.owners[state.winner]), "bonus"),
                ]
            else:
                outcome = state.outcome()
                lines = [(_("Game over"), "strong"), (ending(outcome)[:34] if outcome else "", "line")]
        elif roll is None or state.phase == S.AWAIT_ROLL:
            lines = [(_("{colour} ({owner}) rolls…").format(colour=name_of(seat), owner=owner), "strong")]
        else:
            rolled = _("{colour} ({owner}) rolled {total}").format(colour=name_of(seat), owner=owner, total=roll.total)
            lines.append((rolled, "strong"))
            extra = turns and turns[0]["seat"] == seat and turns[0]["note"] == TRIPLE_NOTE
            if state.phase == S.MUST_PASS:
                lines.append((_("1-2-3: turn lost"), "alert"))
                button = ("pass", _("Pass the turn"))
            elif state.phase == S.MUST_WIPE:
                lines.append((_("column {column} full, 6 full too:").format(column=roll.total), "alert"))
                button = ("wipe", _("Wipe the board"))
            elif state.column != roll.total:
                lines.append((_("column {column} full: column 6").format(column=roll.total), "alert"))
                lines.append((_("(no extra roll)"), "line"))
            else:
                lines.append((_("place in column {column}").format(column=state.column), "line"))
                if roll.is_triple:
                    lines.append((_("triple: roll again after"), "bonus"))
            if extra:
                lines.insert(1, (_("triple: roll again!"), "bonus"))
        y = 30 if len(lines) + (button is not None) > 2 else 40
        for text, kind in lines[:3]:
            parts.append(f'<text x="{x}" y="{y}" class="tray-{kind}">{esc(text)}</text>')
            y += 22
        parts.append("</g>")
        if button is not None:
            name, label = button
            bx, by, bw, bh = x - 2, y - 18, 170, FORCED_HEIGHT
            attrs = (
                f'data-target="{name}" role="button" tabindex="-1" aria-label="{esc(label)} ({esc(roll.dice_text())})"'
                if live
                else f'role="img" aria-label="{esc(_("{action}: waiting for {owner}").format(action=label, owner=owner))}"'
            )
            parts.append(
                f'<g class="forced{" live" if live else ""}" {attrs}>'
                f'<rect x="{bx}" y="{by}" width="{bw}" height="{bh}" rx="{bh / 2}" class="forced-body"/>'
                f'<text x="{bx + bw / 2}" y="{by + bh / 2 + 5}" class="forced-label">{esc(label)}</text>'
                f'<rect x="{bx - 3}" y="{by - 3}" width="{bw + 6}" height="{bh + 6}" rx="18" class="focus-ring"/></g>'
            )
        return "".join(parts)

    def click(self, state: Any, target: str, ui: dict[str, Any]) -> str | None:
        return target

    # ----- beside the board -------------------------------------------------------------
    def panel(self, state: Any, ui: dict[str, Any], interactive: bool, past: bool = False) -> str:
        over = state.is_over()
        live = interactive and not over
        roll = state.last_roll()
        seat, owner = state.seat_to_move, state.owners[state.seat]
        turns = recent_turns(state, 5)
        per = state.options.stones_per_colour
        # who places what now
        if over:
            winner = state.winner
            if winner is not None:
                words = _("{owner} wins: {colour} placed its last stone.").format(
                    owner=f"<strong>{esc(state.owners[winner])}</strong>",
                    colour=f"<strong>{esc(colour_word(state.seats[winner]))}</strong>",
                )
                headline = f"{stone_icon(state.seats[winner], size='big')}<p>{words}</p>"
            else:
                headline = f"<p>{esc(_('Game over.'))}</p>"
            places = state.outcome().places
            if places:  # the family variant played on for the other places
                ranks = ", ".join(f"{rank}. {esc(player)}" for rank, player in enumerate(places, start=1))
                headline += f'<p class="places">{_("Places: {players}").format(players=ranks)}</p>'
        else:
            duty = "" if past else f'<br><span class="duty">{esc(self._duty(state, roll))}</span>'
            words = _("{owner} plays {colour}").format(
                owner=f"<strong>{esc(owner)}</strong>",
                colour=f'<strong class="seat-name seat-{seat}">{esc(colour_word(seat))}</strong>',
            )
            icon = stone_icon(seat, _("{colour} stone").format(colour=colour_word(seat)), "big")
            headline = f"{icon}<p>{words}{duty}</p>"
        forced = ""
        if live and state.phase in (S.MUST_PASS, S.MUST_WIPE):
            name = "pass" if state.phase == S.MUST_PASS else "wipe"
            label = _("Pass — 1-2-3 loses the turn") if name == "pass" else _("Wipe the board — columns full")
            forced = (
                f'<button type="button" class="primary forced-button" data-target="{name}" '
                f'aria-keyshortcuts="{name[0].upper()}">{esc(label)} ({name[0].upper()})</button>'
            )
        # the seats: supply, stones on the board, the one closest to winning
        left = dict(zip(state.seats, state.supply))
        fewest = min(left.values())
        on_board = state.on_board()
        rows = []
        for i, colour in enumerate(state.seats):
            to_move = not over and i == state.seat
            lead = left[colour] == fewest and fewest < max(left.values()) and not over
            won = over and state.winner == i
            badges = (
                (f"<span class=badge-move>{esc(_('to move'))}</span>" if to_move else "")
                + (f"<span class=badge-lead>{esc(_('closest to winning'))}</span>" if lead else "")
                + (f"<span class=badge-lead>{esc(_('won'))}</span>" if won else "")
            )
            label = ngettext(
                "{colour}, {owner}: {count} stone left to place, {board} on the board",
                "{colour}, {owner}: {count} stones left to place, {board} on the board",
                left[colour],
            ).format(colour=colour_word(colour), owner=state.owners[i], count=left[colour], board=on_board[colour])
            label += (", " + _("to move") if to_move else "") + (", " + _("closest to winning") if lead else "")
            bar = (
                "".join(
                    f'<i class="slot{" used" if k >= left[colour] else ""}" style="--c:{SOLID[colour]}"></i>'
                    for k in range(per)
                )
                if per <= 15
                else ""
            )
            rows.append(
                f'<li class="seat-row{" to-move" if to_move else ""}" data-seat-row="{colour}" tabindex="0" '
                f'aria-label="{esc(label)}">'
                f'{stone_icon(colour)}<span class="seat-what"><span class="seat-name">'
                f"<strong>{esc(colour_word(colour))}</strong> · "
                f'{state.owners[i]}{badges}</span><span class="supply-bar" aria-hidden="true">{bar}</span></span>'
                f'<span class="seat-left"><b data-left="{colour}">{left[colour]}</b> {esc(_("left"))}'
                f'<small><span data-on-board="{colour}">{on_board[colour]}</span> {esc(_("on board"))}</small></span></li>'
            )
        log = []
        for t in turns:
            dice = "-".join(map(str, t["dice"]))
            text = _("rolled {dice}").format(dice=dice)
            if t["pocket"] is not None:
                text += f" → {S.NAMES[t['pocket']]}"
            if t["note"]:
                text += f"; {_(t['note'])}"
            if t["captured"]:
                text += "; " + _("took {stones}").format(stones=_captured_text(t["captured"]))
            if t["won"]:
                text += "; " + _("placed its last stone and won")
            log.append(
                f"<li>{stone_icon(t['seat'])}<span><strong>{esc(colour_word(t['seat']))}</strong> ({t['owner']}) "
                f"{esc(text)}</span></li>"
            )
        history = (
            f'<h4>{esc(_("Last turns"))}</h4><ol class="turn-log" aria-label="{esc(_("the last turns, newest first"))}">'
            f"{''.join(log)}</ol>"
            if log
            else ""
        )
        return (
            f'<section class="sage-panel" aria-label="{esc(_("seats and dice"))}">'
            f'<div class="sage-turn">{headline}</div>{forced}'
            f'<ul class="seat-list" aria-label="{esc(_("stones left to place per colour"))}">{"".join(rows)}</ul>'
            f"{history}</section>"
        )

    @staticmethod
    def _duty(state: Any, roll: Any) -> str:
        if roll is None or state.phase == S.AWAIT_ROLL:
            return _("rolling the dice…")
        dice = roll.dice_text()
        if state.phase == S.MUST_PASS:
            return _("rolled {dice}: the sage is distracted and the turn is lost.").format(dice=dice)
        if state.phase == S.MUST_WIPE:
            words = _("rolled {dice} = {total}: column {total} and column 6 are full, the board is wiped.")
            return words.format(dice=dice, total=roll.total)
        if state.column != roll.total:
            words = _("rolled {dice} = {total}: column {total} is full, so a stone in column 6 (no extra roll).")
            return words.format(dice=dice, total=roll.total)
        extra = " " + _("Triple: the same colour rolls again after.") if roll.is_triple else ""
        words = _("rolled {dice} = {total}: a stone in any empty pocket of column {column}.")
        return words.format(dice=dice, total=roll.total, column=state.column) + extra

    def key(self, state: Any, key: str, ui: dict[str, Any]) -> bool | str:
        """P plays the lost turn's pass, W the wipe (the page clicks the target a string names)."""
        if state.is_over():
            return False
        if key in ("p", "P") and state.phase == S.MUST_PASS:
            return "pass"
        if key in ("w", "W") and state.phase == S.MUST_WIPE:
            return "wipe"
        return False

    def key_help(self) -> str:
        return _("P passes a lost turn (1-2-3), W wipes the board when both columns are full")

    # ----- words ----------------------------------------------------------------------------
    def tally(self, state: Any) -> tuple[dict[str, int], str]:
        return state.scores(), _("stones on the board")

    def status_note(self, state: Any, past: bool = False) -> str:
        """What the seat to move rolled and where that sends its stone."""
        roll = state.last_roll()
        if past or state.is_over() or roll is None or state.phase == S.AWAIT_ROLL:
            return ""
        dice = "".join(f'<span class="die-face" data-face="{v}">{v}</span>' for v in roll.dice)
        if state.phase == S.MUST_PASS:
            where = _("1-2-3: the turn is lost")
        elif state.phase == S.MUST_WIPE:
            where = _("columns {column} and 6 full: wipe the board").format(column=roll.total)
        elif state.column != roll.total:
            where = _("column {column} full: column 6").format(column=roll.total)
        elif roll.is_triple:
            where = _("column {column}, then roll again").format(column=state.column)
        else:
            where = _("column {column}").format(column=state.column)
        rolled = _("{colour} rolled {dice} = {total}").format(
            colour=esc(name_of(state.seat_to_move)), dice=dice, total=roll.total
        )
        return f'<span class="rolled" data-rolled="{roll.dice_text()}">{rolled}</span> → {esc(where)}'

    def describe(self, before: Any, move: Any, after: Any) -> str:
        """ "red in column 5, row 3; takes back 2 blue", "turn lost (1-2-3)", "wipes the board"."""
        seat = before.seat_to_move
        if isinstance(move, S.Pass):
            return _("{colour}: turn lost (1-2-3)").format(colour=colour_word(seat))
        if isinstance(move, S.Wipe):
            return _("{colour}: columns full, wipes the board").format(colour=colour_word(seat))
        if not isinstance(move, S.Place):
            return str(move)
        column, row = S.COLUMN_OF[move.pocket], move.pocket % S.ROWS + 1
        taken = [
            (i, before.seats[before.board[i]])
            for i in range(S.CELLS)
            if before.board[i] != S.EMPTY and after.board[i] == S.EMPTY and i != move.pocket
        ]
        words = _("{colour} in column {column}, row {row}").format(colour=colour_word(seat), column=column, row=row)
        return words + ("; " + _("takes back {stones}").format(stones=_captured_text(taken)) if taken else "")

    def public_text(self, text: str) -> str:
        """ "roll 2-3-3" → "rolled 2-3-3" (the move list's words for the dice)."""
        return _("rolled {dice}").format(dice=text[5:]) if text.startswith("roll ") else text

    def rules(self) -> str:
        return rules_html(_rules_diagram(), RULES)

    def reset(self, ui: dict[str, Any]) -> None:
        super().reset(ui)
        ui.pop("cursor", None)  # the next roll names another column: start on one of its pockets


def _rules_diagram() -> str:
    """Three dice, 2 + 3 + 3 = 8: the stone goes in column 8."""
    dice = "".join(die_svg(v, 20 + 34 * k, 24, 26, (-6, 4, -3)[k]) for k, v in enumerate((2, 3, 3)))
    return (
        f'<svg class="rules-diagram" viewBox="0 0 230 50" role="img" aria-label="'
        f'{esc(_("dice 2, 3 and 3: 8, so a stone in column 8"))}">{dice}'
        f'<text x="112" y="30" class="rd-text">{esc(_("= 8: column 8"))}</text></svg>'
    )


RULES: tuple[RulesSection, ...] = (
    (
        N_("Goal"),
        (N_("Be the first to place every stone of one of your colours."),),
    ),
    (
        N_("On your turn"),
        (
            N_("Roll three dice with faces 1 to 3: the sum (3 to 9) is the column."),
            N_("Place a stone of your colour in any empty pocket of that column."),
            N_("1-2-3 loses the turn; a triple rolls again."),
            N_(
                "A full column sends the stone to column 6 (no extra roll); if column 6 is full too, the board is wiped."
            ),
        ),
    ),
    (
        N_("Taking stones back"),
        (
            N_(
                "Other colours lined up between the stone you place and another of yours, in any of the eight directions, go back to their owners."
            ),
            N_("Lines wrap from row 9 to row 1, never across columns 3 and 9."),
        ),
    ),
    (
        N_("Two players"),
        (N_("Each plays two colours, taking turns seat by seat."),),
    ),
)

BOARD = SageStonesBoard
