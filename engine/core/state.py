"""The state every game derives from: a board you `push` moves onto and `pop` off.

A game module supplies the rules through a few hooks (`_legal_moves`, `_check`,
`_apply`, `_revert`, `_game_outcome`, ...); this class keeps the undo stack, the
history, the chess clock and the chance sampling once for all games.

Chance (a pouch draw, a dice roll, a tile from the pool) is an explicit move made
by the `CHANCE` player. Its outcome is drawn from the game's seed and the ply, so
a saved game replays exactly, undoing and replaying gives the same draw, and an
AI can enumerate `chance_outcomes()` instead.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Hashable, Iterator, Protocol, Self, Sequence, TypeVar

from .errors import IllegalMoveError, PositionError, shown
from .options import RuleOptions

if TYPE_CHECKING:
    from .game import Game

CHANCE = "chance"
"""The pseudo-player who moves at a chance node (a draw or a roll)."""

FLAG_FALLEN = "flag fallen"
"""The `rule` of a move refused because its player's time ran out (the next move is `time`)."""

M = TypeVar("M", bound=Hashable)
Opts = TypeVar("Opts", bound=RuleOptions)


class Termination(enum.Enum):
    """Why a game ended, for programs (as python-chess's `Termination`): the page and other
    callers decide by this, never by the words of `Outcome.reason`, which are for people."""

    TIME_FORFEIT = "time-forfeit"  # a flag fell: the player to move ran out of time (any game with a clock)
    BOARD_FILLED = "board-filled"  # three-stones: the last stone is played (pouch empty or every pocket full)
    DOWN_TO_TWO = "down-to-two"  # morris: a player is left with two pieces
    BLOCKED = "blocked"  # morris: the player to move cannot move
    THREEFOLD_REPETITION = "threefold-repetition"  # morris: the same position for the third time
    NO_REMOVAL_LIMIT = "no-removal-limit"  # morris: the set number of moves each without a removal
    ALL_PASSED = "all-passed"  # rings: every player passed in turn
    LAST_STONE_PLACED = "last-stone-placed"  # sage-stones: a player (or, playing for places, all) placed out
    TARGET_SCORE = "target-score"  # triple-domino: a round ended with a player at the target score
    SOLITAIRE_OVER = "solitaire-over"  # triple-domino alone: no tile can be laid or drawn


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who won (several on a tie), the scores, and why.

    `places` ranks every player, first to last, when the game plays on for places
    (sage-stones' family variant); it is empty when only the winners count.
    """

    winners: tuple[str, ...]
    scores: dict[str, int]
    reason: str
    places: tuple[str, ...] = ()
    termination: Termination = dataclasses.field(kw_only=True)

    @property
    def winner(self) -> str | None:
        """The single winner, or None when the game is drawn or shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    def to_dict(self) -> dict[str, Any]:
        out = {
            "winners": list(self.winners),
            "winner": self.winner,
            "draw": self.is_draw,
            "scores": dict(self.scores),
            "reason": self.reason,
            "termination": self.termination.value,
        }
        if self.places:
            out["places"] = list(self.places)
        return out

    def describe(self) -> str:
        scores = ", ".join(f"{p} {s}" for p, s in self.scores.items())
        if self.winner is not None:
            head = f"{self.winner} wins"
        elif self.winners:
            head = "draw between " + " and ".join(self.winners)
        else:
            head = "draw"
        places = f"; places: {', '.join(self.places)}" if self.places else ""
        return f"{head} ({self.reason}){places}; scores: {scores}"


def outcome_by_score(scores: dict[str, int], reason: str, termination: Termination) -> Outcome:
    """The usual end: the highest score wins; leaders who tie share the win, and when
    every player ties it is a draw (no winners), the convention of every game."""
    best = max(scores.values())
    winners = tuple(p for p, s in scores.items() if s == best)
    everyone_tied = len(scores) > 1 and len(winners) == len(scores)
    return Outcome(() if everyone_tied else winners, dict(scores), reason, termination=termination)


class TimeForfeit:
    """The move that records a fallen flag: the player to move ran out of time."""

    def __str__(self) -> str:
        return "time"

    def __repr__(self) -> str:
        return "TimeForfeit()"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TimeForfeit)

    def __hash__(self) -> int:
        return hash("time-forfeit")


