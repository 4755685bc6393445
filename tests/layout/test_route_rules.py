"""The route rules (issue 27) on small hand-made arrows, one rule at a time, each with a case it must find and
one it must not; then ``validate``'s ``route`` warnings for a layout that a ``layout.positions`` override
forces to break one."""

from __future__ import annotations

import itertools
import json

import pytest

from mechdiagram.layout.checks import lay_out
from mechdiagram.layout.geometry import Arrow, Point, Rect
from mechdiagram.layout.route_rules import (
    bends,
    crossing_count,
    crossings,
    faults,
    junctions,
    label_faults,
    near_heads,
    parallel_runs,
)
from mechdiagram.layout.sizes import ARROW_HEAD, NEAR
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import check_spec
from support.topologies import compiler_pipeline, with_graph


def arrow(key: str, *points: Point, label: Rect | None = None) -> Arrow:
    """An arrow along ``points`` (to the arrowhead's base), its head ARROW_HEAD long in the last run's direction."""
    (ax, ay), (bx, by) = points[-2], points[-1]
    dx, dy = (bx > ax) - (bx < ax), (by > ay) - (by < ay)
    tip = (bx + dx * ARROW_HEAD, by + dy * ARROW_HEAD)
    half = ARROW_HEAD / 2
    head = (tip, (bx - dy * half, by - dx * half), (bx + dy * half, by + dx * half))
    return Arrow(key, tuple(points), head, label_lines=("label",) if label else (), label_box=label)


def arrows(*items: Arrow) -> dict[str, Arrow]:
    return {a.key: a for a in items}


def kinds(found) -> list[tuple[str, str, str]]:
    return sorted((f.key, f.kind, f.other) for f in found)


def test_opposite_arrows_end_to_end_on_one_line_are_a_junction():
    """The OAuth graph's fault: a -> b and b -> a drawn on one line read as one two-headed line."""
    drawn = arrows(arrow("go", (0, 50), (190, 50)), arrow("back", (200, 50), (10, 50)))
    assert kinds(junctions(drawn)) == [("back", "junction", "go")]
    apart = arrows(arrow("go", (0, 44), (90, 44)), arrow("back", (200, 56), (110, 56)))
    assert junctions(apart) == []


def test_two_arrows_on_one_line_a_gap_narrower_than_near_apart_are_a_junction():
    """A new user's Kubernetes graph: "POST Deployment" ran right to a corner and "Pod on node-1" on from 10 units
    past it, on the same line, and the two read as one line; nothing was found, as only touching lines counted."""
    (fault,) = junctions(arrows(arrow("post", (0, 266), (260, 266), (260, 301)),
                                arrow("pod", (282, 266), (270, 266), (270, 245), (260, 245), (260, 133))))
    assert (fault.key, fault.kind, fault.other, fault.value) == ("pod", "junction", "post", 10.0)
    # back to back, their heads away from the gap: NEAR apart is apart, a unit less is one line
    assert junctions(arrows(arrow("a", (100, 50), (0, 50)), arrow("b", (100 + NEAR, 50), (200, 50)))) == []
    assert junctions(arrows(arrow("a", (100, 50), (0, 50)), arrow("b", (99 + NEAR, 50), (200, 50))))
    assert junctions(arrows(arrow("a", (100, 50), (0, 50)), arrow("b", (105, 56), (200, 56)))) == []  # two lines
    # a pair that also shares a stretch is said to share it, not to stand a gap apart (a break-it review)
    (both,) = junctions(arrows(arrow("a", (0, 50), (100, 50), (100, 80), (300, 80)),
                               arrow("b", (110, 50), (200, 50), (200, 80), (250, 80))))
    assert both.value == 0.0


def test_a_line_running_into_another_is_a_junction_but_a_crossing_is_not():
    into = arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (100, 0), (100, 40)))  # b's head ends on a's line
    assert kinds(junctions(into)) == [("b", "junction", "a")]
    corner = arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (100, 50), (100, 100), (150, 100)))  # starts on it
    assert kinds(junctions(corner)) == [("b", "junction", "a")]
    across = arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (100, 0), (100, 90)))
    assert junctions(across) == []
    assert kinds(crossings(across)) == [("b", "crossing", "a")]


def test_two_arrows_sharing_a_stretch_are_a_junction_even_from_one_port():
    shared = arrows(arrow("a", (0, 50), (100, 50), (100, 200)), arrow("b", (0, 50), (150, 50), (150, 200)))
    assert kinds(junctions(shared)) == [("b", "junction", "a")]
    fan = arrows(arrow("a", (0, 50), (0, 100), (-100, 100), (-100, 200)), arrow("b", (0, 50), (0, 20)))
    assert junctions(fan) == []  # they meet only at the port both leave from


