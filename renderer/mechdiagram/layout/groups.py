"""Groups (the spec's top-level ``groups``): their members kept together, and the labelled enclosure around them.

The layered layout's phases are those of :mod:`.layered`; a spec with groups adds one after the cells are
assigned (:func:`grouped_cells`): each group becomes a block of places, as many as its fullest rank holds, over
the ranks its members span, and no other node takes a place inside that block; the other nodes then keep the place
nearest the one they had (a compound node of ELK Layered or dagre's clusters, drawn on our grid of cells).  The
placement gives the gaps at a block's edges room for the frame (:func:`frame_room`), and :func:`frames` draws the
frame around the members' boxes once they are placed, its label in a strip at its top left, inside it.

The narrow layout stacks a group's members one after another (:func:`stacked_order`) and the frame around them.
A spec without groups goes through none of this: its figure is what it was.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence

from mechdiagram.layout.geometry import Box, GroupFrame, Rect
from mechdiagram.layout.measure import even_wrap, text_width
from mechdiagram.layout.routing import Route
from mechdiagram.layout.sizes import BOX_AIR, BOX_MIN_WIDTH, PATH_LABEL_LINE, PATH_LABEL_SIZE
from mechdiagram.shared.model import Spec

#: The frame's distance from its members' boxes, on every side but the top, where the label's strip adds to it.
GROUP_PAD = 14.0
#: The label's inset from the frame's left edge, and the room under its last line before the boxes' row.
GROUP_LABEL_INSET = 8.0
GROUP_LABEL_AIR = 6.0
#: The width a label is wrapped to when the room its strip takes is reserved (the narrowest a frame can be:
#: one box of the least width); a frame wider than that wraps its label to its own width, in no more lines.
GROUP_LABEL_WRAP = BOX_MIN_WIDTH + 2 * GROUP_PAD - 2 * GROUP_LABEL_INSET

#: (first rank, last rank, first place, last place) of a group's block of cells.
Block = tuple[int, int, int, int]


def label_lines(label: str, width: float = GROUP_LABEL_WRAP) -> tuple[str, ...]:
    """A group's label wrapped to ``width`` user units, in path labels' size (13), lines of even length."""
    return even_wrap(label, width, PATH_LABEL_SIZE)


def strip_height(label: str) -> float:
    """The height of a group's label strip: its lines (wrapped to :data:`GROUP_LABEL_WRAP`) and the air under them."""
    return len(label_lines(label)) * PATH_LABEL_LINE + GROUP_LABEL_AIR


def grouped_cells(cells: Mapping[str, tuple[int, int]], groups: Sequence[Sequence[str]], *,
                  layer: int) -> dict[str, tuple[int, int]]:
    """``cells`` (row, column) with every group's members in a block of its own: see the module docstring.

    ``layer`` is the cell coordinate that counts ranks (0: rows, 1: columns), the other is a node's place in its
    rank.  Groups are placed first, in the order of their members' mean place, each centred on it where its block
    is free, else at the nearest free places (after, then before); then every other node, likewise.  Within a
    block a rank's members keep their order, centred across the block.  Places no node takes are dropped, so the
    grid has no empty row or column a group did not make.  Deterministic: ties go to the order given.
    """
    place = 1 - layer
    taken: set[tuple[int, int]] = set()  # (rank, place)
    out: dict[str, tuple[int, int]] = {}

    def free(ranks: range, start: int, width: int) -> bool:
        return start >= 0 and all((r, p) not in taken for r in ranks for p in range(start, start + width))

    def nearest(ranks: range, wish: float, width: int) -> int:
        first = max(0, round(wish - (width - 1) / 2))
        for step in range(0, 4 * (len(cells) + width) + 2):
            for start in ((first + step, first - step) if step else (first,)):
                if free(ranks, start, width):
                    return start
        raise AssertionError("no free places")  # unreachable: places past every node's are free

    units: list[tuple[float, int, list[str]]] = []
    grouped: set[str] = set()
    for index, members in enumerate(groups):
        inside = [key for key in members if key in cells]
        if inside:
            units.append((sum(cells[key][place] for key in inside) / len(inside), index, inside))
            grouped.update(inside)
    units.sort(key=lambda unit: (unit[0], unit[1]))
    for wish, _, inside in units:
        ranks_of = sorted({cells[key][layer] for key in inside})
        ranks = range(ranks_of[0], ranks_of[-1] + 1)
        per_rank = {r: sorted((key for key in inside if cells[key][layer] == r), key=lambda k: cells[k][place])
                    for r in ranks_of}
        width = max(len(keys) for keys in per_rank.values())
        start = nearest(ranks, wish, width)
        taken.update((r, p) for r in ranks for p in range(start, start + width))
        for r, keys in per_rank.items():
            offset = start + (width - len(keys)) // 2
            for i, key in enumerate(keys):
                out[key] = (r, offset + i) if layer == 0 else (offset + i, r)
    others = sorted((key for key in cells if key not in grouped), key=lambda k: (cells[k][place], cells[k][layer]))
    for key in others:
        r = cells[key][layer]
        spot = nearest(range(r, r + 1), cells[key][place], 1)
        taken.add((r, spot))
        out[key] = (r, spot) if layer == 0 else (spot, r)
    used = sorted({cell[place] for cell in out.values()} | {p for _, p in taken})
    dense = {p: i for i, p in enumerate(used)}
    return {key: (cell[0], dense[cell[1]]) if layer == 0 else (dense[cell[0]], cell[1])
            for key, cell in ((k, out[k]) for k in cells)}


