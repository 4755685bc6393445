"""What a designer checks in the routes and labels of a layered figure: an arrow back goes around the flow
instead of through it, parallel routes keep apart, each label is nearer its own route than any other, and
routes bend no more than they need to."""

from __future__ import annotations

import itertools
import json

import pytest

from mechdiagram.layout import diagram, layout_scenario
from mechdiagram.layout.checks import against_flow
from mechdiagram.layout.geometry import Rect
from mechdiagram.layout.labels import AMBIGUOUS, LABEL_GAP
from mechdiagram.layout.route_rules import faults
from mechdiagram.layout.routing import NEAR
from mechdiagram.shared.model import spec_from_data
from support.edge_topologies import edge_topologies
from support.reference_spec import reference_spec
from support.sequences import as_graph
from support.specs import MECHANISMS
from support.topologies import serving_flow, topologies, with_graph

SHAPES = topologies() | {"reference": reference_spec()}
SHAPES |= {p.name: json.loads(p.read_text("utf-8")) for p in sorted(MECHANISMS.glob("*.mechanism.json"))}
# The gallery's sequence (web-worker) as the layered graph it was: these tests are the graph layout's; the
# sequence view's are tests/layout/test_layout_sequence.py.
SHAPES = {name: as_graph(data) for name, data in SHAPES.items()}
#: The 40-node graph's channels are narrower than two routes with clearance: it is held to "no shared
#: stretch" (tests/layout/test_layout_geometry.py) only.
CROWDED: set[str] = set()


def _layout(data: dict):
    spec = spec_from_data(data)
    return spec, layout_scenario(spec, spec.scenarios[0])


def _segments(points):
    return list(itertools.pairwise(points))


def _crossings(a, b) -> int:
    """How often two orthogonal polylines cross (a horizontal run passing strictly across a vertical one)."""
    count = 0
    for (p, q), (r, s) in itertools.product(_segments(a), _segments(b)):
        for (h1, h2), (v1, v2) in (((p, q), (r, s)), ((r, s), (p, q))):
            across = min(h1[0], h2[0]) < v1[0] < max(h1[0], h2[0]) and min(v1[1], v2[1]) < h1[1] < max(v1[1], v2[1])
            if h1[1] == h2[1] and v1[0] == v2[0] and across:
                count += 1
    return count


def _parallel_gaps(a, b):
    """(distance, overlap) of every pair of parallel runs of two routes that lie side by side."""
    out = []
    for (p, q), (r, s) in itertools.product(_segments(a), _segments(b)):
        if p[0] == q[0] and r[0] == s[0] and p[1] != q[1] and r[1] != s[1]:
            overlap = min(max(p[1], q[1]), max(r[1], s[1])) - max(min(p[1], q[1]), min(r[1], s[1]))
            out.append((abs(p[0] - r[0]), overlap))
        elif p[1] == q[1] and r[1] == s[1] and p[0] != q[0] and r[0] != s[0]:
            overlap = min(max(p[0], q[0]), max(r[0], s[0])) - max(min(p[0], q[0]), min(r[0], s[0]))
            out.append((abs(p[1] - r[1]), overlap))
    return [(gap, overlap) for gap, overlap in out if overlap > 0]


def _gap(block: Rect, points) -> float:
    """Distance from a label block to the nearest segment of a route."""
    best = float("inf")
    for a, b in _segments(points):
        dx = max(min(a[0], b[0]) - block.right, block.x - max(a[0], b[0]), 0.0)
        dy = max(min(a[1], b[1]) - block.bottom, block.y - max(a[1], b[1]), 0.0)
        best = min(best, (dx * dx + dy * dy) ** 0.5)
    return best


