"""Geometry of every figure: routes clear of boxes, labels clear of boxes and of each other, all in the canvas."""

from __future__ import annotations

import itertools
import json

import pytest

from mechdiagram.layout import diagram, grid_cells, layout_scenario
from mechdiagram.layout.geometry import Rect
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.sizes import HEAD_GAP, MIN_TEXT_PX, PAD_X, PATH_LABEL_SIZE
from mechdiagram.layout.transposed import PAD_X as TRANSPOSED_PAD_X
from mechdiagram.shared.model import spec_from_data
from support.reference_spec import reference_spec
from support.sequences import as_graph
from support.specs import MECHANISMS
from support.topologies import topologies

SHAPES = topologies() | {"reference": reference_spec()}
#: The shapes whose narrow variant is a stacked column (a lane grid's is transposed or its wide grid: issue 26).
STACKED = sorted(name for name in SHAPES if not grid_cells(spec_from_data(SHAPES[name]))[1])
SHAPES |= {p.name: json.loads(p.read_text("utf-8")) for p in sorted(MECHANISMS.glob("*.mechanism.json"))}
# The gallery's sequence (web-worker) as the layered graph it was: these tests are the graph layout's; the
# sequence view's are tests/layout/test_layout_sequence.py.
SHAPES = {name: as_graph(data) for name, data in SHAPES.items()}


def _name(header):
    """The block a lane header's text takes, measured here, apart from the layout's own helper."""
    return Rect(header.x, header.y, max(text_width(line) for line in header.lines), header.h)


def _segments(arrow):
    return list(itertools.pairwise(arrow.points))


@pytest.fixture(scope="module", params=[(name, narrow) for name in sorted(SHAPES) for narrow in (False, True)],
                ids=lambda p: f"{p[0]}{'-narrow' if p[1] else ''}")
def figure(request):
    """Each shape's first scenario in the wide layout and in the narrow one (one column of boxes)."""
    name, narrow = request.param
    spec = spec_from_data(SHAPES[name])
    return spec, layout_scenario(spec, spec.scenarios[0], diagram(spec, narrow=narrow))


def test_routes_are_orthogonal_and_never_cross_a_box(figure):
    _, layout = figure
    for key, arrow in layout.arrows.items():
        assert len(arrow.points) >= 2
        for a, b in _segments(arrow):
            assert a[0] == b[0] or a[1] == b[1], (key, a, b)  # horizontal or vertical
            for box in layout.boxes.values():
                assert not box.crossed_by(a, b), (key, box.key, a, b)
        assert arrow.clean, key


def test_an_active_ring_stays_inside_its_lane_band_clear_of_the_lane_names(figure):
    """The ring an active box gets (RING_GAP out) keeps 6 units inside the band of the lane the box is in, and
    off every lane name."""
    _, layout = figure
    for box in layout.boxes.values():
        ring = box.ring
        bands = [b for b in layout.bands if b.x <= box.x and box.right <= b.x + b.w and b.y <= box.y
                 and box.bottom <= b.y + b.h]
        for band in bands:
            assert min(ring.x - band.x, band.x + band.w - ring.right, ring.y - band.y,
                       band.y + band.h - ring.bottom) >= 6, box.key
        for header in layout.lanes:
            text = _name(header)
            assert not ring.grown(2).overlaps(text), (box.key, header.lines)


def test_no_badge_covers_a_lane_name(figure):
    _, layout = figure
    for header in layout.lanes:
        text = _name(header)
        for badge in layout.badges:
            assert not badge.overlaps(text), (badge.key, header.lines)


def test_no_route_crosses_a_lane_name(figure):
    """Neither in the header column nor in a strip above its lane (a name too long for the column)."""
    _, layout = figure
    for header in layout.lanes:
        text = _name(header)
        for key, arrow in layout.arrows.items():
            for a, b in _segments(arrow):
                assert not text.crossed_by(a, b), (key, header.lines)


