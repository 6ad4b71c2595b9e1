"""The page's screens as HTML strings: game set-up and the generic play screen (home: ui.home).

Every game shares these; only the board, its side panel, its words for moves
and its rules come from the game's module in `boards/`. No DOM here: the page
puts the strings in place.
"""

from __future__ import annotations

import random
from typing import Any

from boards import board_for, esc
from engine import CHANCE, OptionError, Outcome, get_game

from .catalogue import game_summary, game_title
from .i18n import DEFAULT, N_, _, language, ngettext
from .options import option_choice, option_help, option_label
from .session import HUMAN, SEAT_KINDS, THINK_DEFAULT, THINK_RANGE, Session, seat_kinds
from .words import capitalised, colour_word, ending, name_of

PLAYERS_OPTION = "players"  # a game's player count: asked with the seats, not among the rule switches
CHANCE_PROBE_PLIES = 12  # a seeded random opening this long shows whether a game (so set up) has chance
MATCHES = {  # "Who plays": the seats each choice gives (the first seat, then every other seat)
    "medium": (N_("You against the computer (medium)"), HUMAN, "medium"),
    "easy": (N_("You against the computer (easy)"), HUMAN, "easy"),
    "hard": (N_("You against the computer (hard)"), HUMAN, "hard"),
    "people": (N_("People taking turns on this device"), HUMAN, HUMAN),
    "watch": (N_("The computer against itself (medium)"), "medium", "medium"),
}
MATCH_DEFAULT = "medium"
MATCH_CUSTOM = "custom"  # the seats chosen one by one
SEAT_WORDS = {HUMAN: N_("a person")}  # the seat menu's words (the levels' come from SEAT_KINDS)


# ----- set-up --------------------------------------------------------------------------
def option_field(opt: dict[str, Any], value: Any) -> str:
    name, kind = opt["name"], opt["type"]
    label = option_label(name)
    field_id = f"opt-{name}"
    words = option_help(name, opt.get("help") or "")
    help_text = f'<small id="{field_id}-help">{esc(words)}</small>' if words else ""
    described = f' aria-describedby="{field_id}-help"' if words else ""
    if opt.get("choices"):
        choices = "".join(
            f'<option value="{esc(c)}"{" selected" if c == value else ""}>{esc(option_choice(c))}</option>'
            for c in opt["choices"]
        )
        control = f'<select id="{field_id}" name="opt:{name}" data-type="{kind}"{described}>{choices}</select>'
    elif kind == "bool":
        control = (
            f'<input type="checkbox" id="{field_id}" name="opt:{name}" data-type="bool"'
            f"{' checked' if value else ''}{described}>"
        )
        return f'<div class="field check">{control}<label for="{field_id}">{esc(label)}</label>{help_text}</div>'
    elif kind == "int":
        bounds = "".join(
            f' {attr}="{opt[key]}"'
            for attr, key in (("min", "minimum"), ("max", "maximum"))
            if opt.get(key) is not None
        )
        control = (
            f'<input type="number" id="{field_id}" name="opt:{name}" data-type="int" step="1" '
            f'inputmode="numeric" value="{esc(value)}"{bounds}{described}>'
        )
    else:
        control = (
            f'<input type="text" id="{field_id}" name="opt:{name}" data-type="{kind}" value="{esc(value)}"{described}>'
        )
    return f'<div class="field"><label for="{field_id}">{esc(label)}</label>{control}{help_text}</div>'


def read_options(schema: list[dict[str, Any]], raw: dict[str, Any]) -> dict[str, Any]:
    """Form values (strings, or bools for checkboxes) → typed option values; OptionError if unreadable."""
    out: dict[str, Any] = {}
    for opt in schema:
        name = opt["name"]
        if name not in raw:
            continue
        value = raw[name]
        if opt["type"] == "bool":
            out[name] = bool(value)
        elif opt.get("choices"):
            match = [c for c in opt["choices"] if str(c) == str(value)]
            if not match:
                raise OptionError(f"{name}: choose one of {', '.join(map(str, opt['choices']))}", rule="choice")
            out[name] = match[0]
        elif opt["type"] == "int":
            try:
                out[name] = int(str(value).strip())
            except ValueError:
                raise OptionError(
                    f"{name.replace('_', ' ')} takes a whole number, not {value!r}", rule="option type"
                ) from None
        else:
            out[name] = value
    return out