def test_the_stream_back_to_the_client_goes_around_the_flow():
    """The serving flow's long back edge (streamer -> client) crosses no other route and runs outside the
    boxes' extent, not up the channel beside the forward routes (or, where the folding put the two boxes side by
    side or one above the other, straight from one to the other, through no other box)."""
    spec, layout = _layout(serving_flow())
    back = next(key for key, t in spec.targets.items() if getattr(t, "source", None) == "streamer")
    route = layout.arrows[back].points
    for key, arrow in layout.arrows.items():
        if key != back:
            assert _crossings(route, arrow.points) == 0, (back, key)
    if len(route) == 2:  # straight: the two boxes are neighbours in a row or in a column
        (x0, y0), (x1, y1) = route
        assert x0 == x1 or y0 == y1
        assert not any(box.crossed_by(*route) for key, box in layout.boxes.items() if key not in ("client", "streamer"))
        return
    left = min(b.x for b in layout.boxes.values())
    right = max(b.right for b in layout.boxes.values())
    longest = max(_segments(route), key=lambda s: abs(s[1][1] - s[0][1]))
    assert longest[0][0] == longest[1][0] and not left < longest[0][0] < right, longest
    assert len(route) - 2 <= 2  # out, along, in: two bends


@pytest.mark.parametrize("name", sorted(set(SHAPES) - CROWDED))
def test_parallel_routes_keep_their_clearance(name):
    _, layout = _layout(SHAPES[name])
    for (k1, a1), (k2, a2) in itertools.combinations(layout.arrows.items(), 2):
        for gap, overlap in _parallel_gaps(a1.points, a2.points):
            assert gap >= NEAR, (name, k1, k2, gap, overlap)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_label_is_beside_its_own_route_and_nearer_it_than_any_other(name):
    _, layout = _layout(SHAPES[name])
    for key, arrow in layout.arrows.items():
        if arrow.label_box is None:
            continue
        own = _gap(arrow.label_box, arrow.points)
        assert own <= LABEL_GAP + 2.5, (name, key, own)  # beside its route, not somewhere near it
        for other_key, other in layout.arrows.items():
            if other_key != key:
                assert _gap(arrow.label_box, other.points) >= own + min(AMBIGUOUS, 4), (name, key, other_key)


def test_a_label_moves_to_the_side_where_no_other_route_runs():
    """Two vertical routes side by side: the left one's label goes to its left, not between the two."""
    from mechdiagram.layout.labels import place_labels

    routes = {"a": [(100.0, 0.0), (100.0, 200.0)], "b": [(150.0, 200.0), (150.0, 0.0)]}
    lines = {"a": (("a long label",),)}
    placed = place_labels(routes, lines, [])
    assert placed["a"].block.right <= 100 and placed["a"].clean
    alone = place_labels({"a": routes["a"]}, lines, [])
    assert alone["a"].block.x >= 100  # alone, the first candidate (right of the run) wins


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_routes_between_aligned_neighbours_run_straight(name):
    """A route between two boxes of one row or one column with nothing between them has no bend."""
    spec, layout = _layout(SHAPES[name])
    for key, arrow in layout.arrows.items():
        target = spec.targets[key]
        a, b = layout.boxes[target.source], layout.boxes[target.dest]
        (r1, c1), (r2, c2) = layout.cells[target.source], layout.cells[target.dest]
        neighbours = (r1 == r2 and abs(c1 - c2) == 1) or (c1 == c2 and abs(r1 - r2) == 1)
        shared = sum(1 for other in spec.paths if {other.source, other.dest} == {target.source, target.dest}
                     or other.source == target.source or other.dest == target.dest)
        if (neighbours and shared == 1 and (a.y, a.h) == (b.y, b.h)) or (neighbours and shared == 1 and a.x == b.x):
            assert len(arrow.points) == 2, (name, key, arrow.points)


def test_a_source_fanning_out_sits_level_with_the_middle_of_its_targets():
    _, layout = _layout(SHAPES["fan-out-in"])
    rows = sorted(layout.cells[f"w{i}x"][0] for i in range(6))
    assert layout.cells["lb"][0] in (rows[2], rows[3])
    assert layout.cells["agg"][0] in (rows[2], rows[3])


