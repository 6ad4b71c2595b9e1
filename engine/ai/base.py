"""The player interface every computer opponent shares: budgets, analyses, the clock.

A player sees only a view (`state.view(player)`) and returns one move. Its effort
is bounded by a `Budget`: seconds (of wall-clock time, what people feel, unless the
budget names another timer) and/or a node count (what tests use: a node budget with a
fixed seed gives the same move on every machine, in CPython and in the browser).
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from abc import ABC, abstractmethod
from typing import Any, Callable

from ..core import CHANCE


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much a player may think about one move: seconds, nodes, or both (whichever ends first).

    A search stops a little before `seconds` (it checks the clock every few nodes)
    so the whole move, bookkeeping included, stays within the budget plus 10%.
    `timer` is what the seconds are counted on: wall time by default;
    `time.thread_time` counts the searching thread's CPU, so a loaded machine
    does not starve one player more than another (bench/arena.py --clock cpu).
    """

    seconds: float | None = 1.0
    nodes: int | None = None
    timer: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        if self.seconds is None and self.nodes is None:
            raise ValueError("a budget needs seconds, nodes or both")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("budget seconds must be positive")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError("budget nodes must be at least 1")

    @classmethod
    def of_nodes(cls, nodes: int) -> "Budget":
        """A time-free budget: reproducible on any machine."""
        return cls(seconds=None, nodes=nodes)


DEFAULT_BUDGET = Budget()


@dataclasses.dataclass
class Analysis:
    """What a player thinks of a position: its move and an evaluation a person can read.

    `win_chance` is the estimated chance (0-1) that the player to move wins;
    `margin` the expected final score margin in points over the best opponent
    (games scored by points). Either may be None when it does not apply.
    """

    move: Any
    player: str
    win_chance: float | None = None
    margin: float | None = None
    text: str = ""
    nodes: int = 0
    seconds: float = 0.0
    depth: int | None = None
    line: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "player": self.player,
            "win_chance": self.win_chance,
            "margin": self.margin,
            "text": self.text,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "depth": self.depth,
            "line": [str(m) for m in self.line],
        }


class OutOfBudget(Exception):
    """Raised inside a search when the budget is spent; the search returns its best so far."""


class Clock:
    """Counts the nodes a search visits and watches the deadline.

    `tick()` is cheap: it compares a counter and looks at the time only every
    `every` nodes. `spent()` answers without raising, for loops like MCTS.
    """

    __slots__ = ("timer", "started", "deadline", "limit", "nodes", "every", "_next")

    SAFETY = 0.9  # stop searching at 90% of the seconds: returning the move takes the rest

    def __init__(self, budget: Budget, every: int = 8) -> None:
        self.timer = budget.timer
        self.started = self.timer()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds * self.SAFETY
        self.limit = budget.nodes
        self.nodes = 0
        self.every = every
        self._next = every if self.limit is None else min(every, self.limit)

    def tick(self, count: int = 1) -> None:
        """Count a node; raise OutOfBudget when the nodes or the time are spent."""
        self.nodes += count
        if self.nodes >= self._next:
            if self.spent():
                raise OutOfBudget
            self._next = self.nodes + self.every
            if self.limit is not None and self._next > self.limit:
                self._next = self.limit

    def spent(self) -> bool:
        if self.limit is not None and self.nodes >= self.limit:
            return True
        return self.deadline is not None and self.timer() >= self.deadline

    def fraction_left(self) -> float:
        """Share of the budget still unspent (the smaller of time and nodes)."""
        left = 1.0
        if self.limit is not None:
            left = min(left, 1 - self.nodes / self.limit)
        if self.deadline is not None:
            total = self.deadline - self.started
            left = min(left, (self.deadline - self.timer()) / total if total > 0 else 0.0)
        return max(0.0, left)

    @property
    def elapsed(self) -> float:
        return self.timer() - self.started


class Player(ABC):
    """A computer opponent for one game at one level.

    `choose(view, budget)` returns a legal move for the player to move in `view`;
    `analyse` also says how good the position looks. Given the same seed, view and
    a node budget, the answer is always the same.
    """

    level: str = "?"

    def __init__(self, game_id: str, seed: int = 0) -> None:
        self.game_id = game_id
        self.seed = seed

    def choose(self, view: Any, budget: Budget | None = None) -> Any:
        return self.analyse(view, budget).move

    def analyse(self, view: Any, budget: Budget | None = None) -> Analysis:
        player = to_move(view)
        if player == CHANCE:
            raise ValueError("it is a chance move (a draw or a roll), not a player's decision")
        if view.is_over():
            raise ValueError("the game is over: there is no move to choose")
        clock = Clock(budget or DEFAULT_BUDGET)
        analysis = self._analyse(view, player, clock, self.rng_for(view))
        analysis.nodes = max(analysis.nodes, clock.nodes)
        analysis.seconds = clock.elapsed
        if not analysis.text:
            analysis.text = describe(analysis)
        return analysis

    @abstractmethod
    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        """The work: find a move for `player` within the clock."""

    def rng_for(self, view: Any) -> random.Random:
        """A generator fixed by the seed and the position's move number: same view, same move."""
        return random.Random(f"{self.game_id}/{self.level}/{self.seed}/{move_number(view)}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game_id} {self.level} seed={self.seed}>"


class RandomPlayer(Player):
    """A uniformly random legal move: the yardstick every level must beat."""

    level = "random"

    def _analyse(self, view: Any, player: str, clock: Clock, rng: random.Random) -> Analysis:
        moves = legal_moves(view)
        clock.tick()
        return Analysis(rng.choice(moves), player, text=f"{player}: a random move")


# ----- small helpers shared by the players ------------------------------------------------
def to_move(view: Any) -> str:
    return view.current_player


def legal_moves(view: Any) -> list[Any]:
    moves = list(view.legal_moves())
    if not moves:
        raise ValueError("no legal move in this position")
    return moves


def move_number(view: Any) -> int:
    """How many moves led here (works for states and for views that only keep a public history)."""
    ply = getattr(view, "ply", None)
    if isinstance(ply, int):
        return ply
    history = getattr(view, "history", ())
    return len(history)


def logistic(x: float) -> float:
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def describe(analysis: Analysis) -> str:
    """One sentence a player can read: the move and how the position looks for them."""
    parts = [f"{analysis.player}: best move {analysis.move}"]
    if analysis.win_chance is not None:
        parts.append(f"about {round(100 * analysis.win_chance)}% to win")
    if analysis.margin is not None:
        sign = "+" if analysis.margin >= 0 else "−"
        parts.append(f"expected margin {sign}{abs(analysis.margin):.1f} points")
    return ", ".join(parts)