def test_a_line_near_another_arrows_head_is_found():
    head = arrow("a", (0, 50), (90, 50))  # its tip at (100, 50), its base 10 units wide at x = 90
    near = arrows(head, arrow("b", (104, 0), (104, 200)))
    [fault] = near_heads(near)
    assert (fault.key, fault.kind, fault.other, fault.value) == ("b", "head", "a", 4.0)
    assert near_heads(arrows(head, arrow("b", (107, 0), (107, 200)))) == []
    assert near_heads(arrows(head, arrow("b", (80, 62), (0, 62)))) == []  # 7 below the base's corner


def test_parallel_runs_closer_than_twelve_units_are_found():
    close = arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (50, 58), (150, 58)))
    [fault] = parallel_runs(close)
    assert (fault.key, fault.other, fault.value) == ("b", "a", 8.0)
    assert parallel_runs(arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (50, 62), (150, 62)))) == []
    # side by side but not along one another: no run beside the other
    assert parallel_runs(arrows(arrow("a", (0, 50), (100, 50)), arrow("b", (130, 58), (230, 58)))) == []


def test_crossings_are_counted_per_pair():
    twice = arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (50, 0), (50, 100), (150, 100), (150, 0)))
    [fault] = crossings(twice)
    assert (fault.key, fault.other, fault.value) == ("b", "a", 2.0)
    assert crossing_count(twice) == 2
    assert crossing_count(arrows(arrow("a", (0, 50), (200, 50)), arrow("b", (0, 80), (200, 80)))) == 0


def test_bends_beyond_one_jog_or_beyond_the_way_around_for_an_arrow_back():
    three = arrow("a", (0, 0), (50, 0), (50, 50), (100, 50), (100, 100))
    assert [(f.key, f.value) for f in bends(arrows(three))] == [("a", 3.0)]
    assert bends(arrows(three), frozenset({"a"})) == []  # an arrow back may take four
    jog = arrow("a", (0, 0), (50, 0), (50, 50), (100, 50))
    assert bends(arrows(jog)) == []
    five = arrow("a", (0, 0), (10, 0), (10, 10), (20, 10), (20, 20), (30, 20), (30, 30))
    assert [(f.key, f.value) for f in bends(arrows(five), frozenset({"a"}))] == [("a", 5.0)]


def test_a_label_far_from_its_arrow_nearer_another_or_crossed_is_found():
    own = ((0.0, 100.0), (200.0, 100.0))
    beside = arrows(arrow("a", *own, label=Rect(60, 80, 80, 15)))  # 5 above its line
    assert label_faults(beside) == []
    far = arrows(arrow("a", *own, label=Rect(60, 76, 80, 15)))  # 9 above
    assert [(f.kind, f.value) for f in label_faults(far)] == [("label-far", 9.0)]
    nearer = arrows(arrow("a", *own, label=Rect(60, 80, 80, 15)), arrow("b", (143, 0), (143, 70)))
    assert kinds(label_faults(nearer)) == [("a", "label-nearer", "b")]
    crossed = arrows(arrow("a", *own, label=Rect(60, 80, 80, 15)), arrow("b", (100, 0), (100, 60), (300, 60)),
                     arrow("c", (120, 20), (120, 90), (300, 90)))
    assert ("a", "label-crossed", "c") in kinds(label_faults(crossed))


def test_all_rules_together_find_nothing_in_a_clean_drawing():
    clean = arrows(arrow("a", (0, 44), (90, 44), label=Rect(5, 24, 80, 15)),
                   arrow("b", (200, 56), (110, 56), label=Rect(115, 61, 80, 15)))
    assert faults(clean) == []


def _laid_out(data: dict):
    text = json.dumps(data, indent=2)
    loaded = parse_text(text.encode(), "x.mechanism.json")
    validation = check_spec(loaded)
    assert validation.spec is not None, validation.findings
    return text, lay_out(loaded, validation.spec)


