"""The step indicator as the WAI-ARIA APG tabbed carousel asks (a tablist of steps: the arrow keys move between
steps, mirrored in right-to-left languages, Home and End jump), the position said once, Play/Pause of one size
in every language, a 360 px column, and the order of author text and tool words in a right-to-left line."""

from __future__ import annotations

import json

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Counts every change of each status element's text from now on.
WATCH_STATUS_JS = r"""
() => {
  window.__statusChanges = 0;
  new MutationObserver(records => { window.__statusChanges += records.length; })
    .observe(document.querySelector(".mech-status"), {childList: true, characterData: true, subtree: true});
}
"""


def focus_tabs(page, figure: int = 0) -> dict:
    """Tab (the keyboard) into figure ``figure``'s tablist; returns the player's state."""
    for _ in range(12):
        page.keyboard.press("Tab")
        if bs.active_tag(page) == f"{figure}/mech-tab":
            return bs.state(page, figure)
    raise AssertionError("the tablist has no tab stop")


def key(page, name: str, figure: int = 0) -> dict:
    page.keyboard.press(name)
    s = bs.state(page, figure)
    assert bs.active_tag(page) == f"{figure}/mech-tab", name
    assert s["focusedTab"] == bs.step_of(page, figure) - 1 and s["tabStops"] == [s["focusedTab"]], s
    return s


def test_arrow_keys_home_and_end_move_between_steps(site, open_page):
    page = open_page(site.page("relay"), clock=True)  # 3 steps
    s = focus_tabs(page)
    assert (s["focusedTab"], s["label"]) == (0, bs.PLAY_LABEL), s  # keyboard focus in the carousel stops it
    page.evaluate(WATCH_STATUS_JS)
    s = key(page, "ArrowRight")
    assert (s["position"], s["live"]) == ("Step 2 of 3", "polite"), s
    assert page.evaluate("window.__statusChanges") == 1  # announced once
    assert key(page, "ArrowLeft")["position"] == "Step 1 of 3"
    assert key(page, "ArrowLeft")["position"] == "Step 3 of 3"  # wraps
    assert key(page, "ArrowRight")["position"] == "Step 1 of 3"
    assert key(page, "End")["position"] == "Step 3 of 3"
    assert key(page, "Home")["position"] == "Step 1 of 3"
    assert page.evaluate("window.__statusChanges") == 6
    assert key(page, "ArrowDown")["position"] == "Step 1 of 3"  # other keys do nothing
    page.clock.run_for(60_000)
    assert bs.step_of(page) == 1 and bs.state(page)["label"] == bs.PLAY_LABEL


def test_arrow_keys_are_mirrored_right_to_left(site, open_page):
    page = open_page(site.page("lang-ar"), clock=True)
    focus_tabs(page)
    boxes = bs.figures(page).nth(0).locator("[role='tab']:visible").evaluate_all(
        "tabs => tabs.map(t => t.getBoundingClientRect().left)")
    assert boxes == sorted(boxes, reverse=True)  # step 1 on the right
    assert key(page, "ArrowLeft")["position"] == "Step 2 of 3"
    assert key(page, "ArrowLeft")["position"] == "Step 3 of 3"
    assert key(page, "ArrowRight")["position"] == "Step 2 of 3"
    assert key(page, "Home")["position"] == "Step 1 of 3"
    assert key(page, "ArrowRight")["position"] == "Step 3 of 3"  # wraps


