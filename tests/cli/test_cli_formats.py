"""Report formats: ``--format json`` is one parseable document on stdout whose findings match the text
lines; no raw escape or surrogate reaches a terminal in either format."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.cli.report import printable
from support.cli import invoke, run_cli
from support.specs import minimal_spec
from support.specs import position as where


def test_format_json(broken):
    path, text = broken
    result = invoke("validate", "bad", "--source-root", "specs", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert result.stderr == ""
    findings = document["findings"]
    assert len(findings) == 3
    for finding in findings:
        assert {"file", "line", "column", "pointer", "rule", "message"} <= set(finding)
        assert finding["file"] == "bad/broken.mechanism.json"
        assert isinstance(finding["line"], int) and isinstance(finding["column"], int)
    assert findings[1] == {
        "file": "bad/broken.mechanism.json", "line": where(text, '"wrok1"')[0], "column": 13,
        "pointer": "/scenarios/0/steps/2/active/1", "rule": "unknown-target", "severity": "error",
        "message": '"wrok1" is not a target; did you mean "work1"?'}
    assert document["summary"]["failed"] == 1 and document["summary"]["exit"] == 1


def test_format_json_when_all_is_well(project):
    result = invoke("validate", "specs", "--source-root", "specs", "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["findings"]] == ["source-unpinned"]
    assert document["findings"][0]["severity"] == "warning"
    assert document["summary"] == {"specs": 1, "failed": 0, "stale": 0, "exit": 0,
                                   "message": "1 of 1 spec(s) valid"}


def test_a_write_failure_is_reported_as_json_with_format_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out" / "ok.html").mkdir(parents=True)  # a folder where a file should go
    result = CliRunner().invoke(main, ["build", "ok.mechanism.json", "-o", "out", "--format", "json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["findings"]] == ["output-write"]
    assert "cannot write out/ok.html" in document["findings"][0]["message"]
    assert document["summary"]["exit"] == 1


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
    assert json.loads(result.stdout) == {"version": 1, "findings": [], "summary": {
        "specs": 1, "failed": 0, "stale": 0, "exit": 0, "message": "1 of 1 spec(s) valid"}}


def test_an_error_that_stops_the_command_is_a_json_document_or_an_annotation(tmp_path, monkeypatch):
    """A wrong [tool.mechdiagram] or a broken template stops the command before any spec; a tool reading
    --format json still gets one document on stdout, and --format github one annotation."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\nformats = ["pngs"]\n', "utf-8")
    result = CliRunner().invoke(main, ["validate", "ok.mechanism.json", "--format", "json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [(f["file"], f["rule"], f["line"]) for f in document["findings"]] == [("mechdiagram", "config", None)]
    assert document["findings"][0]["message"].startswith("pyproject.toml: [tool.mechdiagram] formats has unknown")
    assert document["summary"] == {"specs": None, "failed": None, "stale": 0, "exit": 1,
                                   "message": document["findings"][0]["message"]}
    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "schema" / "report.schema.json").read_text("utf-8"))
    jsonschema.validate(document, schema)
    result = CliRunner().invoke(main, ["validate", "ok.mechanism.json", "--format", "github"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("::error file=mechdiagram,title=config::pyproject.toml: ")
    (tmp_path / "pyproject.toml").unlink()
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "figure.html").write_text("{% if %}", "utf-8")
    result = CliRunner().invoke(main, ["build", "ok.mechanism.json", "-o", "out", "--template-dir", "templates",
                                       "--format", "json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["findings"]] == ["template"]
    assert "figure.html" in document["findings"][0]["message"] and document["summary"]["exit"] == 1
    assert not (tmp_path / "out" / "ok.html").exists()
