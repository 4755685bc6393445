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
