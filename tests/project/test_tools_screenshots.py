"""``tools/screenshots.py`` builds the specs it is given with their sources read as ``validate`` reads them: from
each spec's own project unless ``--source-root`` names a folder (a new user's drafts, outside the checkout, each
got a "not found under the source root" warning from the checkout's folder)."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "screenshots.py"


@pytest.fixture
def tool():
    spec = importlib.util.spec_from_file_location("screenshots_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("extra, expected", [([], None), (["--source-root", "elsewhere"], "elsewhere")])
def test_the_build_reads_sources_as_validate_does_unless_told(tool, monkeypatch, tmp_path, extra, expected):
    runs: list[list[str]] = []

    def run(command, check):
        runs.append(command)
        return subprocess.CompletedProcess(command, 3)  # the build failed: the tool stops there

    monkeypatch.setattr(tool.shutil, "which", lambda name: "/usr/bin/chromium")
    monkeypatch.setattr(tool.subprocess, "run", run)
    assert tool.main([str(tmp_path / "draft.mechanism.json"), "-o", str(tmp_path / "shots"), *extra]) == 3
    (command,) = runs
    assert command[1:4] == ["-m", "mechdiagram", "build"] and "--allow-missing-sources" in command
    if expected is None:
        assert "--source-root" not in command
    else:
        assert command[command.index("--source-root") + 1] == expected
