"""Cells to coordinates: node boxes sized to their text, columns as wide as their widest box, rows as
tall as their tallest, with channels between them wide enough for the routes and their labels.

The lane grid's cells come from :func:`grid_cells` (``<lane><index>`` keys); every other spec's from
:mod:`mechdiagram.layout.layered`.  ``layout.positions`` overrides either.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from msgspec import Struct

from mechdiagram.layout.columns import caption_text, slot_widths, spans
from mechdiagram.layout.geometry import Box, ColumnHeader, LaneBand, LaneHeader
from mechdiagram.layout.groups import (
    GROUP_PAD,
    Sides,
    frame_room,
    grouped_cells,
    inner_paths,
    stacked_order,
    strip_height,
)
from mechdiagram.layout.labels import AMBIGUOUS, SIDE_GAP
from mechdiagram.layout.layered import folded, layered_cells
from mechdiagram.layout.measure import (
    balanced_wrap,
    breaks_anywhere,
    even_wrap,
    least_width,
    text_width,
    tokens,
    whole_words,
    wrap,
)
from mechdiagram.layout.ports import PathEnds
from mechdiagram.layout.sizes import (
    BAND_GAP,
    BAND_PAD,
    BOX_AIR,
    BOX_CODE_WIDTH,
    BOX_MAX_WIDTH,
    BOX_MIN_HEIGHT,
    BOX_MIN_WIDTH,
    BOX_WORD_WIDTH,
    CAPTION_GAP,
    FLOW_COLUMNS,
    GAP_X,
    GAP_Y,
    LABELLED_PITCH,
    LANE_HEADER_AIR,
    LANE_HEADER_GAP,
    LANE_HEADER_LINES,
    LANE_HEADER_MAX_WIDTH,
    LANE_HEADER_WIDTH,
    LINE_HEIGHT,
    MARGIN,
    NARROW_LABEL_WIDTH,
    PAD_X,
    PAD_Y,
    PATH_LABEL_GROWTH,
    PATH_LABEL_LINE,
    PATH_LABEL_SIZE,
    PATH_LABEL_WIDTH,
    PORT_PITCH,
    PORT_SPREAD,
    ROUTE_PITCH,
    STRIP_AIR,
    TARGET_STUB,
    TIMED_BOX_MAX_WIDTH,
)
from mechdiagram.layout.stacked import track_ports
from mechdiagram.shared.model import Spec, parse_lane_key

Cells = dict[str, tuple[int, int]]


def _edges(spec: Spec, nodes: list[str]) -> list[tuple[str, str]]:
    return [(p.source, p.dest) for p in spec.paths if p.source in nodes and p.dest in nodes and p.source != p.dest]


def grid_cells(spec: Spec, *, down: bool | None = None, positions: bool = True,
               from_last: bool = False) -> tuple[Cells, list[str | None]]:
    """Every node's (row, column) cell, and each row's lane label (lane grids only).

    A lane grid when every node key is ``<lane><index>``: lanes are rows in order of first
    appearance (or ``layout.lanes``), the sorted distinct indexes are columns.  Otherwise the
    layered layout, flowing right (``down`` False) or down (``down`` True; ``None`` picks the
    direction from the graph's shape alone: down for more than four layers); nodes without paths follow in rows
    of :data:`FLOW_COLUMNS` (:func:`refolded` folds a long one into bands).  ``layout.positions`` then overrides
    cells (unless ``positions`` is False).  ``from_last`` breaks the layered layout's cycles by a search from its
    last node (:func:`~mechdiagram.layout.layered.cycle_breakings`).
    """
    nodes = [t.key for t in spec.nodes]
    cells: Cells = {}
    labels: list[str | None] = []
    if spec.lane_grid:
        grid = {key: lane_index for key in nodes if (lane_index := parse_lane_key(key)) is not None}
        lanes: list[str] = [lane.key for lane in spec.layout.lanes]
        for lane, _ in grid.values():
            if lane not in lanes:
                lanes.append(lane)
        column_of = {index: col for col, index in enumerate(sorted({index for _, index in grid.values()}))}
        for key, (lane, index) in grid.items():
            cells[key] = (lanes.index(lane), column_of[index])
        label_of = {lane.key: lane.label for lane in spec.layout.lanes}
        labels = [label_of.get(lane) for lane in lanes]
    else:
        edges = _edges(spec, nodes)
        # A group's members are laid out with the linked nodes, those without paths too (they stay in its block).
        linked = [key for key in nodes if any(key in edge for edge in edges) or spec.group_of(key) is not None]
        loose = [key for key in nodes if key not in linked]
        if linked:
            across = layered_cells(linked, edges, down=False, from_last=from_last)  # layers as columns
            if spec.groups:
                across = grouped_cells(across, [g.members for g in spec.groups.values()], layer=1)
            if down is None:
                down = max(c for _, c in across.values()) + 1 > 4
            cells = {key: (c, r) for key, (r, c) in across.items()} if down else across
        cells.update(_loose_cells(cells, loose))
    if positions:
        cells.update({k: v for k, v in spec.layout.positions.items() if k in cells})
    return cells, labels


def _loose_cells(cells: Cells, loose: Sequence[str]) -> Cells:
    """The cells of the nodes without paths: rows of :data:`FLOW_COLUMNS` under those of ``cells``."""
    first_row = max((r for r, _ in cells.values()), default=-1) + 1
    return {key: (first_row + i // FLOW_COLUMNS, i % FLOW_COLUMNS) for i, key in enumerate(loose)}


def refolded(spec: Spec, cells: Cells, bands: int, *, down: bool) -> Cells:
    """The layered layout's ``cells`` (:func:`grid_cells`, flowing down or not) with its linked nodes folded into
    ``bands`` bands (:func:`~mechdiagram.layout.layered.folded`) and the nodes without paths in rows under them,
    without laying the graph out again."""
    nodes = [t.key for t in spec.nodes if t.key in cells]
    edges = _edges(spec, nodes)
    linked = {key for edge in edges for key in edge}
    folding = folded({key: cells[key] for key in nodes if key in linked}, bands, down=down)
    return {**folding, **_loose_cells(folding, [key for key in nodes if key not in linked])}


def _other_texts(spec: Spec, labels: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The texts other than its own label that each node of ``labels`` shows (a step's ``labels``), by key."""
    return {key: tuple(text for text in spec.texts(key) if text != label) for key, label in labels.items()}


def word_bound(code: bool = False, narrow_box_max: float | None = None) -> float:
    """The widest a box may grow to keep a word (a code label's token) whole: :data:`BOX_WORD_WIDTH`; for a code
    label :data:`BOX_CODE_WIDTH` in the wide layout, and in the narrow one its widest box, ``narrow_box_max``
    (routes run beside the column: a box wider than the layout gives would widen the phone's drawing)."""
    if not code:
        return BOX_WORD_WIDTH
    return BOX_CODE_WIDTH if narrow_box_max is None else max(narrow_box_max, BOX_MIN_WIDTH)


def _inner(label: str, box_max: float = BOX_MAX_WIDTH, code: bool = False, bound: float = BOX_WORD_WIDTH) -> float:
    """The text width a box gives ``label``: ``box_max`` less padding, or more, up to ``bound``
    (:func:`word_bound`), so that a long word (a code label's token, :func:`~mechdiagram.layout.measure.tokens`)
    stays whole."""
    longest = max((text_width(word, code=code) for word in tokens(label, code)), default=0.0)
    return max(box_max - 2 * PAD_X, min(longest, bound - 2 * PAD_X))


def box_lines(label: str, box_max: float = BOX_MAX_WIDTH, code: bool = False,
              bound: float = BOX_WORD_WIDTH) -> tuple[str, ...]:
    """A node label wrapped for a box at most ``box_max`` wide, in lines of even length when it needs several
    (no word left alone on the last: "paused: / no token", not "paused: no / token"): words (a ``code`` label's
    tokens) are broken only when longer than ``bound`` (:func:`word_bound`) allows, with a continuation mark."""
    return even_wrap(label, _inner(label, box_max, code, bound), code=code)


def natural_width(lines: tuple[str, ...], code: bool = False, bound: float = BOX_WORD_WIDTH) -> float:
    """The width of a box holding ``lines`` (a ``code`` label's, in the monospace face): the widest line and
    padding, within the box bounds (at most ``bound``, :func:`word_bound`)."""
    widest = max((text_width(line, code=code) for line in lines), default=0.0)
    return math.ceil(min(bound, max(BOX_MIN_WIDTH, widest + 2 * PAD_X)) * 10) / 10  # at 0.1 precision


def label_width(label: str, narrow: bool = False, code: bool = False) -> float:
    """The width a path label wraps to: :data:`PATH_LABEL_WIDTH` (:data:`NARROW_LABEL_WIDTH` in the narrow
    layout), or more, up to :data:`PATH_LABEL_GROWTH` times it (a code label in the wide layout: as far as a
    box, :data:`BOX_CODE_WIDTH`), so that its widest word (a ``code`` label's token) stays whole; a word of CJK
    text breaks between its characters instead."""
    width = NARROW_LABEL_WIDTH if narrow else PATH_LABEL_WIDTH
    bound = BOX_CODE_WIDTH - 2 * PAD_X if code and not narrow else width * PATH_LABEL_GROWTH
    longest = max((text_width(word, PATH_LABEL_SIZE, code) for word in tokens(label, code)
                   if not breaks_anywhere(word)), default=0.0)  # CJK breaks between characters, as it did
    return max(width, min(longest, bound))


@functools.lru_cache(maxsize=4096)
def path_label_lines(label: str | None, narrow: bool = False, code: bool = False) -> tuple[str, ...]:
    """A path label wrapped to its width (:func:`label_width`), its lines balanced: as narrow as the
    same number of lines allows, so that no line is left with a word or a character alone."""
    return even_wrap(label, label_width(label, narrow, code), PATH_LABEL_SIZE, code) if label else ()


@functools.lru_cache(maxsize=4096)
def path_label_wraps(label: str | None, narrow: bool = False, code: bool = False) -> tuple[tuple[str, ...], ...]:
    """The ways a path label may be wrapped (:func:`path_label_lines`), preferred first: its lines, then,
    when the label can take one more line, balanced over one line more (a narrower block fits between
    two routes); () for none."""
    lines = path_label_lines(label, narrow, code)
    if not label or not lines:
        return ()
    more = balanced_wrap(label, len(lines) + 1, label_width(label, narrow, code), PATH_LABEL_SIZE, code)
    if len(more) == len(lines) + 1 and whole_words(more, label, code):
        return (lines, more)
    return (lines,)


def _timed_box_max(label: str) -> float:
    """The width a box of a proportional grid wraps its ``label`` to while the columns' scale is chosen: the least
    (:data:`TIMED_BOX_MAX_WIDTH`) that breaks no run a line should keep whole (``forward 31``, ``18 ms``)."""
    return max(TIMED_BOX_MAX_WIDTH, math.ceil(least_width(label) + 2 * PAD_X))


class Placement(Struct, frozen=True):
    """Boxes, lane headers and bands, and the grid's extent (``right``, ``bottom``).

    A lane grid's wide placement also gives each column's left ``x`` and width (``columns``) and the ``gap``
    between columns (the least: a spread grid's are wider, and its column headers wrap as its natural grid's do),
    and under proportional time which columns are drawn to scale (``to_scale``, one a column: a column's slot, from
    the middle of the gap before it to the middle of the gap after it, or to its edge at either end of the grid, is
    then as wide as its span at the grid's scale);
    a narrow one with ``layout.columns`` the header above each box (``captions``)."""

    boxes: dict[str, Box]
    lanes: tuple[LaneHeader, ...]
    bands: tuple[LaneBand, ...]
    right: float
    bottom: float
    columns: tuple[tuple[float, float], ...] = ()
    gap: float = 0.0
    to_scale: tuple[bool, ...] = ()
    captions: tuple[ColumnHeader, ...] = ()


def channel(spec: Spec, cells: Cells, least: tuple[float, float] = (GAP_X, GAP_Y),
             narrow: bool = False, banded: bool = False, fans: bool = False) -> tuple[float, float]:
    """Gaps between columns and between rows: room for two routes side by side and the widest label
    of a path that runs along that gap; at least ``least``.  With ``fans`` (a layered graph), a column gap
    between the columns of arrows that also change rows has room beyond their lanes (the outer ones nearest the
    source, two to a lane) for the widest of their labels: a fan-out of six labelled arrows had its labels crossed
    by its siblings' jogs.  In a lane grid (``banded``) a row gap is the
    page between two lanes' bands, split by the line between them (:data:`BAND_GAP`): a label of a path
    between rows gets room in one band's half, clear of the boxes and of that line (:data:`STRIP_AIR`), so
    that the line does not run through its text."""
    gap_x, gap_y = least
    jogs: dict[int, int] = {}  # by the column gap they cross: the paths that jog there (to another row and column)
    for path in spec.paths:
        if path.source in cells and path.dest in cells and fans:
            (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
            if r1 != r2 and abs(c1 - c2) == 1:
                jogs[min(c1, c2)] = jogs.get(min(c1, c2), 0) + 1
    for path in spec.paths:
        if path.source not in cells or path.dest not in cells:
            continue
        for text in spec.texts(path.key):  # every text the label shows (a step's labels): room for each
            lines = path_label_lines(text, narrow, path.code)
            wide = max(text_width(line, PATH_LABEL_SIZE, path.code) for line in lines)
            (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
            if r1 == r2:  # the route runs along a row, its label above it, in the gap between columns
                gap_x = max(gap_x, wide + 24)
            else:  # the label sits beside a vertical run or above a horizontal one in a row gap
                gap_y = max(gap_y, len(lines) * PATH_LABEL_LINE + 28)
                if fans and abs(c1 - c2) == 1:
                    # A fan's arrows jog in the column gap, the outer ones on the lanes nearest the source: the
                    # label beside its own jog, or over its last run, needs the gap beyond the lanes.
                    lanes = math.ceil(jogs[min(c1, c2)] / 2)
                    gap_x = max(gap_x, wide + 24 + lanes * ROUTE_PITCH)
                if banded:
                    half = len(lines) * PATH_LABEL_LINE + BOX_AIR + STRIP_AIR + 1
                    gap_y = max(gap_y, 2 * half + BAND_GAP)
                if c1 == c2:  # beside a vertical run between two rows: room for the narrower wrap too
                    narrowest = path_label_wraps(text, narrow, path.code)[-1]
                    gap_y = max(gap_y, len(narrowest) * PATH_LABEL_LINE + 2 * BOX_AIR + 2)
                    gap_x = max(gap_x, min(wide, PATH_LABEL_WIDTH) / 2 + 16)
    return round(gap_x, 1), round(gap_y, 1)


def lane_headers(labels: list[str | None]) -> tuple[float, list[tuple[str, ...]]]:
    """The lane header column's width and each lane's name in lines (``()`` for none): names wrap, in lines of
    even length, where LANE_HEADER_MAX_WIDTH makes them, and the column is as wide as the widest line needs, at
    least LANE_HEADER_WIDTH."""
    lines = [even_wrap(label, LANE_HEADER_MAX_WIDTH - LANE_HEADER_AIR) if label else () for label in labels]
    widest = max((text_width(line) for name in lines for line in name), default=0.0)
    return max(LANE_HEADER_WIDTH, math.ceil((widest + LANE_HEADER_AIR) * 10) / 10), lines


def _side_by_side(spec: Spec, cells: Cells, narrow: bool = False) -> dict[int, float]:
    """Rows where three or more paths, one labelled at least, run side by side between two neighbouring boxes:
    the height their routes need there, by row (LABELLED_PITCH apart, more for labels of several lines, with the
    ports spread over PORT_SPREAD of the sides); labels wrapped as the ``narrow`` variant's when it is set."""
    pairs: dict[frozenset[str], list[int]] = {}
    for path in spec.paths:
        if path.source in cells and path.dest in cells:
            (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
            if r1 == r2 and abs(c1 - c2) == 1:
                count = max((len(path_label_lines(text, narrow, path.code)) for text in spec.texts(path.key)),
                            default=0)
                pairs.setdefault(frozenset((path.source, path.dest)), []).append(count)
    rows: dict[int, float] = {}
    for pair, lines in pairs.items():
        if len(lines) >= 3 and max(lines):
            pitch = LABELLED_PITCH + (max(lines) - 1) * PATH_LABEL_LINE
            row = cells[next(iter(pair))][0]
            rows[row] = max(rows.get(row, 0.0), math.ceil(pitch * (len(lines) - 1) / PORT_SPREAD))
    return rows


#: How many arrows between two boxes one above the other :func:`_one_above_another` makes room for (three: a read
#: miss, a writeback and a fill), and the widest it makes their column, in user units (twice the widest box).  Four
#: arrows with labels of five words between two boxes asked for 521 units, which turned a graph that folded into a
#: tall unfolded one with more faults (a break-it review): more arrows than three there wrap their labels instead.
STACKED_RUNS = 3
STACKED_RUNS_MAX_WIDTH = 2 * BOX_MAX_WIDTH


def _one_above_another(spec: Spec, cells: Cells, narrow: bool = False) -> dict[int, float]:
    """Columns where :data:`STACKED_RUNS` paths, one labelled at least, run side by side between two boxes one above
    the other (in neighbouring rows): the width their boxes need there, by column, so that the runs, their ports spread
    over PORT_SPREAD of the sides, stand far enough apart for a label between two of them to sit beside its own run
    (:data:`~mechdiagram.layout.labels.SIDE_GAP`) and clearly nearer it than the next
    (:data:`~mechdiagram.layout.labels.AMBIGUOUS` more); labels wrapped as the ``narrow`` variant's when it is set.  A
    new user's cache hierarchy, a read miss, a fill and a writeback between L1 and L2, printed the middle run's label
    over the next run.  At most :data:`STACKED_RUNS_MAX_WIDTH`.  The rows' counterpart is :func:`_side_by_side`, where
    labels sit above their runs."""
    pairs: dict[frozenset[str], list[float]] = {}
    for path in spec.paths:
        if path.source in cells and path.dest in cells:
            (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
            if c1 == c2 and abs(r1 - r2) == 1:
                wide = max((text_width(line, PATH_LABEL_SIZE, path.code) for text in spec.texts(path.key)
                            for line in path_label_lines(text, narrow, path.code)), default=0.0)
                pairs.setdefault(frozenset((path.source, path.dest)), []).append(wide)
    columns: dict[int, float] = {}
    for pair, widths in pairs.items():
        if len(widths) == STACKED_RUNS and max(widths):
            pitch = max(widths) + 2 * SIDE_GAP + AMBIGUOUS
            column = cells[next(iter(pair))][1]
            need = min(math.ceil(pitch * (len(widths) - 1) / PORT_SPREAD), STACKED_RUNS_MAX_WIDTH)
            columns[column] = max(columns.get(column, 0.0), need)
    return columns


def _crowded(spec: Spec, cells: Cells, n_rows: int, n_cols: int) -> tuple[list[int], list[int]]:
    """How many routes each gap between columns and each gap between rows is expected to carry: a path
    that changes both row and column turns in the gap beside its target's column and below (or above)
    its source's row; between neighbouring columns (a layered graph's next layer, flowing right) only in their
    gap, between neighbouring rows (flowing down) only in theirs."""
    cols, rows = [0] * max(0, n_cols - 1), [0] * max(0, n_rows - 1)
    for path in spec.paths:
        if path.source not in cells or path.dest not in cells or path.source == path.dest:
            continue
        (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
        if r1 != r2 and c1 != c2:
            # Between neighbouring columns it turns in their gap only, between neighbouring rows in theirs.
            if abs(c1 - c2) > 1 or abs(r1 - r2) == 1:
                rows[r1 if r2 > r1 else r1 - 1] += 1
            if abs(r1 - r2) > 1 or abs(c1 - c2) == 1:
                cols[c2 - 1 if c2 > c1 else c2] += 1
    return cols, rows


def gap_widths(base: float, counts: list[int]) -> list[float]:
    """Each gap's width for the number of routes expected in it: the arrowhead stubs at both sides and
    :data:`ROUTE_PITCH` between neighbouring routes, never less than ``base``."""
    return [round(max(base, 2 * TARGET_STUB + (n - 1) * ROUTE_PITCH), 1) for n in counts]


def place(spec: Spec, cells: Cells, lane_labels: list[str | None], *, lanes_on_top: bool = False,
          box_max: float = BOX_MAX_WIDTH, gaps: tuple[float, float] | None = None, strips: bool = True,
          fill: bool = False, port_room: dict[str, tuple[float, float]] | None = None,
          two_sided: bool = True, narrow_labels: bool = False, frame_sides: Sides | None = None,
          spread: float = 0.0) -> Placement:
    """Coordinates for ``cells``: see the module docstring.  ``lanes_on_top`` stacks every box in one
    column, each lane's header above its boxes (the narrow variant, :func:`_place_stacked`); ``box_max``
    bounds box widths, there (with ``fill``, every box is that wide: a column with no routes beside it takes
    the drawing's width; ``two_sided``: its tracks run on both sides, :func:`~.stacked.track_sides`) and in the
    cells (a layered graph's middle variant: :data:`~mechdiagram.layout.sizes.MIDDLE_BOX_MAX_WIDTH`, its
    ``narrow_labels`` wrapped as the narrow variant's, :data:`NARROW_LABEL_WIDTH`); ``gaps`` replaces the least
    gaps (:data:`GAP_X`, :data:`GAP_Y`).  A lane grid
    whose names need more than :data:`LANE_HEADER_LINES` lines in the header column heads its lanes from
    strips above them instead (:class:`LaneHeader` ``above``), when ``strips`` allows, no path runs from one
    lane to another (it would have to cross a name) and the lanes are at least twice the column's width.
    ``port_room`` gives the least (height, width) of a box's row and column, by key: room for its ports
    (:func:`~mechdiagram.layout.ports.port_room`).  ``frame_sides``: the extra room groups' frames take on their
    sides (:func:`~mechdiagram.layout.groups.inner_label_sides`).  ``spread`` (user units) widens every gap between
    columns by as much: a wide drawing narrower than :data:`~mechdiagram.layout.sizes.SPREAD_WIDTH` spread to it
    (issue 26).  A lane grid under proportional time takes none: its columns' slots are its time."""
    if lanes_on_top:
        return _place_stacked(spec, cells, lane_labels, box_max, gaps, fill, two_sided)
    n_rows = max((r for r, _ in cells.values()), default=-1) + 1
    n_cols = max((c for _, c in cells.values()), default=-1) + 1
    timed = spans(spec, n_cols) if lane_labels else None
    labels = {t.key: t.label or "" for t in spec.nodes if t.key in cells}
    code = {t.key: t.code for t in spec.nodes}
    others = _other_texts(spec, labels)
    texts = {key: {text: box_lines(text, _timed_box_max(text) if timed else box_max, code[key],
                                   word_bound(code[key])) for text in (label, *others[key])}
             for key, label in labels.items()}
    lines = {key: texts[key][label] for key, label in labels.items()}
    col_w = [BOX_MIN_WIDTH] * n_cols
    row_h = [BOX_MIN_HEIGHT] * n_rows
    for key, (_, c) in cells.items():  # as wide as the widest of the texts it shows
        col_w[c] = max(col_w[c], *(natural_width(each, code[key], word_bound(code[key]))
                                   for each in texts[key].values()))
    gap_x, gap_y = channel(spec, cells, narrow=narrow_labels, banded=bool(lane_labels), fans=not lane_labels)
    to_scale: tuple[bool, ...] = ()
    if timed is not None:  # proportional time: each column's slot from its span; its labels wrap to its width
        inner = [(c > 0) + (c < n_cols - 1) for c in range(n_cols)]  # the gaps' halves a slot has
        slots, to_scale = slot_widths(timed, [w + k * gap_x / 2 for w, k in zip(col_w, inner, strict=True)])
        col_w = [round(slot - k * gap_x / 2, 1) for slot, k in zip(slots, inner, strict=True)]
        texts = {key: {text: box_lines(text, col_w[c], code[key], word_bound(code[key])) for text in texts[key]}
                 for key, (_, c) in cells.items()}
        lines = {key: texts[key][labels[key]] for key in labels}
    for key, (r, _) in cells.items():  # as tall as the tallest of the texts it shows
        row_h[r] = max(row_h[r], *(round(len(each) * LINE_HEIGHT + 2 * PAD_Y, 1) for each in texts[key].values()))
    for r, height in _side_by_side(spec, cells, narrow_labels).items():
        row_h[r] = max(row_h[r], height)
    if not lane_labels:
        for c, width in _one_above_another(spec, cells, narrow_labels).items():
            col_w[c] = max(col_w[c], width)
    # Room for the ports on a box's sides: its row and column grow, and it with them; the other boxes there keep
    # their size, centred in the room (a fan's source grows, not the target beside it).
    plain_h, plain_w = list(row_h), list(col_w)
    # In a layered graph a box alone in its column (a fan's source or sink: the layer holds it alone) grows over the
    # rows beside its own instead, centred on its neighbours, so that its row does not push their boxes apart.
    # Not a group's member: its frame would grow with it over other boxes.
    alone = {key for key, (_, c) in cells.items() if not lane_labels and key in (port_room or {})
             and spec.group_of(key) is None and sum(1 for cell in cells.values() if cell[1] == c) == 1}
    for key, (height, width) in (port_room or {}).items():
        r, c = cells[key]
        if key not in alone:
            row_h[r] = max(row_h[r], height)
        col_w[c] = max(col_w[c], width)
    header_w, header_lines = lane_headers(lane_labels[:n_rows])
    col_gaps, row_gaps = [gap_x] * max(0, n_cols - 1), [gap_y] * max(0, n_rows - 1)
    if not lane_labels:  # a layered layout: a channel that many routes turn in is wider
        cols, rows = _crowded(spec, cells, n_rows, n_cols)
        col_gaps, row_gaps = gap_widths(gap_x, cols), gap_widths(gap_y, rows)
        if spec.groups:  # the groups' frames take room at the gaps' sides; the routes keep the middle
            col_room, row_room = frame_room(spec, cells, n_rows, n_cols, frame_sides)
            col_gaps = [round(gap + room, 1) for gap, room in zip(col_gaps, col_room, strict=True)]
            row_gaps = [round(gap + room, 1) for gap, room in zip(row_gaps, row_room, strict=True)]
    if timed is None and spread:
        col_gaps = [round(gap + spread, 1) for gap in col_gaps]
    across = any(cells[p.source][0] != cells[p.dest][0] for p in spec.paths if p.source in cells and p.dest in cells)
    on_top = (strips and not across and sum(col_w) + sum(col_gaps) >= 2 * LANE_HEADER_WIDTH
              and any(len(wrap(label, LANE_HEADER_WIDTH - LANE_HEADER_AIR)) > LANE_HEADER_LINES
                      for label in lane_labels[:n_rows] if label))
    if not on_top:
        for r, hl in enumerate(header_lines[:n_rows]):
            row_h[r] = max(row_h[r], len(hl) * LINE_HEIGHT + 2 * PAD_Y)
            plain_h[r] = max(plain_h[r], len(hl) * LINE_HEIGHT + 2 * PAD_Y)
    has_headers = any(header_lines)
    left = round(MARGIN + (header_w + gap_x / 2 if has_headers and not on_top else 0), 1)
    col_x = [left]
    for w, gap in zip(col_w[:-1], col_gaps, strict=True):
        col_x.append(round(col_x[-1] + w + gap, 1))
    right = (col_x[-1] + col_w[-1]) if n_cols else MARGIN
    # Names too long for the header column head their lanes from above, across the lane's width.
    if on_top:
        header_lines = [even_wrap(label, right - MARGIN) if label else () for label in lane_labels]
    strip = [len(header_lines[r]) * LINE_HEIGHT + LANE_HEADER_GAP if on_top and r < len(header_lines)
             and header_lines[r] else 0.0 for r in range(n_rows)]
    row_y = [MARGIN + strip[0]] if n_rows else []
    for r, (h, gap) in enumerate(zip(row_h[:-1], row_gaps, strict=True)):
        row_y.append(round(row_y[-1] + h + gap + strip[r + 1], 1))
    boxes = {}
    for key, (r, c) in cells.items():
        grown = port_room is not None and key in port_room
        h, w = (row_h[r], col_w[c]) if grown else (plain_h[r], plain_w[c])
        middle = row_y[r] + row_h[r] / 2
        if key in alone:
            assert port_room is not None
            h = max(port_room[key][0], plain_h[r])
            ends = [cells[p.dest if p.source == key else p.source][0] for p in spec.paths
                    if key in (p.source, p.dest) and p.source in cells and p.dest in cells and p.source != p.dest]
            if ends:
                middle = (row_y[min(ends)] + row_y[max(ends)] + row_h[max(ends)]) / 2
            top, last = (row_y[0] if n_rows else MARGIN), (row_y[-1] + row_h[-1] if n_rows else MARGIN)
            middle = min(max(middle, top + h / 2), max(last - h / 2, top + h / 2))
        boxes[key] = Box(round(col_x[c] + (col_w[c] - w) / 2, 1), round(middle - h / 2, 1), w, h,
                         key=key, lines=lines[key], texts=tuple(texts[key].items()) if others[key] else ())
    bottom = (row_y[-1] + row_h[-1]) if n_rows else MARGIN
    if on_top:
        lanes = tuple(LaneHeader(MARGIN, round(row_y[r] - strip[r], 1), right - MARGIN, len(hl) * LINE_HEIGHT, hl,
                                 above=True)
                      for r, hl in enumerate(header_lines[:n_rows]) if hl)
    else:
        lanes = tuple(LaneHeader(MARGIN, row_y[r], header_w, row_h[r], hl)
                      for r, hl in enumerate(header_lines[:n_rows]) if hl)
    bands: tuple[LaneBand, ...] = ()
    if lane_labels:  # a lane grid: one tinted band per lane (and its header strip), reaching into half of each gap
        bands = tuple(LaneBand(MARGIN - BAND_PAD, row_y[r] - strip[r] - gap_y / 2 + BAND_GAP / 2,
                               right - MARGIN + 2 * BAND_PAD, row_h[r] + strip[r] + gap_y - BAND_GAP)
                      for r in range(n_rows))
    columns = tuple(zip(col_x, col_w, strict=True)) if lane_labels else ()
    return Placement(boxes, lanes, bands, right, bottom, columns, gap_x if lane_labels else 0.0, to_scale)


def _place_stacked(spec: Spec, cells: Cells, lane_labels: list[str | None], box_max: float,
                   gaps: tuple[float, float] | None, fill: bool = False, two_sided: bool = True) -> Placement:
    """:func:`place` for the narrow variant: every box in one column, in the order of ``cells`` (row,
    then column: a lane grid lane by lane, a layered layout layer by layer), each lane's boxes under
    its header in a band of their own; routes run in the room beside the column.  With
    ``layout.columns`` each box of a lane grid has its column's header (:func:`caption_text`) :data:`CAPTION_GAP`
    above it, from its left edge as the lanes' names are: a straight run into the box comes down right of it
    (:func:`~mechdiagram.layout.stacked.stacked_routes`), where a centred header would be under its arrowhead."""
    order = sorted(cells, key=lambda key: (cells[key], key))
    if spec.groups:
        order = stacked_order(spec, order)
    labels = {t.key: t.label or "" for t in spec.nodes}
    code = {t.key: t.code for t in spec.nodes}
    bound = {key: word_bound(code[key], box_max) for key in order}
    others = _other_texts(spec, labels)
    texts = {key: {text: box_lines(text, box_max, code[key], bound[key]) for text in (labels[key], *others[key])}
             for key in order}
    width = max([BOX_MIN_WIDTH, *(natural_width(each, code[key], bound[key]) for key in order
                                  for each in texts[key].values()), *([box_max] if fill else [])])
    # Every box is the column's width: a label wrapped for a narrower box takes the room it has (a long
    # word in one box widened the column).
    texts = {key: {text: box_lines(text, width, code[key], max(bound[key], width))
                   if natural_width(each, code[key], bound[key]) < width else each for text, each in texts[key].items()}
             for key in order}
    lines = {key: texts[key][labels[key]] for key in order}
    _, gap_y = channel(spec, {key: (i, 0) for i, key in enumerate(order)}, gaps or (GAP_X, GAP_Y), narrow=True)
    ports = track_ports(order, [PathEnds(p.key, p.source, p.dest) for p in spec.paths
                                if p.source in cells and p.dest in cells and p.source != p.dest], inner_paths(spec),
                        two_sided)
    boxes: dict[str, Box] = {}
    lanes: list[LaneHeader] = []
    bands: list[LaneBand] = []
    captions: list[ColumnHeader] = []
    headed = bool(lane_labels and spec.layout.columns)
    y, lane, block_top = MARGIN, None, MARGIN
    for key in order:
        row = cells[key][0]
        if lane_labels and row != lane:
            if lane is not None:
                bands.append(LaneBand(MARGIN - BAND_PAD, block_top - BAND_PAD, width + 2 * BAND_PAD,
                                      y - gap_y - block_top + 2 * BAND_PAD))
                y += BAND_PAD
            lane, block_top = row, y
            label = lane_labels[row] if row < len(lane_labels) else None
            header = even_wrap(label, width) if label else ()
            if header:
                lanes.append(LaneHeader(MARGIN, y, width, len(header) * LINE_HEIGHT, header))
                y += len(header) * LINE_HEIGHT + LANE_HEADER_GAP
        text = caption_text(spec, cells[key][1]) if headed else ""
        caption = even_wrap(text, width) if text else ()
        if caption:  # the column's header over the box (the header row of the wide layout has no place here)
            captions.append(ColumnHeader(MARGIN, round(y, 1), width, len(caption) * LINE_HEIGHT, caption,
                                         cells[key][1], centred=False))
            y += len(caption) * LINE_HEIGHT + CAPTION_GAP
        group = spec.group_of(key) if spec.groups else None
        if group is not None and (not boxes or spec.group_of(list(boxes)[-1]) != group):
            y += GROUP_PAD + strip_height(spec.groups[group].label)  # the frame's top and its label's strip
        # Room for the track routes' ports on its right side, PORT_PITCH apart (stacked._spread).
        tallest = max(len(each) for each in texts[key].values())
        h = round(max(BOX_MIN_HEIGHT, tallest * LINE_HEIGHT + 2 * PAD_Y, (ports[key] + 1) * PORT_PITCH), 1)
        boxes[key] = Box(MARGIN, round(y, 1), width, h, key=key, lines=lines[key],
                         texts=tuple(texts[key].items()) if others[key] else ())
        y += h + gap_y
        if group is not None and (key == order[-1] or spec.group_of(order[order.index(key) + 1]) != group):
            y += GROUP_PAD  # the frame's bottom
    bottom = y - gap_y
    if lane_labels and lane is not None:
        bands.append(LaneBand(MARGIN - BAND_PAD, block_top - BAND_PAD, width + 2 * BAND_PAD,
                              bottom - block_top + 2 * BAND_PAD))
    return Placement(boxes, tuple(lanes), tuple(bands), MARGIN + width, bottom, captions=tuple(captions))
