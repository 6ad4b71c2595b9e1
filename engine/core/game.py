"""A game as a whole: its id, its options, its board, and the states it starts.

One `Game` object per game module (OpenSpiel's game/state split): the game knows
the rules that never change during play, a `State` holds one position.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Mapping

from .errors import OptionError, PositionError, shown
from .geometry import Geometry
from .options import RuleOptions
from .state import Opts, State


class Game(ABC, Generic[Opts]):
    """Generic in its options class, so `options()` hands each game's state its own options type."""

    id: ClassVar[str]
    title: ClassVar[str]
    Options: type[Opts]  # set once per game class (a ClassVar cannot hold a type variable)
    palette: ClassVar[tuple[str, ...]] = ()
    rules_summary: ClassVar[str] = ""

    def options(self, data: Mapping[str, Any] | RuleOptions | None = None) -> Opts:
        """Validated options from a mapping (or passed through if already this game's options)."""
        if isinstance(data, self.Options):
            return data
        if isinstance(data, RuleOptions):
            raise OptionError(f"these are options of {data.game_id}, not of {self.id}")
        return self.Options.from_dict(data)

    @abstractmethod
    def new_state(self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0) -> State:
        """The starting position under these options; `seed` drives every chance move."""

    @abstractmethod
    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> State:
        """A live state from a position JSON (SPEC section 2); `state.assumed` says what was guessed."""

    @abstractmethod
    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """The score JSON of SPEC section 2 for any position of this game."""

    def locations(self) -> tuple[str, ...]:
        """Every location id of the board, in a stable order (empty for tile games)."""
        return ()

    @abstractmethod
    def geometry(self) -> Geometry:
        """The board as data (locations, lines, circles, outline): what web/ draws and vision/ reads."""

    def stone_set(self) -> Mapping[str, int]:
        """The most stones of each colour any position shows, under any options: what the box holds.
        A colour not named has no fixed number (an option sets it, or the set is open-ended)."""
        return {}

    def check_game_id(self, position: Mapping[str, Any]) -> None:
        if not isinstance(position, Mapping):
            raise PositionError("a position must be a JSON object")
        if position.get("game") != self.id:
            raise PositionError(f"position is for game {shown(position.get('game'))}, not {self.id!r}")

    def position_options(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """A position's raw `options` object as a dict ({} when absent), for the game to validate."""
        raw = position.get("options")
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise PositionError(f"position options must be an object of name: value, not {shown(raw)}")
        return dict(raw)

    def describe(self) -> dict[str, Any]:
        """What a set-up screen needs to know about this game."""
        return {
            "id": self.id,
            "title": self.title,
            "options": self.Options.schema(),
            "palette": list(self.palette),
            "rules": self.rules_summary,
        }
