"""A spec that fails leaves its previous output as it was: ``build`` over many specs builds the good
ones, keeps the failed one's files and manifest entry (serially and in worker processes), exits 1 and
says how many failed; a failed write stops with a clear error; the output path must be a folder."""

from __future__ import annotations

import copy
import errno
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from mechdiagram.shared import files as files_module
from mechdiagram.site.manifest import MANIFEST
from support.cli import invoke, run_cli
from support.outputs import EXPECTED_FILES, PLAYER_FILES, sha, snapshot
from support.reference_spec import dumps, reference_spec, write_sources
from support.specs import MECHANISMS, ROOT, minimal_spec


def test_a_failing_spec_beside_a_good_one(project):
    good = project / "specs" / "reference.mechanism.json"
    bad = project / "specs" / "broken.mechanism.json"
    data = reference_spec()
    data["title"] = "The second figure"
    write_sources(project / "specs", data)
    bad.write_text(dumps(data), "utf-8")
    assert invoke("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    first = snapshot(project / "out")
    assert "broken.html" in first and "reference.html" in first
    first_times = {name: (project / "out" / name).stat().st_mtime_ns for name in first if name.startswith("broken.")}

    # break one spec, and change the good one so that its output must change
    broken = json.loads(bad.read_text("utf-8"))
    broken["scenarios"][0]["steps"][0]["duration"] = 0
    bad.write_text(dumps(broken), "utf-8")
    changed = json.loads(good.read_text("utf-8"))
    changed["caption"] = "An updated caption."
    good.write_text(dumps(changed), "utf-8")

    result = invoke("build", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith("specs/broken.mechanism.json:")
    assert errors[0].endswith("error: /scenarios/0/steps/0/duration: duration must be at least 334 ms, not 0: a step "
                             "shorter than that changes the figure more than three times a second "
                             "(WCAG 2.2 SC 2.3.1) [minimum]")
    assert lines[-1].startswith("mechdiagram: 1 of 2 spec(s) built into out/ (")
    assert lines[-1].endswith("; 1 failed, their previous output left unchanged")
    after = snapshot(project / "out")
    # the failed spec's old output is untouched ...
    for name in [n for n in first if n.startswith("broken.")]:
        assert after[name] == first[name], name
        assert (project / "out" / name).stat().st_mtime_ns == first_times[name], name  # not even rewritten
    assert len(first_times) == 10
    # ... the good one is rebuilt ...
    assert "An updated caption." in after["reference.html"].decode("utf-8")
    assert after["reference.html"] != first["reference.html"]
    # ... and the manifest keeps describing both
    manifest = json.loads(after["manifest.json"])
    entries = {e["spec"]: e for e in manifest["specs"]}
    old = {e["spec"]: e for e in json.loads(first["manifest.json"])["specs"]}
    assert sorted(entries) == ["../specs/broken.mechanism.json", "../specs/reference.mechanism.json"]
    assert entries["../specs/broken.mechanism.json"] == old["../specs/broken.mechanism.json"]
    assert entries["../specs/reference.mechanism.json"]["sha256"] == sha(good.read_bytes())


def test_failed_spec_without_previous_output_writes_nothing_for_it(project):
    bad = project / "specs" / "broken.mechanism.json"
    bad.write_text("{ not json", "utf-8")
    result = invoke("build", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert "1 of 2 spec(s) built" in result.stderr and "1 failed" in result.stderr
    assert sorted(snapshot(project / "out")) == EXPECTED_FILES
    assert "specs/broken.mechanism.json:1:3: error: invalid JSON: a key must be a string in double quotes " \
           '("not") [json-syntax]' in result.stderr.splitlines()
    entries = json.loads((project / "out" / MANIFEST).read_text())["specs"]
    assert [Path(e["spec"]).name for e in entries] == ["reference.mechanism.json"]


def test_an_output_path_that_is_a_file_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "taken").write_text("a file", "utf-8")
    result = run_cli("build", "--source-root", ".", "x.mechanism.json", "-o", "taken")
    assert result.exit_code == 2 and "'taken' is a file" in result.stderr
    assert "Traceback" not in result.output
    assert (tmp_path / "taken").read_text("utf-8") == "a file"


# --- one spec of many fails ----------------------------------------------------------------------

def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or p.name.startswith("."))


def _spec(title: str) -> dict:
    spec = minimal_spec()
    spec["title"] = title
    return spec


def _build(folder: Path, *args: str):
    return CliRunner().invoke(main, ["build", "--source-root", str(folder), "-o", str(folder / "out"), *args,
                                     str(folder / "specs")], catch_exceptions=False)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("count, jobs", [
    (3, "1"),
    pytest.param(10, "2", marks=pytest.mark.slow),  # worker processes
], ids=["serial", "worker-processes"])
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
        elif name != MANIFEST and name not in PLAYER_FILES:  # the player is the same for every spec
            assert data != before[name] and b"second" in data, f"{name} was not rebuilt"
    manifest_after = {e["spec"]: e for e in json.loads(after[MANIFEST])["specs"]}
    assert set(manifest_after) == set(manifest_before)
    for spec, entry in manifest_after.items():
        if spec.endswith("spec1.mechanism.json"):
            assert entry == manifest_before[spec]
        else:
            assert entry != manifest_before[spec]
    assert leftovers(tmp_path / "out") == []


def test_failed_write_stops_with_a_clear_error_and_keeps_old_files(tmp_path, monkeypatch):
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "a.mechanism.json").write_text(json.dumps(_spec("first")))
    assert _build(tmp_path).exit_code == 0
    before = _snapshot(tmp_path / "out")
    (specs / "a.mechanism.json").write_text(json.dumps(_spec("second")))

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files_module.os, "replace", full)
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
    # the baseline built them all: each is unchanged since, and skipped, but those whose warnings are reported
    # again (a spec with findings is checked on every build): none writes a file
    warned = len({line.split(":", 1)[0] for line in baseline.stderr.splitlines() if ": warning: " in line})
    assert result.stderr.splitlines()[-1].startswith(
        f"mechdiagram: {spec_count} of {spec_count + 1} spec(s) up to date in output/ ({warned} built, "
        f"{spec_count - warned} skipped as unchanged since their last build, --force rebuilds them; no file written")
    assert "; 1 failed" in result.stderr
    assert _snapshot(tmp_path / "output") == committed
    assert leftovers(tmp_path / "output") == []


