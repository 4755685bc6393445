"""Every width: the HTML figure shows its narrow layout (one column of boxes) in a column narrower than the
wide drawing's readable width and its wide layout from there, by a container query; one drawing at a time is
drawn and in the accessibility tree; no SVG text renders below 12 CSS px at 320, 360 and 1280 px; the page never
scrolls sideways; a drawing wider than its column scrolls in its own frame, which then takes keyboard focus; and
Play/Pause never changes the button's width.  Screenshots of every figure at 360, 768 and 1280 px, light and
dark, at the first, middle and last step, go to ``build/screenshots/`` for a person to look at."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from mechdiagram.layout import diagram
from mechdiagram.layout.sizes import MIN_TEXT_PX, NARROW_MIN_WIDTH, TRANSPOSED_MAX_WIDTH
from mechdiagram.shared.model import spec_from_data

from . import browser_support as bs

#: Screenshots for a person to look at (``build/`` is not committed).

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ALL = bs.mechanism_slugs() + list(bs.GENERATED)

#: In page (argument: the figure's root): of the shown scene, which layouts are drawn (have a box on the page),
#: what the hidden ones compute to, the smallest rendered size of any visible text of the drawn SVG in CSS px
#: (its font size times the SVG's scale, as the picture test measures it), the breakpoint, the figure's width,
#: and whether the frame scrolls and is a tab stop.
LAYOUT_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const boxes = Array.from(scene.querySelectorAll(".mech-canvas-inner"));
  const name = box => Array.from(box.classList).find(c => c !== "mech-canvas-inner").replace(/^mech-/, "");
  const drawn = boxes.filter(b => b.getClientRects().length);
  const svg = drawn.length === 1 ? drawn[0].querySelector("svg") : null;
  let smallest = Infinity, where = "";
  if (svg) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll("text")) {
      if (!text.getClientRects().length) continue;
      const style = getComputedStyle(text);
      if (style.visibility === "hidden" || style.display === "none") continue;
      const size = parseFloat(style.fontSize) * scale;
      if (size < smallest) { smallest = size; where = text.textContent.slice(0, 30); }
    }
  }
  const canvas = scene.querySelector("[data-mech-canvas]");
  return {drawn: drawn.map(name), hidden: boxes.filter(b => !drawn.includes(b)).map(b => getComputedStyle(b).display),
          smallest, where, wideFrom: Number(canvas.dataset.mechWideFrom), column: canvas.clientWidth,
          middleFrom: Number(canvas.dataset.mechMiddleFrom || 0), upperFrom: Number(canvas.dataset.mechUpperFrom || 0),
          fill: svg ? Math.min(svg.getBoundingClientRect().width, canvas.clientWidth) / canvas.clientWidth : 0,
          scrolls: canvas.scrollWidth > canvas.clientWidth + 1, tabindex: canvas.getAttribute("tabindex"),
          explorer: canvas.querySelectorAll(".mech-explore [tabindex='0']").length};
}"""

#: The page's sideways overflow, in CSS px, as WCAG 2.2 SC 1.4.10 (Reflow) means it.
PAGE_OVERFLOW_JS = "() => document.scrollingElement.scrollWidth - window.innerWidth"


def layout_facts(page) -> dict:
    return bs.figures(page).nth(0).evaluate(LAYOUT_JS)


