"""Every width: no SVG text of the HTML figure renders below 12 CSS px, at 360 and at 1280 px, the page never
scrolls sideways, a figure wider than its column scrolls in its own frame, which then takes keyboard focus, and
Play/Pause never changes the button's width.  Screenshots of every figure at 360, 768 and 1280 px, light and
dark, at the first, middle and last step, go to ``build/screenshots/`` for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import browser_support as bs

#: Screenshots for a person to look at (``build/`` is not committed).
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ALL = bs.mechanism_slugs() + list(bs.GENERATED)

#: In page: the smallest rendered size of any visible SVG text in the shown scene, in CSS px.
SMALLEST_TEXT_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-md-scene]")).find(s => !s.hidden);
  const svg = scene.querySelector("svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  let smallest = Infinity, where = "";
  for (const text of svg.querySelectorAll("text")) {
    if (!text.getClientRects().length) continue;
    const style = getComputedStyle(text);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const size = parseFloat(style.fontSize) * scale;
    if (size < smallest) { smallest = size; where = text.textContent.slice(0, 30); }
  }
  const canvas = scene.querySelector("[data-md-canvas]");
  return {smallest, where, scrolls: canvas.scrollWidth > canvas.clientWidth + 1,
          tabindex: canvas.getAttribute("tabindex")};
}"""


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("slug", ALL)
def test_no_svg_text_below_12_px_and_no_sideways_page(site, open_page, slug, width):
    page = open_page(site.page(slug), viewport=(width, 800))
    facts = bs.figures(page).nth(0).evaluate(SMALLEST_TEXT_JS)
    assert facts["smallest"] >= 12 - 0.01, (slug, width, facts)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{slug}: the page scrolls sideways by {overflow}px at {width}px"
    # the frame is a tab stop exactly when it scrolls (WCAG 2.2 SC 2.1.1)
    assert (facts["tabindex"] == "0") == facts["scrolls"], facts


def test_play_and_pause_keep_the_button_width(site, open_page):
    page = open_page(site.page(ALL[0]), viewport=(360, 800), clock=True)
    button = page.locator(".md-play").first
    before = button.bounding_box()
    button.click()
    after = button.bounding_box()
    assert (before["width"], before["x"]) == (after["width"], after["x"])
    rows = page.evaluate("""() => new Set(Array.from(document.querySelectorAll('.md-controls > *'))
        .map(el => Math.round(el.getBoundingClientRect().top))).size""")
    assert rows <= 2  # buttons on one row, the position under them at most


def test_each_step_brings_its_highlighted_boxes_into_a_scrolling_frame(site, open_page):
    slug = bs.mechanism_slugs()[0]
    page = open_page(site.page(slug), viewport=(360, 800), motion="reduce")
    steps = len(site.specs[slug]["scenarios"][0]["steps"])
    for step in range(2, steps + 1):
        page.locator(".md-next").first.click()
        seen = bs.figures(page).nth(0).evaluate("""root => {
          const canvas = root.querySelector("[data-md-canvas]");
          const view = canvas.getBoundingClientRect();
          const shown = root.querySelector("[data-md-scene]:not([hidden]) [data-md-current]");
          const step = shown ? shown.dataset.mdFrame : "";
          const boxes = Array.from(root.querySelectorAll(`[data-md-steps~="${step}"] rect`))
            .filter(r => r.closest("[data-md-scene]:not([hidden])")).map(r => r.getBoundingClientRect());
          return {scrolls: canvas.scrollWidth > canvas.clientWidth + 1,
                  inside: boxes.every(b => b.left >= view.left - 1 && b.right <= view.right + 1), count: boxes.length};
        }""")
        assert seen["scrolls"] and seen["count"] > 0, seen
        assert seen["inside"], (step, seen)


def test_screenshots_for_people(site, open_page):
    out = SCREENSHOTS
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for slug in ALL:
        steps = len(site.specs[slug]["scenarios"][0]["steps"])
        for width in (360, 768, 1280):
            for scheme in ("light", "dark"):
                for label, step in (("first", 1), ("middle", (steps + 1) // 2), ("last", steps)):
                    page = open_page(site.page(slug), viewport=(width, 900), scheme=scheme, motion="reduce")
                    for _ in range(step - 1):
                        page.locator(".md-next").first.click()
                    assert bs.step_of(page) == step
                    path = out / f"{slug}-{width}-{scheme}-{label}.png"
                    page.locator(".md-stage").first.screenshot(path=path)
                    made.append(path)
                    page.context.close()
    assert all(p.stat().st_size > 1000 for p in made)
