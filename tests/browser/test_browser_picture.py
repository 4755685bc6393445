"""The README's ``<picture>`` embed, taken from the README itself, on a 360 px phone and a 1280 px
screen (a GitHub README column: at most 830 px, with 16 px padding), light and dark, for every
figure of ``mechanisms/``: the browser picks the dark file under a dark scheme, and no SVG text
renders below 12 CSS px."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mechdiagram.layout.sizes import TRANSPOSED_MAX_WIDTH

pytestmark = pytest.mark.slow

README = Path(__file__).resolve().parents[2] / "README.md"

#: The smallest text in a drawing, in user units (path labels), and the least a reader sees, in CSS px.
from mechdiagram.layout.sizes import MIN_TEXT_PX, PATH_LABEL_SIZE  # noqa: E402


def readme_picture() -> str:
    """The ``<picture>`` element of the README's embed example."""
    found = re.search(r"(?m)^<picture>$.*?^</picture>$", README.read_text("utf-8"), re.S)
    assert found, "README has no <picture> example"
    return found.group(0)


def page_for(site, slug: str, scenario: str) -> Path:
    picture = readme_picture().replace("prefill-decode.one-request", f"{slug}.{scenario}")
    # A GitHub README column: at most 830 px, 16 px of padding each side of the content.
    html = ("<!doctype html><html lang=en><meta name=viewport content='width=device-width'>"
            "<title>README embed</title><style>body{margin:0 auto;padding:0 16px;max-width:830px}"
            "img{max-width:100%}</style>"
            f"<main>{picture}</main></html>")
    path = site.out / f"readme-{slug}.{scenario}.html"
    path.write_text(html, "utf-8")
    return path


@pytest.mark.parametrize("viewport", [360, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_readme_picture_keeps_text_readable(site, open_page, viewport, scheme):
    checked = 0
    for slug in site.mechanisms:
        for scenario in site.specs[slug]["scenarios"]:
            page = open_page(page_for(site, slug, scenario["id"]), scheme=scheme, viewport=(viewport, 800))
            img = page.locator("img")
            page.wait_for_function("() => document.querySelector('img').complete")
            chosen, shown, natural = img.evaluate("i => [i.currentSrc, i.getBoundingClientRect().width, i.naturalWidth]")
            name = chosen.rsplit("/", 1)[-1]
            expected = f"{slug}.{scenario['id']}.narrow{'.dark' if scheme == 'dark' else ''}.svg"
            assert name == expected, (name, expected)
            smallest = PATH_LABEL_SIZE * shown / natural
            if natural <= TRANSPOSED_MAX_WIDTH:  # a lane grid kept on a phone (issue 26) is its wide grid, which
                # an <img> shrinks (the HTML figure scrolls it): known, in the README's "A grid on a phone"
                assert smallest >= MIN_TEXT_PX, f"{name}: smallest text {smallest:.1f} px at {viewport} px"
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport
            checked += 1
    assert checked


def test_no_page_scrolls_sideways_at_320_px(site, open_page):
    """WCAG 2.2 SC 1.4.10 Reflow: every figure's page fits a 320 CSS px viewport; a figure wider than that
    scrolls inside its own frame, never the page."""
    for slug in site.mechanisms:
        page = open_page(site.page(slug), viewport=(320, 800))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 320, slug
