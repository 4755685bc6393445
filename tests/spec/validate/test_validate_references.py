"""Cross-reference rules (``mechdiagram.spec.validate.RULES``): one failing case each, with its exact
message, JSON Pointer, rule id and 1-based line:column in the text the test wrote."""

from __future__ import annotations

import json

import pytest

from mechdiagram.layout.checks import lay_out
from mechdiagram.shared.findings import Finding
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import RULES, check_spec, validate
from support.reference_spec import reference_spec
from support.specs import minimal_spec, position


def run(data: dict | str) -> tuple[str, list[Finding]]:
    """The spec's text and what the author is told of it: validation's findings, then, on a valid spec, the
    layout stage's (two nodes in one cell)."""
    text = data if isinstance(data, str) else json.dumps(data, indent=2, ensure_ascii=False)
    loaded = parse_text(text.encode("utf-8"), "spec.mechanism.json")
    assert loaded.ok, loaded.findings
    validation = check_spec(loaded)
    return text, validation.findings + (lay_out(loaded, validation.spec).findings if validation.spec else [])


def only(findings: list[Finding]) -> Finding:
    assert len(findings) == 1, [f"{f.pointer}: {f.message} [{f.rule}]" for f in findings]
    return findings[0]


def assert_finding(data, pointer: str, rule: str, message: str, needle: str, nth: int = 1) -> None:
    """The spec has exactly one finding, this one, located where ``needle`` is in the text."""
    text, findings = run(data)
    finding = only(findings)
    assert (finding.pointer, finding.rule, finding.message) == (pointer, rule, message)
    assert finding.severity == "error"
    assert (finding.line, finding.column) == position(text, needle, nth)
    assert rule in RULES


def test_the_valid_specs_have_no_findings():
    assert run(minimal_spec())[1] == []
    assert run(reference_spec())[1] == []


def test_rules_are_documented():
    assert set(RULES) >= {"unknown-target", "not-a-path", "path-endpoint", "duplicate-target-id",
                          "duplicate-scenario-id", "unknown-state-key", "unknown-lane", "layout-position"}
    assert all(isinstance(text, str) and text for text in RULES.values())


# --- unknown-target --------------------------------------------------------------------------------

@pytest.mark.parametrize("make, step, bad, suggestion", [
    (reference_spec, 1, "wrok1", "work1"),
    (minimal_spec, 0, "a00", "a0"),
], ids=["reference-wrok1", "minimal-a00"])
def test_unknown_key_in_active_with_did_you_mean(make, step, bad, suggestion):
    data = make()
    active = data["scenarios"][0]["steps"][step]["active"]
    active.append(bad)
    assert_finding(data, f"/scenarios/0/steps/{step}/active/{len(active) - 1}", "unknown-target",
                   f'"{bad}" is not a target; did you mean "{suggestion}"?', f'"{bad}"')


def test_unknown_key_in_active_lists_the_valid_names():
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["active"] = ["zzz"]
    assert_finding(data, "/scenarios/0/steps/1/active/0", "unknown-target",
                   '"zzz" is not a target; valid targets: a0, a1, b0, b1, ab', '"zzz"')


def test_long_list_of_valid_names_is_shortened():
    data = reference_spec()
    data["scenarios"][0]["steps"][0]["active"] = ["zzz"]
    assert_finding(data, "/scenarios/0/steps/0/active/0", "unknown-target",
                   '"zzz" is not a target; valid targets: work0, out0, kv0, work1, out1, kv1, work2, out2, kv2, '
                   'work3, out3, kv3, … (18 in all)', '"zzz"')


def test_unknown_key_in_paths_with_did_you_mean():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["paths"] = ["abb"]
    assert_finding(data, "/scenarios/0/steps/0/paths/0", "unknown-target",
                   '"abb" is not a target; did you mean "ab"?', '"abb"')


def test_unknown_key_in_paths_lists_the_path_targets():
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["paths"] = ["qq"]
    assert_finding(data, "/scenarios/0/steps/1/paths/0", "unknown-target",
                   '"qq" is not a target; valid path targets: ab', '"qq"')


def test_unknown_key_in_unselected_with_did_you_mean():
    data = reference_spec()
    data["scenarios"][0]["unselected"] = ["kv_5"]
    assert_finding(data, "/scenarios/0/unselected/0", "unknown-target",
                   '"kv_5" is not a target; did you mean "kv5"?', '"kv_5"')


def test_unknown_key_in_unselected_lists_the_valid_names():
    data = minimal_spec()
    data["scenarios"][0]["unselected"] = ["b0", "qq"]
    assert_finding(data, "/scenarios/0/unselected/1", "unknown-target",
                   '"qq" is not a target; valid targets: a0, a1, b0, b1, ab', '"qq"')


