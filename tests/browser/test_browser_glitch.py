"""No glitch at a step change, measured frame by frame on the animation timeline (Web Animations ``currentTime``,
never the wall clock): in every animated SVG of every gallery and generated figure, and in the HTML player driven by
its fake clock, every 25 ms across every step boundary (the loop's wrap included):

- one visible text per label (never a regular and a bold one at once), one title, and in the state panel one
  visible, non-empty value per row; a row the step does not change never changes; a label a step changes (a step's
  ``labels``) shows one text at a time, switched with the step's text, as do the path labels;
- the text (heading, values, the labels' weight; in the player the step tab and status too) and the picture (the
  highlights, half-way through their ease) switch within 50 ms of each other;
- the loop holds its last step 1.5 times its duration;
- the travelling dots of a drawing move at one speed (units a second), whatever the length of their routes.

One chromium, one page per module for the SVG files; the player pages use the suite's fake clock.
"""

from __future__ import annotations

import browser_support as bs
import pytest

from mechdiagram.render.timeline import LAST_STEP_HOLD as HOLD

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Samples every STEP_MS from SPAN_MS before each boundary to SPAN_MS after it (the longest ease is 250 ms).
STEP_MS = 25
SPAN_MS = 150
#: How far apart the text's switch and the picture's half-way point may be, in ms.
SYNC_MS = 50

#: At each of ``times`` (ms on the document's animation timeline) in the SVG document: what is visible.
SVG_SWEEP_JS = r"""
(times) => {
  const svg = document.documentElement;
  const anims = document.getAnimations();
  anims.forEach(a => a.pause());
  const P = svg.getAttribute("class").split(/\s+/)[0];
  const sample = window.__mechSample;
  const out = [];
  for (const t of times) {
    anims.forEach(a => { a.currentTime = t; });
    out.push(Object.assign({t}, sample(svg, P)));
  }
  return {relabels: svg.querySelectorAll("." + P + "-relabels ." + P + "-val").length,
          steps: Array.from(svg.querySelectorAll("." + P + "-hl")).map(h => h.dataset.mechSteps.split(" ").map(Number)),
          lit: Array.from(svg.querySelectorAll("." + P + "-lit")).map(l => Array.from(l.classList)
            .filter(c => /-t\d+$/.test(c)).map(c => Number(c.replace(/^.*-t/, "")))),
          samples: out};
}
"""

#: Installs ``window.__mechSample(svg, prefix)``: the visible texts and the highlights' opacity of one drawing.
SAMPLE_JS = r"""
() => {
  window.__mechSample = (svg, P) => {
    const shown = el => {
      const cs = getComputedStyle(el);
      if (cs.visibility !== "visible" || cs.display === "none") { return 0; }
      let opacity = 1;
      for (let e = el; e && e !== svg.parentNode; e = e.parentElement) { opacity *= parseFloat(getComputedStyle(e).opacity); }
      return opacity;
    };
    const at = t => (t.getAttribute("x") || t.firstElementChild.getAttribute("x")) + "," +
                    (t.getAttribute("y") || t.firstElementChild.getAttribute("y"));
    const labels = {};
    svg.querySelectorAll("." + P + "-label").forEach(l => {
      if (shown(l) > 0.02) { labels[at(l)] = (labels[at(l)] || 0) + 1; }
    });
    const rows = {};
    svg.querySelectorAll("." + P + "-pval").forEach(v => {
      if (shown(v) > 0.02) { (rows[at(v).split(",")[1]] = rows[at(v).split(",")[1]] || []).push(v.textContent.trim()); }
    });
    // Path labels outside the sequence view's rows: the arrows' own and those a step changes, one text each.
    const plabels = Array.from(svg.querySelectorAll(
      "." + P + "-plabels ." + P + "-plabel, ." + P + "-relabels ." + P + "-plabel")).filter(p => shown(p) > 0.02);
    return {
      plabels: plabels.length,
      ptexts: plabels.map(p => p.textContent.trim()).sort().join("|"),
      relabelled: Array.from(svg.querySelectorAll("." + P + "-relabels ." + P + "-val")).filter(g => shown(g) > 0.02)
        .map(g => g.textContent.trim()).sort().join("|"),
      doubled: Object.keys(labels).filter(k => labels[k] > 1),
      labels: Object.keys(labels).length,
      boxes: svg.querySelectorAll("." + P + "-nodes ." + P + "-node").length,
      rows: rows,
      keys: svg.querySelectorAll("." + P + "-pkey").length,
      titles: Array.from(svg.querySelectorAll("[data-mech-frame]")).filter(f => shown(f) > 0.02)
        .map(f => Number(f.dataset.mechFrame)),
      weights: Array.from(svg.querySelectorAll("." + P + "-lit")).map(l => Number(getComputedStyle(l).fontWeight)),
      hl: Array.from(svg.querySelectorAll("." + P + "-hl")).map(shown),
    };
  };
}
"""