# --- files are staged as specs come in, and put in place at the end ---------------------------------

def test_a_spec_failed_by_a_name_collision_leaves_no_staged_file(tmp_path):
    """Both ``X.mechanism.json`` and ``x.mechanism.json`` render (their files are staged as they come in),
    then the second fails the collision check: only the first one's files are put in place."""
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "a").mkdir()
    (specs / "b").mkdir()
    (specs / "a" / "x.mechanism.json").write_text(json.dumps(_spec("from a")))
    (specs / "b" / "x.mechanism.json").write_text(json.dumps(_spec("from b")))
    result = _build(tmp_path)
    assert result.exit_code == 1
    assert "[output-collision]" in result.stderr
    assert b"from a" in (tmp_path / "out" / "x.html").read_bytes()
    assert leftovers(tmp_path / "out") == []


def test_an_interrupted_build_leaves_the_previous_output_and_no_staged_file(tmp_path, monkeypatch):
    """Ctrl-C while the third spec renders: the files staged for the first two are removed, every file
    of the previous build is as it was, and the manifest is the previous one."""
    import mechdiagram.site.build as build_module

    specs = tmp_path / "specs"
    specs.mkdir()
    for i in range(4):
        (specs / f"spec{i}.mechanism.json").write_text(json.dumps(_spec(f"spec{i} first")))
    assert _build(tmp_path, "-j", "1").exit_code == 0
    before = _snapshot(tmp_path / "out")
    for i in range(4):
        (specs / f"spec{i}.mechanism.json").write_text(json.dumps(_spec(f"spec{i} second")))
    real, calls = build_module.process, []

    def interrupted(path, options, project=None):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(path, options, project)

    monkeypatch.setattr(build_module, "process", interrupted)
    result = _build(tmp_path, "-j", "1")
    assert result.exit_code == 1 and "Aborted!" in result.output  # click's answer to KeyboardInterrupt
    assert len(calls) == 3
    assert _snapshot(tmp_path / "out") == before
    assert leftovers(tmp_path / "out") == []


