"""Stage 4, layout: place targets, wrap text and route arrows.  Geometry only.

Units are CSS pixels in the SVG's user space; nothing here knows about SVG
elements (the drawing backend is :mod:`renderer.svg`).  Layout rules:

* **Grid**: when every node key has the form ``<lane><index>`` (``work0``),
  lanes become rows in order of first appearance (or ``layout.lanes``) and the
  distinct indexes, sorted, become columns.
* **Flow**: otherwise, nodes are ranked along the path arrows (longest path
  from a node without incoming arrows) into columns; without arrows they fill
  rows of at most :data:`FLOW_COLUMNS`.
* ``layout.positions`` puts a node in an explicit (row, column) cell.
* Labels wrap inside their boxes; a box grows in height, never overflows.
  Text is measured by :mod:`renderer.measure`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .measure import text_width, wrap
from .model import PathTarget, Scenario, Spec, parse_lane_key

LINE_HEIGHT = 18.0
TITLE_SIZE = 15.0
BOX_WIDTH = 140.0
BOX_MIN_HEIGHT = 56.0
PAD_X = 12.0
PAD_Y = 10.0
GAP_X = 32.0
GAP_Y = 28.0
MARGIN = 20.0
LANE_HEADER_WIDTH = 116.0
PATH_LABEL_SIZE = 12.0
PATH_LABEL_LINE = 14.0
PATH_LABEL_WIDTH = 120.0
MIN_WIDTH = 480.0
FLOW_COLUMNS = 5
ARROW_HEAD = 10.0
PANEL_GAP = 24.0


@dataclass(frozen=True)
class Box:
    """A node's rectangle (top-left ``x``, ``y``; ``w``, ``h``) and its wrapped label lines."""

    key: str
    x: float
    y: float
    w: float
    h: float
    lines: tuple[str, ...]

    @property
    def cx(self) -> float:
        """Centre x."""
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        """Centre y."""
        return self.y + self.h / 2

    @property
    def first_baseline(self) -> float:
        """Baseline y of the first label line, centring the block vertically."""
        block = len(self.lines) * LINE_HEIGHT
        return self.y + (self.h - block) / 2 + LINE_HEIGHT * 0.75


@dataclass(frozen=True)
class Arrow:
    """A path target's straight arrow: shaft ``start``-``end``, ``head`` triangle, label anchor."""

    key: str
    start: tuple[float, float]
    end: tuple[float, float]
    head: tuple[tuple[float, float], ...]
    label_at: tuple[float, float]
    label_anchor: str = "middle"
    label_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class LaneHeader:
    """A lane label at the left of a grid row."""

    x: float
    y: float
    w: float
    h: float
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PanelRow:
    """One state row: its label lines and the baseline ``y`` of its first line (the same in every frame)."""

    key: str
    label: tuple[str, ...]
    y: float


@dataclass(frozen=True)
class PanelFrame:
    """The state panel's changing content in one frame (the poster, or a step):
    the heading lines and each row's value lines, in row order."""

    title: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Panel:
    """The state panel: rectangle, heading baseline, rows, value column x, and one frame per step plus the poster."""

    x: float
    y: float
    w: float
    h: float
    title_y: float
    value_x: float
    rows: tuple[PanelRow, ...]
    poster: PanelFrame
    steps: tuple[PanelFrame, ...]


@dataclass(frozen=True)
class Layout:
    """Everything the drawing backend needs, in px: canvas size, boxes, arrows, lanes, panel."""

    width: float
    height: float
    boxes: dict[str, Box]
    arrows: dict[str, Arrow]
    lanes: tuple[LaneHeader, ...]
    panel: Panel
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)


def grid_cells(spec: Spec) -> tuple[dict[str, tuple[int, int]], list[str | None]]:
    """Assign every node a (row, column) cell; also return each row's lane label.

    See the module docstring for the grid, flow and override rules.
    """
    nodes = [t.key for t in spec.nodes]
    parsed = {key: parse_lane_key(key) for key in nodes}
    cells: dict[str, tuple[int, int]] = {}
    labels: list[str | None] = []
    grid = {key: lane_index for key, lane_index in parsed.items() if lane_index is not None}
    if nodes and len(grid) == len(nodes):
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
        cells = _flow_cells(spec, nodes)
    cells.update({k: v for k, v in spec.layout.positions.items() if k in cells})
    return cells, labels


