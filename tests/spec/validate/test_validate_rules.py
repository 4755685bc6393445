"""Validation rules beyond single references: patterns, visible text, direction controls, grid cells,
case-folded scenario ids, one-of branches, required keys, nesting, and the size limits (refused
quickly, naming the limit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechdiagram.shared.findings import MAX_PER_RULE, Finding, capped
from mechdiagram.spec.load import load_spec, parse_text
from mechdiagram.spec.validate import check_spec, validate
from mechdiagram.spec.validate.limits import MAX_FRAME_ENTRIES, MAX_TOTAL_STEPS
from support.cli import run_cli, run_subprocess
from support.specs import big_spec, minimal_spec


def findings(data: dict) -> list[tuple[str, str, str]]:
    """What the author is told of ``data``: validation's findings, then, on a valid spec, the layout stage's."""
    from mechdiagram.layout.checks import lay_out

    loaded = parse_text(json.dumps(data).encode("utf-8"), "x.json")
    validation = check_spec(loaded)
    found = validation.findings + (lay_out(loaded, validation.spec).findings if validation.spec else [])
    return [(f.pointer, f.rule, f.message) for f in found]


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


def test_closed_direction_controls_and_right_to_left_text_are_fine():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["title"] = "\u202eevif\u202c and \u2067שלום\u2069 and مرحبا"
    assert findings(data) == []


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
      "after it in the figure and player; close it (U+202C POP DIRECTIONAL FORMATTING at the end) or remove it")),
    (lambda d: d["scenarios"][0]["steps"][0].update(title="⁧abc‬"),  # an isolate, closed by U+2069 only
     ("/scenarios/0/steps/0/title", "bidi-control",
      'text "⁧abc‬" opens U+2067 RIGHT-TO-LEFT ISOLATE without closing it, which would reverse the text '
      "after it in the figure and player; close it (U+2069 POP DIRECTIONAL ISOLATE at the end) or remove it")),
    (lambda d: d["scenarios"][0]["steps"][0].update(title="Tiny \u202bab \u2067cd"),  # two open: innermost first
     ("/scenarios/0/steps/0/title", "bidi-control",
      'text "Tiny \u202bab \u2067cd" opens U+202B RIGHT-TO-LEFT EMBEDDING without closing it, which would reverse '
      "the text after it in the figure and player; close it (U+2069 POP DIRECTIONAL ISOLATE, then U+202C POP "
      "DIRECTIONAL FORMATTING, in that order, at the end) or remove it")),
    # U+202E left open would reverse the words after it in the player's status and the transcript.
    (lambda d: d["scenarios"][0]["steps"][0].update(title="Wait\u202e"),
     ("/scenarios/0/steps/0/title", "bidi-control",
      'text "Wait\u202e" opens U+202E RIGHT-TO-LEFT OVERRIDE without closing it, which would reverse the text '
      "after it in the figure and player; close it (U+202C POP DIRECTIONAL FORMATTING at the end) or remove it")),
])
def test_specs_that_would_draw_wrongly_are_refused(edit, expected):
    data = minimal_spec()
    edit(data)
    assert findings(data) == [expected]


def test_output_size_is_bounded_by_the_node_drawing_limit():
    """1000 nodes in 50 scenarios would write hundreds of MB; the spec is refused, naming the limit."""
    data = minimal_spec()
    data["targets"] = {f"n{i}": {"id": f"t{i}", "kind": "node", "label": "x" * 20} for i in range(1000)}
    scenario = {"id": "s", "title": "S", "steps": [{"title": "T", "duration": 1000, "active": ["n0"]}]}
    data["scenarios"] = [dict(scenario, id=f"s{i}") for i in range(11)]
    assert findings(data) == [(
        "/scenarios", "limit",
        "the scenarios draw 11000 nodes in all (nodes times scenarios); the limit is 10000: split the spec")]


# --- schema and cross-reference errors carry the place of the offending value -----------------

def _place(path: Path, line: int, column: int) -> str:
    return path.read_text("utf-8").split("\n")[line - 1][column - 1:]


@pytest.mark.parametrize("mutate, pointer, rule, starts", [
    (lambda s: s.__setitem__("title", 5), "/title", "type", "5"),
    (lambda s: s["targets"]["a1"].__setitem__("labl", "x"), "/targets/a1/labl", "additionalProperties", '"labl"'),
    (lambda s: s["scenarios"][0]["steps"][1].__setitem__("duration", 20), "/scenarios/0/steps/1/duration",
     "minimum", "20"),
    (lambda s: s["scenarios"][0]["steps"][1]["active"].append("a7"), "/scenarios/0/steps/1/active/2",
     "unknown-target", '"a7"'),
    (lambda s: s["scenarios"][0]["steps"][1]["state"].__setitem__("stge", "x"), "/scenarios/0/steps/1/state/stge",
     "unknown-state-key", '"stge"'),
    (lambda s: s["targets"]["ab"].__setitem__("to", "ab"), "/targets/ab/to", "path-endpoint", '"ab"'),
    (lambda s: s.__setitem__("layout", {"lanes": [{"key": "a"}, 7]}), "/layout/lanes/1", "oneOf", "7"),
    (lambda s: s.__setitem__("sources", [{"path": "x", "sha256": "00"}]), "/sources/0/sha256", "pattern", '"00"'),
])
def test_schema_and_reference_findings_point_at_the_value(write_spec, spec_data, mutate, pointer, rule, starts):
    mutate(spec_data)
    path = write_spec(spec_data)
    findings = validate(load_spec(path))
    finding = next(f for f in findings if f.pointer == pointer)
    assert finding.rule == rule
    assert finding.line and finding.column
    assert _place(path, finding.line, finding.column).startswith(starts)


def test_oneof_reports_the_branch_that_fits_not_a_dump(write_spec, spec_data):
    spec_data["layout"] = {"lanes": [{"key": "a", "lable": "A"}, True, "9x"]}
    findings = {f.pointer: f for f in validate(load_spec(write_spec(spec_data)))}
    # An object: the object branch's complaint, with a suggestion, not "is not of type 'string'".
    assert findings["/layout/lanes/0/lable"].message == 'unknown key "lable"; did you mean "label"?'
    assert "/layout/lanes/0" not in findings
    # Neither a string nor an object: one message naming both shapes.
    assert findings["/layout/lanes/1"].message == "lanes[1] must be a string or an object, not a boolean"
    # A string: the string branch's pattern, not "must be an object".
    assert "must be a letter" in findings["/layout/lanes/2"].message
    for finding in findings.values():
        assert "is not valid under any of the given schemas" not in finding.message
        assert "_PairsDict" not in finding.message


def test_every_missing_required_key_is_named(write_spec):
    findings = validate(load_spec(write_spec({"version": 1})))
    missing = sorted(f.message for f in findings if f.rule == "required")
    assert missing == [f'missing required key "{k}"' for k in
                       sorted(["language", "title", "description", "caption", "alt", "targets", "stateLabels",
                               "scenarios"])]


def test_nesting_within_the_limit_reaches_every_stage(write_spec, spec_data, monkeypatch):
    deep = json.loads("[" * 25 + "]" * 25)
    spec_data["scenarios"][0]["unselected"] = [deep, deep]
    spec_data["caption"] = deep
    spec_data["extra"] = {"x": deep}
    path = write_spec(spec_data)
    monkeypatch.chdir(path.parent)
    result = run_cli("validate", "--source-root", ".", path.name)
    assert result.exit_code == 1
    assert "/caption: caption must be a string, not an array [type]" in result.stderr
    assert '/extra: unknown key "extra"' in result.stderr
    assert "unselected lists" in result.stderr


# --- limits: refused quickly, naming the limit -----------------------------------------------------

@pytest.mark.slow  # a subprocess over a 5000-target spec
def test_thousands_of_targets_and_steps_are_refused_naming_the_limit(tmp_path):
    path = tmp_path / "huge.mechanism.json"
    path.write_text(json.dumps(big_spec(5000, 8, 500, 5)))
    result, _ = run_subprocess("validate", "--source-root", ".", path.name, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert f"the limit is {MAX_TOTAL_STEPS}" in result.stderr
    assert "[limit]" in result.stderr
    assert "Traceback" not in result.stderr


def test_too_many_targets_names_the_limit(write_spec):
    findings = validate(load_spec(write_spec(big_spec(1001, 1, 2, 1))))
    assert [f.message for f in findings if f.pointer == "/targets"] == ["targets has 1001 entries; the limit is 1000"]


def test_too_many_frame_entries_names_the_limit(write_spec):
    findings = validate(load_spec(write_spec(big_spec(1000, 4, 500, 11))))
    assert any(f.rule == "limit" and f"the limit is {MAX_FRAME_ENTRIES}" in f.message for f in findings)


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_bad_references_are_capped_per_rule_and_say_how_many_more(tmp_path, monkeypatch, fmt):
    """(20,000 of them, the largest number the limits allow, in bench/bench_limits.py.)"""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "refs.mechanism.json").write_text(json.dumps(big_spec(50, 1, 30, 10, bad_refs=True)))
    result = run_cli("validate", "--source-root", ".", "--format", fmt, "refs.mechanism.json")
    assert result.exit_code == 1
    more = f"200 more finding(s) of rule unknown-target not shown (the first {MAX_PER_RULE} are)"
    if fmt == "json":
        findings = json.loads(result.stdout)["findings"]
        assert [f["rule"] for f in findings].count("unknown-target") == MAX_PER_RULE == 100
        assert [f["message"] for f in findings if f["rule"] == "more"] == [more + "; fix those and run again"]
    elif fmt == "github":
        assert result.stdout.count("title=unknown-target::") == MAX_PER_RULE
        assert result.stdout.count("title=more::") == 1 and more in result.stdout
    else:
        assert result.stderr.count("[unknown-target]") == MAX_PER_RULE
        assert f"error: {more}; fix those and run again [more]" in result.stderr


def test_capped_keeps_report_order_and_counts_each_file_rule_and_severity_apart():
    findings = [Finding("a.json", f"/x/{i}", "m", "type", line=i) for i in range(5)]
    findings += [Finding("a.json", "/w", "w", "type", "warning", line=9), Finding("b.json", "/y", "m", "type")]
    out = capped(findings, limit=2)
    assert [(f.file, f.rule, f.severity, f.line) for f in out] == [
        ("a.json", "type", "error", 0), ("a.json", "type", "error", 1), ("a.json", "more", "error", None),
        ("a.json", "type", "warning", 9), ("b.json", "type", "error", None)]
    assert out[2].message.startswith("3 more finding(s) of rule type not shown (the first 2 are)")
    assert capped(findings, limit=5) == findings


def test_the_schema_check_stops_after_its_limit_and_says_so(write_spec):
    from mechdiagram.spec.validate.schema import MAX_SCHEMA_ERRORS

    data = minimal_spec()
    data["limitations"] = [0] * (MAX_SCHEMA_ERRORS + 500)
    findings = validate(load_spec(write_spec(data)))
    explained = [f.rule for f in findings if f.rule != "more"]
    assert len(explained) == MAX_SCHEMA_ERRORS and set(explained) == {"type", "maxItems"}
    stopped = [f for f in findings if f.rule == "more"]
    assert [f.message for f in stopped] == [f"the schema check stopped after {MAX_SCHEMA_ERRORS} errors; fix those "
                                            "and validate again"]


def test_a_listed_lane_ending_in_a_digit_is_told_why_it_has_no_targets():
    """Keys "app12" and "app13" are lane "app" (the final digits are the index): a listed lane "app1" has no
    targets, and the finding says why, instead of only suggesting "app"."""
    data = minimal_spec()
    data["targets"] = {"app12": {"id": "t1", "kind": "node", "label": "one"},
                       "app13": {"id": "t2", "kind": "node", "label": "two"}}
    for step in data["scenarios"][0]["steps"]:
        step["active"], step["paths"] = ["app12"], []
    data["scenarios"][0]["unselected"] = []
    data["layout"] = {"lanes": ["app1"]}
    ((pointer, rule, message),) = findings(data)
    assert (pointer, rule) == ("/layout/lanes/0", "unknown-lane")
    assert message.endswith('"app12" is lane "app", index 12: end the lane\'s name with a letter'), message


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_a_route_or_label_that_could_not_be_kept_clear_is_a_warning_with_its_pointer(layout, monkeypatch):
    """Rule route: the layout marks a route or label it could not keep clear of the boxes and other labels
    (``Arrow.clean``), in the wide layout (a positions override) or the narrow one (long labels on many
    tracks); validate warns at the path's key, and says which layout."""
    import msgspec.structs

    from mechdiagram.layout import checks, diagram

    def unclean(spec, *, narrow=False, wide=None):
        drawn = diagram(spec, narrow=narrow, wide=wide)
        if narrow != (layout == "narrow"):
            return drawn
        arrows = dict(drawn.arrows, ab=msgspec.structs.replace(drawn.arrows["ab"], clean=False))
        return msgspec.structs.replace(drawn, arrows=arrows)

    monkeypatch.setattr(checks, "diagram", unclean)
    text = json.dumps(minimal_spec(), indent=2)
    loaded = parse_text(text.encode(), "x.mechanism.json")
    validation = check_spec(loaded)
    assert validation.spec is not None and validation.findings == []  # validation itself runs no layout
    laid_out = checks.lay_out(loaded, validation.spec)
    assert laid_out.wide is not None and laid_out.narrow is not None  # a warning: the figure is still drawn
    [finding] = laid_out.findings
    assert (finding.pointer, finding.rule, finding.severity) == ("/targets/ab", "route", "warning")
    assert finding.line == text.splitlines().index('    "ab": {') + 1
    assert f"in the {layout} layout" in finding.message, finding.message  # a new user asked which one


