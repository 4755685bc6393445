"""Keyboard only: the Tab order over two figures, every control operated with Enter and with Space while focus
stays put (SC 2.1.1, 2.4.3, 3.2.1), focus always visible (SC 2.4.7, 2.4.11) and targets >= 24 px (SC 2.5.8)."""

from __future__ import annotations

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCHEMES = ["light", "dark"]

#: Figure 0 of two.html is the relay spec (3 steps, then 2; a scenario choice), figure 1 the project's own spec.
#: The figure's stops: the explorer's tree (one stop, over the drawing: test_browser_explore), then the controls.
ORDER = ["0/mech-explore-item", "0/mech-play", "0/mech-prev", "0/mech-next", "0/mech-scenario", "0/mech-tab",
         "1/mech-explore-item", "1/mech-play", "1/mech-prev", "1/mech-next", "1/mech-tab"]


def press(page, key: str, expect_focus: str) -> dict:
    page.keyboard.press(key)
    assert bs.active_tag(page) == expect_focus, f"{key} moved focus"
    return bs.state(page, int(expect_focus[0]))


def test_keyboard_only_walk_over_two_figures(site, open_page):
    page = open_page(site.two, clock=True)
    assert bs.active_tag(page) == "-/body"
    second_steps = len(bs.player_data(page, 1)["scenarios"][0]["steps"])
    assert [bs.state(page, i)["label"] for i in range(2)] == [bs.PAUSE_LABEL, bs.PAUSE_LABEL]

    # Figure 1: focus entering its drawing's structure stops it.
    s = press(page, "Tab", "0/mech-explore-item")
    assert s["label"] == bs.PLAY_LABEL and bs.state(page, 1)["label"] == bs.PAUSE_LABEL, s
    # Pause/Play: Enter and Space toggle, the label flips, focus stays.
    s = press(page, "Tab", "0/mech-play")
    assert (s["label"], s["position"]) == (bs.PLAY_LABEL, "Step 1 of 3"), s
    assert bs.state(page, 1)["label"] == bs.PAUSE_LABEL  # the other figure plays on
    s = press(page, "Enter", "0/mech-play")
    assert (s["label"], s["live"], s["position"]) == (bs.PAUSE_LABEL, "off", "Step 1 of 3"), s
    s = press(page, "Space", "0/mech-play")
    assert (s["label"], s["live"], s["position"]) == (bs.PLAY_LABEL, "polite", "Step 1 of 3"), s

    # Previous: wraps from step 1 to the last step.
    press(page, "Tab", "0/mech-prev")
    assert press(page, "Enter", "0/mech-prev")["position"] == "Step 3 of 3"
    assert bs.step_of(page, 0) == 3
    assert press(page, "Space", "0/mech-prev")["position"] == "Step 2 of 3"
    assert bs.step_of(page, 0) == 2

    # Next.
    press(page, "Tab", "0/mech-next")
    assert press(page, "Enter", "0/mech-next")["position"] == "Step 3 of 3"
    s = press(page, "Space", "0/mech-next")
    assert s["position"] == "Step 1 of 3" and s["live"] == "polite" and s["status"].startswith("Step 1 of 3: Compose."), s

    # Scenario: Space opens the list, Enter opens it too; arrows pick, Enter chooses; focus stays on the select.
    press(page, "Tab", "0/mech-scenario")
    press(page, "Space", "0/mech-scenario")
    press(page, "ArrowDown", "0/mech-scenario")
    s = press(page, "Enter", "0/mech-scenario")
    assert (s["scenario"], s["scenes"], s["position"], s["live"]) == (1, [1], "Step 1 of 2", "polite"), s
    assert s["status"].startswith("Step 1 of 2: Send again."), s
    assert bs.step_of(page, 0) == 1
    press(page, "Enter", "0/mech-scenario")
    press(page, "ArrowUp", "0/mech-scenario")
    s = press(page, "Enter", "0/mech-scenario")
    assert (s["scenario"], s["scenes"], s["position"]) == (0, [0], "Step 1 of 3"), s

    # The step tabs: one tab stop, the selected step's; the arrow keys and Home/End are covered by test_browser_tablist.
    s = press(page, "Tab", "0/mech-tab")
    assert (s["focusedTab"], s["tabStops"], s["tablists"]) == (0, [0], 1), s

    # Figure 2: same controls, its own state; figure 1 stays stopped after focus left it.
    press(page, "Tab", "1/mech-explore-item")
    s = press(page, "Tab", "1/mech-play")
    assert s["label"] == bs.PLAY_LABEL and bs.state(page, 0)["label"] == bs.PLAY_LABEL
    assert press(page, "Enter", "1/mech-play")["label"] == bs.PAUSE_LABEL
    assert press(page, "Space", "1/mech-play")["label"] == bs.PLAY_LABEL
    press(page, "Tab", "1/mech-prev")
    assert press(page, "Enter", "1/mech-prev")["position"] == f"Step {second_steps} of {second_steps}"
    assert press(page, "Space", "1/mech-prev")["position"] == f"Step {second_steps - 1} of {second_steps}"
    press(page, "Tab", "1/mech-next")
    assert press(page, "Enter", "1/mech-next")["position"] == f"Step {second_steps} of {second_steps}"
    assert press(page, "Space", "1/mech-next")["position"] == f"Step 1 of {second_steps}"
    assert bs.state(page, 0)["position"] == "Step 1 of 3"  # figure 1 untouched
    s = press(page, "Tab", "1/mech-tab")
    assert s["focusedTab"] == s["tabStops"][0] == 0, s  # the selected step's tab is the tab stop

    # Past the last control focus leaves the figures; Shift+Tab comes back.
    page.keyboard.press("Tab")
    assert bs.active_tag(page) == "-/body"
    page.keyboard.press("Shift+Tab")
    assert bs.active_tag(page) == "1/mech-tab"
    page.clock.run_for(60_000)  # nothing restarted behind the reader's back
    assert [bs.state(page, i)["label"] for i in range(2)] == [bs.PLAY_LABEL, bs.PLAY_LABEL]


