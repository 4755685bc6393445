"""axe-core (WCAG 2.0-2.2 A and AA, best practices, target-size): no violation on any page, in any state.

axe runs once per distinct page state: every figure in both schemes (its drawing, text and colours are its
own) in one player state, and the player's other states on one figure, since their chrome is the same on
every page; likewise the narrow layout and each language of the catalogue."""

from __future__ import annotations

import browser_support as bs
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCHEMES = ["light", "dark"]
STATES = ["playing", "paused", "reduced-motion"]

#: The figure that every other player state is checked on.
REFERENCE = "prefill-decode"

#: (figure, player state, scheme): each figure paused in both schemes, and the other states on one figure.
STANDALONE = ([(slug, "paused", scheme) for slug in bs.mechanism_slugs() + list(bs.GENERATED) for scheme in SCHEMES]
              + [(REFERENCE, state, scheme) for state in STATES if state != "paused" for scheme in SCHEMES])


def put_in_state(page, state: str, spec: dict | None = None) -> None:
    first = bs.figures(page).nth(0)
    if state == "paused":
        page.keyboard.press("Tab")  # focus entering the player stops it (APG carousel)
        if bs.active_tag(page) == "0/mech-canvas":  # a lane grid kept on a phone scrolls in its frame, a tab stop
            page.keyboard.press("Tab")
        assert bs.active_tag(page) == "0/mech-play"
    s = bs.state(page, 0)
    pause, play = (bs.say(spec, "pauseName"), bs.say(spec, "playName")) if spec else (bs.PAUSE_LABEL, bs.PLAY_LABEL)
    if state == "playing":
        assert s["label"] == pause and s["live"] == "off", s
    else:
        assert s["label"] == play and s["live"] == "polite", s
    assert first.locator(".mech-controls").is_visible()


@pytest.mark.parametrize(("slug", "state", "scheme"), STANDALONE)
def test_standalone_page_has_no_violations(site, open_page, check_axe, slug, state, scheme):
    page = open_page(site.page(slug), scheme=scheme, motion="reduce" if state == "reduced-motion" else "no-preference")
    put_in_state(page, state, site.specs[slug])
    check_axe(page, f"{slug}.html ({state}, {scheme})")


@pytest.mark.parametrize(("slug", "scheme"), [(slug, "light") for slug in bs.mechanism_slugs() + list(bs.GENERATED)]
                         + [(REFERENCE, "dark")])
def test_the_narrow_layout_has_no_violations(site, open_page, check_axe, slug, scheme):
    """On a phone, where the figure shows its narrow drawing and hides the wide one."""
    page = open_page(site.page(slug), scheme=scheme, viewport=(360, 800))
    assert bs.state(page)["shownLayout"] == "narrow"
    put_in_state(page, "paused", site.specs[slug])
    check_axe(page, f"{slug}.html at 360 px ({scheme})")


@pytest.mark.parametrize(("slug", "state"), [(slug, "paused") for slug in bs.LANGUAGES]
                         + [(next(iter(bs.LANGUAGES)), state) for state in STATES if state != "paused"])
def test_every_language_of_the_catalogue_has_no_violations(site, open_page, check_axe, slug, state):
    page = open_page(site.page(slug), motion="reduce" if state == "reduced-motion" else "no-preference")
    put_in_state(page, state, site.specs[slug])
    check_axe(page, f"{slug}.html ({state})")
    if state == "paused":  # and with a step chosen from the tablist
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")  # the scenario choice
        page.keyboard.press("Tab")
        assert bs.active_tag(page) == "0/mech-tab"
        page.keyboard.press("End")
        check_axe(page, f"{slug}.html (last step chosen)")


@pytest.mark.parametrize(("state", "scheme"), [("paused", "light"), ("playing", "dark")])
def test_page_with_repeated_fragments_has_no_violations(site, open_page, check_axe, state, scheme):
    """One fragment inlined twice plus another spec's fragment, in a plain host page."""
    page = open_page(site.multi, scheme=scheme)
    assert bs.figures(page).count() == 3
    put_in_state(page, state)
    check_axe(page, f"multi.html ({state}, {scheme})")
