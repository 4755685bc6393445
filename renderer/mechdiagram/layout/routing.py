"""Orthogonal edge routing: every path runs in horizontal and vertical segments around the boxes.

Each route leaves its source box from a port on one side and meets a port on a side of its
target box, with the arrowhead's tip just outside that edge.  Routes are shortest paths (Dijkstra
with a Manhattan heuristic, i.e. A*) on a grid of candidate coordinates: every box edge at the
route distances, the ports, the middle of every channel and a ring around the figure; a grid step
that would cross a box (grown by :data:`~mechdiagram.layout.sizes.CLEARANCE`) is not allowed.  A step
costs its length, a bend :data:`BEND_COST`, and a step along a stretch another route already uses
costs more, so parallel routes spread out.

Each route uses the sides of its two boxes that face each other, at the ports :mod:`.ports` spreads
along them; a route walled in on those sides may use any side.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Mapping, Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import EPSILON, Box, Point, Rect
from mechdiagram.layout.ports import (
    SIDES,
    PathEnds,
    arc_depths,
    arc_sides,
    arc_span,
    end_sides,
    out,
    port,
    port_fractions,
    side_cost,
)
from mechdiagram.layout.route_rules import MAX_BENDS
from mechdiagram.layout.sizes import (
    ARROW_HEAD,
    CLEARANCE,
    HEAD_CLEARANCE,
    HEAD_GAP,
    NEAR,
    ROUTE_PITCH,
    SOURCE_STUB,
    TARGET_STUB,
)

#: Grid lines further apart than this get a line between them.
MIDDLE_AT = 6 * CLEARANCE

#: Cost of one bend, in user units of length.
BEND_COST = 60.0
#: Extra cost per unit of length along a stretch another route already uses, or runs right beside.
SHARED_COST = 20.0
#: ... and a fixed amount per shared step, so that two routes share a stretch only when nothing else is free.
SHARED_STEP = 400.0
NEAR_COST = 3.0
#: Extra cost per unit of length of a run across a route's shared side, per unit of its distance from that side:
#: a tie-breaker between lanes equally short (see ``_Usage.lean``).
LEAN_COST = 0.001
#: Passing straight across another route, and meeting one where either turns (which reads as a join).
CROSS_COST = 40.0
JOIN_COST = 150.0
#: Extra cost per unit of length of an arrow against the flow running between the boxes rather than around
#: them, when its sides are chosen: the way back around the figure keeps clear of the flow's routes.
INNER_COST = 0.5
#: Most grid states one route's search may take from its queue before it searches again with its estimate
#: weighted by :data:`WEIGHTED` (fewer states, a route a little longer than the shortest): the gallery's routes
#: take at most 300 all told, a lane of 30 boxes with 60 arrows between random pairs at most 10,000 each,
#: 30 boxes in layers with 60 random arrows up to 30,000.
ROUTE_BUDGET = 40_000
WEIGHTED = 3.0
#: Most states all the searches of one layout may take: 60 boxes with 200 random arrows took 4.8 million
#: (40 s); 30 boxes in layers with 60 random arrows take 20,000; 150 labelled arrows among 20 boxes in lanes
#: stop here after about 3 s (``bench/bench_limits.py``: validation lays a spec out twice, within 10 s in all).
#: Past it, each route left is drawn straight and reported as crowded (the ``route`` warning), so that no spec
#: holds a build for long.
SEARCH_BUDGET = 250_000


__all__ = ["NEAR", "PathEnds", "Route", "near_lines", "route_all"]


class Route(Struct, frozen=True):
    """A routed path: ``points`` from the source port to the arrowhead's base, ``head`` (tip first),
    the sides used, and ``clean`` False when no route clear of other boxes exists; ``crowded`` True when
    the layout's searches ran out of :data:`SEARCH_BUDGET` before this route was found (in the narrow
    layout: when its track's label was left to the general placement,
    :data:`~mechdiagram.layout.stacked.TRACK_LABEL_BUDGET`)."""

    points: tuple[Point, ...]
    head: tuple[Point, Point, Point]
    sides: tuple[str, str]
    clean: bool
    crowded: bool = False
    #: The grid cells the route's search went through (none for a straight line, or outside :func:`route_all`).
    cells: tuple[tuple[int, int], ...] = ()


class _Grid:
    """Candidate coordinates and the grid steps that stay clear of every box."""

    def __init__(self, boxes: Sequence[Rect], extra_x: Sequence[float], extra_y: Sequence[float]) -> None:
        xs = set(extra_x)
        ys = set(extra_y)
        for box in boxes:
            for d in (SOURCE_STUB, TARGET_STUB):
                xs.update((box.x - d, box.right + d))
                ys.update((box.y - d, box.bottom + d))
        if boxes:
            ring = TARGET_STUB + 14
            xs.update((min(b.x for b in boxes) - ring, max(b.right for b in boxes) + ring))
            ys.update((min(b.y for b in boxes) - ring, max(b.bottom for b in boxes) + ring))
        self.xs = self._with_middles(sorted(xs))
        self.ys = self._with_middles(sorted(ys))
        self.blocked_h: set[tuple[int, int]] = set()  # (i, j): the step from (i, j) to (i + 1, j)
        self.blocked_v: set[tuple[int, int]] = set()  # (i, j): the step from (i, j) to (i, j + 1)
        e = EPSILON
        gx, gy = self.xs, self.ys
        for box in boxes:  # a step is blocked when it passes through the grown box's interior
            grown = box.grown(CLEARANCE - 0.5)
            rows = range(bisect.bisect_right(gy, grown.y + e), bisect.bisect_left(gy, grown.bottom - e))
            x_steps = range(max(0, bisect.bisect_right(gx, grown.x + e) - 1),
                            min(len(gx) - 1, bisect.bisect_left(gx, grown.right - e)))
            self.blocked_h.update((i, j) for j in rows for i in x_steps)
            cols = range(bisect.bisect_right(gx, grown.x + e), bisect.bisect_left(gx, grown.right - e))
            y_steps = range(max(0, bisect.bisect_right(gy, grown.y + e) - 1),
                            min(len(gy) - 1, bisect.bisect_left(gy, grown.bottom - e)))
            self.blocked_v.update((i, j) for i in cols for j in y_steps)
        #: The other grid lines closer than NEAR to each line, by index.
        self.near_x = [near_lines(gx, i) for i in range(len(gx))]
        self.near_y = [near_lines(gy, j) for j in range(len(gy))]

    @staticmethod
    def _with_middles(values: list[float]) -> list[float]:
        out: list[float] = []
        for a, b in itertools.pairwise(values):
            out.append(a)
            if b - a > MIDDLE_AT:
                out.append(round((a + b) / 2, 1))
        if values:
            out.append(values[-1])
        return sorted(set(out))

    def index(self, point: Point) -> tuple[int, int]:
        return (bisect.bisect_left(self.xs, point[0]), bisect.bisect_left(self.ys, point[1]))


_MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1))


def near_lines(values: Sequence[float], index: int) -> list[int]:
    """Indexes of the other grid lines closer than :data:`NEAR` to line ``index`` of ``values`` (sorted)."""
    out = []
    k = index - 1
    while k >= 0 and values[index] - values[k] < NEAR:
        out.append(k)
        k -= 1
    k = index + 1
    while k < len(values) and values[k] - values[index] < NEAR:
        out.append(k)
        k += 1
    return out


class _Budget:
    """What is left of :data:`SEARCH_BUDGET` for one layout's searches (``None``: the constant's value)."""

    def __init__(self, left: int | None = None) -> None:
        self.left = SEARCH_BUDGET if left is None else left
        self.stopped = False  # the last search stopped at its limit, not for want of a route


class _Usage:
    """What the routes so far occupy: grid steps (by count), the grid points they pass, and the points
    where they turn."""

    def __init__(self, inner: Rect | None = None) -> None:
        #: Steps inside this rectangle (the boxes' extent) cost :data:`INNER_COST` more per unit of length.
        self.inner = inner
        self.steps: dict[tuple[int, int, int, int], int] = {}
        self.points: set[tuple[int, int]] = set()
        self.turns: set[tuple[int, int]] = set()
        #: Every route's stub points (where it leaves its port and where it turns in to its target), by
        #: route: another route passing there would run into that route's first or last stretch.
        self.stubs: dict[tuple[int, int], str] = {}
        #: The grid steps within HEAD_CLEARANCE of a route's arrowhead, with that route's key: another route
        #: passing there would read as the head's line (:func:`~mechdiagram.layout.route_rules.near_heads`).
        self.heads: dict[tuple[int, int, int, int], str] = {}
        self.current = ""
        #: For the current route, (axis, origin): its runs across that axis cost LEAN_COST a unit of length and
        #: of distance from ``origin``, so that of lanes equally short it takes the one nearest its shared side.
        self.lean: tuple[int, float] | None = None

    def add_head(self, grid: _Grid, zone: Rect, owner: str) -> None:
        """Mark the grid steps through ``zone`` (an arrowhead grown by HEAD_CLEARANCE) as ``owner``'s head."""
        e = EPSILON
        gx, gy = grid.xs, grid.ys
        rows = range(bisect.bisect_right(gy, zone.y + e), bisect.bisect_left(gy, zone.bottom - e))
        x_steps = range(max(0, bisect.bisect_right(gx, zone.x + e) - 1),
                        min(len(gx) - 1, bisect.bisect_left(gx, zone.right - e)))
        for j in rows:
            for i in x_steps:
                self.heads.setdefault((i, j, i + 1, j), owner)
        cols = range(bisect.bisect_right(gx, zone.x + e), bisect.bisect_left(gx, zone.right - e))
        y_steps = range(max(0, bisect.bisect_right(gy, zone.y + e) - 1),
                        min(len(gy) - 1, bisect.bisect_left(gy, zone.bottom - e)))
        for i in cols:
            for j in y_steps:
                self.heads.setdefault((i, j, i, j + 1), owner)

    def saved(self) -> tuple[dict[tuple[int, int, int, int], int], set[tuple[int, int]], set[tuple[int, int]]]:
        """What the routes so far occupy, to :meth:`restore` after a route is tried and not taken."""
        return dict(self.steps), set(self.points), set(self.turns)

    def restore(self, state: tuple[dict[tuple[int, int, int, int], int], set[tuple[int, int]],
                                   set[tuple[int, int]]]) -> None:
        """Back to a :meth:`saved` state."""
        self.steps, self.points, self.turns = dict(state[0]), set(state[1]), set(state[2])

    def add(self, cells: list[tuple[int, int]]) -> None:
        for a, b in itertools.pairwise(cells):
            key = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            self.steps[key] = self.steps.get(key, 0) + 1
        self.points.update(cells)
        for a, b, c in zip(cells, cells[1:], cells[2:], strict=False):
            if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
                self.turns.add(b)

    def step_cost(self, grid: _Grid, i: int, j: int, ni: int, nj: int, turning: bool, length: float) -> float:
        """The extra cost of a step ``length`` long from (i, j) to (ni, nj), turning at (i, j) or not."""
        owner = self.stubs.get((ni, nj))
        stub = SHARED_STEP if owner is not None and owner != self.current else 0.0
        if self.heads:
            head = self.heads.get((min(i, ni), min(j, nj), max(i, ni), max(j, nj)))
            if head is not None and head != self.current:
                stub += SHARED_STEP
        if self.lean is not None:
            axis, origin = self.lean
            if axis == 0 and i == ni:
                stub += LEAN_COST * abs(grid.xs[i] - origin) * length
            elif axis == 1 and j == nj:
                stub += LEAN_COST * abs(grid.ys[j] - origin) * length
        if not self.points:
            inner = self.inner
            if inner is not None:
                x, y = (grid.xs[i] + grid.xs[ni]) / 2, (grid.ys[j] + grid.ys[nj]) / 2
                if inner.x < x < inner.right and inner.y < y < inner.bottom:
                    stub += length * INNER_COST
            return stub
        key = (min(i, ni), min(j, nj), max(i, ni), max(j, nj))
        extra = stub + (SHARED_STEP + length * SHARED_COST) * self.steps.get(key, 0)
        if i == ni:  # vertical: lines just left or right of it
            for side in grid.near_x[i]:
                if self.steps.get((side, key[1], side, key[3]), 0):
                    extra += length * NEAR_COST
        else:
            for side in grid.near_y[j]:
                if self.steps.get((key[0], side, key[2], side), 0):
                    extra += length * NEAR_COST
        if (i, j) in self.points:
            extra += JOIN_COST if turning or (i, j) in self.turns else CROSS_COST
        return extra


