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
from ui.scan import (  # noqa: E402
    COMPANION_MISSING,
    FINGER,
    LOW_CONFIDENCE,
    NOT_SCANNED,
    PHONE_WIDTH,
    ScanError,
    ScanReading,
    assumption_sentence,
    overlay_svg,
    palette_html,
    photo_html,
    pick_html,
    read_answer,
    result_html,
    scan_zoom,
    score_html,
    side_html,
)
from ui.session import restore, saved_json  # noqa: E402

PHOTOS = ROOT / "tests" / "vision" / "photos"


def answer(name: str, doubtful: tuple[str, ...] = ()) -> dict:
    """What POST /api/read answers for a test photo read exactly, `doubtful` read at 55 %."""
    truth = json.loads((PHOTOS / f"{name}.json").read_text())
    return {
        "game": truth["game"],
        "cells": truth["cells"],
        "confidence": {loc: 0.55 if loc in doubtful else 0.97 for loc in truth["cells"]},
        "points": truth["cell_px"],
        "image_size": truth["size"],
        "seconds": 2.5,
        "board_corners": truth["board_corners"],
        "score": {},
    }


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


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda a: a.update(game="rings"), "rings"),
        (lambda a: a["cells"].pop("a1"), "does not cover"),
        (lambda a: a["points"].pop("d7"), "does not cover"),
        (lambda a: a["cells"].update(a1="purple"), "purple"),
        (lambda a: a.pop("points"), "points"),
        (lambda a: a.update(image_size=[0, 10]), "size"),
        (lambda a: a["points"].update(a1=["x", 3]), "malformed"),
    ],
)
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
        assert "computer that started Stones" in str(missing.value) and "./stones" not in str(missing.value)
    with pytest.raises(ScanError) as refused:
        read_answer(
            415, json.dumps({"error": "not an image (JPEG, PNG or WebP expected)", "code": "not_an_image"}), "morris"
        )
    assert not refused.value.missing
    assert str(refused.value) == (
        "The scanner could not read this photo: not an image (JPEG, PNG or WebP expected). "
        "Choose a photo of the board instead."
    )
    with pytest.raises(ScanError, match="looks like a rings board.*Choose that game"):
        read_answer(
            422, json.dumps({"error": "this looks like a rings board, not morris", "code": "wrong_game"}), "morris"
        )
    with pytest.raises(ScanError, match="HTTP 500"):
        read_answer(500, "Internal Server Error", "morris")


# ----- corrections -------------------------------------------------------------------------------
def test_a_location_is_set_to_the_colour_picked_from_its_palette() -> None:
    scan = reading("three-stones_3000")
    empty = next(loc for loc, c in scan.cells.items() if c is None)
    palette = palette_html(scan, empty)
    picks = re.findall(r'data-action="scan-set" data-cell="([^"]+)" data-colour="([^"]+)"', palette)
    assert picks == [(empty, "empty"), (empty, "white"), (empty, "black"), (empty, "clear")]
    assert re.search(r'data-colour="empty" aria-pressed="true"', palette)  # what is there now
    scan.set(empty, "clear")
    assert scan.cells[empty] == "clear" and empty in scan.checked and scan.corrected() == [empty]
    scan.set(empty, None)
    assert scan.corrected() == [] and empty in scan.checked
    with pytest.raises(KeyError):
        scan.set("e5", "white")  # the centre is no location
    with pytest.raises(ValueError, match="no red"):
        scan.set(empty, "red")


def test_many_colour_sets_offer_the_colours_on_the_board_first() -> None:
    scan = reading("rings_3000")
    on_board = {c for c in scan.read.values() if c}
    order = scan.colour_choices()
    assert order[0] is None and set(order[1:]) == set(get_game("rings").palette) and len(order) == 10
    assert set(order[1 : 1 + len(on_board)]) == on_board
    stone = next(loc for loc, c in scan.cells.items() if c == order[1])
    assert palette_html(scan, stone).count('class="choice"') == 10