def test_arrowheads_meet_the_target_edge(figure):
    spec, layout = figure
    for key, arrow in layout.arrows.items():
        target = layout.boxes[spec.targets[key].dest]
        tip = arrow.head[0]
        inside = target.x < tip[0] < target.right and target.y < tip[1] < target.bottom
        assert not inside, key
        gaps = [abs(tip[0] - target.x), abs(tip[0] - target.right), abs(tip[1] - target.y), abs(tip[1] - target.bottom)]
        assert min(gaps) == pytest.approx(HEAD_GAP, abs=0.2), key
        assert arrow.points[-1] != arrow.points[-2]


def test_routes_leave_from_their_source_side(figure):
    spec, layout = figure
    for key, arrow in layout.arrows.items():
        source = layout.boxes[spec.targets[key].source]
        x, y = arrow.start
        near = lambda v, w: abs(v - w) < 0.05  # noqa: E731
        on_side = ((near(x, source.x) or near(x, source.right)) and source.y <= y <= source.bottom) or \
            ((near(y, source.y) or near(y, source.bottom)) and source.x <= x <= source.right)
        assert on_side, (key, arrow.start)


def test_two_routes_never_share_a_stretch(figure):
    _, layout = figure
    for (k1, a1), (k2, a2) in itertools.combinations(layout.arrows.items(), 2):
        for (p, q), (r, s) in itertools.product(_segments(a1), _segments(a2)):
            if p[0] == q[0] == r[0] == s[0]:  # both vertical on one line
                overlap = min(max(p[1], q[1]), max(r[1], s[1])) - max(min(p[1], q[1]), min(r[1], s[1]))
            elif p[1] == q[1] == r[1] == s[1]:
                overlap = min(max(p[0], q[0]), max(r[0], s[0])) - max(min(p[0], q[0]), min(r[0], s[0]))
            else:
                continue
            assert overlap <= 0, (k1, k2)


def test_labels_touch_no_box_no_node_text_and_no_other_label(figure):
    _, layout = figure
    blocks = {key: arrow.label_box for key, arrow in layout.arrows.items() if arrow.label_lines}
    for key, block in blocks.items():
        assert block is not None
        for box in layout.boxes.values():
            assert not block.overlaps(box.grown(2)), (key, box.key)
        for header in layout.lanes:
            assert not block.overlaps(Rect(header.x, header.y, header.w, header.h)), key
    for (k1, b1), (k2, b2) in itertools.combinations(blocks.items(), 2):
        assert not b1.overlaps(b2), (k1, k2)


def test_no_label_lies_on_a_route(figure):
    """A label keeps 2 units from every route run beside or through its block (its own too: chromium draws the
    glyphs of a 13 px label 0.6 units beyond the block, so a block touching a line puts the text across it)."""
    _, layout = figure
    for key, arrow in layout.arrows.items():
        if not arrow.label_box:
            continue
        block = arrow.label_box
        for other, route in layout.arrows.items():
            for a, b in _segments(route):
                run = Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]), abs(b[1] - a[1]))
                assert not run.overlaps(block.grown(2) if other == key and a[1] == b[1] else block), (key, other, a, b)


def test_everything_is_inside_the_canvas(figure):
    _, layout = figure
    rects = [*layout.boxes.values(), *(a.label_box for a in layout.arrows.values() if a.label_box),
             layout.panel, *layout.bands]
    for rect in rects:
        assert rect.x >= 0 and rect.y >= 0 and rect.x + rect.w <= layout.width and rect.y + rect.h <= layout.height
    for arrow in layout.arrows.values():
        for x, y in (*arrow.points, *arrow.head):
            assert 0 <= x <= layout.width and 0 <= y <= layout.height


def test_box_text_stays_inside_its_box(figure):
    """With its padding: a transposed grid's (the narrow variant, lanes side by side) is less (issue 26)."""
    _, layout = figure
    transposed = layout.direction == "grid" and not layout.bands and len({b.x for b in layout.boxes.values()}) > 1
    pad = TRANSPOSED_PAD_X if transposed else PAD_X
    for box in layout.boxes.values():
        for line in box.lines:
            assert text_width(line) <= box.w - 2 * pad + 1e-6, (box.key, line)


