"""Bad input gets a clear, located error: parse errors, schema and reference errors, limits, bad characters.

Every input ends either in findings printed as ``FILE:LINE:COLUMN: error: /pointer: message [rule]``
(exit status 1) or in correct output (exit 0); never in a Python traceback.  The per-file corpus is
in ``test_bad_input_corpus.py``; provenance, markup, writes and property-based tests in the other
``test_bad_input_*`` modules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.specs import minimal_spec
from renderer.cli import main
from renderer.load import MAX_NESTING, MAX_SPEC_BYTES, load_spec, parse_text
from renderer.report import printable
from renderer.validate import MAX_FRAME_ENTRIES, MAX_TOTAL_STEPS, validate


def run_cli(*args: str):
    """``mechdiagram ARGS`` in-process; an exception escaping the CLI fails the test."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_subprocess(*args: str, cwd: Path, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """``mechdiagram ARGS`` as a separate process (a hang becomes a timeout, not a stuck test run)."""
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", "from renderer.cli import run; run()", *args], cwd=cwd,
                            capture_output=True, text=True, timeout=timeout)
    return result, time.monotonic() - start


def only(spec) -> object:
    assert len(spec.findings) == 1, spec.findings
    return spec.findings[0]


# --- 1. parse errors, located ------------------------------------------------------------------

@pytest.mark.parametrize("raw, rule, line, column, pointer, words", [
    (b'{\n  "version": 1,\n  "title" "Tiny"\n}\n', "json-syntax", 3, 11, None, "Expecting ':' delimiter"),
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


def test_parse_errors_print_file_line_column_pointer_message_rule(write_spec, monkeypatch):
    path = write_spec('{\n  "a": 1,\n  "a": 2\n}\n', "dup")
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        'dup.mechanism.json:3:3: error: /a: duplicate key "a": each key may appear once in an object [duplicate-key]',
        "mechdiagram: 0 of 1 spec(s) valid; 1 failed",
    ]


def test_integer_valued_floats_are_integers(write_spec, spec_data, monkeypatch):
    """JSON Schema counts 1000.0 as an integer, so the renderer must too (it once crashed on row 1.0)."""
    spec_data["scenarios"][0]["steps"][0]["duration"] = 1000.0
    spec_data["layout"] = {"positions": {"b0": {"row": 2.0, "column": 0.0}}}
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("build", "--source-root", ".", "-o", "out", path.name)
    assert result.exit_code == 0, result.output
    svg = (path.parent / "out" / "tiny.main.svg").read_text("utf-8")
    assert "1000.0" not in svg and "3000.0ms" not in svg


# --- schema and cross-reference errors carry the place of the offending value -----------------

def _place(path: Path, line: int, column: int) -> str:
    return path.read_text("utf-8").split("\n")[line - 1][column - 1:]


@pytest.mark.parametrize("mutate, pointer, rule, starts", [
    (lambda s: s.__setitem__("title", 5), "/title", "type", "5"),
    (lambda s: s["targets"]["a1"].__setitem__("labl", "x"), "/targets/a1/labl", "additionalProperties", '"labl"'),
    (lambda s: s["scenarios"][0]["steps"][1].__setitem__("duration", 20), "/scenarios/0/steps/1/duration",
     "minimum", "20"),
    (lambda s: s["scenarios"][0]["steps"][1]["active"].append("a7"), "/scenarios/0/steps/1/active/2",
     "unknown-target", '"a7"'),
    (lambda s: s["scenarios"][0]["steps"][1]["state"].__setitem__("stge", "x"), "/scenarios/0/steps/1/state/stge",
     "unknown-state-key", '"stge"'),
    (lambda s: s["targets"]["ab"].__setitem__("to", "ab"), "/targets/ab/to", "path-endpoint", '"ab"'),
    (lambda s: s.__setitem__("layout", {"lanes": [{"key": "a"}, 7]}), "/layout/lanes/1", "oneOf", "7"),
    (lambda s: s.__setitem__("sources", [{"path": "x", "sha256": "00"}]), "/sources/0/sha256", "pattern", '"00"'),
])
def test_schema_and_reference_findings_point_at_the_value(write_spec, spec_data, mutate, pointer, rule, starts):
    mutate(spec_data)
    path = write_spec(spec_data)
    findings = validate(load_spec(path))
    finding = next(f for f in findings if f.pointer == pointer)
    assert finding.rule == rule
    assert finding.line and finding.column
    assert _place(path, finding.line, finding.column).startswith(starts)


def test_oneof_reports_the_branch_that_fits_not_a_dump(write_spec, spec_data):
    spec_data["layout"] = {"lanes": [{"key": "a", "lable": "A"}, True, "9x"]}
    findings = {f.pointer: f for f in validate(load_spec(write_spec(spec_data)))}
    # An object: the object branch's complaint, with a suggestion, not "is not of type 'string'".
    assert findings["/layout/lanes/0/lable"].message == 'unknown key "lable"; did you mean "label"?'
    assert "/layout/lanes/0" not in findings
    # Neither a string nor an object: one message naming both shapes.
    assert findings["/layout/lanes/1"].message == "lanes[1] must be a string or an object, not a boolean"
    # A string: the string branch's pattern, not "must be an object".
    assert "must be a letter" in findings["/layout/lanes/2"].message
    for finding in findings.values():
        assert "is not valid under any of the given schemas" not in finding.message
        assert "_PairsDict" not in finding.message


def test_bad_reference_lists_valid_names_or_suggests_one(write_spec, spec_data):
    spec_data["scenarios"][0]["steps"][0]["active"] = ["a00", "zzz"]
    messages = [f.message for f in validate(load_spec(write_spec(spec_data)))]
    assert '"a00" is not a target; did you mean "a0"?' in messages
    assert '"zzz" is not a target; valid targets: a0, a1, b0, b1, ab' in messages


def test_every_missing_required_key_is_named(write_spec):
    findings = validate(load_spec(write_spec({"version": 1})))
    missing = sorted(f.message for f in findings if f.rule == "required")
    assert missing == [f'missing required key "{k}"' for k in
                       sorted(["language", "title", "description", "caption", "alt", "targets", "stateLabels",
                               "scenarios"])]


# --- 3. --format json ----------------------------------------------------------------------------

def test_json_format_is_machine_readable_and_matches_text(write_spec, spec_data, monkeypatch):
    spec_data["titel"] = "x"
    spec_data["scenarios"][0]["steps"][0]["active"] = ["nope"]
    spec_data["targets"]["a0"]["label"] = "bad \x1b[2J escape"
    spec_data["stateLabels"]["\ud800"] = "surrogate key"
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    text = run_cli("validate", "--source-root", ".", path.name)
    result = run_cli("validate", "--source-root", ".", "--format", "json", path.name)
    assert text.exit_code == result.exit_code == 1
    assert result.stderr == ""
    document = json.loads(result.stdout)
    assert document["summary"] == {"specs": 1, "failed": 1, "stale": 0, "exit": 1,
                                   "message": "0 of 1 spec(s) valid; 1 failed"}
    lines = text.stderr.splitlines()[:-1]
    assert len(lines) == len(document["findings"]) >= 4
    for line, finding in zip(lines, document["findings"]):
        assert list(finding) == ["file", "line", "column", "pointer", "rule", "severity", "message"]
        assert line.startswith(printable(f"{finding['file']}:{finding['line']}:{finding['column']}: error: "
                                         f"{finding['pointer']}: "))
        assert line.endswith(f" [{finding['rule']}]")
    rules = {f["rule"] for f in document["findings"]}
    assert {"additionalProperties", "unknown-target", "xml-character"} <= rules
    # No raw escape or surrogate reaches a terminal, in either format.
    for output in (text.stderr, result.stdout):
        assert "\x1b" not in output and "\ud800" not in output
    assert any(f["pointer"] == "/stateLabels/\ud800" for f in document["findings"])


def test_json_format_of_a_valid_spec(write_spec, spec_data, monkeypatch):
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", "--format", "json", path.name)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"findings": [], "summary": {
        "specs": 1, "failed": 0, "stale": 0, "exit": 0, "message": "1 of 1 spec(s) valid"}}


# --- 5. control characters and lone surrogates are refused, naming the character ------------------

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


# --- 7. limits: refused quickly or rendered in reasonable time ---------------------------------------

def _big_spec(targets: int, scenarios: int, steps: int, active: int, *, bad_refs: bool = False) -> dict:
    spec = minimal_spec()
    spec["targets"] = {f"n{i}": {"id": f"t{i}", "kind": "node", "label": f"node {i}"} for i in range(targets)}
    keys = list(spec["targets"])
    spec["scenarios"] = [{"id": f"s{s}", "title": f"Scenario {s}", "steps": [
        {"title": f"step {j}", "duration": 400, "state": {"stage": str(j)},
         "active": [f"missing{s}x{j}x{k}" if bad_refs else keys[(j * active + k) % len(keys)] for k in range(active)]}
        for j in range(steps)]} for s in range(scenarios)]
    return spec


def test_thousands_of_targets_and_steps_are_refused_quickly(tmp_path):
    path = tmp_path / "huge.mechanism.json"
    path.write_text(json.dumps(_big_spec(5000, 8, 500, 5)))
    result, elapsed = run_subprocess("validate", "--source-root", ".", path.name, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert f"the limit is {MAX_TOTAL_STEPS}" in result.stderr
    assert "[limit]" in result.stderr
    assert "Traceback" not in result.stderr
    assert elapsed < 10


def test_too_many_targets_names_the_limit(write_spec):
    findings = validate(load_spec(write_spec(_big_spec(1001, 1, 2, 1))))
    assert [f.message for f in findings if f.pointer == "/targets"] == ["targets has 1001 entries; the limit is 1000"]


def test_too_many_frame_entries_names_the_limit(write_spec):
    findings = validate(load_spec(write_spec(_big_spec(1000, 4, 500, 11))))
    assert any(f.rule == "limit" and f"the limit is {MAX_FRAME_ENTRIES}" in f.message for f in findings)


def test_a_spec_at_the_limits_renders_in_reasonable_time(tmp_path):
    path = tmp_path / "big.mechanism.json"
    path.write_text(json.dumps(_big_spec(1000, 4, 500, 10)))
    result, elapsed = run_subprocess("build", "--source-root", ".", "-o", "out", path.name, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert elapsed < 30
    assert len(list((tmp_path / "out").glob("big.*.svg"))) == 8


def test_twenty_thousand_bad_references_are_reported_quickly(tmp_path):
    path = tmp_path / "refs.mechanism.json"
    path.write_text(json.dumps(_big_spec(1000, 4, 500, 10, bad_refs=True)))
    result, elapsed = run_subprocess("validate", "--source-root", ".", path.name, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.count("[unknown-target]") == 20000
    assert elapsed < 15


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


def test_nesting_within_the_limit_reaches_every_stage(write_spec, spec_data, monkeypatch):
    deep = json.loads("[" * 25 + "]" * 25)
    spec_data["scenarios"][0]["unselected"] = [deep, deep]
    spec_data["caption"] = deep
    spec_data["extra"] = {"x": deep}
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert "/caption: caption must be a string, not an array [type]" in result.stderr
    assert '/extra: unknown key "extra"' in result.stderr
    assert "unselected lists" in result.stderr


def test_huge_integer_literal_is_a_clean_error(write_spec, monkeypatch):
    path = write_spec('{"version": ' + "9" * 100_000 + "}")
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert "tiny.mechanism.json:1:13: error: /version: the number 999999999999…9999 (100000 characters) is too large" \
        in result.stderr
    assert "sys.set_int_max_str_digits" not in result.stderr


def test_a_5_mb_file_is_refused_without_parsing(tmp_path, monkeypatch):
    path = tmp_path / "big.mechanism.json"
    with open(path, "wb") as handle:
        handle.write(b'{"title": "' + b"x" * (5 * 1024 * 1024) + b'"}')
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    result = run_cli("validate", "--source-root", ".", path.name)
    assert time.monotonic() - start < 5
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"big.mechanism.json: error: the file is {5 * 1024 * 1024 + 13} bytes; the limit for a spec is "
        f"{MAX_SPEC_BYTES} bytes (4 MiB) [limit-file-size]")


def test_a_file_at_the_size_limit_is_read(tmp_path):
    spec = minimal_spec()
    text = json.dumps(spec)
    spec["description"] = "x" * 4000
    spec["limitations"] = ["y" * 4000] * ((MAX_SPEC_BYTES - len(text)) // 4004 - 2)
    path = tmp_path / "edge.mechanism.json"
    path.write_text(json.dumps(spec))
    assert path.stat().st_size <= MAX_SPEC_BYTES
    loaded = load_spec(path)
    assert loaded.ok
    assert [f.rule for f in validate(loaded)] == ["maxItems"]


# --- unreadable spec files: clear errors ------------------------------------------------------------

def test_spec_that_is_a_fifo_or_unreadable_gives_a_finding(tmp_path):
    import os
    fifo = tmp_path / "pipe.mechanism.json"
    os.mkfifo(fifo)
    finding = only(load_spec(fifo))
    assert (finding.rule, finding.message) == ("read", "cannot read the spec: not a regular file")
    missing = only(load_spec(tmp_path / "gone.mechanism.json"))
    assert missing.rule == "read" and "No such file" in missing.message
    loop = tmp_path / "loop.mechanism.json"
    loop.symlink_to(loop)
    assert only(load_spec(loop)).rule == "read"


def test_fifo_spec_through_the_cli_does_not_hang(tmp_path):
    import os
    os.mkfifo(tmp_path / "pipe.mechanism.json")
    result, _ = run_subprocess("validate", "--source-root", ".", "pipe.mechanism.json", cwd=tmp_path, timeout=30)
    assert result.returncode == 1
    assert "pipe.mechanism.json: error: cannot read the spec: not a regular file [read]" in result.stderr


def test_the_top_level_error_comes_from_run_without_traceback(tmp_path):
    """Even an internal error is one line, not a traceback (MECHDIAGRAM_DEBUG unset)."""
    (tmp_path / "x.mechanism.json").write_text("{}")
    result, _ = run_subprocess("validate", "--source-root", ".", "x.mechanism.json", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_hash_write_finds_sources_whose_keys_are_escaped(tmp_path, spec_data, monkeypatch):
    """``"p\\u0061th"`` is the key ``path``: hash --write used to fail with KeyError on it."""
    (tmp_path / "notes.md").write_text("notes\n")
    spec_data["sources"] = [{"path": "notes.md"}]
    text = json.dumps(spec_data, indent=2).replace('"path": "notes.md"', '"p\\u0061th": "notes.md"')
    (tmp_path / "s.mechanism.json").write_text(text)
    monkeypatch.chdir(tmp_path)
    result = run_cli("hash", "--write", "--source-root", ".", "s.mechanism.json")
    assert result.exit_code == 0, result.output
    written = (tmp_path / "s.mechanism.json").read_text()
    assert '"p\\u0061th": "notes.md",\n      "sha256": "' in written
    assert run_cli("validate", "--source-root", ".", "s.mechanism.json").exit_code == 0


@pytest.mark.parametrize("text, line, column, hint", [
    ('{"a": [1, 2,]}', 1, 12, "a comma before ']': JSON allows no trailing comma; remove the comma"),
    ('{"a": 1 // note\n}', 1, 9, "a comment: JSON has no comments; remove it (put notes in a description)"),
    ("{'a': 1}", 1, 2, "a string in single quotes: JSON strings use double quotes"),
    ('{"a": 1\n "b": 2}', 2, 2, "a missing comma between two members or items"),
])
def test_common_json_slips_get_a_hint(text, line, column, hint):
    loaded = parse_text(text.encode("utf-8"), "x.json")
    assert [(f.line, f.column, f.message, f.rule) for f in loaded.findings] == [
        (line, column, f"invalid JSON: {hint}", "json-syntax")]
