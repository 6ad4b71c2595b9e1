"""Hidden information: what one player sees, and full states dealt from it for search."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, cast

from ...core import Outcome
from .moves import Deal, Drawn, Move
from .tiles import ALL_TILES, TILE_NAMES

if TYPE_CHECKING:
    from .state import LogEntry, TripleDominoState


class TripleDominoView:
    """What one player sees: own hand, the sizes of the others, the layout, scores, public history.

    Holds copies of public data only (never the state), so nothing hidden can be read from it.
    `determinize(rng)` returns a full state consistent with what was seen, for search.
    """

    seed = None

    def __init__(self, state: TripleDominoState, player: str) -> None:
        seat = state.seat_of(player)
        self.game = state.game
        self.options = state.options
        self.player = player
        self.seat = seat
        self.players = state.players
        self.to_move_seat = state.seat
        self.current_player = state.current_player
        self.phase = state.phase
        self.round_number = state.round_number
        self.hand: tuple[int, ...] = tuple(state.hands[seat])
        self.hand_sizes: dict[str, int] = {p: len(h) for p, h in zip(state.players, state.hands)}
        self.pool_size = len(state.pool)
        self.layout: dict[int, tuple[int, int]] = dict(state.layout)
        self.points: tuple[int, ...] = tuple(state.points)
        self.score_log: tuple[LogEntry, ...] = tuple(state.score_log)
        self.draws = state.draws
        self.drawn_count = len(state.drawn)
        self.drawn: tuple[int, ...] = state.drawn if state.seat == seat else ()
        self.start_tile = state.start_tile  # announced: the opener shows it
        self.solitaire_draws = state.solitaire_draws
        self.result = state.result
        self.history: tuple[str, ...] = tuple(_public_text(m, token, seat) for m, token, _ in state._stack)
        self._outcome = state.outcome()

    @property
    def ply(self) -> int:
        return len(self.history)

    def scores(self) -> dict[str, int]:
        return dict(zip(self.players, self.points))

    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_over(self) -> bool:
        return self._outcome is not None

    def determinize(self, rng: random.Random | None = None) -> TripleDominoState:
        """A full state with the unseen tiles dealt at random into the other hands and the pool."""
        rng = rng or random.Random()
        laid = {tile for tile, _ in self.layout.values()}
        unseen = sorted(ALL_TILES - laid - set(self.hand))
        start_tile = self.start_tile
        opener_seat = self.to_move_seat if start_tile is not None else None
        if start_tile is not None and opener_seat != self.seat:
            unseen.remove(start_tile)
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for s, p in enumerate(self.players):
            if s == self.seat:
                hands.append(sorted(self.hand))
                continue
            size = self.hand_sizes[p]
            hand: list[int] = []
            if s == opener_seat and start_tile is not None:  # the opener's tile is known to all
                hand.append(start_tile)
                size -= 1
            hand += unseen[:size]
            del unseen[:size]
            hands.append(sorted(hand))
        drawn = self.drawn
        if self.to_move_seat != self.seat and self.drawn_count:
            drawn = tuple(rng.sample(hands[self.to_move_seat], self.drawn_count))
        state = cast("TripleDominoState", self.game.new_state(self.options, None))
        state.assemble(
            layout=self.layout,
            hands=hands,
            pool=set(unseen),
            points=list(self.points),
            log=list(self.score_log),
            scalars=(
                self.to_move_seat,
                self.phase,
                self.draws,
                drawn,
                self.start_tile,
                self.round_number,
                self.solitaire_draws,
                self.result,
            ),
        )
        state.start_position = state.to_position()
        return state

    def legal_moves(self) -> list[Move]:
        """The viewing player's legal moves when it is their turn (they depend on nothing hidden)."""
        if self.current_player != self.player:
            return []
        return list(self.determinize(random.Random(0)).legal_moves())

    def render(self) -> str:
        text = self.determinize(random.Random(0)).render(self.player)
        return text  # the stand-in hands are never shown: render shows only this player's hand

    def snapshot(self) -> tuple:
        return (
            self.player,
            self.options,
            self.phase,
            self.to_move_seat,
            self.round_number,
            self.hand,
            tuple(self.hand_sizes.items()),
            self.pool_size,
            tuple(sorted(self.layout.items())),
            self.points,
            self.score_log,
            self.draws,
            self.drawn_count,
            self.drawn,
            self.start_tile,
            self.solitaire_draws,
            self.result,
            self.history,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TripleDominoView) and self.snapshot() == other.snapshot()

    def __hash__(self) -> int:
        return hash(self.snapshot())

    def __repr__(self) -> str:
        return f"<TripleDominoView {self.player} round={self.round_number} to_move={self.current_player}>"


def _public_text(move: Any, token: Any, seat: int) -> str:
    """A move as `seat` saw it: other hands in a deal and others' draws are hidden."""
    if isinstance(move, Deal):
        hands = "|".join(
            ",".join(TILE_NAMES[t] for t in hand) if s == seat else "?" for s, hand in enumerate(move.hands)
        )
        return f"deal {hands}" + ("" if move.start is None else f" start {TILE_NAMES[move.start]}")
    if isinstance(move, Drawn) and token[0] != seat:
        return "draw ?"
    return str(move)
