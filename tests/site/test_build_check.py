"""``validate`` writes nothing; ``check`` passes right after a build, fails naming every stale or
missing output, and never writes."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.shared.config import Options
from mechdiagram.site.stale import rebuild_command
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
        "sha256, so it is not verified; pin it with mechdiagram hash --write SPEC [source-unpinned]",
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
    command = ("mechdiagram build -o out --source-root specs specs" if name == "manifest.json"
               else "mechdiagram build -o out --source-root specs specs/reference.mechanism.json")  # that spec alone
    assert stale == [f"out/{name}: error: differs from a fresh build ({owner}): run {command} [stale-output]"]
    assert lines[-1] == "mechdiagram: 1 of 1 spec(s) valid; 1 output file(s) stale"


def test_check_fails_after_an_output_is_deleted(project):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    (project / "out" / "reference.one-request.poster.svg").unlink()
    result = invoke("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert ("out/reference.one-request.poster.svg: error: missing (output of specs/reference.mechanism.json): run "
            "mechdiagram build -o out --source-root specs specs/reference.mechanism.json [stale-output]") in \
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


def test_the_hint_is_a_command_that_clears_what_it_names(tmp_path, monkeypatch):
    """A spec named like an option goes after --; a format and the gallery page the command line turned off,
    against the project's settings, are turned off in the hint too; and running the hint clears the check."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\nformats = ["frames"]\nindex = false\n', "utf-8")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "-x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert invoke("build", "specs").exit_code == 0  # with frames, as the project says
    (tmp_path / "output" / "x.html").write_text("edited", "utf-8")
    checked = invoke("check", "--no-frames", "--index", "specs")
    assert checked.exit_code == 1
    hints = {line.split(": run ", 1)[1].split(" [")[0].removesuffix(" to delete it")
             for line in checked.stderr.splitlines() if "[stale-output]" in line}
    assert hints == {"mechdiagram build --index --no-frames specs",
                     "mechdiagram build --index --no-frames specs/-x.mechanism.json"}
    for hint in sorted(hints):
        assert invoke(*shlex.split(hint)[1:]).exit_code == 0
    assert invoke("check", "--no-frames", "--index", "specs").exit_code == 0


def test_a_spec_named_like_an_option_goes_after_a_double_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert rebuild_command(Options(specs=[Path("-x.mechanism.json")], output=Path("site"))) == \
        "mechdiagram build -o site -- -x.mechanism.json"
    assert rebuild_command(Options(), ["my specs/a b.mechanism.json"]) == "mechdiagram build 'my specs/a b.mechanism.json'"


def test_check_without_the_flag_a_build_had_names_the_flag_before_deleting(tmp_path, monkeypatch):
    """A folder built with --png, checked without it: each picture is reported with the flag to give check
    (deleting the pictures, which a build without --png would do, is seldom what the author wants)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert invoke("build", "specs", "-o", "out", "--source-root", ".", "--png").exit_code == 0
    pictures = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert pictures
    checked = invoke("check", "specs", "-o", "out", "--source-root", ".")
    assert checked.exit_code == 1
    lines = [line for line in checked.stderr.splitlines() if ".png" in line]
    assert len(lines) == len(pictures) and all(
        "without --png, which wrote it: give check the same --png (or formats = [\"png\"] in "
        "[tool.mechdiagram]), or run mechdiagram build -o out --source-root . specs to delete it" in line
        for line in lines), lines
    assert invoke("check", "specs", "-o", "out", "--source-root", ".", "--png").exit_code == 0