def players_for(game_id: str, options: dict[str, Any]) -> list[str]:
    """The seats a game has under these options (some games take the player count as an option)."""
    return list(get_game(game_id).new_state(options, seed=0).players)


def has_chance(game_id: str, options: dict[str, Any]) -> bool:
    """Whether dice, draws or deals come into this game as set up (the seed matters only then)."""
    state = get_game(game_id).new_state(options, seed=0)
    rng = random.Random(0)
    while state.ply < CHANCE_PROBE_PLIES and not state.is_over():
        if state.is_chance_node():
            return True
        state.push_unchecked(rng.choice(list(state.legal_moves())))
    return state.is_chance_node()


def match_seats(match: str, players: list[str], kinds: dict[str, str]) -> dict[str, str]:
    """The seats a "Who plays" choice gives (a level the game lacks falls back to a person)."""
    _label, first, others = MATCHES[match]
    seats = {p: (first if i == 0 else others) for i, p in enumerate(players)}
    return {p: kind if kind in kinds else HUMAN for p, kind in seats.items()}


def match_of(seats: dict[str, str], players: list[str], kinds: dict[str, str]) -> str:
    """The "Who plays" choice these seats are, or MATCH_CUSTOM."""
    chosen = {p: seats.get(p, HUMAN) for p in players}
    for match in MATCHES:
        if match_seats(match, players, kinds) == chosen:
            return match
    return MATCH_CUSTOM


def default_seats(game_id: str, players: list[str]) -> dict[str, str]:
    return match_seats(MATCH_DEFAULT, players, seat_kinds(game_id))


def seat_label(kind: str, kinds: dict[str, str]) -> str:
    return _(SEAT_WORDS.get(kind, kinds.get(kind, kind)))


def seats_fieldset(
    players: list[str], seats: dict[str, str], kinds: dict[str, str] | None = None, count: str = ""
) -> str:
    """Who plays: one choice for the usual line-ups, the player count (`count`), a menu per seat."""
    kinds = kinds or SEAT_KINDS
    chosen = match_of(seats, players, kinds)
    if len(players) == 1:
        listed = [("people", _("You alone (solitaire)")), ("watch", _("The computer alone (medium)"))]
    else:
        listed = [(key, _(label)) for key, (label, _first, _others) in MATCHES.items()]
    listed.append((MATCH_CUSTOM, _("Each seat as chosen below")))
    matches = "".join(
        f'<option value="{key}"{" selected" if key == chosen else ""}>{esc(label)}</option>' for key, label in listed
    )
    who_plays = esc(_("Who plays"))
    return (
        f'<fieldset id="seats"><legend>{who_plays}</legend>'
        f'<div class="field match"><label for="match" class="sr-only">{who_plays}</label>'
        f'<select id="match" name="match">{matches}</select></div>{count}'
        f'<div class="seat-rows" id="seat-rows">{seat_rows(players, seats, kinds)}</div></fieldset>'
    )


def seat_rows(players: list[str], seats: dict[str, str], kinds: dict[str, str]) -> str:
    """A menu per seat: a person, or each computer level the game has."""
    rows = []
    for player in players:
        chosen = seats.get(player, HUMAN)
        options = "".join(
            f'<option value="{k}"{" selected" if k == chosen else ""}>{esc(seat_label(k, kinds))}</option>'
            for k in kinds
        )
        rows.append(
            f'<div class="field seat"><label for="seat-{esc(player)}">{esc(name_of(player))}</label>'
            f'<select id="seat-{esc(player)}" name="seat:{esc(player)}">{options}</select></div>'
        )
    return "".join(rows)


def players_field(game_id: str, options: dict[str, Any]) -> str:
    """The number of players, for games that take it as an option (asked with the seats)."""
    for opt in get_game(game_id).describe()["options"]:
        if opt["name"] == PLAYERS_OPTION:
            return option_field(opt, options.get(PLAYERS_OPTION, opt["default"]))
    return ""


