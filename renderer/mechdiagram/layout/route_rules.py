"""The rules a laid-out figure's arrows and labels keep so that they read right, measured on a
:class:`~mechdiagram.layout.Diagram` (the drawing's own geometry, in SVG user units).

Each rule is a function returning :class:`Fault` records; :func:`faults` runs them all.  The layout's
``route`` warnings (:mod:`.checks`) report every fault that remains, wide and narrow, including those a
``layout.positions`` override forces.  The rules, and where they come from (issue 27: a designer's review of
false junctions, crossings and labels that name the wrong arrow; the anchors are D2 with dagre, ELK Layered
and Mermaid):

* :func:`junctions`: two arrows share a stretch, or touch without crossing (one runs into the other's line,
  two meet end to end, or run on one line with a gap under :data:`~mechdiagram.layout.sizes.NEAR` between their
  ends), except at a port both use: the eye reads them as one line or a join.
* :func:`near_heads`: an arrow passes within :data:`HEAD_CLEARANCE` of another's arrowhead: the head reads as
  the passing line's.
* :func:`parallel_runs`: two arrows run side by side closer than :data:`~mechdiagram.layout.sizes.NEAR`.
* :func:`crossings`: two arrows cross.
* :func:`bends`: an arrow bends more than :data:`MAX_BENDS` (one jog between neighbouring ranks), an arrow
  back against the flow more than :data:`MAX_BACK_BENDS` (around the figure and in).
* :func:`label_faults`: a path label more than :data:`LABEL_REACH` from its own arrow, nearer another arrow
  than its own, or crossed by a line.
* :func:`group_faults` (a figure with ``groups``): an arrow runs along a group's frame (within
  :data:`FRAME_NEAR`), crosses a frame's label, or crosses a frame's edge more often than its ends ask (one
  crossing into or out of a group, none between two of its members); a path label on a frame's edge or label.

An arrow's line is its route (``Arrow.points``, from the source's port to the arrowhead's base) and the
arrowhead's axis to its tip.

The sequence view's messages keep the same rules (issue 28), measured among the messages of a scenario's drawing
(:func:`message_faults`); its lifelines, which every message crosses by nature, are not arrows.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence

from msgspec import Struct

from mechdiagram.layout.geometry import EPSILON, Arrow, GroupFrame, Layout, Point, Rect
from mechdiagram.layout.sizes import HEAD_CLEARANCE, LABEL_REACH, NEAR

#: Most bends of an arrow with the flow (or across it): out, one jog, in (ELK Layered's orthogonal edges).
MAX_BENDS = 2
#: Most bends of an arrow against the flow: out, around the figure's side, and in.
MAX_BACK_BENDS = 4

#: The kinds of :class:`Fault`, in the order a finding lists them.
KINDS = ("junction", "head", "parallel", "crossing", "bends", "label-far", "label-nearer", "label-crossed",
         "frame-along", "frame-label", "frame-weave", "label-frame")
#: How near an arrow may run beside a group's frame, in user units, before it reads as the frame's line.
FRAME_NEAR = 6.0

Segment = tuple[Point, Point]


class Fault(Struct, frozen=True):
    """One broken rule: the path ``key`` it is reported at (of two arrows, the later in the figure's order),
    its ``kind`` (one of :data:`KINDS`), the ``other`` path involved (``""`` for none) and the measure:
    a distance in user units, a count of bends or of crossings."""

    key: str
    kind: str
    other: str = ""
    value: float = 0.0


def line(arrow: Arrow) -> tuple[Point, ...]:
    """The arrow's line: its route's points, then the arrowhead's tip."""
    tip = arrow.head[0]
    return (*arrow.points, tip) if arrow.points and arrow.points[-1] != tip else arrow.points


def _segments(points: Sequence[Point]) -> list[Segment]:
    return [(a, b) for a, b in itertools.pairwise(points) if a != b]


def _horizontal(s: Segment) -> bool:
    return abs(s[0][1] - s[1][1]) <= EPSILON


def _extent(s: Segment) -> Rect:
    (ax, ay), (bx, by) = s
    return Rect(min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay))


def _near(a: float, b: float) -> bool:
    return abs(a - b) <= EPSILON


