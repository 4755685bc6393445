"""The player in WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver: the engine of Safari and of every iOS
browser): step timing on a controlled clock, the tablist's keys (mirrored right to left), Play/Pause of one size,
the live region, rotation stopping on focus, a right-to-left heading laid out right to left, the eases between
steps, and reduced motion (WCAG 2.2 SC 2.2.2, 2.3.3): the player starts paused and says how to play, the SVG file
and the SVG inside ``<img>`` stand still on the poster.

WebDriver cannot install a clock before a page loads, so each test page is a host page that replaces
``setTimeout``, ``clearTimeout`` and ``performance.now`` with a clock of its own before the fragment's player
script runs; ``window.__runFor(ms)`` then fires the player's timers to the millisecond.

WebDriver cannot emulate media either: the reduced-motion tests use the ``webkit_reduced`` session, whose GTK
settings turn animations off, which WebKitGTK reports as ``prefers-reduced-motion: reduce`` (see
:mod:`webkit_support`), as a reader's system setting would.
"""

from __future__ import annotations

import html
import time

import browser_support as bs
import pytest
import webkit_support as ws

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: A clock under the test's control, and a record of uncaught errors; runs before the player module, which the
#: browser runs once the page is parsed.
CLOCK_JS = r"""
(function () {
  var now = 0, next = 1, timers = {};
  window.__errors = [];
  window.addEventListener("error", function (event) { window.__errors.push(String(event.message)); });
  /* Only the site's scripts (the page's, the player module's) get the test's clock: WebDriver's injected scripts
     keep the real timers. */
  var realSet = window.setTimeout, realClear = window.clearTimeout, page = location.origin + "/";
  var fromPage = function () { return String(new Error().stack || "").split("\n").slice(2)
    .some(function (line) { return line.indexOf(page) >= 0; }); };
  window.setTimeout = function (fn, ms) {
    if (!fromPage()) { return realSet.apply(window, arguments); }
    var id = "t" + next++;
    timers[id] = {at: now + Math.max(0, Number(ms) || 0), fn: fn};
    return id;
  };
  window.clearTimeout = function (id) {
    if (typeof id === "string" && id.charAt(0) === "t") { delete timers[id]; } else { realClear.apply(window, arguments); }
  };
  Object.defineProperty(window.performance, "now", {value: function () { return now; }, configurable: true});
  window.__runFor = function (ms) {
    var end = now + ms;
    for (;;) {
      var due = null;
      Object.keys(timers).forEach(function (id) {
        if (timers[id].at <= end && (due === null || timers[id].at < timers[due].at)) { due = id; }
      });
      if (due === null) { break; }
      var timer = timers[due];
      delete timers[due];
      now = timer.at;
      timer.fn();
    }
    now = end;
  };
}());
"""


def clocked_page(site, site_url, slug: str) -> str:
    """The URL (on the site's loopback server: the page loads the player's module file) of a page holding
    ``slug``'s fragment after :data:`CLOCK_JS`, which is in place before the module runs."""
    spec = site.specs[slug]
    path = site.out / f"webkit-{slug}.html"
    path.write_text(f"<!DOCTYPE html>\n<html lang=\"{spec['language']}\">\n<head>\n<meta charset=\"utf-8\">\n"
                    f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    f"<title>{html.escape(spec['title'])}</title>\n<script>{CLOCK_JS}</script>\n</head>\n"
                    f"<body>\n<main>\n{site.fragment(slug)}\n</main>\n</body>\n</html>\n", "utf-8")
    return site_url(path)


def open_in(driver, url: str):
    """``driver`` showing ``url`` once every player on it has started (the module runs after the page is parsed,
    which WebDriver's load may precede): at most 10 s."""
    driver.get(url)
    driver.execute_script("window.scrollTo(0, 0)")
    deadline = time.monotonic() + 10
    waiting = "return document.querySelectorAll('[data-mech-figure]:not([data-mech-ready])').length"
    while driver.execute_script(waiting) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert driver.execute_script(waiting) == 0
    return driver


def state(driver) -> dict:
    return driver.execute_script(f"return ({bs.STATE_JS})(document.querySelector('[data-mech-figure]'))")


def step_of(driver) -> int:
    """The step shown (1-based), checked as :func:`browser_support.step_of` does: tab, status, visible frame."""
    s = state(driver)
    number = s["tabStops"][0] + 1
    assert s["position"] == f"Step {number} of {len(driver_steps(driver, s['scenario']))}", s
    assert s["status"].startswith(bs.unisolated(driver_steps(driver, s["scenario"])[number - 1]["announcement"])), s
    assert s["visibleFrames"] == [number], s
    return number


