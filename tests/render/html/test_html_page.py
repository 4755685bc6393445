"""The HTML page and fragment: figure, caption, inline SVG, controls, transcript, limitations, sources,
the language and its direction.  Parsed with html5lib (:mod:`support.html_doc`), which also checks that
every element is closed by its own end tag."""

from __future__ import annotations

import json

import pytest

from mechdiagram.api import render_player
from mechdiagram.render.html import figure_context, render_page
from mechdiagram.shared.model import spec_from_data
from support.html_doc import Node, parse_html, raw_text
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
    # one canvas holding the drawing four times: the wide layout, the upper middle one and the middle one (the lane
    # grid transposed for a figure of about 740 px to the wide layout's width, and of about 600 to 1000 px), then
    # the narrow one (a phone's)
    canvas = figure.find(attrs={"data-mech-canvas": None})
    layouts = [["mech-wide"], ["mech-upper"], ["mech-middle"], ["mech-narrow"]]
    assert [[c for c in box.classes if c != "mech-canvas-inner"] for box in canvas.children] == layouts
    svgs = figure.find_all("svg")
    assert [svg.parent.classes for svg in svgs] == [["mech-canvas-inner", *layout] for layout in layouts]
    assert len({svg.find("title").attrs["id"] for svg in svgs}) == 4  # each layout's ids its own
    for svg in svgs:
        assert svg.attrs["role"] == "img"
        assert svg.find("title").text() == spec["title"]
        assert svg.find("desc").text() == spec["alt"]
        assert svg.attrs["aria-labelledby"] == svg.find("title").attrs["id"]
        assert svg.attrs["aria-describedby"] == svg.find("desc").attrs["id"]
    wide, upper, middle, narrow = svgs
    # the same classes (one style sheet, written once, in the wide drawing), ids of their own
    assert wide.attrs["class"] == upper.attrs["class"] == middle.attrs["class"] == narrow.attrs["class"]
    assert len(wide.find_all("style")) == 1
    assert upper.find_all("style") == middle.find_all("style") == narrow.find_all("style") == []
    prefix = wide.attrs["class"]
    assert wide.find("title").attrs["id"] == f"{prefix}-title"
    assert upper.find("title").attrs["id"] == f"{prefix}-upper-title"
    assert middle.find("title").attrs["id"] == f"{prefix}-middle-title"
    assert narrow.find("title").attrs["id"] == f"{prefix}-narrow-title"
    ids = [node.attrs["id"] for node in document.iter() if "id" in node.attrs]
    assert len(ids) == len(set(ids))
    assert len(wide.find_all(attrs={"id": None})) == len(narrow.find_all(attrs={"id": None}))
    # narrow, middle, upper, wide: each narrower than the next, and all keep 13 px text at 12 px or more (at least
    # 12/13 of it wide); each grows with its frame to 1.5 times its width (issue 26: it fills its frame), the
    # narrow one to 85 % of the width its middle one shows from where that is more, at most 1.7 times
    widths = [float(svg.attrs["viewBox"].split(",")[2]) for svg in svgs]
    assert widths[3] < widths[2] < widths[1] < widths[0] and widths[2] <= 570 < widths[1] <= 800
    shown = [dict(part.split(":") for part in svg.parent.attrs["style"].split(";")) for svg in svgs]
    middle_from = float(document.find(attrs={"data-mech-canvas": None}).attrs["data-mech-middle-from"])
    for width, style, name in zip(widths, shown, ("wide", "upper", "middle", "narrow"), strict=True):
        most = max(width * 1.5, min(0.85 * middle_from, width * 1.7)) if name == "narrow" else width * 1.5
        assert style["max-width"] == f"{round(most, 1):g}px", (name, most)
        assert width * 12 / 13 <= float(style["min-width"].removesuffix("px")) < width * 12 / 13 + 0.1


