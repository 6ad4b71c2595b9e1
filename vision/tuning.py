"""The tuned numbers of reading a photo, each with the reason it has its value.

Board detection's stages (`segment`, `fit`, `evidence`, `refine`, `camera`, the search in
`detect`), the pipeline's acceptance of a fit, and the confidence lines that mark a cell
for a person to check.  The values were tuned on the generator's check seeds
(`photogen/seeds.py`) and the committed photos; change one and run `bench/vision.py` and
`tests/vision`.  Units: "board units" are the game's pitch (neighbouring locations 1 apart),
"s" is pixels per board unit of a canonical warp (`frame.Frame`), shares are 0..1, and
percentiles 0..100.
"""

from __future__ import annotations

import math

import numpy as np

# ----------------------------------------------------------------- the search (detect.py)
SMALL_SIDE = 400  # pixels: long side of the copy regions are segmented and fitted on
SAME_FIT_SHARE = 0.03  # of the small copy's long side: fits this close are one candidate
GRID_CANDIDATES = 10  # pocket boards: distinct region fits pulled onto the lattice of marks ...
GRID_PER_SOURCE = 3  # ... at most this many from one region
LATTICE_CANDIDATES = 4  # pocket boards: distinct fits from the lattice of round marks (`lattice.py`)
GRID_FINE_S = 20.0  # s of the full-resolution lattice fit
GRID_FINE_ROUNDS = (0.2, 0.1)  # its search windows, in mark spacings: the coarse fit is near already
LINE_CANDIDATES = 2  # drawn boards: distinct fits from the drawing's line graph (`linegraph.py`)
DRAWN_CANDIDATES = 6  # drawn boards: distinct region fits refined at low resolution ...
DRAWN_PER_SOURCE = 2  # ... at most this many from one region
DRAWN_FINALS = 3  # drawn boards: candidates polished at full resolution, at most
SAME_START = 0.02  # board units: starts of the line refinement this close (outline corners) refine alike, one is kept
COARSE_ECC_ITERS = 15  # ECC steps on the small copy: it only needs to come near
FINE_ECC_ITERS = 30  # ECC steps at full resolution when the lines alone do not settle a fit
MID_SIDE = 800.0  # pixels: long side of the copy the final outline support is measured on
SUPPORT_WEIGHT = 0.5  # outline support against the feature score when fits are ranked
CLEAR_LINES = {"morris": 0.9, "rings": 0.45}  # line evidence of a fit that needs no second try
NUMBERS_CLEAR = 2.5  # one end's margin this much inkier than the other's: the numbered one
CLEAR_MARGIN = 0.25  # the orientation margin of a way round the numbers tell (certainty 1)
STONE_MARKED = ("rings",)  # drawn boards whose stones, when crowded, show the fit better than the lines

