"""Build: deterministic bytes, the manifest, validate writes nothing, check detects stale output,
and a failing spec beside a good one."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.reference_spec import dumps, reference_spec, write_reference, write_sources

from renderer.build import execute
from renderer.cli import main
from renderer.config import Options


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder (the working directory) with the reference spec and its sources."""
    root = tmp_path / "project"
    write_reference(root / "specs", "reference")
    monkeypatch.chdir(root)
    return root


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


EXPECTED_FILES = ["manifest.json", "reference.fragment.html", "reference.html",
                  "reference.one-request.poster.svg", "reference.one-request.svg"]


def test_build_writes_the_expected_files(project):
    result = cli("build", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert sorted(snapshot(project / "out")) == EXPECTED_FILES
    assert result.stderr.strip().splitlines()[-1] == (
        "mechdiagram: 1 of 1 spec(s) built into out/ (5 file(s) written, 0 unchanged)")


def test_two_builds_are_byte_identical(project):
    assert cli("build", "specs", "-o", "one", "--source-root", "specs").exit_code == 0
    assert cli("build", "specs", "-o", "two", "--source-root", "specs").exit_code == 0
    one, two = snapshot(project / "one"), snapshot(project / "two")
    assert sorted(one) == EXPECTED_FILES
    assert one == two  # every byte of every file
    # rebuilding in place changes nothing and says so
    again = cli("build", "specs", "-o", "one", "--source-root", "specs")
    assert again.exit_code == 0
    assert "(0 file(s) written, 5 unchanged)" in again.stderr
    assert snapshot(project / "one") == one


def test_build_does_not_depend_on_the_working_directory_or_spec_path_form(project, monkeypatch):
    assert cli("build", "specs", "-o", "one", "--source-root", "specs").exit_code == 0
    monkeypatch.chdir(project / "specs")
    assert cli("build", ".", "-o", "../two", "--source-root", ".").exit_code == 0
    one, two = snapshot(project / "one"), snapshot(project / "two")
    assert {k: v for k, v in one.items() if k != "manifest.json"} == \
        {k: v for k, v in two.items() if k != "manifest.json"}


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
    assert len(snapshot(tmp_path / "serial")) == 9 * 4 + 1


def test_manifest_lists_spec_outputs_and_sources(project):
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
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
    result = cli("build", "specs", "-o", "out", "--source-root", "specs", "--allow-missing-sources")
    assert result.exit_code == 0, result.output
    entry = json.loads((project / "out" / "manifest.json").read_text("utf-8"))["specs"][0]
    assert [s["status"] for s in entry["sources"]] == ["unverified", "unverified", "unpinned"]
    assert "warning: /sources/0/path: source notes/article.md was not found under the source root (specs)" in result.stderr


def test_validate_writes_nothing(project):
    before = snapshot(project)
    result = cli("validate", "specs", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines() == [
        "specs/reference.mechanism.json:20:15: warning: /sources/2/path: source notes/provenance.json has no "
        "sha256, so it is not verified [source-unpinned]",
        "mechdiagram: 1 of 1 spec(s) valid"]
    assert snapshot(project) == before
    assert not (project / "output").exists()


def test_check_passes_right_after_build(project):
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    result = cli("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines()[-1] == "mechdiagram: 1 of 1 spec(s) valid; out/ is up to date"
    assert "error" not in result.stderr


@pytest.mark.parametrize("name", ["reference.one-request.svg", "reference.html", "manifest.json"])
def test_check_fails_after_an_output_is_edited(project, name):
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    path = project / "out" / name
    data = path.read_bytes()
    middle = len(data) // 2
    path.write_bytes(data[:middle] + b" " + data[middle:])  # one space more
    result = cli("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    stale = [line for line in lines if "[stale-output]" in line]
    assert stale == [f"out/{name}: error: differs from a fresh build: run mechdiagram build [stale-output]"]
    assert lines[-1] == "mechdiagram: 1 of 1 spec(s) valid; 1 output file(s) stale"


def test_check_fails_after_an_output_is_deleted(project):
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    (project / "out" / "reference.one-request.poster.svg").unlink()
    result = cli("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert "out/reference.one-request.poster.svg: error: missing: run mechdiagram build [stale-output]" in \
        result.stderr.splitlines()


def test_check_fails_when_the_spec_changed_since_the_build(project):
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
    spec_path = project / "specs" / "reference.mechanism.json"
    data = json.loads(spec_path.read_text("utf-8"))
    data["caption"] = "A new caption."
    spec_path.write_text(dumps(data), "utf-8")
    result = cli("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    stale = sorted(line.split(":")[0] for line in result.stderr.splitlines() if "[stale-output]" in line)
    assert stale == ["out/manifest.json", "out/reference.fragment.html", "out/reference.html"]


def test_check_never_writes(project):
    result = cli("check", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert not (project / "out").exists()


def test_a_failing_spec_beside_a_good_one(project):
    good = project / "specs" / "reference.mechanism.json"
    bad = project / "specs" / "broken.mechanism.json"
    data = reference_spec()
    data["title"] = "The second figure"
    write_sources(project / "specs", data)
    bad.write_text(dumps(data), "utf-8")
    assert cli("build", "specs", "-o", "out", "--source-root", "specs").exit_code == 0
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

    result = cli("build", "specs", "-o", "out", "--source-root", "specs")
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
    assert len(first_times) == 4
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
    result = cli("build", "specs", "-o", "out", "--source-root", "specs")
    assert result.exit_code == 1
    assert sorted(snapshot(project / "out")) == EXPECTED_FILES
    assert "specs/broken.mechanism.json:1:3: error: invalid JSON: Expecting property name enclosed in double " \
           "quotes [json-syntax]" in result.stderr.splitlines()


def test_execute_report(project):
    report = execute(Options(mode="validate", specs=[Path("specs")], output=Path("out"), source_root=Path("specs")))
    assert report.exit_code == 0 and report.failed_specs == 0
    assert [r.slug for r in report.results] == ["reference"]
    assert report.results[0].outputs == {}  # validate renders nothing
    report = execute(Options(mode="build", specs=[Path("specs")], output=Path("out"), source_root=Path("specs")))
    assert sorted(report.written) == EXPECTED_FILES and report.unchanged == []


def test_retired_outputs_are_deleted_by_build_and_reported_by_check(tmp_path, monkeypatch):
    """A renamed scenario or a deleted spec leaves no orphaned output; files we never wrote stay."""
    import json as _json

    from click.testing import CliRunner

    from renderer.cli import main
    from support.specs import minimal_spec

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    specs = tmp_path / "mechanisms"
    specs.mkdir()
    first, second = minimal_spec(), minimal_spec()
    (specs / "one.mechanism.json").write_text(_json.dumps(first), "utf-8")
    (specs / "two.mechanism.json").write_text(_json.dumps(second), "utf-8")
    out = tmp_path / "output"
    out.mkdir()
    (out / "blog-asset.png").write_bytes(b"not ours")
    runner = CliRunner()
    assert runner.invoke(main, ["build"]).exit_code == 0
    assert (out / "one.main.svg").is_file() and (out / "two.main.svg").is_file()

    first["scenarios"][0]["id"] = "renamed"
    (specs / "one.mechanism.json").write_text(_json.dumps(first), "utf-8")
    (specs / "two.mechanism.json").unlink()
    checked = runner.invoke(main, ["check"])
    assert checked.exit_code == 1
    assert "output/one.main.svg: error: no longer produced by mechanisms/one.mechanism.json" in checked.stderr
    assert "output/two.main.svg: error: its spec mechanisms/two.mechanism.json no longer exists" in checked.stderr

    built = runner.invoke(main, ["build"])
    assert built.exit_code == 0, built.stderr
    assert "retired file(s) deleted" in built.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["blog-asset.png", "manifest.json", "one.fragment.html", "one.html",
                     "one.renamed.poster.svg", "one.renamed.svg"]
    manifest = _json.loads((out / "manifest.json").read_text("utf-8"))
    assert [entry["spec"] for entry in manifest["specs"]] == ["../mechanisms/one.mechanism.json"]
    assert runner.invoke(main, ["check"]).exit_code == 0


def test_manifest_keys_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    import json as _json

    from click.testing import CliRunner

    from renderer.cli import main
    from support.specs import minimal_spec

    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\noutput = \"output\"\n", "utf-8")
    specs = tmp_path / "mechanisms"
    specs.mkdir()
    (specs / "one.mechanism.json").write_text(_json.dumps(minimal_spec()), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build", "mechanisms"]).exit_code == 0
    before = (tmp_path / "output" / "manifest.json").read_bytes()
    monkeypatch.chdir(specs)
    result = CliRunner().invoke(main, ["check", "."])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "output" / "manifest.json").read_bytes() == before


def _two_specs(root):
    import json as _json

    from support.specs import minimal_spec

    specs = root / "mechanisms"
    specs.mkdir()
    for name in ("a", "b"):
        (specs / f"{name}.mechanism.json").write_text(_json.dumps(minimal_spec()), "utf-8")
    return specs


def test_a_build_from_another_folder_deletes_nothing(tmp_path, monkeypatch):
    """Without a pyproject.toml the manifest keys follow the working folder; a spec that only looks
    missing from elsewhere must not have its output deleted."""
    from click.testing import CliRunner

    from renderer.cli import main

    specs = _two_specs(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build"]).exit_code == 0
    before = sorted(p.name for p in (tmp_path / "output").iterdir())
    monkeypatch.chdir(specs)
    result = CliRunner().invoke(main, ["build", "a.mechanism.json", "-o", "../output"])
    assert result.exit_code == 0, result.stderr
    assert "deleted" not in result.stderr
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == before


def test_build_never_deletes_a_file_it_did_not_write_as_recorded(tmp_path, monkeypatch):
    """A hand-edited manifest naming a site file, or an output someone edited, is not deleted."""
    import json as _json

    from click.testing import CliRunner

    from renderer.cli import main

    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    specs = _two_specs(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build"]).exit_code == 0
    out = tmp_path / "output"
    (out / "index.html").write_text("<p>the site</p>", "utf-8")
    manifest = _json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["specs"].append({"spec": "mechanisms/gone.mechanism.json",
                              "outputs": [{"path": "index.html", "sha256": "0" * 64}]})
    (out / "manifest.json").write_text(_json.dumps(manifest), "utf-8")
    (out / "b.main.svg").write_text("<svg/>", "utf-8")  # edited by hand
    (specs / "b.mechanism.json").unlink()
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.stderr
    assert (out / "index.html").read_text("utf-8") == "<p>the site</p>"
    assert (out / "b.main.svg").read_text("utf-8") == "<svg/>"
    assert not (out / "b.html").exists()  # unedited output of the deleted spec is retired


def test_two_runs_cannot_overwrite_each_others_same_named_output(tmp_path, monkeypatch):
    import json as _json

    from click.testing import CliRunner

    from renderer.cli import main
    from support.specs import minimal_spec

    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    for folder, title in (("a", "First"), ("b", "Second")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.mechanism.json").write_text(_json.dumps(dict(minimal_spec(), title=title)), "utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["build", "a", "-o", "out"]).exit_code == 0
    first = (tmp_path / "out" / "x.html").read_bytes()
    result = runner.invoke(main, ["build", "b", "-o", "out"])
    assert result.exit_code == 1
    assert ("b/x.mechanism.json: error: writes x.fragment.html, which manifest.json records as the output of "
            "a/x.mechanism.json; rename one of the specs [output-collision]") in result.stderr
    assert (tmp_path / "out" / "x.html").read_bytes() == first


def test_concurrent_builds_into_one_folder_keep_both_manifest_entries(tmp_path):
    import json as _json
    import subprocess
    import sys

    from support.specs import minimal_spec

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.mechanism.json").write_text(_json.dumps(minimal_spec()), "utf-8")
    for attempt in range(3):
        runs = [subprocess.Popen([sys.executable, "-m", "renderer", "build", name, "-o", f"out{attempt}"],
                                 cwd=tmp_path, stderr=subprocess.PIPE) for name in ("a", "b")]
        assert [run.wait(timeout=60) for run in runs] == [0, 0]
        manifest = _json.loads((tmp_path / f"out{attempt}" / "manifest.json").read_text("utf-8"))
        assert sorted(entry["spec"] for entry in manifest["specs"]) == ["../a/a.mechanism.json", "../b/b.mechanism.json"]


def test_an_output_path_that_is_a_file_is_a_usage_error(tmp_path, monkeypatch):
    import json as _json

    from click.testing import CliRunner

    from renderer.cli import main
    from support.specs import minimal_spec

    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mechanism.json").write_text(_json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "taken").write_text("a file", "utf-8")
    result = CliRunner().invoke(main, ["build", "x.mechanism.json", "-o", "taken"])
    assert result.exit_code == 2 and "'taken' is a file" in result.stderr
