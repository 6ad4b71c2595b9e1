"""The morris board without a browser (CPython and Pyodide): the click flow that builds a whole turn,
what it highlights and says, and a whole game played through it."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from boards import board_for  # noqa: E402
from boards.morris import MorrisBoard  # noqa: E402
from engine import IllegalMoveError, get_game  # noqa: E402
from engine.games.morris import POINT_NAMES  # noqa: E402
from ui.session import Session  # noqa: E402


def classes_of(markup: str, name: str) -> set[str]:
    found = re.search(rf'<g class="([^"]*)" data-target="{name}"', markup)
    return set(found.group(1).split()) if found else set()


def legal(session: Session) -> set[str]:
    markup = session.render_board().markup
    return set(re.findall(r'<g class="point legal[^"]*" data-target="([a-g][1-7])"', markup))


def test_morris_has_its_drawn_board_with_a_label_on_every_point() -> None:
    session = Session.new("morris", {}, 1, {})
    assert isinstance(board_for(get_game("morris")), MorrisBoard)
    drawing = session.render_board()
    assert set(drawing.targets) == set(POINT_NAMES)
    labels = re.findall(r'data-target="([a-g][1-7])" role="button" tabindex="-1" aria-label="([^"]+)"', drawing.markup)
    assert len(labels) == 24 and all(label.startswith(f"{name}: empty") for name, label in labels)
    assert legal(session) == set(POINT_NAMES)  # the first man goes anywhere
    assert '<span data-in-hand="white">9</span> in hand' in session.board.panel(session.state, session.ui, True)


def test_a_mill_holds_the_move_back_until_a_man_is_chosen() -> None:
    session = Session.new("morris", {}, 1, {})
    for point in ("a1", "b2", "a4", "b4"):
        assert session.click(point) == point
    assert session.click("a7") is None  # closes a1-a4-a7: nothing played yet
    assert session.state.ply == 4
    markup = session.render_board().markup
    assert 'data-stage="remove"' in markup and "removable" in classes_of(markup, "b2")
    assert legal(session) == {"b2", "b4"}
    assert 'class="mill mill-white fresh"' in markup
    assert "Mill!" in session.board.panel(session.state, session.ui, True)
    with pytest.raises(IllegalMoveError, match="own white piece"):
        session.click("a4")
    assert session.click("a7") is None  # the new point again: the placement is taken back
    assert legal(session) == {p for p in POINT_NAMES if p not in ("a1", "b2", "a4", "b4")}
    session.click("a7")
    assert session.click("b4") == "a7xb4"
    markup = session.render_board().markup
    assert 'class="taken"' in markup and 'class="last-ring"' in markup
    assert 'data-lost="black">1<' in session.board.panel(session.state, session.ui, True)


def test_moving_selects_a_man_then_its_destination() -> None:
    state = get_game("morris").from_position(
        {
            "game": "morris",
            "to_move": "white",
            "in_hand": {"white": 0, "black": 0},
            "cells": {
                **dict.fromkeys(POINT_NAMES),
                "a1": "white",
                "d1": "white",
                "g4": "white",
                "b4": "black",
                "d7": "black",
                "f2": "black",
            },
        }
    )
    session = Session(state)
    assert legal(session) == {"a1", "d1", "g4"}  # every white man can move
    with pytest.raises(IllegalMoveError, match="first pick one of your white men"):
        session.click("a4")
    with pytest.raises(IllegalMoveError, match="holds a black man"):
        session.click("b4")
    assert session.click("d1") is None
    assert legal(session) == {"d2", "g1"}
    assert "selected" in classes_of(session.render_board().markup, "d1")
    assert session.board.key(session.state, "c", session.ui)  # C lets go
    assert "selected" not in classes_of(session.render_board().markup, "d1")
    session.click("d1")
    with pytest.raises(IllegalMoveError, match="not next to"):
        session.click("d3")
    assert session.click("g1") == "d1-g1"  # closes no mill: played at once
    markup = session.render_board().markup
    assert 'class="last-path"' in markup and "the last move came from here" in markup


def test_flying_lets_a_man_go_anywhere() -> None:
    state = get_game("morris").from_position(
        {
            "game": "morris",
            "to_move": "white",
            "in_hand": {"white": 0, "black": 0},
            "options": {"flying": True},
            "cells": {
                **dict.fromkeys(POINT_NAMES),
                "a1": "white",
                "d2": "white",
                "g7": "white",
                "b4": "black",
                "d7": "black",
                "f2": "black",
                "c5": "black",
            },
        }
    )
    session = Session(state)
    session.click("a1")
    assert len(legal(session)) == 24 - 7
    assert "any empty point" in session.board.panel(session.state, session.ui, True)
    assert 'data-phase="flying"' in session.board.panel(session.state, session.ui, True)


def test_a_whole_game_of_clicks_reaches_the_end() -> None:
    session = Session.new("morris", {}, 3, {})
    rng = random.Random(3)
    while not session.state.is_over():
        move = rng.choice(list(session.state.legal_moves()))
        clicks = ([] if move.source is None else [POINT_NAMES[move.source]]) + [POINT_NAMES[move.target]]
        if move.take is not None:
            clicks.append(POINT_NAMES[move.take])
        results = [session.click(c) for c in clicks]
        assert results[-1] == str(move) and all(r is None for r in results[:-1])
    markup = session.render_board(interactive=False).markup
    items = get_game("morris").score_position(session.state.to_position())["items"]
    assert markup.count('class="mill ') == len(items)
    assert "data-target" not in markup
    assert "Game over" in session.board.panel(session.state, session.ui, False)
