"""CI-facing output: ``--format github`` workflow commands and the ``--format json`` document, line for
line, and every JSON document the commands print valid against ``schema/report.schema.json``."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mechdiagram.cli.report import format_github
from mechdiagram.shared.findings import Finding
from support.cli import invoke
from support.specs import ROOT, minimal_spec
from support.specs import position as where

REPORT_SCHEMA = json.loads((ROOT / "schema" / "report.schema.json").read_text("utf-8"))


def conforms(document: dict) -> None:
    jsonschema.Draft202012Validator.check_schema(REPORT_SCHEMA)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(document)


@pytest.fixture
def faulty(tmp_path, monkeypatch):
    """``bad.mechanism.json`` in a project folder (the working directory) with an unknown target, a
    quoted duration and an unpinned source that is missing; returns its text."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    data = minimal_spec()
    data["sources"] = [{"path": "notes/gone.md"}]
    data["scenarios"][0]["steps"][0]["active"] = ["a9"]
    data["scenarios"][0]["steps"][1]["duration"] = "2000"
    text = json.dumps(data, indent=2)
    (tmp_path / "bad.mechanism.json").write_text(text, "utf-8")
    return text


def test_github_annotations_are_exact(faulty):
    result = invoke("validate", "bad.mechanism.json", "--format", "github")
    assert result.exit_code == 1
    (l1, c1), (l2, c2), (l3, c3) = (where(faulty, '"notes/gone.md"'), where(faulty, '"a9"'), where(faulty, '"2000"'))
    assert result.stdout.splitlines() == [
        f"::warning file=bad.mechanism.json,line={l1},col={c1},title=source-unpinned::/sources/0/path: source "
        "notes/gone.md has no sha256 and was not found under the source root (the current folder)",
        f"::error file=bad.mechanism.json,line={l2},col={c2},title=unknown-target::/scenarios/0/steps/0/active/0: "
        '"a9" is not a target; valid targets: a0, a1, b0, b1, ab',
        f"::error file=bad.mechanism.json,line={l3},col={c3},title=type::/scenarios/0/steps/1/duration: duration "
        "must be an integer, not a string; write 2000 without the quotes",
    ]
    assert result.stderr == "mechdiagram: 0 of 1 spec(s) valid; 1 failed\n"


def test_json_document_is_exact_and_conforms(faulty):
    result = invoke("validate", "bad.mechanism.json", "--format", "json")
    assert result.exit_code == 1 and result.stderr == ""
    (l1, c1), (l2, c2), (l3, c3) = (where(faulty, '"notes/gone.md"'), where(faulty, '"a9"'), where(faulty, '"2000"'))
    document = json.loads(result.stdout)
    assert document == {"version": 1, "findings": [
        {"file": "bad.mechanism.json", "line": l1, "column": c1, "pointer": "/sources/0/path",
         "rule": "source-unpinned", "severity": "warning",
         "message": "source notes/gone.md has no sha256 and was not found under the source root (the current folder)"},
        {"file": "bad.mechanism.json", "line": l2, "column": c2, "pointer": "/scenarios/0/steps/0/active/0",
         "rule": "unknown-target", "severity": "error",
         "message": '"a9" is not a target; valid targets: a0, a1, b0, b1, ab'},
        {"file": "bad.mechanism.json", "line": l3, "column": c3, "pointer": "/scenarios/0/steps/1/duration",
         "rule": "type", "severity": "error",
         "message": "duration must be an integer, not a string; write 2000 without the quotes"},
    ], "summary": {"specs": 1, "failed": 1, "stale": 0, "exit": 1, "message": "0 of 1 spec(s) valid; 1 failed"}}
    assert result.stdout.startswith('{\n  "version": 1,\n  "findings": [\n')  # stable key order
    conforms(document)


def test_annotation_values_are_escaped_as_github_documents():
    finding = Finding("a:b,c%d.mechanism.json", "/x", "100% wrong\r\nsecond line: a, b", "enum", "warning", 3, 7)
    assert format_github(finding) == ("::warning file=a%3Ab%2Cc%25d.mechanism.json,line=3,col=7,title=enum::"
                                      "/x: 100%25 wrong%0D%0Asecond line: a, b")


def test_an_unlocated_finding_and_a_note_as_annotations():
    assert format_github(Finding("out/x.svg", None, "missing", "stale-output")) == \
        "::error file=out/x.svg,title=stale-output::missing"
    assert format_github(Finding("x.mechanism.json", "", "fine", "note", "info", 1, 1)) == \
        "::notice file=x.mechanism.json,line=1,col=1,title=note::fine"


