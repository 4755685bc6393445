"""The spec's optional messages block: keys of the catalogue (message-key, with a suggestion) and the
placeholders of the English message (message-placeholder), each finding at its line:column."""

from __future__ import annotations

from test_validate_references import assert_finding, run

from support.specs import minimal_spec


def with_messages(messages: dict) -> dict:
    data = minimal_spec()
    data["messages"] = messages
    return data


def test_valid_overrides_have_no_findings():
    assert run(with_messages({"stepOf": "Stage {n}/{total} — {title}", "transcript": "Walkthrough"}))[1] == []
    assert run(with_messages({}))[1] == []


def test_an_unknown_key_is_a_finding_with_a_suggestion():
    assert_finding(with_messages({"stepof": "Stage {n} of {total}: {title}"}), "/messages/stepof", "message-key",
                   '"stepof" is not a message key; did you mean "stepOf"?', '"stepof"')


def test_a_missing_placeholder_is_a_finding():
    assert_finding(with_messages({"stepOf": "Stage {n}: {title}"}), "/messages/stepOf", "message-placeholder",
                   'message "stepOf" has the placeholders {n}, {title}; it needs exactly {n}, {title}, {total}, '
                   'as "Step {n} of {total}: {title}"', '"Stage {n}: {title}"')


def test_an_unknown_placeholder_is_a_finding():
    assert_finding(with_messages({"transcript": "Transcript of {title}"}), "/messages/transcript",
                   "message-placeholder", 'message "transcript" has the placeholders {title}; it needs exactly '
                   'none, as "Transcript"', '"Transcript of {title}"')


def test_a_message_must_be_short_text():
    _, findings = run(with_messages({"transcript": 3, "sources": ""}))
    assert sorted((f.pointer, f.rule) for f in findings) == [("/messages/sources", "minLength"),
                                                             ("/messages/transcript", "type")]


def test_a_counting_message_is_overridden_by_a_plural_form():
    assert run(with_messages({"exploreArrowsOut": "{n, plural, one {# exit} other {# exits}}"}))[1] == []
    assert_finding(with_messages({"exploreArrowsOut": "some arrows out"}), "/messages/exploreArrowsOut",
                   "message-plural", 'message "exploreArrowsOut" counts, so it needs a plural form such as '
                   '"{n, plural, one {# arrow out} other {# arrows out}}": options among zero, one, two, few, many '
                   'and other, with other, and # for the number', '"some arrows out"')
