"""Which spec files a folder holds: sorted, searched below, links to folders not followed, and a subfolder
that cannot be listed named in a warning instead of passed over in silence."""

from __future__ import annotations

import json
import os

import pytest

from mechdiagram.spec.discovery import discover
from support.cli import invoke
from support.specs import minimal_spec


def _spec(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(minimal_spec(), indent=2), "utf-8")


@pytest.fixture
def locked(monkeypatch):
    """``locked()``: from the call on, a folder named ``locked`` can be neither listed nor searched, as chmod 000
    makes it for anyone but root (the tests run as root in CI); ``locked(listing=False)``: it can be listed but
    not searched (chmod 444)."""
    real_scandir, real_stat = os.scandir, os.stat

    def deny(listing: bool = True) -> None:
        def scandir(path="."):
            if os.fspath(path).endswith("locked"):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real_scandir(path)

        def stat(path, *args, **kwargs):
            if f"{os.sep}locked{os.sep}" in os.fspath(path):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real_stat(path, *args, **kwargs)

        if listing:
            monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(os, "stat", stat)
    return deny


def _project(root):
    """A project (``.git``) with ``specs/good.mechanism.json`` and ``specs/locked/hidden.mechanism.json``."""
    (root / ".git").mkdir()
    _spec(root / "specs" / "good.mechanism.json")
    _spec(root / "specs" / "locked" / "hidden.mechanism.json")


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


def test_an_unreadable_subfolder_is_a_warning_and_the_rest_still_validates(tmp_path, monkeypatch, locked):
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    locked()
    result = invoke("validate", "specs", "--format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["findings"] == [{
        "file": "specs/locked", "line": None, "column": None, "pointer": None, "rule": "unreadable-folder",
        "severity": "warning",
        "message": "cannot read this folder (Permission denied); the specs in it, if any, are left out"}]
    assert document["summary"]["message"] == "1 of 1 spec(s) valid"


def test_build_and_check_with_a_folder_locked_since_the_last_build(tmp_path, monkeypatch, locked):
    """The locked spec's files and manifest entry stay (its spec may still be there), the others are built and
    checked, and the warning is said once however often the folder is named."""
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    assert invoke("build", "specs", "-o", "out").exit_code == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert "hidden.html" in before
    locked()
    warning = ("specs/locked: warning: cannot read this folder (Permission denied); the specs in it, if any, are "
               "left out [unreadable-folder]")
    built = invoke("build", "specs", "specs/", "-o", "out")
    assert built.exit_code == 0, built.stderr
    assert built.stderr.splitlines().count(warning) == 1, built.stderr
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert {name: data for name, data in after.items() if name.startswith("hidden.")} == \
        {name: data for name, data in before.items() if name.startswith("hidden.")}
    manifest = json.loads(after["manifest.json"])
    assert "../specs/locked/hidden.mechanism.json" in [entry["spec"] for entry in manifest["specs"]]
    checked = invoke("check", "specs", "-o", "out")
    assert checked.exit_code == 0 and warning in checked.stderr.splitlines(), checked.stderr


def test_a_folder_that_can_be_listed_but_not_searched(tmp_path, monkeypatch, locked):
    """Its names are known but not what they are: the same warning, and no error."""
    monkeypatch.chdir(tmp_path)
    _project(tmp_path)
    locked(listing=False)
    found: list = []
    assert discover([tmp_path / "specs"], found) == [tmp_path / "specs" / "good.mechanism.json"]
    assert [(f.file, f.rule, f.severity) for f in found] == [("specs/locked", "unreadable-folder", "warning")]


def test_only_a_locked_folder_is_a_usage_error_that_names_it(tmp_path, monkeypatch, locked):
    monkeypatch.chdir(tmp_path)
    _spec(tmp_path / "only" / "locked" / "hidden.mechanism.json")
    locked()
    result = invoke("validate", "only")
    assert result.exit_code == 2
    assert ("no spec files (*.mechanism.json) in only; only/locked: cannot read this folder (Permission denied); "
            "the specs in it, if any, are left out") in result.stderr


@pytest.mark.parametrize("write", [False, True])
def test_the_preview_names_a_folder_it_cannot_read_once(tmp_path, monkeypatch, locked, write):
    """``serve`` shows an unreadable folder's warning among the build's findings (its page and terminal), whether
    it builds in memory or into an output folder, and previews the other specs."""
    from mechdiagram.serve.snapshot import build_snapshot
    from mechdiagram.shared.config import Options

    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    locked()
    snapshot = build_snapshot(Options(specs=[tmp_path / "specs"], output=tmp_path / "out", jobs=1), write=write)
    assert [(f.rule, f.severity) for f in snapshot.general] == [("unreadable-folder", "warning")]
    assert snapshot.general[0].file == "specs/locked"
    assert [spec.display for spec in snapshot.specs] == ["specs/good.mechanism.json"]
    assert not snapshot.specs[0].failed and snapshot.specs[0].fragment