def _arrows_spec(nodes: int, arrows: int) -> dict:
    """A valid flow of ``nodes`` boxes (no lane keys) and ``arrows`` paths between pseudo-random pairs."""
    data = minimal_spec()
    data["targets"] = {f"n{i}x": {"id": f"n{i}", "kind": "node", "label": f"stage {i}"} for i in range(nodes)}
    for k in range(arrows):
        a, b = (7 * k) % nodes, (13 * k + 5) % nodes
        data["targets"][f"e{k}x"] = {"id": f"e{k}", "kind": "path", "from": f"n{a}x", "to": f"n{b if b != a else (a + 1) % nodes}x"}
    scenario = data["scenarios"][0]
    scenario["unselected"] = []
    scenario["steps"] = [{"title": "One", "description": "d", "duration": 1000, "active": ["n0x"], "paths": ["e0x"],
                          "state": {"stage": "one"}}]
    return data


def test_more_arrows_than_the_limit_are_refused_before_any_layout(tmp_path, monkeypatch):
    from mechdiagram.spec.validate.limits import MAX_PATHS

    assert MAX_PATHS == 150
    monkeypatch.chdir(tmp_path)
    (tmp_path / "many.mechanism.json").write_text(json.dumps(_arrows_spec(40, MAX_PATHS + 1)), "utf-8")
    result = run_cli("validate", "--source-root", ".", "many.mechanism.json")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].endswith(
        "error: /targets: the spec has 151 arrows (path targets); the limit is 150: split the spec [limit]")
    (tmp_path / "many.mechanism.json").write_text(json.dumps(_arrows_spec(40, MAX_PATHS)), "utf-8")
    assert "[limit]" not in run_cli("validate", "--source-root", ".", "many.mechanism.json").stderr