def test_no_badge_covers_an_arrowhead(figure):
    """A poster badge sits where no arrowhead is: the head is what tells a route's direction."""
    _spec, layout = figure
    for badge in layout.badges:
        for key, arrow in layout.arrows.items():
            assert not badge.overlaps(arrow.head_box), (badge.text, key)


def test_no_two_boxes_overlap(figure):
    _, layout = figure
    for a, b in itertools.combinations(layout.boxes.values(), 2):
        assert not a.grown(10).overlaps(b), (a.key, b.key)


def test_the_layered_layout_flows_one_way():
    spec = spec_from_data(SHAPES["chain"])
    layout = layout_scenario(spec, spec.scenarios[0])
    assert layout.direction == "down"  # six layers: top to bottom suits a column
    # ... folded, as a column of six is too tall (test_layout_folding): down one band, up the next, each step
    # of the chain in the cell next to the one before
    cells = [layout.cells[f"n{i}x"] for i in range(6)]
    assert cells[:2] == [(0, 0), (1, 0)] and len({column for _, column in cells}) > 1, cells
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in itertools.pairwise(cells)), cells
    spec = spec_from_data(SHAPES["opposite-pairs"])
    assert layout_scenario(spec, spec.scenarios[0]).direction == "right"


def test_fan_out_crossings_are_reduced():
    spec = spec_from_data(SHAPES["fan-out-in"])
    layout = layout_scenario(spec, spec.scenarios[0])
    workers = sorted((layout.cells[f"w{i}x"], i) for i in range(6))
    assert len({cell[1] for cell, _ in workers}) == 1  # the six workers share one layer
    lb, agg = layout.cells["lb"], layout.cells["agg"]
    assert lb[1] < workers[0][0][1] < agg[1]


#: A README image is about 330 CSS px wide on a 360 px phone: 13 px path labels stay at 12 px or more in a
#: drawing this wide.
PHONE_IMAGE_PX = 330


@pytest.mark.parametrize("name", ["reference", "chain", "cycle", "fan-out-in", "opposite-pairs", "long-and-cjk", "forty"])
def test_the_narrow_layout_keeps_text_readable_in_a_phone_wide_image(name):
    spec = spec_from_data(SHAPES[name])
    narrow = layout_scenario(spec, spec.scenarios[0], diagram(spec, narrow=True))
    # one column, or a lane grid transposed (issue 26: the reference's lanes side by side)
    assert len({box.x for box in narrow.boxes.values()}) == 1 or narrow.direction == "grid"
    assert PATH_LABEL_SIZE * PHONE_IMAGE_PX / narrow.width >= MIN_TEXT_PX, narrow.width


