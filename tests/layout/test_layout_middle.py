"""Issue 26, a layout for every width: a layered graph's middle layout (``middle_diagram``), for a figure between a
phone's and the wide drawing's width.  Between 600 and 768 px the serving stack showed its phone column in 68 to
77 % of the frame; its middle layout is its wide layout's cells with the narrow layout's text widths."""

from __future__ import annotations

import collections
import json
from pathlib import Path

from mechdiagram.layout import MIDDLE_CELLS_WIDTH, diagram, middle_diagram
from mechdiagram.layout.checks import against_flow
from mechdiagram.layout.route_rules import faults
from mechdiagram.layout.sizes import MIDDLE_BOX_MAX_WIDTH, MIDDLE_GRAPH_LEAST_WIDTH, MIDDLE_GRAPH_WIDTH, UPPER_WIDTH
from mechdiagram.shared.model import spec_from_data
from support.edge_topologies import edge_topologies
from support.specs import MECHANISMS
from support.topologies import ci_pipeline, compiler_pipeline, dead_letter_queue, topologies


def _gallery(name: str):
    return spec_from_data(json.loads((MECHANISMS / f"{name}.mechanism.json").read_text("utf-8")))


def _faults(spec, drawn):
    return faults(drawn.arrows, against_flow(spec, drawn, narrow=False))


def test_the_serving_stack_has_a_middle_layout_of_its_wide_cells_with_narrower_boxes():
    """The author's ``layout.positions`` keep their cells; the boxes wrap their text narrower (the widest is
    its longest word's, "Detokenizer:", 129 units); no arrow crosses, meets or bends more than the wide one's, and
    every route and label is clean.  The phone's column is 339 units; the middle one fills a figure from 592 px."""
    spec = _gallery("serving-stack")
    wide, narrow, middle = diagram(spec), diagram(spec, narrow=True), middle_diagram(spec)
    assert middle is not None
    assert narrow.width < middle.width <= MIDDLE_GRAPH_WIDTH < wide.width
    assert middle.cells == wide.cells and middle.direction == wide.direction
    # its column as wide as its widest word; the wide layout's boxes are up to 160 units
    assert max(box.w for box in middle.boxes.values()) < 130 < max(box.w for box in wide.boxes.values())
    assert all(middle.boxes[key].w <= wide.boxes[key].w for key in wide.boxes)
    assert sum(box.w <= MIDDLE_BOX_MAX_WIDTH for box in middle.boxes.values()) == 4
    assert set(middle.groups) == set(wide.groups)
    assert not _faults(spec, middle) and not _faults(spec, wide)
    assert all(arrow.clean and not arrow.crowded for arrow in middle.arrows.values())
    # every box inside its group's frame, as in the wide layout
    frame = middle.groups["engine"]
    for key in spec.groups["engine"].members:
        box = middle.boxes[key]
        assert frame.x < box.x and box.right < frame.x + frame.w and frame.y < box.y and box.bottom < frame.y + frame.h


def test_a_chain_whose_layering_is_one_column_is_folded_into_rows_for_its_middle_layout():
    """Four boxes with long labels, 850 units wide in one row, whose cells with the phone's text widths are still
    736 units and whose layering down the page is one column: the phone's column filled 59 to 88 % of a 576 to 832 px
    figure.  Its layering across, folded back and forth into two rows, is the middle layout: Request and Planner
    left to right, Executor and Result right to left under them, each arrow between neighbours, breaking no rule."""
    spec = spec_from_data(edge_topologies()["long-labels"])
    wide, middle = diagram(spec), middle_diagram(spec)
    assert wide.width > MIDDLE_GRAPH_WIDTH and middle is not None
    assert MIDDLE_GRAPH_LEAST_WIDTH <= middle.width <= MIDDLE_GRAPH_WIDTH
    assert middle.cells == {"req": (0, 0), "plan": (0, 1), "run": (1, 1), "out": (1, 0)}
    found, wide_found = (collections.Counter(f.kind for f in _faults(spec, drawn)) for drawn in (middle, wide))
    assert all(found[kind] <= wide_found[kind] for kind in found), (found, wide_found)
    assert all(arrow.clean for arrow in middle.arrows.values())