def _search(grid: _Grid, starts: list[tuple[Point, tuple[int, int], float]],
            goals: dict[tuple[int, int], list[tuple[tuple[int, int], float, int]]],
            used: _Usage, budget: _Budget, weight: float = 1.0,
            limit: int = ROUTE_BUDGET) -> tuple[list[tuple[int, int]], int, int] | None:
    """Cheapest grid path from one of ``starts`` (stub point, leaving direction, cost) to a goal cell
    (cell -> [(arrival direction, cost, goal number)]): the grid cells, and the start and goal numbers;
    ``None`` when there is none, or when ``limit`` states (or what is left of ``budget``) were taken.
    A ``weight`` above 1 inflates the estimate: fewer states, a route at most that many times the cheapest."""
    xs, ys = grid.xs, grid.ys
    width, height = len(xs), len(ys)
    blocked_h, blocked_v = grid.blocked_h, grid.blocked_v
    # Manhattan distance to the box around every goal, and a bend when both axes differ: admissible.
    gx0, gx1 = min(xs[a] for a, _ in goals), max(xs[a] for a, _ in goals)
    gy0, gy1 = min(ys[b] for _, b in goals), max(ys[b] for _, b in goals)

    def estimate(i: int, j: int) -> float:
        x, y = xs[i], ys[j]
        dx = gx0 - x if x < gx0 else x - gx1 if x > gx1 else 0.0
        dy = gy0 - y if y < gy0 else y - gy1 if y > gy1 else 0.0
        return weight * (dx + dy + (BEND_COST if dx and dy else 0.0))  # off both axes of every goal: a bend

    frontier: list[tuple[float, float, int, int, int, int, int, int]] = []  # ..., goal number or -1
    best: dict[tuple[int, int, int, int], float] = {}
    parent: dict[tuple[int, int, int, int], tuple[int, int, int, int] | None] = {}
    start_of: dict[tuple[int, int, int, int], int] = {}
    counter = 0
    for number, (point, (di, dj), cost) in enumerate(starts):
        i, j = grid.index(point)
        state = (i, j, di, dj)
        if cost < best.get(state, float("inf")):
            best[state] = cost
            parent[state] = None
            start_of[state] = number
            heapq.heappush(frontier, (cost + estimate(i, j), cost, counter, i, j, di, dj, -1))
            counter += 1
    taken = 0
    budget.stopped = False
    while frontier:
        if budget.left <= 0 or taken >= limit:
            budget.stopped = True
            return None
        budget.left -= 1
        taken += 1
        _, cost, _, i, j, di, dj, reached = heapq.heappop(frontier)
        state = (i, j, di, dj)
        if reached >= 0:
            cells = [(i, j)]
            root = state
            while parent[root] is not None:
                root = parent[root]  # type: ignore[assignment]
                cells.append((root[0], root[1]))
            return cells[::-1], start_of[root], reached
        if cost > best.get(state, float("inf")):
            continue
        for arrive, extra, number in goals.get((i, j), ()):
            if arrive == (di, dj):  # the last stretch runs straight into the target, never a hook
                heapq.heappush(frontier, (cost + extra, cost + extra, counter, i, j, di, dj, number))
                counter += 1
        for mi, mj in _MOVES:
            if mi == -di and mj == -dj:
                continue
            ni, nj = i + mi, j + mj
            if not (0 <= ni < width and 0 <= nj < height):
                continue
            if (mj == 0 and ((ni if ni < i else i), j) in blocked_h) or \
                    (mi == 0 and (i, (nj if nj < j else j)) in blocked_v):
                continue
            length = abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j])
            turning = (mi, mj) != (di, dj)
            step = length + used.step_cost(grid, i, j, ni, nj, turning, length) + (BEND_COST if turning else 0.0)
            new_state = (ni, nj, mi, mj)
            new_cost = cost + step
            if new_cost < best.get(new_state, float("inf")):
                best[new_state] = new_cost
                parent[new_state] = state
                heapq.heappush(frontier, (new_cost + estimate(ni, nj), new_cost, counter, ni, nj, mi, mj, -1))
                counter += 1
    return None


