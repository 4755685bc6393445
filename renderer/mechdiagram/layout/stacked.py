"""Edge routing of the narrow variant, where every box sits in one column (:func:`placement.place`
with ``lanes_on_top``).

A path between two boxes next to each other in the column runs straight down (or up) between them
(two such paths at most, side by side).
Every other path leaves its source's side, runs down or up a vertical *track* beside the column, and
enters its target's same side: the right one, or the left one where a track on the right would cross one
there (:func:`track_sides`: the column is the spine of a two-page book embedding, and a track crosses another
on its page only where their spans interleave).  Tracks are assigned like intervals on a line
(greedy, shortest span first), so paths whose vertical spans overlap get tracks apart and the figure
is only as wide as the busiest stretch needs.  No route
can cross a box: the column is the only place boxes are.  A track's label sits right beside it;
tracks are placed nearest the column first, each as close as it can be while its line and its
label keep clear of the tracks, labels and port stubs already placed, and the label clear of its own stubs.
The left side is drawn as the right one is, in a mirror.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import structs

from mechdiagram.layout.geometry import Box, LaneHeader, Point, Rect
from mechdiagram.layout.labels import FIRST_BASELINE, SIDE_GAP, PlacedLabel, label_size
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.routing import PathEnds, Route, _head
from mechdiagram.layout.sizes import ARROW_HEAD, CLEARANCE, FONT_SIZE

#: Distance between neighbouring tracks, and from the column to the first track, in user units.
TRACK_GAP = 12.0
#: Least distance from a track inside a group's frame (a path between two of its members) to a track right of it
#: outside the group whose span comes near its own, in user units: the frame's right edge runs half-way between them
#: (:func:`~mechdiagram.layout.groups.widened`), TRACK_GAP from each.  At TRACK_GAP apart the inner track, the frame
#: and the outer track stood 6 units apart, and a designer read the three as one rail (the serving stack's phone
#: column: "logits", the GPU engine's frame and "streamed text").
FRAME_TRACK_GAP = 2 * TRACK_GAP
#: Least distance from a track label to any other track, in user units (its own is 6 away).
LABEL_AIR = 16.0
#: Least distance, along one track, between the spans of two paths on it, in user units: nearer, they read as one
#: line (a new user's cache hierarchy: three writebacks, each to the next box, 19 units apart on one track looked
#: like one dashed bus to a designer).
TRACK_END_GAP = 40.0
#: Least distance from a track label's block to a stub (a route's horizontal run from the column to its track)
#: passing above or below it, in user units: nearer, the label reads as that line's.
STUB_AIR = 10.0
#: Least distance from a track label's block to its own route's stubs, in user units: chromium draws DejaVu
#: Sans glyphs 0.6 units above the block, so a block touching its arrow put the text across the line.
OWN_STUB_AIR = 2.0


def _spread(box: Box, count: int, index: int) -> float:
    """The y of port ``index`` of ``count`` ports on a box's right side, spread evenly."""
    return round(box.y + box.h * (index + 1) / (count + 1), 1)


def _label_free(rect: Rect, taken: list[tuple[float, tuple[float, float]]], blocks: list[Rect],
                stubs: list[tuple[float, float, float]], right: float) -> bool:
    """Whether a label block keeps clear of the column, the placed tracks and labels, and every stub."""
    if rect.x < right + 4:
        return False
    # Another track no nearer than LABEL_AIR to the block, so the nearest line is the label's own.
    if any(rect.x - LABEL_AIR < tx < rect.right + LABEL_AIR and a < rect.bottom + 10 and rect.y - 10 < b
           for tx, (a, b) in taken):
        return False
    if any(rect.grown(3).overlaps(block) for block in blocks):
        return False
    return not any(rect.y - STUB_AIR < y < rect.bottom + STUB_AIR and x0 < rect.right + 3 and rect.x - 3 < x1
                   for y, x0, x1 in stubs)


