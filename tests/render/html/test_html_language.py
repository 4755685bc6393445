"""The tool's words in the spec's language, in the HTML and in the SVG drawn for it: a right-to-left spec,
the spec's own overrides, and author text isolated from the tool's words (<bdi> in HTML, FSI ... PDI in
attributes, the player's data and SVG text)."""

from __future__ import annotations

import json
from xml.etree import ElementTree

from mechdiagram.shared.assets import locale_messages
from mechdiagram.shared.locale import FSI, PDI
from support.html_doc import parse_html
from support.outputs import render
from support.specs import minimal_spec

AR = locale_messages("ar")
SVG = "{http://www.w3.org/2000/svg}"


def arabic_spec() -> dict:
    data = minimal_spec()
    data["language"] = "ar"
    data["scenarios"][0]["title"] = "طلب واحد"
    data["scenarios"][0]["steps"][0]["title"] = "Prefill 1"  # left-to-right author text in a right-to-left line
    return data


def ptitles(svg: str) -> list[str]:
    """The state panel's heading of every frame (poster first), its lines joined."""
    root = ElementTree.fromstring(svg.split("?>", 1)[-1])
    titles = []
    for frame in root.iter(f"{SVG}g"):
        if "data-mech-frame" not in frame.attrib:
            continue
        (heading,) = [t for t in frame.iter(f"{SVG}text") if t.get("class", "").endswith("-ptitle")]
        titles.append("".join(heading.itertext()))
    return titles


def test_a_right_to_left_spec_gets_its_words_and_isolates_author_text():
    files = render(arabic_spec(), "ar")
    root = parse_html(files["ar.html"].decode("utf-8"))
    figure = root.find("mech-diagram", "mech-root")
    assert (figure.attrs["lang"], figure.attrs["dir"]) == ("ar", "rtl")
    controls = figure.find("div", "mech-controls")
    assert "lang" not in controls.attrs and controls.attrs["aria-label"] == AR["controls"]
    assert [b.heard() for b in controls.find_all("button")][:3] == [AR["pauseName"], AR["previousName"], AR["nextName"]]
    tabs = controls.find_all("button", "mech-tab")
    assert tabs[0].attrs["aria-label"] == AR["stepTab"].replace("{n}", "1").replace("{title}", f"{FSI}Prefill 1{PDI}")
    assert [h.words() for h in root.find_all("h2")] == [AR["transcript"], AR["limitations"]]
    # the transcript's step title is a <bdi>, apart from the tool's duration after it
    first = root.find("p", "mech-step-title")
    assert first.find("bdi").words() == "Prefill 1"
    assert first.find("span", "mech-duration").words() == AR["duration"].replace("{seconds}", "1")
    data = json.loads(root.find("mech-diagram").attrs["data-mech-player"])
    assert data["words"] == {key: AR[key] for key in ("reducedMotion", "exploreActive", "exploreInactive",
                                                      "exploreUsed", "exploreUnused", "exploreJoin")}
    assert data["scenarios"][0]["steps"][0]["announcement"].startswith(
        AR["stepOf"].replace("{n}", "1").replace("{total}", "2").replace("{title}", f"{FSI}Prefill 1{PDI}"))


def test_the_svg_panel_heading_reads_right_to_left_with_the_title_isolated_inside():
    files = render(arabic_spec(), "ar")
    for name in ("ar.main.svg", "ar.main.poster.svg"):
        root = ElementTree.fromstring(files[name].decode("utf-8").split("?>", 1)[-1])
        headings = [t for t in root.iter(f"{SVG}text") if t.get("class", "").endswith("-ptitle")]
        assert headings and all((t.get("direction"), t.get("text-anchor")) == ("rtl", "middle") for t in headings)
        others = [t for t in root.iter(f"{SVG}text") if not t.get("class", "").endswith("-ptitle")]
        assert others and all(t.get("direction") is None for t in others)  # author text keeps its own direction
    poster, first, second = ptitles(files["ar.main.svg"].decode("utf-8"))
    assert poster == f"{FSI}طلب واحد{PDI}: قبل الخطوة الأولى"
    assert first == f"الخطوة 1 من 2: {FSI}Prefill 1{PDI}"
    assert second.startswith(f"الخطوة 2 من 2: {FSI}")
    assert ptitles(files["ar.main.poster.svg"].decode("utf-8")) == [poster]
    # a left-to-right spec's heading has no direction of its own
    english = ElementTree.fromstring(render(minimal_spec(), "en")["en.main.svg"].decode("utf-8").split("?>", 1)[-1])
    assert all(t.get("direction") is None for t in english.iter(f"{SVG}text"))


def test_the_specs_messages_replace_the_catalogues_words_everywhere():
    data = minimal_spec()
    data["messages"] = {"stepOf": "Stage {n}/{total} — {title}", "transcript": "Walkthrough",
                        "posterTitle": "{scenario}, at rest", "pauseName": "Pause the figure"}
    files = render(data, "tiny")
    root = parse_html(files["tiny.html"].decode("utf-8"))
    assert root.find("h2").words() == "Walkthrough"
    assert root.find("button", "mech-play").heard() == "Pause the figure"
    assert root.find("button", "mech-prev").heard() == "Previous step"  # not overridden: the catalogue's
    steps = json.loads(root.find("mech-diagram").attrs["data-mech-player"])["scenarios"][0]["steps"]
    assert steps[1]["announcement"].startswith(f"Stage 2/2 — {FSI}{data['scenarios'][0]['steps'][1]['title']}{PDI}.")
    titles = ptitles(files["tiny.main.svg"].decode("utf-8"))
    assert titles[0] == f"{FSI}{data['scenarios'][0]['title']}{PDI}, at rest"
    assert titles[1].startswith("Stage 1/2 — ")
