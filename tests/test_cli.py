"""CLI exit statuses (0 good, 1 failed, 2 usage), the error line format, --format json, no tracebacks;
through click's CliRunner and once through the installed ``mechdiagram`` console script."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from support.reference_spec import dumps, reference_spec, write_reference

from renderer.cli import main

LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): "
                  r"(?P<pointer>/\S*): (?P<message>.+) \[(?P<rule>[A-Za-z-]+)\]$")


def invoke(*args: str):
    result = CliRunner().invoke(main, list(args))
    # a click exit (SystemExit) is fine; any other exception would be a crash
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


@pytest.fixture
def project(tmp_path, monkeypatch):
    write_reference(tmp_path / "specs", "reference")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def broken(project):
    """A second spec with three different problems, written by the test (so positions are known)."""
    data = reference_spec()
    data["titel"] = "typo"                                   # line of "titel"
    data["scenarios"][0]["steps"][1]["duration"] = -5
    data["scenarios"][0]["steps"][2]["active"] = ["out1", "wrok1"]
    data["sources"] = []  # its sources are another test's subject
    path = project / "bad" / "broken.mechanism.json"
    path.parent.mkdir()
    text = dumps(data)
    path.write_text(text, "utf-8")
    return path, text


def where(text: str, needle: str) -> tuple[int, int]:
    index = text.index(needle)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


# --- exit statuses -------------------------------------------------------------------------------

def test_good_spec_exits_0(project):
    for command in ("validate", "build"):
        result = invoke(command, "specs", "--source-root", "specs")
        assert result.exit_code == 0, result.stderr
    assert invoke("check", "specs", "--source-root", "specs").exit_code == 0


def test_invalid_spec_exits_1_with_every_finding_on_stderr(broken):
    path, text = broken
    result = invoke("validate", "bad", "--source-root", "specs")
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    findings = [LINE.match(line) for line in lines[:-1]]
    assert all(findings), lines
    shown = "bad/broken.mechanism.json"
    assert [(m["file"], int(m["line"]), int(m["column"]), m["pointer"], m["rule"]) for m in findings] == [
        (shown, *where(text, '-5'), "/scenarios/0/steps/1/duration", "minimum"),
        (shown, *where(text, '"wrok1"'), "/scenarios/0/steps/2/active/1", "unknown-target"),
        (shown, *where(text, '"titel"'), "/titel", "additionalProperties"),
    ]
    assert lines[1] == (f"{shown}:{where(text, chr(34) + 'wrok1')[0]}:13: error: /scenarios/0/steps/2/active/1: "
                        '"wrok1" is not a target; did you mean "work1"? [unknown-target]')
    assert lines[2] == f'{shown}:{where(text, chr(34) + "titel")[0]}:3: error: /titel: unknown key "titel"; ' \
                       'did you mean "title"? [additionalProperties]'
    assert lines[-1] == "mechdiagram: 0 of 1 spec(s) valid; 1 failed"


def test_broken_hash_exits_1(project):
    article = project / "specs" / "notes" / "article.md"
    article.write_bytes(article.read_bytes() + b"edited\n")
    result = invoke("validate", "specs", "--source-root", "specs")
    assert result.exit_code == 1
    error = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(error) == 1
    match = LINE.match(error[0])
    assert match and match["pointer"] == "/sources/0/sha256" and match["rule"] == "source-mismatch"
    assert "does not match its SHA-256: expected " in match["message"]


def test_missing_source_exits_1_and_is_allowed_by_option(project):
    assert invoke("validate", "specs").exit_code == 1  # sources are not under the working folder
    assert invoke("validate", "specs", "--allow-missing-sources").exit_code == 0


def test_stale_output_exits_1(project):
    assert invoke("build", "specs", "--source-root", "specs", "-o", "out").exit_code == 0
    (project / "out" / "reference.html").write_text("stale", "utf-8")
    result = invoke("check", "specs", "--source-root", "specs", "-o", "out")
    assert result.exit_code == 1
    assert "out/reference.html: error: differs from a fresh build: run mechdiagram build [stale-output]" in \
        result.stderr.splitlines()


@pytest.mark.parametrize("args, message", [
    (["validate", "--no-such-option"], "No such option '--no-such-option'"),
    (["build", "specs", "--format", "xml"], "Invalid value for '--format'"),
    (["validate", "does-not-exist.mechanism.json"], "does-not-exist.mechanism.json' does not exist"),
    (["check", "specs", "missing-folder"], "'missing-folder' does not exist"),
    (["hash", "nope.txt"], "'nope.txt' does not exist"),
    (["hash"], "Missing argument 'FILES...'"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["validate", "specs", "--source-root", "no-such-root"], "source root no-such-root is not a folder"),
    (["validate", "empty"], "no spec files (*.mechanism.json) in empty"),
])
def test_usage_errors_exit_2(project, args, message):
    (project / "empty").mkdir()
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.startswith("Usage: ") or "Error:" in result.stderr
    assert result.stdout == ""


def test_help_and_version_exit_0():
    assert invoke("--help").exit_code == 0
    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout.startswith("mechdiagram, version ")


def test_unreadable_json_is_reported_not_raised(project):
    (project / "specs" / "garbage.mechanism.json").write_bytes(b"\xff\xfe{}")
    result = invoke("validate", "specs", "--source-root", "specs")
    assert result.exit_code == 1
    assert "specs/garbage.mechanism.json:1:1: error: the file starts with a UTF-16 (little-endian) byte-order mark; " \
           "save it as UTF-8 without a BOM [byte-order-mark]" in result.stderr.splitlines()
    assert "1 of 2 spec(s) valid; 1 failed" in result.stderr


# --- --format json -------------------------------------------------------------------------------

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


# --- the installed console script ----------------------------------------------------------------

def _console_script() -> str:
    script = shutil.which("mechdiagram")
    assert script, "the mechdiagram console script is not installed (pip install -e .)"
    return script


def test_installed_console_script(broken):
    path, text = broken
    project = path.parent.parent
    script = _console_script()

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([script, *args], cwd=project, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr + done.stdout
        return done

    good = run("validate", "specs", "--source-root", "specs")
    assert good.returncode == 0, good.stderr
    bad = run("validate", "bad", "--source-root", "specs")
    assert bad.returncode == 1
    lines = bad.stderr.strip().splitlines()
    assert all(LINE.match(line) for line in lines[:-1])
    assert f'bad/broken.mechanism.json:{where(text, chr(34) + "titel")[0]}:3: error: /titel: unknown key "titel"; ' \
           'did you mean "title"? [additionalProperties]' in lines
    usage = run("validate", "--bogus")
    assert usage.returncode == 2
    assert "No such option '--bogus'" in usage.stderr
    missing = run("build", "no-such-file.mechanism.json")
    assert missing.returncode == 2
    module = subprocess.run([sys.executable, "-m", "renderer", "validate", "bad", "--source-root", "specs"],
                            cwd=project, capture_output=True, text=True, timeout=120)
    assert module.returncode == 1 and module.stderr == bad.stderr


def test_sources_are_checked_even_when_the_spec_has_other_errors(project):
    """Every problem of a file at once: a typo elsewhere does not hide an edited source."""
    spec = project / "specs" / "reference.mechanism.json"
    data = json.loads(spec.read_text("utf-8"))
    data["titel"] = "typo"
    spec.write_text(json.dumps(data, indent=2), "utf-8")
    article = project / "specs" / "notes" / "article.md"
    article.write_bytes(article.read_bytes() + b"edited\n")
    result = invoke("validate", "specs", "--source-root", "specs")
    assert result.exit_code == 1
    rules = [LINE.match(line)["rule"] for line in result.stderr.splitlines() if ": error: " in line]
    assert rules == ["source-mismatch", "additionalProperties"]


def test_a_write_failure_is_reported_as_json_with_format_json(tmp_path, monkeypatch):
    from support.specs import minimal_spec

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out" / "ok.html").mkdir(parents=True)  # a folder where a file should go
    result = CliRunner().invoke(main, ["build", "ok.mechanism.json", "-o", "out", "--format", "json"])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["findings"]] == ["output-write"]
    assert "cannot write out/ok.html" in document["findings"][0]["message"]
    assert document["summary"]["exit"] == 1
