"""Without JavaScript the page still shows the figure (every scenario) and the whole transcript."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("slug", ["relay", "prefill-decode"])
def test_without_javascript_the_figure_and_transcript_show_and_the_controls_do_not(site, browser, slug):
    spec = site.specs[slug]
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(site.page(slug).as_uri())
        shown = page.evaluate("""() => {
          const visible = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
          return {
            svgs: [...document.querySelectorAll('.md-scene svg')].map(visible),
            steps: [...document.querySelectorAll('.md-transcript ol > li')].filter(visible).length,
            controls: visible(document.querySelector('.md-controls')),
            caption: visible(document.querySelector('figcaption')),
          };
        }""")
    finally:
        context.close()
    assert shown["svgs"] == [True] * len(spec["scenarios"])
    assert shown["steps"] == sum(len(s["steps"]) for s in spec["scenarios"])
    assert shown["caption"] and not shown["controls"]
