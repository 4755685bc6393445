"""The HTML page and fragment: figure, caption, inline SVG, controls, transcript, limitations, sources,
the language and its direction.  Parsed with html5lib (:mod:`support.html_doc`), which also checks that
every element is closed by its own end tag."""

from __future__ import annotations

import json

import pytest

from renderer.html import figure_context, render_page
from renderer.model import spec_from_data
from support.html_doc import Node, parse_html
from support.outputs import build_html
from support.reference_spec import STEPS, reference_spec
from support.specs import minimal_spec


@pytest.fixture(scope="module", params=["page", "fragment"])
def document(request, reference_html) -> Node:
    return parse_html(reference_html[1][request.param])


# --- figure, caption, SVG --------------------------------------------------------------------------

def test_figure_has_caption_and_inline_svg(document):
    spec = reference_spec()
    figures = document.find_all("figure")
    assert len(figures) == 1
    figure = figures[0]
    captions = figure.find_all("figcaption")
    assert len(captions) == 1 and captions[0].text() == spec["caption"]
    assert captions[0].parent is figure
    svgs = figure.find_all("svg")
    assert len(svgs) == 1
    svg = svgs[0]
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text() == spec["title"]
    assert svg.find("desc").text() == spec["alt"]
    assert svg.attrs["aria-labelledby"] == svg.find("title").attrs["id"]


def test_controls_buttons_and_position(document):
    buttons = [b.heard() for b in document.find_all("button")]
    assert buttons == ["Pause animation", "Previous step", "Next step"]
    # the play button also holds its other word, invisible, so that its width never changes
    ghost = document.find_all("span", "md-ghost")
    assert [g.words() for g in ghost] == ["Play"] and ghost[0].attrs.get("aria-hidden") == "true"
    assert all(b.attrs.get("type") == "button" for b in document.find_all("button"))
    assert document.find_all("select") == []  # one scenario: no choice
    assert document.find("p", "md-position").words() == "Step 1 of 7"


def test_a_select_appears_with_two_scenarios(tmp_path):
    data = minimal_spec()
    second = json.loads(json.dumps(data["scenarios"][0]))
    second.update(id="other", title="Other way")
    second["steps"] = second["steps"][:1]
    data["scenarios"].append(second)
    for html in build_html(data, tmp_path, "tiny").values():
        root = parse_html(html)
        selects = root.find_all("select")
        assert len(selects) == 1
        assert [(o.attrs["value"], o.words()) for o in selects[0].find_all("option")] == [("0", "Main"),
                                                                                       ("1", "Other way")]
        label = [n for n in root.find_all("label") if n.attrs.get("for") == selects[0].attrs["id"]]
        assert len(label) == 1
        assert len(root.find("figure").find_all("svg")) == 2
        assert root.find("p", "md-position").words() == "Step 1 of 2"
        assert len(root.find_all("ol", "md-steps")) == 2


def test_transcript_lists_every_step(document):
    spec = reference_spec()
    lists = document.find_all("ol")
    assert len(lists) == 1
    items = lists[0].children
    assert len(items) == 7 and all(li.tag == "li" for li in items)
    for item, (title, description, _, stage, artifact) in zip(items, STEPS):
        text = item.words()
        assert item.find("strong").words() == title
        assert description in text
        assert "(3 s)" in text
        pairs = [(d.find("dt").words(), d.find("dd").words()) for d in item.find("dl").find_all("div")]
        assert pairs == [("Stage", stage), ("Artifact", artifact)]
    assert spec["scenarios"][0]["title"] in document.find("section", "md-transcript").words()


def test_transcript_durations_are_in_seconds(tmp_path):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 1250
    root = parse_html(build_html(data, tmp_path, "tiny")["page"])
    durations = [n.words() for n in root.find_all("span", "md-duration")]
    assert durations == ["(1.25 s)", "(2 s)"]


def test_limitations_and_sources_with_status(document, reference_html):
    data = reference_html[0]
    limitations = document.find("section", "md-limitations")
    assert [li.words() for li in limitations.find_all("li")] == data["limitations"]
    sources = document.find("section", "md-sources").find_all("li")
    assert [li.find("code").words() for li in sources] == [s["path"] for s in data["sources"]]
    statuses = [li.find("span", "md-source-status").words() for li in sources]
    assert statuses == [
        "(verified: the file matches its SHA-256)",
        "(verified: the file matches its SHA-256)",
        "(not verified: no SHA-256 is declared)",
        "(not verified: the file was not available when this figure was built)",
    ]
    assert data["sources"][0]["description"] in sources[0].words()


def test_page_is_a_whole_document_and_fragment_is_not(reference_html):
    page, fragment = reference_html[1]["page"], reference_html[1]["fragment"]
    assert page.startswith("<!DOCTYPE html>")
    root = parse_html(page)
    html = root.find("html")
    assert html.attrs["lang"] == "en"
    assert root.find("title").words() == reference_spec()["title"]
    assert root.find("h1").words() == reference_spec()["title"]
    assert "<html" not in fragment and "<head" not in fragment and "<body" not in fragment
    assert parse_html(fragment).find_all("figure")


def test_non_english_spec_keeps_english_controls_marked(tmp_path):
    data = minimal_spec()
    data["language"] = "de"
    root = parse_html(build_html(data, tmp_path, "tiny")["page"])
    assert root.find("html").attrs["lang"] == "de"
    assert root.find("div", "md-controls").attrs.get("lang") == "en"


def test_right_to_left_languages_set_the_direction_and_english_controls_stay_ltr():
    data = minimal_spec()
    data["language"] = "ar"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="ar" dir="rtl">' in page
    assert 'data-md-figure lang="ar" dir="rtl"' in page
    assert 'aria-label="Animation controls" hidden lang="en" dir="ltr"' in page
    data["language"] = "en-GB"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="en-GB" dir="ltr">' in page
