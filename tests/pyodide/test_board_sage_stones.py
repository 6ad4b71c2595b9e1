"""The sage-stones board without a browser (CPython and Pyodide): dice and announcements, the rolled
column's targets, forced pass and wipe, captures marked, the turn log, and a whole game through it."""

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
from boards.sage_stones import SageStonesBoard, recent_turns  # noqa: E402
from engine import IllegalMoveError, get_game  # noqa: E402
from engine.games.sage_stones import NAMES  # noqa: E402
from ui.session import Session  # noqa: E402

GAME = get_game("sage-stones")


def position(cells: dict[str, str], to_move: str, roll: str | None, **options: object) -> dict:
    return {
        "game": "sage-stones",
        "cells": {**dict.fromkeys(NAMES), **cells},
        "to_move": to_move,
        "roll": roll,
        "options": options,
    }


def tray(markup: str) -> str:
    """The words in the dice tray (everything drawn before the board itself)."""
    return " ".join(re.findall(r">([^<>]+)</text>", markup.split('class="pine"')[0]))


def legal(markup: str) -> list[str]:
    return re.findall(r'<g class="pocket legal[^"]*" data-target="(c\dr\d)"', markup)


def test_the_rolled_column_glows_and_its_empty_pockets_are_the_targets() -> None:
    state = GAME.from_position(position({"c5r3": "blue"}, "red", "1-1-3"))
    session = Session(state)
    assert isinstance(board_for(GAME), SageStonesBoard)
    drawing = session.render_board()
    assert legal(drawing.markup) == [f"c5r{r}" for r in range(1, 10) if r != 3]
    assert next(iter(drawing.targets)) == "c5r1"  # the keyboard cursor starts in the column
    assert len(drawing.targets) == 63
    assert 'class="num rolled" aria-hidden="true">5<' in drawing.markup and 'data-face="3"' in drawing.markup
    assert "rolled 5" in tray(drawing.markup) and "place in column 5" in tray(drawing.markup)
    panel = session.board.panel(session.state, session.ui, True)
    assert "<strong>p1</strong> plays" in panel and ">red</strong>" in panel
    with pytest.raises(IllegalMoveError, match="places in column 5"):
        session.click("c4r1")
    assert session.click("c5r9") == "c5r9"


def test_a_lost_turn_is_one_button_on_the_board_and_in_the_panel() -> None:
    session = Session(GAME.from_position(position({}, "red", "1-2-3")))
    drawing = session.render_board()
    assert list(drawing.targets)[0] == "pass" and legal(drawing.markup) == []
    assert "1-2-3: turn lost" in tray(drawing.markup)
    assert 'data-target="pass"' in session.board.panel(session.state, session.ui, True)
    assert session.board.key(session.state, "p", session.ui) == "pass"
    assert session.board.key(session.state, "w", session.ui) is False
    with pytest.raises(IllegalMoveError, match="loses the turn"):
        session.click("c6r1")
    assert session.click("pass") == "pass"
    assert "turn lost" in session.board.panel(session.state, session.ui, True)


def test_a_full_column_sends_the_stone_to_column_6() -> None:
    full = {f"c8r{r}": ("red" if r % 2 else "green") for r in range(1, 10)}
    session = Session(GAME.from_position(position(full, "blue", "2-3-3")))
    markup = session.render_board().markup
    assert "column 8 full: column 6" in tray(markup)
    assert 'class="num full" aria-hidden="true">8<' in markup and 'class="num rolled" aria-hidden="true">6<' in markup
    assert set(legal(markup)) == {f"c6r{r}" for r in range(1, 10)}


def test_a_wipe_and_the_turn_log_leave_the_game_intact() -> None:
    cells = {f"c6r{r}": "red" for r in range(1, 10)}
    cells.update({f"c7r{r}": "green" for r in range(1, 9)})
    state = GAME.from_position(position(cells, "blue", "2-2-3"))
    session = Session(state)
    state.push("c7r9")  # the last pocket of column 7; then green rolls
    state.push("roll 2-2-3")  # column 7 full, column 6 full: the wipe
    drawing = session.render_board()
    assert list(drawing.targets)[0] == "wipe"
    assert "6 full too" in tray(drawing.markup)
    assert 'data-target="wipe"' in session.board.panel(session.state, session.ui, True)
    assert session.board.key(session.state, "W", session.ui) == "wipe"
    full_board = list(state.board)
    session.click("wipe")
    assert all(s == -1 for s in state.board)
    turns = recent_turns(state)
    assert "wiped" in turns[0]["note"] and turns[0]["seat"] == "green"
    assert turns[1]["move"] == "c7r9" and turns[1]["seat"] == "blue"
    assert str(state.pop()).startswith("roll")  # the session rolled for the next seat
    assert str(state.pop()) == "wipe"  # undo the wipe: the board comes back exactly
    assert state.board == full_board
    state.pop()
    state.pop()
    assert state.board.count(-1) == 63 - 17


def test_captures_are_marked_and_told() -> None:
    session = Session(GAME.from_position(position({"c5r1": "red", "c5r2": "blue", "c5r4": "yellow"}, "red", "1-1-3")))
    session.click("c5r3")  # sandwiches blue on c5r2 between red c5r1 and red c5r3
    drawing = session.render_board()
    assert 'data-captured="c5r2"' in drawing.markup
    assert 'class="last-ring"' in drawing.markup
    assert "a blue stone was just captured here" in drawing.markup
    assert "took 1 blue" in session.board.panel(session.state, session.ui, True)


def test_a_triple_says_roll_again() -> None:
    session = Session(GAME.from_position(position({}, "red", "1-1-1")))
    assert "triple: roll again after" in tray(session.render_board().markup)
    session.state.push("c3r5")
    session.state.push("roll 2-2-3")
    assert session.state.seat_to_move == "red"
    markup = session.render_board().markup
    assert "triple: roll again!" in tray(markup)
    assert "triple: rolled again" in session.board.panel(session.state, session.ui, True)


def click_to_the_end(session: Session, seed: int) -> None:
    """The people's seats click a random target the board offers; the computer seats play."""
    rng = random.Random(seed)
    while not session.state.is_over():
        if session.ai_to_move():
            session.play_ai()
            continue
        drawing = session.render_board()
        targets = legal(drawing.markup) or [t for t in drawing.targets if t in ("pass", "wipe")]
        assert targets
        session.click(rng.choice(targets))


def test_a_whole_game_of_clicks_reaches_the_end() -> None:
    session = Session.new("sage-stones", {"stones_per_colour": 4}, 56, {"p2": "random"})
    click_to_the_end(session, 56)
    state = session.state
    markup = session.render_board().markup
    assert "data-target" not in markup
    winner = state.seats[state.winner]
    assert f"{winner.capitalize()}: last stone in!" in tray(markup)
    panel = session.board.panel(state, session.ui, False)
    assert "placed its last stone" in panel
    left = GAME.score_position(state.to_position())["stones_left"]
    for colour, n in left.items():
        assert f'data-left="{colour}">{n}<' in panel


def test_the_family_variant_plays_on_to_the_last_place_and_the_panel_ranks_the_players() -> None:
    options = {"players": 3, "stones_per_colour": 3, "play_for_places": True}
    session = Session.new("sage-stones", options, 7, {"p2": "medium", "p3": "random"})
    click_to_the_end(session, 7)
    places = session.state.outcome().places
    assert sorted(places) == ["p1", "p2", "p3"] and len(session.state.finished) == 2
    panel = session.board.panel(session.state, session.ui, False)
    assert "Places: " + ", ".join(f"{rank}. {p}" for rank, p in enumerate(places, start=1)) in panel
