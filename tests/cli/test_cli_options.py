"""Options from pyproject.toml: a wrong ``[tool.mechdiagram]`` table is a clean error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from renderer.cli import main


@pytest.mark.parametrize("toml, message", [
    ("[tool.mechdiagram]\nspecs = [1]\n", "[tool.mechdiagram] specs must be a list of strings"),
    ("[tool]\nmechdiagram = 5\n", "[tool.mechdiagram] must be a table"),
    ('[tool.mechdiagram]\noutput = "\\u0000x"\n', "[tool.mechdiagram] output holds a NUL character"),
])
def test_a_wrong_pyproject_table_is_a_clean_error(tmp_path, monkeypatch, toml, message):
    (tmp_path / "pyproject.toml").write_text(toml, "utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate"])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: pyproject.toml: {message}"
