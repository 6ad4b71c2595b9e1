"""The chess clock on the page: the engine counts only the seconds passed with each move; this
times the player to move between moves and says when their flag falls."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ui.session import Session


class TurnClock:
    """Times the turn of the player to move; `now` is a monotonic clock in seconds (tests pass their own)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now

    def start_turn(self, session: Session) -> None:
        """Start timing the player to move, once per turn; no timing without a clock, at the end or looking back."""
        state = session.state
        if state.clock is None or state.is_over() or session.viewing is not None:
            session.turn_started = None
        elif session.turn_started is None or session.ui.get("clock_ply") != state.ply:
            session.turn_started = self.now()
            session.ui["clock_ply"] = state.ply

    def spent(self, session: Session | None) -> float | None:
        """The seconds the player to move has used this turn (None when the clock is not running)."""
        if session is None or session.turn_started is None:
            return None
        return round(self.now() - session.turn_started, 1)

    def remaining(self, session: Session) -> dict[str, float] | None:
        """Every player's time left as it stands now (the mover's running down), or None without a clock."""
        clock = session.state.clock
        if clock is None:
            return None
        spent = self.spent(session)
        if spent is not None and session.state.current_player in clock:
            clock[session.state.current_player] -= spent
        return clock

    def flag_fell(self, session: Session) -> bool:
        """The player to move has no time left in a game still going (the page then plays `time` for them)."""
        clock = self.remaining(session) if session.turn_started is not None else None
        player = session.state.current_player
        return clock is not None and player in clock and clock[player] <= 0 and not session.state.is_over()
