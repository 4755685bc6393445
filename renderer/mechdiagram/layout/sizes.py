"""Sizes of the figure, in SVG user units (CSS px at scale 1): one place for every spacing."""

from __future__ import annotations

from mechdiagram.layout.measure import FONT_SIZE

__all__ = ["FONT_SIZE"]

LINE_HEIGHT = 18.0
TITLE_SIZE = 15.0
#: Boxes are as wide as their longest label line plus padding, within these bounds.
BOX_MIN_WIDTH = 96.0
BOX_MAX_WIDTH = 160.0
#: ... but a box grows up to this width to keep a long word whole.
BOX_WORD_WIDTH = 260.0
#: A code label's box (``"text": "code"``) in the wide layout grows up to this width to keep its widest token
#: whole: the content width of the narrowest wide drawing (MIN_WIDTH less the margins).  A token wider still,
#: and in the narrow layout one wider than the narrow layout's boxes (placement.word_bound), breaks with a
#: continuation mark.
BOX_CODE_WIDTH = 440.0
#: Under proportional time boxes wrap their labels to this width (the least, or what keeps a number and its unit
#: whole) while the columns' scale is chosen, so that more columns can be drawn to scale; each then wraps again
#: to its column's width.
TIMED_BOX_MAX_WIDTH = BOX_MIN_WIDTH
BOX_MIN_HEIGHT = 56.0
PAD_X = 10.0
PAD_Y = 10.0
GAP_X = 40.0
GAP_Y = 40.0
MARGIN = 20.0
#: An active box's ring: this far outside the box.
RING_GAP = 5.0
#: The lane header column at the left of a grid: at least this wide, and as wide as its longest name needs on
#: one line up to the most; the room its text keeps on the right.
LANE_HEADER_WIDTH = 116.0
LANE_HEADER_MAX_WIDTH = 168.0
LANE_HEADER_AIR = 8.0
#: A lane name that needs more lines than this in the column heads its lane from above instead, in a strip
#: across the lane, this far above its boxes.
LANE_HEADER_LINES = 2
LANE_HEADER_GAP = RING_GAP + 7.0
#: How far a lane's tinted band reaches beyond its boxes at the sides (and in the narrow layout above and below):
#: an active box's ring (RING_GAP out) keeps 7 units inside it.
BAND_PAD = RING_GAP + 7.0
#: The page-coloured line between two lanes' bands in a grid: thin, so that a path label across it reads whole.
BAND_GAP = 2.0
#: How far a path label keeps from that line where it has room (labels.place_labels), in user units.
STRIP_AIR = 1.0
PATH_LABEL_SIZE = 13.0
#: The smallest text the reader sees, CSS px: the figure never scales below this for its smallest text.
MIN_TEXT_PX = 12.0
PATH_LABEL_LINE = 15.0
#: Ports on one side are spread over this share of it when three or more share it (two: PORT_SPREAD_TWO).
PORT_SPREAD = 0.7
PORT_SPREAD_TWO = 0.5
#: Least distance between labelled routes side by side between two boxes: a label line, its gap to its own
#: route (5) and 16 units of air (labels.CLEAR_AIR) to the next, so that each label can sit above its own route
#: and nearer it than the next (boxes grow taller to give it).
LABELLED_PITCH = PATH_LABEL_LINE + 5.0 + 16.0 + 5.0
PATH_LABEL_WIDTH = 120.0
#: A path label grows up to this many times its width (PATH_LABEL_WIDTH, NARROW_LABEL_WIDTH) to keep its widest
#: word (a code label's token) whole, before it breaks one with a continuation mark: 180 and 126 user units,
#: which a track beside the narrow layout's column of boxes still holds.  A code label in the wide layout grows
#: as its box does, up to BOX_CODE_WIDTH.
PATH_LABEL_GROWTH = 1.5
#: The share of its frame a figure's drawing fills at every width from 320 to 1,440 px (issue 26).
FILL_SHARE = 0.85
#: The phone's layout grows past GROWTH where the figure has a middle (or upper middle) layout, to fill FILL_SHARE of
#: its frame until that one shows, at most this many times its natural width: a new user's dead-letter queue, its
#: column 304 units and its middle drawing 579 (shown from 544 px, its text 12 px there), filled 84 % of a 540 px
#: frame at GROWTH; the column under a 640-unit middle drawing (from 592 px) needs 1.66 times (its text 21.6 px).
NARROW_GROWTH = 1.7
#: The width a wide drawing narrower than this is spread to (issue 26): a sequence's lifelines moved further apart
#: (``participants(spread=True)``), a layered graph's or a lane grid's columns (``place(spread=...)``), each gap by as
#: much.  At GROWTH it fills 85 % of a 1,440 px screen's figure (1,376 px: 87 %), and its 13-unit text is 12 CSS px in
#: a 740 px column (a blog's): 740 x 13 / 12 = 801.  The web worker's 500 units filled 60 %, a chain of three boxes
#: (520 units) 62 %; its natural drawing is the figure's middle (a sequence's) or upper middle (a graph's) variant.
SPREAD_WIDTH = 800.0
MIN_WIDTH = 480.0
#: Nodes without any path are placed in rows of this many.
FLOW_COLUMNS = 5
ARROW_HEAD = 10.0
#: Routes keep this far from every box they do not start or end at.
CLEARANCE = 10.0
#: The arrowhead's tip stops this far outside the target box's edge: on the outer side of its stroke (1.5
#: wide, :mod:`mechdiagram.render.paint`), so that the tip meets the box.
HEAD_GAP = 1.0
PANEL_GAP = 24.0
#: Corner radii: a node's box, its active ring, a lane's band, the state panel.
BOX_RADIUS = 6.0
RING_RADIUS = 9.0
BAND_RADIUS = 8.0
PANEL_RADIUS = 6.0
#: The dot that travels along an active route: its radius.
DOT_RADIUS = 4.0
#: The state panel: where its heading and row labels start, inside its left edge; the heading's line height.
PANEL_TEXT_INSET = 12.0
#: The state panel: the room between the row labels and their values.
PANEL_COLUMN_GAP = 12.0
#: The state panel's changed mark (a value the step changes): a diamond this far from its middle to each corner,
#: its middle half PANEL_COLUMN_GAP left of the value (in that gap; in a stacked panel, in the value's inset) and
#: this far above the value's first baseline (the middle of its lower-case letters).
PANEL_MARK = 3.5
PANEL_MARK_RISE = 5.0
TITLE_LINE_HEIGHT = LINE_HEIGHT + 2
#: Where a route leaves its source: this far out of the box, clear of an active box's ring.
SOURCE_STUB = 12.0
#: Where a route turns in towards its target: room for an active box's ring, the arrowhead, and a run
#: of line before it.
TARGET_STUB = RING_GAP + 2.0 + ARROW_HEAD + 5.0
#: Parallel lines closer than this look like one, or crowd each other: routes keep at least this apart.
NEAR = 12.0
#: Lines keep at least this far from another arrow's head: nearer, the head reads as theirs.
HEAD_CLEARANCE = 6.0
#: A path label's block lies at most this far from its own arrow (issue 27; Mermaid's labels sit on their edges).
LABEL_REACH = 6.0
#: A channel between columns or rows is as wide as two TARGET_STUBs and this much a route beyond one.
ROUTE_PITCH = NEAR + 2.0
#: Ports on one side of a box are at least this far apart (boxes grow to give them room): two arrowheads side
#: by side, or a line beside a head, keep NEAR apart and HEAD_CLEARANCE from the head.
PORT_PITCH = ROUTE_PITCH
#: Room a path label keeps from every box: its active ring and a little air.
BOX_AIR = 7.0
#: Step badges of the poster: height and the padding either side of their text.
BADGE_HEIGHT = 20.0
BADGE_PAD = 6.0
#: A badge's number sits this far below the badge's middle (its baseline: about a third of the text size).
BADGE_BASELINE = 4.5
#: The narrow variant (a phone-wide ``<img>``, the HTML figure in a narrow column): box width bound, least
#: gaps between columns and rows, and the least canvas width.  A figure this narrow keeps 13 px text at
#: 12 CSS px or more in 281 px: the HTML figure on a 320 px screen (WCAG 2.2 SC 1.4.10), less the page's
#: and the figure's padding (:data:`mechdiagram.render.theme.EDGE_SPACE`, 8 px each there).
NARROW_BOX_MAX_WIDTH = 136.0
NARROW_GAPS = (20.0, 24.0)
NARROW_MIN_WIDTH = 304.0
#: A state panel narrower than this puts each value under its label, rows STACKED_ROW_GAP apart: narrower than
#: any wide layout's panel (MIN_WIDTH less the margins), so the narrow layout's.
STACKED_PANEL_WIDTH = MIN_WIDTH - 2 * MARGIN
STACKED_ROW_GAP = 8.0
#: The widest a lane grid's transposed narrow variant may be (:mod:`mechdiagram.layout.transposed`), when it does
#: not fit NARROW_MIN_WIDTH: its 13-unit text is 12 CSS px in 321 px, the HTML figure on a 360 px phone (the page's
#: and the figure's padding take 39 px, as on a 320 px screen: 320 - 281).  On a narrower screen it scrolls a
#: little in its frame, as a grid may (issue 26); 321 x 13 / 12 = 347.75.
TRANSPOSED_MAX_WIDTH = 347.0
#: The widest a lane grid's middle variant may be (:func:`mechdiagram.layout.middle_diagram`), in user units: the
#: grid transposed for a figure between a phone's and the wide drawing's width (issue 26).  Its 13-unit text is 12
#: CSS px in 526.2 px, which the HTML figure switches at from 528 px (a multiple of 16): its content on a 600 px
#: screen, the page's and the figure's padding taking 60 px there.  570 x 12 / 13 = 526.15.
MIDDLE_WIDTH = 570.0
#: A layered graph's middle variant (:func:`mechdiagram.layout.middle_diagram`): its boxes at most this wide (a
#: word wider keeps its box wider), and it at most MIDDLE_GRAPH_WIDTH.  Its 13-unit text is 12 CSS px in 590.8 px,
#: which the HTML figure switches at from 592 px; grown 1.5 times it fills 85 % of a figure up to 1,129 px, past every
#: layered graph's wide drawing (from 960 px at most).  A phone's column of 304 to 347 units, grown so, fills 85 % of
#: a figure up to 536 to 612 px, and grown up to NARROW_GROWTH times, until its middle layout shows.
MIDDLE_BOX_MAX_WIDTH = 112.0
MIDDLE_GRAPH_WIDTH = 640.0
#: Every layout grows with its frame (the HTML figure, :mod:`mechdiagram.render.html`) to at most this many times its
#: natural width (its 13-unit text then 19.5 px at most), so that a drawing fills 85 % of a figure up to 1.76 times
#: its width (issue 26: a 500-unit sequence filled 40 % of a 1440 px screen's figure, a wide graph 64 %); the middle
#: layout, made for figures of about 600 to 1000 px, fills it up to 1,000 px and more.
GROWTH = 1.5
#: The narrowest a layered graph's middle variant drawn down the page from its own layering may be (where the wide
#: layout's cells do not come down to MIDDLE_GRAPH_WIDTH), in user units: as wide as the narrowest phone's column
#: grown GROWTH times, 456 units; a narrower drawing adds nothing to the phone's column (a single column shown instead
#: of the phone's from 448 px was worse than the phone's, a break-it review found).
MIDDLE_GRAPH_LEAST_WIDTH = GROWTH * NARROW_MIN_WIDTH
#: The widest a lane grid's upper middle variant may be (``middle_diagram(spec, UPPER_WIDTH)``), in user units: the
#: grid transposed for a figure from about 740 px to the wide drawing's 12 px width, which for the gallery's grids is
#: 1,058 to 1,214 px (the middle variant, grown 1.5 times, fills 85 % of a figure up to 977 px; the wide grid
#: scrolled in its frame from 960 px).  Its 13-unit text is 12 CSS px in 724 px, and at 1.5 times it fills 85 % of a
#: figure up to 1,383 px.
UPPER_WIDTH = 800.0
#: Path labels in the narrow variant wrap to this width, in user units.
NARROW_LABEL_WIDTH = 84.0
#: Column headers of a lane grid (``layout.columns``): the header row sits this far above the grid (its bands,
#: lane names and routes), and each header wraps to its column's width and the gap beside it less
#: COLUMN_HEADER_AIR, so that neighbouring headers keep that much between them.  In the narrow layout each box
#: has its column's header this far above it (clear of an active box's ring).
COLUMN_HEADER_GAP = 8.0
COLUMN_HEADER_AIR = 8.0
CAPTION_GAP = RING_GAP + 3.0
#: The time axis of a proportional grid: its line this far under the grid; its ticks this long; the room between
#: a tick and its label; and the least room between two labels (a label that would come nearer is left out).
AXIS_GAP = 12.0
TICK_LENGTH = 5.0
TICK_LABEL_GAP = 3.0
TICK_LABEL_AIR = 8.0
#: A break mark: the axis line is open this wide, and each of the mark's two strokes is this tall and leans
#: this far to the right.
BREAK_OPENING = 6.0
BREAK_HEIGHT = 12.0
BREAK_LEAN = 4.0
