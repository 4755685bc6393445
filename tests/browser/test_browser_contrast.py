"""Contrast measured on what chromium renders (computed colours, hit-tested backgrounds), light and dark:
SVG text >= 4.5:1 in the normal, active and dimmed states (SC 1.4.3); node borders, arrows, the active ring
and fill >= 3:1 against the background (SC 1.4.11); the active state shown by more than colour (SC 1.4.1);
the HTML text and controls (SC 1.4.3, 1.4.11).

Run with ``-s`` to see the lowest ratio of every category.
"""

from __future__ import annotations

from collections import defaultdict

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCHEMES = ["light", "dark"]
TEXT_MIN = 4.5
NON_TEXT_MIN = 3.0


def every_step(page, ends_only=False):
    """Yield (scenario index, step number) after showing each step of each scenario of figure 0 (with
    ``ends_only``, the first and the last step of each)."""
    data = bs.player_data(page)
    for index, scenario in enumerate(data["scenarios"]):
        if index:
            page.select_option("[data-mech-figure] .mech-scenario", str(index))
        last = len(scenario["steps"])
        for number in range(1, last + 1):
            if number > 1:
                bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
            assert bs.step_of(page) == number
            if not ends_only or number in (1, last):
                yield index, number


def text_ratio(entry: dict) -> tuple[float, str]:
    """The lowest contrast of a text against anything painted under it; (ratio, what it was against)."""
    worst = (float("inf"), "")
    for under in entry["under"]:
        bg = bs.parse_colour(under["colour"])
        assert bg and bg[3] * under["alpha"] == 1, f"translucent background under {entry['text']!r}: {under}"
        fg = bs.parse_colour(entry["fill"]["colour"])
        fg = bs.blend(fg, bg, fg[3] * entry["fill"]["alpha"])
        ratio = bs.contrast(fg, bg)
        if ratio < worst[0]:
            worst = (ratio, f"{bs.hex_of(fg)} on {bs.hex_of(bg)} ({under['how']})")
    return worst


def part_ratio(part: dict) -> tuple[float, str]:
    bg = bs.parse_colour(part["bg"])
    fg = bs.parse_colour(part["colour"])
    fg = bs.blend(fg, bg, fg[3] * part["alpha"])
    return bs.contrast(fg, bg), f"{bs.hex_of(fg)} on {bs.hex_of(bg)}"


def report(title: str, lowest: dict) -> None:
    print(f"\n{title}")
    for key in sorted(lowest):
        ratio, where = lowest[key]
        print(f"  {key:<40} {ratio:5.2f}:1  {where}")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_svg_text_and_graphics_contrast_in_every_state(site, open_page, scheme):
    lowest: dict[str, tuple[float, str]] = {}
    failures = []
    seen_categories = set()
    states = defaultdict(set)

    def note(key, ratio, where, minimum, label):
        if key not in lowest or ratio < lowest[key][0]:
            lowest[key] = (ratio, where)
        if ratio < minimum:
            failures.append(f"{label}: {ratio:.2f}:1 < {minimum}:1, {where}")

    for slug in site.all_slugs:
        # Tall enough for every drawing at its largest (1.5 times its size): the measure reads what is painted
        # at each point of the view.
        page = open_page(site.page(slug), scheme=scheme, clock=True, viewport=(1280, 2600))
        # The gallery's figures in every step; the generated ones (layouts at their limits, drawn with the same
        # style sheet) in their first and last: their colours are the gallery's, their geometry is new.
        for index, number in every_step(page, ends_only=slug in site.generated):
            measured = page.evaluate(bs.MEASURE_SVG_JS)
            assert measured["texts"], (slug, index, number)
            for entry in measured["texts"]:
                assert entry["under"], entry
                ratio, where = text_ratio(entry)
                seen_categories.add(entry["category"])
                states[entry["category"]].add(slug)
                note(f"text, {entry['category']}", ratio, where, TEXT_MIN,
                     f"{slug} s{index + 1} step {number} text {entry['text']!r} ({entry['category']})")
            for part in measured["parts"]:
                ratio, where = part_ratio(part)
                note(part["part"], ratio, where, NON_TEXT_MIN, f"{slug} s{index + 1} step {number} {part['part']}")
    # the posters, as standalone documents
    for slug in site.all_slugs:
        for scenario in site.specs[slug]["scenarios"]:
            page = open_page(site.out / f"{slug}.{scenario['id']}.poster.svg", scheme=scheme)
            measured = page.evaluate(bs.MEASURE_SVG_JS)
            for entry in measured["texts"]:
                ratio, where = text_ratio(entry)
                note(f"text, {entry['category']} (poster)", ratio, where, TEXT_MIN, f"{slug} poster {entry['text']!r}")
            for part in measured["parts"]:
                ratio, where = part_ratio(part)
                note(f"{part['part']} (poster)", ratio, where, NON_TEXT_MIN, f"{slug} poster {part['part']}")
    report(f"SVG contrast, {scheme} scheme (lowest per category)", lowest)
    assert seen_categories == {"normal", "active", "dimmed"}, seen_categories
    for needed in ("node border", "dimmed node border", "active node border", "active node fill", "active ring",
                   "arrow", "arrow head", "dimmed arrow", "dimmed arrow head", "active arrow", "active arrow head"):
        assert needed in lowest, f"nothing measured for {needed}"
    assert not failures, "\n".join(failures)


