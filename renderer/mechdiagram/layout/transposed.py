"""The narrow variant of a lane grid, transposed: time runs down and the lanes stand side by side as columns
(issue 26: a grid flattened into the phone's one column put boxes that light up in the same step 1,300 px apart).

Each lane is a column as wide as its widest word needs and a share of the room left, its name centred over it (a
:class:`LaneHeader` ``above`` and ``centred``), without a tinted band (a band keeps an active box's ring 6 units
inside it: 24 units between lanes, which five lanes on a phone do not have; the columns' alignment and their
names tell the lanes apart); each grid column (a time) is a row, its ``layout.columns`` label at the
left of the row (a :class:`ColumnHeader` not ``centred``); every box is as tall as its row.  Under proportional time
the rows' heights come from the columns' spans, as the wide layout's widths do
(:func:`~mechdiagram.layout.columns.slot_widths`), and the times a row begins and ends follow its label.  Gaps that
paths run across are as wide as the wide layout's channels (:func:`_gaps`).

The lanes fit side by side when the figure is at most :data:`~mechdiagram.layout.sizes.NARROW_MIN_WIDTH` wide
(the narrow variant's width: its 13-unit text is 12 CSS px or more in the 281 px of the HTML figure on a 320 px
screen) with every word of a box's label and of a lane's name whole in its column: :func:`transposed` returns
``None`` otherwise, and the narrow variant keeps the wide layout's grid, which scrolls in its frame.
"""

from __future__ import annotations

import math

from mechdiagram.layout.columns import caption_text, format_time, slot_widths, spans
from mechdiagram.layout.geometry import Box, ColumnHeader, LaneHeader
from mechdiagram.layout.measure import breaks_anywhere, even_wrap, text_width, tokens
from mechdiagram.layout.placement import Cells, Placement, gap_widths
from mechdiagram.layout.sizes import BAND_PAD, LANE_HEADER_GAP, LINE_HEIGHT, MARGIN, NARROW_MIN_WIDTH
from mechdiagram.shared.model import Spec

#: A box's padding either side of its text and above and below it, in user units: less than the wide layout's
#: (10), so that five lanes fit a phone (text is measured bold, with a safety margin: a regular label has more).
PAD_X = 4.0
PAD_Y = 8.0
#: A box's least height, in user units: room for one line and an active box's ring inside the row.
MIN_HEIGHT = 40.0
#: Least gaps between lane columns and between rows, in user units: two active boxes' rings (5 units out) 6 apart;
#: rows keep room for a step badge between them.
GAP_X = 16.0
GAP_Y = 24.0
#: Least gap, in user units, that paths run across: as the wide layout's (:data:`~mechdiagram.layout.sizes.GAP_X`).
ROUTE_GAP = 40.0
#: The narrowest a lane's column may be, in user units.
MIN_COLUMN = 36.0
#: The row labels (``layout.columns``) wrap to this width at most, and keep this much from the first band; in a
#: wider budget (the middle layout's) to this share of it, so that a row's name and its times take a line each.
ROW_LABEL_MAX_WIDTH = 76.0
ROW_LABEL_SHARE = 0.2
ROW_LABEL_GAP = 6.0


def _widest(text: str, code: bool = False) -> float:
    """The width of the widest word of ``text`` (a code label's token; CJK text breaks anywhere), in user units."""
    return max((text_width(word, code=code) for word in tokens(text, code) if not breaks_anywhere(word)), default=0.0)


def skip_sides(spec: Spec, cells: Cells, n_lanes: int) -> dict[str, tuple[str, str]]:
    """The sides of the paths of the transposed grid ``cells`` that skip a row (a skip edge: a box of the rows
    between stands in their way down a lane), by path key: within one lane, out of the side towards the next lane
    and back in by it (the last lane's: its left), down the gap beside the lane; between neighbouring lanes, out of
    the side towards the other lane and in by the side towards the source's, down the gap between them.  Two bends
    each (:data:`~mechdiagram.layout.route_rules.MAX_BENDS`); other paths take the sides that face each other."""
    chosen: dict[str, tuple[str, str]] = {}
    for path in spec.paths:
        if path.source not in cells or path.dest not in cells or path.source == path.dest:
            continue
        (l1, t1), (l2, t2) = cells[path.source], cells[path.dest]
        if abs(t1 - t2) < 2:
            continue
        if l1 == l2:
            side = "right" if l1 < n_lanes - 1 or n_lanes == 1 else "left"
            chosen[path.key] = (side, side)
        elif abs(l1 - l2) == 1:
            chosen[path.key] = ("right", "left") if l2 > l1 else ("left", "right")
    return chosen


