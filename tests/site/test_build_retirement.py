"""Retirement: a renamed scenario or a deleted spec leaves no orphaned output (``build`` deletes it,
``check`` reports it), and nothing else is deleted: not files we never wrote, not files edited since,
not outputs of a spec that only looks missing from another working folder."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mechdiagram.cli import main
from support.outputs import PLAYER_FILES
from support.specs import minimal_spec


def test_retired_outputs_are_deleted_by_build_and_reported_by_check(tmp_path, monkeypatch):
    """A renamed scenario or a deleted spec leaves no orphaned output; files we never wrote stay."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    specs = tmp_path / "mechanisms"
    specs.mkdir()
    first, second = minimal_spec(), minimal_spec()
    (specs / "one.mechanism.json").write_text(json.dumps(first), "utf-8")
    (specs / "two.mechanism.json").write_text(json.dumps(second), "utf-8")
    out = tmp_path / "output"
    out.mkdir()
    (out / "blog-asset.png").write_bytes(b"not ours")
    runner = CliRunner()
    assert runner.invoke(main, ["build"]).exit_code == 0
    assert (out / "one.main.svg").is_file() and (out / "two.main.svg").is_file()

    first["scenarios"][0]["id"] = "renamed"
    (specs / "one.mechanism.json").write_text(json.dumps(first), "utf-8")
    (specs / "two.mechanism.json").unlink()
    checked = runner.invoke(main, ["check"])
    assert checked.exit_code == 1
    assert "output/one.main.svg: error: no longer produced by mechanisms/one.mechanism.json" in checked.stderr
    assert "output/two.main.svg: error: its spec mechanisms/two.mechanism.json no longer exists" in checked.stderr

    built = runner.invoke(main, ["build"])
    assert built.exit_code == 0, built.stderr
    assert "retired file(s) deleted" in built.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["blog-asset.png", "index.html", "manifest.json", "one.fragment.html", "one.html",
                            "one.renamed.dark.svg", "one.renamed.narrow.dark.svg", "one.renamed.narrow.svg",
                            "one.renamed.narrow.poster.svg", "one.renamed.narrow.poster.dark.svg",
                            "one.renamed.poster.dark.svg", "one.renamed.poster.svg", "one.renamed.svg", *PLAYER_FILES])
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert [entry["spec"] for entry in manifest["specs"]] == ["../mechanisms/one.mechanism.json"]
    assert runner.invoke(main, ["check"]).exit_code == 0


def _two_specs(root):
    specs = root / "mechanisms"
    specs.mkdir()
    for name in ("a", "b"):
        (specs / f"{name}.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    return specs


def test_a_build_from_another_folder_deletes_nothing(tmp_path, monkeypatch):
    """Without a pyproject.toml the manifest keys follow the working folder; a spec that only looks
    missing from elsewhere must not have its output deleted."""
    specs = _two_specs(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build"]).exit_code == 0
    before = sorted(p.name for p in (tmp_path / "output").iterdir())
    monkeypatch.chdir(specs)
    result = CliRunner().invoke(main, ["build", "a.mechanism.json", "-o", "../output"])
    assert result.exit_code == 0, result.stderr
    assert "deleted" not in result.stderr
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == before


def test_build_never_deletes_a_file_it_did_not_write_as_recorded(tmp_path, monkeypatch):
    """A hand-edited manifest naming a site file, or an output someone edited, is not deleted."""
    (tmp_path / "pyproject.toml").write_text("[tool.mechdiagram]\n", "utf-8")
    specs = _two_specs(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["build"]).exit_code == 0
    out = tmp_path / "output"
    (out / "index.html").write_text("<p>the site</p>", "utf-8")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["specs"].append({"spec": "mechanisms/gone.mechanism.json",
                              "outputs": [{"path": "index.html", "sha256": "0" * 64}]})
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    (out / "b.main.svg").write_text("<svg/>", "utf-8")  # edited by hand
    (specs / "b.mechanism.json").unlink()
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code == 0, result.stderr
    assert (out / "index.html").read_text("utf-8") == "<p>the site</p>"
    assert (out / "b.main.svg").read_text("utf-8") == "<svg/>"
    assert not (out / "b.html").exists()  # unedited output of the deleted spec is retired
