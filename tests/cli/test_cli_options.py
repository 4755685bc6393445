"""Options from pyproject.toml: a wrong ``[tool.mechdiagram]`` table is a clean error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main


@pytest.mark.parametrize("toml, message", [
    ("[tool.mechdiagram]\nspecs = [1]\n", "[tool.mechdiagram] specs must be a list of strings"),
    ("[tool]\nmechdiagram = 5\n", "[tool.mechdiagram] must be a table"),
    ('[tool.mechdiagram]\noutput = "\\u0000x"\n', "[tool.mechdiagram] output holds a NUL character"),
    # validate checks the settings build and check read, though it writes no format
    ('[tool.mechdiagram]\nformats = ["svg", "bogus"]\n',
     "[tool.mechdiagram] formats has unknown format 'bogus'; known formats: svg, frames, png, gif, html"),
    # a colour-mode selector that would leave its :where() (a list, an unclosed bracket or quote), or end the rule
    *[(f"[tool.mechdiagram]\ndark-selectors = [{json.dumps(s)}]\n",
       f"[tool.mechdiagram] dark-selectors {s!r} is not a selector mechdiagram can write: use one selector an item, "
       "of ASCII type, class, id, attribute and pseudo-class selectors and combinators (html[data-mode=\"night\"] "
       "body), its brackets and quotes closed, without { } ; < & @ or a backslash")
      for s in ("html.x), *, :where(y", "html.x(", "html[data-x", 'html[data-x="y', "a, b", "a{b}", "</style>", "")],
    *[(f"[tool.mechdiagram]\nplayer-url = {json.dumps(u)}\n",
       f"[tool.mechdiagram] player-url {u!r} is not the URL of a folder: it holds a space, a quote, an angle "
       "bracket, a query or fragment (? #), or a control or invisible character")
      for u in ("https://cdn.example/p?v=1", "/x#y", "a\u200bb", "a b")],
])
def test_a_wrong_pyproject_table_is_a_clean_error(tmp_path, monkeypatch, toml, message):
    (tmp_path / "pyproject.toml").write_text(toml, "utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: pyproject.toml: {message}"


def test_schema_dash_prints_and_a_link_is_replaced_not_written_through(tmp_path, monkeypatch):
    """``schema -o -`` prints the schema; ``-o LINK`` replaces the link by a regular file with a warning and
    leaves the link's target as it was; a folder named by a link is resolved once and written into; a FIFO
    (neither a file nor missing) is refused with a message, not replaced by a file."""
    import os

    from mechdiagram.shared.assets import schema_text

    monkeypatch.chdir(tmp_path)
    printed = CliRunner().invoke(main, ["schema", "-o", "-"])
    assert printed.exit_code == 0 and printed.stdout == schema_text() and not (tmp_path / "-").exists()
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "s.json").write_text("old", "utf-8")
    (tmp_path / "link.json").symlink_to(tmp_path / "real" / "s.json")
    linked = CliRunner().invoke(main, ["schema", "-o", "link.json"])
    assert linked.exit_code == 0, linked.stderr
    assert not (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "link.json").read_text("utf-8") == schema_text()
    assert (tmp_path / "real" / "s.json").read_text("utf-8") == "old"
    assert "link.json: warning: was a symbolic link" in linked.stderr, linked.stderr
    (tmp_path / "schemas").symlink_to(tmp_path / "real", target_is_directory=True)
    into_folder = CliRunner().invoke(main, ["schema", "-o", "schemas/"])
    assert into_folder.exit_code == 0 and "warning" not in into_folder.stderr, into_folder.stderr
    assert (tmp_path / "real" / "mechanism.schema.json").read_text("utf-8") == schema_text()
    os.mkfifo(tmp_path / "pipe.json")
    refused = CliRunner().invoke(main, ["schema", "-o", "pipe.json"])
    assert refused.exit_code == 1 and "pipe.json: it is not a regular file" in refused.stderr, refused.stderr
    assert not (tmp_path / "pipe.json").is_file()


def test_a_template_that_is_not_utf8_is_a_one_line_error(tmp_path, monkeypatch):
    """A --template-dir template that is not UTF-8: exit 1, one line naming the file and the spec, no
    "internal error"."""
    (tmp_path / "tpl").mkdir()
    (tmp_path / "tpl" / "figure.html").write_bytes(b"\xff")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["new", "q"]).exit_code == 0
    result = CliRunner().invoke(main, ["build", "q.mechanism.json", "--template-dir", "tpl"])
    assert result.exit_code == 1
    assert "tpl/figure.html is not UTF-8" in result.stderr and "q.mechanism.json" in result.stderr, result.stderr
    assert "internal error" not in result.stderr


def test_selectors_and_player_url_of_the_project_reach_the_fragment(tmp_path, monkeypatch):
    from support.specs import minimal_spec

    (tmp_path / "pyproject.toml").write_text('[tool.mechdiagram]\nplayer-url = "/assets/figures"\n'
                                             'dark-selectors = [\'html[data-mode="night"]\', "body.x > .y:not(.a, .b)"]\n',
                                             "utf-8")
    (tmp_path / "q.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build", "q.mechanism.json", "-o", "out"]).exit_code == 0
    fragment = (tmp_path / "out" / "q.fragment.html").read_text("utf-8")
    sheet = next((tmp_path / "out").glob("mechdiagram-player.*.css"))
    assert f'href="/assets/figures/{sheet.name}"' in fragment
    assert (':where([data-md-color-scheme="slate"], [data-theme="dark"], html.dark, body.dark, html[data-mode="night"], '
            'body.x > .y:not(.a, .b)) :where(.mech-root){color-scheme:dark;') in sheet.read_text("utf-8")
    flag = CliRunner().invoke(main, ["build", "q.mechanism.json", "-o", "flag", "--player-url",
                                     "https://cdn.example/f/"])
    assert flag.exit_code == 0
    assert 'src="https://cdn.example/f/mechdiagram-player.' in (tmp_path / "flag" / "q.fragment.html").read_text("utf-8")