def think_field(seconds: float) -> str:
    low, high = THINK_RANGE
    label = _("Computer's time per move (seconds)")
    return (
        f'<div class="field"><label for="think">{esc(label)}</label>'
        f'<input type="number" id="think" name="think" value="{seconds:g}" min="{low:g}" max="{high:g}" step="0.1" '
        f'inputmode="decimal" aria-describedby="think-help"><small id="think-help">'
        f"{esc(_('how long a computer player, or a hint, may think about one move'))}</small></div>"
    )


def seed_fieldset(seed: int) -> str:
    """The seed, for games with chance only."""
    return (
        f'<fieldset><legend>{esc(_("Chance"))}</legend><div class="field"><label for="seed">{esc(_("Seed"))}</label>'
        f'<input type="number" id="seed" name="seed" value="{seed}" step="1" inputmode="numeric" '
        f'aria-describedby="seed-help"><small id="seed-help">{esc(_("the same seed deals the same draws and rolls"))}'
        f"</small></div></fieldset>"
    )


def setup(
    game_id: str,
    options: dict[str, Any] | None,
    seats: dict[str, str] | None,
    seed: int,
    error: str = "",
    think_seconds: float = THINK_DEFAULT,
) -> str:
    """The set-up: who plays first (the usual line-ups, each seat), then More options, then how to play."""
    game = get_game(game_id)
    info = game.describe()
    values = {o["name"]: o["default"] for o in info["options"]}
    values.update(options or {})
    try:
        players = players_for(game_id, values)
    except OptionError:
        players = players_for(game_id, {})
    kinds = seat_kinds(game_id)
    seats = seats if seats else default_seats(game_id, players)
    count = players_field(game_id, values)
    rules = "".join(option_field(o, values[o["name"]]) for o in info["options"] if o["name"] != PLAYERS_OPTION)
    try:
        chance = has_chance(game_id, values)
    except OptionError:
        chance = False
    board = board_for(game)
    return (
        f'<section class="setup" aria-labelledby="setup-title"><h2 id="setup-title">{esc(game_title(game_id))}</h2>'
        f'<p class="setup-summary">{esc(game_summary(game_id))}</p>'
        f'<form id="setup" data-game="{game_id}" novalidate>'
        f'<div id="seats-wrap">{seats_fieldset(players, seats, kinds, count)}</div>'
        f'<details class="more-options" id="more-options"><summary>{esc(_("More options"))}</summary>'
        f"<fieldset><legend>{esc(_('Rules'))}</legend>"
        f"{rules or '<p>' + esc(_('This game has no rule switches.')) + '</p>'}</fieldset>"
        f"<fieldset><legend>{esc(_('Computer players'))}</legend>{think_field(think_seconds)}</fieldset>"
        f'<div id="seed-wrap">{seed_fieldset(seed) if chance else ""}</div></details>'
        f'<p class="form-error" id="setup-error" role="alert">{esc(error)}</p>'
        f'<div class="buttons"><button type="button" data-action="home">{esc(_("Back"))}</button>'
        f'<button type="submit" class="primary" data-action="start">{esc(_("Start the game"))}</button></div>'
        f"</form>"
        f'<section class="how-to-play" aria-labelledby="how-title"><h3 id="how-title">{esc(_("How to play"))}</h3>'
        f"{board.rules()}</section></section>"
    )


# ----- play ----------------------------------------------------------------------------
def play_frame(session: Session, key_help: str) -> str:
    """The play screen's fixed frame; the page (controllers.page) fills its parts."""
    game = session.game
    keys = _("Arrow keys move on the board, Enter or Space plays, U undoes, R redoes, H asks for a hint")
    if key_help:
        keys += f", {key_help}"
    return (
        f'<section class="play" data-game="{game.id}" aria-label="{esc(game_title(game.id))}">'
        f'<div class="status-bar" id="status-bar"><div class="status" id="status" role="status" aria-live="polite">'
        f"</div></div>"
        f'<div class="message" id="message" role="alert" aria-live="assertive"></div>'
        f'<p class="sr-only" id="announce" aria-live="polite" aria-atomic="true"></p>'
        f'<div class="layout"><div class="board-area" id="board-area">'
        f'<div class="board-wrap" id="board" tabindex="-1"></div><div id="viewing"></div><div id="summary"></div></div>'
        f'<aside class="side">'
        f'<div class="toolbar" id="toolbar" role="toolbar" aria-label="{esc(_("game actions"))}"></div>'
        f'<div class="hint-box" id="hint" aria-live="polite"></div>'
        f'<div id="panel"></div>'
        f'<h3 class="moves-title">{esc(_("Moves"))}</h3>'
        f'<ol class="moves" id="moves" aria-label="{esc(_("moves: pick one to see its position"))}"></ol>'
        f'<details class="rules" id="rules"><summary>'
        f"{esc(_('How to play {game}').format(game=game_title(game.id)))}</summary>"
        f'<div class="rules-body">{session.board.rules()}</div>'
        f'<p class="keys"><strong>{esc(_("Keyboard:"))}</strong> {esc(keys)}.</p></details>'
        f"</aside></div></section>"
    )


