"""Column headers and proportional time in chromium: the HTML page of a headed pipeline grid, of a proportional
grid and of the gallery's latency ledger at 360, 768 and 1280 px, light and dark.  The drawn layout's smallest
text is 12 CSS px or more; every column header's rendered text is centred over its column's boxes (wide, and a
narrow layout that keeps its grid) or, in a transposed narrow layout (issue 26), stands left of its row; the time
axis's labels stay inside the drawing."""

from __future__ import annotations

import json

import pytest

from mechdiagram.layout.sizes import MIN_TEXT_PX
from support.grids import grid_spec, pipeline_spec

from . import browser_support as bs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The made specs, by slug, beside the gallery's latency ledger.
MADE = {"pipeline": pipeline_spec, "timed": lambda: grid_spec(3, 6, seed=4, spans=[18, 74, 0, 46.73, 1355.14, 46.73])}
SLUGS = [*MADE, "latency-ledger"]

#: In page (argument: the figure's root): of the drawn layout, its name, the smallest rendered text size in CSS px,
#: and for each column header (class ending "-colhead") its rendered box and text-anchor beside the rendered boxes
#: of the node groups (ids ending "-n-<id>"), and the axis labels' boxes with the drawing's box.
GEOMETRY_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const drawn = Array.from(scene.querySelectorAll(".mech-canvas-inner")).filter(b => b.getClientRects().length);
  const svg = drawn[0].querySelector("svg");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  let smallest = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const style = getComputedStyle(text);
    if (!text.getClientRects().length || style.visibility === "hidden") continue;
    smallest = Math.min(smallest, parseFloat(style.fontSize) * scale);
  }
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const headers = Array.from(svg.querySelectorAll("text")).filter(t => /-colhead\b/.test(t.getAttribute("class")))
    .map(t => ({text: Array.from(t.querySelectorAll("tspan")).map(s => s.textContent).join(" ") || t.textContent,
                box: box(t), anchor: getComputedStyle(t).textAnchor}));
  const nodes = {};
  for (const g of svg.querySelectorAll("g[id]")) {
    const match = g.id.match(/-n-(.+)$/);
    if (match) nodes[match[1]] = box(g.querySelector("rect"));
  }
  const axis = Array.from(svg.querySelectorAll("g")).filter(g => /-time\b/.test(g.getAttribute("class")));
  const ticks = axis.length ? Array.from(axis[0].querySelectorAll("text")).map(box) : [];
  const name = Array.from(drawn[0].classList).find(c => c !== "mech-canvas-inner").replace(/^mech-/, "");
  return {layout: name, middle: Boolean(scene.querySelector(".mech-canvas-inner.mech-middle")),
          upper: Boolean(scene.querySelector(".mech-canvas-inner.mech-upper")),
          wideFrom: Number(scene.querySelector("[data-mech-canvas]").dataset.mechWideFrom), smallest, headers, nodes,
          ticks, svg: box(svg)};
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    root = tmp_path_factory.mktemp("columns")
    specs = root / "specs"
    specs.mkdir()
    made = {slug: make() for slug, make in MADE.items()}
    for slug, data in made.items():
        (specs / f"{slug}.mechanism.json").write_text(json.dumps(data, indent=2), "utf-8")
    out = root / "site"
    bs.build([specs, bs.MECHANISMS / "latency-ledger.mechanism.json"], out)
    made["latency-ledger"] = json.loads((bs.MECHANISMS / "latency-ledger.mechanism.json").read_text("utf-8"))
    return out, made


def _column(key: str) -> int:
    digits = len(key) - len(key.rstrip("0123456789"))
    return int(key[-digits:])


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 768, 1280])
@pytest.mark.parametrize("slug", SLUGS)
def test_headers_sit_over_their_columns_and_no_text_is_below_12_px(pages, open_page, slug, width, scheme):
    out, made = pages
    data = made[slug]
    page = open_page(out / f"{slug}.html", viewport=(width, 900), scheme=scheme, motion="reduce")
    facts = bs.figures(page).nth(0).evaluate(GEOMETRY_JS)
    assert facts["smallest"] >= MIN_TEXT_PX - 0.01, (slug, width, facts["smallest"])
    ids = {t["id"]: key for key, t in data["targets"].items() if t["kind"] == "node"}
    nodes = {ids[node_id]: rect for node_id, rect in facts["nodes"].items() if node_id in ids}
    order = sorted({_column(key) for key in ids.values()})
    columns = data["layout"]["columns"]
    labels = [item if isinstance(item, str) else item["label"] for item in columns]
    assert facts["headers"], (slug, width)
    transposed = facts["layout"] != "wide" and all(h["anchor"] == "start" for h in facts["headers"])
    if not transposed:  # the wide layout, or a narrow one that keeps its grid (issue 26: lanes too wide for a phone)
        assert [h["text"] for h in facts["headers"]] == labels
        for index, header in enumerate(facts["headers"]):
            x, y, w, _ = header["box"]
            under = [rect for key, rect in nodes.items() if order.index(_column(key)) == index]
            for bx, by, bw, _ in under:
                assert abs((x + w / 2) - (bx + bw / 2)) <= 1.5, (slug, width, header["text"])  # centred
                assert y + header["box"][3] <= by, (slug, width, header["text"])  # above the boxes
        for tick in facts["ticks"]:  # the axis's labels inside the drawing
            assert facts["svg"][0] - 0.5 <= tick[0] and tick[0] + tick[2] <= facts["svg"][0] + facts["svg"][2] + 0.5
        assert bool(facts["ticks"]) == (data["layout"].get("time") == "proportional")
    else:  # transposed: each column's label at the left of its row, on the row of its boxes
        assert len(facts["headers"]) == len(labels)
        for key, (bx, by, _, bh) in nodes.items():
            header = facts["headers"][order.index(_column(key))]
            assert header["text"].startswith(labels[order.index(_column(key))]), (slug, width, key)
            hx, hy, hw, hh = header["box"]
            assert hx + hw <= bx and by - hh <= hy <= by + bh, (slug, width, key)
        assert facts["ticks"] == []
    # between a phone and 960 px a grid's middle layout, made for that width, where its lanes fit side by side in it;
    # at 1280 px its upper middle one where it has one and its wide grid needs more than the figure's 1,216 px
    wide = "upper" if facts["upper"] and facts["wideFrom"] > 1216 else "wide"
    assert facts["layout"] == ("narrow" if width < 600 else "middle" if width < 960 and facts["middle"]
                               else "narrow" if width < 960 else wide), facts["layout"]
    assert facts["layout"] not in ("middle", "upper") or transposed
