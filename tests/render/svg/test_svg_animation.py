"""The SVG's animation is CSS only.  Each step's panel text and each highlight has one
``@keyframes`` rule over the whole loop: text fades in and out inside its own window (so two
steps' text never show at once), highlights ease across step boundaries and are half-way exactly
at the boundary, eases last at most a third of the shortest step, active paths carry a dot that
travels along the route, and the base state (no CSS, or reduced motion) is the poster.
Asserted on the parsed style sheet (:mod:`support.css`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mechdiagram.render.svg import prefix_for
from mechdiagram.render.timeline import EASE_MS, Timeline
from support.css import Stylesheet, words
from support.outputs import render as outputs
from support.reference_spec import STEP_MS, STEPS
from support.specs import minimal_spec
from support.svg import SVG_NS, stylesheet, text_of, with_class

PREFIX = prefix_for("ref", "one-request")
TINY = prefix_for("tiny", "main")


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


def value_at(stops: list[tuple[float, float]], ms: float, total: int) -> float:
    """The keyframes' value at ``ms``, interpolated linearly between stops (easing keeps the end points
    and the half-way time of a symmetric ease)."""
    pct = 100 * ms / total
    for (a, va), (b, vb) in zip(stops, stops[1:]):
        if a <= pct <= b:
            return va if b == a else va + (vb - va) * (pct - a) / (b - a)
    raise AssertionError(f"{pct}% outside the stops {stops}")


# --- panel text windows ----------------------------------------------------------------------------

def test_step_text_windows_match_the_step_durations(animated):
    sheet = stylesheet(animated)
    assert sheet.errors == []
    total = STEP_MS * len(STEPS)
    timeline = Timeline.from_durations([STEP_MS] * len(STEPS))
    for window in timeline.windows:
        name, length, timing = animation_of(sheet, f"{PREFIX}-f{window.index + 1}")
        assert (length, timing) == (total, "linear")
        stops = opacity_stops(sheet, name)
        shown = [ms for ms in range(0, total, 5) if value_at(stops, ms, total) > 1e-3]
        assert min(shown) == window.start + 5 and max(shown) == window.end - 5, window  # inside its window
        # 0 at both ends of the window, to within 0.1 ms of rounding in the percentages
        assert value_at(stops, window.start, total) < 1e-3 and value_at(stops, window.end, total) < 1e-3
        assert value_at(stops, (window.start + window.end) / 2, total) == 1


def test_two_steps_text_never_show_at_once():
    data = minimal_spec()
    data["scenarios"][0]["steps"] += [{"title": "Three", "duration": 334, "active": ["b1"]},
                                      {"title": "Four", "duration": 5000, "active": ["a0"]}]
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    sheet = stylesheet(root)
    steps = data["scenarios"][0]["steps"]
    total = sum(s["duration"] for s in steps)
    curves = [opacity_stops(sheet, animation_of(sheet, f"{TINY}-f{n}")[0]) for n in range(1, len(steps) + 1)]
    for ms in range(0, total + 1):
        assert sum(value_at(c, ms, total) > 1e-3 for c in curves) <= 1, ms


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


def test_highlights_are_half_way_at_each_step_boundary(animated):
    total = STEP_MS * len(STEPS)
    timeline = Timeline.from_durations([STEP_MS] * len(STEPS))
    curves = highlight_curves(animated, PREFIX)
    assert curves
    for steps, stops in curves:
        for window in timeline.windows:
            number = window.index + 1
            middle = (window.start + window.end) / 2
            assert value_at(stops, middle, total) == (1 if number in steps else 0), (steps, number)
            if window.index and (number in steps) != (number - 1 in steps):
                assert value_at(stops, window.start, total) == pytest.approx(0.5, abs=1e-3)
                # an ease, not a cut: intermediate just across the boundary
                assert 0 < value_at(stops, window.start + 20, total) < 1
                assert 0 < value_at(stops, window.start - 20, total) < 1


def test_eases_last_about_250_ms_and_never_more_than_a_third_of_the_shortest_step():
    assert Timeline.from_durations([3000, 2000]).ease_ms == EASE_MS == 250
    assert Timeline.from_durations([3000, 334]).ease_ms == 111
    data = minimal_spec()
    data["scenarios"][0]["steps"].append({"title": "Three", "duration": 334, "active": ["b1"]})
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    total = sum(s["duration"] for s in data["scenarios"][0]["steps"])
    for _, stops in highlight_curves(root, TINY):
        for (a, va), (b, vb) in zip(stops, stops[1:]):
            if va != vb:
                assert (b - a) * total / 100 == pytest.approx(111, abs=0.1)


def test_keyframes_keep_millisecond_precision_in_long_loops():
    """499 ten-minute steps and one of 334 ms: the short step's window must not shrink in rounding."""
    timeline = Timeline.from_durations([600000] * 499 + [334])
    window = timeline.windows[-1]
    stops = timeline.text_stops(window)
    start, end = float(stops[1][0].rstrip("%")), float(stops[-1][0].rstrip("%"))
    assert abs((end - start) / 100 * timeline.total - 334) < 0.1
    assert Timeline.from_durations([3000] * 7).text_stops(Timeline.from_durations([3000] * 7).windows[1]) == [
        ("0%", 0), ("14.2857%", 0), ("14.881%", 1), ("27.9762%", 1), ("28.5714%", 0), ("100%", 0)]


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
    name, _, timing = animation_of(sheet, f"{TINY}-dot")
    assert timing == "linear"
    assert [(o, d["offset-distance"]) for o, d in sheet.keyframes[name]] == [(0.0, "0%"), (100.0, "100%")]


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
    assert {f".{PREFIX}-poster", f".{PREFIX}-frame", f".{PREFIX}-hl", f".{PREFIX}-dot"} <= stopped, stopped
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