@pytest.mark.parametrize("width", [320, 360, 600, 768, 900, 1024, 1280, 1440])
@pytest.mark.parametrize("slug", ALL)
def test_the_layout_fits_the_column_and_no_text_is_below_12_px(site, open_page, slug, width):
    page = open_page(site.page(slug), viewport=(width, 800))
    facts = layout_facts(page)
    # a phone shows the narrow layout, a 1280 px screen the wide one: every figure here is readable at 1216 px;
    # between them a lane grid's or a sequence's middle layout where it has one (issue 26), above it a lane grid's
    # upper middle one where it has one, the narrow or the wide one otherwise
    column, wide_from, middle_from, upper_from = facts["column"], facts["wideFrom"], facts["middleFrom"], \
        facts["upperFrom"]
    expected = ("wide" if column >= wide_from else "upper" if upper_from and column >= upper_from else
                "middle" if middle_from and column >= middle_from else "narrow")
    assert facts["drawn"] == [expected], (slug, width, facts)
    # every layout fills 85 % of the frame or more at every width (issue 26): the narrow one until a middle one's 12 px
    # width (a layered graph's is up to MIDDLE_GRAPH_WIDTH: from 592 px), the wide one spread to SPREAD_WIDTH where
    # it is narrower (a chain of three filled 62 % of a 1,408 px screen's figure)
    assert facts["fill"] >= 0.85, (slug, width, facts)
    # the others are neither drawn nor in the accessibility tree
    assert facts["hidden"] == ["none"] * (1 + bool(middle_from) + bool(upper_from)), facts
    if expected in ("middle", "upper"):  # made for this width: it fills 85 % of its frame or more, never scrolls
        assert facts["fill"] >= 0.85 and not facts["scrolls"], (slug, width, facts)
    if upper_from:  # from the middle layout's width to 1,440 px: never the wide grid scrolling in its frame
        assert expected == "narrow" or (facts["fill"] >= 0.85 and not facts["scrolls"]), (slug, width, facts)
    if width in (320, 360, 1280):
        assert facts["drawn"] == ["narrow" if width < 1280 else "wide"], (slug, width, facts)
    assert facts["smallest"] >= MIN_TEXT_PX - 0.01, (slug, width, facts)
    overflow = page.evaluate(PAGE_OVERFLOW_JS)
    assert overflow <= 0, f"{slug}: the page scrolls sideways by {overflow}px at {width}px"
    # the frame's one tab stop is the drawing's structure inside it (the explorer), which scrolls what it
    # focuses into view (WCAG 2.2 SC 2.1.1): the frame itself is none
    assert facts["tabindex"] is None and facts["explorer"] == 1, facts
    # The frame scrolls only where the narrow drawing is wider than the screen holds at 12 px text: a lane grid
    # that keeps its grid (issue 26), one transposed to a 360 px phone's width on a 320 px screen, the narrow
    # serving stack (339 units: 313 px at 12 px) there.
    narrow = diagram(spec_from_data(site.specs[slug]), narrow=True)
    if width >= 1280 or (width <= 360 and narrow.width <= (NARROW_MIN_WIDTH if width < 360 else
                                                           TRANSPOSED_MAX_WIDTH)):
        assert not facts["scrolls"], (slug, width, facts)
    lines = bs.figures(page).nth(0).aria_snapshot().splitlines()
    assert sum(bool(re.match(r"- '?img ", line.strip())) for line in lines) == 1, lines


@pytest.mark.parametrize("width", [320, 360, 600, 768, 1024, 1280, 1440])
def test_a_sequence_fills_its_frame_at_every_width(site, open_page, width):
    """Issue 26: the web worker's sequence, 500 units wide, filled 60 % of a 1,440 px screen's figure; its wide
    layout is spread to SPREAD_WIDTH (800 units) and its natural one is the middle layout, so that a phone's, the
    middle and the wide drawing fill 85 % of the frame or more at every width, none scrolling, its heads strip the
    shown layout's."""
    page = open_page(site.page("web-worker"), viewport=(width, 800))
    facts = layout_facts(page)
    assert facts["fill"] >= 0.85 and not facts["scrolls"], (width, facts)
    assert facts["middleFrom"] and facts["drawn"] == (["narrow"] if width <= 360 else ["middle"] if width <= 768
                                                      else ["wide"]), (width, facts)
    shown = bs.figures(page).nth(0).evaluate(
        "(root) => Array.from(root.querySelector('[data-mech-scene]:not([hidden])').querySelectorAll("
        "'.mech-heads-inner')).filter(e => getComputedStyle(e).display !== 'none').map(e => e.className)")
    assert shown == [f"mech-heads-inner mech-{facts['drawn'][0]}"], shown


def test_the_layouts_switch_at_the_breakpoint_and_keep_the_step(site, open_page):
    """Just below the breakpoint the upper middle layout shows, at it the wide one (its text then exactly 12 px),
    the middle one below the upper one's and the narrow one below the middle one's, with the step the reader
    chose, without a reload: the player keeps every drawing at one step."""
    slug = bs.LEAD
    page = open_page(site.page(slug), viewport=(1280, 800), motion="reduce")
    page.locator(".mech-next").first.click()
    page.locator(".mech-next").first.click()
    facts = layout_facts(page)
    beside = 1280 - facts["column"]  # the page's and the figure's padding
    at, upper, middle = (math.ceil(facts[key]) for key in ("wideFrom", "upperFrom", "middleFrom"))
    assert 0 < middle < upper < at  # the lead figure, a lane grid, has a middle and an upper middle layout
    for column, expected in ((at - 1, "upper"), (at, "wide"), (upper - 1, "middle"), (upper, "upper"),
                             (middle - 1, "narrow"), (middle, "middle")):
        page.set_viewport_size({"width": column + beside, "height": 800})
        facts = layout_facts(page)
        if facts["column"] != column:  # the padding is less on a narrower screen
            beside += column - facts["column"]
            page.set_viewport_size({"width": column + beside, "height": 800})
            facts = layout_facts(page)
        assert (facts["column"], facts["drawn"]) == (column, [expected]), facts
        assert facts["smallest"] >= MIN_TEXT_PX - 0.01, facts
        assert bs.step_of(page) == 3


