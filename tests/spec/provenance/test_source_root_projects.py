"""The source root comes from the project each spec is in: the nearest folder above it with a
``pyproject.toml`` (its ``source-root`` setting, else that folder) or a ``.git``, else the spec's own
folder; ``--source-root`` wins over all, and every message names the root it used."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mechdiagram.shared.config import spec_project
from support.cli import invoke
from support.specs import minimal_spec


def spec_with_source(folder: Path, source: str, *, pinned: bytes | None = None, name: str = "x") -> Path:
    data = minimal_spec()
    data["sources"] = [{"path": source, **({"sha256": hashlib.sha256(pinned).hexdigest()} if pinned else {})}]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.mechanism.json"
    path.write_text(json.dumps(data, indent=2), "utf-8")
    return path


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_specs_of_two_projects_in_one_run_each_use_their_own_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # project one: a pyproject.toml that sets source-root; project two: a git repository
    write(tmp_path / "one" / "pyproject.toml", b'[tool.mechdiagram]\nsource-root = "docs"\n')
    write(tmp_path / "one" / "docs" / "notes.md", b"one\n")
    spec_with_source(tmp_path / "one" / "mechanisms", "notes.md", pinned=b"one\n", name="first")
    (tmp_path / "two" / ".git").mkdir(parents=True)
    write(tmp_path / "two" / "notes.md", b"two\n")
    spec_with_source(tmp_path / "two" / "deep" / "specs", "notes.md", pinned=b"two\n", name="second")
    result = invoke("validate", "one", "two", "--format", "json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["findings"] == []
    # swap the contents: each spec now names its own root in its mismatch
    write(tmp_path / "one" / "docs" / "notes.md", b"two\n")
    (tmp_path / "two" / "notes.md").unlink()
    result = invoke("validate", "one", "two", "--format", "json")
    findings = {f["file"]: (f["rule"], f["message"]) for f in json.loads(result.stdout)["findings"]}
    assert findings["one/mechanisms/first.mechanism.json"][0] == "source-mismatch"
    assert findings["two/deep/specs/second.mechanism.json"] == (
        "source-missing", "source notes.md: no such file under the source root (two); check the path, or set "
        "--source-root (or source-root in pyproject.toml), or pass --allow-missing-sources to render without "
        "verifying it")


def test_without_a_project_the_spec_folder_is_the_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "loose" / "notes.md", b"notes\n")
    spec_with_source(tmp_path / "loose", "notes.md", pinned=b"notes\n")
    assert spec_project(tmp_path / "loose" / "x.mechanism.json").source_root == Path("loose")
    assert invoke("validate", "loose").exit_code == 0


def test_the_nearest_marker_wins_and_source_root_overrides_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    write(tmp_path / "pkg" / "pyproject.toml", b"[project]\nname = 'pkg'\n")  # a package inside the repository
    write(tmp_path / "pkg" / "notes.md", b"pkg\n")
    spec = spec_with_source(tmp_path / "pkg" / "docs", "notes.md", pinned=b"pkg\n")
    assert spec_project(spec).source_root == Path("pkg")
    assert invoke("validate", "pkg").exit_code == 0
    result = invoke("validate", "pkg", "--source-root", ".")
    assert result.exit_code == 1
    assert "no such file under the source root (the current folder)" in result.stderr


def test_a_projects_allow_missing_sources_applies_to_its_specs_only(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "lenient" / "pyproject.toml", b"[tool.mechdiagram]\nallow-missing-sources = true\n")
    spec_with_source(tmp_path / "lenient", "gone.md", pinned=b"x", name="a")
    (tmp_path / "strict" / ".git").mkdir(parents=True)
    spec_with_source(tmp_path / "strict", "gone.md", pinned=b"x", name="b")
    result = invoke("validate", "lenient", "strict", "--format", "json")
    rules = {f["file"]: f["rule"] for f in json.loads(result.stdout)["findings"]}
    assert rules == {"lenient/a.mechanism.json": "source-unverified", "strict/b.mechanism.json": "source-missing"}
    assert invoke("validate", "lenient", "strict", "--allow-missing-sources").exit_code == 0


def test_a_source_root_setting_that_is_not_a_folder_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "p" / "pyproject.toml", b'[tool.mechdiagram]\nsource-root = "nowhere"\n')
    spec_with_source(tmp_path / "p", "notes.md")
    result = invoke("validate", "p")
    assert result.exit_code == 1
    assert result.stderr == "Error: p/pyproject.toml: [tool.mechdiagram] source-root nowhere is not a folder\n"


def test_hash_write_uses_the_specs_project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    write(tmp_path / "repo" / "notes.md", b"notes\n")
    spec = spec_with_source(tmp_path / "repo" / "mechanisms", "notes.md")
    result = invoke("hash", "--write", str(spec.relative_to(tmp_path)))
    assert result.exit_code == 0, result.stderr
    assert json.loads(spec.read_text("utf-8"))["sources"][0]["sha256"] == hashlib.sha256(b"notes\n").hexdigest()


def test_an_edited_pyproject_is_read_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", b'[tool.mechdiagram]\nsource-root = "a"\n')
    write(tmp_path / "a" / "notes.md", b"a\n")
    write(tmp_path / "bb" / "notes.md", b"b\n")
    spec = spec_with_source(tmp_path / "mechanisms", "notes.md", pinned=b"b\n")
    assert spec_project(spec).source_root == Path("a")
    assert invoke("validate", "mechanisms").exit_code == 1  # a/notes.md differs
    write(tmp_path / "pyproject.toml", b'[tool.mechdiagram]\nsource-root = "bb"\n')
    assert spec_project(spec).source_root == Path("bb")
    assert invoke("validate", "mechanisms").exit_code == 0
