"""Groups (the spec's ``groups``) in the layout: every group's frame holds its members' boxes and no other box,
frames never meet, a frame's label is clear of the boxes, the arrows and their labels, an arrow between a member
and a non-member crosses its frame's edge once (none between two members) and none runs along a frame, on
generated graphs wide, narrow and folded, and in the sequence view a band over the members' heads.  A spec without
groups lays out as it did."""

from __future__ import annotations

import copy

import pytest

from mechdiagram.layout import Diagram, diagram, layout_scenario
from mechdiagram.layout.geometry import Rect
from mechdiagram.layout.route_rules import faults, frame_faults, group_faults, line
from mechdiagram.shared.model import spec_from_data
from support.sequences import sequence_spec
from support.topologies import serving_flow, with_graph


def grouped(data: dict, groups: dict[str, tuple[str, list[str]]]) -> dict:
    """``data`` with ``groups`` (key -> (label, members))."""
    data = copy.deepcopy(data)
    data["groups"] = {key: {"label": label, "members": members} for key, (label, members) in groups.items()}
    return data


def web_app() -> dict:
    nodes = {"browser": "Browser", "cdn": "CDN edge", "web": "Web server", "api": "API service",
             "queue": "Job queue", "db": "Database"}
    edges = [("browser", "cdn", "GET /cart"), ("cdn", "web", "cache miss"), ("web", "api", "REST call"),
             ("api", "db", "SELECT"), ("api", "queue", "email job")]
    return grouped(with_graph(nodes, edges), {"frontend": ("Frontend", ["cdn", "web"]),
                                              "backend": ("Backend", ["api", "queue", "db"])})


def serving() -> dict:
    return grouped(serving_flow(), {"engine": ("GPU engine", ["gpu", "kv", "sampler"]),
                                    "edge": ("API edge", ["gateway", "tokenizer"])})


def fan() -> dict:
    """A source fanning out to six targets, three of them grouped, and a fan-in back."""
    nodes = {"src": "Load balancer", **{f"w{i}": f"Worker {i}" for i in range(6)}, "sink": "Results"}
    edges = [("src", f"w{i}", f"job {i}") for i in range(6)] + [(f"w{i}", "sink", None) for i in range(6)]
    return grouped(with_graph(nodes, edges), {"pool": ("Spot pool", ["w1", "w2", "w3"])})


def chain(n: int) -> dict:
    """A chain of ``n`` boxes (folded into bands), its middle four grouped."""
    key = [f"stage_{chr(97 + i)}" for i in range(n)]  # not <lane><index> keys: a layered graph, not a lane grid
    nodes = {key[i]: f"Stage {i}" for i in range(n)}
    edges = [(key[i], key[i + 1], "next" if i % 3 == 0 else None) for i in range(n - 1)]
    middle = n // 2
    return grouped(with_graph(nodes, edges), {"mid": ("Middle stages", key[middle - 2:middle + 2])})


def loose_member() -> dict:
    """A group with a member that no path touches (it stays in the group's block, not in the loose rows)."""
    nodes = {"a": "Alpha", "b": "Beta", "c": "Gamma", "d": "Delta (no paths)"}
    edges = [("a", "b", "one"), ("b", "c", "two")]
    return grouped(with_graph(nodes, edges), {"g": ("Beta and Delta", ["b", "d"])})


GRAPHS = {"web-app": web_app, "serving": serving, "fan": fan, "chain-12": lambda: chain(12),
          "chain-20": lambda: chain(20), "loose-member": loose_member}


def _inside(inner: Rect, outer: Rect) -> bool:
    return (outer.x <= inner.x and inner.right <= outer.right and outer.y <= inner.y
            and inner.bottom <= outer.bottom)


