"""The page's computer players without a browser (CPython and Pyodide): seats per game, the
worker's request/answer protocol (ui.think), stale and bad answers, hints, saves, and the
home screen's catalogue that keeps game modules out of the start-up."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from engine import GAME_IDS, IllegalMoveError, OptionError, get_game  # noqa: E402
from engine.ai import LEVELS  # noqa: E402
from ui import catalogue, home, pages, think  # noqa: E402
from ui.session import (  # noqa: E402
    THINK_DEFAULT,
    Session,
    StaleAnswerError,
    check_think,
    restore,
    saved_json,
    seat_kinds,
)

QUICK = 0.1  # seconds a computer may think in these tests (the shortest the page allows)


def human_move(session: Session) -> str:
    """The first legal move of the person to move, played through the session."""
    return session.play(next(iter(session.state.legal_moves())))


# ----- seats ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_offers_a_person_and_each_computer_level(game_id: str) -> None:
    kinds = seat_kinds(game_id)
    assert list(kinds)[0] == "human"
    assert set(kinds) == {"human", *LEVELS}
    assert kinds["hard"] == "computer (hard)" and kinds["random"] == "computer (random moves)"
    html = pages.setup(game_id, None, {}, 1)
    for kind in kinds:
        assert f'<option value="{kind}"' in html
    assert 'id="think"' in html and f'value="{THINK_DEFAULT:g}"' in html


def test_setup_remembers_each_seat_and_the_thinking_time() -> None:
    html = pages.setup("morris", None, {"black": "hard"}, 1, think_seconds=0.4)
    assert '<option value="hard" selected>' in html
    assert 'id="think" name="think" value="0.4"' in html


@pytest.mark.parametrize("text, seconds", [("1", 1.0), (" 0.2 ", 0.2), ("2,5", 2.5), (30, 30.0)])
def test_thinking_time_is_read_in_seconds(text: object, seconds: float) -> None:
    assert check_think(text) == seconds


@pytest.mark.parametrize(
    "text, message", [("fast", "number of seconds"), ("0", "between"), ("31", "between"), ("nan", "between")]
)
def test_a_bad_thinking_time_is_explained(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        check_think(text)


def test_levels_and_thinking_time_are_saved_and_restored() -> None:
    session = Session.new("morris", {}, 5, {"white": "human", "black": "hard"}, think_seconds=0.3)
    human_move(session)
    again = restore(saved_json(session))
    assert again.seats == {"white": "human", "black": "hard"}
    assert again.think_seconds == 0.3 and again.ai_to_move()


def test_an_old_save_with_a_random_seat_still_loads() -> None:
    state = get_game("three-stones").new_state({"mode": "pure-skill"}, seed=4)
    state.push("white@c3")
    record = {
        "format": "stones-record",
        "version": 1,
        "game": "three-stones",
        "options": {"mode": "pure-skill"},
        "seed": 4,
        "moves": ["white@c3"],
        "app": {"seats": {"white": "human", "black": "random"}, "redo": [], "version": 1},
    }
    session = restore(json.dumps(record))
    assert session.seats == {"white": "human", "black": "random"}
    assert session.think_seconds == THINK_DEFAULT and session.ai_to_move()
    assert session.play_ai() is not None and session.human_to_move()


def test_an_unknown_seat_becomes_a_person_and_a_bad_time_the_default() -> None:
    session = Session.new("morris", {}, 1, {"white": "grandmaster"})
    record = session.to_record()
    record["app"]["think"] = "soon"
    again = Session.from_record(record)
    assert again.seats["white"] == "human" and again.think_seconds == THINK_DEFAULT


# ----- the worker's protocol -----------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_worker_answers_a_hard_move_the_engine_accepts(game_id: str) -> None:
    players = list(get_game(game_id).new_state({}, seed=3).players)
    session = Session.new(game_id, {}, 3, {p: "hard" for p in players}, think_seconds=QUICK)
    request = session.ai_request()
    text = think.answer_json(json.dumps(request))  # what crosses postMessage: JSON text both ways
    answer = json.loads(text)
    assert answer["kind"] == "move" and answer["ply"] == session.state.ply
    assert answer["player"] == session.state.current_player
    before = session.state.ply
    played = session.play_ai_answer(request, answer)
    assert played == answer["move"] and session.state.ply > before


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "Expecting"),
        ("[1]", "JSON object"),
        ('{"kind": "dance"}', "unknown request kind"),
        ('{"kind": "move", "record": {"format": "nope"}}', "cannot be read"),
    ],
)
def test_a_bad_request_comes_back_as_words(text: str, message: str) -> None:
    answer = json.loads(think.answer_json(text))
    assert set(answer) == {"error"} and message in answer["error"]


def test_an_unknown_level_and_a_finished_game_are_refused() -> None:
    session = Session.new("morris", {}, 1, {"black": "hard"})
    human_move(session)
    request = session.ai_request()
    request["level"] = "grandmaster"
    assert "unknown level" in json.loads(think.answer_json(json.dumps(request)))["error"]
    over = Session.new("three-stones", {"mode": "pure-skill"}, 1, {})
    while not over.state.is_over():
        human_move(over)
    request = think.make_request("move", over.to_record(), "hard", QUICK, 1)
    assert "game is over" in json.loads(think.answer_json(json.dumps(request)))["error"]


def test_an_answer_for_an_undone_position_is_dropped() -> None:
    session = Session.new("morris", {}, 2, {"white": "human", "black": "hard"}, think_seconds=QUICK)
    human_move(session)
    request = session.ai_request()
    answer = think.answer(request)
    session.undo()  # the person takes the move back while the worker thinks
    snapshot = session.state.snapshot()
    with pytest.raises(StaleAnswerError):
        session.play_ai_answer(request, answer)
    assert session.state.snapshot() == snapshot
    # a different move in the same place: same ply, other history, still stale
    session.play(list(session.state.legal_moves())[-1])
    with pytest.raises(StaleAnswerError):
        session.play_ai_answer(request, answer)


def test_a_failed_or_illegal_answer_plays_nothing() -> None:
    session = Session.new("morris", {}, 2, {"white": "human", "black": "hard"})
    first = human_move(session)
    request = session.ai_request()
    ply = session.state.ply
    with pytest.raises(IllegalMoveError, match="computer player failed: boom"):
        session.play_ai_answer(request, {"error": "boom"})
    with pytest.raises(IllegalMoveError):
        session.play_ai_answer(request, {"move": first, "ply": ply})  # that point is taken
    assert session.state.ply == ply and session.ai_to_move()


def test_a_person_is_never_asked_for_a_computer_move() -> None:
    session = Session.new("morris", {}, 2, {"white": "human", "black": "hard"})
    with pytest.raises(IllegalMoveError, match="not a computer"):
        session.ai_request()
    human_move(session)
    with pytest.raises(IllegalMoveError, match="hint is for the person"):
        session.hint_request()


# ----- hints -------------------------------------------------------------------------------
def test_a_hint_names_a_legal_move_with_a_readable_evaluation() -> None:
    session = Session.new("morris", {}, 8, {"white": "human", "black": "hard"}, think_seconds=QUICK)
    request = session.hint_request()
    answer = think.answer(request)
    assert answer["kind"] == "hint"
    assert answer["win_chance"] is not None or answer["margin"] is not None
    session.take_hint(request, answer)
    assert session.hint_targets() == [answer["move"][:2]]
    html = pages.hint_box(session)
    assert f'data-hint="{answer["move"]}"' in html and ("% to win" in html or "points" in html)
    session.play(answer["move"])  # following the hint
    assert session.hint is None and session.hint_targets() == [] and pages.hint_box(session) == ""


def test_a_hint_for_a_position_left_behind_is_not_shown() -> None:
    session = Session.new("three-stones", {"mode": "pure-skill"}, 8, {}, think_seconds=QUICK)
    request = session.hint_request()
    answer = think.answer(request)
    human_move(session)
    with pytest.raises(StaleAnswerError):
        session.take_hint(request, answer)
    assert session.hint is None


@pytest.mark.parametrize(
    "game_id, move, targets",
    [
        ("morris", "d2-d3xa1", ["a1", "d2", "d3"]),
        ("three-stones", "white@c4", ["white", "c4"]),
        ("rings", "D-2,3 x1,-2", ["D-2,3", "x1,-2"]),
        ("triple-domino", "lay 1-2-3 @ D0,-1 r2", ["lay", "1-2-3", "D0,-1", "r2"]),
    ],
)
def test_hint_targets_are_the_places_a_move_names(game_id: str, move: str, targets: list[str]) -> None:
    session = Session.new(game_id, {}, 1, {})
    assert session.board.hint_targets(session.state, move) == targets


def test_the_status_says_the_computer_is_thinking() -> None:
    session = Session.new("morris", {}, 2, {"white": "human", "black": "hard"})
    human_move(session)
    assert "thinking" not in pages.status(session)
    session.thinking = "move"
    assert 'data-thinking="black"' in pages.status(session)
    assert "still starting" in pages.status(session, None, "starting")
    assert "Hint" in pages.toolbar(session) and 'data-action="hint" disabled' in pages.toolbar(session)


# ----- the home screen's catalogue ---------------------------------------------------------------
def test_home_from_the_built_catalogue_imports_no_game_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = tmp_path / "catalogue.json"
    built.write_text(catalogue.catalogue_json(), encoding="utf-8")
    monkeypatch.setattr(catalogue, "CATALOGUE", built)
    for name in [m for m in sys.modules if m.startswith(("engine.games.", "boards")) and m != "engine.games"]:
        monkeypatch.delitem(sys.modules, name)  # the boards too: a board keeps the game module it was loaded with
    html = home.home(None)
    assert html.count('class="game-card"') == 5 and html.count("<svg ") == 5  # each game's board, drawn at build
    assert [m for m in sys.modules if m.startswith(("engine.games.", "boards"))] == []
    assert catalogue.games() == catalogue.describe_games()


# ----- the reply within the player's chosen time -------------------------------------------------------
def test_the_search_gets_what_is_left_of_the_turn_by_the_deadline() -> None:
    import time

    started = time.perf_counter()
    assert think.search_seconds({}, 1.0, started) == pytest.approx(1.0, abs=0.05)  # no deadline: the budget
    soon = {"deadline": time.time() + 0.3}  # the page drew the person's move and needs time to draw the reply
    assert 0.2 < think.search_seconds(soon, 1.0, started) <= 0.3
    late = {"deadline": time.time() - 2}
    assert think.search_seconds(late, 1.0, started) == think.MIN_SEARCH
    assert think.search_seconds({"deadline": "soon"}, 1.0, started) == pytest.approx(1.0, abs=0.05)


def test_a_request_past_its_deadline_still_gets_a_legal_move() -> None:
    import time

    session = Session.new(
        "rings", {"players": 3}, 4, {"black": "human", "white": "hard", "red": "hard"}, think_seconds=1.0
    )
    human_move(session)
    request = {**session.ai_request(), "deadline": time.time() - 5}
    answer = json.loads(think.answer_json(json.dumps(request)))
    assert "error" not in answer and answer["seconds"] < 0.5  # the least search, not the whole second
    assert session.play_ai_answer(request, answer)