def _track_free(x: float, span: tuple[float, float], taken: list[tuple[float, tuple[float, float]]],
                blocks: list[Rect], ports: tuple[float, float], right: float) -> bool:
    """Whether a track at ``x`` over ``span``, with its two stubs at the ``ports`` ys, keeps clear of the
    placed tracks (:data:`TRACK_GAP` apart where their spans overlap or come within :data:`TRACK_END_GAP` of each
    other) and labels (:data:`LABEL_AIR` from the
    track, its stubs not across them)."""
    y0, y1 = span
    for tx, (a, b) in taken:
        if a - TRACK_END_GAP < y1 and y0 < b + TRACK_END_GAP and abs(tx - x) < TRACK_GAP:
            return False
    # No nearer than LABEL_AIR to a placed label, as _label_free keeps a label from tracks placed before it:
    # each label's nearest line stays its own.
    if any(block.x - LABEL_AIR < x < block.right + LABEL_AIR and y0 < block.bottom + 10 and block.y - 10 < y1
           for block in blocks):
        return False
    # A stub runs from the column to the track, not across a label (a label keeps STUB_AIR from every stub,
    # placed or not: _label_free).
    return not any(block.y - 2 < y < block.bottom + 2 and block.x < x and right < block.right
                   for y in ports for block in blocks)


def _at_stub(ports: tuple[float, float], ends: tuple[Box, Box], w: float, h: float,
             taken: list[tuple[float, tuple[float, float]]], blocks: list[Rect],
             stubs: list[tuple[float, float, float]], right: float) -> Rect | None:
    """A label block of ``w`` by ``h`` on one of its route's stubs, by the column: above the stub that leaves
    the source, below it, then above and below the one that enters the target (clear of its arrowhead);
    ``None`` when none of these is free (:func:`_label_free`) within the height of the stub's box (``ends``:
    source and target), whose neighbours' straight runs have the gaps between boxes for their labels.  A label
    there names the line that starts (or ends) under it at a box, which no neighbouring track can take from it."""
    x = round(right + STUB_LABEL_INSET, 1)
    for y, box, air in ((ports[0], ends[0], OWN_STUB_AIR), (ports[1], ends[1], ARROW_HEAD / 2 + OWN_STUB_AIR)):
        for top in (y - air - h, y + air):
            block = Rect(x, round(top, 1), round(w, 1), h)
            if box.y <= block.y and block.bottom <= box.bottom and _label_free(block, taken, blocks, stubs, right):
                return block
    return None


#: A stub's label starts this far right of the column, in user units (as far as :func:`_label_free` asks).
STUB_LABEL_INSET = 4.0

#: Places tried for one track, TRACK_GAP / 2 apart, before the search gives up.
TRACK_SEARCH = 400
#: Most places along its track that a label is tried at, nearest the track's middle first: a track that spans a
#: column of 850 boxes had 7,000 (a validation took 25 s); the gallery's longest track has fewer than 100.
LABEL_PLACES = 300
#: Most label places one narrow layout tries along the tracks of one side, all together: past it, a track takes the
#: first free place and leaves its label to the general label placement (:mod:`mechdiagram.layout.labels`), and
#: its route is ``crowded`` (one ``route`` warning).  The gallery tries at most a few hundred.
TRACK_LABEL_BUDGET = 100_000

#: Least room, in user units, beside a lane header for a straight run between two neighbours across it.
RUN_ROOM = 24.0


def _run_span(a: Box, b: Box, texts: Sequence[Rect]) -> tuple[float, float]:
    """The left end and width of the stretch where straight runs between neighbours ``a`` and ``b`` may go:
    the boxes' common width, less what the ``texts`` between them cover (a lane's name, a column's header over
    ``b``) and CLEARANCE, when that leaves :data:`RUN_ROOM`, so that no run crosses them: the runs go right of
    the texts."""
    left, right = max(a.x, b.x), min(a.right, b.right)
    top, bottom = min(a.bottom, b.bottom), max(a.y, b.y)
    clear = left
    for text in texts:
        if text.y < bottom and top < text.bottom:
            clear = max(clear, text.right + CLEARANCE)
    # Too little room beside the name (a narrow column): the runs keep the whole width, across the name.
    return (clear, right - clear) if right - clear >= RUN_ROOM else (left, right - left)


