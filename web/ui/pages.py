"""The page's screens as HTML strings: home, game set-up, and the generic play screen.

Every game shares these; only the board and its side panel come from the
game's module in `boards/`. No DOM here: main.py puts the strings in place.
"""

from __future__ import annotations

from typing import Any

from boards import esc
from engine import CHANCE, OptionError, get_game

from . import catalogue
from .catalogue import title_of
from .session import SEAT_KINDS, THINK_DEFAULT, THINK_RANGE, Session, seat_kinds


def games() -> list[dict[str, Any]]:
    """The five games (id, title, summary, ready): from the built catalogue, so no game module is imported."""
    return catalogue.games()


# ----- home ----------------------------------------------------------------------------
def home(saved: dict[str, Any] | None = None) -> str:
    cards = []
    for g in games():
        if g["ready"]:
            summary = g["summary"]
            cards.append(
                f'<li><button type="button" class="game-card" data-action="pick" data-game="{g["id"]}">'
                f'<span class="game-title">{esc(g["title"])}</span><span class="game-summary">{esc(summary)}</span>'
                f'</button></li>')
        else:
            cards.append(
                f'<li><div class="game-card soon" aria-disabled="true" data-game="{g["id"]}" title="{esc(g["why"])}">'
                f'<span class="game-title">{esc(g["title"])}</span><span class="game-summary">coming soon</span>'
                f'</div></li>')
    resume = ""
    if saved:
        resume = (f'<p class="resume"><button type="button" class="primary" data-action="resume">'
                  f'Continue your {esc(title_of(saved["game"]))} game ({saved["moves"]} moves)</button></p>')
    return (f'<section class="home" aria-labelledby="home-title"><h2 id="home-title">Choose a game</h2>{resume}'
            f'<ul class="game-list">{"".join(cards)}</ul>'
            f'<p class="import-line">or <button type="button" class="link" data-action="import">open a saved game…</button></p>'
            f'<p class="scan-line"><button type="button" data-action="scan">Scan a board</button> '
            f'<span>photograph a real board: check what was read, score it or play on from it</span></p>'
            f'</section>')


# ----- set-up --------------------------------------------------------------------------
def option_field(opt: dict[str, Any], value: Any) -> str:
    name, kind = opt["name"], opt["type"]
    label = name.replace("_", " ")
    field_id = f"opt-{name}"
    help_text = f'<small id="{field_id}-help">{esc(opt["help"])}</small>' if opt.get("help") else ""
    described = f' aria-describedby="{field_id}-help"' if opt.get("help") else ""
    if opt.get("choices"):
        choices = "".join(
            f'<option value="{esc(c)}"{" selected" if c == value else ""}>{esc(c)}</option>' for c in opt["choices"])
        control = f'<select id="{field_id}" name="opt:{name}" data-type="{kind}"{described}>{choices}</select>'
    elif kind == "bool":
        control = (f'<input type="checkbox" id="{field_id}" name="opt:{name}" data-type="bool"'
                   f'{" checked" if value else ""}{described}>')
        return f'<div class="field check">{control}<label for="{field_id}">{esc(label)}</label>{help_text}</div>'
    elif kind == "int":
        bounds = "".join(f' {attr}="{opt[key]}"' for attr, key in (("min", "minimum"), ("max", "maximum"))
                         if opt.get(key) is not None)
        control = (f'<input type="number" id="{field_id}" name="opt:{name}" data-type="int" step="1" '
                   f'value="{esc(value)}"{bounds}{described}>')
    else:
        control = f'<input type="text" id="{field_id}" name="opt:{name}" data-type="{kind}" value="{esc(value)}"{described}>'
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
                raise OptionError(f"{name}: choose one of {', '.join(map(str, opt['choices']))}")
            out[name] = match[0]
        elif opt["type"] == "int":
            try:
                out[name] = int(str(value).strip())
            except ValueError:
                raise OptionError(f"{name.replace('_', ' ')} takes a whole number, not {value!r}") from None
        else:
            out[name] = value
    return out


def players_for(game_id: str, options: dict[str, Any]) -> list[str]:
    """The seats a game has under these options (some games take the player count as an option)."""
    return list(get_game(game_id).new_state(options, seed=0).players)


def seats_fieldset(players: list[str], seats: dict[str, str], kinds: dict[str, str] | None = None) -> str:
    """A menu per seat: a person, or a computer level the game has (`kinds`, from session.seat_kinds)."""
    rows = []
    for player in players:
        chosen = seats.get(player, "human")
        options = "".join(f'<option value="{k}"{" selected" if k == chosen else ""}>{esc(v)}</option>'
                          for k, v in (kinds or SEAT_KINDS).items())
        rows.append(f'<div class="field"><label for="seat-{esc(player)}">{esc(player)}</label>'
                    f'<select id="seat-{esc(player)}" name="seat:{esc(player)}">{options}</select></div>')
    return f'<fieldset id="seats"><legend>Players</legend>{"".join(rows)}</fieldset>'


