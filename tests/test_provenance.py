"""Provenance: each source's SHA-256 against its file under the source root."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from click.testing import CliRunner
from support.reference_spec import SOURCE_TEXT, dumps, reference_spec, write_sources

from renderer.cli import main
from renderer.load import parse_text
from renderer.model import Source
from renderer.provenance import check_source, check_sources

CONTENT = b"notes about the mechanism\n"
DIGEST = hashlib.sha256(CONTENT).hexdigest()
OTHER = hashlib.sha256(b"something else").hexdigest()


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "root"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "notes.md").write_bytes(CONTENT)
    (tmp_path / "outside.md").write_bytes(CONTENT)
    return folder


def test_verified(root):
    check = check_source(0, Source("docs/notes.md", DIGEST), root)
    assert (check.status, check.expected, check.actual) == ("verified", DIGEST, DIGEST)
    assert not check.failed
    assert check.message == "source docs/notes.md matches its SHA-256"


def test_mismatch_names_expected_and_actual_digest(root):
    check = check_source(0, Source("docs/notes.md", OTHER), root)
    assert check.status == "mismatch"
    assert check.failed
    assert check.message == (f"source docs/notes.md does not match its SHA-256: expected {OTHER}, found {DIGEST}; "
                             "if the file changed on purpose, record its new digest with mechdiagram hash --write")


def test_mismatch_from_changed_line_endings_says_so(root):
    (root / "docs" / "notes.md").write_bytes(CONTENT.replace(b"\n", b"\r\n"))
    check = check_source(0, Source("docs/notes.md", DIGEST), root)
    assert check.status == "mismatch"
    assert "the file matches once its line endings are converted to LF" in check.message


def test_missing_is_an_error(root):
    check = check_source(0, Source("docs/gone.md", DIGEST), root)
    assert check.status == "missing"
    assert check.failed
    assert check.message == (f"source docs/gone.md: no such file under the source root ({root.as_posix()}); "
                             "check the path, or set --source-root (or source-root in pyproject.toml), or pass "
                             "--allow-missing-sources to render without verifying it")


def test_missing_but_allowed_is_unverified(root):
    check = check_source(0, Source("docs/gone.md", DIGEST), root, allow_missing=True)
    assert check.status == "unverified"
    assert not check.failed
    assert check.message == (f"source docs/gone.md was not found under the source root ({root.as_posix()}), "
                             "so it is not verified")


def test_allow_missing_does_not_excuse_a_mismatch(root):
    check = check_source(0, Source("docs/notes.md", OTHER), root, allow_missing=True)
    assert check.status == "mismatch"


@pytest.mark.parametrize("path", ["docs/notes.md", "docs/gone.md"], ids=["present", "absent"])
def test_unpinned_is_never_verified(root, path):
    check = check_source(0, Source(path), root)
    assert check.status == "unpinned"
    assert not check.failed
    assert check.actual is None


@pytest.mark.parametrize("path", ["../outside.md", "docs/../../outside.md", "./../outside.md", "..\\outside.md"])
def test_dotdot_escaping_the_root_is_refused(root, path):
    assert (root / ".." / "outside.md").is_file()  # the file exists: refusing is not "missing"
    check = check_source(0, Source(path, DIGEST), root)
    assert check.status == "refused"
    assert check.failed
    assert check.message == f"source {path}: the path climbs out of the source root with '..'"


def test_dotdot_that_stays_inside_the_root_is_fine(root):
    check = check_source(0, Source("docs/../docs/notes.md", DIGEST), root)
    assert check.status == "verified"


@pytest.mark.parametrize("kind", ["posix", "windows-drive", "backslash"])
def test_absolute_path_is_refused(root, kind):
    path = {"posix": str((root / "docs" / "notes.md").resolve()),
            "windows-drive": "C:\\docs\\notes.md",
            "backslash": "\\docs\\notes.md"}[kind]
    check = check_source(0, Source(path, DIGEST), root)
    assert check.status == "refused"
    assert check.message == f"source {path}: the path is absolute; give it relative to the source root"


def test_symlink_leading_outside_the_root_is_refused(root):
    os.symlink(root.parent / "outside.md", root / "docs" / "link.md")
    check = check_source(0, Source("docs/link.md", DIGEST), root)
    assert check.status == "refused"
    assert check.message == "source docs/link.md: the path leads out of the source root through a symbolic link"


def test_symlinked_folder_leading_outside_the_root_is_refused(root):
    os.symlink(root.parent, root / "up")
    check = check_source(0, Source("up/outside.md", DIGEST), root)
    assert check.status == "refused"


def test_symlink_inside_the_root_is_followed(root):
    os.symlink(root / "docs" / "notes.md", root / "alias.md")
    check = check_source(0, Source("alias.md", DIGEST), root)
    assert check.status == "verified"


def test_a_folder_is_not_a_source(root):
    check = check_source(0, Source("docs", DIGEST), root)
    assert check.status == "unreadable"
    assert check.message == "source docs: the path is a directory, not a file"


def test_check_sources_findings_have_pointer_severity_rule_and_place(root):
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
    from renderer.model import spec_from_data
    checks, findings = check_sources(loaded, spec_from_data(data).sources, root)
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
    _, allowed = check_sources(loaded, spec_from_data(data).sources, root, allow_missing=True)
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


def test_source_files_are_the_reference_helper_files(tmp_path):
    digests = write_sources(tmp_path)
    for path, text in SOURCE_TEXT.items():
        assert (tmp_path / path).read_bytes() == text.encode("utf-8")
        assert digests[path] == hashlib.sha256(text.encode("utf-8")).hexdigest()