@pytest.mark.parametrize("forced", [False, True])
def test_validate_warns_where_a_positions_override_forces_a_fault(forced):
    """A chain a -> b -> c -> d: the automatic layout draws it straight; an override that puts the four boxes
    in a square with a -> b and c -> d on its diagonals forces them to cross (or to bend around the square),
    and validate warns at a path's key, naming the wide layout (the narrow one ignores the override) and, where the
    square is spread to fill a wide screen, its natural drawing (the upper middle layout) too."""
    data = with_graph({"a": "first", "b": "second", "c": "third", "d": "fourth"},
                      [("a", "b", None), ("b", "c", None), ("c", "d", None)])
    if forced:
        data["layout"] = {"positions": {"a": {"row": 0, "column": 0}, "b": {"row": 1, "column": 1},
                                        "c": {"row": 0, "column": 1}, "d": {"row": 1, "column": 0}}}
    text, laid_out = _laid_out(data)
    route = [f for f in laid_out.findings if f.rule == "route"]
    if not forced:
        assert route == []
        return
    assert route, "the forced square draws no fault"
    # the upper middle layout (the natural drawing of a wide one spread to fill a wide screen) too where it is one
    named = {"wide", "upper middle"} if laid_out.wide.natural is not None else {"wide"}
    assert {f.message.split(" layout ")[0].split(" in the ")[1] for f in route} == named
    for finding in route:
        key = finding.pointer.rsplit("/", 1)[1]
        assert (finding.pointer, finding.severity) in (("/targets/e0", "warning"), ("/targets/e2", "warning"))
        assert finding.line == text.splitlines().index(f'    "{key}": {{') + 1
        assert finding.message.startswith((f'path "{key}" in the wide layout ', f'path "{key}" in the upper middle layout '))
        assert "crosses" in finding.message or "bends" in finding.message, finding.message
        # what to do, naming the path's two boxes and the cells they are in, which layout.positions takes
        source, dest = {"e0": ("a", "b"), "e2": ("c", "d")}[key]
        cells = data["layout"]["positions"]
        said = " or ".join(f'"{end}" (now row {cells[end]["row"]}, column {cells[end]["column"]})'
                           for end in (source, dest))
        assert finding.message.endswith(f": move {said} or the boxes between them in layout.positions, listing "
                                        "the other boxes at their cells too; or draw fewer arrows here"), \
            finding.message


def test_the_advice_for_an_arrow_between_neighbouring_boxes_names_no_boxes_between_them():
    """A new user was told to move "runner" or "cache" "or the boxes between them" where the two stood side by side:
    between neighbouring cells the advice names the two boxes alone."""
    from mechdiagram.layout import diagram
    from mechdiagram.layout.checks import _advice
    from mechdiagram.shared.model import spec_from_data

    spec = spec_from_data(with_graph({"a": "first", "b": "second", "c": "third"}, [("a", "b", None), ("a", "c", None)]))
    drawn = diagram(spec, spread=False)
    assert drawn.cells == {"a": (0, 0), "b": (0, 1), "c": (1, 1)}  # a and b side by side, c diagonal from a
    assert _advice(spec, drawn, "e0", "wide", False) == (
        'move "a" (now row 0, column 0) or "b" (now row 0, column 1) in layout.positions, listing the other boxes '
        "at their cells too; or draw fewer arrows here")
    assert ' (now row 1, column 1) or the boxes between them in layout.positions' in _advice(spec, drawn, "e1", "wide",
                                                                                           False)


def test_a_fault_of_the_phones_column_is_not_sent_to_layout_positions():
    """A new user moved boxes in layout.positions to mend a fault the warning named in the narrow layout, which
    ignores them: the warning says the phone's column places its boxes itself, and what helps there."""
    import pathlib

    path = pathlib.Path(__file__).parents[2] / "mechanisms" / "serving-stack.mechanism.json"
    _, laid_out = _laid_out(json.loads(path.read_text("utf-8")))
    narrow = [f for f in laid_out.findings if f.rule == "route" and " in the narrow layout " in f.message]
    assert narrow
    # and names the arrows that skip boxes, with how many each skips in the phone's column (a new user could not
    # tell which arrow "draw fewer arrows that skip boxes here" meant)
    data = json.loads(path.read_text("utf-8"))
    rows = laid_out.narrow.cells
    for finding in narrow:
        key = finding.pointer.rsplit("/", 1)[1]
        other = finding.message.split(" crosses ")[1].split('"')[1]
        skips = [abs(rows[data["targets"][k]["from"]][0] - rows[data["targets"][k]["to"]][0]) - 1 for k in (key, other)]
        assert skips == [1, 1], (key, other, skips)
        assert finding.message.endswith(
            ": the phone's column places its boxes itself (layout.positions is the wide layout's): draw fewer arrows "
            f'that skip boxes here ("{key}" skips 1 box, "{other}" 1), or shorten their labels'), finding.message