def _ports(boxes: Mapping[str, Box], long: Sequence[PathEnds]) -> dict[tuple[str, str], float]:
    """The y of each track's two ports (``(path key, "out")`` at its source, ``(path key, "in")`` at its
    target), on the boxes' right sides, spread evenly, in an order that nests the tracks' spans.

    Tracks are drawn shortest span first, nearest the column, so a stub crosses another track only where it
    ends inside that track's span.  On each box, then, the routes to boxes above take the upper ports and
    those to boxes below the lower ones; among those to one side the farther a route goes, the nearer its
    port is to that side's far end of the box (upward routes: lower; downward: upper), so that the longer
    span holds the shorter one.  Routes between the same two boxes take the ports in one order at the upper
    box and in the other at the lower one, so that they nest as well.
    """
    ends: dict[str, list[tuple[int, float, int, str, str]]] = {}
    for rank, path in enumerate(long):
        source, dest = boxes[path.source], boxes[path.dest]
        for box_key, box, other, role in ((path.source, source, dest, "out"), (path.dest, dest, source, "in")):
            below = other.y > box.y
            ends.setdefault(box_key, []).append((int(below), -other.y, rank if below else -rank, path.key, role))
    port_y: dict[tuple[str, str], float] = {}
    for key, items in ends.items():
        for index, (*_, path_key, role) in enumerate(sorted(items)):
            port_y[(path_key, role)] = _spread(boxes[key], len(items), index)
    return port_y


def on_tracks(order: Sequence[str], paths: Sequence[PathEnds]) -> tuple[dict[frozenset[str], list[str]],
                                                                          list[PathEnds]]:
    """Which ``paths`` between the boxes of the column (keys in ``order``, top first) run on a track: two paths
    run straight between two neighbours (their labels either side), by pair of boxes; every other path takes a
    track, where its label has room."""
    position = {key: i for i, key in enumerate(order)}
    long: list[PathEnds] = []
    pairs: dict[frozenset[str], list[str]] = {}
    for path in paths:
        pair = frozenset((path.source, path.dest))
        if abs(position[path.source] - position[path.dest]) == 1 and len(pairs.get(pair, [])) < 2:
            pairs.setdefault(pair, []).append(path.key)
        else:
            long.append(path)
    return pairs, long