def _narrow_track_labels(name: str) -> tuple[list[tuple[str, str]], float]:
    """The narrow layout of a topology or gallery spec: each labelled route on a track, with where its label is
    (``"stub"``: on one of its stubs by the column; ``"track"``: beside its track, between it and the column, on
    the track's side), checking as it goes that the nearest line is the one the label names; and the column's
    right edge."""
    from mechdiagram.layout.sizes import ARROW_HEAD
    from mechdiagram.layout.stacked import OWN_STUB_AIR, STUB_LABEL_INSET

    stub_air, track_air = 10.0, 16.0
    shapes = topologies()
    data = shapes[name] if name in shapes else as_graph(json.loads((MECHANISMS / f"{name}.mechanism.json")
                                                                   .read_text("utf-8")))
    drawn = diagram(spec_from_data(data), narrow=True)
    column_left = min(box.x for box in drawn.boxes.values())
    column_right = max(box.right for box in drawn.boxes.values())
    found = []
    for key, arrow in drawn.arrows.items():
        block = arrow.label_box
        if block is None or len(arrow.points) != 4:  # a straight run between neighbours: its label is beside it
            continue
        left = arrow.points[1][0] < column_left  # a track left of the column: the right side's, in a mirror
        stubs = (arrow.points[0][1], arrow.points[-1][1])
        # On the source's stub, OWN_STUB_AIR from it; on the target's, clear of the arrowhead there too.
        airs = (OWN_STUB_AIR, ARROW_HEAD / 2 + OWN_STUB_AIR)
        by_column = column_left - block.right if left else block.x - column_right
        on_stub = abs(by_column - STUB_LABEL_INSET) < 0.2 and any(
            abs(block.bottom + air - y) < 0.2 or abs(block.y - air - y) < 0.2 for y, air in zip(stubs, airs))
        head = Rect(min(x for x, _ in arrow.head), min(y for _, y in arrow.head), 0, 0)
        head = Rect(head.x, head.y, max(x for x, _ in arrow.head) - head.x, max(y for _, y in arrow.head) - head.y)
        assert not block.overlaps(head), (key, block, head)
        # its own track, 6 units beyond it (from the column)
        beside_track = abs((block.x - arrow.points[1][0] if left else arrow.points[1][0] - block.right) - 6) < 0.2
        assert on_stub or beside_track, key
        found.append((key, "stub" if on_stub else "track"))
        for other_key, other in drawn.arrows.items():
            if other_key == key:
                continue
            for (ax, ay), (bx, by) in itertools.pairwise(other.points):
                if ay == by and min(ax, bx) < block.right and block.x < max(ax, bx):  # a run under or over it
                    assert not block.y - stub_air < ay < block.bottom + stub_air, (key, other_key, ay, block)
                elif ax == bx and (ax < column_left if left else ax > column_right) and min(ay, by) < block.bottom \
                        and block.y < max(ay, by):
                    assert not block.x - track_air < ax < block.right + track_air, (key, other_key, ax, block)
    return found, column_right


@pytest.mark.parametrize("name", ["serving", "cycle", "serving-stack", "web-worker"])
def test_a_narrow_track_label_is_nearer_its_own_line_than_any_other(name):
    """In the narrow layout a route's label sits on one of its stubs (right above or below it, by the column)
    or beside its track (6 units to its left); either way it keeps 10 units from every other route's
    horizontal run and 16 from every other route's vertical run over its height: the nearest line is the one
    it names (the serving topology's "latency" sat 7 units above another route's run)."""
    found, _ = _narrow_track_labels(name)
    assert found


def test_serving_stacks_track_labels_all_sit_on_their_stubs():
    """serving-stack at 360 px: beside a bundle of five tracks (four since its sampler and KV cache swapped
    places) a label read as its neighbour's ("streamed text" over the corner of the scheduler's track).  On its
    stub, by the box it leaves or enters, it cannot: every track label there is on a stub."""
    found, _ = _narrow_track_labels("serving-stack")
    assert len(found) == 4 and {place for _, place in found} == {"stub"}, found


@pytest.mark.parametrize("name", ["cycle", "long-and-cjk"])
def test_the_narrow_column_takes_the_room_its_routes_leave(name):
    """The narrow drawing is NARROW_MIN_WIDTH wide at least: its boxes widen into the room the tracks leave, so
    their labels need no more lines than in a column of NARROW_BOX_MAX_WIDTH, and the drawing stays that wide;
    a column a long word widened wraps every label to its width."""
    from mechdiagram.layout.placement import box_lines
    from mechdiagram.layout.sizes import NARROW_BOX_MAX_WIDTH, NARROW_MIN_WIDTH

    spec = spec_from_data(SHAPES[name])
    drawn = diagram(spec, narrow=True)
    column = {round(box.w, 1) for box in drawn.boxes.values()}
    assert len(column) == 1, column
    if name != "long-and-cjk":  # its long word makes a column wider than that already
        assert drawn.width <= NARROW_MIN_WIDTH, drawn.width
    labels = {t.key: t.label or "" for t in spec.nodes}
    narrow_lines = sum(len(box_lines(labels[key], NARROW_BOX_MAX_WIDTH)) for key in drawn.boxes)
    assert sum(len(box.lines) for box in drawn.boxes.values()) <= narrow_lines
    if name == "reference":  # no paths, no tracks: the column takes all the width but the margins
        assert max(column) > NARROW_BOX_MAX_WIDTH, column


