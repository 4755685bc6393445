"""A grid stays a grid on a phone (issue 26), in chromium at 360 and 768 px: the five-stage pipeline of
tests/data, whose lanes fit a phone, shows its transposed narrow drawing (every stage of one cycle on one row,
IF to WB left to right, its frame not scrolling, no text under 12 CSS px); a generated grid whose lanes do not fit
keeps its grid, which scrolls in its frame with the lane names held at the frame's left edge while scrolled."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mechdiagram.layout.sizes import MIN_TEXT_PX
from support.grids import grid_spec

from . import browser_support as bs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIPELINE = Path(__file__).resolve().parents[1] / "data" / "cpu-pipeline.mechanism.json"

#: In page (argument: the figure's root): the drawn layout's name, its smallest rendered text in CSS px, its
#: frame's scroll and client widths, the rendered boxes of the node groups (ids ending "-n-<id>") and, after
#: scrolling the frame to its far right, the lane-name strip's box and its names' boxes beside the frame's.
FACTS_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const canvas = scene.querySelector("[data-mech-canvas]");
  const drawn = Array.from(scene.querySelectorAll(".mech-canvas-inner")).filter(b => b.getClientRects().length)[0];
  const svg = drawn.querySelector("svg[role=img]");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const style = getComputedStyle(text);
    if (!text.getClientRects().length || style.visibility === "hidden") continue;
    smallest = Math.min(smallest, parseFloat(style.fontSize) * scale);
  }
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const nodes = {};
  for (const g of svg.querySelectorAll("g[id]")) {
    const match = g.id.match(/-n-(.+)$/);
    if (match) nodes[match[1]] = box(g.querySelector("rect"));
  }
  const facts = {layout: Array.from(drawn.classList).find(c => c !== "mech-canvas-inner").replace(/^mech-/, ""),
                 smallest, nodes,
                 scrollWidth: canvas.scrollWidth, clientWidth: canvas.clientWidth, frame: box(canvas)};
  const strip = drawn.querySelector(".mech-lane-names");
  if (strip) {
    canvas.scrollLeft = canvas.scrollWidth;
    facts.scrolled = canvas.scrollLeft;
    facts.strip = box(strip);
    facts.names = Array.from(strip.querySelectorAll("text")).map(t => ({text: t.textContent, box: box(t)}));
    const [x, y, w, h] = facts.names.length ? facts.names[0].box : [0, 0, 0, 0];
    strip.style.pointerEvents = "auto";  /* the strip lets the pointer through: for this probe only, not */
    const hit = document.elementFromPoint(x + w / 2, y + h / 2);
    strip.style.pointerEvents = "";
    facts.onTop = !!hit && strip.contains(hit);
    canvas.scrollLeft = 0;
  }
  return facts;
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    root = tmp_path_factory.mktemp("gridphone")
    specs = root / "specs"
    specs.mkdir()
    shutil.copy(PIPELINE, specs / "pipeline.mechanism.json")
    wide = grid_spec(4, 10, seed=3)  # long labels ("detokenize the piece"): its lanes do not fit a phone
    (specs / "wide.mechanism.json").write_text(json.dumps(wide, indent=2), "utf-8")
    out = root / "site"
    bs.build([specs], out)
    return out, {"pipeline": json.loads(PIPELINE.read_text("utf-8")), "wide": wide}


def _cycle(key: str) -> int:
    return int(key.lstrip("abcdefghijklmnopqrstuvwxyz"))


@pytest.mark.parametrize("width", [360, 768])
def test_a_pipeline_whose_stages_fit_is_transposed(pages, open_page, width):
    out, made = pages
    data = made["pipeline"]
    page = open_page(out / "pipeline.html", viewport=(width, 900), motion="reduce")
    facts = bs.figures(page).nth(0).evaluate(FACTS_JS)
    assert facts["layout"] == ("narrow" if width < 600 else "middle")  # a tablet's: the middle one, transposed too
    assert facts["smallest"] >= MIN_TEXT_PX - 0.01, facts["smallest"]
    assert facts["scrollWidth"] <= facts["clientWidth"] + 1  # the frame does not scroll
    ids = {t["id"]: key for key, t in data["targets"].items() if t["kind"] == "node"}
    nodes = {ids[node_id]: rect for node_id, rect in facts["nodes"].items() if node_id in ids}
    assert len(nodes) == len(ids)
    stages = [lane["key"] for lane in data["layout"]["lanes"]]
    for cycle in {_cycle(key) for key in nodes}:
        row = sorted((rect[0], key) for key, rect in nodes.items() if _cycle(key) == cycle)
        assert len({round(nodes[key][1], 1) for _, key in row}) == 1, cycle  # one cycle, one row
        order = [key.rstrip("0123456789") for _, key in row]
        assert order == [stage for stage in stages if stage in order], cycle  # IF to WB, left to right
    tops = [min(rect[1] for key, rect in nodes.items() if _cycle(key) == c) for c in sorted({_cycle(k) for k in nodes})]
    assert tops == sorted(tops)  # time runs down
    assert facts.get("strip") is None  # its lane names head their columns; nothing to hold


@pytest.mark.parametrize("width", [360, 768])
def test_a_grid_whose_lanes_do_not_fit_scrolls_with_its_lane_names_in_view(pages, open_page, width):
    out, made = pages
    data = made["wide"]
    page = open_page(out / "wide.html", viewport=(width, 900), motion="reduce")
    facts = bs.figures(page).nth(0).evaluate(FACTS_JS)
    assert facts["layout"] == "narrow"
    assert facts["smallest"] >= MIN_TEXT_PX - 0.01, facts["smallest"]
    assert facts["scrollWidth"] > facts["clientWidth"] + 1 and facts["scrolled"] > 0  # the frame scrolls
    ids = {t["id"]: key for key, t in data["targets"].items() if t["kind"] == "node"}
    nodes = {ids[node_id]: rect for node_id, rect in facts["nodes"].items() if node_id in ids}
    assert len({round(rect[0], 1) for rect in nodes.values()}) > 1  # a grid, not one column
    for column in {_cycle(key) for key in nodes}:
        assert len({round(rect[0], 1) for key, rect in nodes.items() if _cycle(key) == column}) == 1
    # Scrolled to the far right, the names are at the frame's left edge, inside it, drawn over the grid.
    frame = facts["frame"]
    assert abs(facts["strip"][0] - frame[0]) <= 1, (facts["strip"], frame)
    assert [name["text"] for name in facts["names"]] == [lane["label"] for lane in data["layout"]["lanes"]]
    for name in facts["names"]:
        x, y, w, h = name["box"]
        assert frame[0] <= x and x + w <= frame[0] + frame[2] and frame[1] <= y and y + h <= frame[1] + frame[3]
    assert facts["onTop"]