# --- not-a-path, path-endpoint ---------------------------------------------------------------------

def test_node_listed_in_paths():
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["paths"] = ["a1"]
    assert_finding(data, "/scenarios/0/steps/1/paths/0", "not-a-path",
                   '"a1" is a node; paths lists path targets; valid path targets: ab', '"a1"', nth=3)


def test_path_from_names_a_missing_target():
    data = minimal_spec()
    data["targets"]["ab"]["from"] = "c7"
    assert_finding(data, "/targets/ab/from", "path-endpoint",
                   'from "c7" is not a node target; valid node targets: a0, a1, b0, b1', '"c7"')


def test_path_to_names_a_missing_target_with_did_you_mean():
    data = reference_spec()
    data["targets"]["logits"] = {"id": "ref-logits", "kind": "path", "from": "work1", "to": "outt1"}
    assert_finding(data, "/targets/logits/to", "path-endpoint",
                   'to "outt1" is not a node target; did you mean "out1"?', '"outt1"')


def test_path_to_names_a_path():
    data = minimal_spec()
    data["targets"]["back"] = {"id": "t-back", "kind": "path", "from": "b1", "to": "ab"}
    assert_finding(data, "/targets/back/to", "path-endpoint",
                   'to "ab" is a path; a path runs between node targets', '"ab"', nth=2)


def test_path_from_names_a_path():
    data = minimal_spec()
    data["targets"]["back"] = {"id": "t-back", "kind": "path", "from": "ab", "to": "a0"}
    assert_finding(data, "/targets/back/from", "path-endpoint",
                   'from "ab" is a path; a path runs between node targets', '"ab"', nth=2)


# --- duplicate ids ---------------------------------------------------------------------------------

def test_duplicate_target_id():
    data = minimal_spec()
    data["targets"]["b1"]["id"] = "t-a0"
    assert_finding(data, "/targets/b1/id", "duplicate-target-id",
                   'id "t-a0" is already the id of target "a0"; target ids must be unique', '"t-a0"', nth=2)


def test_duplicate_scenario_id():
    data = minimal_spec()
    second = json.loads(json.dumps(data["scenarios"][0]))
    second["title"] = "Again"
    data["scenarios"].append(second)
    assert_finding(data, "/scenarios/1/id", "duplicate-scenario-id",
                   'scenario id "main" is already the id of scenario 1 (/scenarios/0); scenario ids must be unique, ignoring case',
                   '"main"', nth=2)


# --- unknown-state-key -----------------------------------------------------------------------------

def test_unknown_state_key_in_a_step_with_did_you_mean():
    data = reference_spec()
    data["scenarios"][0]["steps"][4]["state"]["artefact"] = "x"
    assert_finding(data, "/scenarios/0/steps/4/state/artefact", "unknown-state-key",
                   '"artefact" is not a stateLabels key; did you mean "artifact"?', '"artefact"')


def test_unknown_initial_key_lists_the_state_keys():
    data = minimal_spec()
    data["scenarios"][0]["initial"]["phase"] = "x"
    assert_finding(data, "/scenarios/0/initial/phase", "unknown-state-key",
                   '"phase" is not a stateLabels key; valid stateLabels keys: stage', '"phase"')


def test_state_key_finding_points_at_the_key_not_the_value():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["state"] = {"nope": "value-here"}
    text, findings = run(data)
    finding = only(findings)
    assert (finding.line, finding.column) == position(text, '"nope"')
    assert (finding.line, finding.column) != position(text, '"value-here"')


# --- unknown-lane, layout-position ------------------------------------------------------------------

def test_layout_lane_unknown_lists_the_lanes():
    data = reference_spec()
    data["layout"] = {"lanes": ["work", "zz"]}
    assert_finding(data, "/layout/lanes/1", "unknown-lane", 'lane "zz" has no targets; valid lanes: work, out, kv',
                   '"zz"')


def test_layout_lane_unknown_in_object_form_with_did_you_mean():
    data = reference_spec()
    data["layout"] = {"lanes": [{"key": "wrk", "label": "Engine"}]}
    assert_finding(data, "/layout/lanes/0/key", "unknown-lane", 'lane "wrk" has no targets; did you mean "work"?',
                   '"wrk"')


def test_layout_lane_listed_twice():
    data = reference_spec()
    data["layout"] = {"lanes": ["kv", {"key": "kv"}]}
    assert_finding(data, "/layout/lanes/1/key", "unknown-lane", 'lane "kv" is listed more than once', '"kv"', nth=2)


def test_positions_collision_between_two_positions():
    data = minimal_spec()
    data["layout"] = {"positions": {"a0": {"row": 3, "column": 2}, "b1": {"row": 3, "column": 2}}}
    assert_finding(data, "/layout/positions/b1", "layout-position",
                   '"b1" is placed in row 3, column 2, where "a0" already is', '"b1"', nth=-1)