def check_geometry(data: dict, drawn: Diagram, inner_tracks: bool = False) -> None:
    """The rules of the module docstring on one laid-out diagram; with ``inner_tracks`` (the narrow column) a path
    between two members of a group may leave its frame for a track right of the column and come back, where
    another path's label leaves the frame no room to reach over that track, its label then across the frame's side
    (``validate`` warns of both)."""
    spec = spec_from_data(data)
    assert set(drawn.groups) == set(spec.groups)
    frames = list(drawn.groups.values())
    for frame in frames:
        members = set(spec.groups[frame.key].members)
        for key, box in drawn.boxes.items():
            if key in members:
                assert _inside(box, frame), (frame.key, key)
            else:
                assert not frame.overlaps(box), (frame.key, key)
        label = frame.label_box
        assert label is not None and _inside(label, frame)
        assert not any(label.overlaps(box) for box in drawn.boxes.values()), frame.key
        for arrow in drawn.arrows.values():
            points = line(arrow)
            assert not any(label.crossed_by(a, b) for a, b in zip(points, points[1:], strict=False)), \
                (frame.key, arrow.key)
            if arrow.label_box is not None:
                assert not arrow.label_box.overlaps(label), (frame.key, arrow.key)
    for a, b in ((a, b) for i, a in enumerate(frames) for b in frames[i + 1:]):
        assert not a.overlaps(b), (a.key, b.key)
    faults = group_faults(drawn.arrows, dict(drawn.groups),
                          {k: f.label_box for k, f in drawn.groups.items() if f.label_box is not None})
    if inner_tracks:
        spec_paths = {p.key: p for p in spec.paths}
        faults = [f for f in faults if not (
            f.kind in ("frame-weave", "label-frame") and {spec_paths[f.key].source, spec_paths[f.key].dest}
            <= set(spec.groups[f.other].members))]
    assert faults == []


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_groups_hold_their_members_and_nothing_else_wide(name):
    data = GRAPHS[name]()
    check_geometry(data, diagram(spec_from_data(data)))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_groups_hold_their_members_and_nothing_else_narrow(name):
    data = GRAPHS[name]()
    drawn = diagram(spec_from_data(data), narrow=True)
    check_geometry(data, drawn, inner_tracks=name == "serving")
    spec = spec_from_data(data)
    order = sorted(drawn.boxes, key=lambda key: drawn.boxes[key].y)
    for group in spec.groups.values():  # the members follow one another in the column
        places = sorted(order.index(m) for m in group.members)
        assert places == list(range(places[0], places[0] + len(places)))


def test_arrows_into_a_group_cross_its_edge_once():
    data = web_app()
    drawn = diagram(spec_from_data(data))
    frontend = drawn.groups["frontend"]
    browser_to_cdn = next(a for a in drawn.arrows.values() if a.key == "e0")
    tip = browser_to_cdn.head[0]
    assert _inside(Rect(tip[0], tip[1], 0, 0), frontend)
    assert not _inside(Rect(*browser_to_cdn.points[0], 0, 0), frontend)


def test_a_folded_chain_keeps_its_group_in_one_band():
    data = chain(20)
    drawn = diagram(spec_from_data(data))
    ys = {key: box.y for key, box in drawn.boxes.items()}
    xs = {key: box.x for key, box in drawn.boxes.items()}
    assert len(set(ys.values())) > 1 and len(set(xs.values())) > 1  # folded: more than one row and column
    check_geometry(data, drawn)


def test_a_layout_without_groups_is_the_same_as_with_an_empty_groups_object():
    for make in (serving_flow, lambda: with_graph({"a": "A", "b": "B"}, [("a", "b", "x")])):
        data = make()
        empty = dict(data, groups={})
        assert diagram(spec_from_data(data)) == diagram(spec_from_data(empty))
        assert diagram(spec_from_data(data), narrow=True) == diagram(spec_from_data(empty), narrow=True)
        assert diagram(spec_from_data(data)).groups == {}


def test_groups_room_in_the_gaps_leaves_the_cells_of_an_ungrouped_graph_alone():
    data = serving_flow()
    plain = diagram(spec_from_data(data))
    assert set(plain.cells) == set(diagram(spec_from_data(serving())).cells)


def test_layout_scenario_carries_the_frames():
    data = web_app()
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    assert set(layout.groups) == {"frontend", "backend"}
    assert layout.groups["frontend"].lines == ("Frontend",)


