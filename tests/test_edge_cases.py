"""Edge cases found by review: each test pins one behaviour that once went wrong."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from support.specs import minimal_spec
from renderer.cli import main
from renderer.load import parse_text
from renderer.timeline import Timeline
from renderer.validate import validate


def findings(data: dict) -> list[tuple[str, str, str]]:
    return [(f.pointer, f.rule, f.message) for f in validate(parse_text(json.dumps(data).encode("utf-8"), "x.json"))]


@pytest.mark.parametrize("pointer, edit", [
    ("/scenarios/0/id", lambda d: d["scenarios"][0].update(id="main\n")),
    ("/language", lambda d: d.update(language="en\n")),
    ("/targets/a0/id", lambda d: d["targets"]["a0"].update(id="t-a0\n")),
])
def test_a_trailing_newline_does_not_satisfy_a_pattern(pointer, edit):
    """JSON Schema patterns are ECMA-262: ``$`` is the end of the string, not the end of a line."""
    data = minimal_spec()
    edit(data)
    assert [(p, rule) for p, rule, _ in findings(data)] == [(pointer, "pattern")]


def test_a_target_key_with_a_trailing_newline_is_refused():
    data = minimal_spec()
    data["targets"]["a0\n"] = data["targets"].pop("a0")
    assert ("/targets/a0\n", "pattern") in [(p, rule) for p, rule, _ in findings(data)]


def test_whitespace_only_text_is_refused():
    data = minimal_spec()
    data["title"] = "   "
    assert findings(data) == [("/title", "pattern", 'title must be visible text, not only white space, not "   "')]


def test_two_keys_with_the_same_lane_and_index_are_refused():
    data = minimal_spec()
    data["targets"]["a00"] = {"id": "t-a00", "kind": "node", "label": "overlap"}
    assert findings(data) == [(
        "/targets/a00", "layout-position",
        '"a00" falls in the same cell as "a0" (row 0, column 0): their keys name the same lane and index; '
        "rename one or place it with layout.positions")]


def test_scenario_ids_that_differ_only_in_case_are_refused():
    data = minimal_spec()
    data["scenarios"].append(dict(data["scenarios"][0], id="Main"))
    assert findings(data) == [(
        "/scenarios/1/id", "duplicate-scenario-id",
        'scenario id "Main" differs only in case from the id of scenario 1 (/scenarios/0); '
        "scenario ids must be unique, ignoring case")]


def test_keyframes_keep_millisecond_precision_in_long_loops():
    """499 ten-minute steps and one of 334 ms: the short step's window must not shrink in rounding."""
    timeline = Timeline.from_durations([600000] * 499 + [334])
    window = timeline.windows[-1]
    (_, _), (start, _), (end, _) = timeline.keyframe_stops(window)
    shown_ms = (float(end.rstrip("%")) - float(start.rstrip("%"))) / 100 * timeline.total
    assert abs(shown_ms - 334) < 0.1
    assert Timeline.from_durations([3000] * 7).keyframe_stops(Timeline.from_durations([3000] * 7).windows[1]) == [
        ("0%", False), ("14.2857%", True), ("28.5714%", False)]


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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_manifest_does_not_hang(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "output").mkdir()
    os.mkfifo(tmp_path / "output" / "manifest.json")
    result = CliRunner().invoke(main, ["check", "x.mechanism.json"])
    assert result.exit_code == 1
    assert "output/manifest.json: error: missing: run mechdiagram build" in result.stderr


def test_the_manifest_is_written_last_and_not_after_a_failed_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.mechanism.json").write_text(json.dumps(minimal_spec()), "utf-8")
    (tmp_path / "out" / "ok.html").mkdir(parents=True)  # a folder where a file should go
    result = CliRunner().invoke(main, ["build", "ok.mechanism.json", "-o", "out"])
    assert result.exit_code == 1
    assert "cannot write out/ok.html" in result.stderr
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_an_unclosed_direction_override_is_refused():
    """U+202E left open would reverse the words after it in the player's status and the transcript."""
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["title"] = "Wait\u202e"
    assert findings(data) == [(
        "/scenarios/0/steps/0/title", "bidi-control",
        'text "Wait\u202e" opens U+202E RIGHT-TO-LEFT OVERRIDE without closing it, which would reverse the text '
        "after it in the figure and player; close it (U+202C or U+2069) or remove it")]


def test_closed_direction_controls_and_right_to_left_text_are_fine():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["title"] = "\u202eevif\u202c and \u2067שלום\u2069 and مرحبا"
    assert findings(data) == []


def test_output_size_is_bounded_by_the_node_drawing_limit():
    """1000 nodes in 50 scenarios would write hundreds of MB; the spec is refused, naming the limit."""
    data = minimal_spec()
    data["targets"] = {f"n{i}": {"id": f"t{i}", "kind": "node", "label": "x" * 20} for i in range(1000)}
    scenario = {"id": "s", "title": "S", "steps": [{"title": "T", "duration": 1000, "active": ["n0"]}]}
    data["scenarios"] = [dict(scenario, id=f"s{i}") for i in range(11)]
    assert findings(data) == [(
        "/scenarios", "limit",
        "the scenarios draw 11000 nodes in all (nodes times scenarios); the limit is 10000: split the spec")]


def test_lines_end_at_a_lone_carriage_return_too():
    """Old Mac line endings: editors count a lone CR as a line break, so findings do too."""
    loaded = parse_text(b'{\r  "version": 1,\r  "x": [1,]\r}', "x.json")
    assert [(f.line, f.column) for f in loaded.findings] == [(3, 10)]  # the trailing comma
    loaded = parse_text(b'{\r  "version": 1,\r  "titel": "x"\r}', "x.json")
    assert [(f.line, f.column) for f in validate(loaded) if f.pointer == "/titel"] == [(3, 3)]


@pytest.mark.parametrize("edit, expected", [
    (lambda d: d["targets"]["ab"].update(to="a0"),
     ("/targets/ab/to", "path-endpoint", 'to "a0" is also the path\'s from; a path runs between two different nodes')),
    (lambda d: d["scenarios"][0]["steps"][0]["active"].append("ab"),
     ("/scenarios/0/steps/0/active/1", "path-in-active",
      '"ab" is a path; active lists nodes to highlight, paths lists the paths to animate: move it to paths')),
    (lambda d: (d["targets"].update(loose={"id": "l", "kind": "node", "label": "loose"}),
                d.update(layout={"lanes": [{"key": "a", "label": "A"}]})),
     ("/layout/lanes", "unknown-lane",
      'lanes apply to a grid, where every node key is <lane><index>, but "loose" is not; rename them or remove lanes')),
    (lambda d: d.update(title="\u200b\u00ad"),
     ("/title", "invisible-text", 'text "\u200b\u00ad" has no visible character (only spaces, format characters or '
      "blank symbols); write visible text")),
    (lambda d: d["scenarios"][0]["steps"][0].update(title="\u202eabc\u2069"),
     ("/scenarios/0/steps/0/title", "bidi-control",
      'text "\u202eabc\u2069" opens U+202E RIGHT-TO-LEFT OVERRIDE without closing it, which would reverse the text '
      "after it in the figure and player; close it (U+202C or U+2069) or remove it")),
])
def test_specs_that_would_draw_wrongly_are_refused(edit, expected):
    data = minimal_spec()
    edit(data)
    assert findings(data) == [expected]
