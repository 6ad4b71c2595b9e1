"""The game object: options, a new state, reading and scoring positions."""

from __future__ import annotations

from typing import Any, Mapping

from ...core import Game, Geometry, OptionError, PositionError, RuleOptions
from .grid import GEOMETRY
from .options import TripleDominoOptions
from .position import read_layout, read_position, read_scores
from .state import TripleDominoState


class TripleDomino(Game[TripleDominoOptions]):
    id = "triple-domino"
    title = "Triple Domino"
    Options = TripleDominoOptions
    palette = ()
    rules_summary = (
        "Lay triangular tiles so that both numbers of every shared edge and every touching corner match. "
        "A tile scores its value; bridge +30, double connection +25, closing a hexagon +40. "
        "The highest triple opens (+5). Cannot or will not lay: draw up to three tiles at -5 each and lay the "
        "one just drawn if it fits. Laying your last tile ends the round: +20 and the other hands' values. "
        "Rounds go on until someone has 300 points; the most points wins."
    )

    def geometry(self) -> Geometry:
        """Unit triangles `U{q},{r}` / `D{q},{r}` of an unbounded lattice (`cell_corners` gives their corners)."""
        return GEOMETRY

    def new_state(
        self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0
    ) -> TripleDominoState:
        return TripleDominoState(self, self.options(options), seed)

    def _read_options(self, position: Mapping[str, Any]) -> TripleDominoOptions:
        self.check_game_id(position)
        try:
            return self.options(position.get("options"))
        except OptionError as exc:
            raise PositionError(f"position options: {exc}") from None

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> TripleDominoState:
        options = self._read_options(position)
        state = self.new_state(options, seed)
        read_position(state, position)
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        options = self._read_options(position)
        players = tuple(f"p{i + 1}" for i in range(options.players))
        read_layout(position.get("layout", {}))
        points, log = read_scores(position, players)
        items = [
            {"round": rnd, "player": players[seat], "points": pts, "reason": reason} for rnd, seat, pts, reason in log
        ]
        return {"game": self.id, "scores": dict(zip(players, points)), "items": items}


GAME = TripleDomino()