def think_field(seconds: float) -> str:
    low, high = THINK_RANGE
    return (f'<fieldset><legend>Computer players</legend><div class="field"><label for="think">time per move (seconds)</label>'
            f'<input type="number" id="think" name="think" value="{seconds:g}" min="{low:g}" max="{high:g}" step="0.1" '
            f'aria-describedby="think-help"><small id="think-help">how long a computer player, or a hint, '
            f'may think about one move</small></div></fieldset>')


def setup(game_id: str, options: dict[str, Any] | None, seats: dict[str, str], seed: int, error: str = "",
          think_seconds: float = THINK_DEFAULT) -> str:
    game = get_game(game_id)
    info = game.describe()
    values = {o["name"]: o["default"] for o in info["options"]}
    values.update(options or {})
    fields = "".join(option_field(o, values[o["name"]]) for o in info["options"])
    try:
        players = players_for(game_id, values)
    except OptionError:
        players = players_for(game_id, {})
    return (
        f'<section class="setup" aria-labelledby="setup-title"><h2 id="setup-title">{esc(info["title"])}</h2>'
        f'<p class="rules-text">{esc(info["rules"])}</p>'
        f'<form id="setup" data-game="{game_id}" novalidate>'
        f'<fieldset><legend>Rules</legend>{fields}</fieldset>'
        f'<div id="seats-wrap">{seats_fieldset(players, seats, seat_kinds(game_id))}</div>'
        f'{think_field(think_seconds)}'
        f'<fieldset><legend>Chance</legend><div class="field"><label for="seed">seed</label>'
        f'<input type="number" id="seed" name="seed" value="{seed}" step="1" aria-describedby="seed-help">'
        f'<small id="seed-help">the same seed deals the same draws and rolls</small></div></fieldset>'
        f'<p class="form-error" id="setup-error" role="alert">{esc(error)}</p>'
        f'<div class="buttons"><button type="button" data-action="home">Back</button>'
        f'<button type="submit" class="primary" data-action="start">Start the game</button></div>'
        f'</form></section>'
    )


# ----- play ----------------------------------------------------------------------------
def play_frame(session: Session, key_help: str) -> str:
    """The play screen's fixed frame; its parts are filled by `play_parts`."""
    game = session.game
    keys = "Arrow keys move on the board, Enter or Space plays, U undoes, R redoes, H asks for a hint"
    if key_help:
        keys += f", {key_help}"
    return (
        f'<section class="play" data-game="{game.id}" aria-label="{esc(game.title)}">'
        f'<div class="status" id="status" role="status" aria-live="polite"></div>'
        f'<div class="message" id="message" role="alert" aria-live="assertive"></div>'
        f'<div class="layout"><div class="board-wrap" id="board"></div>'
        f'<aside class="side"><div id="panel"></div>'
        f'<div class="toolbar" id="toolbar" role="toolbar" aria-label="game actions"></div>'
        f'<div class="hint-box" id="hint" aria-live="polite"></div>'
        f'<div id="viewing"></div>'
        f'<h3 class="moves-title">Moves</h3><ol class="moves" id="moves" aria-label="moves: pick one to see its position"></ol>'
        f'<details class="rules" id="rules"><summary>Rules of {esc(game.title)}</summary>'
        f'<p>{esc(game.rules_summary)}</p><p class="keys"><strong>Keyboard:</strong> {esc(keys)}.</p></details>'
        f'</aside></div></section>'
    )


def fmt_clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


AI_NOTES = {  # what the status line says while a computer player works, by the worker's state
    "ready": "thinking…",
    "starting": "thinking… (the computer player is still starting)",
    "here": "thinking on this page (it is busy until the move)",
}


def status(session: Session, clock_now: dict[str, float] | None = None, ai_state: str = "ready") -> str:
    shown = session.shown_state()
    scores = shown.scores()
    outcome = shown.outcome()
    score_html = " ".join(
        f'<span class="score-item" data-player="{esc(p)}"><span class="who">{esc(p)}</span> '
        f'<b class="score" data-score="{esc(p)}">{scores.get(p, 0)}</b></span>' for p in shown.players)
    if outcome is not None:
        turn = f'<p class="turn over" data-outcome="{esc(outcome.winner or "draw")}">Game over: {esc(outcome.describe())}</p>'
    elif shown.current_player == CHANCE:
        turn = '<p class="turn">Drawing…</p>'
    else:
        player = shown.current_player
        seat = session.seats.get(player, "human")
        who = "" if seat == "human" else f" — {session.seat_label(player)}"
        busy = ""
        if session.thinking == "move" and session.viewing is None and seat != "human":
            busy = (f' <span class="thinking" data-thinking="{esc(player)}"><span class="spinner small" aria-hidden="true">'
                    f'</span>{esc(AI_NOTES.get(ai_state, AI_NOTES["ready"]))}</span>')
        turn = (f'<p class="turn" data-turn="{esc(player)}"><span class="dot dot-{esc(player)}"></span>'
                f'{esc(player.capitalize())} to play{esc(who)}{busy}</p>')
    clock = ""
    if clock_now:
        clock = '<p class="clocks">' + " ".join(
            f'<span class="clock{" running" if p == shown.current_player and outcome is None else ""}" data-clock="{esc(p)}">'
            f'{esc(p)} {fmt_clock(t)}</span>' for p, t in clock_now.items()) + "</p>"
    viewing = f'<p class="viewing-note">(position after move {session.viewing})</p>' if session.viewing is not None else ""
    return f'{turn}<p class="scores">{score_html}</p>{clock}{viewing}'


