"""Text is never markup in the SVG: with hostile text in every field of a spec (:mod:`support.hostile`),
each SVG parses as XML, holds exactly the elements and attributes that a spec with plain text gives,
and gives the hostile text back intact as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from support.hostile import LONG, PROBES, SHORT, SVG_FILES
from support.svg import SVG_NS, style_text


def svg_inventory(root: ET.Element) -> Counter:
    """Elements and their attribute names.  A label's line count varies with its length, so tspan
    elements and the x/y a one-line text carries itself are set aside (checked separately)."""
    counts: Counter = Counter()
    for element in root.iter():
        if element.tag == SVG_NS + "tspan":
            continue
        names = set(element.attrib) - ({"x", "y"} if element.tag == SVG_NS + "text" else set())
        counts[(element.tag, frozenset(names))] += 1
    return counts


@pytest.mark.parametrize("name", SVG_FILES)
def test_svg_is_xml_with_only_our_elements(hostile_outputs, name):
    hostile, plain = hostile_outputs
    root = ET.parse(hostile / f"spec.{name}").getroot()
    reference = ET.parse(plain / f"spec.{name}").getroot()
    assert svg_inventory(root) == svg_inventory(reference)
    tags = {element.tag for element in root.iter()}
    assert SVG_NS + "script" not in tags and SVG_NS + "foreignObject" not in tags
    assert tags <= {element.tag for element in reference.iter()}
    assert [e for e in root.iter() if any(a.startswith("on") for a in e.attrib)] == []
    assert len(root.findall(f".//{SVG_NS}style")) == (0 if name.endswith("poster.svg") else 1)


@pytest.mark.parametrize("name", SVG_FILES)
def test_svg_text_comes_back_verbatim(hostile_outputs, name):
    hostile, _ = hostile_outputs
    root = ET.parse(hostile / f"spec.{name}").getroot()
    assert root.find(f"{SVG_NS}title").text == SHORT
    assert root.find(f"{SVG_NS}desc").text == LONG
    text = "".join(root.itertext())
    for probe in PROBES:
        assert probe in text, probe
    if name.endswith("poster.svg"):
        return  # a still has no style sheet
    style = style_text(root)
    assert "alert" not in style and "script" not in style and "W" * 50 not in style
