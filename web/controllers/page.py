"""The page: the screens, and every action a person takes, looked up in one table.

Everything a person does arrives as one delegated event (click, change, submit,
keydown, wired by main.py) and becomes a call on the game's `ui.session.Session`;
the screens are drawn by `ui.pages` and the game's module in `boards/`. The jobs
around them each have a controller: the saved game (`store`), the chess clock
(`clock`), game files (`records`), the computer players and hints (`computer`),
and the scan screen (`ui.scan`, imported when first opened).
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any, Callable

from pyscript import document, window

from boards.thumbnail import thumbnail
from engine import OptionError, StonesError, get_game
from ui import pages
from ui.home import home, message
from ui.i18n import _
from ui.session import Session, check_think, seat_kinds
from ui.words import ending, flag_fell, reason, refusal

from .clock import TurnClock
from .computer import ComputerPlayers
from .dom import el, focus_quietly, next_frame, same_control, scroll_to_current
from .records import export_game, open_game
from .store import GameStore, Settings

if TYPE_CHECKING:
    from ui.scan import ScanScreen


class Page:
    def __init__(self, root: Any, storage: Any) -> None:
        self.root = root
        self.session: Session | None = None
        self.screen = "home"
        self.setup_game: str | None = None
        self.setup_memory: dict[str, dict[str, Any]] = {}  # per game: last options and seats
        self.msg = ("", "")
        self.generation = 0  # bumped by anything that should cancel a pending AI move
        self.focus_board = False  # put the focus on the board at the next drawing (after Start)
        self.by_keyboard = False  # the click being handled came from a key (Enter or Space on a button)
        self.drawn: dict[str, str] = {}  # each play-screen part's markup as last put in place
        self.heard: list[tuple[str, str]] = []  # the history as last announced (Session.heard)
        self.store = GameStore(storage)
        self.settings = Settings(storage)
        self.letters = self.settings.get(LETTERS)  # the colour-blind switch, as remembered
        self.show_letters()
        self.clock = TurnClock()
        self.computer = ComputerPlayers(self)
        self._scan: ScanScreen | None = None

    @property
    def open_session(self) -> Session:
        """The game on screen: `act` runs an action needing one only when there is one."""
        if self.session is None:
            raise RuntimeError("no game is open")
        return self.session

    @property
    def setup_game_id(self) -> str:
        """The game the set-up screen is for (`show_setup` sets it)."""
        if self.setup_game is None:
            raise RuntimeError("the set-up screen is not open")
        return self.setup_game

    @property
    def scan(self) -> ScanScreen:
        """The "Scan a board" screen (ui.scan): imported when first opened, never for the first screen."""
        if self._scan is None:
            from ui.scan import ScanScreen

            self._scan = ScanScreen(self)
        return self._scan

    # ----- the saved game -------------------------------------------------------------------
    def save(self) -> None:
        if self.session is not None:
            warning = self.store.save(self.session)
            if warning:
                self.msg = ("warn", warning)

    def restore_saved(self) -> None:
        session, problem = self.store.restore()
        if session is not None:
            self.session, self.screen = session, "play"
        elif problem:
            self.msg = ("error", problem)

    def saved_summary(self) -> dict[str, Any] | None:
        """The game in progress for the home screen's resume button: which, how far, and a picture of it."""
        if self.session is not None:
            return {
                "game": self.session.game.id,
                "moves": len(self.session.move_rows()),
                "picture": thumbnail(self.session.state),
            }
        return None

    # ----- screens ------------------------------------------------------------------------
    def new_screen(self, markup: str) -> None:
        """Another screen: it starts at its top (within a screen the page never scrolls by itself)."""
        self.root.innerHTML = markup
        self.drawn = {}
        window.scrollTo(0, 0)

    def show_home(self) -> None:
        self.screen = "home"
        self.bump()
        self.new_screen(message(*self.msg) + home(self.saved_summary()))
        self.msg = ("", "")

    def show_setup(self, game_id: str, error: str = "") -> None:
        self.screen = "setup"
        self.setup_game = game_id
        self.bump()
        memory = self.setup_memory.get(game_id, {})
        seed = memory.get("seed", random.randrange(1, 1_000_000))
        self.new_screen(
            pages.setup(
                game_id,
                memory.get("options"),
                memory.get("seats"),
                seed,
                error,
                memory.get("think", pages.THINK_DEFAULT),
            )
        )
        if self.by_keyboard:  # the keyboard carries on in the form; a finger or a mouse sees no focus ring
            focus_quietly(el("match"))

    def show_play(self, focus: bool = True) -> None:
        """The play screen; `focus` puts the focus on the board (not when the page opens on a saved game:
        nobody has touched the page yet, and the browser would ring the focused point)."""
        session = self.session
        assert session is not None, "the play screen shows a game"
        self.screen = "play"
        self.focus_board = focus
        self.computer.turn_begins()
        self.new_screen(pages.play_frame(session, session.board.key_help()))
        self.heard = session.heard()  # a listener hears the moves from here on, not the game so far
        self.render_play()

    def redraw(self) -> None:
        """The screen on show drawn again (the language changed); a set-up keeps what was filled in."""
        if self.screen == "play" and self.session is not None:
            self.session.reset_words()
            self.show_play(focus=False)
        elif self.screen == "setup" and self.setup_game is not None:
            self.remember_setup()
            self.show_setup(self.setup_game)
        elif self.screen == "scan":
            self.scan.redraw()
        else:
            self.show_home()

    def remember_setup(self) -> None:
        """What the set-up form holds now, kept for the next drawing of it (unreadable values are dropped)."""
        try:
            options, seats, seed = self.read_setup()
            think_seconds = check_think(el("think").value)
        except StonesError:
            return
        self.setup_memory[self.setup_game or ""] = {
            "options": options,
            "seats": seats,
            "seed": seed,
            "think": think_seconds,
        }

    def render_play(self) -> None:
        session = self.open_session
        active = document.activeElement
        board_focused = self.focus_board or bool(active and active.closest and active.closest("#board"))
        self.focus_board = False
        self.clock.start_turn(session)
        drawing = session.render_board()
        past = session.viewing is not None
        self.put("status", pages.status(session, self.clock.remaining(session), self.computer.state()))
        self.put("message", message(*self.msg) + self.computer.problem_box())
        el("board").innerHTML = drawing.markup
        el("board-area").classList.toggle("past", past)
        self.put("hint", pages.hint_box(session, self.computer.state()))
        for name in session.hint_targets():
            target = self.target_element(name)
            if target:
                target.classList.add("hint-target")
        self.put("panel", session.render_panel())
        self.put("toolbar", pages.toolbar(session, self.letters))
        self.put("viewing", pages.viewing_banner(session))
        summary = pages.summary(session) if session.shows_summary() else ""
        summary_appears = bool(summary) and not self.drawn.get("summary")
        self.put("summary", summary)
        self.render_moves()
        self.announce(session.news(self.heard))
        self.heard = session.heard()
        # roving tab stop: the cursor (or the first target) is the one board element in the tab order
        cursor = session.ui.get("cursor")
        if cursor not in drawing.targets:
            cursor = next(iter(drawing.targets), None)
            if cursor is not None:
                session.ui["cursor"] = cursor
        target = self.target_element(cursor) if cursor is not None else None
        if target:
            target.setAttribute("tabindex", "0")
        if summary_appears and (board_focused or self.by_keyboard):  # the game just ended under the player's hand
            focus_quietly(el("summary-title"))
        elif target and (board_focused or document.activeElement.id == "board"):
            focus_quietly(target)
        elif board_focused:
            focus_quietly(el("board"))
        self.msg = ("", "")
        document.body.dataset.state = "over" if session.state.is_over() else "playing"

    def announce(self, news: str) -> None:
        """Say `news` in the live region; the same words twice (a second undo) are said again too: a
        region whose text does not change is not read out, so the repeat carries a no-break space."""
        if not news:
            return
        region = el("announce")
        region.textContent = news + "\u00a0" if region.textContent == news else news

    def put(self, part: str, markup: str) -> None:
        """A play-screen part's markup, put in place only when it changed (the browser rebuilds less).

        The focus is never lost: a control that had it has it again in the new markup, or, gone or
        disabled (Undo with nothing left to undo), hands it to the board."""
        if self.drawn.get(part) == markup:
            return
        node = el(part)
        active = document.activeElement
        again = same_control(active) if active and node.contains(active) else None
        node.innerHTML = markup
        self.drawn[part] = markup
        if again:
            control = node.querySelector(again)
            if control and not control.hasAttribute("disabled"):
                focus_quietly(control)
            else:
                focus_quietly(el("board").querySelector('[tabindex="0"]') or el("board"))

    def render_moves(self) -> None:
        """The move list, scrolled inside its own box to the move shown (never the page), in the next
        frame's layout (reading positions now would make the browser lay the page out twice)."""
        self.put("moves", pages.moves(self.open_session))
        next_frame(lambda: scroll_to_current(el("moves")))

    def target_element(self, name: str) -> Any:
        return el("board").querySelector(f'[data-target="{window.CSS.escape(name)}"]')

    def refresh_ai(self, *_: Any) -> None:
        """Redraw what says the computer is thinking (its worker's state changed)."""
        if self.screen != "play" or self.session is None:
            return
        self.put("status", pages.status(self.session, self.clock.remaining(self.session), self.computer.state()))
        self.put("toolbar", pages.toolbar(self.session, self.letters))
        self.put("hint", pages.hint_box(self.session, self.computer.state()))

    def show_message(self, kind: str, text: str) -> None:
        if not el("message"):  # JS null arrives as pyodide's jsnull (falsy), not None
            self.root.insertAdjacentHTML("afterbegin", '<div class="message" id="message" role="alert"></div>')
            self.drawn.pop("message", None)
        self.put("message", message(kind, text))

    def refuse(self, error: StonesError) -> None:
        """Say why an action was refused, in the words the page has for its rule."""
        self.msg = ("error", refusal(error))

    # ----- after every change of the game ---------------------------------------------------
    def after_change(self, save: bool = True) -> None:
        if save:
            self.save()
        self.schedule_ai(redraw=False)  # the request goes first: the worker searches while the page draws
        if self.screen == "play":
            self.render_play()

    def schedule_ai(self, redraw: bool = True) -> None:
        self.computer.schedule(redraw)

    def bump(self) -> None:
        """Cancel what is pending: an answer the worker sends for an older generation is dropped."""
        self.generation += 1
        self.computer.cancel()
        if self.session is not None:
            self.session.thinking = None

    def flag(self) -> None:
        """The player to move ran out of time: the game ends, and the page says why (from its termination)."""
        self.open_session.flag()
        self.bump()
        self.msg = ("info", ending(self.open_session.state.outcome()))

    def tick(self, *_: Any) -> None:
        """Twice a second: the clocks run down on screen, and a flag falls at zero."""
        session = self.session
        if self.screen != "play" or session is None or session.turn_started is None:
            return
        if self.clock.flag_fell(session):
            self.flag()
            self.after_change()
        elif el("status"):
            self.put("status", pages.status(session, self.clock.remaining(session), self.computer.state()))

    # ----- actions --------------------------------------------------------------------------
    def act(self, action: str, node: Any) -> None:
        menu = el("game-menu")
        if menu:
            chosen_there = menu.contains(document.activeElement) and menu.hasAttribute("open")
            menu.removeAttribute("open")  # an action chosen from the menu closes it
            if chosen_there:  # and hands the focus back to the menu's button, as menus do
                focus_quietly(el("game-menu-button"))
        if action.startswith("scan"):
            self.scan.act(action, node)
            return
        run = ACTIONS.get(action)
        if run is not None and (self.session is not None or action in WITHOUT_A_GAME):
            run(self, node)

    def resume(self) -> None:
        self.show_play()
        self.schedule_ai()

    def take_back(self, redo: bool) -> None:
        self.bump()
        try:
            self.open_session.redo() if redo else self.open_session.undo()
        except StonesError as exc:
            self.refuse(exc)
        self.after_change()

    def view(self, ply: int | None) -> None:
        """Show an earlier position (None: back to the game)."""
        if ply is not None:
            self.bump()
        self.open_session.view(ply)
        self.after_change(save=False)

    def play_again(self) -> None:
        """A new game like the finished one: same game, options, seats and thinking time (set-up remembers it)."""
        session = self.open_session.again()
        self.setup_memory[session.game.id] = {
            "options": session.state.options.to_dict(),
            "seats": dict(session.seats),
            "seed": (session.state.seed or 0) + 1,
            "think": session.think_seconds,
        }
        self.play(session, "")

    def show_summary(self, shown: bool) -> None:
        """Put the finished game's summary aside to look at the board (remembered on reload), or back."""
        self.open_session.summary_closed = not shown
        if shown:
            self.open_session.view(None)
        self.after_change()

    def replay(self) -> None:
        """From the summary to the game's start, to step through it move by move."""
        self.open_session.summary_closed = True
        self.save()
        self.view(0)

    def continue_from_view(self) -> None:
        self.bump()
        self.open_session.continue_from_view()
        self.after_change()

    def show_letters(self) -> None:
        """The colour-blind switch: each stone shows its colour's letter (the boards always draw it; the
        style sheet shows it while the page's root carries data-letters)."""
        root = document.documentElement
        if self.letters:
            root.setAttribute("data-letters", "")
        else:
            root.removeAttribute("data-letters")

    def toggle_letters(self) -> None:
        self.letters = not self.letters
        problem = self.settings.set(LETTERS, self.letters)
        self.show_letters()
        if problem:
            self.msg = ("warn", problem)
        self.render_play()

    def export(self) -> None:
        self.msg = ("info", export_game(self.open_session))
        if self.screen == "play":
            self.put("message", message(*self.msg))
            self.msg = ("", "")

    def on_target(self, name: str) -> None:
        session = self.open_session
        session.ui["cursor"] = name
        try:
            played = session.click(name, seconds=self.clock.spent(session))
        except StonesError as exc:
            if flag_fell(exc):  # the move came too late: that player is out of time
                self.flag()
                self.after_change()
            else:
                self.refuse(exc)
                self.after_change(save=False)
            return
        self.after_change(save=played is not None)

    def start_game(self) -> None:
        game_id = self.setup_game_id
        try:
            options, seats, seed = self.read_setup()
            think_seconds = check_think(el("think").value)
            session = Session.new(game_id, options, seed, seats, think_seconds)
        except StonesError as exc:
            el("setup-error").textContent = reason(exc)
            return
        self.setup_memory[game_id] = {"options": options, "seats": seats, "seed": seed + 1, "think": think_seconds}
        self.play(session, "")

    def play(self, session: Session, note: str) -> None:
        """A new game on screen (set up, opened from a file or from a scan), saved at once."""
        self.bump()
        self.session = session
        self.msg = ("info", note) if note else ("", "")
        self.save()
        self.show_play()
        self.schedule_ai()

    def read_setup(self) -> tuple[dict[str, Any], dict[str, str], int]:
        form = el("setup")
        raw: dict[str, Any] = {}
        seats: dict[str, str] = {}
        seed_text = ""
        for field in form.querySelectorAll("[name]"):
            name = field.getAttribute("name")
            if name.startswith("opt:"):
                raw[name[4:]] = bool(field.checked) if field.getAttribute("data-type") == "bool" else field.value
            elif name.startswith("seat:"):
                seats[name[5:]] = field.value
            elif name == "seed":
                seed_text = field.value
        schema = get_game(self.setup_game).describe()["options"]
        options = pages.read_options(schema, raw)
        get_game(self.setup_game).options(options)  # validate now: OptionError names the problem
        try:
            seed = int(seed_text) if seed_text.strip() else random.randrange(1, 1_000_000)
        except ValueError:
            raise OptionError(f"the seed must be a whole number, not {seed_text!r}", rule="seed") from None
        return options, seats, seed

    def setup_changed(self, changed: Any) -> None:
        """A set-up field changed: check the options, then bring the rest in line: "Who plays" and the seat
        menus follow each other and the number of players, and the seed shows only where the game so set
        up has chance. The field that changed is never redrawn (it has the focus)."""
        error = el("setup-error")
        try:
            options, seats, seed = self.read_setup()
            players = pages.players_for(self.setup_game_id, options)
        except StonesError as exc:
            error.textContent = reason(exc)
            return
        error.textContent = ""
        kinds = seat_kinds(self.setup_game_id)
        match = el("match").value
        if changed.id == "match" or list(seats) != players:
            if match in pages.MATCHES:
                seats = pages.match_seats(match, players, kinds)
            else:
                fallback = pages.default_seats(self.setup_game_id, players)
                seats = {p: seats.get(p, fallback[p]) for p in players}
            el("seat-rows").innerHTML = pages.seat_rows(players, seats, kinds)
        el("match").value = pages.match_of(seats, players, kinds)
        chance = pages.has_chance(self.setup_game_id, options)
        if chance != bool(el("seed")):
            el("seed-wrap").innerHTML = pages.seed_fieldset(seed) if chance else ""

    async def import_file(self, file: Any) -> None:
        session, words = await open_game(file)
        if session is None:
            self.show_message("error", words)
        else:
            self.play(session, words)

    # ----- events ---------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        self.computer.turn_begins()  # a click may end the person's turn: the computer's reply counts from here
        self.by_keyboard = not event.detail  # a button's click from Enter or Space counts no pointer presses
        closest = getattr(event.target, "closest", None)
        node = closest("[data-action], [data-target], [data-board-action]") if closest else None
        if not node:  # JS null arrives as pyodide's jsnull (falsy), not None
            return
        try:
            if node.hasAttribute("data-target") and self.screen == "play" and self.session:
                self.on_target(node.getAttribute("data-target"))
            elif node.hasAttribute("data-board-action") and self.session:
                self.session.board.action(
                    self.session.shown_state(),
                    node.getAttribute("data-board-action"),
                    node.getAttribute("data-value") or "",
                    self.session.ui,
                )
                self.render_play()
            elif node.hasAttribute("data-action"):
                event.preventDefault()
                self.act(node.getAttribute("data-action"), node)
        except Exception as exc:  # a bug must show, not freeze the page silently
            self.show_message("error", _("Something went wrong: {error}").format(error=f"{type(exc).__name__}: {exc}"))
            raise

    def on_submit(self, event: Any) -> None:
        event.preventDefault()
        if self.screen == "setup":
            self.start_game()

    def on_change(self, event: Any) -> None:
        target = event.target
        if target.id == "language":  # main.py's own listener changes the language
            return
        if self.screen == "scan":
            from ui.scan import FILE_INPUTS  # loaded with the scan screen: only there can a photo be chosen

            if target.id in FILE_INPUTS:
                self.scan.photo_chosen(target)
                return
        if target.id == "import-file":
            files = target.files
            if files.length:
                asyncio.ensure_future(self.import_file(files.item(0)))
            target.value = ""
        elif self.screen == "setup" and target.closest("#setup"):
            self.setup_changed(target)

    def on_key(self, event: Any) -> None:
        self.computer.turn_begins()  # a key may end the person's turn: the computer's reply counts from here
        if self.screen == "scan":
            self.scan.key(event)
            return
        if self.screen != "play" or self.session is None:
            return
        if event.altKey or event.metaKey:
            return
        tag = (event.target.tagName or "").lower()
        if tag in ("input", "select", "textarea"):
            return
        key = event.key
        session = self.session
        if event.ctrlKey:
            if key.lower() in ("z", "y"):
                event.preventDefault()
                self.act("undo" if key.lower() == "z" else "redo", None)
            return
        if key.startswith("Arrow") and event.target.closest("#board"):
            event.preventDefault()
            self.move_cursor(key)
        elif key in ("Enter", " ") and tag == "button":
            return  # a button's own click does it
        elif key in ("Enter", " ") and event.target.hasAttribute and event.target.hasAttribute("data-target"):
            event.preventDefault()
            self.on_target(event.target.getAttribute("data-target"))
        elif key == "Escape" and session.shows_summary():
            self.act("close-summary", None)
        elif key in KEY_ACTIONS and (key != "Escape" or session.viewing is not None):
            self.act(KEY_ACTIONS[key], None)
        elif len(key) == 1 and session.viewing is None and session.human_to_move():
            used = session.board.key(session.state, key, session.ui)
            if isinstance(used, str):  # a key that stands for a board target (e.g. "pass"): click it
                self.on_target(used)
            elif used:
                self.render_play()

    def move_cursor(self, arrow: str) -> None:
        """An arrow key on the board: the cursor, the one board element in the tab order, moves that way."""
        name = self.open_session.move_cursor(arrow)
        if not name:
            return
        previous = el("board").querySelector('[tabindex="0"]')
        if previous:
            previous.setAttribute("tabindex", "-1")
        target = self.target_element(name)
        if target:
            target.setAttribute("tabindex", "0")
            target.focus()


