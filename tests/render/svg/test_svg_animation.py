"""The SVG's animation is CSS only.  Each step's panel heading, each panel value, each highlight and each
highlighted box's label has its ``@keyframes`` over the whole loop (whose last step is held 1.5 times its
duration): text switches exactly at the step boundaries (``step-end``), so no two steps' text show at once and
none is ever blank; highlights ease across step boundaries and are half-way exactly at the boundary, the loop's
wrap included; a highlighted box keeps one label whose fill eases with its box and whose weight switches at the
boundary; eases last at most a third of the shortest step; active paths carry a dot that travels along the
route at one speed in a drawing; and the base state (no CSS, or reduced motion) is the poster.
Asserted on the parsed style sheet (:mod:`support.css`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mechdiagram.render.svg import prefix_for
from mechdiagram.render.timeline import EASE_MS, LAST_STEP_HOLD, Timeline
from support.css import Stylesheet, words
from support.outputs import render as outputs
from support.reference_spec import STEP_MS, STEPS
from support.specs import minimal_spec
from support.svg import SVG_NS, stylesheet, text_of, value_y, with_class

PREFIX = prefix_for("ref", "one-request")
TINY = prefix_for("tiny", "main")
REFERENCE = Timeline.from_durations([STEP_MS] * len(STEPS))


def animation_of(sheet: Stylesheet, cls: str) -> tuple[str, int, str]:
    """(keyframes name, duration in ms, timing function) of the top-level rule ``.cls``."""
    rules = [r for r in sheet.rules_for(f".{cls}", at=None) if "animation" in r.declarations]
    assert len(rules) == 1, (cls, rules)
    name, length, timing, count = words(rules[0].declarations["animation"])
    assert count == "infinite"
    return name, int(length.removesuffix("ms")), timing


def opacity_stops(sheet: Stylesheet, name: str) -> list[tuple[float, float]]:
    """(percent, opacity) stops of ``@keyframes name``; each stop also keeps the layer visible."""
    stops = sheet.keyframes[name]
    assert all(d.get("visibility") == "visible" for _, d in stops), stops
    return [(offset, float(d["opacity"])) for offset, d in stops]


def shown_stops(sheet: Stylesheet, name: str) -> list[tuple[float, float]]:
    """(percent, 1 visible or 0 hidden) stops of ``@keyframes name``, which sets nothing but visibility."""
    stops = sheet.keyframes[name]
    assert all(set(d) == {"visibility"} for _, d in stops), stops
    return [(offset, 1.0 if d["visibility"] == "visible" else 0.0) for offset, d in stops]


def value_at(stops: list[tuple[float, float]], ms: float, total: int) -> float:
    """The keyframes' value at ``ms``, interpolated linearly between stops (easing keeps the end points
    and the half-way time of a symmetric ease)."""
    pct = 100 * ms / total
    for (a, va), (b, vb) in zip(stops, stops[1:]):
        if a <= pct <= b:
            return va if b == a else va + (vb - va) * (pct - a) / (b - a)
    raise AssertionError(f"{pct}% outside the stops {stops}")


def step_at(stops: list[tuple[float, float]], ms: float, total: int) -> float:
    """The value at ``ms`` of keyframes timed ``step-end``: the last stop's at or before it."""
    pct = 100 * (ms % total) / total
    return [v for offset, v in stops if offset <= pct][-1]


# --- the loop --------------------------------------------------------------------------------------

def test_the_loop_holds_the_last_step_one_and_a_half_times_its_duration():
    timeline = Timeline.from_durations([1000, 2000])
    assert LAST_STEP_HOLD == 1.5
    assert [(w.start, w.duration) for w in timeline.windows] == [(0, 1000), (1000, 3000)] and timeline.total == 4000
    assert Timeline.from_durations([777]).windows[0].duration == 1166  # rounded to the ms


# --- panel text windows ----------------------------------------------------------------------------

