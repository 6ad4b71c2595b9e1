"""The page's Python (web/ui, web/boards) without a browser: runs in CPython and in Pyodide.

The browser tests in e2e/ drive the same code through the DOM; these pin its
logic quickly: seats and AI turns, undo/redo over chance moves, viewing old
positions, records with the page's own fields, the boards' SVG and targets.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from boards import board_for  # noqa: E402
from boards.generic import GenericBoard  # noqa: E402
from engine import IllegalMoveError, RecordError, get_game  # noqa: E402
from engine.games import GAME_MODULES  # noqa: E402
from ui import home, pages  # noqa: E402
from ui.session import Session, restore, saved_json, seat_kinds  # noqa: E402
from ui.words import ending  # noqa: E402


def legal_target(session: Session) -> str:
    """A pocket the three-stones side to move may play (from the engine, not the drawing)."""
    move = next(iter(session.state.legal_moves()))
    return str(move).split("@")[1]


def test_pouch_game_starts_with_the_draw_done() -> None:
    session = Session.new("three-stones", {}, 7, {})
    assert session.state.current_player == "white"
    assert session.state.history and str(session.state.history[0]).startswith("draw ")
    assert session.move_rows()[-1]["player"] == "chance"


def test_click_plays_the_drawn_stone_and_draws_the_next() -> None:
    session = Session.new("three-stones", {}, 7, {})
    drawn = session.state.drawn
    played = session.click("c4")
    assert played == f"{drawn}@c4"
    assert session.state.current_player == "black"
    assert session.state.drawn is not None


def test_illegal_click_explains_the_rule() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 1, {})
    session.click("c3")
    with pytest.raises(IllegalMoveError, match="taken"):
        session.click("c3")
    with pytest.raises(IllegalMoveError, match="ring rule"):
        session.click("h8")


def test_ai_seat_plays_and_undo_takes_back_to_the_human_decision() -> None:
    session = Session.new("three-stones", {}, 3, {"white": "human", "black": "random"})
    before = session.state.snapshot()
    session.click(legal_target(session))
    assert session.ai_to_move()
    session.play_ai()
    assert session.human_to_move()
    session.undo()
    assert session.state.snapshot() == before
    assert len(session.redo_stack) == 2
    session.redo()
    assert session.human_to_move() and session.state.ply == 5


def test_view_and_continue_from_an_earlier_position() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 0, {})
    for target in ("c3", "c5", "a5", "a7"):
        session.click(target)
    session.view(2)
    assert session.shown_state().ply == 2 and session.state.ply == 4
    with pytest.raises(IllegalMoveError, match="earlier position"):
        session.click("b5")
    session.continue_from_view()
    assert session.state.ply == 2 and session.redo_stack == ["white@a7", "white@a5"]


def test_saved_game_restores_seats_redo_and_position() -> None:
    session = Session.new("three-stones", {}, 11, {"white": "human", "black": "random"})
    session.click(legal_target(session))
    session.play_ai()
    session.click(legal_target(session))
    session.undo()
    text = saved_json(session)
    again = restore(text)
    assert again.state.snapshot() == session.state.snapshot()
    assert again.seats == session.seats and again.redo_stack == session.redo_stack


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "something-else"}', "not a Stones game record"),
        (
            '{"format": "stones-record", "version": 1, "game": "three-stones", "options": {}, "seed": 1,'
            ' "moves": ["draw white", "white@e5"]}',
            "does not replay",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested more than 64 deep"),  # Pyodide's stack would give out parsing it
    ],
)
def test_corrupt_records_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Session.from_record(text)


def test_three_stones_drawing_has_a_target_and_label_per_pocket() -> None:
    session = Session.new("three-stones", {}, 2, {})
    drawing = session.render_board()
    assert len(drawing.targets) == 76
    labels = re.findall(r'data-target="(\w+)" role="button" tabindex="-1" aria-label="([^"]+)"', drawing.markup)
    assert len(labels) == 76 and all(label.startswith(name + ":") for name, label in labels)
    assert "e5" not in drawing.targets and "a1" not in drawing.targets


def test_three_stones_drawing_shows_ring_legal_pockets_and_triples() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 0, {})
    for target in ("c3", "c4"):
        session.click(target)
    session.ui["choice:white"] = "white"
    session.click("c5")
    markup = session.render_board().markup
    assert markup.count('class="pocket legal') == len(session.state.allowed_pockets())
    assert 'class="last-ring"' in markup
    assert 'data-triple="c3 c4 c5"' in markup
    items = get_game("three-stones").score_position(session.state.to_position())["items"]
    assert markup.count("data-triple=") == len(items)


def test_pure_skill_choice_is_per_side_and_by_key() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 0, {})
    assert session.board.key(session.state, "c", session.ui)
    assert session.click("c3") == "clear@c3"
    assert session.click("c4") == "white@c4"  # black has not chosen: first colour in hand


def test_keyboard_cursor_walks_the_grid() -> None:
    session = Session.new("three-stones", {}, 0, {})
    session.render_board()
    session.ui["cursor"] = "c3"
    assert session.move_cursor("ArrowUp") == "c4"
    assert session.move_cursor("ArrowRight") == "d4"
    session.ui["cursor"] = "d5"
    assert session.move_cursor("ArrowRight") == "f5"  # jumps the empty centre


def test_generic_board_offers_every_legal_move() -> None:
    game = get_game("three-stones")
    board = GenericBoard(game)
    state = game.new_state({"mode": "pure-skill"})
    drawing = board.draw(state, {}, True)
    assert len(drawing.targets) == len(list(state.legal_moves()))


def test_home_lists_the_five_games() -> None:
    html = home.home(None)
    assert html.count('class="game-card') == 5
    assert 'data-game="three-stones"' in html


def test_each_game_card_shows_a_picture_of_its_board_with_nothing_to_click() -> None:
    cards = re.findall(r'<button type="button" class="game-card".*?</button>', home.home(None), re.S)
    assert len(cards) == 5
    for card, game_id in zip(cards, GAME_MODULES):
        pictures = re.findall(r"<svg\b[^>]*>", card)
        assert len(pictures) == 1 and 'aria-hidden="true"' in pictures[0] and 'focusable="false"' in pictures[0]
        assert "board" not in pictures[0], "svg.board-<game> is the live board only (the e2e tests wait for it)"
        assert f'<g class="board-{game_id}' in card, game_id  # the board's own style applies inside
        picture = re.search(r"<svg\b.*</svg>", card, re.S).group()
        assert not re.search(r"data-target|tabindex|role=|<button|<title", picture), game_id
        assert "<circle" in picture or "<polygon" in picture  # the board is drawn, not an image file


def test_a_picture_is_the_board_drawing_of_its_position() -> None:
    from boards.thumbnail import sample_state, thumbnail

    game = get_game("morris")
    start = game.new_state({})
    sample = sample_state(game)
    assert sample.ply == board_for(game).picture_plies and sample.to_position() != start.to_position()
    assert thumbnail(sample) == thumbnail(sample_state(game))  # the same picture in every build
    men = 'class="man-body"'
    assert thumbnail(start).count(men) == 0 < thumbnail(sample).count(men)
    assert 'class="hit"' not in thumbnail(sample) and 'class="focus-ring"' not in thumbnail(sample)


def test_the_resume_button_shows_the_saved_position() -> None:
    from boards.thumbnail import thumbnail

    session = Session.new("three-stones", {"mode": "pure-skill"}, 1, {})
    session.click("c3")
    html = home.home({"game": "three-stones", "moves": 1, "picture": thumbnail(session.state)})
    button = re.search(r'<button[^>]*data-action="resume".*?</button>', html, re.S)
    assert button and "board-three-stones" in button.group() and "Continue your Three Stones game" in button.group()
    assert 'data-action="resume"' in home.home({"game": "morris", "moves": 3})  # a picture only when there is one


def test_a_game_whose_module_fails_to_import_is_coming_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.games

    monkeypatch.setitem(engine.games.GAME_MODULES, "morris", "no_such_module_yet")
    listed = {g["id"]: g for g in home.games()}
    assert listed["morris"]["ready"] is False and listed["three-stones"]["ready"] is True
    assert 'data-game="morris"' in home.home(None) and "coming soon" in home.home(None)


def test_setup_form_has_a_field_per_option_and_reads_back() -> None:
    info = get_game("three-stones").describe()
    html = pages.setup("three-stones", None, {}, 5)
    for opt in info["options"]:
        assert f'name="opt:{opt["name"]}"' in html
    raw = {"mode": "pure-skill", "handicap_white": "3", "first_player": "black"}
    options = pages.read_options(info["options"], raw)
    assert options == {"mode": "pure-skill", "handicap_white": 3, "first_player": "black"}
    assert pages.players_for("three-stones", options) == ["white", "black"]


@pytest.mark.parametrize(
    "game_id,option,options",
    [
        ("rings", "random_first", {"players": 3}),
        ("sage-stones", "play_for_places", {"players": 3}),
    ],
)
def test_the_new_rule_options_are_checkboxes_on_the_setup_screen(game_id: str, option: str, options: dict) -> None:
    html = pages.setup(game_id, None, {}, 5)
    assert f'<input type="checkbox" id="opt-{option}" name="opt:{option}" data-type="bool"' in html
    chosen = pages.read_options(get_game(game_id).describe()["options"], {**options, option: True})
    session = Session.new(game_id, chosen, 5, {})
    assert getattr(session.state.options, option) is True and session.render_board().markup
    if option == "random_first":  # the draw is made before anyone is asked to move
        assert not session.state.is_chance_node() and str(session.state.history[0]).startswith("first ")


def test_every_ready_game_gets_its_own_board() -> None:
    """Each game draws with its own module: never the generic board a broken drawing would fall back to."""
    for g in home.games():
        if g["ready"]:
            game = get_game(g["id"])
            session = Session(game.new_state())
            session.advance_chance()
            assert session.render_board().markup
            board = board_for(game)
            assert not isinstance(board, GenericBoard), game.id
            assert type(board).__module__ == f"boards.{GAME_MODULES[game.id]}"


def test_a_game_without_a_board_module_gets_the_generic_board(monkeypatch: pytest.MonkeyPatch) -> None:
    import boards

    game = get_game("morris")
    monkeypatch.setattr(boards, "GAME_MODULES", {**boards.GAME_MODULES, "morris": "no_such_board"})
    assert isinstance(board_for(game), GenericBoard)


def test_a_broken_board_module_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error inside a board (here: while it is built) is raised, never hidden behind the generic board."""
    import boards.morris

    def broken(game: object) -> None:
        raise RuntimeError("the morris drawing is broken")

    monkeypatch.setattr(boards.morris, "BOARD", broken)
    with pytest.raises(RuntimeError, match="morris drawing is broken"):
        board_for(get_game("morris"))


