"""A step's ``labels`` in the drawing: one group per target and text, shown by the style sheet in the steps that
have that text (switched at the step boundary, as the panel's values), the poster with the targets' own labels,
each still with its step's text; and the state panel's changed mark, only on the rows a step changes and only
during that step.  A spec without ``labels`` draws neither."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from mechdiagram.api import render_spec
from support.outputs import render
from support.specs import minimal_spec
from support.svg import SVG_NS, stylesheet, words

LONG = "first, now holding four pages of the request's cache"


def relabelled() -> dict:
    """The minimal spec: step 1 changes box a0's label and path ab's, step 2 changes a0's back; the panel's row
    "stage" changes in both steps, row "owner" in step 2 alone."""
    data = minimal_spec()
    data["stateLabels"]["owner"] = "Owner"
    scenario = data["scenarios"][0]
    scenario["initial"]["owner"] = "nobody"
    scenario["steps"][0]["labels"] = {"a0": LONG, "ab": "flow of two longer words"}
    scenario["steps"][1]["labels"] = {"a0": "first"}
    scenario["steps"][1]["state"]["owner"] = "the worker"
    return data


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("labels")
    path = folder / "ref.mechanism.json"
    path.write_text(json.dumps(relabelled()), "utf-8")
    rendered = render_spec(path, source_root=folder, extra_formats={"frames"})
    assert rendered.ok, rendered.findings
    return rendered.files


def parsed(files: dict[str, bytes], name: str) -> ET.Element:
    return ET.fromstring(files[name].decode("utf-8").split("?>", 1)[-1])


def prefix(root: ET.Element) -> str:
    return root.get("class", "").split()[0]


def texts_of(root: ET.Element, role: str) -> list[str]:
    """The words of every ``<text>`` of ``role`` (its class ends ``-role`` among others)."""
    return [words(t) for t in root.iter(f"{SVG_NS}text") if any(c.endswith(f"-{role}") for c in t.get("class", "").split())]


def test_each_text_is_a_group_shown_in_the_steps_that_have_it(files):
    root = parsed(files, "ref.main.svg")
    p = prefix(root)
    layer = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == f"{p}-relabels")
    shown = {}
    for group in layer:
        classes = group.get("class").split()
        assert classes[0] == f"{p}-val" and group.get("visibility") == "hidden"
        steps = tuple(int(c.rsplit("-t", 1)[1]) for c in classes if c.startswith(f"{p}-t"))
        label = next(t for t in group.iter(f"{SVG_NS}text") if "halo" not in t.get("class", ""))
        shown[words(label)] = (steps, next(c for c in classes if c.startswith(f"{p}-v") and c[len(p) + 2:].isdigit()))
    assert {text: steps for text, (steps, _) in shown.items()} == {
        LONG: (1,), "first": (2,), "flow of two longer words": (1, 2)}
    # the style sheet shows each in its steps: step 1 is 0 to 25 % of the loop (1 s of 1 + 2 × 1.5), step 2 the rest
    sheet = stylesheet(root)
    frames = {text: sheet.keyframes[f"{p}-q{cls.rsplit('-v', 1)[1]}"] for text, (_, cls) in shown.items()}
    visible = {text: [(at, decl["visibility"]) for at, decl in stops] for text, stops in frames.items()}
    assert visible[LONG] == [(0.0, "visible"), (25.0, "hidden"), (100.0, "hidden")]
    assert visible["first"] == [(0.0, "hidden"), (25.0, "visible"), (100.0, "visible")]
    assert visible["flow of two longer words"] == [(0.0, "visible"), (100.0, "visible")]
    rule = sheet.rules_for(f".{p}-{shown[LONG][1].rsplit('-', 1)[1]}")
    assert rule and "step-end" in rule[0].declarations["animation"]
    # the structure draws no second text for a changed label: the poster's is in frame 0
    nodes = next(g for g in root.iter(f"{SVG_NS}g") if g.get("class") == f"{p}-nodes")
    assert "first" not in [words(t) for t in nodes.iter(f"{SVG_NS}text")]
    poster = next(g for g in root.iter(f"{SVG_NS}g") if g.get("data-mech-frame") == "0")
    assert "first" in texts_of(poster, "label") and "flow" in texts_of(poster, "plabel")


def test_the_poster_shows_the_targets_own_labels_and_each_still_its_steps(files):
    poster = parsed(files, "ref.main.poster.svg")
    assert texts_of(poster, "label").count("first") == 1 and LONG not in texts_of(poster, "label")
    assert "flow" in texts_of(poster, "plabel") and "flow of two longer words" not in texts_of(poster, "plabel")
    one, two = parsed(files, "ref.main.frame-1.svg"), parsed(files, "ref.main.frame-2.svg")
    assert texts_of(one, "label").count(LONG) == 1 and "first" not in texts_of(one, "label")
    assert texts_of(two, "label").count("first") == 1 and LONG not in texts_of(two, "label")
    for still in (one, two):
        assert texts_of(still, "plabel").count("flow of two longer words") == 1 and "flow" not in texts_of(still, "plabel")
    # a0 is highlighted in step 1: its text there is the highlighted look (bold), in step 2 the plain one
    lit = [t for t in one.iter(f"{SVG_NS}text") if words(t) == LONG]
    assert [t.get("font-weight") for t in lit] == ["700"]
    plain = [t for t in two.iter(f"{SVG_NS}text") if words(t) == "first"]
    assert [t.get("font-weight") for t in plain] == [None]


def marked_rows(still: ET.Element) -> list[str]:
    """The panel values drawn with the changed mark (a diamond beside a bold value in the active colour)."""
    p = prefix(still)
    out = []
    for group in still.iter(f"{SVG_NS}g"):
        children = list(group)
        if children and children[0].tag == f"{SVG_NS}path" and children[0].get("class") == f"{p}-pmark":
            text = children[1]
            assert f"{p}-pval-on" in text.get("class").split() and text.get("font-weight") == "700"
            out.append(words(text))
    return out


def test_the_panel_marks_only_the_rows_a_step_changes_and_only_during_that_step(files):
    assert marked_rows(parsed(files, "ref.main.poster.svg")) == []
    assert marked_rows(parsed(files, "ref.main.frame-1.svg")) == ["one"]  # owner stays "nobody"
    assert sorted(marked_rows(parsed(files, "ref.main.frame-2.svg"))) == ["the worker", "two"]
    root = parsed(files, "ref.main.svg")
    p = prefix(root)
    marked = [g for g in root.iter(f"{SVG_NS}g") if (g.get("class") or "").startswith(f"{p}-val ")]
    steps = {words(g): [c for c in g.get("class").split() if c.startswith(f"{p}-t")] for g in marked
             if g.find(f"{SVG_NS}path") is not None and g.find(f"{SVG_NS}path").get("class") == f"{p}-pmark"}
    assert steps == {"one": [f"{p}-t1"], "two": [f"{p}-t2"], "the worker": [f"{p}-t2"]}


def test_a_spec_without_labels_draws_no_changed_label_but_marks_the_rows_a_step_changes():
    files = render(minimal_spec())
    animated, poster = (files[name].decode("utf-8") for name in ("ref.main.svg", "ref.main.poster.svg"))
    assert "-relabels" not in animated and "-relabels" not in poster
    assert animated.count('-pmark"') == 2 and "-pval-on" in animated  # one row, changed in each of two steps
    assert "-pmark" not in poster and "-pval-on" not in poster  # before the first step nothing has changed
