"""Nothing is lost: writes are atomic, and a spec that fails leaves its previous output as it was.

``write_file`` writes a temporary file beside the target and renames it over the target; a failure
at any point (an OSError, or KeyboardInterrupt) leaves the old file intact and no ``*.tmp`` behind.
``build`` over many specs builds the good ones, keeps the failed one's output and manifest entry,
exits 1 and says how many failed.
"""

from __future__ import annotations

import copy
import errno
import os
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.specs import MECHANISMS, ROOT, minimal_spec
from renderer import build as build_module
from renderer.build import MANIFEST, write_file
from renderer.cli import main
from renderer.errors import OutputError

OLD, NEW = b"old contents\n", b"new contents\n"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or p.name.startswith("."))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "out" / "figure.svg"
    path.parent.mkdir()
    path.write_bytes(OLD)
    return path


def test_write_file_replaces_and_reports_a_change(target):
    assert write_file(target, NEW) is True
    assert target.read_bytes() == NEW
    assert leftovers(target.parent) == []


def test_write_file_leaves_an_identical_file_alone(target):
    before = target.stat().st_mtime_ns
    assert write_file(target, OLD) is False
    assert target.stat().st_mtime_ns == before


@pytest.mark.parametrize("error", [OSError(errno.EXDEV, "Invalid cross-device link"), KeyboardInterrupt()],
                         ids=["oserror", "keyboardinterrupt"])
def test_failed_rename_keeps_the_old_file(target, monkeypatch, error):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(build_module.os, "replace", fail)
    with pytest.raises(OutputError if isinstance(error, OSError) else KeyboardInterrupt) as info:
        write_file(target, NEW)
    if isinstance(error, OSError):
        assert "cannot write" in str(info.value.message) and "figure.svg" in info.value.message
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()],
                         ids=["disk-full", "keyboardinterrupt"])
