"""The sequence view in chromium: the HTML player steps through a sequence, showing each row from its own step on
(emphasised in it, muted after it) and none before; at a 360 px phone the narrow drawing fits its column with no
text under 12 CSS px; at 1280 px the wide one is shown at its natural width, at most 900 px."""

from __future__ import annotations

import io
import json
from pathlib import Path

import browser_support as bs
import pytest
from PIL import Image, ImageChops, ImageStat

from support.sequences import oauth_spec, sequence_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Per layout shown: each row layer's kind and step number, and whether it is drawn (visibility, opacity).
ROWS_JS = r"""
root => Array.from(root.querySelectorAll(".mech-scene:not([hidden]) .mech-canvas-inner")).filter(
    inner => inner.getClientRects().length).map(inner => {
  const svg = inner.querySelector("svg");
  const prefix = svg.getAttribute("class");
  return Array.from(svg.querySelectorAll("g." + prefix + "-row[data-mech-steps]")).map(g => {
    const style = getComputedStyle(g);
    return {mode: g.classList.contains(prefix + "-row-current") ? "current" : "earlier",
            steps: g.getAttribute("data-mech-steps").split(" ").map(Number),
            shown: style.visibility === "visible" && Number(style.opacity) > 0.99};
  });
})
"""

#: The shown drawing's width on the page, its natural width (viewBox), the smallest font size of its text on
#: the page (CSS px, after scaling) and whether its frame scrolls sideways.
SIZE_JS = r"""
root => {
  const inner = Array.from(root.querySelectorAll(".mech-scene:not([hidden]) .mech-canvas-inner")).find(
      i => i.getClientRects().length);
  const svg = inner.querySelector("svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = Array.from(svg.querySelectorAll("text")).filter(t => t.getClientRects().length).map(
      t => parseFloat(getComputedStyle(t).fontSize) * scale);
  const canvas = inner.closest(".mech-canvas");
  return {layout: inner.classList.contains("mech-wide") ? "wide" : "narrow", shown: svg.getBoundingClientRect().width,
          natural: svg.viewBox.baseVal.width, smallest: Math.min(...sizes),
          scrolls: canvas.scrollWidth > canvas.clientWidth + 1, frame: canvas.clientWidth};
}
"""


@pytest.fixture(scope="module")
def sequence_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sequence")
    (root / "specs").mkdir()
    (root / "specs" / "oauth.mechanism.json").write_text(json.dumps(oauth_spec(), indent=2), "utf-8")
    bs.build([root / "specs"], root / "site")
    return root / "site"


def test_the_player_steps_through_a_sequence_row_by_row(sequence_site, open_page):
    page = open_page(sequence_site / "oauth.html", clock=True)
    count = len(oauth_spec()["scenarios"][0]["steps"])
    bs.figures(page).nth(0).locator(".mech-play").dispatch_event("click")  # pause: the test steps
    for step in range(1, count + 1):
        assert bs.step_of(page) == step
        (rows,) = bs.figures(page).nth(0).evaluate(ROWS_JS)
        shown = sorted((row["mode"], min(row["steps"])) for row in rows if row["shown"])
        # Its own row emphasised; each earlier row muted (its muted layer shows from the step after it); none later.
        assert shown == sorted([("current", step)] + [("earlier", k + 1) for k in range(1, step)]), (step, shown)
        if step < count:
            bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
    bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")  # round to the first step again
    assert bs.step_of(page) == 1
    assert page.opened.errors == []


@pytest.mark.parametrize("width, layout", [(360, "narrow"), (1280, "wide")])
def test_the_sequence_keeps_its_text_at_12_px_without_scrolling(sequence_site, open_page, width, layout):
    page = open_page(sequence_site / "oauth.html", viewport=(width, 900), motion="reduce")
    size = bs.figures(page).nth(0).evaluate(SIZE_JS)
    assert size["layout"] == layout, size
    assert size["smallest"] >= 12 - 0.01 and not size["scrolls"], size
    if layout == "wide":  # drawn at most 900 units wide, and grown with the figure to 1.5 times its size at most
        assert size["natural"] <= 900 and size["shown"] <= 1.5 * size["natural"] + 0.5, size
        assert size["shown"] >= min(1.5 * size["natural"], size["frame"]) - 0.5, size


# --- the participants' heads stay in view while a long sequence scrolls -------------------------------------------