def test_a_channel_that_many_routes_turn_in_is_wider():
    """In the 40-node graph the gaps between rows differ: one that many routes turn in is wider than the
    base gap, and no route has a hook (a turn back against its own direction) in it."""
    from mechdiagram.layout.sizes import GAP_Y

    _, layout = _layout(SHAPES["forty"])
    tops = sorted({b.y for b in layout.boxes.values()})
    bottoms = sorted({b.bottom for b in layout.boxes.values()})
    gaps = [round(t - b, 1) for b, t in zip(bottoms, tops[1:], strict=False)]
    assert min(gaps) == GAP_Y and max(gaps) > GAP_Y, gaps
    for key, arrow in layout.arrows.items():
        assert not _hooks(arrow.points), (key, arrow.points)


def _hooks(points) -> list:
    """Short U-turns: a run, a short step aside (under 20 units), and a run back the other way."""
    runs = _segments(points)
    found = []
    for (a, b), (_, c), (_, d) in zip(runs, runs[1:], runs[2:], strict=False):
        first, middle, last = (b[0] - a[0], b[1] - a[1]), abs(c[0] - b[0]) + abs(c[1] - b[1]), (d[0] - c[0], d[1] - c[1])
        if (first[0] * last[0] < 0 or first[1] * last[1] < 0) and middle < 20:
            found.append((a, b, c, d))
    return found


def test_the_hook_check_finds_a_hook():
    assert _hooks([(0, 0), (30, 0), (30, 10), (20, 10)]) and not _hooks([(0, 0), (30, 0), (30, 50), (20, 50)])


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_no_route_has_a_hook(name):
    _, layout = _layout(SHAPES[name])
    for key, arrow in layout.arrows.items():
        assert not _hooks(arrow.points), (name, key, arrow.points)


@pytest.mark.parametrize("label", ["長いラベル：テスト", "a long path label here", "A rather long label for a path",
                                   "Supercalifragilisticexpialidocious-ish word"])
def test_path_labels_wrap_in_balanced_lines_and_never_break_a_word_they_need_not(label):
    from mechdiagram.layout.measure import CONTINUATION, text_width, wrap
    from mechdiagram.layout.placement import label_width, path_label_lines, path_label_wraps
    from mechdiagram.layout.sizes import PATH_LABEL_SIZE, PATH_LABEL_WIDTH

    # The label's width: PATH_LABEL_WIDTH, grown for a long word (label_width); a word broken between characters
    # ends its line with the continuation mark.
    greedy = wrap(label, label_width(label), PATH_LABEL_SIZE)
    lines = path_label_lines(label)
    assert len(lines) == len(greedy)
    assert "".join(line.removesuffix(CONTINUATION) for line in lines).replace(" ", "") == label.replace(" ", "")
    widths = [text_width(line, PATH_LABEL_SIZE) for line in lines]
    assert max(widths) <= max(text_width(line, PATH_LABEL_SIZE) for line in greedy)
    if len(lines) > 1:  # balanced: the last line is not a scrap
        assert widths[-1] >= max(widths) / 3, lines
    for way in path_label_wraps(label):
        if all(text_width(word, PATH_LABEL_SIZE) <= PATH_LABEL_WIDTH for word in label.split()):
            assert [w for line in way for w in line.split()] == label.split(), way


def test_a_cycles_arrow_back_is_one_u_around_the_row():
    """fetch -> decode -> execute -> fetch in one row: the closing arrow leaves execute and enters fetch on
    the same side of the row, in two bends, below or above every box."""
    spec, layout = _layout(SHAPES["cycle"])
    back = next(key for key, t in spec.targets.items() if getattr(t, "source", None) == "execute")
    points = layout.arrows[back].points
    assert len(points) - 2 == 2, points
    run = points[1][1]
    assert all(run >= b.bottom for b in layout.boxes.values()) or all(run <= b.y for b in layout.boxes.values())


