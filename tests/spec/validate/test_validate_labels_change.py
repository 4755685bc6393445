"""A step's ``labels``: located findings for a key that names no target (with the key meant), a target with no
label of its own, a participant of a sequence, and an empty text."""

from __future__ import annotations

import json

from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import validate
from support.specs import minimal_spec


def findings(data: dict) -> list:
    text = json.dumps(data, indent=2)
    return validate(parse_text(text.encode("utf-8"), "labels.mechanism.json"))


def test_a_valid_labels_block_has_no_finding():
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["labels"] = {"a0": "first, now full", "ab": "flow again"}
    assert findings(data) == []


def test_an_unknown_key_is_located_at_the_key_and_names_the_key_meant():
    data = minimal_spec()
    data["targets"]["a0"]["id"] = "kv-cache"
    data["scenarios"][0]["steps"][1]["labels"] = {"a9": "first, now full", "kv-cache": "3 pages"}
    unknown, by_id = findings(data)
    assert unknown.rule == "unknown-target"
    assert unknown.pointer == "/scenarios/0/steps/1/labels/a9"
    assert unknown.message == '"a9" is not a target; valid targets: a0, a1, b0, b1, ab'
    # an id for a key: the key it stands for
    assert (by_id.rule, by_id.pointer) == ("unknown-target", "/scenarios/0/steps/1/labels/kv-cache")
    assert 'it is the id of target "a0": write the key "a0" instead' in by_id.message
    finding = unknown
    assert finding.line > 1 and finding.column > 1


def test_a_target_without_a_label_of_its_own_cannot_change_it():
    data = minimal_spec()
    del data["targets"]["ab"]["label"]
    data["scenarios"][0]["steps"][0]["labels"] = {"ab": "flow"}
    [finding] = findings(data)
    assert (finding.rule, finding.pointer) == ("label-change", "/scenarios/0/steps/0/labels/ab")
    assert 'give it a "label"' in finding.message


def test_an_empty_text_is_a_schema_finding_at_its_place():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["labels"] = {"a0": ""}
    [finding] = findings(data)
    assert finding.pointer == "/scenarios/0/steps/0/labels/a0" and finding.rule == "minLength"


def test_a_sequences_participant_keeps_its_head():
    data = minimal_spec()
    data["layout"] = {"view": "sequence"}
    data["targets"]["ab"]["to"] = "a1"
    data["scenarios"][0]["steps"][0]["labels"] = {"a0": "first again", "ab": "flow again"}
    found = [(f.rule, f.pointer) for f in findings(data)]
    assert ("label-change", "/scenarios/0/steps/0/labels/a0") in found
    assert not any(pointer.endswith("/labels/ab") for _, pointer in found)