def test_validate_warns_of_a_fault_the_middle_layout_draws_too():
    """Issue 27: validate warns about every fault that remains in any layout a figure shows; the middle layout (for
    a figure between a phone's and the wide drawing's width, issue 26) keeps the wide layout's cells, so a crossing
    that layout.positions forces there is drawn in it too, and said so, with the same advice (its cells)."""
    nodes = {"a": "Admission controller for requests", "b": "Batch scheduler for the decode phase",
             "c": "Continuous batching queue", "d": "Detokenizer and streaming output",
             "e": "Engine worker with the KV cache", "f": "Final response writer"}
    data = with_graph(nodes, [("a", "e", "admit"), ("b", "d", "tokens"), ("c", "f", "flush"), ("a", "b", None),
                              ("b", "c", None)])
    cells = {"a": (0, 0), "b": (0, 1), "c": (0, 2), "d": (1, 0), "e": (1, 1), "f": (1, 2)}
    data["layout"] = {"positions": {key: {"row": row, "column": column} for key, (row, column) in cells.items()}}
    _, laid_out = _laid_out(data)
    assert laid_out.middle is not None and laid_out.middle.width < laid_out.wide.width
    middle = [f for f in laid_out.findings if f.rule == "route" and " in the middle layout " in f.message]
    assert [(f.pointer, f.severity) for f in middle] == [("/targets/e1", "warning")], laid_out.findings
    assert middle[0].message.startswith('path "e1" in the middle layout crosses "e0"'), middle[0].message
    assert '"b" (now row 0, column 1) or "d" (now row 1, column 0)' in middle[0].message


def test_a_fault_of_a_middle_layout_drawn_down_the_page_is_not_sent_to_layout_positions(monkeypatch):
    """A middle layout drawn from the graph's own layering (not the wide layout's cells) places its boxes itself, as
    the phone's column does: its warning says so and what helps there, not which cells to move.  (Its label moved
    40 units off its arrow here: the compiler pipeline's middle layout breaks no rule.)"""
    import msgspec.structs

    from mechdiagram.layout import checks

    real = checks.middle_diagram

    def far(spec, *, wide):
        drawn = real(spec, wide=wide)
        arrow = drawn.arrows["e2"]
        block = arrow.label_box
        moved = msgspec.structs.replace(arrow, label_box=Rect(block.x + 40, block.y, block.w, block.h))
        return msgspec.structs.replace(drawn, arrows=dict(drawn.arrows, e2=moved))

    monkeypatch.setattr(checks, "middle_diagram", far)
    _, laid_out = _laid_out(compiler_pipeline())
    assert laid_out.middle is not None and laid_out.middle.cells != laid_out.wide.cells
    middle = [f for f in laid_out.findings if f.rule == "route" and " in the middle layout " in f.message]
    assert [f.pointer for f in middle] == ["/targets/e2"], laid_out.findings
    assert "now row" not in middle[0].message and middle[0].message.endswith(
        ": the middle layout places its boxes itself (layout.positions is the wide layout's): shorten "
        "its label"), middle[0].message


def cache_hierarchy(groups: bool) -> dict:
    """A new user's store through a write-back cache hierarchy: a chain of seven, three arrows each way between
    neighbouring caches (a read miss and a writeback down, a fill up), the core's private caches grouped."""
    nodes = {"core": "CPU core", "sb": "Store buffer", "l1d": "L1d cache (32 KiB)", "l2": "L2 cache (256 KiB)",
             "l3": "L3 / LLC", "mc": "Memory controller", "dram": "DRAM"}
    edges = [("core", "sb", "store [x] = 1"), ("sb", "l1d", "commit"), ("l1d", "l2", "RFO miss"),
             ("l2", "l3", "RFO miss"), ("l3", "mc", "read line"), ("mc", "dram", "ACT, RD"),
             ("dram", "mc", "64 B burst"), ("mc", "l3", "line data"), ("l3", "l2", "fill"), ("l2", "l1d", "fill (E)"),
             ("l1d", "l2", "writeback"), ("l2", "l3", "writeback"), ("l3", "mc", "writeback"), ("mc", "dram", "WR")]
    data = with_graph(nodes, edges)
    if groups:
        data["groups"] = {"private": {"label": "Core 0 (private)", "members": ["core", "sb", "l1d", "l2"]},
                          "shared": {"label": "Shared by all cores", "members": ["l3", "mc"]}}
    return data