def test_a_board_importing_something_missing_fails_loudly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import boards

    (tmp_path / "half_written_board.py").write_text("import no_such_drawing_library\n")
    game = get_game("morris")
    monkeypatch.setattr(boards, "__path__", [*boards.__path__, str(tmp_path)])
    monkeypatch.setattr(boards, "GAME_MODULES", {**boards.GAME_MODULES, "morris": "half_written_board"})
    with pytest.raises(ModuleNotFoundError, match="no_such_drawing_library"):
        board_for(game)


@settings(max_examples=15)
@given(st.lists(st.sampled_from(["move", "ai", "undo", "redo", "view"]), max_size=30), st.integers(0, 50))
def test_random_sessions_keep_the_state_consistent(actions: list[str], seed: int) -> None:
    session = Session.new("three-stones", {}, seed, {"white": "human", "black": "random"})
    for action in actions:
        if session.state.is_over():
            break
        if action == "move" and session.human_to_move():
            session.click(legal_target(session))
        elif action == "ai" and session.ai_to_move():
            session.play_ai()
        elif action == "undo" and session.can_undo():
            session.undo()
        elif action == "redo" and session.can_redo():
            session.redo()
        elif action == "view":
            session.view(session.state.ply // 2)
            session.shown_state()
            session.view(None)
        assert session.state.scores() == session.state.recount_scores()
        assert len(session.movers) == session.state.ply
    again = restore(json.dumps(session.to_record()))
    assert again.state.snapshot() == session.state.snapshot()


@given(st.text())
def test_markup_escaping_matches_the_standard_library(text: str) -> None:
    import html

    from boards import esc

    assert esc(text) == html.escape(text, quote=True)


# ----- set-up as a choice ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["three-stones", "morris", "rings", "sage-stones", "triple-domino"])
def test_setup_starts_as_you_against_the_computer_with_rules_under_more_options(game_id: str) -> None:
    html = pages.setup(game_id, None, None, 5)
    assert '<option value="medium" selected>You against the computer (medium)</option>' in html
    players = pages.players_for(game_id, {})
    assert '<option value="human" selected>a person</option>' in html.split(f'id="seat-{players[0]}"')[1]
    for other in players[1:]:
        assert '<option value="medium" selected>' in html.split(f'id="seat-{other}"')[1].split("</select>")[0]
    more = html.split('<details class="more-options"')[1].split("</details>")[0]
    schema = [o["name"] for o in get_game(game_id).describe()["options"]]
    for name in schema:  # every rule switch under More options; the player count with the seats
        assert (f'name="opt:{name}"' in more) == (name != pages.PLAYERS_OPTION)
    assert ('id="seed"' in html) == (game_id in ("three-stones", "sage-stones", "triple-domino"))
    assert "<h4>" in html and 'class="rules-diagram"' in html  # how to play: headings and a diagram


def test_the_seed_shows_only_where_the_game_so_set_up_has_chance() -> None:
    assert pages.has_chance("three-stones", {"mode": "pouch"})
    assert not pages.has_chance("three-stones", {"mode": "pure-skill"})
    assert not pages.has_chance("morris", {}) and not pages.has_chance("rings", {"players": 4})
    assert pages.has_chance("sage-stones", {}) and pages.has_chance("triple-domino", {"players": 1})


def test_who_plays_is_one_choice_over_the_seats() -> None:
    kinds = seat_kinds("rings")
    players = ["black", "white", "red"]
    assert pages.match_seats("hard", players, kinds) == {"black": "human", "white": "hard", "red": "hard"}
    assert pages.match_of({"black": "human", "white": "human", "red": "human"}, players, kinds) == "people"
    assert pages.match_of({"black": "hard", "white": "human", "red": "easy"}, players, kinds) == pages.MATCH_CUSTOM
    html = pages.seats_fieldset(players, {"black": "hard", "white": "human", "red": "easy"}, kinds)
    assert '<option value="custom" selected>' in html and html.count('<select id="seat-') == 3


# ----- words for players -----------------------------------------------------------------------------------
def play_all(session: Session, moves: list[str]) -> None:
    for move in moves:
        session.play(move)


def test_morris_moves_read_as_words_and_its_tally_says_what_it_counts() -> None:
    session = Session.new("morris", {}, 1, {})
    play_all(session, ["a1", "b2", "a4", "b4"])
    rows = session.move_rows()
    assert [row["words"] for row in rows[:2]] == ["places a man on a1", "places a man on b2"]
    session.play("a7xb2")
    assert session.move_rows()[-1]["words"] == "places a man on a7, closes a mill, takes b2"
    assert "Men on the board:" in pages.status(session)  # not a score


def test_three_stones_rows_name_the_stone_not_the_movers_dot() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 1, {})
    session.play("clear@b9")
    html = pages.moves(session)
    assert (
        '<b>White</b><span class="sr-only">:</span> clear stone on b9' in html
        and "clear@b9" in html
        and "dot-white" not in html
    )