# ----------------------------------------------------------------- segmentation (segment.py)
SEGMENT_BLUR = 1.5  # pixels: smoothing before colours are clustered (grain and noise)
LIGHTNESS_WEIGHT = 0.6  # of Lab lightness against the colour axes: shading changes it most
CLUSTER_SAMPLES = 12000  # pixels k-means learns its clusters from (then every pixel is labelled)
COLOUR_CLUSTERS = (2, 3, 4)  # colour clusterings tried: board, table, and a cloth or a shadow
TEXTURE_CLUSTERS = (2, 3)  # colour + grain-direction clusterings tried
KMEANS_ITERATIONS = 20  # k-means steps, at most ...
KMEANS_EPSILON = 0.5  # ... or until the centres move less than this
KMEANS_ATTEMPTS = 2  # k-means restarts, the best kept
OPEN_PX = 5  # pixels: specks smaller than this are opened away from a region
CLOSE_STONES = 1.3  # stone diameters: gaps in a region this wide are closed (stones, lines)
TEXTURE_MIN_SIGMA = 3.0  # pixels: the grain direction is averaged over at least this ...
TEXTURE_STONES = 0.8  # ... or this many stone diameters
BLOB_SCALES = (2.5, 4.0, 6.5)  # pixels: sizes round blobs (pockets, stones) are looked for at
BLOB_SHARE = 90  # percentile of blob strength that counts as a blob
DENSITY_MIN_SIGMA = 6.0  # pixels: blob and line density is averaged over at least this ...
DENSITY_STONES = 1.5  # ... or this many stone diameters
BLOB_LEVELS = (0.7, 1.0)  # of Otsu's level: a loose and a strict region of dense blobs
THIN_LINE_PX = 5  # pixels: strokes thinner than this on the small copy are drawn lines
# thin lines' kernel split in two ellipses (the same values, `segment.ellipse_parts`) pays for padding the
# image only when the parts have less than this share of its pixels (on a rings warp: 21 = 7 + 15 at 0.61
# took 28 ms for 35; 13 = 3 + 11 at 0.74 and 7 = 3 + 5 at 0.67 no less than the whole)
PARTS_PAY = 0.65
LINE_DENSITY_SHARE = 95  # percentile of thin-line strength that counts as a line
DRAWING_LINES = 93  # percentile of thin-line strength the drawing's connected piece is made of
BORDER_SHARE = 0.03  # of the frame's short side: the strip along its edge taken to be table
BORDER_CLUSTERS = 3  # colours of the table (wood, cloth, a shadow)
BORDER_SEED = 7  # k-means seed of the table's colours: one photo, one set of regions
BORDER_STRETCH = 4  # colour distance from the table onto 8 bits
BORDER_LEVELS = (1.0, 0.6)  # of Otsu's level: a strict and a loose "not table" region
MIN_SOLIDITY = 0.75  # a region's area over its convex hull's: less is no board's outline
SIDE_END_SHARE = 0.12  # of a polygon side: its ends (near corners) are left out of its line fit
EDGE_FIT_REACH = 0.04  # of a side's length: contour points this near it are fitted
EDGE_MOVE_MAX = 0.2  # of the polygon's size: refitted corners moved further are not trusted

# ----------------------------------------------------------------- fitting (fit.py)
STONE_PX_SHARE = 0.6  # of the photo's short side: the board's width expected (stone sizes)
OPEN_STONES = 2.0  # stone diameters: a region is also fitted with limbs this thin opened off
OPENED_CHANGE = 0.01  # of the copy: opening changed a region this much, so fit both
MIN_REGION = 0.05  # of the copy: the smallest region an outline is laid over
MIN_POLYGON = 0.06  # of the copy: the smallest region a polygon is fitted to
MAX_REGION = 0.97  # of the copy: a bigger region is the whole frame
ROTATION_STEPS = 36  # angles the outline is laid over a region at (every 10 degrees)
MIN_OVERLAP = 0.6  # intersection over union of outline and region, at least
NEAR_TOP_OVERLAP = 0.9  # soft regions: angles overlapping this share of the best go on
SILHOUETTE_SPAN_PX = 64.0  # pixels across the board where the silhouette is refined by ECC
FEATURE_PAD = 0.42  # board units beyond the outermost locations where their features end
# where a drawing's outer edge may run, in board units beyond the outermost locations: its
# outermost line (morris' outer square, rings' outer circles) or a border drawn nearer the edge
DRAWING_PADS = {"morris": (0.0, 0.3, 0.6), "rings": (1 / math.sqrt(3), 0.85)}
SAME_POLYGON_PX = 3  # pixels between two polygons' centres that make them one ...
SAME_POLYGON_AREA = 0.02  # ... with areas this close
COARSE_MIN_S = 6.0  # s of the scorer on the small copy, at least ...
COARSE_SPAN_PX = 160.0  # ... or this many pixels across the board
COARSE_BLUR = 1.5  # pixels: its edges blurred so a near fit still correlates
FINE_MIN_S = 12.0  # s of the scorer at full resolution, at least ...
FINE_SPAN_PX = 320.0  # ... or this many pixels across the board
FINE_BLUR = 1.3  # pixels: its edges blurred

