"""The typed geometry the layout stage hands to the drawing stage.

Lengths are SVG user units (CSS px at scale 1); ``x`` grows rightwards and ``y``
downwards.  The drawing stage writes these objects as they are, with no offsets
of its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from msgspec import Struct, field

from mechdiagram.layout.sizes import BADGE_BASELINE, LINE_HEIGHT, PANEL_TEXT_INSET, PATH_LABEL_LINE, RING_GAP

Point = tuple[float, float]

#: Coordinates are written at 0.1 precision; closer than this is the same place.
EPSILON = 0.05
#: A horizontal run at most this far from a label block is the one the label names (its gap and a little more).
LABEL_NEAR = 8.0


def first_baseline(y: float, h: float, lines: int) -> float:
    """Baseline y of the first of ``lines`` lines of text centred vertically in a box from ``y``, ``h`` tall."""
    return y + (h - lines * LINE_HEIGHT) / 2 + LINE_HEIGHT * 0.75


class Rect(Struct, frozen=True):
    """An axis-aligned rectangle: top-left ``x``, ``y``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        """x of the right edge."""
        return self.x + self.w

    @property
    def bottom(self) -> float:
        """y of the bottom edge."""
        return self.y + self.h

    @property
    def cx(self) -> float:
        """Centre x."""
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        """Centre y."""
        return self.y + self.h / 2

    def grown(self, by: float) -> Rect:
        """The rectangle with ``by`` added on every side."""
        return Rect(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def overlaps(self, other: Rect) -> bool:
        """True when the interiors intersect (touching edges do not count)."""
        # right and bottom written out: the same sums, without four property calls (a hot path of the layout)
        return (self.x < other.x + other.w and other.x < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)

    def area_within(self, other: Rect) -> float:
        """The area of the part of this rectangle inside ``other`` (0 when they do not overlap)."""
        w = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        h = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return w * h if w > 0 and h > 0 else 0.0

    def crossed_by(self, a: Point, b: Point) -> bool:
        """True when the horizontal or vertical segment ``a``-``b`` passes through the interior (a segment
        along an edge or ending on one does not; coordinates within 0.05 of an edge count as on it)."""
        e = EPSILON
        if a[1] == b[1]:
            low, high = sorted((a[0], b[0]))
            return self.y + e < a[1] < self.bottom - e and low < self.right - e and self.x + e < high
        low, high = sorted((a[1], b[1]))
        return self.x + e < a[0] < self.right - e and low < self.bottom - e and self.y + e < high


#: The lines of every text a target's label shows, by text (``(text, lines)`` pairs), for a target whose label
#: a step changes (``labels``); empty for any other.
Texts = tuple[tuple[str, tuple[str, ...]], ...]


class Box(Rect, frozen=True):
    """A node's box and its wrapped label ``lines``; ``key`` is its target key.  ``texts`` holds the lines of
    every text the label shows when a step changes it (:data:`Texts`): the box is sized for all of them."""

    key: str = ""
    lines: tuple[str, ...] = ()
    texts: Texts = ()

    def lines_of(self, text: str | None) -> tuple[str, ...]:
        """The lines of ``text``, one of :attr:`texts` (else the label's own :attr:`lines`)."""
        return dict(self.texts).get(text or "", self.lines)

    @property
    def first_baseline(self) -> float:
        """Baseline y of the first label line, centring the block vertically."""
        return first_baseline(self.y, self.h, len(self.lines))

    @property
    def ring(self) -> Rect:
        """The ring drawn around the box while it is active."""
        return self.grown(RING_GAP)


def text_anchor(points: Sequence[Point], block: Rect) -> str:
    """The SVG ``text-anchor`` of a path label whose ``block`` stands beside its route's ``points``: ``"start"``
    (the text from the block's left edge) where the run nearest the block is a vertical one left of it, ``"end"``
    where it is right of it, else ``"middle"`` (over or under a horizontal run, or near none within
    :data:`LABEL_NEAR`).  The block is sized with a margin over the text the browser draws (the text metrics'
    safety factor): centred, the text stood 3 to 6 units further from a vertical run than the block, 9 to 11 in
    all, where issue 27 wants at most 6 (measured in chromium); held to the edge nearest the run it stands at the
    block's distance."""
    best, anchor = LABEL_NEAR + EPSILON, "middle"
    for a, b in itertools.pairwise(points):
        if abs(a[0] - b[0]) < EPSILON:  # vertical: beside it where their spans overlap
            low, high = sorted((a[1], b[1]))
            if low < block.bottom and block.y < high:
                for gap, side in ((block.x - a[0], "start"), (a[0] - block.right, "end")):
                    if -EPSILON <= gap < best:
                        best, anchor = gap, side
        elif abs(a[1] - b[1]) < EPSILON:
            low, high = sorted((a[0], b[0]))
            if low < block.right and block.x < high:
                for gap in (block.y - a[1], a[1] - block.bottom):
                    if -EPSILON <= gap < best:
                        best, anchor = gap, "middle"
    return anchor


class Arrow(Struct, frozen=True):
    """A path target's route: ``points`` an orthogonal polyline from the port on the source box to the
    base of the arrowhead, ``head`` the arrowhead triangle (tip first, at the target's port), the label's
    anchor point ``label_at`` and its lines, and ``label_box`` the rectangle the label covers;
    ``label_on_band`` says that most of that rectangle lies on a lane's tinted band (its halo is then the
    band's colour, not the page's).

    ``clean`` is False when no route or label position free of boxes and other labels was found;
    ``crowded`` True when the route is a straight line because the layout's searches ran out of time
    (:data:`mechdiagram.layout.routing.SEARCH_BUDGET`), or its label was placed without weighing the routes it
    crosses (:data:`mechdiagram.layout.labels.LABEL_BUDGET`).
    """

    key: str
    points: tuple[Point, ...]
    head: tuple[Point, Point, Point]
    label_at: Point = (0.0, 0.0)
    label_anchor: str = "middle"
    label_lines: tuple[str, ...] = ()
    label_box: Rect | None = None
    clean: bool = True
    label_on_band: bool = False
    crowded: bool = False
    texts: Texts = ()

    def lines_of(self, text: str | None) -> tuple[str, ...]:
        """The lines of label ``text``, one of :attr:`texts` (:data:`Texts`: the label block is sized for all of
        them), else the label's own :attr:`label_lines`."""
        return dict(self.texts).get(text or "", self.label_lines)

    def anchor_of(self, lines: int) -> Point:
        """Where a text of ``lines`` lines of :attr:`texts` is anchored (centre x, first baseline) in the label
        block, which is sized for the largest: against the block's edge nearest the route (its foot above a
        horizontal run, its top below one), else in its middle (beside a vertical run)."""
        box = self.label_box
        if box is None:
            return self.label_at
        spare = box.h - lines * PATH_LABEL_LINE
        runs = [a[1] for a, b in zip(self.points, self.points[1:], strict=False)
                if a[1] == b[1] and min(a[0], b[0]) < box.right and box.x < max(a[0], b[0])]
        below = [y for y in runs if y >= box.bottom - EPSILON]
        above = [y for y in runs if y <= box.y + EPSILON]
        near_below = min((y - box.bottom for y in below), default=float("inf"))
        near_above = min((box.y - y for y in above), default=float("inf"))
        if near_below <= near_above and near_below <= LABEL_NEAR:
            shift = spare  # the route runs under the block: the text sits on its foot
        elif near_above <= LABEL_NEAR:
            shift = 0.0
        else:
            shift = spare / 2
        return self.label_at[0], round(self.label_at[1] + shift, 1)

    @property
    def start(self) -> Point:
        """Where the route leaves the source box."""
        return self.points[0]

    @property
    def end(self) -> Point:
        """The base of the arrowhead."""
        return self.points[-1]

    @property
    def head_box(self) -> Rect:
        """The rectangle the arrowhead covers."""
        xs, ys = [p[0] for p in self.head], [p[1] for p in self.head]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


class LaneHeader(Struct, frozen=True):
    """A lane label at the left of a grid row, or (``above``) in a strip across the top of its lane; ``centred``
    over it (the transposed grid's lane, a column: :mod:`mechdiagram.layout.transposed`) or from its left edge."""

    x: float
    y: float
    w: float
    h: float
    lines: tuple[str, ...]
    above: bool = False
    centred: bool = False

    @property
    def anchor_x(self) -> float:
        """Where the lines are anchored: the middle when :attr:`centred`, else the left edge."""
        return self.x + self.w / 2 if self.centred else self.x

    @property
    def first_baseline(self) -> float:
        """Baseline y of the first line, centring the block vertically."""
        return first_baseline(self.y, self.h, len(self.lines))


class ColumnHeader(Struct, frozen=True):
    """The label of grid column ``column``: its ``lines`` over the column, which runs from ``x`` and is ``w``
    wide, centred (or, not ``centred``, starting at ``x``: the narrow layout's header over the box it heads);
    ``y`` is the top of the text block, ``h`` its height (:data:`~mechdiagram.layout.sizes.LINE_HEIGHT` a
    line)."""

    x: float
    y: float
    w: float
    h: float
    lines: tuple[str, ...]
    column: int
    centred: bool = True

    @property
    def cx(self) -> float:
        """The column's middle."""
        return self.x + self.w / 2

    @property
    def anchor_x(self) -> float:
        """Where the lines are anchored: the column's middle, or its left edge when not :attr:`centred`."""
        return self.cx if self.centred else self.x

    @property
    def first_baseline(self) -> float:
        """Baseline y of the first line."""
        return first_baseline(self.y, self.h, len(self.lines))


class AxisTick(Struct, frozen=True):
    """A tick of the time axis at ``x`` (a column's edge), with its label ``text`` under it (``""`` where it
    would run into a neighbour's), aligned to the tick by ``anchor`` (an SVG ``text-anchor``)."""

    x: float
    text: str = ""
    anchor: str = "middle"


class TimeAxis(Struct, frozen=True):
    """The time axis under a proportional grid: its line at ``y`` drawn in ``runs`` (``(x0, x1)`` pieces: the
    line is open at each break), ``ticks`` from ``y`` down to ``tick_bottom`` at the columns' edges, their labels'
    baseline ``label_y``, and the break marks, each two short slanted strokes (``(start, end)`` points) either
    side of an opening, at the middle of a column that is not drawn to scale (``broken`` lists those columns)."""

    y: float
    runs: tuple[tuple[float, float], ...]
    ticks: tuple[AxisTick, ...]
    tick_bottom: float
    label_y: float
    breaks: tuple[tuple[Point, Point], ...] = ()
    broken: tuple[int, ...] = ()


class LaneBand(Struct, frozen=True):
    """The tinted band behind one lane of a grid (a row), from its header to the last column."""

    x: float
    y: float
    w: float
    h: float


class PanelRow(Struct, frozen=True):
    """One state row: its label lines and the baseline ``y`` of its first line (the same in every frame), and
    the baseline of its value's first line, ``value_y``: ``y`` beside the label, or under it in a narrow panel."""

    key: str
    label: tuple[str, ...]
    y: float
    value_y: float | None = None

    @property
    def value_baseline(self) -> float:
        """Where the row's value starts: :attr:`value_y`, or the label's baseline."""
        return self.y if self.value_y is None else self.value_y


class PanelFrame(Struct, frozen=True):
    """The state panel's changing content in one frame (the poster, or a step):
    the heading lines, each row's value lines, in row order, and the heading's first baseline ``title_y``
    (a heading shorter than the longest sits at the foot of the room they share, next to the rows)."""

    title: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]
    title_y: float = 0.0


