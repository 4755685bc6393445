"""Parse errors are located: FILE:LINE:COLUMN, a JSON Pointer where there is a value, a message that says
how to fix it, and a rule; nesting and number limits are refused at load, before later stages."""

from __future__ import annotations

import json
import time

import pytest

from mechdiagram.spec.load import MAX_NESTING, parse_text
from mechdiagram.spec.validate import validate
from support.cli import run_cli


def only(spec) -> object:
    assert len(spec.findings) == 1, spec.findings
    return spec.findings[0]


@pytest.mark.parametrize("raw, rule, line, column, pointer, words", [
    (b'{\n  "version": 1,\n  "title" "Tiny"\n}\n', "json-syntax", 3, 11, None, "a colon is missing after the key"),
    (b'{\n  "version": 1,\n}\n', "json-syntax", 2, 15, None, "JSON allows no trailing comma"),
    (b'{"version": 1} {"version": 1}', "json-syntax", 1, 16, None, "more text after the end"),
    (b'{\n  "title": "Tiny\n}', "json-syntax", 2, 17, None, "a line ends inside a string"),
    (b'{\n  "title": "Ti\x07ny"\n}', "json-syntax", 2, 15, None, "control character U+0007"),
    (b"", "empty-file", 1, 1, None, "the file is empty"),
    (b" \r\n\t\n", "empty-file", 1, 1, None, "the file is empty"),
    (b'\xef\xbb\xbf{"version": 1}', "byte-order-mark", 1, 1, None, "UTF-8 byte-order mark"),
    (b'\xfe\xff\x00{', "byte-order-mark", 1, 1, None, "UTF-16 (big-endian) byte-order mark"),
    (b'{\n  "title": "caf\xe9"\n}', "encoding", 2, 16, None, "byte 0xe9 is not valid UTF-8"),
    (b'{\n  "title": "\xe2\x82"\n}', "encoding", 2, 13, None, "byte 0xe2 is not valid UTF-8"),
    (b'{"a": {"b": 1,\n        "b": 2}}', "duplicate-key", 2, 9, "/a/b", 'duplicate key "b"'),
    (b'{"x": [1,\n  NaN]}', "non-finite-number", 2, 3, "/x/1", "NaN is not a JSON number"),
    (b'{"x":\n  {"y": -Infinity}}', "non-finite-number", 2, 9, "/x/y", "-Infinity is not a JSON number"),
    (b'{"x": Infinity}', "non-finite-number", 1, 7, "/x", "Infinity is not a JSON number"),
    (b'[{"version": 1}]', "type", 1, 1, "", "the top level must be a JSON object, not an array"),
    (b'"spec"', "type", 1, 1, "", "not a string"),
    (b"42", "type", 1, 1, "", "not a number"),
    (b"true", "type", 1, 1, "", "not a boolean"),
    (b"null", "type", 1, 1, "", "not null"),
    (b'{"version":\n 1' + b"0" * 5000 + b"}", "number-range", 2, 2, "/version", "is too large"),
    (b'{"duration": 1e400}', "number-range", 1, 14, "/duration", "the number 1e400 is too large"),
    (b'{"x": "\\u00e9", "caf\\u00e9": {"k": 1, "k": 2}}', "duplicate-key", 1, 39, "/caf\u00e9/k", 'duplicate key "k"'),
    (b'{"a/b": {"~": [NaN]}}', "non-finite-number", 1, 16, "/a~1b/~0/0", "NaN"),
])
def test_parse_error_is_located(raw, rule, line, column, pointer, words):
    finding = only(parse_text(raw, "x.mechanism.json"))
    assert (finding.rule, finding.line, finding.column, finding.pointer) == (rule, line, column, pointer)
    assert words in finding.message
    assert finding.severity == "error"


def test_every_duplicate_and_non_finite_number_is_reported():
    raw = b'{"a": 1, "a": 2, "b": [NaN, Infinity], "c": {"d": 1, "d": 2, "d": 3}}'
    findings = parse_text(raw, "x").findings
    assert sorted((f.pointer, f.rule) for f in findings) == [
        ("/a", "duplicate-key"), ("/b/0", "non-finite-number"), ("/b/1", "non-finite-number"),
        ("/c/d", "duplicate-key")]


