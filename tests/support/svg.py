"""SVG is XML: lookups on its ElementTree, and its one style sheet parsed (see :mod:`support.css`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from support.css import Stylesheet, parse_css

SVG_NS = "{http://www.w3.org/2000/svg}"


def local(tag: str) -> str:
    """The tag or attribute name without its ``{namespace}``."""
    return tag.rsplit("}", 1)[-1]


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def value_y(value: ET.Element) -> str | None:
    """The baseline of a state panel value: its text's, or for a value the step changes (a group of the changed
    mark and the text) its text's."""
    text = value if local(value.tag) == "text" else value.find(f"{SVG_NS}text")
    return None if text is None else text.get("y") or next(
        (t.get("y") for t in text.iter(f"{SVG_NS}tspan") if t.get("y")), None)


def value_changed(value: ET.Element) -> bool:
    """Whether a state panel value carries the changed mark (a value the step changes)."""
    return any((p.get("class") or "").endswith("-pmark") for p in value.iter(f"{SVG_NS}path"))


def words(element: ET.Element) -> str:
    """The element's text with its lines (tspans) joined by single spaces."""
    return " ".join(" ".join(element.itertext()).split())


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def style_text(root: ET.Element) -> str:
    """The text of the SVG's only ``<style>`` element."""
    styles = root.findall(f".//{SVG_NS}style")
    assert len(styles) == 1
    return styles[0].text or ""


def stylesheet(root: ET.Element) -> Stylesheet:
    """The SVG's only style sheet, parsed."""
    return parse_css(style_text(root))