# Every action a button names (data-action) → what the page does; "scan…" actions go to the scan screen.
ACTIONS: dict[str, Callable[[Page, Any], None]] = {
    "home": lambda page, node: page.show_home(),
    "pick": lambda page, node: page.show_setup(node.getAttribute("data-game")),
    "start": lambda page, node: page.start_game(),
    "import": lambda page, node: el("import-file").click(),
    "resume": lambda page, node: page.resume(),
    "new": lambda page, node: page.show_setup(page.open_session.game.id),
    "hint": lambda page, node: page.computer.ask_hint(),
    "ai-here": lambda page, node: page.computer.choose(think_here=True),
    "ai-retry": lambda page, node: page.computer.choose(think_here=False),
    "export": lambda page, node: page.export(),
    "letters": lambda page, node: page.toggle_letters(),
    "undo": lambda page, node: page.take_back(redo=False),
    "redo": lambda page, node: page.take_back(redo=True),
    "view": lambda page, node: page.view(int(node.getAttribute("data-ply"))),
    "live": lambda page, node: page.view(None),
    "continue": lambda page, node: page.continue_from_view(),
    "again": lambda page, node: page.play_again(),
    "replay": lambda page, node: page.replay(),
    "close-summary": lambda page, node: page.show_summary(False),
    "summary": lambda page, node: page.show_summary(True),
}
LETTERS = "letters"  # the setting's name: the colour-blind letters on stones
WITHOUT_A_GAME = frozenset({"home", "pick", "start", "import"})  # the rest need a game in progress
KEY_ACTIONS = {"Escape": "live", "u": "undo", "U": "undo", "r": "redo", "R": "redo", "h": "hint", "H": "hint"}