class Panel(Struct, frozen=True):
    """The state panel: rectangle, heading baseline, rows, value column x, and one frame per step plus the poster.

    ``rtl``: the spec's language is written right to left, and the heading is centred (:attr:`title_x`).
    """

    x: float
    y: float
    w: float
    h: float
    title_y: float
    value_x: float
    rows: tuple[PanelRow, ...]
    poster: PanelFrame
    steps: tuple[PanelFrame, ...]
    rtl: bool = False

    @property
    def label_x(self) -> float:
        """Where the row labels start."""
        return self.x + PANEL_TEXT_INSET

    @property
    def title_x(self) -> float:
        """Where the heading is anchored: its start, or its middle when :attr:`rtl`."""
        return self.x + self.w / 2 if self.rtl else self.label_x


class Badge(Rect, frozen=True):
    """A poster badge: the numbers (``text``) of the steps that highlight target ``key``."""

    key: str = ""
    text: str = ""

    @property
    def radius(self) -> float:
        """Corner radius: the ends are half circles."""
        return self.h / 2

    @property
    def baseline(self) -> float:
        """Baseline y of the number, centred in the badge."""
        return self.y + self.h / 2 + BADGE_BASELINE


class Message(Struct, frozen=True):
    """One message of the sequence view: path target ``key`` drawn in a step's row as ``arrow`` (horizontal, or a
    loop back to its own lifeline when ``self_loop``), its label above its line on a background (``arrow.label_box``,
    the rectangle the background covers); ``reply`` draws it dashed with an open head; ``lost`` (the step marks it
    ``lost``) ends its line short of the target's lifeline, in a cross instead of a head."""

    key: str
    arrow: Arrow
    reply: bool = False
    self_loop: bool = False
    lost: bool = False


