"""`python -m engine`: play in the terminal, score a position, count moves, self-play.

Every refusal (an unknown game, a bad option, a corrupt file, an illegal move in a
script) is printed as one line on stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from .ai import DEFAULT_BUDGET, LEVELS, Budget, get_player, suggest
from .core import CHANCE, IllegalMoveError, State, StonesError, dumps_record, load_record, parse_json, perft
from .games import GAME_IDS, get_game, score_position

EXIT_ERROR = 2


class CliError(Exception):
    """A problem with the command line or its files, printed as one line."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (StonesError, CliError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", choices=GAME_IDS)
    play.add_argument(
        "--vs",
        choices=["human", *LEVELS],
        default="human",
        help="who plays the other seats: people at this keyboard (default) or the computer at a level",
    )
    play.add_argument(
        "--think",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="the computer's time per move, and a hint's (default 1)",
    )
    play.add_argument("--seed", type=int, default=None, help="seed of the dice and draws (default: random)")
    play.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--load", type=Path, help="continue a saved game record")
    play.set_defaults(run=_run_play)

    score = sub.add_parser("score", help="print the score JSON of a position file")
    score.add_argument("position", type=Path)
    score.set_defaults(run=_run_score)

    count = sub.add_parser("perft", help="count the move sequences of a given length")
    count.add_argument("game", choices=GAME_IDS)
    count.add_argument("depth", type=int)
    count.add_argument("--position", type=Path, help="start from this position JSON")
    count.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    count.add_argument("--seed", type=int, default=0)
    count.set_defaults(run=_run_perft)

    selfplay = sub.add_parser("selfplay", help="play N games of random moves and summarise them")
    selfplay.add_argument("game", choices=GAME_IDS)
    selfplay.add_argument("n", type=int)
    selfplay.add_argument("--seed", type=int, default=0)
    selfplay.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    selfplay.set_defaults(run=_run_selfplay)

    games = sub.add_parser("games", help="list the games and their rule options")
    games.set_defaults(run=_run_games)
    return parser


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not a text file") from None
    try:
        return parse_json(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} is not valid JSON ({exc})") from None
    except ValueError as exc:
        raise CliError(f"{path} cannot be read: {exc}") from None


def _new_state(game_id: str, option_words: list[str], seed: int | None) -> State:
    game = get_game(game_id)
    return game.new_state(game.Options.parse_assignments(option_words), seed=seed)


# ----- score / perft / selfplay ---------------------------------------------------------
def _run_score(args: argparse.Namespace) -> int:
    print(json.dumps(score_position(_read_json(args.position)), indent=1))
    return 0


