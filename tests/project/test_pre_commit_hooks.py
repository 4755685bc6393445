"""``.pre-commit-hooks.yaml``: other repositories run mechdiagram from pre-commit.

The manifest is read with pre-commit's own loader (which checks it against pre-commit's schema); each
hook's ``entry`` then runs in a subprocess, with the file names pre-commit would pass, on a small
repository made under ``tmp_path``; and pre-commit itself runs the hooks there, as ``local`` hooks
with the same definitions (a ``python`` hook would have pre-commit install mechdiagram from a
remote, which a test does not do).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from identify.identify import tags_from_path
from pre_commit.clientlib import load_manifest

from support.specs import ROOT, minimal_spec, position

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
HOOKS = {hook["id"]: hook for hook in load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))}


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository using mechdiagram: a pinned spec in ``mechanisms/``, its source, its build in
    ``output/``, and a ``pyproject.toml`` saying where they are."""
    root = tmp_path / "repo"
    (root / "mechanisms").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "pyproject.toml").write_text('[tool.mechdiagram]\nspecs = ["mechanisms"]\noutput = "output"\n', "utf-8")
    (root / "notes.md").write_bytes(b"notes\n")
    data = minimal_spec()
    data["sources"] = [{"path": "notes.md", "sha256": hashlib.sha256(b"notes\n").hexdigest()}]
    (root / "mechanisms" / "good.mechanism.json").write_text(json.dumps(data, indent=2), "utf-8")
    (root / "README.md").write_text("not a spec\n", "utf-8")
    built = run_entry("mechdiagram build", [], root)
    assert built.returncode == 0, built.stderr
    return root


def run_entry(entry: str, filenames: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """A hook's entry with the file names appended, the way pre-commit runs it, from this environment."""
    command, *args = shlex.split(entry)
    assert command == "mechdiagram"
    return subprocess.run([str(BIN / command), *args, *filenames], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def selected(hook: dict, repo: Path) -> list[str]:
    """The tracked files pre-commit passes to ``hook`` on ``--all-files``: ``files``, ``exclude`` and ``types``."""
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    tracked = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True).stdout.split()
    return [name for name in tracked
            if re.search(hook["files"], name) and not re.search(hook["exclude"], name)
            and set(hook["types"]) <= tags_from_path(str(repo / name))]


def test_the_manifest_defines_both_hooks():
    assert set(HOOKS) == {"mechdiagram-validate", "mechdiagram-check"}
    assert HOOKS["mechdiagram-validate"]["entry"] == "mechdiagram validate"
    assert HOOKS["mechdiagram-validate"]["pass_filenames"] is True
    assert HOOKS["mechdiagram-check"]["entry"] == "mechdiagram check"
    assert HOOKS["mechdiagram-check"]["pass_filenames"] is False and HOOKS["mechdiagram-check"]["always_run"]
    assert all(hook["language"] == "python" for hook in HOOKS.values())


def test_validate_hook_entry_on_the_files_pre_commit_passes(repo):
    hook = HOOKS["mechdiagram-validate"]
    assert selected(hook, repo) == ["mechanisms/good.mechanism.json"]
    ok = run_entry(hook["entry"], selected(hook, repo), repo)
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr.splitlines()[-1] == "mechdiagram: 1 of 1 spec(s) valid"
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["active"] = ["t-a0"]
    text = json.dumps(data, indent=2)
    (repo / "mechanisms" / "bad.mechanism.json").write_text(text, "utf-8")
    line, column = position(text, '"t-a0"', 2)  # the first is the id itself
    files = selected(hook, repo)
    assert files == ["mechanisms/bad.mechanism.json", "mechanisms/good.mechanism.json"]
    bad = run_entry(hook["entry"], files, repo)
    assert bad.returncode == 1
    assert (f'mechanisms/bad.mechanism.json:{line}:{column}: error: /scenarios/0/steps/0/active/0: "t-a0" is not '
            'a target; it is the id of target "a0": write the key "a0" instead [unknown-target]') in bad.stderr.splitlines()


def test_check_hook_entry_fails_on_a_stale_output(repo):
    hook = HOOKS["mechdiagram-check"]
    ok = run_entry(hook["entry"], [], repo)
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr.splitlines()[-1] == "mechdiagram: 1 of 1 spec(s) valid; output/ is up to date"
    (repo / "output" / "good.html").write_text("edited by hand", "utf-8")
    stale = run_entry(hook["entry"], [], repo)
    assert stale.returncode == 1
    assert stale.stderr.splitlines()[0] == ("output/good.html: error: differs from a fresh build (output of "
                                            "mechanisms/good.mechanism.json): run mechdiagram build "
                                            "mechanisms/good.mechanism.json [stale-output]")


def test_pre_commit_runs_the_hooks(repo, tmp_path):
    local = []
    for hook in HOOKS.values():
        command, *args = shlex.split(hook["entry"])
        local.append({key: hook[key] for key in ("id", "name", "files", "types", "pass_filenames", "always_run",
                                                 "require_serial")}
                     | {"language": "system", "entry": shlex.join([str(BIN / command), *args])})
    config = {"repos": [{"repo": "local", "hooks": local}]}
    (repo / ".pre-commit-config.yaml").write_text(json.dumps(config), "utf-8")  # JSON is YAML
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "NO_COLOR": "1"}

    def pre_commit() -> subprocess.CompletedProcess:
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
        return subprocess.run([str(BIN / "pre-commit"), "run", "--all-files", "--color", "never"], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=300)

    passed = pre_commit()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"^mechdiagram validate\.+Passed$", passed.stdout, re.M)
    assert re.search(r"^mechdiagram check\.+Passed$", passed.stdout, re.M)
    (repo / "notes.md").write_bytes(b"notes, edited\n")
    failed = pre_commit()
    assert failed.returncode == 1
    assert re.search(r"^mechdiagram validate\.+Failed$", failed.stdout, re.M)
    assert "mechanisms/good.mechanism.json:" in failed.stdout and "[source-mismatch]" in failed.stdout