def toolbar(session: Session) -> str:
    def button(action: str, label: str, enabled: bool = True, key: str = "") -> str:
        shortcut = f' aria-keyshortcuts="{key}"' if key else ""
        return (f'<button type="button" data-action="{action}"{"" if enabled else " disabled"}{shortcut}>'
                f'{esc(label)}</button>')
    return "".join([
        button("hint", "Hint", session.viewing is None and session.human_to_move() and session.thinking is None, "H"),
        button("undo", "Undo", session.can_undo(), "U"),
        button("redo", "Redo", session.can_redo(), "R"),
        button("new", "New game"),
        button("export", "Export"),
        button("import", "Import"),
    ])


def hint_box(session: Session, ai_state: str = "ready") -> str:
    """The hint being thought about, or the one found: its move and how the position looks."""
    if session.thinking == "hint":
        note = AI_NOTES.get(ai_state, AI_NOTES["ready"])
        return f'<p class="hint-wait"><span class="spinner small" aria-hidden="true"></span>Hint: {esc(note)}</p>'
    hint = session.hint
    if hint is None or session.viewing is not None:
        return ""
    if hint.get("win_chance") is not None:
        how = f'about {round(100 * hint["win_chance"])}% to win'
    elif hint.get("margin") is not None:
        how = f'expected margin {"+" if hint["margin"] >= 0 else "−"}{abs(hint["margin"]):.1f} points'
    else:
        how = ""
    how = how or hint.get("text", "")
    return (f'<p class="hint-found" data-hint="{esc(hint["move"])}"><strong>Hint:</strong> play '
            f'<b class="hint-move">{esc(hint["move"])}</b>{f" — {esc(how)}" if how else ""}</p>')


def ai_problem(reason: str, seconds: float) -> str:
    """The worker failed: say why, and offer the way on (try again, or think on this page)."""
    return (f'<div class="ai-problem" data-ai-problem="1"><p class="msg msg-warn">The computer player cannot '
            f'think in the background: {esc(reason)}.</p><div class="buttons">'
            f'<button type="button" class="primary" data-action="ai-here">Let this page think '
            f'(it is busy about {seconds:g} s a move)</button>'
            f'<button type="button" data-action="ai-retry">Try the background player again</button></div></div>')


def viewing_banner(session: Session) -> str:
    if session.viewing is None:
        return ""
    return (f'<div class="viewing-banner"><p>Looking at the position after move {session.viewing} '
            f'of {session.state.ply}.</p><button type="button" data-action="live" class="primary">Back to the game</button>'
            f'<button type="button" data-action="continue">Continue from here</button></div>')


def moves(session: Session) -> str:
    rows = session.move_rows()
    shown_ply = session.state.ply if session.viewing is None else session.viewing
    items = [_move_item(0, "Start", "", shown_ply == 0, "the starting position")]
    for row in rows:
        seen = [session.board.public_text(c) for c in row["chance"]]  # no dealt hands, no drawn tiles
        chance = "".join(f'<span class="chance">{esc(c)}</span>' for c in seen)
        if row["player"] == CHANCE:
            label = chance
            text = ", ".join(seen)
        else:
            label = f'{chance}<span class="num">{row["number"]}.</span> <span class="dot dot-{esc(row["player"])}"></span>' \
                    f'<span class="mv">{esc(row["move"])}</span>'
            text = f'move {row["number"]}, {row["player"]}: {row["move"]}'
        items.append(_move_item(row["ply"], label, row["player"], row["ply"] == shown_ply, text))
    return "".join(items)


def _move_item(ply: int, label: str, player: str, current: bool, text: str) -> str:
    cur = ' aria-current="step"' if current else ""
    return (f'<li{" class=current" if current else ""}><button type="button" data-action="view" data-ply="{ply}"'
            f'{cur} aria-label="{esc(text)}">{label}</button></li>')


def message(kind: str, text: str) -> str:
    if not text:
        return ""
    return f'<p class="msg msg-{esc(kind)}">{esc(text)}</p>'
