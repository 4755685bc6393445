"""Groups in chromium: the frame a group draws holds its members' boxes and no other box, its label is inside it
and clear of every box, as rendered (bounding boxes on the page), wide (1280 px) and narrow (360 px), in both
colour schemes; stepping to a step whose ``active`` names the group shows its highlight and only then."""

from __future__ import annotations

import json
from pathlib import Path

import browser_support as bs
import pytest

from support.topologies import with_graph

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The shown drawing's frames (rect and label boxes) and node boxes, in page px, and each highlight's state.
GEOMETRY_JS = r"""
root => {
  const inner = Array.from(root.querySelectorAll(".mech-scene:not([hidden]) .mech-canvas-inner")).find(
      i => i.getClientRects().length);
  const svg = inner.querySelector("svg");
  const prefix = svg.getAttribute("class");
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const layer = svg.querySelector("g." + prefix + "-groups");
  const frames = Array.from(layer.querySelectorAll("rect")).map(box);
  const labels = Array.from(layer.querySelectorAll("text")).map(box);
  const nodes = {};
  svg.querySelectorAll("g." + prefix + "-n").forEach(g => { nodes[g.id.split("-n-").pop()] = box(g.querySelector("rect")); });
  const lit = Array.from(svg.querySelectorAll("g." + prefix + "-hl")).filter(g => {
    const rect = g.querySelector("rect");
    return rect && rect.getAttribute("fill") === "none" && rect.getAttribute("stroke-width") === "3";
  }).map(g => { const s = getComputedStyle(g); return s.visibility === "visible" && Number(s.opacity) > 0.99; });
  return {layout: inner.classList.contains("mech-wide") ? "wide" : "narrow", frames, labels, nodes, lit};
}
"""


def spec() -> dict:
    data = with_graph({"browser": "Browser", "cdn": "CDN edge", "web": "Web server", "api": "API service",
                       "db": "Database"},
                      [("browser", "cdn", "GET /cart"), ("cdn", "web", "cache miss"), ("web", "api", "REST call"),
                       ("api", "db", "SELECT")])
    data["groups"] = {"frontend": {"label": "Frontend", "members": ["cdn", "web"]}}
    data["scenarios"][0]["steps"][1]["active"] = ["frontend"]
    return data


@pytest.fixture(scope="module")
def groups_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("groups")
    (root / "specs").mkdir()
    (root / "specs" / "webapp.mechanism.json").write_text(json.dumps(spec(), indent=2), "utf-8")
    bs.build([root / "specs"], root / "site")
    return root / "site"


def _inside(a, b, slack=0.5) -> bool:
    return b[0] - slack <= a[0] and b[1] - slack <= a[1] and a[2] <= b[2] + slack and a[3] <= b[3] + slack


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("width, layout", [(360, "narrow"), (1280, "wide")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_frame_holds_its_members_and_its_label_is_clear(groups_site, open_page, width, layout, scheme):
    page = open_page(groups_site / "webapp.html", viewport=(width, 900), scheme=scheme, clock=True)
    bs.figures(page).nth(0).locator(".mech-play").dispatch_event("click")  # pause: the test steps
    drawn = bs.figures(page).nth(0).evaluate(GEOMETRY_JS)
    assert drawn["layout"] == layout
    (frame,), (label,) = drawn["frames"], drawn["labels"]
    nodes = drawn["nodes"]
    members = {"t1", "t2"}  # cdn and web: the ids with_graph gives
    for node_id, rect in nodes.items():
        assert _inside(rect, frame) if node_id in members else not _meet(rect, frame), (node_id, rect, frame)
    assert _inside(label, frame) and not any(_meet(label, rect) for rect in nodes.values())
    assert drawn["lit"] == [False]  # step 1: the group is not active
    bs.figures(page).nth(0).locator(".mech-next").dispatch_event("click")
    page.clock.run_for(2000)
    assert bs.step_of(page) == 2
    assert bs.figures(page).nth(0).evaluate(GEOMETRY_JS)["lit"] == [True]
    assert page.opened.errors == []
