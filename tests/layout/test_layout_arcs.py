"""Arcs: an arrow between two boxes of one column or row with a box of it between them runs beside the line, as
an arc diagram draws it (issue 27: a five-service checkout drew 14 crossings, ELK Layered 2).  Arcs whose spans
interleave take opposite sides; the arcs of a side nest, each with room for the label of the one inside it."""

from __future__ import annotations

import itertools

import pytest

from mechdiagram.layout import diagram
from mechdiagram.layout.geometry import Box
from mechdiagram.layout.ports import PathEnds, arc_depths, arc_sides
from mechdiagram.layout.route_rules import bends, crossing_count, label_faults
from mechdiagram.shared.model import spec_from_data
from support.specs import minimal_spec


def _column(count: int) -> dict[str, Box]:
    return {f"n{i}": Box(0.0, i * 100.0, 120.0, 50.0, f"n{i}", ("x",)) for i in range(count)}


def test_arcs_whose_spans_interleave_take_opposite_sides_and_nested_ones_share_one():
    boxes = _column(5)
    paths = [PathEnds("a", "n0", "n2"), PathEnds("b", "n1", "n3"), PathEnds("c", "n0", "n4"),
             PathEnds("d", "n1", "n2")]  # d joins neighbours: no arc
    sides = arc_sides(boxes, paths, "down")
    assert set(sides) == {"a", "b", "c"}
    assert sides["a"][0] != sides["b"][0]  # 0-2 and 1-3 interleave
    assert sides["c"] == (sides["c"][0], sides["c"][0]) and sides["c"][0] == "right"  # holds both: ties go right
    depths = arc_depths(boxes, paths, sides)
    inner = "a" if sides["a"][0] == "right" else "b"
    assert depths[inner] == 0 and depths["c"] == 1
    assert arc_sides(boxes, paths, None) == {}  # a lane grid has none


#: Node keys that are not grid cells (a key such as ``n0`` places its box in lane n, column 0).
STAGES = ["fetch", "decode", "issue", "execute", "memory", "writeback"]


def _spec(count: int, skips: list[tuple[int, int]], labelled: bool):
    data = minimal_spec()
    data["targets"] = {STAGES[i]: {"id": STAGES[i], "kind": "node", "label": STAGES[i].title()} for i in range(count)}
    edges = [(i, i + 1) for i in range(count - 1)] + skips
    for a, b in edges:
        data["targets"][f"p{a}-{b}"] = {"id": f"p{a}-{b}", "kind": "path", "from": STAGES[a], "to": STAGES[b],
                                        **({"label": f"to {STAGES[b]}"} if labelled else {})}
    data["scenarios"][0]["unselected"] = []
    for step in data["scenarios"][0]["steps"]:
        step["active"], step["paths"] = [STAGES[0]], []
    return spec_from_data(data)


def _interleave(s: tuple[int, int], t: tuple[int, int]) -> bool:
    (a, b), (c, d) = sorted(s), sorted(t)
    return a < c < b < d or c < a < d < b


SKIPS = {
    "nested": [(0, 2), (0, 3), (0, 4)],
    "interleaved": [(0, 2), (1, 3), (2, 4), (3, 5)],
    "back and forth": [(0, 3), (3, 0), (1, 4), (4, 1)],
    "checkout": [(0, 2), (0, 3), (3, 0), (3, 1), (1, 4), (4, 0)],
}


@pytest.mark.parametrize("labelled", [False, True])
@pytest.mark.parametrize("name", sorted(SKIPS))
def test_the_arcs_of_a_line_nest_and_never_cross(name, labelled):
    skips = SKIPS[name]
    count = max(max(pair) for pair in skips) + 1
    # the arcs can be drawn without a crossing when no three of them interleave pairwise (two sides)
    assert not any(_interleave(s, t) and _interleave(t, u) and _interleave(s, u)
                   for s, t, u in itertools.combinations(skips, 3))
    drawn = diagram(_spec(count, skips, labelled))
    boxes = drawn.boxes.values()
    assert len({box.x for box in boxes}) == 1 or len({box.y for box in boxes}) == 1  # one column or one row
    assert crossing_count(drawn.arrows) == 0
    keys = [f"p{a}-{b}" for a, b in skips]
    assert [f for f in bends({k: drawn.arrows[k] for k in keys}) if f.key in keys] == []
    for key in keys:
        assert len(drawn.arrows[key].points) == 4  # out, along the line, in: two bends
    if labelled:
        assert [f for f in label_faults(drawn.arrows) if f.key in keys] == []
