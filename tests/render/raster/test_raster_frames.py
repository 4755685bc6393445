"""Stills per step (``--frames``): one SVG per step, frozen at that step, named with the step's title."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

from mechdiagram.layout import step_heading
from mechdiagram.render.outputs import render_outputs, selected
from mechdiagram.shared.locale import words_for
from mechdiagram.shared.model import spec_from_data
from support.specs import minimal_spec

SVG = "{http://www.w3.org/2000/svg}"


def _frames(data: dict) -> dict[str, bytes]:
    return render_outputs(spec_from_data(data), "tiny", [], selected({"frames"}))


def test_a_frame_per_step_carries_the_step_in_its_title_and_description():
    data = minimal_spec()
    files = _frames(data)
    scenario = spec_from_data(data).scenarios[0]
    names = sorted(name for name in files if ".frame-" in name)
    assert names == ["tiny.main.frame-1.svg", "tiny.main.frame-2.svg"]
    for k, step in enumerate(data["scenarios"][0]["steps"], start=1):
        root = ET.fromstring(files[f"tiny.main.frame-{k}.svg"])
        title = root.find(f"{SVG}title").text
        desc = root.find(f"{SVG}desc").text
        heading = step_heading(scenario, k - 1, words_for(data["language"]))
        assert title.startswith(data["title"]) and heading in title
        assert step["title"] in title
        assert desc.startswith(data["alt"]) and step["description"] in desc
        # the same accessible naming as the animated SVG
        assert root.get("role") == "img" and root.get("aria-labelledby") == root.find(f"{SVG}title").get("id")


def test_a_frame_is_frozen_at_its_step():
    files = _frames(minimal_spec())
    for k in (1, 2):
        text = files[f"tiny.main.frame-{k}.svg"].decode("utf-8")
        assert "@keyframes" not in text
        root = ET.fromstring(files[f"tiny.main.frame-{k}.svg"])
        # only step K's layer, shown by its attributes alone (no style sheet), and its highlights
        assert [e.get("data-mech-frame") for e in root.iter() if e.get("data-mech-frame")] == [str(k)]
        assert root.find(f"{SVG}defs") is None and not [e for e in root.iter() if e.get("visibility") == "hidden"]
        highlighted = [e for e in root.iter() if e.get("data-mech-steps")]
        assert highlighted and all(str(k) in e.get("data-mech-steps").split() for e in highlighted)
        # step K's state panel heading is drawn
        assert re.search(f"Step {k} of 2", "".join(root.itertext()))


def test_frames_are_off_by_default_and_the_poster_is_unchanged():
    data = minimal_spec()
    plain = render_outputs(spec_from_data(data), "tiny", [])
    assert not [name for name in plain if ".frame-" in name]
    assert plain["tiny.main.poster.svg"] == _frames(data)["tiny.main.poster.svg"]
    assert plain["tiny.main.svg"] == _frames(data)["tiny.main.svg"]


def test_author_text_in_a_step_title_is_escaped():
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["title"] = "<script>alert(1)</script> & more"
    text = _frames(data)["tiny.main.frame-1.svg"].decode("utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in text
