"""What the preview watches: the spec folders (each folder below them too), the folders of spec files
and of declared sources, never more; and which changes start a build."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from mechdiagram.serve.snapshot import build_snapshot, is_relevant, watch_roots
from mechdiagram.serve.stamps import DiskStamp, disk_state
from mechdiagram.shared.config import Options
from support.specs import minimal_spec


def test_a_source_at_the_top_of_a_project_does_not_watch_the_whole_project(tmp_path: Path):
    for folder in (".venv/lib/site", ".git/objects", "specs/more", "output"):
        (tmp_path / folder).mkdir(parents=True)
    data = minimal_spec()
    data["sources"] = [{"path": "README.md", "description": "At the top."},
                       {"path": "../../etc/passwd", "description": "Refused: outside the source root."}]
    (tmp_path / "README.md").write_text("notes\n")
    (tmp_path / "specs" / "more" / "a.mechanism.json").write_text(json.dumps(data), "utf-8")
    snapshot = build_snapshot(Options(specs=[tmp_path / "specs"], source_root=tmp_path, jobs=1), write=False)
    assert snapshot.sources == {(tmp_path / "README.md").resolve()}
    roots = watch_roots([tmp_path / "specs"], snapshot.sources)
    assert roots == sorted(p.resolve() for p in (tmp_path, tmp_path / "specs", tmp_path / "specs" / "more"))


def test_a_spec_file_is_watched_through_its_folder(tmp_path: Path):
    spec = tmp_path / "a" / "x.mechanism.json"
    spec.parent.mkdir()
    spec.write_text("{}")
    assert watch_roots([spec], frozenset()) == [spec.parent.resolve()]


def test_which_changes_count(tmp_path: Path):
    specs = tmp_path / "specs"
    (specs / "sub").mkdir(parents=True)
    source = (tmp_path / "notes.md").resolve()
    single = tmp_path / "one.mechanism.json"
    given = [specs, single]
    base = specs.resolve()
    assert is_relevant(base / "sub" / "new.mechanism.json", given, frozenset())
    assert is_relevant(base / "sub", given, frozenset())  # a new folder: watch it too
    assert is_relevant(base / "gone", given, frozenset(), deleted=True)  # maybe a folder
    assert not is_relevant(base / "notes.txt", given, frozenset())
    assert not is_relevant(base / ".x.mechanism.json.swp", given, frozenset())
    assert is_relevant(single.resolve(), given, frozenset())
    assert not is_relevant((tmp_path / "two.mechanism.json").resolve(), given, frozenset())
    assert is_relevant(source, given, frozenset({source}))
    assert not is_relevant(source, given, frozenset())


def test_a_save_since_the_build_began_is_seen_on_disk(tmp_path: Path):
    specs = tmp_path / "specs"
    (specs / "sub").mkdir(parents=True)
    spec = (specs / "sub" / "a.mechanism.json").resolve()
    spec.write_text("{}")
    source = (tmp_path / "notes.md").resolve()
    source.write_text("v1")
    templates = tmp_path / "templates"
    (templates / "parts").mkdir(parents=True)
    part = (templates / "parts" / "x.html").resolve()
    part.write_text("one")

    def now(sources: frozenset[Path] = frozenset({source})) -> dict[Path, tuple[int, int]]:
        return disk_state([specs], frozenset({spec}), sources, templates)

    stamp = DiskStamp(now(), time.time_ns())
    assert set(stamp.state) == {spec, source, part}  # files only: no folder is compared
    assert not stamp.changed(now())
    (specs / ".a.mechanism.json.swp").write_text("x")  # an editor's swap file beside the spec
    (specs / ".a.mechanism.json.swp").unlink()
    assert not stamp.changed(now())

    def later(path: Path, text: str) -> None:  # a save, with a modification time after the build began
        path.write_text(text)
        os.utime(path, ns=(stamp.started + 10**9, stamp.started + 10**9))

    later(part, "two")  # a template in a folder below --template-dir
    assert stamp.changed(now())
    stamp = DiskStamp(now(), stamp.started)
    later(source, "v2")
    assert stamp.changed(now())
    source.unlink()
    assert stamp.changed(now())  # gone: (-1, -1)


def test_a_source_the_build_declared_counts_only_when_saved_after_the_build_began(tmp_path: Path):
    spec = tmp_path / "a.mechanism.json"
    spec.write_text("{}")
    old, new = (tmp_path / "old.md").resolve(), (tmp_path / "new.md").resolve()
    for path in (old, new):
        path.write_text("x")
    os.utime(old, ns=(10**18, 10**18))  # long before
    stamp = DiskStamp(disk_state([spec], frozenset(), frozenset()), 2 * 10**18)
    assert not stamp.changed(disk_state([spec], frozenset(), frozenset({old})))
    os.utime(new, ns=(2 * 10**18 + 1, 2 * 10**18 + 1))
    assert stamp.changed(disk_state([spec], frozenset(), frozenset({new})))
