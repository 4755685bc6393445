"""Faults of the machine, not bugs: a folder that cannot be read or searched, a full standard output, a worker
killed, memory run out, a site template that includes a file it does not have.  Each ends with a located
message and exit status 1, never "internal error ... please report it"."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import run_cli
from support.specs import minimal_spec


def _denied(monkeypatch, function: str, module=os) -> Path:
    """Make ``module.function`` fail as an unsearchable folder does (EACCES, naming the path)."""
    real = getattr(module, function)

    def refuse(path, *args, **kwargs):
        if "locked" in os.fsdecode(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(module, function, refuse)
    return Path("locked")


def test_an_unreadable_folder_for_schema_is_a_located_error_not_an_internal_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "locked").mkdir()
    _denied(monkeypatch, "open")
    _denied(monkeypatch, "mkdir")
    result = run_cli("schema", "-o", "locked/inner/spec.schema.json")
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.stderr
    assert result.stderr.startswith("Error: cannot ") and "locked/inner" in result.stderr
    assert result.stderr.rstrip().endswith("Permission denied"), result.stderr


def test_an_os_error_about_a_named_file_becomes_a_file_system_error(tmp_path, monkeypatch):
    """Whatever command meets it: an OSError that names a file is the machine's fault, reported at the file."""
    from mechdiagram.cli import specs

    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")

    def unsearchable(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", "locked/out")

    monkeypatch.setattr(specs, "run_options", unsearchable)
    result = run_cli("build", "--source-root", ".", "-o", "locked/out", "--format", "json", "tiny.mechanism.json")
    assert result.exit_code == 1
    finding = json.loads(result.stdout)["findings"][0]
    assert (finding["file"], finding["rule"]) == ("locked/out", "file-system")
    assert finding["message"] == "cannot use locked/out: Permission denied"


def _console(args: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mechdiagram", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, **kwargs)


@pytest.mark.slow  # subprocesses
def test_a_full_standard_output_is_said_on_stderr(tmp_path):
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    with open("/dev/full", "w") as full:
        for args in (["validate", "--source-root", ".", "--format", "json", "tiny.mechanism.json"], ["schema"]):
            result = subprocess.run([sys.executable, "-m", "mechdiagram", *args], cwd=tmp_path, stdout=full,
                                    stderr=subprocess.PIPE, text=True, timeout=60)
            assert result.returncode == 1
            assert result.stderr.strip().splitlines() == [
                "Error: cannot write to standard output: No space left on device"], result.stderr


def test_running_out_of_memory_is_said_plainly(monkeypatch, capsys):
    from mechdiagram import cli

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "main", exhausted)
    with pytest.raises(SystemExit) as stopped:
        cli.run()
    assert stopped.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("mechdiagram: out of memory: ") and "internal error" not in err and "-j 1" in err


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_out_of_memory_in_a_command_is_reported_in_its_format(tmp_path, monkeypatch, fmt):
    """Out of memory while a command runs: exit 1 and one error in the format asked for (a JSON document, a
    GitHub annotation), which a tool reading standard output relies on."""
    from click.testing import CliRunner

    from mechdiagram.cli import main
    from mechdiagram.site import build

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "q"]).exit_code == 0
    monkeypatch.setattr(build, "execute", exhausted)
    result = CliRunner().invoke(main, ["validate", "q.mechanism.json", "--format", fmt])
    assert result.exit_code == 1 and "internal error" not in result.output + result.stderr
    if fmt == "json":
        document = json.loads(result.stdout)
        assert [(f["rule"], f["severity"]) for f in document["findings"]] == [("memory", "error")], document
        assert "-j 1" in document["findings"][0]["message"]
    elif fmt == "github":
        assert result.stdout.startswith("::error") and "out of memory" in result.stdout
    else:
        assert "Error: out of memory: " in result.stderr