@pytest.mark.parametrize("text, line, column, hint", [
    ('{"a": [1, 2,]}', 1, 12, "a comma before ']': JSON allows no trailing comma; remove the comma"),
    ('{"a": 1 // note\n}', 1, 9, "a comment: JSON has no comments; remove it (put notes in a description)"),
    ("{'a': 1}", 1, 2, "a string in single quotes: JSON strings use double quotes"),
    ('{"a": 1\n "b": 2}', 1, 8, "a comma is missing after this value, before the next member or item; add one"),
    ('{"a": [1 2]}', 1, 9, "a comma is missing after this value, before the next member or item; add one"),
    ('{"a": 1 }}', 1, 10, "more text after the end of the top-level JSON value"),
    ('{\n  version: 1\n}', 2, 3, 'a key must be a string in double quotes ("version")'),
    ('{"a": }', 1, 7, "a value is missing here: a string, a number, true, false, null, an object or an array"),
    ('{"a": True}', 1, 7, "True: JSON writes true, false and null in lower case"),
    ('{"a": hello}', 1, 7, 'text without quotes: a JSON string is in double quotes ("hello")'),
    ("# Notes\n", 1, 1, "a mechanism spec is a JSON object, starting with {"),
])
def test_common_json_slips_get_a_hint(text, line, column, hint):
    loaded = parse_text(text.encode("utf-8"), "x.json")
    assert [(f.line, f.column, f.message, f.rule) for f in loaded.findings] == [
        (line, column, f"invalid JSON: {hint}", "json-syntax")]


def test_lines_end_at_a_lone_carriage_return_too():
    """Old Mac line endings: editors count a lone CR as a line break, so findings do too."""
    loaded = parse_text(b'{\r  "version": 1,\r  "x": [1,]\r}', "x.json")
    assert [(f.line, f.column) for f in loaded.findings] == [(3, 10)]  # the trailing comma
    loaded = parse_text(b'{\r  "version": 1,\r  "titel": "x"\r}', "x.json")
    assert [(f.line, f.column) for f in validate(loaded) if f.pointer == "/titel"] == [(3, 3)]


def test_parse_errors_print_file_line_column_pointer_message_rule(write_spec, monkeypatch):
    path = write_spec('{\n  "a": 1,\n  "a": 2\n}\n', "dup")
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'dup.mechanism.json:3:3: error: /a: duplicate key "a": each key may appear once in an object [duplicate-key]',
        "mechdiagram: 0 of 1 spec(s) valid; 1 failed",
    ]


# --- nesting and numbers -----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[" * 100_000 + "]" * 100_000,
                                  '{"title": ' + "[" * 50_000 + "]" * 50_000 + "}"])
def test_deep_nesting_is_a_clean_error(text):
    start = time.monotonic()
    finding = only(parse_text(text.encode(), "deep"))
    assert finding.rule in {"json-depth", "json-syntax"}
    assert time.monotonic() - start < 5


def test_nesting_that_parses_is_refused_before_later_stages(write_spec, spec_data, monkeypatch):
    """Nesting the parser takes (900 levels) but no spec needs: refused at load, located, before the
    schema validator recurses into it (it raised RecursionError comparing two such arrays)."""
    deep = json.loads("[" * 900 + "]" * 900)
    spec_data["scenarios"][0]["unselected"] = [deep, deep]
    path = write_spec(json.dumps(spec_data))
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    line = result.stderr.splitlines()[0]
    assert line.startswith("tiny.mechanism.json:1:")
    assert line.endswith(f"more than {MAX_NESTING} levels deep here; a mechanism spec needs far fewer [json-depth]")
    assert ": error: /scenarios/0/unselected/0/0/0/" in line
    assert len(result.stderr.splitlines()) == 2


def test_huge_integer_literal_is_a_clean_error(write_spec, monkeypatch):
    path = write_spec('{"version": ' + "9" * 100_000 + "}")
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert "tiny.mechanism.json:1:13: error: /version: the number 999999999999…9999 (100000 characters) is too large" \
        in result.stderr
    assert "sys.set_int_max_str_digits" not in result.stderr