def windows(durations: list[int]) -> list[tuple[int, int]]:
    """(start, end) ms of each step in the loop: the last step held :data:`HOLD` times its duration."""
    out, start = [], 0
    for i, duration in enumerate(durations):
        length = round(duration * HOLD) if i == len(durations) - 1 else duration
        out.append((start, start + length))
        start += length
    return out


def sweep_times(bounds: list[tuple[int, int]]) -> list[float]:
    """Every STEP_MS across each boundary (the wrap as the second loop's start), and the middle of each step."""
    total = bounds[-1][1]
    times = {(s + e) / 2 for s, e in bounds}
    for boundary in [s for s, _ in bounds[1:]] + [total]:
        # half a ms off the boundary itself, which keyframe percentages place to within 0.1 ms either way
        times |= {boundary + off + 0.5 for off in range(-SPAN_MS, SPAN_MS + 1, STEP_MS)}
    return sorted(times)


def step_at(bounds: list[tuple[int, int]], t: float) -> int:
    """The step (1-based) whose window holds ``t`` ms (modulo the loop)."""
    t %= bounds[-1][1]
    return next(i for i, (s, e) in enumerate(bounds, 1) if s <= t < e)


def check_frame(sample: dict, where) -> None:
    """One text per label, one title, one non-empty value per panel row."""
    assert not sample["doubled"], (where, sample["t"], "doubled label", sample["doubled"])
    assert sample["labels"] == sample["boxes"], (where, sample["t"], "a label missing or blank", sample)
    assert len(sample["titles"]) == 1, (where, sample["t"], "titles", sample["titles"])
    rows = sample["rows"]
    assert len(rows) == sample["keys"] and all(len(v) == 1 and v[0] for v in rows.values()), (where, sample["t"], rows)


def crossing(samples: list[dict], index: int) -> float | None:
    """When highlight ``index``'s opacity crosses 0.5 (linear between samples), or None."""
    for a, b in zip(samples, samples[1:]):
        va, vb = a["hl"][index], b["hl"][index]
        if (va - 0.5) * (vb - 0.5) < 0 or (vb == 0.5 and va != 0.5):
            return a["t"] + (b["t"] - a["t"]) * (0.5 - va) / (vb - va)
    return None


def check_sync(samples: list[dict], steps: list[list[int]], lit: list[list[int]], before: int, after: int,
               where) -> int:
    """Across one boundary (``samples`` around it, step ``before`` to ``after``): the text switches once, at a
    sample, and every highlight that changes crosses half-way within SYNC_MS of it, as every label's weight does
    with it; rows that do not change keep their value.  Returns the count of highlights checked."""
    titles = [s["titles"][0] for s in samples]
    switch = next(i for i, n in enumerate(titles) if n == after)
    assert titles[:switch] == [before] * switch and titles[switch:] == [after] * (len(titles) - switch), (where, titles)
    text_at = samples[switch]["t"]
    changing = [i for i, k in enumerate(steps) if (before in k) != (after in k)]
    for i in changing:
        half = crossing(samples, i)
        assert half is not None and abs(half - text_at) <= SYNC_MS, (where, i, half, text_at, [s["hl"][i] for s in samples])
    for j, k in enumerate(lit):
        weights = [s["weights"][j] for s in samples]
        assert set(weights) <= {400, 700}, (where, weights)
        expected = [700 if (after if n >= switch else before) in k else 400 for n in range(len(samples))]
        assert weights == expected, (where, j, weights, expected)
    # the changed labels switch with the text, once, at the same sample
    for key in ("relabelled", "ptexts"):
        texts = [s[key] for s in samples]
        if texts[0] != texts[-1]:
            assert texts[:switch] == [texts[0]] * switch and texts[switch:] == [texts[-1]] * (len(texts) - switch), (
                where, key, texts)
        else:
            assert set(texts) == {texts[0]}, (where, key, texts)
    rows = [s["rows"] for s in samples]
    for y in rows[0]:
        values = [r[y][0] for r in rows]
        if values[0] == values[-1]:
            assert set(values) == {values[0]}, (where, "a row that does not change changed", values)
    return len(changing)


# --------------------------------------------------------------------------- the SVG files

@pytest.fixture(scope="module")
def svg_page(browser):
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    yield page
    context.close()