def test_the_routes_of_one_layout_share_a_bounded_search(monkeypatch):
    from mechdiagram.layout import diagram, routing
    from mechdiagram.shared.model import spec_from_data

    model = spec_from_data(_arrows_spec(30, 60))
    searched = [route.clean for route in diagram(model).arrows.values()]
    assert all(searched)  # a generous budget routes every arrow clear
    monkeypatch.setattr(routing, "SEARCH_BUDGET", 100)  # each routing of the layout has 100 states
    starved = diagram(model)
    clean = [arrow.clean for arrow in starved.arrows.values()]
    assert len(clean) == 60 and not all(clean)  # past the budget, routes are straight lines, not clean
    assert any(arrow.crowded for arrow in starved.arrows.values())


def test_arrows_drawn_straight_for_want_of_time_are_one_warning(monkeypatch, tmp_path):
    from mechdiagram.layout import routing

    monkeypatch.setattr(routing, "SEARCH_BUDGET", 100)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "busy.mechanism.json").write_text(json.dumps(_arrows_spec(30, 60)), "utf-8")
    result = run_cli("validate", "--source-root", ".", "busy.mechanism.json")
    assert result.exit_code == 0  # a warning
    lines = [line for line in result.stderr.splitlines() if "[route]" in line]
    crowded = [line for line in lines if "took longer to route" in line]
    assert len(crowded) == 1, lines
    assert "warning: /targets/" in crowded[0] and "the figure's 60 arrows took longer to route and label than a " \
        "build may: " in crowded[0] and ("are drawn straight or labelled where they may cross other arrows; split "
                                         "the spec or draw fewer arrows [route]") in crowded[0]
    assert not any("drawn straight" in line for line in lines if line not in crowded)