# ----------------------------------------------------------------- evidence (evidence.py)
LINE_S = {"morris": 40.0, "rings": 60.0}  # s where drawn lines are followed
LINE_KERNEL = {"morris": 0.2, "rings": 0.35}  # board units: a drawn line is thinner (rings' 6 mm lines ~0.2)
LINE_SAMPLE_STEP = 0.08  # board units between samples along a drawn line
LINE_CLEAR_FROM = {"morris": 0.42, "rings": 0.2}  # board units from a location: its stone or dot hides the line
LINE_INSET = 0.96  # of the outline: drawn-line samples beyond it run into the board's edge
STRONG_PEAK = 2.0  # thin-line strength a line's peak needs, at least ...
STRONG_PEAK_SHARE = 40  # ... and this percentile of the peaks
LINES_BAR = 0.3  # share of a fit's median line strength a sample's line needs in `lines_everywhere` (dev 69, 71, 91)
LINE_TOL = 0.05  # board units: a drawn line found this close to the fit's is where it says
# drawn boards whose lines are placed by their outer edge (`evidence._lens_offsets`): rings' circles run
# 0.1-0.16 board units beside their neighbours' between two points, and wider lines merge with them
LENS_LINES = ("rings",)
LINE_EDGE_SHARE = 0.5  # of a sample's peak: where its line's edge is (half the way down)
LINE_HALF_WIDTH = 0.15  # board units from a line's middle to its edge, at most (0.03-0.12 on the right fits)
LINE_OUTER_REACH = 0.25  # board units past the window, outward, where the edge is looked for (a line's half
# width and blur reach 0.1-0.15; the board outside a circle is bare for 0.4)
HIDDEN = 1.7  # stone radii from a stone's location: its body hides the lines
MIN_SEEN = 60  # line samples it takes to judge a fit by the lines left in view
STONE_S = 20.0  # s where drawn boards' stones are looked for
STONE_SIZES = (0.85, 1.0, 1.15)  # a stone's round edge, in stone radii (sets differ)
STONE_EDGE = 0.45  # a stone's round edge: this share of the strongest ones in the warp
STONE_WINDOW = 0.2  # board units around a location where its stone's edge is looked for
STONE_LIFT = 0.4  # stone radii above the board where a stone's edge shows
CROWDED = 0.5  # share of the locations holding a stone
CENTRED = 0.08  # board units: a stone's edge centred this close to its location
POINT_MARKED = ("morris",)  # drawn boards whose points may carry round markers (`point_evidence`)
POINT_SIZES = (0.7, 0.85, 1.0, 1.15)  # a point's round mark, in stone radii: a big dot, a ring, a stone
NUMBERS_S = 30.0  # s where an oriented board's numbers are looked for
SUPPORT_BLUR = 2.0  # pixels: colours compared across the outline are smoothed first
OUTLINE_SAMPLES = 240  # points along the outline where its support is measured
OUTLINE_CORNER_SHARE = 0.08  # of an outline side: its ends are left out (a corner's normal is ambiguous)
OUTLINE_REACH = 0.22  # board units either side of the outline where colours are compared
EDGE_CHANGE = 10  # Lab distance across the outline that is a real edge