def test_the_layered_layout_is_the_same_every_time():
    """grandalf gathered a component's edges in a set of objects hashed by their address, so this graph came out
    in one of two layouts from one call to the next (and from one process to the next); the layers now follow
    the order the edges are given in."""
    from support.topologies import with_graph

    edges = [(8, 4), (3, 6), (5, 2), (2, 7), (2, 8), (9, 3), (0, 6), (0, 2), (1, 6), (5, 3), (0, 5), (5, 4),
             (7, 5), (1, 7), (2, 1), (4, 8), (6, 7), (2, 6), (2, 1), (1, 2)]
    data = with_graph({f"k{i}x": f"stage {i}" for i in range(10)},
                      [(f"k{a}x", f"k{b}x", None) for a, b in edges])
    spec = spec_from_data(data)
    wide = {repr(sorted(diagram(spec).cells.items())) for _ in range(30)}
    narrow = {repr(diagram(spec, narrow=True).arrows) for _ in range(10)}
    assert len(wide) == 1 and len(narrow) == 1, (len(wide), len(narrow))


def test_two_routes_between_one_pair_of_boxes_nest_instead_of_crossing():
    """On the side they share, the route that meets the other box higher (its left side, level with the
    box) takes the upper port, and the one that meets it lower (out of its bottom) the lower: the first
    runs inside the second, as in serving-stack's write K/V and read history."""
    from mechdiagram.layout.geometry import Box
    from mechdiagram.layout.ports import PathEnds, port_fractions

    boxes = {"model": Box(300, 200, 160, 110, key="model"), "kv": Box(590, 20, 160, 130, key="kv")}
    paths = [PathEnds("read", "kv", "model"), PathEnds("write", "model", "kv")]  # "read" sorts first by key
    sides = {"read": ("bottom", "right"), "write": ("right", "left")}
    fractions = port_fractions(boxes, paths, sides)
    assert fractions[("write", "source")] < fractions[("read", "dest")]
    layout = diagram(spec_from_data(SHAPES["serving-stack.mechanism.json"]))
    crossings = [(k1, k2) for (k1, a1), (k2, a2) in itertools.combinations(layout.arrows.items(), 2)
                 if any(_crosses(s, t) for s in itertools.pairwise(a1.points) for t in itertools.pairwise(a2.points))]
    assert crossings == []


def _crosses(s, t):
    """Whether a horizontal and a vertical segment cross inside both."""
    (ax, ay), (bx, by) = s
    (cx, cy), (dx, dy) = t
    if ay == by and cx == dx:
        return min(ax, bx) < cx < max(ax, bx) and min(cy, dy) < ay < max(cy, dy)
    if ax == bx and cy == dy:
        return min(cx, dx) < ax < max(cx, dx) and min(ay, by) < cy < max(ay, by)
    return False


def test_labelled_routes_side_by_side_each_get_their_label_above_them():
    """Four labelled messages between two threads (web-worker): the boxes grow so that the routes are
    LABELLED_PITCH apart, and every label sits above its own route, clearly nearer it than the next."""
    from mechdiagram.layout.sizes import LABELLED_PITCH

    layout = diagram(spec_from_data(SHAPES["web-worker.mechanism.json"]))
    between = [a for a in layout.arrows.values() if {a.key} <= {"cancel", "done", "generate", "token"}]
    assert len(between) == 4
    ys = sorted(a.points[0][1] for a in between)
    assert min(b - a for a, b in itertools.pairwise(ys)) >= LABELLED_PITCH - 0.5
    for arrow in between:
        line = arrow.points[0][1]
        assert arrow.label_box.bottom <= line and line - arrow.label_box.bottom <= LABEL_GAP + 0.5, arrow.key


@pytest.mark.parametrize("edges", [
    [("a", "b", None if i % 2 == 0 else f"m{i}") for i in range(6)],  # unlabelled routes share the side too
    [("a", "b", f"a rather long message label number {i}") for i in range(3)],  # labels of several lines
])
def test_labels_of_routes_side_by_side_stay_off_the_neighbouring_routes(edges):
    """The boxes grow for every route on the shared sides and for each label's lines: no label lies on another
    route, and each is nearer its own than any other."""
    from support.topologies import with_graph

    layout = diagram(spec_from_data(with_graph({"a": "box a", "b": "box b"}, edges)))
    for key, arrow in layout.arrows.items():
        if arrow.label_box is None:
            continue
        own = _gap(arrow.label_box, arrow.points)
        for other_key, other in layout.arrows.items():
            if other_key != key:
                assert _gap(arrow.label_box, other.points) >= own + min(AMBIGUOUS, 4), (key, other_key)


