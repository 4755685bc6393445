"""The release works away from the checkout, and a CRLF checkout keeps the pinned bytes."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "mechanisms" / "prefill-decode.mechanism.json"
NOTES = ROOT / "mechanisms" / "sources" / "prefill-decode-notes.md"

pytestmark = pytest.mark.slow


def _run(args: list[str | Path], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done


def _committed_outputs() -> dict[str, bytes]:
    """The committed output files of ``SPEC`` and the player's (``output/`` also holds the rest of the gallery)."""
    slug = SPEC.name.removesuffix(".mechanism.json")
    return {p.name: p.read_bytes() for p in (ROOT / "output").iterdir()
            if p.name.startswith((slug + ".", "mechdiagram-player."))}


def test_wheel_installs_into_a_fresh_environment_and_builds_a_spec(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", dist, ROOT], cwd=tmp_path)
    wheels = list(dist.glob("mechdiagram-*.whl"))
    assert len(wheels) == 1
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    # The package data every stage reads through importlib.resources travels in the wheel.
    assert not any("spec-format" in name or "/docs" in name for name in names)  # developers' tools stay out
    for data in ("mechdiagram/schema/mechanism.schema.json", "mechdiagram/schema/report.schema.json", "mechdiagram/layout/text_metrics.py",
                 "mechdiagram/static/player.js", "mechdiagram/templates/player.css", "mechdiagram/templates/page.html",
                 "mechdiagram/templates/fragment.html", "mechdiagram/templates/figure.html", "mechdiagram/templates/svg.css",
                 "mechdiagram/templates/svg-colours.css",
                 "mechdiagram/templates/new.mechanism.json", "mechdiagram/templates/new.sequence.mechanism.json",
                 "mechdiagram/templates/new.graph.mechanism.json",
                 "mechdiagram/templates/new.notes.md",
                 "mechdiagram/serve/server.py", "mechdiagram/static/reload.js", "mechdiagram/templates/serve_spec.html",
                 "mechdiagram/templates/serve.css",
                 "mechdiagram/templates/index.html", "mechdiagram/fonts/DejaVuSans.ttf", "mechdiagram/fonts/DejaVuSans-Bold.ttf",
                 "mechdiagram/fonts/DejaVuSansMono.ttf", "mechdiagram/fonts/DejaVuSansMono-Bold.ttf",
                 "mechdiagram/fonts/LICENSE-DejaVu.txt"):
        assert data in names, data
    assert not any(name.startswith("tests/") for name in names)

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    _run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheels[0]], cwd=tmp_path)

    # A project folder far from the checkout, holding a copy of our spec and its pinned source.
    project = tmp_path / "blog"
    (project / "mechanisms" / "sources").mkdir(parents=True)
    (project / ".git").mkdir()  # a repository: source paths are relative to its top folder
    shutil.copy(SPEC, project / "mechanisms" / SPEC.name)
    shutil.copy(NOTES, project / "mechanisms" / "sources" / NOTES.name)
    script = python.parent / ("mechdiagram.exe" if os.name == "nt" else "mechdiagram")
    # The installed package is what runs: nothing of the checkout is on its path.
    where = _run([python, "-c", "import mechdiagram; print(mechdiagram.__file__)"], cwd=project).stdout.strip()
    assert Path(where).is_relative_to(env_dir) and not Path(where).is_relative_to(ROOT)
    # The import package is named as the distribution: nothing called renderer is installed.
    absent = _run([python, "-c", "import importlib.util; print(importlib.util.find_spec('renderer'))"], cwd=project)
    assert absent.stdout.strip() == "None"
    built = _run([script, "build", "mechanisms", "-o", "assets"], cwd=project)
    assert "1 of 1 spec(s) built into assets/" in built.stderr
    # index.html lists the folder's specs: this folder holds one, output/ the whole gallery
    produced = {p.name: p.read_bytes() for p in (project / "assets").iterdir()
                if p.name not in ("manifest.json", "index.html")}
    assert produced == _committed_outputs()
    _run([script, "check", "mechanisms", "-o", "assets"], cwd=project)
    # `new` and `schema` work from the installed package data too.
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    _run([script, "schema", "-o", "schema/"], cwd=fresh)
    _run([script, "new", "queue", "--dir", "mechanisms"], cwd=fresh)
    assert '"$schema": "../schema/mechanism.schema.json"' in (fresh / "mechanisms" / "queue.mechanism.json").read_text()
    assert _run([script, "validate", "mechanisms"], cwd=fresh).stderr == "mechdiagram: 1 of 1 spec(s) valid\n"

    # The preview server runs from the installed package data too, and stops cleanly on Ctrl-C.
    server = subprocess.Popen([script, "serve", "mechanisms"], cwd=project, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"at http://127\.0\.0\.1:(\d+)/", server.stdout.readline()).group(1))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/preview/prefill-decode", timeout=30) as answer:
            preview = answer.read().decode("utf-8")
        assert "/__mechdiagram/reload.js" in preview and 'class="mech-root"' in preview
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    assert server.returncode == 0


def test_crlf_checkout_keeps_output_specs_and_sources_byte_identical(tmp_path):
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs a git checkout of the project")
    clone = tmp_path / "windows"
    _run(["git", "-c", "core.autocrlf=true", "clone", "--quiet", "--no-hardlinks", ROOT, clone], cwd=tmp_path)
    head = _run(["git", "rev-parse", "HEAD"], cwd=clone).stdout.strip()
    pinned = _run(["git", "ls-files", "output", "mechanisms"], cwd=clone).stdout.split()
    assert pinned, "nothing committed under output/ and mechanisms/"
    for name in pinned:
        committed = subprocess.run(["git", "show", f"{head}:{name}"], cwd=clone, capture_output=True,
                                   timeout=60, check=True).stdout
        assert (clone / name).read_bytes() == committed, name
    # Every other text file is checked out with LF too, so the checkout builds the same bytes.
    readme = (clone / "README.md").read_bytes()
    assert b"\r\n" not in readme
    done = subprocess.run([sys.executable, "-m", "mechdiagram", "check", "mechanisms", "-o", "output"], cwd=clone,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(clone / "renderer")})
    assert done.returncode == 0, done.stderr
    assert "output/ is up to date" in done.stderr