def _simplified(points: list[Point]) -> tuple[Point, ...]:
    """``points`` without repeats and without the middle point of three on one line."""
    out: list[Point] = []
    for point in points:
        if out and out[-1] == point:
            continue
        if len(out) >= 2 and (out[-2][0] == out[-1][0] == point[0] or out[-2][1] == out[-1][1] == point[1]):
            out[-1] = point
            continue
        out.append(point)
    return tuple(out)


def _head(at: Point, side: str) -> tuple[tuple[Point, Point, Point], Point]:
    """The arrowhead meeting the port ``at`` on ``side`` of the target (tip first), and its base's centre."""
    tip = out(at, side, HEAD_GAP)
    base = out(at, side, HEAD_GAP + ARROW_HEAD)
    nx, ny = SIDES[side]
    half = ARROW_HEAD / 2
    return (tip, (base[0] - ny * half, base[1] - nx * half), (base[0] + ny * half, base[1] + nx * half)), base


def _route(grid: _Grid, boxes: dict[str, Box], path: PathEnds, sides: dict[str, dict[str, float]],
           used: _Usage, budget: _Budget) -> Route:
    """One route, from the ports ``sides[source|dest]`` (side -> fraction along it) allow."""
    source, dest = boxes[path.source], boxes[path.dest]
    starts = []
    begins = list(sides["source"].items())
    for side, fraction in begins:
        at = port(source, side, fraction)
        starts.append((out(at, side, SOURCE_STUB), SIDES[side], side_cost(source, dest, side)))
    goals: dict[tuple[int, int], list[tuple[tuple[int, int], float, int]]] = {}
    ends = list(sides["dest"].items())
    for number, (side, fraction) in enumerate(ends):
        at = port(dest, side, fraction)
        nx, ny = SIDES[side]
        goals.setdefault(grid.index(out(at, side, TARGET_STUB)), []).append(
            ((-nx, -ny), side_cost(dest, source, side), number))
    found = _search(grid, starts, goals, used, budget)
    if found is None and budget.stopped and budget.left > 0:  # a long search: again, quicker, weighted
        found = _search(grid, starts, goals, used, budget, WEIGHTED)
    if found is None:  # walled in (or out of budget): a straight line, reported as not clean
        side = next(iter(sides["dest"]))
        head, base = _head(port(dest, side, sides["dest"][side]), side)
        first = next(iter(sides["source"]))
        return Route((port(source, first, sides["source"][first]), base), head, (first, side), False,
                     crowded=budget.left <= 0)
    cells, began, reached = found
    side_out, fraction_out = begins[began]
    side_in, fraction_in = ends[reached]
    used.add(cells)
    head, base = _head(port(dest, side_in, fraction_in), side_in)
    middle = [(grid.xs[i], grid.ys[j]) for i, j in cells]
    points = _simplified([port(source, side_out, fraction_out), *middle, base])
    return Route(points, head, (side_out, side_in), True, cells=tuple(cells))


