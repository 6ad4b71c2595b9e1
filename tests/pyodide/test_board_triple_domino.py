"""The triple-domino board without a browser (CPython and Pyodide): hands, lays, hidden tiles, bonuses, view."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from boards.triple_domino import TripleDominoBoard  # noqa: E402
from engine import IllegalMoveError, get_game  # noqa: E402
from engine.games.triple_domino import Lay  # noqa: E402
from ui import pages  # noqa: E402
from ui.session import Session  # noqa: E402


def human_first(seed: int = 3) -> Session:
    """p1 human, p2 the random AI, played on until p1 is to move, can lay, and two tiles are down."""
    session = Session.new("triple-domino", {"players": 2, "target_score": 1}, seed, {"p2": "random"})
    for _ in range(40):
        session.render_board()  # the page draws every position it shows
        state = session.state
        if session.human_to_move() and state.start_tile is not None:
            session.click("U0,0")  # p1 opens the round
        elif session.human_to_move():
            lays = [m for m in state.legal_moves() if isinstance(m, Lay)]
            if lays and len(state.layout_tiles()) >= 2:
                break
            session.play(lays[0] if lays else next(iter(state.legal_moves())))  # lay, else draw or pass
        else:
            session.play_ai()
    assert session.human_to_move() and len(session.state.layout_tiles()) >= 2
    return session


def test_the_opener_lays_the_start_tile_in_the_middle() -> None:
    session = Session.new("triple-domino", {"players": 2}, 3, {})
    assert isinstance(session.board, TripleDominoBoard)
    drawing = session.render_board()
    assert list(drawing.targets) == ["U0,0"]
    opener = session.state.current_player
    start = get_game("triple-domino").new_state({"players": 2}, seed=3)
    start.advance_chance()
    assert session.click("U0,0") == str(next(iter(start.legal_moves())))
    assert session.state.current_player != opener


def test_choose_a_tile_then_a_lit_place() -> None:
    session = human_first()
    board, ui, state = session.board, session.ui, session.state
    assert session.click(next(iter(session.render_board().targets))) is None
    assert "Choose a tile" in board.panel(state, ui, True)
    lays = [m for m in state.legal_moves() if isinstance(m, Lay)]
    assert lays
    tile = str(lays[0]).split()[1]
    board.action(state, "tile", tile, ui)
    drawing = session.render_board()
    fits = {str(m).split()[3] for m in lays if str(m).split()[1] == tile}
    assert set(drawing.targets) == fits  # the keyboard cursor visits only where it fits
    assert drawing.markup.count('class="open fits"') == len(fits)
    assert 'aria-pressed="true"' in board.panel(state, ui, True)
    place = sorted(fits)[0]
    played = session.click(place)
    assert played.startswith(f"lay {tile} @ {place} r")
    assert "laid-tile last" in session.render_board().markup


def test_a_place_where_the_tile_does_not_fit_is_refused_with_the_reason() -> None:
    session = human_first()
    state = session.state
    lays = [m for m in state.legal_moves() if isinstance(m, Lay)]
    tile = str(lays[0]).split()[1]
    fits = {str(m).split()[3] for m in lays if str(m).split()[1] == tile}
    session.board.action(state, "tile", tile, session.ui)
    elsewhere = [p for p in state.open_positions() if p not in fits]
    assert elsewhere
    with pytest.raises(IllegalMoveError, match="must match|must share"):
        session.click(elsewhere[0])


def test_the_ai_hand_is_never_drawn_and_the_move_list_hides_dealt_and_drawn_tiles() -> None:
    session = human_first()
    state = session.state
    p2_hand = set(state.to_position()["hands"]["p2"])
    panel = session.board.panel(state, session.ui, True)
    assert 'data-hand-of="p1"' in panel
    session.click("draw")  # p1 draws; then the AI moves
    while session.ai_to_move():
        session.play_ai()
        panel = session.board.panel(session.state, session.ui, False)
        assert 'data-hand-of="p2"' not in panel
        shown = set(re.findall(r'data-value="(\d-\d-\d)"', panel)) | set(re.findall(r'aria-label="(\d-\d-\d)', panel))
        assert not shown & set(session.state.to_position()["hands"]["p2"])
    moves = pages.moves(session)
    assert "deal: 10 tiles each" in moves and "a tile drawn" in moves
    assert not any(f"{t}," in moves or f",{t}" in moves for t in p2_hand)


def test_keys_choose_draw_pass_and_zoom() -> None:
    session = human_first()
    board, ui, state = session.board, session.ui, session.state
    hand = state.to_position()["hands"]["p1"]
    assert board.key(state, "2", ui) is True and ui["td_tile"] == hand[1]
    assert board.key(state, "n", ui) is True and ui["td_tile"] == hand[2]
    assert board.key(state, "d", ui) == "draw" and board.key(state, "p", ui) == "pass"
    fitted = re.search(r'viewBox="([^"]+)"', session.render_board().markup).group(1)
    assert board.key(state, "+", ui) is True
    zoomed = re.search(r'viewBox="([^"]+)"', session.render_board().markup).group(1)
    assert float(zoomed.split()[2]) < float(fitted.split()[2])
    fit = [float(v) for v in fitted.split()]
    board.action(state, "view", f"{fit[0] + 150},{fit[1] + 100},150", ui)  # a pinch or a drag ended here
    assert ui["td_view"] == pytest.approx((fit[0] + 150, fit[1] + 100, 150.0), abs=0.1)
    board.action(state, "view", "-9999,20,150", ui)  # dragged past the layout: held at its edge
    assert ui["td_view"][0] == pytest.approx(fit[0] + 75, abs=0.1)
    assert board.key(state, "f", ui) is True
    assert re.search(r'viewBox="([^"]+)"', session.render_board().markup).group(1) == fitted
    board.action(state, "view", "nonsense", ui)  # a bad report from the page changes nothing
    assert "td_view" not in ui


@pytest.mark.parametrize(
    "bonus, mark", [("hexagon", "mark-hexagon"), ("bridge", "mark-bridge"), ("double connection", "mark-edge")]
)
def test_the_last_tile_shows_what_it_scored(bonus: str, mark: str) -> None:
    game = get_game("triple-domino")
    for seed in range(60):
        state = game.new_state({"players": 2}, seed=seed)
        rng = random.Random(seed)
        found = None
        while not state.is_over() and found is None:
            state.advance_chance()
            if state.is_over():
                break
            moves = list(state.legal_moves())
            lays = [m for m in moves if isinstance(m, Lay)]
            for m in lays:
                state.push(m)
                if any(bonus in i["reason"] for i in state.last_score_items):
                    found = m
                    break
                state.pop()
            if found is None:
                state.push(rng.choice(lays) if lays and rng.random() < 0.9 else rng.choice(moves))
        if found is not None:
            break
    assert found is not None
    session = Session(state, {})
    markup = session.render_board().markup
    assert mark in markup and "last-outline" in markup and 'class="gain"' in markup
    session.advance_chance()
    panel = session.board.panel(session.state, session.ui, session.human_to_move())
    assert bonus in panel


def test_solitaire_shows_the_start_tile_and_the_draws_left() -> None:
    session = Session.new("triple-domino", {"players": 1, "solitaire_draw_limit": 3}, 4, {})
    assert session.render_board().markup.count('class="laid-tile') == 1
    panel = session.board.panel(session.state, session.ui, True)
    assert "draws left 3" in panel and 'data-hand-of="p1"' in panel
    session.click("draw")
    assert "draws left 2" in session.board.panel(session.state, session.ui, True)
    assert session.board.public_text("deal 0-0-1,1-2-3 start 2-3-3") == "deal: 2 tiles, start tile 2-3-3"