class LegendEntry(Struct, frozen=True):
    """One mark in the legend: its disc centred at (``cx``, ``cy``), its word centred on ``text_x`` at ``baseline``."""

    mark: str
    cx: float
    cy: float
    text_x: float
    baseline: float
    text: str


class Legend(Rect, frozen=True):
    """The legend of the marks a scenario uses (a step's ``marks``), in the room kept for it under the drawing:
    ``entries`` every mark the scenario uses, ``steps`` each step's own (the first step's first)."""

    entries: tuple[LegendEntry, ...] = ()
    steps: tuple[tuple[LegendEntry, ...], ...] = ()


class Activation(Rect, frozen=True):
    """An activation bar: participant ``key`` is active in the row the bar spans, on its lifeline."""

    key: str = ""


class SequenceRow(Rect, frozen=True):
    """One step's row of the sequence view, across the drawing: its step ``number`` (from 1), the ``badge`` that
    numbers it at the left, its ``messages`` top to bottom in the order the step lists them, and the activation
    ``bars`` of the participants the step makes active."""

    number: int = 0
    badge: Badge | None = None
    messages: tuple[Message, ...] = ()
    bars: tuple[Activation, ...] = ()


class Lifeline(Struct, frozen=True):
    """Participant ``key``'s lifeline: a vertical line at ``x`` from ``top`` (its head's foot) to ``bottom``."""

    key: str
    x: float
    top: float
    bottom: float