def driver_steps(driver, scenario: int) -> list[dict]:
    return driver.execute_script("return JSON.parse(document.querySelector('mech-diagram').dataset.mechPlayer)"
                                 ".scenarios[arguments[0]].steps", scenario)


def run_for(driver, ms: int) -> None:
    driver.execute_script("window.__runFor(arguments[0])", ms)


def no_errors(driver) -> None:
    assert driver.execute_script("return window.__errors") == []


@pytest.mark.parametrize("slug", ["relay", "lang-ar"])
def test_webkit_steps_change_exactly_at_the_timeline_boundaries(site, site_url, webkit, slug):
    driver = open_in(webkit, clocked_page(site, site_url, slug))
    for index in range(len(site.specs[slug]["scenarios"])):
        if index:
            driver.execute_script("const s = document.querySelector('.mech-scenario'); s.value = arguments[0];"
                                  "s.dispatchEvent(new Event('change'));", str(index))
        assert state(driver)["scenes"] == [index]
        steps = driver_steps(driver, index)
        for number, step in enumerate(steps, start=1):
            assert step["start"] == sum(s["duration"] for s in steps[:number - 1])
            run_for(driver, step["duration"] - 1)
            assert step_of(driver) == number, (slug, index, number)
            run_for(driver, 1)
            assert step_of(driver) == number % len(steps) + 1, (slug, index, number)
        assert state(driver)["live"] == "off"  # silent while it rotates
    no_errors(driver)


@pytest.mark.parametrize(("slug", "forward"), [("relay", "ArrowRight"), ("lang-ar", "ArrowLeft")])
def test_webkit_tablist_keys_follow_the_direction(site, site_url, webkit, slug, forward):
    from selenium.webdriver.common.keys import Keys
    keys = {"ArrowRight": Keys.ARROW_RIGHT, "ArrowLeft": Keys.ARROW_LEFT}
    back = Keys.ARROW_LEFT if forward == "ArrowRight" else Keys.ARROW_RIGHT
    driver = open_in(webkit, clocked_page(site, site_url, slug))
    spec = site.specs[slug]

    def press(key) -> dict:
        driver.switch_to.active_element.send_keys(key)
        s = state(driver)
        assert s["focusedTab"] == s["tabStops"][0], s  # focus follows the selected tab (roving tabindex)
        return s

    first = driver.find_element("css selector", "[role='tab']")
    first.send_keys(keys[forward])  # focus enters the tablist: rotation stops; the key moves to step 2
    s = state(driver)
    assert (step_of(driver), s["label"], s["live"]) == (2, bs.say(spec, "playName"), "polite"), s
    assert press(keys[forward])["position"] == "Step 3 of 3"
    assert press(keys[forward])["position"] == "Step 1 of 3"  # wraps
    assert press(back)["position"] == "Step 3 of 3"
    assert press(Keys.HOME)["position"] == "Step 1 of 3"
    assert press(Keys.END)["position"] == "Step 3 of 3"
    run_for(driver, 60_000)
    assert step_of(driver) == 3
    no_errors(driver)


def test_webkit_play_pause_keeps_its_size_and_the_live_region_follows(site, site_url, webkit):
    driver = open_in(webkit, clocked_page(site, site_url, "relay"))
    button = driver.find_element("css selector", ".mech-play")
    box = lambda: driver.execute_script(  # noqa: E731
        "const r = arguments[0].getBoundingClientRect(); return [r.x, r.width, r.height];", button)
    before = box()
    s = state(driver)
    assert (s["label"], s["live"]) == (bs.PAUSE_LABEL, "off"), s
    driver.execute_script("arguments[0].click()", button)
    s = state(driver)
    assert (s["label"], s["live"], s["svgPaused"]) == (bs.PLAY_LABEL, "polite", True), s
    assert box() == before and before[1] >= 44 and before[2] >= 44
    run_for(driver, 60_000)
    assert step_of(driver) == 1
    driver.execute_script("arguments[0].click()", button)
    assert state(driver)["label"] == bs.PAUSE_LABEL and box() == before
    run_for(driver, 1000)
    assert step_of(driver) == 2
    driver.execute_script("document.querySelector('.mech-next').click()")  # a step the reader chose is announced
    s = state(driver)
    assert (step_of(driver), s["live"]) == (3, "polite"), s
    no_errors(driver)