def test_a_label_keeps_off_the_strip_between_lane_bands_where_it_has_room():
    """A band's edge ran through "page 8 taken" and "all 8 pages returned" (paged-kv-cache at 1280 px): where a
    place clear of boxes and routes keeps off the page strip between two lane bands, the label takes it."""
    from mechdiagram.layout import _band_gaps
    from mechdiagram.layout.labels import place_labels

    route = {"a": [(50.0, 0.0), (50.0, 200.0)]}
    strip = Rect(0.0, 99.0, 200.0, 2.0)  # across the middle of the route, where the first candidate goes
    placed = place_labels(route, {"a": (("label",),)}, [], [strip])["a"]
    assert placed.clean and not placed.block.overlaps(strip.grown(1.0)), placed.block
    data = json.loads((MECHANISMS / "paged-kv-cache.mechanism.json").read_text("utf-8"))
    drawn = diagram(spec_from_data(data))
    strips = _band_gaps(drawn.bands)
    assert len(strips) == 2
    assert not [key for key, arrow in drawn.arrows.items() if arrow.label_box is not None
                and any(arrow.label_box.overlaps(s.grown(1.0)) for s in strips)]


def test_a_pair_between_two_boxes_runs_straight_where_one_box_has_a_third_port():
    """The serving stack's forward pass and KV cache: three ports on the forward pass's right (write K/V out, read
    history in, the scheduler's reserve arrow beside them) and two on the cache's left.  Spread along each side as
    its own count asks, write K/V and read history jogged twice each; the cache's two ports line up with the forward
    pass's, 50 units apart, and both run straight.  Where lining up would bring a pair of horizontal runs nearer
    than PAIR_LABEL_ROOM (a service of one line, 56 units tall, with a query and its rows beside a third arrow: 20
    units), no label fits between them: the database keeps its two ports 28 units apart and the pair its jogs (a
    break-it review: a label crossed by the other line)."""
    from mechdiagram.layout.ports import PAIR_LABEL_ROOM
    from support.topologies import with_graph

    serving = diagram(spec_from_data(json.loads((MECHANISMS / "serving-stack.mechanism.json").read_text("utf-8"))))
    for key in ("write", "read"):
        assert len(serving.arrows[key].points) == 2, serving.arrows[key].points
    apart = abs(serving.arrows["write"].points[0][1] - serving.arrows["read"].points[0][1])
    assert apart >= PAIR_LABEL_ROOM, apart
    data = with_graph({"gw": "API gateway", "svc": "Orders service", "db": "Database", "cache": "Cache"},
                      [("gw", "svc", "forward"), ("svc", "db", "SELECT"), ("db", "svc", "rows"),
                       ("svc", "cache", None)])
    drawn = diagram(spec_from_data(data))
    query, rows = drawn.arrows["e1"].points, drawn.arrows["e2"].points
    assert abs(query[-1][1] - rows[0][1]) >= PAIR_LABEL_ROOM  # at the database: not brought to the service's 20
    assert len(query) == len(rows) == 4, (query, rows)


def test_a_pair_of_runs_in_the_phones_column_has_its_labels_outside_it():
    """A handshake's ClientHello and ServerHello run straight between Client and Server, 32 units apart, in the
    phone's column; the tracks' labels took the room right of the pair, and ServerHello was printed between the runs,
    over ClientHello and across its line.  The tracks now keep clear of the outer run's label: each label sits
    outside the pair, beside its own run, and no rule of route_rules is broken."""
    from mechdiagram.layout.checks import against_flow
    from mechdiagram.layout.route_rules import faults
    from support.edge_topologies import edge_topologies

    spec = spec_from_data(edge_topologies()["handshake"])
    drawn = diagram(spec, narrow=True)
    hello, reply = drawn.arrows["e0"], drawn.arrows["e1"]  # client -> server, server -> client
    (left_x, _), (right_x, _) = hello.points[0], reply.points[0]
    assert left_x < right_x and len(hello.points) == len(reply.points) == 2  # straight runs, side by side
    assert hello.label_box.right <= left_x - 5 and reply.label_box.x >= right_x + 5, (hello.label_box,
                                                                                        reply.label_box)
    assert not hello.label_box.overlaps(reply.label_box)
    assert faults(drawn.arrows, against_flow(spec, drawn, narrow=True)) == []