def test_labels_placed_for_want_of_time_are_crowded_and_one_warning(monkeypatch, tmp_path):
    """Past :data:`LABEL_BUDGET`, labels take the first place clear of boxes and labels without weighing the
    routes they cross: each such arrow is ``crowded``, and validate says so once."""
    from mechdiagram.layout import diagram, labels
    from mechdiagram.shared.model import spec_from_data

    data = _arrows_spec(12, 30)
    for key, target in data["targets"].items():
        if target["kind"] == "path":
            target["label"] = f"message {key}"
    model = spec_from_data(data)
    full = diagram(model)
    assert not any(arrow.crowded for arrow in full.arrows.values())
    monkeypatch.setattr(labels, "LABEL_BUDGET", 10_000)  # a full search takes 31,000
    starved = diagram(model)
    crowded = [key for key, arrow in starved.arrows.items() if arrow.crowded]
    assert 0 < len(crowded) < 30  # the first labels were weighed in full, the later ones hurried
    assert all(arrow.label_box is not None for arrow in starved.arrows.values())

    def legs(points):  # a route's shape, whatever the figure's margins (labels change the drawing's extent)
        return [(round(b[0] - a[0], 1), round(b[1] - a[1], 1)) for a, b in zip(points, points[1:], strict=False)]

    assert [legs(arrow.points) for arrow in full.arrows.values()] == \
        [legs(arrow.points) for arrow in starved.arrows.values()]  # the routes are searched as before
    monkeypatch.chdir(tmp_path)
    (tmp_path / "busy.mechanism.json").write_text(json.dumps(data), "utf-8")
    result = run_cli("validate", "--source-root", ".", "busy.mechanism.json")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if "took longer to route and label" in line]
    assert len(lines) == 1 and "the figure's 30 arrows" in lines[0], result.stderr


