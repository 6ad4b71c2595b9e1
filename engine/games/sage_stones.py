"""sage-stones: roll three 3-sided dice, place a stone in the rolled column, sandwich to capture.

Board: 7 columns numbered 3..9 (the short, numbered edge) × 9 rows 1..9, pockets
`c{column}r{row}` (SPEC section 3). Seats sit clockwise, one colour each; the
first seat starts. With two players each plays two colours by default, so four
seats alternate p1, p2, p1, p2 (the rule book's advice).

A turn, as moves:

1. The seat rolls: a chance move `roll a-b-c` (dice sorted). The sum names the
   column. If that column is full the stone goes in column 6 instead.
2. The seat's player then makes exactly one move:
   - a pocket (`c5r3`): a stone of the seat's colour into any empty pocket of
     that column;
   - `pass` after a 1-2-3 (all dice different): the turn is lost;
   - `wipe` when the column and column 6 are both full: every stone returns
     to its owner and the turn ends (option `after_wipe`: the next seat, or
     the first seat as at a new game, rolls next).
   After a placement from a triple (1-1-1, 2-2-2, 3-3-3) the same seat rolls
   again (repeatable), unless the roll was redirected to column 6.

Capture: from the placed stone walk each of the 8 directions over consecutive
stones of other colours (any seat's, the mover's own other colour included);
if the walk ends on a stone of the placed colour, every stone passed over is
removed and returned to its owner. Vertical lines wrap between row 9 and
row 1; diagonals wrap the same way unless `wrap_diagonals` is off; lines never
wrap across columns 3 and 9. A vertical walk that comes all the way round to
the placed stone itself captures nothing. Placing a stone between two enemy
stones is safe: only the stone just placed captures.

Win: the first seat to have placed all its stones (its supply is 0 right after
placing) wins at once, whatever that placement captures; its player wins. With
`play_for_places` (the rule book's family variant) play goes on for second
place, third and so on: a player who has finished is skipped (their stones stay
on the board until taken), and the game ends when one player is left, last.
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
    OptionError,
    Outcome,
    PositionError,
    RuleOptions,
    State,
    Termination,
    UnreachablePositionError,
    option,
    require_cells,
    shown,
)
from ..core.geometry import rectangle

PALETTE = ("black", "white", "clear", "red", "green", "blue", "yellow", "orange", "purple")
DEFAULT_COLOURS = ("red", "blue", "green", "yellow", "orange", "purple")
"""Seat colours when none are given, in seat order: the first `n` are used."""
LETTER = {
    "black": "K",
    "white": "W",
    "clear": "C",
    "red": "R",
    "green": "G",
    "blue": "B",
    "yellow": "Y",
    "orange": "O",
    "purple": "P",
}

FIRST_COLUMN, LAST_COLUMN = 3, 9
COLUMNS = tuple(range(FIRST_COLUMN, LAST_COLUMN + 1))
ROWS = 9
FALLBACK_COLUMN = 6
EMPTY = -1


def _index(column: int, row: int) -> int:
    """Pockets are numbered column by column, so a column's pockets are contiguous."""
    return (column - FIRST_COLUMN) * ROWS + (row - 1)