def _cells(grid: _Grid, points: Sequence[Point]) -> list[tuple[int, int]]:
    """The grid cells along the horizontal and vertical runs between ``points`` (each a grid point), in order."""
    cells = [grid.index(points[0])]
    for point in points[1:]:
        i, j = cells[-1]
        ti, tj = grid.index(point)
        while (i, j) != (ti, tj):
            i += (ti > i) - (ti < i)
            j += (tj > j) - (tj < j) if i == ti else 0
            cells.append((i, j))
    return cells


def _arc_lines(boxes: dict[str, Box], paths: Sequence[PathEnds], sides: dict[str, tuple[str, str]],
               fractions: dict[tuple[str, str], float], arcs: dict[str, int],
               labels: Mapping[str, tuple[float, float]]) -> dict[str, tuple[Point, ...]]:
    """The points of each arc (:func:`~mechdiagram.layout.ports.arc_sides`, with its depth) drawn as an arc diagram
    draws it: out of its source's side, along the line of boxes beside them all, and back into its target's side
    (two bends).  An arc runs beyond every arc of its side that it holds (one whose span lies within its own), by
    :data:`ROUTE_PITCH` or, where that one has a label (its size in ``labels``), by room for the label between
    them (:data:`ARC_LABEL_AIR` each side), so that the arcs of a side nest, never cross, and each label lies
    nearer its own arc than the next; none is given for an arc whose run would pass through a box (the search
    routes it)."""
    chosen = sorted((p for p in paths if p.key in arcs), key=lambda p: (arcs[p.key], p.key))
    spans = {p.key: arc_span(boxes, p, sides[p.key][0]) for p in chosen}
    # The line an arc runs beside: its side, and where its boxes' line lies across.
    line = {p.key: (sides[p.key][0], boxes[p.source].x if sides[p.key][0] in ("left", "right") else boxes[p.source].y)
            for p in chosen}
    offset: dict[str, float] = {}
    for p in chosen:  # the inner ones first
        low, high = spans[p.key]
        inside = [q for q in offset if line[q] == line[p.key] and arcs[q] < arcs[p.key]
                  and low <= spans[q][0] and spans[q][1] <= high]
        offset[p.key] = max((offset[q] + _arc_room(labels.get(q), sides[q][0]) for q in inside), default=0.0)
    lines: dict[str, tuple[Point, ...]] = {}
    for p in chosen:
        side = sides[p.key][0]
        vertical = side in ("left", "right")
        a, b = boxes[p.source], boxes[p.dest]
        low, high = arc_span(boxes, p, side)
        spanned = [box for box in boxes.values() if low - EPSILON <= (box.cy if vertical else box.cx) <= high + EPSILON
                   and (box.x < a.right and a.x < box.right if vertical else box.y < a.bottom and a.y < box.bottom)]
        away = SOURCE_STUB + offset[p.key]
        if side == "right":
            level = max(box.right for box in spanned) + away
        elif side == "left":
            level = min(box.x for box in spanned) - away
        elif side == "bottom":
            level = max(box.bottom for box in spanned) + away
        else:
            level = min(box.y for box in spanned) - away
        level = round(level, 1)
        start = port(a, side, fractions[(p.key, "source")])
        _, base = _head(port(b, side, fractions[(p.key, "dest")]), side)
        corners = ((level, start[1]), (level, base[1])) if vertical else ((start[0], level), (base[0], level))
        points = (start, *corners, base)
        if not any(_segment_hits(s, box.grown(CLEARANCE - 0.5)) for s in itertools.pairwise(points)
                   for key, box in boxes.items() if key not in (p.source, p.dest)):
            lines[p.key] = points
    return lines