def _grouped_chain(members: list[str]) -> dict:
    """The long-labels chain with a group of ``members``."""
    data = edge_topologies()["long-labels"]
    data["groups"] = {"engine": {"label": "Engine", "members": members}}
    return data


def test_a_middle_layout_in_rows_never_puts_another_box_in_a_groups_frame():
    """A group's frame is one rectangle round its members' cells: the folding of the four layers two a row keeps
    Request and Planner, or Planner and Executor (one above the other), in frames of their own; with Request and
    Executor grouped it would hold Planner and Result too, and is not tried, so there is no middle layout.  A
    break-it review's: a group of one box on the chain and three without arrows, which the folding moves to rows
    under it, put those three in a frame with a box two rows up; no such folding is tried."""
    from mechdiagram.layout import _in_rows

    folded = {"req": (0, 0), "plan": (0, 1), "run": (1, 1), "out": (1, 0)}
    for members in (["req", "plan"], ["plan", "run"]):
        assert folded in [cells for cells, _ in _in_rows(spec_from_data(_grouped_chain(members)))], members
    apart = spec_from_data(_grouped_chain(["req", "run"]))
    assert _in_rows(apart) == [] and middle_diagram(apart) is None
    data = _grouped_chain(["plan", "config", "secrets", "audit"])
    data["targets"] |= {key: {"id": f"t-{key}", "kind": "node", "label": key.title()}
                        for key in ("config", "secrets", "audit")}
    loose = spec_from_data(data)
    assert _in_rows(loose) == []
    middle = middle_diagram(loose)
    if middle is not None:  # drawn otherwise (down the page): its frame holds its members only
        frame = middle.groups["engine"]
        for key, box in middle.boxes.items():
            inside = frame.x < box.x and box.right < frame.x + frame.w and frame.y < box.y and \
                box.bottom < frame.y + frame.h
            assert inside == (key in loose.groups["engine"].members), key


def test_a_chain_the_author_places_is_not_folded_for_its_middle_layout():
    """``layout.positions`` are the wide layout's: the middle layout keeps the author's cells or is not made."""
    data = edge_topologies()["long-labels"]
    data["layout"] = {"positions": {key: {"row": 0, "column": column}
                                    for column, key in enumerate(("req", "plan", "run", "out"))}}
    spec = spec_from_data(data)
    middle = middle_diagram(spec)
    assert middle is None or middle.cells == diagram(spec).cells


def test_no_middle_layout_where_the_wide_one_fits_or_none_is_as_clean():
    """A chain of six is drawn 480 units wide: its natural drawing is the middle one.  Forty boxes, 1,786 units wide:
    their cells never come down to the middle width, and are not routed again; the phone's column stays.  A layered
    graph whose wide layout is not spread has no upper middle layout."""
    shapes = topologies()
    chain, forty = spec_from_data(shapes["chain"]), spec_from_data(shapes["forty"])
    wide = diagram(chain)
    assert (wide.natural or wide).width <= MIDDLE_GRAPH_WIDTH and middle_diagram(chain) is None
    assert middle_diagram(forty) is None
    assert middle_diagram(_gallery("serving-stack"), UPPER_WIDTH) is None


def test_the_middle_layout_reuses_the_wide_one_it_is_handed():
    """The build hands the wide layout it drew already: the same middle layout comes out."""
    spec = _gallery("serving-stack")
    assert middle_diagram(spec, wide=diagram(spec)) == middle_diagram(spec)


