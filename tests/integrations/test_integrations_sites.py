"""The MkDocs plugin and the Sphinx extension in real builds: strict mode fails on a bad spec's located warning,
``mkdocs serve`` watches each figure's spec and sources, the Sphinx directive warns at its own line (an error
under ``-W``), and an incremental Sphinx build reads a page again when its figure's source changed."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_integrations_markdown import project

from support.specs import position

pytestmark = pytest.mark.slow

MKDOCS_YML = "site_name: Figures\nuse_directory_urls: false\nplugins: [mechdiagram]\n"
FENCE = "```mechanism\n../specs/tiny.mechanism.json\n```\n"


def mkdocs_project(root: Path, page: str) -> Path:
    project(root)
    (root / "mkdocs.yml").write_text(MKDOCS_YML, "utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(page, "utf-8")
    return root


def test_mkdocs_strict_fails_on_a_bad_spec_naming_its_place(tmp_path):
    root = mkdocs_project(tmp_path, "# Home\n\n```mechanism\nspecs/tiny.mechanism.json\n```\n")
    spec_path = root / "specs" / "tiny.mechanism.json"
    good = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert good.returncode == 0, good.stderr
    assert (root / "site" / "assets" / "mechdiagram" / "tiny.main.svg").is_file()
    data = json.loads(spec_path.read_text("utf-8"))
    data["scenarios"][0]["steps"][0]["active"] = ["nosuch"]
    spec_path.write_text(json.dumps(data, indent=2), "utf-8")
    line, column = position(spec_path.read_text("utf-8"), '"nosuch"')
    bad = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert bad.returncode == 1
    assert f"specs/tiny.mechanism.json:{line}:{column}: error: /scenarios/0/steps/0/active/0:" in bad.stderr
    assert "(in index.md)" in bad.stderr and "Aborted with 1 warnings in strict mode" in bad.stdout + bad.stderr


class Server:
    """What ``mkdocs serve`` hands the plugin: its watcher, recording the paths."""

    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)


def test_mkdocs_serve_watches_each_figures_spec_and_sources_and_a_rebuild_redraws(tmp_path, monkeypatch):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    root = mkdocs_project(tmp_path, "# Home\n\n```mechanism\nspecs/tiny.mechanism.json\n```\n")
    (root / "docs" / "guide").mkdir()
    (root / "docs" / "guide" / "deep.md").write_text("# Deep\n\n```mechanism\nspecs/tiny.mechanism.json\n```\n", "utf-8")
    monkeypatch.chdir(root)
    config = load_config(str(root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    # Without a site_url, every page loads the player relative to itself, in its <head> and in its figures.
    for page, prefix in (("index.html", "assets/mechdiagram/"), ("guide/deep.html", "../assets/mechdiagram/")):
        text = (root / "site" / page).read_text("utf-8")
        assert text.count(f'<script type="module" src="{prefix}mechdiagram-player.') == 2, page  # head, figure
        assert text.index('<script type="module"') < text.index("</head>") < text.index("<mech-diagram")
    server = Server()
    config.plugins.on_serve(server, config=config, builder=None)
    assert sorted(server.watched) == sorted(str((root / name).resolve())
                                            for name in ("specs/tiny.mechanism.json", "notes.md"))
    spec_path = root / "specs" / "tiny.mechanism.json"
    data = json.loads(spec_path.read_text("utf-8"))
    data["title"] = "Tiny mechanism, retitled"
    spec_path.write_text(json.dumps(data, indent=2), "utf-8")
    config = load_config(str(root / "mkdocs.yml"))  # a rebuild, as serve's builder does it
    build(config)
    assert "Tiny mechanism, retitled" in (root / "site" / "index.html").read_text("utf-8")


RST = """Figures
=======

Before.

.. mechanism:: ../specs/tiny.mechanism.json
   :caption: The tiny figure.

