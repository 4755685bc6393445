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
import collections
import heapq
import itertools
from collections.abc import Callable, Mapping, Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import EPSILON, Arrow, Box, GroupFrame, Point, Rect
from mechdiagram.layout.labels import SIDE_GAP
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
from mechdiagram.layout.route_rules import (
    FRAME_NEAR,
    MAX_BENDS,
    crossings,
    frame_faults,
    junctions,
    near_heads,
    parallel_runs,
)
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


__all__ = ["NEAR", "PathEnds", "Route", "SearchBudget", "near_lines", "route_all"]


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


class SearchBudget:
    """What is left of :data:`SEARCH_BUDGET` (grid states taken from a search's queue) for one layout's searches
    (``left`` ``None``: the constant's value).  One budget may be handed to several :func:`route_all` calls, so
    that a second try at a figure (its cycles broken the other way) takes at most as many states as it is given;
    :attr:`taken` is how many the searches took from it."""

    def __init__(self, left: int | None = None) -> None:
        self.left = SEARCH_BUDGET if left is None else left
        self.given = self.left
        self.stopped = False  # the last search stopped at its limit, not for want of a route

    @property
    def taken(self) -> int:
        """The states the searches took so far."""
        return self.given - self.left


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

    def reset(self, routes: Sequence[Sequence[tuple[int, int]]]) -> None:
        """What ``routes`` (each its grid cells) occupy, and nothing else (the stubs and heads stay)."""
        self.steps, self.points, self.turns = {}, set(), set()
        for cells in routes:
            self.add(list(cells))

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
            used: _Usage, budget: SearchBudget, weight: float = 1.0,
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
           used: _Usage, budget: SearchBudget) -> Route:
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


#: Rounds of :func:`_untangle`: each takes the pairs of routes that still cross or meet and routes them again.
UNTANGLE_ROUNDS = 3
#: The most such pairs :func:`_untangle` takes on: a few knots of routing order.  A graph with more is dense
#: (30 boxes with 60 random arrows meet in about 120 places): its crossings come from its layering, and routing
#: them again would take as long as the layout (issue "bounded time and memory").
UNTANGLE_PAIRS = 16


def _meetings(routes: Mapping[str, Route]) -> set[tuple[str, str]]:
    """The pairs of ``routes`` (by key, in the routes' order) that cross or meet as a junction
    (:func:`~mechdiagram.layout.route_rules.crossings`, :func:`~mechdiagram.layout.route_rules.junctions`)."""
    arrows = {key: Arrow(key, route.points, route.head) for key, route in routes.items()}
    return {(fault.other, fault.key) for fault in (*crossings(arrows), *junctions(arrows))}


def _region(routes: Sequence[Route]) -> Rect:
    """The rectangle around ``routes`` (their lines and heads), grown by the reach of the rules between two arrows
    (:data:`~mechdiagram.layout.sizes.NEAR`, :data:`~mechdiagram.layout.sizes.HEAD_CLEARANCE`)."""
    points = [p for route in routes for p in (*route.points, *route.head)]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).grown(max(NEAR, HEAD_CLEARANCE) + 1)


def _changed_faults(routes: Mapping[str, Route], changed: Mapping[str, Route],
                    frames: Mapping[str, GroupFrame]) -> tuple[int, int]:
    """How many rule faults (:func:`_faults_count`) the routes break before and after ``changed`` (by key) replace
    theirs, counted among the routes that come near the old or the new ones (no other fault can differ)."""
    region = _region([*changed.values(), *(routes[key] for key in changed)])
    near = [key for key, route in routes.items() if key in changed or _region([route]).overlaps(region)]
    before = {key: routes[key] for key in near}
    return _faults_count(before, frames), _faults_count(before | dict(changed), frames)


