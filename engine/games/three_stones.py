"""three-stones: draw (or choose) a stone, play it in the ring's row or column, score 3-in-a-rows.

Board: the 9×9 grid of pockets `a1`..`i9` less the empty centre `e5` and the four
missing corners (76 pockets for 72 stones, SPEC section 3). White-or-clear
triples with at least one white score for white, likewise black; three clears
score nothing. A triple scores once, when completed, which with stones that
never move equals counting every triple on the board.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Mapping

from ..core import (
    CHANCE,
    POCKET,
    Game,
    Geometry,
    IllegalMoveError,
    Location,
    Outcome,
    PositionError,
    RuleOptions,
    State,
    Termination,
    UnreachablePositionError,
    option,
    outcome_by_score,
    require_cells,
    shown,
)
from ..core.geometry import octagon

WHITE, BLACK, CLEAR = "white", "black", "clear"
SIDES = (WHITE, BLACK)
STONE_COLOURS = (WHITE, BLACK, CLEAR)
POUCH = {WHITE: 30, BLACK: 30, CLEAR: 12}
HAND = {WHITE: 15, BLACK: 15, CLEAR: 6}

COLUMNS = "abcdefghi"
SIZE = 9
NOT_POCKETS = frozenset({"e5", "a1", "a9", "i1", "i9"})


def _name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def _index(col: int, row: int) -> int:
    return row * SIZE + col


ALL_NAMES = tuple(_name(i % SIZE, i // SIZE) for i in range(SIZE * SIZE))
POCKETS = tuple(i for i, name in enumerate(ALL_NAMES) if name not in NOT_POCKETS)
POCKET_SET = frozenset(POCKETS)
POCKET_NAMES = tuple(ALL_NAMES[i] for i in POCKETS)
INDEX_OF = {ALL_NAMES[i]: i for i in POCKETS}

BOARD_HALF_WIDTH = 4.98  # the wooden octagon's edge, in pocket pitches from the centre pocket
BOARD_HALF_EDGE = 2.83  # half the length of its straight edges (the cut corners take the rest)
STONE_RADIUS = 0.40  # a real stone, in pocket pitches: it nearly fills its pocket
GEOMETRY = Geometry(
    locations=tuple(Location(ALL_NAMES[i], float(i % SIZE - SIZE // 2), float(i // SIZE - SIZE // 2)) for i in POCKETS),
    outline=octagon(BOARD_HALF_WIDTH, BOARD_HALF_EDGE),
    stone_radius=STONE_RADIUS,
    marks=POCKET,
)


def _triples() -> tuple[tuple[int, int, int], ...]:
    """Every run of three consecutive pockets along a row, column or diagonal."""
    out = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(3)]
                if all(0 <= c < SIZE and 0 <= r < SIZE for c, r in cells):
                    idx = (_index(*cells[0]), _index(*cells[1]), _index(*cells[2]))
                    if all(i in POCKET_SET for i in idx):
                        out.append(idx)
    return tuple(out)


TRIPLES = _triples()
TRIPLES_THROUGH: dict[int, tuple[tuple[int, int, int], ...]] = {p: tuple(t for t in TRIPLES if p in t) for p in POCKETS}
# The pockets sharing a row or a column with each pocket (the centre does not split a line).
RING_LINE: dict[int, tuple[int, ...]] = {
    p: tuple(q for q in POCKETS if q != p and (q % SIZE == p % SIZE or q // SIZE == p // SIZE)) for p in POCKETS
}


def open_side(colours: tuple[str | None, ...]) -> str | None:
    """The side a triple scores for once it is full: the one side among its stones (clears go
    with either), or None (both sides, or no side's stone yet). Search values open triples by it."""
    sides = {c for c in colours if c in SIDES}
    return sides.pop() if len(sides) == 1 else None


def triple_side(colours: tuple[str | None, str | None, str | None]) -> str | None:
    """The side a full triple scores for, or None (an empty pocket, mixed sides, or three clears)."""
    return None if None in colours else open_side(colours)


@dataclasses.dataclass(frozen=True)
class ThreeStonesOptions(RuleOptions):
    game_id = "three-stones"
    mode: str = option(
        "pouch",
        "pouch: draw a random stone and play it; pure-skill: each side holds 15 white, 15 black, 6 clear and chooses",
        choices=("pouch", "pure-skill"),
    )
    first_player: str = option(WHITE, "which side plays the first stone", choices=SIDES)
    handicap_white: int = option(0, "points white starts with (handicap)", minimum=0, maximum=200)
    handicap_black: int = option(0, "points black starts with (handicap)", minimum=0, maximum=200)
    clock_white_minutes: int = option(
        0, "chess clock for white in minutes, 0 = no clock (suggested: 30 pouch, 60 pure skill)", minimum=0, maximum=600
    )
    clock_black_minutes: int = option(0, "chess clock for black in minutes, 0 = no clock", minimum=0, maximum=600)

    def validate(self) -> None:
        if (self.clock_white_minutes == 0) != (self.clock_black_minutes == 0):
            from ..core import OptionError

            raise OptionError(
                "three-stones: give both sides a clock or neither (a time handicap is a longer clock)",
                rule="clock pair",
            )


@dataclasses.dataclass(frozen=True)
class Draw:
    """Chance: the colour drawn from the pouch."""

    colour: str

    def __str__(self) -> str:
        return f"draw {self.colour}"


@dataclasses.dataclass(frozen=True)
class Place:
    """A stone of `colour` played into `pocket` (an index into the 9×9 grid)."""

    colour: str
    pocket: int

    def __str__(self) -> str:
        return f"{self.colour}@{ALL_NAMES[self.pocket]}"


Move = Draw | Place


class ThreeStonesState(State[Move, ThreeStonesOptions]):
    move_types = (Draw, Place)

    def __init__(self, game: "ThreeStones", options: ThreeStonesOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        self.board: list[str | None] = [None] * (SIZE * SIZE)
        self.last: int | None = None
        self.drawn: str | None = None
        self.pouch: dict[str, int] = dict(POUCH) if options.mode == "pouch" else {c: 0 for c in STONE_COLOURS}
        self.hands: dict[str, dict[str, int]] = {
            side: dict(HAND) if options.mode == "pure-skill" else {c: 0 for c in STONE_COLOURS} for side in SIDES
        }
        self.points: dict[str, int] = {WHITE: options.handicap_white, BLACK: options.handicap_black}
        self.placed = 0
        self.first = options.first_player

    # ----- turn order --------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return SIDES

    @property
    def side_to_move(self) -> str:
        """The side whose turn it is, even while the pouch is being drawn from."""
        other = BLACK if self.first == WHITE else WHITE
        return self.first if self.placed % 2 == 0 else other

    @property
    def current_player(self) -> str:
        if self.options.mode == "pouch" and self.drawn is None:
            return CHANCE
        return self.side_to_move

    @property
    def clock_player(self) -> str:
        """The side to move, also while it draws: draw, play, then stop the clock (the rule book's timed play)."""
        return self.side_to_move

    @property
    def stones_left(self) -> int:
        if self.options.mode == "pouch":
            return sum(self.pouch.values()) + (self.drawn is not None)
        return sum(self.hands[WHITE].values()) + sum(self.hands[BLACK].values())

    # ----- the ring ------------------------------------------------------------------
    def allowed_pockets(self) -> list[int]:
        """The empty pockets the next stone may go in (the ring rule, or anywhere)."""
        if self.last is not None:
            near = [p for p in RING_LINE[self.last] if self.board[p] is None]
            if near:
                return near
        return [p for p in POCKETS if self.board[p] is None]

    def _colours_available(self) -> list[str]:
        if self.options.mode == "pouch":
            return [self.drawn] if self.drawn else []
        hand = self.hands[self.side_to_move]
        return [c for c in STONE_COLOURS if hand[c] > 0]

    def _legal_moves(self) -> Iterator[Move]:
        if self.current_player == CHANCE:
            for colour in STONE_COLOURS:
                if self.pouch[colour]:
                    yield Draw(colour)
            return
        pockets = self.allowed_pockets()
        for colour in self._colours_available():
            for p in pockets:
                yield Place(colour, p)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.current_player != CHANCE:
            raise IllegalMoveError("no stone is to be drawn now", rule="chance")
        total = sum(self.pouch.values())
        return [(Draw(c), n / total) for c, n in self.pouch.items() if n]

    def _check(self, move: Move) -> None:
        if isinstance(move, Draw):
            if self.current_player != CHANCE:
                raise IllegalMoveError(f"{move}: a stone is already drawn ({self.drawn}); play it", rule="draw")
            if self.pouch.get(move.colour, 0) <= 0:
                raise IllegalMoveError(f"{move}: the pouch holds no {move.colour} stone", rule="pouch")
            return
        if self.current_player == CHANCE:
            raise IllegalMoveError(f"{move}: draw a stone from the pouch first", rule="draw")
        if move.colour not in STONE_COLOURS or not (isinstance(move.pocket, int) and 0 <= move.pocket < len(ALL_NAMES)):
            raise IllegalMoveError(
                f"{shown(move)} is not a stone of a three-stones colour on the 9×9 grid", rule="notation"
            )
        name = ALL_NAMES[move.pocket]
        if move.pocket not in POCKET_SET:
            raise IllegalMoveError(f"{move}: {name} is not a pocket (the centre and corners are empty)", rule="board")
        if self.options.mode == "pouch":
            if move.colour != self.drawn:
                raise IllegalMoveError(f"{move}: you drew {self.drawn} and must play what you draw", rule="pouch")
        elif self.hands[self.side_to_move][move.colour] <= 0:
            raise IllegalMoveError(f"{move}: {self.side_to_move} has no {move.colour} stone left in hand", rule="hand")
        if self.board[move.pocket] is not None:
            raise IllegalMoveError(f"{move}: {name} is taken", rule="occupied")
        if move.pocket not in self.allowed_pockets():
            ring = ALL_NAMES[self.last] if self.last is not None else "?"
            raise IllegalMoveError(
                f"{move}: must be in row {ring[1]} or column {ring[0]}, like the last stone at {ring} (the ring rule)",
                rule="ring",
            )

    def _apply(self, move: Move) -> Any:
        if isinstance(move, Draw):
            self.pouch[move.colour] -= 1
            self.drawn = move.colour
            return None
        p = move.pocket
        token = (self.last, self.drawn)
        self.board[p] = move.colour
        gained = []
        for triple in TRIPLES_THROUGH[p]:
            side = triple_side((self.board[triple[0]], self.board[triple[1]], self.board[triple[2]]))
            if side:
                self.points[side] += 1
                gained.append(side)
        if self.options.mode == "pouch":
            self.drawn = None
        else:
            self.hands[self.side_to_move][move.colour] -= 1
        self.last = p
        self.placed += 1
        return token, gained

    def _revert(self, move: Move, token: Any) -> None:
        if isinstance(move, Draw):
            self.pouch[move.colour] += 1
            self.drawn = None
            return
        (last, drawn), gained = token
        self.placed -= 1
        for side in gained:
            self.points[side] -= 1
        self.board[move.pocket] = None
        self.last = last
        self.drawn = drawn
        if self.options.mode == "pure-skill":
            self.hands[self.side_to_move][move.colour] += 1

    def _game_outcome(self) -> Outcome | None:
        if self.stones_left and any(self.board[p] is None for p in POCKETS):
            return None
        return outcome_by_score(self.scores(), "the last stone is played", Termination.BOARD_FILLED)

    def scores(self) -> dict[str, int]:
        return dict(self.points)

    def recount_scores(self) -> dict[str, int]:
        counts = {WHITE: self.options.handicap_white, BLACK: self.options.handicap_black}
        for side, _ in self.scoring_triples():
            counts[side] += 1
        return counts

    def scoring_triples(self) -> list[tuple[str, tuple[int, int, int]]]:
        """Every scoring triple on the board with the side it scores for."""
        out = []
        for t in TRIPLES:
            side = triple_side((self.board[t[0]], self.board[t[1]], self.board[t[2]]))
            if side:
                out.append((side, t))
        return out

    # ----- notation ------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] == "draw":
            if words[1] not in STONE_COLOURS:
                raise IllegalMoveError(f"{shown(text)}: the pouch holds white, black and clear stones", rule="notation")
            return Draw(words[1])
        if len(words) != 1:
            raise IllegalMoveError(
                f"{shown(text)}: write a move as a pocket (c4) or colour@pocket (clear@c4)", rule="notation"
            )
        colour, sep, name = words[0].rpartition("@")
        if name not in ALL_NAMES:
            raise IllegalMoveError(f"{shown(text)}: {shown(name)} is not a pocket (a1..i9)", rule="notation")
        if not sep:
            if self.options.mode == "pouch" and self.drawn:
                colour = self.drawn
            else:
                raise IllegalMoveError(f"{shown(text)}: say which stone, e.g. clear@{name}", rule="notation")
        if colour not in STONE_COLOURS:
            raise IllegalMoveError(
                f"{shown(text)}: {shown(colour)} is not a stone colour (white, black, clear)", rule="notation"
            )
        return Place(colour, ALL_NAMES.index(name))

    # ----- positions -------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        position: dict[str, Any] = {
            "game": self.game.id,
            "cells": {ALL_NAMES[p]: self.board[p] for p in POCKETS},
            "to_move": self.side_to_move,
            "last": ALL_NAMES[self.last] if self.last is not None else None,
            "scores": self.scores(),
            "options": self.options.to_dict(),
        }
        if self.options.mode == "pouch":
            position["pouch"] = dict(self.pouch)
            if self.drawn:
                position["pouch"][self.drawn] += 1
        else:
            position["in_hand"] = {side: dict(self.hands[side]) for side in SIDES}
        return position

    def render(self) -> str:
        allowed = set(self.allowed_pockets())
        restricted = not self.is_over() and len(allowed) < sum(1 for p in POCKETS if self.board[p] is None)
        symbol = {WHITE: "W", BLACK: "B", CLEAR: "C"}
        lines = []
        for row in range(SIZE - 1, -1, -1):
            cells = []
            for col in range(SIZE):
                i = _index(col, row)
                stone = self.board[i]
                if i not in POCKET_SET:
                    text = " "
                elif stone is not None:
                    text = symbol[stone]
                else:
                    text = "+" if restricted and i in allowed else "."
                cells.append(f"({text})" if i == self.last else f" {text} ")
            lines.append(f"{row + 1} " + "".join(cells))
        lines.append("   " + "".join(f" {c} " for c in COLUMNS))
        status = f"white {self.points[WHITE]}  black {self.points[BLACK]}"
        if self.options.mode == "pouch":
            status += "   pouch: " + ", ".join(f"{n} {c}" for c, n in self.pouch.items())
            if self.drawn:
                status += f"   drawn: {self.drawn}"
        else:
            for side in SIDES:
                status += f"   {side} holds " + "/".join(str(self.hands[side][c]) for c in STONE_COLOURS)
        lines.append(status)
        if restricted:
            lines.append("+ marks the pockets in the ring's row and column")
        return "\n".join(lines)

    def _copy_containers(self, clone: "ThreeStonesState") -> None:
        clone.board = list(self.board)
        clone.pouch = dict(self.pouch)
        clone.hands = {s: dict(h) for s, h in self.hands.items()}
        clone.points = dict(self.points)


class ThreeStones(Game[ThreeStonesOptions]):
    id = "three-stones"
    title = "Three Stones"
    Options = ThreeStonesOptions
    palette = STONE_COLOURS
    rules_summary = (
        "Draw a stone from the pouch (or choose one in pure skill) and play it in an empty pocket "
        "in the same row or column as the last stone played (the ring); if there is none, anywhere. "
        "Every 3-in-a-row of your colour (clear counts for both) scores 1; three clears score nothing; "
        "no triple runs through the centre. The game ends with the last stone; high score wins."
    )

    def locations(self) -> tuple[str, ...]:
        return POCKET_NAMES

    def geometry(self) -> Geometry:
        """76 pockets one pitch apart around the empty centre (e5 at the origin), on an octagon."""
        return GEOMETRY

    def stone_set(self) -> Mapping[str, int]:
        """30 white, 30 black and 12 clear, in the pouch or split between the hands."""
        return dict(POUCH)

    def new_state(
        self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0
    ) -> ThreeStonesState:
        opts = self.options(options)
        state = ThreeStonesState(self, opts, seed)
        if opts.clock_white_minutes:
            state.start_clock({WHITE: opts.clock_white_minutes * 60.0, BLACK: opts.clock_black_minutes * 60.0})
        return state

    def _read_cells(self, position: Mapping[str, Any]) -> dict[str, str | None]:
        self.check_game_id(position)
        return require_cells(dict(position), POCKET_NAMES, STONE_COLOURS)

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> ThreeStonesState:
        cells = self._read_cells(position)
        raw_options = self.position_options(position)
        if "mode" not in raw_options and "in_hand" in position:
            raw_options["mode"] = "pure-skill"
        state = self.new_state(raw_options, seed)
        opts = state.options
        for name, colour in cells.items():
            state.board[INDEX_OF[name]] = colour
        on_board = {c: sum(1 for v in cells.values() if v == c) for c in STONE_COLOURS}
        state.placed = sum(on_board.values())
        _check_stone_set(on_board, "on the board")
        to_move = position.get("to_move")
        if to_move is None:
            state.assumed.append("to_move not given: assumed from the number of stones and the first player")
        elif to_move not in SIDES:
            raise PositionError(f"to_move must be white or black, not {shown(to_move)}")
        elif to_move != state.side_to_move:
            # The side to move is given: shift the parity so it holds.
            state.first = BLACK if state.first == WHITE else WHITE
        last = position.get("last")
        if last is None:
            if state.placed:
                state.assumed.append("last not given: the next stone may go anywhere")
        elif not isinstance(last, str) or last not in INDEX_OF or cells[last] is None:
            raise PositionError(f"last must name an occupied pocket, not {shown(last)}")
        else:
            state.last = INDEX_OF[last]
        if opts.mode == "pouch":
            if position.get("in_hand") is not None:
                raise PositionError("in_hand is for pure skill; this position draws from the pouch (mode pouch)")
            pouch = position.get("pouch")
            if pouch is None:
                state.pouch = {c: POUCH[c] - on_board[c] for c in STONE_COLOURS}
                state.assumed.append("pouch not given: the full set less the stones on the board")
            else:
                state.pouch = _counts(pouch, "pouch")
                _check_stone_set(
                    {c: on_board[c] + state.pouch[c] for c in STONE_COLOURS}, "on the board and in the pouch"
                )
        else:
            if position.get("pouch") is not None:
                raise PositionError("pouch is for the pouch mode; this position is pure skill (in_hand)")
            hands = position.get("in_hand")
            if hands is None:
                for side in SIDES:
                    state.hands[side] = {c: HAND[c] - _share(on_board[c], side, state) for c in STONE_COLOURS}
                state.assumed.append("in_hand not given: each side's half less an even share of the stones played")
            else:
                if not isinstance(hands, dict) or set(hands) != set(SIDES):
                    raise PositionError("in_hand must give white and black each a {colour: count} object")
                state.hands = {side: _counts(hands[side], f"in_hand.{side}") for side in SIDES}
                _check_hands(state.hands, on_board)
        recount = {side: 0 for side in SIDES}
        for side, _ in state.scoring_triples():
            recount[side] += 1
        state.points = {WHITE: opts.handicap_white + recount[WHITE], BLACK: opts.handicap_black + recount[BLACK]}
        if position.get("scores") is not None and position["scores"] != state.points:
            state.assumed.append("scores given differ from the board: scores recounted from the triples")
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """The points (handicap included) and the scoring triples of a position the rules can reach."""
        state = self.from_position(position)
        items = [{"side": side, "cells": [ALL_NAMES[i] for i in triple]} for side, triple in state.scoring_triples()]
        return {"game": self.id, "scores": state.scores(), "items": items}


def _check_stone_set(counts: Mapping[str, int], where: str) -> None:
    """Refuse more stones of a colour than the set holds (30 white, 30 black, 12 clear)."""
    for colour in STONE_COLOURS:
        if counts[colour] > POUCH[colour]:
            raise UnreachablePositionError(
                f"three-stones has {POUCH[colour]} {colour} stones, the position shows {counts[colour]} {where}",
                rule="stone set",
            )


def _check_hands(hands: Mapping[str, Mapping[str, int]], on_board: Mapping[str, int]) -> None:
    """Pure skill: each side holds at most its half of the set, and no stone is in two places."""
    for side in SIDES:
        for colour in STONE_COLOURS:
            if hands[side][colour] > HAND[colour]:
                raise UnreachablePositionError(
                    f"in pure skill each side starts with {HAND[colour]} {colour} stones; "
                    f"in_hand.{side} holds {hands[side][colour]}",
                    rule="hand",
                )
    _check_stone_set(
        {c: on_board[c] + hands[WHITE][c] + hands[BLACK][c] for c in STONE_COLOURS}, "on the board and in hand"
    )


def _counts(data: Any, what: str) -> dict[str, int]:
    if not isinstance(data, dict) or any(k not in STONE_COLOURS for k in data):
        raise PositionError(f"{what} must be an object of white/black/clear counts, not {shown(data)}")
    counts = {c: data.get(c, 0) for c in STONE_COLOURS}
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in counts.values()):
        raise PositionError(f"{what} counts must be whole numbers ≥ 0, not {shown(data)}")
    return counts


def _share(count: int, side: str, state: ThreeStonesState) -> int:
    """An even split of `count` stones between the sides, the first player taking the odd one."""
    first_share = (count + 1) // 2
    return first_share if side == state.first else count - first_share


GAME = ThreeStones()