TIME_FORFEIT = TimeForfeit()


class PlayerView(Protocol):
    """What one player may see of a state: the state itself when nothing is hidden, else the game's own
    view object (triple-domino's hands); the players and the terminal take either."""

    @property
    def current_player(self) -> str: ...

    @property
    def history(self) -> Sequence[object]: ...

    def is_over(self) -> bool: ...

    def render(self) -> str: ...


class State(ABC, Generic[M, Opts]):
    """One position of one game, with the history that led to it."""

    move_types: ClassVar[tuple[type, ...]]
    """The classes of this game's move objects: `push` takes one of these or notation text."""

    def __init__(self, game: "Game", options: Opts, seed: int | None) -> None:
        self.game = game
        self.options = options
        self.seed = seed
        # (move, undo token, seconds spent) for every move pushed since the start.
        self._stack: list[tuple[Any, Any, float | None]] = []
        self._clock: dict[str, float] | None = None
        self._flagged: str | None = None
        self.start_position: dict[str, Any] | None = None
        self.assumed: list[str] = []

    # ----- what a game module provides -------------------------------------------
    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """The players in turn order (for most games: colour names)."""

    @property
    @abstractmethod
    def current_player(self) -> str:
        """Who decides now: a player, or CHANCE at a draw or roll."""

    @abstractmethod
    def _legal_moves(self) -> Iterator[M]:
        """Every legal move here (the chance outcomes at a chance node)."""

    @abstractmethod
    def _apply(self, move: M) -> Any:
        """Play a legal move; return whatever `_revert` needs to undo it exactly."""

    @abstractmethod
    def _revert(self, move: M, token: Any) -> None:
        """Undo `move` given the token its `_apply` returned."""

    @abstractmethod
    def _game_outcome(self) -> Outcome | None:
        """The outcome by the game's own rules, or None while it goes on."""

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """The current scores per player."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move written in the game's notation; raise IllegalMoveError if malformed."""

    @abstractmethod
    def to_position(self) -> dict[str, Any]:
        """This position as the interchange JSON of SPEC section 2."""

    @abstractmethod
    def render(self) -> str:
        """The board drawn as text, for the terminal."""

    def copy(self) -> Self:
        """An independent state with the same position and history.

        A shallow clone is cheap (search copies states often); each game gives the
        clone its own copies of its mutable containers in `_copy_containers`.
        """
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._stack = list(self._stack)
        clone._clock = None if self._clock is None else dict(self._clock)
        clone.assumed = list(self.assumed)
        self._copy_containers(clone)
        return clone

    @abstractmethod
    def _copy_containers(self, clone: Self) -> None:
        """Give `clone` its own copies of this game's mutable containers (board, hands, ...)."""

    def _check(self, move: M) -> None:
        """Raise IllegalMoveError naming the rule `move` breaks; the default compares with the legal list."""
        if move not in set(self._legal_moves()):
            raise IllegalMoveError(f"{move} is not a legal move here", rule="legal move")

    def chance_outcomes(self) -> list[tuple[M, float]] | None:
        """The possible chance moves with their probabilities (only at a chance node).

        None means too many to list (a shuffled deal): then only `sample_chance` draws one.
        """
        raise IllegalMoveError("this game has no chance", rule="chance")

    def recount_scores(self) -> dict[str, int]:
        """The scores computed from scratch from the position (tests compare it with `scores`)."""
        return self.scores()

    def snapshot(self) -> Any:
        """Everything that makes this state what it is, comparable with ==; undo must restore it."""
        return (json.dumps(self.to_position(), sort_keys=True), self.moves_text(), self.clock, self._flagged)

    def view(self, player: str) -> PlayerView:
        """What `player` may see: the default is everything (games of perfect information)."""
        return self.copy()

    # ----- the shared machinery --------------------------------------------------------
    def legal_moves(self) -> Iterator[M]:
        """The legal moves, lazily; none once the game is over."""
        if self.is_over():
            return iter(())
        return self._legal_moves()

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE and not self.is_over()

    def outcome(self) -> Outcome | None:
        if self._flagged is not None:
            others = tuple(p for p in self.players if p != self._flagged)
            return Outcome(
                others, self.scores(), f"{self._flagged} ran out of time", termination=Termination.TIME_FORFEIT
            )
        return self._game_outcome()

    def is_over(self) -> bool:
        return self.outcome() is not None

    def coerce(self, move: M | str) -> M | TimeForfeit:
        """A move object from notation (the clock's `time` is read here, for every game)."""
        if not isinstance(move, str):
            if move is TIME_FORFEIT or isinstance(move, self.move_types):
                return move
            raise IllegalMoveError(
                f"{shown(move)} is not a {self.game.id} move: give one of its moves or the move's notation",
                rule="notation",
            )
        if move.strip().lower() == str(TIME_FORFEIT):
            return TIME_FORFEIT
        return self.parse_move(move)

    def is_legal(self, move: M | str) -> bool:
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        return True

    def check(self, move: M | str) -> M | TimeForfeit:
        """Return the move if it is legal here, else raise IllegalMoveError naming the rule."""
        coerced = self.coerce(move)
        if self.is_over():
            raise IllegalMoveError(f"{coerced}: the game is over", rule="game over")
        if isinstance(coerced, TimeForfeit):
            if self._clock is None:
                raise IllegalMoveError("time: this game is played without a clock", rule="clock")
            return coerced
        self._check(coerced)
        return coerced

    def push(self, move: M | str, seconds: float | None = None) -> M | TimeForfeit:
        """Play a move (object or notation) after checking it; `seconds` runs the clock."""
        checked = self.check(move)
        check_seconds(seconds)
        if isinstance(checked, TimeForfeit):
            self._stack.append((checked, self._flagged, seconds))
            self._flagged = self.clock_player
            return checked
        self._spend(seconds)
        self._stack.append((checked, self._apply(checked), seconds))
        return checked

    def push_unchecked(self, move: M) -> None:
        """Play a move known to be legal (from `legal_moves`): the fast path for search."""
        self._stack.append((move, self._apply(move), None))

    def pop(self) -> M:
        """Undo the last move and return it."""
        if not self._stack:
            raise IllegalMoveError("there is no move to undo", rule="undo")
        move, token, seconds = self._stack.pop()
        if move is TIME_FORFEIT:
            self._flagged = token
        else:
            self._revert(move, token)
            self._refund(seconds)
        return move

    @property
    def history(self) -> list[M]:
        """The moves played since the start (or since the loaded position)."""
        return [m for m, _, _ in self._stack]

    @property
    def elapsed(self) -> list[float | None]:
        return [s for _, _, s in self._stack]

    @property
    def ply(self) -> int:
        return len(self._stack)

    def peek(self) -> M | None:
        return self._stack[-1][0] if self._stack else None

    # ----- chance ------------------------------------------------------------------
    def chance_rng(self) -> random.Random:
        """The generator for the chance move at this ply: a function of seed and ply only."""
        if self.seed is None:
            return random.Random()
        return random.Random(f"stones/{self.seed}/{self.ply}")

    def sample_chance(self, rng: random.Random | None = None) -> M:
        """Draw the chance move here: from the seed unless an explicit generator is given."""
        outcomes = self.chance_outcomes()
        if outcomes is None:
            raise NotImplementedError(f"{type(self).__name__} must override sample_chance for unlisted chance")
        moves = [m for m, _ in outcomes]
        weights = [p for _, p in outcomes]
        return (rng or self.chance_rng()).choices(moves, weights)[0]

    def advance_chance(self) -> list[M]:
        """Play seeded chance moves until a player has to decide (or the game ends)."""
        played = []
        while self.is_chance_node():
            move = self.sample_chance()
            self.push_unchecked(move)
            played.append(move)
        return played

    # ----- chess clock -------------------------------------------------------------
    def start_clock(self, seconds_per_player: dict[str, float]) -> None:
        """Give each player a time budget; a player who exceeds it may be flagged."""
        self._clock = dict(seconds_per_player)

    @property
    def clock(self) -> dict[str, float] | None:
        return None if self._clock is None else dict(self._clock)

    @property
    def clock_player(self) -> str:
        """Whose clock runs now, and who is out of time on `time`: the player to move.

        A game where a player's turn opens with a chance move they make themselves
        (three-stones: draw from the pouch, play, then stop the clock) names that
        player here, so the draw's time is theirs and the flag theirs to fall.
        """
        return self.current_player

    def _spend(self, seconds: float | None) -> None:
        if self._clock is None or seconds is None:
            return
        player = self.clock_player
        if player in self._clock:
            if seconds > self._clock[player]:
                raise IllegalMoveError(
                    f"{player} has only {self._clock[player]:.1f} s left, the move took {seconds:.1f} s:"
                    " the flag has fallen (play 'time')",
                    rule=FLAG_FALLEN,
                )
            self._clock[player] -= seconds

    def _refund(self, seconds: float | None) -> None:
        if self._clock is None or seconds is None:
            return
        player = self.clock_player
        if player in self._clock:
            self._clock[player] += seconds

    # ----- conveniences ------------------------------------------------------------
    def moves_text(self) -> list[str]:
        return [str(m) for m in self.history]

    def score_report(self) -> dict[str, Any]:
        """The score JSON of SPEC section 2 for this position."""
        return self.game.score_position(self.to_position())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} ply={self.ply} to_move={self.current_player}>"


