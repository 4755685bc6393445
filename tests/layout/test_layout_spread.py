"""Issue 26: a wide drawing narrower than SPREAD_WIDTH is spread to it (its columns further apart), so that grown 1.5
times it fills 85 % of a wide screen's figure; its natural drawing is the figure's upper middle variant.  A chain of
three boxes (520 units) filled 62 % of a 1,408 px screen's figure, a lane grid of three columns (648 units) 78 %."""

from __future__ import annotations

import json

from mechdiagram.layout import ASPECT_RANGE, SPREAD_SLACK, _broken, diagram, header_box, middle_diagram
from mechdiagram.layout.checks import against_flow, lay_out
from mechdiagram.layout.route_rules import faults
from mechdiagram.layout.sizes import ARROW_HEAD, MARGIN, SOURCE_STUB, SPREAD_WIDTH, TARGET_STUB, UPPER_WIDTH
from mechdiagram.shared.model import spec_from_data
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import check_spec
from support.grids import grid_spec
from support.specs import minimal_spec
from support.topologies import topologies, with_graph


def _chain(count: int) -> dict:
    names = ["Annahme", "Bearbeitung", "Abschluss", "Versand", "Rechnung", "Archiv"][:count]
    keys = [name.lower() for name in names]  # no lane digits: a layered graph, not a lane grid
    return with_graph(dict(zip(keys, names, strict=True)), [(a, b, "weiter") for a, b in zip(keys, keys[1:], strict=False)])


def _gaps(drawn) -> list[float]:
    """The room between neighbouring columns' boxes, left to right (user units)."""
    columns: dict[int, list] = {}
    for key, (_, column) in drawn.cells.items():
        columns.setdefault(column, []).append(drawn.boxes[key])
    edges = [(min(b.x for b in boxes), max(b.x + b.w for b in boxes)) for _, boxes in sorted(columns.items())]
    return [round(b[0] - a[1], 1) for a, b in zip(edges, edges[1:], strict=False)]


def test_a_chain_of_three_is_spread_to_the_spread_width_and_keeps_its_natural_drawing():
    """Three boxes in a row: the wide drawing is SPREAD_WIDTH wide, its boxes in the same cells and sizes, each gap
    wider by as much; no rule is broken more often; the natural drawing, the one ``spread=False`` gives, is the
    upper middle variant, and no middle one is made (the natural one is no wider than a middle one)."""
    spec = spec_from_data(_chain(3))
    wide, natural = diagram(spec), diagram(spec, spread=False)
    assert wide.natural == natural and natural.natural is None
    assert natural.width < SPREAD_WIDTH - SPREAD_SLACK <= wide.width <= SPREAD_WIDTH
    assert wide.cells == natural.cells
    assert [(b.w, b.h, b.y) for b in wide.boxes.values()] == [(b.w, b.h, b.y) for b in natural.boxes.values()]
    grown = [round(a - b, 1) for a, b in zip(_gaps(wide), _gaps(natural), strict=True)]
    assert len(set(grown)) == 1 and grown[0] > 100, grown
    assert faults(wide.arrows, wide.against) == [] == faults(natural.arrows, natural.against)
    assert all(arrow.clean for arrow in wide.arrows.values())
    assert middle_diagram(spec, UPPER_WIDTH, wide=wide) == natural
    assert middle_diagram(spec, wide=wide) is None


def test_a_lane_grid_is_spread_along_its_columns():
    """A lane grid of two lanes and three columns: its columns move apart to SPREAD_WIDTH, its lanes keep their
    heights, and its routes stay clean."""
    data = grid_spec(2, 3, seed=3)
    spec = spec_from_data(data)
    wide, natural = diagram(spec), diagram(spec, spread=False)
    assert natural.width < SPREAD_WIDTH - SPREAD_SLACK <= wide.width <= SPREAD_WIDTH, (natural.width, wide.width)
    assert [b.h for b in wide.bands] == [b.h for b in natural.bands]
    assert all(arrow.clean for arrow in wide.arrows.values())
    assert len(faults(wide.arrows, frozenset())) <= len(faults(natural.arrows, frozenset()))


