"""A step's ``labels`` and the panel's changed mark in the HTML player (chromium): the box shows the text of the
step the player is at, one text at a time, and the panel marks the rows that step changes, only then; the live
text says the new label and the changed row."""

from __future__ import annotations

import browser_support as bs
import pytest

from support.outputs import render
from support.specs import minimal_spec

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = "first, now holding four pages"

#: The shown drawing's visible box labels, path labels and changed (marked) panel values.
SHOWN_JS = r"""
root => {
  const svg = Array.from(root.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const P = svg.getAttribute("class").split(/\s+/)[0];
  const visible = el => getComputedStyle(el).visibility === "visible" && getComputedStyle(el).display !== "none";
  const words = el => (el.children.length ? Array.from(el.children, c => c.textContent).join(" ") : el.textContent)
    .replace(/\s+/g, " ").trim();
  return {
    labels: Array.from(svg.querySelectorAll("." + P + "-label")).filter(visible).map(words).sort(),
    plabels: Array.from(svg.querySelectorAll("." + P + "-plabel")).filter(visible).map(words).sort(),
    marked: Array.from(svg.querySelectorAll("." + P + "-pmark")).filter(visible)
      .map(m => words(m.nextElementSibling)).sort(),
    status: root.querySelector(".mech-status").textContent.replace(/[\u2068\u2069]/g, ""),
  };
}
"""


def spec() -> dict:
    data = minimal_spec()
    data["stateLabels"]["owner"] = "Owner"
    scenario = data["scenarios"][0]
    scenario["initial"]["owner"] = "nobody"
    scenario["steps"].append({"title": "Three", "duration": 1000, "active": ["a0"], "paths": ["ab"],
                              "state": {"owner": "the worker"}, "labels": {"a0": LONG, "ab": "flow, twice"}})
    return data


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    folder = tmp_path_factory.mktemp("labels-player")
    for name, content in render(spec(), "labels").items():
        (folder / name).write_bytes(content)
    return folder / "labels.html"


@pytest.mark.parametrize("width", [1280, 360])
def test_the_player_shows_the_new_label_and_marks_the_changed_rows_at_their_step(open_page, page_path, width):
    page = open_page(page_path, clock=True, viewport=(width, 900))
    figure = bs.figures(page).nth(0)
    seen = []
    for _ in range(3):
        seen.append(figure.evaluate(SHOWN_JS))
        figure.locator(".mech-next").dispatch_event("click")
    one, two, three = seen
    others = ["fourth", "second", "third"]
    assert one["labels"] == ["first", *others] == two["labels"]
    assert three["labels"] == sorted([LONG, *others])  # one text for the box, the step's
    assert one["plabels"] == two["plabels"] == ["flow"] and three["plabels"] == ["flow, twice"]
    # each step marks the rows it changes, and only those
    assert one["marked"] == ["one"] and two["marked"] == ["two"] and three["marked"] == ["the worker"]
    assert "first now reads: " + LONG in three["status"] and "Owner: the worker (changed)." in three["status"]
    assert "Owner: nobody." in two["status"] and "(changed)" not in two["status"].split("Owner")[1]
    assert not page.opened.errors