def _untangle(routes: dict[str, Route], searched: Sequence[PathEnds], routed: Callable[[PathEnds], Route],
              used: _Usage, budget: SearchBudget, frames: Mapping[str, GroupFrame], allowance: int) -> None:
    """Rip up and route again (as routers of circuit boards do) each pair of searched ``routes`` that cross or
    meet (:func:`_meetings`): the two are taken out of ``used`` and routed again in the other order, each around
    all the rest, and the new pair kept when the routes then break fewer rules (:func:`_changed_faults`, the
    groups' ``frames`` included).  Routing one path at a time leaves a crossing where the first one routed took
    the way the second needed; in the other order the second takes it.  Nothing is done when more than
    :data:`UNTANGLE_PAIRS` pairs meet; at most :data:`UNTANGLE_ROUNDS` rounds and ``allowance`` search states (as
    many as the first routing took: untangling at most doubles a layout's searches), within the layout's
    :data:`SEARCH_BUDGET`."""
    by_key = {p.key: p for p in searched}
    floor = budget.left - allowance
    for _ in range(UNTANGLE_ROUNDS):
        tangled = sorted(pair for pair in _meetings(routes) if pair[0] in by_key and pair[1] in by_key
                         and routes[pair[0]].cells and routes[pair[1]].cells)
        if not tangled or len(tangled) > UNTANGLE_PAIRS:
            return
        better = False
        for first, second in tangled:
            if budget.left <= max(floor, 0):
                return
            kept = {first: routes[first], second: routes[second]}
            used.reset([route.cells for key, route in routes.items() if key not in kept])
            for key in (second, first):
                routes[key] = routed(by_key[key])
            tried = {key: routes[key] for key in kept}
            routes.update(kept)
            before, after = _changed_faults(routes, tried, frames)
            if after < before and all(route.clean for route in tried.values()):
                routes.update(tried)
                better = True
            used.reset([route.cells for route in routes.values()])
        if not better:
            return


class Jog(Struct, frozen=True):
    """A route of one jog across the flow, in the flow's coordinates (across it, along it): where it starts and ends
    across, and the room along the flow its jog may take, from ``low`` to ``high`` (its stubs and arrowhead left
    out), and where the jog runs now (``level``)."""

    start: float
    end: float
    low: float
    level: float
    high: float


def _jog(route: Route, down: bool) -> Jog | None:
    """The :class:`Jog` of a route of one jog across the flow (out of its source along the flow, across, and on into
    its target), with the flow or against it (a reply back to a request's source: laptop to resolver and back, their
    jogs in one channel, crossed where the jogs were not put in order); ``None`` for any other route.  ``down``: the
    flow runs down (else right)."""
    if not route.clean or len(route.points) != 4:
        return None
    (a0, l0), (a1, l1), (a2, l2), (a3, l3) = ((x, y) if down else (y, x) for x, y in route.points)
    if not (a0 == a1 and l1 == l2 and a2 == a3 and a0 != a3 and (l0 < l1 < l3 or l3 < l1 < l0)):
        return None
    if l0 < l3:
        return Jog(a0, a3, l0 + SOURCE_STUB, l1, l3 - TARGET_STUB - ARROW_HEAD)
    return Jog(a0, a3, l3 + TARGET_STUB + ARROW_HEAD, l1, l0 - SOURCE_STUB)


