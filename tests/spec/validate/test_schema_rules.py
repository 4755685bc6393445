"""What the JSON Schema accepts and rejects (through :func:`mechdiagram.spec.validate.validate`), with the
rewritten message, pointer and keyword of each rejection."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import validate
from support.reference_spec import dumps, reference_spec
from support.specs import ROOT

SCHEMA = json.loads((ROOT / "schema" / "mechanism.schema.json").read_text("utf-8"))
DURATION_MIN = ("duration must be at least 334 ms, not {}: a step shorter than that changes the figure "
                "more than three times a second (WCAG 2.2 SC 2.3.1)")


def findings_of(data: dict) -> list[tuple[str, str, str]]:
    """(pointer, rule, message) of every finding of ``data`` written as a file."""
    loaded = parse_text(dumps(data).encode("utf-8"), "spec.mechanism.json")
    assert loaded.ok, loaded.findings
    return [(f.pointer, f.rule, f.message) for f in validate(loaded)]


def schema_errors(data: dict) -> list[str]:
    """Messages of the raw jsonschema validator (no rewriting), for checks independent of the renderer."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [e.message for e in validator.iter_errors(data)]


# --- the reference format is accepted unchanged ----------------------------------------------------

def test_reference_format_validates_unchanged():
    data = reference_spec()
    assert len(data["targets"]) == 18
    assert len(data["scenarios"][0]["steps"]) == 7
    assert schema_errors(data) == []
    assert findings_of(data) == []


def test_reference_format_with_sources_without_sha256_is_valid():
    data = reference_spec()
    assert "sha256" not in data["sources"][2]
    assert findings_of(data) == []


# --- rejections, with the rewritten message, pointer and keyword -----------------------------------

def test_unknown_top_level_key_suggests_the_close_one():
    data = reference_spec()
    data["titel"] = data.pop("title")
    found = findings_of(data)
    # one mistake, one finding: the missing "title" is this key mistyped
    assert found == [("/titel", "additionalProperties",
                      'unknown key "titel"; did you mean "title"? "title" is required and missing')]


def test_unknown_key_in_a_step_suggests_the_close_one():
    data = reference_spec()
    data["scenarios"][0]["steps"][2]["actve"] = ["out1"]
    assert findings_of(data) == [("/scenarios/0/steps/2/actve", "additionalProperties",
                                  'unknown key "actve"; did you mean "active"?')]


def test_unknown_key_without_a_close_one_lists_the_valid_keys():
    data = reference_spec()
    data["targets"]["work0"]["colour"] = "red"
    assert findings_of(data) == [("/targets/work0/colour", "additionalProperties",
                                  'unknown key "colour"; valid keys: id, kind, label, text')]


@pytest.mark.parametrize("where, value, pointer, message", [
    (("title",), 5, "/title", "title must be a string, not an integer; write \"5\" in quotes"),
    (("targets",), [], "/targets", "targets must be an object, not an array"),
    (("scenarios", 0, "steps", 0, "active"), "work0", "/scenarios/0/steps/0/active",
     "active must be an array, not a string"),
    (("stateLabels", "stage"), None, "/stateLabels/stage", "stage must be a string, not null"),
    (("limitations",), "none", "/limitations", "limitations must be an array, not a string"),
    (("targets", "kv5", "label"), True, "/targets/kv5/label", "label must be a string, not a boolean"),
], ids=["title-int", "targets-array", "active-string", "label-null", "limitations-string", "label-bool"])
def test_wrong_types_are_rejected(where, value, pointer, message):
    data = reference_spec()
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    found = findings_of(data)
    assert (pointer, "type", message) in found
    assert schema_errors(data)


