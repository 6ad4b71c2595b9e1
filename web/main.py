"""The page: wires the DOM to the game session (PyScript, main thread).

Everything a person does arrives here as one delegated event (click, change,
submit, keydown) and becomes a call on `ui.session.Session`; the screens are
drawn by `ui.pages` and the game's own module in `boards/`. The game in
progress is saved to localStorage after every move and restored on reload.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from engine import OptionError, StonesError, get_game
from ui import pages, think
from ui.scan import FILE_INPUTS, ScanScreen
from ui.session import Session, StaleAnswerError, check_think, restore, saved_json, seat_kinds

STORE_KEY = "stones/current-game"
AI_DELAY = 0.35  # seconds between AI moves, so people can follow them
AI_TIMEOUT = 90.0  # seconds without an answer (worker start-up included) before the worker counts as failed
DRAW_ALLOWANCE = 0.15  # seconds kept back from a search for the page to play, draw and paint its move (until measured)
MESSAGE_ALLOWANCE = 0.03  # seconds for the request and the answer to cross between page and worker


class AIUnavailable(Exception):
    """The computer players' worker failed (could not start, or gave no answer): the reason, in words."""


def el(element_id: str) -> Any:
    return document.getElementById(element_id)


def js_object(data: dict[str, Any]) -> Any:
    return to_js(data, dict_converter=window.Object.fromEntries)


def after_paint(callback: Any) -> None:
    """Call `callback()` once the next frame is painted (a task after that frame's animation callbacks)."""
    window.requestAnimationFrame(create_once_callable(
        lambda *_: window.setTimeout(create_once_callable(callback), 0)))


def scroll_to_current(moves: Any) -> None:
    """Scroll the move list's own box (not the page) so that its current row shows."""
    current = moves.querySelector("li.current") if moves else None
    if not current:
        return
    top, bottom = current.offsetTop, current.offsetTop + current.offsetHeight
    if top < moves.scrollTop:
        moves.scrollTop = top
    elif bottom > moves.scrollTop + moves.clientHeight:
        moves.scrollTop = bottom - moves.clientHeight


def focus_quietly(node: Any) -> None:
    """Focus without scrolling the page (the page never moves by itself)."""
    node.focus(js_object({"preventScroll": True}))


