"""Stage 4, layout: place the boxes, route the paths, place their labels and the state panel.

Geometry only, in SVG user units; nothing here knows about SVG elements (the drawing stage,
:mod:`mechdiagram.render.svg`, writes what it is handed).  The phases, each a module:

* :mod:`.placement`: cells (a lane grid for ``<lane><index>`` keys, else the layered layout of
  :mod:`.layered`), then boxes sized to their text in columns as wide as their content;
* :mod:`.routing`: orthogonal routes around the boxes, with ports on the box sides (:mod:`.ports`);
* :mod:`.labels`: path labels beside their routes, clear of boxes and other labels;
* :mod:`.columns`: a lane grid's column headers, and under proportional time its columns' widths and time axis;
* :mod:`.panel`: the state panel.

The sequence view (``layout.view`` ``"sequence"``) has phases of its own, in :mod:`.sequence`: participants'
heads and lifelines, then each scenario's rows of messages.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from msgspec import Struct
from msgspec.structs import replace

from mechdiagram.layout.badges import place_badges
from mechdiagram.layout.columns import axis_bottom, header_row, label_extent, spans, time_axis
from mechdiagram.layout.geometry import (
    Arrow,
    AxisTick,
    Badge,
    Box,
    ColumnHeader,
    GroupFrame,
    LaneBand,
    LaneHeader,
    Layout,
    Legend,
    Panel,
    PanelFrame,
    PanelRow,
    Point,
    Rect,
    Texts,
    TimeAxis,
    text_anchor,
)
from mechdiagram.layout.groups import (
    Sides,
    clear_labels,
    frame_edges,
    frames,
    inner_label_sides,
    inner_paths,
    stacked_order,
    stuck_label_sides,
    widened,
)
from mechdiagram.layout.labels import SIDE_GAP, PlacedLabel, label_size, place_labels
from mechdiagram.layout.layered import cycle_breakings, folded
from mechdiagram.layout.marks import legend, mark_places, marked_row
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.panel import panel, step_heading
from mechdiagram.layout.placement import (
    Placement,
    channel,
    grid_cells,
    path_label_lines,
    path_label_wraps,
    place,
    refolded,
)
from mechdiagram.layout.ports import port_room
from mechdiagram.layout.route_rules import bends, crossing_count, faults, frame_faults, junctions, label_faults
from mechdiagram.layout.routing import PathEnds, Route, SearchBudget, route_all
from mechdiagram.layout.sequence import SEQUENCE, Participants, participants, rows
from mechdiagram.layout.sizes import (
    BAND_PAD,
    BOX_MAX_WIDTH,
    BOX_MIN_WIDTH,
    BOX_WORD_WIDTH,
    GAP_X,
    GAP_Y,
    LINE_HEIGHT,
    MARGIN,
    MIDDLE_BOX_MAX_WIDTH,
    MIDDLE_GRAPH_LEAST_WIDTH,
    MIDDLE_GRAPH_WIDTH,
    MIDDLE_WIDTH,
    MIN_WIDTH,
    NARROW_BOX_MAX_WIDTH,
    NARROW_GAPS,
    NARROW_MIN_WIDTH,
    PANEL_GAP,
    PATH_LABEL_LINE,
    SPREAD_WIDTH,
    TRANSPOSED_MAX_WIDTH,
    UPPER_WIDTH,
)
from mechdiagram.layout.stacked import (
    depth_first_order,
    on_tracks,
    stacked_routes,
    swapped_order,
    track_crossings,
)
from mechdiagram.layout.transposed import GAP_X as TRANSPOSED_GAP_X
from mechdiagram.layout.transposed import GAP_Y as TRANSPOSED_GAP_Y
from mechdiagram.layout.transposed import skip_sides, transposed
from mechdiagram.shared.locale import words_for
from mechdiagram.shared.model import PathTarget, Scenario, Spec

__all__ = ["LINE_HEIGHT", "PATH_LABEL_LINE", "Arrow", "AxisTick", "Badge", "Box", "ColumnHeader", "Diagram", "LaneBand",
           "LaneHeader", "Layout", "Panel", "PanelFrame", "PanelRow", "TimeAxis", "diagram", "grid_cells",
           "layout_scenario", "middle_diagram", "step_heading"]


def _shift_point(p: Point, dx: float, dy: float) -> Point:
    return (round(p[0] + dx, 1), round(p[1] + dy, 1))


def _bounds(rects: list[Rect], points: list[Point]) -> tuple[float, float, float, float]:
    xs = [r.x for r in rects] + [p[0] for p in points]
    ys = [r.y for r in rects] + [p[1] for p in points]
    xe = [r.right for r in rects] + [p[0] for p in points]
    ye = [r.bottom for r in rects] + [p[1] for p in points]
    return min(xs, default=0.0), min(ys, default=0.0), max(xe, default=0.0), max(ye, default=0.0)


class Diagram(Struct, frozen=True):
    """The part of a figure every scenario shares: boxes, routed arrows, lanes and bands, each node's
    cell and the flow direction, the canvas ``width`` and the ``bottom`` of the diagram; a lane grid's column
    headers and time axis (:mod:`.columns`); in a layered graph, the arrows routed against its flow (``against``:
    to an earlier rank, which a folded layout's cells do not tell once its bands turn back)."""

    width: float
    bottom: float
    boxes: dict[str, Box]
    arrows: dict[str, Arrow]
    lanes: tuple[LaneHeader, ...]
    bands: tuple[LaneBand, ...]
    cells: dict[str, tuple[int, int]]
    direction: str
    sequence: Participants | None = None  # the sequence view's participants (direction "sequence")
    columns: tuple[ColumnHeader, ...] = ()
    axis: TimeAxis | None = None
    against: frozenset[str] = frozenset()
    groups: dict[str, GroupFrame] = {}
    #: A spread wide layout's natural drawing (:func:`_spread`), the figure's upper middle variant; ``None`` otherwise.
    natural: Diagram | None = None


def name_box(header: LaneHeader) -> Rect:
    """Where a lane header's text is: its block, as wide as its widest line, from its left edge or centred
    (routes and badges keep off it)."""
    w = max(text_width(line) for line in header.lines)
    return Rect(round(header.anchor_x - w / 2, 1) if header.centred else header.x, header.y, w, header.h)


def canvas_width(shared: Diagram) -> int:
    """The width of every scenario's canvas for ``shared``, in user units: whole units, so that every renderer
    rasterises the canvas at the same pixel size."""
    return math.ceil(shared.width)


def header_box(header: ColumnHeader) -> Rect:
    """Where a column header's text is: its block, as wide as its widest line, centred over its column (or from
    its left edge)."""
    w = max(text_width(line) for line in header.lines)
    return Rect(round(header.cx - w / 2 if header.centred else header.x, 1), header.y, round(w, 1), header.h)


def _tick_labels(axis: TimeAxis) -> list[Rect]:
    """Where the time axis's labels are (for the drawing's bounds)."""
    extents = [label_extent(tick) for tick in axis.ticks if tick.text]
    return [Rect(left, axis.y, right - left, axis_bottom(axis) - axis.y) for left, right in extents]


def _shifted_axis(axis: TimeAxis, dx: float, dy: float) -> TimeAxis:
    """``axis`` moved by ``dx``, ``dy``."""
    return TimeAxis(round(axis.y + dy, 1), tuple((round(a + dx, 1), round(b + dx, 1)) for a, b in axis.runs),
                    tuple(replace(t, x=round(t.x + dx, 1)) for t in axis.ticks), round(axis.tick_bottom + dy, 1),
                    round(axis.label_y + dy, 1),
                    tuple((_shift_point(a, dx, dy), _shift_point(b, dx, dy)) for a, b in axis.breaks), axis.broken)


def layout_scenario(spec: Spec, scenario: Scenario, drawn: Diagram | None = None, *, narrow: bool = False) -> Layout:
    """Lay out one scenario's figure: :func:`diagram` (or ``drawn``, computed before for this spec)
    and the scenario's state panel under it.  In a ``narrow`` variant wider than
    :data:`~mechdiagram.layout.sizes.TRANSPOSED_MAX_WIDTH` (a lane grid that keeps its wide grid, its lanes too
    many for a phone; a column whose tracks do not fit one) the panel is a phone's, :data:`NARROW_MIN_WIDTH` less
    the margins, each value under its label, at the drawing's left: the drawing scrolls in its frame, and the
    HTML player holds the panel in view (a panel as wide as the drawing was cut by the frame's edge)."""
    shared = drawn if drawn is not None else diagram(spec)
    if shared.sequence is not None:
        return _sequence_scenario(spec, scenario, shared, shared.sequence)
    kept = narrow and shared.width > TRANSPOSED_MAX_WIDTH
    headers = [header_box(h) for h in shared.columns]
    obstacles = [*(a.label_box for a in shared.arrows.values() if a.label_box is not None),
                 *(Rect(h.x, h.y, h.w, h.h) for h in shared.lanes), *headers,
                 *(f.label_box for f in shared.groups.values() if f.label_box is not None)]
    badges = place_badges(scenario, shared.boxes, shared.arrows, obstacles,
                          [*(name_box(h) for h in shared.lanes), *headers])
    places = mark_places(scenario, shared.boxes, shared.arrows, badges, shared.groups)
    # A scrolling narrow drawing's legend and panel are a phone's wide, at its left, where the HTML player holds them.
    room = NARROW_MIN_WIDTH if kept else shared.width
    key = _legend(spec, scenario, shared.bottom + MARGIN, room, lambda _, target: target in places)
    panel_top = (key.bottom if key is not None else shared.bottom + MARGIN) + PANEL_GAP
    state = panel(spec, scenario, MARGIN, panel_top, room - 2 * MARGIN)
    # Whole user units, so every renderer rasterises the canvas at the same pixel size.
    return Layout(canvas_width(shared), math.ceil(panel_top + state.h + MARGIN), shared.boxes, shared.arrows,
                  shared.lanes, state, shared.cells, shared.bands, shared.direction, badges, columns=shared.columns,
                  axis=shared.axis, groups=shared.groups, marks=places, legend=key)


def _legend(spec: Spec, scenario: Scenario, top: float, width: float,
            shown: Callable[[int, str], bool]) -> Legend | None:
    """The legend of ``scenario``'s marks from ``top``, across a drawing ``width`` wide (``None``: no marks), each
    step's naming the marks on the targets ``shown`` says the drawing shows in it (:func:`.marks.legend`)."""
    return legend(scenario, words_for(spec.language, spec.messages), MARGIN, top, width - 2 * MARGIN, shown)


def _sequence_scenario(spec: Spec, scenario: Scenario, shared: Diagram, heads: Participants) -> Layout:
    """One scenario of the sequence view: its rows under the shared heads (:func:`.sequence.rows`), the state
    panel under them."""
    drawn = rows(spec, scenario, heads)
    places = mark_places(scenario, shared.boxes, {}, (), shared.groups)
    key = _legend(spec, scenario, drawn.bottom + MARGIN, shared.width,
                  lambda number, target: target in places or marked_row(scenario, number, target) is not None)
    panel_top = (key.bottom if key is not None else drawn.bottom + MARGIN) + PANEL_GAP
    state = panel(spec, scenario, MARGIN, panel_top, shared.width - 2 * MARGIN)
    return Layout(canvas_width(shared), math.ceil(panel_top + state.h + MARGIN), shared.boxes, {}, (), state,
                  shared.cells, (), SEQUENCE, (), drawn.rows, drawn.lifelines, groups=shared.groups,
                  marks=places, legend=key)


def diagram(spec: Spec, *, narrow: bool = False, strips: bool = True, wide: Diagram | None = None,
            spread: bool = True) -> Diagram:
    """Boxes, routes and labels of a spec: see the module docstring.

    ``narrow`` lays the figure out for a phone-wide ``<img>`` (the ``narrow`` SVG variant): a layered layout's
    boxes in one column, layer by layer, with routes beside the column; a lane grid transposed, its lanes side by
    side, where they fit a phone (:func:`_transposed`), else its wide grid (:func:`_kept`).  ``layout.positions``
    is the author's wide layout and does not apply to it.  A sequence (``layout.view``) is laid out by
    :func:`.sequence.participants`, wide or narrow.  ``strips`` False keeps a lane grid's names in the header
    column at its left, never in strips above their lanes.  A lane grid's ``layout.columns`` head its columns
    from a row above everything else (transposed: its rows, from their left), and under proportional time the
    time axis runs under everything else
    (:mod:`.columns`).  ``wide``, with ``narrow``, is this spec's wide layout when the caller has drawn it already:
    a narrow variant that keeps the wide grid reuses it instead of drawing it again.  The wide layout narrower than
    :data:`~mechdiagram.layout.sizes.SPREAD_WIDTH` is spread to it where ``spread`` (:func:`_spread`; a sequence's
    lifelines, :func:`.sequence.participants`), its natural drawing kept as ``natural``; ``spread`` False gives
    the natural drawing alone.
    """
    if spec.layout.view == SEQUENCE:
        return _sequence(participants(spec, narrow=narrow, spread=spread and not narrow))
    if narrow:
        cells, lane_labels = grid_cells(spec, down=True, positions=False)
        if lane_labels:  # a lane grid: transposed where its lanes fit side by side, else the wide layout's grid
            turned = _transposed(spec, cells, lane_labels)
            if turned is None:
                return _kept(spec, wide)
            drawn = turned
        else:
            cells, drawn = _narrow(spec, cells, lane_labels)
    else:
        cells, lane_labels = grid_cells(spec)
        drawn = _routed(spec, cells, lane_labels, strips=strips)
        if any(h.above for h in drawn.placed.lanes) and drawn.unclean:  # the strips may take room a label needs
            column = _routed(spec, cells, lane_labels, strips=False)
            drawn = column if column.unclean < drawn.unclean else drawn
        if not lane_labels and not spec.layout.positions:  # a layered graph (an author's cells stay as placed)
            cells, drawn = _shaped(spec, cells, drawn)
            if 0 < _cost(drawn)[0] <= BREAKING_FAULTS:  # a few faults: the cycles broken the other way may do better
                cells, drawn = _other_breaking(spec, cells, drawn, strips)
        if not lane_labels and drawn.frames:
            drawn = _frames_widened(spec, drawn, _redrawn(spec, cells, drawn, middle=False))
        natural = _finished(spec, drawn, cells, lane_labels, narrow)
        spread_out = _spread(spec, cells, lane_labels, drawn, natural.width) if spread else None
        if spread_out is not None:
            return replace(_finished(spec, spread_out, cells, lane_labels, narrow), natural=natural)
        return natural
    return _finished(spec, drawn, cells, lane_labels, narrow)


#: How many times :func:`_spread` draws a drawing spread: the second corrects the first by what its routes' and
#: labels' extent left short of (or took past) :data:`~mechdiagram.layout.sizes.SPREAD_WIDTH`.
SPREAD_TRIES = 2
#: A drawing this near :data:`~mechdiagram.layout.sizes.SPREAD_WIDTH` (or the width its aspect ratio allows) or nearer
#: is not spread, nor is a spread drawing kept that comes out less wider than this, in user units: 768 units grown 1.5
#: times fill 85 % of a figure up to 1,355 px, and a spread drawing is a variant more in the HTML figure (a break-it
#: review found a graph spread from 480 to 490 units adding 11 kB to its fragment).
SPREAD_SLACK = 32.0


def _spread(spec: Spec, cells: dict[str, tuple[int, int]], lane_labels: list[str | None], drawn: _Routed,
            natural: float) -> _Routed | None:
    """A wide layout's chosen ``drawn``, its finished drawing ``natural`` units wide, narrower than
    :data:`~mechdiagram.layout.sizes.SPREAD_WIDTH` (margins included), drawn again with every gap between its columns
    widened by as much until it is that wide (issue 26: a chain of three boxes, 520 units wide, filled 62 % of a 1,408
    px screen's figure and a lane grid of three columns, 648 units, 78 %; a sequence is spread likewise,
    :func:`.sequence.participants`).  A layered graph whose aspect ratio is in :data:`ASPECT_RANGE` is spread no further
    than keeps it there (a chain of five folded into two rows, 480 units wide, was spread to 4:1 by a first version);
    one of fewer ranks than :data:`FOLD_FROM_RANKS`, drawn in one row wider than that, is spread as a lane grid is.  Its
    arrows against a layered graph's flow, its groups' widened frames and where its lane names stand are kept.  The
    spread drawing is kept where it is at most that wide, breaks no rule of :mod:`.route_rules` more often, kind by
    kind, has no more routes and labels that are not clean (:func:`_broken`) and is at least :data:`SPREAD_SLACK` wider;
    else ``None``, as for a drawing of one column, one within :data:`SPREAD_SLACK` of that width, or a lane grid under
    proportional time (its columns' slots are its time).  Its jogs run down the middle of their channels
    (``centred``), or where the routing left them where centred ones break a rule (a centred jog split the run a
    label sat on, and lost a drawing its spread: a break-it review).  The widths are the finished drawing's, a lane
    grid's column headers included (a break-it review found headers wrapped wider by the spread overhanging a grid
    spread to 848 units)."""
    n_cols = max((column for _, column in cells.values()), default=0) + 1
    width = natural
    target, in_range = SPREAD_WIDTH, not lane_labels and _aspect(drawn) <= ASPECT_RANGE[1]
    if in_range:
        target = min(target, ASPECT_RANGE[1] * (drawn.bottom - drawn.top + 2 * MARGIN))
    if n_cols < 2 or width >= target - SPREAD_SLACK or (lane_labels and spans(spec, n_cols) is not None):
        return None
    flow = None if lane_labels else (drawn.against, drawn.down)
    strips = any(h.above for h in drawn.placed.lanes)  # lane names stay above their lanes, or in the header column
    limit, limit_unclean = _broken(_arrows(drawn), drawn.against, drawn.frames)
    kept: _Routed | None = None
    extra = 0.0
    for _ in range(SPREAD_TRIES):
        more = math.floor((target - width) / (n_cols - 1) * 10) / 10
        if extra + more <= 0 or (extra and not more):  # none, or the drawing just tried again
            break
        extra += more
        for centred in (True, False):  # its jogs centred, else where the routing left them (their labels may break)
            try_ = _routed(spec, cells, lane_labels, strips=strips, flow=flow, frame_sides=drawn.sides, spread=extra,
                           centred=centred)
            width = _finished(spec, try_, cells, lane_labels, narrow=False).width
            if not natural + SPREAD_SLACK <= width <= target or (in_range and _aspect(try_) > ASPECT_RANGE[1]):
                break  # its width and shape are its columns', wherever its jogs run
            faults_, unclean = _broken(_arrows(try_), try_.against, try_.frames)
            if unclean <= limit_unclean and all(count <= limit.get(kind, 0) for kind, count in faults_.items()):
                kept = try_
                break
    return kept


def _redrawn(spec: Spec, cells: dict[str, tuple[int, int]], drawn: _Routed, *,
             middle: bool) -> Callable[[Sides], _Routed]:
    """A layered graph's ``drawn`` cells, drawn again with its groups' frames widened by the sides given, the arrows
    against its flow kept (:func:`_frames_widened`); ``middle``: as the middle layout's."""
    flow = (drawn.against, drawn.down)
    return lambda sides: _routed(spec, cells, [], flow=flow, middle=middle, frame_sides=sides)


#: The most faults (:func:`_cost`'s first) a layered graph's drawing may have for :func:`_other_breaking` to try
#: its cycles broken the other way: one OAuth flow of 4 boxes and 11 arrows had 9 crossings, none the other way; a
#: graph with more is dense (30 boxes with 60 random arrows: about 120) and a second layering would double its
#: layout's time for little (issue "bounded time and memory").
BREAKING_FAULTS = 16
#: The search states (:class:`~mechdiagram.layout.routing.SearchBudget`) the other breaking's drawings may take, as a
#: multiple of the first drawing's: OAuth's chain took 1.2 times its first layering's.
OTHER_BREAKING_STATES = 2


def _other_breaking(spec: Spec, cells: dict[str, tuple[int, int]], drawn: _Routed,
                    strips: bool) -> tuple[dict[str, tuple[int, int]], _Routed]:
    """A layered graph's cells and drawing with its cycles broken from its last node instead
    (:func:`~mechdiagram.layout.layered.cycle_breakings`), shaped as :func:`_shaped` shapes it, when that
    layering differs and its drawing costs less (:func:`_cost`); else ``cells`` and ``drawn``.  Its searches, all
    its foldings' together, take at most :data:`OTHER_BREAKING_STATES` times the states ``drawn``'s took (a
    10-box graph of 34 arrows whose other layering routed 100 times slower took 3 s): a drawing with a route
    left straight past them (``crowded``) is not kept."""
    nodes = [t.key for t in spec.nodes]
    edges = [(p.source, p.dest) for p in spec.paths if p.source in cells and p.dest in cells and p.source != p.dest]
    if len(cycle_breakings([key for key in nodes if any(key in edge for edge in edges)], edges)) < 2:
        return cells, drawn
    other, _ = grid_cells(spec, from_last=True)
    budget = SearchBudget(OTHER_BREAKING_STATES * max(drawn.searched, 1))
    tried_cells, tried = _shaped(spec, other, _routed(spec, other, [], strips=strips, budget=budget), budget)
    if not any(route.crowded for route in tried.routes.values()) and _cost(tried) < _cost(drawn):
        return tried_cells, tried
    return cells, drawn


def _sequence(heads: Participants) -> Diagram:
    """The :class:`Diagram` of a sequence's participants (its rows are each scenario's: :func:`layout_scenario`)."""
    return Diagram(heads.width, heads.heads_bottom, heads.heads, {}, (), (),
                   {key: (0, i) for i, key in enumerate(heads.order)}, SEQUENCE, heads, groups=heads.groups)


def middle_diagram(spec: Spec, budget: float = MIDDLE_WIDTH, wide: Diagram | None = None) -> Diagram | None:
    """The middle variant (issue 26: a figure between a phone's and the wide drawing's width, about 600 to 1000 CSS
    px, showed a phone's column in 43 % of its frame, or the wide grid scrolling): a lane grid transposed as the
    narrow variant is (:func:`_transposed`), its lanes side by side in ``budget`` user units
    (:data:`~mechdiagram.layout.sizes.MIDDLE_WIDTH`; :data:`~mechdiagram.layout.sizes.UPPER_WIDTH` for the upper
    middle variant, for a figure too wide for the middle one to fill and too narrow for the wide grid), each as
    wide as a share of that room; a sequence's heads fitted to the ``budget`` as a phone's are to its width
    (``participants(fit=budget)``: a DNS lookup's five participants, 846 units wide, showed a phone's drawing grown
    to 78 % of a 768 px figure) where its natural width is wider than that and the fitted one narrower, else, where
    the wide variant spreads it (:data:`~mechdiagram.layout.sizes.SPREAD_WIDTH`), at its natural width (the upper
    ``budget`` takes that at once: a Raft election of five participants, 692 units at its natural width, showed the
    phone's drawing in 79 % of a 672 px figure, where its middle drawing, the natural one, showed from 704 px); a
    layered graph's by
    :func:`_middle_graph` from its wide layout's natural drawing (``wide``, when the caller has drawn it already), for
    a ``budget`` of at most :data:`~mechdiagram.layout.sizes.MIDDLE_GRAPH_WIDTH` (the middle one), and for a wider
    ``budget`` (the upper one) the natural drawing of a wide layout that is spread (``wide.natural``, :func:`_spread`:
    a chain of three boxes, spread from 520 to 800 units, shows its natural drawing from a 480 px figure), a lane grid's
    too.  ``None`` for a sequence that cannot be narrower than its wide variant, a lane grid whose lanes do not fit
    side by side there with clean routes, or a layered graph with no middle drawing as clean as its wide one, or no
    spread one."""
    if spec.layout.view == SEQUENCE:
        heads = participants(spec)
        spread = heads.width < participants(spec, spread=True).width
        if spread and (budget >= UPPER_WIDTH or heads.width <= budget):
            return _sequence(heads)
        fitted = participants(spec, fit=budget)
        narrowest = participants(spec, narrow=True).width
        if narrowest < fitted.width < heads.width:
            return _sequence(fitted)
        return _sequence(heads) if spread else None
    wide = wide if wide is not None else diagram(spec)
    if budget > MIDDLE_GRAPH_WIDTH and wide.natural is not None:  # the upper middle one of a spread wide layout
        return wide.natural
    if not spec.lane_grid:  # a layered graph's middle drawing is at most MIDDLE_GRAPH_WIDTH
        return None if budget > MIDDLE_GRAPH_WIDTH else _middle_graph(spec, wide.natural or wide)
    cells, lane_labels = grid_cells(spec, down=True, positions=False)
    turned = _transposed(spec, cells, lane_labels, budgets=(budget,))
    return None if turned is None else _finished(spec, turned, cells, lane_labels, narrow=True)


#: The most a layered graph's middle drawing may be of its wide drawing's width: nearer, it shows from a figure hardly
#: narrower than the wide one does (a break-it review: a 639-unit middle drawing under a 650-unit wide one, 3.5 s).
MIDDLE_NARROWER = 0.85
#: The widest wide drawing whose own cells :func:`_middle_graph` places with the narrow layout's text widths, in user
#: units: that took 6 to 22 % off seven graphs' widths (the serving stack 818 to 639), so that a wider one's cells do
#: not come down to MIDDLE_GRAPH_WIDTH, and routing them again would only cost time (a dense graph of 30 boxes and 60
#: arrows, 1,808 units wide, took 16 s more to build with them).
MIDDLE_CELLS_WIDTH = 860.0


def _middle_graph(spec: Spec, wide: Diagram) -> Diagram | None:
    """A layered graph's middle variant (issue 26: between 700 and 768 px the serving stack showed its phone column
    in 68 to 77 % of the frame), the first of these that is kept:

    * the ``wide`` layout's cells placed with the narrow layout's text widths (``middle`` of :func:`_routed`), routed
      as the wide layout is, where the wide layout is at most :data:`MIDDLE_CELLS_WIDTH` wide;
    * where the spec gives no ``layout.positions`` (which are the wide layout's), the graph's own layering flowing
      down, unfolded, likewise (:func:`_down_the_page`): a new user's compiler pipeline, a chain of eleven phases in
      three groups with a side box for diagnostics, folded 891 units wide, whose cells came to 757 units, is 498
      units wide drawn down the page, where the phone's column filled 36 to 60 % of a 600 to 900 px figure; where
      one layer holds more boxes than fit side by side, with its outer boxes beside the next layer's
      (:func:`_wrapped_layer`): a new user's CI pipeline, a build fanning out to five jobs that fan in to a deploy,
      810 units across, is 584 units with two of the jobs beside the deploy;
    * likewise, the graph's own layering flowing across folded back and forth into rows (:func:`_in_rows`), the
      fewest rows first: a chain of four boxes with long labels, 850 units in one row, whose layering down the page
      is one column, is 480 units in two rows, where the phone's column filled 59 to 88 % of a 576 to 832 px figure;
    * the phone's column folded into columns side by side (:func:`_column_folded`), the fewest first: a new user's
      dead-letter queue, 944 units across, whose layering down the page crossed its retry arrow over another, is
      580 units in three columns of two, where the phone's column filled 55 to 88 % of a 576 to 896 px figure.

    One is kept where it is at most :data:`~mechdiagram.layout.sizes.MIDDLE_GRAPH_WIDTH` wide and
    :data:`MIDDLE_NARROWER` of the wide drawing's width (a try whose boxes alone are wider is not routed), at least
    :data:`~mechdiagram.layout.sizes.MIDDLE_GRAPH_LEAST_WIDTH` (no single column: the phone's draws that), breaks no
    rule of :mod:`.route_rules` more often than the wide drawing (a group's frame among them), nor has more routes
    and labels that are not clean (:func:`_broken`, measured on the finished drawing); else ``None``, as where the
    wide layout is no wider than that."""
    if wide.width <= MIDDLE_GRAPH_WIDTH:
        return None
    most = min(MIDDLE_GRAPH_WIDTH, MIDDLE_NARROWER * wide.width)
    limit, limit_unclean = _broken(wide.arrows, wide.against, wide.groups)
    # each try: its cells, the flow to route them with (None: their own), and whether it is the phone's column folded
    tries: list[tuple[dict[str, tuple[int, int]], tuple[frozenset[str], bool] | None, bool]] = []
    if wide.width <= MIDDLE_CELLS_WIDTH:
        tries.append((wide.cells, (wide.against, wide.direction == "down"), False))
    down = _down_the_page(spec)
    if down is not None and down != wide.cells:
        tries.append((down, None, False))
    tries.extend((cells, None, False) for cells in _wrapped_layer(spec))
    tries.extend((cells, flow, False) for cells, flow in _in_rows(spec) if cells != wide.cells)
    tries.extend((cells, flow, True) for cells, flow in _column_folded(spec))
    for cells, flow, column in tries:
        placed = place(spec, cells, [], box_max=MIDDLE_BOX_MAX_WIDTH, narrow_labels=True)
        if placed.right + MARGIN > most:  # its boxes alone are too wide: not routed (routing takes the time)
            continue
        drawn = _routed(spec, cells, [], flow=flow, middle=True)
        if drawn.frames:
            drawn = _frames_widened(spec, drawn, _redrawn(spec, cells, drawn, middle=True))
        middle = _finished(spec, drawn, cells, [], narrow=False)
        faults_, unclean = _broken(middle.arrows, middle.against, middle.groups)
        # a folded column's drawing, not only its canvas (MIN_WIDTH at least), at least MIDDLE_GRAPH_LEAST_WIDTH:
        # a folding of small boxes stood in a 480-unit canvas narrower than the phone's column (a break-it review)
        least = drawn.right - drawn.left + 2 * MARGIN if column else middle.width
        if least >= MIDDLE_GRAPH_LEAST_WIDTH and middle.width <= most and unclean <= limit_unclean and \
                all(count <= limit.get(kind, 0) for kind, count in faults_.items()):
            return middle
    return None


def _in_rows(spec: Spec) -> list[tuple[dict[str, tuple[int, int]], tuple[frozenset[str], bool]]]:
    """The cells of a layered graph's own layering flowing across (``grid_cells(down=False)``) folded back and forth
    into two rows or more (:func:`~mechdiagram.layout.placement.refolded`), the fewest first, one try for each
    number of layers a row holds, two at least (one would be the phone's column), with the arrows that run against
    the layering's flow (to an earlier layer) for :func:`_routed`.  Only foldings that keep every arrow between
    neighbouring cells (at most a row and a column apart): one that skips a cell runs across the rows between its
    ends (random graphs of 8 to 29 faults folded so came to twice their wide drawing's crossings, after 1 to 3 s of
    routing).  None where the spec places boxes itself (``layout.positions``, the wide layout's), and none whose
    groups' frames would hold another box (:func:`_frames_hold`): a frame is one rectangle (a break-it review found
    foldings that split a frame over another box)."""
    if spec.layout.positions:
        return []
    cells, _ = grid_cells(spec, down=False, positions=False)
    linked, layers = _folded_layers(spec, cells, 1)
    joined = [p for p in spec.paths if p.source in linked and p.dest in linked]
    against = frozenset(p.key for p in joined if cells[p.dest][1] < cells[p.source][1])
    tries = []
    for per_row in sorted({math.ceil(layers / bands) for bands in range(2, layers)}, reverse=True):  # 2 at least
        folding = refolded(spec, cells, math.ceil(layers / per_row), down=False)
        if _between_neighbours(folding, joined) and _frames_hold(spec, folding):
            tries.append((folding, (against, False)))
    return tries


def _wrapped_layer(spec: Spec) -> list[dict[str, tuple[int, int]]]:
    """The cells of a layered graph's own layering flowing down (``grid_cells(down=True)``) whose one layer holds
    more boxes than fit :data:`~mechdiagram.layout.sizes.MIDDLE_GRAPH_WIDTH` side by side at the least box width
    and gap (:func:`_down_the_page` gives up on it), that layer wrapped: its middle boxes stay, and its outer ones
    move down into the next layer, those of its left end left of that layer's boxes and those of its right end
    right of them, as a fan-out's jobs may stand beside the box they fan in to; each layer then centred under the
    widest (a fan's parent over its children; the layering's own places ran its fan from the left column).  One try
    for each number of boxes that stay, the most first, two at least; none where no layer, or more than one, is too
    wide, where the wide layer is the last one, or where the spec places boxes itself (``layout.positions``) or has
    groups (a group's block of cells would be split).  A fan of six or more does not come down to the middle width
    so (a layer of four replicas was 718 units): that would take a third row."""
    if spec.layout.positions or spec.groups:
        return []
    cells, _ = grid_cells(spec, down=True, positions=False)
    fit = int((MIDDLE_GRAPH_WIDTH - 2 * MARGIN + GAP_X) // (BOX_MIN_WIDTH + GAP_X))
    linked, _ = _folded_layers(spec, cells, 0)  # boxes without arrows stay in their rows under the graph
    layers: dict[int, list[str]] = {}
    for key in sorted(linked, key=lambda key: cells[key]):
        layers.setdefault(cells[key][0], []).append(key)
    wide = [rank for rank, keys in layers.items() if len(keys) > fit]
    if len(wide) != 1 or wide[0] + 1 not in layers:
        return []
    rank = wide[0]
    row = layers[rank]
    tries = []
    for stay in range(fit, 1, -1):
        left = (len(row) - stay) // 2
        right = len(row) - stay - left
        wrapped = dict(layers)
        wrapped[rank] = row[left:len(row) - right]
        wrapped[rank + 1] = row[:left] + layers[rank + 1] + row[len(row) - right:]
        widest = max(len(keys) for keys in wrapped.values())
        tries.append(cells | {key: (r, (widest - len(keys)) // 2 + i)
                              for r, keys in wrapped.items() for i, key in enumerate(keys)})
    return tries


def _column_folded(spec: Spec) -> list[tuple[dict[str, tuple[int, int]], tuple[frozenset[str], bool]]]:
    """The phone's column (the first of :func:`_column_orders`: the order its narrow layout tries first) folded
    back and forth into two columns or more side by side (:func:`~mechdiagram.layout.layered.folded`, down), the
    fewest first, one try for each number of boxes a column holds, two at least (one a column holds is a row: the
    layering across draws that), with the arrows that run up the column (to an earlier box) as those against its
    flow.  The narrow layout drawn "two or more columns wide", as issue 26 puts it.  Only foldings that keep every
    arrow between neighbouring cells (at most a row and a column apart), as :func:`_in_rows` keeps its own: a break-it
    review routed every folding, and the middle layout of graphs of 20 to 40 boxes took 0.8 s (a median; 15 ms
    before) for one kept in 30, the others crossing 10 to 18 times.  None where the spec places boxes itself
    (``layout.positions``, the wide layout's), has groups (a group's members, one after another in the column, would
    be split over two columns) or boxes without arrows (folded, twelve such boxes stood in two columns of six,
    narrower than the phone's column, the second running up)."""
    if spec.layout.positions or spec.groups:
        return []
    down, _ = grid_cells(spec, down=True, positions=False)
    linked, _ = _folded_layers(spec, down, 0)
    if len(linked) < len(down):
        return []
    column = _column_orders(spec, down)[0][0]
    order = {key: row for key, (row, _) in column.items()}
    joined = [p for p in spec.paths if p.source in order and p.dest in order and p.source != p.dest]
    against = frozenset(p.key for p in joined if order[p.dest] < order[p.source])
    tries = []
    for per_column in sorted({math.ceil(len(column) / count) for count in range(2, len(column))}, reverse=True):
        folding = folded(column, math.ceil(len(column) / per_column), down=True)
        if _between_neighbours(folding, joined):
            tries.append((folding, (against, True)))
    return tries


def _between_neighbours(cells: dict[str, tuple[int, int]], paths: Sequence[PathTarget]) -> bool:
    """Whether every one of ``paths`` joins neighbouring ``cells``: at most a row and a column apart (a folding
    that keeps its arrows short enough to be worth routing: :func:`_in_rows`, :func:`_column_folded`)."""
    return all(max(abs(a - b) for a, b in zip(cells[p.source], cells[p.dest], strict=True)) <= 1 for p in paths)


def _folded_layers(spec: Spec, cells: dict[str, tuple[int, int]], layer: int) -> tuple[set[str], int]:
    """The boxes :func:`~mechdiagram.layout.placement.refolded` folds, those with an arrow to another box, and how
    many layers of ``cells`` (their coordinate ``layer``: 0 rows, 1 columns) they take.  A box without arrows sits in
    a row of its own under the folding: counted, it made a band one layer longer than the folding's, and a group's
    frame was split over another box (a break-it review)."""
    linked = {key for p in spec.paths if p.source in cells and p.dest in cells and p.source != p.dest
              for key in (p.source, p.dest)}
    return linked, max((cells[key][layer] for key in linked), default=0) + 1


def _frames_hold(spec: Spec, cells: dict[str, tuple[int, int]]) -> bool:
    """Whether each group's members span a block of ``cells`` that holds no other box: a group's frame is one
    rectangle round them (a break-it review found a folding whose boxes without arrows, moved into rows under it,
    put three non-members inside a frame)."""
    for group in spec.groups.values():
        rows, columns = zip(*(cells[m] for m in group.members if m in cells), strict=True)
        if any(min(rows) <= row <= max(rows) and min(columns) <= column <= max(columns)
               for key, (row, column) in cells.items() if key not in group.members):
            return False
    return True


def _down_the_page(spec: Spec) -> dict[str, tuple[int, int]] | None:
    """The cells of a layered graph's own layering flowing down, unfolded (``grid_cells(down=True)``), for its
    middle variant: ``None`` where the spec places boxes itself (``layout.positions``), where every box is in one
    column (the phone's column draws that) or where a layer holds more boxes than fit
    :data:`~mechdiagram.layout.sizes.MIDDLE_GRAPH_WIDTH` side by side at the least box width and gap, which no
    routing would bring under it."""
    if spec.layout.positions:
        return None
    cells, _ = grid_cells(spec, down=True, positions=False)
    columns = max((column for _, column in cells.values()), default=0) + 1
    if columns < 2 or columns * BOX_MIN_WIDTH + (columns - 1) * GAP_X + 2 * MARGIN > MIDDLE_GRAPH_WIDTH:
        return None
    return cells


def _broken(arrows: dict[str, Arrow], against: frozenset[str],
            frames: dict[str, GroupFrame]) -> tuple[dict[str, int], int]:
    """What a layered graph's drawn ``arrows`` break: how often each rule of :mod:`.route_rules` by its kind
    (:func:`~mechdiagram.layout.route_rules.faults`: crossings, junctions, bends, labels far from their arrow or
    nearer another...; ``"frame"`` for those along or across a group's frame), and how many arrows' routes or labels
    are not clean."""
    kinds: dict[str, int] = {}
    for fault in faults(arrows, against):
        kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
    if frames:
        kinds["frame"] = len(frame_faults(arrows, frames))
    return kinds, sum(not arrow.clean for arrow in arrows.values())


def _finished(spec: Spec, drawn: _Routed, cells: dict[str, tuple[int, int]], lane_labels: list[str | None],
              narrow: bool) -> Diagram:
    """The :class:`Diagram` of a routed try: moved to the canvas's margins, with its column headers and time axis
    (a lane grid's), its least width that of its variant."""
    placed = drawn.placed
    boxes = placed.boxes
    left, top, right, bottom = drawn.left, drawn.top, drawn.right, drawn.bottom
    columns, axis = placed.captions, None
    if placed.columns and spec.layout.columns:  # the wide layout's header row above it all, the axis under
        columns = header_row([c.label for c in spec.layout.columns], placed.columns, placed.gap, top)
        timed = spans(spec, len(placed.columns))
        if timed is not None:
            # The slots' edges: the middles of the gaps, and the outer columns' outer edges.
            edges = [placed.columns[0][0], *(x - placed.gap / 2 for x, _ in placed.columns[1:]),
                     placed.columns[-1][0] + placed.columns[-1][1]]
            axis = time_axis(edges, timed, placed.to_scale, spec.layout.unit, bottom)
            left, _, right, bottom = _bounds([*_tick_labels(axis), Rect(edges[0], axis.y, edges[-1] - edges[0],
                                                                        axis_bottom(axis) - axis.y)],
                                             [(left, top), (right, bottom)])
        left, top, right, _ = _bounds([header_box(h) for h in columns], [(left, top), (right, bottom)])
    dx, dy = round(MARGIN - left, 1), round(MARGIN - top, 1)
    boxes = {k: replace(b, x=round(b.x + dx, 1), y=round(b.y + dy, 1)) for k, b in boxes.items()}
    arrows = _arrows(drawn, dx, dy)
    lanes = tuple(replace(h, x=h.x + dx, y=h.y + dy) for h in placed.lanes)
    bands = tuple(replace(b, x=b.x + dx, y=b.y + dy) for b in placed.bands)
    columns = tuple(replace(h, x=round(h.x + dx, 1), y=round(h.y + dy, 1)) for h in columns)
    groups = {key: _shifted_frame(frame, dx, dy) for key, frame in drawn.frames.items()}
    width = max(NARROW_MIN_WIDTH if narrow else MIN_WIDTH, right - left + 2 * MARGIN)
    direction = "grid" if lane_labels else ("down" if drawn.down else "right")
    return Diagram(width, bottom - top + MARGIN, boxes, arrows, lanes, bands, cells, direction, columns=columns,
                   axis=_shifted_axis(axis, dx, dy) if axis is not None else None, against=drawn.against,
                   groups=groups)


def _frame_sides(spec: Spec, enclosures: dict[str, GroupFrame]) -> list[tuple[Rect, frozenset[str]]]:
    """The narrow layout's frame sides the track labels keep off, each with the paths whose labels may cross it:
    a frame's right side, for the paths between two of its members (it moves right over their tracks)."""
    sides: list[tuple[Rect, frozenset[str]]] = []
    for key, frame in enclosures.items():
        members = set(spec.groups[key].members)
        inner = frozenset(p.key for p in spec.paths if p.source in members and p.dest in members)
        *others, right = frame_edges(frame)
        sides += [(edge, frozenset()) for edge in others] + [(right, inner)]
    return sides


def _shifted_frame(frame: GroupFrame, dx: float, dy: float) -> GroupFrame:
    """A group's frame moved by ``dx``, ``dy``."""
    block = frame.label_box
    return replace(frame, x=round(frame.x + dx, 1), y=round(frame.y + dy, 1), label_x=round(frame.label_x + dx, 1),
                   label_y=round(frame.label_y + dy, 1),
                   label_box=None if block is None else Rect(round(block.x + dx, 1), round(block.y + dy, 1), block.w,
                                                             block.h))


def _arrows(drawn: _Routed, dx: float = 0.0, dy: float = 0.0) -> dict[str, Arrow]:
    """The arrows of a try, by path key: each route with its label, moved by ``dx``, ``dy``."""
    arrows = {}
    for key, route in drawn.routes.items():
        label = drawn.labels.get(key)
        # Most of the label on a lane's band: its halo takes the band's colour (the drawing's "halo-band").
        on_band = label is not None and 2 * _area_on(label.block, [*drawn.placed.bands, *drawn.frames.values()]) \
            > label.block.w * label.block.h  # a group's tint as a band's
        points = tuple(_shift_point(p, dx, dy) for p in route.points)
        block = Rect(label.block.x + dx, label.block.y + dy, label.block.w, label.block.h) if label else None
        at, anchor = _shift_point(label.at, dx, dy) if label else (0.0, 0.0), "middle"
        if block is not None:  # beside a vertical run, the text held to the block's edge nearest it
            anchor = text_anchor(points, block)
            at = (round(block.x, 1) if anchor == "start" else round(block.right, 1) if anchor == "end" else at[0],
                  at[1])
        arrows[key] = Arrow(
            key, points,
            (_shift_point(route.head[0], dx, dy), _shift_point(route.head[1], dx, dy),
             _shift_point(route.head[2], dx, dy)),
            at, anchor, label.lines if label else (), block,
            route.clean and (label is None or label.clean), on_band,
            route.crowded or (label is not None and label.crowded), drawn.texts.get(key, ()))
    return arrows


def _area_on(block: Rect, bands: Sequence[LaneBand | Rect]) -> float:
    """How much of ``block`` lies on the lane bands or the groups' frames (which never overlap one another)."""
    return sum((block.area_within(Rect(b.x, b.y, b.w, b.h)) for b in bands), 0.0)


#: Least room, in user units, that the narrow layout's boxes must gain for it to be laid out again wider.
WIDEN_AT_LEAST = 24.0


#: How many of the narrow column's orders (:func:`_column_orders`, best estimate first) :func:`_narrow` draws at
#: most for a graph of more than :data:`FEW_ARROWS` arrows; one of fewer draws them all.  Each drawing routes the
#: whole column once or twice: drawing them all took a dense graph's narrow layout (30 boxes, 150 arrows) 10.8 s,
#: three 6.4 s (issue "bounded time and memory").  Over 120 random graphs of 5 to 30 boxes (up to 54 arrows),
#: drawing three for all lost the phone's width in 6 where a later order fitted (a break-it review found such
#: columns of 0 crossings too); three for those of more than 30 arrows, 3 (each fitting only by crossing 46 to 54
#: times, where the drawing kept crosses 5 to 10), in the time drawing them all took before (7.3 s in all).
COLUMN_DRAWINGS = 3
FEW_ARROWS = 30


def _narrow(spec: Spec, cells: dict[str, tuple[int, int]],
            lane_labels: list[str | None]) -> tuple[dict[str, tuple[int, int]], _Routed]:
    """The narrow variant of the layered layout's ``cells``, and its cells (row = place in the column): a column
    whose drawing is NARROW_MIN_WIDTH wide at least: its boxes take the room the routes leave of that width (up
    to BOX_WORD_WIDTH), so that their labels need fewer lines, when they still fit.  Without paths that room is
    known before the layout; else a first layout shows what its routes take.  Of the column's orders and sides
    (:func:`_column_orders`), best estimate first, all of them (at most :data:`COLUMN_DRAWINGS` for a graph of
    more than :data:`FEW_ARROWS` arrows) are drawn in turn: the first whose
    drawing fits a phone (:data:`TRANSPOSED_MAX_WIDTH`) is kept; where none fits, the one whose arrows cross and
    meet least (:func:`_column_cost`), the narrower on a tie (a wider drawing only scrolls further)."""
    room = NARROW_MIN_WIDTH - 2 * MARGIN
    tries = _column_orders(spec, cells)
    if not _needs_tracks(spec, tries[0][0]):
        overhang = 2 * BAND_PAD if lane_labels else 0.0  # the lanes' tinted bands reach beyond the boxes
        # No routes beside the column: it takes the drawing's width (a phone's column of full-width boxes,
        # not a narrow one beside an empty strip).
        column = tries[0][0]
        return column, _routed(spec, column, lane_labels, min(BOX_WORD_WIDTH, room - overhang), fill=True)
    drawings: list[tuple[dict[str, tuple[int, int]], _Routed]] = []
    for column, two_sided in tries if len(spec.paths) <= FEW_ARROWS else tries[:COLUMN_DRAWINGS]:
        drawn = _column(spec, column, lane_labels, room, two_sided=two_sided)
        if _fits_a_phone(drawn):
            return column, drawn
        drawings.append((column, drawn))
    return min(drawings, key=lambda each: _column_cost(each[1]))


def _column_cost(drawn: _Routed) -> tuple[int, float]:
    """What a narrow column's drawing that does not fit a phone costs, compared in order: its arrows that cross
    or meet (:func:`~mechdiagram.layout.route_rules.crossing_count`,
    :func:`~mechdiagram.layout.route_rules.junctions`) and its routes and labels that are not clean, then its
    width (user units)."""
    arrows = _arrows(drawn)
    return crossing_count(arrows) + len(junctions(arrows)) + drawn.unclean, drawn.right - drawn.left


def _fits_a_phone(drawn: _Routed) -> bool:
    """Whether the narrow ``drawn`` is at most :data:`TRANSPOSED_MAX_WIDTH` wide, margins and all."""
    return drawn.right - drawn.left + 2 * MARGIN <= TRANSPOSED_MAX_WIDTH


def _column_orders(spec: Spec, cells: dict[str, tuple[int, int]]) -> list[tuple[dict[str, tuple[int, int]], bool]]:
    """The narrow column's orders to try, as cells one under another (row = place in the column), each with
    whether its tracks run on both sides (else right of the column alone): those where fewest arrows down the
    layers run up first (a group's members pulled together may make one), then least crossed
    (:func:`~mechdiagram.layout.stacked.track_crossings`), then fewest tracks, both sides before one, and on a
    tie the order tried first.  The orders: layer by layer with each layer's boxes in the order the spec writes them
    (a fan's siblings as the author listed them) and as the layered layout left them (``cells``), and the
    depth-first topological order of each (:func:`~mechdiagram.layout.stacked.depth_first_order`; forty boxes,
    each with arrows to two later ones: 102 pairs of tracks crossed layer by layer, 6 depth first) on both sides,
    and the best of them on one side, each side's also with neighbours swapped
    (:func:`~mechdiagram.layout.stacked.swapped_order`).  Each group's members stay one after another
    (:func:`~mechdiagram.layout.groups.stacked_order`).  Over 120 random graphs of 5 to 30 boxes the written
    order's two cut the crossings drawn by a sixth; over 300 of 5 to 9 boxes, 82 columns keep the written order
    where 43 did, with fewer crossings (69, was 79)."""
    ends = [PathEnds(p.key, p.source, p.dest) for p in spec.paths
            if p.source in cells and p.dest in cells and p.source != p.dest]
    rank = {key: row for key, (row, _) in cells.items()}
    inner = inner_paths(spec)
    block = {key: spec.group_of(key) for key in cells}
    written = {key: i for i, key in enumerate(spec.targets)}
    authored = stacked_order(spec, sorted(cells, key=lambda key: (cells[key][0], written[key])))
    layered = stacked_order(spec, sorted(cells, key=lambda key: (cells[key], key)))
    firsts = list({tuple(order): order for order in (
        authored, stacked_order(spec, depth_first_order(authored, ends, rank)),
        layered, stacked_order(spec, depth_first_order(layered, ends, rank)))}.values())
    def up(order: list[str]) -> int:  # arrows down the layers that run up the column (a group pulled together)
        place = {key: i for i, key in enumerate(order)}
        return sum(rank[p.dest] > rank[p.source] and place[p.dest] < place[p.source] for p in ends)

    tries: dict[tuple[tuple[str, ...], bool], tuple[int, int, int, int]] = {}
    for two_sided in (True, False):
        better = min(firsts, key=lambda order: (up(order), track_crossings(order, ends, inner, two_sided)))
        orders = list(firsts) if two_sided else [better]
        orders.append(swapped_order(better, ends, rank, block, inner, two_sided))
        for order in orders:
            cost = (up(order), track_crossings(order, ends, inner, two_sided), len(on_tracks(order, ends)[1]),
                    not two_sided)
            tries.setdefault((tuple(order), two_sided), cost)
    ranked = sorted(tries, key=lambda each: tries[each])
    return [({key: (row, 0) for row, key in enumerate(order)}, two_sided) for order, two_sided in ranked]


def _column(spec: Spec, cells: dict[str, tuple[int, int]], lane_labels: list[str | None], room: float,
            two_sided: bool) -> _Routed:
    """The narrow column with routes beside it (``two_sided``: on both its sides), its boxes widened into the
    ``room`` (user units) its tracks leave of :data:`NARROW_MIN_WIDTH` less the margins.  Where its labels break a
    rule of :mod:`.route_rules` (:func:`~mechdiagram.layout.route_rules.label_faults`), it is drawn again with the
    tracks clear of the outer labels of its pairs of straight runs between neighbours (``outer_labels`` of
    :func:`~mechdiagram.layout.stacked.stacked_routes`), and that drawing kept where its labels and routes break
    fewer rules (:func:`_pair_cost`): a handshake's ServerHello, its place right of the pair taken by the tracks'
    labels, was printed between the runs over ClientHello.  Over 120 random graphs of 3 to 7 boxes this mends 30
    label faults (52 faults to 22) and takes 4 columns past a phone's width, by 24 to 39 units, each mending 2 or 3;
    kept clear always, the tracks stood further out where no label needed it (a fifth column past a phone's)."""
    box_max = NARROW_BOX_MAX_WIDTH
    drawn = _routed(spec, cells, lane_labels, box_max, two_sided=two_sided)
    slack = room - (drawn.right - drawn.left)
    if slack >= WIDEN_AT_LEAST:
        wider_max = min(BOX_WORD_WIDTH, drawn.placed.right - MARGIN + slack)
        wider = _routed(spec, cells, lane_labels, wider_max, two_sided=two_sided)
        if wider.right - wider.left <= room:
            drawn, box_max = wider, wider_max
    if not label_faults(_arrows(drawn)):
        return drawn
    outer = _routed(spec, cells, lane_labels, box_max, two_sided=two_sided, outer_labels=True)
    return outer if _pair_cost(outer) < _pair_cost(drawn) else drawn


def _pair_cost(drawn: _Routed) -> int:
    """The narrow column ``drawn``'s labels that break a rule of :mod:`.route_rules`, with what
    :func:`_column_cost` counts first (arrows that cross or meet, routes and labels that are not clean), all told
    (:func:`_column`)."""
    return len(label_faults(_arrows(drawn))) + _column_cost(drawn)[0]


def _kept(spec: Spec, wide: Diagram | None = None) -> Diagram:
    """The narrow variant of a lane grid whose lanes do not fit a phone: the wide layout's grid (``wide``, when
    drawn already), at its natural width where the wide one is spread (:func:`_spread`: a phone's frame would scroll
    further), which the HTML figure scrolls in its frame with the lane names held at its left edge.  Names
    the wide layout writes in strips above their lanes (``strips``: they would scroll away) stand in the header
    column instead, where that grid's routes and labels are clean and break no rule of :mod:`.route_rules`."""
    wide = diagram(spec, spread=False) if wide is None else (wide.natural or wide)  # a phone's: not spread
    if not any(h.above for h in wide.lanes):
        return wide
    column = diagram(spec, strips=False, spread=False)
    clean = all(arrow.clean and not arrow.crowded for arrow in column.arrows.values())
    fits = not any(h.above for h in column.lanes) and clean and not faults(column.arrows, frozenset())
    return column if fits else wide


def _transposed(spec: Spec, cells: dict[str, tuple[int, int]], lane_labels: list[str | None],
                budgets: tuple[float, ...] = (NARROW_MIN_WIDTH, TRANSPOSED_MAX_WIDTH)) -> _Routed | None:
    """The narrow variant of a lane grid, transposed (:func:`~mechdiagram.layout.transposed.transposed`): with
    gaps that give its path labels room (:func:`~mechdiagram.layout.placement.channel`), else with the least
    gaps; the first whose drawing fits the first of ``budgets`` (user units: :data:`NARROW_MIN_WIDTH`, a 320 px
    screen), else the next (:data:`~mechdiagram.layout.sizes.TRANSPOSED_MAX_WIDTH`, a 360 px phone), with every
    route and label clean
    and no fault of :mod:`.route_rules`.  ``None`` when neither does: the narrow variant then keeps the wide
    layout's grid, which scrolls sideways in its frame (:func:`diagram`)."""
    turned = {key: (c, r) for key, (r, c) in cells.items()}  # time runs down, the lanes side by side
    # Arrows back in time run against the flow (checks.against_flow): they may bend more.
    back = frozenset(p.key for p in spec.paths if p.source in cells and p.dest in cells
                     and cells[p.dest][1] < cells[p.source][1])
    least = (TRANSPOSED_GAP_X, TRANSPOSED_GAP_Y)
    tries = [channel(spec, turned, least, narrow=True), least]
    for budget in budgets:
        for gaps in dict.fromkeys(tries):
            placed = transposed(spec, cells, lane_labels, gaps, budget)
            if placed is None:
                continue
            drawn = _routed_placement(spec, placed, skip_sides(spec, cells, len(lane_labels)))
            if (drawn.right - drawn.left + 2 * MARGIN <= budget + 0.05 and not drawn.unclean
                    and not faults(_arrows(drawn), back)):
                return drawn
    return None


def _changed_path_labels(spec: Spec, narrow: bool,
                         code: frozenset[str]) -> tuple[dict[str, Texts], dict[str, tuple[float, float]]]:
    """The lines of every text of each path label a step changes (a step's ``labels``), by key, and the least
    size (width, height) of its block: as wide and as tall as the largest of its texts needs."""
    texts = {p.key: tuple((text, path_label_lines(text, narrow, p.code)) for text in spec.texts(p.key))
             for p in spec.paths if p.key in spec.relabelled}
    least = {key: (max(label_size(lines, key in code)[0] for _, lines in each),
                   max(label_size(lines, key in code)[1] for _, lines in each)) for key, each in texts.items()}
    return texts, least


def _routed_placement(spec: Spec, placed: Placement, sides: dict[str, tuple[str, str]] | None = None) -> _Routed:
    """Route and label the paths of a lane grid's ``placed`` boxes (the transposed narrow variant's): routes as
    a layered layout flowing down routes them (:func:`~mechdiagram.layout.routing.route_all`; time runs down: an
    arrow to a later row leaves its box's bottom and enters the other's top), on the ``sides`` chosen for some,
    clear of the lane names and the row labels, and labels wrapped as the narrow layout's."""
    boxes = placed.boxes
    ends = [PathEnds(p.key, p.source, p.dest) for p in spec.paths
            if p.source in boxes and p.dest in boxes and p.source != p.dest]
    captions = [header_box(h) for h in placed.captions]
    routes = route_all(boxes, ends, frozenset(), [*(name_box(h) for h in placed.lanes), *captions], "down",
                       chosen=sides)
    wraps = {p.key: path_label_wraps(p.label, True, p.code) for p in spec.paths}
    code = frozenset(p.key for p in spec.paths if p.code)
    texts, least = _changed_path_labels(spec, True, code)
    obstacles: list[Rect] = [*boxes.values(), *(name_box(h) for h in placed.lanes), *captions]
    labels = place_labels({key: route.points for key, route in routes.items()},
                          {key: w for key, w in wraps.items() if key in routes and w}, obstacles, (), code,
                          {key: route.head for key, route in routes.items()}, least)
    rects: list[Rect] = [*boxes.values(), *(Rect(b.x, b.y, b.w, b.h) for b in placed.bands),
                         *(name_box(h) for h in placed.lanes), *(lab.block for lab in labels.values()), *captions]
    points = [p for route in routes.values() for p in (*route.points, *route.head)]
    return _Routed(placed, routes, labels, *_bounds(rects, points), True, frozenset(), texts)


def _needs_tracks(spec: Spec, cells: dict[str, tuple[int, int]]) -> bool:
    """Whether a path of the narrow column runs on a track beside it: one that is not a straight run between
    two boxes next to each other in the column (at most two such runs a pair), as
    :func:`~mechdiagram.layout.stacked.stacked_routes` draws them."""
    order = {key: i for i, key in enumerate(sorted(cells, key=lambda key: (cells[key], key)))}
    pairs: dict[frozenset[str], int] = {}
    for path in spec.paths:
        if path.source not in order or path.dest not in order or path.source == path.dest:
            continue
        pair = frozenset((path.source, path.dest))
        pairs[pair] = pairs.get(pair, 0) + 1
        if abs(order[path.source] - order[path.dest]) != 1 or pairs[pair] > 2:
            return True
    return False


class _Routed(Struct, frozen=True):
    """One try at a figure's geometry before it is moved to its margin: the placement, the routes, the placed
    labels, the bounds of it all (left, top, right, bottom), whether its layers run down and the arrows routed
    against a layered graph's flow."""

    placed: Placement
    routes: dict[str, Route]
    labels: dict[str, PlacedLabel]
    left: float
    top: float
    right: float
    bottom: float
    down: bool
    against: frozenset[str]
    texts: dict[str, Texts] = {}  # the lines of every text of each path label a step changes (msgspec copies it)
    frames: dict[str, GroupFrame] = {}
    searched: int = 0  # the grid states its routes' searches took (:class:`~mechdiagram.layout.routing.SearchBudget`)
    #: The extra room groups' frames would need for the labels that routes crossed (:func:`~.groups.stuck_label_sides`)
    stuck_sides: dict[str, tuple[float, float]] = {}
    sides: dict[str, tuple[float, float]] = {}  # the groups' frames widened so (``frame_sides`` of :func:`_routed`)

    @property
    def unclean(self) -> int:
        """How many routes and labels are not clear of the boxes, the lane names and each other."""
        return sum(not r.clean for r in self.routes.values()) + sum(not label.clean for label in self.labels.values())


def _routed(spec: Spec, cells: dict[str, tuple[int, int]], lane_labels: list[str | None],
            narrow_box_max: float | None = None, strips: bool = True, fill: bool = False,
            flow: tuple[frozenset[str], bool] | None = None, budget: SearchBudget | None = None,
            two_sided: bool = True, middle: bool = False, frame_sides: Sides | None = None,
            spread: float = 0.0, outer_labels: bool = False, centred: bool = True) -> _Routed:
    """Place, route and label the figure of ``cells``: the narrow variant (one column, boxes at most
    ``narrow_box_max`` wide, every box that wide with ``fill``) when that is given, else the wide layout (lane
    names in strips above their lanes where :func:`~mechdiagram.layout.placement.place` and ``strips`` allow).
    ``flow`` is a folded layered layout's arrows that run against its flow (to an earlier rank) and whether its
    layers run down (the cells' own rows or columns do not tell which arrows do once its bands turn back).
    ``middle`` places a layered graph's cells as the wide layout does with the narrow layout's text widths: boxes at
    most :data:`~mechdiagram.layout.sizes.MIDDLE_BOX_MAX_WIDTH` wide, path labels wrapped as the narrow layout's
    (:func:`middle_diagram`).  The routes' searches
    take their states from ``budget``; when it is ``None``, each routing has a budget of its own (the second, round
    a group's label that routes crossed, too).  ``two_sided``: the narrow column's tracks
    run on both its sides (:func:`~mechdiagram.layout.stacked.track_sides`), else on its right.  ``frame_sides``
    widens groups' frames (:func:`_frames_widened`); ``spread`` (user units) every gap between the wide layout's
    columns (:func:`_spread`), its jogs about their channels' middles where ``centred``
    (:func:`~mechdiagram.layout.routing.route_all`); ``outer_labels`` keeps the narrow column's tracks clear of the
    outer labels of its pairs of runs (:func:`~mechdiagram.layout.stacked.stacked_routes`)."""
    narrow = narrow_box_max is not None
    budgets = [budget] if budget is not None else []

    def next_budget() -> SearchBudget:
        if budget is None:
            budgets.append(SearchBudget())
        return budgets[-1]

    before = budget.taken if budget is not None else 0
    box_max = MIDDLE_BOX_MAX_WIDTH if middle else BOX_MAX_WIDTH  # the wide layout's cells, boxes and labels
    if narrow_box_max is not None:
        placed = place(spec, cells, lane_labels, lanes_on_top=True, box_max=narrow_box_max, gaps=NARROW_GAPS,
                       fill=fill, two_sided=two_sided)
    else:
        placed = place(spec, cells, lane_labels, strips=strips, box_max=box_max, narrow_labels=middle,
                       frame_sides=frame_sides, spread=spread)
    boxes = placed.boxes
    ends = [PathEnds(p.key, p.source, p.dest) for p in spec.paths
            if p.source in boxes and p.dest in boxes and p.source != p.dest]
    if flow is not None:
        against, down = flow
    else:
        down = True if narrow else _flows_down(cells, spec)
        layer = 0 if down else 1  # the cell coordinate that counts the layered layout's ranks
        against = frozenset(p.key for p in ends if not lane_labels and cells[p.dest][layer] < cells[p.source][layer])
    way = None if lane_labels else ("down" if down else "right")  # a layered layout's flow
    room = {} if narrow else port_room(boxes, ends, way)
    if room:  # a side with more ports than it has room for: its box's row (or column) grows
        placed = place(spec, cells, lane_labels, strips=strips, port_room=room, box_max=box_max,
                       narrow_labels=middle, frame_sides=frame_sides, spread=spread)
        boxes = placed.boxes
    label_wraps = {p.key: path_label_wraps(p.label, narrow or middle, p.code) for p in spec.paths}
    code = frozenset(p.key for p in spec.paths if p.code)
    texts, least = _changed_path_labels(spec, narrow or middle, code)
    on_tracks: dict[str, PlacedLabel] = {}
    captions = [header_box(h) for h in placed.captions]
    enclosures = frames(spec, boxes, sides=frame_sides) if spec.groups else {}
    stuck_sides: dict[str, tuple[float, float]] = {}
    group_labels = [frame.label_box for frame in enclosures.values() if frame.label_box is not None]
    if narrow:
        routes, on_tracks = stacked_routes(boxes, ends, {key: wraps[0] for key, wraps in label_wraps.items() if wraps},
                                           placed.lanes, code=code, captions=[*captions, *group_labels],
                                           least=least, keep_off=_frame_sides(spec, enclosures),
                                           inner=inner_paths(spec), two_sided=two_sided, outer_labels=outer_labels)
        if enclosures:
            enclosures = widened(spec, enclosures, routes, placed.right, {k: lab.block for k, lab in on_tracks.items()})
            enclosures, _ = clear_labels(spec, enclosures, [route.points for route in routes.values()])
            group_labels = [frame.label_box for frame in enclosures.values() if frame.label_box is not None]
    else:
        # A lane name above its lane is a wall for the routes (one in the header column is left of every box), and
        # so is a group's label.
        walls = [name_box(h) for h in placed.lanes if h.above]
        # An arc's label sits between it and the next arc around it, which keeps that far out.
        across = {key: label_size(wraps[0], key in code) for key, wraps in label_wraps.items() if wraps}
        routes = route_all(boxes, ends, against, walls, way, across, frames=enclosures, budget=next_budget(),
                           centred=centred and spread > 0)
        if enclosures:  # each group's label where no route crosses its strip, else a wall the routes go round
            enclosures, stuck = clear_labels(spec, enclosures, [route.points for route in routes.values()])
            stuck_sides = stuck_label_sides(enclosures, stuck, [route.points for route in routes.values()])
            if stuck:
                walls += [enclosures[key].label_box for key in sorted(stuck)]  # type: ignore[misc]
                routes = route_all(boxes, ends, against, walls, way, across, frames=enclosures, budget=next_budget(),
                                   centred=centred and spread > 0)
            group_labels = [frame.label_box for frame in enclosures.values() if frame.label_box is not None]
    obstacles: list[Rect] = [*boxes.values(), *(Rect(h.x, h.y, h.w, h.h) for h in placed.lanes),
                             *(label.block for label in on_tracks.values()), *captions, *group_labels,
                             *(edge for frame in enclosures.values() for edge in frame_edges(frame))]
    labels = place_labels({key: route.points for key, route in routes.items()},
                          {key: wraps for key, wraps in label_wraps.items() if key in routes and key not in on_tracks},
                          obstacles, _band_gaps(placed.bands), code,
                          {key: route.head for key, route in routes.items()}, least)
    labels.update(on_tracks)
    rects: list[Rect] = [*boxes.values(), *(Rect(b.x, b.y, b.w, b.h) for b in placed.bands),
                         *(Rect(h.x, h.y, h.w, h.h) for h in placed.lanes), *(lab.block for lab in labels.values()),
                         *captions, *enclosures.values()]
    points = [p for route in routes.values() for p in (*route.points, *route.head)]
    return _Routed(placed, routes, labels, *_bounds(rects, points), down, against, texts, enclosures,
                   sum(each.taken for each in budgets) - before, stuck_sides, dict(frame_sides or {}))


#: The most a drawing may grow wider for its groups' frames to make room for labels (:func:`_frames_widened`), in
#: user units for each fault and unclean route or label it mends: a break-it review found a drawing widened from 797
#: to 951 units for one fault less; forty boxes in eight groups, 565 to 736 units for 104 faults and 32 labels less.
WIDENING_PER_MEND = 48.0


def _frames_widened(spec: Spec, drawn: _Routed, again: Callable[[Sides], _Routed]) -> _Routed:
    """``drawn`` (a layered graph's chosen drawing, with groups), or ``again`` drawn with its groups' frames widened for
    the labels of the paths between two members of a group that break a rule of :mod:`.route_rules` or are not clean
    (:func:`~mechdiagram.layout.groups.inner_label_sides`: two opposite labelled arrows between boxes one above the
    other printed their labels over each other between the runs) and for the groups' own labels that routes crossed
    and then went round (``drawn.stuck_sides``: a straight arrow into a group's first box took two bends round its
    frame instead).  The wider drawing is kept where it breaks no rule more often, kind by kind (:func:`_broken`),
    nor costs more as the layout's choices weigh it (:func:`_cost`'s faults and unclean routes), costs less all told
    (fewer faults and unclean arrows, else fewer bends, else a narrower drawing) and is at most
    :data:`WIDENING_PER_MEND` wider for each fault it mends. Made once, for the drawing the layout chose: widened
    inside every try, it steered the choice between foldings and layerings by another measure than theirs, and
    tripled some layouts' time (a break-it review)."""
    arrows = _arrows(drawn)
    inner = inner_paths(spec)
    bad = {fault.key for fault in label_faults(arrows)}
    bad |= {fault.key for fault in frame_faults(arrows, drawn.frames) if fault.kind == "label-frame"}
    bad |= {key for key, label in drawn.labels.items() if not label.clean}
    sizes = {key: (drawn.labels[key].block.w, drawn.labels[key].block.h) for key in sorted(bad & inner)}
    sides = dict(inner_label_sides(spec, drawn.frames, drawn.routes, sizes, SIDE_GAP)) if sizes else {}
    for key, (left, right) in drawn.stuck_sides.items():
        inner_left, inner_right = sides.get(key, (0.0, 0.0))
        sides[key] = (max(inner_left, left), max(inner_right, right))
    if not sides:
        return drawn
    wider = again(sides)
    kinds, unclean = _broken(_arrows(wider), wider.against, wider.frames)
    before, unclean_before = _broken(arrows, drawn.against, drawn.frames)
    no_worse = unclean <= unclean_before and all(count <= before.get(kind, 0) for kind, count in kinds.items()) \
        and _cost(wider)[:2] <= _cost(drawn)[:2]
    mended = sum(before.values()) + unclean_before - sum(kinds.values()) - unclean
    grown = (wider.right - wider.left) - (drawn.right - drawn.left) <= WIDENING_PER_MEND * max(mended, 0)

    def bends_(try_: _Routed) -> int:  # of its routes, all told
        return sum(len(route.points) - 2 for route in try_.routes.values())

    less = (mended, bends_(drawn) - bends_(wider), drawn.right - drawn.left - (wider.right - wider.left)) > (0, 0, 0)
    return wider if no_worse and grown and less else drawn


#: The aspect ratios (width over height, margins included) a layered graph's wide drawing keeps, and the one it
#: folds towards when it has to (a designer's rule: a 12-box chain drawn 7:1 showed 7 of its boxes at 1280 px; drawn
#: 1:3 it is a phone's column on a desktop screen).  Lane grids are exempt: their width is their time.
ASPECT_RANGE = (0.6, 2.5)
ASPECT_TARGET = 1.6
#: How many foldings, the nearest the target by their boxes alone, are routed and compared.
FOLDS_TRIED = 3
#: The fewest ranks a graph is folded from: up to four ranks run across a screen in one row (a chain of four is
#: about 760 units wide), and a wider or taller drawing of fewer ranks has room to fold in no band.
FOLD_FROM_RANKS = 5
#: A layered graph drawn in one column is folded too where its aspect ratio is under this, though in
#: :data:`ASPECT_RANGE`: the spread (:func:`_spread`) widens the gaps between columns and a column has none, so such a
#: drawing is as wide as its widest box and labels.  A cycle of five stages drawn down one column (0.61), in a canvas
#: 480 units wide, filled 58 % of a 1,280 px screen's figure at :data:`~mechdiagram.layout.sizes.GROWTH`; folded into
#: two columns and spread, 750 units, 93 %.  A folding is kept only in the range and where it breaks no more rules
#: (:func:`_cost`): a five-service checkout's column (1.16), whose arcs cross when folded, stays a column.
PORTRAIT_BELOW = 1.2


def _aspect(drawn: _Routed) -> float:
    """Width over height of a try's drawing, with the margins the figure adds."""
    return (drawn.right - drawn.left + 2 * MARGIN) / max(drawn.bottom - drawn.top + 2 * MARGIN, 1.0)


def _cost(drawn: _Routed) -> tuple[int, int, bool, int, float]:
    """What a try at a layered graph's drawing costs, compared in order: its arrows that meet
    (:func:`~mechdiagram.layout.route_rules.junctions` and crossings), bend more than the rules allow
    (:func:`~mechdiagram.layout.route_rules.bends`) or run along or across a group's frame
    (:func:`~mechdiagram.layout.route_rules.frame_faults`), its routes and labels that are not clean, whether its aspect
    ratio is outside :data:`ASPECT_RANGE`, its labels far from their arrow, nearer another or crossed
    (:func:`~mechdiagram.layout.route_rules.label_faults`: of two foldings both in or both out of the range, a break-it
    review found the one 0.0002 nearer the target printing a label over another arrow), and how far its aspect ratio
    is from :data:`ASPECT_TARGET`."""
    aspect = _aspect(drawn)
    arrows = _arrows(drawn)
    broken = len(junctions(arrows)) + crossing_count(arrows) + len(bends(arrows, drawn.against))
    if drawn.frames:
        broken += len(frame_faults(arrows, drawn.frames))
    return (broken, drawn.unclean, not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1], len(label_faults(arrows)),
            abs(math.log(aspect / ASPECT_TARGET)))


def _shaped(spec: Spec, cells: dict[str, tuple[int, int]], drawn: _Routed,
            budget: SearchBudget | None = None) -> tuple[dict[str, tuple[int, int]], _Routed]:
    """A layered graph's cells and drawing, folded into bands (:func:`~mechdiagram.layout.layered.folded`) when
    it has :data:`FOLD_FROM_RANKS` ranks or more and its aspect ratio is outside :data:`ASPECT_RANGE`, or it is one
    column under :data:`PORTRAIT_BELOW` (then only into a folding in the range).  Of the
    :data:`FOLDS_TRIED` numbers of bands whose shape comes nearest :data:`ASPECT_TARGET` (estimated from the
    unfolded drawing's extent, before any placement or route), the routed one that costs least (:func:`_cost`);
    the unfolded drawing unless a folding does better.  The foldings' searches share ``budget`` when one is given
    (each has its own otherwise)."""
    lo, hi = ASPECT_RANGE
    layer = 0 if drawn.down else 1
    rank = {key: cell[layer] for key, cell in cells.items()}
    _, layers = _folded_layers(spec, cells, layer)
    one_column = len({cell[1] for cell in cells.values()}) < 2 and lo <= _aspect(drawn) < PORTRAIT_BELOW
    if (lo <= _aspect(drawn) <= hi and not one_column) or layers < FOLD_FROM_RANKS:
        return cells, drawn

    def miss(aspect: float) -> float:
        return abs(math.log(aspect / ASPECT_TARGET))

    # Each folding's shape, estimated from the unfolded drawing: a rank's pitch along the flow, a band as wide
    # as the drawing is across it (and a gap between bands); one number of bands for each band length.
    boxes = drawn.placed.boxes.values()
    width = max(b.right for b in boxes) - min(b.x for b in boxes)
    height = max(b.bottom for b in boxes) - min(b.y for b in boxes)
    along, across, gap = (height, width, GAP_X) if drawn.down else (width, height, GAP_Y)
    shapes: list[tuple[float, int]] = []
    for bands in sorted({math.ceil(layers / per_band) for per_band in range(1, layers)}):
        length = math.ceil(layers / bands) * along / layers + 2 * MARGIN
        breadth = bands * (across + gap) - gap + 2 * MARGIN
        shapes.append((miss(breadth / length if drawn.down else length / breadth), bands))
    shapes.sort()

    best, best_cells = drawn, cells
    if spec.groups:  # a group's frame is one rectangle: a folding that turns inside a group's ranks is not tried
        spans_ = [sorted(rank[m] for m in group.members if m in rank) for group in spec.groups.values()]
        shapes = [(m, bands) for m, bands in shapes
                  if all(not s or s[0] // math.ceil(layers / bands) == s[-1] // math.ceil(layers / bands)
                         for s in spans_)]
    for _, bands in shapes[:FOLDS_TRIED]:
        candidate = refolded(spec, cells, bands, down=drawn.down)
        drawn_folded = _routed(spec, candidate, [], flow=(drawn.against, drawn.down), budget=budget)
        if _cost(drawn_folded) < _cost(best) and (not one_column or lo <= _aspect(drawn_folded) <= hi):
            best, best_cells = drawn_folded, candidate
    return best_cells, best


def _band_gaps(bands: Sequence[LaneBand]) -> list[Rect]:
    """The strips of page between neighbouring lane bands: a label across one has the band's edge through
    its text, so labels keep off them where a place clear of boxes and routes allows (a preference of
    :func:`~mechdiagram.layout.labels.place_labels`, not an obstacle)."""
    rows = sorted(bands, key=lambda band: band.y)
    return [Rect(min(a.x, b.x), a.y + a.h, max(a.x + a.w, b.x + b.w) - min(a.x, b.x), b.y - a.y - a.h)
            for a, b in itertools.pairwise(rows) if b.y > a.y + a.h - 0.01 and abs(a.x - b.x) < a.w]


def _flows_down(cells: dict[str, tuple[int, int]], spec: Spec) -> bool:
    """Whether the layered layout put its layers in rows (the paths mostly go down)."""
    down = sum(cells[p.dest][0] > cells[p.source][0] for p in spec.paths if p.source in cells and p.dest in cells)
    right = sum(cells[p.dest][1] > cells[p.source][1] for p in spec.paths if p.source in cells and p.dest in cells)
    return down > right
