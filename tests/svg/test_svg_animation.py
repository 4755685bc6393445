"""The SVG's animation is CSS only: one ``@keyframes`` per step whose visible window matches the
step's start and duration in the timeline, a reduced-motion rule that shows the poster, and a poster
file that is still.  Asserted on the parsed style sheet (:mod:`support.css`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from renderer.svg import prefix_for
from renderer.timeline import Timeline
from support.css import Rule, Stylesheet, words
from support.outputs import render as outputs
from support.reference_spec import STEP_MS, STEPS
from support.specs import minimal_spec
from support.svg import stylesheet, text_of, with_class

PREFIX = prefix_for("ref", "one-request")
TINY = prefix_for("tiny", "main")


def frame_number(name: str) -> int | None:
    """``n`` for the class of frame ``n`` (``<prefix>-f<n>``), else None."""
    head, _, number = name.rpartition("-f")
    return int(number) if head and number.isdigit() else None


def frame_animations(sheet: Stylesheet) -> list[tuple[int, Rule]]:
    """(frame number, rule) of every top-level rule for one frame class that sets ``animation``."""
    found = []
    for rule in sheet.rules:
        if (rule.at is None and len(rule.classes) == 1 and rule.selector == "." + rule.classes[0]
                and frame_number(rule.classes[0]) is not None and "animation" in rule.declarations):
            found.append((frame_number(rule.classes[0]), rule))
    return found


def visibility_stops(sheet: Stylesheet, name: str) -> list[tuple[float, str]]:
    """The (percent, visibility) stops of ``@keyframes name``; each stop sets visibility and nothing else."""
    stops = sheet.keyframes[name]
    assert all(set(declarations) == {"visibility"} for _, declarations in stops), stops
    return [(offset, declarations["visibility"]) for offset, declarations in stops]


# --- keyframe windows ------------------------------------------------------------------------------

def test_keyframe_windows_match_the_step_durations(animated):
    sheet = stylesheet(animated)
    assert sheet.errors == []
    durations = [STEP_MS] * len(STEPS)
    total = sum(durations)
    assert total == 21000
    animations = frame_animations(sheet)
    assert [number for number, _ in animations] == list(range(1, 8))
    start = 0
    for (number, rule), duration in zip(animations, durations):
        assert list(rule.declarations) == ["animation"], rule  # the rule's only declaration
        name, length, timing, count = words(rule.declarations["animation"])
        assert (length, timing, count) == (f"{total}ms", "step-end", "infinite"), rule
        stops = visibility_stops(sheet, name)
        visible = [pct for pct, vis in stops if vis == "visible"]
        hidden_after = [pct for pct, vis in stops if vis == "hidden" and pct > visible[0]]
        assert round(visible[0] * total / 100) == start, (number, stops)
        end = round(hidden_after[0] * total / 100) if hidden_after else round(stops[-1][0] * total / 100)
        assert end == start + duration, (number, stops)
        if start > 0:
            assert stops[0] == (0.0, "hidden")
        start += duration
    assert start == total


def test_keyframe_windows_for_unequal_durations():
    data = minimal_spec()
    data["scenarios"][0]["steps"].append({"title": "Three", "duration": 334, "active": ["b1"]})
    data["scenarios"][0]["steps"][0]["duration"] = 7000
    root = ET.fromstring(outputs(data, "tiny")["tiny.main.svg"])
    sheet = stylesheet(root)
    timeline = Timeline.from_durations([7000, 2000, 334])
    assert timeline.total == 9334
    lengths = {words(value)[1] for value in sheet.values("animation")
               if words(value)[0].startswith(TINY + "-k") and words(value)[0][len(TINY) + 2:].isdigit()}
    assert lengths == {"9334ms"}
    for window in timeline.windows:
        stops = visibility_stops(sheet, f"{TINY}-k{window.index + 1}")
        shown = [pct for pct, vis in stops if vis == "visible"][0]
        assert abs(shown * 9334 / 100 - window.start) < 0.01
        after = [pct for pct, vis in stops if vis == "hidden" and pct > shown]
        end = after[0] * 9334 / 100 if after else 9334
        assert abs(end - window.end) < 0.01


def test_keyframes_keep_millisecond_precision_in_long_loops():
    """499 ten-minute steps and one of 334 ms: the short step's window must not shrink in rounding."""
    timeline = Timeline.from_durations([600000] * 499 + [334])
    window = timeline.windows[-1]
    (_, _), (start, _), (end, _) = timeline.keyframe_stops(window)
    shown_ms = (float(end.rstrip("%")) - float(start.rstrip("%"))) / 100 * timeline.total
    assert abs(shown_ms - 334) < 0.1
    assert Timeline.from_durations([3000] * 7).keyframe_stops(Timeline.from_durations([3000] * 7).windows[1]) == [
        ("0%", False), ("14.2857%", True), ("28.5714%", False)]


# --- reduced motion and the poster -------------------------------------------------------------------

def test_reduced_motion_shows_the_poster(animated):
    sheet = stylesheet(animated)
    reduced = sheet.media_rules("(prefers-reduced-motion: reduce)")
    assert reduced, sheet.media
    assert any(rule.selector == f".{PREFIX}-poster" and rule.declarations == {"visibility": "visible"}
               for rule in reduced), reduced
    assert any(rule.selector == f".{PREFIX}-frame" and rule.declarations == {"animation": "none"}
               for rule in reduced), reduced
    # the poster frame is never animated, so it shows only through this rule (or as the poster file)
    assert not [rule for rule in sheet.rules if f"{PREFIX}-f0" in rule.classes and "animation" in rule.declarations]


def test_the_poster_file_is_still(poster, reference_outputs):
    data = reference_outputs["ref.one-request.poster.svg"]
    assert b"@keyframes" not in data
    sheet = stylesheet(poster)
    assert sheet.errors == []
    assert sheet.keyframes == {} and "keyframes" not in sheet.at_rules
    assert not [rule for rule in sheet.rules if "animation" in rule.declarations
                and any(frame_number(name) is not None for name in rule.classes)]
    frames = with_class(poster, f"{PREFIX}-frame")
    assert [f.get("data-md-frame") for f in frames] == ["0"]
    assert any(rule.selector == f".{PREFIX}-f0" and rule.declarations == {"visibility": "visible"}
               for rule in sheet.rules)
    poster_text = text_of(frames[0])
    assert "Not admitted" in poster_text and "The prompt" in poster_text  # the initial state