#: The room between an arc's label and each arc beside it: the label keeps nearer its own.
ARC_LABEL_AIR = 8.0


def _arc_room(label: tuple[float, float] | None, side: str) -> float:
    """How far beyond an arc on ``side`` the next arc around it runs: :data:`ROUTE_PITCH`, or room for the arc's
    ``label`` block (width, height) across the line with :data:`ARC_LABEL_AIR` each side."""
    if label is None:
        return ROUTE_PITCH
    return max(ROUTE_PITCH, (label[0] if side in ("left", "right") else label[1]) + 2 * ARC_LABEL_AIR)


def _segment_hits(segment: tuple[Point, Point], box: Rect) -> bool:
    """Whether the horizontal or vertical ``segment`` passes through ``box``'s interior."""
    (x0, y0), (x1, y1) = segment
    return (min(x0, x1) < box.right and box.x < max(x0, x1) if x0 != x1 else box.x < x0 < box.right) and \
        (min(y0, y1) < box.bottom and box.y < max(y0, y1) if y0 != y1 else box.y < y0 < box.bottom)


def _in_line(a: Rect, b: Rect) -> bool:
    """Whether two boxes share a row or a column (their extents overlap across): a box between them is in the
    way of a route on their facing sides."""
    return (a.x < b.right and b.x < a.right) or (a.y < b.bottom and b.y < a.bottom)


