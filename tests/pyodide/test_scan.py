"""The scan screen's logic (web/ui/scan.py) without a browser or OpenCV: CPython and Pyodide alike.

The companion's answers are built from the committed test photos' ground truth
(tests/vision/photos/*.json: the cells and each location's pixel position), so the
overlay is checked against real photo geometry; e2e/test_scan.py sends the photos
themselves through the real companion in Chromium.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
if str(WEB) not in sys.path:
    sys.path.insert(0, str(WEB))

from engine import PositionError, UnreachablePositionError, get_game, score_position  # noqa: E402
from ui.scan import (COMPANION_MISSING, LOW_CONFIDENCE, ScanError, ScanReading, overlay_svg,  # noqa: E402
                     pick_html, read_answer, result_html, score_html, side_html)
from ui.session import restore, saved_json  # noqa: E402

PHOTOS = ROOT / "tests" / "vision" / "photos"


def answer(name: str, doubtful: tuple[str, ...] = ()) -> dict:
    """What POST /api/read answers for a test photo read exactly, `doubtful` read at 55 %."""
    truth = json.loads((PHOTOS / f"{name}.json").read_text())
    return {"game": truth["game"], "cells": truth["cells"],
            "confidence": {loc: 0.55 if loc in doubtful else 0.97 for loc in truth["cells"]},
            "points": truth["cell_px"], "image_size": truth["size"], "seconds": 2.5,
            "board_corners": truth["board_corners"], "score": {}}


def reading(name: str, doubtful: tuple[str, ...] = ()) -> ScanReading:
    data = answer(name, doubtful)
    return ScanReading.from_answer(data, data["game"])


def cells_drawn(svg: str) -> dict[str, dict[str, str]]:
    """Each drawn location: its attributes (class, transform, data-colour, ...)."""
    out = {}
    for tag in re.findall(r"<g [^>]*>", svg):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        out[attrs["data-cell"]] = attrs
    return out


# ----- the companion's answer ------------------------------------------------------------------
def test_an_exact_answer_becomes_a_reading() -> None:
    scan = reading("morris_3002")
    assert scan.cells == scan.read and set(scan.cells) == set(get_game("morris").locations())
    assert scan.size == (900.0, 1200.0) and not scan.checked and not scan.corrected()


@pytest.mark.parametrize("spoil, words", [
    (lambda a: a.update(game="rings"), "rings"),
    (lambda a: a["cells"].pop("a1"), "does not cover"),
    (lambda a: a["points"].pop("d7"), "does not cover"),
    (lambda a: a["cells"].update(a1="purple"), "purple"),
    (lambda a: a.pop("points"), "points"),
    (lambda a: a.update(image_size=[0, 10]), "size"),
    (lambda a: a["points"].update(a1=["x", 3]), "malformed"),
])
def test_a_broken_answer_is_refused_in_words(spoil, words) -> None:
    data = answer("morris_3002")
    spoil(data)
    with pytest.raises(ScanError, match=words):
        ScanReading.from_answer(data, "morris")


def test_http_answers_become_a_reading_or_a_reason() -> None:
    good = answer("three-stones_3000")
    assert read_answer(200, json.dumps(good), "three-stones").cells == good["cells"]
    for status in (0, 404, 405):  # the server is gone (fetch failed), or a static server with no companion
        with pytest.raises(ScanError) as missing:
            read_answer(status, "<html>Not Found</html>", "three-stones")
        assert missing.value.missing and str(missing.value) == COMPANION_MISSING
        assert "./stones start" in str(missing.value)
    with pytest.raises(ScanError) as refused:
        read_answer(415, json.dumps({"error": "not an image (JPEG, PNG or WebP expected)", "code": "not_an_image"}),
                    "morris")
    assert not refused.value.missing
    assert str(refused.value) == ("The companion could not read this photo: not an image (JPEG, PNG or WebP expected). "
                                  "Choose a photo of the board instead.")
    with pytest.raises(ScanError, match="looks like a rings board.*Choose that game"):
        read_answer(422, json.dumps({"error": "this looks like a rings board, not morris", "code": "wrong_game"}), "morris")
    with pytest.raises(ScanError, match="HTTP 500"):
        read_answer(500, "Internal Server Error", "morris")


# ----- corrections -------------------------------------------------------------------------------
def test_a_tap_cycles_empty_then_each_colour_then_empty() -> None:
    scan = reading("three-stones_3000")
    empty = next(loc for loc, c in scan.cells.items() if c is None)
    seen = [scan.cycle(empty) for _ in range(4)]
    assert seen == ["white", "black", "clear", None]
    assert empty in scan.checked and scan.corrected() == []
    scan.cycle(empty)
    assert scan.corrected() == [empty] and scan.position()["cells"][empty] == "white"
    with pytest.raises(KeyError):
        scan.cycle("e5")  # the centre is no location


def test_many_colour_sets_cycle_through_the_colours_on_the_board_first() -> None:
    scan = reading("rings_3000")
    on_board = {c for c in scan.read.values() if c}
    order = scan.colour_cycle()
    assert order[0] is None and set(order[1:]) == set(get_game("rings").palette) and len(order) == 10
    assert set(order[1:1 + len(on_board)]) == on_board
    red = next(loc for loc, c in scan.cells.items() if c == order[1])
    assert scan.cycle(red) == order[2]


def test_low_confidence_cells_are_marked_until_a_person_sets_them() -> None:
    doubtful = ("a1", "d2", "g7")
    scan = reading("morris_3002", doubtful)
    assert scan.to_check() == [loc for loc in scan.cells if loc in doubtful]
    assert all(scan.confidence[loc] < LOW_CONFIDENCE for loc in doubtful)
    drawn = cells_drawn(overlay_svg(scan))
    assert {loc for loc, a in drawn.items() if "doubt" in a["class"].split()} == set(doubtful)
    assert "55% sure: check it" in drawn["a1"]["aria-label"]
    assert 'data-to-check="3"' in side_html(scan) and "3 cells to check" in side_html(scan)
    scan.cycle("d2")
    drawn = cells_drawn(overlay_svg(scan))
    assert "checked" in drawn["d2"]["class"].split() and "doubt" not in drawn["d2"]["class"].split()
    assert drawn["d2"]["aria-label"].endswith(", checked")
    assert "2 cells to check" in side_html(scan)
    for loc in ("a1", "g7"):
        scan.cycle(loc)
    assert scan.to_check() == [] and "Every location read with confidence" in side_html(scan)


# ----- the overlay ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["three-stones_3000", "morris_3002", "rings_3000", "sage-stones_3002"])
def test_the_overlay_puts_each_marker_on_its_point_without_overlaps(name: str) -> None:
    scan = reading(name)
    svg = overlay_svg(scan)
    width, height = scan.size
    assert f'viewBox="0 0 {width:g} {height:g}"' in svg
    drawn = cells_drawn(svg)
    assert set(drawn) == set(scan.cells)
    spacing = scan.spacing
    groups = dict(re.findall(r'data-cell="([^"]+)"[^>]*>(.*?)</g>', svg))
    for loc, attrs in drawn.items():
        x, y = map(float, re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", attrs["transform"]).groups())
        assert abs(x - scan.points[loc][0]) <= 0.05 and abs(y - scan.points[loc][1]) <= 0.05
        assert attrs["data-colour"] == (scan.cells[loc] or "empty")
        radii = [float(r) for r in re.findall(r'r="([\d.]+)"', groups[loc])]
        # nothing reaches past half-way to the nearest other location: markers never overlap
        assert max(radii) <= 0.5 * spacing[loc] + 0.05
        assert ('class="disc"' in groups[loc]) == (scan.cells[loc] is not None)
        assert ('class="hole"' in groups[loc]) == (scan.cells[loc] is None)
    # perspective: the spacing (and so the markers) follow the photo, not one fixed size
    assert min(spacing.values()) < 0.9 * max(spacing.values())


def test_the_result_screen_scales_with_the_photo() -> None:
    scan = reading("morris_3002")
    html = result_html(scan, "blob:http://127.0.0.1/abc")
    assert 'src="blob:http://127.0.0.1/abc"' in html and "aspect-ratio:900 / 1200" in html
    assert 'id="scan-overlay"' in html and 'data-action="scan-score"' in html and 'data-action="scan-play"' in html


# ----- score and play on ---------------------------------------------------------------------------
def test_score_is_the_engines_score_of_the_corrected_board() -> None:
    scan = reading("three-stones_3000")
    before = scan.score()
    assert before == score_position({"game": "three-stones", "cells": scan.read})
    white = [loc for loc, c in scan.cells.items() if c == "white"]
    scan.cycle(white[0])  # white -> black
    after = scan.score()
    assert after == score_position({"game": "three-stones", "cells": scan.cells})
    assert scan.cells[white[0]] == "black"
    html = score_html("three-stones", after)
    for side, points in after["scores"].items():
        assert f'data-scan-score="{side}">{points}</b>' in html
    for item in after["items"]:
        assert "-".join(item["cells"]) in html


def test_continue_starts_a_saved_game_at_the_corrected_position() -> None:
    scan = reading("morris_3002")
    empty = next(loc for loc, c in scan.cells.items() if c is None)
    scan.cycle(empty)
    assert scan.cycle(empty) == "black"  # a black piece more (white has all nine on the board)
    session = scan.start_session(seed=11)
    start = session.state.to_position()["cells"]
    assert start == scan.cells
    assert all(kind == "human" for kind in session.seats.values())
    again = restore(saved_json(session))
    assert again.state.to_position() == session.state.to_position()
    assert again.state.start_position["cells"] == scan.cells


def test_three_stones_continues_with_its_draw_done() -> None:
    session = reading("three-stones_3000").start_session(seed=3)
    assert not session.state.is_chance_node() and session.state.history  # the pouch draw is made
    assert restore(saved_json(session)).state.to_position() == session.state.to_position()


def test_an_impossible_position_says_why() -> None:
    scan = reading("sage-stones_3002")  # two colours have placed all their stones
    with pytest.raises(PositionError, match="every stone"):
        scan.start_session(seed=1)
    morris = reading("morris_3002")
    for loc, colour in morris.read.items():
        if colour is None:
            morris.cycle(loc)  # every point white: 24 pieces, more than a player has
    assert set(morris.cells.values()) == {"white", "black"}
    with pytest.raises(PositionError, match="9|nine|pieces"):
        morris.start_session(seed=1)


@pytest.mark.parametrize("name", ["morris_3002", "three-stones_3000", "sage-stones_3002"])
def test_a_board_no_game_reaches_is_not_scored_either(name: str) -> None:
    """Score and play on refuse alike, with the rule (the companion's score_position does the same)."""
    scan = reading(name)
    for loc in scan.cells:
        scan.cells[loc] = get_game(scan.game).palette[0]  # every location one colour: more than the set holds
    with pytest.raises(UnreachablePositionError) as scored:
        scan.score()
    with pytest.raises(UnreachablePositionError) as played:
        scan.start_session(seed=1)
    assert str(scored.value) == str(played.value) and scored.value.rule == played.value.rule
    with pytest.raises(UnreachablePositionError):
        score_position(scan.position())


# ----- the first screen -----------------------------------------------------------------------------
def test_the_photo_buttons_wait_for_the_companion() -> None:
    ready = pick_html("morris", True)
    assert 'value="morris" checked' in ready and 'data-companion="ready"' in ready
    assert re.search(r'<input type="file" id="scan-camera" accept="image/\*" capture="environment"', ready)
    assert re.search(r'<input type="file" id="scan-file" accept="image/\*"', ready)
    assert 'data-action="scan-camera" aria-describedby="scan-status">' in ready
    missing = pick_html("morris", False)
    assert 'data-companion="missing"' in missing and COMPANION_MISSING.split(":")[0] in missing
    assert "run <code>./stones start</code> and open" in missing and "<code>./stones start --lan</code>" in missing
    assert 'data-action="scan-camera" aria-describedby="scan-status" disabled>' in missing
    assert 'data-action="scan-recheck"' in missing
    checking = pick_html("rings", None, error="The companion could not read this photo: too dark.")
    assert 'data-companion="checking"' in checking and "too dark" in checking and " disabled>" in checking