@pytest.mark.parametrize("paths", [0, 1])
def test_a_widened_narrow_column_never_puts_text_outside_its_box(paths):
    """The narrow column widens up to BOX_WORD_WIDTH and no further: a line wrapped for a wider box than that
    ran 0.6 units out of a box capped at 260."""
    from mechdiagram.layout.sizes import PAD_X
    from support.topologies import with_graph

    nodes = {"a": "pool cache memory memory a key attention request cache attention", "b": "short"}
    data = with_graph(nodes, [("a", "b", None)][:paths])
    drawn = diagram(spec_from_data(data), narrow=True)
    for box in drawn.boxes.values():
        assert all(text_width(line) + 2 * PAD_X <= box.w + 0.5 for line in box.lines), (box.w, box.lines)


def test_a_track_with_no_free_place_is_not_clean():
    """Forty paths each way between two boxes with one between them: the track search runs out for some, which
    are then marked not clean (validate warns) instead of clean far outside the figure."""
    from support.topologies import with_graph

    data = with_graph({"a": "A", "b": "B", "c": "C"}, [("a", "c", "x")] * 40 + [("c", "a", "x")] * 40)
    drawn = diagram(spec_from_data(data), narrow=True)
    assert any(not arrow.clean for arrow in drawn.arrows.values())  # every one said clean before


def test_a_lane_grid_with_no_routes_takes_a_phones_width_side_by_side():
    """batching has no paths: its phone column was as narrow as "step 1" needs beside an empty strip; then the
    drawing's width, lane after lane (a 2,408-unit column); now its three lanes stand side by side in a 320 px
    screen's width, each box a third of it, the boxes of one step on one row (issue 26)."""
    from mechdiagram.layout.sizes import MARGIN, NARROW_MIN_WIDTH

    data = json.loads((MECHANISMS / "batching.mechanism.json").read_text("utf-8"))
    drawn = diagram(spec_from_data(data), narrow=True)
    assert drawn.width == NARROW_MIN_WIDTH and drawn.bottom < 700
    assert len({box.x for box in drawn.boxes.values()}) == 3
    assert max(box.right for box in drawn.boxes.values()) > NARROW_MIN_WIDTH - 2 * MARGIN
    assert all(len({drawn.boxes[f"r{lane}{step}"].y for lane in "abc"}) == 1 for step in range(8))


def _crossings(arrows) -> int:
    """How often one route's segment crosses another's (a horizontal through a vertical, ends apart)."""
    def crossed(s, t) -> bool:
        (a, b), (c, d) = s, t
        if a[0] == b[0] and c[1] == d[1]:
            (x, _), ys, y, xs = a, (a[1], b[1]), c[1], (c[0], d[0])
        elif a[1] == b[1] and c[0] == d[0]:
            (x, _), ys, y, xs = c, (c[1], d[1]), a[1], (a[0], b[0])
        else:
            return False
        return min(xs) < x < max(xs) and min(ys) < y < max(ys)

    return sum(crossed(s, t) for p, q in itertools.combinations(arrows, 2) for s in _segments(p) for t in _segments(q))


