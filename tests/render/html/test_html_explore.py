"""The explorer's data in the HTML figure (render/explore.py, issue 31): the drawing's structure as a tree in
reading order (lanes, boxes, their arrows), what each item says in the catalogue's words with counts in the
language's plural forms, each step's active keys, and the focus ring of every target in each layout."""

from __future__ import annotations

import json

from mechdiagram.render.html import figure_context
from mechdiagram.shared.locale import FSI, PDI
from mechdiagram.shared.model import spec_from_data
from support.html_doc import parse_html
from support.outputs import render
from support.specs import minimal_spec


def player_data(data: dict, slug: str = "t") -> dict:
    root = parse_html(render(data, slug)[f"{slug}.html"].decode("utf-8"))
    return json.loads(root.find("mech-diagram").attrs["data-mech-player"])


def i(text: str) -> str:
    return f"{FSI}{text}{PDI}"


def rows(explore: dict) -> list[tuple]:
    return [(it["kind"], it["key"], it["level"], it["parent"], it["head"], it["tail"], it.get("far"))
            for it in explore["items"]]


def layered_spec() -> dict:
    data = minimal_spec()
    data["targets"] = {
        "client": {"id": "client", "kind": "node", "label": "Client"},
        "server": {"id": "server", "kind": "node", "label": "Server"},
        "db": {"id": "db", "kind": "node", "label": "Database"},
        "log": {"id": "log", "kind": "node", "label": "Log"},
        "ask": {"id": "ask", "kind": "path", "from": "client", "to": "server", "label": "request"},
        "read": {"id": "read", "kind": "path", "from": "server", "to": "db"},
        "rows": {"id": "rows", "kind": "path", "from": "db", "to": "server", "label": "rows"},
    }
    data["scenarios"][0]["unselected"] = []
    data["scenarios"][0]["steps"][0].update(active=["client"], paths=["ask"])
    data["scenarios"][0]["steps"][1].update(active=["server", "db"], paths=["read"])
    return data


def test_a_lane_grid_is_a_tree_of_lanes_boxes_and_arrows():
    explore = player_data(minimal_spec())["scenarios"][0]["explore"]
    assert explore["name"].startswith("Structure of the drawing")
    assert rows(explore) == [
        ("group", "a", 1, -1, i("a"), "2 boxes", None),
        ("node", "a0", 2, 0, f"{i('first')}, in {i('a')}", f"1 arrow out: {i('flow')} to {i('fourth')}", None),
        ("arrow", "ab", 3, 1, f"Arrow {i('flow')}: from {i('first')} to {i('fourth')}", "", 6),
        ("node", "a1", 2, 0, f"{i('second')}, in {i('a')}", "no arrows", None),
        ("group", "b", 1, -1, i("b"), "2 boxes", None),
        ("node", "b0", 2, 4, f"{i('third')}, in {i('b')}", "no arrows", None),
        ("node", "b1", 2, 4, f"{i('fourth')}, in {i('b')}", f"1 arrow in: {i('flow')} from {i('first')}", None),
        ("arrow", "ab", 3, 6, f"Arrow {i('flow')}: from {i('first')} to {i('fourth')}", "", 1),
    ]


def test_a_layered_graph_lists_its_boxes_in_reading_order_each_with_its_arrows_out_then_in():
    data = player_data(layered_spec())
    explore = data["scenarios"][0]["explore"]
    items = explore["items"]
    nodes = [it["key"] for it in items if it["kind"] == "node"]
    boxes = explore["shapes"][0]
    assert sorted(nodes) == ["client", "db", "log", "server"]
    # each box's arrows follow it, out then in, one level down
    at = nodes.index("server")
    server_arrows = [it["key"] for it in items if it["kind"] == "arrow" and items[it["parent"]]["key"] == "server"]
    assert server_arrows == ["read", "ask", "rows"] and at >= 0
    assert [(round(boxes[k]["r"][1]), boxes[k]["r"][0]) for k in nodes] == sorted(
        (round(boxes[k]["r"][1]), boxes[k]["r"][0]) for k in nodes)
    server = next(it for it in items if it["key"] == "server")
    assert server["head"] == i("Server")
    assert server["tail"] == (f"1 arrow out: to {i('Database')}, "
                              f"2 arrows in: {i('request')} from {i('Client')}, {i('rows')} from {i('Database')}")
    # an arrow leads to its other end; an unlabelled one says so
    read = [it for it in items if it["key"] == "read"]
    assert {items[it["far"]]["key"] for it in read} == {"server", "db"}
    assert read[0]["head"] == f"Arrow from {i('Server')} to {i('Database')}"
    log = next(it for it in items if it["key"] == "log")
    assert log["tail"] == "no arrows" and log["level"] == 1
    # what each step makes active, for what the items say of it
    assert [s["on"] for s in data["scenarios"][0]["steps"]] == [["client", "ask"], ["server", "db", "read"]]
    assert set(data["words"]) >= {"exploreActive", "exploreInactive", "exploreUsed", "exploreUnused", "exploreJoin"}


