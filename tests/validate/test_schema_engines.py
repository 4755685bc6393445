"""jsonschema-rs (required) answers yes/no; jsonschema explains, and judges alone what jsonschema-rs cannot take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from renderer.load import parse_text
from renderer.validate import schema as schema_module
from renderer.validate import validate

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def _parsed_negative_cases() -> list[Path]:
    """The negative corpus's specs that parse (the others never reach the schema)."""
    cases = sorted(TESTS.rglob("negative/*.mechanism.json"))
    assert cases, "the negative corpus is missing"
    return [case for case in cases if parse_text(case.read_bytes(), case.name).ok]


def test_jsonschema_rs_is_a_required_dependency():
    import jsonschema_rs  # noqa: F401  (an ImportError here is a broken install, not a fallback)

    assert schema_module.schema_is_valid(json.loads((ROOT / "mechanisms" / "prefill-decode.mechanism.json")
                                                    .read_text("utf-8"))) is True


def test_a_lone_surrogate_is_judged_by_jsonschema_alone():
    text = json.dumps({"version": 1, "language": "en", "title": "bad \ud800 title"}, ensure_ascii=True)
    loaded = parse_text(text.encode("ascii"), "lone.mechanism.json")
    assert loaded.ok
    assert schema_module.schema_is_valid(loaded.data) is None  # jsonschema-rs cannot take it
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
