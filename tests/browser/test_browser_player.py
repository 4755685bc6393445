"""The step player as the WAI-ARIA APG carousel pattern (with a rotation control) asks, its timing against the
SVG's keyframes, and WCAG 2.2 SC 2.2.2 (pause), 2.3.1 (three flashes), 4.1.3 (status messages).

Timing tests install playwright's clock, paused, before the page loads: the player's timers then fire
only through ``page.clock.run_for``, to the millisecond.
"""

from __future__ import annotations

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ALL = bs.mechanism_slugs() + list(bs.GENERATED)
#: The timing tests also run on a right-to-left spec, in the catalogue's words.
TIMED = ALL + ["lang-ar"]

#: Records every aria-live value any status element ever takes, from now on.
WATCH_LIVE_JS = r"""
() => {
  window.__liveValues = [];
  const statuses = document.querySelectorAll(".mech-status");
  statuses.forEach(s => window.__liveValues.push(s.getAttribute("aria-live")));
  new MutationObserver(records => records.forEach(r => window.__liveValues.push(r.target.getAttribute("aria-live"))))
    .observe(document.body, {subtree: true, attributes: true, attributeFilter: ["aria-live", "role"]});
}
"""


def states(spec: dict, index: int) -> list[list[tuple[str, str]]]:
    """Every step's state rows of scenario ``index`` as (label, value or "–"), values carried forward."""
    scenario = spec["scenarios"][index]
    current = {key: scenario.get("initial", {}).get(key, "") for key in spec["stateLabels"]}
    rows = []
    for step in scenario["steps"]:
        current.update(step.get("state", {}))
        rows.append([(spec["stateLabels"][k], current[k] or "–") for k in spec["stateLabels"]])
    return rows


def said_of_steps(spec: dict, index: int) -> list[list[str]]:
    """What the live text says of each step of scenario ``index`` after its heading: the labels the step changes
    (``labelChanged``: the text before, the new one) and its state rows, each a row the step changes said so
    (``stateRowChanged``), as the panel marks it."""
    scenario = spec["scenarios"][index]
    labels = {key: target.get("label") for key, target in spec["targets"].items()}
    before = [(label, (scenario.get("initial", {}).get(k, "") or "–")) for k, label in spec["stateLabels"].items()]
    out = []
    for step, rows in zip(scenario["steps"], states(spec, index), strict=True):
        said = [bs.say(spec, "groupActive", label=spec["groups"][key]["label"])
                for key in step.get("active", []) if key in spec.get("groups", {})]
        for key, text in step.get("labels", {}).items():
            if labels[key] != text:
                said.append(bs.say(spec, "labelChanged", label=labels[key], value=text))
                labels[key] = text
        said += [bs.say(spec, "stateRowChanged" if row != old else "stateRow", label=row[0], value=row[1])
                 for row, old in zip(rows, before, strict=True)]
        before = rows
        out.append(said)
    return out


def click(page, selector: str, figure: int = 0) -> None:
    """A click event on a control, with neither pointer movement nor focus (the control's own behaviour)."""
    bs.figures(page).nth(figure).locator(selector).dispatch_event("click")


def ensure_playing(page, spec: dict, figure: int = 0) -> None:
    if bs.state(page, figure)["label"] == bs.say(spec, "playName"):
        click(page, ".mech-play", figure)
    assert bs.state(page, figure)["label"] == bs.say(spec, "pauseName")


@pytest.mark.parametrize("slug", ALL)
def test_rotation_control_is_first_native_button_without_aria_pressed(site, open_page, slug):
    page = open_page(site.page(slug), clock=True)  # time stands still: "Step 1" stays true
    facts = bs.figures(page).nth(0).evaluate(r"""root => {
      const stage = root.querySelector(".mech-stage");
      // After the drawing's structure (the explorer's one stop, over the drawing), the controls, Play first.
      const tabbable = Array.from(stage.querySelectorAll("a[href], button, input, select, textarea, [tabindex]"))
        .filter(el => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length && !el.closest(".mech-explore"));
      const play = root.querySelector(".mech-play");
      const heard = el => Array.from(el.childNodes).map(n => n.nodeType === 3 ? n.textContent
        : n.getAttribute("aria-hidden") === "true" ? "" : heard(n)).join("");
      return {first: tabbable[0] === play, tag: play.localName, type: play.type, pressed: play.getAttribute("aria-pressed"),
              ariaLabel: play.getAttribute("aria-label"), role: play.getAttribute("role"), text: heard(play).trim()};
    }""")
    assert facts == {"first": True, "tag": "button", "type": "button", "pressed": None, "ariaLabel": None,
                     "role": None, "text": bs.say(site.specs[slug], "pauseName")}
    s = bs.state(page)
    assert (s["atomic"], s["live"]) == ("true", "off"), s
    assert bs.step_of(page) == 1 and s["position"] == f"Step 1 of {len(site.specs[slug]['scenarios'][0]['steps'])}"