#: Of the first figure's shown scene, after scrolling the page so that ``down`` of its drawing is above the top of
#: the view: each head's box on the page in the drawing and in the heads strip, the frame's and the strip's boxes,
#: whether the strip is marked stuck, how far the frame is scrolled sideways and the view's height.
HEADS_JS = r"""
async down => {
  const scene = document.querySelector("[data-mech-figure] .mech-scene:not([hidden])");
  const canvas = scene.querySelector("[data-mech-canvas]");
  const strip = scene.querySelector("[data-mech-heads]");
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  let last = NaN;  // the arrow keys scroll smoothly: until the frame stops
  for (let i = 0; i < 100 && canvas.scrollLeft !== last; i += 1) { last = canvas.scrollLeft; await frame(); }
  window.scrollTo(0, canvas.getBoundingClientRect().top + window.scrollY + down * canvas.offsetHeight);
  await frame();
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const heads = root => Array.from(root.querySelectorAll("svg > g[class$='-nodes'] > g > rect"))
    .filter(r => r.getClientRects().length).map(box);
  return {drawn: heads(canvas), strip: heads(strip), frame: box(canvas), bar: box(strip),
          stuck: strip.hasAttribute("data-mech-stuck"), shown: !strip.hidden,
          muted: strip.getAttribute("aria-hidden"), scrolled: Math.abs(canvas.scrollLeft),
          view: window.innerHeight};
}
"""


@pytest.fixture(scope="module")
def long_sequences(tmp_path_factory) -> Path:
    """Six participants in thirty steps, in English and in Arabic (right to left)."""
    root = tmp_path_factory.mktemp("long-sequence")
    (root / "specs").mkdir()
    english = sequence_spec(6, 30)
    arabic = {**sequence_spec(6, 30), "language": "ar"}
    for name, data in (("long", english), ("long-ar", arabic)):
        (root / "specs" / f"{name}.mechanism.json").write_text(json.dumps(data, indent=2), "utf-8")
    bs.build([root / "specs"], root / "site")
    return root / "site"


@pytest.mark.parametrize("slug, width, scheme", [("long", 360, "light"), ("long", 1280, "dark"),
                                                 ("long-ar", 360, "dark"), ("long-ar", 1280, "light")])
def test_the_heads_stay_in_view_while_a_long_sequence_scrolls(long_sequences, open_page, check_axe, slug, width,
                                                                scheme):
    """Scrolled half-way down its drawing (and, on a phone, to the far end of its frame), the figure shows the
    participants' heads at the top of the view, each over its own lifeline: the strip's heads on the page where the
    drawing's own would be but for the scroll down, inside the frame's visible part."""
    page = open_page(long_sequences / f"{slug}.html", viewport=(width, 700), scheme=scheme, motion="reduce")
    canvas = bs.figures(page).nth(0).locator(".mech-scene:not([hidden]) [data-mech-canvas]")
    if width < 768:  # the frame scrolls sideways, as a finger scrolls it, to its far end
        # No tab stop of its own: the explorer's grid is the keyboard's way through it (test_browser_explore).
        assert canvas.get_attribute("tabindex") is None and bs.figures(page).nth(0).locator("[role=grid]").count() == 1
        canvas.evaluate("c => { c.scrollLeft = (getComputedStyle(c).direction === 'rtl' ? -1 : 1) * c.scrollWidth; }")
    found = page.evaluate(HEADS_JS, 0.5)
    assert found["shown"] and found["stuck"] and found["muted"] == "true", found  # shown, hidden from AT
    assert len(found["strip"]) == len(found["drawn"]) == 6
    left, top, right, bottom = found["frame"]
    assert top < 0 < bottom and found["bar"][1] == pytest.approx(0, abs=0.5)  # the frame runs on past the view's top
    for drawn, held in zip(found["drawn"], found["strip"], strict=True):
        assert drawn[3] < 0  # the drawing's own head scrolled out of view...
        assert held[1] >= 0 and held[3] <= found["view"]  # ...the strip's is in view,
        assert held[0] == pytest.approx(drawn[0], abs=0.5) and held[2] == pytest.approx(drawn[2], abs=0.5)  # over it
        assert held[3] - held[1] == pytest.approx(drawn[3] - drawn[1], abs=0.5)
    # Within the frame: the heads the frame shows are whole in the strip, which ends with the frame.
    assert found["bar"][0] == pytest.approx(left, abs=0.5) and found["bar"][2] == pytest.approx(right, abs=0.5)
    inside = [h for h in found["strip"] if left - 0.5 <= h[0] and h[2] <= right + 0.5]
    assert len(inside) >= 3, found
    if width < 768:
        assert found["scrolled"] > 0, found  # it scrolled sideways, and the strip with it
    check_axe(page, f"{slug}.html scrolled at {width} px ({scheme})")
    assert page.opened.errors == []