def test_webkit_lays_a_right_to_left_heading_out_right_to_left_inside_the_panel(site, webkit):
    """WebKit's SVG text geometry (getExtentOfChar, getCharNumAtPosition) reports characters in logical order,
    so the order itself is checked in chromium (test_browser_tablist); here: WebKit applies the heading's
    direction and keeps the line where the panel is."""
    spec = site.specs["lang-ar"]
    webkit.get((site.out / f"lang-ar.{spec['scenarios'][0]['id']}.poster.svg").as_uri())
    facts = webkit.execute_script("""
      const text = Array.from(document.querySelectorAll("text")).find(t => /-ptitle$/.test(t.getAttribute("class")));
      const box = text.getBBox(), cs = getComputedStyle(text);
      return {direction: cs.direction, anchor: cs.textAnchor, left: box.x, right: box.x + box.width,
              x: Number(text.getAttribute("x")), width: document.documentElement.viewBox.baseVal.width};""")
    assert (facts["direction"], facts["anchor"]) == ("rtl", "middle"), facts
    # centred on its x (text-anchor middle: the same in every renderer), inside the drawing
    assert abs((facts["left"] + facts["right"]) / 2 - facts["x"]) < 1, facts
    assert facts["left"] > 0 and facts["right"] < facts["width"], facts


def test_webkit_eases_highlights_across_each_boundary_and_never_overlaps_step_text(site, webkit):
    """The motion test of test_browser_motion.py, in WebKit: the animated SVG file with its animations sought
    through the Web Animations API (``currentTime``), not sleeps."""
    from test_browser_motion import SAMPLE_JS, windows

    driver = webkit
    checked = 0
    for slug in site.mechanisms:
        spec = site.specs[slug]
        driver.get((site.out / f"{slug}.{spec['scenarios'][0]['id']}.svg").as_uri())
        sample = lambda t: driver.execute_script(f"return ({SAMPLE_JS})(arguments[0]);", t)  # noqa: E731
        for number, (start, end) in enumerate(windows(spec), start=1):
            middle = sample((start + end) / 2)
            assert middle["poster"] == "hidden"
            assert [round(o, 3) for o in middle["texts"]] == [1 if k == number else 0 for k in range(1, len(middle["texts"]) + 1)]
            if number == 1:
                continue
            at = sample(start)
            for i, h in enumerate(middle["highlights"]):
                if (number in h["steps"]) != (number - 1 in h["steps"]):
                    assert at["highlights"][i]["opacity"] == pytest.approx(0.5, abs=0.03), (slug, number)
                    checked += 1
            assert sum(o > 0.001 for o in at["texts"]) <= 1
    assert checked


# --------------------------------------------------------------------------- reduced motion

#: What the page's media queries say about reduced motion: [matches reduce, matches no-preference].
REDUCED_MOTION_JS = ("return [matchMedia('(prefers-reduced-motion: reduce)').matches,"
                     " matchMedia('(prefers-reduced-motion: no-preference)').matches]")

#: Every animation and transition of the document, named ("CSSAnimation mech-…-frame running").
ANIMATIONS_JS = ("return document.getAnimations().map(a => [a.constructor.name, a.animationName || a.transitionProperty,"
                 " a.playState].join(' '))")


def test_webkit_reduced_motion_follows_the_gtk_setting(site, webkit, webkit_reduced):
    """The reduced session matches ``reduce`` (GTK animations off); the other session matches ``no-preference``."""
    for driver, expected in ((webkit_reduced, [True, False]), (webkit, [False, True])):
        driver.get(site.page("relay").as_uri())
        assert driver.execute_script(REDUCED_MOTION_JS) == expected, driver is webkit_reduced


