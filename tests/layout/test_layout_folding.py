"""The layered layout's folding: a graph of five ranks or more is folded back and forth into bands, so that its
wide drawing keeps an aspect ratio between 0.6 and 2.5, with no two arrows that cross or touch where the unfolded
drawing had none; a lane grid and an author's positions are never folded."""

from __future__ import annotations

import pytest

from mechdiagram.layout import ASPECT_RANGE, diagram, grid_cells
from mechdiagram.layout.layered import folded
from mechdiagram.layout.route_rules import crossing_count, junctions
from mechdiagram.shared.model import spec_from_data
from support.specs import minimal_spec

NAMES = ["client", "resolver", "handshake", "tls", "balancer", "gateway", "auth", "router", "service", "cache",
         "database", "reply", "audit", "metrics", "archive", "billing", "mailer", "search", "thumbnail", "export"]


def _spec(nodes: list[str], edges: list[tuple[str, str]], positions: dict | None = None):
    data = minimal_spec()
    data["targets"] = {key: {"id": key, "kind": "node", "label": key.title()} for key in nodes}
    data["targets"].update({f"{a}-{b}": {"id": f"{a}-{b}", "kind": "path", "from": a, "to": b, "label": "next"}
                            for a, b in edges})
    data["scenarios"][0]["unselected"] = []
    for step in data["scenarios"][0]["steps"]:
        step["active"], step["paths"] = [nodes[0]], []
    if positions:
        data["layout"] = {"positions": positions}
    return spec_from_data(data)


def _aspect(drawn) -> float:
    boxes = list(drawn.boxes.values())
    width = max(b.right for b in boxes) - min(b.x for b in boxes)
    height = max(b.bottom for b in boxes) - min(b.y for b in boxes)
    return drawn.width / (height + (drawn.width - width))  # the same margin on every side


def _meetings(drawn) -> int:
    """Arrows that cross, or touch without crossing (a false junction)."""
    return crossing_count(drawn.arrows) + len(junctions(drawn.arrows))


def test_folded_cells_run_down_then_up_and_keep_each_chain_step_next_door():
    cells = {f"n{i}": (i, 0) for i in range(7)}  # seven ranks as rows, one place each
    assert folded(cells, 3, down=True) == {"n0": (0, 0), "n1": (1, 0), "n2": (2, 0), "n3": (2, 1), "n4": (1, 1),
                                           "n5": (0, 1), "n6": (0, 2)}
    across = {f"n{i}": (0, i) for i in range(4)}  # ranks as columns: bands of rows, right then left
    assert folded(across, 2, down=False) == {"n0": (0, 0), "n1": (0, 1), "n2": (1, 1), "n3": (1, 0)}
    assert folded(cells, 1, down=True) == cells


@pytest.mark.parametrize("count", [5, 6, 8, 12, 20])
def test_a_long_chain_folds_into_a_readable_shape_with_each_step_next_door(count):
    nodes = NAMES[:count]
    spec = _spec(nodes, list(zip(nodes, nodes[1:], strict=False)))
    drawn = diagram(spec)
    lo, hi = ASPECT_RANGE
    assert lo <= _aspect(drawn) <= hi, (count, drawn.width, drawn.bottom)
    assert _meetings(drawn) == 0
    for a, b in zip(nodes, nodes[1:], strict=False):  # every arrow joins two neighbouring cells
        (ra, ca), (rb, cb) = drawn.cells[a], drawn.cells[b]
        assert abs(ra - rb) + abs(ca - cb) == 1, (a, b, drawn.cells[a], drawn.cells[b])
    for arrow in drawn.arrows.values():  # straight: a fold turns between bands, never inside an arrow
        assert len(arrow.points) == 2, arrow.key


def test_a_cycle_of_eight_becomes_a_ring():
    nodes = NAMES[:8]
    spec = _spec(nodes, [*zip(nodes, nodes[1:], strict=False), (nodes[-1], nodes[0])])
    drawn = diagram(spec)
    assert ASPECT_RANGE[0] <= _aspect(drawn) <= ASPECT_RANGE[1]
    assert _meetings(drawn) == 0
    assert sorted({column for _, column in drawn.cells.values()}) == [0, 1]  # two columns, down then up
    assert all(len(arrow.points) == 2 for arrow in drawn.arrows.values())  # the closing arrow too


def test_a_short_graph_and_an_authors_positions_are_never_folded():
    nodes = NAMES[:4]
    short = _spec(nodes, list(zip(nodes, nodes[1:], strict=False)))
    assert diagram(short).cells == grid_cells(short)[0]  # four ranks in a row: wide, but a screen shows them
    nodes = NAMES[:12]
    placed = _spec(nodes, list(zip(nodes, nodes[1:], strict=False)), {"client": {"row": 0, "column": 0}})
    assert diagram(placed).cells == grid_cells(placed)[0]  # the author's layout, even 1:7


def test_a_lane_grid_is_never_folded():
    nodes = [f"step{i}" for i in range(12)]
    grid = _spec(nodes, list(zip(nodes, nodes[1:], strict=False)))
    drawn = diagram(grid)
    assert drawn.direction == "grid" and {row for row, _ in drawn.cells.values()} == {0}


