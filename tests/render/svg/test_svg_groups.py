"""Groups in the drawing: each group's frame and label under the paths and boxes, an active group's frame a
highlight with its own keyframes (half-way at the step boundaries, as every highlight), shown in the stills of its
steps only; the transcript names it; a figure without groups has no group paint in its colour rules."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from mechdiagram.render.stylesheet import colour_sheet
from mechdiagram.render.svg import prefix_for
from support.outputs import build_html, render
from support.svg import SVG_NS, stylesheet, with_class, words
from support.topologies import with_graph

PREFIX = prefix_for("groups", "main")


def grouped_spec() -> dict:
    data = with_graph({"browser": "Browser", "cdn": "CDN edge", "web": "Web server", "api": "API service"},
                      [("browser", "cdn", "GET"), ("cdn", "web", "miss"), ("web", "api", "call")])
    data["groups"] = {"frontend": {"label": "Frontend", "members": ["cdn", "web"]}}
    steps = data["scenarios"][0]["steps"]
    steps[1]["active"] = ["frontend"]
    steps[2]["active"] = ["frontend", "api"]
    return data


def files() -> dict[str, bytes]:
    return render(grouped_spec(), slug="groups")


def test_the_frame_and_its_label_are_drawn_under_the_paths():
    root = ET.fromstring(files()["groups.main.svg"])
    layers = [e.get("class") for e in root if e.get("class")]
    assert layers.index(f"{PREFIX}-groups") < layers.index(f"{PREFIX}-paths") < layers.index(f"{PREFIX}-nodes")
    (layer,) = with_class(root, f"{PREFIX}-groups")
    rects = layer.findall(f"{SVG_NS}rect")
    texts = layer.findall(f"{SVG_NS}text")
    assert len(rects) == 1 and [words(t) for t in texts] == ["Frontend"]
    assert rects[0].get("fill") not in (None, "none")  # tinted, from the palette
    assert rects[0].get("stroke-width") == "1"


def test_an_active_group_is_a_highlight_of_its_steps_with_keyframes():
    root = ET.fromstring(files()["groups.main.svg"])
    highlights = [g for g in with_class(root, f"{PREFIX}-hl") if g.find(f"{SVG_NS}rect") is not None
                  and g.find(f"{SVG_NS}rect").get("stroke-width") == "3" and g.find(f"{SVG_NS}rect").get("fill") == "none"]
    frames = [g for g in highlights if f"{PREFIX}-on" in g.get("class").split()
              and g.get("data-mech-steps") == "2 3"]
    assert len(frames) == 1
    index = next(c for c in frames[0].get("class").split() if re.fullmatch(rf"{PREFIX}-h\d+", c))
    sheet = stylesheet(root)
    assert any(rule for rule in sheet.rules_for(f".{index}", at=None) if "animation" in rule.declarations)


def test_the_poster_shows_no_group_highlight():
    outputs = files()
    poster = ET.fromstring(outputs["groups.main.poster.svg"])
    lit = [g for g in poster.iter() if f"{PREFIX}-hl" in (g.get("class") or "").split()
           and g.get("visibility") != "hidden"]
    assert lit == []  # the poster, the state before the first step, highlights nothing


def test_the_transcript_names_the_active_group(tmp_path):
    page = build_html(grouped_spec(), tmp_path, slug="groups")["page"]
    assert page.count('<p class="mech-group">Highlighted group: \u2068Frontend\u2069</p>') == 2


def test_a_figure_without_groups_has_no_group_paint():
    assert "group" not in colour_sheet("mech-x")
    assert colour_sheet("mech-x") == colour_sheet("mech-x", False, False)
    assert "-group{" in colour_sheet("mech-x", groups=True).replace(" ", "")


def test_the_step_stills_show_the_group_frame_highlighted_in_its_steps_only():
    from mechdiagram.layout import layout_scenario
    from mechdiagram.render.svg import render_scenario
    from mechdiagram.shared.model import spec_from_data

    spec = spec_from_data(grouped_spec())
    scenario = spec.scenarios[0]
    drawn = render_scenario(spec, scenario, layout_scenario(spec, scenario), PREFIX, stills=(1, 2, 3))

    def lit_frames(svg: str) -> int:
        root = ET.fromstring(svg)
        return sum(1 for g in root.iter() if f"{PREFIX}-hl" in (g.get("class") or "").split()
                   and g.get("visibility") != "hidden" and g.find(f"{SVG_NS}rect") is not None
                   and g.find(f"{SVG_NS}rect").get("fill") == "none"
                   and g.find(f"{SVG_NS}rect").get("stroke-width") == "3")

    assert [lit_frames(drawn.stills[k]) for k in (1, 2, 3)] == [0, 1, 1]
    assert [lit_frames(drawn.dark_stills[k]) for k in (1, 2, 3)] == [0, 1, 1]


def test_a_group_is_marked_as_a_target_is_on_a_corner_of_its_frame_and_in_words():
    from mechdiagram.layout import layout_scenario
    from mechdiagram.shared.model import spec_from_data

    data = grouped_spec()
    data["scenarios"][0]["steps"][1]["marks"] = {"frontend": "done"}
    outputs = render(data, slug="groups")
    root = ET.fromstring(outputs["groups.main.svg"])
    discs = [g for g in root.iter() if g.get("data-mech-mark") == "done"]
    assert len(discs) == 1
    disc = discs[0].find(f"{SVG_NS}circle")
    centre = (float(disc.get("cx")), float(disc.get("cy")))
    spec = spec_from_data(data)
    frame = layout_scenario(spec, spec.scenarios[0]).groups["frontend"]
    assert centre in {(frame.right, frame.y), (frame.right, frame.bottom), (frame.x, frame.bottom), (frame.x, frame.y)}
    assert "\u2068Frontend\u2069 (done)" in outputs["groups.html"].decode("utf-8")  # isolated, as author text is