class Page:
    def __init__(self) -> None:
        self.root = el("app")
        self.session: Session | None = None
        self.screen = "home"
        self.setup_game: str | None = None
        self.setup_memory: dict[str, dict[str, Any]] = {}  # per game: last options and seats
        self.msg = ("", "")
        self.generation = 0  # bumped by anything that should cancel a pending AI move
        self.ai_pending = False
        self.ai_here = False  # the worker failed and the person chose to let this page think instead
        self.thinking_here = False  # this page is searching now (the worker was still starting)
        self.ai_problem = ""  # why the worker failed, shown with the choices until one is made
        self.scan = ScanScreen(self)  # the "Scan a board" screen (ui.scan)
        self.focus_board = False  # put the focus on the board at the next drawing (after Start)
        self.by_keyboard = False  # the click being handled came from a key (Enter or Space on a button)
        self.turn_began = time.time()  # when the player to move got the turn: a computer's reply counts from here
        self.draw_seconds = DRAW_ALLOWANCE  # how long the page took to play, draw and paint a computer's move
        self.drawn: dict[str, str] = {}  # each play-screen part's markup as last put in place

    # ----- storage ----------------------------------------------------------------------
    def save(self) -> None:
        if self.session is None:
            return
        try:
            window.localStorage.setItem(STORE_KEY, saved_json(self.session))
        except Exception as exc:  # storage full or disabled: playing goes on
            self.msg = ("warn", f"the game could not be saved in this browser ({exc})")

    def saved_summary(self) -> dict[str, Any] | None:
        if self.session is not None:
            return {"game": self.session.game.id, "moves": len(self.session.move_rows())}
        return None

    def restore_saved(self) -> None:
        text = window.localStorage.getItem(STORE_KEY)
        if not text:
            return
        try:
            self.session = restore(text)
            self.screen = "play"
        except StonesError as exc:
            window.localStorage.removeItem(STORE_KEY)
            self.msg = ("error", f"Your saved game could not be restored: {exc}")

    # ----- screens ------------------------------------------------------------------------
    def new_screen(self, markup: str) -> None:
        """Another screen: it starts at its top (within a screen the page never scrolls by itself)."""
        self.root.innerHTML = markup
        self.drawn = {}
        window.scrollTo(0, 0)

    def show_home(self) -> None:
        self.screen = "home"
        self.bump()
        self.new_screen(pages.message(*self.msg) + pages.home(self.saved_summary()))
        self.msg = ("", "")

    def show_setup(self, game_id: str, error: str = "") -> None:
        self.screen = "setup"
        self.setup_game = game_id
        self.bump()
        memory = self.setup_memory.get(game_id, {})
        seed = memory.get("seed", random.randrange(1, 1_000_000))
        self.new_screen(pages.setup(game_id, memory.get("options"), memory.get("seats"), seed, error,
                                    memory.get("think", pages.THINK_DEFAULT)))
        if self.by_keyboard:  # the keyboard carries on in the form; a finger or a mouse sees no focus ring
            focus_quietly(el("match"))

    def show_play(self, focus: bool = True) -> None:
        """The play screen; `focus` puts the focus on the board (not when the page opens on a saved game:
        nobody has touched the page yet, and the browser would ring the focused point)."""
        self.screen = "play"
        self.focus_board = focus
        self.turn_began = time.time()
        self.new_screen(pages.play_frame(self.session, self.session.board.key_help()))
        self.render_play()

    def render_play(self) -> None:
        session = self.session
        active = document.activeElement
        board_focused = self.focus_board or bool(active and active.closest and active.closest("#board"))
        self.focus_board = False
        self.clock_turn()
        drawing = session.render_board()
        past = session.viewing is not None
        self.put("status", pages.status(session, self.clock_now(), self.ai_state()))
        self.put("message", pages.message(*self.msg) + self.ai_problem_box())
        el("board").innerHTML = drawing.markup
        el("board-area").classList.toggle("past", past)
        self.put("hint", pages.hint_box(session, self.ai_state()))
        for name in session.hint_targets():
            target = self.target_element(name)
            if target:
                target.classList.add("hint-target")
        self.put("panel", session.render_panel())
        self.put("toolbar", pages.toolbar(session))
        self.put("viewing", pages.viewing_banner(session))
        self.render_moves()
        # roving tab stop: the cursor (or the first target) is the one board element in the tab order
        cursor = session.ui.get("cursor")
        if cursor not in drawing.targets:
            cursor = next(iter(drawing.targets), None)
            if cursor is not None:
                session.ui["cursor"] = cursor
        target = self.target_element(cursor) if cursor is not None else None
        if target:
            target.setAttribute("tabindex", "0")
            if board_focused:
                focus_quietly(target)
        elif board_focused:
            focus_quietly(el("board"))
        self.msg = ("", "")
        document.body.dataset.state = "over" if session.state.is_over() else "playing"

    def put(self, part: str, markup: str) -> None:
        """A play-screen part's markup, put in place only when it changed (the browser rebuilds less)."""
        if self.drawn.get(part) != markup:
            el(part).innerHTML = markup
            self.drawn[part] = markup

    def render_moves(self) -> None:
        """The move list, scrolled inside its own box to the move shown (never the page), in the next
        frame's layout (reading positions now would make the browser lay the page out twice)."""
        self.put("moves", pages.moves(self.session))
        window.requestAnimationFrame(create_once_callable(lambda *_: scroll_to_current(el("moves"))))

    def target_element(self, name: str) -> Any:
        return el("board").querySelector(f'[data-target="{window.CSS.escape(name)}"]')

    # ----- after every change of the game ---------------------------------------------------
    def after_change(self, save: bool = True) -> None:
        if save:
            self.save()
        self.schedule_ai(redraw=False)  # the request goes first: the worker searches while the page draws
        if self.screen == "play":
            self.render_play()

    def bump(self) -> None:
        """Cancel what is pending: an answer the worker sends for an older generation is dropped."""
        self.generation += 1
        self.ai_pending = False
        if self.session is not None:
            self.session.thinking = None

    # ----- the computer players: asked through the worker (ai.js), never on this thread -----------
    def ai_state(self) -> str:
        """'here' (the fallback), 'ready', or 'starting' (the worker is still loading Pyodide)."""
        if self.ai_here or self.thinking_here:
            return "here"
        worker = getattr(window, "stonesAI", None)
        return "ready" if worker is None or worker.status == "ready" else "starting"

    def ai_problem_box(self) -> str:
        session = self.session
        if not self.ai_problem or session is None or not (session.ai_to_move() or session.human_to_move()):
            return ""
        return pages.ai_problem(self.ai_problem, session.think_seconds)

    def refresh_ai(self, *_: Any) -> None:
        """Redraw what says the computer is thinking (its worker's state changed)."""
        if self.screen != "play" or self.session is None:
            return
        self.put("status", pages.status(self.session, self.clock_now(), self.ai_state()))
        self.put("toolbar", pages.toolbar(self.session))
        self.put("hint", pages.hint_box(self.session, self.ai_state()))

    def with_deadline(self, request: dict[str, Any]) -> dict[str, Any]:
        """The request with the wall-clock time its answer must leave the search by: the player's turn
        began at `turn_began`, and the page needs `draw_seconds` to play and draw the move."""
        spare = self.draw_seconds + MESSAGE_ALLOWANCE
        return {**request, "deadline": self.turn_began + request["seconds"] - spare}

    def send(self, request: dict[str, Any]) -> Any:
        """Post the request to the worker at once (a JS promise of its answer), or None to think on this page:
        when the person chose that, or while the worker is still starting (its first start takes seconds)."""
        worker = window.stonesAI
        if self.ai_here or worker.status in ("idle", "starting"):
            worker.start()
            return None
        timeout_ms = int(1000 * (AI_TIMEOUT + 2 * request["seconds"]))
        return worker.ask(json.dumps(request), timeout_ms)

    async def receive(self, request: dict[str, Any], sent: Any) -> dict[str, Any]:
        """The answer to a request `send` posted, or thought out here when it posted none."""
        if sent is None:
            self.thinking_here = True
            self.refresh_ai()
            await asyncio.sleep(0.05)  # let the browser paint "thinking" before the page is busy
            try:
                return json.loads(think.answer_json(json.dumps(request)))
            finally:
                self.thinking_here = False
        try:
            text = await sent
        except Exception as exc:  # the JS promise was rejected: its message says why
            raise AIUnavailable(str(getattr(exc, "message", "") or exc)) from None
        return json.loads(text)

    def schedule_ai(self, redraw: bool = True) -> None:
        session = self.session
        if session is None or self.screen != "play" or self.ai_pending or not session.ai_to_move():
            return
        if self.ai_problem and not self.ai_here:
            return  # the person chooses first: try the worker again, or think on this page
        self.ai_pending = True
        session.thinking = "move"
        asked_at = window.performance.now()
        request = self.with_deadline(session.ai_request())
        sent = self.send(request)
        if redraw:
            self.refresh_ai()
        asyncio.ensure_future(self.ai_turn(self.generation, request, sent, asked_at))

    async def ai_turn(self, generation: int, request: dict[str, Any], sent: Any, asked_at: float) -> None:
        session = self.session
        started = time.monotonic()
        try:
            answer = await self.receive(request, sent)
            arrived_at = window.performance.now()
        except AIUnavailable as exc:
            if generation == self.generation:
                self.ai_pending = False
                session.thinking = None
                self.ai_problem = str(exc)
                self.after_change(save=False)
            return
        wait = AI_DELAY - (time.monotonic() - started)
        if wait > 0:
            await asyncio.sleep(wait)  # a quick answer still leaves time to follow the move
        if generation != self.generation or self.session is not session:
            return  # undone, a new game or an earlier position shown meanwhile: the answer is stale
        self.ai_pending = False
        session.thinking = None
        played = None
        drawing = time.monotonic()
        try:
            played = session.play_ai_answer(request, answer, seconds=self.spent())
        except StaleAnswerError:
            pass
        except StonesError as exc:  # the worker's answer failed or the engine refused it: say so, stop
            self.ai_problem = f"its move went wrong ({exc})"
        self.turn_began = time.time()  # the next player's turn begins as this move shows
        self.after_change()
        if played is None:
            return
        # each computer move in window.stonesAIMoves (page clock, performance.now) for bench/web.py
        entry = js_object({"move": played, "ms": (time.monotonic() - started) * 1000, "asked_at": asked_at,
                           "search_s": answer.get("seconds"), "arrived_at": arrived_at,
                           "drawn_at": window.performance.now()})
        window.stonesAIMoves.push(entry)

        def painted() -> None:
            """The move is on screen: the next request keeps back what playing, drawing and painting took."""
            took = time.monotonic() - drawing
            self.draw_seconds = max(took, (self.draw_seconds + took) / 2)  # up at once, down slowly
            entry.painted_at = window.performance.now()

        after_paint(painted)

    def ask_hint(self) -> None:
        session = self.session
        try:
            request = session.hint_request()
        except StonesError as exc:
            self.msg = ("error", str(exc))
            self.render_play()
            return
        session.thinking = "hint"
        session.hint = None
        request = self.with_deadline(request)
        sent = self.send(request)
        self.refresh_ai()
        asyncio.ensure_future(self.hint_turn(self.generation, request, sent))

    async def hint_turn(self, generation: int, request: dict[str, Any], sent: Any) -> None:
        session = self.session
        try:
            answer = await self.receive(request, sent)
            failure = ""
        except AIUnavailable as exc:
            answer, failure = {}, str(exc)
        if generation != self.generation or self.session is not session or session.thinking != "hint":
            return
        session.thinking = None
        if failure:
            self.ai_problem = failure
        else:
            try:
                session.take_hint(request, answer)
            except StaleAnswerError:
                pass
            except StonesError as exc:
                self.msg = ("error", str(exc))
        if self.screen == "play":
            self.render_play()

    # ----- chess clock -----------------------------------------------------------------------
    def clock_turn(self) -> None:
        """Start timing the player to move (the engine counts only the seconds passed to push)."""
        session = self.session
        if session.state.clock is None or session.state.is_over() or session.viewing is not None:
            session.turn_started = None
        elif session.turn_started is None or session.ui.get("clock_ply") != session.state.ply:
            session.turn_started = time.monotonic()
            session.ui["clock_ply"] = session.state.ply

    def spent(self) -> float | None:
        session = self.session
        if session is None or session.turn_started is None:
            return None
        return round(time.monotonic() - session.turn_started, 1)

    def clock_now(self) -> dict[str, float] | None:
        session = self.session
        clock = session.state.clock
        if clock is None:
            return None
        clock = dict(clock)
        spent = self.spent()
        if spent is not None and session.state.current_player in clock:
            clock[session.state.current_player] -= spent
        return clock

    def tick(self, *_: Any) -> None:
        session = self.session
        if self.screen != "play" or session is None or session.turn_started is None:
            return
        clock = self.clock_now()
        if clock is None:
            return
        player = session.state.current_player
        if player in clock and clock[player] <= 0 and not session.state.is_over():
            session.flag()
            self.bump()
            self.msg = ("info", f"{player} ran out of time")
            self.after_change()
            return
        if el("status"):
            self.put("status", pages.status(session, clock, self.ai_state()))

    # ----- actions --------------------------------------------------------------------------
    def act(self, action: str, node: Any) -> None:
        session = self.session
        menu = el("game-menu")
        if menu:
            menu.removeAttribute("open")  # an action chosen from the menu closes it
        if action == "home":
            self.show_home()
        elif action == "pick":
            self.show_setup(node.getAttribute("data-game"))
        elif action == "start":
            self.start_game()
        elif action == "resume" and session is not None:
            self.show_play()
            self.schedule_ai()
        elif action == "import":
            el("import-file").click()
        elif action.startswith("scan"):
            self.scan.act(action, node)
        elif session is None:
            return
        elif action == "new":
            self.show_setup(session.game.id)
        elif action == "hint":
            self.ask_hint()
        elif action in ("ai-here", "ai-retry"):
            self.ai_here = action == "ai-here"
            self.ai_problem = ""
            if action == "ai-retry":
                window.stonesAI.retry()
            self.after_change(save=False)
        elif action == "export":
            self.export()
        elif action in ("undo", "redo"):
            self.bump()
            try:
                session.undo() if action == "undo" else session.redo()
            except StonesError as exc:
                self.msg = ("error", str(exc))
            self.after_change()
        elif action == "view":
            self.bump()
            session.view(int(node.getAttribute("data-ply")))
            self.after_change(save=False)
        elif action == "live":
            session.view(None)
            self.after_change(save=False)
        elif action == "continue":
            self.bump()
            session.continue_from_view()
            self.after_change()

    def on_target(self, name: str) -> None:
        session = self.session
        session.ui["cursor"] = name
        try:
            played = session.click(name, seconds=self.spent())
        except StonesError as exc:
            message = str(exc)
            if "flag has fallen" in message:
                session.flag()
            self.msg = ("error", message)
            self.after_change(save="flag has fallen" in message)
            return
        self.after_change(save=played is not None)

    def start_game(self) -> None:
        game_id = self.setup_game
        try:
            options, seats, seed = self.read_setup()
            think_seconds = check_think(el("think").value)
            session = Session.new(game_id, options, seed, seats, think_seconds)
        except StonesError as exc:
            el("setup-error").textContent = str(exc)
            return
        self.setup_memory[game_id] = {"options": options, "seats": seats, "seed": seed + 1, "think": think_seconds}
        self.bump()
        self.session = session
        self.msg = ("", "")
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
            raise OptionError(f"the seed must be a whole number, not {seed_text!r}") from None
        return options, seats, seed

    def setup_changed(self, changed: Any) -> None:
        """A set-up field changed: check the options, then bring the rest in line: "Who plays" and the seat
        menus follow each other and the number of players, and the seed shows only where the game so set
        up has chance. The field that changed is never redrawn (it has the focus)."""
        error = el("setup-error")
        try:
            options, seats, seed = self.read_setup()
            players = pages.players_for(self.setup_game, options)
        except StonesError as exc:
            error.textContent = str(exc)
            return
        error.textContent = ""
        kinds = seat_kinds(self.setup_game)
        match = el("match").value
        if changed.id == "match" or list(seats) != players:
            if match in pages.MATCHES:
                seats = pages.match_seats(match, players, kinds)
            else:
                fallback = pages.default_seats(self.setup_game, players)
                seats = {p: seats.get(p, fallback[p]) for p in players}
            el("seat-rows").innerHTML = pages.seat_rows(players, seats, kinds)
        el("match").value = pages.match_of(seats, players, kinds)
        chance = pages.has_chance(self.setup_game, options)
        if chance != bool(el("seed")):
            el("seed-wrap").innerHTML = pages.seed_fieldset(seed) if chance else ""

    # ----- export / import -------------------------------------------------------------------
    def export(self) -> None:
        session = self.session
        text = json.dumps(session.to_record(), indent=1)
        options = to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries)
        blob = window.Blob.new(to_js([text]), options)
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(window.Date.now() / 1000))
        link.download = f"stones-{session.game.id}-{stamp}.json"
        document.body.appendChild(link)
        link.click()
        link.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 10_000)
        self.msg = ("info", f"Exported the game ({len(session.state.history)} moves) as {link.download}")
        if self.screen == "play":
            self.put("message", pages.message(*self.msg))
            self.msg = ("", "")

    async def import_file(self, file: Any) -> None:
        name = file.name
        try:
            text = await file.text()
            session = Session.from_record(text)
        except StonesError as exc:
            self.show_message("error", f"Could not open {name}: {exc}. Your current game is unchanged.")
            return
        except Exception as exc:  # unreadable file
            self.show_message("error", f"Could not open {name}: {type(exc).__name__}: {exc}. Your current game is unchanged.")
            return
        self.bump()
        self.session = session
        self.msg = ("info", f"Opened {name}: {session.game.title}, {len(session.move_rows())} moves")
        self.save()
        self.show_play()
        self.schedule_ai()

    def show_message(self, kind: str, text: str) -> None:
        if not el("message"):  # JS null arrives as pyodide's jsnull (falsy), not None
            self.root.insertAdjacentHTML("afterbegin", '<div class="message" id="message" role="alert"></div>')
            self.drawn.pop("message", None)
        self.put("message", pages.message(kind, text))

    # ----- events ---------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        self.turn_began = time.time()  # a click may end the person's turn: the computer's reply counts from here
        self.by_keyboard = not event.detail  # a button's click from Enter or Space counts no pointer presses
        closest = getattr(event.target, "closest", None)
        node = closest("[data-action], [data-target], [data-board-action]") if closest else None
        if not node:  # JS null arrives as pyodide's jsnull (falsy), not None
            return
        try:
            if node.hasAttribute("data-target") and self.screen == "play" and self.session:
                self.on_target(node.getAttribute("data-target"))
            elif node.hasAttribute("data-board-action") and self.session:
                self.session.board.action(self.session.shown_state(), node.getAttribute("data-board-action"),
                                          node.getAttribute("data-value") or "", self.session.ui)
                self.render_play()
            elif node.hasAttribute("data-action"):
                event.preventDefault()
                self.act(node.getAttribute("data-action"), node)
        except Exception as exc:  # a bug must show, not freeze the page silently
            self.show_message("error", f"Something went wrong: {type(exc).__name__}: {exc}")
            raise

    def on_submit(self, event: Any) -> None:
        event.preventDefault()
        if self.screen == "setup":
            self.start_game()

    def on_change(self, event: Any) -> None:
        target = event.target
        if target.id in FILE_INPUTS:
            self.scan.photo_chosen(target)
        elif target.id == "import-file":
            files = target.files
            if files.length:
                asyncio.ensure_future(self.import_file(files.item(0)))
            target.value = ""
        elif self.screen == "setup" and target.closest("#setup"):
            self.setup_changed(target)

    def on_key(self, event: Any) -> None:
        self.turn_began = time.time()  # a key may end the person's turn: the computer's reply counts from here
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
            name = session.move_cursor(key)
            if name:
                previous = el("board").querySelector('[tabindex="0"]')
                if previous:
                    previous.setAttribute("tabindex", "-1")
                target = self.target_element(name)
                if target:
                    target.setAttribute("tabindex", "0")
                    target.focus()
        elif key in ("Enter", " ") and tag == "button":
            return  # a button's own click does it
        elif key in ("Enter", " ") and event.target.hasAttribute and event.target.hasAttribute("data-target"):
            event.preventDefault()
            self.on_target(event.target.getAttribute("data-target"))
        elif key == "Escape" and session.viewing is not None:
            self.act("live", None)
        elif key in ("u", "U"):
            self.act("undo", None)
        elif key in ("h", "H"):
            self.act("hint", None)
        elif key in ("r", "R"):
            self.act("redo", None)
        elif len(key) == 1 and session.viewing is None and session.human_to_move():
            used = session.board.key(session.state, key, session.ui)
            if isinstance(used, str):  # a key that stands for a board target (e.g. "pass"): click it
                self.on_target(used)
            elif used:
                self.render_play()


window.stonesAIMoves = to_js([])  # the computer's moves as drawn (bench/web.py reads them)
page = Page()
_proxies = [create_proxy(page.on_click), create_proxy(page.on_submit), create_proxy(page.on_change),
            create_proxy(page.on_key), create_proxy(page.tick), create_proxy(page.refresh_ai)]
document.addEventListener("click", _proxies[0])
document.addEventListener("submit", _proxies[1])
document.addEventListener("change", _proxies[2])
document.addEventListener("keydown", _proxies[3])
window.setInterval(_proxies[4], 500)
window.addEventListener("stones:ai", _proxies[5])  # the worker started, or failed

page.restore_saved()
if page.screen == "play":
    page.show_play(focus=False)
    page.schedule_ai()
else:
    page.show_home()
document.body.dataset.ready = "1"
window.stonesReadyAt = window.performance.now()
window.dispatchEvent(window.Event.new("stones:ready"))  # start.js: now the service worker and the AI worker