def _same(p: Point, q: Point) -> bool:
    return _near(p[0], q[0]) and _near(p[1], q[1])


def _pairs(arrows: dict[str, Arrow], reach: float) -> Iterator[tuple[str, str, Segment, Segment, bool, bool]]:
    """Every pair of segments of two different arrows whose extents come within ``reach``: (earlier key, later
    key, its segment, the later's segment, whether the first is its arrow's first or last, the same for the
    second). Segments are swept in order of their left end, so that far-apart ones are never compared."""
    order = {key: n for n, key in enumerate(arrows)}
    items: list[tuple[float, float, str, Segment, bool]] = []
    for key, arrow in arrows.items():
        segs = _segments(line(arrow))
        for n, seg in enumerate(segs):
            box = _extent(seg)
            items.append((box.x, box.right, key, seg, n in (0, len(segs) - 1)))
    items.sort(key=lambda item: item[0])
    for i, (_, x1, key, seg, end) in enumerate(items):
        box = _extent(seg)
        for y0, _, other, oseg, oend in items[i + 1:]:
            if y0 > x1 + reach:
                break
            if other == key:
                continue
            obox = _extent(oseg)
            if obox.y > box.bottom + reach or box.y > obox.bottom + reach:
                continue
            if order[key] < order[other]:
                yield key, other, seg, oseg, end, oend
            else:
                yield other, key, oseg, seg, oend, end


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(max(a0, a1), max(b0, b1)) - max(min(a0, a1), min(b0, b1))


def _meeting(s: Segment, t: Segment) -> Point | None:
    """Where a horizontal and a vertical segment meet (on either's ends included), or ``None``."""
    h, v = (s, t) if _horizontal(s) else (t, s)
    if _horizontal(v) or not _horizontal(h):
        return None
    y, x = h[0][1], v[0][0]
    inside_h = min(h[0][0], h[1][0]) - EPSILON <= x <= max(h[0][0], h[1][0]) + EPSILON
    inside_v = min(v[0][1], v[1][1]) - EPSILON <= y <= max(v[0][1], v[1][1]) + EPSILON
    return (x, y) if inside_h and inside_v else None


def _interior(p: Point, s: Segment) -> bool:
    return not _same(p, s[0]) and not _same(p, s[1])


def _ports(arrow: Arrow) -> tuple[Point, Point]:
    return line(arrow)[0], line(arrow)[-1]


def junctions(arrows: dict[str, Arrow]) -> list[Fault]:
    """Two arrows on one line for a stretch, or meeting where neither crosses the other (a corner or an end on
    the other's line, two ends together), except at a port both use, or on one line with a gap narrower than
    :data:`~mechdiagram.layout.sizes.NEAR` between their ends (a new user's "Pod on node-1" ran up the line of
    "POST Deployment" 10 units from its end, and read as its continuation): one fault per pair, at the later,
    its ``value`` the gap (0 where they touch)."""
    found: dict[tuple[str, str], Fault] = {}
    gaps: dict[tuple[str, str], float] = {}  # said only of a pair that does not touch
    for first, second, s, t, _, _ in _pairs(arrows, NEAR):
        if (first, second) in found:
            continue
        touch: Point | None = None
        shared = False  # on one line for a stretch: a fault even where both start at one port
        if _horizontal(s) == _horizontal(t):  # parallel: on one line, overlapping, end to end or nearly
            axis = 1 if _horizontal(s) else 0
            if _near(s[0][axis], t[0][axis]):
                overlap = _overlap(s[0][1 - axis], s[1][1 - axis], t[0][1 - axis], t[1][1 - axis])
                shared = overlap > EPSILON
                if not shared and overlap >= -EPSILON:  # end to end
                    touch = next((p for p in s if any(_same(p, q) for q in t)), s[0])
                elif not shared and overlap > EPSILON - NEAR:  # a gap narrower than NEAR: one broken line
                    gap = round(-overlap, 1)
                    gaps[(first, second)] = min(gap, gaps.get((first, second), gap))
                    continue
        else:
            meet = _meeting(s, t)
            if meet is not None and not (_interior(meet, s) and _interior(meet, t)):
                touch = meet
        if shared:
            found[(first, second)] = Fault(second, "junction", first)
            continue
        if touch is None:
            continue
        shared_port = any(_same(touch, p) and _same(touch, q) for p in _ports(arrows[first])
                          for q in _ports(arrows[second]))
        if not shared_port:
            found[(first, second)] = Fault(second, "junction", first)
    for (first, second), gap in gaps.items():
        found.setdefault((first, second), Fault(second, "junction", first, gap))
    return list(found.values())