def test_a_tab_click_shows_its_step_and_stops_the_rotation(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    bs.figures(page).nth(0).locator("[role='tab']").nth(2).click()
    s = bs.state(page)
    assert (bs.step_of(page), s["label"], s["live"], s["tabStops"]) == (3, bs.PLAY_LABEL, "polite", [2]), s
    page.clock.run_for(60_000)
    assert bs.step_of(page) == 3
    bs.figures(page).nth(0).locator(".mech-scenario").select_option("1")  # the other scenario's tabs
    s = bs.state(page)
    assert (s["position"], s["tablists"], s["tabStops"]) == ("Step 1 of 2", 1, [0]), s


def test_the_live_region_is_silent_while_rotating_and_speaks_once_per_step_chosen(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    page.evaluate(WATCH_STATUS_JS)
    for number in (2, 3, 1):
        page.clock.run_for(bs.player_data(page)["scenarios"][0]["steps"][number - 2]["duration"])
        s = bs.state(page)
        assert (bs.step_of(page), s["live"]) == (number, "off"), s
    assert page.evaluate("window.__statusChanges") == 3
    bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
    assert bs.state(page)["live"] == "polite" and page.evaluate("window.__statusChanges") == 4


@pytest.mark.parametrize("slug", ["relay", "lang-ar", "lang-ja"])
def test_the_position_is_shown_once(site, open_page, slug):
    spec = site.specs[slug]
    page = open_page(site.page(slug), clock=True)
    position = bs.say(spec, "stepOf", n="1", total="3", title="")
    facts = bs.figures(page).nth(0).evaluate("""root => {
      const status = root.querySelector(".mech-status").getBoundingClientRect();
      const shown = Array.from(root.querySelectorAll("[data-mech-current] text"))
        .filter(t => t.getClientRects().length && getComputedStyle(t).visibility === "visible").map(t => t.textContent);
      const html = Array.from(root.querySelectorAll(".mech-controls, figcaption, .mech-scene-title")).map(e => e.innerText);
      return {html: html.join(" "), svg: shown, status: [status.width, status.height]};
    }""")
    assert position not in bs.unisolated(facts["html"]), facts  # the HTML shows no position (the status is hidden) ...
    assert [t for t in map(bs.unisolated, facts["svg"]) if position in t] != []  # ... the drawing's panel does, once
    assert sum(position in bs.unisolated(t) for t in facts["svg"]) == 1
    assert facts["status"][0] <= 1 and facts["status"][1] <= 1  # the live region is for assistive technology


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("slug", list(bs.LANGUAGES))
def test_play_and_pause_keep_one_size_in_every_language(site, open_page, slug, width):
    page = open_page(site.page(slug), viewport=(width, 800), clock=True)
    button = page.locator(".mech-play").first
    before = button.bounding_box()
    button.dispatch_event("click")
    assert bs.state(page)["label"] == bs.say(site.specs[slug], "playName")
    after = button.bounding_box()
    assert (before["width"], before["height"], before["x"]) == (after["width"], after["height"], after["x"])
    assert before["height"] >= 44 and before["width"] >= 44


def test_many_steps_fit_a_360_px_column(site, open_page, tmp_path):
    spec = bs.relay_spec()
    steps = spec["scenarios"][0]["steps"]
    spec["scenarios"][0]["steps"] = [dict(steps[i % 3], title=f"Step {i}") for i in range(40)]
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "many.mechanism.json").write_text(json.dumps(spec), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "out")
    page = open_page(tmp_path / "out" / "many.html", viewport=(360, 800), clock=True)
    facts = page.evaluate("""() => {
      const tabs = Array.from(document.querySelector("[role='tablist']").querySelectorAll("[role='tab']"));
      const boxes = tabs.map(t => t.getBoundingClientRect());
      return {count: tabs.length, rows: new Set(boxes.map(b => Math.round(b.top))).size,
              right: Math.max(...boxes.map(b => b.right)), left: Math.min(...boxes.map(b => b.left)),
              small: boxes.filter(b => b.width < 44 || b.height < 44).length,
              overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
    }""")
    assert facts["count"] == 40 and facts["rows"] > 1 and facts["small"] == 0, facts
    assert facts["left"] >= 0 and facts["right"] <= 360 and facts["overflow"] <= 0, facts


#: Where each character of the poster's panel heading is drawn: [character, left x, right x].
CHARACTERS_JS = r"""
() => {
  const text = Array.from(document.querySelectorAll("text")).find(t => /-ptitle$/.test(t.getAttribute("class")));
  const chars = [];
  for (let i = 0; i < text.getNumberOfChars(); i++) {
    const box = text.getExtentOfChar(i);
    chars.push([text.textContent[i], box.x, box.x + box.width]);
  }
  return chars;
}
"""


def test_a_right_to_left_line_keeps_author_text_apart_from_the_tool_words(site, open_page):
    """The issue's own case: in an Arabic spec the poster heading is "<scenario title>: قبل الخطوة الأولى",
    and a left-to-right title ("Relay 2") must stay whole, to the right of the tool's words, in its own order."""
    spec = site.specs["lang-ar"]
    page = open_page(site.out / f"lang-ar.{spec['scenarios'][0]['id']}.poster.svg")
    chars = [c for c in page.evaluate(CHARACTERS_JS) if c[0] not in "\u2067\u2068\u2069"]
    author = [c for c in chars if c[0] in "Relay2"]
    tool = [c for c in chars if "\u0600" <= c[0] <= "\u06ff"]
    assert "".join(c[0] for c in author) == "Relay2" and len(tool) > 5, chars
    assert [c[1] for c in author] == sorted(c[1] for c in author)  # "Relay 2" reads left to right ...
    assert min(c[1] for c in author) >= max(c[2] for c in tool) - 0.5, chars  # ... right of the Arabic words
    # The transcript's line: the step title (a <bdi>) first, so rightmost, then the tool's duration.
    page = open_page(site.page("lang-ar"))
    title, duration = page.evaluate("""() => { const p = document.querySelector(".mech-step-title");
      return [p.querySelector("bdi"), p.querySelector(".mech-duration")].map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.right]; }); }""")
    assert title[0] >= duration[1], (title, duration)


#: Rows of the shown tablist's tabs, and their smallest width and height, in CSS px.
TAB_ROWS_JS = """() => {
  const tabs = Array.from(document.querySelector("[role='tablist']:not([hidden])").querySelectorAll("[role='tab']"));
  const boxes = tabs.map(t => t.getBoundingClientRect());
  return {count: tabs.length, rows: new Set(boxes.map(b => Math.round(b.top))).size,
          widths: new Set(boxes.map(b => Math.round(b.width))).size,
          least: Math.min(...boxes.map(b => Math.min(b.width, b.height)))};
}"""


def test_seven_steps_fit_one_row_of_a_360_px_phone_and_the_scenario_menu_its_own(site, open_page):
    """prefill-decode's seven tabs sit in one row at 360 px (none left alone on a second), all one width and
    44 px or more; with several scenarios the menu takes a row of its own below its label, whole."""
    page = open_page(site.page("prefill-decode"), viewport=(360, 800), clock=True)
    facts = page.evaluate(TAB_ROWS_JS)
    assert facts == {"count": 7, "rows": 1, "widths": 1, "least": facts["least"]} and facts["least"] >= 44, facts
    page = open_page(site.page("web-worker"), viewport=(360, 800), clock=True)
    label, menu = page.evaluate("""() => [document.querySelector('.mech-choice').getBoundingClientRect().toJSON(),
                                          document.querySelector('.mech-scenario').getBoundingClientRect().toJSON()]""")
    assert menu["top"] >= label["top"] + 10 and menu["width"] >= 300, (label, menu)  # the row is 324 px
