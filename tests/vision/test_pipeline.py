"""The whole pipeline on committed generated photos: the exact position is expected.

The photos in tests/vision/photos were made by `python -m vision.photogen` (seed 3, then
re-encoded small): see that folder's README.  A symmetric board may be read in any of
its symmetries; sage-stones must come out in its own orientation.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from fit_error import error_units
from vision import pipeline
from vision.classify import feature_names
from vision.detect import find_board
from vision.errors import VisionError
from vision.layouts import get_layout, misread
from vision.io import read_image
from vision.pipeline import (
    a_unit_in_doubt,
    Reading,
    _accept,
    a_step_in_doubt,
    detection_pool,
    faint_lines,
    look_order,
    nudged_fits,
    read_board,
    read_cells,
    score_board,
    true_fit,
)
from vision.refine import lattice_steps
from vision.tuning import CHECK_BELOW, MAX_CAMERA_ERROR, MAX_OUTSIDE, MIN_PRESENT, MIN_WEAKEST_SIDE

PHOTOS = Path(__file__).parent / "photos"
CASES = sorted(p.stem for p in PHOTOS.glob("*.json"))


# Photos the pipeline is known to miss today, with why (kept in the set, reported, not hidden).
KNOWN_MISSES: dict[str, str] = {}


@pytest.mark.skipif(not CASES, reason="no committed test photos")
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_MISSES[n], strict=False)) if n in KNOWN_MISSES else n
        for n in CASES
    ],
)
def test_reads_exact_position(name):
    meta = json.loads((PHOTOS / f"{name}.json").read_text())
    reading = read_board(PHOTOS / meta["image"], meta["game"])
    assert set(reading.cells) == set(get_layout(meta["game"]).ids)
    assert misread(meta["game"], reading.cells, meta["cells"]) == []
    assert reading.orientation["canonical"] is (meta["game"] != "sage-stones")
    assert all(0.0 <= c <= 1.0 for c in reading.confidence.values())


# The example photos the project was given (outside the repository, beside it), with their truth.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "photos"
SHARED_CASES = sorted(p.stem for p in SHARED.glob("*.json")) if SHARED.is_dir() else []
# every example photo reads exactly; one read wrong would be listed here, with why, as a strict xfail
SHARED_KNOWN_WRONG: dict[str, str] = {}
SHARED_PARAMS = [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=SHARED_KNOWN_WRONG[name]))
    if name in SHARED_KNOWN_WRONG
    else name
    for name in SHARED_CASES
]


@pytest.mark.skipif(not SHARED_CASES, reason="the shared example photos are not beside the repository")
@pytest.mark.parametrize("name", SHARED_PARAMS)
def test_reads_every_shared_example_photo_exactly(name):
    # rings_002's two sunlit orange stones and sage-stones_001's lone orange read yellow and red before
    # `naming.lone_cells_joined` and `classify.join_lone_stones`; they stay marked for checking
    meta = json.loads((SHARED / f"{name}.json").read_text())
    reading = read_board(SHARED / f"{name}.jpg", meta["game"])
    assert misread(meta["game"], reading.cells, meta["cells"]) == []


HARD = PHOTOS / "hard"


def read_hard(name: str) -> tuple[dict, Reading]:
    """A committed hard photo's truth, and its reading as its own game."""
    meta = json.loads((HARD / f"{name}.json").read_text())
    return meta, read_board(HARD / meta["image"], meta["game"])


def _rings_read_near_right_and_a_step_off_doubted(name: str) -> None:
    """A hard rings photo read right but for a dozen cells, none of them sure; and its true fit moved a
    lattice step, where the lines barely show, has every cell checked (`pipeline.a_step_in_doubt`)."""
    meta, reading = read_hard(name)
    wrong = misread("rings", reading.cells, meta["cells"])
    assert len(wrong) <= 12
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)
    step = lattice_steps("rings")[0]
    off = true_fit(meta) @ np.array([[1.0, 0.0, step[0]], [0.0, 1.0, step[1]], [0.0, 0.0, 1.0]])
    assert a_step_in_doubt(read_image(HARD / meta["image"]), off, get_layout("rings"))


def assert_read_wrong_and_marked(name: str) -> None:
    """A hard photo the reader still gets wrong, every wrong cell marked for checking (none sure)."""
    meta, reading = read_hard(name)
    wrong = misread(meta["game"], reading.cells, meta["cells"])
    assert wrong and all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["rings_15003", "sage-stones_7013"])
def test_a_colour_the_forest_doubts_is_read_by_its_look_on_the_photo(name):
    # every white stone of these photos gets under two thirds of the forest's votes and most
    # of them lean empty; the surest ones show how white looks on this photo
    meta, reading = read_hard(name)
    assert misread(meta["game"], reading.cells, meta["cells"]) == []