def blocks(spec: Spec, cells: Mapping[str, tuple[int, int]]) -> dict[str, tuple[int, int, int, int]]:
    """Each group's cells as (first row, last row, first column, last column), by key (groups with no member in
    ``cells`` left out)."""
    out = {}
    for key, group in spec.groups.items():
        inside = [cells[m] for m in group.members if m in cells]
        if inside:
            rows, cols = [r for r, _ in inside], [c for _, c in inside]
            out[key] = (min(rows), max(rows), min(cols), max(cols))
    return out


#: Extra room (left, right) beyond :data:`GROUP_PAD` on a frame's sides, in user units, by group key.
Sides = Mapping[str, tuple[float, float]]


def frame_room(spec: Spec, cells: Mapping[str, tuple[int, int]], n_rows: int,
               n_cols: int, sides: Sides | None = None) -> tuple[list[float], list[float]]:
    """The room the frames take in the gaps of a grid of ``n_rows`` by ``n_cols`` cells, added to the gaps the
    routes need: (each column gap's, each row gap's), in user units (a frame at the grid's edge takes the
    margin's room: the drawing's bounds include it).  A frame's side takes :data:`GROUP_PAD` of the gap beside
    it, and the extra room ``sides`` gives it (:func:`inner_label_sides`); its top the label's strip as well
    (:func:`strip_height`), so neighbouring frames never meet and the routes keep the gap they had."""
    cols, rows = [0.0] * max(0, n_cols - 1), [0.0] * max(0, n_rows - 1)
    extra_left: dict[int, float] = {}  # by column gap: the room the frames beside it take on their sides
    extra_right: dict[int, float] = {}
    for key, (r0, r1, c0, c1) in blocks(spec, cells).items():
        head = GROUP_PAD + strip_height(spec.groups[key].label)
        left, right = (sides or {}).get(key, (0.0, 0.0))
        if r0 > 0:
            rows[r0 - 1] = max(rows[r0 - 1], head + (_bottom_room(spec, cells, r0 - 1)))
        if r1 < n_rows - 1:
            rows[r1] = max(rows[r1], GROUP_PAD + _head_room(spec, cells, r1 + 1))
        if c0 > 0:
            cols[c0 - 1] = max(cols[c0 - 1], 2 * GROUP_PAD)
            extra_right[c0 - 1] = max(extra_right.get(c0 - 1, 0.0), left)
        if c1 < n_cols - 1:
            cols[c1] = max(cols[c1], 2 * GROUP_PAD)
            extra_left[c1] = max(extra_left.get(c1, 0.0), right)
    for gap in set(extra_left) | set(extra_right):
        cols[gap] += extra_left.get(gap, 0.0) + extra_right.get(gap, 0.0)
    return cols, rows


def _bottom_room(spec: Spec, cells: Mapping[str, tuple[int, int]], row: int) -> float:
    """:data:`GROUP_PAD` when a group's frame ends at ``row`` (its bottom side is in the gap under it), else 0."""
    return GROUP_PAD if any(r1 == row for r0, r1, _, _ in blocks(spec, cells).values()) else 0.0


def _head_room(spec: Spec, cells: Mapping[str, tuple[int, int]], row: int) -> float:
    """The label strip and :data:`GROUP_PAD` of a group whose frame starts at ``row``, else 0."""
    return max((GROUP_PAD + strip_height(spec.groups[key].label)
                for key, (r0, _, _, _) in blocks(spec, cells).items() if r0 == row), default=0.0)


