"""Ports: where a route meets a box, on which side and how far along it.

Each route uses the sides of its two boxes that face each other (:func:`facing`); the routes that
share a side are spread along it, in the order of the bearing of where they go, so that two opposite paths
between the same boxes run apart, and a port alone on its side lines up with the other end
(:func:`port_fractions`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import Box, Point, Rect
from mechdiagram.layout.labels import LABEL_GAP
from mechdiagram.layout.sizes import PATH_LABEL_LINE, PORT_PITCH, PORT_SPREAD, PORT_SPREAD_TWO

#: Which way a side's fractions (top to bottom, left to right) run clockwise around its box: 1, or -1 against.
CLOCKWISE = {"top": 1, "right": 1, "bottom": -1, "left": -1}

#: Sides of a box and their outward unit normals.
SIDES: dict[str, tuple[int, int]] = {"right": (1, 0), "left": (-1, 0), "bottom": (0, 1), "top": (0, -1)}


class PathEnds(Struct, frozen=True):
    """A path to route: its key and the keys of its source and target boxes."""

    key: str
    source: str
    dest: str


def port(box: Rect, side: str, fraction: float = 0.5) -> Point:
    """The point ``fraction`` of the way along ``side`` of ``box`` (from its top or left end)."""
    if side in ("left", "right"):
        return (box.x if side == "left" else box.right, box.y + box.h * fraction)
    return (box.x + box.w * fraction, box.y if side == "top" else box.bottom)


def out(point: Point, side: str, distance: float) -> Point:
    """``point`` moved ``distance`` outwards from ``side``."""
    nx, ny = SIDES[side]
    return (point[0] + nx * distance, point[1] + ny * distance)


def side_cost(box: Rect, other: Rect, side: str) -> float:
    """0 for the side that faces ``other`` along the axis they are furthest apart on, more otherwise."""
    dx, dy = other.cx - box.cx, other.cy - box.cy
    facing = ("right" if dx >= 0 else "left") if abs(dx) >= abs(dy) else ("bottom" if dy >= 0 else "top")
    if side == facing:
        return 0.0
    opposite = {"right": "left", "left": "right", "top": "bottom", "bottom": "top"}[facing]
    return 120.0 if side == opposite else 30.0


def port_fractions(boxes: dict[str, Box], paths: Sequence[PathEnds],
                    sides: dict[str, tuple[str, str]],
                    arcs: Mapping[str, int] | None = None) -> dict[tuple[str, str], float]:
    """Where each route meets its box, as a fraction along the side, by (path key, "source" or "dest"):
    the routes on one side share it out, ordered by where they go; a port alone on its side lines up
    with the other end's port, so that the route runs straight.  The ``arcs`` (:func:`arc_sides`, by key, with
    their depths: :func:`arc_depths`) come first on a side, those that go back along it before those that go on,
    so that they nest: an arc that goes back nearer the side's start than one inside it, one that goes on
    further."""
    arcs = arcs or {}
    users: dict[tuple[str, str], list[tuple[float, float, float, str, str]]] = {}
    for number, p in enumerate(paths):
        out_side, in_side = sides[p.key]
        # Routes on one side are ordered by the bearing of their other end (the middle of the side it uses) seen
        # from this side, so that they fan out instead of crossing: of two that leave a left side for boxes up to
        # the left, the one that turns up sooner (to the nearer box) leaves higher.
        ends = (("source", p.source, out_side, p.dest, in_side), ("dest", p.dest, in_side, p.source, out_side))
        first = min((box, side) for _, box, side, _, _ in ends)
        for end, box, side, other, other_side in ends:
            order: tuple[float, float, float]
            if p.key in arcs:
                here, far = _along(side, boxes[box]), _along(side, boxes[other])
                back = far < here  # arcs towards the side's start first, the inner one first; then the others
                order = (-1.0 if back else 1.0e9, -far, arcs[p.key] if back else -arcs[p.key])
            else:
                # Routes between the same two sides keep file order along both; between two sides at right
                # angles (an L) they nest: the first in file order outermost, so first clockwise around one box
                # (the one whose key sorts first) and last around the other.
                turn = float(number)
                if (side in ("left", "right")) != (other_side in ("left", "right")):
                    turn = (number if (box, side) == first else -number) * CLOCKWISE[side]
                order = (_bearing(side, boxes[box], port(boxes[other], other_side)), turn, 0.0)
            users.setdefault((box, side), []).append((*order, p.key, end))
    fractions: dict[tuple[str, str], float] = {}
    for items in users.values():
        items.sort()
        for n, (_, _, _, key, end) in enumerate(items):
            # Spread over the middle half of the side, or 70 % of it for three or more, so that labels of
            # routes side by side have room between them.
            spread = PORT_SPREAD_TWO if len(items) <= 2 else PORT_SPREAD
            fractions[(key, end)] = 0.5 if len(items) == 1 else 0.5 - spread / 2 + spread * n / (len(items) - 1)
    for p in paths:
        out_side, in_side = sides[p.key]
        if {out_side, in_side} not in ({"left", "right"}, {"top", "bottom"}):
            continue
        for end, owner, side, other, other_end, other_side in (
                ("dest", p.dest, in_side, p.source, "source", out_side),
                ("source", p.source, out_side, p.dest, "dest", in_side)):
            if len(users[(owner, side)]) != 1:
                continue
            there = port(boxes[other], other_side, fractions[(p.key, other_end)])
            alone = boxes[owner]
            low, size = (alone.y, alone.h) if side in ("left", "right") else (alone.x, alone.w)
            fraction = (there[1 if side in ("left", "right") else 0] - low) / size
            if 0.15 <= fraction <= 0.85:
                fractions[(p.key, end)] = fraction
            break
    _lined_up(boxes, paths, sides, users, fractions)
    return fractions


#: The least a straightened pair of horizontal runs is brought to apart, in user units: a label line between them
#: with its gap to each (:data:`~mechdiagram.layout.labels.LABEL_GAP`).
PAIR_LABEL_ROOM = PATH_LABEL_LINE + 2 * LABEL_GAP


def _lined_up(boxes: dict[str, Box], paths: Sequence[PathEnds], sides: dict[str, tuple[str, str]],
              users: Mapping[tuple[str, str], Sequence[tuple[float, float, float, str, str]]],
              fractions: dict[tuple[str, str], float]) -> None:
    """Straighten a pair: the two routes of a side that both go straight across to one side of one other box, which
    has more ports, jog where each side spreads its ports as its own count asks (the graph starter's "query" and
    "rows" between a service with three ports on its right and a database with two jogged twice each).  The pair's
    two ports line up with their other ends, or else those other ends with them, where every port moved stays within
    its side's middle 70 % (:data:`~mechdiagram.layout.sizes.PORT_SPREAD`) and every side keeps its order and
    :data:`~mechdiagram.layout.sizes.PORT_PITCH` between neighbours.  Runs across a top or bottom side are vertical,
    their labels beside them: the pair is never brought nearer there (a random graph's pair brought nearer pushed a
    label 60 units off its arrow); across a left or right side, not nearer than :data:`PAIR_LABEL_ROOM` (a break-it
    review: a pair brought to 14 and 20 units apart had a label crossed by the other line)."""
    keys = {p.key: p for p in paths}
    lo, hi = 0.5 - PORT_SPREAD / 2, 0.5 + PORT_SPREAD / 2

    def along(box: str, side: str, fraction: float) -> float:
        return port(boxes[box], side, fraction)[1 if side in ("left", "right") else 0]

    def keeps_order(side_users: Sequence[tuple[float, float, float, str, str]], moved: dict[tuple[str, str], float],
                    size: float) -> bool:
        placed = [moved.get((key, end), fractions[(key, end)]) for *_, key, end in side_users]
        return all(b - a >= PORT_PITCH / size - 1e-9 for a, b in itertools.pairwise(placed))

    for (owner, side), items in users.items():
        if len(items) != 2 or not all(lo - 1e-9 <= fractions[(key, end)] <= hi + 1e-9 for *_, key, end in items):
            continue
        pair = []
        for *_, key, end in items:
            p = keys[key]
            other_end = "dest" if end == "source" else "source"
            pair.append((key, end, p.dest if end == "source" else p.source, other_end,
                         sides[key][1 if end == "source" else 0]))
        there = {(other, other_side) for _, _, other, _, other_side in pair}
        if len(there) != 1 or {side, *(s for *_, s in pair)} not in ({"left", "right"}, {"top", "bottom"}):
            continue
        (other, other_side), = there
        if len(users[(other, other_side)]) <= 2:
            continue
        across = side in ("left", "right")  # horizontal runs
        here, far = boxes[owner], boxes[other]
        size, other_size = (here.h, far.h) if across else (here.w, far.w)
        now = abs(fractions[(pair[1][0], pair[1][1])] - fractions[(pair[0][0], pair[0][1])]) * size
        # The pair's ports moved to their other ends', or those to the pair's: each a fraction of its own side.
        ours = {(key, end): (along(other, other_side, fractions[(key, other_end)]) - along(owner, side, 0.0)) / size
                for key, end, _, other_end, _ in pair}
        theirs = {(key, other_end): (along(owner, side, fractions[(key, end)]) - along(other, other_side, 0.0))
                  / other_size for key, end, _, other_end, _ in pair}
        for moved, side_users, side_size in ((ours, items, size),
                                             (theirs, users[(other, other_side)], other_size)):
            first, second = moved.values()
            spread = abs(second - first) * side_size  # the pair's ports apart, once moved
            if all(lo - 1e-9 <= f <= hi + 1e-9 for f in moved.values()) and \
                    keeps_order(sorted(side_users, key=lambda u: fractions[(u[3], u[4])]), moved, side_size) and \
                    spread >= (min(now, PAIR_LABEL_ROOM) if across else now) - 1e-6:
                fractions.update(moved)
                break


def arc_sides(boxes: dict[str, Box], paths: Sequence[PathEnds], flow: str | None) -> dict[str, tuple[str, str]]:
    """The sides of the arcs of a layered layout (``flow`` ``"down"`` or ``"right"``; none in a lane grid): the
    arrows between two boxes of one column or one row (the same extent across it) with a box of it between
    them, which run around that box beside the line, as the arcs of an arc diagram do.  Two arcs on one side
    cross when their spans interleave (one starts inside the other and ends outside it), so each line's arcs are
    shared between its two sides to leave the fewest such pairs on one side (every sharing is tried up to
    :data:`ARC_SEARCH` arcs, else each arc in turn takes the side where it interleaves with fewer), ties to the
    first side (right of a column, below a row).  Both ends of an arc use its side."""
    if flow not in ("down", "right"):
        return {}
    lines: dict[tuple[bool, float, float], list[tuple[float, float, str]]] = {}
    for p in paths:
        a, b = boxes[p.source], boxes[p.dest]
        for down in (True, False):
            across = (a.x, a.right) if down else (a.y, a.bottom)
            if across != ((b.x, b.right) if down else (b.y, b.bottom)):
                continue
            start, end = sorted((a.cy, b.cy) if down else (a.cx, b.cx))
            if any(key not in (p.source, p.dest) and start < (box.cy if down else box.cx) < end
                   and ((box.x < a.right and a.x < box.right) if down else (box.y < a.bottom and a.y < box.bottom))
                   for key, box in boxes.items()):
                lines.setdefault((down, *across), []).append((start, end, p.key))
    sides: dict[str, tuple[str, str]] = {}
    for (down, _, _), arcs in lines.items():
        first, second = ("right", "left") if down else ("bottom", "top")
        def clash(s: tuple[float, float, str], t: tuple[float, float, str]) -> bool:
            return s[0] < t[0] < s[1] < t[1] or t[0] < s[0] < t[1] < s[1]

        pairs = [(i, j) for i, j in itertools.combinations(range(len(arcs)), 2) if clash(arcs[i], arcs[j])]
        if len(arcs) <= ARC_SEARCH:
            best = min(range(2 ** len(arcs)),
                       key=lambda mask: (sum((mask >> i & 1) == (mask >> j & 1) for i, j in pairs), mask))
            chosen = [bool(best >> i & 1) for i in range(len(arcs))]
        else:
            chosen = []
            for i, arc in enumerate(arcs):
                on_second = sum(clash(arc, arcs[j]) for j in range(i) if chosen[j])
                on_first = sum(clash(arc, arcs[j]) for j in range(i) if not chosen[j])
                chosen.append(on_second < on_first)
        for (_, _, key), other in zip(arcs, chosen, strict=True):
            side = second if other else first
            sides[key] = (side, side)
    return sides


def arc_span(boxes: dict[str, Box], path: PathEnds, side: str) -> tuple[float, float]:
    """Where an arc on ``side`` starts and ends along its line: its boxes' centres, the smaller first."""
    a, b = boxes[path.source], boxes[path.dest]
    low, high = sorted((a.cy, b.cy) if side in ("left", "right") else (a.cx, b.cx))
    return low, high