def test_sequence_band_spans_the_members_heads():
    data = sequence_spec(5, 6)
    data["groups"] = {"mid": {"label": "The middle tier", "members": ["p1", "p2"]},
                      "end": {"label": "Stores", "members": ["p3", "p4"]}}
    for narrow in (False, True):
        drawn = diagram(spec_from_data(data), narrow=narrow)
        bands = drawn.groups
        heads = drawn.boxes
        top = min(box.y for box in heads.values())
        for key, members in (("mid", ("p1", "p2")), ("end", ("p3", "p4"))):
            band = bands[key]
            assert band.centred and band.bottom <= top  # over the heads
            for member in members:  # over each member's lifeline
                assert band.x < drawn.sequence.x[member] < band.right
            others = [k for k in heads if k not in members]
            assert not any(band.x < drawn.sequence.x[k] < band.right for k in others)
            assert band.label_box is not None and _inside(band.label_box, band)
        assert not bands["mid"].overlaps(bands["end"])
        assert drawn.sequence.order.index("p1") + 1 == drawn.sequence.order.index("p2")


def test_sequence_order_keeps_a_group_together():
    data = sequence_spec(4, 4)
    data["groups"] = {"outer": {"label": "Ends", "members": ["p0", "p3"]}}
    order = diagram(spec_from_data(data)).sequence.order
    assert abs(order.index("p0") - order.index("p3")) == 1


def test_sequence_without_groups_keeps_its_heads():
    data = sequence_spec(4, 4)
    assert diagram(spec_from_data(data)) == diagram(spec_from_data(dict(data, groups={})))


def test_a_folded_chain_with_a_node_without_arrows_keeps_its_groups_frame_to_its_members():
    """A break-it review: twelve stages in a chain, a group of three in the middle, and a node without arrows. The
    loose node's row was counted as a layer, so the folding was judged by bands one layer longer than it drew: the
    group's frame split over two bands and enclosed a fourth box, "stage 7"."""
    data = with_graph({f"n{i}x": f"stage {i}" for i in range(12)},
                      [(f"n{i}x", f"n{i + 1}x", "hop with a label") for i in range(11)])
    data["targets"]["z0x"] = {"id": "tz0", "kind": "node", "label": "loose note"}
    data["groups"] = {"g1": {"label": "grp", "members": ["n4x", "n5x", "n6x"]}}
    drawn = diagram(spec_from_data(data))
    frame = drawn.groups["g1"]
    chain = [cell for key, cell in drawn.cells.items() if key != "z0x"]
    assert len({row for row, _ in chain}) > 1 and len({column for _, column in chain}) > 1  # folded into bands
    touched = sorted(key for key, box in drawn.boxes.items() if frame.x < box.right and box.x < frame.x + frame.w
                     and frame.y < box.bottom and box.y < frame.y + frame.h)
    assert touched == ["n4x", "n5x", "n6x"]


def back_end() -> dict:
    """A compiler's phases, its back end grouped: two boxes one above the other, an arrow each way between them, both
    labelled (a new user's compiler pipeline printed "virtual registers" over "spill code" between the two runs)."""
    nodes = {"lex": "Lexer", "parse": "Parser", "check": "Type checker", "isel": "Instruction selection",
             "regalloc": "Register allocation", "link": "Linker"}
    edges = [("lex", "parse", "tokens"), ("parse", "check", "AST"), ("check", "isel", "typed IR"),
             ("isel", "regalloc", "virtual registers"), ("regalloc", "isel", "spill code"),
             ("regalloc", "link", "object file")]
    return grouped(with_graph(nodes, edges), {"backend": ("Back end", ["isel", "regalloc"])})


def test_a_groups_frame_widens_for_the_labels_of_opposite_arrows_between_its_members():
    drawn = diagram(spec_from_data(back_end()))
    frame = drawn.groups["backend"]
    assert not faults(drawn.arrows) and not frame_faults(drawn.arrows, drawn.groups)
    assert all(arrow.clean for arrow in drawn.arrows.values())
    up, down = drawn.arrows["e3"], drawn.arrows["e4"]  # isel -> regalloc, regalloc -> isel
    runs = sorted((arrow.points[0][0], key) for key, arrow in (("e3", up), ("e4", down)))
    assert all(arrow.points[0][0] == arrow.points[-1][0] for arrow in (up, down))  # each a straight vertical run
    (left_x, left), (right_x, right) = runs
    left_box, right_box = drawn.arrows[left].label_box, drawn.arrows[right].label_box
    assert left_box is not None and right_box is not None
    assert left_box.right <= left_x and right_box.x >= right_x  # each beside its run, on the outer side
    for box in (left_box, right_box):
        assert frame.x < box.x and box.right < frame.x + frame.w  # inside the frame