def route_all(boxes: dict[str, Box], paths: Sequence[PathEnds], against: frozenset[str] = frozenset(),
              walls: Sequence[Rect] = (), flow: str | None = None,
              labels: Mapping[str, tuple[float, float]] | None = None,
              chosen: dict[str, tuple[str, str]] | None = None) -> dict[str, Route]:
    """Route every path between the ``boxes`` (see the module docstring); keys as in ``paths``.
    No route crosses ``walls`` either (the lane names of a grid).  ``labels`` are the sizes (width, height) of
    the paths' label blocks: an arc (:func:`~mechdiagram.layout.ports.arc_sides`) keeps room for the labels of
    the arcs inside it.

    The paths in ``against`` run against the flow of a layered layout (a cycle's closing arrow): their
    sides are the cheapest of all four, found by a first search, so that they go around the figure
    rather than back through it.  In a layered layout flowing ``flow`` the others leave and enter by the
    sides of :func:`~mechdiagram.layout.ports.end_sides`, or those ``chosen`` for them (by path key: the transposed
    grid's, :func:`~mechdiagram.layout.transposed.skip_sides`).
    """
    every = dict.fromkeys(SIDES, 0.5)
    budget = _Budget()
    sides = {p.key: end_sides(boxes[p.source], boxes[p.dest], flow) for p in paths}
    sides.update(chosen or {})
    arcs = arc_sides(boxes, [p for p in paths if p.key not in (chosen or {})], flow)
    sides.update(arcs)
    depths = arc_depths(boxes, paths, arcs)
    forward = [p for p in paths if p.key not in against]
    if set(against) - set(arcs):  # each arrow back on the sides that cost least, preferring the way around
        grid = _Grid([*boxes.values(), *walls], [b.cx for b in boxes.values()], [b.cy for b in boxes.values()])
        core = Rect(min(b.x for b in boxes.values()), min(b.y for b in boxes.values()), 0, 0)
        core = Rect(core.x, core.y, max(b.right for b in boxes.values()) - core.x,
                    max(b.bottom for b in boxes.values()) - core.y)
        for p in paths:
            if p.key in against and p.key not in arcs:
                found = _route(grid, boxes, p, {"source": every, "dest": every}, _Usage(inner=core), budget)
                if found.clean:
                    sides[p.key] = found.sides
    routes = _routed(boxes, [*forward, *(p for p in paths if p.key in against)], sides, budget, walls, against,
                     depths, labels or {})
    return {p.key: routes[p.key] for p in paths}


