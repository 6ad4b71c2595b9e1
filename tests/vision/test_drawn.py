"""How much of rings' drawn circles shows beside each point (`vision.drawn`), on drawn boards."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.games import get_game
from vision.classify import PX_PER_RADIUS
from vision.drawn import lines_shown
from vision.frame import Frame
from vision.layouts import get_layout

RINGS = get_layout("rings")
STONES = np.arange(len(RINGS.ids)) % 3 == 0  # a third of the points hold a stone


def board(
    board_L: float, line_L: float, dot_L: float | None, stone_L: float, off_px: float = 0.0
) -> tuple[np.ndarray, Frame]:
    """The board plane's lightness in the reader's raster: the circles (2 pixels wide), a dot of
    `dot_L` at every point (None: no markers) and a stone of `stone_L` on every third point, all
    drawn `off_px` pixels right of where the fit puts them (a fit found on a photo lies off)."""
    frame = Frame(RINGS, PX_PER_RADIUS / RINGS.stone_radius, margin=0.3)
    img = np.full((frame.h, frame.w), board_L, np.float32)
    shift = np.array([off_px, 0.0])
    scale = 16  # sub-pixel drawing
    for circle in get_game("rings").geometry().circles:
        centre = (frame.to_px([(circle.x, circle.y)])[0] + shift) * scale
        cv2.circle(
            img, tuple(np.round(centre).astype(int)), round(circle.radius * frame.s * scale), line_L, 2, cv2.LINE_AA, 4
        )
    points = frame.to_px(RINGS.xy) + shift
    for (x, y), stone in zip(points, STONES):
        at = (round(x * scale), round(y * scale))
        if stone:
            cv2.circle(img, at, round(0.95 * PX_PER_RADIUS * scale), stone_L, -1, cv2.LINE_AA, 4)
        elif dot_L is not None:
            cv2.circle(img, at, round(0.3 * PX_PER_RADIUS * scale), dot_L, -1, cv2.LINE_AA, 4)
    noise = np.random.default_rng(0).normal(0, 1.0, img.shape).astype(np.float32)
    return cv2.GaussianBlur(img + noise, (0, 0), 0.7), frame


@pytest.mark.parametrize(
    "board_L, line_L, dot_L, stone_L",
    [
        (85.0, 20.0, None, 88.0),  # dark ink on a pale board, white stones barely lighter than it
        (30.0, 85.0, 85.0, 28.0),  # light inlay on dark wood, light dots, dark stones of the board's colour
        (70.0, 25.0, 25.0, 25.0),  # dark dots and black stones: the dots and stones look alike
    ],
)
@pytest.mark.parametrize("off_px", [0.0, 2.0])
def test_empty_points_show_the_circles_and_stones_hide_them(board_L, line_L, dot_L, stone_L, off_px):
    foot, frame = board(board_L, line_L, dot_L, stone_L, off_px)
    shown = lines_shown(foot, frame, RINGS)
    assert np.median(shown[~STONES]) > 0.5
    assert np.percentile(shown[~STONES], 5) > 0.3
    assert np.percentile(np.abs(shown[STONES]), 95) < 0.15


def test_a_board_whose_lines_do_not_show_says_nothing():
    # an engraved groove lit from above, or lines of the board's own colour: no polarity shows midway
    foot, frame = board(60.0, 60.0, None, 20.0)
    assert not lines_shown(foot, frame, RINGS).any()


def test_boards_without_drawn_circles_have_no_measure():
    layout = get_layout("morris")
    frame = Frame(layout, PX_PER_RADIUS / layout.stone_radius, margin=0.3)
    assert not lines_shown(np.full((frame.h, frame.w), 50.0, np.float32), frame, layout).any()