def test_an_arrow_out_of_a_groups_foot_turns_clear_of_its_frame():
    """The compiler pipeline's "type errors" left the type checker, at the front end's foot, and turned at the end
    of its stub, two units inside the frame's foot, running along it to the diagnostics box: its jog is moved beyond
    the frame's side, in the wide and the middle layout, and no arrow runs along or weaves across a frame."""
    from mechdiagram.layout import middle_diagram
    from mechdiagram.layout.route_rules import FRAME_NEAR
    from support.topologies import compiler_pipeline

    spec = spec_from_data(compiler_pipeline())
    for drawn in (diagram(spec), middle_diagram(spec)):
        assert drawn is not None
        assert frame_faults(drawn.arrows, drawn.groups) == []
        frame = drawn.groups["frontend"]
        points = drawn.arrows["e4"].points  # type checker -> diagnostics
        runs = [a[1] for a, b in zip(points, points[1:], strict=False) if a[1] == b[1]]
        assert runs and all(abs(y - (frame.y + frame.h)) >= FRAME_NEAR for y in runs), (points, frame)


def test_an_arrow_straight_into_a_groups_first_box_keeps_straight_and_the_label_moves_over():
    """Source files stand above the lexer, the front end's first box; the arrow between them crossed the group's label
    ("Front end", 77 units, with 67 units of the frame each side of the arrow), so the label was a wall and the arrow
    went round the frame's side with two bends.  The frame widens on its right for the label to sit right of the arrow,
    which runs straight down, in the wide and the middle layout; the label is clear of every line."""
    from mechdiagram.layout import middle_diagram
    from support.topologies import compiler_pipeline

    spec = spec_from_data(compiler_pipeline())
    for drawn in (diagram(spec), middle_diagram(spec)):
        assert drawn is not None
        points = drawn.arrows["e0"].points  # source files -> lexer
        assert len(points) == 2 and points[0][0] == points[1][0], points
        frame = drawn.groups["frontend"]
        assert frame.label_box is not None and frame.label_box.x > points[0][0]
        assert not group_faults(drawn.arrows, dict(drawn.groups), {"frontend": frame.label_box})


def test_on_a_phone_a_track_outside_a_group_keeps_room_from_its_frame_and_the_tracks_inside():
    """A designer read the serving stack's phone column, its "logits" track inside the GPU engine's frame, the
    frame's right edge and the "streamed text" track outside it, 6 units apart each, as one triple rail: an outer
    track now stands FRAME_TRACK_GAP (24 units) right of the inner tracks, the frame's edge half-way, TRACK_GAP from
    each."""
    import json

    from mechdiagram.layout.sizes import TRANSPOSED_MAX_WIDTH
    from mechdiagram.layout.stacked import TRACK_GAP
    from support.specs import MECHANISMS

    spec = spec_from_data(json.loads((MECHANISMS / "serving-stack.mechanism.json").read_text("utf-8")))
    narrow = diagram(spec, narrow=True)
    frame = narrow.groups["engine"]
    members = set(spec.groups["engine"].members)
    track = {key: arrow.points[1][0] for key, arrow in narrow.arrows.items() if len(arrow.points) > 2}
    inner = [x for key, x in track.items() if {spec.targets[key].source, spec.targets[key].dest} <= members]
    outer = [x for key, x in track.items() if x > max(inner)]
    assert inner and outer, track
    assert frame.right - max(inner) >= TRACK_GAP - 0.05 and min(outer) - frame.right >= TRACK_GAP - 0.05, \
        (max(inner), frame.right, min(outer))
    assert narrow.width <= TRANSPOSED_MAX_WIDTH  # still a phone's width