@pytest.mark.parametrize("width", [1280, 360])
def test_pause_keeps_the_step_and_play_resumes_from_it(site, open_page, width):
    """In either layout: the wide drawing on a wide screen, the narrow one on a phone (``step_of`` also checks
    that the hidden one is at the same step and play state)."""
    page = open_page(site.page("relay"), clock=True, viewport=(width, 900))  # steps of 1000, 1500, 2000 ms
    assert bs.state(page)["shownLayout"] == ("wide" if width == 1280 else "narrow")
    page.clock.run_for(1000)
    assert bs.step_of(page) == 2  # step 2 has a moving arrow
    page.clock.run_for(500)
    assert bs.state(page)["flowState"] == "running"
    click(page, ".mech-play")
    s = bs.state(page)
    assert (s["label"], s["pressed"], s["live"], s["svgPaused"], s["flowState"]) == \
        (bs.PLAY_LABEL, None, "polite", True, "paused"), s
    page.clock.run_for(60_000)
    assert bs.step_of(page) == 2
    click(page, ".mech-play")
    s = bs.state(page)
    assert (s["label"], s["live"], s["svgPaused"], s["flowState"]) == (bs.PAUSE_LABEL, "off", False, "running"), s
    page.clock.run_for(999)  # 500 of the step's 1500 ms were shown before the pause
    assert bs.step_of(page) == 2
    page.clock.run_for(1)
    assert bs.step_of(page) == 3


def test_the_narrow_layout_follows_steps_scenarios_and_a_change_of_width(site, open_page):
    """On a phone the narrow drawing shows and follows Next, Previous and the scenario choice; turned to a wide
    screen mid-way, the wide drawing shows the same scenario, step and pause."""
    page = open_page(site.page("relay"), clock=True, viewport=(360, 900))
    click(page, ".mech-next")
    click(page, ".mech-next")
    assert bs.step_of(page) == 3 and bs.state(page)["shownLayout"] == "narrow"
    click(page, ".mech-prev")
    assert bs.step_of(page) == 2
    page.select_option("[data-mech-figure] .mech-scenario", "1")
    click(page, ".mech-play")  # paused
    click(page, ".mech-next")
    s = bs.state(page)
    assert bs.step_of(page) == 2 and (s["scenes"], s["shownLayout"], s["svgPaused"]) == ([1], "narrow", True), s
    page.set_viewport_size({"width": 1280, "height": 900})
    s = bs.state(page)
    assert bs.step_of(page) == 2 and (s["scenes"], s["shownLayout"], s["svgPaused"]) == ([1], "wide", True), s
    page.clock.run_for(60_000)
    assert bs.step_of(page) == 2


