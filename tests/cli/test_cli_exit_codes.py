"""CLI exit statuses: 0 good, 1 failed (every finding on stderr, located), 2 usage; never a traceback."""

from __future__ import annotations

import pytest

from support.cli import LOCATED as LINE
from support.cli import invoke, run_subprocess
from support.specs import position as where


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
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n", "utf-8")
    assert invoke("validate", "specs").exit_code == 1  # sources are not under the project's folder
    assert invoke("validate", "specs", "--allow-missing-sources").exit_code == 0


def test_stale_output_exits_1(project):
    assert invoke("build", "specs", "--source-root", "specs", "-o", "out").exit_code == 0
    (project / "out" / "reference.html").write_text("stale", "utf-8")
    result = invoke("check", "specs", "--source-root", "specs", "-o", "out")
    assert result.exit_code == 1
    assert ("out/reference.html: error: differs from a fresh build (output of specs/reference.mechanism.json): run "
            "mechdiagram build -o out --source-root specs specs/reference.mechanism.json [stale-output]") in \
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


@pytest.mark.slow  # a subprocess
def test_the_top_level_error_comes_from_run_without_traceback(tmp_path):
    """Even an internal error is one line, not a traceback (MECHDIAGRAM_DEBUG unset)."""
    (tmp_path / "x.mechanism.json").write_text("{}")
    result, _ = run_subprocess("validate", "--source-root", ".", "x.mechanism.json", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_a_missing_default_folder_says_it_was_the_default(tmp_path, monkeypatch):
    """`validate` with no SPECS in a folder without mechanisms/ said only "no such spec file or folder:
    mechanisms", as if the author had named it."""
    monkeypatch.chdir(tmp_path)
    result = invoke("validate")
    assert result.exit_code == 2
    assert "no such spec file or folder: mechanisms (the default; name a spec or folder)" in result.stderr
    named = invoke("validate", "nowhere")  # click names a path given on the command line itself
    assert named.exit_code == 2 and "Path 'nowhere' does not exist" in named.stderr
