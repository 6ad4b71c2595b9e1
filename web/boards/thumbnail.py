"""A game's board as a small picture: the board's own drawing of a position, with nothing in it to click.

The home screen shows each game by its board. build.py draws the five pictures under CPython into
the built catalogue, so the first screen shows them without importing a board module; the resume
button draws the saved game's position the same way (its board is loaded by then). The picture is
the play screen's SVG with the parts only a live board needs taken out: hit areas, focus rings,
labels and roles, the zoom buttons. Its gradients keep their ids (the style sheet names some): each
board's ids carry its own prefix, so pictures of two games share none, and two pictures of one game
(its card and the resume button) define them alike.
"""

from __future__ import annotations

import random
import re
from typing import Any

from . import board_for

SAMPLE_SEED = 7  # deals and picks the sample's moves: a fixed number draws the same picture in every build

_SVG = re.compile(r"<svg\b.*</svg>", re.S)
_LIVE_SHAPES = re.compile(r'<(?:circle|rect|polygon|ellipse|path)\b[^>]*class="(?:hit|focus-ring)"[^>]*/>')
_LIVE_ATTRIBUTES = re.compile(r'\s(?:role|aria-[\w-]+|tabindex|data-[\w-]+)(?:="[^"]*")?(?=[\s/>])')
_SVG_OPENING = re.compile(r'<svg\b([^>]*?)\sclass="([^"]*)"([^>]*)>')
_TEXT_FOR_READERS = re.compile(r"<(title|desc|style)\b[^>]*>.*?</\1>", re.S)


def sample_state(game: Any) -> Any:
    """A position a few moves into the game (its board's `picture_plies`) with its default options: seeded
    random moves and chance."""
    plies = board_for(game).picture_plies
    state = game.new_state({}, seed=SAMPLE_SEED)
    rng = random.Random(SAMPLE_SEED)
    while state.ply < plies and not state.is_over():
        if state.is_chance_node():
            state.push_unchecked(state.sample_chance())
        else:
            state.push_unchecked(rng.choice(list(state.legal_moves())))
    return state


def thumbnail(state: Any) -> str:
    """The game's board drawing of `state` as a picture: hidden from screen readers (the card or button
    around it says what it is), nothing in it focusable."""
    markup = board_for(state.game).draw(state, {}, interactive=False).markup
    found = _SVG.search(markup)
    if found is None:
        raise ValueError(f"the {state.game.id} board drew no SVG to make a picture of")
    svg = _TEXT_FOR_READERS.sub("", found.group())
    svg = _LIVE_SHAPES.sub("", svg)
    svg = _LIVE_ATTRIBUTES.sub("", svg)
    opening = _SVG_OPENING.match(svg)
    if opening is None:
        raise ValueError(f"the {state.game.id} board's SVG has no opening tag")
    head, classes, rest = opening.group(1), opening.group(2), opening.group(3)
    board_classes = " ".join(c for c in classes.split() if c != "board")
    # the board's classes go on a group inside: its style applies, and `svg.board-<game>` stays the live board
    return (
        f'<svg class="picture" aria-hidden="true" focusable="false"{head}{rest}>'
        f'<g class="{board_classes}">{svg[opening.end() : -len("</svg>")]}</g></svg>'
    )