def fmt_clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


AI_NOTES = {  # what the status line says while a computer player works, by the worker's state
    "ready": N_("thinking…"),
    "starting": N_("thinking… (the computer player is still starting)"),
    "here": N_("thinking on this page (it is busy until the move)"),
}


def status(session: Session, clock_now: dict[str, float] | None = None, ai_state: str = "ready") -> str:
    """The status bar: whose turn (or which earlier move is shown), the tally, what was rolled or drawn."""
    shown = session.shown_state()
    board = session.board
    past = session.viewing is not None
    outcome = shown.outcome()
    if past:
        turn = (
            f'<p class="turn viewing-note" data-viewing="{session.viewing}">{esc(viewing_words(session))}</p>'
            f'<div class="viewing-actions">{step_buttons(session)}'
            f'<button type="button" data-action="live" class="primary">{esc(_("Back to the game"))}</button>'
            f'<button type="button" data-action="continue">{esc(_("Continue from here"))}</button></div>'
        )
    elif outcome is not None:
        reopen = (
            ""
            if session.shows_summary()
            else f'<button type="button" data-action="summary" class="link">{esc(_("Show the summary"))}</button>'
        )
        turn = (
            f'<p class="turn over" data-outcome="{esc(outcome.winner or "draw")}" '
            f'data-termination="{outcome.termination.value}">{esc(_("Game over."))} {esc(ending(outcome))}{" " + reopen if reopen else ""}</p>'
        )
    elif shown.current_player == CHANCE:
        turn = f'<p class="turn">{esc(_("Drawing…"))}</p>'
    else:
        player = shown.current_player
        seat = session.seats.get(player, HUMAN)
        who = "" if seat == HUMAN else f" — {session.seat_label(player)}"
        busy = ""
        if session.thinking == "move" and seat != HUMAN:
            busy = (
                f' <span class="thinking" data-thinking="{esc(player)}"><span class="spinner small" aria-hidden="true">'
                f"</span>{esc(_(AI_NOTES.get(ai_state, AI_NOTES['ready'])))}</span>"
            )
        turn = (
            f'<p class="turn" data-turn="{esc(player)}"><span class="dot dot-{esc(player)}"></span>'
            f"{esc(_('{player} to play').format(player=name_of(player)))}{esc(who)}{busy}</p>"
        )
    tally, unit = board.tally(shown)
    items = " ".join(
        f'<span class="score-item" data-player="{esc(p)}" title="{esc(name_of(p))}: {value} {esc(unit)}">'
        f'<span class="dot dot-{esc(p)}" aria-hidden="true"></span><span class="who">{esc(name_of(p))}</span> '
        f'<b class="score" data-score="{esc(p)}">{value}</b></span>'
        for p, value in tally.items()
    )
    note = board.status_note(shown, past)
    clock = ""
    if clock_now:
        clock = (
            '<p class="clocks">'
            + " ".join(
                f'<span class="clock{" running" if p == shown.current_player and outcome is None and not past else ""}" '
                f'data-clock="{esc(p)}">{esc(colour_word(p))} {fmt_clock(t)}</span>'
                for p, t in clock_now.items()
            )
            + "</p>"
        )
    return (
        f'{turn}<p class="scores"><span class="unit">{esc(capitalised(unit))}:</span> {items}</p>'
        f"{f'<p class=status-note>{note}</p>' if note else ''}{clock}"
    )