def frames(spec: Spec, boxes: Mapping[str, Box], pad: float = GROUP_PAD,
           sides: Sides | None = None) -> dict[str, GroupFrame]:
    """Each group's frame around its members' ``boxes`` (``pad`` from them, and the extra room ``sides`` gives its
    left and right sides; the label's strip above), its label wrapped to the frame's width in no more lines than
    :func:`strip_height` reserved, by group key in file order."""
    out: dict[str, GroupFrame] = {}
    for key, group in spec.groups.items():
        inside = [boxes[m] for m in group.members if m in boxes]
        if not inside:
            continue
        more_left, more_right = (sides or {}).get(key, (0.0, 0.0))
        left = min(b.x for b in inside) - pad - more_left
        right = max(b.right for b in inside) + pad + more_right
        reserved = label_lines(group.label)
        strip = strip_height(group.label)
        top, bottom = min(b.y for b in inside) - pad - strip, max(b.bottom for b in inside) + pad
        lines = label_lines(group.label, right - left - 2 * GROUP_LABEL_INSET)
        if len(lines) > len(reserved):
            lines = reserved
        widest = max(text_width(line, PATH_LABEL_SIZE) for line in lines)
        x = left + GROUP_LABEL_INSET
        # The text's block from 3 under the frame's top: a line of 13-unit text has its baseline 12 below.
        block = Rect(round(x, 1), round(top + 3, 1), math.ceil(widest * 10) / 10, len(lines) * PATH_LABEL_LINE)
        out[key] = GroupFrame(round(left, 1), round(top, 1), round(right - left, 1), round(bottom - top, 1),
                              key=key, lines=lines, label_x=round(x, 1), label_y=round(top + 15, 1),
                              label_box=block)
    return out


def stacked_order(spec: Spec, order: Sequence[str]) -> list[str]:
    """The narrow layout's column ``order`` with each group's members one after another, where its first member
    was, in the order given."""
    out: list[str] = []
    done: set[str] = set()
    for key in order:
        if key in done:
            continue
        group = spec.group_of(key)
        members = [m for m in order if spec.group_of(m) == group] if group is not None else [key]
        out.extend(members)
        done.update(members)
    return out


#: How far a group's label keeps from a route that crosses its strip, in user units.
LABEL_CLEARANCE = 6.0


def clear_labels(spec: Spec, enclosures: Mapping[str, GroupFrame],
                 routes: Sequence[Sequence[tuple[float, float]]]) -> tuple[dict[str, GroupFrame], set[str]]:
    """The frames with each label moved along its strip clear of the ``routes`` (polylines) that cross it: at the
    frame's left if it is clear there, else at its right, else in the widest stretch between two routes that holds
    it, :data:`LABEL_CLEARANCE` from them, wrapped to that stretch in no more lines than its strip has room for
    (never inside a word); and the keys of the groups whose label has no such place (the caller routes again with
    those labels as walls)."""
    out: dict[str, GroupFrame] = {}
    stuck: set[str] = set()
    for key, frame in enclosures.items():
        block = frame.label_box
        if block is None:
            out[key] = frame
            continue
        room = Rect(block.x, block.y, block.w, len(label_lines(spec.groups[key].label)) * PATH_LABEL_LINE)
        crossings = sorted({round(x, 1) for x in _vertical_hits(routes, room, frame)}
                           | {x for route in routes for x in _horizontal_hits(route, room, frame)})
        low, high = frame.x + GROUP_LABEL_INSET, frame.right - GROUP_LABEL_INSET
        edges = [low - LABEL_CLEARANCE, *crossings, high + LABEL_CLEARANCE]
        stretches = [(a + LABEL_CLEARANCE, b - LABEL_CLEARANCE) for a, b in itertools.pairwise(edges)]
        stretches = [(a, b) for a, b in stretches if b > a]
        # Preferred first: at the frame's left, at its right, then the widest stretch.
        order = [s for s in stretches if s[0] == low] + [s for s in stretches if s[1] == high and s[0] != low]
        order += sorted((s for s in stretches if s not in order), key=lambda s: s[0] - s[1])
        placed = None
        for a, b in order:
            lines = _fitting(spec.groups[key].label, b - a, len(label_lines(spec.groups[key].label)))
            if lines is not None:
                placed = (a, b, lines)
                break
        if placed is None:
            out[key] = frame
            stuck.add(key)
            continue
        a, b, lines = placed
        w = math.ceil(max(text_width(line, PATH_LABEL_SIZE) for line in lines) * 10) / 10
        x = a if a == low or b != high else b - w
        out[key] = _moved_label(frame, x, lines, w)
    return out, stuck