def arc_depths(boxes: dict[str, Box], paths: Sequence[PathEnds],
               sides: Mapping[str, tuple[str, str]]) -> dict[str, int]:
    """How deep each arc of ``sides`` (:func:`arc_sides`) lies: 0 when no arc of its side and line lies inside it,
    else one more than the deepest that does (one whose span is within its own; of two equal spans, the one whose
    key sorts first is inside).  An arc runs that many pitches further out than the innermost."""
    chosen = {p.key: p for p in paths if p.key in sides}
    spans = {key: arc_span(boxes, p, sides[key][0]) for key, p in chosen.items()}
    line = {key: (sides[key][0], boxes[p.source].x if sides[key][0] in ("left", "right") else boxes[p.source].y)
            for key, p in chosen.items()}
    depths: dict[str, int] = {}
    for key in sorted(chosen, key=lambda k: (spans[k][1] - spans[k][0], k)):  # the inner ones first
        low, high = spans[key]
        inside = [depths[k] for k in depths if line[k] == line[key] and low <= spans[k][0] and spans[k][1] <= high]
        depths[key] = 1 + max(inside) if inside else 0
    return depths


#: The most arcs of one line whose every sharing between the two sides :func:`arc_sides` tries (2 ** n).
ARC_SEARCH = 10