def _with_jog(route: Route, level: float, down: bool) -> Route:
    """``route`` (of one jog: :func:`_jog`) with its jog at ``level`` along the flow."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = route.points
    points = ((x0, y0), (x1, level), (x2, level), (x3, y3)) if down else ((x0, y0), (level, y1), (level, y2), (x3, y3))
    return Route(points, route.head, route.sides, route.clean, route.crowded)


def _faults_count(routes: Mapping[str, Route], frames: Mapping[str, GroupFrame] | None = None) -> int:
    """How many rule faults the routes make among themselves: crossings (each counted), junctions, lines by
    another's head and runs too near; and against the groups' ``frames`` (:mod:`~mechdiagram.layout.route_rules`)."""
    arrows = {key: Arrow(key, route.points, route.head) for key, route in routes.items()}
    count = (len(junctions(arrows)) + len(near_heads(arrows)) + len(parallel_runs(arrows))
             + int(sum(fault.value for fault in crossings(arrows))))
    if frames:
        count += len(frame_faults(arrows, frames))
    return count


#: Two jogs in one slot of a channel keep at least this far apart along their line, in user units: twice
#: :data:`~mechdiagram.layout.sizes.NEAR`.  A fan's two middle jogs, one up and one down from neighbouring ports,
#: shared a slot 14 units apart and read as one line through the fan (a designer's review).
SLOT_GAP = 2 * NEAR


def _slotted(routes: dict[str, Route], ends: Mapping[str, tuple[str, str]], boxes: Mapping[str, Rect],
             walls: Sequence[Rect], down: bool, frames: Mapping[str, GroupFrame], centred: bool = False) -> None:
    """The jogs of the routes between two layers put in slots (ELK Layered's orthogonal routing of the segments
    between layers): routes of one jog (:func:`_jog`) whose runs along the flow share a channel are ordered so
    that none crosses another where an order avoids it (of two routes whose spans across overlap, the order of
    their jogs that crosses less comes first: a dependency), in a topological order of those dependencies; each
    takes the first slot after those it depends on where its jog keeps :data:`SLOT_GAP` from the jogs before and
    after it on that line; the slots are :data:`~mechdiagram.layout.sizes.ROUTE_PITCH` apart (less where the
    channel is short, never under NEAR) about the channel's middle.  A channel's new jogs are kept when they hit
    no box or wall and the routes then break fewer rules (:func:`_changed_faults`, the groups' ``frames``
    included), else its routes stay as they were.  Routing one path at a time leaves such crossings where the
    first routed took the lane a later one needed (the forty-node test graph: five jogs whose spans interleave in
    one channel, which need five slots in one order).  ``centred`` (a spread drawing's: :func:`route_all`) puts the
    jogs of every channel about its middle, a lone one too, wherever the routes then break no more rules: spread, a
    channel is wide, and a jog left beside its source's stub read as the source's (a designer's review of a spread
    lane grid)."""
    jogs = {key: jog for key, route in routes.items() if (jog := _jog(route, down)) is not None}
    channels: list[list[str]] = []  # jogs whose runs along the flow overlap, in one channel
    for key in sorted(jogs, key=lambda k: (jogs[k].low, k)):
        for channel in channels:
            if any(jogs[key].low < jogs[k].high and jogs[k].low < jogs[key].high for k in channel):
                channel.append(key)
                break
        else:
            channels.append([key])
    for channel in channels:
        if len(channel) < 2 and not centred:
            continue
        low = max(jogs[k].low for k in channel)
        high = min(jogs[k].high for k in channel)
        if high - low < NEAR:
            continue
        middle = (low + high) / 2

        def span(key: str) -> tuple[float, float]:
            return min(jogs[key].start, jogs[key].end), max(jogs[key].start, jogs[key].end)

        depends: dict[str, set[str]] = {key: set() for key in channel}  # the jogs that must lie before each
        for first, second in itertools.combinations(channel, 2):
            (a0, a1), (b0, b1) = span(first), span(second)
            if a1 + SLOT_GAP <= b0 or b1 + SLOT_GAP <= a0:
                continue
            pair = {k: routes[k] for k in (first, second)}
            # the two orders, the jogs a pitch apart (nearer, two runs meeting end to end would be a junction in
            # both orders, and neither would win: a break-it review)
            half = ROUTE_PITCH / 2
            ahead = _faults_count({first: _with_jog(pair[first], middle - half, down),
                                   second: _with_jog(pair[second], middle + half, down)})
            behind = _faults_count({first: _with_jog(pair[first], middle + half, down),
                                    second: _with_jog(pair[second], middle - half, down)})
            if ahead < behind:
                depends[second].add(first)
            elif behind < ahead:
                depends[first].add(second)
        slot: dict[str, int] = {}
        waiting = sorted(channel, key=lambda k: (jogs[k].level, k))  # ties in the order the jogs lie now
        while waiting:
            ready = next((k for k in waiting if depends[k] <= slot.keys()), None)
            if ready is None:  # the dependencies go round: no order avoids every crossing
                break
            waiting.remove(ready)
            place = max((slot[k] + 1 for k in depends[ready]), default=0)
            while any(slot[k] == place and not (span(k)[1] + SLOT_GAP <= span(ready)[0] or
                                               span(ready)[1] + SLOT_GAP <= span(k)[0]) for k in slot):
                place += 1
            slot[ready] = place
        if waiting:
            continue
        count = max(slot.values()) + 1
        pitch = min(ROUTE_PITCH, (high - low) / max(count - 1, 1))
        if count > 1 and pitch < NEAR:
            continue
        start = middle - pitch * (count - 1) / 2
        tried = dict(routes)
        for key in channel:
            tried[key] = _with_jog(routes[key], round(start + pitch * slot[key], 1), down)
        hits = any(_segment_hits(seg, rect.grown(CLEARANCE - 0.5)) for key in channel
                   for seg in itertools.pairwise(tried[key].points)
                   for rect in (*(box for name, box in boxes.items() if name not in ends[key]), *walls))
        if not hits:
            now, then = _changed_faults(routes, {key: tried[key] for key in channel}, frames)
            if then < now or (centred and then == now):
                routes.update(tried)


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
               labels: Mapping[str, tuple[float, float]],
               frames: Sequence[Rect] = ()) -> dict[str, tuple[Point, ...]]:
    """The points of each arc (:func:`~mechdiagram.layout.ports.arc_sides`, with its depth) drawn as an arc diagram
    draws it: out of its source's side, along the line of boxes beside them all, and back into its target's side
    (two bends).  An arc runs beyond every arc of its side that it holds (one whose span lies within its own), by
    :data:`ROUTE_PITCH` or, where that one has a label (its size in ``labels``), by room for the label between
    them (:data:`ARC_LABEL_AIR` each side), so that the arcs of a side nest, never cross, and each label lies
    nearer its own arc than the next; an arc whose run would lie along a group's frame (within
    :data:`~mechdiagram.layout.route_rules.FRAME_NEAR`) runs that far beyond it; none is given for an arc whose run
    would pass through a box (the search routes it)."""
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
        offset[p.key] = max((offset[q] + _arc_room(labels.get(q), sides[q][0]) for q in inside),
                            default=_run_label_room(boxes, p, paths, sides, fractions, arcs, labels))
    lines: dict[str, tuple[Point, ...]] = {}
    for p in chosen:
        side = sides[p.key][0]
        vertical = side in ("left", "right")
        a, b = boxes[p.source], boxes[p.dest]
        level = _arc_level(boxes, a, b, side, SOURCE_STUB + offset[p.key])
        start = port(a, side, fractions[(p.key, "source")])
        outward = 1 if side in ("right", "bottom") else -1
        for frame in sorted(frames, key=lambda f: outward * (f.right if vertical else f.bottom)):
            run = (min(a.cy, b.cy), max(a.cy, b.cy)) if vertical else (min(a.cx, b.cx), max(a.cx, b.cx))
            extent = (frame.y, frame.bottom) if vertical else (frame.x, frame.right)
            if run[0] < extent[1] and extent[0] < run[1]:
                for edge in ((frame.x, frame.right) if vertical else (frame.y, frame.bottom)):
                    if abs(level - edge) < FRAME_NEAR:
                        level = edge + outward * FRAME_NEAR
        level = round(level, 1)
        _, base = _head(port(b, side, fractions[(p.key, "dest")]), side)
        corners = ((level, start[1]), (level, base[1])) if vertical else ((start[0], level), (base[0], level))
        points = (start, *corners, base)
        if not any(_segment_hits(s, box.grown(CLEARANCE - 0.5)) for s in itertools.pairwise(points)
                   for key, box in boxes.items() if key not in (p.source, p.dest)):
            lines[p.key] = points
    return lines


def _run_label_room(boxes: dict[str, Box], arc: PathEnds, paths: Sequence[PathEnds],
                    sides: dict[str, tuple[str, str]], fractions: dict[tuple[str, str], float],
                    arcs: dict[str, int], labels: Mapping[str, tuple[float, float]]) -> float:
    """How much further out than :data:`SOURCE_STUB` the innermost ``arc`` of its side runs (user units), so that
    the labels of the straight runs between the boxes it spans (``paths`` with a size in ``labels``), those in the
    half of their boxes towards it (an opposite pair's outer labels, which :mod:`.labels` puts there), stand between
    their runs and the arc with :data:`ARC_LABEL_AIR` to spare: 0 where none reaches that far.  The five-service
    checkout's "paid", an arc 12 units left of the column, ran through "reserve", the label of the run beside it
    (two label rules broken).  Each label is taken at its size and :data:`~mechdiagram.layout.labels.SIDE_GAP` from
    its run."""
    side = sides[arc.key][0]
    vertical = side in ("left", "right")
    outward = 1 if side in ("right", "bottom") else -1
    a, b = boxes[arc.source], boxes[arc.dest]
    low, high = arc_span(boxes, arc, side)
    edge = _arc_level(boxes, a, b, side, 0.0)
    straight = (("bottom", "top"), ("top", "bottom")) if vertical else (("right", "left"), ("left", "right"))

    def on_line(key: str) -> bool:  # a box of the arc's line, within its span
        box = boxes[key]
        along, across = (box.cy, box.cx) if vertical else (box.cx, box.cy)
        return low - EPSILON <= along <= high + EPSILON and abs(across - (a.cx if vertical else a.cy)) < EPSILON

    room = 0.0
    for path in paths:
        if path.key in arcs or path.key not in labels or sides[path.key] not in straight:
            continue
        start = port(boxes[path.source], sides[path.key][0], fractions[(path.key, "source")])
        end = port(boxes[path.dest], sides[path.key][1], fractions[(path.key, "dest")])
        at, other = (start[0], end[0]) if vertical else (start[1], end[1])
        centre = boxes[path.source].cx if vertical else boxes[path.source].cy
        if not (on_line(path.source) and on_line(path.dest)) or abs(other - at) > EPSILON or \
                outward * (at - centre) <= EPSILON:
            continue
        width, height = labels[path.key]
        far = at + outward * (SIDE_GAP + (width if vertical else height))
        room = max(room, outward * (far - edge) + ARC_LABEL_AIR - SOURCE_STUB)
    return room


def _arc_level(boxes: Mapping[str, Rect], a: Rect, b: Rect, side: str, away: float) -> float:
    """Where an arc between boxes ``a`` and ``b`` of one column (``side`` ``"left"`` or ``"right"``) or one row
    (``"top"`` or ``"bottom"``) runs along its line: ``away`` user units beyond every box of that line from one to
    the other, on ``side``."""
    vertical = side in ("left", "right")
    low, high = sorted((a.cy, b.cy) if vertical else (a.cx, b.cx))
    spanned = [box for box in boxes.values() if low - EPSILON <= (box.cy if vertical else box.cx) <= high + EPSILON
               and (box.x < a.right and a.x < box.right if vertical else box.y < a.bottom and a.y < box.bottom)]
    if side == "right":
        return max(box.right for box in spanned) + away
    if side == "left":
        return min(box.x for box in spanned) - away
    if side == "bottom":
        return max(box.bottom for box in spanned) + away
    return min(box.y for box in spanned) - away


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


def route_all(boxes: dict[str, Box], paths: Sequence[PathEnds], against: frozenset[str] = frozenset(),
              walls: Sequence[Rect] = (), flow: str | None = None,
              labels: Mapping[str, tuple[float, float]] | None = None,
              chosen: dict[str, tuple[str, str]] | None = None,
              frames: Mapping[str, GroupFrame] | None = None,
              budget: SearchBudget | None = None, centred: bool = False) -> dict[str, Route]:
    """Route every path between the ``boxes`` (see the module docstring); keys as in ``paths``.
    No route crosses ``walls`` either (the lane names of a grid).  ``labels`` are the sizes (width, height) of
    the paths' label blocks: an arc (:func:`~mechdiagram.layout.ports.arc_sides`) keeps room for the labels of
    the arcs inside it.

    The paths in ``against`` run against the flow of a layered layout (a cycle's closing arrow): their
    sides are the cheapest of all four, found by a first search, so that they go around the figure
    rather than back through it.  In a layered layout flowing ``flow`` the others leave and enter by the
    sides of :func:`~mechdiagram.layout.ports.end_sides`, or those ``chosen`` for them (by path key: the transposed
    grid's, :func:`~mechdiagram.layout.transposed.skip_sides`).  The groups' ``frames`` are not walls, but a route
    is not moved along or across one more than its ends need (:func:`_slotted`).  The searches take their states
    from ``budget`` (a new :class:`SearchBudget` when ``None``); past it, the routes left are straight and
    ``crowded``.  ``centred``: a spread drawing's jogs about their channels' middles (:func:`_slotted`).
    """
    every = dict.fromkeys(SIDES, 0.5)
    budget = SearchBudget() if budget is None else budget
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
                     depths, labels or {}, frames, centred)
    return {p.key: routes[p.key] for p in paths}


def _routed(boxes: dict[str, Box], paths: Sequence[PathEnds], sides: dict[str, tuple[str, str]],
            budget: SearchBudget, walls: Sequence[Rect] = (), against: frozenset[str] = frozenset(),
            arcs: dict[str, int] | None = None,
            labels: Mapping[str, tuple[float, float]] | None = None,
            frames: Mapping[str, GroupFrame] | None = None, centred: bool = False) -> dict[str, Route]:
    """Route ``paths`` in order on the ``sides`` given, their ports spread along each side, clear of ``walls``;
    the ``arcs`` (:func:`~mechdiagram.layout.ports.arc_sides`, with their depths) first, each as an arc diagram
    draws it (:func:`_arc_lines`), those it cannot draw so last, the shortest first; ``centred`` as
    :func:`route_all`'s."""
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
    drawn_arcs = _arc_lines(boxes, paths, sides, fractions, arcs, labels or {}, list((frames or {}).values()))
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

    def routed(p: PathEnds) -> Route:  # one route, on its sides, around what the others use (added to it)
        used.current = p.key
        shared = (p.source, sides[p.key][0]) if on_side[(p.source, sides[p.key][0])] >= \
            on_side[(p.dest, sides[p.key][1])] else (p.dest, sides[p.key][1])
        at = ports[(p.key, "source" if shared[0] == p.source and shared[1] == sides[p.key][0] else "dest")]
        used.lean = (0, at[0]) if shared[1] in ("left", "right") else (1, at[1])
        before = used.saved()
        out_side, in_side = sides[p.key]
        route = _route(grid, boxes, p, {"source": {out_side: fractions[(p.key, "source")]},
                                        "dest": {in_side: fractions[(p.key, "dest")]}}, used, budget)
        if not route.clean and budget.left > 0:  # walled in on the facing sides: let it pick any side
            route = _route(grid, boxes, p, {"source": every, "dest": every}, used, budget)
        elif len(route.points) - 2 > MAX_BENDS and p.key not in against and budget.left > budget.given // 2:
            # Around a box in the way (a skip edge in a row or a column, a diagonal across a row of boxes): out
            # of and into other sides, when that takes fewer bends (a U beside the boxes, an L through a gap,
            # not a detour between them).  Only while half the budget is left: on a dense graph the second
            # searches took the states later routes needed (given-up routes over 200 random graphs: 293 to 495).
            used.restore(before)
            other = _route(grid, boxes, p, {"source": every, "dest": every}, used, budget)
            if other.clean and len(other.points) < len(route.points):
                route = other
            else:
                used.restore(before)
                used.add(list(route.cells))
        return route

    searched = sorted((p for p in paths if p.key not in drawn_arcs),
                      key=lambda p: (p.key in arcs, p.key in against and p.key not in arcs,
                                     span(p) if p.key in arcs else -spread(p)))
    left = budget.left
    for p in searched:
        routes[p.key] = routed(p)
    _untangle(routes, searched, routed, used, budget, frames or {}, left - budget.left)
    ends = {p.key: (p.source, p.dest) for p in paths}
    _arced(routes, ends, boxes, walls, frames or {}, against)
    for down in (True, False):
        _slotted(routes, ends, boxes, walls, down, frames or {}, centred)
        if frames:
            _off_frames(routes, ends, boxes, walls, down, frames)
    return routes


def _arced(routes: dict[str, Route], ends: Mapping[str, tuple[str, str]], boxes: Mapping[str, Rect],
           walls: Sequence[Rect], frames: Mapping[str, GroupFrame], against: frozenset[str]) -> None:
    """Each route of more than :data:`~mechdiagram.layout.route_rules.MAX_BENDS` bends between two boxes of one row
    or one column, with the flow (``against`` are allowed more), drawn again as an arc where that takes fewer: out of
    the middle of a side of its source beside the line, a stub (:data:`~mechdiagram.layout.sizes.SOURCE_STUB`)
    beyond every box between, within a lane grid's band, and into the middle of the same side of its target (two
    bends, as :func:`_arc_lines` draws a layered graph's arcs; a lane grid has none: a skip within a lane ran out of
    its source's foot and into its target's side, three bends).  Either side is tried, below (right of) the line
    first; one is kept where no other route uses that side of either box, the arc keeps
    :data:`~mechdiagram.layout.sizes.CLEARANCE` from every other box and wall (a lane's name), the routes then break
    no more rules (:func:`_changed_faults`) and meet no more often (:func:`_meeting`: a crossing traded for a run
    along another arrow reads worse; a break-it review)."""
    used = collections.Counter((ends[key][end], route.sides[end]) for key, route in routes.items() for end in (0, 1))
    walls_kept_off = [rect.grown(CLEARANCE - 0.5) for rect in walls]
    for key in sorted(routes):
        route = routes[key]
        if key in against or not route.clean or len(route.points) - 2 <= MAX_BENDS:
            continue
        a, b = (boxes[box] for box in ends[key])
        if (a.y, a.bottom) == (b.y, b.bottom):
            sides, vertical = ("bottom", "top"), False
        elif (a.x, a.right) == (b.x, b.right):
            sides, vertical = ("right", "left"), True
        else:
            continue
        others = [*(box.grown(CLEARANCE - 0.5) for name, box in boxes.items() if name not in ends[key]),
                  *walls_kept_off]
        mine = collections.Counter((ends[key][end], route.sides[end]) for end in (0, 1))
        for side in sides:
            if any(used[(box, side)] > mine[(box, side)] for box in ends[key]):  # another route's side
                continue
            level = _arc_level(boxes, a, b, side, SOURCE_STUB)
            start = port(a, side)
            head, base = _head(port(b, side), side)
            corners = ((level, start[1]), (level, base[1])) if vertical else ((start[0], level), (base[0], level))
            points = (start, *corners, base)
            if any(_segment_hits(segment, rect) for segment in itertools.pairwise(points) for rect in others):
                continue
            tried = Route(points, head, (side, side), True, route.crowded)
            now, then = _changed_faults(routes, {key: tried}, frames)
            if then <= now and _meeting(routes | {key: tried}) <= _meeting(routes):
                routes[key] = tried
                used -= mine
                used.update((box, side) for box in ends[key])
                break


def _meeting(routes: Mapping[str, Route]) -> int:
    """How many pairs of ``routes`` meet, touch or run along one another without crossing
    (:func:`~mechdiagram.layout.route_rules.junctions`)."""
    return len(junctions({key: Arrow(key, route.points, route.head) for key, route in routes.items()}))


def _off_frames(routes: dict[str, Route], ends: Mapping[str, tuple[str, str]], boxes: Mapping[str, Rect],
                walls: Sequence[Rect], down: bool, frames: Mapping[str, GroupFrame]) -> None:
    """Each route of one jog (:func:`_jog`) whose jog runs along a group's frame, within
    :data:`~mechdiagram.layout.route_rules.FRAME_NEAR` of a side across the flow, moved to run that far and a unit
    more beyond the side, either way, where that keeps it between its stubs, hits no box (but its ends) or wall and
    the routes then break fewer rules (:func:`_changed_faults`).  An arrow out of a box at the foot of a group turned
    at the end of its stub, two units inside the frame's foot, and ran along it (a new user's compiler pipeline:
    "type errors", in the wide and the middle layout)."""
    for key in sorted(routes):
        jog = _jog(routes[key], down)
        if jog is None:
            continue
        sides = []  # the frames' sides across the flow that the jog runs along
        for frame in frames.values():
            across = (frame.x, frame.right) if down else (frame.y, frame.bottom)
            if min(jog.start, jog.end) < across[1] and max(jog.start, jog.end) > across[0]:
                sides += [edge for edge in ((frame.y, frame.bottom) if down else (frame.x, frame.right))
                          if abs(edge - jog.level) < FRAME_NEAR]
        others = [*(box for name, box in boxes.items() if name not in ends[key]), *walls]
        for moved in (edge + way * (FRAME_NEAR + 1) for edge in sides for way in (1, -1)):
            if not jog.low <= moved <= jog.high:
                continue
            tried = _with_jog(routes[key], round(moved, 1), down)
            if any(_segment_hits(seg, rect.grown(CLEARANCE - 0.5)) for seg in itertools.pairwise(tried.points)
                   for rect in others):
                continue
            now, then = _changed_faults(routes, {key: tried}, frames)
            if then < now:
                routes[key] = tried
                break
