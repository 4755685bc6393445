"""The negative corpus: one small bad spec per file, with the exact output of ``mechdiagram validate``.

``tests/spec/validate/cases/negative/NAME.mechanism.json`` is a spec that must fail;
``NAME.expected`` holds, byte for byte, what ``mechdiagram validate --source-root . NAME.mechanism.json``
prints on stderr when run inside that folder (one ``FILE:LINE:COLUMN: error: POINTER: MESSAGE [RULE]``
line per finding, then the summary).  To add a case, write the spec and run::

    MECHDIAGRAM_UPDATE_CASES=1 python3 -m pytest -q tests/spec/validate/test_validate_corpus.py

then read the new ``.expected`` file before committing it: it is the specification of the message.
The same run with ``--format json`` must carry the same findings (file, line, column, pointer, rule,
message), and every located finding must point at the JSON value (or key) its pointer names.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.cli.report import printable
from support.cli import ERROR as LINE

CASES = Path(__file__).resolve().parent / "cases" / "negative"
SPECS = sorted(CASES.glob("*.mechanism.json"))
UPDATE = bool(os.environ.get("MECHDIAGRAM_UPDATE_CASES"))


def case_id(path: Path) -> str:
    return path.name.removesuffix(".mechanism.json")


def validate(monkeypatch, name: str, *extra: str):
    monkeypatch.chdir(CASES)
    return CliRunner().invoke(main, ["validate", "--source-root", ".", *extra, name], catch_exceptions=False)


def test_corpus_is_complete():
    """Every spec has its expected output and every expected output its spec; the parse errors are all there."""
    names = {case_id(p) for p in SPECS}
    expected = {p.name.removesuffix(".expected") for p in CASES.glob("*.expected")}
    assert names == expected or UPDATE
    for needed in ("parse-missing-colon", "parse-empty-file", "parse-utf8-bom", "parse-not-utf8",
                   "parse-duplicate-key", "parse-nan-infinity", "parse-top-level-array",
                   "schema-unknown-key-did-you-mean", "schema-oneof-lanes", "ref-unknown-names",
                   "schema-wrong-types", "schema-limits", "limit-too-many-steps",
                   "text-control-characters", "text-lone-surrogate"):
        assert needed in names


@pytest.mark.parametrize("spec", SPECS, ids=case_id)
def test_negative_case(spec: Path, monkeypatch):
    result = validate(monkeypatch, spec.name)
    expected = spec.with_name(case_id(spec) + ".expected")
    if UPDATE:
        expected.write_text(result.stderr, "utf-8")
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr == expected.read_text("utf-8")
    lines = result.stderr.splitlines()
    assert lines[-1] == "mechdiagram: 0 of 1 spec(s) valid; 1 failed"
    for line in lines[:-1]:
        assert LINE.match(line), f"not FILE:LINE:COLUMN: error: POINTER: MESSAGE [RULE]: {line!r}"
        assert "Traceback" not in line and "_PairsDict" not in line


@pytest.mark.parametrize("spec", SPECS, ids=case_id)
def test_negative_case_as_json(spec: Path, monkeypatch):
    """``--format json`` prints one parseable document on stdout whose findings match the text lines."""
    text = validate(monkeypatch, spec.name)
    result = validate(monkeypatch, spec.name, "--format", "json")
    assert result.exit_code == 1
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert document["summary"]["failed"] == 1 and document["summary"]["exit"] == 1
    findings = document["findings"]
    assert findings
    for finding in findings:
        assert set(finding) >= {"file", "line", "column", "pointer", "rule", "message", "severity"}
    text_lines = text.stderr.splitlines()[:-1]
    assert len(text_lines) == len(findings)
    for line, finding in zip(text_lines, findings):
        match = LINE.match(line)
        assert match["file"] == finding["file"] == spec.name
        assert (int(match["line"]) if match["line"] else None) == finding["line"]
        assert (int(match["column"]) if match["column"] else None) == finding["column"]
        assert (match["pointer"] or None) == (finding["pointer"] or None)
        assert match["rule"] == finding["rule"]
        # The text line escapes what a terminal would act on; the JSON string holds the message itself.
        assert match["message"] == printable(finding["message"])
    assert text.stderr.splitlines()[-1] == "mechdiagram: " + document["summary"]["message"]


VALUE_START = set('{["-0123456789tfnNI')


@pytest.mark.parametrize("spec", SPECS, ids=case_id)
def test_located_findings_point_at_their_value(spec: Path, monkeypatch):
    """A finding with a pointer and a place: the place is where that value (or, for a key, its name) starts."""
    try:
        text = spec.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8: located by byte, checked in test_negative_case")
    lines = text.split("\n")
    document = json.loads(validate(monkeypatch, spec.name, "--format", "json").stdout)
    for finding in document["findings"]:
        assert finding["file"] == spec.name
        if finding["line"] is None:
            assert finding["rule"] in {"limit-file-size", "read"}
            continue
        assert 1 <= finding["line"] <= len(lines)
        assert 1 <= finding["column"] <= len(lines[finding["line"] - 1]) + 1
        if finding["pointer"] is None or finding["rule"] in {"json-syntax", "encoding", "byte-order-mark",
                                                             "empty-file", "json-depth"}:
            continue
        char = lines[finding["line"] - 1][finding["column"] - 1]
        assert char in VALUE_START or char == '"', (finding, char)
        if char == '"' and finding["pointer"]:
            # A key (unknown, duplicate, misnamed) or a string value: either way, the token the pointer ends in.
            last = finding["pointer"].rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            token = json.JSONDecoder().raw_decode(lines[finding["line"] - 1][finding["column"] - 1:])[0] \
                if lines[finding["line"] - 1][finding["column"] - 1:].count('"') >= 2 else None
            if finding["rule"] in {"additionalProperties", "duplicate-key", "unknown-state-key"}:
                assert token == last, (finding, token)