def ports_length(count: int) -> float:
    """The length of a box side that ``count`` ports share :data:`~mechdiagram.layout.sizes.PORT_PITCH` apart
    (spread over PORT_SPREAD of it, or PORT_SPREAD_TWO for two: :func:`port_fractions`)."""
    if count < 2:
        return 0.0
    return math.ceil((count - 1) * PORT_PITCH / (PORT_SPREAD_TWO if count == 2 else PORT_SPREAD))


def port_room(boxes: dict[str, Box], paths: Sequence[PathEnds],
              flow: str | None = None) -> dict[str, tuple[float, float]]:
    """The boxes too small for their ports: by key, the least height and width that give the routes on each of
    its sides (:func:`end_sides` in a layout flowing ``flow``) PORT_PITCH between their ports."""
    counts: dict[tuple[str, str], int] = {}
    for p in paths:
        out_side, in_side = end_sides(boxes[p.source], boxes[p.dest], flow)
        for key, side in ((p.source, out_side), (p.dest, in_side)):
            counts[(key, side)] = counts.get((key, side), 0) + 1
    room: dict[str, tuple[float, float]] = {}
    for key, box in boxes.items():
        height = ports_length(max(counts.get((key, "left"), 0), counts.get((key, "right"), 0)))
        width = ports_length(max(counts.get((key, "top"), 0), counts.get((key, "bottom"), 0)))
        if height > box.h or width > box.w:
            room[key] = (height, width)
    return room


