"""The SVG as the browser sees it: an image named and described, nothing focusable, no SMIL, and still
under reduced motion even inside <img> (WCAG 2.2 SC 1.1.1, 2.1.1, 2.2.2, 2.3.3)."""

from __future__ import annotations

import base64

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SVG_FACTS_JS = r"""
(svg) => {
  const byId = id => svg.ownerDocument.getElementById(id);
  const refs = name => (svg.getAttribute(name) || "").split(/\s+/).filter(Boolean).map(byId);
  const focusable = Array.from(svg.querySelectorAll("*")).filter(el =>
      el.tabIndex >= 0 || el.hasAttribute("tabindex") || el.getAttribute("focusable") === "true"
      || (el.localName === "a" && (el.hasAttribute("href") || el.hasAttribute("xlink:href"))));
  const smil = Array.from(svg.querySelectorAll("*")).filter(el => SMIL.includes(el.localName));
  return {
    role: svg.getAttribute("role"), lang: svg.getAttribute("lang"),
    labelledby: refs("aria-labelledby").map(el => el && [el.localName, el.parentNode === svg, el.textContent]),
    describedby: refs("aria-describedby").map(el => el && [el.localName, el.parentNode === svg, el.textContent]),
    tabIndex: svg.tabIndex, svgTabindexAttr: svg.getAttribute("tabindex"), focusableAttr: svg.getAttribute("focusable"),
    focusable: focusable.map(el => el.outerHTML.slice(0, 80)),
    smil: smil.map(el => el.localName),
    scripts: svg.querySelectorAll("script, foreignObject").length,
    handlers: Array.from(svg.querySelectorAll("*")).filter(el =>
      Array.from(el.attributes).some(a => a.name.startsWith("on"))).length,
  };
}
""".replace("SMIL", repr(list(bs.SMIL_ELEMENTS)))


