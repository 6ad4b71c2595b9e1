"""Every game's board as data (`Game.geometry()`): the one source web/ and vision/ draw and read from."""

from __future__ import annotations

import math

import pytest

from engine import GAME_IDS, get_game
from engine.core import Geometry
from engine.games import morris, rings

BOARD_GAMES = ("three-stones", "morris", "rings", "sage-stones")
PITCH = {"three-stones": 1.0, "morris": 1.0, "sage-stones": 1.0, "rings": rings.CIRCLE_RADIUS}
"""The distance between neighbouring locations, in board units."""


def inside(polygon: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    """Ray casting: a point strictly inside a simple polygon."""
    crossings = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_a_geometry(game_id: str) -> None:
    assert isinstance(get_game(game_id).geometry(), Geometry)


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_geometry_lists_the_locations_of_the_game_in_its_order(game_id: str) -> None:
    game = get_game(game_id)
    assert game.geometry().ids() == game.locations()


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_locations_lie_inside_the_outline_a_pitch_apart(game_id: str) -> None:
    geometry = get_game(game_id).geometry()
    assert len(geometry.outline) >= 4
    assert all(inside(geometry.outline, loc.x, loc.y) for loc in geometry.locations)
    nearest = [
        min(math.dist((a.x, a.y), (b.x, b.y)) for b in geometry.locations if b is not a) for a in geometry.locations
    ]
    assert min(nearest) == pytest.approx(PITCH[game_id])
    assert 0 < geometry.stone_radius < PITCH[game_id]


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_the_centre_of_the_board_is_the_origin(game_id: str) -> None:
    outline = get_game(game_id).geometry().outline
    xs = [x for x, _ in outline]
    assert min(xs) == pytest.approx(-max(xs))


def test_morris_lines_are_the_mills_drawn_straight() -> None:
    geometry = morris.GAME.geometry()
    xy = geometry.xy()
    assert len(geometry.lines) == 16
    for line, mill in zip(geometry.lines, morris.MILLS):
        assert line.through == tuple(morris.POINT_NAMES[p] for p in mill)
        (ax, ay), (bx, by), (cx, cy) = (xy[name] for name in line.through)
        assert (bx - ax) * (cy - ay) == (by - ay) * (cx - ax)  # collinear
    pieces = {frozenset(piece) for line in geometry.lines for piece in line.segments()}
    assert pieces == {frozenset((morris.POINT_NAMES[a], morris.POINT_NAMES[b])) for a, b in morris.EDGES}


def test_rings_circles_pass_through_their_points() -> None:
    geometry = rings.GAME.geometry()
    xy = geometry.xy()
    for circle in geometry.circles:
        assert len(circle.through) == 6 if circle.full else 1 <= len(circle.through) < 6
        for name in circle.through:
            assert math.dist(xy[name], (circle.x, circle.y)) == pytest.approx(circle.radius)


def test_a_line_through_an_unknown_location_is_refused() -> None:
    from engine.core import Line, Location

    with pytest.raises(AssertionError, match="unknown location"):
        Geometry((Location("a1", 0.0, 0.0),), ((0, 0), (1, 0), (1, 1)), 0.3, "point", lines=(Line(("a1", "z9")),))