@pytest.mark.parametrize("digest, fault", [
    ("09BB02FB1815396601A7302F5924ED7B6B047A559EC5350A812EA9153627A653", "has uppercase letters"),
    ("09bb02fb1815396601a7302f5924ed7b6b047a559ec5350a812ea9153627a65", "has 63 characters"),
    ("09bb02fb1815396601a7302f5924ed7b6b047a559ec5350a812ea9153627a6533", "has 65 characters"),
    ("sha256:09bb02fb1815396601a7302f5924ed7b6b047a559ec5350a812ea9153627", "has 67 characters"),
    ("g" * 64, 'has "g", which is not a hexadecimal digit'),
], ids=["uppercase", "short", "long", "prefixed", "not-hex"])
def test_sha256_must_be_64_lowercase_hex_digits(digest, fault):
    """A digest is too long to compare by eye: the message says what is wrong with it."""
    data = reference_spec()
    data["sources"][0]["sha256"] = digest
    found = findings_of(data)
    assert len(found) == 1
    pointer, rule, message = found[0]
    assert (pointer, rule) == ("/sources/0/sha256", "pattern")
    assert message == f"sha256 must be 64 lowercase hexadecimal digits (a SHA-256 digest); this one {fault}"


def test_sha256_lowercase_is_accepted():
    data = reference_spec()
    data["sources"][0]["sha256"] = "0123456789abcdef" * 4
    assert findings_of(data) == []


@pytest.mark.parametrize("value, expected", [
    (0, [("minimum", DURATION_MIN.format(0))]),
    (-5, [("minimum", DURATION_MIN.format(-5))]),
    (333, [("minimum", DURATION_MIN.format(333))]),
    (1.5, [("type", "duration must be a whole number, not 1.5"), ("minimum", DURATION_MIN.format(1.5))]),
    (3000.5, [("type", "duration must be a whole number, not 3000.5")]),
    ("3000", [("type", "duration must be an integer, not a string; write 3000 without the quotes")]),
    (" 3000 ", [("type", "duration must be an integer, not a string; write 3000 without the quotes")]),
    ("3000.5", [("type", "duration must be an integer, not a string")]),
    ("3 s", [("type", "duration must be an integer, not a string; durations are milliseconds: write 3000")]),
    ("800ms", [("type", "duration must be an integer, not a string; durations are milliseconds: write 800")]),
    ("2.5s", [("type", "duration must be an integer, not a string; durations are milliseconds: write 2500")]),
    ("3 seconds", [("type", "duration must be an integer, not a string")]),
    ("1.005s", [("type", "duration must be an integer, not a string; durations are milliseconds: write 1005")]),
    ("0.3s", [("type", "duration must be an integer, not a string")]),  # 300 ms would be too short: no hint
    ("700s", [("type", "duration must be an integer, not a string")]),  # and 700000 too long
    ("1" + "0" * 400 + "s", [("type", "duration must be an integer, not a string")]),
    (True, [("type", "duration must be an integer, not a boolean")]),
    (600001, [("maximum", "duration must be at most 600000 ms (10 minutes), not 600001")]),
], ids=["zero", "negative", "333", "fraction", "3000.5", "string", "spaced-string", "fraction-string", "seconds",
       "milliseconds", "fraction-of-seconds", "words", "thousandths", "too-short-in-seconds", "too-long-in-seconds",
       "huge", "boolean", "too-long"])
def test_bad_durations_are_rejected(value, expected):
    data = reference_spec()
    data["scenarios"][0]["steps"][3]["duration"] = value
    found = findings_of(data)
    assert sorted(found) == sorted(("/scenarios/0/steps/3/duration", rule, message) for rule, message in expected)


@pytest.mark.parametrize("value", [334, 3000, 600000])
def test_good_durations_are_accepted(value):
    data = reference_spec()
    data["scenarios"][0]["steps"][3]["duration"] = value
    assert findings_of(data) == []


def test_version_other_than_1_is_rejected():
    data = reference_spec()
    data["version"] = 2
    assert findings_of(data) == [("/version", "const", "version must be 1, not 2")]


def test_unknown_target_kind_is_rejected():
    data = reference_spec()
    data["targets"]["work0"]["kind"] = "box"
    found = findings_of(data)
    assert ("/targets/work0/kind", "enum", 'kind must be one of "node", "path", not "box"') in found
    assert all(message.count('"box"') == 1 for _, _, message in found)  # quoted once, not '"\\"box\\""'