def test_a_lane_grid_under_proportional_time_is_not_spread():
    """Its columns' slots are its time: spreading its gaps would draw the spans out of proportion."""
    spec = spec_from_data(grid_spec(2, 3, seed=3, spans=[1.0, 2.0, 1.0]))
    wide = diagram(spec)
    assert wide.natural is None and wide == diagram(spec, spread=False)


def test_a_folded_chain_is_spread_no_further_than_its_aspect_ratio_allows():
    """A chain of five, folded into rows (its aspect ratio in range): spread, it keeps its aspect ratio at most
    ASPECT_RANGE's top (a first version drew it 4:1)."""
    for count in (5, 6):
        spec = spec_from_data(_chain(count))
        wide = diagram(spec)
        natural = wide.natural or wide
        assert ASPECT_RANGE[0] <= natural.width / (natural.bottom + MARGIN) <= ASPECT_RANGE[1]
        assert wide.width / (wide.bottom + MARGIN) <= ASPECT_RANGE[1] + 0.01, (count, wide.width, wide.bottom)


def test_a_drawing_wider_than_the_spread_width_or_nearly_so_is_not_spread():
    """The serving stack (818 units) and forty boxes are drawn as they were."""
    shapes = topologies()
    for data in (shapes["forty"],):
        spec = spec_from_data(data)
        wide = diagram(spec)
        assert wide.natural is None and wide.width >= SPREAD_WIDTH - SPREAD_SLACK


def test_a_spread_drawing_breaks_no_rule_more_often_than_its_natural_one():
    """Over the held-back topologies, every spread drawing breaks each rule of route_rules no more often than its
    natural drawing, and has no more routes and labels that are not clean."""
    spread = 0
    for name, data in topologies().items():
        spec = spec_from_data(data)
        wide = diagram(spec)
        if wide.natural is None:
            continue
        spread += 1
        natural = wide.natural
        assert wide.width <= SPREAD_WIDTH and natural.width < wide.width, name
        after, unclean_after = _broken(wide.arrows, against_flow(spec, wide, narrow=False), wide.groups)
        before, unclean_before = _broken(natural.arrows, against_flow(spec, natural, narrow=False), natural.groups)
        assert unclean_after <= unclean_before, name
        assert all(count <= before.get(kind, 0) for kind, count in after.items()), (name, before, after)
    assert spread >= 2, spread


def _grid(columns: list[str], targets: dict, lanes: int = 1) -> dict:
    data = minimal_spec()
    data["layout"] = {"lanes": [{"key": f"l{'ab'[lane]}", "label": f"Lane {lane + 1}"} for lane in range(lanes)],
                      "columns": columns}
    data["targets"] = targets
    nodes = [key for key, target in targets.items() if target["kind"] == "node"]
    paths = [key for key, target in targets.items() if target["kind"] == "path"]
    data["scenarios"][0]["unselected"] = []
    for step in data["scenarios"][0]["steps"]:
        step.update(active=nodes[:1], paths=paths[:1])
    return data


def _node(label: str) -> dict:
    return {"id": f"n-{label.replace(' ', '-')}", "kind": "node", "label": label}


def test_a_grid_whose_column_headers_wrap_wider_is_spread_no_wider_than_the_spread_width():
    """A break-it review: a grid of one lane and two columns with long headers, spread, wrapped its headers to the
    wider gaps, so that they hung past the grid and drew it 848 units wide.  The headers wrap as in the natural
    grid, and the finished drawing, headers and all, is at most SPREAD_WIDTH."""
    data = _grid(["the long middle stretch 0", "the long middle stretch 1"],
                 {"la0": _node("queue"), "la1": _node("decode"),
                  "p": {"id": "p", "kind": "path", "from": "la0", "to": "la1", "label": "next"}})
    wide = diagram(spec_from_data(data))
    assert wide.natural is not None and wide.natural.width + SPREAD_SLACK <= wide.width <= SPREAD_WIDTH
    assert [h.lines for h in wide.columns] == [h.lines for h in wide.natural.columns]
    assert all(len(h.lines) == 2 for h in wide.columns)
    for block in map(header_box, wide.columns):  # within the canvas's margins
        assert block.x >= MARGIN and block.x + block.w <= wide.width - MARGIN, (block, wide.width)