def _interleave(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two tracks' spans (positions in the column, top first) interleave: each holds one end of the
    other strictly inside it, so that on one side of the column the outer track's stub crosses the inner one."""
    (a0, a1), (b0, b1) = a, b
    return a0 < b0 < a1 < b1 or b0 < a0 < b1 < a1


def track_sides(order: Sequence[str], paths: Sequence[PathEnds], inner: frozenset[str] = frozenset(),
                two_sided: bool = True) -> dict[str, str]:
    """The side of the column (``"right"`` or ``"left"``) each track of ``paths`` (:func:`on_tracks`) runs on, by
    path key: the two pages of a book embedding whose spine is the column (Bernhart and Kainen, "The book
    thickness of a graph", 1979), tracks on one page crossing where their spans interleave (:func:`_interleave`).
    The paths in ``inner`` (between two members of one group, whose frame reaches over their tracks on the right)
    stay right, placed first; then, longest span first, each takes the side where it crosses fewer tracks already
    placed, the right one on a tie (a graph whose tracks cross nowhere keeps them all right of the column, as it
    always had them).
    A greedy two-colouring: a fan-out and fan-in of six drew 15 crossings on one side, none on two.  Not
    ``two_sided``: every track on the right."""
    position = {key: i for i, key in enumerate(order)}
    spans: dict[str, tuple[int, int]] = {}
    for path in on_tracks(order, paths)[1]:
        ends = sorted((position[path.source], position[path.dest]))
        spans[path.key] = (ends[0], ends[1])
    sides: dict[str, str] = {}
    for key in sorted(spans, key=lambda k: (k not in inner, spans[k][0] - spans[k][1], spans[k], k)):
        if key in inner or not two_sided:
            sides[key] = "right"
            continue
        crossed = {side: sum(_interleave(spans[key], spans[other]) for other, on in sides.items() if on == side)
                   for side in ("right", "left")}
        sides[key] = "left" if crossed["left"] < crossed["right"] else "right"
    return sides


def track_crossings(order: Sequence[str], paths: Sequence[PathEnds], inner: frozenset[str] = frozenset(),
                    two_sided: bool = True) -> int:
    """How many pairs of the column's tracks (:func:`on_tracks`) cross: those on one side
    (:func:`track_sides`) whose spans interleave (:func:`_interleave`), by the column's ``order`` (keys, top
    first).  Straight runs between neighbours cross nothing."""
    position = {key: i for i, key in enumerate(order)}
    sides = track_sides(order, paths, inner, two_sided)
    spans = [(sides[p.key], (min(position[p.source], position[p.dest]), max(position[p.source], position[p.dest])))
             for p in on_tracks(order, paths)[1]]
    return sum(a[0] == b[0] and _interleave(a[1], b[1]) for i, a in enumerate(spans) for b in spans[i + 1:])


def depth_first_order(order: Sequence[str], paths: Sequence[PathEnds], rank: Mapping[str, int]) -> list[str]:
    """The column's boxes (keys in ``order``, the layered layout's, layer by layer) in a depth-first topological
    order: each box as soon after one of its predecessors as it can be, once every box in an earlier ``rank``
    with a path to it is placed, so that every path down the ranks still runs down the column.  The tracks of a
    tree's arrows then nest and never cross (a tree's depth-first order is a one-page book embedding: Bernhart
    and Kainen, 1979), where layer by layer they interleave.  Among boxes ready at once, ``order`` decides."""
    position = {key: i for i, key in enumerate(order)}
    children: dict[str, list[str]] = {key: [] for key in order}
    waiting = dict.fromkeys(order, 0)
    for path in paths:
        if path.source in position and path.dest in position and rank[path.dest] > rank[path.source]:
            children[path.source].append(path.dest)
            waiting[path.dest] += 1
    for key in children:
        children[key].sort(key=position.__getitem__)
    ready = {key for key, count in waiting.items() if count == 0}
    placed: list[str] = []
    stack: list[str] = []
    while len(placed) < len(order):
        while stack and not any(child in ready for child in children[stack[-1]]):
            stack.pop()
        if stack:
            key = next(child for child in children[stack[-1]] if child in ready)
        else:
            key = min(ready, key=position.__getitem__)
        ready.discard(key)
        placed.append(key)
        stack.append(key)
        for child in children[key]:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready.add(child)
    return placed


#: How many passes of neighbour swaps :func:`swapped_order` makes at most.
SWAP_PASSES = 2


def swapped_order(order: Sequence[str], paths: Sequence[PathEnds], rank: Mapping[str, int],
                  block: Mapping[str, str | None], inner: frozenset[str] = frozenset(),
                  two_sided: bool = True) -> list[str]:
    """``order`` (the column's keys, top first) improved by swapping neighbours: a swap is kept when the tracks
    then cross less (:func:`track_crossings`) or as little on fewer tracks (:func:`on_tracks`: more arrows run
    straight between neighbours), and only when no path down the ranks (``rank``) would then run up, nor a
    ``block`` (each key's group, or ``None``) be split.  Up to :data:`SWAP_PASSES` passes down the column, each
    ``len(order)`` swaps tried: the serving stack's sampler and KV cache, one layer, change places, so that the
    model's writes and reads run straight and the sampler's token id does not cross them."""
    def cost(keys: Sequence[str]) -> tuple[int, int]:
        return track_crossings(keys, paths, inner, two_sided), len(on_tracks(keys, paths)[1])

    def whole(keys: Sequence[str]) -> bool:
        seen: set[str | None] = set()
        for before, key in zip([None, *keys], keys, strict=False):
            group = block[key]
            if group is not None and group in seen and (before is None or block[before] != group):
                return False
            seen.add(group)
        return True

    down = {(p.source, p.dest) for p in paths if rank[p.dest] > rank[p.source]}
    best, least = list(order), cost(order)
    for _ in range(SWAP_PASSES):
        changed = False
        for i in range(len(best) - 1):
            a, b = best[i], best[i + 1]
            if (a, b) in down:
                continue
            tried = [*best[:i], b, a, *best[i + 2:]]
            if not whole(tried):
                continue
            spent = cost(tried)
            if spent < least:
                best, least, changed = tried, spent, True
        if not changed:
            break
    return best


def track_ports(order: Sequence[str], paths: Sequence[PathEnds], inner: frozenset[str] = frozenset(),
                two_sided: bool = True) -> dict[str, int]:
    """How many track routes meet each box of the column on its busier side (:func:`on_tracks`,
    :func:`track_sides` with ``inner`` and ``two_sided``): the ports its height has room for."""
    sides = track_sides(order, paths, inner, two_sided)
    counts = {(key, side): 0 for key in order for side in ("right", "left")}
    for path in on_tracks(order, paths)[1]:
        counts[(path.source, sides[path.key])] += 1
        counts[(path.dest, sides[path.key])] += 1
    return {key: max(counts[(key, "right")], counts[(key, "left")]) for key in order}


def stacked_routes(boxes: dict[str, Box], paths: Sequence[PathEnds], labels: dict[str, tuple[str, ...]],
                   headers: Sequence[LaneHeader] = (), code: frozenset[str] = frozenset(),
                   captions: Sequence[Rect] = (),
                   least: dict[str, tuple[float, float]] | None = None,
                   keep_off: Sequence[tuple[Rect, frozenset[str]]] = (),
                   inner: frozenset[str] = frozenset(), two_sided: bool = True, outer_labels: bool = False
                   ) -> tuple[dict[str, Route], dict[str, PlacedLabel]]:
    """Routes of ``paths`` between boxes stacked in one column (see the module docstring), and the
    placed ``labels`` of the routes that run on a track: each beside its own track, clear of the
    other tracks, labels and stubs.  A straight run between neighbours keeps off the text of the lane
    ``headers`` and of the column headers (``captions``, the rectangles their text covers) between them where
    the column leaves :data:`RUN_ROOM` beside it.  The search for label places is
    bounded (:data:`LABEL_PLACES` a track position, :data:`TRACK_LABEL_BUDGET` in all); past it a route is
    ``crowded`` and its label is not among those returned.  The labels of the paths in ``code`` are measured in
    the monospace face.  ``least`` gives, by path, the least width and height of its label's block (a label a step
    changes is placed as large as its largest text).  The tracks' labels keep off the ``keep_off`` rectangles (a
    group frame's sides), each but for the labels of the paths it names (a frame's right side, which moves right
    over the tracks of the paths between its members: their labels stay inside).  The tracks run on the sides of
    :func:`track_sides`, the paths in ``inner`` (between members of one group) on the right, and every one there
    unless ``two_sided``; with ``outer_labels`` they keep clear of the labels of a pair of straight runs between
    neighbours, beside the pair's outer sides (:func:`_outer_label`)."""
    texts = [*(Rect(h.x, h.y, max(text_width(line, FONT_SIZE) for line in h.lines), h.h) for h in headers if h.lines),
             *captions]
    order = sorted(boxes, key=lambda key: boxes[key].y)
    position = {key: i for i, key in enumerate(order)}
    routes: dict[str, Route] = {}
    pairs, long = on_tracks(order, paths)
    outer: dict[str, list[Rect]] = {"left": [], "right": []}  # the room beside a pair of runs for their labels
    for path in paths:
        a, b = boxes[path.source], boxes[path.dest]
        if path in long:
            continue
        # Paths between the same two neighbours (both ways) share the gap, spread evenly across it.
        group = pairs[frozenset((path.source, path.dest))]
        left, width = _run_span(a, b, texts)
        x = round(left + width * (group.index(path.key) + 1) / (len(group) + 1), 1)
        down = b.y > a.y
        sides = ("bottom", "top") if down else ("top", "bottom")
        head, base = _head((x, b.y if down else b.bottom), sides[1])
        routes[path.key] = Route(((x, a.bottom if down else a.y), base), head, sides, True)
        if outer_labels and len(group) > 1 and labels.get(path.key):  # the outer run's label, beyond it
            side = "left" if group.index(path.key) == 0 else "right" if group.index(path.key) == len(group) - 1 else ""
            if side:
                outer[side].append(_outer_label(x, a, b, side, _block_size(labels[path.key], path.key, code, least)))
    side_of = track_sides(order, paths, inner, two_sided)
    on_right = [path for path in long if side_of[path.key] == "right"]
    on_left = [path for path in long if side_of[path.key] == "left"]
    placed = _tracks(boxes, on_right, labels, code, least, keep_off, position, outer["right"], inner)
    routes.update(placed[0])
    labelled = dict(placed[1])
    if on_left:  # the left side's tracks, drawn as the right side's in a mirror
        mirrored = {key: structs.replace(box, x=-box.right) for key, box in boxes.items()}
        routes_left, labels_left = _tracks(mirrored, on_left, labels, code, least,
                                           [(_mirror(rect), exempt) for rect, exempt in keep_off], position,
                                           [_mirror(rect) for rect in outer["left"]])
        for key, route in routes_left.items():
            routes[key] = structs.replace(route, points=tuple((-x, y) for x, y in route.points),
                                          head=tuple((-x, y) for x, y in route.head), sides=("left", "left"))
        for key, label in labels_left.items():
            labelled[key] = structs.replace(label, at=(-label.at[0], label.at[1]), block=_mirror(label.block))
    return {path.key: routes[path.key] for path in paths}, labelled


def _block_size(text: tuple[str, ...], key: str, code: frozenset[str],
                least: Mapping[str, tuple[float, float]] | None) -> tuple[float, float]:
    """The width and height of path ``key``'s label block of lines ``text`` (``(0, 0)`` for none): measured
    (:func:`~mechdiagram.layout.labels.label_size`, in the monospace face for a path in ``code``), and at least its
    ``least`` size (a label a step changes is placed as large as its largest text)."""
    w, h = label_size(text, key in code) if text else (0.0, 0.0)
    if text and least and key in least:
        w, h = max(w, least[key][0]), max(h, least[key][1])
    return w, h


def _outer_label(x: float, a: Box, b: Box, side: str, size: tuple[float, float]) -> Rect:
    """Where the label of the outer run of a pair of straight runs between neighbours ``a`` and ``b`` (its ``x``)
    goes, ``size`` (:func:`_block_size`) beside it on its outer ``side``, halfway down the gap between the boxes: the
    tracks keep clear of it (:func:`_tracks`), so that it need not sit between the runs, across the other (a
    handshake's ServerHello, its right side taken by the tracks' labels, printed over ClientHello)."""
    w, h = size
    top, bottom = min(a.bottom, b.bottom), max(a.y, b.y)
    left = x + SIDE_GAP if side == "right" else x - SIDE_GAP - w
    return Rect(round(left, 1), round((top + bottom - h) / 2, 1), round(w, 1), round(h, 1))


def _mirror(rect: Rect) -> Rect:
    """``rect`` mirrored in the line x = 0."""
    return Rect(-rect.right, rect.y, rect.w, rect.h)


def _tracks(boxes: Mapping[str, Box], long: Sequence[PathEnds], labels: Mapping[str, tuple[str, ...]],
            code: frozenset[str], least: Mapping[str, tuple[float, float]] | None,
            keep_off: Sequence[tuple[Rect, frozenset[str]]],
            position: Mapping[str, int], reserved: Sequence[Rect] = (),
            inner: frozenset[str] = frozenset()) -> tuple[dict[str, Route], dict[str, PlacedLabel]]:
    """The routes of the ``long`` paths on tracks right of the column of ``boxes``, and their placed labels (see
    :func:`stacked_routes`; ``position`` is each box's place in the column, top first), clear of the ``reserved``
    blocks as of a placed label (:func:`_outer_label`); a track of a path not in ``inner`` stands
    :data:`FRAME_TRACK_GAP` or more right of the tracks of those in it, where their spans come near."""
    routes: dict[str, Route] = {}
    port_y = _ports(boxes, long)
    right = max((box.right for box in boxes.values()), default=0.0)
    first = right + TRACK_GAP + CLEARANCE
    pending = {(port_y[(p.key, role)], p.key) for p in long for role in ("out", "in")}
    placed_stubs: list[tuple[float, float, float]] = []
    taken: list[tuple[float, tuple[float, float]]] = []
    inner_taken: list[tuple[float, tuple[float, float]]] = []  # those of the paths in ``inner``
    blocks: list[Rect] = [block for block in reserved if block.right > right]  # those that reach past the column
    placed: dict[str, PlacedLabel] = {}
    tries_left = TRACK_LABEL_BUDGET
    # Shortest span first, nearest the column: with the ports of _ports, a track inside another's span is nearer.
    def span_of(p: PathEnds) -> float:
        return abs(port_y[(p.key, "out")] - port_y[(p.key, "in")])

    for path in sorted(long, key=lambda p: (span_of(p), position[p.source], p.key)):
        ports = (port_y[(path.key, "out")], port_y[(path.key, "in")])
        y0, y1 = sorted(ports)
        span = (y0, y1)
        pending -= {(ports[0], path.key), (ports[1], path.key)}
        stubs = placed_stubs + [(y, right, right + 1e6) for y, _ in pending]  # unplaced stubs: extent unknown
        text = labels.get(path.key, ())
        w, h = _block_size(text, path.key, code, least)
        # The label sits left of its track, so the track stands at least a label's width out.
        x = round(first + (w + 6 if text else 0), 1)
        ends_of = (boxes[path.source], boxes[path.dest])
        avoid = [*blocks, *(rect for rect, exempt in keep_off if path.key not in exempt)]
        label = _at_stub(ports, ends_of, w, h, taken, avoid, stubs, right) if text else None
        found = False  # a place for the track (and its label) within TRACK_SEARCH steps
        crowded = False  # its label left to the general placement, for want of time
        beside = [] if path.key in inner else inner_taken
        for _ in range(TRACK_SEARCH):
            if _track_free(x, span, taken, blocks, ports, right) and not any(
                    tx < x < tx + FRAME_TRACK_GAP and a - TRACK_END_GAP < y1 and y0 < b + TRACK_END_GAP
                    for tx, (a, b) in beside):
                found = not text or label is not None
                if found:
                    break
                if tries_left <= 0:
                    found = crowded = True
                    break
                # Candidates 6 units apart, OWN_STUB_AIR inside the track's span: clear of its own stubs.
                top, room = y0 + OWN_STUB_AIR, y1 - y0 - 2 * OWN_STUB_AIR
                steps = int((room - h) // 6) + 1 if room > h else 1
                middle = (y0 + y1 - h) / 2
                offsets = sorted(range(steps), key=lambda k: abs(top + 6 * k - middle))[:LABEL_PLACES]
                tries_left -= len(offsets)
                label = next((r for r in (Rect(round(x - 6 - w, 1), round(top + 6 * k if room > h else middle, 1),
                                                round(w, 1), h) for k in offsets)
                              if _label_free(r, taken, [*blocks, *avoid[len(blocks):]], stubs, right)), None)
                if label is not None:
                    found = True
                    break
            x = round(x + TRACK_GAP / 2, 1)
        taken.append((x, span))
        if path.key in inner:
            inner_taken.append((x, span))
        placed_stubs += [(y, right, x) for y in ports]
        if label is not None:
            blocks.append(label)
            placed[path.key] = PlacedLabel((label.cx, label.y + FIRST_BASELINE), label, True, text)
        source, dest = boxes[path.source], boxes[path.dest]
        start: Point = (source.right, port_y[(path.key, "out")])
        port: Point = (dest.right, port_y[(path.key, "in")])
        head, base = _head(port, "right")
        # A search that found no free place leaves the track where it stopped: not clean (validate warns).
        routes[path.key] = Route((start, (x, start[1]), (x, base[1]), base), head, ("right", "right"), found,
                                 crowded)
    return routes, placed