def test_missing_required_key_in_a_step():
    data = reference_spec()
    del data["scenarios"][0]["steps"][1]["duration"]
    assert findings_of(data) == [("/scenarios/0/steps/1", "required", 'missing required key "duration"')]


# --- acceptances ---------------------------------------------------------------------------------

def test_dollar_schema_key_is_accepted():
    data = {"$schema": "../schema/mechanism.schema.json", **reference_spec()}
    assert findings_of(data) == []
    data["$schema"] = 5
    assert findings_of(data) == [("/$schema", "type", "$schema must be a string, not an integer; write \"5\" in quotes")]


@pytest.mark.parametrize("with_label", [True, False], ids=["label", "no-label"])
def test_path_target_with_from_and_to_is_accepted(with_label):
    data = reference_spec()
    path = {"id": "ref-logits", "kind": "path", "from": "work1", "to": "out1"}
    if with_label:
        path["label"] = "logits"
    data["targets"]["logits"] = path
    data["scenarios"][0]["steps"][2]["paths"] = ["logits"]
    assert findings_of(data) == []


def test_path_target_needs_from_and_to_and_no_node_keys():
    data = reference_spec()
    data["targets"]["logits"] = {"id": "ref-logits", "kind": "path", "from": "work1"}
    assert findings_of(data) == [("/targets/logits", "required", 'missing required key "to"')]
    data["targets"]["logits"] = {"id": "ref-logits", "kind": "node", "label": "x", "from": "work1"}
    assert findings_of(data) == [("/targets/logits/from", "additionalProperties",
                                  'unknown key "from": a target of kind "node" is a box; from and to belong to a '
                                  'target of kind "path"')]
    data["targets"]["logits"] = {"id": "ref-logits", "kind": "node", "label": "x", "form": "work1"}
    assert findings_of(data) == [("/targets/logits/form", "additionalProperties",
                                  'unknown key "form"; valid keys: id, kind, label, text')]


def test_layout_block_with_both_lane_forms_and_positions_is_accepted():
    data = reference_spec()
    data["layout"] = {
        "lanes": ["kv", {"key": "work", "label": "Engine work"}, {"key": "out"}],
        "positions": {"kv5": {"row": 2, "column": 6}},
    }
    assert schema_errors(data) == []
    assert findings_of(data) == []


@pytest.mark.parametrize("layout, pointer, rule, message", [
    ({"lanes": [{"key": "work", "title": "x"}]}, "/layout/lanes/0/title", "additionalProperties",
     'unknown key "title"; valid keys: key, label'),
    ({"positions": {"kv5": {"row": 1}}}, "/layout/positions/kv5", "required", 'missing required key "column"'),
    ({"positions": {"kv5": {"row": -1, "column": 0}}}, "/layout/positions/kv5/row", "minimum",
     "row must be at least 0, not -1"),
    ({"grid": True}, "/layout/grid", "additionalProperties",
         'unknown key "grid"; valid keys: view, order, lanes, columns, time, unit, positions'),
])
def test_bad_layout_blocks_are_rejected(layout, pointer, rule, message):
    data = reference_spec()
    data["layout"] = layout
    assert (pointer, rule, message) in findings_of(data)


def test_every_finding_message_is_one_line_without_raw_schema_wording():
    data = reference_spec()
    data["version"] = "1"
    data["language"] = "english language"
    data["scenarios"][0]["steps"][0]["duration"] = 0
    data["targets"]["work0"]["id"] = "0bad"
    found = findings_of(data)
    assert {p for p, _, _ in found} == {"/version", "/language", "/scenarios/0/steps/0/duration",
                                        "/targets/work0/id"}
    for _, _, message in found:
        assert "\n" not in message
        assert not re.search(r"is not valid under any of the given schemas|does not match '\^", message), message
