"""The sequence view in chromium: the HTML player steps through a sequence, showing each row from its own step on
(emphasised in it, muted after it) and none before; at a 360 px phone the narrow drawing fits its column with no
text under 12 CSS px; at 1280 px the wide one is shown at its natural width, at most 900 px."""

from __future__ import annotations

import json
from pathlib import Path

import browser_support as bs
import pytest

from support.sequences import oauth_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Per layout shown: each row layer's kind and step number, and whether it is drawn (visibility, opacity).
ROWS_JS = r"""
root => Array.from(root.querySelectorAll(".mech-scene:not([hidden]) .mech-canvas-inner")).filter(
    inner => inner.getClientRects().length).map(inner => {
  const svg = inner.querySelector("svg");
  const prefix = svg.getAttribute("class");
  return Array.from(svg.querySelectorAll("g." + prefix + "-row[data-mech-steps]")).map(g => {
    const style = getComputedStyle(g);
    return {mode: g.classList.contains(prefix + "-row-current") ? "current" : "earlier",
            steps: g.getAttribute("data-mech-steps").split(" ").map(Number),
            shown: style.visibility === "visible" && Number(style.opacity) > 0.99};
  });
})
"""

#: The shown drawing's width on the page, its natural width (viewBox), the smallest font size of its text on
#: the page (CSS px, after scaling) and whether its frame scrolls sideways.
SIZE_JS = r"""
root => {
  const inner = Array.from(root.querySelectorAll(".mech-scene:not([hidden]) .mech-canvas-inner")).find(
      i => i.getClientRects().length);
  const svg = inner.querySelector("svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = Array.from(svg.querySelectorAll("text")).filter(t => t.getClientRects().length).map(
      t => parseFloat(getComputedStyle(t).fontSize) * scale);
  const canvas = inner.closest(".mech-canvas");
  return {layout: inner.classList.contains("mech-wide") ? "wide" : "narrow", shown: svg.getBoundingClientRect().width,
          natural: svg.viewBox.baseVal.width, smallest: Math.min(...sizes),
          scrolls: canvas.scrollWidth > canvas.clientWidth + 1};
}
"""


@pytest.fixture(scope="module")
def sequence_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("sequence")
    (root / "specs").mkdir()
    (root / "specs" / "oauth.mechanism.json").write_text(json.dumps(oauth_spec(), indent=2), "utf-8")
    bs.build([root / "specs"], root / "site")
    return root / "site"


def test_the_player_steps_through_a_sequence_row_by_row(sequence_site, open_page):
    page = open_page(sequence_site / "oauth.html", clock=True)
    count = len(oauth_spec()["scenarios"][0]["steps"])
    bs.figures(page).nth(0).locator(".mech-play").dispatch_event("click")  # pause: the test steps
    for step in range(1, count + 1):
        assert bs.step_of(page) == step
        (rows,) = bs.figures(page).nth(0).evaluate(ROWS_JS)
        shown = sorted((row["mode"], min(row["steps"])) for row in rows if row["shown"])
        # Its own row emphasised; each earlier row muted (its muted layer shows from the step after it); none later.
        assert shown == sorted([("current", step)] + [("earlier", k + 1) for k in range(1, step)]), (step, shown)
        if step < count:
            bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
    bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")  # round to the first step again
    assert bs.step_of(page) == 1
    assert page.opened.errors == []


@pytest.mark.parametrize("width, layout", [(360, "narrow"), (1280, "wide")])
def test_the_sequence_keeps_its_text_at_12_px_without_scrolling(sequence_site, open_page, width, layout):
    page = open_page(sequence_site / "oauth.html", viewport=(width, 900), motion="reduce")
    size = bs.figures(page).nth(0).evaluate(SIZE_JS)
    assert size["layout"] == layout, size
    assert size["smallest"] >= 12 - 0.01 and not size["scrolls"], size
    if layout == "wide":
        assert size["shown"] == pytest.approx(size["natural"], abs=0.5) and size["natural"] <= 900, size