def crossings(arrows: dict[str, Arrow]) -> list[Fault]:
    """Two arrows crossing (a run passing through the inside of the other's run), one fault per pair at the
    later, its ``value`` how often they cross."""
    counts: dict[tuple[str, str], int] = {}
    for first, second, s, t, _, _ in _pairs(arrows, EPSILON):
        meet = _meeting(s, t)
        if meet is not None and _interior(meet, s) and _interior(meet, t):
            counts[(first, second)] = counts.get((first, second), 0) + 1
    return [Fault(second, "crossing", first, float(n)) for (first, second), n in counts.items()]


def crossing_count(arrows: dict[str, Arrow]) -> int:
    """How many times the figure's arrows cross one another (:func:`crossings`, summed)."""
    return int(sum(fault.value for fault in crossings(arrows)))


def _point_segment(p: Point, s: Segment) -> float:
    (ax, ay), (bx, by) = s
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    ex, ey = ax + t * dx - p[0], ay + t * dy - p[1]
    return float((ex * ex + ey * ey) ** 0.5)


def _segments_cross(s: Segment, t: Segment) -> bool:
    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = side(t[0], t[1], s[0]), side(t[0], t[1], s[1])
    d3, d4 = side(s[0], s[1], t[0]), side(s[0], s[1], t[1])
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0))


def segment_distance(s: Segment, t: Segment) -> float:
    """The least distance between two segments (0 when they cross)."""
    if _segments_cross(s, t):
        return 0.0
    return min(_point_segment(s[0], t), _point_segment(s[1], t), _point_segment(t[0], s), _point_segment(t[1], s))


def _head_edges(arrow: Arrow) -> list[Segment]:
    a, b, c = arrow.head
    return [(a, b), (b, c), (c, a)]


def near_heads(arrows: dict[str, Arrow]) -> list[Fault]:
    """An arrow whose line passes within :data:`HEAD_CLEARANCE` of another arrow's head (its triangle), one
    fault per (passing arrow, head), at the passing arrow; ``value`` the least distance."""
    found: list[Fault] = []
    for key, arrow in arrows.items():
        edges = _head_edges(arrow)
        zone = arrow.head_box.grown(HEAD_CLEARANCE)
        for other, passing in arrows.items():
            if other == key:
                continue
            near = [segment_distance(s, e) for s in _segments(line(passing))
                    if zone.overlaps(_extent(s).grown(EPSILON)) for e in edges]
            if near and min(near) < HEAD_CLEARANCE - EPSILON:
                found.append(Fault(other, "head", key, round(min(near), 1)))
    return found


def parallel_runs(arrows: dict[str, Arrow]) -> list[Fault]:
    """Two arrows with runs side by side (parallel, overlapping along their length) closer than
    :data:`~mechdiagram.layout.sizes.NEAR` but not on one line (that is a :func:`junctions` fault): one fault
    per pair at the later, ``value`` their least distance."""
    found: dict[tuple[str, str], float] = {}
    for first, second, s, t, _, _ in _pairs(arrows, NEAR):
        if _horizontal(s) != _horizontal(t):
            continue
        axis = 1 if _horizontal(s) else 0
        gap = abs(s[0][axis] - t[0][axis])
        if EPSILON < gap < NEAR - EPSILON and \
                _overlap(s[0][1 - axis], s[1][1 - axis], t[0][1 - axis], t[1][1 - axis]) > EPSILON:
            found[(first, second)] = min(gap, found.get((first, second), gap))
    return [Fault(second, "parallel", first, round(gap, 1)) for (first, second), gap in found.items()]


def bends(arrows: dict[str, Arrow], back: frozenset[str] = frozenset()) -> list[Fault]:
    """An arrow with more than :data:`MAX_BENDS` bends, or more than :data:`MAX_BACK_BENDS` for one of ``back``
    (the arrows against the flow): ``value`` its bends."""
    found = []
    for key, arrow in arrows.items():
        count = max(0, len(_simple(line(arrow))) - 2)
        if count > (MAX_BACK_BENDS if key in back else MAX_BENDS):
            found.append(Fault(key, "bends", "", float(count)))
    return found


