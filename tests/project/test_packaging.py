"""Packaging: the installed ``mechdiagram`` console script behaves as ``python -m mechdiagram`` and the
in-process CLI do (exit statuses, finding lines, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import LOCATED as LINE
from support.specs import position as where


def _console_script() -> str:
    """The console script pip installed beside this interpreter (``.venv/bin/mechdiagram``), not one on PATH."""
    script = Path(sys.executable).parent / ("mechdiagram.exe" if os.name == "nt" else "mechdiagram")
    assert script.is_file(), f"the mechdiagram console script is not installed beside {sys.executable}"
    return str(script)


@pytest.mark.slow  # subprocesses
def test_installed_console_script(broken):
    path, text = broken
    project = path.parent.parent
    script = _console_script()

    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([script, *args], cwd=project, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr + done.stdout
        return done

    good = run("validate", "specs", "--source-root", "specs")
    assert good.returncode == 0, good.stderr
    bad = run("validate", "bad", "--source-root", "specs")
    assert bad.returncode == 1
    lines = bad.stderr.strip().splitlines()
    assert all(LINE.match(line) for line in lines[:-1])
    assert f'bad/broken.mechanism.json:{where(text, chr(34) + "titel")[0]}:3: error: /titel: unknown key "titel"; ' \
           'did you mean "title"? [additionalProperties]' in lines
    usage = run("validate", "--bogus")
    assert usage.returncode == 2
    assert "No such option '--bogus'" in usage.stderr
    missing = run("build", "no-such-file.mechanism.json")
    assert missing.returncode == 2
    module = subprocess.run([sys.executable, "-m", "mechdiagram", "validate", "bad", "--source-root", "specs"],
                            cwd=project, capture_output=True, text=True, timeout=120)
    assert module.returncode == 1 and module.stderr == bad.stderr


def test_no_file_holds_a_merge_conflict_mark():
    """A hand-merged file keeps no ``<<<<<<<``/``>>>>>>>`` line (a README with them went unnoticed once)."""
    import re

    root = Path(__file__).resolve().parents[2]
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    marked = []
    for name in listed.stdout.splitlines():
        if name.startswith("output/") or not name.endswith((".py", ".md", ".json", ".js", ".css", ".html", ".toml")):
            continue
        text = (root / name).read_text("utf-8", errors="replace")
        if re.search(r"^(<<<<<<< |>>>>>>> )", text, flags=re.M):
            marked.append(name)
    assert marked == []