NAMES = tuple(f"c{c}r{r}" for c in COLUMNS for r in range(1, ROWS + 1))
INDEX_OF = {name: i for i, name in enumerate(NAMES)}
CELLS = len(NAMES)
COLUMN_OF = tuple(FIRST_COLUMN + i // ROWS for i in range(CELLS))
COLUMN_CELLS: dict[int, tuple[int, ...]] = {c: tuple(_index(c, r) for r in range(1, ROWS + 1)) for c in COLUMNS}

CENTRE_COLUMN, CENTRE_ROW = 6, 5  # c6r5, the middle pocket, lies at the origin
BOARD_OUTLINE = rectangle(-3.9, -5.92, 3.9, 4.9)  # in pitches: the numbered edge below row 1 is the wide margin
STONE_RADIUS = 0.40  # a real marble, in pocket pitches
GEOMETRY = Geometry(
    locations=tuple(
        Location(NAMES[i], float(COLUMN_OF[i] - CENTRE_COLUMN), float(i % ROWS + 1 - CENTRE_ROW)) for i in range(CELLS)
    ),
    outline=BOARD_OUTLINE,
    stone_radius=STONE_RADIUS,
    marks=POCKET,
)

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _rays(wrap_diagonals: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every pocket, the pockets met walking each direction, nearest first.

    Rows always wrap for vertical lines and for diagonals when asked; columns
    never wrap. A vertical ray stops before it comes back to its own pocket.
    """
    table = []
    for i in range(CELLS):
        column, row = COLUMN_OF[i], i % ROWS  # row counted from 0 here
        rays = []
        for dc, dr in DIRECTIONS:
            wraps = dc == 0 or wrap_diagonals
            ray = []
            c, r = column, row
            while True:
                c, r = c + dc, r + dr
                if not FIRST_COLUMN <= c <= LAST_COLUMN:
                    break
                if not 0 <= r < ROWS:
                    if not wraps:
                        break
                    r %= ROWS
                if (c, r) == (column, row):
                    break
                ray.append(_index(c, r + 1))
            if ray:
                rays.append(tuple(ray))
        table.append(tuple(rays))
    return tuple(table)


RAYS = {True: _rays(True), False: _rays(False)}


@dataclasses.dataclass(frozen=True)
class SageStonesOptions(RuleOptions):
    game_id = "sage-stones"
    players: int = option(2, "number of players (2-6), seated clockwise; the first seat starts", minimum=2, maximum=6)
    two_colours: bool = option(
        True,
        "with 2 players each plays two colours (4 seats: p1, p2, p1, p2), as the rule book advises; ignored with more players",
    )
    stones_per_colour: int = option(
        10, "stones of each colour; a seat that has placed them all wins", minimum=1, maximum=CELLS
    )
    wrap_diagonals: bool = option(
        True, "diagonal lines wrap between row 9 and row 1 like vertical lines (columns never wrap)"
    )
    after_wipe: str = option(
        "next-seat",
        "who rolls after the board is wiped (rolled column and column 6 both full): "
        "next-seat (the turn just ends) or first-seat (the game starts over)",
        choices=("next-seat", "first-seat"),
    )
    colours: str = option(
        "",
        "comma-separated seat colours in seat order, e.g. 'red,blue,green,yellow'; "
        "empty = red, blue, green, yellow, orange, purple (as many as there are seats)",
    )
    play_for_places: bool = option(
        False,
        "the family variant: after the winner, play on for second place, third "
        "and so on; a player who has finished is skipped (with 3 or more players)",
    )

    @property
    def seat_count(self) -> int:
        return 4 if self.players == 2 and self.two_colours else self.players

    @property
    def seat_colours(self) -> tuple[str, ...]:
        if not self.colours.strip():
            return DEFAULT_COLOURS[: self.seat_count]
        return tuple(c.strip().lower() for c in self.colours.split(","))

    @property
    def seat_owners(self) -> tuple[str, ...]:
        """The player owning each seat: seats go round the players in order."""
        return tuple(f"p{seat % self.players + 1}" for seat in range(self.seat_count))

    def validate(self) -> None:
        colours = self.seat_colours
        unknown = [c for c in colours if c not in PALETTE]
        if unknown:
            raise OptionError(
                f"sage-stones: {shown(unknown[0])} is not a stone colour ({', '.join(PALETTE)})", rule="colour"
            )
        if len(set(colours)) != len(colours):
            raise OptionError("sage-stones: each seat needs its own colour (colours repeats one)", rule="colour")
        if len(colours) != self.seat_count:
            raise OptionError(
                f"sage-stones: {self.players} players"
                f"{' with two colours each' if self.seat_count != self.players else ''} need {self.seat_count}"
                f" seat colours, colours gives {len(colours)}",
                rule="colour count",
            )


@dataclasses.dataclass(frozen=True)
class Roll:
    """Chance: the three dice, sorted."""

    dice: tuple[int, int, int]

    def __str__(self) -> str:
        return "roll " + self.dice_text()

    def dice_text(self) -> str:
        return "-".join(map(str, self.dice))

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1] + self.dice[2]

    @property
    def is_triple(self) -> bool:
        return self.dice[0] == self.dice[2]

    @property
    def loses_turn(self) -> bool:
        """1-2-3: the sage is distracted and places nothing."""
        return self.dice == (1, 2, 3)


@dataclasses.dataclass(frozen=True)
class Place:
    """A stone of the rolling seat's colour into `pocket` (an index, see NAMES)."""

    pocket: int

    def __str__(self) -> str:
        return NAMES[self.pocket]


@dataclasses.dataclass(frozen=True)
class Pass:
    """The turn lost to a 1-2-3: the only move the seat has then."""

    def __str__(self) -> str:
        return "pass"


@dataclasses.dataclass(frozen=True)
class Wipe:
    """The rolled column and column 6 are full: clear the board (the only move then)."""

    def __str__(self) -> str:
        return "wipe"


Move = Roll | Place | Pass | Wipe

ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll((a, b, c)), n / 27)
    for (a, b, c), n in (
        ((1, 1, 1), 1),
        ((1, 1, 2), 3),
        ((1, 1, 3), 3),
        ((1, 2, 2), 3),
        ((1, 2, 3), 6),
        ((1, 3, 3), 3),
        ((2, 2, 2), 1),
        ((2, 2, 3), 3),
        ((2, 3, 3), 3),
        ((3, 3, 3), 1),
    )
)
ROLL_SET = frozenset(r for r, _ in ROLLS)
PLACES = tuple(Place(i) for i in range(CELLS))
PASS, WIPE = Pass(), Wipe()

