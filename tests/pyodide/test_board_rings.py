"""The rings board without a browser (CPython and Pyodide): the drawing, the turn built click by click."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from boards.rings import RingsBoard  # noqa: E402
from engine import IllegalMoveError, score_position  # noqa: E402
from engine.games.rings import CIRCLE_INDEX, CIRCLE_POINTS, POINT_NAMES  # noqa: E402
from ui.session import Session  # noqa: E402

C0 = [POINT_NAMES[p] for p in CIRCLE_POINTS[CIRCLE_INDEX["0,0"]]]


def convert_ready() -> Session:
    """Three players; black's next stone on circle 0,0 gives black the majority over a white stone."""
    session = Session.new("rings", {"players": 3}, 1, {})
    for point in [C0[0], C0[1], "U3,1", C0[2], "D2,-1", "D-3,2", C0[3], "U2,-1", "U-3,4"]:
        assert session.click(point) == point  # nothing to convert: the click is the whole turn
    return session


def test_the_board_draws_every_circle_and_point_with_labels() -> None:
    session = Session.new("rings", {}, 1, {})
    assert isinstance(session.board, RingsBoard)
    drawing = session.render_board()
    markup = drawing.markup
    assert markup.count('class="groove"') == 91 and markup.count('class="partial"') == 36
    assert len(re.findall(r'<g class="pt[^"]*" data-target="', markup)) == 216
    assert set(POINT_NAMES) <= set(drawing.targets) and "pass" in drawing.targets
    assert 'aria-label="point U0,0: empty, you may place a black stone here, on circles 0,0, 1,0 and 0,1"' in markup


def test_a_conversion_is_offered_previewed_and_committed_as_one_turn() -> None:
    session = convert_ready()
    assert session.click(C0[4]) is None  # a conversion is possible: the turn goes on
    drawing = session.render_board()
    assert {"x0,0", "end", "all", "back"} <= set(drawing.targets)
    assert not any(t in drawing.targets for t in POINT_NAMES)
    assert 'class="centre can" data-target="x0,0"' in drawing.markup
    panel = session.board.panel(session.state, session.ui, True)
    assert 'data-after="black">→ 1' in panel  # the score after the turn, before it is committed
    with pytest.raises(IllegalMoveError, match="majority"):
        session.click("x2,0")  # not black's: the engine's reason
    assert session.click("x0,0") is None
    drawing = session.render_board()
    assert "flip-new" in drawing.markup and "ripple" in drawing.markup  # the white stone turns, animated once
    assert "flip-new" not in session.render_board().markup
    played = session.click("end")
    assert played == f"{C0[4]} x0,0"
    assert session.state.scores()["black"] == 1
    drawing = session.render_board()
    assert 'data-held="0,0" data-holder="black"' in drawing.markup
    assert "flip-new" not in drawing.markup  # its flips were shown while it was built
    assert f'class="pt filled last" data-target="{C0[4]}"' in drawing.markup


def test_take_back_convert_all_and_keys() -> None:
    session = convert_ready()
    board, ui, state = session.board, session.ui, session.state
    assert board.key(state, "e", ui) is False  # nothing placed yet: E is not for now
    assert board.key(state, "p", ui) == "pass"
    session.click(C0[4])
    assert board.key(state, "p", ui) is False
    assert board.key(state, "a", ui) == "all" and board.key(state, "x", ui) == "back"
    session.click("all")
    assert ui["rg_conv"] == ["0,0"]
    session.click("back")
    assert ui["rg_conv"] == []
    session.click("back")  # and the stone itself
    assert "rg_place" not in ui
    session.click(C0[4])
    session.click(C0[5])  # another empty point while nothing is converted: the stone moves there
    assert ui["rg_place"] == C0[5]
    end = board.key(state, "e", ui)
    assert isinstance(end, str) and session.click(end) == C0[5]


def test_a_taken_point_is_refused_by_the_engine() -> None:
    session = Session.new("rings", {}, 1, {})
    session.click("U0,0")
    with pytest.raises(IllegalMoveError, match="taken"):
        session.click("U0,0")


def test_held_circles_and_rings_are_the_score_items() -> None:
    session = Session.new("rings", {}, 1, {})
    ring = [POINT_NAMES[p] for p in CIRCLE_POINTS[CIRCLE_INDEX["2,-1"]]]
    for point in ring:
        session.click(point)
        session.click("pass")
    markup = session.render_board().markup
    items = score_position(session.state.to_position())["items"]
    assert markup.count('class="held ') == len(items) > 0
    assert 'data-ring="2,-1"' in markup
    assert "in a ring (safe)" in markup
    session.click("pass")  # white passed, now black: both passed in turn, the game is over
    assert session.state.is_over()
    drawing = session.render_board()
    assert not drawing.targets and "data-target" not in drawing.markup


def test_a_circle_says_who_holds_it_and_by_how_many() -> None:
    """While a turn converts, a listener hears what each circle holds: "circle 0,0, held by black 4 to 1"
    (the holder's stones to everyone else's), or who has stones on a circle nobody holds."""
    session = convert_ready()
    assert session.click(C0[4]) is None  # black's stone gives black circle 0,0: a conversion is offered
    markup = session.render_board().markup
    labels = dict(re.findall(r'data-target="(x[^"]+)" role="button" tabindex="-1" aria-label="([^"]*)"', markup))
    assert labels["x0,0"].startswith("circle 0,0, held by black 4 to 1, convert it"), labels["x0,0"]
    assert any(", nobody holds it: 1 " in label for label in labels.values())
    assert any(label.endswith(", empty, cannot be converted now") for label in labels.values())