def test_keyboard_focus_entering_the_player_stops_it_until_play_is_pressed(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    page.keyboard.press("Tab")  # the drawing's structure (the explorer), the figure's first stop
    assert bs.active_tag(page) == "0/mech-explore-item"
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    page.keyboard.press("Tab")
    assert bs.active_tag(page) == "0/mech-play"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # focus leaves the player: it stays stopped
    assert not bs.state(page)["focusInside"]
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 1 and bs.state(page)["label"] == bs.PLAY_LABEL
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    page.keyboard.press("Tab")  # moving within the player does not stop it again
    assert bs.active_tag(page) == "0/mech-prev"
    page.clock.run_for(1000)
    assert bs.step_of(page) == 2 and bs.state(page)["label"] == bs.PAUSE_LABEL


def test_mouse_hover_pauses_only_while_the_pointer_rests_on_the_figure(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    page.mouse.move(1, 1)
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    bs.figures(page).nth(0).locator("svg").first.hover()
    page.clock.run_for(100)  # passing over the figure does not stop it ...
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    page.clock.run_for(300)  # ... resting on it does, for as long as it rests there
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 1 and bs.state(page)["label"] == bs.PLAY_LABEL
    page.mouse.move(1, 1)  # the pointer leaves: it plays on from where it stopped
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    page.clock.run_for(699)
    assert bs.step_of(page) == 1
    page.clock.run_for(1)  # 300 ms before the pause (the rest) and 700 after it: step 1's 1000 ms
    assert bs.step_of(page) == 2 and bs.state(page)["label"] == bs.PAUSE_LABEL


def test_pause_pressed_after_a_hover_outlasts_the_hover(site, open_page):
    """Hover pauses only while the pointer is on the figure; the reader's Pause stops it for good (WCAG 2.2.2)."""
    page = open_page(site.page("relay"), clock=True)
    figure_svg = bs.figures(page).nth(0).locator("svg").first
    play = bs.figures(page).nth(0).locator(".mech-play")
    figure_svg.hover()
    page.clock.run_for(400)
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    play.hover()  # on its way to the button the pointer leaves the figure: playing again, as the label says
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    play.click()
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    figure_svg.hover()
    page.clock.run_for(400)
    page.mouse.move(1, 1)  # a hover after Pause does not undo it
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 1 and bs.state(page)["label"] == bs.PLAY_LABEL


def test_focus_entering_during_a_hover_keeps_the_player_paused_after_the_pointer_leaves(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    bs.figures(page).nth(0).locator("svg").first.hover()
    page.clock.run_for(400)
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    page.keyboard.press("Tab")  # keyboard focus enters the player: that pause stays until Play
    assert bs.active_tag(page) == "0/mech-explore-item"
    page.mouse.move(1, 1)
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 1 and bs.state(page)["label"] == bs.PLAY_LABEL


def test_a_mouse_click_on_pause_pauses(site, open_page):
    """The pointer on its way to "Pause animation" crosses the player; the click must still pause."""
    page = open_page(site.page("relay"), clock=True)
    page.mouse.move(1, 1)
    play = bs.figures(page).nth(0).locator(".mech-play")
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    play.hover()
    page.clock.run_for(1000)  # resting on the button, not on the figure: still playing
    assert bs.state(page)["label"] == bs.PAUSE_LABEL and bs.step_of(page) == 2
    play.click()
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 2


def test_touch_tap_on_the_rotation_control_does_what_its_label_says(site, open_page):
    """Touch has no hover: the tap's own pointerenter and the focus it gives must not pause first, or a tap on
    "Pause animation" would pause and at once play again."""
    page = open_page(site.page("relay"), clock=True, touch=True)
    play = bs.figures(page).nth(0).locator(".mech-play")
    play.tap()
    assert bs.state(page)["label"] == bs.PLAY_LABEL
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 1
    play.tap()
    assert bs.state(page)["label"] == bs.PAUSE_LABEL
    page.clock.run_for(1000)
    assert bs.step_of(page) == 2
    bs.figures(page).nth(0).locator(".mech-next").tap()  # focus was inside already: it keeps playing, and the
    s = bs.state(page)                                     # step the reader chose is announced
    assert bs.step_of(page) == 3 and s["label"] == bs.PAUSE_LABEL and s["live"] == "polite", s
    page.clock.run_for(3000)  # the last step, 2000 ms, is held 1.5 times before step 1 comes back
    assert bs.step_of(page) == 1 and bs.state(page)["live"] == "off"


def test_touch_tap_on_another_control_stops_the_player(site, open_page):
    page = open_page(site.page("relay"), clock=True, touch=True)
    bs.figures(page).nth(0).locator(".mech-next").tap()
    s = bs.state(page)
    assert bs.step_of(page) == 2 and s["label"] == bs.PLAY_LABEL and s["live"] == "polite", s
    page.clock.run_for(30_000)
    assert bs.step_of(page) == 2


def test_status_is_atomic_off_while_playing_polite_when_paused_or_stepped_never_assertive(site, open_page):
    page = open_page(site.page("relay"), clock=True)
    page.evaluate(WATCH_LIVE_JS)
    s = bs.state(page)
    assert (s["atomic"], s["live"]) == ("true", "off"), s
    status = bs.figures(page).nth(0).locator(".mech-status")
    assert status.get_attribute("role") in (None, "status")
    page.clock.run_for(1000)  # an automatic step is not announced
    assert bs.step_of(page) == 2 and bs.state(page)["live"] == "off"
    click(page, ".mech-next")  # a step the user chose is announced, politely, even while playing
    assert bs.step_of(page) == 3 and bs.state(page)["live"] == "polite"
    page.clock.run_for(3000)  # and the next automatic step (after the held last one) is silent again
    assert bs.step_of(page) == 1 and bs.state(page)["live"] == "off"
    click(page, ".mech-play")
    assert bs.state(page)["live"] == "polite"
    click(page, ".mech-prev")
    assert bs.step_of(page) == 3 and bs.state(page)["live"] == "polite"
    assert bs.state(page)["status"].startswith("Step 3 of 3: Acknowledge.")
    assert bs.state(page)["isolated"], "author text in the status is a bidi isolate"
    click(page, ".mech-play")
    assert bs.state(page)["live"] == "off"
    page.select_option("[data-mech-figure] .mech-scenario", "1")
    s = bs.state(page)
    assert s["live"] == "polite" and s["status"].startswith("Step 1 of 2: Send again."), s
    page.clock.run_for(400)  # the first automatic step after the choice is silent
    assert bs.step_of(page) == 2 and bs.state(page)["live"] == "off"
    values = page.evaluate("window.__liveValues")
    assert "assertive" not in values and set(values) <= {"off", "polite"}, values


def marked(spec: dict, step: dict) -> list[str]:
    """A step's marks as the player announces them after its state: "page 7 (new)", in the spec's words."""
    targets = spec["targets"]
    return [bs.say(spec, "marked", label=targets[key].get("label") or key,
                   mark=bs.say(spec, f"mark{mark.capitalize()}")) for key, mark in step.get("marks", {}).items()]


@pytest.mark.parametrize("slug", TIMED)
def test_player_windows_equal_svg_keyframes_and_nothing_changes_faster_than_three_a_second(site, open_page, slug):
    page = open_page(site.page(slug))
    data = bs.player_data(page)
    svgs = bs.figures(page).nth(0).locator(".mech-figure .mech-wide svg[role=img]")
    assert svgs.count() == len(data["scenarios"])
    # the narrow layout of each scenario has the wide one's classes, so the wide one's keyframes move it too
    narrow = bs.figures(page).nth(0).locator(".mech-figure .mech-narrow svg[role=img]")
    assert [narrow.nth(i).get_attribute("class") for i in range(narrow.count())] == [
        svgs.nth(i).get_attribute("class") for i in range(svgs.count())]
    for index, scenario in enumerate(data["scenarios"]):
        windows = bs.keyframe_windows(svgs.nth(index).evaluate(bs.KEYFRAMES_JS))
        from_player = [{"start": st["start"], "duration": st["duration"]} for st in scenario["steps"]]
        total = sum(w["duration"] for w in from_player)
        assert [{"start": w["start"], "duration": w["duration"]} for w in windows] == from_player, (slug, index)
        assert all(w["total"] == total for w in windows)
        assert all(st["duration"] >= bs.MIN_CHANGE_MS for st in scenario["steps"]), scenario  # SC 2.3.1
        spec_steps = site.specs[slug]["scenarios"][index]["steps"]
        assert [bs.unisolated(st["announcement"]) for st in scenario["steps"]] == [bs.unisolated(
            " ".join(bs.say(site.specs[slug], "sentence", text=t) for t in [bs.say(
                site.specs[slug], "stepOf", n=str(n), total=str(len(spec_steps)), title=st["title"])] + said
                + marked(site.specs[slug], st)))
            for n, (st, said) in enumerate(zip(spec_steps, said_of_steps(site.specs[slug], index)), 1)]
    periods = page.evaluate("""() => Array.from(document.querySelectorAll('svg *'))
        .map(el => getComputedStyle(el)).filter(cs => cs.animationName !== 'none')
        .map(cs => [cs.animationName, cs.animationDuration])""")
    for name, duration in periods:  # the moving dashes repeat no faster than three times a second
        assert bs.ms(duration) >= bs.MIN_CHANGE_MS, (name, duration)


@pytest.mark.parametrize("slug", TIMED)
def test_steps_change_exactly_at_the_timeline_boundaries(site, open_page, slug):
    page = open_page(site.page(slug), clock=True)
    data = bs.player_data(page)
    for index, scenario in enumerate(data["scenarios"]):
        if index:
            page.select_option("[data-mech-figure] .mech-scenario", str(index))
            ensure_playing(page, site.specs[slug])
        assert bs.state(page)["scenes"] == [index]
        steps = scenario["steps"]
        for number, step in enumerate(steps, start=1):
            assert step["start"] == sum(s["duration"] for s in steps[:number - 1])
            page.clock.run_for(step["duration"] - 1)
            assert bs.step_of(page) == number, (slug, index, number)
            page.clock.run_for(1)
            assert bs.step_of(page) == number % len(steps) + 1, (slug, index, number)


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("slug", ALL)
def test_reduced_motion_starts_paused_and_says_how_to_play(site, open_page, slug, width):
    page = open_page(site.page(slug), motion="reduce", clock=True, viewport=(width, 900))
    s = bs.state(page)
    assert s["shownLayout"] == ("wide" if width == 1280 else "narrow"), s
    spec = site.specs[slug]
    assert s["label"] == bs.say(spec, "playName") and s["live"] == "polite" and s["svgPaused"], s
    assert s["status"].endswith(" " + bs.say(spec, "reducedMotion")) and bs.say(spec, "playName") in s["status"], s
    page.clock.run_for(60_000)
    assert bs.step_of(page) == 1
    flows = page.evaluate("() => Array.from(document.querySelectorAll(\"svg [class$='-flow']\"))"
                          ".map(el => getComputedStyle(el).animationName)")
    has_paths = any(target["kind"] == "path" for target in site.specs[slug]["targets"].values())
    assert set(flows) == ({"none"} if has_paths else set()), flows
    click(page, ".mech-play")  # the reader may still choose to play
    first = bs.player_data(page)["scenarios"][0]["steps"][0]["duration"]
    page.clock.run_for(first)
    assert bs.step_of(page) == 2


def test_ids_are_unique_and_references_stay_inside_their_figure(site, open_page):
    for path in [site.page(slug) for slug in site.all_slugs] + [site.multi, site.two]:
        page = open_page(path)
        report = page.evaluate(bs.ids_report_js())
        assert report["count"] > 0
        assert (report["duplicates"], report["broken"], report["foreign"]) == ([], [], []), (path.name, report)


def test_two_copies_of_one_figure_do_not_interfere(site, open_page):
    page = open_page(site.multi, clock=True)
    first_steps = bs.player_data(page, 0)["scenarios"][0]["steps"]
    statuses = page.evaluate("() => Array.from(document.querySelectorAll('.mech-status')).map(s => s.id || '')")
    assert len(statuses) == 3
    page.keyboard.press("Tab")  # into copy 1 (its drawing's structure) ...
    for _ in range(4):
        page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # ... and out of it into copy 2: only these two stop
    assert bs.active_tag(page) == "1/mech-explore-item"
    page.keyboard.press("Tab")
    assert bs.active_tag(page) == "1/mech-play"
    assert [bs.state(page, i)["label"] for i in range(3)] == [bs.PLAY_LABEL, bs.PLAY_LABEL, bs.PAUSE_LABEL]
    click(page, ".mech-play", 0)  # copy 1 plays again; copy 2 stays paused
    assert [bs.state(page, i)["label"] for i in range(3)] == [bs.PAUSE_LABEL, bs.PLAY_LABEL, bs.PAUSE_LABEL]
    assert [bs.state(page, i)["live"] for i in range(3)] == ["off", "polite", "off"]
    page.clock.run_for(first_steps[0]["duration"])
    assert [bs.step_of(page, i) for i in range(2)] == [2, 1]
    click(page, ".mech-next", 1)
    click(page, ".mech-next", 1)
    assert [bs.step_of(page, i) for i in range(2)] == [2, 3]
    texts = [bs.state(page, i)["status"] for i in range(2)]
    assert texts[0].startswith("Step 2 of") and texts[1].startswith("Step 3 of"), texts
    assert [bs.state(page, i)["svgPaused"] for i in range(2)] == [False, True]
    click(page, ".mech-play", 0)
    click(page, ".mech-play", 1)
    assert [bs.state(page, i)["label"] for i in range(2)] == [bs.PLAY_LABEL, bs.PAUSE_LABEL]
    assert [bs.state(page, i)["svgPaused"] for i in range(2)] == [True, False]


def test_the_shown_scenario_is_titled_above_its_drawing(site, open_page):
    """The scenario menu, below the figure, cuts a long title short at 360 px: the shown scene keeps its title
    above its drawing, whole, and the others' titles hide with their scenes."""
    page = open_page(site.page("relay"), clock=True, viewport=(360, 900))

    def titles():
        return page.evaluate("""() => Array.from(document.querySelectorAll('[data-mech-figure] .mech-scene-title'))
          .map(t => t.getClientRects().length ? t.innerText : null)""")

    spec = site.specs["relay"]
    names = [scenario["title"] for scenario in spec["scenarios"]]
    assert titles() == [names[0], None]
    page.select_option("[data-mech-figure] .mech-scenario", "1")
    assert titles() == [None, names[1]]
