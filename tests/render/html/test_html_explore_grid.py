"""The explorer's grid over a lane grid (render/explore.py ``lane_grid``, issue 31): one row per lane in the
tree's order, one cell per column holding the index of the tree's box item (or -1 for an empty cell), column
headers from ``layout.columns`` or the columns' numbers; layered graphs get no grid."""

from __future__ import annotations

import json

from mechdiagram.render.explore import lane_grid, sequence_grid
from mechdiagram.shared.locale import FSI, PDI, words_for
from mechdiagram.shared.model import spec_from_data
from support.html_doc import parse_html
from support.outputs import render
from support.specs import minimal_spec


def player_data(data: dict, slug: str = "t") -> dict:
    root = parse_html(render(data, slug)[f"{slug}.html"].decode("utf-8"))
    return json.loads(root.find("mech-diagram").attrs["data-mech-player"])


def i(text: str) -> str:
    return f"{FSI}{text}{PDI}"


def grid_of(data: dict, language: str = "en") -> dict | None:
    explore = player_data(data)["scenarios"][0]["explore"]
    return lane_grid(spec_from_data(data), explore, words_for(language))


def test_a_lane_grid_has_a_row_per_lane_and_a_cell_per_column():
    assert grid_of(minimal_spec()) == {
        "columns": ["1", "2"],
        "rows": [{"head": i("a"), "cells": [1, 3]}, {"head": i("b"), "cells": [5, 6]}],
    }


def test_an_empty_cell_is_kept_and_columns_take_their_labels():
    data = minimal_spec()
    del data["targets"]["a1"]
    data["scenarios"][0]["steps"][1]["active"] = ["b1"]
    data["layout"] = {"columns": ["Prefill", "Decode"]}
    grid = grid_of(data)
    assert grid is not None
    assert grid["columns"] == [i("Prefill"), i("Decode")]
    assert grid["rows"] == [{"head": i("a"), "cells": [1, -1]}, {"head": i("b"), "cells": [4, 5]}]


def test_a_column_label_is_isolated_in_any_language():
    data = {**minimal_spec(), "language": "de", "layout": {"columns": ["Vorfüllen", "Dekodieren"]}}
    grid = grid_of(data, "de")
    assert grid is not None
    assert grid["columns"] == [i("Vorfüllen"), i("Dekodieren")]


def test_a_layered_graph_keeps_the_tree():
    data = minimal_spec()
    data["targets"] = {
        "client": {"id": "client", "kind": "node", "label": "Client"},
        "server": {"id": "server", "kind": "node", "label": "Server"},
        "ask": {"id": "ask", "kind": "path", "from": "client", "to": "server", "label": "request"},
    }
    data["scenarios"][0]["unselected"] = []
    for step in data["scenarios"][0]["steps"]:
        step.update(active=["client"], paths=["ask"])
    assert player_data(data)["scenarios"][0]["explore"]["items"][0]["kind"] == "node"
    assert grid_of(data) is None


def sequence_spec() -> dict:
    data = minimal_spec()
    data["targets"] = {
        "client": {"id": "client", "kind": "node", "label": "Client"},
        "server": {"id": "server", "kind": "node", "label": "Server"},
        "db": {"id": "db", "kind": "node", "label": "Database"},
        "ask": {"id": "ask", "kind": "path", "from": "client", "to": "server", "label": "request"},
        "read": {"id": "read", "kind": "path", "from": "server", "to": "db", "label": "query"},
    }
    data["layout"] = {"view": "sequence", "order": ["client", "server", "db"]}
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"][0].update(active=["client"], paths=["ask"])
    data["scenarios"][0]["steps"][1].update(active=["server", "db"], paths=["read"])
    return data


def test_a_sequence_has_a_row_per_step_and_a_column_per_participant():
    data = sequence_spec()
    explore = player_data(data)["scenarios"][0]["explore"]
    spec = spec_from_data(data)
    grid = sequence_grid(spec, spec.scenarios[0], explore, words_for("en"))
    assert grid is not None
    items = explore["items"]
    assert [(c["key"], c["head"], items[c["item"]]["key"]) for c in grid["columns"]] == [
        ("client", i("Client"), "client"), ("server", i("Server"), "server"), ("db", i("Database"), "db")]
    assert [row["head"] for row in grid["rows"]] == [f"Step 1: {i('One')}", f"Step 2: {i('Two')}"]
    said = [[(cell["active"], [(items[n]["key"], items[items[n]["parent"]]["key"]) for n in cell["items"]])
             for cell in row["cells"]] for row in grid["rows"]]
    assert said == [
        [(True, [("ask", "client")]), (False, [("ask", "server")]), (False, [])],
        [(False, []), (True, [("read", "server")]), (True, [("read", "db")])],
    ]
    assert lane_grid(spec, explore, words_for("en")) is None


def test_a_lane_grid_is_no_sequence():
    data = minimal_spec()
    explore = player_data(data)["scenarios"][0]["explore"]
    spec = spec_from_data(data)
    assert sequence_grid(spec, spec.scenarios[0], explore, words_for("en")) is None
