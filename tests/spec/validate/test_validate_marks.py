"""A step's ``marks``: every key names a target (unknown-target) and every mark is one of the seven (unknown-mark),
each finding located (at the key, or at the mark) with a suggestion; the schema's enum does not repeat the mark's finding."""

from __future__ import annotations

from mechdiagram.shared.model import spec_from_data
from spec.validate.test_validate_references import assert_finding, run
from support.specs import minimal_spec


def _with_marks(marks: dict) -> dict:
    data = minimal_spec()
    data["scenarios"][0]["steps"][1]["marks"] = marks
    return data


def test_marks_of_known_targets_validate_and_reach_the_model():
    data = _with_marks({"a1": "new", "ab": "lost"})
    _, findings = run(data)
    assert findings == []
    step = spec_from_data(data).scenarios[0].steps[1]
    assert step.marks == {"a1": "new", "ab": "lost"}
    assert spec_from_data(minimal_spec()).scenarios[0].steps[1].marks == {}


def test_a_mark_on_an_unknown_target_is_located_with_a_suggestion():
    assert_finding(_with_marks({"b11": "new"}), "/scenarios/0/steps/1/marks/b11", "unknown-target",
                   '"b11" is not a target; did you mean "b1"?', '"b11"')


def test_an_unknown_mark_is_located_with_the_closest_mark():
    assert_finding(_with_marks({"a1": "wating"}), "/scenarios/0/steps/1/marks/a1", "unknown-mark",
                   '"wating" is not a mark; did you mean "waiting"?', '"wating"')


def test_an_unknown_mark_far_from_any_lists_the_marks():
    assert_finding(_with_marks({"a1": "zzz"}), "/scenarios/0/steps/1/marks/a1", "unknown-mark",
                   '"zzz" is not a mark; valid marks: new, changed, removed, lost, error, waiting, done',
                   '"zzz"')


def test_a_target_id_in_marks_points_to_its_key():
    assert_finding(_with_marks({"t-a1": "new"}), "/scenarios/0/steps/1/marks/t-a1", "unknown-target",
                   '"t-a1" is not a target; it is the id of target "a1": write the key "a1" instead', '"t-a1"', 2)


def test_past_the_rules_cap_an_unknown_mark_is_counted_once_not_repeated_by_the_schema():
    from mechdiagram.shared.findings import MAX_PER_RULE

    data = minimal_spec()
    step = data["scenarios"][0]["steps"][0]
    data["scenarios"][0]["steps"] = [{**step, "title": f"Step {n}", "marks": {"a0": "gone"}}
                                     for n in range(MAX_PER_RULE + 50)]
    _, findings = run(data)
    assert [f.rule for f in findings].count("unknown-mark") == MAX_PER_RULE
    assert not [f for f in findings if f.rule == "enum"]
    (more,) = [f for f in findings if f.rule == "more"]
    assert "50 more" in more.message and "unknown-mark" in more.message