def test_a_group_is_a_level_above_its_members_and_boxes_in_no_group_stay_where_they_are():
    """Issue 31: "a level above the nodes for lanes, groups or participants"."""
    data = layered_spec()
    data["groups"] = {"back": {"label": "Back end", "members": ["server", "db"]}}
    explore = player_data(data)["scenarios"][0]["explore"]
    items = explore["items"]
    tops = [(it["kind"], it["key"]) for it in items if it["level"] == 1]
    assert ("group", "Back end") in tops and ("node", "client") in tops and ("node", "log") in tops
    group = items.index(next(it for it in items if it["kind"] == "group"))
    assert items[group]["head"] == i("Back end") and items[group]["tail"] == "2 boxes"
    members = [it for it in items if it["kind"] == "node" and it["parent"] == group]
    assert sorted(m["key"] for m in members) == ["db", "server"] and {m["level"] for m in members} == {2}
    assert next(m for m in members if m["key"] == "server")["head"] == f"{i('Server')}, in {i('Back end')}"
    # the group's boxes follow it, before any box that comes after its first in reading order
    after = [it["key"] for it in items[group + 1:] if it["kind"] == "node"]
    assert after[:2] == [m["key"] for m in members]
    # its arrows, one level under each member, lead to the boxes at their other ends
    read = next(it for it in items if it["key"] == "read" and it["level"] == 3)
    assert items[read["far"]]["key"] in ("server", "db")


def test_focus_rings_are_given_for_every_layout():
    explore = player_data(layered_spec())["scenarios"][0]["explore"]
    layouts = explore["shapes"]  # wide (spread to a wide screen), its natural drawing (the upper middle one), narrow
    assert len(layouts) == 3
    for shapes in layouts:
        assert set(shapes) == {"client", "server", "db", "log", "ask", "read", "rows"}
        x, y, w, h = shapes["client"]["r"]
        assert w > 0 and h > 0
        assert shapes["ask"]["d"].startswith("M") and len(shapes["ask"]["h"].split()) == 3
        assert len(shapes["ask"]["l"]) == 4 and "l" not in shapes["read"]


def test_a_sequence_lists_its_participants_with_their_messages():
    data = layered_spec()
    data["layout"] = {"view": "sequence"}
    explore = player_data(data)["scenarios"][0]["explore"]
    items = explore["items"]
    assert [it["key"] for it in items if it["kind"] == "node"] == ["client", "server", "db", "log"]
    assert {it["key"] for it in items if it["kind"] == "arrow"} <= {"ask", "read"}  # messages some step sends
    assert all(it["level"] == (1 if it["kind"] == "node" else 2) for it in items)


def test_the_words_follow_the_language_and_the_specs_messages():
    data = layered_spec()
    data["language"] = "ar"
    data["messages"] = {"exploreNoArrows": "وحيد"}
    items = player_data(data)["scenarios"][0]["explore"]["items"]
    server = next(it for it in items if it["key"] == "server")
    assert server["tail"].startswith("سهم خارج واحد: إلى ") and "سهمان داخلان: " in server["tail"]
    assert "، " in server["tail"]
    assert next(it for it in items if it["key"] == "log")["tail"] == "وحيد"


def test_a_figure_built_without_rings_has_no_explorer():
    context = figure_context(spec_from_data(minimal_spec()), "tiny", ["<svg></svg>"], [])
    assert "explore" not in context["player_data"]["scenarios"][0]
    assert "exploreJoin" not in context["player_data"]["words"]