def test_the_figure_switches_layouts_where_the_wide_text_would_fall_below_12_px(document):
    """The container query's breakpoint is where the wide drawing's 13 px path labels would render at 12 CSS px,
    rounded up to a multiple of 16 px (so that one style sheet holds every breakpoint), or WIDE_SCROLLS_FROM (960
    px) when that is less: on a screen that wide the wide drawing keeps its 12 px width and scrolls in its frame
    rather than give way to the phone's column."""
    from mechdiagram.render.html import (
        SWITCH_STEP,
        UPPER_SCROLLS_FROM,
        WIDE_SCROLLS_FROM,
        fmt,
        readable_width,
        switches,
        wide_from,
        wide_switches,
    )

    wide = document.find("div", "mech-wide").find("svg")
    width = float(wide.attrs["viewBox"].split(",")[2])
    canvas = document.find(attrs={"data-mech-canvas": None})
    at = canvas.attrs["data-mech-wide-from"]
    readable = float(wide.parent.attrs["style"].split("min-width:")[1].split("px")[0])
    assert width * 12 / 13 <= readable < width * 12 / 13 + 0.1
    # with an upper middle layout (the reference's) from the wide one's readable width up to UPPER_SCROLLS_FROM
    assert float(at) == min(readable, UPPER_SCROLLS_FROM) or readable < float(at) < readable + SWITCH_STEP
    assert float(at) % SWITCH_STEP == 0 and float(at) > WIDE_SCROLLS_FROM
    assert wide_from(500) == 464 and wide_from(2000) == WIDE_SCROLLS_FROM  # 500 * 12 / 13 = 461.6, up to 464
    assert wide_from(2000, UPPER_SCROLLS_FROM) == UPPER_SCROLLS_FROM
    assert switches()[:2] == ["16", "32"] and switches()[-1] == "960"
    assert at in wide_switches() and wide_switches()[0] == "976" and wide_switches()[-1] == "1280"
    css = "".join(raw_text(document, "style"))
    if document.find_all("link"):  # the fragment: the player's style sheet is a file of its own
        css += next(data.decode("utf-8") for name, data in render_player().items() if name.endswith(".css"))
    assert (f'@container mech-figure (width < {at}px){{[data-mech-wide-from="{at}"]>.mech-wide{{display:none}}'
            f'[data-mech-wide-from="{at}"]>:is(.mech-narrow,.mech-middle,.mech-upper){{display:block}}}}') in css
    assert (".mech-canvas-inner:is(.mech-narrow,.mech-middle,.mech-upper),"  # without container queries: the wide
            ".mech-heads-inner:is(.mech-narrow,.mech-middle,.mech-upper){display:none}") in css  # one
    # the middle layout from its own readable width (the narrow one below it), as wide as its frame up to 1.5 times
    middle = document.find("div", "mech-middle")
    middle_at = canvas.attrs["data-mech-middle-from"]
    natural = float(middle.find("svg").attrs["viewBox"].split(",")[2])
    assert float(middle_at) == wide_from(natural) < float(at) and float(middle_at) <= 540  # a 600 px screen's figure
    assert middle.attrs["style"] == f"min-width:{fmt(readable_width(natural))}px;max-width:{fmt(natural * 1.5)}px"
    frames = ":is([data-mech-canvas],[data-mech-heads])"  # the drawings' and a sequence's heads strips'
    assert (f'@container mech-figure (width >= {middle_at}px){{{frames}[data-mech-middle-from="{middle_at}"]'
            '>.mech-narrow{display:none}') in css
    assert (f'{frames}[data-mech-middle-from="{middle_at}"]>.mech-middle{{display:none}}') in css
    # the upper middle layout from its own readable width to the wide one's (the middle one below it)
    upper = document.find("div", "mech-upper")
    upper_at = canvas.attrs["data-mech-upper-from"]
    natural = float(upper.find("svg").attrs["viewBox"].split(",")[2])
    assert float(middle_at) < float(upper_at) == wide_from(natural) < float(at) and float(upper_at) <= 740
    assert (f'{frames}[data-mech-upper-from="{upper_at}"]>.mech-upper{{display:none}}}}') in css
    assert (f'@container mech-figure (width >= {upper_at}px){{{frames}[data-mech-middle-from="{upper_at}"]'
            f'>.mech-narrow{{display:none}}{frames}[data-mech-upper-from="{upper_at}"]>:is(.mech-narrow,.mech-middle)'
            '{display:none}}') in css


