"""One game on screen: the engine state plus what the page adds around it.

Seats (a person or a computer level), undo/redo that skip over chance and AI
moves, viewing an earlier position, the chess clock, saving to and restoring
from a record, and the requests for the computer players' worker (ui.think)
with the checks that its answers still fit the game. Pure Python with no
browser in it, so it is tested in CPython and in Pyodide alike; ui.pages draws
it and controllers/ wire it to the DOM and the worker.
"""

from __future__ import annotations

import json
import math
from typing import Any

from engine import CHANCE, IllegalMoveError, OptionError, RecordError, StonesError, get_game, load_record, save_record
from engine.core import parse_json
from engine.ai import LEVELS, levels_of
from engine.core.state import TIME_FORFEIT

from boards import Board, Drawing, board_for

from . import think
from .i18n import N_, _, language, ngettext
from .words import name_of

HUMAN = "human"
LEVEL_ORDER = ("easy", "medium", "hard", "random")  # how the seat menu lists the computer levels
LEVEL_LABELS = {  # marked for the catalog: the seat menu translates them where it shows them
    "easy": N_("computer (easy)"),
    "medium": N_("computer (medium)"),
    "hard": N_("computer (hard)"),
    "random": N_("computer (random moves)"),
}
_LEVELS = [level for level in LEVEL_ORDER if level in LEVELS] + [level for level in LEVELS if level not in LEVEL_ORDER]
SEAT_KINDS = {HUMAN: N_("human"), **{level: LEVEL_LABELS.get(level, f"computer ({level})") for level in _LEVELS}}
SAVE_VERSION = 2  # 2: per-game computer levels and their thinking time ("think")
THINK_DEFAULT = 1.0  # seconds a computer player (or a hint) may think about one move
THINK_RANGE = (0.1, 30.0)


class StaleAnswerError(IllegalMoveError):
    """A computer's answer about a position the game has left (an undo, a new game): it is dropped."""


def seat_kinds(game_id: str) -> dict[str, str]:
    """The seats a game offers: a person, or each computer level the engine has for that game."""
    try:
        levels = levels_of(game_id)
    except Exception:  # a game without computer players (yet) still plays between people
        levels = {}
    return {kind: label for kind, label in SEAT_KINDS.items() if kind == HUMAN or kind in levels}


def check_think(value: Any) -> float:
    """The computer's time per move in seconds; OptionError says what is wrong with it."""
    try:
        seconds = float(str(value).strip().replace(",", "."))
    except ValueError:
        raise OptionError(f"the computer's time per move is a number of seconds, not {value!r}", rule="think") from None
    low, high = THINK_RANGE
    if not (math.isfinite(seconds) and low <= seconds <= high):
        raise OptionError(f"the computer's time per move must be between {low:g} and {high:g} seconds", rule="think")
    return seconds