@pytest.mark.parametrize("slug", bs.mechanism_slugs() + list(bs.GENERATED))
def test_webkit_reduced_motion_starts_paused_and_says_how_to_play(site, site_url, webkit_reduced, slug):
    """test_browser_player's reduced-motion test, in WebKit."""
    driver = open_in(webkit_reduced, clocked_page(site, site_url, slug))
    assert driver.execute_script(REDUCED_MOTION_JS) == [True, False]
    spec = site.specs[slug]
    s = state(driver)
    assert s["label"] == bs.say(spec, "playName") and s["live"] == "polite" and s["svgPaused"], s
    assert s["status"].endswith(" " + bs.say(spec, "reducedMotion")) and bs.say(spec, "playName") in s["status"], s
    assert driver.execute_script(ANIMATIONS_JS) == []  # nothing runs, nothing even waits paused
    run_for(driver, 60_000)
    assert step_of(driver) == 1
    flows = driver.execute_script("return Array.from(document.querySelectorAll(\"svg [class$='-flow']\"))"
                                  ".map(el => getComputedStyle(el).animationName)")
    has_paths = any(target["kind"] == "path" for target in spec["targets"].values())
    assert set(flows) == ({"none"} if has_paths else set()), flows
    driver.execute_script("document.querySelector('.mech-play').click()")  # the reader may still choose to play
    assert state(driver)["label"] == bs.say(spec, "pauseName")
    run_for(driver, driver_steps(driver, 0)[0]["duration"])
    assert step_of(driver) == 2
    no_errors(driver)


def test_webkit_reduced_motion_runs_nothing_and_shows_the_poster(site, webkit_reduced):
    """test_browser_motion's reduced-motion test, in WebKit: the animated SVG file of every spec."""
    from test_browser_motion import SAMPLE_JS

    for slug in site.all_slugs:
        scenario = site.specs[slug]["scenarios"][0]
        webkit_reduced.get((site.out / f"{slug}.{scenario['id']}.svg").as_uri())
        sample = webkit_reduced.execute_script(f"return ({SAMPLE_JS})(1000);")
        assert sample["running"] == 0 and sample["poster"] == "visible", (slug, sample)
        assert all(h["opacity"] == 0 for h in sample["highlights"]) and not any(sample["texts"]), (slug, sample)


def test_webkit_img_of_animated_svg_is_still_under_reduced_motion(site, webkit, webkit_reduced):
    """test_browser_svg's ``<img>`` test, in WebKit: an SVG used as an image is a document of its own, and media
    queries inside one are where Safari has had quirks (WebKit bug 199134). Shots at 0, 1.5 and 3 s after it loaded:
    the animated image changes across its first step boundary, and under reduced motion all three are the
    poster, pixel for pixel."""
    from test_browser_svg import boundary_scenario

    slug, scenario = boundary_scenario(site)
    first = scenario["steps"][0]["duration"] / 1000
    second_end = first + scenario["steps"][1]["duration"] / 1000
    animated = site.img[f"{slug}.{scenario['id']}.svg"].as_uri()
    poster = site.img[f"{slug}.{scenario['id']}.poster.svg"].as_uri()

    for _ in range(3):  # a busy machine may delay a shot past its step: shoot the series again
        moving, windows = ws.shoot_img_over_time(webkit, animated)
        if windows[0.0][1] < first - 0.2 and first + 0.2 < windows[3.0][0] and windows[3.0][1] < second_end - 0.2:
            break
    else:
        pytest.fail(f"screenshots kept falling outside their steps (machine too slow?): {windows}")
    change = ws.differing_pixels(moving[0.0], moving[3.0])
    assert change > 200, f"the animated <img> did not change across the step boundary: {change} pixels"

    still, windows = ws.shoot_img_over_time(webkit_reduced, animated)
    assert windows[3.0][0] > first + 0.2, windows
    assert still[0.0] == still[1.5] == still[3.0], [ws.differing_pixels(still[0.0], still[t]) for t in (1.5, 3.0)]
    assert ws.differing_pixels(still[0.0], moving[0.0]) > 0  # the still image is the poster, not step 1
    poster_png = ws.shoot_img_over_time(webkit_reduced, poster, times=(0.0,))[0][0.0]
    assert ws.differing_pixels(still[0.0], poster_png) == 0, "reduced motion does not show the poster frame"


def test_webkit_chooses_each_figures_layout_by_its_own_width(site, site_url, webkit):
    """WebKit's container queries: in a 300 px sidebar the narrow layout, in a 1240 px column the wide one."""
    open_in(webkit, site_url(bs.columns_page(site, bs.LEAD)))
    figures = webkit.execute_script(f"return ({bs.LAYOUTS_JS})()")
    assert [f["drawn"] for f in figures] == [["narrow"], ["wide"]], figures
    assert all(f["smallest"] >= 12 - 0.01 for f in figures), figures
    assert [f["current"] for f in figures] == ["visible", "visible"], figures  # the shared style sheet applies


