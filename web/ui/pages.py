"""The page's screens as HTML strings: home, game set-up, and the generic play screen.

Every game shares these; only the board and its side panel come from the
game's module in `boards/`. No DOM here: main.py puts the strings in place.
"""

from __future__ import annotations

from typing import Any

from engine import CHANCE, GAME_IDS, OptionError, get_game

from .session import SEAT_KINDS, Session


def esc(text: Any) -> str:
    import html
    return html.escape(str(text), quote=True)


def title_of(game_id: str) -> str:
    return game_id.replace("-", " ").title()


def games() -> list[dict[str, Any]]:
    """The five games: described by the engine, or 'coming soon' if the module does not import."""
    out = []
    for game_id in GAME_IDS:
        try:
            info = get_game(game_id).describe()
            out.append({"id": game_id, "title": info["title"], "rules": info["rules"], "ready": True})
        except Exception as exc:  # a module being written must not take the page down
            out.append({"id": game_id, "title": title_of(game_id), "rules": "", "ready": False,
                        "why": f"{type(exc).__name__}: {exc}"})
    return out


# ----- home ----------------------------------------------------------------------------
def home(saved: dict[str, Any] | None = None) -> str:
    cards = []
    for g in games():
        if g["ready"]:
            summary = g["rules"].split(". ")[0].rstrip(".") + "." if g["rules"] else ""
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


def seats_fieldset(players: list[str], seats: dict[str, str]) -> str:
    rows = []
    for player in players:
        chosen = seats.get(player, "human")
        options = "".join(f'<option value="{k}"{" selected" if k == chosen else ""}>{esc(v)}</option>'
                          for k, v in SEAT_KINDS.items())
        rows.append(f'<div class="field"><label for="seat-{esc(player)}">{esc(player)}</label>'
                    f'<select id="seat-{esc(player)}" name="seat:{esc(player)}">{options}</select></div>')
    return f'<fieldset id="seats"><legend>Players</legend>{"".join(rows)}</fieldset>'


def setup(game_id: str, options: dict[str, Any] | None, seats: dict[str, str], seed: int, error: str = "") -> str:
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
        f'<div id="seats-wrap">{seats_fieldset(players, seats)}</div>'
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
    keys = "Arrow keys move on the board, Enter or Space plays, U undoes, R redoes"
    if key_help:
        keys += f", {key_help}"
    return (
        f'<section class="play" data-game="{game.id}" aria-label="{esc(game.title)}">'
        f'<div class="status" id="status" role="status" aria-live="polite"></div>'
        f'<div class="message" id="message" role="alert" aria-live="assertive"></div>'
        f'<div class="layout"><div class="board-wrap" id="board"></div>'
        f'<aside class="side"><div id="panel"></div>'
        f'<div class="toolbar" id="toolbar" role="toolbar" aria-label="game actions"></div>'
        f'<div id="viewing"></div>'
        f'<h3 class="moves-title">Moves</h3><ol class="moves" id="moves" aria-label="moves: pick one to see its position"></ol>'
        f'<details class="rules" id="rules"><summary>Rules of {esc(game.title)}</summary>'
        f'<p>{esc(game.rules_summary)}</p><p class="keys"><strong>Keyboard:</strong> {esc(keys)}.</p></details>'
        f'</aside></div></section>'
    )


def fmt_clock(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.999))
    return f"{seconds // 60}:{seconds % 60:02d}"


def status(session: Session, clock_now: dict[str, float] | None = None) -> str:
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
        who = "" if seat == "human" else f" — {SEAT_KINDS[seat]}"
        turn = f'<p class="turn" data-turn="{esc(player)}"><span class="dot dot-{esc(player)}"></span>{esc(player.capitalize())} to play{esc(who)}</p>'
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
        button("undo", "Undo", session.can_undo(), "U"),
        button("redo", "Redo", session.can_redo(), "R"),
        button("new", "New game"),
        button("export", "Export"),
        button("import", "Import"),
    ])


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