def test_a_graph_whose_wide_cells_stay_too_wide_is_drawn_down_the_page_for_its_middle_layout():
    """The compiler pipeline's wide layout is wider than the widest whose cells are placed again (its cells, with the
    phone's text widths, came to 757 units): no middle layout, and the phone's 304-unit column filled 36 to 60 % of a
    600 to 900 px figure.  Drawn down the page from its own layering,
    unfolded, it is between the least and the most a middle layout may be, with the diagnostics box beside the chain,
    and breaks no rule more often than the wide layout."""
    spec = spec_from_data(compiler_pipeline())
    wide, narrow, middle = diagram(spec), diagram(spec, narrow=True), middle_diagram(spec)
    assert wide.width > MIDDLE_CELLS_WIDTH and middle is not None
    assert narrow.width < MIDDLE_GRAPH_LEAST_WIDTH <= middle.width <= MIDDLE_GRAPH_WIDTH
    assert middle.direction == "down" and middle.cells != wide.cells
    ranks = [middle.cells[key][0] for key in ("source", "lexer", "parser", "typeck", "lower", "inline", "simplify",
                                              "isel", "regalloc", "link")]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)  # the chain runs down, one phase a row
    assert len({column for _, column in middle.cells.values()}) == 2  # the diagnostics box beside it
    assert len(_faults(spec, middle)) <= len(_faults(spec, wide))
    assert all(arrow.clean for arrow in middle.arrows.values())


def test_a_graph_the_author_places_keeps_the_wide_cells_for_its_middle_layout_or_has_none():
    """``layout.positions`` are the wide layout's: the middle layout keeps them or is not made, never a layering of
    its own that moves the boxes the author placed."""
    data = compiler_pipeline()
    cells = diagram(spec_from_data(data)).cells
    data["layout"] = {"positions": {key: {"row": row, "column": column} for key, (row, column) in cells.items()}}
    spec = spec_from_data(data)
    middle = middle_diagram(spec)
    assert middle is None or middle.cells == diagram(spec).cells


def test_no_middle_layout_hardly_narrower_than_the_wide_one():
    """Fifteen stages in four groups (a break-it review's): the wide layout, its frames widened for labels, is 650
    units wide, and its cells with the phone's text widths came to 639, which would show from a figure hardly
    narrower than the wide one does.  A middle layout is at most MIDDLE_NARROWER of the wide one's width."""
    from mechdiagram.layout import MIDDLE_NARROWER

    spec = spec_from_data(json.loads((Path(__file__).parents[1] / "data" / "middle-near-wide.mechanism.json")
                                     .read_text("utf-8")))
    wide = diagram(spec)
    natural = wide.natural or wide  # a middle layout is made from the natural drawing of one spread
    assert MIDDLE_GRAPH_WIDTH < natural.width < MIDDLE_GRAPH_WIDTH / MIDDLE_NARROWER
    middle = middle_diagram(spec, wide=wide)
    assert middle is None or middle.width <= MIDDLE_NARROWER * natural.width


def test_a_graph_whose_layerings_cross_has_its_phones_column_folded_into_columns_for_its_middle_layout():
    """A new user's dead-letter queue, 944 units across: its cells with the phone's text widths are still too wide,
    and drawn down the page its retry arrow crossed another, so it had no middle layout and the phone's 304-unit
    column filled 55 to 88 % of a 576 to 896 px figure.  The phone's column folded back and forth into three columns
    of two is its middle layout: each box beside or over its neighbour in the column, the column's arrows up it
    (the redelivery) against the flow, and no rule broken, as in the wide layout."""
    spec = spec_from_data(dead_letter_queue())
    wide, narrow, middle = diagram(spec), diagram(spec, narrow=True), middle_diagram(spec)
    assert wide.width > MIDDLE_CELLS_WIDTH and middle is not None
    assert narrow.width < MIDDLE_GRAPH_LEAST_WIDTH <= middle.width <= MIDDLE_GRAPH_WIDTH
    assert middle.cells == {"producer": (0, 0), "queue": (1, 0), "consumer": (1, 1), "retry": (0, 1),
                            "dlq": (0, 2), "db": (1, 2)}
    assert middle.against == frozenset({"e4"})  # retry -> queue, up the column
    assert not _faults(spec, middle) and not _faults(spec, wide)
    assert all(arrow.clean and not arrow.crowded for arrow in middle.arrows.values())