@pytest.mark.parametrize(
    "name",
    [
        "morris_23007",
        pytest.param(
            "morris_23010",
            marks=pytest.mark.xfail(
                strict=True,
                reason="the forest of the wide designs reads seven empty points of this pale board as white "
                "stones (confidence 0.56-0.79: each marked for checking); issue 17 is open",
            ),
        ),
    ],
)
def test_a_stone_of_the_boards_own_colour_covers_the_lines_at_its_foot(name):
    # a white stone on a pale board, which the forest read as an empty point before it saw
    # whether the lines meeting at the location show there
    meta, reading = read_hard(name)
    assert misread("morris", reading.cells, meta["cells"]) == []


def test_stones_the_forest_reads_empty_are_found_by_their_raised_look_group():
    # glossy white stones on a painted board under tungsten light: the forest leans empty on
    # eight of the nine (0.48-0.52); as a group they hide the lines at their foot, which the
    # empty points show, and each is marked for a person to check
    meta, reading = read_hard("morris_71004")
    assert misread("morris", reading.cells, meta["cells"]) == []
    assert all(reading.confidence[i] < CHECK_BELOW for i, c in reading.cells.items() if c == "white")


@pytest.mark.parametrize("name", ["morris_69013", "morris_91005"])
def test_a_morris_fit_on_other_lines_of_the_drawing_comes_back_onto_its_own(name):
    # one unit off along an axis (69013), or the outer square laid on the middle one (91005), the
    # fit's line samples that show a line have it where the fit puts them: the fit was taken, and
    # 8 and 14 cells were read wrong
    meta, reading = read_hard(name)
    assert misread("morris", reading.cells, meta["cells"]) == []


@pytest.mark.parametrize("name, left", [("morris_b115001", 2), ("morris_b115005", 1)])
def test_a_highlight_on_a_glossy_board_shows_no_stones_rim(name, left):
    # Blender seed 115: the sun on ebonised wood (001), a lamp on black paint (005).  The forest read the
    # empty points inside the highlight as white stones, 4 and 7 of them, three sure; they show no rim where
    # the photo's white stones show a clear one (`presence.rimless_stones`): read empty, marked.  Not yet
    # exact: on 001 (at this size) two empty points in the dark read black, on 005 one, each marked
    meta, reading = read_hard(name)
    wrong = misread("morris", reading.cells, meta["cells"])
    assert len(wrong) <= left
    assert all(reading.cells[pid] != "white" and reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["morris_b115002", "morris_b117003"])
def test_a_stone_the_forest_leans_empty_shows_a_rim_and_a_shaded_body(name):
    # Blender seeds 115 and 117: a white dome on ivory paint, glass lenses on pink card in a dim room.  The
    # forest leant empty on them (0.66-0.78); each shows a stone's rim and a body shaded across, 2.5 times
    # and more what the photo's empty points show (`presence.rimmed_empties`): read white, marked
    meta, reading = read_hard(name)
    assert misread("morris", reading.cells, meta["cells"]) == []
    assert any(reading.confidence[pid] < CHECK_BELOW for pid, c in reading.cells.items() if c == "white")


def test_white_glossy_stones_read_empty_that_mirror_the_lines_are_marked():
    # Blender seed 119 (009): white glossy domes on a pale mat under a ceiling lamp; the forest read four of
    # them empty, three sure.  They mirror the lines and their own edge as thin strokes at their foot, ten
    # times and more what the photo's empty points show (`presence.inked_empties`): still empty, marked
    assert_read_wrong_and_marked("morris_b119009")


def test_white_glass_on_ivory_on_faint_lines_is_read_with_every_doubt_marked():
    # Blender seed 117 (005): thin gold lines on ivory paint, nine white glass stones.  The walk onto the
    # lattice followed the stones' edges a unit off the faint lines and the photo was refused; on the right
    # fit the forest read all nine white stones empty, sure.  Now one is left empty, and as its lines show at
    # few of the fit's samples, a unit off could not be told: every cell is marked (`pipeline.faint_lines`)
    meta, reading = read_hard("morris_b117005")
    assert len(misread("morris", reading.cells, meta["cells"])) <= 1
    assert max(reading.confidence.values()) < CHECK_BELOW


def test_a_morris_fit_is_doubted_where_its_lines_show_at_few_of_its_samples():
    # Blender seed 117 (005): gold lines too faint for the walk's bar, on the right fit and one unit off alike;
    # Blender seed 115 (002): a thin gold inlay the stretched copy finds, shown at nearly all its samples
    for name, faint in (("morris_b117005", True), ("morris_b115002", False)):
        meta = json.loads((HARD / f"{name}.json").read_text())
        img = cv2.imread(str(HARD / meta["image"]))
        assert img is not None
        truth = true_fit(meta)
        assert faint_lines(img, truth, get_layout("morris")) is faint
        if faint:
            off = truth @ np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
            assert faint_lines(img, off, get_layout("morris"))


