"""A lane grid's columns as the author names them (``layout.columns``): the header row over them, each box's
header in the narrow layout, and under proportional time (``"time": "proportional"``) the columns' widths from
their spans and the time axis under the grid.

Under proportional time a column's *slot* (the column and half of each gap beside it: the first and last
columns have one gap beside them) is ``scale × span`` wide, so the slots' edges, where the axis has its ticks, are
the times the columns begin and end.
One scale serves the whole grid (:func:`slot_widths`): the one that draws the most columns to scale within
:func:`time_room`.  A column whose boxes need more than its span gives keeps their width, and a column so long
that it would take the room of the others is drawn as wide as the widest column drawn to scale; neither is to
scale, so the axis shows a break mark at its middle (:func:`time_axis`).  The narrow layout shows each column's
label over each of its boxes and has no axis (:func:`caption_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mechdiagram.layout.geometry import AxisTick, ColumnHeader, Point, TimeAxis
from mechdiagram.layout.measure import even_wrap, text_width
from mechdiagram.layout.sizes import (
    AXIS_GAP,
    BREAK_HEIGHT,
    BREAK_LEAN,
    BREAK_OPENING,
    COLUMN_HEADER_AIR,
    COLUMN_HEADER_GAP,
    LINE_HEIGHT,
    PATH_LABEL_LINE,
    PATH_LABEL_SIZE,
    TICK_LABEL_AIR,
    TICK_LABEL_GAP,
    TICK_LENGTH,
)
from mechdiagram.shared.model import Spec

#: Under proportional time the columns may take this many times the width their boxes and gaps need, or
#: TIME_ROOM user units when that is more: room for the short columns to be drawn to scale beside the long ones,
#: without a figure much wider than the same grid without time (the wide layout's width is what makes its text
#: small on a narrow screen).
TIME_STRETCH = 1.25
TIME_ROOM = 720.0
#: The axis's labels give the times rounded to this many decimals (trailing zeros dropped): 138.73 is "138.7".
AXIS_DECIMALS = 1
#: A scale within this share of a column's least scale draws it to scale (the widths are rounded to 0.1).
SCALE_TOLERANCE = 1e-6


def spans(spec: Spec, count: int) -> tuple[float, ...] | None:
    """The spans of a grid of ``count`` columns under proportional time, left to right, or ``None`` when its
    columns are not sized by time (no ``"time": "proportional"``, or a column without a span: validation refuses
    such a spec, rule layout-columns)."""
    columns = spec.layout.columns
    if not spec.layout.proportional or len(columns) < count:
        return None
    found = tuple(column.span for column in columns[:count])
    if any(span is None for span in found) or not any(found):
        return None
    return tuple(float(span or 0.0) for span in found)


def time_room(needs: Sequence[float]) -> float:
    """The room, in user units, that proportional time gives slots whose boxes and gaps need ``needs``:
    :data:`TIME_STRETCH` times their sum, at least :data:`TIME_ROOM`."""
    return max(TIME_STRETCH * sum(needs), TIME_ROOM)


def _at_scale(spans_: Sequence[float], needs: Sequence[float], scale: float,
              room: float) -> tuple[list[float], list[bool]]:
    """Slot widths at ``scale`` (user units per unit of time) and which are to scale: a slot narrower than its
    need keeps its need; then, while the slots take more than ``room``, the longest column still to scale is
    drawn as wide as the widest of the others still to scale (at least its need)."""
    widths = [span * scale if span > 0 and span * scale >= need * (1 - SCALE_TOLERANCE) else need
              for span, need in zip(spans_, needs, strict=True)]
    to_scale = [span > 0 and span * scale >= need * (1 - SCALE_TOLERANCE)
                for span, need in zip(spans_, needs, strict=True)]
    while sum(widths) > room and sum(to_scale) > 1:
        longest = max((i for i, ok in enumerate(to_scale) if ok), key=lambda i: (spans_[i], -i))
        to_scale[longest] = False
        widest = max(spans_[i] * scale for i, ok in enumerate(to_scale) if ok)
        widths[longest] = max(needs[longest], widest)
    return widths, to_scale


def slot_widths(spans_: Sequence[float], needs: Sequence[float]) -> tuple[tuple[float, ...], tuple[bool, ...]]:
    """Each column's slot width under proportional time (user units, at 0.1) and whether it is drawn to scale.

    ``spans_`` are the columns' spans (``0`` an instant), ``needs`` the least slot widths (the widest box of the
    column and one gap).  The scale is the one, among the least scales at which some column fits its boxes
    (``need ÷ span``), that draws the most columns to scale within :func:`time_room` (see :func:`_at_scale`);
    of equals, the one that shortens fewer long columns, then the larger.  Without a span above 0 (which
    :func:`spans` never returns) every slot keeps its need and none is to scale.
    """
    room = time_room(needs)
    best: tuple[tuple[int, int, float], list[float], list[bool]] = ((0, 0, 0.0), list(needs), [False] * len(needs))
    for scale in sorted({need / span for span, need in zip(spans_, needs, strict=True) if span > 0}):
        widths, to_scale = _at_scale(spans_, needs, scale, room)
        shortened = sum(1 for w, need, ok in zip(widths, needs, to_scale, strict=True) if not ok and w > need)
        rank = (sum(to_scale), -shortened, scale)
        if rank > best[0]:
            best = (rank, widths, to_scale)
    return tuple(round(w, 1) for w in best[1]), tuple(best[2])


def format_time(value: float) -> str:
    """A time for the axis: rounded to :data:`AXIS_DECIMALS` decimals, without trailing zeros (``92``,
    ``138.7``)."""
    text = f"{value:.{AXIS_DECIMALS}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def caption_text(spec: Spec, column: int) -> str:
    """What a box of grid ``column`` shows above it in the narrow layout: the column's label (``""`` for a column
    without one).  The narrow layout has no time axis: its column is one box wide, so a column's times would wrap
    over several lines above every box; the boxes' own labels carry what the author wants read there."""
    columns = spec.layout.columns
    return columns[column].label if column < len(columns) else ""