def test_play_and_pause_keep_the_button_width(site, open_page):
    page = open_page(site.page(ALL[0]), viewport=(360, 800), clock=True)
    button = page.locator(".mech-play").first
    before = button.bounding_box()
    button.click()
    after = button.bounding_box()
    assert (before["width"], before["x"]) == (after["width"], after["x"])
    rows = page.evaluate("""() => new Set(Array.from(document.querySelectorAll('.mech-controls > *'))
        .map(el => Math.round(el.getBoundingClientRect().top))).size""")
    assert rows <= 2  # buttons on one row, the position under them at most


def test_a_transcript_value_that_wraps_sits_under_its_own_label(site, open_page):
    """At 360 px a state value too long for the label's line goes under it, right under it (within 2 px), while
    the next label keeps at least 4 px from it: the value reads as its own label's, not the next one's."""
    page = open_page(site.page("prefill-decode"), viewport=(360, 800))
    items = page.evaluate("""() => Array.from(document.querySelectorAll('.mech-state > div')).map(div => {
        const dt = div.querySelector('dt').getBoundingClientRect(), dd = div.querySelector('dd').getBoundingClientRect();
        return {wrapped: dd.top >= dt.bottom - 1, under: dd.top - dt.bottom, top: dt.top, bottom: dd.bottom};
    })""")
    wrapped = [item for item in items if item["wrapped"]]
    assert wrapped, "no value wraps at 360 px"
    assert all(item["under"] <= 2 for item in wrapped), wrapped
    for item, after in itertools.pairwise(items):
        if after["top"] > item["top"]:  # the same list (the next list starts further down)
            assert after["top"] - item["bottom"] >= 4, (item, after)


def test_eight_step_tabs_take_two_even_rows_on_a_phone(site, open_page):
    """batching has eight steps: at 360 px a row holds seven tabs, and the eighth sat alone on a second row;
    now the tabs take two rows of four, and at 1280 px one row."""
    for width, expected in ((360, [4, 4]), (1280, [8])):
        page = open_page(site.page("batching"), viewport=(width, 800))
        tops = page.evaluate("""() => Array.from(document.querySelectorAll('.mech-tabs:not([hidden]) .mech-tab'))
            .map(tab => Math.round(tab.getBoundingClientRect().top))""")
        assert [tops.count(top) for top in sorted(set(tops))] == expected, (width, tops)


def test_each_step_brings_its_highlighted_boxes_into_a_scrolling_frame(site, open_page):
    """Where the wide layout scrolls in its frame (a browser without container queries, simulated by a page
    style), each step scrolls its highlighted boxes into view."""
    slug = bs.mechanism_slugs()[0]
    page = open_page(site.page(slug), viewport=(360, 800), motion="reduce")
    page.add_style_tag(content=bs.WIDE_ONLY)
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")  # the frame scrolls
    assert layout_facts(page)["drawn"] == ["wide"]
    assert layout_facts(page)["scrolls"] and layout_facts(page)["explorer"] == 1  # its stop: the structure
    steps = len(site.specs[slug]["scenarios"][0]["steps"])
    for step in range(2, steps + 1):
        page.locator(".mech-next").first.click()
        seen = bs.figures(page).nth(0).evaluate("""root => {
          const highlighted = """ + bs.HIGHLIGHTED_JS + """;
          const canvas = root.querySelector("[data-mech-canvas]");
          const view = canvas.getBoundingClientRect();
          const svg = Array.from(canvas.querySelectorAll("svg")).find(s => s.getClientRects().length);
          const shown = svg.querySelector("[data-mech-current]");
          const boxes = shown ? highlighted(svg, shown.dataset.mechFrame) : [];
          return {scrolls: canvas.scrollWidth > canvas.clientWidth + 1,
                  inside: boxes.every(b => b.left >= view.left - 1 && b.right <= view.right + 1), count: boxes.length};
        }""")
        assert seen["scrolls"] and seen["count"] > 0, seen
        assert seen["inside"], (step, seen)


