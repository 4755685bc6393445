"""The fragment on someone else's page: it takes the page's colour scheme and changes nothing of the page."""

from __future__ import annotations

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIGHT_ONLY_BLOG = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A light-only blog</title>
<style>:root{{color-scheme:light}} body{{background:#fdf6e3;color:#3b3b3b;font-family:serif}}
figure{{background:#f5eedc}} h2{{color:#8b0000}} p.mine{{color:#3b3b3b}}</style></head>
<body><main><h1>My post</h1><p class="mine">Before the figure.</p>{fragment}<p class="mine">After.</p></main></body></html>
"""

STYLE_JS = """() => {
  const mine = [...document.querySelectorAll('h1, p.mine')].map(e => getComputedStyle(e).color + getComputedStyle(e).backgroundColor);
  const root = document.querySelector('.mech-root');
  const bg = root.querySelector('svg rect');
  return {mine, root: getComputedStyle(root).backgroundColor, svgBg: getComputedStyle(bg).fill,
          html: getComputedStyle(document.documentElement).colorScheme};
}"""


def test_a_light_only_page_keeps_a_light_figure_in_dark_mode_and_its_own_styles(site, open_page, tmp_path):
    first = site.mechanisms[0]
    page_path = site.out / "blog.html"  # beside the player's files, which the fragment names
    page_path.write_text(LIGHT_ONLY_BLOG.format(fragment=site.fragment(first)), "utf-8")
    without = tmp_path / "blog-without.html"
    without.write_text(LIGHT_ONLY_BLOG.format(fragment=""), "utf-8")
    for scheme in ("light", "dark"):
        page = open_page(page_path, scheme=scheme)
        styles = page.evaluate(STYLE_JS)
        assert styles["root"] == "rgb(255, 255, 255)", (scheme, styles)
        assert styles["svgBg"] == "rgb(255, 255, 255)", (scheme, styles)
        assert styles["html"] == "light"
        bare = open_page(without, scheme=scheme).evaluate(
            "() => [...document.querySelectorAll('h1, p.mine')].map(e => getComputedStyle(e).color + "
            "getComputedStyle(e).backgroundColor)")
        assert styles["mine"] == bare, "the fragment changed the page's own elements"


def test_a_page_that_supports_dark_mode_gets_a_dark_figure(site, open_page):
    page = open_page(site.multi, scheme="dark")
    styles = page.evaluate(STYLE_JS)
    assert styles["root"] == "rgb(13, 17, 23)" and styles["svgBg"] == "rgb(13, 17, 23)", styles


def test_each_figure_chooses_its_layout_by_its_own_width(site, open_page):
    """Two copies of one fragment on one wide screen, in a 300 px sidebar and a 1240 px column: the sidebar's
    shows the narrow layout, the other the wide one, each with text of 12 CSS px or more."""
    page = open_page(bs.columns_page(site, bs.LEAD), viewport=(1600, 900))
    figures = page.evaluate(bs.LAYOUTS_JS)
    assert [f["drawn"] for f in figures] == [["narrow"], ["wide"]], figures
    assert all(f["smallest"] >= 12 - 0.01 for f in figures), figures
    assert [f["current"] for f in figures] == ["visible", "visible"], figures  # the shared style sheet applies