def _lookup(positions: bool) -> dict:
    """A new user's DNS lookup: every query paired with its reply, a cache beside the resolver."""
    data = with_graph({"laptop": "Laptop (stub resolver)", "resolver": "Recursive resolver",
                       "cache": "Resolver cache", "auth": "Authoritative server for example.org"},
                      [("laptop", "resolver", "A? www.example.org"), ("resolver", "cache", "look up"),
                       ("resolver", "auth", "A? www.example.org"), ("auth", "resolver", "192.0.2.10, TTL 300 s"),
                       ("resolver", "laptop", "192.0.2.10"), ("resolver", "cache", "store for 300 s")])
    if positions:
        cells = {"laptop": (0, 0), "resolver": (0, 1), "cache": (0, 2), "auth": (1, 2)}
        data["layout"] = {"positions": {key: {"row": row, "column": column} for key, (row, column) in cells.items()}}
    return data


def test_a_request_and_its_reply_between_boxes_out_of_line_jog_without_crossing():
    """A query down to the resolver and its reply back up, each with one jog in the channel between the laptop and
    the resolver (one with the flow, one against it), take their jogs in the order that does not cross (the reply's
    jog was not put in order, and crossed the query's); with the layering left to the layout, the lookup then flows
    from the laptop, its first box, instead of from the authoritative server (a new user's)."""
    placed = diagram(spec_from_data(_lookup(positions=True)))
    arrows = list(placed.arrows.values())
    assert [(a.key, b.key) for a, b in itertools.combinations(arrows, 2)
            if any(_crosses(s, t) for s in itertools.pairwise(a.points) for t in itertools.pairwise(b.points))] == []
    assert {len(placed.arrows[key].points) for key in ("e0", "e4")} == {4}  # each has its jog
    free = diagram(spec_from_data(_lookup(positions=False)))
    assert free.cells["laptop"][1] < free.cells["resolver"][1] < free.cells["auth"][1]


@pytest.mark.parametrize(("name", "key"), [("long-lane-names", "e2"), ("long-lane-names", "e1"),
                                           ("lanes-with-skips", "e2"), ("lanes-with-skips", "e6"), ("grid-skips", "e0")])
def test_a_skip_within_a_lane_is_an_arc_beside_the_lane(name, key):
    """An arrow between two boxes of one lane with a box between them runs out of a side of its source, along the lane
    past the box between and into the same side of its target: two bends (the search drew three, out of the source's
    foot and into the target's side, four around the lane's end)."""
    spec = spec_from_data((topologies() | edge_topologies())[name])
    drawn = diagram(spec)
    path = spec.targets[key]
    assert drawn.cells[path.source][0] == drawn.cells[path.dest][0]  # one lane
    points = drawn.arrows[key].points
    assert len(points) == 4, points
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points
    assert x0 == x1 and y1 == y2 and x2 == x3 and (y1 - y0) * (y2 - y3) > 0, points  # out and back in on one side


def _lanes(data: dict, *names: str) -> dict:
    data["layout"] = {"lanes": [{"key": "abc"[i], "label": name} for i, name in enumerate(names)]}
    return data