#: In page: of every drawn SVG, the texts whose box leaves the drawing's own box (CSS px, 1 px of slack).
TEXT_OUTSIDE_JS = r"""
() => {
  const out = [];
  for (const svg of document.querySelectorAll(".mech-canvas-inner svg")) {
    if (!svg.getClientRects().length) continue;
    const box = svg.getBoundingClientRect();
    for (const text of svg.querySelectorAll("text")) {
      const r = text.getBoundingClientRect();
      if (!r.width || getComputedStyle(text).visibility === "hidden") continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push([text.textContent.slice(0, 30), r.left - box.left]);
    }
  }
  return [getComputedStyle(document.querySelector(".mech-canvas-inner svg")).direction, out];
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_a_right_to_left_page_draws_its_figure_left_to_right(site, open_page, width):
    """The figure of a right-to-left spec (dir="rtl" on its root): the inline drawing does not inherit rtl, which
    would run every start-anchored text leftwards out of its box, in both layouts; its right-to-left panel
    heading keeps its own direction attribute."""
    page = open_page(site.page("lang-ar"), viewport=(width, 800))
    assert page.evaluate("() => document.querySelector('.mech-root').closest('[dir]').dir") == "rtl"
    direction, outside = page.evaluate(TEXT_OUTSIDE_JS)
    assert direction == "ltr" and outside == [], outside
    headings = page.evaluate("() => Array.from(document.querySelectorAll('.mech-canvas-inner svg text[direction=rtl]'))"
                             ".map(t => getComputedStyle(t).direction)")
    assert headings and set(headings) == {"rtl"}, headings


#: Containers that size to their content, where the figure's inline-size containment (its container query)
#: would leave it no width of its own.
SHRINK_TO_FIT = {"inline-block": '<div style="display:inline-block">{}</div>',
                 "float": '<div style="float:left">{}</div>',
                 "flex-item": '<div style="display:flex;align-items:flex-start"><div>{}</div></div>',
                 "absolute": '<div style="position:absolute">{}</div>'}


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("slug", ["prefill-decode", "serving-stack"])
def test_a_figure_in_a_container_that_sizes_to_content_takes_its_narrow_layout(site, open_page, slug, width):
    """In an inline-block, a float, a flex item or an absolutely placed box, the figure is as wide as its narrowest
    layout (contain-intrinsic-inline-size), shows that layout at its readable size, and the page does not scroll
    sideways; without it the figure collapsed to its padding and its drawing ran out of it."""
    fit = float(re.search(r"--mech-fit-width:([0-9.]+)px", site.fragment(slug)).group(1))
    for name, wrapper in SHRINK_TO_FIT.items():
        path = site.out / f"shrink-{name}-{slug}.html"
        path.write_text(bs.host_page(f"The figure in {name}", [wrapper.format(site.fragment(slug))]), "utf-8")
        page = open_page(path, viewport=(width, 800))
        facts = layout_facts(page)
        figure = bs.figures(page).nth(0).evaluate("r => r.getBoundingClientRect().width")
        assert facts["drawn"] == ["narrow"], (name, facts)
        assert fit <= facts["column"] + 1 and figure < min(width, 2 * fit), (name, figure, facts["column"])
        assert facts["smallest"] >= MIN_TEXT_PX - 0.01, (name, facts)
        assert page.evaluate(PAGE_OVERFLOW_JS) <= 0, name


def _wide_grid() -> dict:
    """The relay spec widened to a timeline of twelve columns: its wide drawing needs about 1,600 px for 12 px
    text, more than any screen's figure column (the page caps the figure at 80rem)."""
    spec = bs.relay_spec()
    for lane in ("s", "r"):
        for column in range(3, 12):
            spec["targets"][f"{lane}{column}"] = {"id": f"t-{lane}{column}", "kind": "node",
                                                  "label": f"{'sender' if lane == 's' else 'relay'} step {column}"}
    return spec