# ----------------------------------------------------------------- refinement (refine.py)
SNAP_S = 24.0  # s where drawn lines are searched widely
SNAP_REACH = 0.5  # board units a drawn fit may be shifted by to lie on its lines
SNAP_STEP = 0.05  # board units between the shifts tried
SNAP_SCALES = (0.97, 1.0, 1.03)  # scales tried with them (the outline's margin varies)
LATTICE_WALK = 3  # whole lattice steps a drawn fit may be moved by
LATTICE_DRAWN = ("rings",)  # drawn boards whose points form a lattice (rings' up and down points)
# drawn boards whose lines repeat a whole step away, by the directions of their steps (`on_the_lattice`):
# a morris fit one unit off lays most of its line samples on other lines (dev seeds 69, 71: three boards
# read on such a fit, sure of their wrong cells)
REPEATING = {"rings": 6, "morris": 4}
# ... and whose walk counts the samples with a line right where the fit puts them, of all of them, not the
# ink the samples show (a morris fit one unit off shows the wood grain and the board's edge beside it as ink)
WALK_BY_LINES = ("morris",)
WALK_LINES_LOSS = 0.1  # line evidence a morris walk step may lose: a step off lays most samples on other lines
# drawn boards whose whole steps, up to LATTICE_WALK of them, are also judged by the board's outline (`onto_the_board`):
# rings' circles reach its edge, so a fit whole steps off lies on circles as well as the right one, and a
# textured table shows ink where its circles run off the board (Blender 117006, 119000: 1 and 3 steps off)
STEPPED_BY_OUTLINE = ("rings",)
# outline support a shifted fit must show more than the fit's, besides a clean outline: a right fit's shifts
# came within it only where both were near clean (wide 1008: 0.90, a step away 0.92); a step off showed 0.81 (dev 95018)
OUTLINE_STEP_GAIN = 0.15
# scales about the centre that lay one of morris' nested squares (half-sides 1, 2, 3) on the next: a fit of
# the outer square on the middle one shows lines on nearly every sample that shows any (dev 91005)
NESTED_SCALES = {"morris": (2 / 3, 3 / 2)}
NESTED_SURE = 0.85  # share of all line samples a scaled fit must show lines at, once refined, to be kept
# rings' up and down points, sampled POINT_LOOK_S pixels per board unit, stand this far apart in colour
# (`naming.colour_space`) on a fit a third of a triangle off them: 19-45, and 0-1 on the points (dev seed 75):
# a fit this far is tried a third step away, and a reading still this far is read no surer than
# RENAMED_CONFIDENCE (a crowded board whose stones fall more on one kind is checked whole too: dev seed 65)
POINT_KINDS_APART = 8.0
POINT_LOOK_S = 30.0
LINE_REFINE_ROUNDS = (0.3, 0.2, 0.12)  # board units: the windows lines and stones are looked for in, narrowing
# a line sample only says where its line lies across it, so a fit slides along the lines a little each
# round: the last window is looked in again until the fit moves less than this (board units) ...
LINE_SETTLED = 0.01
LINE_FIT_HOLD = 1.0  # samples' worth of weight holding each entry of the refit where it is
LINE_FIT_ROUNDS = 6  # least-squares fits to the lines, each on the samples the last one agreed with
LINE_FIT_SPREAD = 3.0  # ... those within this many robust spreads (or MARK_RANSAC) of it
LINE_SETTLE_ROUNDS = 8  # ... or this many more times
MIN_LINE_MARKS = 20  # line samples it takes to refit to the lines ...
MIN_STONE_MARKS = 12  # ... and stones to refit to the stones
MARK_RANSAC = 0.05  # board units: a mark further from the refit is an outlier
MIN_SELF_CONSISTENT = 0.3  # share of the marks a refit must agree with
OUTLINE_REFINE_ROUNDS = (0.35, 0.18)  # board units either side of the outline where its edge is looked for
OUTLINE_STEPS = 41  # steps across that window
MIN_OUTLINE_CHANGE = 8.0  # Lab change across the outline that may be the board's edge
OUTLINE_EDGE_SHARE = 0.6  # of the strongest change: the innermost edge this strong is the top face's
MIN_OUTLINE_EDGES = 12  # outline points with an edge it takes to refit
OUTLINE_RANSAC = 0.06  # board units: an edge point further from the refit is an outlier
OUTLINE_INLIERS = 0.5  # share of the edge points a refit must agree with

# ----------------------------------------------------------------- the camera model (camera.py)
FOCAL_RANGE = np.geomspace(0.45, 2.5, 32)  # focal lengths tried, over the long side: wide to tele phones
PHONE_FOCAL = 0.85  # a phone's main camera: focal length in pixels over the long side
SAME_CAMERA = 0.01  # camera errors this close fit alike (seen straight down every focal does)
MAX_CAMERA_ERROR_CANDIDATE = 0.2  # looser than the final check: ECC still improves them
MAX_CAMERA_ERROR = 0.06  # the final fit must be what a real camera sees of this board's shape
MIN_OUTLINE_AREA = 0.02  # of the photo: a smaller board cannot be read
MAX_OUTLINE_AREA = 1.3  # of the photo: a board may run a little off the frame

