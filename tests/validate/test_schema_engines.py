"""The compiled checks (renderer/validate/verdict.py) answer yes or no; jsonschema explains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from renderer.errors import SchemaCompileError
from renderer.load import parse_text
from renderer.validate import schema as schema_module
from renderer.validate import validate
from renderer.validate.compile import verdict_source, without_annotations

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def _parsed_negative_cases() -> list[Path]:
    """The negative corpus's specs that parse (the others never reach the schema)."""
    cases = sorted(TESTS.rglob("negative/*.mechanism.json"))
    assert cases, "the negative corpus is missing"
    return [case for case in cases if parse_text(case.read_bytes(), case.name).ok]


def test_the_compiled_checks_are_those_of_the_schema_as_it_is():
    """renderer/validate/verdict.py is what tools/schema_verdict.py writes from the committed schema."""
    source = verdict_source(json.loads((ROOT / "schema" / "mechanism.schema.json").read_text("utf-8")))
    committed = (ROOT / "renderer" / "validate" / "verdict.py").read_text("utf-8")
    assert committed == source, "run: python tools/schema_verdict.py"


def test_the_compiled_checks_say_yes_to_our_spec_and_no_to_a_wrong_type():
    data = json.loads((ROOT / "mechanisms" / "prefill-decode.mechanism.json").read_text("utf-8"))
    assert schema_module.schema_is_valid(data) is True
    assert schema_module.schema_is_valid(data | {"title": 7}) is False
    assert schema_module.schema_is_valid(data | {"colour": "red"}) is False  # additionalProperties


def test_only_keywords_that_draft_7_reads_as_2020_12_does_are_compiled():
    schema = {"type": "object", "properties": {"pairs": {"prefixItems": [{"type": "string"}]},
                                               "title": {"$ref": "#/$defs/text", "maxLength": 3}},
              "$defs": {"text": {"type": "string"}}}
    with pytest.raises(SchemaCompileError) as raised:
        verdict_source(schema)
    assert str(raised.value).splitlines()[1:] == [
        "/properties/pairs/prefixItems: keyword 'prefixItems' is not compiled as 2020-12 means it",
        "/properties/title: a $ref beside ['maxLength'] (draft 7 ignores them)",
    ]


def test_annotations_are_left_out_but_a_property_called_title_stays():
    schema = {"title": "spec", "type": "object", "required": ["title"],
              "properties": {"title": {"type": "string", "description": "its title", "default": "x"}}}
    assert without_annotations(schema) == {"type": "object", "required": ["title"],
                                           "properties": {"title": {"type": "string"}}}


def test_a_lone_surrogate_is_judged_by_the_compiled_checks_like_any_text():
    text = json.dumps({"version": 1, "language": "en", "title": "bad \ud800 title"}, ensure_ascii=True)
    loaded = parse_text(text.encode("ascii"), "lone.mechanism.json")
    assert loaded.ok
    assert schema_module.schema_is_valid(loaded.data) is False  # required keys are missing
    findings = validate(loaded)
    rules = {(f.pointer, f.rule) for f in findings}
    assert ("", "required") in rules  # the schema findings come from jsonschema
    assert ("/title", "xml-character") in rules


@pytest.mark.parametrize("case", _parsed_negative_cases(), ids=lambda p: p.name)
def test_jsonschema_alone_reports_what_the_fast_path_reports(case, monkeypatch):
    loaded = parse_text(case.read_bytes(), case.name)
    expected = validate(loaded)
    monkeypatch.setattr(schema_module, "schema_is_valid", lambda data: None)
    assert validate(loaded) == expected


def test_jsonschema_alone_finds_nothing_in_our_spec(monkeypatch):
    spec = ROOT / "mechanisms" / "prefill-decode.mechanism.json"
    monkeypatch.setattr(schema_module, "schema_is_valid", lambda data: None)
    assert validate(parse_text(spec.read_bytes(), spec.name)) == []
