"""The manifest: every spec's outputs and sources with their digests, no timestamps, keys that do not
depend on the working folder, written last, kept whole by two builds into one folder, and guarding
one spec's outputs against another's of the same name."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from support.cli import invoke
from support.outputs import EXPECTED_FILES as BUILT
from support.outputs import PLAYER_FILES
from support.reference_spec import reference_spec, write_sources
from support.specs import minimal_spec


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: What the build writes for the reference spec, the gallery page and the player's files aside.
EXPECTED_FILES = [name for name in BUILT if name != "index.html" and name not in PLAYER_FILES]


def test_manifest_lists_spec_outputs_and_sources(project):
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    out = project / "out"
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["generator"] == "mechdiagram"
    (entry,) = manifest["specs"]
    spec_bytes = (project / "specs" / "reference.mechanism.json").read_bytes()
    assert entry["spec"] == "../specs/reference.mechanism.json"
    assert entry["sha256"] == sha(spec_bytes)
    outputs = {item["path"]: item["sha256"] for item in entry["outputs"]}
    assert sorted(outputs) == [name for name in EXPECTED_FILES if name != "manifest.json"]
    for name, digest in outputs.items():
        assert digest == sha((out / name).read_bytes()), name
    data = reference_spec()
    digests = write_sources(project / "elsewhere")
    assert entry["sources"] == [
        {"path": "notes/article.md", "status": "verified", "sha256": digests["notes/article.md"]},
        {"path": "notes/old-figure.svg", "status": "verified", "sha256": digests["notes/old-figure.svg"]},
        {"path": "notes/provenance.json", "status": "unpinned", "sha256": None},
    ]
    assert [s["path"] for s in entry["sources"]] == [s["path"] for s in data["sources"]]
    assert "time" not in json.dumps(manifest).lower()  # no timestamps


def test_manifest_records_unverified_sources(project):
    shutil.rmtree(project / "specs" / "notes")
    result = invoke("build", "specs", "-o", "out", "--source-root", "specs", "--allow-missing-sources")
    assert result.exit_code == 0, result.output
    entry = json.loads((project / "out" / "manifest.json").read_text("utf-8"))["specs"][0]
    assert [s["status"] for s in entry["sources"]] == ["unverified", "unverified", "unpinned"]
    assert "warning: /sources/0/path: source notes/article.md was not found under the source root (specs)" in result.stderr


def test_manifest_keys_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\noutput = \"output\"\n", "utf-8")
    specs = tmp_path / "mechanisms"
    specs.mkdir()
    (specs / "one.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build", "mechanisms"]).exit_code == 0
    before = (tmp_path / "output" / "manifest.json").read_bytes()
    monkeypatch.chdir(specs)
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "output" / "manifest.json").read_bytes() == before


def test_two_runs_cannot_overwrite_each_others_same_named_output(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    for folder, title in (("a", "First"), ("b", "Second")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.mechanism.json").write_text(json.dumps(dict(minimal_spec(), title=title)), "utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["build", "a", "-o", "out"]).exit_code == 0
    first = (tmp_path / "out" / "x.html").read_bytes()
    result = runner.invoke(main, ["build", "b", "-o", "out"])
    assert result.exit_code == 1
    assert ("b/x.mechanism.json: error: writes x.fragment.html, which manifest.json records as the output of "
            "a/x.mechanism.json; rename one of the specs [output-collision]") in result.stderr
    assert (tmp_path / "out" / "x.html").read_bytes() == first


def test_the_manifest_is_written_last_and_not_after_a_failed_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out" / "ok.html").mkdir(parents=True)  # a folder where a file should go
    result = CliRunner().invoke(main, ["build", "ok.mechanism.json", "-o", "out"])
    assert result.exit_code == 1
    assert "cannot write out/ok.html" in result.stderr
    assert not (tmp_path / "out" / "manifest.json").exists()


@pytest.mark.slow  # two mechdiagram processes at once, three times
def test_concurrent_builds_into_one_folder_keep_both_manifest_entries(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    for attempt in range(3):
        runs = [subprocess.Popen([sys.executable, "-m", "mechdiagram", "build", name, "-o", f"out{attempt}"],
                                 cwd=tmp_path, stderr=subprocess.PIPE) for name in ("a", "b")]
        assert [run.wait(timeout=60) for run in runs] == [0, 0]
        manifest = json.loads((tmp_path / f"out{attempt}" / "manifest.json").read_text("utf-8"))
        assert sorted(entry["spec"] for entry in manifest["specs"]) == ["../a/a.mechanism.json", "../b/b.mechanism.json"]
