"""Alpha-beta (negamax) for two-player games of perfect information without chance.

Iterative deepening, principal-variation search, a transposition table keyed by
the game's hash, move ordering (table move, killer moves, history counts, then
the game's own static order) and, where the game asks for it, late-move
reductions: quiet moves far down the order are searched a ply shallower first
and searched again at full depth only when they surprise. Optionally, a
quiescence step (the leaves play on through the game's noisy moves, captures,
until the position is quiet) and aspiration windows (each iteration first
searched in a window around the last one's value). The game supplies a
`NegamaxKnowledge`: terminal values, an evaluation, ordered moves and a position key.
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Protocol

from .base import Clock, OutOfBudget

WIN = 1_000_000.0
"""A won position is worth WIN minus the plies to the win: faster wins score higher."""
WON = WIN - 10_000  # anything above this is a proven win
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 400_000  # entries kept between moves by default (the table is cleared beyond this)
QUIESCENCE_PLIES = 6  # a quiescence line plays at most this many noisy moves: captures answered by captures


class NegamaxKnowledge(Protocol):
    def terminal(self, state: Any, ply: int) -> float | None:
        """The value for the side to move if the game is over here (±(WIN - ply), 0 for a draw), else None."""

    def evaluate(self, state: Any) -> float:
        """A static value for the side to move (positive: good for it)."""

    def ordered_moves(self, state: Any) -> list[Any]:
        """The legal moves, most promising first (cheap: captures, mills, threats)."""

    def key(self, state: Any) -> Hashable:
        """A hash of the position (board, side to move, everything the value depends on)."""

    # Optional: `path_dependent(state) -> bool` (see AlphaBeta.path_dependent),
    # `leaf_value(state) -> (value, count)` (see AlphaBeta.leaf_value),
    # `reducible(state, move) -> bool` (see AlphaBeta.reduce_after) and
    # `noisy_moves(state) -> list` (see AlphaBeta.noisy_moves).


class SearchResult:
    __slots__ = ("move", "value", "depth", "line", "complete")

    def __init__(self, move: Any, value: float, depth: int, line: tuple, complete: bool) -> None:
        self.move, self.value, self.depth, self.line, self.complete = move, value, depth, line, complete


class AlphaBeta:
    """Negamax with iterative deepening; reuse one instance per player to keep its table warm."""

    def __init__(
        self,
        knowledge: NegamaxKnowledge,
        max_depth: int = 64,
        use_table: bool = True,
        reduce_after: int | None = None,
        aspiration: float | None = None,
        table_limit: int = TABLE_LIMIT,
    ) -> None:
        self.k = knowledge
        self.max_depth = max_depth
        self.use_table = use_table
        self.table_limit = table_limit
        # Aspiration windows: from depth 3 on, an iteration is first searched between the last
        # iteration's value ± `aspiration`; a value outside that window is searched again in full.
        # None: every iteration searches the full window.
        self.aspiration = aspiration
        # Optional knowledge hook: noisy_moves(state) -> the moves that change the material now
        # (captures). With it, a leaf is not judged while a capture is pending: the side to move may
        # stand on the evaluation or play a noisy move, to QUIESCENCE_PLIES deep.
        self.noisy_moves = getattr(knowledge, "noisy_moves", None)
        # Late-move reductions: at depth 3 or more, the moves after the first `reduce_after` that the
        # knowledge calls reducible (quiet: no capture, no block) get a null-window search one ply
        # shallower; only a move that beats alpha there is searched again at full depth. The plies
        # saved go where the order says the game is decided. None: every move searched full depth.
        self.reduce_after = reduce_after
        self.reducible = getattr(knowledge, "reducible", None)
        # Optional knowledge hook: leaf_value(state) -> (best value over the moves without playing
        # them, how many were valued): an incremental evaluation for the last ply.
        self.leaf_value = getattr(knowledge, "leaf_value", None)
        # Optional: path_dependent(state) -> whether the game ended here by a rule about the history (a
        # position repeated, too many moves without a capture) rather than by the position alone. Such an
        # end taints every node above it in the search: their values hold for this path only, so the
        # table keeps them to order moves and never lets them stand for the node elsewhere.
        self.path_dependent = getattr(knowledge, "path_dependent", None)
        self.tainted = False
        self.table: dict[Hashable, tuple[int, int, float, Any]] = {}
        self.history: dict[Any, int] = {}
        self.killers: list[list[Any]] = []

    def search(self, state: Any, clock: Clock, rng: random.Random) -> SearchResult:
        """The best move for the side to move in `state` (a private copy: the search pushes and pops it)."""
        if len(self.table) > self.table_limit:
            self.table.clear()
        self.history.clear()
        self.tainted = False
        self.killers = [[None, None] for _ in range(self.max_depth + 64)]
        moves = self.k.ordered_moves(state)
        if not moves:
            raise ValueError("no legal move")
        # Equal moves come out in a seeded random order, so games differ from seed to seed.
        shuffled = list(moves)
        rng.shuffle(shuffled)
        rank = {m: i for i, m in enumerate(moves)}
        shuffled.sort(key=lambda m: rank[m] // 4)  # keep the static order coarse, shuffle within it
        root = shuffled
        best = SearchResult(root[0], 0.0, 0, (root[0],), False)
        if len(root) == 1:
            try:
                value = -self._negamax(state, root[0], 0, -WIN - 1, WIN + 1, clock)
            except OutOfBudget:
                value = 0.0
            return SearchResult(root[0], value, 1, (root[0],), True)
        for depth in range(1, self.max_depth + 1):
            try:
                value, move = self._iteration(state, root, depth, clock, best.value)
            except _Partial as partial:
                if partial.move is not None:
                    best = SearchResult(partial.move, partial.value, depth, (partial.move,), False)
                break
            best = SearchResult(move, value, depth, self._principal_line(state, move, depth), True)
            root.remove(move)
            root.insert(0, move)
            if abs(value) >= WON:
                break  # a forced result is known: deeper search will not change it
        return best

    def _iteration(self, state: Any, moves: list[Any], depth: int, clock: Clock, last: float) -> tuple[float, Any]:
        """One iteration of the deepening: in the aspiration window around `last` first, if there is one."""
        window = self.aspiration
        if window is not None and depth >= 3 and abs(last) < WON:
            alpha, beta = last - window, last + window
            value, move = self._root(state, moves, depth, clock, alpha, beta)
            if alpha < value < beta:
                return value, move
        return self._root(state, moves, depth, clock)

    def _root(
        self, state: Any, moves: list[Any], depth: int, clock: Clock, alpha: float = -WIN - 1, beta: float = WIN + 1
    ) -> tuple[float, Any]:
        best_move = None
        for i, move in enumerate(moves):
            try:
                if i == 0:
                    value = -self._negamax(state, move, depth - 1, -beta, -alpha, clock)
                else:
                    value = -self._negamax(state, move, depth - 1, -alpha - 1, -alpha, clock)
                    if alpha < value < beta:
                        value = -self._negamax(state, move, depth - 1, -beta, -value, clock)
            except OutOfBudget:
                raise _Partial(best_move, alpha) from None
            if value > alpha or best_move is None:
                alpha, best_move = max(alpha, value), move
                if alpha >= beta:
                    break  # failed high in an aspiration window: the caller searches again in full
        return alpha, best_move

    def _negamax(
        self, state: Any, move: Any, depth: int, alpha: float, beta: float, clock: Clock, ply: int = 1
    ) -> float:
        """The value of `move` played in `state`, for the side that moves after it (pushes and pops it)."""
        state.push_unchecked(move)
        try:
            return self._node(state, depth, alpha, beta, clock, ply)
        finally:
            state.pop()

    def _node(self, state: Any, depth: int, alpha: float, beta: float, clock: Clock, ply: int) -> float:
        clock.tick()
        k = self.k
        terminal = k.terminal(state, ply)
        if terminal is not None:
            if self.path_dependent is not None and self.path_dependent(state):
                self.tainted = True
            return terminal
        if depth <= 0:
            if self.noisy_moves is not None:
                return self._quiesce(state, alpha, beta, clock, ply, QUIESCENCE_PLIES)
            return k.evaluate(state)
        if depth == 1 and self.leaf_value is not None:
            value, count = self.leaf_value(state)
            clock.tick(count)
            return value
        key = k.key(state) if self.use_table else None
        table_move = None
        if key is not None:
            entry = self.table.get(key)
            if entry is not None:
                edepth, flag, value, table_move = entry
                if edepth >= depth:
                    if value > WON:
                        value -= ply
                    elif value < -WON:
                        value += ply
                    if flag == EXACT:
                        return value
                    if flag == LOWER and value >= beta:
                        return value
                    if flag == UPPER and value <= alpha:
                        return value
        moves = self._ordered(state, table_move, ply)
        tainted_above, self.tainted = self.tainted, False
        original_alpha = alpha
        best, best_move = -WIN - 1, None
        first = True
        reduce_from = self.reduce_after if depth >= 3 else None  # the index from which late moves may be reduced
        reducible = self.reducible
        killers = self.killers[ply]
        for index, move in enumerate(moves):
            if first:
                value = -self._negamax(state, move, depth - 1, -beta, -alpha, clock, ply + 1)
                first = False
            else:
                if (
                    reduce_from is not None
                    and index >= reduce_from
                    and move not in killers
                    and (reducible is None or reducible(state, move))
                ):
                    value = -self._negamax(state, move, depth - 2, -alpha - 1, -alpha, clock, ply + 1)
                    if value <= alpha:  # the shallower look says it is no better: no full search
                        if value > best:
                            best, best_move = value, move
                        continue
                value = -self._negamax(state, move, depth - 1, -alpha - 1, -alpha, clock, ply + 1)
                if alpha < value < beta:
                    value = -self._negamax(state, move, depth - 1, -beta, -value, clock, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if killers[0] != move:
                            killers[1] = killers[0]
                            killers[0] = move
                        self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        tainted, self.tainted = self.tainted, self.tainted or tainted_above
        if key is not None:
            flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
            stored = best + ply if best > WON else best - ply if best < -WON else best
            self.table[key] = (-1 if tainted else depth, flag, stored, best_move)  # -1: for ordering only
        return best

    def _quiesce(self, state: Any, alpha: float, beta: float, clock: Clock, ply: int, plies_left: int) -> float:
        """The value of a leaf once the noisy moves are played out (the side to move may stand pat)."""
        stand = self.k.evaluate(state)
        if stand >= beta or plies_left == 0:
            return stand
        noisy_moves = self.noisy_moves
        if noisy_moves is None:
            raise ValueError("a quiescence search needs the knowledge's noisy_moves(state) hook")
        best = stand
        alpha = max(alpha, stand)
        for move in noisy_moves(state):
            state.push_unchecked(move)
            try:
                clock.tick()
                terminal = self.k.terminal(state, ply + 1)
                value = -(
                    terminal
                    if terminal is not None
                    else self._quiesce(state, -beta, -alpha, clock, ply + 1, plies_left - 1)
                )
            finally:
                state.pop()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def _ordered(self, state: Any, table_move: Any, ply: int) -> list[Any]:
        moves = self.k.ordered_moves(state)
        if len(moves) < 2:
            return moves
        history = self.history
        # Static order first (index), lifted by history counts and killer moves; the table move leads.
        # The lifts are looked up by hash: comparing every move with each of them costs more.
        lift = {killer: 10_000 for killer in self.killers[ply] if killer is not None}
        if table_move is not None:
            lift[table_move] = lift.get(table_move, 0) + 1_000_000
        n = len(moves)
        scored = [((n - i) + history.get(m, 0) + lift.get(m, 0), i, m) for i, m in enumerate(moves)]
        scored.sort(reverse=True)
        return [m for _, _, m in scored]

    def _principal_line(self, state: Any, move: Any, depth: int) -> tuple:
        """The expected line of play, read back from the table."""
        line = [move]
        pushed = 0
        try:
            state.push_unchecked(move)
            pushed += 1
            while len(line) < depth:
                entry = self.table.get(self.k.key(state))
                if entry is None or entry[3] is None or self.k.terminal(state, 0) is not None:
                    break
                nxt = entry[3]
                if nxt not in self.k.ordered_moves(state):
                    break
                line.append(nxt)
                state.push_unchecked(nxt)
                pushed += 1
        finally:
            for _ in range(pushed):
                state.pop()
        return tuple(line)


class _Partial(Exception):
    """The budget ran out during an iteration: carries the best root move found in it (if any)."""

    def __init__(self, move: Any, value: float) -> None:
        super().__init__()
        self.move, self.value = move, value