def ax_node(page, selector: str, index: int = 0) -> dict:
    """Chromium's own accessibility node (role, computed name and description) of the index-th match."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node_id = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"][index]
        node = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node_id, "fetchRelatives": False})["nodes"][0]
    finally:
        cdp.detach()
    value = lambda key: (node.get(key) or {}).get("value")  # noqa: E731
    return {"role": value("role"), "name": value("name"), "description": value("description"),
            "ignored": node.get("ignored")}


def check_svg_facts(facts: dict, spec: dict, where: str) -> None:
    assert facts["role"] == "img", where
    assert facts["lang"] == spec["language"], where
    assert facts["labelledby"] == [["title", True, spec["title"]]], where
    assert facts["describedby"] == [["desc", True, spec["alt"]]], where
    assert facts["tabIndex"] < 0 and facts["svgTabindexAttr"] is None and facts["focusableAttr"] in (None, "false"), where
    assert facts["focusable"] == [], where
    assert facts["smil"] == [], where
    assert facts["scripts"] == 0 and facts["handlers"] == 0, where


@pytest.mark.parametrize("width", [1280, 360])
def test_inline_svgs_are_named_described_images_without_focus_or_smil(site, open_page, width):
    """Each scenario's two layouts, wide then narrow (a lane grid's three: the middle one between them), are each
    a named image; of the first scenario's, the one the width shows is in the accessibility tree and the others
    are not (nor are the other scenarios' until chosen)."""
    for slug in site.all_slugs:
        spec = site.specs[slug]
        page = open_page(site.page(slug), viewport=(width, 900))
        svgs = page.locator(".mech-figure svg[role=img]")
        names = svgs.evaluate_all("s => s.map(e => [...e.closest('.mech-canvas-inner').classList]"
                                  ".find(c => c !== 'mech-canvas-inner'))")
        assert names.count("mech-wide") == names.count("mech-narrow") == len(spec["scenarios"]), names
        shown = names.index("mech-wide" if width == 1280 else "mech-narrow")  # the first scenario's
        for i in range(svgs.count()):
            check_svg_facts(svgs.nth(i).evaluate(SVG_FACTS_JS), spec, f"{slug}, drawing {i + 1} ({names[i]})")
            node = ax_node(page, ".mech-figure svg[role=img]", i)
            if i == shown:
                assert node == {"role": "image", "name": spec["title"], "description": spec["alt"],
                                "ignored": False}, (slug, node)
            else:
                assert node["ignored"], (slug, i, node)


def test_svg_files_are_named_described_images_without_focus_or_smil(site, open_page):
    """The standalone files, opened as documents (animated and poster)."""
    page = None
    for slug in site.mechanisms + site.generated:
        spec = site.specs[slug]
        for scenario in spec["scenarios"]:
            for kind in ("", ".poster"):
                path = site.out / f"{slug}.{scenario['id']}{kind}.svg"
                if page is None:
                    page = open_page(path)
                else:
                    page.goto(path.as_uri())
                check_svg_facts(page.locator(":root").evaluate(SVG_FACTS_JS), spec, path.name)
                assert ax_node(page, ":root")["name"] == spec["title"], path.name


def test_copies_have_their_own_title_and_description(site, open_page):
    """Two copies of one fragment plus another: every SVG is named and described by its own elements."""
    page = open_page(site.multi)
    first = site.mechanisms[0]
    # two copies of the first figure and one of the relay, each scenario in two or three layouts
    counts = page.locator("[data-mech-figure]").evaluate_all(
        "figures => figures.map(f => f.querySelectorAll('.mech-figure svg[role=img]').length)")
    assert len(counts) == 3 and counts[0] == counts[1] and counts[0] >= 2 * len(site.specs[first]["scenarios"])
    slugs = [first] * (counts[0] + counts[1]) + ["relay"] * counts[2]
    svgs = page.locator("[data-mech-figure] .mech-figure svg[role=img]")
    assert svgs.count() == len(slugs)
    references = set()
    for index, slug in enumerate(slugs):
        svg = svgs.nth(index)
        check_svg_facts(svg.evaluate(SVG_FACTS_JS), site.specs[slug], f"multi svg {index + 1}")
        references.add(svg.evaluate("svg => svg.getAttribute('aria-labelledby') + ' ' + svg.getAttribute('aria-describedby')"))
        if svg.is_visible():
            node = ax_node(page, "[data-mech-figure] .mech-figure svg[role=img]", index)
            assert (node["name"], node["description"]) == (site.specs[slug]["title"], site.specs[slug]["alt"]), node
    assert len(references) == len(slugs), references


# --------------------------------------------------------------------------- <img>, reduced motion, screenshots

PIXEL_DIFF_JS = r"""
async ([a, b]) => {
  const load = src => new Promise((ok, fail) => { const i = new Image(); i.onload = () => ok(i); i.onerror = fail; i.src = src; });
  const [x, y] = await Promise.all([load(a), load(b)]);
  if (x.width !== y.width || x.height !== y.height) return {size: [[x.width, x.height], [y.width, y.height]], differ: -1};
  const pixels = img => { const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
    const g = c.getContext("2d"); g.drawImage(img, 0, 0); return g.getImageData(0, 0, c.width, c.height).data; };
  const p = pixels(x), q = pixels(y);
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2] || p[i + 3] !== q[i + 3]) differ++;
  }
  return {size: [x.width, x.height], differ};
}
"""


def pixel_diff(page, a: bytes, b: bytes) -> dict:
    url = lambda data: "data:image/png;base64," + base64.b64encode(data).decode("ascii")  # noqa: E731
    return page.evaluate(PIXEL_DIFF_JS, [url(a), url(b)])


def boundary_scenario(site) -> tuple[str, dict]:
    """A scenario of the project's own specs whose first step ends between 1.5 s and 3 s (with margins)
    and whose second step lasts past 3 s, so shots at 0, 1.5 and 3 s cross exactly one boundary."""
    for slug in site.mechanisms:
        for scenario in site.specs[slug]["scenarios"]:
            steps = scenario["steps"]
            if len(steps) > 1 and 1900 <= steps[0]["duration"] <= 2600 and steps[0]["duration"] + steps[1]["duration"] >= 3800:
                return slug, scenario
    pytest.fail("no spec in mechanisms/ has a first step of 1.9-2.6 s followed by a longer one")


def shoot_over_time(page, tmp_path, label: str, times=(0.0, 1.5, 3.0)):
    """Element screenshots of the <img> at the given seconds after it loaded; each shot's time window is
    recorded so the caller can check it fell where intended."""
    page.wait_for_function("() => { const i = document.getElementById('shot'); return i.complete && i.naturalWidth > 0; }")
    image = page.locator("#shot")
    return bs.shots_over_time(lambda at: image.screenshot(path=str(tmp_path / f"{label}-{at:.1f}s.png")), times)


def test_img_of_animated_svg_is_still_under_forced_reduced_motion(site, open_page, launch, tmp_path):
    slug, scenario = boundary_scenario(site)
    first = scenario["steps"][0]["duration"] / 1000
    second_end = first + scenario["steps"][1]["duration"] / 1000
    animated = site.img[f"{slug}.{scenario['id']}.svg"]
    poster = site.img[f"{slug}.{scenario['id']}.poster.svg"]

    for attempt in range(3):  # a busy machine may delay a shot past its step: shoot the series again
        moving, windows = shoot_over_time(open_page(animated), tmp_path, "motion" + "-retry" * attempt)
        if windows[0.0][1] < first - 0.2 and first + 0.2 < windows[3.0][0] and windows[3.0][1] < second_end - 0.2:
            break
    else:
        pytest.fail(f"screenshots kept falling outside their steps (machine too slow?): {windows}")
    comparer = open_page(site.page(slug), keep=True)
    change = pixel_diff(comparer, moving[0.0], moving[3.0])
    assert change["differ"] > 200, f"the animated <img> did not change across the step boundary: {change}"

    still_browser = launch("--force-prefers-reduced-motion")
    still, windows = shoot_over_time(open_page(animated, browser=still_browser), tmp_path, "reduced")
    assert windows[3.0][0] > first + 0.2, windows
    assert still[0.0] == still[1.5] == still[3.0], [pixel_diff(comparer, still[0.0], still[t]) for t in (1.5, 3.0)]
    assert still[0.0] != moving[0.0]  # the still image is the poster, not step 1
    poster_shot = open_page(poster, browser=still_browser).locator("#shot")
    poster_shot.page.wait_for_function("document.getElementById('shot').complete")
    poster_png = poster_shot.screenshot(path=str(tmp_path / "poster.png"))
    assert pixel_diff(comparer, still[0.0], poster_png)["differ"] == 0, "reduced motion does not show the poster frame"