def test_controls_buttons_and_tabs(document):
    controls = document.find("div", "mech-controls")
    buttons = [b for b in controls.find_all("button") if "mech-tab" not in b.classes]
    # each button's content is its accessible name; the short word for narrow figures is aria-hidden
    assert [b.heard() for b in buttons] == ["Pause animation", "Previous step", "Next step"]
    assert [b.find("span", "mech-short").words() for b in buttons] == ["PausePlay", "Previous", "Next"]
    assert all(b.find("span", "mech-short").attrs["aria-hidden"] == "true" for b in buttons)
    # the play button holds both names, so that its width never changes; the other one is hidden and unheard
    play = buttons[0]
    assert [s.words() for s in play.find_all("span", "mech-when-paused")] == ["Play animation", "Play"]
    assert play.find("span", "mech-long").find("span", "mech-when-paused").attrs["aria-hidden"] == "true"
    assert "data-mech-playing" in play.attrs and "aria-label" not in play.attrs
    assert all(b.attrs.get("type") == "button" for b in controls.find_all("button"))
    assert document.find_all("select") == []  # one scenario: no choice
    # the step indicator: one group of one button per step; the player makes them a tablist of tabs
    # (the markup of a figure without its script claims no tabs: the Nu HTML Checker's rule)
    assert document.find_all(attrs={"role": "tablist"}) == [] and document.find_all(attrs={"role": "tab"}) == []
    tablists = document.find_all("div", "mech-tabs")
    assert len(tablists) == 1 and tablists[0].attrs["aria-label"] == "Steps" and tablists[0].attrs["role"] == "group"
    tabs = tablists[0].find_all("button")
    assert [t.words() for t in tabs] == [str(i) for i in range(1, len(STEPS) + 1)]
    assert [t.attrs["aria-label"] for t in tabs] == [f"Step {i}: \u2068{s[0]}\u2069" for i, s in enumerate(STEPS, 1)]
    assert not any("aria-selected" in t.attrs or "tabindex" in t.attrs for t in tabs)
    panel = document.find(attrs={"data-mech-canvas": None})
    assert {t.attrs["aria-controls"] for t in tabs} == {panel.attrs["id"]}
    assert "role" not in panel.attrs and "aria-labelledby" not in panel.attrs
    # "Step N of M" is written once, in the drawing's panel: not again in the HTML
    assert "Step 1 of" not in controls.words()
    assert document.find_all("p", "mech-position") == []


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
        # two scenarios, each in three layouts: the wide grid spread to a wide screen, its natural one, the phone's
        assert len(root.find("figure").find_all("svg")) == 6
        # one tablist per scenario, with one tab per step; only the first scenario's is shown
        tablists = root.find_all("div", "mech-tabs")
        assert [len(t.find_all("button")) for t in tablists] == [2, 1]
        assert ["hidden" in t.attrs for t in tablists] == [False, True]
        panels = [c.attrs["id"] for c in root.find_all(attrs={"data-mech-canvas": None})]
        assert [{b.attrs["aria-controls"] for b in t.find_all("button")} for t in tablists] == [{p} for p in panels]
        assert len(root.find_all("ol", "mech-steps")) == 2


def test_transcript_lists_every_step(document):
    spec = reference_spec()
    lists = document.find_all("ol")
    assert len(lists) == 1
    items = lists[0].children
    assert len(items) == 7 and all(li.tag == "li" for li in items)
    before = (spec["scenarios"][0]["initial"]["stage"], spec["scenarios"][0]["initial"]["artifact"])
    for item, (title, description, _, stage, artifact) in zip(items, STEPS):
        text = item.words()
        assert item.find("strong").words() == title
        assert description in text
        assert "(3 s)" in text
        pairs = [(d.find("dt").words(), d.find("dd").words()) for d in item.find("dl").find_all("div")]
        # A row whose value the step changes says so ("◆ (changed)": the panel's mark and its words).
        said = [value + (" ◆ (changed)" if value != old else "") for value, old in zip((stage, artifact), before)]
        assert pairs == [("Stage", said[0]), ("Artifact", said[1])]
        before = (stage, artifact)
    assert spec["scenarios"][0]["title"] in document.find("section", "mech-transcript").words()


def test_transcript_durations_are_in_seconds(tmp_path):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 1250
    root = parse_html(build_html(data, tmp_path, "tiny")["page"])
    durations = [n.words() for n in root.find_all("span", "mech-duration")]
    assert durations == ["(1.25 s)", "(2 s)"]


