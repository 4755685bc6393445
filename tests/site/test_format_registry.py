"""One registry of output formats: build writes, check compares and retirement deletes what it lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechdiagram.render import outputs
from mechdiagram.render.outputs import OutputFormat, owned_by, render_outputs
from mechdiagram.shared.config import Options
from mechdiagram.site.build import execute
from mechdiagram.site.manifest import INDEX, MANIFEST
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import check_spec
from support.outputs import PLAYER_FILES

SPEC = Path(__file__).resolve().parents[2] / "mechanisms" / "prefill-decode.mechanism.json"


class Transcript(OutputFormat):
    """A made-up plain-text format: one file per scenario with its step titles."""

    name = "transcript-txt"
    pattern = "{slug}.{scenario}.steps.txt"
    summary = "step titles as text"

    def render_scenario(self, job, scenario):
        return "".join(f"{step.title}\n" for step in scenario.steps).encode("utf-8")


@pytest.fixture
def with_transcript(monkeypatch):
    monkeypatch.setitem(outputs._REGISTRY, Transcript.name, Transcript)


def _project(tmp_path: Path, scenario_id: str = "main") -> Path:
    spec = {
        "version": 1, "language": "en", "title": "T", "description": "D", "caption": "C", "alt": "A",
        "sources": [], "limitations": [],
        "targets": {"a0": {"id": "a", "kind": "node", "label": "A"}, "a1": {"id": "b", "kind": "node", "label": "B"}},
        "stateLabels": {"s": "S"},
        "scenarios": [{"id": scenario_id, "title": "M", "description": "d", "initial": {}, "unselected": [],
                       "steps": [{"title": "First", "description": "x", "duration": 1000, "active": ["a0"],
                                  "paths": [], "state": {"s": "1"}},
                                 {"title": "Second", "description": "y", "duration": 1000, "active": ["a1"],
                                  "paths": [], "state": {"s": "2"}}]}],
    }
    path = tmp_path / "specs" / "t.mechanism.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(spec), "utf-8")
    return path


def _options(tmp_path: Path, mode: str) -> Options:
    return Options(mode=mode, specs=[tmp_path / "specs"], output=tmp_path / "out", source_root=tmp_path, jobs=1)


def test_the_formats_name_every_file_of_our_specs():
    files: set[str] = set()
    for spec in sorted(SPEC.parent.glob("*.mechanism.json")):
        model = check_spec(parse_text(spec.read_bytes(), spec.name)).spec
        assert model is not None
        files |= set(render_outputs(model, spec.name.removesuffix(".mechanism.json"), []))
    # The player's files by their hashed names, today's or those output/ was last built with (a change to the player
    # renames them until the lead rebuilds output/).
    committed = {p.name for p in (SPEC.parents[1] / "output").iterdir()
                 if not p.name.startswith("mechdiagram-player.")} - {MANIFEST, INDEX, *PLAYER_FILES}
    assert files == committed
    assert [fmt.name for fmt in outputs.formats()] == ["svg", "poster", "svg-dark", "poster-dark", "svg-narrow",
                                                       "svg-narrow-dark", "poster-narrow", "poster-narrow-dark",
                                                       "frames", "poster-png", "frame-png", "gif",
                                                       "page", "fragment"]
    assert [fmt.name for fmt in outputs.formats() if not fmt.optional] == [
        "svg", "poster", "svg-dark", "poster-dark", "svg-narrow", "svg-narrow-dark", "poster-narrow",
        "poster-narrow-dark", "page", "fragment"]


def test_a_format_is_registered_once():
    with pytest.raises(TypeError, match="registered twice"):
        outputs.register(outputs.Page)


def test_ownership_follows_the_patterns():
    assert owned_by("q", "q.main.svg") and owned_by("q", "q.main.poster.svg")
    assert owned_by("q", "q.main.dark.svg") and owned_by("q", "q.main.poster.dark.svg")
    assert owned_by("q", "q.html") and owned_by("q", "q.fragment.html")
    assert not owned_by("q", "q-one.main.svg")  # another spec's file
    assert not owned_by("q", "q.main.steps.txt")  # no registered format writes it
    assert not owned_by("q", "../q.html") and not owned_by("q", "notes.md")
    assert outputs.format_of("q", "q.main.frame-12.svg") is outputs.FrameSvg
    assert outputs.format_of("q", "q.a_b-2.narrow.dark.svg") is outputs.NarrowDarkSvg
    # A step counts from 1 with no leading zero; a scenario id starts with an ASCII letter and holds no dot.
    for name in ("q.main.frame-0.svg", "q.main.frame-01.svg", "q.main.frame-.svg", "q.main.frame-x.svg",
                 "q.main.frame-\u0663.svg", "q.1main.svg", "q._main.svg", "q..svg", "q.ma.in.svg", "q.m\u00e9.svg",
                 "q.main.svg.svg", "q.main.SVG", "q"):
        assert not owned_by("q", name.encode().decode("unicode_escape")), name


@pytest.mark.parametrize("pattern", ["{slug}-{scenario}.svg", "x.{slug}.svg", "{slug}.{scenario}{step}.svg",
                                     "{slug}.{name}.svg", "{slug}.frame-{step.svg", "{slug}.}.svg"])
def test_a_pattern_owns_cannot_read_is_refused(pattern):
    fmt = type("Odd", (OutputFormat,), {"name": "odd", "pattern": pattern, "summary": "odd"})
    with pytest.raises(TypeError, match="is not one owns"):
        outputs.register(fmt)
    assert "odd" not in outputs._REGISTRY


def test_a_new_format_is_built_checked_and_retired_with_no_other_change(tmp_path, with_transcript):
    _project(tmp_path)
    report = execute(_options(tmp_path, "build"))
    assert report.exit_code == 0
    text = tmp_path / "out" / "t.main.steps.txt"
    assert text.read_text("utf-8") == "First\nSecond\n"
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text("utf-8"))
    assert "t.main.steps.txt" in [item["path"] for item in manifest["specs"][0]["outputs"]]

    text.write_text("edited\n", "utf-8")
    check = execute(_options(tmp_path, "check"))
    assert check.exit_code == 1
    assert [(f.file.endswith("t.main.steps.txt"), f.rule) for f in check.output_findings] == [(True, "stale-output")]

    execute(_options(tmp_path, "build"))  # restores the file
    _project(tmp_path, scenario_id="renamed")  # the old scenario's files are no longer produced
    stale = execute(_options(tmp_path, "check"))
    assert any(f.file.endswith("t.main.steps.txt") and "no longer produced" in f.message
               for f in stale.output_findings)
    rebuilt = execute(_options(tmp_path, "build"))
    assert "t.main.steps.txt" in rebuilt.deleted
    assert not text.exists() and (tmp_path / "out" / "t.renamed.steps.txt").is_file()