def test_the_bidi_advice_followed_makes_the_text_valid():
    from mechdiagram.spec.validate.text import open_bidi

    text = "Tiny \u202bab \u2067cd"
    assert open_bidi(text) == ["\u202b", "\u2067"]
    assert open_bidi(text + "\u202c") == ["\u202b", "\u2067"]  # U+202C inside an open isolate does nothing
    assert open_bidi(text + "\u2069\u202c") == []


def test_rule_findings_are_counted_not_located_past_the_cap(write_spec):
    """700,000 invisible strings once made 700,000 located findings (13 s, 566 MB): past MAX_PER_RULE a rule's
    errors are only counted, and one ``more`` finding says how many."""
    data = minimal_spec()
    data["extra"] = ["\u200b"] * (MAX_PER_RULE + 40)
    findings = validate(load_spec(write_spec(data)))
    assert [f.rule for f in findings].count("invisible-text") == MAX_PER_RULE
    assert f"40 more finding(s) of rule invisible-text not shown (the first {MAX_PER_RULE} are)" in \
        " ".join(f.message for f in findings if f.rule == "more")


def test_a_narrow_column_too_wide_for_a_phone_is_a_warning_that_names_the_sequence_view(tmp_path, monkeypatch):
    """Rule route at ``/targets``: OAuth's 4 boxes and 11 arrows both ways draw a 688-unit narrow column (tracks
    beside it), which scrolls on a phone; validate says so, once, and names the view that is laid out for a
    phone.  The same spec as a sequence is 357 units wide, and says so (10 units past a phone's), the reference
    spec's column (331 units) not."""
    from support.edge_topologies import edge_topologies
    from support.reference_spec import reference_spec

    monkeypatch.chdir(tmp_path)
    oauth = edge_topologies()["oauth"]
    text = json.dumps(oauth, indent=2)
    (tmp_path / "oauth.mechanism.json").write_text(text, "utf-8")
    result = run_cli("validate", "--allow-missing-sources", "oauth.mechanism.json")
    wide = [line for line in result.stderr.splitlines() if "units wide" in line]
    line = text.splitlines().index('  "targets": {') + 1
    assert wide == [f"oauth.mechanism.json:{line}:3: warning: /targets: "
                    "the narrow layout (a phone's) is 689 units wide, 7 of its 11 arrows on tracks beside its column "
                    "of 4 boxes: it scrolls sideways on a phone, which shows 347 units; messages between a few "
                    'parties read as a sequence ("layout": {"view": "sequence"}), laid out for a phone\'s width; or '
                    "draw fewer arrows [route]"], result.stderr
    assert result.exit_code == 0  # a warning
    (tmp_path / "seq.mechanism.json").write_text(json.dumps(oauth | {"layout": {"view": "sequence"}}), "utf-8")
    (tmp_path / "ref.mechanism.json").write_text(json.dumps(reference_spec()), "utf-8")
    quiet = run_cli("validate", "--allow-missing-sources", "seq.mechanism.json", "ref.mechanism.json")
    told = [line for line in quiet.stderr.splitlines() if "units wide" in line]
    assert len(told) == 1 and told[0].startswith("seq.mechanism.json:") and \
        "is 357 units wide for its 4 participants" in told[0] and quiet.exit_code == 0, quiet.stderr