After.
"""


def sphinx_project(root: Path, index: str = RST) -> Path:
    project(root)
    (root / "docs").mkdir()
    (root / "docs" / "conf.py").write_text('project = "Figures"\nextensions = ["myst_parser", "mechdiagram.sphinx"]\n',
                                           "utf-8")
    (root / "docs" / "index.rst").write_text(index, "utf-8")
    return root


def sphinx_build(root: Path):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    warnings = io.StringIO()
    with docutils_namespace():  # each build registers its nodes and directives afresh, as sphinx-build's would
        app = Sphinx(str(root / "docs"), str(root / "docs"), str(root / "out"), str(root / "out" / ".doctrees"),
                     "html", status=io.StringIO(), warning=warnings)
        app.build()
    return app, re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue())  # without the terminal's colours


def test_the_directive_puts_the_figure_its_caption_and_the_player_in_the_page(tmp_path):
    root = sphinx_project(tmp_path)
    app, warnings = sphinx_build(root)
    assert warnings == ""
    page = (root / "out" / "index.html").read_text("utf-8")
    assert page.count('<mech-diagram class="mech-root" id="mech-tiny"') == 1
    assert page.count('type="module" src="_static/mechdiagram/mechdiagram-player.') == 1  # the head's, alone
    assert '<figure class="mech-embed">\n<div class="mech-fragment">' in page  # not centred: no align-default class
    assert '<figcaption>\n<p><span class="caption-text">The tiny figure.</span>' in page
    assert (root / "out" / "_static" / "mechdiagram" / "tiny.main.svg").is_file()
    spec, notes = (str((root / name).resolve()) for name in ("specs/tiny.mechanism.json", "notes.md"))
    assert {spec, notes} <= {str(Path(app.srcdir, p).resolve()) for p in app.env.dependencies["index"]}


def test_a_bad_spec_warns_at_the_directives_line_and_fails_with_w(tmp_path):
    root = sphinx_project(tmp_path)
    spec_path = root / "specs" / "tiny.mechanism.json"
    data = json.loads(spec_path.read_text("utf-8"))
    data["scenarios"][0]["steps"][0]["active"] = ["nosuch"]
    spec_path.write_text(json.dumps(data, indent=2), "utf-8")
    line, column = position(spec_path.read_text("utf-8"), '"nosuch"')
    _, warnings = sphinx_build(root)
    [warning] = warnings.splitlines()
    assert warning.startswith(f"{root / 'docs' / 'index.rst'}:6: WARNING: mechdiagram: ")
    assert f"tiny.mechanism.json:{line}:{column}: error: /scenarios/0/steps/0/active/0:" in warning
    assert 'class="mech-findings"' in (root / "out" / "index.html").read_text("utf-8")
    (root / "docs" / "index.rst").write_text(RST.replace(".. mechanism::", "Not a figure::") + "\n.. toctree::\n\n   myst\n",
                                             "utf-8")
    (root / "docs" / "myst.md").write_text("# MyST\n\nText.\n\n```{mechanism} ../specs/tiny.mechanism.json\n```\n", "utf-8")
    _, warnings = sphinx_build(root)
    [warning] = warnings.splitlines()  # MyST's fence, through the same directive, at its own line
    assert warning.startswith(f"{root / 'docs' / 'myst.md'}:5: WARNING: mechdiagram: ")
    from sphinx.cmd.build import build_main
    from sphinx.util.docutils import docutils_namespace

    with docutils_namespace():
        assert build_main(["-W", "-q", "-E", str(root / "docs"), str(root / "out")]) == 1  # sphinx-build -W fails


def test_an_incremental_build_reads_the_page_again_when_a_source_changes(tmp_path):
    root = sphinx_project(tmp_path)
    sphinx_build(root)
    before = (root / "out" / "index.html").read_text("utf-8")
    assert "mech-source-verified" in before
    (root / "notes.md").write_text("Notes, edited after the first build.\n", "utf-8")
    sphinx_build(root)
    after = (root / "out" / "index.html").read_text("utf-8")
    assert "mech-source-verified" not in after and 'class="mech-findings"' in after