def test_rings_moves_say_where_and_what_they_converted() -> None:
    from boards.rings import where

    assert where("U0,0") == "in the centre" and where("U5,0").startswith("by the edge")
    session = Session.new("rings", {}, 1, {})
    session.play("U0,0")
    assert session.move_rows()[-1]["words"] == "in the centre"
    assert "Circles held:" in pages.status(session)


def test_sage_and_triple_domino_moves_read_as_words() -> None:
    sage = Session.new("sage-stones", {}, 3, {})
    while sage.state.ply < 12:
        sage.play(next(iter(sage.state.legal_moves())))
    words = [row["words"] for row in sage.move_rows() if "words" in row]  # not the roll waiting at the end
    assert all(w.startswith(("red", "blue", "green", "yellow")) for w in words)
    assert any("column" in w or "turn lost" in w for w in words)
    assert "rolled" in pages.moves(sage)
    domino = Session.new("triple-domino", {}, 3, {})
    domino.play(next(iter(domino.state.legal_moves())))
    assert domino.move_rows()[-1]["words"].startswith("lays ") and "@" not in domino.move_rows()[-1]["words"]


def test_move_words_are_kept_and_follow_an_undo() -> None:
    session = Session.new("morris", {}, 1, {})
    play_all(session, ["a1", "b2"])
    assert session.move_words() == ["places a man on a1", "places a man on b2"]
    session.undo()
    session.play("d2")
    assert session.move_words() == ["places a man on a1", "places a man on d2"]