def test_limitations_and_sources_with_status(document, reference_html):
    data = reference_html[0]
    limitations = document.find("section", "mech-limitations")
    assert [li.words() for li in limitations.find_all("li")] == data["limitations"]
    sources = document.find("section", "mech-sources").find_all("li")
    assert [li.find("code").words() for li in sources] == [s["path"] for s in data["sources"]]
    statuses = [li.find("span", "mech-source-status").words() for li in sources]
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


def test_a_language_of_the_catalogue_gets_its_own_words(tmp_path):
    data = minimal_spec()
    data["language"] = "de-AT"  # no entry of its own: the primary subtag's
    root = parse_html(build_html(data, tmp_path, "tiny")["page"])
    assert root.find("html").attrs["lang"] == "de-AT"
    controls = root.find("div", "mech-controls")
    assert controls.attrs.get("lang") is None and controls.attrs["aria-label"] == "Animationssteuerung"
    assert root.find("h2").words() == "Transkript"


def test_a_language_outside_the_catalogue_keeps_english_controls_marked(tmp_path):
    data = minimal_spec()
    data["language"] = "ko"
    root = parse_html(build_html(data, tmp_path, "tiny")["page"])
    assert root.find("html").attrs["lang"] == "ko"
    controls = root.find("div", "mech-controls")
    assert controls.attrs.get("lang") == "en" and controls.attrs["aria-label"] == "Animation controls"


def test_right_to_left_languages_set_the_direction():
    data = minimal_spec()
    data["language"] = "ar"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="ar" dir="rtl">' in page
    assert 'lang="ar" dir="rtl" style=' in page
    assert 'aria-label="عناصر التحكم في الرسوم المتحركة" hidden>' in page
    data["language"] = "he"  # right to left, outside the catalogue: English words, marked left to right
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert 'lang="he" dir="rtl" style=' in page
    assert 'aria-label="Animation controls" hidden lang="en" dir="ltr"' in page
    data["language"] = "en-GB"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="en-GB" dir="ltr">' in page


def test_prose_keeps_a_number_with_its_unit_and_a_last_number_with_its_word(tmp_path):
    """The browser wraps the figure's prose, so "92 ms" and "fill page 7" are joined by a no-break space
    (U+00A0) there, as the drawing's wrapping keeps them; the words themselves are the author's."""
    spec = reference_spec()
    spec["caption"] = "TTFT is 92 ms, and decode adds 2 GiB"
    spec["limitations"] = ["Decode passes fill page 7"]
    spec["scenarios"][0]["steps"][0]["description"] = "Queued for (18 ms) at most"
    page = parse_html(build_html(spec, tmp_path)["page"])
    assert page.find_all("figcaption")[0].text() == "TTFT is 92\u00a0ms, and decode adds 2\u00a0GiB"
    assert "Decode passes fill page\u00a07" in [li.text() for li in page.find_all("li")]
    assert any(p.text() == "Queued for (18\u00a0ms) at most" for p in page.find_all("p"))


def test_tab_rows_split_a_count_that_one_row_cannot_hold_into_two_even_rows():
    from mechdiagram.render.html import TAB_GAP, TAB_SIZE, tab_rows

    assert tab_rows((8, 8, 2, 5)) == [
        {"count": 5, "columns": 3, "one": 5 * TAB_SIZE + 4 * TAB_GAP, "two": 3 * TAB_SIZE + 2 * TAB_GAP},
        {"count": 8, "columns": 4, "one": 8 * TAB_SIZE + 7 * TAB_GAP, "two": 4 * TAB_SIZE + 3 * TAB_GAP},
    ]  # two tabs never need it


def test_the_page_summary_and_the_caption_share_one_measure(tmp_path):
    """The summary under the page's heading ran the whole 82rem page (170 characters a line) at the browser's
    tight line height, beside a caption of 70 characters: one measure for both, from mechdiagram.render.theme."""
    from mechdiagram.render import theme

    data = minimal_spec()
    data["description"] = "A request waits 18 ms in the queue."
    page = build_html(data, tmp_path)["page"]
    assert f".mech-page>p{{max-width:{theme.MEASURE};line-height:1.5}}" in page
    assert "<p>A request waits 18\u00a0ms in the queue.</p>" in page  # a number keeps its unit there too
    assert ".mech-transcript p,.mech-transcript dl,.mech-limitations li,.mech-sources li{max-width:var(--mech-ui-measure)}" in page
    assert f"--mech-ui-measure:{theme.MEASURE}" in page
    assert "figcaption{margin-top:.5rem;color:var(--mech-ui-text);max-width:var(--mech-ui-measure)}" in page