def test_tab_order_is_the_visual_order(site, open_page):
    page = open_page(site.two)
    seen, boxes = [], []
    for _ in ORDER:
        page.keyboard.press("Tab")
        seen.append(bs.active_tag(page))
        boxes.append(page.evaluate("() => { const r = document.activeElement.getBoundingClientRect();"
                                   " return [r.top + window.scrollY, r.left]; }"))
    assert seen == ORDER
    for (top_a, left_a), (top_b, left_b), name in zip(boxes, boxes[1:], ORDER[1:]):
        assert top_b > top_a + 1 or (abs(top_b - top_a) <= 1 and left_b > left_a), f"{name} comes before its predecessor"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_focus_is_visible_on_every_control(site, open_page, scheme):
    page = open_page(site.two, scheme=scheme)
    for expected in ORDER:
        page.keyboard.press("Tab")
        assert bs.active_tag(page) == expected
        ring = page.evaluate("""() => {
          const el = document.activeElement, cs = getComputedStyle(el);
          let bg = 'rgba(0, 0, 0, 0)';
          for (let e = el.parentElement; e; e = e.parentElement) {
            const c = getComputedStyle(e).backgroundColor;
            if (!/rgba\\([^)]*,\\s*0\\)$/.test(c) && c !== 'transparent') { bg = c; break; }
          }
          return {visible: el.matches(':focus-visible'), style: cs.outlineStyle, width: cs.outlineWidth,
                  colour: cs.outlineColor, offset: cs.outlineOffset, bg};
        }""")
        assert ring["visible"], (expected, ring)
        assert ring["style"] not in ("none", "hidden") and float(ring["width"].rstrip("px")) >= 2, (expected, ring)
        ratio = bs.contrast(bs.parse_colour(ring["colour"]), bs.parse_colour(ring["bg"]))
        print(f"{scheme} focus outline on {expected}: {ring['width']} {ring['style']} {ring['colour']} "
              f"on {ring['bg']}, {ratio:.2f}:1")
        assert ratio >= 3, (expected, ring, ratio)


@pytest.mark.parametrize("width", [1280, 320])
def test_every_control_is_at_least_24_by_24(site, open_page, width):
    page = open_page(site.two, viewport=(width, 800))
    boxes = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.mech-controls button, .mech-controls select, .mech-controls label'))
        .filter(el => el.getClientRects().length)  // the hidden scenario's tabs take no room
        .map(el => { const r = el.getBoundingClientRect();
                     return [el.className || el.localName, el.textContent.trim().slice(0, 20), r.width, r.height]; })""")
    tabs = sum(len(bs.player_data(page, i)["scenarios"][0]["steps"]) for i in range(2))
    # every control of ORDER but the tabs' stops and the explorers (outside the controls), every tab, the label
    controls = [stop for stop in ORDER if not stop.endswith(("mech-tab", "mech-explore-item"))]
    assert len(boxes) == len(controls) + tabs + 1
    for cls, text, w, h in boxes:
        assert w >= 24 and h >= 24, (width, cls, text, w, h)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"