def test_the_news_says_each_new_move_in_words_the_computers_and_chances_too() -> None:
    session = Session.new("three-stones", {}, 3, {"white": "human", "black": "random"})
    heard = session.heard()
    assert session.news(heard) == ""
    session.click(legal_target(session))
    session.play_ai()
    news = session.news(heard)
    said = news.split(". ")
    assert said[0].startswith("White: ") and "stone on" in said[0]
    assert any(part.startswith("Black: ") for part in said), news
    assert any(part.startswith("Drew ") for part in said), news  # chance's draw, as the move list shows it
    heard = session.heard()
    session.undo()
    assert session.news(heard) == "2 moves taken back."
    session.play(next(m for m in session.state.legal_moves() if str(m) != session.redo_stack[-1]))
    assert session.news(heard) == ""  # another line of play: the board and the move list say where it stands


# ----- an earlier position ------------------------------------------------------------------------------
def test_an_earlier_position_says_so_and_hides_what_is_only_live() -> None:
    session = Session.new("sage-stones", {}, 3, {})
    while session.move_number(session.state.ply) < 6:
        session.play(next(iter(session.state.legal_moves())))
    session.view(3)
    status = pages.status(session)
    shown = session.move_number(3)
    assert f"Viewing move {shown} of 6" in status and 'data-action="live"' in status
    assert "data-turn" not in status and "Drawing" not in status and "rolled" not in status
    assert f"Viewing move {shown} of 6" in pages.viewing_banner(session)
    board = session.render_board().markup
    assert "an earlier position" in board and 'class="die"' not in board and "data-target" not in board
    assert 'class="duty"' not in session.render_panel()
    session.view(None)
    assert pages.viewing_banner(session) == "" and 'class="die"' in session.render_board().markup