@pytest.mark.parametrize("name", STACKED)
def test_narrow_tracks_cross_only_where_their_spans_interleave(name):
    """In the narrow column a track runs right or left of the boxes, so two tracks on one side whose spans of
    boxes interleave (one starts inside the other's and ends outside it) must cross once; any other crossing is
    one too many.  The ports nest the rest: serving-stack's narrow drawing had 6 crossings and has 3 (its 3
    pairs of interleaving spans), prefill-decode's, prefill-vs-decode's and web-worker's had one
    each and have none.  Two sides never cross more than one side would (every interleaving pair)."""
    spec = spec_from_data(SHAPES[name])
    drawn = diagram(spec, narrow=True)
    order = {key: i for i, key in enumerate(sorted(drawn.boxes, key=lambda k: drawn.boxes[k].y))}
    column_left = min(box.x for box in drawn.boxes.values())
    tracks = [(tuple(sorted((order[p.source], order[p.dest]))), drawn.arrows[p.key].points[1][0] < column_left)
              for p in spec.paths if p.source in order and p.dest in order and abs(order[p.source] - order[p.dest]) > 1]

    def interleave(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return a[0] < b[0] < a[1] < b[1] or b[0] < a[0] < b[1] < a[1]

    same_side = sum(interleave(a, b) for (a, left_a), (b, left_b) in itertools.combinations(tracks, 2)
                    if left_a == left_b)
    assert _crossings(drawn.arrows.values()) == same_side
    assert same_side <= sum(interleave(a, b) for (a, _), (b, _) in itertools.combinations(tracks, 2))


def test_a_fan_out_and_in_crosses_nowhere_in_its_narrow_column():
    """Issue 27: a fan-out and fan-in of six drew 15 crossings in its narrow layout, every track right of the
    column; with the tracks that would cross on the left (a two-page book embedding) it draws none, the fan-out
    on one side and the fan-in on the other, still a phone's width."""
    from mechdiagram.layout.sizes import TRANSPOSED_MAX_WIDTH

    spec = spec_from_data(SHAPES["fan-out-in"])
    drawn = diagram(spec, narrow=True)
    column_left = min(box.x for box in drawn.boxes.values())
    left = {key for key, arrow in drawn.arrows.items() if len(arrow.points) == 4 and arrow.points[1][0] < column_left}
    targets = {p.key: p.dest for p in spec.paths}
    assert left and {targets[key] for key in left} == {"agg"}, left
    assert _crossings(drawn.arrows.values()) == 0
    assert drawn.width <= TRANSPOSED_MAX_WIDTH


def test_a_tree_in_its_narrow_column_is_depth_first_and_its_tracks_nest():
    """Issue 27: a binary tree of 15 boxes, layer by layer in the narrow column, interleaves its tracks (each
    parent's arrows reach past its siblings' children: 12 pairs cross, on two sides); in its depth-first order every box still follows its
    parent and the tracks nest: no crossing.  The forty-box graph (arrows i -> 2i+1, 3i+2) drew 242 crossings and
    350 units wide (over a 320 px screen), and draws at most 6 within a phone's width."""
    from mechdiagram.layout.routing import PathEnds
    from mechdiagram.layout.sizes import TRANSPOSED_MAX_WIDTH
    from mechdiagram.layout.stacked import depth_first_order, track_crossings
    from support.topologies import with_graph

    key = "node{}x".format  # not a lane key (a letter and a number)
    edges = [(key(i), key(j), None) for i in range(7) for j in (2 * i + 1, 2 * i + 2)]
    spec = spec_from_data(with_graph({key(i): f"box {i}" for i in range(15)}, edges))
    drawn = diagram(spec, narrow=True)
    column = sorted(drawn.boxes, key=lambda k: drawn.boxes[k].y)
    assert column[:4] == [key(0), key(1), key(3), key(7)]  # depth first; layer by layer 0, 1, 2, 3
    assert all(column.index(source) < column.index(dest) for source, dest, _ in edges)
    assert _crossings(drawn.arrows.values()) == 0
    ends = [PathEnds(p.key, p.source, p.dest) for p in spec.paths]
    layered = [key(i) for i in range(15)]
    assert track_crossings(layered, ends) == 12 and track_crossings(column, ends) == 0
    assert depth_first_order(layered, ends, {key(i): (i + 1).bit_length() for i in range(15)}) == column

    forty = diagram(spec_from_data(SHAPES["forty"]), narrow=True)
    assert _crossings(forty.arrows.values()) <= 6 and forty.width <= TRANSPOSED_MAX_WIDTH


def test_the_serving_stacks_column_swaps_two_boxes_of_one_layer_to_cross_less():
    """The sampler and the KV cache are one layer (both after the model forward): below the forward in that order,
    the forward's writes and reads to the cache took tracks and the sampler's token id crossed them (3
    crossings); swapped (:func:`~mechdiagram.layout.stacked.swapped_order`), writes and reads run straight
    between neighbours, and only "pages" crosses the forward's two arrows to and from the sampler (2).  A swap
    never makes an arrow down the layers run up, nor splits a group."""
    from mechdiagram.layout.routing import PathEnds
    from mechdiagram.layout.stacked import swapped_order, track_crossings

    spec = spec_from_data(SHAPES["serving-stack.mechanism.json"])
    drawn = diagram(spec, narrow=True)
    column = sorted(drawn.boxes, key=lambda key: drawn.boxes[key].y)
    assert column == ["client", "scheduler", "forward", "kvcache", "sampler", "detok", "streamer"]
    assert _crossings(drawn.arrows.values()) == 2
    ends = [PathEnds(p.key, p.source, p.dest) for p in spec.paths]
    layered = ["client", "scheduler", "forward", "sampler", "kvcache", "detok", "streamer"]
    rank = {key: i for i, key in enumerate(layered)} | {"kvcache": 3}
    block = {key: spec.group_of(key) for key in layered}
    assert track_crossings(layered, ends, two_sided=False) == 3
    assert swapped_order(layered, ends, rank, block, two_sided=False) == column
    # a -> c twice on tracks past b; b and c swapped, both run straight and only a -> b takes a track
    ends = [PathEnds("x", "a", "b"), PathEnds("y", "a", "c"), PathEnds("z", "a", "c")]
    order, rank = ["a", "b", "c"], {"a": 0, "b": 1, "c": 1}
    assert swapped_order(order, ends, rank, dict.fromkeys(order)) == ["a", "c", "b"]
    assert swapped_order(order, ends, rank, {"a": "g", "b": "g", "c": None}) == order  # a and b one group
    below = [*ends, PathEnds("w", "b", "c")]
    assert swapped_order(order, below, rank | {"c": 2}, dict.fromkeys(order)) == order  # b -> c would run up


def test_a_group_pulled_together_never_makes_an_arrow_down_the_layers_run_up_the_column():
    """A break-it review: depth first, n8x follows n2x and its group's n7x is pulled up beside it, above n6x, so
    n6x -> n7x ran up the column (layer by layer every arrow ran down).  Orders where fewer arrows run up come
    first: every arrow runs down."""
    from support.topologies import with_graph

    data = with_graph({"n2x": "two", "n6x": "six", "n7x": "seven", "n8x": "eight"},
                      [("n2x", "n8x", None), ("n6x", "n7x", None)])
    data["groups"] = {"pair": {"label": "Pair", "members": ["n7x", "n8x"]}}
    drawn = diagram(spec_from_data(data), narrow=True)
    column = sorted(drawn.boxes, key=lambda key: drawn.boxes[key].y)
    assert column.index("n2x") < column.index("n8x") and column.index("n6x") < column.index("n7x"), column
    assert abs(column.index("n7x") - column.index("n8x")) == 1  # the group stays whole


def test_the_narrow_column_keeps_the_written_order_where_it_crosses_no_more():
    """A designer's review: the column listed a fan's siblings out of the order the author wrote them in (shard 1,
    3, 2), as the layered layout's crossing reduction had left them.  Three sources (written first, second and
    fourth) and two sinks: the layered order drew them 3, 1, 0, 4, 2; the written order crosses no more (0), so
    the column keeps it."""
    from support.topologies import with_graph

    key = "n{}x".format
    edges = [(key(a), key(b), None) for a, b in ((0, 2), (0, 4), (1, 2), (1, 4), (3, 4))]
    drawn = diagram(spec_from_data(with_graph({key(i): f"step {i}" for i in range(5)}, edges)), narrow=True)
    assert sorted(drawn.boxes, key=lambda k: drawn.boxes[k].y) == [key(i) for i in range(5)]
    assert _crossings(drawn.arrows.values()) == 0


def test_where_no_column_fits_a_phone_the_one_that_crosses_least_is_kept():
    """Where no order of the narrow column fits a phone on two sides, the one whose drawing crosses least is kept
    (its estimate ranks the orders, the drawing decides), not the one-sided column that fits by running every
    track on the right: a random graph of 20 boxes and 27 arrows drew 54 crossings within 341 units; it now draws
    at most 12 (10 at 420 units).  No more than :data:`~mechdiagram.layout.COLUMN_DRAWINGS` orders are drawn."""
    from support.topologies import with_graph

    key = "n{}x".format
    edges = [(0, 13), (1, 2), (1, 10), (2, 10), (3, 6), (3, 11), (3, 13), (3, 17), (3, 18), (4, 11), (4, 15),
             (6, 8), (7, 11), (7, 17), (8, 12), (8, 13), (8, 16), (8, 18), (9, 16), (10, 11), (11, 0), (11, 16),
             (12, 15), (13, 15), (13, 18), (13, 19), (16, 17)]
    labelled = {(1, 2), (4, 11), (4, 15), (6, 8), (8, 12), (8, 13), (8, 18), (11, 16), (12, 15)}
    data = with_graph({key(i): f"node {i}" for i in range(20)},
                      [(key(a), key(b), f"e{a}-{b}" if (a, b) in labelled else None) for a, b in edges])
    drawn = diagram(spec_from_data(data), narrow=True)
    assert _crossings(drawn.arrows.values()) <= 12, _crossings(drawn.arrows.values())


def test_tracks_stay_on_one_side_where_two_would_be_too_wide_for_a_phone():
    """The serving stack's tracks on both sides cross nowhere but draw 400 units wide, its text under 12 px on a
    phone: they stay right of the column (3 crossings), within a phone's width."""
    from mechdiagram.layout.sizes import TRANSPOSED_MAX_WIDTH

    drawn = diagram(spec_from_data(SHAPES["serving-stack.mechanism.json"]), narrow=True)
    column_right = max(box.right for box in drawn.boxes.values())
    assert all(arrow.points[1][0] > column_right for arrow in drawn.arrows.values() if len(arrow.points) == 4)
    assert drawn.width <= TRANSPOSED_MAX_WIDTH


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_no_arrow_label_straddles_the_line_between_two_lane_bands(name):
    """The page-coloured line between two lanes' bands ran through prefill-decode's "logits" and "next
    input": a row gap that a labelled path crosses now holds the label in one band's half, and the label slides
    off the line along its route."""
    from mechdiagram.layout.sizes import STRIP_AIR

    drawn = diagram(spec_from_data(SHAPES[name]))
    bands = sorted(drawn.bands, key=lambda band: band.y)
    lines = [(a.y + a.h, b.y) for a, b in itertools.pairwise(bands)]
    for key, arrow in drawn.arrows.items():
        block = arrow.label_box
        if block is not None:
            assert not any(block.y < bottom + STRIP_AIR and top - STRIP_AIR < block.bottom for top, bottom in lines), \
                (key, block, lines)


def test_a_paths_badge_moves_along_its_route_off_its_own_label():
    """A step that lights only the compiler pipeline's "SSA IR" arrow puts its badge on that arrow: at its longest
    run's middle the badge covered the arrow's own label, so it takes a quarter along the same run instead."""
    from support.topologies import compiler_pipeline

    data = compiler_pipeline()
    data["scenarios"][0]["steps"][4].update(active=[], paths=["e6"])  # IR lowering -> inliner
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0], diagram(spec))
    [badge] = [badge for badge in layout.badges if badge.key == "e6"]
    arrow = layout.arrows["e6"]
    assert arrow.label_box is not None and not badge.overlaps(arrow.label_box), (badge, arrow.label_box)
    (x0, y0), (x1, y1) = max(_segments(arrow), key=lambda s: abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1]))
    assert y0 == y1 and abs(badge.y + badge.h / 2 - y0) < 0.2  # on the run that carries the label
    assert min(x0, x1) < badge.x and badge.x + badge.w < max(x0, x1)