def _simple(points: Sequence[Point]) -> list[Point]:
    """``points`` without repeats and without the middle point of three on one line."""
    out: list[Point] = []
    for p in points:
        if out and _same(out[-1], p):
            continue
        if len(out) >= 2 and ((_near(out[-2][0], out[-1][0]) and _near(out[-1][0], p[0]))
                              or (_near(out[-2][1], out[-1][1]) and _near(out[-1][1], p[1]))):
            out[-1] = p
            continue
        out.append(p)
    return out


def block_distance(block: Rect, points: Sequence[Point]) -> float:
    """The least distance from a label's block to a line through ``points`` (0 when the line touches it)."""
    best = float("inf")
    for (ax, ay), (bx, by) in _segments(points):
        dx = max(min(ax, bx) - block.right, block.x - max(ax, bx), 0.0)
        dy = max(min(ay, by) - block.bottom, block.y - max(ay, by), 0.0)
        best = min(best, (dx * dx + dy * dy) ** 0.5)
    return best


def label_faults(arrows: dict[str, Arrow]) -> list[Fault]:
    """A path label more than :data:`LABEL_REACH` from its own arrow, line or head (``value`` the distance),
    nearer another arrow than its own (``other`` that arrow), or crossed by a line (its own or another's; ``other`` the
    line's arrow), each at the label's path."""
    found = []
    lines = {key: line(arrow) for key, arrow in arrows.items()}

    def gap(block: Rect, key: str) -> float:  # to the arrow's line or its head, whichever is nearer
        return min(block_distance(block, lines[key]), block_distance(block, (*arrows[key].head, arrows[key].head[0])))

    for key, arrow in arrows.items():
        block = arrow.label_box
        if block is None or not arrow.label_lines:
            continue
        own = gap(block, key)
        if own > LABEL_REACH + EPSILON:
            found.append(Fault(key, "label-far", "", round(own, 1)))
        nearest = min(((gap(block, other), other) for other in lines if other != key), default=None)
        if nearest is not None and nearest[0] < own - EPSILON:
            found.append(Fault(key, "label-nearer", nearest[1], round(nearest[0], 1)))
        crossing = next((other for other, points in lines.items()
                         if any(block.crossed_by(a, b) for a, b in _segments(points))), None)
        if crossing is not None:
            found.append(Fault(key, "label-crossed", crossing))
    return found


def faults(arrows: dict[str, Arrow], back: frozenset[str] = frozenset()) -> list[Fault]:
    """Every rule's faults over ``arrows`` (``back``: the arrows against the flow), in :data:`KINDS` order."""
    return [*junctions(arrows), *near_heads(arrows), *parallel_runs(arrows), *crossings(arrows),
            *bends(arrows, back), *label_faults(arrows)]


def _frame_sides(frame: Rect) -> list[Segment]:
    """The four sides of a group's frame as segments."""
    return [((frame.x, frame.y), (frame.right, frame.y)), ((frame.x, frame.bottom), (frame.right, frame.bottom)),
            ((frame.x, frame.y), (frame.x, frame.bottom)), ((frame.right, frame.y), (frame.right, frame.bottom))]


def _inside(p: Point, frame: Rect) -> bool:
    return frame.x < p[0] < frame.right and frame.y < p[1] < frame.bottom


def frame_faults(arrows: dict[str, Arrow], frames: Mapping[str, GroupFrame]) -> list[Fault]:
    """:func:`group_faults` against drawn groups' ``frames``, each with its label's block where it has one."""
    return group_faults(arrows, dict(frames), {key: frame.label_box for key, frame in frames.items()
                                               if frame.label_box is not None})