def test_a_figure_wider_than_any_screen_shows_its_wide_layout_in_a_scrolling_frame(open_page, tmp_path):
    """From UPPER_SCROLLS_FROM (1,280 px, the widest figure) the wide drawing shows, kept at its 12 px width, in a
    frame that scrolls and takes keyboard focus (a site's figure wider than the page's); below it the upper middle
    layout and the middle one (the grid transposed for those widths), neither scrolling, then the narrow one.
    Before, such a figure showed the phone's column of boxes at every screen width, and then its wide grid
    scrolling from 960 px."""
    import json

    from mechdiagram.render.html import UPPER_SCROLLS_FROM

    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "long-relay.mechanism.json").write_text(json.dumps(_wide_grid()), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "out")
    for width, drawn in ((1920, "upper"), (1280, "upper"), (900, "upper"), (600, "middle"), (360, "narrow")):
        page = open_page(tmp_path / "out" / "long-relay.html", viewport=(width, 800))
        facts = layout_facts(page)
        assert facts["wideFrom"] == UPPER_SCROLLS_FROM and facts["drawn"] == [drawn], (width, facts)
        assert facts["smallest"] >= MIN_TEXT_PX - 0.01, (width, facts)
        assert facts["scrolls"] == (drawn == "wide") and facts["tabindex"] is None and facts["explorer"] == 1, facts
        assert page.evaluate(PAGE_OVERFLOW_JS) <= 0, width
        assert drawn not in ("middle", "upper") or facts["fill"] >= 0.85, facts
    # a site's figure wider than the page's, narrower than the wide drawing's 1,600 px: the wide one, scrolling
    page = open_page(tmp_path / "out" / "long-relay.html", viewport=(1500, 800))
    page.add_style_tag(content=".mech-root,.mech-page{max-width:none!important}")
    facts = layout_facts(page)
    assert facts["column"] >= UPPER_SCROLLS_FROM and facts["drawn"] == ["wide"] and facts["scrolls"], facts


def test_a_frame_that_scrolls_fades_its_end_edge_until_it_reaches_it(site, open_page):
    """A new user took the paged KV cache's grid, cut off at a phone's edge, for the whole drawing: a frame whose
    drawing runs on past its end edge is marked (data-mech-more) and fades that edge; scrolled to its end, it
    does not; a frame that fits never does, nor does a printed one."""
    more_js = """(root) => { const c = root.querySelector("[data-mech-scene]:not([hidden]) [data-mech-canvas]");
      return {more: c.hasAttribute("data-mech-more"), mask: getComputedStyle(c).maskImage,
              over: c.scrollWidth - c.clientWidth}; }"""
    page = open_page(site.page("paged-kv-cache"), viewport=(360, 800), motion="reduce")
    figure = bs.figures(page).nth(0)
    facts = figure.evaluate(more_js)
    assert facts["over"] > 1 and facts["more"] and "linear-gradient" in facts["mask"], facts
    figure.evaluate("(root) => { const c = root.querySelector('[data-mech-scene]:not([hidden]) [data-mech-canvas]');"
                    " c.scrollLeft = c.scrollWidth; }")
    page.wait_for_function("() => !document.querySelector('[data-mech-scene]:not([hidden]) [data-mech-more]')")
    assert figure.evaluate(more_js)["mask"] == "none"
    figure.evaluate("(root) => { root.querySelector('[data-mech-scene]:not([hidden]) [data-mech-canvas]')"
                    ".scrollLeft = 0; }")
    page.wait_for_function("() => !!document.querySelector('[data-mech-scene]:not([hidden]) [data-mech-more]')")
    page.emulate_media(media="print")
    assert figure.evaluate(more_js)["mask"] == "none"
    page = open_page(site.page("paged-kv-cache"), viewport=(1280, 800), motion="reduce")
    facts = bs.figures(page).nth(0).evaluate(more_js)
    assert facts["over"] <= 1 and not facts["more"] and facts["mask"] == "none", facts