# What the seat must do after its roll.
AWAIT_ROLL, MUST_PLACE, MUST_PASS, MUST_WIPE = 0, 1, 2, 3


class SageStonesState(State[Move, SageStonesOptions]):
    move_types = (Roll, Place, Pass, Wipe)

    def __init__(self, game: "SageStones", options: SageStonesOptions, seed: int | None) -> None:
        super().__init__(game, options, seed)
        self.seats: tuple[str, ...] = options.seat_colours
        self.owners: tuple[str, ...] = options.seat_owners
        self._players = tuple(f"p{i + 1}" for i in range(options.players))
        self.rays = RAYS[options.wrap_diagonals]  # per pocket, the pockets met in each direction, nearest first
        self.board: list[int] = [EMPTY] * CELLS  # seat index or EMPTY
        self.supply: list[int] = [options.stones_per_colour] * len(self.seats)
        self.seat = 0
        self.roll: Roll | None = None
        self.phase = AWAIT_ROLL
        self.column = 0  # where the pending roll places (after a full column: 6)
        self.extra = False  # the pending roll earns another roll (a triple not redirected)
        self.finished: list[int] = []  # the seats that placed their last stone, in that order (one per player)

    # ----- seats and turn order ------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def seat_to_move(self) -> str:
        """The colour whose turn it is (rolling or placing)."""
        return self.seats[self.seat]

    @property
    def current_player(self) -> str:
        if self.phase == AWAIT_ROLL:
            return CHANCE
        return self.owners[self.seat]

    @property
    def winner(self) -> int | None:
        """The seat that placed its last stone first (its player has won), or None."""
        return self.finished[0] if self.finished else None

    def places(self) -> list[str]:
        """The players in the order they finished (the one left last once the game is over)."""
        done = [self.owners[seat] for seat in self.finished]
        left = [p for p in self._players if p not in done]
        return done + left if len(left) == 1 and self.options.play_for_places else done

    def _has_finished(self, seat: int) -> bool:
        """Whether the seat's player has finished (placed a seat's last stone): its turns are skipped."""
        owner = self.owners[seat]
        return any(self.owners[done] == owner for done in self.finished)

    def owner(self, colour: str) -> str:
        """The player who plays `colour`."""
        return self.owners[self.seats.index(colour)]

    def in_hand(self) -> dict[str, int]:
        """Stones each colour still has to place."""
        return dict(zip(self.seats, self.supply))

    def on_board(self) -> dict[str, int]:
        """Stones of each colour on the board, counted from the board."""
        counts = [0] * len(self.seats)
        for s in self.board:
            if s != EMPTY:
                counts[s] += 1
        return dict(zip(self.seats, counts))

    def target_pockets(self) -> list[int]:
        """The empty pockets the pending roll allows (none unless a stone is to be placed)."""
        if self.phase != MUST_PLACE:
            return []
        board = self.board
        return [i for i in COLUMN_CELLS[self.column] if board[i] == EMPTY]

    # ----- the search API: captures previewed without playing (engine/ai's players) --------
    def captures(self, pocket: int, seat: int) -> list[int]:
        """The pockets whose stones a stone of `seat` on `pocket` takes (the sandwich rule).

        Walking each direction, a run of other seats' stones closed by one of `seat`'s
        is taken; an empty pocket or the board's edge ends the walk. Reads the board as
        it is, so it answers the same before the stone is put down and after.
        """
        board = self.board
        taken: list[int] = []
        for ray in self.rays[pocket]:
            run = 0
            for j in ray:
                s = board[j]
                if s == EMPTY:
                    break
                if s == seat:
                    taken.extend(ray[:run])
                    break
                run += 1
        return taken

    def capture_chances(self) -> dict[tuple[int, int], list[int]]:
        """Every capture a placement could make now: (seat, empty pocket) -> the pockets it would take.

        The sandwich rule of `captures` for every seat at once: one walk per empty
        pocket and direction, where the first stone of a seat met ends that seat's run.
        """
        board = self.board
        rays = self.rays
        found: dict[tuple[int, int], list[int]] = {}
        for e in range(len(board)):
            if board[e] != EMPTY:
                continue
            for ray in rays[e]:
                seen = 0  # seats met so far on this walk (bit mask)
                for run, j in enumerate(ray):
                    s = board[j]
                    if s == EMPTY:
                        break
                    bit = 1 << s
                    if not seen & bit:
                        seen |= bit
                        if run:
                            found.setdefault((s, e), []).extend(ray[:run])
        return found

    def _column_full(self, column: int) -> bool:
        board = self.board
        return all(board[i] != EMPTY for i in COLUMN_CELLS[column])

    # ----- moves -------------------------------------------------------------------------
    def _legal_moves(self) -> Iterator[Move]:
        phase = self.phase
        if phase == AWAIT_ROLL:
            for roll, _ in ROLLS:
                yield roll
        elif phase == MUST_PLACE:
            board = self.board
            for i in COLUMN_CELLS[self.column]:
                if board[i] == EMPTY:
                    yield PLACES[i]
        elif phase == MUST_PASS:
            yield PASS
        else:
            yield WIPE

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.phase != AWAIT_ROLL:
            raise IllegalMoveError("the dice are already rolled", rule="dice")
        return list(ROLLS)

    def _check(self, move: Move) -> None:
        phase = self.phase
        who = f"{self.seat_to_move} ({self.owners[self.seat]})"
        if isinstance(move, Roll):
            if move not in ROLL_SET:
                raise IllegalMoveError(f"{move}: a roll is three dice with faces 1 to 3, sorted", rule="dice")
            if phase != AWAIT_ROLL:
                raise IllegalMoveError(
                    f"{move}: {who} has rolled {self._rolled().dice_text()}; {self._duty()}", rule="dice"
                )
            return
        if phase == AWAIT_ROLL:
            raise IllegalMoveError(f"{move}: {who} must roll the dice first", rule="dice")
        if isinstance(move, Pass):
            if phase != MUST_PASS:
                raise IllegalMoveError(f"pass: only a roll of 1-2-3 loses the turn; {self._duty()}", rule="lost turn")
            return
        if isinstance(move, Wipe):
            if phase != MUST_WIPE:
                raise IllegalMoveError(
                    f"wipe: the board is wiped only when the rolled column and column 6 are both full; {self._duty()}",
                    rule="wipe",
                )
            return
        if not isinstance(move, Place) or not 0 <= move.pocket < CELLS:
            raise IllegalMoveError(f"{shown(move)} is not a sage-stones move", rule="notation")
        if phase == MUST_PASS:
            raise IllegalMoveError(
                f"{move}: a roll of 1-2-3 loses the turn (the sage is distracted); play pass", rule="lost turn"
            )
        if phase == MUST_WIPE:
            raise IllegalMoveError(
                f"{move}: column {self._rolled().total} and column 6 are full: the board is wiped (play wipe)",
                rule="wipe",
            )
        if COLUMN_OF[move.pocket] != self.column:
            raise IllegalMoveError(f"{move}: {self._column_reason()}", rule="column")
        if self.board[move.pocket] != EMPTY:
            raise IllegalMoveError(
                f"{move}: that pocket is taken by {self.seats[self.board[move.pocket]]}", rule="occupied"
            )

    def _rolled(self) -> Roll:
        """The roll the seat to move is playing: there is one in every phase after the dice are rolled."""
        if self.roll is None:
            raise IllegalMoveError(f"{self.seat_to_move} has not rolled the dice yet", rule="dice")
        return self.roll

    def _column_reason(self) -> str:
        roll = self._rolled()
        if roll.total != self.column:
            return f"column {roll.total} is full, so the roll {roll.dice_text()} places in column 6"
        return f"the roll {roll.dice_text()} places in column {self.column}"

    def _duty(self) -> str:
        """What the seat to move has to do now, in words."""
        if self.phase == MUST_PLACE:
            return self._column_reason()
        if self.phase == MUST_PASS:
            return "the turn is lost: play pass"
        if self.phase == MUST_WIPE:
            return "the board must be wiped: play wipe"
        return "roll the dice"

    def _apply(self, move: Move) -> Any:
        if isinstance(move, Roll):
            self._set_roll(move)
            return None
        token = (self.seat, self.roll, self.phase, self.column, self.extra, len(self.finished))
        if isinstance(move, Place):
            return token, self._place(move.pocket)
        if isinstance(move, Pass):
            self._end_turn(self._next_seat())
            return token, None
        saved = (list(self.board), list(self.supply))
        self.board = [EMPTY] * CELLS
        self.supply = [self.options.stones_per_colour] * len(self.seats)
        self._end_turn(self._seat_from(0) if self.options.after_wipe == "first-seat" else self._next_seat())
        return token, saved

    def _set_roll(self, roll: Roll) -> None:
        """Read the dice: which column, what the seat must do, whether it rolls again."""
        self.roll = roll
        self.extra = False
        if roll.loses_turn:
            self.phase, self.column = MUST_PASS, 0
            return
        column = roll.total
        if self._column_full(column):
            column = FALLBACK_COLUMN
            if self._column_full(column):
                self.phase, self.column = MUST_WIPE, 0
                return
        else:
            self.extra = roll.is_triple
        self.phase, self.column = MUST_PLACE, column

    def _place(self, pocket: int) -> list[tuple[int, int]]:
        """Put the stone down, take the sandwiched stones, settle the win and the turn."""
        board, supply, seat = self.board, self.supply, self.seat
        board[pocket] = seat
        supply[seat] -= 1
        captured = [(k, board[k]) for k in self.captures(pocket, seat)]
        for k, owner in captured:
            board[k] = EMPTY
            supply[owner] += 1
        finishes = supply[seat] == 0
        if finishes:
            self.finished.append(seat)
        self._end_turn(seat if self.extra and not finishes else self._next_seat())
        return captured

    def _next_seat(self) -> int:
        return self._seat_from(self.seat + 1)

    def _seat_from(self, start: int) -> int:
        """The first seat from `start` on, clockwise, whose player has not finished."""
        count = len(self.seats)
        if not self.finished:
            return start % count
        for step in range(count):
            seat = (start + step) % count
            if not self._has_finished(seat):
                return seat
        return start % count

    def _end_turn(self, next_seat: int) -> None:
        self.seat = next_seat
        self.roll = None
        self.phase = AWAIT_ROLL
        self.column = 0
        self.extra = False

    def _revert(self, move: Move, token: Any) -> None:
        if isinstance(move, Roll):
            self._end_turn(self.seat)
            return
        (self.seat, self.roll, self.phase, self.column, self.extra, finished), undo = token
        if isinstance(move, Place):
            board, supply = self.board, self.supply
            for k, owner in undo:
                board[k] = owner
                supply[owner] -= 1
            board[move.pocket] = EMPTY
            supply[self.seat] += 1
            del self.finished[finished:]
        elif isinstance(move, Wipe):
            # Copies: the token is shared with every copy of this state, which may undo it too.
            self.board, self.supply = list(undo[0]), list(undo[1])

    def _game_outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        winner = self.owners[self.finished[0]]
        colours = [self.seats[seat] for seat in self.finished]
        reason = (
            f"{colours[0]} placed its last stone"
            if len(colours) == 1
            else f"{', '.join(colours)} placed their last stones in that order"
        )
        if not self.options.play_for_places:
            return Outcome((winner,), self.scores(), reason, termination=Termination.LAST_STONE_PLACED)
        places = self.places()
        if len(places) < len(self._players):
            return None
        return Outcome(
            (winner,), self.scores(), reason, places=tuple(places), termination=Termination.LAST_STONE_PLACED
        )

    def scores(self) -> dict[str, int]:
        """Per player: their stones on the board (all their colours)."""
        per_seat = self.options.stones_per_colour
        totals = dict.fromkeys(self._players, 0)
        for seat, left in enumerate(self.supply):
            totals[self.owners[seat]] += per_seat - left
        return totals

    def recount_scores(self) -> dict[str, int]:
        totals = dict.fromkeys(self._players, 0)
        for s in self.board:
            if s != EMPTY:
                totals[self.owners[s]] += 1
        return totals

    # ----- notation ------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # ----- positions -------------------------------------------------------------------------
    def to_position(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "cells": {NAMES[i]: (self.seats[s] if s != EMPTY else None) for i, s in enumerate(self.board)},
            "to_move": self.seat_to_move,
            "roll": self.roll.dice_text() if self.roll else None,
            "in_hand": self.in_hand(),
            "finished": [self.seats[seat] for seat in self.finished],
            "scores": self.on_board(),
            "options": self.options.to_dict(),
        }

    def last_roll(self) -> Roll | None:
        """The pending roll, else the latest roll played (None if none is known)."""
        if self.roll is not None:
            return self.roll
        for move in reversed(self.history):
            if isinstance(move, Roll):
                return move
        return None

    def render(self) -> str:
        targets = set(self.target_pockets())
        lines = ["    " + "".join(f" {c} " for c in COLUMNS).rstrip()]
        for row in range(ROWS, 0, -1):
            cells = []
            for column in COLUMNS:
                i = _index(column, row)
                s = self.board[i]
                cells.append(f" {LETTER[self.seats[s]] if s != EMPTY else '+' if i in targets else '.'} ")
            lines.append(f"r{row}  " + "".join(cells).rstrip())
        lines.append(
            "in hand: "
            + ", ".join(
                f"{colour} ({LETTER[colour]}, {owner}) {left}"
                for colour, owner, left in zip(self.seats, self.owners, self.supply)
            )
        )
        roll = self.last_roll()
        status = f"last roll: {roll.dice_text()}" if roll else "last roll: none"
        outcome = self.outcome()
        if outcome is not None:
            status += f"   game over: {outcome.describe()}"
        else:
            status += f"   {self.seat_to_move} ({self.owners[self.seat]}): {self._duty()}"
        lines.append(status)
        if targets:
            lines.append("+ marks the pockets the roll allows")
        return "\n".join(lines)

    def _copy_containers(self, clone: "SageStonesState") -> None:
        clone.board = list(self.board)
        clone.supply = list(self.supply)
        clone.finished = list(self.finished)