@pytest.mark.parametrize(("slug", "opens"), [("kreislauf", "ArrowRight")])
def test_webkit_hears_the_drawings_structure_and_follows_its_keys(site, site_url, webkit, slug, opens):
    """WebKitWebDriver's Get Computed Role and Get Computed Label (W3C WebDriver 12.4.9, 12.4.10) of the explorer's
    tree (a layered graph's) and of the item the keys reach (roving tabindex: real focus), its words following
    the step."""
    from selenium.webdriver.common.keys import Keys
    driver = open_in(webkit, clocked_page(site, site_url, slug))
    words = bs.words(site.specs[slug])
    tree = driver.find_element("css selector", "[role='tree']")
    assert (tree.aria_role, tree.accessible_name) == ("tree", words["exploreName"])
    driver.find_element("css selector", "[role='tree'] [tabindex='0']").send_keys(Keys.ARROW_DOWN)
    item = driver.switch_to.active_element
    assert item.get_attribute("data-mech-item") is not None and item.aria_role == "treeitem"
    before = item.accessible_name
    assert bs.unisolated(before) == bs.unisolated(item.get_attribute("aria-label")) and before
    assert state(driver)["label"] == bs.say(site.specs[slug], "playName")  # focus in the structure paused it
    item.send_keys({"ArrowRight": Keys.ARROW_RIGHT, "ArrowLeft": Keys.ARROW_LEFT}[opens])
    assert driver.switch_to.active_element.get_attribute("aria-expanded") == "true"  # opened
    driver.switch_to.active_element.send_keys(Keys.PAGE_DOWN)
    assert step_of(driver) == 2
    after = driver.switch_to.active_element
    assert after.get_attribute("data-mech-item") == item.get_attribute("data-mech-item")  # focus stayed
    assert driver.execute_script("return document.querySelectorAll('.mech-focus').length") >= 1  # the ring
    no_errors(driver)


@pytest.mark.parametrize(("slug", "onward"), [("relay", "ArrowRight"), ("lang-ar", "ArrowLeft")])
def test_webkit_hears_a_lane_grids_structure_as_a_grid(site, site_url, webkit, slug, onward):
    """The same through WebKitWebDriver for a lane grid's ARIA grid: the grid's role and name, a cell's role
    (gridcell) and name as the keys reach it (Left and Right mirrored in Arabic), a row header's (the lane), an
    arrow's inside a cell after Enter, and a cell's words following the step without the focus moving."""
    from selenium.webdriver.common.keys import Keys
    driver = open_in(webkit, clocked_page(site, site_url, slug))
    words = bs.words(site.specs[slug])
    grid = driver.find_element("css selector", "[role='grid']")
    assert (grid.aria_role, grid.accessible_name) == ("grid", words["exploreGridName"])
    key = {"ArrowRight": Keys.ARROW_RIGHT, "ArrowLeft": Keys.ARROW_LEFT}
    back = "ArrowLeft" if onward == "ArrowRight" else "ArrowRight"
    driver.find_element("css selector", "[role='grid'] [tabindex='0']").send_keys(key[onward])
    cell = driver.switch_to.active_element
    assert (cell.get_attribute("data-mech-r"), cell.get_attribute("data-mech-c")) == ("1", "2")
    assert cell.aria_role == "gridcell" and cell.accessible_name
    assert bs.unisolated(cell.accessible_name) == bs.unisolated(cell.get_attribute("aria-label"))
    assert state(driver)["label"] == bs.say(site.specs[slug], "playName")  # focus in the structure paused it
    before = cell.accessible_name
    cell.send_keys(Keys.PAGE_DOWN)
    assert step_of(driver) == 2
    after = driver.switch_to.active_element
    assert after.get_attribute("data-mech-c") == "2" and after.accessible_name != before  # its state followed
    after.send_keys(key[back])
    after = driver.switch_to.active_element
    after.send_keys(key[back])
    lane = driver.switch_to.active_element
    assert lane.aria_role == "rowheader" and bs.unisolated(lane.accessible_name).startswith(
        bs.unisolated(site.specs[slug]["layout"]["lanes"][0]["label"]))
    lane.send_keys(Keys.ENTER)  # into the lane: its first box; then into its arrow
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    arrow = driver.switch_to.active_element
    assert arrow.aria_role == "button" and arrow.get_attribute("data-mech-a") == "0" and arrow.accessible_name
    assert driver.execute_script("return document.querySelectorAll('.mech-focus').length") >= 1  # the ring
    no_errors(driver)