@pytest.mark.parametrize("name", ["morris_b117004", "morris_b115002", "morris_91005"])
def test_a_morris_fit_a_unit_off_is_told_by_the_undrawn_segments(name):
    # clear lines: a fit a unit off lays many of its drawn samples on other lines (Blender 117004's start stayed
    # a unit off, sure); its undrawn segments -- the centre's gap, past the outer square's ends -- then show
    # lines, and the right fit beats all four of its unit-off neighbours clearly
    meta = json.loads((HARD / f"{name}.json").read_text())
    img = cv2.imread(str(HARD / meta["image"]))
    assert img is not None
    layout = get_layout("morris")
    truth = true_fit(meta)
    assert not a_unit_in_doubt(img, truth, layout)
    for dx, dy in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)):
        assert a_unit_in_doubt(img, truth @ np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]), layout)


def test_a_morris_fit_whose_pattern_hardly_beats_a_unit_off_marks_every_cell():
    # Blender seed 119 (003): lines on light wood hardly stronger than its grain; two stones' colours read swapped
    # (those two marked), 22 cells sure.  The drawn pattern tells the fit from its unit-off neighbours by under
    # UNIT_APART, so a unit off could not be told either: every cell marked
    meta, reading = read_hard("morris_b119003")
    assert max(reading.confidence.values()) < CHECK_BELOW


def test_big_dark_dots_read_as_black_glass_show_the_lines_the_stones_hide():
    # dots nearly a stone's size printed on paper, under a lamp: the forest reads them as black
    # glass stones; unlike the stones, the lines meeting at their foot show, so they are the board's
    meta, reading = read_hard("morris_69010")
    assert misread("morris", reading.cells, meta["cells"]) == []


def test_dark_discs_printed_for_empty_pockets_read_empty_beside_raised_stones():
    # a cream paper board printed with dark discs, glass stones under a window: the forest reads
    # the 50 empty pockets' discs as black stones (0.55-0.68); they cast no shadow and show no
    # shaded body where the blue, green and white stones do (`vision/flat.py`).  Not yet exact:
    # a white and a blue stone read empty, each marked for checking
    meta, reading = read_hard("sage-stones_67013")
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert len(wrong) <= 2
    assert all(meta["cells"].get(pid) is not None and reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["sage-stones_81000", "sage-stones_81005"])
def test_light_discs_beside_glass_stones_that_cast_weak_shadows_read_empty(name):
    # light discs printed on red felt, which the forest reads as white stones (39 of them sure on
    # 81000); the glass and glossy stones cast weak shadows that the discs beside them catch, but
    # their bodies are shaded across where the discs are flat (`vision/flat.py`); the discs found flat
    # show the empty look, far from which the red stones on the red felt, read empty, are found.  Not
    # yet exact: on 81000 the yellow stones read orange, each marked
    meta, reading = read_hard(name)
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert all(meta["cells"].get(pid) is not None and reading.confidence[pid] < CHECK_BELOW for pid in wrong)
    assert len(wrong) <= {"sage-stones_81000": 8, "sage-stones_81005": 1}[name]


@pytest.mark.parametrize("name", ["three-stones_b115003", "three-stones_b115004", "three-stones_b115006"])
def test_glass_read_empty_that_stands_out_from_the_pockets_it_lies_among_is_stones(name):
    # Blender seed 115: clear glass on painted wood (b115003, 11 read empty), black glass in the dark cone
    # pockets of a walnut board (b115004, 26), white glass discs on paper printed with pale discs (b115006,
    # 20 with the clear glass; the forest surer of the white stones, 0.81, than of the pockets, 0.68).  Each
    # a look of its own among the pockets, scattered, with more rim, highlight and texture (or shadow) than
    # they show (`classify.structured_empty_look`): read as stones, each marked for checking
    meta, reading = read_hard(name)
    assert misread("three-stones", reading.cells, meta["cells"]) == []
    assert any(reading.confidence[pid] < CHECK_BELOW for pid, c in reading.cells.items() if c is not None)


def test_a_smaller_pocket_board_asked_as_a_bigger_one_is_refused_by_the_side_it_leaves_bare():
    # Blender seed 115: a sage-stones board asked as three-stones.  The bigger board's fit lays one of its
    # long sides off the board, where nothing shows, and the other along the board's edge and the felt
    # beyond, which show round edges: 0.91 of its pockets seen, which alone passed, and the photo was read
    # as three-stones.  A whole side bare is a bigger board's fit (`marks._weakest_side`): refused, and the
    # board it shows named
    meta = json.loads((HARD / "sage-stones_b115003.json").read_text())
    img = read_image(HARD / meta["image"])
    det = find_board(img, get_layout("three-stones"), detection_pool())
    assert det.present >= 0.9 and det.weakest_side < MIN_WEAKEST_SIDE
    assert not _accept(det, "three-stones")
    with pytest.raises(VisionError) as refused:
        read_board(img, "three-stones")
    assert refused.value.code == "wrong_game" and "sage-stones" in str(refused.value)