# ----------------------------------------------------------------- accepting a fit (pipeline.py)
# the board's own marks where the fit puts them (`Detection.evidence`): pocket boards the contrast
# of round edges at the pockets against the lattice just outside, drawn boards the share of
# their line samples on a drawn line (dark or light)
MIN_EVIDENCE = {"three-stones": 0.5, "sage-stones": 0.5, "morris": 0.75, "rings": 0.3}
# pocket boards: most of the pockets seen, the misses scattered, not whole lines at a side (faint printed
# pockets beside strong stones miss some here and there; a bigger board's fit over a smaller one lays whole
# lines at its sides off the board).  `marks._weakest_side` on found fits: true ones 0.45 or more (dev seeds
# 81, 103, 107, the wide set, Blender seed 115); three-stones fits over sage-stones boards that see 0.9 of
# the pockets, the board's edge, border lines or numbers taken for some, 0.00-0.29 (5 of 92 photos): the
# share seen alone does not tell
MIN_PRESENT, MIN_WEAKEST_SIDE = 0.75, 0.4
MAX_OUTSIDE = 0.3  # pocket boards: round edges beyond a side that has none, against the pockets' (a bigger board)
MIN_STONE_PX = 5.0  # a stone must be at least this many pixels in radius
CLEAN_OUTLINE = 0.9  # outline support that needs no look for a bigger board holding this one
DARK_MEAN, DARK_P99 = 28.0, 70.0  # a photo this dark (mean, 99th percentile, of 255) shows no board
BRIGHT_MEAN = 250  # a photo this bright on average is overexposed
FLAT_STD = 3  # a photo this even (grey levels) is blank
# a refused photo may be another game's board: those are looked for only while the whole reading
# has taken less than this (saying which game it is helps; waiting many seconds to be told does not)
REFUSE_LOOK_S = 1.5
# the most a board search may take on one photo: past it the photo is refused with that reason
# (a reading takes about a second; a busy photo that keeps the search going is not worth a wait)
SEARCH_LIMIT_S = 10.0

