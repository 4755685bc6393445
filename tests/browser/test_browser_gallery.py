"""The gallery page, ``index.html``, in chromium: axe 0 violations in both schemes, every link reached by Tab
with a visible focus ring, posters shown, no sideways scroll at 360 px and thumbnails readable there, contrast of
its text and links."""

from __future__ import annotations

import pytest

from . import browser_support as bs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCHEMES = ["light", "dark"]


def _index(site):
    path = site.out / "index.html"
    assert path.is_file(), "the site build (a folder of specs) writes index.html"
    return path


@pytest.mark.parametrize("scheme", SCHEMES)
def test_gallery_has_no_axe_violations(site, open_page, check_axe, scheme):
    page = open_page(_index(site), scheme=scheme)
    check_axe(page, f"index.html ({scheme})")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_gallery_lists_every_figure_with_a_loaded_poster(site, open_page, scheme):
    page = open_page(_index(site), scheme=scheme)
    titles = page.eval_on_selector_all("article h2", "hs => hs.map(h => h.textContent)")
    # one article per spec the site built (site.specs: ours, the generated ones and the right-to-left one)
    assert sorted(titles) == sorted(spec["title"] for spec in site.specs.values())
    posters = page.eval_on_selector_all(
        "article img", "imgs => imgs.filter(i => i.checkVisibility())"
                       ".map(i => ({alt: i.alt, ok: i.complete && i.naturalWidth > 0, src: i.currentSrc}))")
    assert len(posters) == len(titles) and all(p["ok"] and p["alt"] for p in posters), posters
    # the wide poster (a card on a desktop screen), in the reader's colours
    assert all(p["src"].endswith(".poster.dark.svg" if scheme == "dark" else ".poster.svg")
               and ".narrow." not in p["src"] for p in posters), posters
    assert not page.opened.errors and not page.opened.requests


@pytest.mark.parametrize("scheme", SCHEMES)
def test_gallery_text_and_links_meet_contrast(site, open_page, scheme):
    page = open_page(_index(site), scheme=scheme)
    pairs = page.evaluate("""() => Array.from(document.querySelectorAll('h1, article p, article a')).map(e => {
        let node = e, bg = 'rgba(0, 0, 0, 0)';
        while (node && (bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) {
          bg = getComputedStyle(node).backgroundColor; node = node.parentElement; }
        return {fg: getComputedStyle(e).color, bg, text: e.textContent.slice(0, 30)}; })""")
    assert pairs
    for pair in pairs:
        ratio = bs.contrast(bs.parse_colour(pair["fg"]), bs.parse_colour(pair["bg"]))
        assert ratio >= 4.5, (scheme, pair, ratio)


def test_gallery_keyboard_walk_reaches_every_link_with_a_visible_focus(site, open_page):
    """Tab goes through each figure's title link and its closed file list's summary; Enter on a summary opens
    the list, whose links Tab then reaches; every stop shows a 3 px focus ring."""
    page = open_page(_index(site))
    stops = "article h2 a, article summary"
    expected = page.eval_on_selector_all(stops, "es => es.map(e => e.textContent)")
    visible_links = page.eval_on_selector_all("a", "as => as.filter(a => a.checkVisibility()).length")
    assert visible_links == len(page.eval_on_selector_all("article h2 a", "as => as"))  # file links are folded away

    def focused() -> dict:
        return page.evaluate("""() => { const e = document.activeElement, s = getComputedStyle(e);
            return {tag: e.tagName, text: e.textContent, outline: s.outlineStyle, width: s.outlineWidth}; }""")

    seen = []
    for _ in expected:
        page.keyboard.press("Tab")
        facts = focused()
        assert facts["tag"] in ("A", "SUMMARY") and facts["outline"] == "solid" and facts["width"] == "3px", facts
        seen.append(facts["text"])
    assert seen == expected  # every title link and summary once, in document order
    assert focused()["tag"] == "SUMMARY"  # the last figure's
    page.keyboard.press("Enter")
    files = page.eval_on_selector_all(".mech-card:last-child details a", "as => as.map(a => a.textContent)")
    assert files and page.evaluate("document.querySelector('.mech-card:last-child details').open")
    for name in files:
        page.keyboard.press("Tab")
        facts = focused()
        assert facts["tag"] == "A" and facts["text"] == name and facts["outline"] == "solid", facts


@pytest.mark.parametrize("scheme", SCHEMES)
def test_gallery_reflows_at_360_px(site, open_page, scheme):
    page = open_page(_index(site), scheme=scheme, viewport=(360, 800))
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"index.html scrolls sideways by {overflow}px at 360px"
    widths = page.eval_on_selector_all("article img", "imgs => imgs.map(i => i.getBoundingClientRect().right)")
    assert widths and max(widths) <= 360


@pytest.mark.parametrize("scheme", SCHEMES)
def test_gallery_thumbnails_are_readable_on_a_phone(site, open_page, scheme):
    """At 360 px each card shows the poster whose smallest text (13 user units) renders at 12 CSS px or more: the
    narrow layout's poster, cropped at the top, where the wide one's text would be smaller; one thumbnail a card."""
    page = open_page(_index(site), scheme=scheme, viewport=(360, 800))
    shown = page.evaluate("""async () => {
        const cards = [...document.querySelectorAll('.mech-card')], out = [];
        for (const card of cards) {
          const imgs = [...card.querySelectorAll('img')].filter(i => i.checkVisibility());
          for (const img of imgs) { img.scrollIntoView(); await img.decode().catch(() => {}); }
          // object-fit "none": the picture at its own size, cropped to the image's box
          out.push(imgs.map(i => ({src: i.currentSrc.split('/').pop(), natural: i.naturalWidth,
                                   shown: getComputedStyle(i).objectFit === "none" ? i.naturalWidth
                                     : i.getBoundingClientRect().width, right: i.getBoundingClientRect().right})));
        }
        return out; }""")
    assert len(shown) == len(site.specs) and all(len(card) == 1 for card in shown), shown
    for (img,) in shown:
        assert img["natural"] > 0, img
        assert 13 * img["shown"] / img["natural"] >= 12, img  # SMALLEST_TEXT at MIN_TEXT_PX or more
        assert img["right"] <= 360, img
        assert img["src"].endswith(".dark.svg") == (scheme == "dark"), img
    # the gallery's figures are wider than a phone: their cards show the narrow posters
    assert sum(".narrow.poster." in img["src"] for (img,) in shown) >= len(shown) - 2, shown