def test_a_pocket_board_of_another_size_is_looked_for_before_morris(monkeypatch):
    # the same photo: its three-stones fit shows the pockets clearly and only a side bare, so the refusal
    # looks for sage-stones next; it looked for morris first, whose search on a pocket board finds no clear
    # line and polishes every candidate (1-3 s CPU of the 4-5 s refusal)
    meta = json.loads((HARD / "sage-stones_b115003.json").read_text())
    img = read_image(HARD / meta["image"])
    searched: list[str] = []

    def recorded(image, layout, *args, **kwargs):
        searched.append(layout.game)
        return find_board(image, layout, *args, **kwargs)

    monkeypatch.setattr(pipeline, "find_board", recorded)
    monkeypatch.setattr(pipeline, "REFUSE_LOOK_S", 120.0)  # the order, not the machine's load, decides
    with pytest.raises(VisionError) as refused:
        read_board(img, "three-stones")
    assert refused.value.code == "wrong_game" and "sage-stones" in str(refused.value)
    assert searched == ["three-stones", "sage-stones"]


def test_a_bigger_pocket_boards_fit_looks_for_the_smaller_board_first_and_other_fits_keep_the_order():
    # dev seed 81: a three-stones board asked as sage-stones, refused for the pockets beyond a long side:
    # three-stones is looked for first.  A fit that missed the pockets, or none, keeps LOOK_ORDER
    meta = json.loads((HARD / "three-stones_81000.json").read_text())
    img = read_image(HARD / meta["image"])
    det = find_board(img, get_layout("sage-stones"), detection_pool())
    assert look_order("sage-stones", det) == ["three-stones", "morris", "rings"]
    assert look_order("sage-stones", None) == ["morris", "three-stones", "rings"]
    faint = dataclasses.replace(det, evidence=0.5 * det.evidence)
    assert look_order("sage-stones", faint) == ["morris", "three-stones", "rings"]
    slanted = dataclasses.replace(det, camera_error=2 * MAX_CAMERA_ERROR)
    assert look_order("sage-stones", slanted) == ["morris", "three-stones", "rings"]
    assert look_order("morris", det) == ["three-stones", "sage-stones", "rings"]  # a drawn game's order stays


def test_border_lines_beyond_a_long_side_are_not_a_bigger_boards_pockets():
    # Blender seed 115 (kept at 1400 px): a sage-stones board whose border lines run a step beyond its long
    # sides.  At the lattice points there they showed 0.34 of the pockets' round edges, past MAX_OUTSIDE (0.3)
    # for a bigger board's pockets, and the board was refused on its own true fit.  A line shows as much
    # half-way between the points as at them (`marks._outside`): read on the true fit.  Not yet exact: three
    # red stones read orange and two pockets yellow, each marked
    meta, reading = read_hard("sage-stones_b115000")
    layout = get_layout("sage-stones")
    found, true = (cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H) for H in (reading.H, true_fit(meta)))
    assert np.abs(found - true).max() < 8.0
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert len(wrong) <= 5
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["sage-stones_b115008", "sage-stones_b117010"])
def test_a_sage_stones_fit_on_the_numbers_turned_end_for_end_is_turned_back(name):
    # Blender seeds 115 and 117: the numbers' loops passed for a row of pockets, the fit laid row 1 on them, and
    # the board turned end for end onto its lattice shows the same outline (its wide margin is one step wider
    # than the far one): read turned, one row off (115008: 29 cells sure and wrong at this size, 117010: 14).
    # Each pocket has a twin among the others and each digit none (`marks.numbers_row_gain`): turned back
    meta, reading = read_hard(name)
    layout = get_layout("sage-stones")
    found, true = (cv2.perspectiveTransform(layout.xy.reshape(-1, 1, 2), H) for H in (reading.H, true_fit(meta)))
    assert np.linalg.norm(found - true, axis=2).max() < 8.0
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert len(wrong) <= 11
    assert sum(reading.confidence[pid] >= CHECK_BELOW for pid in wrong) <= 2


def test_black_glass_that_shows_the_skys_blue_read_blue_is_marked_for_checking():
    # Blender seed 117: black glass under a window shows the sky's blue over its whole dome, as dark as blue glass,
    # beside orange, green and purple glass and no stone read black: the nine read blue, sure.  The darkest name,
    # the least colourful of the hued ones, with black in the set and none read, may be black
    # (`missing.darkest_hue_may_be_black`): marked for checking
    assert_read_wrong_and_marked("sage-stones_b117003")


def test_dark_red_glass_read_black_is_named_by_the_colour_it_shows_beside_black_glass():
    # Blender seed 115 (kept at 1600 px): red and black glass on a blue mat in the sun.  The forest read the eleven
    # red stones black (0.19-0.25), beside the black glass that shows the mat's blue; the light that comes back
    # through the red glass off the mat is red (`classify.coloured_glass_named_black`): named red, and checked
    meta, reading = read_hard("sage-stones_b115004")
    assert misread("sage-stones", reading.cells, meta["cells"]) == []
    assert all(reading.confidence[pid] < CHECK_BELOW for pid, c in meta["cells"].items() if c == "red")