def test_step_text_windows_match_the_step_durations(animated):
    sheet = stylesheet(animated)
    assert sheet.errors == []
    total = REFERENCE.total
    assert total == STEP_MS * (len(STEPS) - 1) + STEP_MS * LAST_STEP_HOLD
    for window in REFERENCE.windows:
        name, length, timing = animation_of(sheet, f"{PREFIX}-f{window.index + 1}")
        assert (length, timing) == (total, "step-end")
        stops = shown_stops(sheet, name)
        # shown from its window's start to its end, to within 0.1 ms of rounding in the percentages
        assert step_at(stops, window.start + 0.1, total) and step_at(stops, window.end - 0.1, total), window
        assert not step_at(stops, window.start - 0.1, total) or window.index == 0
        assert not step_at(stops, window.end + 0.1, total) or len(REFERENCE.windows) == 1
        assert sum(step_at(stops, ms + 0.5, total) for ms in range(total)) == window.duration


def test_two_steps_text_never_show_at_once_and_one_always_does():
    data = minimal_spec()
    data["scenarios"][0]["steps"] += [{"title": "Three", "duration": 334, "active": ["b1"]},
                                      {"title": "Four", "duration": 5000, "active": ["a0"]}]
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    sheet = stylesheet(root)
    steps = data["scenarios"][0]["steps"]
    total = Timeline.from_durations([s["duration"] for s in steps]).total
    curves = [shown_stops(sheet, animation_of(sheet, f"{TINY}-f{n}")[0]) for n in range(1, len(steps) + 1)]
    for ms in range(0, total + 1):
        assert sum(step_at(c, ms, total) for c in curves) == 1, ms


def test_a_panel_row_always_shows_exactly_one_value(animated):
    """Each row's values switch at the boundaries: at every moment, one per row, the step's own."""
    sheet = stylesheet(animated)
    total = REFERENCE.total
    values = with_class(animated, f"{PREFIX}-val")
    curves = []
    for value in values:
        index = next(c for c in value.get("class").split() if c.startswith(f"{PREFIX}-v") and c[len(PREFIX) + 2:].isdigit())
        name, length, timing = animation_of(sheet, index)
        assert (length, timing) == (total, "step-end")
        curves.append((value_y(value), text_of(value).removeprefix("◆").strip(), shown_stops(sheet, name)))
    rows = {y for y, _, _ in curves}
    assert len(rows) == 2
    for window in REFERENCE.windows:
        for ms in (window.start + 0.1, window.start + 1, (window.start + window.end) / 2, window.end - 0.1):
            shown = [(y, text) for y, text, stops in curves if step_at(stops, ms, total)]
            assert sorted(y for y, _ in shown) == sorted(rows), (ms, shown)
            assert [text for _, text in shown] == list(STEPS[window.index][3:5]), (ms, shown)


# --- highlights ease across boundaries -------------------------------------------------------------

def highlight_curves(root: ET.Element, prefix: str) -> list[tuple[list[int], list[tuple[float, float]]]]:
    sheet = stylesheet(root)
    found = []
    for group in with_class(root, f"{prefix}-hl"):
        index = [c for c in group.get("class").split() if c.startswith(f"{prefix}-h") and c[len(prefix) + 2:].isdigit()]
        name, _, timing = animation_of(sheet, index[0])
        assert timing == "ease-in-out"
        found.append(([int(n) for n in group.get("data-mech-steps").split()], opacity_stops(sheet, name)))
    return found


def test_highlights_are_half_way_at_each_step_boundary_the_loop_wrap_too(animated):
    total = REFERENCE.total
    curves = highlight_curves(animated, PREFIX)
    assert curves
    wraps = 0
    for steps, stops in curves:
        for window in REFERENCE.windows:
            number = window.index + 1
            middle = (window.start + window.end) / 2
            assert value_at(stops, middle, total) == (1 if number in steps else 0), (steps, number)
            before = number - 1 if window.index else len(STEPS)
            if (number in steps) != (before in steps):
                wraps += not window.index
                assert value_at(stops, window.start, total) == pytest.approx(0.5, abs=1e-3)
                # an ease, not a cut: intermediate just across the boundary
                assert 0 < value_at(stops, window.start + 20, total) < 1
                assert 0 < value_at(stops, (window.start - 20) % total, total) < 1
    assert wraps


def test_the_wrap_eases_as_one_ease_in_out_in_two_halves(animated):
    sheet = stylesheet(animated)
    name = animation_of(sheet, f"{PREFIX}-h0")[0]
    stops = sheet.keyframes[name]
    assert stops[0][0] == 0 and stops[0][1]["opacity"] == "0.5" and stops[0][1]["animation-timing-function"] == "ease-out"
    assert stops[-1][0] == 100 and stops[-1][1]["opacity"] == "0.5"
    assert stops[-2][1]["animation-timing-function"] == "ease-in"