def test_the_toolbar_keeps_three_buttons_and_a_menu() -> None:
    session = Session.new("morris", {}, 1, {})
    html = pages.toolbar(session)
    top = html.split("<details")[0]
    assert top.count("<button") == 3 and 'data-action="hint"' in top
    menu = html.split('<div class="menu-list"')[1]
    assert all(f'data-action="{a}"' in menu for a in ("new", "export", "import"))


# ----- zoom --------------------------------------------------------------------------------------------
def test_a_zoomed_view_stays_on_the_board_and_resets_after_a_move() -> None:
    from boards.rings import FIT, ZOOM

    ui: dict = {}
    assert ZOOM.view(ui, FIT) == FIT and "data-zoom-tap=" in ZOOM.svg_attributes(ui, FIT)
    ZOOM.act(ui, "view", f"{FIT.width},0,50", FIT)  # too far right and too close
    view = ZOOM.view(ui, FIT)
    assert view.width == pytest.approx(FIT.width / ZOOM.most)
    assert view.cx + view.width / 2 == pytest.approx(FIT.cx + FIT.width / 2)  # held at the board's edge
    ZOOM.act(ui, "zoom", "out", FIT)
    assert ZOOM.view(ui, FIT).width == pytest.approx(view.width * 1.5)
    ZOOM.act(ui, "zoom", "fit", FIT)
    assert ZOOM.key not in ui
    session = Session.new("rings", {}, 1, {})
    session.board.action(session.state, "zoom", "in", session.ui)
    assert 'class="board board-rings phase-place zoomed"' in session.render_board().markup
    session.play("U0,0")
    assert ZOOM.key not in session.ui  # each turn starts with the whole board


