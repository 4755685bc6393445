"""The sequence view's rules (``mechdiagram.spec.validate.sequence_rules``): layout.order names node targets, each
once, in a sequence (layout-order); a sequence has none of the grid's layout keys (sequence-layout); a message to
itself is a sequence's alone (path-endpoint).  Each finding with its exact message, JSON Pointer, rule and 1-based
line:column in the text the test wrote; and the valid sequences that have none."""

from __future__ import annotations

import json

import pytest

from mechdiagram.layout.checks import lay_out
from mechdiagram.shared.findings import Finding
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import RULES, check_spec
from mechdiagram.spec.validate.sequence_rules import GRID_ONLY
from support.sequences import oauth_spec, sequence_spec
from support.specs import position


def findings(data: dict) -> tuple[str, list[Finding]]:
    """The spec's text and every finding of it: validation's, then on a valid spec the layout stage's."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    loaded = parse_text(text.encode("utf-8"), "spec.mechanism.json")
    validation = check_spec(loaded)
    return text, validation.findings + (lay_out(loaded, validation.spec).findings if validation.spec else [])


def the_finding(data: dict, rule: str) -> tuple[str, Finding]:
    """The one finding of ``rule`` (others may come from the schema) and the spec's text."""
    text, found = findings(data)
    of_rule = [f for f in found if f.rule == rule]
    assert len(of_rule) == 1, [f"{f.pointer}: {f.message} [{f.rule}]" for f in found]
    assert of_rule[0].severity == "error" and rule in RULES
    return text, of_rule[0]


@pytest.mark.parametrize("data", [oauth_spec(), sequence_spec(2, 3)], ids=["oauth", "2x3"])
def test_valid_sequences_have_no_findings(data):
    assert findings(data)[1] == []


def test_a_sequence_too_wide_for_a_phone_is_told_so_naming_its_widest_head():
    """Five participants with long names cannot be drawn within a phone's 347 units (12 px text on a 360 px phone):
    the one finding is a route warning at /targets that says how wide, and which head is widest, by its name as the
    figure shows it (it named the key, "coord", for "Coordinator": a new user)."""
    data = sequence_spec(5, 10)
    text, found = findings(data)
    assert [(f.rule, f.severity, f.pointer) for f in found] == [("route", "warning", "/targets")], found
    assert "Resource API" in {node["label"] for node in data["targets"].values()}  # a label, its key p2 or so
    assert found[0].message.startswith("the narrow layout (a phone's) is ") and found[0].message.endswith(
        " units wide for its 5 participants: it scrolls sideways on a phone, which shows 347 units; shorten the "
        'longest words of their names (the widest head is "Resource API"\'s), or draw fewer participants'), found


@pytest.mark.parametrize(("count", "names"), [(6, None), (8, None), (7, tuple("ABCDEFG"))])
def test_a_sequence_no_names_would_fit_on_a_phone_is_told_how_many_fit(count, names):
    """Six participants or more do not fit a phone whatever their names (their lifelines 52 units apart at least, their
    outer heads 64 units wide at least): the warning says so and how many fit, and does not send the author to shorten
    names (a new user renamed six participants twice, to "TM" and "RM 1", and then "App", before learning it)."""
    text, found = findings(sequence_spec(count, 10, **({"names": names} if names else {})))
    assert [f.message.split("; ", 1)[1] for f in found] == [
        f"no names make {count} participants fit: draw fewer participants (at most 5 fit)"], found


def test_unknown_node_in_order_is_located_with_a_suggestion():
    data = oauth_spec()
    data["layout"]["order"] = ["user", "browsr", "app"]
    text, finding = the_finding(data, "layout-order")
    assert (finding.pointer, finding.message) == (
        "/layout/order/1", '"browsr" is not a target; order lists node targets, the participants; did you mean '
        '"browser"?')
    assert (finding.line, finding.column) == position(text, '"browsr"')


@pytest.mark.parametrize("entry, message", [
    ("call", '"call" is a path; order lists node targets, the participants'),
    ("app", '"app" is listed more than once'),
])
def test_order_lists_each_node_once(entry, message):
    data = oauth_spec()
    data["layout"]["order"] = ["user", "app", entry]
    text, finding = the_finding(data, "layout-order")
    assert (finding.pointer, finding.message) == ("/layout/order/2", message)
    assert (finding.line, finding.column) == position(text, f'"{entry}"', 2 if entry == "app" else 1)


def test_order_of_a_node_given_by_its_label_names_the_key():
    data = oauth_spec()
    data["layout"]["order"] = ["Auth server"]
    _, finding = the_finding(data, "layout-order")
    assert finding.message.endswith('it is the label of target "auth": write the key "auth" instead')


def test_order_without_a_sequence_is_refused():
    data = sequence_spec(3, 3)
    data["layout"] = {"order": ["p0", "p1"]}
    text, finding = the_finding(data, "layout-order")
    assert (finding.pointer, finding.message) == (
        "/layout/order", 'order sets the participants of a sequence; add "view": "sequence" to layout, or remove order')
    assert (finding.line, finding.column) == position(text, '"order"')


@pytest.mark.parametrize("key, value", [
    ("lanes", ["p"]),
    ("positions", {"p0": {"row": 0, "column": 1}}),
    ("columns", ["0 ms", "18 ms"]),
])
def test_a_sequence_has_no_grid_keys(key, value):
    data = sequence_spec(3, 3)
    data["layout"][key] = value
    text, finding = the_finding(data, "sequence-layout")
    assert finding.pointer == f"/layout/{key}"
    assert finding.message == (f'a sequence ("view": "sequence") has no {key}: {GRID_ONLY[key]}; remove {key}')
    assert (finding.line, finding.column) == position(text, f'"{key}"')


def test_grid_keys_without_a_sequence_are_no_sequence_finding():
    data = sequence_spec(3, 3)
    del data["layout"]
    data["targets"] = {k: v for k, v in data["targets"].items() if v.get("from", 0) != v.get("to", 1)}
    for step in data["scenarios"][0]["steps"]:
        step["paths"] = [p for p in step["paths"] if p in data["targets"]]
    data["layout"] = {"positions": {"p0": {"row": 3, "column": 3}}}
    assert [f.rule for f in findings(data)[1] if f.rule in ("sequence-layout", "layout-order")] == []


def test_a_message_to_itself_is_a_sequences_alone():
    data = sequence_spec(3, 9)
    selfish = [k for k, t in data["targets"].items() if t.get("from") is not None and t["from"] == t["to"]]
    assert selfish and findings(data)[1] == []
    del data["layout"]
    found = findings(data)[1]
    assert {(f.pointer, f.rule) for f in found} == {(f"/targets/{k}/to", "path-endpoint") for k in selfish}


@pytest.mark.parametrize("where, value, pointer", [
    ("view", "graph", "/layout/view"),
    ("style", "dotted", "/targets/consent/style"),
])
def test_unknown_view_or_style_is_a_schema_finding(where, value, pointer):
    data = oauth_spec()
    if where == "view":
        data["layout"]["view"] = value
    else:
        data["targets"]["consent"]["style"] = value
    _, found = findings(data)
    assert [(f.pointer, f.rule) for f in found] == [(pointer, "enum")]
    assert ("reply" if where == "style" else "sequence") in found[0].message