def test_active_state_differs_by_more_than_colour(site, open_page):
    for slug in site.all_slugs:
        page = open_page(site.page(slug), clock=True)
        # every step of the gallery's figures; the generated ones (the same style sheet) in their first and last
        for index, number in every_step(page, ends_only=slug in site.generated):
            facts = page.evaluate(r"""() => {
              const svg = Array.from(document.querySelectorAll('.mech-figure svg[role=img]')).find(s => s.getClientRects().length);
              const P = '.' + svg.getAttribute('class').split(/\s+/)[0] + '-';
              const frame = svg.querySelector('[data-mech-current]');
              const normal = svg.querySelector(P + 'n:not(' + P + 'dim) > ' + P + 'node');
              // a label in no highlight now: in its box's group, or one of the highlighted boxes' labels at rest
              const normalLabel = Array.from(svg.querySelectorAll(P + 'label')).find(l =>
                !l.classList.contains(P.slice(1) + 'label-dim') && !l.closest(P + 'dim') && getComputedStyle(l).fontWeight < 700);
              return {
                normal: [getComputedStyle(normal).strokeWidth, getComputedStyle(normalLabel).fontWeight],
                // An active box's ring is a layer of its own under the paths, with the box's highlight classes.
                // (a group's highlight, a frame of its own, has no box: its own tests see to it)
                active: Array.from(svg.querySelectorAll('[data-mech-steps~="' + frame.dataset.mechFrame + '"]' + P + 'on'))
                  .filter(g => g.querySelector(P + 'node')).map(g => {
                  const ring = svg.querySelector('.' + Array.from(g.classList).find(c => /-h[0-9]+$/.test(c)) + P + 'outline ' + P + 'ring');
                  return {
                  ring: ring ? 1 : 0,
                  ringWidth: ring && getComputedStyle(ring).strokeWidth,
                  ringShown: ring && getComputedStyle(ring).visibility,
                  stroke: getComputedStyle(g.querySelector(P + 'node')).strokeWidth,
                  // the box's one label, drawn over the highlights (its class names the highlight's index)
                  weight: getComputedStyle(svg.querySelector(P + 'l' + Array.from(g.classList).find(c => /-h[0-9]+$/.test(c))
                    .replace(/^.*-h/, ''))).fontWeight,
                  dash: getComputedStyle(g.querySelector(P + 'node')).strokeDasharray}; }),
              };
            }""")
            step = site.specs[slug]["scenarios"][index]["steps"][number - 1]
            boxes = [key for key in step["active"] if key not in site.specs[slug].get("groups", {})]
            assert len(facts["active"]) == len(boxes), (slug, number, facts)
            normal_stroke, normal_weight = facts["normal"]
            for box in facts["active"]:
                assert box["ring"] == 1 and float(box["ringWidth"].rstrip("px")) >= 2, (slug, number, box)
                assert box["ringShown"] == "visible", (slug, number, box)
                assert float(box["stroke"].rstrip("px")) > float(normal_stroke.rstrip("px")), (slug, number, box)
                assert int(box["weight"]) >= 700 > int(normal_weight), (slug, number, box, normal_weight)
                assert box["dash"] == "none", box


@pytest.mark.parametrize("scheme", SCHEMES)
def test_html_text_and_controls_contrast(site, open_page, scheme):
    lowest: dict[str, tuple[float, str]] = {}
    failures = []
    for path in [site.page(slug) for slug in site.all_slugs] + [site.multi]:
        page = open_page(path, scheme=scheme)
        page.keyboard.press("Tab")  # paused: the status shows its polite text too
        measured = page.evaluate(bs.MEASURE_HTML_JS)
        assert measured["texts"] and measured["controls"]
        for entry in measured["texts"]:
            fg, bg = bs.parse_colour(entry["colour"]), bs.parse_colour(entry["bg"])
            assert bg[3] == 1, entry
            fg = bs.blend(fg, bg)
            ratio = bs.contrast(fg, bg)
            size, weight = float(entry["fontSize"].rstrip("px")), int(entry["fontWeight"])
            large = size >= 24 or (size >= 18.66 and weight >= 700)
            key = "large text" if large else "text"
            where = f"{bs.hex_of(fg)} on {bs.hex_of(bg)} <{entry['tag']} class={entry['cls']!r}>"
            if key not in lowest or ratio < lowest[key][0]:
                lowest[key] = (ratio, where)
            if ratio < (3.0 if large else TEXT_MIN):
                failures.append(f"{path.name}: {entry['text']!r} {ratio:.2f}:1 {where}")
        for control in measured["controls"]:
            fg, bg = bs.parse_colour(control["border"]), bs.parse_colour(control["bg"])
            ratio = bs.contrast(bs.blend(fg, bg), bg)
            where = f"{bs.hex_of(fg)} on {bs.hex_of(bg)} ({control['name']})"
            if "control border" not in lowest or ratio < lowest["control border"][0]:
                lowest["control border"] = (ratio, where)
            assert float(control["borderWidth"].rstrip("px")) >= 1, control
            if ratio < NON_TEXT_MIN:
                failures.append(f"{path.name}: border {ratio:.2f}:1 {where}")
    report(f"HTML contrast, {scheme} scheme (lowest per category)", lowest)
    assert not failures, "\n".join(failures)