def test_a_bigger_boards_stones_beyond_a_long_side_still_refuse_a_smaller_boards_fit():
    # dev seed 81: a three-stones board asked as sage-stones.  The smaller board's fit leaves a column of
    # the bigger one's pockets beyond a long side, its stones touching there, which show round edges half-way
    # between the points as well as at them, as border lines do: what they show at the points still counts
    # (`marks.AT_POINTS_SHARE`; at half of it this fit passed, 0.30)
    meta = json.loads((HARD / "three-stones_81000.json").read_text())
    det = find_board(read_image(HARD / meta["image"]), get_layout("sage-stones"), detection_pool())
    assert det.present >= MIN_PRESENT and det.weakest_side >= MIN_WEAKEST_SIDE
    assert det.outside > MAX_OUTSIDE
    assert not _accept(det, "sage-stones")


def test_dark_discs_read_as_stones_beside_stones_read_empty_are_the_pockets():
    # sage-stones_103011 (dev seed 103): dark discs printed on cream paper, all 60 read black, and the
    # three blue glass stones read empty; with no other colour read, the raised cells read empty are the
    # stones the discs lie flat beside.  The discs so found empty and the three blue stones are two looks
    # read empty, the blue one shaded across its bodies beside the flat discs: stones (`classify.raised_empty_look`)
    meta, reading = read_hard("sage-stones_103011")
    assert misread("sage-stones", reading.cells, meta["cells"]) == []
    assert all(reading.confidence[pid] < CHECK_BELOW for pid, c in meta["cells"].items() if c == "blue")


def test_dark_discs_beside_three_stones_read_empty_hold_still_under_a_nudged_fit():
    # the three blue stones' lit sides agree or not as the fit moves by a pixel (5 of 12 nudged fits
    # read all 60 discs black when the stones' shadows had to fall to one side); their shaded bodies
    # against the flat discs already say which is raised
    meta = json.loads((HARD / "sage-stones_103011.json").read_text())
    layout = get_layout("sage-stones")
    img = read_image(HARD / meta["image"])
    for fit in [true_fit(meta), *nudged_fits(true_fit(meta), layout, px=1.0, count=12)]:
        labels, conf = read_cells(img, fit, layout)
        wrong = misread("sage-stones", dict(zip(layout.ids, labels)), meta["cells"])
        assert len(wrong) <= 3


def test_white_stones_read_empty_beside_flat_discs_read_empty_are_stones():
    # sage-stones_103002 (dev seed 103, kept at 1600 px): white glass on a beige felt printed with dark red
    # discs, under a window. The forest reads the 24 white stones empty, ten of them sure (0.8-0.85), and
    # the discs empty or red: two looks read empty, and the white one shaded across its bodies beside the
    # flat discs (`classify.raised_empty_look`). Not yet exact: five discs read red, each marked
    meta, reading = read_hard("sage-stones_103002")
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert len(wrong) <= 5
    assert all(meta["cells"].get(pid) is None and reading.confidence[pid] < CHECK_BELOW for pid in wrong)
    assert all(reading.confidence[pid] < CHECK_BELOW for pid, c in meta["cells"].items() if c == "white")


def test_stones_of_two_hues_read_as_one_colour_are_marked():
    # sage-stones_103016 (dev seed 103): glossy stones on walnut under a window; green, red, purple and
    # yellow stones read white, five of them sure (0.80-0.89). One colour's stones share one hue, so the
    # name held across clearly different hues is marked on every stone (`classify.names_of_two_hues`).
    # Not yet exact: the ten are still named white
    meta, reading = read_hard("sage-stones_103016")
    wrong = misread("sage-stones", reading.cells, meta["cells"])
    assert wrong
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["sage-stones_81014", "sage-stones_81017"])
def test_stones_read_empty_stand_far_in_colour_from_the_sure_empty_pockets(name):
    # cream painted boards with cap pockets under a tungsten lamp: the forest reads 21 white matte
    # discs (81014) and 13 orange glass stones (81017) empty, 0.5-0.7 of its votes each; their colour
    # stands 14-37 Lab from the pockets it is sure of, which spread about 1 around their look; each
    # stone so found is marked for checking (the colour is the forest's guess)
    meta, reading = read_hard(name)
    assert misread("sage-stones", reading.cells, meta["cells"]) == []
    found = {"sage-stones_81014": "white", "sage-stones_81017": "orange"}[name]
    assert all(reading.confidence[pid] < CHECK_BELOW for pid, c in meta["cells"].items() if c == found)


@pytest.mark.parametrize("name", ["rings_65003", "rings_75011"])
def test_a_whole_look_is_named_as_one_group(name):
    # rings_65003: red and orange stones on an ochre board; the forest calls the red ones orange, and
    # cell by cell the orange ones went yellow: two groups this far apart in colour share no name.
    # rings_75011: grey paper's big dark red dots at 120-odd empty points, which the forest reads red
    # (a few empty); the stones are sure blue and black, so the dots' group is the empty points
    meta, reading = read_hard(name)
    assert misread("rings", reading.cells, meta["cells"]) == []