def test_refolding_keeps_the_layered_order_and_puts_loose_nodes_under_the_bands():
    """Folding works on the laid-out cells (the layered layout runs once, however many foldings are tried)."""
    from mechdiagram.layout.placement import refolded

    nodes = NAMES[:9]
    spec = _spec([*nodes, "loner"], list(zip(nodes, nodes[1:], strict=False)))
    cells, _ = grid_cells(spec)
    assert cells["loner"] == (9, 0)  # nine ranks as rows, then the node without paths
    folded_cells = refolded(spec, cells, 3, down=True)
    assert [folded_cells[key] for key in nodes] == [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1), (0, 2), (1, 2),
                                                   (2, 2)]
    assert folded_cells["loner"] == (3, 0)


def test_a_folded_chain_runs_with_its_flow_where_its_bands_turn_back():
    from mechdiagram.layout.checks import against_flow

    chain = NAMES[:12]
    edges = list(zip(chain, chain[1:], strict=False))
    spec = _spec(chain, [*edges, (chain[7], chain[2])])  # one arrow back, from the eighth box to the third
    drawn = diagram(spec)
    unfolded = {key: cell[1] if drawn.direction == "right" else cell[0] for key, cell in drawn.cells.items()}
    # the layout folded: some forward arrow runs to an earlier row or column of its cells
    assert any(unfolded[b] < unfolded[a] for a, b in edges)
    assert against_flow(spec, drawn, narrow=False) == drawn.against == {f"{chain[7]}-{chain[2]}"}


def test_between_two_foldings_out_of_the_aspect_range_the_one_whose_labels_read_right_wins():
    """A break-it review's chain of eleven boxes with long labels: two foldings, both out of ASPECT_RANGE, differed by
    0.0002 in their aspect ratio's distance from the target, and the nearer one printed "handshake decoder decoder"
    over another arrow (label-nearer and label-crossed).  Label faults now weigh before that distance."""
    from mechdiagram.layout.route_rules import label_faults
    from support.topologies import with_graph

    words = ["Of stream gateway index planner", "The gateway batch shard", "Serialise shard session result",
             "Request session cache retry tokenizer", "Planner encoder pipeline executor compaction",
             "Shard the compaction", "Validation pipeline decoder index", "The shard session validation",
             "Executor planner", "Gateway of validation", "Index validation"]
    nodes = {f"n{i}x": label for i, label in enumerate(words)}
    edges = [("n0x", "n1x", "session compaction cache tokenizer"), ("n1x", "n2x", "request"), ("n2x", "n3x", None),
             ("n3x", "n4x", "batch"), ("n4x", "n5x", "scheduler validation planner stream"),
             ("n5x", "n6x", "shard gateway"), ("n6x", "n7x", "compaction handshake"),
             ("n7x", "n8x", "encoder pipeline scheduler worker"), ("n8x", "n9x", "session"), ("n9x", "n10x", None),
             ("n6x", "n5x", "handshake decoder decoder"), ("n6x", "n7x", "worker the"),
             ("n4x", "n7x", "encoder index gateway and")]
    drawn = diagram(spec_from_data(with_graph(nodes, edges)))
    kinds = [fault.kind for fault in label_faults(drawn.arrows)]
    assert "label-crossed" not in kinds and "label-nearer" not in kinds, kinds


def test_a_cycle_drawn_down_one_column_folds_into_a_ring_that_spreads_to_fill_a_wide_screen():
    """Issue 26: a cycle of five stages drew down one column (aspect ratio 0.61, in the range), which the spread
    cannot widen, and filled 58 % of a 1,280 px screen's figure.  Now a one-column drawing under PORTRAIT_BELOW is
    folded into the range where that breaks no rule: two columns, down then up, spread to fill 85 % of a 1,216 px
    frame at GROWTH.  A column whose folds cross (the five-service checkout's arcs) stays a column."""
    from mechdiagram.layout import PORTRAIT_BELOW
    from mechdiagram.layout.checks import against_flow
    from mechdiagram.layout.route_rules import faults
    from mechdiagram.layout.sizes import GROWTH
    from support.edge_topologies import cycle_of_five, edge_topologies

    spec = spec_from_data(cycle_of_five())
    column, _ = grid_cells(spec)
    assert len({c for _, c in column.values()}) == 1  # its layering is one column
    drawn = diagram(spec)
    assert sorted({c for _, c in drawn.cells.values()}) == [0, 1], drawn.cells
    assert drawn.natural is not None and ASPECT_RANGE[0] <= _aspect(drawn.natural) <= ASPECT_RANGE[1]
    assert drawn.width * GROWTH >= 0.85 * 1216, drawn.width
    assert faults(drawn.arrows, against_flow(spec, drawn, narrow=False)) == []
    checkout = spec_from_data(edge_topologies()["five-services"])
    kept = diagram(checkout)
    assert len({c for _, c in kept.cells.values()}) == 1 and _aspect(kept) < PORTRAIT_BELOW