def test_a_wide_narrow_column_of_many_boxes_is_told_to_shorten_labels_not_to_be_a_sequence(tmp_path, monkeypatch):
    """A CI pipeline's fan-out and fan-in of seven labelled checks draws a narrow column wider than a phone; with
    more boxes than :data:`~mechdiagram.layout.checks.SEQUENCE_HINT_BOXES` the warning names the labels of the
    arrows on tracks, not the sequence view (a pipeline is no conversation); without those labels it fits."""
    from mechdiagram.layout.checks import SEQUENCE_HINT_BOXES
    from support.topologies import with_graph

    checks = [f"check{i}x" for i in range(7)]
    edges = [("buildx", c, "artifacts") for c in checks] + [(c, "packagex", "passed") for c in checks]
    nodes = {"buildx": "Build", "packagex": "Package"} | {c: f"Check {c[5]}" for c in checks}
    assert len(nodes) > SEQUENCE_HINT_BOXES
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ci.mechanism.json").write_text(json.dumps(with_graph(nodes, edges)), "utf-8")
    said = [line for line in run_cli("validate", "--allow-missing-sources", "ci.mechanism.json").stderr.splitlines()
            if "units wide" in line]
    # naming the arrows on tracks whose labels take the room, the widest first, four at most (a new user could not
    # tell which they were)
    assert len(said) == 1 and said[0].endswith(
        'shorten or leave out the labels of the arrows that skip boxes ("e1", "e2", "e3", "e4" and 8 more), or '
        "draw fewer arrows [route]") and "sequence" not in said[0], said
    bare = [(a, b, None) for a, b, _ in edges]
    (tmp_path / "ci.mechanism.json").write_text(json.dumps(with_graph(nodes, bare)), "utf-8")
    assert "units wide" not in run_cli("validate", "--allow-missing-sources", "ci.mechanism.json").stderr


def test_a_group_in_unselected_is_told_to_list_its_members_that_are_targets():
    """A new user listed a group's key in a scenario's ``unselected``, which takes targets: the finding names the
    group's members to list instead, those that are targets (a member that is none has its own finding)."""
    data = minimal_spec()
    data["groups"] = {"pair": {"label": "Pair", "members": ["a0", "nope", "a1"]}}
    data["scenarios"][0]["unselected"] = ["pair"]
    told = [message for pointer, rule, message in findings(data)
            if (pointer, rule) == ("/scenarios/0/unselected/0", "unknown-target")]
    assert told == ['"pair" is not a target; it is a group: list its members instead ("a0", "a1")'], findings(data)