def _run_perft(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CliError("depth must be 0 or more")
    game = get_game(args.game)
    if args.position:
        position = _read_json(args.position)
        if isinstance(position, dict) and args.option:
            merged = game.position_options(position)
            merged.update(game.Options.parse_assignments(args.option).to_dict())
            position = {**position, "options": merged}
        state = game.from_position(position, seed=args.seed)
        for note in state.assumed:
            print(f"assumed: {note}")
    else:
        state = _new_state(args.game, args.option, args.seed)
    started = time.perf_counter()
    count = perft(state, args.depth)
    print(f"{args.game} depth {args.depth}: {time.perf_counter() - started:.2f} s")
    print(count)
    return 0


def random_game(state: State, rng: random.Random, max_plies: int = 100_000) -> State:
    """Play uniformly random legal moves (chance from the state's seed) to the end."""
    while not state.is_over() and state.ply < max_plies:
        if state.is_chance_node():
            state.push_unchecked(state.sample_chance())
        else:
            state.push_unchecked(rng.choice(list(state.legal_moves())))
    return state


def _run_selfplay(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise CliError("play at least one game")
    rng = random.Random(args.seed)
    wins: dict[str, int] = {}
    total_moves = 0
    started = time.perf_counter()
    for index in range(args.n):
        state = _new_state(args.game, args.option, seed=args.seed * 100_003 + index)
        random_game(state, rng)
        outcome = state.outcome()
        decisions = sum(1 for _ in _player_moves(state))
        total_moves += decisions
        label = outcome.describe() if outcome else "unfinished"
        key = "draw" if outcome is None or outcome.is_draw else str(outcome.winner)
        wins[key] = wins.get(key, 0) + 1
        print(f"game {index + 1}: {label}; {decisions} moves")
    elapsed = time.perf_counter() - started
    summary = ", ".join(f"{k} {v}" for k, v in sorted(wins.items()))
    print(f"{args.n} games: {summary}; average length {total_moves / args.n:.1f} moves; {elapsed:.2f} s")
    return 0


def _player_moves(state: State):
    """The moves of a finished state made by players (chance moves left out)."""
    replay = state.copy()
    moves = []
    while replay.ply:
        moves.append(replay.peek())
        replay.pop()
        if replay.current_player != CHANCE:
            yield moves[-1]


def _run_games(args: argparse.Namespace) -> int:
    for game_id in GAME_IDS:
        try:
            game = get_game(game_id)
        except ImportError as exc:
            print(f"{game_id}: not available ({exc})")
            continue
        print(f"{game_id} — {game.title}")
        for opt in game.Options.schema():
            allowed = f" ({'/'.join(map(str, opt['choices']))})" if opt["choices"] else ""
            print(f"  {opt['name']}={opt['default']}{allowed}: {opt['help']}")
    return 0


# ----- the terminal game -------------------------------------------------------------------
HELP = """Type a move in the game's notation, or one of:
  moves      list the legal moves        undo     take back your last move
  hint       the computer's advice       save FILE  save the game record
  help       this text                   quit     leave the game"""


def _run_play(args: argparse.Namespace) -> int:
    if args.load:
        if args.option or args.seed is not None:
            raise CliError("--load goes on with the recorded game: its options and seed come from the record")
        record = _read_json(args.load)
        recorded = record.get("game") if isinstance(record, dict) else None
        if recorded in GAME_IDS and recorded != args.game:
            raise CliError(f"{args.load} is a record of {recorded}, not {args.game} (play {recorded} --load it)")
        state = load_record(record)
    else:
        seed = args.seed if args.seed is not None else random.randrange(1_000_000)
        state = _new_state(args.game, args.option, seed)
    humans = set(state.players) if args.vs == "human" else {state.players[0]}
    level = "random" if args.vs == "human" else args.vs
    TerminalGame(state, humans, rng=random.Random(state.seed), level=level, think=Budget(seconds=args.think)).run()
    return 0


class TerminalGame:
    """A game at the keyboard: people type moves, the computer plays the other seats at `level`."""

    def __init__(
        self,
        state: State,
        humans: set[str],
        rng: random.Random,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        level: str = "random",
        think: Budget = DEFAULT_BUDGET,
    ) -> None:
        self.state = state
        self.humans = humans
        self.rng = rng
        self.think = think
        seed = rng.randrange(1 << 30)
        self.computer = {
            p: get_player(state.game.id, level, seed=seed + i) for i, p in enumerate(state.players) if p not in humans
        }
        self.read = read
        self.out = out or sys.stdout
        self.turn_started = time.monotonic()

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def public_last_move(self) -> str:
        """The last move as the people at the keyboard may see it (a hidden draw stays hidden)."""
        if len(self.humans) == 1:
            return str(self.state.view(next(iter(self.humans))).history[-1])
        return str(self.state.peek())

    def board_for(self, player: str) -> str:
        """The board as `player` may see it (hidden hands stay hidden when one person plays)."""
        if len(self.humans) == 1:
            return self.state.view(player).render()
        return self.state.render()

    def run(self) -> None:
        state = self.state
        self.say(f"{state.game.title}. Type a move in the game's notation; 'help' lists the commands.")
        shown_for: str | None = None
        while (outcome := state.outcome()) is None:
            if state.is_chance_node():
                state.push_unchecked(state.sample_chance())
                self.say(f"  {self.public_last_move()}")
                continue
            player = state.current_player
            if player not in self.humans:
                move = self.computer[player].choose(state.view(player), self.think)
                state.push(move)
                self.say(f"  {player} plays {move}")
                continue
            if shown_for != f"{player}/{state.ply}":
                self.say()
                self.say(self.board_for(player))
                shown_for = f"{player}/{state.ply}"
                self.turn_started = time.monotonic()
            try:
                line = self.read(f"{player}> ").strip()
            except EOFError:
                self.say()
                self.say("Game left unfinished.")
                return
            if not line:
                continue
            if not self.command(line):
                return
        self.say()
        self.say(self.board_for(next(iter(self.humans))))
        self.say(f"Game over: {outcome.describe()}")

    def command(self, line: str) -> bool:
        """Carry out one line typed by a person; False means leave the game."""
        state = self.state
        word, _, rest = line.partition(" ")
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.say(HELP)
        elif word == "moves":
            moves = [str(m) for m in state.legal_moves()]
            self.say(f"{len(moves)} legal moves: " + " ".join(moves[:200]) + (" ..." if len(moves) > 200 else ""))
        elif word == "undo":
            self.undo()
        elif word == "hint":
            self.hint()
        elif word == "save":
            self.save(rest.strip())
        else:
            player = state.current_player
            clock = state.clock
            seconds = time.monotonic() - self.turn_started if clock else None
            try:
                if clock and seconds is not None and seconds > clock.get(player, seconds):
                    state.push("time")
                    self.say(f"{player}'s flag fell: out of time")
                else:
                    state.push(line, seconds=seconds)
            except IllegalMoveError as exc:
                self.say(f"illegal: {exc}")
        return True

    def undo(self) -> None:
        """Take back moves until it is again a person's turn before their last move."""
        state = self.state
        if not any(True for _ in state.history):
            self.say("nothing to undo")
            return
        while state.ply:
            state.pop()
            if state.current_player in self.humans:
                return

    def hint(self) -> None:
        """What the hard player would do here, and how it rates the position."""
        player = self.state.current_player
        advice = suggest(self.state.view(player), "hard", self.think, seed=self.rng.randrange(1 << 30))
        self.say(f"hint: {advice.move} ({advice.text})" if advice.text else f"hint: {advice.move}")

    def save(self, name: str) -> None:
        if not name:
            self.say("say where: save FILE")
            return
        try:
            Path(name).write_text(dumps_record(self.state), encoding="utf-8")
        except OSError as exc:
            self.say(f"cannot save: {exc.strerror or exc}")
            return
        self.say(f"saved to {name}")