def _killed_in_a_worker(*args, **kwargs):
    """A worker's work that ends the worker as the OOM killer would (SIGKILL)."""
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_killed_worker_is_a_worker_error(tmp_path, monkeypatch):
    """A worker killed mid-build (as the OOM killer does): the build stops with a ``worker`` error that says
    what to do, and writes nothing."""
    from mechdiagram.shared.config import Options
    from mechdiagram.shared.errors import WorkerError
    from mechdiagram.site import build

    monkeypatch.chdir(tmp_path)
    (tmp_path / "specs").mkdir()
    for k in range(build.PARALLEL_THRESHOLD):
        data = minimal_spec()
        data["title"] = f"Spec {k}"
        (tmp_path / "specs" / f"s{k}.mechanism.json").write_text(json.dumps(data), "utf-8")
    monkeypatch.setattr(build, "_process_lean", _killed_in_a_worker)
    with pytest.raises(WorkerError) as stopped:
        build.execute(Options(mode="build", specs=[Path("specs")], output=Path("out"), source_root=tmp_path, jobs=2))
    assert "worker process ended without finishing its specs" in stopped.value.message
    assert "-j 1" in stopped.value.message
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_a_site_template_that_includes_a_file_it_does_not_have_names_its_own_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    templates = tmp_path / "site-templates"
    templates.mkdir()
    (templates / "figure.html").write_text('{# a site template #}\n\n{% include "/etc/passwd" %}\n', "utf-8")
    result = run_cli("build", "--source-root", ".", "--template-dir", "site-templates", "-o", "out",
                     "tiny.mechanism.json")
    assert result.exit_code == 1
    assert "site-templates/figure.html:3: no template '/etc/passwd' in the template folder (while rendering " \
        "tiny.mechanism.json)" in result.stderr, result.stderr
    assert "root:" not in result.stderr


def test_a_link_that_leads_to_itself_is_a_file_system_error_or_replaced(tmp_path, monkeypatch):
    """Python 3.11 raises RuntimeError for a loop of links: as the output folder it is a located error; as an
    output file it is a link like any other (replaced, with the output-link warning); as the source root, each
    source says so."""
    from mechdiagram.api import render_spec

    monkeypatch.chdir(tmp_path)
    data = minimal_spec()
    data["sources"] = [{"path": "notes.md", "sha256": hashlib.sha256(b"notes").hexdigest()}]
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(data), "utf-8")
    (tmp_path / "notes.md").write_text("notes", "utf-8")
    (tmp_path / "loop").symlink_to("loop")
    result = run_cli("build", "--allow-missing-sources", "--source-root", ".", "-o", "loop", "tiny.mechanism.json")
    assert result.exit_code == 1 and "internal error" not in result.stderr
    assert "a symbolic link that leads back to itself" in result.stderr
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "tiny.html").symlink_to("tiny.html")
    result = run_cli("build", "--source-root", ".", "-o", "out", "tiny.mechanism.json")
    assert "[output-link]" in result.stderr and not (tmp_path / "out" / "tiny.html").is_symlink()
    rendered = render_spec("tiny.mechanism.json", source_root="loop")
    assert [f.message for f in rendered.findings if f.rule.startswith("source")] == [
        "source notes.md: the source root is a loop of symbolic links"]


@pytest.mark.slow  # a subprocess
def test_click_own_text_to_a_full_standard_output_is_said_on_stderr(tmp_path):
    with open("/dev/full", "w") as full:
        for args in (["--version"], ["--help"], ["validate", "--help"], ["validate", "nosuch", "--format", "json"]):
            result = subprocess.run([sys.executable, "-m", "mechdiagram", *args], cwd=tmp_path, stdout=full,
                                    stderr=subprocess.PIPE, text=True, timeout=60)
            assert result.returncode == 1, (args, result.stderr)
            assert result.stderr.strip().splitlines() == [
                "Error: cannot write to standard output: No space left on device"], (args, result.stderr)


def test_an_output_folder_that_cannot_be_made_is_named_as_the_output_folder(tmp_path, monkeypatch):
    """``-o`` under a folder no one can create in (``/proc``; here a file in the way): the error says it is the
    output folder that cannot be created, and why."""
    from click.testing import CliRunner

    from mechdiagram.cli import main

    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "q"]).exit_code == 0
    (tmp_path / "file").write_text("", "utf-8")
    result = CliRunner().invoke(main, ["build", "q.mechanism.json", "-o", "file/out"])
    assert result.exit_code == 1, result.output
    assert "Error: cannot create the output folder file/out: Not a directory" in result.stderr, result.stderr

