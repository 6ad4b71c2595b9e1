"""The "Scan a board" screen: a photo read by the companion, drawn over, corrected, scored, played on.

- `ScanReading`: what the companion read (`POST ./api/read`, vision/api.py) and the
  corrections tapped since; the position, its score and a game from it. Pure Python.
- `read_answer`, `describe_failure`: the companion's HTTP answer in words.
- `pick_html`, `reading_html`, `result_html`, `overlay_svg`, `score_html`: the screen as HTML.
- `ScanScreen`: the DOM glue (file inputs, fetch, redraws); it imports the browser only
  when it runs, so everything above is tested in CPython and in Pyodide alike.

The photo is drawn inside an SVG whose coordinates are that photo's pixels, so the
companion's `points` (in the same pixels) place each marker on its stone at any screen
size, and a pinch or a tap zooms photo and markers together (boards/zoom.py, zoom.js:
a rings board's locations are a dozen pixels apart on a phone). A tap on a location
opens a small palette of its colours, the person picks one; nothing cycles. A tap on a
colour's count sets every stone read in that colour at once (a set the reader misnamed).
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from dataclasses import dataclass, field
from typing import Any

from engine import PositionError, StonesError, get_game

from boards.sage_stones import SOLID
from boards.zoom import Frame, Zoom
from .catalogue import game_title
from .i18n import N_, _, ngettext
from .pages import esc
from .session import Session
from .words import colour_word, name_of, reason

SCAN_GAMES = ("three-stones", "morris", "rings", "sage-stones")  # the boards the companion reads
NOT_SCANNED = {  # the games it does not read yet, and why, in a player's words
    "triple-domino": N_("not yet: its tiles lie anywhere on the table, in any shape, so there is no board to find"),
}
LOW_CONFIDENCE = 0.8  # below this a location is marked "to check"
MARK_SHARE = 0.4  # a marker's radius as a share of the distance to the nearest other location
FINGER = 44.0  # CSS px a location's hit area needs
PHONE_WIDTH = 380.0  # CSS px a phone shows the photo across: how far a tap zooms so locations reach FINGER
API = "./api/read"  # same origin as the page: the companion serves both
FILE_INPUTS = ("scan-camera", "scan-file")
COMPANION_MISSING = N_(
    "The scanner runs on the computer that started Stones; open this page from there "
    "(a phone on the same Wi-Fi: the address that computer shows)."
)
COMPANION_HOW = N_("On that computer: ./stones start --lan prints the address for a phone.")
ASSUMED_WORDS = {  # what the engine assumed for a position from a photo (its key), as a sentence
    "in_hand": N_("Stones in hand were counted from the board, as if none had been taken yet."),
    "since_removal": N_("The count towards the no-removal draw starts again from zero."),
    "last": N_("The next stone may go anywhere: a photo cannot show which stone was played last."),
    "pouch": N_("The pouch holds the full set less the stones on the board."),
    "passes": N_("Nobody has just passed."),
    "players": N_("The players are the colours on the board, in the usual order."),
    "scores": N_("The scores were counted from the board."),
}
HINTS = {  # what to do next, by the companion's error code
    "no_board": N_("Take the photo from above with the whole board in view, in good light."),
    "wrong_game": N_("Choose that game above and send the photo again."),
    "not_an_image": N_("Choose a photo of the board instead."),
    "too_large": N_("Choose a smaller photo."),
    "too_many_pixels": N_("Choose a smaller photo."),
    "too_small": N_("Take the photo closer to the board."),
    "unsupported_game": N_("Choose one of the games above."),
}


class ScanError(Exception):
    """A scan that produced no reading; `missing` when the companion is not there at all."""

    def __init__(self, message: str, missing: bool = False) -> None:
        super().__init__(message)
        self.missing = missing


# ----- the reading --------------------------------------------------------------------------
@dataclass
class ScanReading:
    """The companion's reading of one photo plus the corrections made on screen."""

    game: str
    read: dict[str, str | None]  # as the companion read it
    confidence: dict[str, float]
    points: dict[str, tuple[float, float]]  # location -> (x, y) in the shown photo's pixels
    size: tuple[float, float]  # the shown photo's (width, height)
    seconds: float = 0.0
    cells: dict[str, str | None] = field(default_factory=dict)  # as corrected
    checked: set[str] = field(default_factory=set)  # locations a person has set

    def __post_init__(self) -> None:
        if not self.cells:
            self.cells = dict(self.read)

    @classmethod
    def from_answer(cls, answer: Any, game: str) -> "ScanReading":
        """The reading in the companion's JSON; ScanError when it is not one for this game."""
        if not isinstance(answer, dict):
            raise ScanError("the companion's answer is not a reading")
        if answer.get("game") != game:
            raise ScanError(f"the companion read a {answer.get('game')!r} board, not {game}")
        engine_game = get_game(game)
        locations = engine_game.locations()
        cells, confidence, points = answer.get("cells"), answer.get("confidence"), answer.get("points")
        if not (isinstance(cells, dict) and isinstance(confidence, dict) and isinstance(points, dict)):
            raise ScanError("the companion's answer lacks cells, confidence or points: is the companion up to date?")
        missing = [loc for loc in locations if loc not in cells or loc not in points]
        if missing or set(cells) != set(locations):
            raise ScanError(f"the companion's answer does not cover this board (e.g. {', '.join(missing[:3])})")
        strange = [c for c in cells.values() if c is not None and c not in engine_game.palette]
        if strange:
            raise ScanError(f"the companion read a colour this game does not have: {strange[0]}")
        size = answer.get("image_size")
        if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, (int, float)) and v > 0 for v in size)):
            raise ScanError("the companion's answer lacks the photo's size")
        try:
            where = {loc: (float(points[loc][0]), float(points[loc][1])) for loc in locations}
            sure = {loc: float(confidence.get(loc, 0.0)) for loc in locations}
        except (TypeError, ValueError, IndexError):
            raise ScanError("the companion's answer holds a malformed point or confidence") from None
        return cls(
            game=game,
            read={loc: cells[loc] for loc in locations},
            confidence=sure,
            points=where,
            size=(float(size[0]), float(size[1])),
            seconds=float(answer.get("seconds") or 0.0),
        )

    # ----- corrections ---------------------------------------------------------------------
    def colour_choices(self) -> list[str | None]:
        """What a location's palette offers: empty, then the game's colours, those read on this board first."""
        palette = list(get_game(self.game).palette)
        seen = [c for c in palette if c in set(self.read.values())]
        return [None] + seen + [c for c in palette if c not in seen]

    def set(self, location: str, colour: str | None) -> None:
        """A location set by hand (to one of `colour_choices`); it counts as checked."""
        if location not in self.cells:
            raise KeyError(location)
        if colour not in self.colour_choices():
            raise ValueError(f"{self.game} has no {colour} stones")
        self.cells[location] = colour
        self.checked.add(location)

    def recolour(self, colour: str, into: str | None) -> list[str]:
        """Every location now showing `colour` set to `into` at once (the reader named a whole set
        wrongly: dark blue glass read black); they count as checked. Returns those locations."""
        choices = self.colour_choices()
        if colour is None or colour not in choices:
            raise ValueError(f"{self.game} has no {colour} stones")
        if into not in choices:
            raise ValueError(f"{self.game} has no {into} stones")
        moved = [loc for loc, now in self.cells.items() if now == colour]
        for location in moved:
            self.cells[location] = into
            self.checked.add(location)
        return moved

    def is_doubtful(self, location: str) -> bool:
        return location not in self.checked and self.confidence[location] < LOW_CONFIDENCE

    def to_check(self) -> list[str]:
        """Locations read with low confidence that nobody has set yet, in board order."""
        return [loc for loc in self.cells if self.is_doubtful(loc)]

    def corrected(self) -> list[str]:
        return [loc for loc in self.cells if self.cells[loc] != self.read[loc]]

    def counts(self) -> dict[str, int]:
        """Stones per colour on the corrected board (colours in palette order), plus 'empty'."""
        out = {c: 0 for c in self.colour_choices() if c is not None}  # the colours after "empty"
        empty = 0
        for colour in self.cells.values():
            if colour is None:
                empty += 1
            else:
                out[colour] += 1
        return {**{c: n for c, n in out.items() if n}, "empty": empty}

    # ----- geometry --------------------------------------------------------------------------
    @functools.cached_property
    def spacing(self) -> dict[str, float]:
        """Each location's distance to its nearest neighbour in the photo (shrinks with perspective)."""
        items = list(self.points.items())
        out = {}
        for loc, (x, y) in items:
            out[loc] = min((math.hypot(x - u, y - v) for other, (u, v) in items if other != loc), default=1.0)
        return out

    def tap_zoom(self) -> float:
        """How far a finger's first tap zooms for the locations to reach FINGER px on a phone (1: no need)."""
        width = self.size[0]
        closest = sorted(self.spacing.values())[len(self.spacing) // 10]  # the closest tenth, ignoring strays
        shown = closest * PHONE_WIDTH / width
        return 1.0 if shown >= FINGER else min(6.0, FINGER / shown * 1.1)

    # ----- what the engine makes of it -------------------------------------------------------
    def position(self, to_move: str | None = None) -> dict[str, Any]:
        """The corrected position (SPEC section 2), with who moves next when a person said so."""
        position: dict[str, Any] = {"game": self.game, "cells": dict(self.cells)}
        if to_move:
            position["to_move"] = to_move
        return position

    def movers(self) -> tuple[list[str], str | None]:
        """Who may move next (the two sides, or the colours on the board) and the engine's own guess."""
        palette = get_game(self.game).palette
        sides = list(palette) if len(palette) == 2 else [c for c in palette if c in set(self.cells.values())]
        try:
            guess = get_game(self.game).from_position(self.position()).to_position().get("to_move")
        except StonesError:
            guess = None
        return sides, guess if guess in sides else (sides[0] if sides else None)

    def score(self) -> dict[str, Any]:
        """The engine's score of the corrected position; PositionError if it is not a possible board."""
        return get_game(self.game).score_position(self.position())

    def start_session(self, seed: int | None = None, to_move: str | None = None) -> Session:
        """A game that starts at the corrected position, every seat a person; PositionError says why not."""
        seed = random.randrange(1, 1_000_000) if seed is None else seed
        state = get_game(self.game).from_position(self.position(to_move), seed=seed)
        outcome = state.outcome()
        if outcome is not None:
            raise PositionError("this position is already decided: " + outcome.describe(), rule="decided")
        session = Session(state)
        session.advance_chance()
        return session


def assumption_sentence(assumed: str) -> str:
    """What the engine assumed ("in_hand.white not given: …") as a sentence a player reads."""
    key = assumed.split(" ", 1)[0].split(".", 1)[0]
    if key in ASSUMED_WORDS:
        return _(ASSUMED_WORDS[key])
    text = assumed.split(" not given: ", 1)[-1]  # "<key> not given: <what was assumed>"
    return text[:1].upper() + text[1:].rstrip(".") + "."


def read_answer(status: int, text: str, game: str) -> ScanReading:
    """The reading in the companion's HTTP answer, or ScanError saying why there is none."""
    if status in (0, 404, 405, 501):  # fetch failed (0), or a plain static server: no companion behind the page
        raise ScanError(_(COMPANION_MISSING), missing=True)
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if status != 200:
        raise ScanError(describe_failure(status, data))
    if data is None:
        raise ScanError(_("the companion's answer is not JSON"))
    return ScanReading.from_answer(data, game)


def describe_failure(status: int, data: Any) -> str:
    """The companion's refusal as a sentence with what to do next."""
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        why = data["error"]
        hint = HINTS.get(str(data.get("code")), "")
        words = _("The scanner could not read this photo: {reason}.").format(reason=why.rstrip("."))
        return words + (f" {_(hint)}" if hint else "")
    return _("The scanner answered with an error (HTTP {status}). Try again in a moment.").format(status=status)


# ----- HTML -------------------------------------------------------------------------------------
def colour_name(colour: str | None) -> str:
    """A location's content as data (the form's value): "empty" or the colour."""
    return "empty" if colour is None else colour


def colour_words(colour: str | None) -> str:
    """A location's content in the language in use."""
    return _("empty") if colour is None else colour_word(colour)


def _commands(text: str) -> str:
    """Escaped text with the commands to type set as code."""
    return re.sub(r"(\./stones start(?: --lan)?)", r"<code>\1</code>", esc(text))


def _dot(colour: str) -> str:
    return f'<span class="dot" style="background:{SOLID.get(colour, "#888")}"></span>'


def pick_html(game: str, companion: bool | None, games: tuple[str, ...] = SCAN_GAMES, error: str = "") -> str:
    """Choose the game, then take or choose a photo; says up front when the companion is missing."""
    choices = "".join(
        f'<label class="scan-game"><input type="radio" name="scan-game" value="{g}"{" checked" if g == game else ""}>'
        f" {esc(game_title(g, get_game(g).title))}</label>"
        for g in games
    )
    choices += "".join(
        f'<p class="scan-game not-scanned" data-not-scanned="{g}"><label><input type="radio" name="scan-game" '
        f'value="{g}" disabled aria-describedby="why-{g}"> {esc(game_title(g, get_game(g).title))}</label>: '
        f'<span id="why-{g}">{esc(_(why))}</span></p>'
        for g, why in NOT_SCANNED.items()
    )
    if companion is None:
        status = (
            '<p class="scan-status" id="scan-status" data-companion="checking">'
            f"{esc(_('Looking for the companion…'))}</p>"
        )
    elif companion:
        status = (
            '<p class="scan-status" id="scan-status" data-companion="ready">'
            f"{esc(_('The companion is ready: take the photo from above, the whole board in view.'))}</p>"
        )
    else:
        status = (
            f'<div class="scan-status missing" id="scan-status" data-companion="missing" role="alert">'
            f"<p>{esc(_(COMPANION_MISSING))}</p>"
            f'<details class="scan-how"><summary>{esc(_("Running Stones yourself?"))}</summary>'
            f"<p>{_commands(_(COMPANION_HOW))}</p></details>"
            f'<button type="button" data-action="scan-recheck">{esc(_("Check again"))}</button></div>'
        )
    off = "" if companion else " disabled"
    fail = f'<p class="msg msg-error" id="scan-error" role="alert">{_commands(error)}</p>' if error else ""
    intro = _(
        "Photograph a real board: the scanner on the computer that started Stones reads it, "
        "you check what it read, then score it or play on from it here."
    )
    return (
        f'<section class="scan" aria-labelledby="scan-title"><h2 id="scan-title">{esc(_("Scan a board"))}</h2>'
        f'<p class="rules-text">{esc(intro)}</p>'
        f'<fieldset class="scan-games"><legend>{esc(_("Which game?"))}</legend>{choices}</fieldset>'
        f"{status}{fail}"
        f'<div class="buttons scan-buttons">'
        f'<button type="button" class="primary" data-action="scan-camera" aria-describedby="scan-status"{off}>'
        f"{esc(_('Take a photo'))}</button>"
        f'<button type="button" data-action="scan-file" aria-describedby="scan-status"{off}>'
        f"{esc(_('Choose a photo file'))}</button>"
        f'<button type="button" data-action="home">{esc(_("Back"))}</button></div>'
        f'<input type="file" id="scan-camera" accept="image/*" capture="environment" hidden>'
        f'<input type="file" id="scan-file" accept="image/*" hidden>'
        f"</section>"
    )


def reading_html(game: str, photo_url: str) -> str:
    return (
        f'<section class="scan" aria-labelledby="scan-title"><h2 id="scan-title">{esc(scan_title(game))}</h2>'
        f'<div class="scan-reading" role="status"><div class="spinner" aria-hidden="true"></div>'
        f"<p>{esc(_('Reading the board…'))}</p></div>"
        f'<div class="scan-photo waiting"><img src="{esc(photo_url)}" alt="{esc(_("your photo"))}"></div></section>'
    )


def scan_title(game: str) -> str:
    return _("Scan: {game}").format(game=game_title(game, get_game(game).title))


def scan_zoom(reading: ScanReading) -> Zoom:
    """The photo's zoom: a finger's first tap zooms in where locations are too close to tap (rings)."""
    tap = reading.tap_zoom()
    return Zoom("scan_zoom", most=max(3.0, 1.5 * tap), tap=tap if tap > 1 else 0.0)


def photo_frame(reading: ScanReading) -> Frame:
    width, height = reading.size
    return Frame(width / 2, height / 2, width, height)


def overlay_svg(reading: ScanReading, photo_url: str = "", view: dict[str, Any] | None = None) -> str:
    """The photo and the reading drawn over it in its pixels: a disc per stone, a small ring per empty
    location, a dashed red ring round each location to check, a green ring round each one set by hand."""
    width, height = reading.size
    spacing = reading.spacing
    parts = []
    if photo_url:
        parts.append(
            f'<image class="scan-image" href="{esc(photo_url)}" x="0" y="0" width="{width:g}" '
            f'height="{height:g}" preserveAspectRatio="none"/>'
        )
    for loc, (x, y) in reading.points.items():
        colour = reading.cells[loc]
        radius = MARK_SHARE * spacing[loc]
        classes = ["scan-cell", "stone" if colour else "empty"]
        if reading.is_doubtful(loc):
            classes.append("doubt")
            state = _("read {percent}% sure: check it").format(percent=round(100 * reading.confidence[loc]))
        elif loc in reading.checked:
            classes.append("checked")
            state = _("checked")
        else:
            state = _("sure")
        marks = [f'<circle class="hit" r="{0.5 * spacing[loc]:.1f}"/>']
        if colour:
            marks.append(f'<circle class="disc" r="{0.55 * radius:.1f}" fill="{SOLID[colour]}"/>')
        else:
            marks.append(f'<circle class="hole" r="{0.25 * radius:.1f}"/>')
        marks.append(f'<circle class="ring" r="{radius:.1f}"/>')
        parts.append(
            f'<g class="{" ".join(classes)}" transform="translate({x:.1f} {y:.1f})" data-action="scan-cell" '
            f'data-cell="{esc(loc)}" data-colour="{colour_name(colour)}" role="button" tabindex="0" '
            f'aria-haspopup="dialog" aria-label="{esc(loc)}: {esc(colour_words(colour))}, {esc(state)}">'
            f"{''.join(marks)}</g>"
        )
    zoom, fit = scan_zoom(reading), photo_frame(reading)
    ui = view if view is not None else {}
    return (
        f'<svg class="scan-overlay{zoom.svg_class(ui, fit)}" id="scan-overlay" {zoom.svg_attributes(ui, fit)} '
        f'preserveAspectRatio="none" role="group" '
        f'aria-label="{esc(_("your photo and the board as read: tap a location to set what is there"))}">'
        f"{''.join(parts)}</svg>"
    )


def choice_button(colour: str | None, action: str, location: str = "", now: str | None = None) -> str:
    """One of the colours (or empty) a palette offers, as its button; for a location's palette, the
    location and whether this is what it holds `now`."""
    dot = _dot(colour) if colour else "<span class=dot-empty></span>"
    cell = f'data-cell="{esc(location)}" ' if location else ""
    pressed = f' aria-pressed="{"true" if colour == now else "false"}"' if location else ""
    return (
        f'<button type="button" class="choice" data-action="{action}" {cell}data-colour="{colour_name(colour)}"'
        f"{pressed}>{dot}{esc(colour_words(colour))}</button>"
    )


def palette_html(reading: ScanReading, location: str, view: dict[str, Any] | None = None) -> str:
    """The colours a location may be set to, as buttons beside it (over the photo, where it is shown)."""
    shown = scan_zoom(reading).view(view or {}, photo_frame(reading))
    x, y = reading.points[location]
    left = min(85.0, max(15.0, 100 * (x - (shown.cx - shown.width / 2)) / shown.width))
    top = min(100.0, max(0.0, 100 * (y - (shown.cy - shown.height / 2)) / shown.height))
    now = reading.cells[location]
    choices = "".join(choice_button(c, "scan-set", location, now) for c in reading.colour_choices())
    question = _("{location}: what is there?").format(location=location)
    return (
        f'<div class="scan-palette {"above" if top > 50 else "below"}" id="scan-palette" role="dialog" '
        f'aria-label="{esc(question)}" data-cell="{esc(location)}" '
        f'style="left:{left:.1f}%;top:{top:.1f}%"><p>{esc(question)}</p>'
        f'<div class="choices">{choices}</div>'
        f'<button type="button" class="close" data-action="scan-close" aria-label="{esc(_("close"))}">✕</button></div>'
    )


def photo_html(
    reading: ScanReading, photo_url: str, view: dict[str, Any] | None = None, picking: str | None = None
) -> str:
    """What the photo box holds: the photo with the reading, its zoom buttons, a location's palette."""
    zoom, fit = scan_zoom(reading), photo_frame(reading)
    controls = zoom.controls(
        view or {}, fit, _("the photo"), zoom_attr='data-action="scan-zoom"', view_attr='data-action="scan-view"'
    )
    palette = palette_html(reading, picking, view) if picking in reading.cells else ""
    return f"{overlay_svg(reading, photo_url, view)}{controls}{palette}"


def side_html(
    reading: ScanReading,
    score: dict[str, Any] | None = None,
    message: tuple[str, str] = ("", ""),
    to_move: str | None = None,
    grouping: str | None = None,
) -> str:
    """Beside the photo: what is left to check, the counts (a colour's opens `group_html`), who moves
    next, the actions, the score."""
    doubtful = len(reading.to_check())
    if doubtful:
        to_check = ngettext("{count} cell to check", "{count} cells to check", doubtful).format(count=doubtful)
        check = f'<p class="scan-count" data-to-check="{doubtful}"><span class="doubt-key"></span> {esc(to_check)}</p>'
    else:
        check = f'<p class="scan-count" data-to-check="0">{esc(_("Every location read with confidence."))}</p>'
    counts = "".join(
        f'<span class="count">{n} {esc(colour_words(None))}</span>' if c == "empty" else count_button(c, n, grouping)
        for c, n in reading.counts().items()
    )
    fixed = len(reading.corrected())
    fixed_note = f' <span class="small">({esc(_("{count} corrected").format(count=fixed))})</span>' if fixed else ""
    kind, text = message
    note = f'<p class="msg msg-{esc(kind)}">{esc(text)}</p>' if text else ""
    took = " " + _("Read in {seconds} s.").format(seconds=f"{reading.seconds:.1f}") if reading.seconds else ""
    sides, guess = reading.movers()
    chosen = to_move if to_move in sides else guess
    movers = "".join(
        f'<option value="{esc(c)}"{" selected" if c == chosen else ""}>{esc(name_of(c))}</option>' for c in sides
    )
    ask = (
        f'<div class="field scan-to-move"><label for="scan-to-move">{esc(_("Who moves next?"))}</label>'
        f'<select id="scan-to-move">{movers}</select><small>{esc(_("a photo cannot show whose turn it was"))}'
        f"</small></div>"
        if sides
        else ""
    )
    tap = _("Tap a location to set what is there (on a crowded board the first tap zooms in).")
    tap += " " + _("A colour read wrongly on every stone: tap its count.")
    group = group_html(reading, grouping) if grouping in reading.counts() else ""
    return (
        f'{check}<p class="scan-counts">{counts}{fixed_note}</p>{group}'
        f'<p class="small">{esc(tap)}{esc(took)}</p>'
        f'{ask}<div class="buttons scan-actions">'
        f'<button type="button" class="primary" data-action="scan-score">{esc(_("Score"))}</button>'
        f'<button type="button" data-action="scan-play">{esc(_("Continue this position as a game"))}</button>'
        f'<button type="button" data-action="scan-again">{esc(_("Scan another photo"))}</button></div>'
        f'<div id="scan-message" role="alert" aria-live="assertive">{note}</div>'
        f'<div id="scan-score" aria-live="polite">{score_html(reading.game, score) if score else ""}</div>'
    )


def count_button(colour: str, count: int, grouping: str | None = None) -> str:
    """A colour's count beside the photo, as the button that sets all its stones at once."""
    label = ngettext(
        "Change the {count} stone read as {colour}", "Change all {count} stones read as {colour}", count
    ).format(count=count, colour=colour_words(colour))
    return (
        f'<button type="button" class="count" data-action="scan-group" data-colour="{esc(colour)}" '
        f'aria-label="{esc(label)}" aria-expanded="{"true" if colour == grouping else "false"}">'
        f"{_dot(colour)}{count} {esc(colour_words(colour))}</button>"
    )


def group_html(reading: ScanReading, colour: str) -> str:
    """What every stone read as `colour` really is: the other colours and empty, one tap for them all."""
    count = reading.counts()[colour]
    question = ngettext(
        "The {count} stone read as {colour} is:", "The {count} stones read as {colour} are:", count
    ).format(count=count, colour=colour_words(colour))
    choices = "".join(choice_button(c, "scan-regroup") for c in reading.colour_choices() if c != colour)
    return (
        f'<div class="scan-group" id="scan-group" role="group" aria-label="{esc(question)}" '
        f'data-colour="{esc(colour)}"><p>{esc(question)}</p><div class="choices">{choices}</div>'
        f'<button type="button" class="close" data-action="scan-group-close" aria-label="{esc(_("close"))}">✕</button>'
        "</div>"
    )


def result_html(
    reading: ScanReading,
    photo_url: str,
    score: dict[str, Any] | None = None,
    message: tuple[str, str] = ("", ""),
    view: dict[str, Any] | None = None,
    picking: str | None = None,
    to_move: str | None = None,
    grouping: str | None = None,
) -> str:
    width, height = reading.size
    ratio = width / height
    return (
        f'<section class="scan scan-result" data-game="{reading.game}" aria-labelledby="scan-title">'
        f'<h2 id="scan-title">{esc(scan_title(reading.game))}</h2>'
        f'<div class="scan-layout">'
        f'<div class="scan-photo zoom-wrap" id="scan-photo" style="aspect-ratio:{width:g} / {height:g};'
        f'max-width:min(100%, calc(78vh * {ratio:.4f}))">{photo_html(reading, photo_url, view, picking)}</div>'
        f'<aside class="scan-side" id="scan-side">{side_html(reading, score, message, to_move, grouping)}</aside>'
        f"</div></section>"
    )


def score_html(game: str, score: dict[str, Any]) -> str:
    """The engine's score per colour with the items that earned it."""
    items: dict[str, list[str]] = {}
    for item in score.get("items", []):
        label = item.get("circle") or "-".join(item.get("cells", []))
        items.setdefault(item.get("side"), []).append(label)
    rows = []
    for side, points in score["scores"].items():
        earned = items.get(side, [])
        detail = ""
        if earned and game in ITEM_WORDS:
            count = ITEM_WORDS[game](len(earned))
            detail = f'<span class="items">{esc(count)}: {esc(", ".join(earned))}</span>'
        rows.append(
            f'<li data-side="{esc(side)}">{_dot(side)} <span class="who">{esc(colour_word(side))}</span> '
            f'<b data-scan-score="{esc(side)}">{points}</b> {detail}</li>'
        )
    return f'<h3>{esc(_("Score"))}</h3><ul class="scan-scores">{"".join(rows)}</ul>'


# ----- the screen in the page ---------------------------------------------------------------------
ITEM_WORDS = {  # what a game's score counts, for a count of them (sage-stones: its items are the stones)
    "three-stones": lambda count: ngettext("{count} triple", "{count} triples", count).format(count=count),
    "morris": lambda count: ngettext("{count} closed mill", "{count} closed mills", count).format(count=count),
    "rings": lambda count: ngettext("{count} circle held", "{count} circles held", count).format(count=count),
}


class ScanScreen:
    """Drives the scan screen in the browser; `page` is controllers.page.Page (root, screen, session)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.game = SCAN_GAMES[0]
        self.companion: bool | None = None
        self.games: tuple[str, ...] = SCAN_GAMES
        self.reading: ScanReading | None = None
        self.photo_url = ""
        self.score: dict[str, Any] | None = None
        self.ticket = 0  # bumped by every visit and every photo: a late answer for an earlier one is dropped
        self.view: dict[str, Any] = {}  # the photo's zoom (boards.zoom.Zoom keeps it here)
        self.picking: str | None = None  # the location whose palette is open
        self.grouping: str | None = None  # the colour whose stones are being set all at once

    @property
    def shown_reading(self) -> ScanReading:
        """The reading on the result screen: its actions come only once a reading is shown."""
        if self.reading is None:
            raise RuntimeError("no reading is shown")
        return self.reading

    # ----- screens ------------------------------------------------------------------------------
    def show(self, error: str = "") -> None:
        import asyncio

        self.page.screen = "scan"
        self.page.bump()
        self.ticket += 1
        self.page.new_screen(pick_html(self.game, self.companion, self.games, error))
        asyncio.ensure_future(self.check_companion())

    async def check_companion(self) -> None:
        """GET ./api/read: the companion answers with the games it reads; anything else means it is not there."""
        from pyscript import window

        ticket = self.ticket
        try:
            response = await window.fetch(API, _js_options({"method": "GET", "cache": "no-store"}))
            info = json.loads(await response.text()) if response.status == 200 else {}
        except Exception:  # network error, or not JSON (a static server's page)
            info = {}
        available = isinstance(info, dict) and info.get("ok") is True
        if available:
            self.games = tuple(g for g in SCAN_GAMES if g in info.get("games", SCAN_GAMES)) or SCAN_GAMES
        if available != self.companion and self.page.screen == "scan" and ticket == self.ticket:  # still this screen
            self.companion = available
            chosen = self._chosen_game()
            self.page.root.innerHTML = pick_html(chosen, available, self.games)
        self.companion = available

    def _chosen_game(self) -> str:
        from pyscript import document

        checked = document.querySelector('input[name="scan-game"]:checked')
        if checked and checked.value in SCAN_GAMES:
            self.game = checked.value
        return self.game

    def redraw(self) -> None:
        """The screen on show drawn again (the language changed): the reading keeps its corrections."""
        if self.reading is None:
            self.page.root.innerHTML = pick_html(self._chosen_game(), self.companion, self.games)
        else:
            to_move = self._to_move()
            self.page.root.innerHTML = result_html(
                self.reading,
                self.photo_url,
                self.score,
                view=self.view,
                picking=self.picking,
                to_move=to_move,
                grouping=self.grouping,
            )

    def _render_result(self, message: tuple[str, str] = ("", "")) -> None:
        self.view, self.picking, self.grouping = {}, None, None
        self.page.new_screen(result_html(self.shown_reading, self.photo_url, self.score, message))

    def _to_move(self) -> str | None:
        from pyscript import document

        chosen = document.getElementById("scan-to-move")
        return chosen.value if chosen else None

    def _redraw(self, message: tuple[str, str] = ("", ""), focus: str = "", side: bool = True) -> None:
        """Draw the photo box again (and the panel beside it); `focus` a location, or the open palette."""
        from pyscript import document

        document.getElementById("scan-photo").innerHTML = photo_html(
            self.shown_reading, self.photo_url, self.view, self.picking
        )
        if side:
            document.getElementById("scan-side").innerHTML = side_html(
                self.shown_reading, self.score, message, self._to_move(), self.grouping
            )
        target = None
        if self.grouping and side:
            target = document.querySelector("#scan-group .choice")
        elif self.picking:
            target = document.querySelector('#scan-palette [aria-pressed="true"]')
        elif focus:
            target = next(
                (
                    node
                    for node in document.querySelectorAll("#scan-overlay [data-cell]")
                    if node.getAttribute("data-cell") == focus
                ),
                None,
            )
        if target:
            target.focus(_js_options({"preventScroll": True}))

    def _focus_count(self, colour: str) -> None:
        """The focus back on a colour's count (where a group's choice or close button was)."""
        from pyscript import document

        count = document.querySelector(f'#scan-side [data-action="scan-group"][data-colour="{colour}"]')
        if count:
            count.focus(_js_options({"preventScroll": True}))

    # ----- events -------------------------------------------------------------------------------
    def act(self, action: str, node: Any) -> None:
        from pyscript import document

        if action == "scan":  # from the home screen: the game in progress, if the companion reads it
            current = self.page.session.game.id if self.page.session else None
            self.game = current if current in SCAN_GAMES else self.game
            self.reading = None
            self.show()
        elif action in ("scan-camera", "scan-file"):
            document.getElementById(action).click()
        elif action == "scan-recheck":
            self.companion = None
            self.show()
        elif action == "scan-again":
            self.reading = None
            self.score = None
            self.show()
        elif self.reading is None:
            return
        elif action == "scan-cell":
            self.picking = node.getAttribute("data-cell")
            self._redraw(side=False)
        elif action == "scan-set":
            colour = node.getAttribute("data-colour")
            self.reading.set(node.getAttribute("data-cell"), None if colour == "empty" else colour)
            self.picking = None
            message = self._rescore()
            self._redraw(message, focus=node.getAttribute("data-cell"))
        elif action == "scan-group":
            colour = node.getAttribute("data-colour")
            self.grouping = None if colour == self.grouping else colour
            self.picking = None
            self._redraw(focus="")
        elif action == "scan-regroup":
            colour, self.grouping = self.grouping, None
            if colour is None:
                return
            into = node.getAttribute("data-colour")
            moved = self.reading.recolour(colour, None if into == "empty" else into)
            done = ngettext(
                "{count} stone set from {old} to {new}.", "{count} stones set from {old} to {new}.", len(moved)
            ).format(count=len(moved), old=colour_words(colour), new=colour_words(None if into == "empty" else into))
            message = self._rescore()
            self._redraw(message if message[1] else ("info", done))
            self._focus_count(into)
        elif action == "scan-group-close":
            colour, self.grouping = self.grouping, None
            self._redraw()
            self._focus_count(colour or "")
        elif action == "scan-close":
            location, self.picking = self.picking, None
            self._redraw(focus=location or "", side=False)
        elif action in ("scan-zoom", "scan-view"):
            scan_zoom(self.reading).act(
                self.view, action[5:], node.getAttribute("data-value") or "", photo_frame(self.reading)
            )
            self._redraw(side=False)
        elif action == "scan-score":
            self.score = None
            message = self._rescore(force=True)
            self._redraw(message)
        elif action == "scan-play":
            self.play_on()

    def key(self, event: Any) -> None:
        """Enter or Space on a focused location opens its palette; Escape closes it."""
        target = event.target
        if event.key == "Escape" and self.picking:
            self.act("scan-close", target)
        elif event.key == "Escape" and self.grouping:
            self.act("scan-group-close", target)
        elif (
            event.key in ("Enter", " ")
            and target.hasAttribute
            and target.hasAttribute("data-cell")
            and target.getAttribute("data-action") == "scan-cell"
        ):
            event.preventDefault()
            self.act("scan-cell", target)

    def _rescore(self, force: bool = False) -> tuple[str, str]:
        """Score the corrected board (once shown, the score follows every correction)."""
        if self.score is None and not force:
            return ("", "")
        try:
            self.score = self.shown_reading.score()
        except PositionError as exc:
            self.score = None
            return ("error", _("This board cannot be scored: {reason}").format(reason=reason(exc)))
        return ("", "")

    def photo_chosen(self, input_node: Any) -> None:
        import asyncio

        files = input_node.files
        if files.length:
            self._chosen_game()  # the game ticked when the photo arrives
            asyncio.ensure_future(self.upload(files.item(0)))
        input_node.value = ""

    async def upload(self, file: Any) -> None:
        from pyscript import window

        self.ticket += 1
        ticket = self.ticket
        game = self.game
        if self.photo_url:
            window.URL.revokeObjectURL(self.photo_url)
        self.photo_url = window.URL.createObjectURL(file)
        self.reading, self.score = None, None
        self.page.new_screen(reading_html(game, self.photo_url))
        form = window.FormData.new()
        form.append("game", game)
        form.append("image", file, file.name or "photo.jpg")
        try:
            response = await window.fetch(API, _js_options({"method": "POST", "body": form}))
            status, text = int(response.status), await response.text()
        except Exception:  # the server went away: fetch itself fails
            status, text = 0, ""
        if ticket != self.ticket or self.page.screen != "scan":
            return  # another photo was chosen, or the person left the screen
        try:
            self.reading = read_answer(status, text, game)
        except ScanError as exc:
            if exc.missing:  # the companion went away: its box says what to start
                self.companion = False
            self.page.root.innerHTML = pick_html(game, self.companion, self.games, "" if exc.missing else str(exc))
            return
        self._render_result()

    def play_on(self) -> None:
        """Continue the corrected position as a game: it becomes the saved game in progress."""
        try:
            session = self.shown_reading.start_session(to_move=self._to_move())
        except StonesError as exc:
            self._redraw(("error", _("This position cannot start a game: {reason}").format(reason=reason(exc))))
            return
        assumed = [assumption_sentence(text) for text in getattr(session.state, "assumed", None) or []]
        self.page.play(session, " ".join([_("Playing on from the scanned board."), *assumed]))


def _js_options(options: dict[str, Any]) -> Any:
    """A Python dict as the plain JS object fetch() takes (a FormData body passes through as itself)."""
    from pyodide.ffi import to_js
    from pyscript import window

    return to_js(options, dict_converter=window.Object.fromEntries)