def _routed(boxes: dict[str, Box], paths: Sequence[PathEnds], sides: dict[str, tuple[str, str]],
            budget: _Budget, walls: Sequence[Rect] = (), against: frozenset[str] = frozenset(),
            arcs: dict[str, int] | None = None,
            labels: Mapping[str, tuple[float, float]] | None = None) -> dict[str, Route]:
    """Route ``paths`` in order on the ``sides`` given, their ports spread along each side, clear of ``walls``;
    the ``arcs`` (:func:`~mechdiagram.layout.ports.arc_sides`, with their depths) first, each as an arc diagram
    draws it (:func:`_arc_lines`), those it cannot draw so last, the shortest first."""
    arcs = arcs or {}
    every = dict.fromkeys(SIDES, 0.5)
    fractions = port_fractions(boxes, paths, sides, arcs)
    ports = {(p.key, end): port(boxes[box], side, fractions[(p.key, end)])
             for p in paths for end, box, side in (("source", p.source, sides[p.key][0]),
                                                   ("dest", p.dest, sides[p.key][1]))}
    # The ports, and the middles of the boxes' sides for a route walled in on its own sides (it may use any).
    # And, beside a side that n routes use, n lanes ROUTE_PITCH apart: room for each to turn on a line of its own.
    lanes_x: list[float] = []
    lanes_y: list[float] = []
    on_side: dict[tuple[str, str], int] = {}
    for p in paths:
        for box, side in ((p.source, sides[p.key][0]), (p.dest, sides[p.key][1])):
            on_side[(box, side)] = on_side.get((box, side), 0) + 1
    for (key, side), count in on_side.items():
        if count > 1:
            edge = port(boxes[key], side)
            for k in range(count):
                at = out(edge, side, TARGET_STUB + k * ROUTE_PITCH)
                (lanes_x if side in ("left", "right") else lanes_y).append(round(at[0] if side in ("left", "right")
                                                                             else at[1], 1))
    drawn_arcs = _arc_lines(boxes, paths, sides, fractions, arcs, labels or {})
    grid = _Grid([*boxes.values(), *walls],
                 [*(x for x, _ in ports.values()), *(b.cx for b in boxes.values()), *lanes_x,
                  *(x for line in drawn_arcs.values() for x, _ in line)],
                 [*(y for _, y in ports.values()), *(b.cy for b in boxes.values()), *lanes_y,
                  *(y for line in drawn_arcs.values() for _, y in line)])
    used = _Usage()
    for p in paths:
        out_side, in_side = sides[p.key]
        used.stubs.setdefault(grid.index(out(ports[(p.key, "source")], out_side, SOURCE_STUB)), p.key)
        used.stubs.setdefault(grid.index(out(ports[(p.key, "dest")], in_side, TARGET_STUB)), p.key)
        head, _ = _head(ports[(p.key, "dest")], in_side)
        xs, ys = [x for x, _ in head], [y for _, y in head]
        used.add_head(grid, Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).grown(HEAD_CLEARANCE), p.key)
    routes = {}
    for key, line in drawn_arcs.items():  # the arcs first: the searches then keep off them
        side = sides[key][0]
        cells = _cells(grid, line)
        used.add(cells)
        head, _ = _head(port(boxes[next(p.dest for p in paths if p.key == key)], side,
                             fractions[(key, "dest")]), side)
        routes[key] = Route(line, head, (side, side), True, cells=tuple(cells))

    def spread(p: PathEnds) -> float:  # how far from its side's middle the route's ports are, at most
        return max(abs(fractions[(p.key, "source")] - 0.5), abs(fractions[(p.key, "dest")] - 0.5))

    # The routes of a shared side nest: the outermost port's route first, on the lane nearest that side (LEAN_COST),
    # the next around it, as ELK's and dagre's fans do.
    def span(p: PathEnds) -> float:
        a, b = boxes[p.source], boxes[p.dest]
        return abs(a.cx - b.cx) + abs(a.cy - b.cy)

    for p in sorted((p for p in paths if p.key not in drawn_arcs),
                    key=lambda p: (p.key in arcs, p.key in against and p.key not in arcs,
                                   span(p) if p.key in arcs else -spread(p))):
        used.current = p.key
        shared = (p.source, sides[p.key][0]) if on_side[(p.source, sides[p.key][0])] >= \
            on_side[(p.dest, sides[p.key][1])] else (p.dest, sides[p.key][1])
        at = ports[(p.key, "source" if shared[0] == p.source and shared[1] == sides[p.key][0] else "dest")]
        used.lean = (0, at[0]) if shared[1] in ("left", "right") else (1, at[1])
        before = used.saved()
        out_side, in_side = sides[p.key]
        routes[p.key] = _route(grid, boxes, p, {"source": {out_side: fractions[(p.key, "source")]},
                                                "dest": {in_side: fractions[(p.key, "dest")]}}, used, budget)
        if not routes[p.key].clean and budget.left > 0:  # walled in on the facing sides: let it pick any side
            routes[p.key] = _route(grid, boxes, p, {"source": every, "dest": every}, used, budget)
        elif len(routes[p.key].points) - 2 > MAX_BENDS and p.key not in against and budget.left > 0 and \
                _in_line(boxes[p.source], boxes[p.dest]):
            # Around a box in the way (a skip edge in a row or a column): out of and into other sides, when
            # that takes fewer bends (a U beside the boxes, not a detour between them).
            used.restore(before)
            other = _route(grid, boxes, p, {"source": every, "dest": every}, used, budget)
            if other.clean and len(other.points) < len(routes[p.key].points):
                routes[p.key] = other
            else:
                used.restore(before)
                used.add(list(routes[p.key].cells))
    return routes