#: The sides an arrow with the flow of a layered layout leaves and enters by (ELK Layered's, dagre's): the
#: next layer's side, whatever the rows between them, so that a fan-out leaves one side as a fan.
FLOW_SIDES = {"right": ("right", "left"), "down": ("bottom", "top")}


def end_sides(source: Rect, dest: Rect, flow: str | None = None) -> tuple[str, str]:
    """The sides a route leaves ``source`` and enters ``dest`` by: in a layered layout flowing ``flow`` (``"right"``
    or ``"down"``), an arrow to a later layer takes :data:`FLOW_SIDES`; any other the sides that face each other
    (:func:`facing`)."""
    if (flow == "right" and dest.x >= source.right) or (flow == "down" and dest.y >= source.bottom):
        return FLOW_SIDES[flow]
    return facing(source, dest)


def facing(source: Rect, dest: Rect) -> tuple[str, str]:
    """The sides of ``source`` and ``dest`` that face each other (see :func:`side_cost`)."""
    return (min(SIDES, key=lambda side: side_cost(source, dest, side)),
            min(SIDES, key=lambda side: side_cost(dest, source, side)))


def _bearing(side: str, box: Rect, point: Point) -> float:
    """The angle (radians) at which ``point`` lies seen from the middle of ``box``'s ``side``: from the side's
    start (top or left end, -pi) through straight out (0) to its end (pi)."""
    here = port(box, side)
    nx, ny = SIDES[side]
    dx, dy = point[0] - here[0], point[1] - here[1]
    along = dy if side in ("left", "right") else dx
    return math.atan2(along, dx * nx + dy * ny)


def _along(side: str, other: Rect) -> float:
    """Where ``other`` lies along ``side``'s direction: routes to boxes further along go further along."""
    return other.cy if side in ("left", "right") else other.cx
