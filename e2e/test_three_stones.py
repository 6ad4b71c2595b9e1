"""three-stones through the page: a whole game, reload, export/import, refusals, keyboard, AI seat."""

from __future__ import annotations

import json
import random

import pytest
from e2e_support import (
    export_record,
    legal_targets,
    move_count,
    open_app,
    open_app_offline,
    play_moves,
    shown_scores,
    start_three_stones,
    stones,
)

from engine import load_record, score_position

pytestmark = pytest.mark.browser


def test_a_whole_game_ends_with_the_engines_score(page, context, base_url, shot, console_errors) -> None:
    open_app_offline(page, context, base_url)
    start_three_stones(page, mode="pure-skill", seed=4)
    rng = random.Random(4)
    for ply in range(80):
        if page.get_attribute("body", "data-state") == "over":
            break
        play_moves(page, 1, rng)
        if ply == 30:
            shot(page, "midgame")
    assert page.get_attribute("body", "data-state") == "over"
    assert move_count(page) == 72
    shot(page, "final")

    record = export_record(page)
    state = load_record(record)
    assert state.is_over()
    engine_scores = score_position(state.to_position())["scores"]
    assert shown_scores(page) == engine_scores == state.scores()
    triples = page.eval_on_selector_all("#board .triple", "els => els.length")
    assert triples == len(score_position(state.to_position())["items"])
    assert "Game over" in page.text_content("#status")
    assert not console_errors


def test_reload_restores_the_game_in_progress(page, base_url) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pure-skill", seed=9)
    play_moves(page, 7, random.Random(9))
    before = (stones(page), shown_scores(page), page.text_content("#moves"), page.text_content("#status"))
    open_app(page, base_url)  # reload
    page.wait_for_selector("svg.board-three-stones")
    after = (stones(page), shown_scores(page), page.text_content("#moves"), page.text_content("#status"))
    assert after == before
    assert len(before[0]) == 7


def test_export_then_import_reproduces_the_game(page, base_url, tmp_path) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pouch", seed=21)
    for _ in range(6):
        before = move_count(page)
        page.click(f'#board [data-target="{legal_targets(page)[-1]}"]')
        page.wait_for_function(f"document.querySelectorAll('#moves .mv').length > {before}")
    original = (stones(page), shown_scores(page), page.text_content("#moves"), page.text_content("#panel"))
    record = export_record(page)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))

    start_three_stones(page, mode="pure-skill", seed=5)  # something else on screen
    play_moves(page, 2)
    page.set_input_files("#import-file", str(path))
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 6")
    imported = (stones(page), shown_scores(page), page.text_content("#moves"), page.text_content("#panel"))
    assert imported == original
    assert "Opened" in page.text_content("#message")


@pytest.mark.parametrize(
    "content",
    [
        b"{this is not json",
        b'{"format": "stones-record", "version": 1, '
        b'"game": "three-stones", "seed": 1, "moves": ["draw white", "white@e5"]}',
    ],
    ids=["not-json", "illegal-move"],
)
def test_a_corrupt_import_is_refused_and_the_game_survives(page, base_url, content, shot) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pure-skill", seed=3)
    play_moves(page, 3)
    before = (stones(page), page.text_content("#moves"))
    page.set_input_files(
        "#import-file", files=[{"name": "broken.json", "mimeType": "application/json", "buffer": content}]
    )
    page.wait_for_selector("#message .msg-error")
    message = page.text_content("#message")
    assert "Could not open broken.json" in message and "unchanged" in message
    assert (stones(page), page.text_content("#moves")) == before
    play_moves(page, 1)  # and it still plays
    shot(page)


def test_illegal_moves_are_explained_and_undo_redo_work(page, base_url) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pure-skill", seed=2)
    page.click('#board [data-target="c3"]')
    page.click('#board [data-target="c3"]')
    assert "c3 is taken" in page.text_content("#message [role=alert], #message")
    page.click('#board [data-target="h8"]')
    assert "ring rule" in page.text_content("#message")
    page.click('#board [data-target="c7"]')
    assert move_count(page) == 2
    page.click("button[data-action=undo]")
    assert move_count(page) == 1
    page.click("button[data-action=redo]")
    assert move_count(page) == 2
    page.click('#moves button[data-ply="1"]')  # look back at move 1
    assert "Viewing move 1 of 2" in page.text_content("#viewing")
    assert len(stones(page)) == 1
    page.click("button[data-action=live]")
    assert len(stones(page)) == 2


def test_keyboard_play_and_labels_for_every_pocket(page, base_url) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pure-skill", seed=6)
    labels = page.eval_on_selector_all("#board [data-target]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 76 and all(":" in label for label in labels)
    page.focus('#board [data-target][tabindex="0"]')
    start = page.evaluate("document.activeElement.getAttribute('data-target')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    target = page.evaluate("document.activeElement.getAttribute('data-target')")
    assert target != start
    page.keyboard.press("c")  # choose a clear stone
    page.keyboard.press("Enter")
    assert stones(page) == {target: "clear"}
    assert page.evaluate("document.activeElement.getAttribute('data-target')") == target  # focus kept
    page.keyboard.press("ArrowDown")  # the ring's column
    page.keyboard.press("Space")
    assert len(stones(page)) == 2
    page.keyboard.press("u")
    assert len(stones(page)) == 1


def test_ai_seat_answers_and_the_pouch_draw_is_shown(page, base_url) -> None:
    open_app(page, base_url)
    start_three_stones(page, mode="pouch", seed=8, seats={"white": "human", "black": "random"})
    drawn = page.get_attribute("[data-drawn]", "data-drawn")
    assert drawn in ("white", "black", "clear")
    assert "72" in page.text_content("[data-pouch-left]")
    page.click(f'#board [data-target="{legal_targets(page)[0]}"]')
    page.wait_for_function("document.querySelectorAll('#moves .mv').length === 2", timeout=10_000)
    assert page.get_attribute("[data-turn]", "data-turn") == "white"
    assert page.text_content("[data-pouch-left]") == "70"
    assert "drew" in page.text_content("#moves")