#: In page: for the first figure's shown scene, the data-mech-more of its frame and of its heads strip, and how many
#: px of its drawing lie past the frame's left and right edges.
EDGES_JS = """(root) => {
  const scene = root.querySelector("[data-mech-scene]:not([hidden])");
  const canvas = scene.querySelector("[data-mech-canvas]"), strip = scene.querySelector("[data-mech-heads]");
  const svg = Array.from(canvas.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const frame = canvas.getBoundingClientRect(), drawn = svg.getBoundingClientRect();
  return {more: canvas.getAttribute("data-mech-more") || "", strip: strip ? strip.getAttribute("data-mech-more") || "" : null,
          left: frame.left - drawn.left, right: drawn.right - frame.right,
          names: !!canvas.querySelector(".mech-lane-names"), scenes: root.querySelectorAll("[data-mech-scene]").length};
}"""


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_faded_edges_are_those_past_which_the_drawing_runs_on(tmp_path, open_page, language):
    """A break-it review: in a right-to-left page the player scrolls to the first step's boxes, so that the drawing
    (laid out left to right) runs on at the right, but the frame's start, the left, was faded; a scenario chosen
    from the menu had no fade at all.  At every scroll position, in both directions, each edge past which the
    drawing runs on by more than 1 px is faded (data-mech-more), the left one only where no lane names are held
    there; a sequence's heads strip is not (faded, it let the drawing under it show through)."""
    import json

    from support.grids import grid_spec
    from support.sequences import sequence_spec

    specs = {"grid": grid_spec(4, 10, seed=3),
             "seq": sequence_spec(7, 6, names=("Stub resolver", "Recursive resolver", "Root server", "TLD server",
                                               "Authoritative server", "Cache", "Logger"))}
    specs["grid"]["scenarios"].append(dict(specs["grid"]["scenarios"][0], id="again", title="Again"))
    (tmp_path / "specs").mkdir()
    for name, data in specs.items():
        data["language"] = language
        (tmp_path / "specs" / f"{name}.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    for name in specs:
        page = open_page(tmp_path / "site" / f"{name}.html", viewport=(360, 800), motion="reduce")
        figure = bs.figures(page).nth(0)
        for where in ("0", "-c.scrollWidth / 2", "c.scrollWidth / 2", "-c.scrollWidth", "c.scrollWidth"):
            figure.evaluate("(root) => { const c = root.querySelector('[data-mech-scene]:not([hidden]) "
                            f"[data-mech-canvas]'); c.scrollLeft = {where}; }}")
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            facts = figure.evaluate(EDGES_JS)
            sides = [side for side in ("left", "right") if facts[side] > 1 and not (side == "left" and facts["names"])]
            assert facts["more"] == " ".join(sides), (name, language, where, facts)
            assert not facts["strip"], facts  # faded, a heads strip let the drawing under it show through
        assert facts["left"] > 1 or facts["right"] > 1, facts  # it does scroll
        if facts["scenes"] > 1:  # the second scenario, chosen from the menu, is marked as it shows
            page.select_option("[data-mech-figure] .mech-scenario", "1")
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
            facts = figure.evaluate(EDGES_JS)
            assert facts["more"] == " ".join(side for side in ("left", "right") if facts[side] > 1 and not (
                side == "left" and facts["names"])) and facts["more"], facts


@pytest.mark.parametrize("name", ["long-labels", "dead-letter-queue", "ci-pipeline"])
def test_a_graph_folded_for_its_middle_layout_fills_its_frame_from_a_phone_to_a_desktop(open_page, tmp_path, name):
    """Issue 26: a chain of four boxes with long labels, 850 units in one row, showed the phone's 304-unit column in
    59 to 88 % of a 576 to 832 px figure (its layering down the page is that column); a new user's dead-letter
    queue, 944 units across, in 55 to 88 % of a 576 to 896 px one; their CI pipeline, 810 units, in 65 to 88 % of a
    576 to 768 px one.  Their middle layouts, the chain folded into two rows, the queue's column folded into three
    columns and the pipeline's five jobs wrapped beside its deploy, show from about 450 to 600 px to the wide one's
    12 px width: every 64 px from 320 to 1,408 the drawing shown fills 85 % of its frame or more, its text never under
    12 px, and nothing scrolls."""
    import json

    from support.edge_topologies import edge_topologies
    from support.topologies import topologies

    (tmp_path / "specs").mkdir()
    data = (edge_topologies() | topologies())[name]
    (tmp_path / "specs" / "graph.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "out")
    shown = set()
    for width in [*range(320, 1409, 64), 600]:  # 600: the phone's column grown past GROWTH until the middle shows
        facts = layout_facts(open_page(tmp_path / "out" / "graph.html", viewport=(width, 800)))
        shown.update(facts["drawn"])
        assert facts["fill"] >= 0.85 and not facts["scrolls"], (width, facts)
        assert facts["smallest"] >= MIN_TEXT_PX - 0.01, (width, facts)
    assert shown == {"narrow", "middle", "wide"}