def test_an_arc_takes_no_side_another_arrow_uses_nor_runs_along_another():
    """A break-it review's lane grids: an arc into the middle of a side another arrow leaves by put its head on that
    arrow's start (a junction, a head and a parallel run); an arc whose crossings went down ran 420 units along another
    arrow (a junction). Neither is drawn: the arrows keep their searched routes there."""
    shared = _lanes(with_graph(
        {"a0": "decode a0", "a1": "wait for it a1", "b0": "x b0", "b1": "decode b1", "c0": "wait for it c0",
         "c1": "x c1"},
        [("c1", "b1", "reply with data"), ("b1", "c1", "reply with data"), ("c0", "a0", "hand over"),
         ("a0", "c1", None), ("c0", "a0", None)]), "Client", "Relay", "Relay")
    along = _lanes(with_graph(
        {"a0": "decode a0", "a1": "step a1", "a2": "send the reply a2", "a3": "send the reply a3",
         "a4": "wait for it a4", "b0": "cache page 7 b0", "b1": "send the reply b1", "b2": "cache page 7 b2",
         "b3": "x b3"},
        [("a2", "a3", "ack"), ("a1", "a3", "ack"), ("a0", "b3", "skip ahead"), ("a0", "a4", "ack"),
         ("a1", "b2", "reply with data"), ("b1", "b3", "ack"), ("b0", "b3", "ack")]), "Relay", "Client")
    for data in (shared, along):
        spec = spec_from_data(data)
        drawn = diagram(spec)
        kinds = {fault.kind for fault in faults(drawn.arrows, against_flow(spec, drawn, narrow=False))}
        assert not kinds & {"junction", "parallel"}, kinds
    drawn = diagram(spec_from_data(shared))
    assert not [fault for fault in faults(drawn.arrows) if fault.kind == "head"]


def test_a_spread_drawing_whose_centred_jogs_break_a_label_rule_keeps_its_spread():
    """Five boxes, two pairs of a query and its reply: centred, a jog split the run a long label sat on, the spread
    drawing broke a label rule and was dropped (748 units, a break-it review); it is spread with its jogs where the
    routing left them instead, and breaks no rule."""
    spec = spec_from_data(with_graph(
        {"n0x": "Client n0x", "n1x": "Resolver n1x", "n2x": "Cache n2x", "n3x": "Cache n3x", "n4x": "Cache n4x"},
        [("n3x", "n1x", "A? www.example.org"), ("n1x", "n3x", "reply"), ("n2x", "n3x", None), ("n3x", "n2x", "reply"),
         ("n1x", "n0x", "A? www.example.org"), ("n0x", "n4x", "query"), ("n4x", "n0x", "reply")]))
    drawn = diagram(spec)
    assert drawn.natural is not None and drawn.width > drawn.natural.width
    assert faults(drawn.arrows, against_flow(spec, drawn, narrow=False)) == []


def test_an_arc_beside_a_column_leaves_room_for_the_labels_of_the_runs_it_passes():
    """The five-service checkout's "paid", an arc from Payments up to Cart, ran 12 units left of the column, through
    "reserve", the outer label of the Cart-Inventory pair, which it passes (a label crossed, and nearer the arc than
    its own arrow).  The innermost arc of a side now runs beyond the labels of the straight runs it spans that
    stand in the half of their boxes towards it, with room to spare; the outer arcs nest beyond it.  The drawing
    breaks no rule, and every label is nearer its own arrow than any other."""
    from mechdiagram.layout.routing import ARC_LABEL_AIR

    spec = spec_from_data(edge_topologies()["five-services"])
    drawn = diagram(spec)
    assert not faults(drawn.arrows, against_flow(spec, drawn, narrow=False))
    reserve = next(arrow for arrow in drawn.arrows.values() if arrow.label_lines == ("reserve",))
    paid = next(arrow for arrow in drawn.arrows.values() if arrow.label_lines == ("paid",))
    run_x = reserve.points[0][0]
    arc_x = min(x for x, _ in paid.points)
    assert reserve.label_box is not None and reserve.label_box.right < run_x  # left of its run, towards the arc
    assert arc_x <= reserve.label_box.x - ARC_LABEL_AIR  # the arc beyond it, with room
    order_mail = next(arrow for arrow in drawn.arrows.values() if arrow.label_lines == ("order mail",))
    assert min(x for x, _ in order_mail.points) < arc_x  # the outer arc beyond the inner