def toolbar(session: Session, letters: bool = False) -> str:
    """Hint, Undo and Redo, and the less used actions in a menu: one row on a phone. The menu holds the
    colour-blind switch too (`letters`: each stone's colour written on it)."""

    def button(action: str, label: str, enabled: bool = True, key: str = "", role: str = "") -> str:
        shortcut = f' aria-keyshortcuts="{key}"' if key else ""
        kind = f' role="{role}"' if role else ""
        return (
            f'<button type="button" data-action="{action}"{"" if enabled else " disabled"}{shortcut}{kind}>'
            f"{esc(label)}</button>"
        )

    menu = "".join(
        [
            button("new", _("New game"), role="menuitem"),
            button("export", _("Export this game"), role="menuitem"),
            button("import", _("Open a saved game…"), role="menuitem"),
            f'<button type="button" data-action="letters" role="menuitemcheckbox" '
            f'aria-checked="{"true" if letters else "false"}">{esc(_("Letters on stones (colour-blind)"))}</button>',
        ]
    )
    return "".join(
        [
            button(
                "hint", _("Hint"), session.viewing is None and session.human_to_move() and session.thinking is None, "H"
            ),
            button("undo", _("Undo"), session.can_undo(), "U"),
            button("redo", _("Redo"), session.can_redo(), "R"),
            f'<details class="menu" id="game-menu"><summary id="game-menu-button" aria-label="{esc(_("more actions"))}">{esc(_("More"))}</summary>'
            f'<div class="menu-list" role="menu">{menu}</div></details>',
        ]
    )


def hint_box(session: Session, ai_state: str = "ready") -> str:
    """The hint being thought about, or the one found: its move and how the position looks."""
    if session.thinking == "hint":
        note = _(AI_NOTES.get(ai_state, AI_NOTES["ready"]))
        return (
            f'<p class="hint-wait"><span class="spinner small" aria-hidden="true"></span>'
            f"{esc(_('Hint: {note}').format(note=note))}</p>"
        )
    hint = session.hint
    if hint is None or session.viewing is not None:
        return ""
    if hint.get("win_chance") is not None:
        how = _("about {percent}% to win").format(percent=round(100 * hint["win_chance"]))
    elif hint.get("margin") is not None:
        margin = f"{'+' if hint['margin'] >= 0 else '−'}{abs(hint['margin']):.1f}"
        how = _("expected margin {margin} points").format(margin=margin)
    else:
        how = ""
    if not how and language() == DEFAULT:  # the engine's own note is English: other languages show the move alone
        how = hint.get("text", "")
    return (
        f'<p class="hint-found" data-hint="{esc(hint["move"])}"><strong>{esc(_("Hint:"))}</strong> {esc(_("play"))} '
        f'<b class="hint-move">{esc(hint["move"])}</b>{f" — {esc(how)}" if how else ""}</p>'
    )


def ai_problem(reason: str, seconds: float) -> str:
    """The worker failed: say why, and offer the way on (try again, or think on this page)."""
    return (
        f'<div class="ai-problem" data-ai-problem="1"><p class="msg msg-warn">'
        f"{esc(_('The computer player cannot think in the background: {reason}.').format(reason=reason))}"
        f'</p><div class="buttons"><button type="button" class="primary" data-action="ai-here">'
        f"{esc(_('Let this page think (it is busy about {seconds} s a move)').format(seconds=f'{seconds:g}'))}</button>"
        f'<button type="button" data-action="ai-retry">{esc(_("Try the background player again"))}</button></div></div>'
    )


def step_buttons(session: Session) -> str:
    """While an earlier position is shown: one move back and one on, to replay the game move by move."""
    shown = session.viewing or 0
    return (
        f'<button type="button" data-action="view" data-ply="{max(shown - 1, 0)}"{" disabled" if shown == 0 else ""}'
        f' aria-label="{esc(_("one move back"))}">‹ {esc(_("Back"))}</button>'
        f'<button type="button" data-action="view" data-ply="{shown + 1}" aria-label="{esc(_("one move on"))}">'
        f"{esc(_('On'))} ›</button>"
    )