def test_a_colour_read_wrongly_on_every_stone_is_set_at_once_from_its_count() -> None:
    scan = reading("rings_3000")
    counts = scan.counts()
    colour = next(c for c in counts if c != "empty")
    into = next(c for c in get_game("rings").palette if c not in counts)  # a colour the board does not show
    side = side_html(scan)
    buttons = re.findall(r'<button type="button" class="count" data-action="scan-group" data-colour="([^"]+)"', side)
    assert buttons == [c for c in counts if c != "empty"]  # every colour's count is a button, empty's is not
    assert f"Change all {counts[colour]} stones read as {colour}" in side and 'id="scan-group"' not in side
    group = side_html(scan, grouping=colour)
    assert 'aria-expanded="true">' in group and f"The {counts[colour]} stones read as {colour} are:" in group
    offered = re.findall(r'data-action="scan-regroup" data-colour="([^"]+)"', group)
    assert offered == [c or "empty" for c in scan.colour_choices() if c != colour]  # all but the colour itself
    moved = scan.recolour(colour, into)
    assert sorted(moved) == sorted(loc for loc, c in scan.read.items() if c == colour) and len(moved) == counts[colour]
    assert all(scan.cells[loc] == into for loc in moved) and set(moved) <= scan.checked
    assert scan.counts()[into] == counts[colour] and colour not in scan.counts()
    assert sorted(scan.corrected()) == sorted(moved)
    # the stones can be merged into a colour already on the board, or cleared
    other = next(c for c in scan.counts() if c not in ("empty", into))
    scan.recolour(into, other)
    assert scan.counts()[other] == counts[colour] + counts[other]
    scan.recolour(other, None)
    assert scan.counts()["empty"] == counts["empty"] + counts[colour] + counts[other] and other not in scan.counts()
    with pytest.raises(ValueError, match="no brown"):
        scan.recolour(other, "brown")
    with pytest.raises(ValueError):
        scan.recolour(None, "red")  # type: ignore[arg-type]  # empty is no colour to set at once


