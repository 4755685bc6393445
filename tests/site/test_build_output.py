"""Build: the expected files, deterministic bytes (twice, from another folder, in worker processes),
the execute() report, and a spec at the limits rendered in reasonable time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechdiagram.render.outputs import formats
from mechdiagram.shared.config import Options
from mechdiagram.site.build import execute
from support.cli import invoke, run_subprocess
from support.outputs import EXPECTED_FILES, snapshot
from support.reference_spec import reference_spec, write_reference
from support.specs import big_spec


def test_build_writes_the_expected_files(project):
    result = invoke("build", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert sorted(snapshot(project / "out")) == EXPECTED_FILES
    assert result.stderr.strip().splitlines()[-1] == (
        "mechdiagram: 1 of 1 spec(s) built into out/ (14 file(s) written, 0 unchanged)")


def test_two_builds_are_byte_identical(project):
    assert invoke("build", "specs", "-o", "one", "--source-root", "specs").exit_code == 0
    assert invoke("build", "specs", "-o", "two", "--source-root", "specs").exit_code == 0
    one, two = snapshot(project / "one"), snapshot(project / "two")
    assert sorted(one) == EXPECTED_FILES
    assert one == two  # every byte of every file
    # rebuilding in place changes nothing and says so
    again = invoke("build", "specs", "-o", "one", "--source-root", "specs")
    assert again.exit_code == 0
    assert "(0 file(s) written, 14 unchanged)" in again.stderr
    assert snapshot(project / "one") == one


def test_build_does_not_depend_on_the_working_directory_or_spec_path_form(project, monkeypatch):
    assert invoke("build", "specs", "-o", "one", "--source-root", "specs").exit_code == 0
    monkeypatch.chdir(project / "specs")
    assert invoke("build", ".", "-o", "../two", "--source-root", ".").exit_code == 0
    one, two = snapshot(project / "one"), snapshot(project / "two")
    assert {k: v for k, v in one.items() if k != "manifest.json"} == \
        {k: v for k, v in two.items() if k != "manifest.json"}


@pytest.mark.slow  # worker processes
def test_parallel_and_serial_builds_are_identical(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for n in range(9):
        data = reference_spec()
        data["title"] = f"Reference number {n}"
        write_reference(tmp_path / "specs", f"ref{n}", spec=data)
    serial = execute(Options(mode="build", specs=[Path("specs")], output=Path("serial"),
                             source_root=Path("specs"), jobs=1))
    parallel = execute(Options(mode="build", specs=[Path("specs")], output=Path("parallel"),
                               source_root=Path("specs"), jobs=2))
    assert serial.exit_code == parallel.exit_code == 0
    assert snapshot(tmp_path / "serial") == snapshot(tmp_path / "parallel")
    # The workers staged the files (only temporary names came back), the parent renamed them into place.
    assert all(r.staged and set(r.staged) == set(r.outputs) for r in parallel.results)
    assert not [p.name for p in (tmp_path / "parallel").iterdir() if p.name.startswith(".")]
    again = execute(Options(mode="build", specs=[Path("specs")], output=Path("parallel"),
                            source_root=Path("specs"), jobs=2, force=True))
    assert again.written == [] and len(again.unchanged) == len(parallel.written)  # same bytes: nothing staged
    assert all(set(r.staged.values()) == {None} for r in again.results)
    per_spec = len([fmt for fmt in formats() if not fmt.optional])  # one scenario: a file per default format
    assert len(snapshot(tmp_path / "serial")) == 9 * per_spec + 4  # and index.html, manifest.json and the player


def test_execute_report(project):
    report = execute(Options(mode="validate", specs=[Path("specs")], output=Path("out"), source_root=Path("specs")))
    assert report.exit_code == 0 and report.failed_specs == 0
    assert [r.slug for r in report.results] == ["reference"]
    assert report.results[0].outputs == {}  # validate renders nothing
    report = execute(Options(mode="build", specs=[Path("specs")], output=Path("out"), source_root=Path("specs")))
    assert sorted(report.written) == EXPECTED_FILES and report.unchanged == []


@pytest.mark.slow  # a subprocess rendering 4 large scenarios (its time and memory: bench/bench_limits.py)
def test_a_spec_at_the_limits_renders(tmp_path):
    path = tmp_path / "big.mechanism.json"
    path.write_text(json.dumps(big_spec(1000, 4, 500, 10)))
    result, _ = run_subprocess("build", "--source-root", ".", "-o", "out", path.name, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    svgs = [fmt for fmt in formats() if not fmt.optional and fmt.pattern.endswith(".svg")]
    assert len(list((tmp_path / "out").glob("big.*.svg"))) == 4 * len(svgs)  # 4 scenarios