def test_a_layer_too_wide_for_the_middle_layout_is_wrapped_beside_the_next():
    """A new user's CI pipeline, 810 units across: drawn down the page its five jobs side by side did not fit the
    middle layout's width, so it had none and the phone's column filled 65 to 88 % of a 576 to 768 px figure.  The
    layer of jobs wrapped, its middle three under the build and its outer two beside the deploy, each layer centred
    under the widest, is its middle layout, breaking no rule."""
    from mechdiagram.layout import _wrapped_layer

    spec = spec_from_data(ci_pipeline())
    wide, middle = diagram(spec), middle_diagram(spec)
    assert wide.width > MIDDLE_GRAPH_WIDTH and middle is not None
    assert MIDDLE_GRAPH_LEAST_WIDTH <= middle.width <= MIDDLE_GRAPH_WIDTH
    assert middle.cells == {"push": (0, 1), "checkout": (1, 1), "build": (2, 1), "unit": (3, 0), "integ": (3, 1),
                            "docs": (3, 2), "lint": (4, 0), "deploy": (4, 1), "scan": (4, 2)}
    assert middle.cells in _wrapped_layer(spec)
    assert not _faults(spec, middle) and not _faults(spec, wide)
    assert all(arrow.clean and not arrow.crowded for arrow in middle.arrows.values())
    # a layer as wide as fits, or a wide last layer (nothing to stand beside), is not wrapped
    assert _wrapped_layer(spec_from_data(dead_letter_queue())) == []
    fan = ci_pipeline()
    fan["targets"] = {key: target for key, target in fan["targets"].items()
                      if key != "deploy" and target.get("to") != "deploy"}
    fan["scenarios"][0]["steps"] = [step for step in fan["scenarios"][0]["steps"]
                                    if all(key in fan["targets"] for key in step["active"] + step["paths"])]
    assert _wrapped_layer(spec_from_data(fan)) == []


def test_a_grouped_graph_or_one_the_author_places_is_neither_folded_nor_wrapped():
    """A group's members stand one after another in the phone's column, and in a block of the layering's cells:
    folded or wrapped, they would be split and their frame hold another box.  ``layout.positions`` are the wide
    layout's.  Neither is folded or wrapped."""
    from mechdiagram.layout import _column_folded, _wrapped_layer

    data = dead_letter_queue()
    assert _column_folded(spec_from_data(data))
    grouped = dict(data, groups={"queues": {"label": "Queues", "members": ["retry", "dlq"]}})
    assert _column_folded(spec_from_data(grouped)) == []
    placed = dict(data, layout={"positions": {"producer": {"row": 0, "column": 0}}})
    assert _column_folded(spec_from_data(placed)) == []
    loose = dict(data, targets=data["targets"] | {"audit": {"id": "audit", "kind": "node", "label": "Audit log"}})
    assert _column_folded(spec_from_data(loose)) == []  # a box without arrows: not folded
    pipeline = ci_pipeline()
    assert _wrapped_layer(spec_from_data(pipeline))
    assert _wrapped_layer(spec_from_data(dict(pipeline, groups={"jobs": {"label": "Jobs",
                                                                          "members": ["lint", "unit"]}}))) == []


def test_a_column_is_folded_only_where_every_arrow_stays_between_neighbours():
    """A break-it review: every folding was routed, and the middle layout of graphs of 20 to 40 boxes took 0.8 s
    (15 ms before) for one kept in 30.  Only foldings whose arrows all join neighbouring cells are tried: none of
    the forty-box graph's, whose arrows skip boxes down its column."""
    from mechdiagram.layout import _column_folded

    for data in (dead_letter_queue(), topologies()["forty"]):
        spec = spec_from_data(data)
        for cells, _ in _column_folded(spec):
            assert all(max(abs(a - b) for a, b in zip(cells[p.source], cells[p.dest], strict=True)) <= 1
                       for p in spec.paths), cells
    assert _column_folded(spec_from_data(dead_letter_queue()))
    assert _column_folded(spec_from_data(topologies()["forty"])) == []