def test_empty_points_are_the_group_that_shows_the_drawn_circles():
    # rings_97019 (seed 97): dark inlay on light wood, glass stones, 86 of 216 points empty; the
    # colour groups read 33 of the empty points (paler ones, in the light) white, 15 of them sure.
    # Those points show the circles running out of them as the other empty points do, and the stones
    # hide them (`vision/drawn.py`): they are empty points.  The reading turns on a pixel of the fit: it
    # failed (13 cells white) until the edge maps' last bits stopped depending on memory alignment
    # (`fit.gradient_magnitude`), and may fail again on any change that moves the fit.
    meta, reading = read_hard("rings_97019")
    assert misread("rings", reading.cells, meta["cells"]) == []


CLOSER_FIT = (
    "read on the closer fit rings' lines give since they are placed by their outer edge (0.7 px off the "
    "truth, was 2.9-3.2), the flat dots are not told from the domes (95010: 117 cells wrong, 97053: the "
    "white stones read empty, 36): the earlier fits' readings held only 3 px off; every cell is marked "
    "for checking (no group leans empty); issue 17 is open"
)


def test_cells_whose_reading_turns_on_a_pixel_are_marked_for_checking():
    # rings_97019 (seed 97): on the fit found, 1.0 px from the truth at most, 13 cells read white, 8 of them
    # sure, where the true fit reads every cell right; read again on fits moved by under a pixel, they read
    # otherwise (`tuning.NUDGE_CHECKED`)
    meta, reading = read_hard("rings_97019")
    wrong = misread("rings", reading.cells, meta["cells"])
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("rings_95010", marks=pytest.mark.xfail(strict=True, reason=CLOSER_FIT)),
        pytest.param("rings_97053", marks=pytest.mark.xfail(strict=True, reason=CLOSER_FIT)),
    ],
)
def test_flat_dots_beside_domed_stones_are_the_boards_marks(name):
    # rings_95010 (seed 95): dark dots at the points of cherry wood, the colour of the black glass
    # beside them, were read as 90 black stones and the blue stones empty; rings_97053: big dark dots
    # on forest-green paint, with glossy white, orange and black stones, read black while the white
    # stones read empty.  The stones are domes, shaded across their bodies under the light; the dots
    # are flat (`presence.flat_among_raised`).  What is left wrong is marked for checking
    _rings_read_near_right_and_a_step_off_doubted(name)


@pytest.mark.parametrize("name", ["rings_95010", "rings_97053"])
def test_flat_dots_read_wrong_beside_domed_stones_are_marked_for_checking(name):
    meta, reading = read_hard(name)
    wrong = misread("rings", reading.cells, meta["cells"])
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["rings_83011", "rings_95006"])
def test_wide_lines_merged_with_their_neighbours_are_placed_by_their_outer_edge(name):
    # rings_83011 (seed 83): 5.7 mm dark ink on oak, refused; rings_95006 (seed 95): 5.7 mm on cream
    # paper, 12 cells wrong.  Between two points each circle runs beside its neighbour's arc, and lines
    # this wide merge with it into one band: the line samples found their line anywhere across it, so
    # no fit showed its lines clearly.  Placed by the band's outer edge (`evidence._lens_offsets`)
    meta, reading = read_hard(name)
    assert misread("rings", reading.cells, meta["cells"]) == []


@pytest.mark.parametrize("name", ["rings_75013", "rings_105003", "rings_b115002"])
def test_whole_colour_groups_named_wrong_are_marked_for_checking(name):
    # rings_75013 (seed 75): orange, green and purple glass on light wood in a dim photo; the orange
    # glass was taken for the empty points (28 cells sure and wrong) while the grey-blue empty points,
    # leaning empty too, read black (`naming.empty_look_in_doubt`).  rings_105003 (seed 105): a black
    # painted board's plain points read as 27 sure black stones; the grooves show at their foot as at the
    # dotted empty points', where the red and orange stones hide them (`naming.feet_like_the_empty_points`).
    # rings_b115002 (Blender seed 115): glass stones on a green mat in the sun; the yellow glass split into
    # yellow and orange groups near each other (3 orange sure), and the far points, 6 apart from the near
    # ones, read white (2 sure): near groups of two names may be one colour (`naming.near_other_names`,
    # `near_the_empty_points`, `doubt_shared`, `lone_cells_in_doubt`)
    meta, reading = read_hard(name)
    wrong = misread("rings", reading.cells, meta["cells"])
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong)


@pytest.mark.parametrize("name", ["rings_b115002", "rings_b115007"])
def test_the_empty_points_lit_two_ways_are_read_empty(name):
    # rings_b115002 (Blender seed 115): a green mat in the sun; its far half shows the drawn circles faintly and
    # its points, 6 apart in colour from the near ones, read as 51 white stones.  rings_b115007: navy rings on
    # pink paper; the 45 points along the edge, by the border lines, look raised and read black.  Each is a
    # region of the board beside the empty points, not stones scattered among them (`naming.lit_regions`)
    meta, reading = read_hard(name)
    wrong = misread("rings", reading.cells, meta["cells"])
    assert sum(c is not None for c in reading.cells.values()) == sum(c is not None for c in meta["cells"].values())
    assert all(reading.cells[pid] is not None for pid in wrong)  # ... so no empty point is read as a stone
    if name == "rings_b115007":
        assert wrong == []