def test_without_the_player_the_heads_are_the_drawings_own(long_sequences, browser):
    """Without JavaScript the strip stays hidden: the heads are drawn in the drawing, at its top, as in the SVG."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 700})
    try:
        page = context.new_page()
        page.goto((long_sequences / "long.html").as_uri())
        shown = page.evaluate("""() => [document.querySelector('[data-mech-heads]').getClientRects().length,
            Array.from(document.querySelectorAll('.mech-canvas-inner svg > g[class$="-nodes"] > g > rect'))
              .filter(r => r.getClientRects().length).length]""")
        assert shown == [0, 6]
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_heads_strip_shows_what_the_drawings_own_heads_show(tmp_path, open_page, scheme):
    """Over the drawing's heads, the strip draws what they show in the step: the group's band, the active head's
    highlight and the marks on a head and on a group, so that the page looks the same with the strip as without."""
    data = sequence_spec(4, 4)
    data["groups"] = {"back": {"label": "Back end", "members": ["p2", "p3"]}}
    data["scenarios"][0]["steps"][1]["marks"] = {"p1": "new", "back": "waiting"}
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "grouped.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    page = open_page(tmp_path / "site" / "grouped.html", viewport=(768, 700), scheme=scheme, motion="reduce")
    rid = page.locator("mech-diagram").get_attribute("id")
    page.locator(f"#{rid}-tab-0-2").click()
    page.evaluate("() => new Promise(done => { window.scrollTo(0, 0); requestAnimationFrame(() => done()); })")
    strip = bs.figures(page).nth(0).locator(".mech-scene:not([hidden]) [data-mech-heads]")
    shown = strip.evaluate("""s => Array.from(s.querySelectorAll('[data-mech-mark]'))
        .filter(g => g.getClientRects().length && getComputedStyle(g).visibility === 'visible')
        .map(g => g.getAttribute('data-mech-mark')).sort()""")
    assert strip.is_visible() and shown == ["new", "waiting"]
    clip = strip.bounding_box()
    with_strip = page.screenshot(clip=clip)
    strip.evaluate("s => { s.style.display = 'none'; }")  # the drawing's own heads, where the strip was
    drawn = Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("RGB")
    held = Image.open(io.BytesIO(with_strip)).convert("RGB")
    # The same picture but for the anti-aliasing of edges (the strip is scaled apart from the drawing).
    changed = ImageChops.difference(drawn, held).convert("L").point(lambda v: 255 if v > 48 else 0)
    assert ImageStat.Stat(changed).mean[0] / 255 < 0.002, ImageChops.difference(drawn, held).getbbox()
    assert page.opened.errors == []


def test_auto_scroll_brings_a_sequences_messages_into_view_not_its_left_edge(sequence_site, open_page):
    """The wide sequence scrolling in its frame (a browser without container queries, at 360 px): each step brings
    its row's messages and activation bars into view where they fit, moving the drawing only as far as that takes.
    The player read the step's every rect, the row's band as wide as the drawing among them, and took the drawing to
    its left edge at every step, so a message at the right stayed out of view."""
    page = open_page(sequence_site / "oauth.html", viewport=(360, 800), motion="reduce")
    page.add_style_tag(content=bs.WIDE_ONLY)
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")
    figure = bs.figures(page).nth(0)
    canvas = figure.locator("[data-mech-canvas]").first
    assert canvas.evaluate("c => c.scrollWidth > c.clientWidth + 1"), "the sequence must scroll in its frame"
    measure = """c => {
      const highlighted = """ + bs.HIGHLIGHTED_JS + """;
      const svg = Array.from(c.querySelectorAll("svg")).find(s => s.getClientRects().length);
      const boxes = highlighted(svg, svg.querySelector("[data-mech-shown]").dataset.mechFrame);
      const view = c.getBoundingClientRect();
      return {left: Math.min(...boxes.map(b => b.left)), right: Math.max(...boxes.map(b => b.right)),
              view: [view.left, view.right], scroll: c.scrollLeft, page: window.scrollX};
    }"""
    scrolls, right_of_start = set(), 0
    for step in range(len(oauth_spec()["scenarios"][0]["steps"])):
        if step:
            figure.locator(".mech-next").dispatch_event("click")
        seen = canvas.evaluate(measure)
        left, right = seen["view"]
        assert seen["page"] == 0
        if seen["right"] - seen["left"] <= right - left - 16:
            assert left - 1 <= seen["left"] and seen["right"] <= right + 1, (step + 1, seen)
        scrolls.add(round(seen["scroll"]))
        right_of_start += seen["scroll"] > 0
    assert right_of_start, scrolls  # some step's messages lie past the frame's first view