def test_author_text_cannot_end_an_annotation_or_reach_the_terminal_raw(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["active"] = ["x\n::error::forged\u001b[31m"]
    (tmp_path / "x.mechanism.json").write_text(json.dumps(data), "utf-8")
    result = invoke("validate", "x.mechanism.json", "--source-root", ".", "--format", "github")
    lines = result.stdout.splitlines()
    # the runner reads a command only at the start of a line: the forged one stays message text
    assert len(lines) == 2 and all(line.startswith("::error file=x.mechanism.json,line=1,col=") for line in lines)
    assert "\u001b" not in result.stdout and all("forged" in line for line in lines)


def test_check_annotations_name_the_stale_file_and_its_spec(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert invoke("build", "x.mechanism.json", "-o", "out").exit_code == 0
    (tmp_path / "out" / "x.html").write_text("edited", "utf-8")
    result = invoke("check", "x.mechanism.json", "-o", "out", "--format", "github")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "::error file=out/x.html,title=stale-output::differs from a fresh build (output of x.mechanism.json): run "
        "mechdiagram build -o out x.mechanism.json"]
    document = json.loads(invoke("check", "x.mechanism.json", "-o", "out", "--format", "json").stdout)
    assert document["summary"] == {"specs": 1, "failed": 0, "stale": 1, "exit": 1,
                                   "message": "1 of 1 spec(s) valid; 1 output file(s) stale"}
    conforms(document)


def test_build_and_write_failure_documents_conform(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    built = invoke("build", "ok.mechanism.json", "-o", "out", "--format", "json")
    assert built.exit_code == 0
    conforms(json.loads(built.stdout))
    (tmp_path / "out2" / "ok.html").mkdir(parents=True)  # a folder where a file should go
    failed = invoke("build", "ok.mechanism.json", "-o", "out2", "--format", "json")
    document = json.loads(failed.stdout)
    assert failed.exit_code == 1 and document["summary"]["specs"] is None
    conforms(document)


def test_every_negative_case_gives_a_conforming_document(monkeypatch):
    cases = ROOT / "tests" / "spec" / "validate" / "cases" / "negative"
    monkeypatch.chdir(cases)
    result = invoke("validate", "--source-root", ".", "--format", "json", ".")
    document = json.loads(result.stdout)
    assert result.exit_code == 1 and document["summary"]["failed"] == len(list(cases.glob("*.mechanism.json")))
    assert len({f["rule"] for f in document["findings"]}) > 20
    conforms(document)


def test_hash_write_reports_located_findings_as_json_and_github(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.md").write_text("notes\n", "utf-8")
    good, bad = minimal_spec(), minimal_spec()
    good["sources"] = [{"path": "notes.md"}]
    bad["sources"] = [{"path": "notes.md"}, {"path": "gone.md"}]
    (tmp_path / "good.mechanism.json").write_text(json.dumps(good, indent=2), "utf-8")
    bad_text = json.dumps(bad, indent=2)
    (tmp_path / "bad.mechanism.json").write_text(bad_text, "utf-8")
    line, column = where(bad_text, '"gone.md"')
    result = invoke("hash", "--write", "--format", "json", "good.mechanism.json", "bad.mechanism.json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document == {"version": 1, "findings": [
        {"file": "bad.mechanism.json", "line": line, "column": column, "pointer": "/sources/1/path",
         "rule": "source-missing", "severity": "error",
         "message": "source gone.md: no such file under the source root (the current folder); nothing written"}],
        "summary": {"specs": 2, "failed": 1, "stale": 0, "exit": 1,
                    "message": "1 of 2 spec(s) now hold their sources' digests; 1 source digest(s) written; 1 not updated: a spec with an error keeps its digests until it is fixed"}}
    conforms(document)
    assert (tmp_path / "bad.mechanism.json").read_text("utf-8") == bad_text
    annotated = invoke("hash", "--write", "--format", "github", "bad.mechanism.json")
    assert annotated.stdout.splitlines() == [
        f"::error file=bad.mechanism.json,line={line},col={column},title=source-missing::/sources/1/path: source "
        "gone.md: no such file under the source root (the current folder); nothing written"]


@pytest.mark.parametrize("command", [("validate",), ("build",), ("check",), ("hash",)])
def test_a_usage_error_click_finds_is_a_document_under_json(tmp_path, monkeypatch, command):
    """A spec that does not exist is found by click before the command runs: under --format json it is still
    the one document on stdout, with nothing on stderr, and exit status 2."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*command, "nosuch.mechanism.json", "--format", "json")
    assert result.exit_code == 2
    message = "Invalid value for '[SPECS]...': Path 'nosuch.mechanism.json' does not exist."
    if command == ("hash",):
        message = message.replace("[SPECS]...", "FILES...")
    document = json.loads(result.stdout)
    assert document == {"version": 1, "findings": [
        {"file": "mechdiagram", "line": None, "column": None, "pointer": None, "rule": "usage", "severity": "error",
         "message": message}],
        "summary": {"specs": None, "failed": None, "stale": 0, "exit": 2, "message": message}}
    conforms(document)
    assert result.stderr == ""


def test_a_usage_error_click_finds_is_an_annotation_under_github(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("validate", "--format=github", "--no-such-option")
    assert result.exit_code == 2
    assert result.stdout == "::error file=mechdiagram,title=usage::No such option '--no-such-option'.\n"
    text = invoke("validate", "--no-such-option")  # the text format keeps click's usage message
    assert text.exit_code == 2 and text.stdout == "" and "Error: No such option" in text.stderr and "Usage: " in text.stderr