def test_the_empty_points_look_named_with_a_stone_colour_far_from_it_is_checked():
    # rings_b115008 (Blender seed 115): 6 mm indigo inlay and dark rings round every point of an orange board
    # make the empty points' look, which the forest read blue, one name with the lighter blue stones 19 apart
    # (126 cells sure and wrong before, `naming.far_namesakes`).  Still sure and wrong: the 17 orange stones
    # of the board's own colour, taken for the empty look
    meta, reading = read_hard("rings_b115008")
    wrong = misread("rings", reading.cells, meta["cells"])
    assert len(wrong) > 100  # the board's look is still named blue ...
    assert all(reading.confidence[pid] < CHECK_BELOW for pid in wrong if reading.cells[pid] is not None)  # checked


def test_a_fit_its_stones_hold_a_lattice_step_off_is_moved_back_by_its_outline():
    # rings_95018 (seed 95): 178 matte discs on dark wood hide most of the light inlaid circles; the
    # fit lay one whole step of the lattice off, where the stones sit centred on locations just as
    # well, and 68 cells were read wrong and sure (then all checked, `pipeline.a_step_in_doubt`).  Only
    # the outline tells the step: a step away it shows a clean edge all round, 0.19 more of it than on
    # the fit (`refine.onto_the_board`), and there the board is read right but for a few cells, none sure
    _rings_read_near_right_and_a_step_off_doubted("rings_95018")


def test_a_fit_whole_lattice_steps_off_the_board_is_moved_back_by_its_outline():
    # rings_b117006 (Blender seed 117): orange and purple glass on dark jatoba with grooved circles, on a grey
    # stone table; the fit lay one whole circle step off (174 cells wrong), its outer circles on the table, and
    # the board's edge showed along half its outline.  Moved by whole steps, the fit whose outline shows a
    # clean edge is on the board (`refine.onto_the_board`)
    meta = json.loads((HARD / "rings_b117006.json").read_text())
    det = find_board(read_image(HARD / meta["image"]), get_layout("rings"), detection_pool())
    assert error_units(det.H, true_fit(meta), "rings") < 0.25


def test_a_reading_holds_still_when_its_fit_moves_by_under_a_pixel():
    # sage-stones_79003 (seed 79): light discs printed on green felt, which the forest reads as 58
    # white stones, and five red glass stones casting their shadows; the discs go empty because the
    # reds stand up where they lie flat.  Whether three, four or five reds were read turned that on
    # a fixed shadow floor, and a fit moved by under a pixel read 6 to 58 of 63 cells right
    meta = json.loads((HARD / "sage-stones_79003.json").read_text())
    layout = get_layout("sage-stones")
    img = read_image(HARD / meta["image"])
    fit = true_fit(meta)
    labels, _ = read_cells(img, fit, layout)
    assert len(misread("sage-stones", dict(zip(layout.ids, labels)), meta["cells"])) <= 7
    for nudged in nudged_fits(fit, layout, px=1.0, count=12):
        moved, conf = read_cells(img, nudged, layout)
        changed = [k for k, (a, b) in enumerate(zip(labels, moved)) if a != b]
        assert len(changed) <= 2 and all(conf[k] < CHECK_BELOW for k in changed)


def test_a_fit_a_third_of_a_triangle_off_the_points_is_moved_onto_them():
    # rings_75002: dark ring markers at every point of cream paper; the fit lay on the markers'
    # rings a third of a triangle off the points, and read the paper between them as 108 white stones
    meta, reading = read_hard("rings_75002")
    assert misread("rings", reading.cells, meta["cells"]) == []


def test_a_crowded_board_is_judged_by_the_lines_left_in_view():
    # 174 of rings' 216 locations hold a stone on a dark board: most of the circles are hidden,
    # and the fit is judged by the ones still in view (the whole drawing reads as no board)
    meta = json.loads((HARD / "rings_7007.json").read_text())
    L = get_layout("rings")
    reading = read_board(HARD / meta["image"], "rings")
    truth = np.array([meta["cell_px"][i] for i in L.ids])
    found = cv2.perspectiveTransform(L.xy.reshape(-1, 1, 2), reading.H).reshape(-1, 2)
    spacing = float(np.median(np.sort(np.linalg.norm(truth[:, None] - truth[None], axis=2), axis=1)[:, 1]))
    # read in one of the board's symmetries: the found locations lie on the true ones (the
    # photo's lens bends them off a flat homography near one corner)
    off = np.min(np.linalg.norm(found[:, None] - truth[None], axis=2), axis=1)
    assert np.median(off) < 0.2 * spacing and np.max(off) < 0.75 * spacing
    assert len(misread("rings", reading.cells, meta["cells"])) <= 5


