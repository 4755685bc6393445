"""What the preview watches: the spec folders (each folder below them too), the folders of spec files
and of declared sources, never more; and which changes start a build."""

from __future__ import annotations

import json
from pathlib import Path

from renderer.config import Options
from renderer.serve.snapshot import build_snapshot, is_relevant, watch_roots
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
