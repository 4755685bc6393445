"""Styling without forking: a page's own CSS overrides the figure's documented custom properties, the
player's and the drawing's, wherever its style sheet comes."""

from __future__ import annotations

import pytest

from mechdiagram.render import theme

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The page's rule comes first, before the fragment's own style sheet.
RESTYLED = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A restyled figure</title>
<style>:root{{color-scheme:light}}
.mech-root, .mech-root svg {{--mech-ui-accent:#6b2d86; --mech-ui-radius:0px; --mech-ui-max-width:40rem;
  --mech-active-fill:#6b2d86; --mech-active-stroke:#6b2d86; --mech-bg:#fffaf0; --mech-font:serif}}</style></head>
<body><main><h1>Restyled</h1>{fragment}</main></body></html>
"""

STYLE_JS = """() => {
  const root = document.querySelector('.mech-root');
  const svg = root.querySelector('svg');
  const prefix = svg.getAttribute('class').split(' ')[0];
  return {
    play: getComputedStyle(root.querySelector('.mech-play')).borderTopColor,
    radius: getComputedStyle(root).borderTopLeftRadius,
    maxWidth: getComputedStyle(root).maxWidth,
    background: getComputedStyle(svg.querySelector('.' + prefix + '-bg')).fill,
    font: getComputedStyle(svg).fontFamily,
    activeFill: getComputedStyle(svg).getPropertyValue('--mech-active-fill').trim(),
    text: getComputedStyle(svg).getPropertyValue('--mech-text').trim(),
  };
}"""


def _rgb(colour: str) -> str:
    """``#rrggbb`` as getComputedStyle writes it."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def test_page_css_overrides_the_documented_custom_properties(site, open_page, tmp_path):
    page_path = site.out / "restyled.html"  # beside the player's files, which the fragment names
    page_path.write_text(RESTYLED.format(fragment=site.fragment(site.mechanisms[0])), "utf-8")
    styles = open_page(page_path).evaluate(STYLE_JS)
    assert styles["play"] == "rgb(107, 45, 134)", styles
    assert styles["radius"] == "0px" and styles["maxWidth"] == "640px", styles
    assert styles["background"] == "rgb(255, 250, 240)", styles
    assert styles["font"] == "serif" and styles["activeFill"] == "#6b2d86", styles
    # What the page leaves alone keeps its default (where light-dark() exists, as a light-dark() pair).
    assert styles["text"] == f"light-dark({theme.LIGHT.text},{theme.DARK.text})"


def test_without_overrides_the_defaults_apply(site, open_page, tmp_path):
    page_path = site.out / "plain.html"
    page_path.write_text(RESTYLED.format(fragment=site.fragment(site.mechanisms[0])).split("<style>")[0]
                         + "</head><body>" + site.fragment(site.mechanisms[0]) + "</body></html>", "utf-8")
    styles = open_page(page_path).evaluate(STYLE_JS)
    assert styles["radius"] == "8px" and styles["maxWidth"] == "1280px", styles
    assert styles["activeFill"] == f"light-dark({theme.LIGHT.active_fill},{theme.DARK.active_fill})", styles
    assert styles["play"] == _rgb(theme.LIGHT.active_stroke) and styles["background"] == _rgb(theme.LIGHT.bg), styles
    assert styles["font"].startswith('"DejaVu Sans"'), styles
