"""What the three-stones players know: the value of open triples, and the margin.

A triple (three pockets in a line) that holds stones of one side only (clear
counts for both) is still open for that side: two of three is worth a good part
of a point, one of three a little. The evaluation is the score margin plus that
potential; a move's gain is the change over the triples through its pocket, so
ordering and the greedy players need no full evaluation. The ring rule makes
every stone decide where the opponent plays next: the search (expectimax over
the pouch draw, alpha-beta in pure skill) sees that.
"""

from __future__ import annotations

from typing import Any

from ...core import CHANCE, IllegalMoveError
from ...games.three_stones import BLACK, CLEAR, TRIPLES, TRIPLES_THROUGH, WHITE, Place, ThreeStonesState, open_side
from ..base import logistic

PLAYERS = (WHITE, BLACK)
CODE = {None: 0, WHITE: 1, BLACK: 2, CLEAR: 3}
COLOUR_OF_CODE = {code: colour for colour, code in CODE.items()}


def _triple_table(two: float, one: float, full: float) -> tuple[tuple[float, float], ...]:
    """(white value, black value) of a triple by the code a*16 + b*4 + c of its three pockets."""
    table = []
    for code in range(64):
        cells = tuple(COLOUR_OF_CODE[code >> shift & 3] for shift in (4, 2, 0))
        side = open_side(cells)
        if side is None:
            table.append((0.0, 0.0))
            continue
        filled = sum(1 for c in cells if c is not None)
        value = full if filled == 3 else two if filled == 2 else one
        table.append((value, 0.0) if side == WHITE else (0.0, value))
    return tuple(table)


# Weights tuned by greedy self-play (200 games a setting): nearly every pocket is filled by the
# end, so even one stone in an open triple is worth a good share of a point.
TWO, ONE = 0.5, 0.3
SIMPLE_TWO, SIMPLE_ONE = 0.3, 0.06
POTENTIAL = _triple_table(two=TWO, one=ONE, full=0.0)
"""Open triples only (a full one is already in the points)."""
GAIN = _triple_table(two=TWO, one=ONE, full=1.0)
"""Full triples count their point: the change of this over a pocket's triples is a move's gain."""
POINTS_ONLY = _triple_table(two=0.0, one=0.0, full=1.0)
SIMPLE_POTENTIAL = _triple_table(two=SIMPLE_TWO, one=SIMPLE_ONE, full=0.0)
SIMPLE_GAIN = _triple_table(two=SIMPLE_TWO, one=SIMPLE_ONE, full=1.0)
TABLES = {"full": (POTENTIAL, GAIN), "simple": (SIMPLE_POTENTIAL, SIMPLE_GAIN), "points": (POINTS_ONLY, POINTS_ONLY)}


def white_margin(state: ThreeStonesState, table: tuple[tuple[float, float], ...] = POTENTIAL) -> float:
    """White's points less black's, plus the open triples' potential."""
    board = state.board
    code = CODE
    w = b = 0.0
    for t0, t1, t2 in TRIPLES:
        x0, x1, x2 = board[t0], board[t1], board[t2]
        if x0 is not None and x1 is not None and x2 is not None:
            continue  # full: in the points already
        vw, vb = table[code[x0] << 4 | code[x1] << 2 | code[x2]]
        w += vw
        b += vb
    return state.points[WHITE] - state.points[BLACK] + w - b


def white_gain(
    state: ThreeStonesState, colour: str, pocket: int, table: tuple[tuple[float, float], ...] = GAIN
) -> float:
    """How much white's margin changes if `colour` is played into `pocket`."""
    board = state.board
    code = CODE
    before = after = 0.0
    new = CODE[colour]
    for triple in TRIPLES_THROUGH[pocket]:
        c = [code[board[i]] for i in triple]
        vw, vb = table[c[0] << 4 | c[1] << 2 | c[2]]
        before += vw - vb
        c = [new if i == pocket else code[board[i]] for i in triple]
        vw, vb = table[c[0] << 4 | c[1] << 2 | c[2]]
        after += vw - vb
    return after - before