# ----- the end of a game: the summary --------------------------------------------------------------------
def finished_three_stones(seats: dict[str, str] | None = None) -> Session:
    """A pure-skill three-stones game played to its last stone by seeded random moves."""
    import random

    session = Session.new("three-stones", {"mode": "pure-skill", "handicap_black": 2}, 3, seats or {}, 0.5)
    rng = random.Random(1)
    while not session.state.is_over():
        session.play(rng.choice(list(session.state.legal_moves())))
    return session


def test_a_finished_game_is_summed_up_who_won_why_and_the_score_sheet() -> None:
    session = finished_three_stones()
    outcome = session.state.outcome()
    assert session.shows_summary()
    html = pages.summary(session)
    assert "Game over" in html and ending(outcome) in html
    assert f'data-termination="{outcome.termination.value}"' in html
    for player, score in outcome.scores.items():
        assert f'data-final-score="{player}">{score}</td>' in html
    assert f">{outcome.winner.capitalize()}</th><td" in html and ">wins</td>" in html
    for action in ("again", "replay", "export", "close-summary"):
        assert f'data-action="{action}"' in html
    live = Session.new("three-stones", {}, 3, {})
    assert not live.shows_summary() and pages.summary(live) == ""


def test_the_summary_is_put_aside_remembered_on_reload_and_back_after_an_undo() -> None:
    session = finished_three_stones()
    session.summary_closed = True
    assert not session.shows_summary()
    assert 'data-action="summary"' in pages.status(session)  # the way back to it
    restored = restore(saved_json(session))
    assert restored.summary_closed and not restored.shows_summary()
    assert restore(saved_json(finished_three_stones())).shows_summary()  # a reload keeps the summary
    restored.undo()
    assert not restored.state.is_over() and not restored.summary_closed
    restored.redo()
    assert restored.shows_summary()  # the game ends again: summed up again


def test_a_game_lost_on_time_is_summed_up() -> None:
    session = Session.new("three-stones", {"clock_white_minutes": 5, "clock_black_minutes": 5}, 3, {})
    session.flag()
    assert session.shows_summary() and "ran out of time" in pages.summary(session)


def test_looking_back_hides_the_summary_and_steps_move_by_move() -> None:
    session = finished_three_stones()
    session.view(0)
    assert not session.shows_summary()
    buttons = pages.step_buttons(session)
    assert 'data-ply="0" disabled' in buttons and 'data-ply="1" aria-label="one move on"' in buttons
    session.view(5)
    assert 'data-ply="4" aria-label' in pages.step_buttons(session) and 'data-ply="6"' in pages.step_buttons(session)
    assert "one move on" in pages.status(session)


def test_play_again_keeps_the_game_options_seats_and_thinking_time() -> None:
    session = finished_three_stones({"white": "human", "black": "easy"})
    again = session.again()
    assert again.game.id == "three-stones" and again.state.ply == 0 and not again.state.is_over()
    assert again.state.options == session.state.options and again.state.options.handicap_black == 2
    assert again.seats == {"white": "human", "black": "easy"} and again.think_seconds == 0.5
    assert again.state.seed == session.state.seed + 1
