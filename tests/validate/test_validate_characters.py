"""Control characters, lone surrogates and other characters XML forbids are refused, naming the
character (never printing it raw); allowed white space and any printable text are accepted."""

from __future__ import annotations

import json

import pytest

from renderer.load import load_spec, parse_text
from renderer.validate import validate
from support.cli import run_cli
from support.specs import minimal_spec

TEXT_FIELDS = [
    ("title",), ("description",), ("caption",), ("alt",), ("limitations", 0), ("targets", "a0", "label"),
    ("targets", "ab", "label"), ("stateLabels", "stage"), ("scenarios", 0, "title"), ("scenarios", 0, "description"),
    ("scenarios", 0, "initial", "stage"), ("scenarios", 0, "steps", 0, "title"),
    ("scenarios", 0, "steps", 1, "description"), ("scenarios", 0, "steps", 1, "state", "stage"),
]


def _set(data: dict, where: tuple, value) -> None:
    for token in where[:-1]:
        data = data[token]
    data[where[-1]] = value


@pytest.mark.parametrize("where", TEXT_FIELDS, ids=lambda w: "/".join(map(str, w)))
@pytest.mark.parametrize("char", ["\x07", "\x1b", "\x00", "\x7f", "\x9b", "\ud800", "\udfff", "\uffff"])
def test_bad_character_is_refused_and_named(write_spec, spec_data, where, char, monkeypatch):
    _set(spec_data, where, f"before{char}after")
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("build", "--source-root", ".", "-o", "out", path.name)
    assert result.exit_code == 1
    pointer = "/" + "/".join(map(str, where))
    line = next(l for l in result.stderr.splitlines() if f" {pointer}: " in l)
    assert f"U+{ord(char):04X}" in line and line.endswith("[xml-character]")
    assert "remove it" in line
    assert char not in result.stderr  # named, never printed raw
    assert not list((path.parent / "out").glob("tiny.*"))


def test_bad_character_in_a_key_is_refused(write_spec, spec_data):
    spec_data["stateLabels"]["st\x01age"] = "Stage 2"
    findings = validate(load_spec(write_spec(spec_data)))
    assert any(f.rule == "xml-character" and "U+0001" in f.message and f.message.startswith("key ")
               for f in findings)


def test_allowed_whitespace_and_non_ascii_are_accepted(write_spec, spec_data):
    spec_data["description"] = "tab\there, line\nbreak, \u00e9, \u05e9\u05dc\u05d5\u05dd, \U0001F600, \u200d"
    assert validate(load_spec(write_spec(spec_data))) == []


@pytest.mark.parametrize("bad", ["\u0007", "\ufffe"])
def test_text_with_characters_xml_forbids(bad):
    data = minimal_spec()
    data["targets"]["a0"]["label"] = f"fi{bad}rst"
    loaded = parse_text(json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8"), "spec.mechanism.json")
    assert loaded.ok, loaded.findings
    findings = validate(loaded)
    assert len(findings) == 1, findings
    finding = findings[0]
    assert (finding.pointer, finding.rule) == ("/targets/a0/label", "xml-character")
    assert finding.message.startswith('text "fi\\u0007rst" contains U+0007' if bad == "\u0007"
                                      else 'text "fi\uffferst" contains U+FFFE')
