"""The players' colours stay apart for a colour-blind player: every pair of colours that can meet on a board
(its players' colours as the engine deals them, at every player count) differs in lightness once seen
through a simulation of deuteranopia, the commonest colour blindness.

The simulation is Machado, Oliveira and Fernandes (2009), severity 1, applied in linear sRGB; lightness is
CIE L* (D65). Colours that share a hue family can still be told apart by lightness alone, which survives
every kind of colour blindness; the colour-blind switch adds a letter to each stone on top of this.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from boards import rings, sage_stones, triple_domino  # noqa: E402
from engine import get_game  # noqa: E402
from engine.games import rings as rings_rules  # noqa: E402
from engine.games import sage_stones as sage_rules  # noqa: E402

MIN_LIGHTNESS_GAP = 8.0  # CIE L*: two stones side by side are told apart by lightness alone at about this gap
MACHADO_DEUTERANOPIA = (  # Machado et al. 2009, severity 1.0, on linear RGB
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
MORRIS_LIKE = {"black": "#26262a", "white": "#efebe1"}  # morris and three-stones: the men's mid shades


def linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def lightness(colour: str, deuteranope: bool = True) -> float:
    """CIE L* of an sRGB colour ("#rrggbb"), as a deuteranope sees it (or as anyone does)."""
    rgb = [linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    if deuteranope:
        rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in MACHADO_DEUTERANOPIA]
    y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    f = y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116
    return 116 * f - 16


def too_close(palette: dict[str, str], colours: list[str]) -> list[str]:
    """The pairs of `colours` whose lightness, seen by a deuteranope, differs by less than the gap."""
    return [
        f"{a} {lightness(palette[a]):.0f} / {b} {lightness(palette[b]):.0f}"
        for a, b in itertools.combinations(colours, 2)
        if abs(lightness(palette[a]) - lightness(palette[b])) < MIN_LIGHTNESS_GAP
    ]


def most_players(game_id: str) -> int:
    """The largest table a game's options allow."""
    return next(o["maximum"] for o in get_game(game_id).describe()["options"] if o["name"] == "players")


BOARDS = {  # board → (its palette as drawn, the colours of every seat at the largest table)
    "rings": (
        {c: shades[1] for c, shades in rings.COLOURS.items()},
        list(rings_rules.DEFAULT_ORDER[: most_players("rings")]),
    ),
    "sage-stones": (sage_stones.SOLID, list(sage_rules.DEFAULT_COLOURS[: most_players("sage-stones")])),
    "triple-domino": (
        {f"p{i + 1}": ink for i, ink in enumerate(triple_domino.SEAT_INK)},
        [f"p{i + 1}" for i in range(most_players("triple-domino"))],
    ),
    "morris and three-stones": (MORRIS_LIKE, list(MORRIS_LIKE)),
}


@pytest.mark.parametrize("board", BOARDS)
def test_every_pair_of_player_colours_differs_in_lightness_for_a_deuteranope(board: str) -> None:
    palette, colours = BOARDS[board]
    assert not too_close(palette, colours)


def test_the_simulation_tells_the_classic_confusion_apart_from_a_safe_pair() -> None:
    """Red and green of one lightness merge for a deuteranope; black and white never do."""
    assert abs(lightness("#d0362c") - lightness("#2f9a45")) < MIN_LIGHTNESS_GAP
    assert lightness("#ffffff") == pytest.approx(100, abs=0.01) and lightness("#000000") == pytest.approx(0, abs=0.01)
    assert abs(lightness("#26262a") - lightness("#efebe1")) > 50