def parse_move(text: str) -> Move:
    """Read `roll 1-1-3`, a pocket `c5r3`, `pass` or `wipe`."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"{shown(text)}: a move is written as text", rule="notation")
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "roll":
        return Roll(parse_dice(words[1], text))
    if len(words) == 1:
        word = words[0]
        if word in INDEX_OF:
            return PLACES[INDEX_OF[word]]
        if word == "pass":
            return PASS
        if word == "wipe":
            return WIPE
    raise IllegalMoveError(
        f"{shown(text)}: write a pocket (c5r3: column 3-9, row 1-9), roll a-b-c, pass or wipe", rule="notation"
    )


def parse_dice(word: str, text: str = "") -> tuple[int, int, int]:
    parts = word.split("-")
    if len(parts) != 3 or not all(p in ("1", "2", "3") for p in parts):
        raise IllegalMoveError(
            f"{shown(text or word)}: a roll is three dice with faces 1 to 3, e.g. roll 1-1-3", rule="notation"
        )
    a, b, c = sorted(int(p) for p in parts)
    return a, b, c


class SageStones(Game[SageStonesOptions]):
    id = "sage-stones"
    title = "Sage Stones"
    Options = SageStonesOptions
    palette = PALETTE
    rules_summary = (
        "Roll three dice with faces 1-3; the sum (3-9) is the column where you place a stone of your "
        "colour, in any empty pocket. 1-2-3 loses the turn; a triple lets you roll again. A full column "
        "sends the stone to column 6 (no extra roll); if column 6 is full too, the board is wiped. "
        "Stones of other colours lined up between the stone you place and another of your colour, in "
        "any of the 8 directions, are taken back by their owners; lines wrap from row 9 to row 1, never "
        "across columns 3 and 9. The first colour to place all its stones wins for its player. "
        "Two players play two colours each by default."
    )

    def locations(self) -> tuple[str, ...]:
        return NAMES

    def geometry(self) -> Geometry:
        """7 columns by 9 rows of pockets (c6r5 at the origin), the numbered edge below row 1."""
        return GEOMETRY

    def new_state(
        self, options: Mapping[str, Any] | RuleOptions | None = None, seed: int | None = 0
    ) -> SageStonesState:
        return SageStonesState(self, self.options(options), seed)

    def _read(self, position: Mapping[str, Any]) -> tuple[dict[str, str | None], SageStonesOptions, list[str]]:
        """The cells and the options with the seats the position implies, plus what was assumed."""
        self.check_game_id(position)
        cells = require_cells(dict(position), NAMES, PALETTE)
        raw = self.position_options(position)
        options = self.options(raw)
        assumed: list[str] = []
        present = []
        for colour in list(cells.values()) + [position.get("to_move")]:
            if colour is not None and colour not in present:
                present.append(colour)
        if position.get("to_move") is not None and position["to_move"] not in PALETTE:
            raise PositionError(f"to_move must be a seat colour, not {shown(position['to_move'])}")
        if not str(raw.get("colours", "")).strip():
            options, note = _infer_seats(options, present, explicit_players="players" in raw)
            if note:
                assumed.append(note)
        strangers = [c for c in present if c not in options.seat_colours]
        if strangers:
            raise PositionError(
                f"the position shows {strangers[0]}, which is not a seat colour here ({', '.join(options.seat_colours)})"
            )
        counts = {c: 0 for c in options.seat_colours}
        for colour in cells.values():
            if colour is not None:
                counts[colour] += 1
        over = [c for c, n in counts.items() if n > options.stones_per_colour]
        if over:
            raise UnreachablePositionError(
                f"{over[0]} has {counts[over[0]]} stones on the board, "
                f"more than the {options.stones_per_colour} per colour",
                rule="stones per colour",
            )
        return cells, options, assumed

    def from_position(self, position: Mapping[str, Any], seed: int | None = 0) -> SageStonesState:
        cells, options, assumed = self._read(position)
        state = self.new_state(options, seed)
        state.assumed = assumed
        seat_of = {c: i for i, c in enumerate(state.seats)}
        for name, colour in cells.items():
            if colour is not None:
                state.board[INDEX_OF[name]] = seat_of[colour]
                state.supply[seat_of[colour]] -= 1
        in_hand = position.get("in_hand")
        if in_hand is None:
            state.assumed.append("in_hand not given: each colour holds stones_per_colour less its stones on the board")
        elif in_hand != state.in_hand():
            raise UnreachablePositionError(
                f"in_hand {shown(in_hand)} does not match the board: each colour holds "
                f"{options.stones_per_colour} less its stones on the board ({state.in_hand()})",
                rule="stones per colour",
            )
        state.finished = _read_finished(position.get("finished"), state)
        to_move = position.get("to_move")
        if to_move is None:
            state.seat = state._seat_from(0)
            state.assumed.append(f"to_move not given: {state.seat_to_move}, the first seat still playing, rolls")
        else:
            state.seat = seat_of[to_move]
            if state._has_finished(state.seat) and not state.is_over():
                raise UnreachablePositionError(
                    f"{to_move} cannot be to move: {state.owners[state.seat]} has finished, so its turns are skipped",
                    rule="finished",
                )
        roll = position.get("roll")
        if roll is not None:
            if (
                isinstance(roll, list)
                and len(roll) == 3
                and all(isinstance(d, int) and not isinstance(d, bool) for d in roll)
            ):
                roll = "-".join(map(str, roll))
            if not isinstance(roll, str):
                raise PositionError(f"roll must look like '1-1-3', not {shown(roll)}")
            try:
                dice = parse_dice(roll)
            except IllegalMoveError as exc:
                raise PositionError(str(exc)) from None
            state._set_roll(Roll(dice))
        scores = position.get("scores")
        if scores is not None and scores != state.on_board():
            state.assumed.append("scores given differ from the board: recounted as the stones on the board")
        state.start_position = state.to_position()
        return state

    def score_position(self, position: Mapping[str, Any]) -> dict[str, Any]:
        """Stones per colour, who is closest to finishing, and the places decided so far."""
        state = self.from_position(position)
        stones: dict[str, list[str]] = {c: [] for c in state.seats}
        for name, seat in zip(NAMES, state.board):
            if seat != EMPTY:
                stones[state.seats[seat]].append(name)
        left = state.in_hand()
        fewest = min(left.values())
        return {
            "game": self.id,
            "scores": {c: len(v) for c, v in stones.items()},
            "items": [{"side": c, "cells": v} for c, v in stones.items() if v],
            "stones_left": left,
            "fewest_left": [c for c, n in left.items() if n == fewest],
            "owners": dict(zip(state.seats, state.owners)),
            "places": state.places(),
        }


def _read_finished(data: Any, state: SageStonesState) -> list[int]:
    """The seats that have placed their last stone, in order: from `finished`, else from the supplies."""
    family = state.options.play_for_places
    emptied = [seat for seat, left in enumerate(state.supply) if left == 0]
    if data is None:
        seats = emptied
        if seats:
            state.assumed.append(
                f"finished not given: {', '.join(state.seats[s] for s in seats)} placed all "
                "its stones" + (", in seat order" if len(seats) > 1 else "")
            )
    else:
        if (
            not isinstance(data, list)
            or not all(isinstance(c, str) and c in state.seats for c in data)
            or len(set(data)) != len(data)
        ):
            raise PositionError(
                f"finished must list seat colours, each once, in the order they finished, not {shown(data)}"
            )
        seats = [state.seats.index(c) for c in data]
    names = " and ".join(state.seats[s] for s in seats)
    if len(seats) > 1 and not family:
        raise UnreachablePositionError(
            f"{names} have all placed every stone, but the game ends when the first one does"
            " (unless it plays on for places: option play_for_places)",
            rule="last stone",
        )
    owners = [state.owners[s] for s in seats]
    if len(set(owners)) != len(owners):
        raise UnreachablePositionError(f"{names} belong to one player, who finishes once", rule="finished")
    if not family and seats and state.supply[seats[0]]:
        raise UnreachablePositionError(
            f"{names} finished yet holds stones: the game ends as its last stone is placed", rule="last stone"
        )
    unlisted = [s for s in emptied if state.owners[s] not in owners]
    if unlisted:
        raise UnreachablePositionError(
            f"{state.seats[unlisted[0]]} has placed all its stones, so it has finished", rule="last stone"
        )
    return seats


def _infer_seats(
    options: SageStonesOptions, present: list[str], explicit_players: bool
) -> tuple[SageStonesOptions, str]:
    """Seat colours for a position whose options do not name them.

    The default colours are kept where they fit; each colour on the board that
    is not a default one takes the seat of the first default colour absent from
    the board. With more colours than seats and no `players` option, there is
    one player per colour.
    """
    notes = []
    if len(present) > options.seat_count:
        if explicit_players or len(present) > 6:
            raise PositionError(
                f"the position shows {len(present)} colours ({', '.join(present)}) but the game has "
                f"{options.seat_count} seats"
            )
        options = options.replace(players=len(present))
        notes.append(f"players not given: {len(present)} colours on the board, one player each")
    seats = list(DEFAULT_COLOURS[: options.seat_count])
    if all(c in seats for c in present):
        return options, "; ".join(notes)
    free = [i for i, c in enumerate(seats) if c not in present]
    for colour in present:
        if colour not in seats:
            seats[free.pop(0)] = colour
    options = options.replace(colours=",".join(seats))
    notes.append(
        "seats not given: assumed "
        + ", ".join(f"{c} ({p})" for c, p in zip(seats, options.seat_owners))
        + " in clockwise order"
    )
    return options, "; ".join(notes)


GAME = SageStones()