def group_faults(arrows: dict[str, Arrow], frames: dict[str, Rect], labels: dict[str, Rect]) -> list[Fault]:
    """The arrows' faults against the groups' ``frames`` (and their ``labels``' blocks), by group key: see the
    module docstring (kinds ``frame-along``, ``frame-label``, ``frame-weave``, ``label-frame``); ``other`` is the
    group's key, ``value`` the distance or the number of crossings."""
    found: list[Fault] = []
    for key, arrow in arrows.items():
        points = line(arrow)
        segments = _segments(points)
        for group, frame in frames.items():
            sides = _frame_sides(frame)
            along = [segment_distance(s, side) for s in segments for side in sides
                     if _horizontal(s) == _horizontal(side) and segment_distance(s, side) < FRAME_NEAR
                     and _overlap(*_span(s), *_span(side)) > FRAME_NEAR]
            if along:
                found.append(Fault(key, "frame-along", group, round(min(along), 1)))
            ends = (_inside(points[0], frame), _inside(points[-1], frame)) if points else (False, False)
            crossed = sum(_segments_cross(s, side) for s in segments for side in sides)
            if crossed > (1 if ends[0] != ends[1] else 0):
                found.append(Fault(key, "frame-weave", group, float(crossed)))
            block = labels.get(group)
            if block is not None and any(block.grown(1.0).crossed_by(a, b) for a, b in segments):
                found.append(Fault(key, "frame-label", group))
            if arrow.label_box is not None and (
                    (block is not None and arrow.label_box.overlaps(block))
                    or any(arrow.label_box.crossed_by(a, b) for a, b in sides)):
                found.append(Fault(key, "label-frame", group))
    return found


def _span(s: Segment) -> tuple[float, float]:
    """A horizontal segment's x extent, a vertical one's y extent, low first."""
    i = 0 if _horizontal(s) else 1
    return (min(s[0][i], s[1][i]), max(s[0][i], s[1][i]))


class MessageFault(Struct, frozen=True):
    """A broken rule among a sequence's messages: ``fault`` (its ``key`` and ``other`` are path keys), at the
    message drawn in step ``step`` (1-based; the first step that draws it, when one path is drawn in several),
    with ``other_step`` the other message's."""

    fault: Fault
    step: int
    other_step: int = 0


#: Messages whose extents (line, head and label) are further apart than this, one above the other, break no rule
#: together: every rule measures within NEAR (12) units or less.
MESSAGE_REACH = max(NEAR, HEAD_CLEARANCE, LABEL_REACH) + 1.0


def message_faults(layout: Layout) -> list[MessageFault]:
    """Every rule's faults (:func:`faults`) among the messages of a sequence ``layout`` (its rows): each message
    is an arrow of its own, a path drawn in several steps once for each; a self-message's loop may bend twice
    (out, down and back), as any arrow.  Messages are measured in runs, each message within
    :data:`MESSAGE_REACH` of the run above it (a sequence's messages are stacked, each in its band of a row: a
    row's messages make a run, and a thirty-step sequence is measured in linear time).  Empty for another view's
    layout."""
    drawn: list[tuple[str, Arrow, float, float, str, int]] = []
    for row in layout.rows:
        for index, message in enumerate(row.messages):
            arrow = message.arrow
            ys = [y for _, y in (*arrow.points, *arrow.head)]
            if arrow.label_box is not None:
                ys += [arrow.label_box.y, arrow.label_box.bottom]
            drawn.append((f"{row.number}/{index}", arrow, min(ys), max(ys), message.key, row.number))
    drawn.sort(key=lambda item: item[2])
    where = {name: (key, step) for name, _, _, _, key, step in drawn}
    # Runs of messages each within MESSAGE_REACH of the run before it: measured together, apart from the others.
    runs: list[dict[str, Arrow]] = []
    reach = -float("inf")
    for name, arrow, top, bottom, _, _ in drawn:
        if not runs or top > reach + MESSAGE_REACH:
            runs.append({})
        runs[-1][name] = arrow  # in the drawing's order, top to bottom
        reach = max(reach, bottom)
    found: dict[tuple[str, str, str], MessageFault] = {}
    for run in runs:
        # A message alone in its run can break only the rules of one arrow: its bends and its label's distance.
        for fault in faults(run) if len(run) > 1 else [*bends(run), *label_faults(run)]:
            key, step = where[fault.key]
            other_key, other_step = where[fault.other] if fault.other else ("", 0)
            found.setdefault((key, fault.kind, other_key),
                             MessageFault(Fault(key, fault.kind, other_key, fault.value), step, other_step))
    return list(found.values())