def _gaps(spec: Spec, cells: Cells, n_lanes: int, n_rows: int,
          channels: tuple[float, float]) -> tuple[list[float], list[float]]:
    """The gaps between neighbouring lane columns and between neighbouring rows, in user units: :data:`GAP_X` and
    :data:`GAP_Y`, and where paths run along or across a gap (between lanes: a path within one row, or down the
    gap beside its lane, :func:`skip_sides`; between rows: any path from one row to another, which turns there)
    the ``channels`` (room for their labels) or room for the routes as the wide layout's channels give it (two
    arrowhead stubs, :data:`~mechdiagram.layout.sizes.ROUTE_PITCH` between neighbouring routes:
    :func:`~mechdiagram.layout.placement.gap_widths`), whichever is more.  A route down the outer side of the
    last lane has no gap: the figure's margin is its room."""
    across = [0] * max(0, n_lanes - 1)
    down = [0] * max(0, n_rows - 1)
    chosen = skip_sides(spec, cells, n_lanes)
    for path in spec.paths:
        if path.source not in cells or path.dest not in cells or path.source == path.dest:
            continue
        (l1, t1), (l2, t2) = cells[path.source], cells[path.dest]
        if path.key in chosen:  # down the gap beside its lane, or between its two lanes
            gap = min(l1, l2) if l1 != l2 else (l1 if chosen[path.key][0] == "right" else l1 - 1)
            if 0 <= gap < len(across):
                across[gap] += 1
        elif t1 == t2:  # across the lanes of one row: through the gaps between them
            for gap in range(min(l1, l2), max(l1, l2)):
                across[gap] += 1
        for gap in range(min(t1, t2), max(t1, t2)):  # down (or up) the rows, turning in a gap between rows
            down[gap] += 1
    return ([GAP_X if not n else w for n, w in zip(across, gap_widths(max(ROUTE_GAP, channels[0]), across),
                                                  strict=True)],
            [GAP_Y if not n else w for n, w in zip(down, gap_widths(max(ROUTE_GAP, channels[1]), down), strict=True)])


def row_labels(spec: Spec, count: int, width: float = ROW_LABEL_MAX_WIDTH) -> list[tuple[str, ...]]:
    """Each of ``count`` rows' label, in lines at most ``width`` user units wide: its column's ``layout.columns``
    label (:func:`caption_text`), and under proportional time the times it begins and ends (``18 – 92 ms``) on a
    line (or two) of its own."""
    timed = spans(spec, count)
    labels = []
    for index in range(count):
        text = caption_text(spec, index)
        lines = even_wrap(text, width) if text else ()
        if timed is not None:
            start, end = sum(timed[:index]), sum(timed[:index + 1])
            when = f"{format_time(start)} – {format_time(end)}" if end != start else format_time(start)
            lines = (*lines, *even_wrap(f"{when} {spec.layout.unit}" if spec.layout.unit else when, width))
        labels.append(lines)
    return labels