def test_failure_in_the_middle_of_the_write_keeps_the_old_file(target, monkeypatch, error):
    real = os.fdopen

    class HalfWritten:
        """The temporary file, whose write stores half of the data and then fails."""

        def __init__(self, fd, *args, **kwargs):
            self._file = real(fd, *args, **kwargs)

        def write(self, data):
            self._file.write(data[: len(data) // 2])
            self._file.flush()
            raise error

        def __getattr__(self, name):
            return getattr(self._file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._file.close()

    monkeypatch.setattr(build_module.os, "fdopen", HalfWritten)
    with pytest.raises(OutputError if isinstance(error, OSError) else KeyboardInterrupt):
        write_file(target, NEW * 1000)
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


def test_interrupt_during_fsync_keeps_the_old_file(target, monkeypatch):
    def interrupt(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_file(target, NEW)
    assert target.read_bytes() == OLD
    assert leftovers(target.parent) == []


def test_a_directory_in_the_way_is_a_clear_error(tmp_path):
    (tmp_path / "figure.svg").mkdir()
    with pytest.raises(OutputError, match="cannot write"):
        write_file(tmp_path / "figure.svg", NEW)
    assert leftovers(tmp_path) == []


def test_output_folder_that_is_a_file_is_a_clear_error(tmp_path, write_spec, spec_data, monkeypatch):
    path = write_spec(spec_data)
    (tmp_path / "out").write_text("not a folder")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "--source-root", ".", "-o", "out", path.name], catch_exceptions=False)
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.output
    assert (tmp_path / "out").read_text() == "not a folder"


# --- one spec of many fails ----------------------------------------------------------------------

def _spec(title: str) -> dict:
    spec = minimal_spec()
    spec["title"] = title
    return spec


def _build(folder: Path, *args: str):
    return CliRunner().invoke(main, ["build", "--source-root", str(folder), "-o", str(folder / "out"), *args,
                                     str(folder / "specs")], catch_exceptions=False)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("count, jobs", [(3, "1"), (10, "2")], ids=["serial", "worker-processes"])
def test_failed_spec_keeps_its_previous_output_and_manifest_entry(tmp_path, count, jobs):
    specs = tmp_path / "specs"
    specs.mkdir()
    names = [f"spec{i}" for i in range(count)]
    for name in names:
        (specs / f"{name}.mechanism.json").write_text(json.dumps(_spec(f"{name} first"), indent=2))
    first = _build(tmp_path, "-j", jobs)
    assert first.exit_code == 0, first.output
    before = _snapshot(tmp_path / "out")
    manifest_before = {e["spec"]: e for e in json.loads(before[MANIFEST])["specs"]}

    # Change every spec; break one of them.
    for name in names:
        (specs / f"{name}.mechanism.json").write_text(json.dumps(_spec(f"{name} second"), indent=2))
    broken = specs / "spec1.mechanism.json"
    broken.write_text(broken.read_text().replace('"duration": 1000', '"duration": "soon"'))
    result = _build(tmp_path, "-j", jobs)

    assert result.exit_code == 1
    summary = result.stderr.splitlines()[-1]
    assert summary.startswith(f"mechdiagram: {count - 1} of {count} spec(s) built into ")
    assert summary.endswith("; 1 failed, their previous output left unchanged")
    assert "spec1.mechanism.json:" in result.stderr and "[type]" in result.stderr
    after = _snapshot(tmp_path / "out")
    assert set(after) == set(before)
    for name, data in after.items():
        if name.startswith("spec1."):
            assert data == before[name], f"{name} of the failed spec changed"
        elif name != MANIFEST:
            assert data != before[name] and b"second" in data, f"{name} was not rebuilt"
    manifest_after = {e["spec"]: e for e in json.loads(after[MANIFEST])["specs"]}
    assert set(manifest_after) == set(manifest_before)
    for spec, entry in manifest_after.items():
        if spec.endswith("spec1.mechanism.json"):
            assert entry == manifest_before[spec]
        else:
            assert entry != manifest_before[spec]
    assert leftovers(tmp_path / "out") == []


def test_spec_that_never_built_leaves_no_trace(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "good.mechanism.json").write_text(json.dumps(minimal_spec()))
    (specs / "bad.mechanism.json").write_text("{ not json")
    result = _build(tmp_path)
    assert result.exit_code == 1
    assert "1 of 2 spec(s) built" in result.stderr and "1 failed" in result.stderr
    produced = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert [p for p in produced if p.startswith("bad")] == []
    entries = json.loads((tmp_path / "out" / MANIFEST).read_text())["specs"]
    assert [Path(e["spec"]).name for e in entries] == ["good.mechanism.json"]


def test_failed_write_stops_with_a_clear_error_and_keeps_old_files(tmp_path, monkeypatch):
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "a.mechanism.json").write_text(json.dumps(_spec("first")))
    assert _build(tmp_path).exit_code == 0
    before = _snapshot(tmp_path / "out")
    (specs / "a.mechanism.json").write_text(json.dumps(_spec("second")))

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build_module.os, "replace", full)
    result = _build(tmp_path)
    assert result.exit_code == 1
    assert "cannot write" in result.output and "No space left on device" in result.output
    assert "Traceback" not in result.output
    assert _snapshot(tmp_path / "out") == before
    assert leftovers(tmp_path / "out") == []


# --- the committed gallery is unchanged by a failing neighbour ---------------------------------------

def test_committed_output_is_unchanged_by_a_failing_neighbour(tmp_path, monkeypatch):
    """Copy mechanisms/ and output/, add a broken spec, build: every committed file is byte-identical.

    The copy is first built without the neighbour, so that the comparison is about the neighbour only
    (the committed output/ may trail the renderer while it is being changed; ``mechdiagram check``
    is what fails then)."""
    shutil.copytree(MECHANISMS, tmp_path / "mechanisms")
    shutil.copytree(ROOT / "output", tmp_path / "output")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    baseline = runner.invoke(main, ["build", "--source-root", ".", "-o", "output", "mechanisms"],
                             catch_exceptions=False)
    assert baseline.exit_code == 0, baseline.output
    committed = _snapshot(tmp_path / "output")
    spec_count = len(list((tmp_path / "mechanisms").rglob("*.mechanism.json")))

    neighbour = copy.deepcopy(minimal_spec())
    neighbour["scenarios"][0]["steps"][0]["active"] = ["no-such-target"]
    (tmp_path / "mechanisms" / "zz-broken.mechanism.json").write_text(json.dumps(neighbour, indent=2))
    result = runner.invoke(main, ["build", "--source-root", ".", "-o", "output", "mechanisms"],
                           catch_exceptions=False)

    assert result.exit_code == 1
    assert "mechanisms/zz-broken.mechanism.json:" in result.stderr
    assert result.stderr.splitlines()[-1].startswith(f"mechdiagram: {spec_count} of {spec_count + 1} spec(s) built")
    assert "; 1 failed" in result.stderr
    assert _snapshot(tmp_path / "output") == committed
    assert leftovers(tmp_path / "output") == []