def _placements(state: ThreeStonesState) -> list[Place]:
    """The legal placements of the player to move (none once the game is over); a draw is chance's, not a player's."""
    if state.current_player == CHANCE:
        raise IllegalMoveError("a stone is to be drawn from the pouch: there are no placements to value", rule="chance")
    return [m for m in state.legal_moves() if isinstance(m, Place)]


def stones_left(state: ThreeStonesState) -> int:
    return state.stones_left


class ThreeStonesKnowledge:
    """Vector knowledge (white, black) for greedy and expectimax players, and negamax for alpha-beta."""

    players = PLAYERS

    def __init__(self, tables: str = "full", win_bonus: float = 3.0) -> None:
        self.table, self.gain_table = TABLES[tables]
        self.win_bonus = win_bonus

    # ----- vectors (expectimax, greedy) -------------------------------------------------
    def terminal(self, state: ThreeStonesState) -> tuple[float, float] | None:
        if state.stones_left and any(True for _ in state.allowed_pockets()):
            return None
        outcome = state.outcome()
        if outcome is None:
            return None
        m = float(state.points[WHITE] - state.points[BLACK])
        m += self.win_bonus if m > 0 else -self.win_bonus if m < 0 else 0.0
        return (m, -m)

    def evaluate(self, state: ThreeStonesState) -> tuple[float, float]:
        m = white_margin(state, self.table)
        return (m, -m)

    def ordered_moves(self, state: ThreeStonesState) -> list[Any]:
        if state.current_player == CHANCE:
            return list(state.legal_moves())
        moves = _placements(state)
        if len(moves) < 2:
            return moves
        sign = 1.0 if state.current_player == WHITE else -1.0
        table = self.gain_table
        scored = [(sign * white_gain(state, m.colour, m.pocket, table), i, m) for i, m in enumerate(moves)]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [m for _, _, m in scored]

    def chance(self, state: ThreeStonesState) -> list[tuple[Any, float]]:
        return state.chance_outcomes()

    def leaf_values(self, state: ThreeStonesState) -> list[tuple[float, float]]:
        """The evaluation after each legal move: this one plus the move's gain (no move is played)."""
        base = white_margin(state, self.table)
        table = self.gain_table
        out = []
        for m in _placements(state):
            v = base + white_gain(state, m.colour, m.pocket, table)
            out.append((v, -v))
        return out

    def readable(self, value: float, state: ThreeStonesState) -> tuple[float, float]:
        """(win chance, margin) from a margin for the player to move."""
        spread = 0.6 + 0.35 * stones_left(state) ** 0.5
        return logistic(1.7 * value / spread), value


class ThreeStonesNegamax:
    """The same evaluation for alpha-beta (pure skill): hundredths of a point for the side to move."""

    def __init__(self, knowledge: ThreeStonesKnowledge | None = None) -> None:
        self.v = knowledge or ThreeStonesKnowledge()

    def _sign(self, state: ThreeStonesState) -> float:
        return 1.0 if state.side_to_move == WHITE else -1.0

    def terminal(self, state: ThreeStonesState, ply: int) -> float | None:
        vector = self.v.terminal(state)
        if vector is None:
            return None
        m = vector[0] * self._sign(state)
        return 100 * m + (100_000 if m > 0 else -100_000 if m < 0 else 0)

    def evaluate(self, state: ThreeStonesState) -> float:
        return 100 * self._sign(state) * white_margin(state, self.v.table)

    def ordered_moves(self, state: ThreeStonesState) -> list[Any]:
        return self.v.ordered_moves(state)

    def key(self, state: ThreeStonesState) -> None:
        return None

    def leaf_value(self, state: ThreeStonesState) -> tuple[float, int]:
        """The best evaluation one stone can reach, by the gains of the moves (none is played)."""
        values = self.v.leaf_values(state)
        if not values:
            return self.evaluate(state), 1
        sign = self._sign(state)
        return 100 * max(sign * v[0] for v in values), len(values)

    def readable(self, value: float, state: ThreeStonesState) -> tuple[float, float]:
        if abs(value) >= 50_000:
            margin = (abs(value) - 100_000) / 100 * (1 if value > 0 else -1)
            return (1.0 if value > 0 else 0.0), margin
        return self.v.readable(value / 100, state)
