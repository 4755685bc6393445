"""Rule ``group`` (the spec's ``groups``): one failing case each, with its exact message, JSON Pointer, rule and
1-based line:column in the text the test wrote; and a step's ``active`` naming a group is no finding."""

from __future__ import annotations

import copy
import json

from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import RULES, check_spec
from support.sequences import sequence_spec
from support.specs import minimal_spec, position
from support.topologies import with_graph


def graph() -> dict:
    data = with_graph({"web": "Web", "api": "API", "db": "Database", "cache": "Cache"},
                      [("web", "api", "call"), ("api", "db", "read"), ("api", "cache", "get")])
    data["groups"] = {"backend": {"label": "Back end", "members": ["api", "db"]}}
    return data


def findings(data: dict) -> tuple[str, list]:
    text = json.dumps(data, indent=2)
    loaded = parse_text(text.encode("utf-8"), "spec.mechanism.json")
    return text, check_spec(loaded).findings


def only(data: dict) -> tuple[str, object]:
    text, found = findings(data)
    assert len(found) == 1, [(f.pointer, f.message, f.rule) for f in found]
    return text, found[0]


def test_a_valid_group_and_an_active_group_have_no_findings():
    data = graph()
    data["scenarios"][0]["steps"][0]["active"] = ["backend", "web"]
    assert findings(data)[1] == []
    assert "group" in RULES


def test_an_unknown_member_is_named_with_the_key_meant():
    data = graph()
    data["groups"]["backend"]["members"] = ["api", "dbb"]
    text, finding = only(data)
    assert (finding.pointer, finding.rule) == ("/groups/backend/members/1", "group")
    assert finding.message == '"dbb" is not a target; did you mean "db"?'
    assert (finding.line, finding.column) == position(text, '"dbb"')


def test_a_path_as_a_member():
    data = graph()
    data["groups"]["backend"]["members"] = ["api", "e1"]
    _, finding = only(data)
    assert (finding.pointer, finding.message) == ("/groups/backend/members/1",
                                                  '"e1" is a path; a group\'s members are node targets')


def test_a_node_in_two_groups():
    data = graph()
    data["groups"]["store"] = {"label": "Stores", "members": ["cache", "db"]}
    text, finding = only(data)
    assert finding.pointer == "/groups/store/members/1"
    assert finding.message == ('"db" is already a member of group "backend"; a node belongs to one group at most: '
                               "remove it from one of them")
    assert (finding.line, finding.column) == position(text, '"db"', -1)


def test_a_group_key_that_is_a_target_key():
    data = graph()
    data["groups"]["web"] = {"label": "Web", "members": ["cache"]}
    text, finding = only(data)
    assert (finding.pointer, finding.rule) == ("/groups/web", "group")
    assert finding.message.startswith('"web" is already a target\'s key; group and target keys share one namespace')
    assert (finding.line, finding.column) == position(text, '"web": {', 2)


def test_nesting_is_refused():
    data = graph()
    data["groups"]["outer"] = {"label": "Outer", "members": ["backend", "web"]}
    _, finding = only(data)
    assert (finding.pointer, finding.rule) == ("/groups/outer/members/0", "group")
    assert "groups do not nest" in finding.message


def test_a_lane_grid_refuses_groups_and_points_to_lanes():
    data = copy.deepcopy(minimal_spec())
    data["groups"] = {"first": {"label": "First lane", "members": ["a0", "a1"]}}
    text, finding = only(data)
    assert (finding.pointer, finding.rule) == ("/groups", "group")
    assert "a lane grid has no groups" in finding.message and "layout.lanes" in finding.message
    assert (finding.line, finding.column) == position(text, '"groups"')


def test_a_sequence_order_that_splits_a_group():
    data = sequence_spec(4, 3)
    data["groups"] = {"pair": {"label": "Pair", "members": ["p0", "p2"]}}
    data["layout"]["order"] = ["p0", "p1", "p2", "p3"]
    _, finding = only(data)
    assert (finding.pointer, finding.rule) == ("/layout/order/2", "group")
    assert finding.message.startswith('"p1" comes between the members of group "pair"')


def test_unknown_key_in_active_suggests_groups_too():
    data = graph()
    data["scenarios"][0]["steps"][0]["active"] = ["backnd"]
    _, finding = only(data)
    assert (finding.rule, finding.message) == ("unknown-target", '"backnd" is not a target; did you mean "backend"?')


def test_the_schema_refuses_an_empty_member_list_and_unknown_keys():
    data = graph()
    data["groups"]["backend"] = {"label": "Back end", "members": [], "colour": "red"}
    _, found = findings(data)
    assert {(f.pointer, f.rule) for f in found} >= {("/groups/backend/members", "minItems"),
                                                    ("/groups/backend/colour", "additionalProperties")}



def test_a_step_may_mark_a_group_and_an_unknown_key_is_still_named():
    data = graph()
    data["scenarios"][0]["steps"][0]["marks"] = {"backend": "done"}
    assert findings(data)[1] == []
    data["scenarios"][0]["steps"][0]["marks"] = {"backnd": "done"}
    _, finding = only(data)
    assert (finding.rule, finding.pointer) == ("unknown-target", "/scenarios/0/steps/0/marks/backnd")
    assert 'did you mean "backend"' in finding.message
