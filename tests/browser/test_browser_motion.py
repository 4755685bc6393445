"""Motion, measured in the browser with the animation clock sought (Web Animations API
``currentTime``, no sleeps): highlights ease across every step boundary, half-way exactly at the
boundary and intermediate just either side of it; two steps' panel text never show at once; an
active route's dot travels from its source towards its target; under reduced motion nothing runs."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

#: At ``t`` ms: every highlight's and every step text's computed opacity, and each dot's centre.
SAMPLE_JS = r"""
(t) => {
  for (const a of document.getAnimations()) { a.pause(); a.currentTime = t; }
  const svg = document.documentElement;
  const opacity = el => getComputedStyle(el).visibility === "visible" ? parseFloat(getComputedStyle(el).opacity) : 0;
  return {
    highlights: Array.from(svg.querySelectorAll("[data-mech-steps]")).map(g => ({
      steps: g.dataset.mechSteps.split(" ").map(Number), opacity: opacity(g)})),
    texts: Array.from(svg.querySelectorAll("[data-mech-frame]")).filter(f => f.dataset.mechFrame !== "0")
      .map(f => opacity(f)),
    poster: getComputedStyle(svg.querySelector("[data-mech-frame='0']")).visibility,
    dots: Array.from(svg.querySelectorAll("circle")).map(c => { const r = c.getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2]; }),
    running: document.getAnimations().length,
  };
}
"""


def windows(spec: dict, index: int = 0) -> list[tuple[int, int]]:
    out, start = [], 0
    for step in spec["scenarios"][index]["steps"]:
        out.append((start, start + step["duration"]))
        start += step["duration"]
    return out


@pytest.fixture
def svg_page(browser, site):
    pages = []

    def open_(slug: str, scenario: str, *, reduced: bool = False):
        context = browser.new_context(reduced_motion="reduce" if reduced else "no-preference")
        page = context.new_page()
        pages.append(context)
        page.goto((site.out / f"{slug}.{scenario}.svg").as_uri())
        return page

    yield open_
    for context in pages:
        context.close()


def test_highlights_ease_across_each_boundary_and_text_never_overlaps(site, svg_page):
    checked = 0
    for slug in site.all_slugs:
        spec = site.specs[slug]
        scenario = spec["scenarios"][0]
        page = svg_page(slug, scenario["id"])
        bounds = windows(spec)
        for number, (start, end) in enumerate(bounds, start=1):
            middle = page.evaluate(SAMPLE_JS, (start + end) / 2)
            assert middle["poster"] == "hidden"
            for h in middle["highlights"]:
                assert h["opacity"] == (1 if number in h["steps"] else 0), (slug, number, h)
            assert [round(o, 3) for o in middle["texts"]] == [1 if k == number else 0 for k in range(1, len(bounds) + 1)]
            if number == 1:
                continue
            changing = [i for i, h in enumerate(middle["highlights"]) if (number in h["steps"]) != (number - 1 in h["steps"])]
            at, before, after = (page.evaluate(SAMPLE_JS, t) for t in (start, start - 20, start + 20))
            for i in changing:
                assert at["highlights"][i]["opacity"] == pytest.approx(0.5, abs=0.02), (slug, number, at)
                assert 0 < before["highlights"][i]["opacity"] < 1 and 0 < after["highlights"][i]["opacity"] < 1
                checked += 1
            for sample in (at, before, after):
                assert sum(o > 0.001 for o in sample["texts"]) <= 1, (slug, number, sample["texts"])
    assert checked


def test_an_active_route_dot_travels_towards_its_target(site, svg_page):
    slug = next(s for s in site.all_slugs if any(st.get("paths") for st in site.specs[s]["scenarios"][0]["steps"]))
    page = svg_page(slug, site.specs[slug]["scenarios"][0]["id"])
    early, late = page.evaluate(SAMPLE_JS, 100), page.evaluate(SAMPLE_JS, 500)
    assert early["dots"] and any(a != b for a, b in zip(early["dots"], late["dots"])), (early["dots"], late["dots"])


def test_reduced_motion_runs_nothing_and_shows_the_poster(site, svg_page):
    for slug in site.all_slugs:
        scenario = site.specs[slug]["scenarios"][0]
        page = svg_page(slug, scenario["id"], reduced=True)
        sample = page.evaluate(SAMPLE_JS, 1000)
        assert sample["running"] == 0 and sample["poster"] == "visible", (slug, sample)
        assert all(h["opacity"] == 0 for h in sample["highlights"]) and not any(sample["texts"])
