"""The board kit (web/boards/svg.py) and what every board draws with it (CPython and Pyodide): one
structure for a location, a stone and the last-move ring, positions from the engine's geometry."""

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
from boards.svg import STONE_LETTERS, Glint, Plan, StoneLook, last_ring, location, stone  # noqa: E402
from engine import GAME_IDS, get_game  # noqa: E402

STONE_BOARDS = ("three-stones", "morris", "rings", "sage-stones")
LOCATION = re.compile(
    r'<g class="[^"]*" (data-target="[^"]+" role="button" tabindex="-1"|role="img") aria-label="[^"]+">'
)
LAST_RING = re.compile(
    r'<g class="last-ring" aria-hidden="true"><circle [^>]*class="ring-shadow"/><circle [^>]*class="ring"'
)


def played(game_id: str, plies: int, seed: int = 3):
    """A state a few random moves into a game."""
    rng = random.Random(seed)
    state = get_game(game_id).new_state(seed=seed)
    while state.ply < plies and not state.is_over():
        state.push(rng.choice(list(state.legal_moves())))
    return state


def test_a_plan_puts_board_units_on_the_drawing_y_down() -> None:
    assert Plan(40, (210, 210)).at(-4, 4) == (50, 50)
    assert Plan(40, turned=True).at(1, 0) == (-0.0, -40)  # the engine's x axis points up the screen


def test_a_location_is_a_button_while_playable_and_an_image_otherwise() -> None:
    live = location("d2", "d2: <empty>", ["<circle/>"], ["point", "", "legal"], True)
    assert live == (
        '<g class="point legal" data-target="d2" role="button" tabindex="-1" '
        'aria-label="d2: &lt;empty&gt;"><circle/></g>'
    )
    assert (
        location("d2", "d2: empty", [], ["point"], False) == '<g class="point" role="img" aria-label="d2: empty"></g>'
    )


def test_a_stone_is_a_shadow_under_a_body_and_glass_shines() -> None:
    look = StoneLook(
        "xx",
        (1, 2),
        shadow="sh sh-{colour}",
        body="body{extra}",
        glint=Glint(0.3, 0.4, 0.3, 0.2),
        glint_on=frozenset({"clear"}),
    )
    black = stone(look, "black", 10, 10, 5, extra="ghost")
    assert black == (
        '<circle cx="11.0" cy="12.0" r="5.0" class="sh sh-black"/>'
        '<circle cx="10.0" cy="10.0" r="5.0" fill="url(#xx-black)" class="body ghost"/>'
    )
    assert "<ellipse" in stone(look, "clear", 10, 10, 5) and "<ellipse" not in black
    grouped = StoneLook("xx", (1, 2), shadow="s", body="b", group="man man-{colour}", groove=0.5)
    assert stone(grouped, "white", 0, 0, 4).startswith('<g class="man man-white">')
    assert 'r="2.0" class="man-groove"' in stone(grouped, "white", 0, 0, 4)


def test_stones_of_many_colour_boards_carry_their_letter_for_the_colour_blind_switch() -> None:
    """Rings and sage-stones write each stone's colour letter (shown while the switch is on); a board of
    two colours told apart by lightness (morris) writes none; no two colours share a letter."""
    assert len(set(STONE_LETTERS.values())) == len(STONE_LETTERS)
    for game_id, lettered in (("rings", True), ("sage-stones", True), ("morris", False), ("three-stones", False)):
        state = played(game_id, 12)
        markup = board_for(state.game).draw(state, {}, True).markup
        letters = re.findall(r'class="stone-letter" aria-hidden="true">(\w)</text>', markup)
        assert bool(letters) == lettered, game_id
        assert set(letters) <= set(STONE_LETTERS.values())
    look = StoneLook("x", (1, 1), shadow="s", body="b", lettered=True)
    assert ">R</text>" in stone(look, "red", 10, 10, 8) and "stone-letter" not in stone(look, "mystery", 10, 10, 8)


@pytest.mark.parametrize("game_id", STONE_BOARDS)
def test_every_stone_board_draws_its_locations_with_the_kit(game_id: str) -> None:
    """Each location of the engine's geometry is one kit location, with one hit area and one focus ring."""
    game = get_game(game_id)
    for interactive in (True, False):
        markup = board_for(game).draw(played(game_id, 6), {}, interactive).markup
        groups = re.findall(
            r'<g class="(?:pocket|point|pt)\b[^"]*" (?:data-target="([^"]+)" role="button" tabindex="-1"|role="img") '
            r'aria-label="([^"]+)">',
            markup,
        )
        assert len(groups) == len(game.geometry().locations)
        assert len(LOCATION.findall(markup)) >= len(groups)
        assert markup.count('class="focus-ring"') >= len(groups)
        assert markup.count('class="hit"') >= len(groups)


@pytest.mark.parametrize("game_id", STONE_BOARDS)
def test_every_stone_board_rings_the_last_stone_the_same_way(game_id: str) -> None:
    markup = board_for(get_game(game_id)).draw(played(game_id, 5), {}, True).markup
    assert len(LAST_RING.findall(markup)) == 1


def test_the_last_ring_is_drawn_in_the_colour_given() -> None:
    assert 'class="ring" stroke="url(#g)"' in last_ring(1, 2, 3, "url(#g)")
    assert "stroke=" not in last_ring(1, 2, 3).split('class="ring"')[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_board_writes_javascript_into_its_markup(game_id: str) -> None:
    """Scripts live in .js files (the page's policy forbids inline scripts and handlers)."""
    board = board_for(get_game(game_id))
    state = played(game_id, 4)
    markup = board.draw(state, {}, True).markup + board.panel(state, {}, True) + board.rules()
    assert not re.search(r"<script|\son[a-z]+\s*=|javascript:", markup, re.IGNORECASE)
