"""Edge routing of the narrow variant, where every box sits in one column (:func:`placement.place`
with ``lanes_on_top``).

A path between two boxes next to each other in the column runs straight down (or up) between them.
Every other path leaves its source's right side, runs down or up a vertical *track* to the right of
the column, and enters its target's right side.  Tracks are assigned like intervals on a line
(greedy, shortest span first), so paths whose vertical spans overlap get tracks apart and the figure
is only as wide as the busiest stretch needs.  No route
can cross a box: the column is the only place boxes are.  A track's label sits right beside it;
tracks are placed nearest the column first, each as close as it can be while its line and its
label keep clear of the tracks, labels and port stubs already placed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .geometry import Box, Point, Rect
from .labels import FIRST_BASELINE, PlacedLabel, label_size
from .routing import PathEnds, Route, _head
from .sizes import CLEARANCE

#: Distance between neighbouring tracks, and from the column to the first track, in user units.
TRACK_GAP = 12.0


def _spread(box: Box, count: int, index: int) -> float:
    """The y of port ``index`` of ``count`` ports on a box's right side, spread evenly."""
    return round(box.y + box.h * (index + 1) / (count + 1), 1)


def _clear(x: float, span: tuple[float, float], label: Rect | None, taken: list[tuple[float, tuple[float, float]]],
           blocks: list[Rect], stubs: list[tuple[float, float, float]]) -> bool:
    """Whether a track at ``x`` over ``span`` with its ``label`` keeps clear of the tracks and labels
    already placed, and the horizontal ``stubs`` (y, x0, x1) of every route."""
    y0, y1 = span
    for tx, (a, b) in taken:
        if a - CLEARANCE < y1 and y0 < b + CLEARANCE and abs(tx - x) < TRACK_GAP:
            return False
        if label is not None and label.x - 2 < tx < label.right + 2 and a < label.bottom and label.y < b:
            return False
    line = Rect(x - TRACK_GAP / 2, y0, TRACK_GAP, y1 - y0)
    if any(line.overlaps(block) for block in blocks):
        return False
    if label is not None:
        if any(label.grown(3).overlaps(block) for block in blocks):
            return False
        if any(label.y - 2 < y < label.bottom + 2 and x0 < label.right and label.x < x1 for y, x0, x1 in stubs):
            return False
    return True


def stacked_routes(boxes: dict[str, Box], paths: Sequence[PathEnds],
                   labels: dict[str, tuple[str, ...]]) -> tuple[dict[str, Route], dict[str, PlacedLabel]]:
    """Routes of ``paths`` between boxes stacked in one column (see the module docstring), and the
    placed ``labels`` of the routes that run on a track: each beside its own track, clear of the
    other tracks, labels and stubs."""
    order = sorted(boxes, key=lambda key: boxes[key].y)
    position = {key: i for i, key in enumerate(order)}
    routes: dict[str, Route] = {}
    long: list[PathEnds] = []
    pairs: dict[frozenset[str], list[str]] = {}
    for path in paths:
        if abs(position[path.source] - position[path.dest]) == 1:
            pairs.setdefault(frozenset((path.source, path.dest)), []).append(path.key)
        else:
            long.append(path)
    for path in paths:
        a, b = boxes[path.source], boxes[path.dest]
        if abs(position[path.source] - position[path.dest]) != 1:
            continue
        # Paths between the same two neighbours (both ways) share the gap, spread evenly across it.
        group = pairs[frozenset((path.source, path.dest))]
        left, width = max(a.x, b.x), min(a.right, b.right) - max(a.x, b.x)
        x = round(left + width * (group.index(path.key) + 1) / (len(group) + 1), 1)
        down = b.y > a.y
        sides = ("bottom", "top") if down else ("top", "bottom")
        head, base = _head((x, b.y if down else b.bottom), sides[1])
        routes[path.key] = Route(((x, a.bottom if down else a.y), base), head, sides, True)
    # Ports on the right side, one per route end, spread in the order the routes' other ends come.
    ends: dict[str, list[tuple[float, str, str]]] = {}
    for path in long:
        ends.setdefault(path.source, []).append((boxes[path.dest].y, path.key, "out"))
        ends.setdefault(path.dest, []).append((boxes[path.source].y, path.key, "in"))
    port_y: dict[tuple[str, str], float] = {}
    for key, items in ends.items():
        for index, (_, path_key, role) in enumerate(sorted(items)):
            port_y[(path_key, role)] = _spread(boxes[key], len(items), index)
    right = max((box.right for box in boxes.values()), default=0.0)
    first = right + TRACK_GAP + CLEARANCE
    stubs = [(port_y[(p.key, role)], right, right + 1e6) for p in long for role in ("out", "in")]
    taken: list[tuple[float, tuple[float, float]]] = []
    blocks: list[Rect] = []
    placed: dict[str, PlacedLabel] = {}
    for path in sorted(long, key=lambda p: (abs(position[p.source] - position[p.dest]), position[p.source], p.key)):
        y0, y1 = sorted((port_y[(path.key, "out")], port_y[(path.key, "in")]))
        span = (y0, y1)
        text = labels.get(path.key, ())
        w, h = label_size(text) if text else (0.0, 0.0)
        own = [(y, x0, x1) for y, x0, x1 in stubs if y not in span]
        candidates = sorted({first, *(tx + TRACK_GAP for tx, _ in taken), *(b.right + 6 for b in blocks)})
        x, label = candidates[-1], None
        for candidate in (c for c in candidates if c >= first):
            trial = None
            if text:
                for centre in ((y0 + y1) / 2, y0 + h, y1 - h):
                    box = Rect(round(candidate + 6, 1), round(centre - h / 2, 1), round(w, 1), h)
                    if _clear(candidate, span, box, taken, blocks, own):
                        trial = box
                        break
                if trial is None:
                    continue
            elif not _clear(candidate, span, None, taken, blocks, own):
                continue
            x, label = candidate, trial
            break
        else:
            x = max([first, *(tx + TRACK_GAP for tx, _ in taken), *(b.right + 6 for b in blocks)])
            if text:
                label = Rect(round(x + 6, 1), round((y0 + y1 - h) / 2, 1), round(w, 1), h)
        x = round(x, 1)
        taken.append((x, span))
        if label is not None:
            blocks.append(label)
            placed[path.key] = PlacedLabel((label.cx, label.y + FIRST_BASELINE), label, True)
        source, dest = boxes[path.source], boxes[path.dest]
        start: Point = (source.right, port_y[(path.key, "out")])
        port: Point = (dest.right, port_y[(path.key, "in")])
        head, base = _head(port, "right")
        routes[path.key] = Route((start, (x, start[1]), (x, base[1]), base), head, ("right", "right"), True)
    return {path.key: routes[path.key] for path in paths}, placed
