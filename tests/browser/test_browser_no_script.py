"""Without JavaScript the page still shows the figure (every scenario, in the layout its width calls for: the
style sheet chooses it) and the whole transcript."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("slug", ["relay", "prefill-decode"])
def test_without_javascript_the_figure_and_transcript_show_and_the_controls_do_not(site, browser, slug, width):
    spec = site.specs[slug]
    context = browser.new_context(java_script_enabled=False, viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(site.page(slug).as_uri())
        shown = page.evaluate("""() => {
          const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
          return {
            svgs: [...document.querySelectorAll('.mech-scene svg[role=img]')].map(visible),
            names: [...document.querySelectorAll('.mech-scene svg[role=img]')]
              .map(s => [...s.closest('.mech-canvas-inner').classList].find(c => c !== 'mech-canvas-inner')),
            layouts: [...document.querySelectorAll('.mech-scene svg[role=img]')].filter(visible)
              .map(s => s.closest('.mech-canvas-inner').classList.contains('mech-narrow') ? 'narrow' : 'wide'),
            moving: [...document.querySelectorAll('.mech-scene svg[role=img]')].filter(visible)
              .map(s => s.getAnimations({subtree: true}).length > 0),
            steps: [...document.querySelectorAll('.mech-transcript ol > li')].filter(visible).length,
            controls: visible(document.querySelector('.mech-controls')),
            caption: visible(document.querySelector('figcaption')),
          };
        }""")
    finally:
        context.close()
    # each scenario in one layout of two (a lane grid's of three): the wide one on a wide screen, the narrow one on
    # a phone
    assert shown["svgs"] == [name == ("mech-wide" if width == 1280 else "mech-narrow") for name in shown["names"]]
    assert shown["names"].count("mech-wide") == shown["names"].count("mech-narrow") == len(spec["scenarios"])
    assert shown["layouts"] == ["wide" if width == 1280 else "narrow"] * len(spec["scenarios"])
    assert shown["moving"] == [True] * len(spec["scenarios"])  # its own keyframes animate it, with no player
    assert shown["steps"] == sum(len(s["steps"]) for s in spec["scenarios"])
    assert shown["caption"] and not shown["controls"]