def transposed(spec: Spec, cells: Cells, lane_labels: list[str | None], gaps: tuple[float, float] = (GAP_X, GAP_Y),
               budget: float = NARROW_MIN_WIDTH) -> Placement | None:
    """The transposed placement of the lane grid ``cells`` (``(lane, column)`` each, :func:`grid_cells`) whose
    lanes are named ``lane_labels``: see the module docstring.  ``gaps`` are the least gaps between lane columns
    and between rows that paths run across, in user units (:func:`_gaps`).  ``None`` when the lanes do not fit
    side by side in ``budget`` user units (margins included) with every word of their names and their boxes'
    labels whole."""
    n_lanes = max((r for r, _ in cells.values()), default=-1) + 1
    n_rows = max((c for _, c in cells.values()), default=-1) + 1
    if not n_lanes or not n_rows:
        return None
    gap_x = GAP_X
    lane_gaps, row_gaps = _gaps(spec, cells, n_lanes, n_rows, gaps)
    labels = row_labels(spec, n_rows, max(ROW_LABEL_MAX_WIDTH, round(budget * ROW_LABEL_SHARE)))
    label_w = max((text_width(line) for lines in labels for line in lines), default=0.0)
    label_part = math.ceil(label_w + ROW_LABEL_GAP) if label_w else 0.0
    texts = {t.key: (t.label or "", t.code) for t in spec.nodes if t.key in cells}
    names = [label or "" for label in lane_labels[:n_lanes]] + [""] * (n_lanes - len(lane_labels))
    # Each lane's column as wide as its widest word needs (a box's, with padding, or its name's), at least
    # MIN_COLUMN; the room left over shared evenly.  The bands side by side, each its column and a gap wide; the
    # row labels left of them.
    need = [max(MIN_COLUMN, _widest(name)) for name in names]
    # Every text a box shows (its label, and those a step's labels give it) has room: the layout never moves.
    shown = {key: spec.texts(key) or ("",) for key in texts}
    for key, (lane, _) in cells.items():
        code = texts[key][1]
        need[lane] = max(need[lane], *(_widest(text, code) + 2 * PAD_X for text in shown[key]))
    room = budget - 2 * MARGIN - label_part - gap_x - sum(lane_gaps)
    if sum(need) > room:
        return None
    share = (room - sum(need)) / n_lanes
    col_ws = [math.floor((w + share) * 10) / 10 for w in need]
    wrapped = {key: {text: even_wrap(text, col_ws[cells[key][0]] - 2 * PAD_X, code=texts[key][1]) if text else ()
                     for text in shown[key]} for key in texts}
    lines = {key: wrapped[key].get(label, ()) for key, (label, _) in texts.items()}
    heads = [even_wrap(name, w) if name else () for name, w in zip(names, col_ws, strict=True)]
    head_h = max((len(h) * LINE_HEIGHT for h in heads), default=0.0)
    row_h = [MIN_HEIGHT] * n_rows
    for key, (_, c) in cells.items():
        row_h[c] = max(row_h[c], *(len(each) * LINE_HEIGHT + 2 * PAD_Y for each in wrapped[key].values()))
    for c, row_label in enumerate(labels):
        row_h[c] = max(row_h[c], len(row_label) * LINE_HEIGHT)
    timed = spans(spec, n_rows)
    if timed is not None:  # proportional time: each row's slot from its span, as the wide layout's columns
        # One gap between every two rows, so that a row's height, as its slot's, is its span at the scale.
        row_gaps = [max(row_gaps, default=0.0)] * len(row_gaps)
        # A slot is its row and half of each gap beside it.
        around = [(row_gaps[c - 1] if c else 0.0) + (row_gaps[c] if c < n_rows - 1 else 0.0)
                  for c in range(n_rows)]
        slots, _ = slot_widths(timed, [h + g / 2 for h, g in zip(row_h, around, strict=True)])
        row_h = [round(slot - g / 2, 1) for slot, g in zip(slots, around, strict=True)]
    col_x = [round(MARGIN + label_part + gap_x / 2 + sum(col_ws[:lane]) + sum(lane_gaps[:lane]), 1)
             for lane in range(n_lanes)]
    top = MARGIN + (head_h + LANE_HEADER_GAP if head_h else BAND_PAD)
    row_y = [round(top, 1)]
    for h, g in zip(row_h[:-1], row_gaps, strict=True):
        row_y.append(round(row_y[-1] + h + g, 1))
    bottom = row_y[-1] + row_h[-1]
    boxes = {}
    for key, (lane, c) in cells.items():
        # Every box of a row is the row's height: the row reads as one time across the lanes.
        boxes[key] = Box(col_x[lane], row_y[c], col_ws[lane], round(row_h[c], 1), key=key, lines=lines[key],
                         texts=tuple(wrapped[key].items()) if len(wrapped[key]) > 1 else ())
    lanes = tuple(LaneHeader(col_x[lane], round(MARGIN + head_h - len(h) * LINE_HEIGHT, 1), col_ws[lane],
                             len(h) * LINE_HEIGHT, h, above=True, centred=True)
                  for lane, h in enumerate(heads) if h)
    captions = tuple(ColumnHeader(MARGIN, row_y[c], label_w, row_h[c], label, c, centred=False)
                     for c, label in enumerate(labels) if label)
    return Placement(boxes, lanes, (), round(col_x[-1] + col_ws[-1] + gap_x / 2, 1), round(bottom, 1),
                     captions=captions)