def test_a_sequence_figure_has_a_hidden_heads_strip_over_its_drawing_and_no_other_view_has_one(tmp_path):
    """A sequence's scene holds its frame and, after it, the heads strip (figure.html): hidden until the player
    shows it (which hides it from assistive technology: test_browser_sequence), one strip SVG per layout, each the drawing's width in user units,
    with the drawing's class (its style sheet colours and animates it), the heads' boxes and no id; the reference
    (a lane grid) has none."""
    from support.sequences import oauth_spec

    data = oauth_spec()
    document = parse_html(build_html(data, tmp_path, slug="oauth")["page"])
    for scene, scenario in zip(document.find_all(attrs={"data-mech-scene": None}), data["scenarios"], strict=True):
        (sequence,) = scene.find_all(cls="mech-sequence")
        canvas, strip = sequence.children
        assert "data-mech-canvas" in canvas.attrs and strip.attrs["data-mech-heads"] == ""
        assert "hidden" in strip.attrs and "aria-hidden" not in strip.attrs  # the player adds it, showing it
        assert strip.attrs["data-mech-wide-from"] == canvas.attrs["data-mech-wide-from"]
        # spread wide (issue 26), its natural width the middle layout's: a strip for each
        assert strip.attrs["data-mech-middle-from"] == canvas.attrs["data-mech-middle-from"]
        drawings = canvas.find_all("svg")
        heads = strip.find_all("svg")
        assert [h.parent.classes for h in heads] == [["mech-heads-inner", "mech-wide"],
                                                     ["mech-heads-inner", "mech-middle"],
                                                     ["mech-heads-inner", "mech-narrow"]]
        for drawing, head in zip(drawings, heads, strict=True):
            assert head.attrs["class"] == drawing.attrs["class"] and head.attrs["width"] == drawing.attrs["width"]
            assert head.parent.attrs["style"] == drawing.parent.attrs["style"]  # scaled alike
            assert float(head.attrs["height"]) < float(drawing.attrs["height"]) / 4
            assert not head.find_all(attrs={"id": None}) and "role" not in head.attrs
            assert len(head.find("g", cls=f"{drawing.attrs['class']}-nodes").find_all("rect")) == 5
            # A mark for each step, which the player marks as in the drawing.
            assert len(head.find_all(attrs={"data-mech-frame": None})) == len(scenario["steps"])
    reference = parse_html(build_html(reference_spec(), tmp_path)["page"])
    assert not reference.find_all(attrs={"data-mech-heads": None}) and not reference.find_all(cls="mech-sequence")


def test_the_phones_column_grows_to_fill_its_frame_until_the_middle_layout_shows(tmp_path):
    """Issue 26: a new user's dead-letter queue, its phone's column 304 units and its middle drawing 579 (shown from
    544 px, where its text is 12 px), showed the column at 1.5 times, 456 px, in 84 % of a 540 px frame.  The
    column now grows to 85 % of the width the middle layout shows from (462.4 px), at most 1.7 times its width; a
    figure without a middle layout keeps 1.5 times."""
    from support.topologies import dead_letter_queue

    page = parse_html(build_html(dead_letter_queue(), tmp_path, slug="dlq")["page"])
    canvas = page.find(attrs={"data-mech-canvas": None})
    middle_from = float(canvas.attrs["data-mech-middle-from"])
    narrow = page.find("div", "mech-narrow")
    width = float(narrow.find("svg").attrs["viewBox"].split(",")[2])
    assert width * 1.5 < 0.85 * middle_from <= width * 1.7, (width, middle_from)
    assert narrow.attrs["style"].endswith(f"max-width:{0.85 * middle_from:g}px")
    plain = parse_html(build_html(minimal_spec(), tmp_path, slug="tiny")["page"])
    assert not plain.find(attrs={"data-mech-canvas": None}).attrs.get("data-mech-middle-from")
    small = plain.find("div", "mech-narrow")
    assert small.attrs["style"].endswith(
        f"max-width:{float(small.find('svg').attrs['viewBox'].split(',')[2]) * 1.5:g}px")