class GroupFrame(Rect, frozen=True):
    """A group's enclosure (the spec's ``groups``): the frame's rectangle around its members' boxes, ``key`` the
    group's key, its label's ``lines`` from (``label_x``, ``label_y``, the first baseline) at the frame's top
    left, inside it, and ``label_box`` where that text is (routes, path labels and badges keep off it).  In the
    sequence view the frame is the band over the members' heads, its label centred (``centred``)."""

    key: str = ""
    lines: tuple[str, ...] = ()
    label_x: float = 0.0
    label_y: float = 0.0
    label_box: Rect | None = None
    centred: bool = False


class Layout(Struct, frozen=True):
    """Everything the drawing stage needs: canvas size, boxes, routed arrows, lanes, panel.

    ``cells`` is each node's (row, column) in the grid the boxes sit in;
    ``direction`` is ``"grid"`` for a lane grid, ``"sequence"`` for the sequence view (``boxes`` are then the
    participants' heads, ``arrows`` empty, and ``rows`` and ``lifelines`` hold the rest), else ``"right"`` or
    ``"down"`` (the layered layout's flow direction); ``columns`` the headers of a lane grid's columns
    (``layout.columns``), and ``axis`` its time axis under proportional time; ``marks`` the centre of the mark of
    each box and path some step marks (the same in every step: :mod:`mechdiagram.layout.marks`; a message's is
    :func:`~mechdiagram.layout.marks.message_mark`) and ``legend`` their legend.
    """

    width: float
    height: float
    boxes: dict[str, Box]
    arrows: dict[str, Arrow]
    lanes: tuple[LaneHeader, ...]
    panel: Panel
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)
    bands: tuple[LaneBand, ...] = ()
    direction: str = "grid"
    badges: tuple[Badge, ...] = ()
    rows: tuple[SequenceRow, ...] = ()
    lifelines: tuple[Lifeline, ...] = ()
    columns: tuple[ColumnHeader, ...] = ()
    axis: TimeAxis | None = None
    groups: dict[str, GroupFrame] = field(default_factory=dict)
    marks: dict[str, Point] = field(default_factory=dict)
    legend: Legend | None = None