def _fitting(label: str, width: float, most: int) -> tuple[str, ...] | None:
    """``label`` wrapped to ``width`` in at most ``most`` lines, no word broken, or ``None``."""
    if width <= 0:
        return None
    lines = label_lines(label, width)
    if len(lines) > most or max(text_width(line, PATH_LABEL_SIZE) for line in lines) > width + 0.05:
        return None
    if "".join(lines).replace(" ", "") != label.replace(" ", ""):
        return None  # a word broken with a continuation mark
    return lines


def _vertical_hits(routes: Sequence[Sequence[tuple[float, float]]], block: Rect, frame: GroupFrame) -> list[float]:
    """The xs of the ``routes``' vertical segments that cross ``block``'s rows (within :data:`LABEL_CLEARANCE`)
    inside ``frame``."""
    return [a[0] for route in routes for a, b in itertools.pairwise(route)
            if abs(a[0] - b[0]) < 0.05 and min(a[1], b[1]) < block.bottom + LABEL_CLEARANCE
            and max(a[1], b[1]) > block.y - LABEL_CLEARANCE and frame.x < a[0] < frame.right]


def _horizontal_hits(route: Sequence[tuple[float, float]], block: Rect, frame: GroupFrame) -> list[float]:
    """The x extent ends of ``route``'s horizontal segments through ``block``'s rows within ``frame`` (a route
    along the strip takes it whole)."""
    hits: list[float] = []
    for a, b in itertools.pairwise(route):
        if abs(a[1] - b[1]) < 0.05 and block.y - LABEL_CLEARANCE < a[1] < block.bottom + LABEL_CLEARANCE:
            lo, hi = sorted((a[0], b[0]))
            if hi > frame.x and lo < frame.right:
                hits.extend(x for x in (max(lo, frame.x + 0.1), min(hi, frame.right - 0.1)))
                hits.extend(x for x in _steps(lo, hi))
    return hits


def _steps(lo: float, hi: float) -> list[float]:
    """Points every 4 units from ``lo`` to ``hi``: a horizontal run taken as a row of crossings."""
    return [round(lo + 4 * i, 1) for i in range(int((hi - lo) / 4) + 1)]


def _moved_label(frame: GroupFrame, x: float, lines: tuple[str, ...], w: float) -> GroupFrame:
    """``frame`` with its label in ``lines``, ``w`` wide, its left edge at ``x``."""
    block = frame.label_box
    assert block is not None
    return GroupFrame(frame.x, frame.y, frame.w, frame.h, key=frame.key, lines=lines, label_x=round(x, 1),
                      label_y=frame.label_y,
                      label_box=Rect(round(x, 1), block.y, w, len(lines) * PATH_LABEL_LINE), centred=frame.centred)


def frame_edges(frame: Rect, reach: float = 2.0) -> list[Rect]:
    """The four sides of ``frame`` as thin rectangles ``reach`` units either side of each line: obstacles for the
    path labels, so that no frame line runs through a label's text."""
    return [Rect(frame.x - reach, frame.y - reach, frame.w + 2 * reach, 2 * reach),
            Rect(frame.x - reach, frame.bottom - reach, frame.w + 2 * reach, 2 * reach),
            Rect(frame.x - reach, frame.y - reach, 2 * reach, frame.h + 2 * reach),
            Rect(frame.right - reach, frame.y - reach, 2 * reach, frame.h + 2 * reach)]


