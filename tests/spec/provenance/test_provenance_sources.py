"""Provenance of a whole spec: ``check_sources`` gives located findings; the source root comes from
``--source-root`` or the nearest pyproject.toml; refused, unreadable and edited sources fail the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.shared.model import spec_from_data
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.provenance import check_sources
from support.cli import LOCATED, invoke
from support.reference_spec import dumps, reference_spec, write_sources

CONTENT = b"notes about the mechanism\n"  # docs/notes.md of the source_root fixture
DIGEST = hashlib.sha256(CONTENT).hexdigest()
OTHER = hashlib.sha256(b"something else").hexdigest()
PLACEHOLDER = "0" * 64


def test_check_sources_findings_have_pointer_severity_rule_and_place(source_root):
    data = reference_spec()
    data["sources"] = [
        {"path": "docs/notes.md", "sha256": DIGEST},
        {"path": "docs/notes.md", "sha256": OTHER},
        {"path": "docs/gone.md", "sha256": DIGEST},
        {"path": "docs/notes.md"},
        {"path": "../outside.md", "sha256": DIGEST},
    ]
    text = dumps(data)
    loaded = parse_text(text.encode("utf-8"), "spec.mechanism.json")
    checks, findings = check_sources(loaded, spec_from_data(data).sources, source_root)
    assert [c.status for c in checks] == ["verified", "mismatch", "missing", "unpinned", "refused"]
    summary = [(f.pointer, f.severity, f.rule) for f in findings]
    assert summary == [
        ("/sources/1/sha256", "error", "source-mismatch"),
        ("/sources/2/path", "error", "source-missing"),
        ("/sources/3/path", "warning", "source-unpinned"),
        ("/sources/4/path", "error", "source-refused"),
    ]
    lines = text.split("\n")
    mismatch = findings[0]
    assert lines[mismatch.line - 1][mismatch.column - 1:].startswith(f'"{OTHER}"')
    refused = findings[3]
    assert lines[refused.line - 1][refused.column - 1:].startswith('"../outside.md"')
    _, allowed = check_sources(loaded, spec_from_data(data).sources, source_root, allow_missing=True)
    assert ("/sources/2/path", "warning", "source-unverified") in [(f.pointer, f.severity, f.rule) for f in allowed]


# --- the source root, through the CLI ------------------------------------------------------------

def _project(tmp_path, pyproject: str | None):
    """A project folder with the reference spec in specs/ and its sources in src/."""
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    data = reference_spec()
    write_sources(project / "src", data)
    (project / "specs" / "reference.mechanism.json").write_text(dumps(data), "utf-8")
    if pyproject is not None:
        (project / "pyproject.toml").write_text(pyproject, "utf-8")
    return project


def _source_statuses(result) -> list[str]:
    document = json.loads(result.stdout)
    return [(f["pointer"], f["rule"]) for f in document["findings"]]


def test_source_root_option(tmp_path, monkeypatch):
    project = _project(tmp_path, None)
    monkeypatch.chdir(project)
    runner = CliRunner()
    found = runner.invoke(main, ["validate", "specs", "--source-root", "src", "--format", "json"])
    assert found.exit_code == 0, found.output
    assert _source_statuses(found) == [("/sources/2/path", "source-unpinned")]
    # without it the sources are looked up in the working folder, where they are not
    lost = runner.invoke(main, ["validate", "specs", "--format", "json"])
    assert lost.exit_code == 1
    assert _source_statuses(lost) == [("/sources/0/path", "source-missing"), ("/sources/1/path", "source-missing"),
                                      ("/sources/2/path", "source-unpinned")]


def test_source_root_from_the_nearest_pyproject(tmp_path, monkeypatch):
    project = _project(tmp_path, '[tool.mechdiagram]\nsource-root = "src"\n')
    (project / "specs" / "deeper").mkdir()
    monkeypatch.chdir(project / "specs" / "deeper")  # the pyproject is two folders up
    result = CliRunner().invoke(main, ["validate", "..", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert _source_statuses(result) == [("/sources/2/path", "source-unpinned")]


def test_source_root_option_beats_pyproject(tmp_path, monkeypatch):
    project = _project(tmp_path, '[tool.mechdiagram]\nsource-root = "nowhere-useful"\n')
    (project / "nowhere-useful").mkdir()
    monkeypatch.chdir(project)
    assert CliRunner().invoke(main, ["validate", "specs"]).exit_code == 1
    assert CliRunner().invoke(main, ["validate", "specs", "--source-root", "src"]).exit_code == 0


def test_allow_missing_sources_from_option_and_pyproject(tmp_path, monkeypatch):
    project = _project(tmp_path, None)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["validate", "specs", "--allow-missing-sources", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert _source_statuses(result) == [("/sources/0/path", "source-unverified"),
                                        ("/sources/1/path", "source-unverified"),
                                        ("/sources/2/path", "source-unpinned")]
    (project / "pyproject.toml").write_text("[tool.mechdiagram]\nallow-missing-sources = true\n", "utf-8")
    assert CliRunner().invoke(main, ["validate", "specs"]).exit_code == 0


# --- sources that fail the CLI ---------------------------------------------------------------------

def test_refused_sources_fail_the_cli_with_a_located_finding(source_root, spec_data, monkeypatch):
    root = source_root
    (root / "link.txt").symlink_to(root.parent / "outside" / "secret.txt")
    spec_data["sources"] = [{"path": "../outside/secret.txt", "sha256": PLACEHOLDER},
                            {"path": "/etc/hostname"},
                            {"path": "link.txt", "sha256": PLACEHOLDER}]
    (root / "s.mechanism.json").write_text(json.dumps(spec_data, indent=2))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["build", "--source-root", ".", "-o", "out", "--allow-missing-sources",
                                       "s.mechanism.json"], catch_exceptions=False)
    assert result.exit_code == 1
    lines = [l for l in result.stderr.splitlines() if "[source-refused]" in l]
    assert [l.split(": error: ")[1].split(":")[0] for l in lines] == ["/sources/0/path", "/sources/1/path",
                                                                       "/sources/2/path"]
    for line in lines:
        assert line.startswith("s.mechanism.json:") and line.split(":")[1].isdigit()
    assert not (root / "out" / "s.html").exists()


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
    rules = [LOCATED.match(line)["rule"] for line in result.stderr.splitlines() if ": error: " in line]
    assert rules == ["source-mismatch", "additionalProperties"]


@pytest.mark.slow  # subprocesses
def test_fifo_through_the_cli_does_not_hang(source_root, spec_data):
    """In a separate process with a timeout, so a blocking open() fails the test instead of hanging it."""
    root = source_root
    os.mkfifo(root / "pipe")
    spec_data["sources"] = [{"path": "pipe", "sha256": PLACEHOLDER}]
    (root / "s.mechanism.json").write_text(json.dumps(spec_data, indent=2))
    for command in (["validate", "--source-root", ".", "s.mechanism.json"], ["hash", "pipe"]):
        result = subprocess.run([sys.executable, "-c", "from mechdiagram.cli import run; run()", *command], cwd=root,
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr
    assert "[source-unreadable]" in subprocess.run(
        [sys.executable, "-c", "from mechdiagram.cli import run; run()", "validate", "--source-root", ".",
         "s.mechanism.json"], cwd=root, capture_output=True, text=True, timeout=30).stderr


def test_sources_after_a_malformed_one_keep_their_own_index(tmp_path, monkeypatch):
    """A source after a malformed entry is reported at its own place in the array, not at its place
    among the well-formed ones (found by a differential review)."""
    import json

    from click.testing import CliRunner

    from mechdiagram.cli import main
    from support.specs import minimal_spec

    data = minimal_spec()
    data["sources"] = [{"path": 5}, {"path": "missing.md", "sha256": "0" * 64}]
    (tmp_path / "s.mechanism.json").write_text(json.dumps(data, indent=2), "utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "s.mechanism.json", "--format", "json"])
    pointers = {(f["pointer"], f["rule"]) for f in json.loads(result.stdout)["findings"]}
    assert ("/sources/0/path", "type") in pointers
    assert ("/sources/1/path", "source-missing") in pointers
    assert not any(p == "/sources/0/path" and r.startswith("source-") for p, r in pointers)