@pytest.mark.slow  # worker processes
def test_an_interrupted_parallel_build_stops_its_workers_and_leaves_no_staged_file(tmp_path, monkeypatch):
    """Ctrl-C while the results of a parallel build come in: the workers are ended at once, so none stages a
    file after the build has removed the temporary files (a second Ctrl-C used to leave the pool running)."""
    import multiprocessing
    import time

    import mechdiagram.site.build as build_module

    specs = tmp_path / "specs"
    specs.mkdir()
    for i in range(40):
        (specs / f"spec{i:02d}.mechanism.json").write_text(json.dumps(_spec(f"spec{i} first")))
    real, calls = build_module._stage, []

    def interrupted(staging, result):
        calls.append(result)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(staging, result)

    monkeypatch.setattr(build_module, "_stage", interrupted)
    result = _build(tmp_path, "-j", "2")
    assert result.exit_code == 1 and "Aborted!" in result.output
    assert multiprocessing.active_children() == []
    time.sleep(0.5)  # a worker left running would stage its next spec's files meanwhile
    assert leftovers(tmp_path / "out") == []
    assert not (tmp_path / "out" / "manifest.json").exists()


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_a_symbolic_link_among_the_outputs_is_replaced_never_written_through(tmp_path, jobs):
    """An output file that is a symbolic link is replaced by a regular file with a warning naming it; the file
    the link led to keeps its bytes, in a serial build and when workers stage the files."""
    specs = tmp_path / "specs"
    specs.mkdir()
    for i in range(10):
        (specs / f"spec{i}.mechanism.json").write_text(json.dumps(_spec(f"spec{i}")))
    assert _build(tmp_path, "-j", jobs).exit_code == 0
    elsewhere = tmp_path / "site"
    elsewhere.mkdir()
    link = tmp_path / "out" / "spec3.html"
    (elsewhere / "spec3.html").write_bytes(b"an older page")
    link.unlink()
    link.symlink_to(elsewhere / "spec3.html")
    result = _build(tmp_path, "-j", jobs, "--force")
    assert result.exit_code == 0, result.output
    assert not link.is_symlink() and b"spec3" in link.read_bytes()
    assert (elsewhere / "spec3.html").read_bytes() == b"an older page"
    assert "out/spec3.html: warning: was a symbolic link" in result.output, result.output
    assert leftovers(tmp_path / "out") == [] and leftovers(elsewhere) == []


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_a_spec_whose_output_names_are_near_the_file_name_limit_builds(tmp_path, jobs):
    """Temporary files are named after their output, shortened where that would pass 255 bytes: a spec whose
    longest output name (NAME.SCENARIO.poster.dark.svg) is 240 characters builds, with workers too."""
    specs = tmp_path / "specs"
    specs.mkdir()
    for i in range(9):
        (specs / f"spec{i}.mechanism.json").write_text(json.dumps(_spec(f"spec{i}")))
    scenario = minimal_spec()["scenarios"][0]["id"]
    stem = "l" * (240 - len(f".{scenario}.poster.dark.svg"))
    (specs / f"{stem}.mechanism.json").write_text(json.dumps(_spec("long")))
    result = _build(tmp_path, "-j", jobs)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / f"{stem}.{scenario}.poster.dark.svg").is_file()
    assert leftovers(tmp_path / "out") == []
