"""The computer players and hints: asked through the worker (ai.js), never on the page's thread.

Until the worker is ready (its first start takes seconds), or when a person chose it after
the worker failed, the page thinks the move itself. Every request carries the turn's
deadline, less what the page takes to play, draw and paint the answer; an answer for a
position the game has left (an undo, a new game) is dropped.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from pyscript import window

from engine import StonesError
from ui import pages, think
from ui.i18n import _
from ui.words import reason
from ui.session import StaleAnswerError

from .dom import after_paint, js_object

if TYPE_CHECKING:
    from .page import Page

AI_DELAY = 0.35  # seconds between AI moves, so people can follow them
AI_TIMEOUT = 90.0  # seconds without an answer (worker start-up included) before the worker counts as failed
DRAW_ALLOWANCE = 0.15  # seconds kept back from a search for the page to play, draw and paint its move (until measured)
MESSAGE_ALLOWANCE = 0.03  # seconds for the request and the answer to cross between page and worker


class AIUnavailable(Exception):
    """The computer players' worker failed (could not start, or gave no answer): the reason, in words."""


class ComputerPlayers:
    """Asks for the computer's moves and the hints of the game on `page`, and plays or shows the answers."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.pending = False  # a computer move is asked for
        self.here = False  # the worker failed and the person chose to let this page think instead
        self.thinking_here = False  # this page is searching now (the worker was still starting)
        self.problem = ""  # why the worker failed, shown with the choices until one is made
        self.turn_began = time.time()  # when the player to move got the turn: a computer's reply counts from here
        self.draw_seconds = DRAW_ALLOWANCE  # how long the page took to play, draw and paint a computer's move

    def turn_begins(self) -> None:
        """The player to move has the turn from now (a click or a key may end a person's move)."""
        self.turn_began = time.time()

    def cancel(self) -> None:
        """Forget the move asked for (the page bumped its generation: the answer will be dropped)."""
        self.pending = False

    # ----- the worker's state, as the page shows it ------------------------------------------
    def state(self) -> str:
        """'here' (the fallback), 'ready', or 'starting' (the worker is still loading Pyodide)."""
        if self.here or self.thinking_here:
            return "here"
        worker = getattr(window, "stonesAI", None)
        return "ready" if worker is None or worker.status == "ready" else "starting"

    def problem_box(self) -> str:
        session = self.page.session
        if not self.problem or session is None or not (session.ai_to_move() or session.human_to_move()):
            return ""
        return pages.ai_problem(self.problem, session.think_seconds)

    def choose(self, think_here: bool) -> None:
        """The person's answer to a failed worker: think on this page, or start the worker again."""
        self.here = think_here
        self.problem = ""
        if not think_here:
            window.stonesAI.retry()
        self.page.after_change(save=False)

    # ----- asking ----------------------------------------------------------------------------
    def with_deadline(self, request: dict[str, Any]) -> dict[str, Any]:
        """The request with the wall-clock time its answer must leave the search by: the player's turn
        began at `turn_began`, and the page needs `draw_seconds` to play and draw the move."""
        spare = self.draw_seconds + MESSAGE_ALLOWANCE
        return {**request, "deadline": self.turn_began + request["seconds"] - spare}

    def send(self, request: dict[str, Any]) -> Any:
        """Post the request to the worker at once (a JS promise of its answer), or None to think on this page:
        when the person chose that, or while the worker is still starting (its first start takes seconds)."""
        worker = window.stonesAI
        if self.here or worker.status in ("idle", "starting"):
            worker.start()
            return None
        timeout_ms = int(1000 * (AI_TIMEOUT + 2 * request["seconds"]))
        return worker.ask(json.dumps(request), timeout_ms)

    async def receive(self, request: dict[str, Any], sent: Any) -> dict[str, Any]:
        """The answer to a request `send` posted, or thought out here when it posted none."""
        if sent is None:
            self.thinking_here = True
            self.page.refresh_ai()
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

    # ----- the computer's moves ------------------------------------------------------------------
    def schedule(self, redraw: bool = True) -> None:
        """Ask for the computer's move when a computer seat is to move on the play screen."""
        page, session = self.page, self.page.session
        if session is None or page.screen != "play" or self.pending or not session.ai_to_move():
            return
        if self.problem and not self.here:
            return  # the person chooses first: try the worker again, or think on this page
        self.pending = True
        session.thinking = "move"
        asked_at = window.performance.now()
        request = self.with_deadline(session.ai_request())
        sent = self.send(request)
        if redraw:
            page.refresh_ai()
        asyncio.ensure_future(self.move(page.generation, request, sent, asked_at))

    async def move(self, generation: int, request: dict[str, Any], sent: Any, asked_at: float) -> None:
        page, session = self.page, self.page.open_session
        started = time.monotonic()
        try:
            answer = await self.receive(request, sent)
            arrived_at = window.performance.now()
        except AIUnavailable as exc:
            if generation == page.generation:
                self.pending = False
                session.thinking = None
                self.problem = str(exc)
                page.after_change(save=False)
            return
        wait = AI_DELAY - (time.monotonic() - started)
        if wait > 0:
            await asyncio.sleep(wait)  # a quick answer still leaves time to follow the move
        if generation != page.generation or page.session is not session:
            return  # undone, a new game or an earlier position shown meanwhile: the answer is stale
        self.pending = False
        session.thinking = None
        played = None
        drawing = time.monotonic()
        try:
            played = session.play_ai_answer(request, answer, seconds=page.clock.spent(session))
        except StaleAnswerError:
            pass
        except StonesError as exc:  # the worker's answer failed or the engine refused it: say so, stop
            self.problem = _("its move went wrong ({reason})").format(reason=reason(exc))
        self.turn_begins()  # the next player's turn begins as this move shows
        page.after_change()
        if played is None:
            return
        # each computer move in window.stonesAIMoves (page clock, performance.now) for bench/web.py
        entry = js_object(
            {
                "move": played,
                "ms": (time.monotonic() - started) * 1000,
                "asked_at": asked_at,
                "search_s": answer.get("seconds"),
                "arrived_at": arrived_at,
                "drawn_at": window.performance.now(),
            }
        )
        window.stonesAIMoves.push(entry)

        def painted() -> None:
            """The move is on screen: the next request keeps back what playing, drawing and painting took."""
            took = time.monotonic() - drawing
            self.draw_seconds = max(took, (self.draw_seconds + took) / 2)  # up at once, down slowly
            entry.painted_at = window.performance.now()

        after_paint(painted)

    # ----- hints ----------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        page, session = self.page, self.page.open_session
        try:
            request = session.hint_request()
        except StonesError as exc:
            page.refuse(exc)
            page.render_play()
            return
        session.thinking = "hint"
        session.hint = None
        request = self.with_deadline(request)
        sent = self.send(request)
        page.refresh_ai()
        asyncio.ensure_future(self.hint(page.generation, request, sent))

    async def hint(self, generation: int, request: dict[str, Any], sent: Any) -> None:
        page, session = self.page, self.page.open_session
        try:
            answer = await self.receive(request, sent)
            failure = ""
        except AIUnavailable as exc:
            answer, failure = {}, str(exc)
        if generation != page.generation or page.session is not session or session.thinking != "hint":
            return
        session.thinking = None
        if failure:
            self.problem = failure
        else:
            try:
                session.take_hint(request, answer)
            except StaleAnswerError:
                pass
            except StonesError as exc:
                page.refuse(exc)
        if page.screen == "play":
            page.render_play()
