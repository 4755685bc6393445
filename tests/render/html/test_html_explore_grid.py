"""The explorer's ARIA grid (render/explore.py ``grid``, issue 31), as the figure's player data carries it: over a
lane grid a row per lane in the tree's order headed by the lane's item and a cell per column holding the box's item
and its arrows (or an empty cell), column headers from ``layout.columns`` or "Column N"; over a sequence a row per
step and a column per participant, each cell saying what the participant does in that step; a layered graph keeps
the tree.  What the player does with it: tests/browser/test_browser_explore.py."""

from __future__ import annotations

import json

from mechdiagram.render.explore import LANES_KEY, ROW_KEY, lane_grid, sequence_grid
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


def explore_of(data: dict) -> dict:
    return player_data(data)["scenarios"][0]["explore"]


def cells(grid: dict, items: list[dict]) -> list[list[tuple[str, list[str], str]]]:
    """Each cell as (its box's key or "", its arrows' keys, its fixed name)."""
    return [[(items[c["item"]]["key"] if c["item"] >= 0 else "", [items[a]["key"] for a in c["arrows"]], c["name"])
             for c in row["cells"]] for row in grid["rows"]]


def test_a_lane_grid_has_a_row_per_lane_and_a_cell_per_column():
    explore = explore_of(minimal_spec())
    grid, items = explore["grid"], explore["items"]
    assert grid["name"] == words_for("en")["exploreGridName"]
    assert grid["columns"] == [{"head": "Column 1", "item": -1}, {"head": "Column 2", "item": -1}]
    assert [(row["head"], items[row["item"]]["kind"], row["step"]) for row in grid["rows"]] == [
        (i("a"), "group", -1), (i("b"), "group", -1)]
    # the player names a box's cell from its item (its state follows the step); its arrows are Enter's way in
    assert cells(grid, items) == [[("a0", ["ab"], ""), ("a1", [], "")], [("b0", [], ""), ("b1", ["ab"], "")]]


def test_an_empty_cell_is_kept_and_columns_take_their_labels():
    data = minimal_spec()
    del data["targets"]["a1"]
    data["scenarios"][0]["steps"][1]["active"] = ["b1"]
    data["layout"] = {"columns": ["Prefill", "Decode"]}
    explore = explore_of(data)
    grid = explore["grid"]
    assert [c["head"] for c in grid["columns"]] == [i("Prefill"), i("Decode")]
    assert cells(grid, explore["items"])[0] == [("a0", ["ab"], ""), ("", [], "empty")]


def test_the_grid_speaks_the_figures_language():
    data = {**minimal_spec(), "language": "de"}
    data["targets"]["a1"]["label"] = "zweite"
    del data["targets"]["b0"]
    data["scenarios"][0]["unselected"] = []
    grid = explore_of(data)["grid"]
    assert grid["name"].startswith("Aufbau der Zeichnung als Raster")
    assert [c["head"] for c in grid["columns"]] == ["Spalte 1", "Spalte 2"]
    assert grid["rows"][1]["cells"][0]["name"] == "leer"


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
    explore = explore_of(data)
    assert explore["items"][0]["kind"] == "node"
    assert explore["grid"] is None


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
    data["scenarios"][0]["steps"][1].update(active=["server", "db"], paths=["read"], marks={"db": "new"})
    return data


def test_a_sequence_has_a_row_per_step_and_a_column_per_participant():
    explore = explore_of(sequence_spec())
    grid, items = explore["grid"], explore["items"]
    assert [(items[c["item"]]["key"], c["head"]) for c in grid["columns"]] == [
        ("client", i("Client")), ("server", i("Server")), ("db", i("Database"))]
    assert [(row["head"], row["item"], row["step"]) for row in grid["rows"]] == [
        (f"Step 1: {i('One')}", -1, 0), (f"Step 2: {i('Two')}", -1, 1)]
    # a cell says what its participant does in its row's step, which it does not change: a fixed name
    assert cells(grid, items) == [
        [("", ["ask"], f"{i('Client')}, active in this step, 1 arrow out: {i('request')} to {i('Server')}"),
         ("", ["ask"], f"{i('Server')}, not active in this step, 1 arrow in: {i('request')} from {i('Client')}"),
         ("", [], f"{i('Database')}, not active in this step, no arrows")],
        [("", [], f"{i('Client')}, not active in this step, no arrows"),
         ("", ["read"], f"{i('Server')}, active in this step, 1 arrow out: {i('query')} to {i('Database')}"),
         ("", ["read"], f"{i('Database')}, active in this step, new, 1 arrow in: {i('query')} from {i('Server')}")],
    ]
    # each arrow of a cell is the arrow item under the cell's participant, which leads to the other end
    first = grid["rows"][0]["cells"][0]["arrows"][0]
    assert items[items[first]["parent"]]["key"] == "client" and items[items[first]["far"]]["key"] == "server"


def test_each_view_has_its_own_grid_or_none():
    for data, lanes, sequence in ((minimal_spec(), True, False), (sequence_spec(), False, True)):
        explore = explore_of(data)
        spec = spec_from_data(data)
        words = words_for("en")
        assert (lane_grid(spec, explore, words) is not None) == lanes
        assert (sequence_grid(spec, spec.scenarios[0], explore, words) is not None) == sequence


def test_a_sequence_rows_bands_are_ringed_by_step():
    shapes = explore_of(sequence_spec())["shapes"]
    for layout in shapes:
        bands = [layout[f"{ROW_KEY}{n}"]["r"] for n in (1, 2)]
        assert bands[0][1] + bands[0][3] <= bands[1][1]  # step 2's row is under step 1's
        head = layout["client"]["r"]
        assert head[1] + head[3] <= bands[0][1]  # under the heads


def test_a_message_sent_in_two_steps_is_ringed_in_each_steps_row():
    data = sequence_spec()
    data["scenarios"][0]["steps"][1]["paths"] = ["read", "ask"]
    for layout in explore_of(data)["shapes"]:
        first, again = layout[f"{ROW_KEY}1/ask"], layout[f"{ROW_KEY}2/ask"]
        band = layout[f"{ROW_KEY}2"]["r"]
        assert first != again and layout["ask"] == first  # where it is first drawn, and in each row
        ys = [float(point.split()[1]) for point in again["d"][1:].split(" L")]
        assert all(band[1] <= y <= band[1] + band[3] for y in ys), (ys, band)


def test_a_lane_grid_says_which_way_its_lanes_run_in_each_layout():
    data = minimal_spec()  # two lanes: rows in the wide layout, columns in the phone's transposed one
    wide, *others = explore_of(data)["shapes"]
    assert wide[LANES_KEY] == {"across": True}
    assert others and others[-1][LANES_KEY] == {"across": False}


def test_the_grid_follows_the_keys_as_the_narrow_and_middle_layouts_do_under_layout_positions():
    """``layout.positions`` moves a box in the wide layout only; the grid, one for every layout, keeps the keys'
    lanes and columns, as the narrow and middle layouts draw them (a box's own ring shows where it is drawn)."""
    data = minimal_spec()
    data["layout"] = {"columns": ["one", "two"], "positions": {"a1": {"row": 1, "column": 3}}}
    explore = explore_of(data)
    grid, items = explore["grid"], explore["items"]
    assert [c["head"] for c in grid["columns"]] == [i("one"), i("two")]
    assert [[c[0] for c in row] for row in cells(grid, items)] == [["a0", "a1"], ["b0", "b1"]]