def check_seconds(seconds: Any) -> None:
    """The time a move took: None (no clock) or a finite number of seconds ≥ 0; IllegalMoveError otherwise."""
    if seconds is None:
        return
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool):
        try:
            if math.isfinite(seconds) and seconds >= 0:
                return
        except OverflowError:  # an integer too large for a float: no clock holds that
            pass
    raise IllegalMoveError(f"a move's time is a number of seconds ≥ 0, not {shown(seconds)}", rule="clock")


def perft(state: State, depth: int) -> int:
    """Count the move sequences of `depth` player moves; chance outcomes branch freely.

    A finished game has no moves, so a line that ends early contributes nothing.
    """
    if depth == 0:
        return 1
    if state.is_over():
        return 0
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        if outcomes is None:  # too many to list: follow the seeded draw
            return _perft_after(state, state.sample_chance(), depth)
        return sum(_perft_after(state, move, depth) for move, _ in outcomes)
    moves = list(state._legal_moves())
    if depth == 1:  # the last ply: count the moves instead of playing them
        return len(moves)
    return sum(_perft_after(state, move, depth - 1) for move in moves)


def _perft_after(state: State, move: Any, depth: int) -> int:
    state.push_unchecked(move)
    try:
        return perft(state, depth)
    finally:
        state.pop()


def require_cells(position: dict[str, Any], locations: Sequence[str], palette: Sequence[str]) -> dict[str, str | None]:
    """Validate the `cells` of a position: every location present, only palette colours."""
    cells = position.get("cells")
    if not isinstance(cells, dict):
        raise PositionError("position has no 'cells' object")
    known = set(locations)
    unknown = [k for k in cells if k not in known]
    if unknown:
        raise PositionError(f"position names locations this board does not have: {', '.join(map(shown, unknown[:5]))}")
    missing = [loc for loc in locations if loc not in cells]
    if missing:
        raise PositionError(f"position lacks {len(missing)} locations, e.g. {', '.join(missing[:5])}")
    for loc, colour in cells.items():
        if colour is not None and colour not in palette:
            raise PositionError(
                f"cell {loc} holds {shown(colour)}; this game's colours are {', '.join(palette)} (or null)"
            )
    return dict(cells)