def _forward_edges(nodes: list[str], edges: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``edges`` without the back edges of a depth-first search in file order: what is left has no cycle.

    A cycle (fetch -> decode -> execute -> fetch, a request and its reply) would otherwise leave
    every node on it unranked; its closing edge is drawn all the same, as an arrow back.
    """
    out: dict[str, list[str]] = {key: [] for key in nodes}
    for src, dest in edges:
        out[src].append(dest)
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    back: set[tuple[str, str]] = set()
    for root in nodes:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:  # iterative: any depth
            key, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[key] = 2
                stack.pop()
            elif state.get(child) == 1:
                back.add((key, child))
            elif child not in state:
                state[child] = 1
                stack.append((child, iter(out[child])))
    return [edge for edge in edges if edge not in back]


def _flow_cells(spec: Spec, nodes: list[str]) -> dict[str, tuple[int, int]]:
    edges = [(p.source, p.dest) for p in spec.paths if p.source in nodes and p.dest in nodes and p.source != p.dest]
    if not edges:
        return {key: (i // FLOW_COLUMNS, i % FLOW_COLUMNS) for i, key in enumerate(nodes)}
    edges = _forward_edges(nodes, edges)
    incoming = dict.fromkeys(nodes, 0)
    for _, dest in edges:
        incoming[dest] += 1
    rank = dict.fromkeys(nodes, 0)
    queue = [key for key in nodes if incoming[key] == 0]
    while queue:  # Kahn's algorithm on the acyclic edges: a node's column is its longest path from a source
        key = queue.pop(0)
        for src, dest in edges:
            if src == key:
                rank[dest] = max(rank[dest], rank[key] + 1)
                incoming[dest] -= 1
                if incoming[dest] == 0:
                    queue.append(dest)
    rows: dict[int, int] = {}
    cells = {}
    for key in nodes:
        column = rank[key]
        cells[key] = (rows.get(column, 0), column)
        rows[column] = rows.get(column, 0) + 1
    return cells


def _clip(box: Box, toward: tuple[float, float], gap: float = 3.0) -> tuple[float, float]:
    """Where the segment from the box centre toward a point leaves the box (plus ``gap``)."""
    dx, dy = toward[0] - box.cx, toward[1] - box.cy
    if dx == 0 and dy == 0:
        return (box.cx, box.cy)
    scale = min(box.w / 2 / abs(dx) if dx else math.inf, box.h / 2 / abs(dy) if dy else math.inf)
    length = math.hypot(dx, dy)
    extra = gap / length
    return (box.cx + dx * (scale + extra), box.cy + dy * (scale + extra))


def _label_lines(path: PathTarget) -> tuple[str, ...]:
    return tuple(wrap(path.label, PATH_LABEL_WIDTH, PATH_LABEL_SIZE)) if path.label else ()


def _arrow(path: PathTarget, a: Box, b: Box) -> Arrow:
    start = _clip(a, (b.cx, b.cy))
    end = _clip(b, (a.cx, a.cy), gap=8.0)  # clear of an active target's outer outline
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    base = (end[0] - ux * ARROW_HEAD, end[1] - uy * ARROW_HEAD)
    half = ARROW_HEAD / 2
    head = (end, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half))
    mid = ((start[0] + base[0]) / 2, (start[1] + base[1]) / 2)
    # The label sits beside the shaft, on the side of its normal that points right (or up).
    nx, ny = (-uy, ux) if (-uy, ux) > (uy, -ux) else (uy, -ux)
    anchor = "start" if nx > 0.3 else "end" if nx < -0.3 else "middle"
    lines = _label_lines(path)
    # Level arrows carry the label above, steep ones beside, slanted ones on the shaft.
    block = (len(lines) - 1) * PATH_LABEL_LINE
    if anchor == "middle":  # a level arrow: the label block ends just above the shaft
        label_at = (mid[0], mid[1] - 7 - block)
    elif abs(ny) < 0.3:  # a steep arrow: the label block is centred beside the shaft
        label_at = (mid[0] + nx * 8, mid[1] + 4 - block / 2)
    else:  # a slanted arrow: the label is centred on the shaft, its halo interrupting the line
        anchor = "middle"
        label_at = (mid[0], mid[1] + 4 - block / 2)
    return Arrow(path.key, start, base, head, label_at, anchor, lines)


def step_heading(scenario: Scenario, index: int) -> str:
    """The state panel's heading for step ``index`` (0-based): ``Step 3 of 7: title``."""
    return f"Step {index + 1} of {len(scenario.steps)}: {scenario.steps[index].title}"


def layout_scenario(spec: Spec, scenario: Scenario) -> Layout:
    """Lay out one scenario's figure: the node grid, arrows, lane headers and state panel."""
    cells, lane_labels = grid_cells(spec)
    has_headers = any(lane_labels)
    inner = BOX_WIDTH - 2 * PAD_X
    lines = {t.key: tuple(wrap(t.label or "", inner)) for t in spec.nodes}
    n_rows = max((r for r, _ in cells.values()), default=-1) + 1
    n_cols = max((c for _, c in cells.values()), default=-1) + 1
    row_h = [BOX_MIN_HEIGHT] * n_rows
    for key, (r, _) in cells.items():
        row_h[r] = max(row_h[r], len(lines[key]) * LINE_HEIGHT + 2 * PAD_Y)
    header_lines = [tuple(wrap(label, LANE_HEADER_WIDTH - 8)) if label else () for label in lane_labels]
    for r, hl in enumerate(header_lines[:n_rows]):
        row_h[r] = max(row_h[r], len(hl) * LINE_HEIGHT + 2 * PAD_Y)
    # Gaps widen so that arrow labels sit between boxes, never under them.
    gap_x, gap_y = GAP_X, GAP_Y
    for path in spec.paths:
        if path.source in cells and path.dest in cells and cells[path.source][0] != cells[path.dest][0]:
            gap_y = max(gap_y, 48.0)  # an arrow between rows stays visible beside the active outlines
        if path.source not in cells or path.dest not in cells or not path.label:
            continue
        label = _label_lines(path)
        (r1, c1), (r2, c2) = cells[path.source], cells[path.dest]
        if r1 == r2:
            gap_x = max(gap_x, max(text_width(line, PATH_LABEL_SIZE) for line in label) + 2 * ARROW_HEAD + 12)
        elif c1 == c2:
            gap_y = max(gap_y, len(label) * PATH_LABEL_LINE + 2 * ARROW_HEAD + 8)
        else:
            gap_y = max(gap_y, len(label) * PATH_LABEL_LINE + 24)
    left = MARGIN + (LANE_HEADER_WIDTH + gap_x / 2 if has_headers else 0)
    row_y = [MARGIN]
    for h in row_h[:-1]:
        row_y.append(row_y[-1] + h + gap_y)
    boxes = {}
    for key, (r, c) in cells.items():
        boxes[key] = Box(key, left + c * (BOX_WIDTH + gap_x), row_y[r], BOX_WIDTH, row_h[r], lines[key])
    lanes = tuple(LaneHeader(MARGIN, row_y[r], LANE_HEADER_WIDTH, row_h[r], hl)
                  for r, hl in enumerate(header_lines[:n_rows]) if hl)
    arrows = {p.key: _arrow(p, boxes[p.source], boxes[p.dest])
              for p in spec.paths if p.source in boxes and p.dest in boxes and p.source != p.dest}
    grid_right = left + n_cols * BOX_WIDTH + max(n_cols - 1, 0) * gap_x
    label_right = 0.0  # an arrow label beside the last column may reach past the boxes
    for arrow in arrows.values():
        if arrow.label_lines:
            w = max(text_width(line, PATH_LABEL_SIZE) for line in arrow.label_lines)
            label_right = max(label_right, arrow.label_at[0] + {"start": w, "end": 0.0}.get(arrow.label_anchor, w / 2))
    width = max(MIN_WIDTH, grid_right + MARGIN, label_right + MARGIN)
    grid_bottom = (row_y[-1] + row_h[-1]) if n_rows else MARGIN

    panel_top = grid_bottom + PANEL_GAP
    panel_w = width - 2 * MARGIN
    label_w = min(max((text_width(label) for label in spec.state_labels.values()), default=0),
                  panel_w * 0.35)
    value_x = MARGIN + PAD_X + label_w + 12
    value_w = panel_w - (value_x - MARGIN) - PAD_X
    title_w = panel_w - 2 * PAD_X
    keys = list(spec.state_labels)
    poster_title = f"{scenario.title}: before the first step"
    frames = [PanelFrame(tuple(wrap(poster_title, title_w, TITLE_SIZE)),
                         tuple(tuple(wrap(scenario.initial.get(k, "") or "–", value_w)) for k in keys))]
    for i, step in enumerate(scenario.steps):
        frames.append(PanelFrame(tuple(wrap(step_heading(scenario, i), title_w, TITLE_SIZE)),
                                 tuple(tuple(wrap(step.state.get(k, "") or "–", value_w)) for k in keys)))
    # Rows sit at the same height in every frame, spaced for the frame that needs most lines.
    title_lines = max(len(f.title) for f in frames)
    title_y = panel_top + PAD_Y + TITLE_SIZE
    y = title_y + (title_lines - 1) * (LINE_HEIGHT + 2) + LINE_HEIGHT + 4
    rows = []
    for r, key in enumerate(keys):
        label = tuple(wrap(spec.state_labels[key], label_w))
        rows.append(PanelRow(key, label, y))
        y += max(len(label), max(len(f.values[r]) for f in frames)) * LINE_HEIGHT + 4
    height = y - LINE_HEIGHT + 5 - 4 + PAD_Y - panel_top  # last baseline, its descent, padding
    panel = Panel(MARGIN, panel_top, panel_w, height, title_y, value_x, tuple(rows), frames[0], tuple(frames[1:]))
    return Layout(width, panel_top + height + MARGIN, boxes, arrows, lanes, panel, cells)