def svg_files(site) -> list[tuple[str, str, str]]:
    """(slug, scenario id, file name) of every animated SVG: each scenario, wide and narrow, light and dark."""
    files = []
    for slug in site.all_slugs:
        for scenario in site.specs[slug]["scenarios"]:
            for kind in ("", ".narrow", ".dark"):
                name = f"{slug}.{scenario['id']}{kind}.svg"
                if (site.out / name).exists():
                    files.append((slug, scenario["id"], name))
    return files


def test_svg_no_doubled_label_no_blank_value_text_and_picture_together(site, svg_page):
    checked = files = relabelled = 0
    for slug, scenario_id, name in svg_files(site):
        scenario = next(s for s in site.specs[slug]["scenarios"] if s["id"] == scenario_id)
        bounds = windows([step["duration"] for step in scenario["steps"]])
        svg_page.goto((site.out / name).as_uri())
        svg_page.evaluate(SAMPLE_JS)
        result = svg_page.evaluate(SVG_SWEEP_JS, sweep_times(bounds))
        samples = result["samples"]
        relabelled += result["relabels"]
        for sample in samples:
            check_frame(sample, name)
            assert sample["plabels"] == samples[0]["plabels"], (name, sample["t"], "a path label doubled or missing")
            assert sample["titles"] == [step_at(bounds, sample["t"])], (name, sample["t"], sample["titles"])
        count = len(bounds)
        if count == 1:
            continue
        for number, boundary in enumerate([s for s, _ in bounds[1:]] + [bounds[-1][1]], start=2):
            around = [s for s in samples if abs(s["t"] - boundary) <= SPAN_MS]
            before, after = number - 1, (number - 1) % count + 1
            checked += check_sync(around, result["steps"], result["lit"], before, after, (name, boundary))
        files += 1
    assert files >= 2 * len(site.all_slugs) and checked, (files, checked)
    assert relabelled, "no figure changes a label (a step's labels): the gallery's KV-cache bytes figure should"


#: Every dot's position along its route at each of ``times`` ms: (dot index, route length, period ms, [(t, s)]).
DOTS_JS = r"""
(times) => {
  const svg = document.documentElement;
  const anims = document.getAnimations();
  anims.forEach(a => a.pause());
  const dots = Array.from(svg.querySelectorAll("circle[class$='-dot']"));
  const routes = dots.map(d => d.parentElement.querySelector("path"));
  const tables = routes.map(r => { const n = Math.ceil(r.getTotalLength()); const pts = [];
    for (let s = 0; s <= n; s += 0.5) { const p = r.getPointAtLength(Math.min(s, r.getTotalLength())); pts.push([s, p.x, p.y]); }
    return pts; });
  const inverse = svg.getScreenCTM().inverse();
  const out = dots.map(() => []);
  for (const t of times) {
    anims.forEach(a => { a.currentTime = t; });
    dots.forEach((d, i) => {
      const r = d.getBoundingClientRect();
      const p = new DOMPoint(r.x + r.width / 2, r.y + r.height / 2).matrixTransform(inverse);
      let best = null, bestD = Infinity;
      for (const [s, x, y] of tables[i]) { const e = Math.hypot(x - p.x, y - p.y); if (e < bestD) { bestD = e; best = s; } }
      out[i].push([t, best, bestD]);
    });
  }
  return dots.map((d, i) => ({length: routes[i].getTotalLength(),
    period: parseFloat(getComputedStyle(d).animationDuration) * 1000, samples: out[i]}));
}
"""


def test_every_dot_of_a_drawing_moves_at_one_speed(site, svg_page):
    measured = 0
    for _, _, name in svg_files(site):
        if name.endswith(".dark.svg"):
            continue
        svg_page.goto((site.out / name).as_uri())
        dots = svg_page.evaluate(DOTS_JS, list(range(0, 2400, 40)))
        speeds = []
        for dot in dots:
            moving = [(t, s) for t, s, off in dot["samples"]
                      if t < dot["period"] and 2 < s < dot["length"] - 2 and off < 1.5]
            if len(moving) < 3:
                continue
            # least squares slope of distance over time: units per ms
            n = len(moving)
            mt, ms_ = sum(t for t, _ in moving) / n, sum(s for _, s in moving) / n
            slope = sum((t - mt) * (s - ms_) for t, s in moving) / sum((t - mt) ** 2 for t, _ in moving)
            speeds.append(1000 * slope)
            # it reaches its route's end and rests there until its period is over
            arrived = [s for t, s, _ in dot["samples"] if dot["length"] / slope + STEP_MS < t < dot["period"]]
            assert all(s >= dot["length"] - 1 for s in arrived), (name, dot["length"], arrived)
        if len(speeds) >= 2:
            assert max(speeds) / min(speeds) < 1.04, (name, [round(s) for s in speeds])
            measured += 1
        assert all(s >= 150 for s in speeds), (name, speeds)  # units a second: at least TRAVEL_SPEED, less rounding
    assert measured >= 3, measured


