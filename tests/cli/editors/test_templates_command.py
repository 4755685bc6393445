"""``mechdiagram templates -o DIR``: copies of the built-in templates to start a --template-dir from."""

from __future__ import annotations

import json

from mechdiagram.shared.assets import SITE_TEMPLATES
from support.cli import run_cli
from support.specs import ROOT, minimal_spec

PACKAGE_TEMPLATES = ROOT / "renderer" / "mechdiagram" / "templates"


def test_the_copies_are_the_built_in_templates_and_build_the_same_bytes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("templates", "-o", "site/templates")
    assert result.exit_code == 0, result.stderr
    copied = sorted(p.name for p in (tmp_path / "site" / "templates").iterdir())
    assert copied == sorted(SITE_TEMPLATES) == sorted(["page.html", "fragment.html", "figure.html", "player.css",
                                                       "svg.css", "svg-colours.css"])
    for name in copied:
        assert (tmp_path / "site" / "templates" / name).read_bytes() == (PACKAGE_TEMPLATES / name).read_bytes()
    assert result.stderr.endswith("build with --template-dir site/templates\n")
    (tmp_path / "tiny.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    assert run_cli("build", "tiny.mechanism.json", "-o", "plain", "--source-root", ".").exit_code == 0
    assert run_cli("build", "tiny.mechanism.json", "-o", "own", "--source-root", ".",
                   "--template-dir", "site/templates").exit_code == 0
    plain = {p.name: p.read_bytes() for p in (tmp_path / "plain").iterdir() if p.name != "manifest.json"}
    own = {p.name: p.read_bytes() for p in (tmp_path / "own").iterdir() if p.name != "manifest.json"}
    assert own == plain and len(plain) == 12  # unedited copies change nothing (10 files and the player's 2)


def test_named_templates_only_and_nothing_replaced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("templates", "figure.html", "player.css", "-o", "mine").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["figure.html", "player.css"]
    (tmp_path / "mine" / "figure.html").write_text("edited", "utf-8")
    again = run_cli("templates", "-o", "mine")
    assert again.exit_code == 2
    assert ("mine/figure.html, mine/player.css already exist: a template of your own is never replaced "
            "(move it away to copy the built-in one again)") in again.stderr
    assert (tmp_path / "mine" / "figure.html").read_text("utf-8") == "edited"
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["figure.html", "player.css"]  # none added


def test_an_unknown_name_is_refused_with_the_names_there_are(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("templates", "figure.html", "serve_base.html", "-o", "x")
    assert result.exit_code == 2
    assert ("not a template a site can replace: serve_base.html; the templates are page.html, fragment.html, "
            "figure.html, player.css, svg.css, svg-colours.css") in result.stderr
    assert not (tmp_path / "x").exists()


def test_a_link_where_a_copy_goes_is_named_as_the_link_and_left_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "page.html").symlink_to(tmp_path / "victim")  # a link to a file that is not there
    result = run_cli("templates", "page.html", "-o", "mine")
    assert result.exit_code == 2
    assert "mine/page.html already exists: a template of your own is never replaced" in result.stderr
    assert not (tmp_path / "victim").exists()