def widened(spec: Spec, enclosures: Mapping[str, GroupFrame], routes: Mapping[str, Route],
            column_right: float, labels: Mapping[str, Rect] | None = None) -> dict[str, GroupFrame]:
    """The narrow layout's frames, each reaching right over the tracks of the paths between two of its members
    (:func:`~mechdiagram.layout.stacked.stacked_routes` runs them right of the column), half-way to the next
    track, at most :data:`GROUP_PAD` past its own last one, so that such a path stays inside its group; its edge
    stops 2 units short of another path's label (``labels``, their blocks by path key) it would run through, or it
    does not widen."""
    out = dict(enclosures)
    tracks = sorted({round(p[0], 1) for route in routes.values() for p in route.points if p[0] > column_right + 0.05})
    for key, frame in enclosures.items():
        members = set(spec.groups[key].members)
        inner = {path.key for path in spec.paths if path.key in routes and path.source in members
                 and path.dest in members}
        own = [p[0] for key in inner for p in routes[key].points if p[0] > column_right + 0.05]
        if not own:
            continue
        last = max(own)
        beyond = [x for x in tracks if x > last + 0.05]
        right = last + (min(GROUP_PAD, (beyond[0] - last) / 2) if beyond else GROUP_PAD)
        for key_, block in (labels or {}).items():  # another's label the new edge would run through: stop short
            if key_ in inner:
                continue
            if block.y < frame.bottom and frame.y < block.bottom and block.x < right and block.right > frame.right:
                right = min(right, block.x - 2)
        if right <= last + 2:
            continue
        out[key] = GroupFrame(frame.x, frame.y, round(right - frame.x, 1), frame.h, key=frame.key, lines=frame.lines,
                              label_x=frame.label_x, label_y=frame.label_y, label_box=frame.label_box,
                              centred=frame.centred)
    return out


#: A path label's least distance from a frame's side: the labels keep :data:`~mechdiagram.layout.sizes.BOX_AIR` from
#: the side's obstacle (:func:`frame_edges`, 2 units either side of the line), and a unit to spare.
FRAME_LABEL_AIR = BOX_AIR + 3.0


def inner_label_sides(spec: Spec, enclosures: Mapping[str, GroupFrame], routes: Mapping[str, Route],
                      sizes: Mapping[str, tuple[float, float]], side_gap: float) -> dict[str, tuple[float, float]]:
    """The extra room (left, right) each group's frame needs on its sides so that the label of every path in
    ``sizes`` (its block's width and height, by key) between two of its members sits beside its route's longest
    vertical run, ``side_gap`` from it, on the run's outer side (left of a run left of the frame's middle, else right),
    :data:`FRAME_LABEL_AIR` inside the frame: two opposite arrows between two boxes one above the other run side by
    side, and their labels between the runs printed over each other (a new user's compiler pipeline: "virtual
    registers" and "spill code").  Groups that need none are left out; user units."""
    out: dict[str, tuple[float, float]] = {}
    for key, frame in enclosures.items():
        members = set(spec.groups[key].members)
        left = right = 0.0
        for path in spec.paths:
            if path.key not in sizes or path.key not in routes or path.source not in members \
                    or path.dest not in members:
                continue
            runs = [(abs(a[1] - b[1]), a[0]) for a, b in itertools.pairwise(routes[path.key].points)
                    if abs(a[0] - b[0]) < 0.05 and abs(a[1] - b[1]) > 0.05]
            if not runs:
                continue
            x = max(runs)[1]
            w = sizes[path.key][0]
            if x < frame.x + frame.w / 2 - 0.05:
                left = max(left, frame.x - (x - side_gap - w - FRAME_LABEL_AIR))
            else:
                right = max(right, x + side_gap + w + FRAME_LABEL_AIR - frame.right)
        if left > 0.05 or right > 0.05:
            out[key] = (round(max(left, 0.0), 1), round(max(right, 0.0), 1))
    return out


def stuck_label_sides(enclosures: Mapping[str, GroupFrame], stuck: Iterable[str],
                      routes: Sequence[Sequence[tuple[float, float]]]) -> dict[str, tuple[float, float]]:
    """The extra room (left, right) the frame of each ``stuck`` group (whose label :func:`clear_labels` found no
    place for) needs on its right side for its label to sit right of the rightmost of the ``routes`` that cross its
    strip, :data:`LABEL_CLEARANCE` from it, :data:`GROUP_LABEL_INSET` inside the frame.  A straight arrow into a
    group's first member crossed its label, "Front end", 77 units wide in a frame with 67 units each side of the
    arrow, and went round the frame's side instead, with two bends (a new user's compiler pipeline).  User units."""
    out: dict[str, tuple[float, float]] = {}
    for key in sorted(stuck):
        frame = enclosures[key]
        block = frame.label_box
        if block is None:
            continue
        xs = _vertical_hits(routes, block, frame)
        if xs:
            need = max(xs) + LABEL_CLEARANCE + block.w + GROUP_LABEL_INSET - frame.right
            if need > 0.05:
                out[key] = (0.0, round(need + 0.5, 1))
    return out


def inner_paths(spec: Spec) -> frozenset[str]:
    """The keys of the paths between two members of one group (whose frame holds their routes)."""
    return frozenset(p.key for p in spec.paths
                     if any(p.source in group.members and p.dest in group.members for group in spec.groups.values()))