def test_a_highlighted_box_has_one_label_whose_colour_and_weight_switch_at_the_boundary(animated):
    sheet = stylesheet(animated)
    total = REFERENCE.total
    lit = with_class(animated, f"{PREFIX}-lit")
    assert lit
    for label in lit:
        classes = label.get("class").split()
        steps = [int(c[len(PREFIX) + 2:]) for c in classes if c.startswith(f"{PREFIX}-t")]
        index = next(c for c in classes if c.startswith(f"{PREFIX}-l") and c[len(PREFIX) + 2:].isdigit())
        name, length, timing = animation_of(sheet, index)
        assert (name, length, timing) == (f"{PREFIX}-b{index[len(PREFIX) + 2:]}", total, "step-end")
        stops = sheet.keyframes[name]
        weights = [(offset, float(d["font-weight"])) for offset, d in stops]
        # the file's own colours: white (active text) on the active fill, else the text colour
        fills = [(offset, 1.0 if d["fill"] == "#ffffff" else 0.0 if d["fill"] == "#1f2328" else -1.0) for offset, d in stops]
        for window in REFERENCE.windows:
            expected = window.index + 1 in steps
            for ms in (window.start + 0.1, window.end - 0.1):  # switched at the boundaries
                assert step_at(weights, ms, total) == (700 if expected else 400)
                assert step_at(fills, ms, total) == (1.0 if expected else 0.0)
        # the label is the box's only text: the highlight above the box draws none
        assert not [t for g in with_class(animated, f"{PREFIX}-on") for t in g.iter(f"{SVG_NS}text")]


def test_eases_last_about_250_ms_and_never_more_than_a_third_of_the_shortest_step():
    assert Timeline.from_durations([3000, 2000]).ease_ms == EASE_MS == 250
    assert Timeline.from_durations([3000, 334, 3000]).ease_ms == 111
    assert Timeline.from_durations([3000, 334]).ease_ms == 167  # the last step is held: 501 ms
    data = minimal_spec()
    data["scenarios"][0]["steps"].insert(1, {"title": "Three", "duration": 334, "active": ["b1"]})
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    timeline = Timeline.from_durations([s["duration"] for s in data["scenarios"][0]["steps"]])
    assert timeline.ease_ms == 111
    for _, stops in highlight_curves(root, TINY):
        for (a, va), (b, vb) in zip(stops, stops[1:]):
            if va != vb:  # a whole ease, or half of the one across the loop's wrap
                expected = 111 if {va, vb} == {0, 1} else 55.5
                assert (b - a) * timeline.total / 100 == pytest.approx(expected, abs=0.1)


def test_keyframes_keep_millisecond_precision_in_long_loops():
    """499 ten-minute steps and one of 334 ms: the short step's window must not shrink in rounding."""
    timeline = Timeline.from_durations([600000] * 499 + [334])
    stops = timeline.step_stops([False] * 499 + [True])
    start = float(stops[1][0].rstrip("%"))
    assert abs((100 - start) / 100 * timeline.total - 501) < 0.1  # 334 ms held 1.5 times
    seven = Timeline.from_durations([3000] * 7)
    assert seven.step_stops([k == 1 for k in range(7)]) == [("0%", 0, ""), ("13.3333%", 1, ""), ("26.6667%", 0, ""),
                                                            ("100%", 0, "")]


def test_active_paths_carry_a_dot_travelling_along_their_route():
    root = ET.fromstring(outputs(minimal_spec(), "tiny")["tiny.main.svg"])
    sheet = stylesheet(root)
    flows = [g for g in with_class(root, f"{TINY}-hl") if f"{TINY}-active" in g.get("class").split()]
    assert flows
    for group in flows:
        route = group.find(f"{SVG_NS}path").get("d")
        dot = group.find(f"{SVG_NS}circle")
        assert dot.get("visibility") == "hidden"  # where CSS cannot move it, it is not drawn
        assert f"offset-path:path('{route}')" in dot.get("style")
        assert f"--{TINY}-reach:" in dot.get("style")
    name, _, timing = animation_of(sheet, f"{TINY}-dot")
    assert timing == "linear"
    assert [(o, d["offset-distance"]) for o, d in sheet.keyframes[name]] == [(0.0, "0"), (100.0, f"var(--{TINY}-reach)")]