def summary(session: Session) -> str:
    """The finished game summed up over its board: who won and why, the score sheet, and what next (play
    again with the same options and seats, replay the moves, export, or put it aside to see the board)."""
    state = session.state
    outcome = state.outcome()
    if outcome is None:
        return ""
    tally, unit = session.board.tally(state)
    rows = "".join(
        f'<tr data-player="{esc(p)}"><th scope="row"><span class="dot dot-{esc(p)}" aria-hidden="true"></span>'
        f'{esc(name_of(p))}</th><td class="final-score" data-final-score="{esc(p)}">{value}</td>'
        f"<td>{esc(result_of(outcome, p))}</td></tr>"
        for p, value in tally.items()
    )
    moves = session.move_number(state.ply)
    after = ngettext("After {count} move", "After {count} moves", moves)
    return (
        f'<section class="summary" id="summary-box" aria-labelledby="summary-title" '
        f'data-outcome="{esc(outcome.winner or "draw")}" data-termination="{outcome.termination.value}">'
        f'<h2 id="summary-title" tabindex="-1">{esc(_("Game over"))}</h2>'
        f'<p class="summary-ending">{esc(ending(outcome))}</p>'
        f'<table class="score-sheet"><caption>{esc(after.format(count=moves))}</caption>'
        f'<thead><tr><th scope="col">{esc(_("Player"))}</th><th scope="col">{esc(unit.capitalize())}</th>'
        f'<th scope="col">{esc(_("Result"))}</th></tr></thead><tbody>{rows}</tbody></table>'
        f'<div class="buttons summary-actions">'
        f'<button type="button" class="primary" data-action="again">{esc(_("Play again"))}</button>'
        f'<button type="button" data-action="replay">{esc(_("Replay the moves"))}</button>'
        f'<button type="button" data-action="export">{esc(_("Export this game"))}</button>'
        f'<button type="button" data-action="close-summary">{esc(_("See the board"))}</button></div></section>'
    )


def result_of(outcome: Outcome, player: str) -> str:
    """A player's line of the score sheet: their place, or whether they won."""
    if outcome.places:
        return _("place {place}").format(place=outcome.places.index(player) + 1) if player in outcome.places else ""
    if player not in outcome.winners:
        return ""
    return _("wins") if outcome.winner is not None else _("shares the win")


def viewing_words(session: Session) -> str:
    """ "Viewing move 12 of 40", numbered as the move list numbers the players' moves."""
    shown, last = session.move_number(session.viewing or 0), session.move_number(session.state.ply)
    return _("Viewing the start") if shown == 0 else _("Viewing move {shown} of {last}").format(shown=shown, last=last)


def viewing_banner(session: Session) -> str:
    """On the board while an earlier position is shown: which move, so it cannot pass for the live game."""
    if session.viewing is None:
        return ""
    return f'<p class="viewing-badge" aria-hidden="true">{esc(viewing_words(session))}</p>'


def moves(session: Session) -> str:
    """The move list: number, who and the move in words (what chance brought first, small), the notation."""
    rows = session.move_rows()
    shown_ply = session.state.ply if session.viewing is None else session.viewing
    items = [
        _move_item(
            0,
            f'<span class="num"></span><span class="words">{esc(_("Start"))}'
            f'<span class="sr-only">: {esc(_("the starting position"))}</span></span>',
            shown_ply == 0,
        )
    ]
    for row in rows:
        seen = [session.board.public_text(c) for c in row["chance"]]  # no dealt hands, no drawn tiles
        chance = "".join(f'<span class="chance">{esc(c)}</span>' for c in seen)
        if row["player"] == CHANCE:
            label = f'<span class="num"></span><span class="words">{chance}</span>'
        else:  # the name is the text as shown (a listener hears what a reader sees), with its pauses
            label = (
                f'<span class="sr-only">{esc(_("move"))} </span><span class="num">{row["number"]}.</span><span class="words">'
                f'<b>{esc(name_of(row["player"]))}</b><span class="sr-only">:</span> {esc(row["words"])}{chance}</span>'
                f'<span class="sr-only">(</span><span class="mv">{esc(row["move"])}</span><span class="sr-only">)</span>'
            )
        items.append(_move_item(row["ply"], label, row["ply"] == shown_ply))
    return "".join(items)


def _move_item(ply: int, label: str, current: bool) -> str:
    cur = ' aria-current="step"' if current else ""
    return (
        f'<li{" class=current" if current else ""}><button type="button" data-action="view" data-ply="{ply}"'
        f"{cur}>{label}</button></li>"
    )
