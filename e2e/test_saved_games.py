"""Nothing lost, in every game: a game opened from a record survives a reload, and exporting it gives the
same record back. The records are made by the engine (seeded random play, chance included), so each game's
own moves, draws, rolls and deals go through the page's save and restore."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from e2e_support import export_record, open_app

from engine import get_game, load_record, save_record

pytestmark = pytest.mark.browser

# game → (options, plies of random play): far enough in that every kind of move has happened
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "three-stones": ({"mode": "pouch"}, 31),
    "morris": ({}, 30),
    "rings": ({"players": 3}, 24),
    "sage-stones": ({}, 60),
    "triple-domino": ({"players": 3}, 40),
}


def record_after_random_play(game_id: str, options: dict[str, Any], plies: int, seed: int) -> dict[str, Any]:
    state = get_game(game_id).new_state(options, seed=seed)
    rng = random.Random(seed)
    while (state.ply < plies or state.is_chance_node()) and not state.is_over():  # ends on a player's decision
        if state.is_chance_node():
            state.push(state.sample_chance())
        else:
            state.push(rng.choice(list(state.legal_moves())))
    assert not state.is_over()
    return save_record(state)


def what_is_shown(page: Any) -> tuple[list[str], str, str]:
    """Every board location's label (what is on it), the move list and the status line."""
    labels = page.eval_on_selector_all("#board [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))")
    return labels, page.text_content("#moves"), page.text_content("#status")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_an_opened_game_survives_a_reload_and_exports_the_same_record(
    page, base_url, tmp_path: Path, game_id: str
) -> None:
    options, plies = GAMES[game_id]
    record = record_after_random_play(game_id, options, plies, seed=7)
    path = tmp_path / f"{game_id}.json"
    path.write_text(json.dumps(record))

    open_app(page, base_url)
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector(f"svg.board-{game_id}")
    assert "Opened" in page.text_content("#message")
    shown = what_is_shown(page)
    assert any(":" in label for label in shown[0])  # the locations say what is on them

    open_app(page, base_url)  # reload: the saved game comes back as it was
    page.wait_for_selector(f"svg.board-{game_id}")
    assert what_is_shown(page) == shown

    exported = export_record(page)
    assert exported["game"] == game_id
    assert exported["moves"] == record["moves"]
    assert save_record(load_record(exported)) == save_record(load_record(record))