class Session:
    """A live game: state, seats, redo list, the ply being viewed and the board's UI state."""

    def __init__(self, state: Any, seats: dict[str, str] | None = None, think_seconds: float = THINK_DEFAULT) -> None:
        self.state = state
        self.game = state.game
        self.board: Board = board_for(self.game)
        players = list(state.players)
        seats = dict(seats or {})
        kinds = seat_kinds(self.game.id)
        self.seats = {p: seats.get(p, HUMAN) if seats.get(p, HUMAN) in kinds else HUMAN for p in players}
        self.think_seconds = check_think(think_seconds)
        self.thinking: str | None = None  # "move" or "hint" while the worker searches (set by the page)
        self.hint: dict[str, Any] | None = None  # the last hint's answer, while its position is on the board
        self.redo_stack: list[str] = []  # move texts, the next one to redo last
        self.movers: list[str] = []  # who played each move of the history
        self.viewing: int | None = None  # ply shown instead of the live position
        self.ui: dict[str, Any] = {}
        self.drawing: Drawing | None = None
        self.turn_started: float | None = None  # for the chess clock: set by the page
        self.summary_closed = False  # the finished game's summary put aside to look at the board (saved)
        self._words: list[tuple[str, str]] = []  # (move text, the move in words) for the history so far
        self._words_language = language()  # the language `_words` are in
        self._recount_movers()

    # ----- construction ------------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_id: str,
        options: dict[str, Any],
        seed: int | None,
        seats: dict[str, str],
        think_seconds: float = THINK_DEFAULT,
    ) -> "Session":
        state = get_game(game_id).new_state(options, seed=seed)
        session = cls(state, seats, think_seconds)
        session.advance_chance()
        return session

    @classmethod
    def from_record(cls, data: Any, seats: dict[str, str] | None = None) -> "Session":
        """A game from a record (dict or JSON text): RecordError says what is wrong with it."""
        if isinstance(data, (str, bytes)):
            try:
                data = parse_json(data)  # a depth check first: a deeply nested file would crash Pyodide
            except ValueError as exc:
                raise RecordError(f"the file is not a game record: not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise RecordError("the file is not a game record: a record is a JSON object")
        state = load_record(data)
        app: dict[str, Any] = data["app"] if isinstance(data.get("app"), dict) else {}
        if seats is None and isinstance(app.get("seats"), dict):
            seats = {str(k): str(v) for k, v in app["seats"].items()}
        try:
            think_seconds = check_think(app.get("think", THINK_DEFAULT))
        except OptionError:  # an edited file: the default time rather than a refused game
            think_seconds = THINK_DEFAULT
        session = cls(state, seats, think_seconds)
        redo = app.get("redo")
        if isinstance(redo, list) and all(isinstance(m, str) for m in redo):
            session.redo_stack = list(redo)
        session.summary_closed = app.get("summary_closed") is True
        session.advance_chance()
        return session

    def to_record(self) -> dict[str, Any]:
        """The engine's record plus the page's own fields (seats, redo list) under 'app'."""
        record = save_record(self.state)
        record["app"] = {
            "seats": dict(self.seats),
            "redo": list(self.redo_stack),
            "think": self.think_seconds,
            "version": SAVE_VERSION,
        }
        if self.summary_closed:
            record["app"]["summary_closed"] = True
        return record

    def again(self) -> "Session":
        """A new game of the same game with the same options, seats and thinking time; a game with chance
        gets the next seed (the same one would deal the same game again)."""
        seed = self.state.seed + 1 if isinstance(self.state.seed, int) else None
        return Session.new(self.game.id, self.state.options.to_dict(), seed, dict(self.seats), self.think_seconds)

    def _recount_movers(self) -> None:
        """Who made each move: replay the history on a copy (moves carry no player)."""
        probe = self.state.copy()
        history = probe.history
        for _move in history:
            probe.pop()
        self.movers = []
        for move in history:
            self.movers.append(probe.current_player)
            probe.push_unchecked(move)

    # ----- who plays ---------------------------------------------------------------
    def is_human(self, player: str) -> bool:
        return self.seats.get(player, HUMAN) == HUMAN

    def human_to_move(self) -> bool:
        s = self.state
        return not s.is_over() and not s.is_chance_node() and self.is_human(s.current_player)

    def ai_to_move(self) -> bool:
        s = self.state
        return (
            self.viewing is None and not s.is_over() and not s.is_chance_node() and not self.is_human(s.current_player)
        )

    # ----- moves ---------------------------------------------------------------------
    def _push(self, move: Any, seconds: float | None = None) -> Any:
        player = self.state.current_player
        move = self.state.push(move, seconds=seconds)
        self.movers.append(player)
        return move

    def _pop(self) -> Any:
        move = self.state.pop()
        self.movers.pop()
        return move

    def advance_chance(self) -> list[str]:
        """Play the seeded chance moves (draws, rolls) up to the next decision."""
        played = []
        while self.state.is_chance_node():
            player = self.state.current_player
            move = self.state.sample_chance()
            self.state.push_unchecked(move)
            self.movers.append(player)
            played.append(str(move))
        return played

    def play(self, move: Any, seconds: float | None = None) -> str:
        """A player's move (object or text): IllegalMoveError explains a refusal."""
        if self.viewing is not None:
            raise IllegalMoveError("you are looking at an earlier position: go back to the game to play", rule="view")
        if self.state.is_over():
            raise IllegalMoveError("the game is over: start a new one or undo", rule="game over")
        move = self._push(move, seconds)
        self.redo_stack.clear()
        self.reset_turn()
        self.advance_chance()
        return str(move)

    def reset_turn(self) -> None:
        """Forget what belonged to the position just left: the board's selections, any hint, and a closed
        summary (a game that ends again, after an undo, is summed up again)."""
        self.board.reset(self.ui)
        self.hint = None
        self.summary_closed = False

    def shows_summary(self) -> bool:
        """The finished game's summary is on screen: the live game is over and the summary not put aside."""
        return self.viewing is None and self.state.is_over() and not self.summary_closed

    def click(self, target: str, seconds: float | None = None) -> str | None:
        """A click on a board target: the board makes it a move (or a selection), the engine judges it."""
        if self.viewing is not None:
            raise IllegalMoveError("you are looking at an earlier position: go back to the game to play", rule="view")
        s = self.state
        if s.is_over():
            raise IllegalMoveError("the game is over", rule="game over")
        if not self.is_human(s.current_player):
            raise IllegalMoveError(
                f"it is {s.current_player}'s turn ({self.seat_label(s.current_player)})", rule="turn"
            )
        move = self.board.click(s, target, self.ui)
        if move is None:
            return None
        s.check(move)
        return self.play(move, seconds)

    # ----- the computer players (answered by the worker, see ui.think) ------------------------
    def seat_label(self, player: str) -> str:
        return _(SEAT_KINDS.get(self.seats.get(player, HUMAN), N_("computer")))

    def _request(self, kind: str, level: str) -> dict[str, Any]:
        seed = self.state.seed if isinstance(self.state.seed, int) else 0
        return think.make_request(kind, save_record(self.state), level, self.think_seconds, seed)

    def ai_request(self) -> dict[str, Any]:
        """The worker's request for the computer seat to move."""
        if not self.ai_to_move():
            raise IllegalMoveError("it is not a computer player's turn", rule="turn")
        return self._request("move", self.seats[self.state.current_player])

    def hint_request(self) -> dict[str, Any]:
        """The worker's request for advice to the person to move."""
        if self.viewing is not None or not self.human_to_move():
            raise IllegalMoveError("a hint is for the person whose turn it is, in the live game", rule="hint")
        return self._request("hint", think.HINT_LEVEL)

    def fits(self, request: dict[str, Any]) -> bool:
        """True while the game still stands where the request was made (nothing undone or played since)."""
        return self.state.ply == request.get("ply") and save_record(self.state)["moves"] == request.get(
            "record", {}
        ).get("moves")

    def play_ai_answer(self, request: dict[str, Any], answer: dict[str, Any], seconds: float | None = None) -> str:
        """Play the worker's move: only if it still fits the game, and only if the engine accepts it."""
        if "error" in answer:
            raise IllegalMoveError(f"the computer player failed: {answer['error']}", rule="ai")
        if not self.ai_to_move() or not self.fits(request) or answer.get("ply") != self.state.ply:
            raise StaleAnswerError("the game has moved on since the computer started thinking", rule="stale")
        return self.play(str(answer["move"]), seconds)

    def take_hint(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        """Keep a hint's answer to show it, if the position it is about is still the live one."""
        if "error" in answer:
            raise IllegalMoveError(f"no hint: {answer['error']}", rule="ai")
        if self.viewing is not None or not self.fits(request) or not self.human_to_move():
            raise StaleAnswerError("the game has moved on since the hint was asked for", rule="stale")
        self.hint = dict(answer)

    def hint_targets(self) -> list[str]:
        """The board targets the shown hint's move uses (highlighted on the board)."""
        if self.hint is None or self.viewing is not None:
            return []
        return self.board.hint_targets(self.state, self.hint["move"])

    def play_ai(self, seconds: float | None = None) -> str | None:
        """The computer seat's move computed here, on this thread (the fallback when the worker cannot run)."""
        if not self.ai_to_move():
            return None
        request = self.ai_request()
        return self.play_ai_answer(request, think.answer(request), seconds)

    def flag(self) -> None:
        """The player to move ran out of time."""
        self._push(TIME_FORFEIT)
        self.redo_stack.clear()
        self.hint = None

    def can_undo(self) -> bool:
        return self.viewing is None and any(self.is_human(p) or self._all_ai() for p in self.movers if p != CHANCE)

    def can_redo(self) -> bool:
        return self.viewing is None and bool(self.redo_stack)

    def _all_ai(self) -> bool:
        return not any(self.is_human(p) for p in self.seats)

    def undo(self) -> list[str]:
        """Take back up to and including the last human move (its chance and AI replies too)."""
        if not self.can_undo():
            raise IllegalMoveError("there is no move of yours to undo", rule="undo")
        undone: list[tuple[str, str]] = []
        while self.state.ply:
            player = self.movers[-1]
            undone.append((str(self._pop()), player))
            if player != CHANCE and (self.is_human(player) or self._all_ai()):
                break
        # chance moves undone are drawn again identically (seeded by ply): only decisions are redone
        self.redo_stack.extend(text for text, player in undone if player != CHANCE)
        self.reset_turn()
        return [text for text, _mover in undone]

    def redo(self) -> list[str]:
        """Replay undone moves up to the next decision of a human player."""
        if not self.can_redo():
            raise IllegalMoveError("there is nothing to redo", rule="redo")
        redone = []
        while self.redo_stack:
            self._push(_parse(self.redo_stack.pop()))
            redone.append(str(self.state.peek()))
            redone.extend(self.advance_chance())
            if self.human_to_move() or self.state.is_over():
                break
        self.reset_turn()
        return redone

    # ----- looking back ----------------------------------------------------------------
    def view(self, ply: int | None) -> None:
        """Show the position after `ply` moves (None or the current ply: the live game)."""
        if ply is not None and not 0 <= ply <= self.state.ply:
            raise IllegalMoveError(f"there is no position after move {ply}", rule="view")
        self.viewing = None if ply is None or ply == self.state.ply else ply

    def move_number(self, ply: int) -> int:
        """How many players' moves (the move list's numbers; draws and rolls not counted) lead to `ply`."""
        return sum(1 for player in self.movers[:ply] if player != CHANCE)

    def shown_state(self) -> Any:
        """The state on screen: the live one, or a copy taken back to the viewed ply."""
        if self.viewing is None:
            return self.state
        probe = self.state.copy()
        while probe.ply > self.viewing:
            probe.pop()
        return probe

    def continue_from_view(self) -> None:
        """Take the game back to the viewed position; the moves after it can be redone."""
        if self.viewing is None:
            return
        target = self.viewing
        self.viewing = None
        undone = []
        while self.state.ply > target:
            player = self.movers[-1]
            move = self._pop()
            if player != CHANCE:
                undone.append(str(move))
        self.redo_stack.extend(undone)
        self.advance_chance()
        self.reset_turn()

    def move_words(self) -> list[str]:
        """Every move of the history in a player's words (the board's `describe`), kept between calls:
        only the moves since the last call (or since the first change, after an undo) are worded."""
        if self._words_language != language():
            self.reset_words()
        history = [str(move) for move in self.state.history]
        same = 0
        while same < min(len(history), len(self._words)) and self._words[same][0] == history[same]:
            same += 1
        del self._words[same:]
        if same < len(history):
            probe = self.state.copy()
            while probe.ply > same:
                probe.pop()
            for move in self.state.history[same:]:
                if probe.is_chance_node():  # a draw or a roll: the move list words it (public_text)
                    probe.push_unchecked(move)
                    self._words.append((str(move), str(move)))
                    continue
                before = probe.copy()
                probe.push_unchecked(move)
                self._words.append((str(move), self.board.describe(before, move, probe)))
        return [words for _move, words in self._words]

    def reset_words(self) -> None:
        """Forget the moves in words (the language changed): the next call words them all again."""
        self._words = []
        self._words_language = language()

    def move_rows(self) -> list[dict[str, Any]]:
        """The move list: each player's move (notation and words) with the chance moves just before it."""
        rows: list[dict[str, Any]] = []
        pending: list[str] = []
        number = 0
        words = self.move_words()
        for ply, (move, player) in enumerate(zip(self.state.history, self.movers), start=1):
            if player == CHANCE:
                pending.append(str(move))
                continue
            number += 1
            rows.append(
                {
                    "number": number,
                    "player": player,
                    "move": str(move),
                    "chance": pending,
                    "ply": ply,
                    "words": words[ply - 1],
                }
            )
            pending = []
        if pending:
            rows.append({"number": None, "player": CHANCE, "move": "", "chance": pending, "ply": self.state.ply})
        return rows

    def heard(self) -> list[tuple[str, str]]:
        """The history as (move, who played it): what a listener knows once the news is said."""
        return [(str(move), player) for move, player in zip(self.state.history, self.movers)]

    def news(self, heard: list[tuple[str, str]]) -> str:
        """What a listener who knows the history `heard` has not been told, in words: the moves played since
        (the computer's and chance's too), or how many were taken back; "" when nothing changed."""
        now = self.heard()
        kept = 0
        while kept < min(len(now), len(heard)) and now[kept] == heard[kept]:
            kept += 1
        if kept < len(heard):  # taken back (an undo, going back to an earlier position) or another game
            if kept < len(now):
                return ""  # a different game: its screen says what it is
            taken = sum(1 for _move, player in heard[kept:] if player != CHANCE)
            return (
                ngettext("{count} move taken back.", "{count} moves taken back.", taken).format(count=taken)
                if taken
                else ""
            )
        words = self.move_words()
        said = []
        for ply in range(kept, len(now)):
            move, player = now[ply]
            if player == CHANCE:
                seen = self.board.public_text(move)
                said.append(f"{seen[:1].upper()}{seen[1:]}.")
            else:
                said.append(_("{player}: {move}.").format(player=name_of(player), move=words[ply]))
        return " ".join(said)

    def render_board(self, interactive: bool = True) -> Drawing:
        shown = self.shown_state()
        live = interactive and self.viewing is None and self.human_to_move()
        self.drawing = self.board.draw(shown, self.ui, live, past=self.viewing is not None)
        return self.drawing

    def render_panel(self) -> str:
        """What the board shows beside itself, for the position on screen."""
        live = self.viewing is None and self.human_to_move()
        return self.board.panel(self.shown_state(), self.ui, live, past=self.viewing is not None)

    # ----- keyboard cursor -------------------------------------------------------------
    def move_cursor(self, direction: str) -> str | None:
        """Move the board cursor to the nearest target in an arrow's direction."""
        targets = self.drawing.targets if self.drawing else {}
        if not targets:
            return None
        current = self.ui.get("cursor")
        if current not in targets:
            self.ui["cursor"] = next(iter(targets))
            return self.ui["cursor"]
        dx, dy = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}[direction]
        x0, y0 = targets[current]
        best, best_score = None, None
        for name, (x, y) in targets.items():
            along = (x - x0) * dx + (y - y0) * dy
            across = abs((x - x0) * dy) + abs((y - y0) * dx)
            if along <= 0:
                continue
            score = along + 2.5 * across
            if best_score is None or score < best_score:
                best, best_score = name, score
        if best is not None:
            self.ui["cursor"] = best
        return self.ui["cursor"]


def _parse(text: str) -> Any:
    """Move text to push: the clock's 'time' is not in any game's notation."""
    return TIME_FORFEIT if text == str(TIME_FORFEIT) else text


def saved_json(session: Session) -> str:
    return json.dumps(session.to_record(), separators=(",", ":"))


def restore(text: str) -> Session:
    """The game saved in the browser; StonesError if it cannot be restored."""
    try:
        return Session.from_record(text)
    except StonesError:
        raise
    except Exception as exc:  # an engine bug on odd data must not break the page
        raise RecordError(f"the saved game could not be restored ({type(exc).__name__}: {exc})") from None