# --------------------------------------------------------------------------- the HTML player

#: Records the fake clock's time whenever the player moves the picture (data-mech-shown): its eases start then,
#: and are paused at once (styles flushed by getAnimations), so that the wall clock never moves them on.
WATCH_SHOWN_JS = r"""
() => {
  if (window.__mechShownAt !== undefined) { return; }
  window.__mechShownAt = performance.now();
  const set = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    const result = set.call(this, name, value);
    if (name === "data-mech-shown") {
      window.__mechShownAt = performance.now();
      document.getAnimations().filter(a => a instanceof CSSTransition).forEach(a => a.pause());
    }
    return result;
  };
}
"""

#: The player now (fake clock): its eases sought to the time since the picture moved; the shown drawing's
#: sample, the selected tab, the status and the current frame.
PLAYER_SAMPLE_JS = r"""
(root) => {
  const since = Math.max(0, performance.now() - window.__mechShownAt);
  getComputedStyle(root).color;  // styles are current, so a change since the last sample has started its transition
  root.querySelectorAll("svg").forEach(s => s.querySelectorAll("*").forEach(e => getComputedStyle(e).opacity));
  root.getAnimations({subtree: true}).filter(a => a instanceof CSSTransition).forEach(a => {
    a.pause(); a.currentTime = since; });
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const svg = Array.from(scene.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const P = svg.getAttribute("class").split(/\s+/)[0];
  const tabs = Array.from(root.querySelectorAll("[role='tablist']:not([hidden]) [role='tab']"));
  const status = root.querySelector(".mech-status").textContent.replace(/[\u2068\u2069]/g, "");
  const current = svg.querySelector("[data-mech-current]");
  return Object.assign(window.__mechSample(svg, P), {
    t: performance.now(),
    tab: tabs.findIndex(t => t.getAttribute("aria-selected") === "true") + 1,
    status: Number((status.match(/\d+/) || ["0"])[0]),
    current: current ? Number(current.dataset.mechFrame) : 0,
    steps: Array.from(svg.querySelectorAll("." + P + "-hl")).map(h => h.dataset.mechSteps.split(" ").map(Number)),
    lit: Array.from(svg.querySelectorAll("." + P + "-lit")).map(l => Array.from(l.classList)
      .filter(c => /-t\d+$/.test(c)).map(c => Number(c.replace(/^.*-t/, "")))),
  });
}
"""

#: Every figure at a desktop width (its wide layout), and two on a phone (their narrow layout).
PLAYED = [(slug, 1280) for slug in bs.mechanism_slugs() + list(bs.GENERATED)] + [
    ("prefill-decode", 360), ("serving-stack", 360)]


def player_sample(page) -> dict:
    return bs.figures(page).nth(0).evaluate(PLAYER_SAMPLE_JS)