def test_every_dot_of_a_drawing_moves_at_one_speed():
    """Each dot's style covers reach units in its period: the same units a second for every route of the
    drawing, however long; a short route's dot rests at its end, a long one's never stops short of it."""
    import re

    from mechdiagram.render.svg import TRAVEL_MS
    data = minimal_spec()
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    speeds = []
    for dot in root.iter(f"{SVG_NS}circle"):
        style = dot.get("style")
        period = float(re.search(r"animation-duration:(\d+)ms", style).group(1))
        reach = float(re.search(r"-reach:([\d.]+)px", style).group(1))
        route = [tuple(map(float, p.split())) for p in re.search(r"path\('M(.*)'\)", style).group(1).split(" L")]
        length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in zip(route, route[1:]))
        assert reach >= length and period >= TRAVEL_MS[0]
        speeds.append(reach / period)
    assert speeds and max(speeds) / min(speeds) < 1.01, speeds


def test_dashes_mean_unselected_and_nothing_else():
    data = minimal_spec()
    data["scenarios"][0]["unselected"] = ["b0"]
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    dashed = [e for e in root.iter() if e.get("stroke-dasharray")]
    assert dashed and all(any(c.endswith("-dim") for c in e.get("class").split()) for e in dashed)
    assert "dasharray" not in text_of(root.find(f".//{SVG_NS}style"))


# --- reduced motion and the poster -------------------------------------------------------------------

def test_reduced_motion_stops_every_animation_and_leaves_the_poster(animated):
    sheet = stylesheet(animated)
    reduced = sheet.media_rules("(prefers-reduced-motion: reduce)")
    stopped = {sel for rule in reduced if rule.declarations.get("animation") == "none" for sel in rule.selectors}
    assert {f".{PREFIX}-poster", f".{PREFIX}-frame", f".{PREFIX}-val", f".{PREFIX}-hl", f".{PREFIX}-lit",
            f".{PREFIX}-dot"} <= stopped, stopped
    # the poster is hidden only by an animation, so without one it shows
    assert not [r for r in sheet.rules if r.at is None and f"{PREFIX}-poster" in r.classes
                and "visibility" in r.declarations and "data-mech-player" not in r.selector]


def test_the_base_state_without_css_is_the_poster(animated):
    """What librsvg or resvg draws: every layer but the poster is hidden by its attributes."""
    hidden = [e for e in animated.iter() if e.get("visibility") == "hidden"]
    numbers = {e.get("data-mech-frame") for e in hidden if e.get("data-mech-frame")}
    assert numbers == {str(n) for n in range(1, 8)}
    poster = with_class(animated, f"{PREFIX}-poster")[0]
    assert poster.get("visibility") is None
    assert all(e.get("visibility") == "hidden" for e in with_class(animated, f"{PREFIX}-hl"))
    assert all(e.get("visibility") == "hidden" for e in with_class(animated, f"{PREFIX}-val"))
    assert all(e.get("font-weight") is None for e in with_class(animated, f"{PREFIX}-lit"))  # a label, not bold


def test_the_poster_file_is_still_and_numbers_the_steps(poster, reference_outputs):
    data = reference_outputs["ref.one-request.poster.svg"]
    assert b"<style" not in data and b"@keyframes" not in data
    frames = with_class(poster, f"{PREFIX}-frame")
    assert [f.get("data-mech-frame") for f in frames] == ["0"]
    assert not with_class(poster, f"{PREFIX}-hl")
    poster_text = text_of(frames[0])
    assert "Not admitted" in poster_text and "The prompt" in poster_text  # the initial state
    badges = [text_of(e) for e in with_class(frames[0], f"{PREFIX}-badge-text")]
    numbers = set()
    for part in (p for text in badges for p in text.split(", ")):
        first, _, last = part.partition("–")
        numbers |= set(range(int(first), int(last or first) + 1))
    assert numbers == set(range(1, len(STEPS) + 1))  # every step is on the poster
