"""Start-up: the stages are imported at the top of the modules that use them; only what a command truly never
uses stays out.  Structural checks, not timings (those are in bench/bench_startup.py): no command but serve
loads the preview server or its file watcher, and only the picture formats load the rasteriser's libraries
(resvg, Pillow), and validate neither the drawing nor the templates (svgwrite, jinja2); a command's own definition is loaded when it is named; the progress bar shows on a terminal
only."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from support.specs import MECHANISMS, ROOT

#: What a command that does not need it never loads: the preview server and its watcher, the rasteriser's libraries.
HEAVY = ("watchfiles", "http.server", "mechdiagram.serve", "resvg_py", "PIL")

#: Runs the CLI in a fresh interpreter, then prints which of the watched modules the command imported (those
#: loaded before it started do not count).
PROBE = """
import sys
before = set(sys.modules)
from mechdiagram.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
watched = {watched!r}
print("LOADED", ",".join(sorted(m for m in watched if m in sys.modules and m not in before)))
"""


def _loaded(*args: str, cwd: Path = ROOT, watched: tuple[str, ...] = HEAVY) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE.format(watched=watched), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)
    line = [x for x in done.stdout.splitlines() if x.startswith("LOADED")][-1]
    return set(filter(None, line.removeprefix("LOADED ").split(",")))


@pytest.mark.slow
def test_version_loads_neither_the_server_nor_the_rasteriser():
    assert _loaded("--version") == set()


#: The definitions of the commands other than build, validate and check.
OTHER_COMMANDS = ("mechdiagram.cli.authoring", "mechdiagram.cli.preview", "mechdiagram.cli.embedding")


@pytest.mark.slow
def test_a_command_loads_its_own_definition_alone():
    assert _loaded("--version", watched=(*OTHER_COMMANDS, "mechdiagram.cli.specs")) == set()
    assert _loaded("validate", str(MECHANISMS / "prefill-decode.mechanism.json"), watched=OTHER_COMMANDS) == set()
    assert _loaded("schema", watched=(*OTHER_COMMANDS, "mechdiagram.cli.specs")) == {"mechdiagram.cli.authoring"}


@pytest.mark.slow
def test_validating_and_building_load_neither_the_server_nor_the_rasteriser(tmp_path):
    spec = str(MECHANISMS / "prefill-decode.mechanism.json")
    assert _loaded("validate", spec) == set()
    assert _loaded("validate", spec, watched=("jinja2", "svgwrite")) == set()  # no drawing, no templates
    assert _loaded("build", spec, "-o", str(tmp_path / "out"), "--source-root", str(ROOT)) == set()


@pytest.mark.slow
def test_only_the_picture_formats_load_the_rasteriser(tmp_path):
    spec = str(MECHANISMS / "prefill-decode.mechanism.json")
    # PNG stills are resvg's alone (Pillow assembles the GIF)
    assert _loaded("build", spec, "-o", str(tmp_path / "out"), "--source-root", str(ROOT), "--png") == {"resvg_py"}


def _stderr_on_a_terminal(args: list[str], cwd: Path) -> str:
    """Run the CLI with stderr on a pseudo-terminal; returns what it wrote there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", "from mechdiagram.cli import run; run()", *args], cwd=cwd,
                               stdout=subprocess.DEVNULL, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_a_progress_bar_on_a_terminal_and_none_otherwise(tmp_path):
    args = ["build", str(MECHANISMS), "-o", str(tmp_path / "out"), "--source-root", str(ROOT), "--force"]
    on_terminal = _stderr_on_a_terminal(args, tmp_path)
    assert "Building" in on_terminal and "100%" in on_terminal
    piped = subprocess.run([sys.executable, "-c", "from mechdiagram.cli import run; run()", *args], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0
    assert "Building" not in piped.stderr and "%" not in piped.stderr
    as_json = _stderr_on_a_terminal([*args, "--format", "json"], tmp_path)
    assert "Building" not in as_json