def test_positions_collision_with_an_automatically_placed_node():
    data = minimal_spec()
    data["layout"] = {"positions": {"a0": {"row": 1, "column": 1}}}  # where b1 goes
    assert_finding(data, "/layout/positions/a0", "layout-position",
                   '"a0" is placed in row 1, column 1, where the automatic layout puts "b1"; '
                   "choose a free cell or place both", '"a0"', nth=-1)


def test_positions_below_the_last_lane_warn_of_lanes_with_no_name():
    data = minimal_spec()
    data["layout"] = {"positions": {"b1": {"row": 4, "column": 1}}}  # two lanes, a and b: rows 0 and 1
    text, findings = run(data)
    finding = only(findings)
    assert (finding.pointer, finding.rule, finding.severity) == ("/layout/positions/b1/row", "layout-position",
                                                                 "warning")
    assert finding.message == ("row 4 is below the grid's last lane (row 1), so rows 2 to 4 are drawn as lanes with "
                               "no name, all but the last empty; give a row from 0 to 1, or add the lane to "
                               "layout.lanes")
    line, column = position(text, '"row": 4')
    assert (finding.line, finding.column) == (line, column + len('"row": '))  # at the row's value
    data["layout"] = {"positions": {"b1": {"row": 2, "column": 1}}}
    assert only(run(data)[1]).message.startswith('row 2 is below the grid\'s last lane (row 1), so "b1" is drawn in a '
                                                 "lane with no name; ")
    data["layout"] = {"positions": {"b1": {"row": 0, "column": 2}}}  # moved into lane a: the author's choice
    assert [f for f in run(data)[1] if f.rule == "layout-position"] == []


def test_positions_swapping_two_nodes_is_fine():
    data = minimal_spec()
    data["layout"] = {"positions": {"a0": {"row": 0, "column": 1}, "a1": {"row": 0, "column": 0}}}
    assert run(data)[1] == []


def test_positions_naming_a_path_or_nothing():
    data = minimal_spec()
    data["layout"] = {"positions": {"ab": {"row": 4, "column": 4}}}
    assert_finding(data, "/layout/positions/ab", "layout-position", '"ab" is a path; positions place node targets',
                   '"ab"', nth=-1)
    data["layout"] = {"positions": {"a2": {"row": 4, "column": 4}}}
    assert_finding(data, "/layout/positions/a2", "layout-position",
                   '"a2" is not a target; positions place node targets; valid node targets: a0, a1, b0, b1', '"a2"')


# --- all problems at once, located -----------------------------------------------------------------

def test_all_problems_of_one_file_are_reported_at_once():
    data = reference_spec()
    data["scenarios"][0]["steps"][2]["duration"] = 0          # schema: minimum
    data["scenarios"][0]["steps"][5]["active"].append("kv9")   # unknown-target
    data["targets"]["out4"]["id"] = "ref-work0"               # duplicate-target-id
    text, findings = run(data)
    assert [(f.pointer, f.rule) for f in findings] == [
        ("/targets/out4/id", "duplicate-target-id"),
        ("/scenarios/0/steps/2/duration", "minimum"),
        ("/scenarios/0/steps/5/active/3", "unknown-target"),
    ]
    # sorted by place in the file, each located on its value
    assert [(f.line, f.column) for f in findings] == [
        position(text, '"ref-work0"', 2),
        _value_position(text, '"duration": 0'),
        position(text, '"kv9"'),
    ]


def _value_position(text: str, member: str) -> tuple[int, int]:
    line, column = position(text, member)
    return line, column + member.index(":") + 2


def test_columns_count_characters_and_lines_count_from_one():
    # A compact file: everything on few lines, with non-ASCII text before the bad value.
    data = minimal_spec()
    data["title"] = "Ünïcödé — tiny"
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace('"targets"', '\n"targets"')
    text = text.replace('"a1","b1"]', '"a1","b1","zz"]')
    _, findings = run(text)
    finding = only(findings)
    assert finding.pointer == "/scenarios/0/steps/1/active/2"
    assert (finding.line, finding.column) == position(text, '"zz"')
    assert finding.line == 2


def test_a_spec_with_crlf_line_endings_is_located_the_same():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["active"] = ["a0", "nope"]
    lf_text, lf_findings = run(data)
    crlf = lf_text.replace("\n", "\r\n")
    loaded = parse_text(crlf.encode("utf-8"), "spec.mechanism.json")
    crlf_findings = validate(loaded)
    assert [(f.line, f.column) for f in crlf_findings] == [(f.line, f.column) for f in lf_findings]
    assert lf_findings[0].line == position(lf_text, '"nope"')[0]
