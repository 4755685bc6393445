"""Which spec files a folder holds: sorted, searched below, links to folders not followed, and a subfolder
that cannot be listed named in a warning instead of passed over in silence."""

from __future__ import annotations

import json
import os

from renderer.discovery import discover
from support.cli import invoke
from support.specs import minimal_spec


def _spec(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(minimal_spec(), indent=2), "utf-8")


def test_specs_below_a_folder_sorted_and_unique(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ["b.mechanism.json", "a/z.mechanism.json", "a.mechanism.json", "notes.json"]:
        _spec(tmp_path / "specs" / name)
    (tmp_path / "elsewhere").mkdir()
    _spec(tmp_path / "elsewhere" / "linked.mechanism.json")
    (tmp_path / "specs" / "link").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    found = discover([tmp_path / "specs", tmp_path / "specs" / "b.mechanism.json"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "specs/a/z.mechanism.json", "specs/a.mechanism.json", "specs/b.mechanism.json"]


def test_an_unreadable_subfolder_is_a_warning_and_the_rest_still_validates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    _spec(tmp_path / "specs" / "good.mechanism.json")
    _spec(tmp_path / "specs" / "locked" / "hidden.mechanism.json")
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path).endswith("locked"):  # as chmod 000 makes it for anyone but root
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = invoke("validate", "specs", "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["findings"] == [{
        "file": "specs/locked", "line": None, "column": None, "pointer": None, "rule": "unreadable-folder",
        "severity": "warning",
        "message": "cannot read folder specs/locked: Permission denied; the specs in it, if any, are left out"}]
    assert document["summary"]["message"] == "1 of 1 spec(s) valid"
