"""``validate`` writes nothing; ``check`` passes right after a build, fails naming every stale or
missing output, and never writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from renderer.cli import main
from support.cli import invoke
from support.reference_spec import dumps
from support.specs import minimal_spec


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_validate_writes_nothing(project):
    before = snapshot(project)
    result = invoke("validate", "specs", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines() == [
        "specs/reference.mechanism.json:20:15: warning: /sources/2/path: source notes/provenance.json has no "
        "sha256, so it is not verified [source-unpinned]",
        "mechdiagram: 1 of 1 spec(s) valid"]
    assert snapshot(project) == before
    assert not (project / "output").exists()


def test_check_passes_right_after_build(project):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines()[-1] == "mechdiagram: 1 of 1 spec(s) valid; out/ is up to date"
    assert "error" not in result.stderr


@pytest.mark.parametrize("name", ["reference.one-request.svg", "reference.html", "manifest.json"])
def test_check_fails_after_an_output_is_edited(project, name):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    path = project / "out" / name
    data = path.read_bytes()
    middle = len(data) // 2
    path.write_bytes(data[:middle] + b" " + data[middle:])  # one space more
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    stale = [line for line in lines if "[stale-output]" in line]
    owner = "the manifest of the specs" if name == "manifest.json" else "output of specs/reference.mechanism.json"
    assert stale == [f"out/{name}: error: differs from a fresh build ({owner}): run mechdiagram build specs -o out "
                     "--source-root specs [stale-output]"]
    assert lines[-1] == "mechdiagram: 1 of 1 spec(s) valid; 1 output file(s) stale"


def test_check_fails_after_an_output_is_deleted(project):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    (project / "out" / "reference.one-request.poster.svg").unlink()
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert ("out/reference.one-request.poster.svg: error: missing (output of specs/reference.mechanism.json): run "
            "mechdiagram build specs -o out --source-root specs [stale-output]") in \
        result.stderr.splitlines()


def test_check_fails_when_the_spec_changed_since_the_build(project):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    spec_path = project / "specs" / "reference.mechanism.json"
    data = json.loads(spec_path.read_text("utf-8"))
    data["caption"] = "A new caption."
    spec_path.write_text(dumps(data), "utf-8")
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    stale = sorted(line.split(":")[0] for line in result.stderr.splitlines() if "[stale-output]" in line)
    # index.html shows the caption too
    assert stale == ["out/index.html", "out/manifest.json", "out/reference.fragment.html", "out/reference.html"]


def test_check_never_writes(project):
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert not (project / "out").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_manifest_does_not_hang(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "output").mkdir()
    os.mkfifo(tmp_path / "output" / "manifest.json")
    result = CliRunner().invoke(main, ["check", "x.mechanism.json"])
    assert result.exit_code == 1
    assert "output/manifest.json: error: missing (the manifest of the specs): run mechdiagram build" in result.stderr