def test_a_graph_whose_spread_would_add_little_keeps_its_natural_drawing():
    """A fan-out of one box to two, drawn down (aspect ratio in range): the width its aspect ratio allows is hardly
    more than its own, and a break-it review found such graphs spread by 10 units, a variant more in the figure."""
    spec = spec_from_data(with_graph({"src": "source", "left": "left", "right": "right"},
                                     [("src", "left", None), ("src", "right", None)]))
    wide = diagram(spec)
    assert wide.natural is None and middle_diagram(spec, UPPER_WIDTH, wide=wide) is None


def test_validate_names_the_natural_grid_a_phone_keeps_with_the_advice_of_its_cells():
    """A grid whose labels do not fit a phone keeps its grid there, at its natural width: a fault it draws is said
    once, in the upper middle layout, with the cells to move, never as the phone's column placing its boxes itself
    (a break-it review: the spread wide grid had no fault, and the one warning left blamed the phone's column)."""
    long = "a much longer label here"
    targets = {"la0": _node("token 12"), "la1": _node("queue"), "lb0": _node("sample"), "lb1": _node("decode"),
               "along": {"id": "along", "kind": "path", "from": "la0", "to": "la1", "label": "next"},
               "across": {"id": "across", "kind": "path", "from": "la0", "to": "lb0"}}
    for key, (source, dest) in {"x0": ("la0", "la1"), "x1": ("la1", "la0"), "x2": ("la0", "la1"),
                                "x3": ("lb0", "la1")}.items():
        targets[key] = {"id": key, "kind": "path", "from": source, "to": dest, "label": long}
    data = _grid(["18 ms 0", "start 1"], targets, lanes=2)
    text = json.dumps(data, indent=2)
    loaded = parse_text(text.encode(), "x.mechanism.json")
    validation = check_spec(loaded)
    assert validation.spec is not None, validation.findings
    laid_out = lay_out(loaded, validation.spec)
    assert laid_out.wide.natural is not None and laid_out.narrow == laid_out.wide.natural
    route = [f for f in laid_out.findings if f.rule == "route"]
    assert route and all(" in the upper middle layout " in f.message and "layout.positions, listing" in f.message
                         for f in route), route
    assert not [f for f in route if "phone's column" in f.message]


def test_a_spread_drawings_lone_jog_runs_down_the_middle_of_its_channel():
    """A relay's lane grid, spread: the send arrow's one jog (from the sender's first column down to the relay's
    second) runs halfway between the two columns' boxes, not beside its source's stub (a designer's review: in the
    spread grid the bend sat next to the sender, and read as the sender's); the natural drawing, whose channel is
    narrow, keeps its jog where the routing left it, at the end of the stub."""
    spec = spec_from_data(_relay())
    wide, natural = diagram(spec), diagram(spec, spread=False)
    assert wide.natural is not None
    for drawn in (wide, natural):
        points = drawn.arrows["send"].points
        assert len(points) == 4 and points[1][0] == points[2][0], points  # out, down, in: one jog
    jog, low, high = _jog_x(wide)
    assert abs(jog - (low + high) / 2) <= 1.0, (jog, low, high)
    jog, low, high = _jog_x(natural)
    assert jog == low, (jog, low, high)  # unspread, where the routing put it: at the end of its source's stub


def _relay() -> dict:
    """Two lanes of three columns, a send arrow down a lane and a column on, an acknowledgement up and on."""
    data = with_graph({"s0": "compose", "s1": "wait for the acknowledgement", "s2": "done", "r0": "idle",
                       "r1": "relay message", "r2": "drop"}, [("s0", "r1", "send"), ("r1", "s2", "ack")])
    data["targets"]["send"] = data["targets"].pop("e0")
    data["targets"]["ack"] = data["targets"].pop("e1")
    for step in data["scenarios"][0]["steps"]:
        step["paths"] = [{"e0": "send", "e1": "ack"}.get(key, key) for key in step["paths"]]
    data["layout"] = {"lanes": [{"key": "s", "label": "Sender"}, {"key": "r", "label": "Relay"}]}
    return data


def _jog_x(drawn) -> tuple[float, float, float]:
    """Where the send arrow's jog runs, and the room its channel gives it: from the end of its source's stub to the
    start of its target's stub and arrowhead (x, user units)."""
    points = drawn.arrows["send"].points
    return points[1][0], points[0][0] + SOURCE_STUB, points[-1][0] - TARGET_STUB - ARROW_HEAD