# ----------------------------------------------------------------- doubtful cells (classify.py, the scan screen)
# Four lines, four meanings: a class's look is learnt from cells surer than LOOK_SURE; a group of
# stones of one physical colour renames its odd ones out (each less sure than RENAME_BELOW) when
# its colour holds GROUP_MAJORITY of the group's confidence, and a renamed cell is at most
# RENAMED_CONFIDENCE sure; a person is asked to check every cell below CHECK_BELOW.
LOOK_SURE = 0.6  # a cell this sure of its class shows how the class looks on this photo
GROUP_MAJORITY = 0.6  # share of a colour group's summed confidence its winning name needs
RENAME_BELOW = 0.75  # a cell this sure keeps its own name against its colour group's
RENAMED_CONFIDENCE = 0.6  # a renamed cell's confidence, at most: under CHECK_BELOW, so it is checked
CHECK_BELOW = 0.8  # a cell read less sure than this is marked for a person to check
# games whose cells are read again on NUDGES fits moved by up to NUDGE_PX pixels at each outline corner (what a
# fit found again may differ by): a cell read otherwise on any is at most RENAMED_CONFIDENCE sure (rings' colour
# groups split and join on a pixel: dev seed 97's rings_97019 read 15 cells wrong, 11 sure, on one of 8 such fits
# of its true fit, which reads every cell right)
NUDGE_CHECKED = ("rings",)
NUDGE_PX = 1.0
NUDGES = 3
# a cell read as a stone shows a stone's rim (`presence.rimless_stones`), or it is light spread over the board:
# a glossy board's highlight (Blender seed 115: highlight cells 0.1-1.4 of the board's gradient, white stones
# 3.3-4.7; on the POV-Ray wide set and dev 91 the faintest true stone shows 1/1.4 of its colour's faintest clear rim)
RIM_CHECKED = ("morris",)  # morris' drawn points carry no mark a stone's rim could be confused with; rings' circles do
RIM_CLEAR = 2.5  # a clear rim: this many times the board's mean gradient (matte stones in soft light show 1-2)
RIM_APART = 2.5  # a rimless cell shows at most 1/RIM_APART of its colour's faintest clear rim
RIM_EMPTIES = 8  # cells read empty, at least, for their median to be the empty points' look (`rimmed_empties`)
EMPTIES_LOOK_SHARE = 25  # percentile of the cells read empty still an empty point's look when half are stones
# a cell read empty whose thin strokes at the foot (`foot_ink`) are this many times the median of the photo's cells
# read empty stands apart from the empty points' look: marked (`presence.inked_empties`).  Empty points show up to
# 5.7 times (Blender 119's 007 and 010, true fits), white glossy stones read empty 10.6-16.4 (119's 009)
FOOT_INK_APART = 8.0
# a drawn board's marks shown less clearly than this where the fit puts them: the fit may be a whole
# lattice step off (rings' circles and locations repeat), so every cell is at most RENAMED_CONFIDENCE sure
SURE_FIT = {"rings": 0.45}
# morris' drawn lines shown at fewer of all the fit's line samples than this (`evidence.lines_everywhere`) are
# faint, under the walk's bar (the right fits of the wide set and dev 91 show 0.86-1.0, of Blender 115 and 117
# 0.49-1.0): the lattice walk, which then sees only stones' and the board's edges, takes only steps that keep
# the line evidence (`refine.on_the_lattice`), and as a fit a unit off cannot be told (Blender 117005: 0.06
# right, 0.23 a unit off) every cell is at most RENAMED_CONFIDENCE sure (`pipeline.faint_lines`)
FAINT_LINES_SHOWN = {"morris": 0.25}
# morris' pattern, drawn against undrawn (`evidence.pattern_contrast`): on the right fit the drawn unit segments
# show a line and the undrawn ones (the centre's gap, between the squares, past the outer square's ends) do not;
# a unit off swaps many of them.  Truth fits beat their unit-off neighbours by 0.40-0.88 (gray or hue copy, 58
# photos of Blender 115, 117, 119, dev 91, wide; Blender 119003, grain as strong as its lines: 0.09), a truth moved
# a unit beats them by 0.07 at most; under UNIT_APART every cell is at most RENAMED_CONFIDENCE sure
PATTERN_BAR = 0.5  # share of the drawn segments' median line strength a segment's line needs to count
PATTERN_CLEAR = 0.06  # board units either side of a segment where its line may lie
UNIT_APART = {"morris": 0.25}
# Stones read empty, found per photo (presence.py): the cells read empty split into two look groups
# (colour, cast shadow, lines at the foot, each in its unit below) and the raised one is stones
PRESENCE_GAMES = ("morris", "three-stones", "sage-stones")  # rings' crowded boards have stages of their own
# Lab lightness (a light moves it more than a colour does), a and b; cast shadow (L); foot ink
PRESENCE_UNITS = (20.0, 10.0, 10.0, 3.0, 0.2)
PRESENCE_MIN = 2  # cells in each group, at least
PRESENCE_DOUBT = 0.75  # the forest's mean empty share of a group it may be wrong about, below
PRESENCE_APART = 2.0  # looks' distance between the groups' centres ...
PRESENCE_TIGHT = 2.0  # ... and this many times the spread within a group
PRESENCE_SAME_LOOK = 1.0  # look units: marks nearer their centre than this are one look, however tight
PRESENCE_SHADOW_GAIN = 2.5  # the stones' cast shadow this many times the flat group's ...
PRESENCE_SHADOW_MIN = 6.0  # ... and this strong (L): an empty point's drawn lines show about 1-4 ...
PRESENCE_FLAT_NOISE = 90  # ... or, on a quieter board, GAIN times this percentile of the flat group's
PRESENCE_SAME_LIGHT = 0.6  # length of the mean of the stones' lit-side directions: one light, one side
PRESENCE_OTHER_COLOUR = 1.0  # look units between the colours of marks and the stones they are read as
PRESENCE_FOOT_SHOWN = 0.3  # foot ink of the flat group that shows its drawn lines ...
PRESENCE_FOOT_HIDDEN = 0.3  # ... which stones hide: their foot ink this share of it, at most
# rings' drawn circles beside a point (`drawn.lines_shown`, in the lines' own contrast midway between points)
PRESENCE_LINES_SHOWN = 0.25  # shown this clearly at one group's points: the board's lines show at its empty points ...
PRESENCE_LINES_HIDDEN = 0.3  # ... and a group showing this share of that at most hides them: stones
# ... or this share at least, and PRESENCE_LINES_EMPTY, shows them: empty points (with marks of their own
# colour); a colour group of stones shows 0.25 at most, 0.33 under glossy mirrors (dev seeds 65, 75, 89, 97)
PRESENCE_LINES_BARE = 0.45
PRESENCE_LINES_EMPTY = 0.3
PRESENCE_LINES_SPLIT = (
    0.45  # a cell showing less than this share of it hides them (0.4 and 0.5 read dev seeds alike or worse)
)
# Stones read empty on a pocket board, found by their colour (`flat.stones_unlike_the_pockets`): one photo's
# empty pockets look alike, so cells read empty whose colour (dL, da, db) stands far from the look of the
# pockets the forest is sure of are stones (dev seeds 81 and 103: stones read empty stood 8.6-38 Lab from it,
# the sure pockets 0.7-1.2 about it; pockets the light moved 6-12 from it were two on a photo, or the forest
# did not doubt them: mean empty share 0.79 on the wide set's sage-stones_1004)
POCKETS_SURE = 0.8  # the forest's empty share of a pocket whose colour shows the photo's empty look (or found flat)
POCKETS_SURE_MIN = 5  # ... of this many pockets at least
POCKETS_UNLIKE = 4.0  # times the sure pockets' median distance from their look ...
POCKETS_UNLIKE_MIN = 6.0  # ... and at least this Lab distance from it: not an empty pocket
# ... with a gap between: the nearest of them this many times as far as the farthest pocket read empty left
# (stones 1.6-19 times; drilled pockets on red paint under a lamp, committed sage-stones_45010, run
# without a gap from 0.7 to 14 Lab)
POCKETS_GAP = 1.5
# games whose pockets hold it: on three-stones boards (clear glass among the stones) groups of empty pockets
# this far from the sure ones' look, and doubted, showed on 6 of dev seeds 81 and 103's 40 photos, and
# stones read empty so on one (three-stones_81014, a fit on the stones' bodies)
POCKETS_BY_COLOUR = ("sage-stones",)
# Cells read empty on a pocket board in two colour groups (`classify.empty_looks_in_doubt`, `naming.colour_space`):
# two groups this far apart, and this many times the spread within each, are two looks. Dev seeds 81 and 103 and the
# wide set: stones read empty beside their board's pockets read empty stood 10, 19 and 43 apart (spread 0.3-1.1); a lamp's
# dark corner 22 from its board's pockets; pockets of one look split 7-9 apart (three-stones_81007, 81012) under a
# tightness of 3. Apart 7.5-10 and tight 3.5-6 read those sets alike (the middle of each here; at 7 and 3 the white
# stones of sage-stones_103001 are found too, at 6 and 3 54 right pockets of three-stones_81007 and 81012 doubted)
EMPTY_LOOKS_APART = 8.5
EMPTY_LOOKS_TIGHT = 4.5
# Of two looks read empty scattered among each other (`naming.region_kappa` under `LIT_REGIONS`), one that shows more of
# what a stone has and a pocket has not (`presence.STONE_CUES`: an edge round its rim, a rim that varies, a highlight,
# texture, a cast shadow) is stones (`classify.structured_empty_look`).  A cue is clearly more when in this share of the
# pairs of its cells and the other look's it is the larger (a share is the same in any unit; white glass on light wood
# in the sun, Blender dev b115008 on the reader's fit, 0.89-0.94 on four cues; a sunlit half's pockets 0.93, 0.91 on two)
STRUCTURE_CLEAR = 0.85
# ... on this many cues at least, and the other look clearly more on none: Blender dev 115's glass read empty stood out
# on 3-4 of the 5 (b115003, 004, 006, 008), and the other look on none; POV-Ray's stones among printed pockets, whose
# rings show strong edges, on 2-3 with the pockets clearly more on 2 (dev 81004, wide 1018); a lamp's dark corner beside
# the lit pockets on 3 with the corner on none (dev 103015: two regions, kappa 0.50)
STRUCTURE_CUES = 3
# a stone name across two hues (`classify.names_of_two_hues`): the stones of one look it takes to say their hue (one
# cell's is noise)
HUE_GROUP_MIN = 2
# rings' flat marks among domed stones (`presence.flat_among_raised`), by how shaded across its body a cell is
# (`shade`, L): the least shaded quarter of a dome group 6.6-14 (disc-shaped stones 0.3-6.5, glass discs under a
# window too), big printed dots 0.1-1.0 and small ones 2-3.9 beside them, the plain board 0.5-3 (dev seeds 83-97)
DOMED_SHARE = 25  # percentile of a group's shading that says it is domes ...
RAISED_SHADE = 6.0  # ... when it is this shaded: domes, showing the photo's light ...
FLAT_SHADE = 4.5  # ... beside which a group this little shaded (median) ...
FLAT_SHARE = 0.5  # ... and under this share of the least domed group's is flat: the board's marks
# colour distance (`naming.colour_space`) between the flat and the domed part of one colour group from which they
# are marks and stones (dark dots beside black glass: 5.8-7.9), not one colour's stones shaded unevenly (0.3-1.3)
FLAT_OTHER_COLOUR = 4.0
SAME_COLOUR = 4.5  # colour distance (classify._stone_colours) within which two stones are one
# colour: dark red and orange stand 15 or more apart even under a warm light
