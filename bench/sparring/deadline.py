"""The sparring players' own reading of a `Budget`: a node count and a deadline on the budget's timer."""

from __future__ import annotations

from engine.ai import Budget

DEFAULT_SECONDS = 1.0
SAFETY = 0.85  # stop searching at 85% of the seconds: choosing and returning the move take the rest


class Deadline:
    """Counts nodes and watches the clock; `expired()` says when the budget is spent."""

    __slots__ = ("timer", "stop_at", "limit", "nodes")

    def __init__(self, budget: Budget | None) -> None:
        budget = budget or Budget(seconds=DEFAULT_SECONDS)
        self.timer = budget.timer
        self.stop_at = None if budget.seconds is None else self.timer() + budget.seconds * SAFETY
        self.limit = budget.nodes
        self.nodes = 0

    def expired(self) -> bool:
        if self.limit is not None and self.nodes >= self.limit:
            return True
        return self.stop_at is not None and self.timer() >= self.stop_at
