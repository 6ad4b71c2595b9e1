"""Properties every game must keep over random legal games (hypothesis).

Undo restores a state exactly, records round-trip and replay, scores kept
incrementally equal a recount from scratch, every legal move's notation parses
back to the same move, and positions survive a JSON round trip.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine import GAME_IDS, Termination, get_game, load_record, save_record
from engine.cli import random_game
from engine.core import TIME_FORFEIT

# Option sets exercised per game (the defaults plus the variants most likely to break things).
VARIANTS: dict[str, list[dict]] = {
    "three-stones": [{}, {"mode": "pure-skill"}, {"first_player": "black", "handicap_black": 3}],
    "morris": [{}, {"flying": True, "mill_protection": True}, {"repetition_draw": False, "no_removal_draw": 0}],
    "sage-stones": [
        {},
        {"players": 3, "play_for_places": True},
        {"players": 2, "two_colours": False, "wrap_diagonals": False},
    ],
    "rings": [{}, {"players": 3, "random_first": True}, {"players": 4}],
    "triple-domino": [{}, {"players": 1}, {"players": 3}],
}
# Plies per example: enough to reach mid-game (or the end) while keeping the suite fast.
PLIES = {"three-stones": 150, "morris": 160, "sage-stones": 200, "rings": 45, "triple-domino": 90}


def _three_stones_conserved(state) -> bool:
    on_board = sum(1 for colour in state.board if colour)
    return on_board + state.stones_left == 72


def _morris_conserved(state) -> bool:
    from engine.games.morris import Move

    taken = {"white": 0, "black": 0}
    for index, move in enumerate(state.history):
        if isinstance(move, Move) and move.take is not None:
            taken["black" if index % 2 == 0 else "white"] += 1  # white moves on even plies
    return all(state.pieces_on_board(p) + state.pieces_in_hand(p) + taken[p] == 9 for p in ("white", "black"))


def _sage_conserved(state) -> bool:
    on_board, in_hand = state.on_board(), state.in_hand()
    return all(on_board.get(c, 0) + in_hand[c] == state.options.stones_per_colour for c in state.seats)


def _rings_conserved(state) -> bool:
    from engine.games.rings import Turn

    placed = sum(1 for turn in state.history if isinstance(turn, Turn) and turn.point is not None)
    return sum(1 for owner in state.board if owner >= 0) == placed


def _domino_conserved(state) -> bool:
    return sum(len(h) for h in state.hands) + len(state.pool) + len(state.layout) == 56


# Stones (or tiles) are neither made nor lost: board + supply (+ captured) is constant.
CONSERVED = {
    "three-stones": _three_stones_conserved,
    "morris": _morris_conserved,
    "sage-stones": _sage_conserved,
    "rings": _rings_conserved,
    "triple-domino": _domino_conserved,
}

RANDOM_GAMES = 100  # per game in every run of the suite; a profile may ask for more (see conftest.py)
# No explain phase: it traces every line and makes a failure take minutes to report.
SETTINGS = settings(
    max_examples=max(RANDOM_GAMES, settings.default.max_examples),
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


GAME_SEEDS = st.integers(0, 2**31)
VARIANT_INDEXES = st.integers(0, 2)  # into VARIANTS[game_id]


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=GAME_SEEDS, variant=VARIANT_INDEXES, data=st.data())
def test_random_game_keeps_every_invariant(game_id: str, seed: int, variant: int, data: st.DataObject) -> None:
    game = get_game(game_id)
    state = game.new_state(VARIANTS[game_id][variant], seed=seed)
    snapshots = [state.snapshot()]
    for _ in range(PLIES[game_id]):
        if state.is_over():
            assert list(state.legal_moves()) == []
            break
        assert state.scores() == state.recount_scores()
        assert CONSERVED[game_id](state), "stones are conserved"
        if state.is_chance_node():
            move = state.sample_chance()
        else:
            moves = list(state.legal_moves())
            assert moves, "a game that is not over must have a legal move"
            assert len(set(moves)) == len(moves), "legal moves are listed once each"
            for m in moves[:: max(1, len(moves) // 8)]:
                assert state.parse_move(str(m)) == m
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        before = snapshots[-1]  # also checks that the questions above changed nothing
        state.push(move)
        state.pop()
        assert state.snapshot() == before, f"undo of {move} did not restore the state"
        state.push(str(move))
        snapshots.append(state.snapshot())
    assert state.scores() == state.recount_scores()

    record = json.loads(json.dumps(save_record(state)))
    reloaded = load_record(record)
    assert reloaded.snapshot() == state.snapshot()
    assert save_record(reloaded) == record
    ply = data.draw(st.integers(0, state.ply), label="replay ply")
    assert load_record(record, upto=ply).snapshot() == snapshots[ply]

    position = json.loads(json.dumps(state.to_position()))
    assert game.from_position(position).to_position() == position
    # Copies are independent, undo tokens included: rewind a copy and play on it,
    # then the original must still undo through exactly the states it passed.
    branch = state.copy()
    assert branch.snapshot() == state.snapshot()
    for _ in range(data.draw(st.integers(0, branch.ply), label="rewind")):
        branch.pop()
    for _ in range(12):
        if branch.is_over():
            break
        branch.push(branch.sample_chance() if branch.is_chance_node() else next(iter(branch.legal_moves())))
    for ply in range(state.ply, 0, -1):
        assert state.snapshot() == snapshots[ply], f"undo to ply {ply} was disturbed by a copy"
        state.pop()
    assert state.snapshot() == snapshots[0]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_scoring_a_position_matches_the_live_state(game_id: str) -> None:
    """`score_position` of a live state's position gives that state's scores, all through a game."""
    game = get_game(game_id)
    for variant in VARIANTS[game_id]:
        state = game.new_state(variant, seed=7)
        rng = random.Random(7)
        while state.ply < PLIES[game_id] * 2:
            if state.ply % 10 == 0 or state.is_over():
                report = game.score_position(state.to_position())
                assert report["game"] == game_id and isinstance(report["items"], list)
                assert json.loads(json.dumps(report)) == report
                assert scores_per_player(report, state.players) == state.scores(), f"{variant} at ply {state.ply}"
            if state.is_over():
                break
            state.push(state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves())))


def scores_per_player(report: dict, players: tuple[str, ...]) -> dict[str, int]:
    """A score report's scores per player: sage-stones scores each colour, and a player owns one or more."""
    if "owners" not in report:
        return report["scores"]
    totals = dict.fromkeys(players, 0)
    for colour, points in report["scores"].items():
        totals[report["owners"][colour]] += points
    return totals


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [2, 22351])
def test_a_rewound_copy_never_disturbs_the_original(game_id: str, seed: int) -> None:
    """Undo tokens are shared by copies: restoring one must never hand over a shared container."""
    rng = random.Random(seed)
    for variant in VARIANTS[game_id]:
        state = get_game(game_id).new_state(variant, seed=seed)
        snapshots = [state.snapshot()]
        for _ in range(PLIES[game_id] * 2):
            if state.is_over():
                break
            state.push_unchecked(
                state.sample_chance() if state.is_chance_node() else rng.choice(list(state.legal_moves()))
            )
            snapshots.append(state.snapshot())
        for back in (state.ply, state.ply // 2, 1):
            branch = state.copy()
            for _ in range(back):
                branch.pop()
            for _ in range(12):
                if branch.is_over():
                    break
                branch.push_unchecked(
                    branch.sample_chance() if branch.is_chance_node() else rng.choice(list(branch.legal_moves()))
                )
        for ply in range(state.ply, -1, -1):
            assert state.snapshot() == snapshots[ply], f"{game_id} {variant}: undo to ply {ply} disturbed by a copy"
            if ply:
                state.pop()


# Why each game may end (besides a fallen flag, which any game with a clock allows).
TERMINATIONS: dict[str, set[Termination]] = {
    "three-stones": {Termination.BOARD_FILLED},
    "morris": {
        Termination.DOWN_TO_TWO,
        Termination.BLOCKED,
        Termination.THREEFOLD_REPETITION,
        Termination.NO_REMOVAL_LIMIT,
    },
    "sage-stones": {Termination.LAST_STONE_PLACED},
    "rings": {Termination.ALL_PASSED},
    "triple-domino": {Termination.TARGET_SCORE, Termination.SOLITAIRE_OVER},
}
PLY_CAP = (
    3000  # a random game still going after this many plies loses on time (a morris without draw rules may not end)
)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(SETTINGS, max_examples=8)
@given(seed=st.integers(0, 2**31), variant=st.integers(0, 2), flag_at=st.none() | st.integers(0, 60))
def test_every_finished_game_says_why_it_ended(game_id: str, seed: int, variant: int, flag_at: int | None) -> None:
    """Every way a game finishes gives an outcome with a `Termination` of that game (or a fallen flag)."""
    state = get_game(game_id).new_state(VARIANTS[game_id][variant], seed=seed)
    state.start_clock({player: 600.0 for player in state.players})
    random_game(state, random.Random(seed), max_plies=PLY_CAP if flag_at is None else flag_at)
    if not state.is_over():
        state.push("time")
    outcome = state.outcome()
    assert outcome is not None and isinstance(outcome.termination, Termination)
    assert outcome.termination in TERMINATIONS[game_id] | {Termination.TIME_FORFEIT}
    assert (outcome.termination is Termination.TIME_FORFEIT) == (state.history[-1] is TIME_FORFEIT)
    assert outcome.to_dict()["termination"] == outcome.termination.value
    if outcome.termination is not Termination.TIME_FORFEIT:  # a record keeps no clock: only the rules' ends replay
        assert load_record(json.loads(json.dumps(save_record(state)))).outcome() == outcome
