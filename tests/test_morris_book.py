"""Morris hard's opening book: it loads, agrees with itself under the board's symmetries, holds only
legal moves, is refused clearly when wrong, and the hard player plays it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import get_game
from engine.ai import Budget, get_player
from engine.ai.games import morris_book
from engine.ai.games.morris_book import (
    SYMMETRIES,
    BookError,
    book_move,
    canonical,
    load,
    map_mask,
    shipped_book,
)
from engine.games.morris import ADJACENT, NEIGHBOUR_MASK, POINT_NAMES

BOOK_PATH = Path(morris_book.__file__).with_name(morris_book.BOOK_FILE)


def after(moves: list[str], options: dict | None = None):
    state = get_game("morris").new_state(options or {}, seed=0)
    for text in moves:
        state.push(state.parse_move(text))
    return state


def test_the_symmetries_keep_every_step_a_step() -> None:
    for perm in SYMMETRIES:
        for p in range(len(POINT_NAMES)):
            assert map_mask(NEIGHBOUR_MASK[p], perm) == NEIGHBOUR_MASK[perm[p]]
            assert {perm[q] for q in ADJACENT[p]} == set(ADJACENT[perm[p]])
    # the outer and inner squares trade places under half of them; the middle one never moves
    middle = {p for p, name in enumerate(POINT_NAMES) if name[0] in "bf" or name[1] in "26"}
    assert all({perm[p] for p in middle} == middle for perm in SYMMETRIES)


def test_the_shipped_book_is_small_and_every_move_is_a_legal_placement() -> None:
    assert BOOK_PATH.stat().st_size < 200_000
    book = shipped_book()
    assert len(book.entries) > 50
    for key, (move, _value, depth) in book.entries.items():
        state = morris_book.state_of(key, book.options)
        assert move.source is None and state.is_legal(move), key
        assert depth >= 8, key  # searched well past what a move's budget reaches in the placing


def test_the_book_answers_every_first_placement_and_the_start() -> None:
    assert book_move(after([])) is not None
    for name in POINT_NAMES:
        state = after([name])
        found = book_move(state)
        assert found is not None and state.is_legal(found[0]), name


def test_the_book_agrees_with_itself_in_every_orientation() -> None:
    """Whichever way a position is turned, the book's move leads to the same class of position."""
    book = shipped_book()
    for key in book.entries:
        state = morris_book.state_of(key, book.options)
        move = book.lookup(state)
        assert move is not None
        state.push(move[0])
        expected = canonical(state.men, state.hand, state.turn)[0]
        state.pop()
        for perm in SYMMETRIES:
            men = (map_mask(state.men[0], perm), map_mask(state.men[1], perm))
            turned = morris_book.position_state(men, (state.hand[0], state.hand[1]), state.turn, book.options)
            found = book.lookup(turned)
            assert found is not None, key
            assert _same_class_after(turned, found[0], expected), key


def _same_class_after(state, move, expected: str) -> bool:
    state.push(move)
    return canonical(state.men, state.hand, state.turn)[0] == expected


def test_the_book_is_used_only_under_its_rules() -> None:
    assert book_move(after([], {"mill_protection": True})) is None
    assert book_move(after([], {"flying": True, "no_removal_draw": 20})) is not None  # moving-phase rules only
    assert book_move(after(["d2", "d6", "b4", "b2", "f4", "f6", "a4", "g4"])) is None  # past the book's plies


def test_hard_plays_the_books_move_without_searching() -> None:
    state = after(["d2"])
    expected = book_move(state)
    assert expected is not None
    analysis = get_player("morris", "hard", seed=3).analyse(state.view(state.current_player), Budget.of_nodes(1))
    assert analysis.move == expected[0] and "opening book" in analysis.text
    assert analysis.nodes == 0 and analysis.depth == expected[2]


def good_book() -> dict:
    return json.loads(BOOK_PATH.read_text(encoding="utf-8"))


def first_key(data: dict) -> str:
    return sorted(data["positions"])[0]


@pytest.mark.parametrize(
    ("spoil", "says"),
    [
        pytest.param(lambda d: d.update(version=99), "version 99", id="another-version"),
        pytest.param(lambda d: d.pop("positions"), "no positions", id="no-positions"),
        pytest.param(lambda d: d.update(options={"flying": "often"}), "rule options", id="bad-options"),
        pytest.param(lambda d: d["positions"].update({"990:zz:00": ["d2", 0, 9]}), "990:zz:00", id="bad-key"),
        pytest.param(
            lambda d: d["positions"].update({"980:000001:000000": ["d2", 0, 9]}), "980:000001", id="wrong-side"
        ),
        pytest.param(
            lambda d: d["positions"].update({"990:000000:000000": ["nowhere", 0, 9]}), "990:000000", id="bad-move"
        ),
        pytest.param(
            lambda d: d["positions"].update({"891:000001:000000": ["a1", 0, 9]}), "891:000001", id="occupied-point"
        ),
        pytest.param(
            lambda d: d["positions"].update({"891:800000:000000": ["a1", 0, 9]}), "891:800000", id="not-canonical"
        ),
        pytest.param(lambda d: d["positions"].update({first_key(d): ["d2"]}), "is wrong", id="short-entry"),
    ],
)
def test_a_corrupt_book_is_refused_naming_what_is_wrong(spoil, says: str) -> None:
    data = good_book()
    spoil(data)
    with pytest.raises(BookError, match=says):
        load(json.dumps(data))


def test_a_book_that_is_not_json_is_refused() -> None:
    with pytest.raises(BookError, match="not JSON"):
        load(BOOK_PATH.read_text(encoding="utf-8")[:-40])


def test_a_missing_book_is_refused_saying_how_to_build_it(monkeypatch) -> None:
    monkeypatch.setattr(morris_book, "BOOK_FILE", "no_such_book.json")
    monkeypatch.setattr(morris_book, "_BOOK", [])
    with pytest.raises(BookError, match="morris_book build"):
        shipped_book()
