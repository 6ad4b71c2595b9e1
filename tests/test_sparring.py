"""The sparring players of bench/sparring: legal moves only, within their budget, the public view only.

Fast: node budgets everywhere, and short playouts for the UCT player (a random game of rings is long).
"""

from __future__ import annotations

import itertools
import random

import pytest

from bench.sparring import sparring_player
from bench.sparring.morris_peer import MorrisPeer
from bench.sparring.uct import UCTPlayer
from engine import GAME_IDS, get_game
from engine.ai import Budget
from test_ai import random_position as position
from test_ai import view_of

SHORT_PLAYOUTS = 12


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_uct_plays_only_legal_moves_within_its_node_budget(game_id: str) -> None:
    for seed, plies in ((1, 0), (2, 25)):
        state = position(game_id, seed, plies)
        player = UCTPlayer(seed, playout_plies=SHORT_PLAYOUTS)
        move = player.choose(view_of(state), Budget.of_nodes(40))
        assert state.is_legal(move), f"{game_id}: uct chose illegal {move}"
        assert player.iterations <= 40 and (player.iterations or len(list(state.legal_moves())) == 1)


def test_uct_stops_at_its_deadline() -> None:
    """Seconds, not nodes: a timer that moves 10 ms at each look stops the search near 85% of 0.5 s."""
    ticks = itertools.count()
    player = UCTPlayer(1, playout_plies=SHORT_PLAYOUTS)
    player.choose(view_of(position("morris", 1, 4)), Budget(seconds=0.5, timer=lambda: next(ticks) * 0.01))
    assert next(ticks) * 0.01 < 0.5 + 0.01 * (SHORT_PLAYOUTS // 4 + 2)  # at most one playout past the deadline
    assert player.iterations > 1


@pytest.mark.parametrize("name", ["uct", "peer"])
def test_sparring_players_count_their_seconds_on_the_budget_s_timer(name: str) -> None:
    """A timer that never moves leaves the nodes to end the search, though a wall-clock microsecond would not."""
    view = view_of(position("morris", 2, 12))
    frozen, nodes_only = sparring_player("morris", name, 1), sparring_player("morris", name, 1)
    moves = (
        frozen.choose(view, Budget(seconds=1e-6, nodes=150, timer=lambda: 0.0)),
        nodes_only.choose(view, Budget.of_nodes(150)),
    )
    assert moves[0] == moves[1]
    counted = [getattr(player, "iterations", None) or getattr(player, "nodes", None) for player in (frozen, nodes_only)]
    assert counted[0] == counted[1] == 150


@pytest.mark.parametrize("game_id", ["three-stones", "sage-stones", "rings"])
def test_uct_never_reads_the_seeded_chance(game_id: str) -> None:
    """The same position under another game seed (other dice and draws to come) gets the same move:
    the player samples chance with its own generator."""
    options = {"random_first": False} if game_id == "rings" else {}
    state = position(game_id, 4, 16, options)
    twin = get_game(game_id).new_state(options, seed=999)
    for move in state.history:
        twin.push_unchecked(move)
    first = UCTPlayer(3, playout_plies=SHORT_PLAYOUTS).choose(view_of(state), Budget.of_nodes(60))
    second = UCTPlayer(3, playout_plies=SHORT_PLAYOUTS).choose(view_of(twin), Budget.of_nodes(60))
    assert first == second


def test_uct_searches_deals_of_the_hidden_tiles_not_the_real_ones() -> None:
    """In triple-domino the player gets the view (own hand, public layout) and deals the rest itself."""
    state = next(
        s
        for s in (position("triple-domino", 5, plies) for plies in range(4, 40))
        if len(list(view_of(s).legal_moves())) > 1
    )
    view = view_of(state)
    dealt = []
    original = view.determinize

    def spy(rng):
        full = original(rng)
        dealt.append(full)
        return full

    view.determinize = spy
    move = UCTPlayer(2, playout_plies=SHORT_PLAYOUTS).choose(view, Budget.of_nodes(30))
    assert state.is_legal(move)
    assert len(dealt) >= 30  # a fresh deal for every iteration (the view deals one more to list its moves)
    assert len({str(sorted(full.pool)) for full in dealt}) > 1


def test_the_morris_peer_plays_legal_moves_within_its_node_budget() -> None:
    state = get_game("morris").new_state({"flying": True, "mill_protection": True}, seed=0)
    rng = random.Random(8)
    peer = MorrisPeer(seed=1)
    for ply in range(70):
        if state.is_over():
            break
        if ply % 2:
            move = peer.choose(view_of(state), Budget.of_nodes(400))
            assert 0 < peer.nodes <= 400
        else:
            move = rng.choice(list(state.legal_moves()))
        state.push(move)  # checked: an illegal move raises
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "black"  # the peer beats random moves


def test_the_morris_peer_closes_the_mill_that_wins() -> None:
    """Black is down to three pieces: white's step d7-a7 closes a mill, takes one and wins."""
    game = get_game("morris")
    cells: dict[str, str | None] = {name: None for name in game.locations()}
    cells.update(
        {"a1": "white", "a4": "white", "d7": "white", "d1": "white", "g1": "black", "g4": "black", "f6": "black"}
    )
    state = game.from_position(
        {"game": "morris", "cells": cells, "to_move": "white", "in_hand": {"white": 0, "black": 0}}
    )
    move = MorrisPeer(seed=0).choose(view_of(state), Budget.of_nodes(3000))
    state.push(move)
    outcome = state.outcome()
    assert str(move).startswith("d7-a7x") and outcome is not None and outcome.winner == "white"


def test_sparring_players_are_named_and_the_peer_plays_morris_only() -> None:
    assert isinstance(sparring_player("rings", "uct"), UCTPlayer)
    assert isinstance(sparring_player("morris", "peer"), MorrisPeer)
    with pytest.raises(ValueError, match="morris only"):
        sparring_player("rings", "peer")
    with pytest.raises(ValueError, match="unknown sparring player"):
        sparring_player("morris", "stockfish")