@pytest.mark.parametrize("groups", [False, True])
def test_three_labelled_arrows_between_two_boxes_one_above_the_other_each_name_their_own(groups):
    """Between L1 and L2 run a read miss, a writeback and a fill: the boxes widen so that their runs stand a label
    and its gaps apart, and each label sits beside its own run, nearer it than any other, crossed by none, clear of
    the others (the middle run's label was printed over the next run, and "writeback" over "fill (E)")."""
    from mechdiagram.layout import diagram
    from mechdiagram.shared.model import spec_from_data

    drawn = diagram(spec_from_data(cache_hierarchy(groups)))
    l1d, l2 = drawn.boxes["l1d"], drawn.boxes["l2"]
    between = ["e2", "e9", "e10"]  # RFO miss, fill (E), writeback
    assert drawn.cells["l1d"][1] == drawn.cells["l2"][1] and abs(drawn.cells["l1d"][0] - drawn.cells["l2"][0]) == 1
    runs = sorted(drawn.arrows[key].points[0][0] for key in between)
    assert all(len(drawn.arrows[key].points) == 2 for key in between)  # three straight runs
    assert min(b - a for a, b in zip(runs, runs[1:], strict=False)) >= 60  # a label and its gaps apart
    assert min(l1d.w, l2.w) > 200
    assert not [f for f in label_faults(drawn.arrows) if f.key in between]
    assert all(drawn.arrows[key].clean for key in between)
    blocks = [drawn.arrows[key].label_box for key in between]
    assert all(a is not None and b is not None and not a.overlaps(b) for a, b in itertools.combinations(blocks, 2))


def test_arrows_on_one_track_of_the_phones_column_keep_their_spans_apart():
    """The cache hierarchy's three writebacks, each to the next box, took one track beside the phone's column, 19 units
    apart end to end: a designer read them as one dashed bus.  Two runs on one vertical line are at least 40 units
    apart, or on tracks of their own."""
    from mechdiagram.layout import diagram
    from mechdiagram.layout.stacked import TRACK_END_GAP
    from mechdiagram.shared.model import spec_from_data

    drawn = diagram(spec_from_data(cache_hierarchy(True)), narrow=True)
    runs = [(key, a[0], *sorted((a[1], b[1]))) for key, arrow in drawn.arrows.items()
            for a, b in itertools.pairwise(arrow.points) if a[0] == b[0] and len(arrow.points) > 2]
    assert len({key for key, *_ in runs}) >= 3  # the writebacks on tracks
    for (k1, x1, a1, b1), (k2, x2, a2, b2) in itertools.combinations(runs, 2):
        if k1 != k2 and abs(x1 - x2) < 0.05:
            assert a2 - b1 >= TRACK_END_GAP or a1 - b2 >= TRACK_END_GAP, (k1, k2, (a1, b1), (a2, b2))


def test_validate_warns_where_a_layout_breaks_a_word_of_an_arrows_label():
    """A new user's DNS lookup: "www.example.org", wider than a narrow label may grow (126 units), came out as
    "www.ex↩ample.org" in the phone's and the middle layout, and validate said nothing.  It warns (rule label-word)
    at the label, naming the word and the layouts; marked as code, the label breaks at its dots and is not warned
    about, nor is CJK text, which breaks between its characters."""
    nodes = {"laptop": "Laptop", "resolver": "Resolver", "auth": "Authoritative server"}
    data = with_graph(nodes, [("laptop", "resolver", "A? www.example.org"), ("resolver", "auth", "キャッシュに保存してから応答を返す処理"),
                              ("auth", "resolver", "reply")])
    text, laid_out = _laid_out(data)
    words = [f for f in laid_out.findings if f.rule == "label-word"]
    assert [(f.pointer, f.severity) for f in words] == [("/targets/e0/label", "warning")], words
    assert words[0].message.startswith('path "e0"\'s label breaks the word "www.example.org" between its characters '
                                       "in the narrow")
    assert words[0].line == text.splitlines().index('      "label": "A? www.example.org"') + 1
    data["targets"]["e0"]["text"] = "code"
    _, laid_out = _laid_out(data)
    assert not [f for f in laid_out.findings if f.rule == "label-word"]


def test_two_jogs_in_a_channel_are_ordered_as_drawn_a_pitch_apart():
    """A break-it review of the gap rule: the routing compared the two orders of two jogs in a channel with the jogs
    2 units apart, where runs meeting end to end were a junction both ways; neither order won and "fetch" came to
    run along another arrow for 14 units.  Compared a pitch apart, the graph is drawn without a fault."""
    from mechdiagram.layout import diagram
    from mechdiagram.layout.checks import against_flow
    from mechdiagram.layout.route_rules import faults
    from mechdiagram.shared.model import spec_from_data

    spec = spec_from_data(with_graph(dict.fromkeys("abcde", "x"),
                                     [("b", "d", None), ("a", "c", None), ("b", "e", None), ("a", "d", "fetch")]))
    drawn = diagram(spec)
    assert faults(drawn.arrows, against_flow(spec, drawn, narrow=False)) == []