@pytest.mark.parametrize(("slug", "width"), PLAYED)
def test_player_text_and_picture_switch_together_and_the_loop_holds_its_last_step(site, open_page, slug, width):
    page = open_page(site.page(slug), clock=True, viewport=(width, 900))
    page.evaluate(SAMPLE_JS)
    page.evaluate(WATCH_SHOWN_JS)
    data = bs.player_data(page)["scenarios"][0]
    durations = [step["duration"] for step in site.specs[slug]["scenarios"][0]["steps"]]
    bounds = windows(durations)
    assert [(st["start"], st["start"] + st["duration"]) for st in data["steps"]] == bounds  # the hold, in the player
    count = len(bounds)
    origin = player_sample(page)["t"]
    checked = 0
    for number, boundary in enumerate([s for s, _ in bounds[1:]] + [bounds[-1][1]], start=2):
        page.clock.run_for(int(origin + boundary - SPAN_MS - STEP_MS - player_sample(page)["t"]))
        samples = []
        for _ in range(2 * SPAN_MS // STEP_MS + 1):
            page.clock.run_for(STEP_MS)
            sample = player_sample(page)
            sample["t"] -= origin
            samples.append(sample)
        for sample in samples:
            check_frame(sample, (slug, sample["t"]))
            # the step tab, the status and the heading are one step
            assert sample["tab"] == sample["status"] == sample["current"] == sample["titles"][0], (slug, sample)
        checked += check_sync(samples, samples[0]["steps"], samples[0]["lit"], number - 1, (number - 1) % count + 1,
                              (slug, boundary))
        if number == count + 1:  # the wrap: the last step was held 1.5 times its duration, to the sample
            assert next(s["t"] for s in samples if s["tab"] == 1) == bounds[-1][0] + round(durations[-1] * HOLD)
    assert checked or not any(samples[0]["steps"])


def test_a_step_the_reader_chooses_changes_text_and_picture_at_once(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    page.evaluate(SAMPLE_JS)
    page.evaluate(WATCH_SHOWN_JS)
    page.clock.run_for(500)  # half-way through step 1
    before = player_sample(page)
    bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
    after = player_sample(page)  # no time has passed
    assert (after["tab"], after["titles"]) == (2, [2])
    changing = [i for i, k in enumerate(after["steps"]) if (1 in k) != (2 in k)]
    assert changing
    for i in changing:
        assert before["hl"][i] in (0, 1) and after["hl"][i] == pytest.approx(0.5, abs=0.05), (i, before["hl"], after["hl"])
    check_frame(after, "after Next")


REVEAL_JS = r"""
c => {
  const highlighted = """ + bs.HIGHLIGHTED_JS + r""";
  const view = c.getBoundingClientRect();
  const svg = Array.from(c.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const boxes = highlighted(svg, svg.querySelector("[data-mech-shown]").dataset.mechFrame);
  return {scroll: c.scrollLeft, left: Math.min(...boxes.map(b => b.left)), right: Math.max(...boxes.map(b => b.right)),
          view: [view.left, view.right], page: [window.scrollX, window.scrollY]};
}
"""


def test_auto_scroll_moves_the_drawing_only_as_far_as_the_active_boxes_need(site, open_page):
    """Where the drawing scrolls in its frame (the wide layout on a phone), each step brings its active boxes just into view: not centred, a
    step whose boxes are in view leaves the drawing where it is, and the page itself never scrolls."""
    slug = bs.mechanism_slugs()[0]
    page = open_page(site.page(slug), viewport=(360, 800), motion="reduce")
    # the wide layout at a phone's width, as a browser without container queries shows it: it scrolls in its frame
    page.add_style_tag(content=bs.WIDE_ONLY)
    figure = bs.figures(page).nth(0)
    canvas = figure.locator("[data-mech-canvas]").first
    assert canvas.evaluate("c => c.scrollWidth > c.clientWidth + 1"), "the figure must scroll in its frame"
    click = lambda: figure.locator(".mech-next").dispatch_event("click")  # noqa: E731
    seen = [canvas.evaluate(REVEAL_JS)]
    for _ in range(len(bs.player_data(page)["scenarios"][0]["steps"]) - 1):
        click()
        seen.append(canvas.evaluate(REVEAL_JS))
    moved = 0
    for before, after in zip(seen, seen[1:]):
        assert after["page"] == [0, 0], after
        left, right = after["view"]
        if after["right"] - after["left"] <= right - left - 16:
            assert after["left"] >= left and after["right"] <= right, after  # in view
        if after["scroll"] != before["scroll"]:
            moved += 1
            # only as far as needed: the boxes end 8 px inside the edge they came in at
            assert min(abs(after["left"] - 8 - left), abs(right - 8 - after["right"])) <= 1, after
            # and it moved because they were not in view: where they were before the scroll
            delta = after["scroll"] - before["scroll"]
            assert not (left <= after["left"] + delta - 8 and after["right"] + delta + 8 <= right), (before, after)
    assert moved, seen


HELD_JS = r"""
c => {
  const view = c.getBoundingClientRect();
  const svg = Array.from(c.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const visible = el => getComputedStyle(el).visibility === "visible";
  const texts = Array.from(svg.querySelectorAll("[class*='-ptitle'], [class*='-pkey'], [class*='-pval']"))
    .filter(visible).map(t => { const r = t.getBoundingClientRect(); return [t.textContent.slice(0, 20), r.left, r.right]; });
  const panel = svg.querySelector("rect[class$='-panel']").getBoundingClientRect();
  return {view: [view.left, view.right], scroll: c.scrollLeft, max: c.scrollWidth - c.clientWidth, texts,
          panel: [panel.left, panel.right], page: [window.scrollX, window.scrollY]};
}
"""


def test_the_state_panel_stays_in_view_while_the_drawing_scrolls(site, open_page):
    """The wide layout on a phone scrolls in its frame; wherever the reader scrolls it, the panel's heading, keys and
    values start inside the frame (the player holds the panel there), and the page does not scroll."""
    slug = bs.mechanism_slugs()[0]
    page = open_page(site.page(slug), viewport=(360, 800), motion="reduce")
    page.add_style_tag(content=bs.WIDE_ONLY)
    canvas = bs.figures(page).nth(0).locator("[data-mech-canvas]").first
    held = "document.querySelector('[data-mech-canvas] svg').style.getPropertyValue('--mech-hold-x')"
    for where in (0.5, 1.0):
        before = page.evaluate(held)
        canvas.evaluate("(c, f) => { c.scrollLeft = f * (c.scrollWidth - c.clientWidth); }", where)
        # The player's scroll listener has held the panel for this scroll (not still for the one before).
        page.wait_for_function(f"(before) => {{ const now = {held}; return now !== '' && now !== before; }}",
                               arg=before)
        facts = canvas.evaluate(HELD_JS)
        assert facts["scroll"] > 0 and facts["page"] == [0, 0], facts
        left, right = facts["view"]
        assert left - 1 <= facts["panel"][0] <= left + 20, facts  # the panel's box starts at the frame's edge
        assert facts["texts"] and all(left <= a < right for _, a, _ in facts["texts"]), facts
    canvas.evaluate("c => { c.scrollLeft = 0; }")
    page.wait_for_function("() => document.querySelector('[data-mech-canvas] svg').style.getPropertyValue("
                           "'--mech-hold-x') === ''")


#: The shown drawing's state panel on the page (its box, from the window's top, in CSS px), the hold, the window's
#: height, the drawing's box, and what the page paints at the panel's middle (the panel's own box or text, not
#: the drawing under it).
PANEL_Y_JS = """() => {
  const svg = Array.from(document.querySelectorAll('[data-mech-canvas] svg'))
    .find(s => s.getBoundingClientRect().width > 0);
  const panel = svg.querySelector("rect[class$='-panel']");
  const box = panel.getBoundingClientRect(), drawn = svg.getBoundingClientRect();
  const hit = document.elementFromPoint((box.left + box.right) / 2, box.top + 12);
  return {panel: [box.top, box.bottom], drawing: [drawn.top, drawn.bottom], height: window.innerHeight,
          hold: svg.style.getPropertyValue('--mech-hold-y'), held: svg.hasAttribute('data-mech-held'),
          hit: hit === panel || (hit && hit.closest('g') && /-(state|frame|values)\\b/.test(hit.closest('g').className.baseVal))};
}"""


def test_on_a_phone_the_panel_is_held_at_the_windows_foot_under_the_drawing_it_describes(site, open_page):
    """Issue 26: on a phone the serving stack's column is about 1,650 px tall and its panel sat under it, far from
    the highlighted boxes at its top.  While the page shows the drawing but not the panel, the player holds the
    panel at the window's foot, over the drawing's foot and painted over it (the panel is drawn last); it is
    back in its own place once the page reaches it, and not held while the drawing shown above it would be
    shorter than the panel; printed, it is in its own place.  The page is never scrolled by the player."""
    page = open_page(site.page("serving-stack"), viewport=(360, 740), motion="reduce")
    seen = []
    for top in (0, 300, 700, 1100, 2400):
        page.evaluate(f"window.scrollTo(0, {top})")
        page.wait_for_function(f"() => window.scrollY === Math.min({top}, "
                               "document.documentElement.scrollHeight - window.innerHeight)")
        # The scroll event comes in the next frame and the player holds the panel in the frame after it.
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame("
                      "() => requestAnimationFrame(done))))")
        facts = page.evaluate(PANEL_Y_JS)
        seen.append(facts)
        (panel_top, panel_bottom), drawing_top, height = facts["panel"], facts["drawing"][0], facts["height"]
        if facts["held"]:
            assert facts["hold"].startswith("-") and height - 20 <= panel_bottom <= height, facts
            assert panel_top - max(drawing_top, 0) >= panel_bottom - panel_top, facts  # as much drawing above it
            assert facts["hit"], facts  # the panel covers the drawing, not the drawing the panel
        else:
            assert facts["hold"] == "", facts
    held = [facts["held"] for facts in seen]
    assert held[0] is False and held[1] is True and held[2] is True and held[-1] is False, seen
    assert seen[-1]["panel"][1] < seen[-1]["drawing"][1] + 1  # in its own place under the drawing
    page.evaluate("window.scrollTo(0, 700)")
    page.wait_for_function("() => document.querySelector('[data-mech-held]') !== null")
    state = "getComputedStyle(document.querySelector('[data-mech-held] g[class$=\"-state\"]')).transform"
    assert page.evaluate(state) != "none"
    page.emulate_media(media="print")  # on paper, in its own place wherever the window was
    assert page.evaluate(state) == "none"
    page.emulate_media(media="screen")


#: The shown drawing's held panel and the step's highlighted boxes (a sequence's: its row) on the page ([top, bottom,
#: left, right], CSS px).
ACTIVE_JS = """() => {
  const svg = Array.from(document.querySelectorAll('[data-mech-canvas] svg'))
    .find(s => s.getBoundingClientRect().width > 0);
  const frame = svg.querySelector('[data-mech-shown]');
  const edges = r => [r.top, r.bottom, r.left, r.right];
  const active = Array.from(svg.querySelectorAll(`g[data-mech-steps~='${frame.getAttribute('data-mech-frame')}']`))
    .filter(g => Array.from(g.classList).some(c => /-(on|row-current)$/.test(c)) && !g.querySelector("rect[class$='-group-on']"))
    .map(g => edges(g.getBoundingClientRect()));
  return {held: svg.getAttribute('data-mech-held'), height: window.innerHeight,
          panel: edges(svg.querySelector("rect[class$='-panel']").getBoundingClientRect()), active};
}"""


def held_clear_of_the_step(page, top: int) -> dict:
    """Scroll the page to ``top`` and return ACTIVE_JS's facts once the player has held the panel (the scroll event
    comes in the next frame, the hold in the frame after it), having checked that a held panel covers none of the
    step's highlighted boxes."""
    page.evaluate(f"window.scrollTo(0, {top})")
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame("
                  "() => requestAnimationFrame(done))))")
    facts = page.evaluate(ACTIVE_JS)
    if facts["held"]:
        p_top, p_bottom, p_left, p_right = facts["panel"]
        for a_top, a_bottom, a_left, a_right in facts["active"]:
            assert a_bottom <= p_top or a_top >= p_bottom or a_right <= p_left or a_left >= p_right, (top, facts)
    return facts


@pytest.mark.parametrize("step", [4, 5])
def test_a_held_panel_never_covers_a_box_the_step_highlights(site, open_page, step):
    """A designer's review: on a 360 px phone the serving stack's panel, held at the window's foot, covered the
    Sampler box that step 4 is about.  At every scroll position, a held panel covers none of the step's
    highlighted boxes: where the foot would, it is held at the window's top; a step change moves it too."""
    page = open_page(site.page("serving-stack"), viewport=(360, 640), motion="reduce")
    bs.figures(page).nth(0).locator(".mech-tab").nth(step - 1).click()
    edges = set()
    for top in range(0, 2000, 40):
        facts = held_clear_of_the_step(page, top)
        if not facts["held"]:
            continue
        edges.add(facts["held"])
        p_top, p_bottom = facts["panel"][:2]
        if facts["held"] == "top":
            assert 0 <= p_top <= 20, facts
        else:
            assert facts["height"] - 20 <= p_bottom <= facts["height"], facts
    assert edges == {"foot", "top"}, edges
    # a step whose boxes are all above the window: held at the foot again, after the step change alone
    page.evaluate("window.scrollTo(0, 700)")
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    before = page.evaluate(ACTIVE_JS)["held"]
    bs.figures(page).nth(0).locator(".mech-tab").nth(0).evaluate("tab => tab.click()")  # the page does not scroll
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert before != "foot", before
    assert page.evaluate("window.scrollY") == 700 and page.evaluate(ACTIVE_JS)["held"] == "foot", before


def test_a_held_panel_never_covers_a_sequences_current_row(tmp_path, open_page):
    """A new user's TLS handshake and a DNS lookup: the panel held at the window's foot covered the row of the step
    shown (at 600 and 700 px, and on a phone under the stuck heads strip).  At every scroll position of four steps a
    held panel covers no part of the step's row."""
    import json

    from support.sequences import sequence_spec

    data = sequence_spec(5, 10, names=("Stub resolver (laptop)", "Recursive resolver", "Root server",
                                       ".org TLD server", "example.org name server"))
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "dns.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    held = set()
    for width, height in ((360, 640), (700, 800)):
        page = open_page(tmp_path / "site" / "dns.html", viewport=(width, height), motion="reduce")
        for step in (3, 5, 8, 9):
            bs.figures(page).nth(0).locator(".mech-tab").nth(step - 1).evaluate("tab => tab.click()")
            held |= {held_clear_of_the_step(page, top)["held"] for top in range(0, 1600, 80)} - {None}
    assert held == {"foot", "top"}, held


def test_a_held_panel_leaves_the_rows_a_stuck_heads_strip_does_not_cover(tmp_path, open_page):
    """A new user's DNS lookup (five participants with long names, staggered heads): scrolled, its heads strip
    stuck at the window's top and the panel held at its foot hid every row between them.  The panel is held only
    while the drawing shown between the strip and the held panel is at least as tall as the panel."""
    import json

    from support.sequences import sequence_spec

    data = sequence_spec(5, 10, names=("Stub resolver (laptop)", "Recursive resolver", "Root server",
                                       ".org TLD server", "example.org name server"))
    rows = {"cache": "Resolver cache", "queries": "Queries sent by the resolver", "answer": "Stub resolver has"}
    data["stateLabels"] |= rows  # a panel of four rows, as the DNS lookup's
    data["scenarios"][0]["initial"] |= dict.fromkeys(rows, "nothing yet")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "dns.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    stuck_js = ("() => { const s = document.querySelector('[data-mech-heads][data-mech-stuck]');"
                " return s ? s.getBoundingClientRect().bottom : null; }")
    seen = []
    for height in (480, 740):
        page = open_page(tmp_path / "site" / "dns.html", viewport=(360, height), motion="reduce")
        for top in range(0, 1500, 100):
            page.evaluate(f"window.scrollTo(0, {top})")
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame("
                          "() => requestAnimationFrame(done))))")
            facts, strip = page.evaluate(PANEL_Y_JS), page.evaluate(stuck_js)
            (panel_top, panel_bottom), drawing_top = facts["panel"], facts["drawing"][0]
            if facts["held"]:
                above = max(drawing_top, 0, strip or 0)
                assert panel_top - above >= panel_bottom - panel_top, (height, top, facts, strip)
            seen.append((height, strip is not None, facts["held"]))
    assert (480, True, False) in seen and (740, True, True) in seen, seen  # a tall window still holds it


def test_a_held_panel_is_never_under_a_lane_grids_held_names(site, open_page):
    """A designer's review: on a 1280 x 800 screen the paged KV cache's panel, held at the window's foot, lay
    under the lane names held at the frame's left edge, which covered its first words ("refill writes the
    prompt").  The names stop at the held panel's top; back in its place, they are whole."""
    facts_js = """() => {
      const names = Array.from(document.querySelectorAll('.mech-lane-names')).find(e => e.getClientRects().length);
      const svg = names.parentElement.querySelector('svg');
      const panel = svg.querySelector("rect[class$='-panel']").getBoundingClientRect();
      const cut = /inset\\(0px 0px ([\\d.]+)px/.exec(names.style.clipPath);
      return {held: svg.hasAttribute('data-mech-held'), panel: panel.top,
              names: names.getBoundingClientRect().bottom - (cut ? Number(cut[1]) : 0)};
    }"""
    page = open_page(site.page("paged-kv-cache"), viewport=(1280, 800), motion="reduce")
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    facts = page.evaluate(facts_js)
    assert facts["held"] and facts["names"] <= facts["panel"] + 0.5, facts
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => document.querySelector('[data-mech-held]') === null")
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => Array.from(document.querySelectorAll('.mech-lane-names'))"
                         ".every(names => names.style.clipPath === '')")


def test_a_stuck_heads_strip_ends_where_the_rows_do(tmp_path, open_page):
    """A designer's review: scrolled past a DNS lookup's last row, its heads strip stayed stuck at the window's
    top over the legend and the state panel.  Past the rows it moves up with the page: at no scroll position
    does it reach below the top of the legend or of the panel's own place."""
    import json

    from support.sequences import sequence_spec

    data = sequence_spec(5, 6, names=("Stub resolver (laptop)", "Recursive resolver", "Root server",
                                      ".org TLD server", "example.org name server"))
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "dns.mechanism.json").write_text(json.dumps(data), "utf-8")
    bs.build([tmp_path / "specs"], tmp_path / "site")
    facts_js = """() => {
      const strip = document.querySelector('[data-mech-heads]:not([hidden])');
      const svg = Array.from(document.querySelectorAll('[data-mech-canvas] svg')).find(s => s.getClientRects().length);
      const box = svg.getBoundingClientRect(), panel = svg.querySelector("rect[class$='-panel']");
      let end = box.top + Number(panel.getAttribute('y')) * box.width / svg.viewBox.baseVal.width;
      const legend = svg.querySelector("g[class$='-legend']");
      if (legend) end = Math.min(end, legend.getBoundingClientRect().top);
      return {stuck: strip.hasAttribute('data-mech-stuck'), bottom: strip.getBoundingClientRect().bottom, end};
    }"""
    page = open_page(tmp_path / "site" / "dns.html", viewport=(1280, 600), motion="reduce")
    pushed = False
    for top in range(0, 1400, 50):
        page.evaluate(f"window.scrollTo(0, {top})")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        facts = page.evaluate(facts_js)
        if facts["stuck"]:
            assert facts["bottom"] <= facts["end"] + 0.5, (top, facts)
            pushed = pushed or facts["bottom"] < 1
    assert pushed  # scrolled far enough for the strip to leave with its rows