def header_row(labels: Sequence[str], columns: Sequence[tuple[float, float]], gap: float,
               bottom: float) -> tuple[ColumnHeader, ...]:
    """The wide layout's header row: each label centred over its column (``(x, w)`` in ``columns``), wrapped in
    even lines to the column and the ``gap`` beside it less :data:`COLUMN_HEADER_AIR`, every block's last line
    :data:`COLUMN_HEADER_GAP` above ``bottom`` (the top of the grid)."""
    headers = []
    for index, (label, (x, w)) in enumerate(zip(labels, columns, strict=False)):
        lines = even_wrap(label, w + gap - COLUMN_HEADER_AIR)
        h = len(lines) * LINE_HEIGHT
        headers.append(ColumnHeader(x, round(bottom - COLUMN_HEADER_GAP - h, 1), w, h, lines, index))
    return tuple(headers)


def _anchor(index: int, count: int) -> str:
    """How tick ``index`` of ``count`` aligns its label: the first starts at its tick and the last ends at it,
    so that the labels stay within the axis; the others are centred."""
    return "start" if index == 0 else "end" if index == count - 1 else "middle"


def label_extent(tick: AxisTick) -> tuple[float, float]:
    """The left and right x of ``tick``'s label, as its ``anchor`` aligns it (``(x, x)`` for no label)."""
    w = text_width(tick.text, PATH_LABEL_SIZE) if tick.text else 0.0
    left = {"start": tick.x, "middle": tick.x - w / 2, "end": tick.x - w}[tick.anchor]
    return left, left + w


def _labels(edges: Sequence[float], texts: list[str]) -> list[str]:
    """The tick labels that keep :data:`TICK_LABEL_AIR` from their neighbours, left to right: the last always (it
    carries the unit), each other one when it keeps clear of the last kept and says another time than it (an
    instant's two edges are one time: "92", not "92 // 92"); ``""`` for those left out."""
    shown = [""] * len(texts)
    spans_ = [label_extent(AxisTick(x, text, _anchor(i, len(texts))))
              for i, (x, text) in enumerate(zip(edges, texts, strict=True))]
    last = len(texts) - 1
    right, said = float("-inf"), None
    for i, (left, end) in enumerate(spans_[:-1]):
        if texts[i] != said and left >= right + TICK_LABEL_AIR and end + TICK_LABEL_AIR <= spans_[last][0]:
            shown[i], right, said = texts[i], end, texts[i]
    shown[last] = texts[last]
    return shown


def time_axis(edges: Sequence[float], spans_: Sequence[float], to_scale: Sequence[bool], unit: str | None,
              top: float) -> TimeAxis:
    """The time axis of a proportional grid whose slots have ``edges`` (x, one more than the columns), under
    the grid's bottom ``top``: a line :data:`AXIS_GAP` below it with ticks at the edges, labelled with the time
    since the first column began (:func:`format_time`, the last with ``unit``; the first label starts at its
    tick and the last ends at it, the others are centred), and a break mark at the middle of each slot not
    ``to_scale``."""
    y = round(top + AXIS_GAP, 1)
    times = [sum(spans_[:i]) for i in range(len(spans_) + 1)]
    texts = [format_time(t) for t in times]
    texts[-1] = f"{texts[-1]} {unit}" if unit else texts[-1]
    labels = _labels(edges, texts)
    runs: list[tuple[float, float]] = []
    strokes: list[tuple[Point, Point]] = []
    start = edges[0]
    broken = tuple(i for i, ok in enumerate(to_scale) if not ok)
    half, lean = BREAK_HEIGHT / 2, BREAK_LEAN / 2
    for i in broken:
        middle = (edges[i] + edges[i + 1]) / 2
        left, right = round(middle - BREAK_OPENING / 2, 1), round(middle + BREAK_OPENING / 2, 1)
        runs.append((round(start, 1), left))
        for x in (left, right):
            strokes.append(((round(x - lean, 1), round(y + half, 1)), (round(x + lean, 1), round(y - half, 1))))
        start = right
    runs.append((round(start, 1), round(edges[-1], 1)))
    tick_bottom = round(y + TICK_LENGTH, 1)
    label_y = round(tick_bottom + TICK_LABEL_GAP + PATH_LABEL_LINE * 0.75, 1)
    ticks = tuple(AxisTick(round(x, 1), text, _anchor(i, len(edges)))
                  for i, (x, text) in enumerate(zip(edges, labels, strict=True)))
    return TimeAxis(y, tuple(runs), ticks, tick_bottom, label_y, tuple(strokes), broken)


def axis_bottom(axis: TimeAxis) -> float:
    """The lowest y the axis draws: the foot of its labels' line (:data:`PATH_LABEL_LINE` from its top)."""
    return round(axis.label_y + PATH_LABEL_LINE * 0.25, 1)