def test_a_crowded_photo_zooms_at_the_first_tap_so_a_location_fits_a_finger() -> None:
    rings, morris = reading("rings_3000"), reading("morris_3002")
    assert rings.tap_zoom() > 2.5 and 1.0 < morris.tap_zoom() < rings.tap_zoom()
    closest = sorted(rings.spacing.values())[len(rings.spacing) // 10]
    assert closest * PHONE_WIDTH / rings.size[0] * rings.tap_zoom() >= FINGER  # zoomed, a finger fits
    assert 'data-zoom-tap="' in overlay_svg(rings)
    spread = ScanReading(
        game="morris",
        read=morris.read,
        confidence=morris.confidence,
        size=morris.size,
        points={loc: (x * 3, y * 3) for loc, (x, y) in morris.points.items()},
    )
    assert spread.tap_zoom() == 1.0 and "data-zoom-tap" not in overlay_svg(spread)  # far apart: taps play
    view: dict = {}
    assert 'data-fit="0.0 0.0' in overlay_svg(rings, "", view) and 'viewBox="0.0 0.0' in overlay_svg(rings, "", view)
    zoom = scan_zoom(rings)
    width, height = rings.size
    zoom.act(view, "view", f"{width / 4},{height / 4},{width / zoom.tap}", rings_frame(rings))
    box = [float(v) for v in re.search(r'viewBox="([^"]+)"', overlay_svg(rings, "", view)).group(1).split()]
    assert box[2] == pytest.approx(width / zoom.tap, abs=0.1)
    assert box[0] == pytest.approx(max(0.0, width / 4 - box[2] / 2), abs=0.1)
    # the palette opens where the location is shown in the zoomed photo (a share of the box)
    near = min(
        rings.points, key=lambda loc: abs(rings.points[loc][0] - width / 4) + abs(rings.points[loc][1] - height / 4)
    )
    left = float(re.search(r"left:([\d.]+)%", palette_html(rings, near, view)).group(1))
    assert left == pytest.approx(min(85.0, max(15.0, 100 * (rings.points[near][0] - box[0]) / box[2])), abs=0.2)


def rings_frame(scan: ScanReading):
    from ui.scan import photo_frame

    return photo_frame(scan)


def test_low_confidence_cells_are_marked_until_a_person_sets_them() -> None:
    doubtful = ("a1", "d2", "g7")
    scan = reading("morris_3002", doubtful)
    assert scan.to_check() == [loc for loc in scan.cells if loc in doubtful]
    assert all(scan.confidence[loc] < LOW_CONFIDENCE for loc in doubtful)
    drawn = cells_drawn(overlay_svg(scan))
    assert {loc for loc, a in drawn.items() if "doubt" in a["class"].split()} == set(doubtful)
    assert "55% sure: check it" in drawn["a1"]["aria-label"]
    assert 'data-to-check="3"' in side_html(scan) and "3 cells to check" in side_html(scan)
    scan.set("d2", scan.cells["d2"])
    drawn = cells_drawn(overlay_svg(scan))
    assert "checked" in drawn["d2"]["class"].split() and "doubt" not in drawn["d2"]["class"].split()
    assert drawn["d2"]["aria-label"].endswith(", checked")
    assert "2 cells to check" in side_html(scan)
    for loc in ("a1", "g7"):
        scan.set(loc, scan.cells[loc])
    assert scan.to_check() == [] and "Every location read with confidence" in side_html(scan)


# ----- the overlay ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["three-stones_3000", "morris_3002", "rings_3000", "sage-stones_3002"])
def test_the_overlay_puts_each_marker_on_its_point_without_overlaps(name: str) -> None:
    scan = reading(name)
    svg = overlay_svg(scan)
    width, height = scan.size
    assert f'viewBox="0.0 0.0 {width:.1f} {height:.1f}"' in svg
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
    assert '<image class="scan-image" href="blob:http://127.0.0.1/abc" x="0" y="0" width="900" height="1200"' in html
    assert "aspect-ratio:900 / 1200" in html and 'id="scan-photo"' in html and "data-zoom-commit" in html
    assert 'id="scan-overlay"' in html and 'data-action="scan-score"' in html and 'data-action="scan-play"' in html


# ----- score and play on ---------------------------------------------------------------------------
def test_score_is_the_engines_score_of_the_corrected_board() -> None:
    scan = reading("three-stones_3000")
    before = scan.score()
    assert before == score_position({"game": "three-stones", "cells": scan.read})
    white = [loc for loc, c in scan.cells.items() if c == "white"]
    scan.set(white[0], "black")
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
    scan.set(empty, "black")  # a black piece more (white has all nine on the board)
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
            morris.set(loc, "white")  # every point white: 24 pieces, more than a player has
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
    assert 'data-companion="missing"' in missing and COMPANION_MISSING.split(";")[0] in missing
    assert "<code>./stones start --lan</code>" in missing and "Running Stones yourself?" in missing  # tucked away
    assert 'data-action="scan-camera" aria-describedby="scan-status" disabled>' in missing
    assert 'data-action="scan-recheck"' in missing
    for game, why in NOT_SCANNED.items():  # listed, not choosable, with the reason
        assert re.search(f'value="{game}" disabled aria-describedby="why-{game}">', ready) and why in ready
    checking = pick_html("rings", None, error="The scanner could not read this photo: too dark.")
    assert 'data-companion="checking"' in checking and "too dark" in checking and " disabled>" in checking


# ----- words for a person ------------------------------------------------------------------------------
def test_who_moves_next_is_asked_and_passed_on() -> None:
    scan = reading("morris_3002")
    sides, guess = scan.movers()
    assert sides == ["white", "black"] and guess in sides
    html = side_html(scan, to_move="black")
    assert "Who moves next?" in html and '<option value="black" selected>' in html
    scan.set(next(loc for loc, c in scan.cells.items() if c is None), "black")
    session = scan.start_session(seed=2, to_move="black")
    assert session.state.current_player == "black"
    assert not any(text.startswith("to_move") for text in session.state.assumed)


@pytest.mark.parametrize(
    "assumed, words",
    [
        ("in_hand.white not given: no white piece captured yet, so 0 in hand", "as if none had been taken"),
        ("since_removal not given: the count toward the no-removal draw starts at 0", "starts again from zero"),
        ("last not given: the next stone may go anywhere", "cannot show which stone was played last"),
        ("white has placed all its stones: it has won", "White has placed all its stones: it has won."),
    ],
)
def test_what_was_assumed_reads_as_a_sentence(assumed: str, words: str) -> None:
    sentence = assumption_sentence(assumed)
    assert words in sentence and "not given" not in sentence and "_" not in sentence


def test_the_photo_box_holds_zoom_buttons_for_the_scan_screen() -> None:
    html = photo_html(reading("rings_3000"), "blob:x")
    assert 'data-action="scan-zoom" data-value="in"' in html and 'data-action="scan-view" data-zoom-commit' in html
    assert "data-board-action" not in html
