"""Control characters, lone surrogates and other characters XML forbids are refused, naming the
character (never printing it raw); allowed white space and any printable text are accepted."""

from __future__ import annotations

import json

import pytest

from mechdiagram.spec.load import load_spec, parse_text
from mechdiagram.spec.validate import validate
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


def test_the_forbidden_characters_are_those_xml_and_unicode_name():
    from mechdiagram.shared.charsets import BIDI_CONTROLS, HTML_FORBIDDEN, UNPRINTABLE, UNPRINTABLE_JSON, XML_FORBIDDEN

    def xml_char(c: int) -> bool:  # XML 1.0 production [2] Char
        return c in (0x9, 0xA, 0xD) or 0x20 <= c <= 0xD7FF or 0xE000 <= c <= 0xFFFD or 0x10000 <= c <= 0x10FFFF

    def noncharacter(c: int) -> bool:  # Unicode section 23.7: 66 of them
        return 0xFDD0 <= c <= 0xFDEF or c & 0xFFFE == 0xFFFE

    every = range(0x110000)
    assert {chr(c) for c in every if not xml_char(c)} == XML_FORBIDDEN
    assert {chr(c) for c in every if xml_char(c) and (0x7F <= c <= 0x9F or noncharacter(c))} == HTML_FORBIDDEN
    assert sum(map(noncharacter, every)) == 66
    assert frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") == BIDI_CONTROLS
    assert {"\t", "\n", "\x1b", "\u2028", "\ufeff", "\U0010ffff"} <= UNPRINTABLE
    assert "\n" not in UNPRINTABLE_JSON and "\x1b" not in UNPRINTABLE_JSON and "\u202e" in UNPRINTABLE_JSON


def test_a_report_escapes_what_it_cannot_print_raw():
    from mechdiagram.cli.report import printable

    assert printable("plain é 中") == "plain é 中"
    assert printable("a\x1b[31mb\u202ec\n\ud800\U0001fffe") == "a\\u001b[31mb\\u202ec\\u000a\\ud800\\ud83f\\udffe"


def test_a_json_report_of_a_supplementary_noncharacter_decodes_to_it(tmp_path):
    """U+1FFFE was escaped as \\u1fffe, which JSON reads as U+1FFF and an "e"."""
    from mechdiagram.shared.charsets import UNPRINTABLE_JSON, escaped

    text = json.dumps({"message": "Batch \U0001fffe x \u2028 y"}, ensure_ascii=False)
    assert json.loads(escaped(text, UNPRINTABLE_JSON)) == {"message": "Batch \U0001fffe x \u2028 y"}