def test_a_board_full_of_stones_is_judged_by_where_its_stones_sit():
    # 202 of 216 locations hold a stone, tilted 37 degrees: under a quarter of the circles still
    # in view line up, but the stones sit centred on the locations as no other lattice has them
    meta, reading = read_hard("rings_19017")
    assert misread("rings", reading.cells, meta["cells"]) == []


def test_the_engraved_numbers_tell_which_way_round_a_sage_board_lies():
    # a board on a table of its own wood: its outline cannot tell the numbered end (the fit
    # either way round scores within 0.03); the numbers in the wide margin can
    meta, reading = read_hard("sage-stones_23015")
    assert reading.cells == meta["cells"]
    assert reading.orientation["certainty"] == 1.0


@pytest.mark.skipif(not CASES, reason="no committed test photos")
def test_score_board_uses_engine():
    name = next(n for n in CASES if n.startswith("three-stones"))
    meta = json.loads((PHOTOS / f"{name}.json").read_text())
    reading, score = score_board(PHOTOS / meta["image"], "three-stones")
    from engine import score_position

    assert score == score_position({"game": "three-stones", "cells": reading.cells})


@pytest.mark.skipif(shutil.which("povray") is None, reason="POV-Ray not installed")
def test_generator_makes_photo_and_truth(tmp_path):
    from vision.photogen import render_one

    meta = render_one("morris", 42, tmp_path, size=(480, 360), quality=85, render_scale=0.5)
    assert (tmp_path / meta["image"]).exists()
    assert set(meta["cells"]) == set(get_layout("morris").ids)
    assert len(meta["board_corners"]) == 4 and len(meta["cell_px"]) == 24
    # the same seed makes the same scene
    again = render_one("morris", 42, tmp_path / "again", size=(480, 360), quality=85, render_scale=0.5)
    assert again["cells"] == meta["cells"] and again["board_corners"] == meta["board_corners"]


@pytest.mark.xfail(
    strict=True,
    reason="the search's fit lies on the stones' bodies, half a stone above the board: sampled off their pockets, "
    "the 24 black stones on dark wenge read empty (30 cells wrong, all marked for checking); the fit lowered onto "
    "the plane whose cells read surest reads it (1 wrong, marked) but misreads other boards (CHANGELOG, fifth session)",
)
def test_a_pocket_boards_fit_found_on_its_stones_is_read_on_the_board():
    meta, reading = read_hard("three-stones_81014")
    wrong = misread(meta["game"], reading.cells, meta["cells"])
    assert len(wrong) <= 1


def test_a_fit_found_on_the_stones_is_never_read_sure_wrong():
    # what the reading can promise today: every cell of that misplaced fit is marked for checking
    assert_read_wrong_and_marked("three-stones_81014")


@pytest.mark.parametrize("game, renamed", [("rings", False), ("sage-stones", True)])
def test_colours_named_by_groups_are_not_harmonized_again(monkeypatch, game, renamed):
    # dev 105015: purple glass in two colour groups, the naming named the smaller one purple (right, in doubt)
    # and the bigger blue (wrong, in doubt); harmonizing by those lowered confidences renamed the purple ones
    # blue.  Rings' names come from its colour groups; a game whose cells are named one by one is harmonized
    layout = get_layout(game)
    colours = np.array([(40.0, 20.0, -33.0)] * 15 + [(40.0, 24.0, -35.0)] * 6 + [(80.0, 5.0, 20.0)] * 10)
    feats = np.zeros((len(colours), len(feature_names())), np.float32)
    feats[:, :3] = colours
    labels: list[str | None] = ["blue"] * 15 + ["purple"] * 6 + [None] * 10
    conf = [0.6] * 21 + [0.9] * 10
    monkeypatch.setattr(pipeline, "cell_features", lambda img, H, layout: (feats, {}))
    monkeypatch.setattr(pipeline, "classify", lambda feats, layout: (list(labels), list(conf)))
    read, _ = pipeline.read_cells(np.zeros((4, 4, 3), np.uint8), np.eye(3), layout)
    assert (read[15:21] == ["blue"] * 6) == renamed


def test_white_glass_read_empty_pockets_is_found_by_the_colour_the_reading_leaves_out():
    # Blender seed 117: white glass on light wood, the forest 0.64-0.96 sure each of the 25 was an empty cap pocket,
    # beside 18 black and 7 clear read right.  Forty-odd stones drawn from the box with no white one is a
    # one-in-a-million draw, and the cells read empty were two looks scattered among each other: the one the forest
    # doubts more is the white stones (`missing.missing_colour_found`), read white and marked for checking
    meta, reading = read_hard("three-stones_b117006")
    assert misread("three-stones", reading.cells, meta["cells"]) == []
    assert all(reading.confidence[pid] < CHECK_BELOW for pid, c in meta["cells"].items() if c == "white")
