"""Issue 27's rules measured in chromium: every layout the HTML figure shows of every gallery figure, the reference
spec and the generated topologies (:func:`support.route_figures.route_figures`: protocols drawn as graphs, opposite
pairs, fans of six with labels, cycles, chains of 12 and 20, lane grids with skip edges, 40 boxes, long and CJK
labels), at the widths that show it.

The routes are read from the page's SVG (each arrow's path and head, as drawn) and its path labels measured with
``getBBox`` in the real font; each is matched to its path by the layout the figure shows (a route by its points, a
label by its text and place), and :func:`~mechdiagram.layout.route_rules.faults` counts what the drawing breaks:
arrows that meet or run along each other, lines near another's head, parallel runs closer than 12 units, crossings,
bends, labels far from their arrow, nearer another or crossed by a line.  Each figure keeps at most the faults
:data:`~support.route_figures.KNOWN` allows it, as the layout's own test does; the ELK reference
(``tests/layout/test_elk_reference.py``) sets the crossings that allowance may hold.  A sequence's messages are
rows, not routes: its rules are the sequence tests'.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from mechdiagram.layout import diagram, middle_diagram
from mechdiagram.layout.checks import against_flow
from mechdiagram.layout.geometry import Rect
from mechdiagram.layout.route_rules import KINDS, faults
from mechdiagram.layout.sizes import UPPER_WIDTH
from mechdiagram.shared.model import spec_from_data
from support.route_figures import allowed, route_figures

from . import browser_support as bs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Routed figures by slug (a sequence draws rows, not routes).
FIGURES = {name: data for name, data in route_figures().items()
           if data.get("layout", {}).get("view") != "sequence"}
#: The viewport widths tried, in CSS px: every layout a figure has shows at one of them (the phone's at 360, a
#: middle one from about 450 to 960, an upper one below the wide one's, the wide one from 1,280 at most).
WIDTHS = (360, 480, 600, 700, 768, 900, 1024, 1280, 1440)

#: In page (argument: the figure's root): the layout shown (its box's class), its routes (points and head, SVG user
#: units) and its visible path labels (text and ``getBBox``).
ROUTES_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const svg = Array.from(scene.querySelectorAll("svg")).find(s => s.getClientRects().length);
  const inner = svg.closest(".mech-canvas-inner");
  const layout = Array.from(inner.classList).find(c => c !== "mech-canvas-inner").replace(/^mech-/, "");
  const p = svg.getAttribute("class").split(/\s+/)[0];
  const pairs = values => values.reduce((acc, v, i, a) => (i % 2 ? acc : acc.concat([[v, a[i + 1]]])), []);
  const routes = Array.from(svg.querySelectorAll(`.${p}-paths .${p}-arrow`)).map(g => ({
    points: pairs((g.querySelector("path").getAttribute("d").match(/-?[\d.]+/g) || []).map(Number)),
    head: pairs(g.querySelector("polygon").getAttribute("points").trim().split(/[\s,]+/).map(Number))}));
  const shown = el => getComputedStyle(el).visibility === "visible" && el.getClientRects().length > 0;
  const labels = Array.from(svg.querySelectorAll(`.${p}-plabel:not(.${p}-tick)`)).filter(shown).map(t => {
    const b = t.getBBox();
    return {text: t.textContent, box: [b.x, b.y, b.width, b.height]};
  });
  return {layout, routes, labels};
}"""


def _model(spec, layout: str):
    """The layout the figure shows as ``layout`` (the class of its box), as the build draws it."""
    if layout == "middle":
        return middle_diagram(spec)
    if layout == "upper":
        return middle_diagram(spec, UPPER_WIDTH)
    return diagram(spec, narrow=layout == "narrow")


def _key(point) -> tuple[float, float]:
    return round(point[0], 1), round(point[1], 1)


def drawn_arrows(model, measured: dict) -> dict:
    """The ``model``'s arrows with the geometry chromium drew: each route's points and head as the page's SVG has
    them (matched to its path by its points), each label's box as ``getBBox`` measures it in the real font (matched
    by its text, the nearest of that text to the model's place)."""
    by_points = {tuple(map(_key, arrow.points)): key for key, arrow in model.arrows.items()}
    arrows = {}
    for route in measured["routes"]:
        key = by_points[tuple(map(_key, route["points"]))]  # every drawn route is the model's
        arrows[key] = replace(model.arrows[key], points=tuple(map(tuple, route["points"])),
                              head=tuple(map(tuple, route["head"])))
    assert set(arrows) == set(model.arrows), (sorted(model.arrows), sorted(arrows))
    for label in measured["labels"]:
        text = "".join(label["text"].split())
        owners = [key for key, arrow in model.arrows.items() if arrow.label_box is not None
                  and "".join("".join(arrow.label_lines).split()) == text]
        if not owners:
            continue  # not a path's label (a lane grid's axis, a step's changed label)
        x, y, w, h = label["box"]
        key = min(owners, key=lambda k: abs(model.arrows[k].label_box.cx - (x + w / 2))
                  + abs(model.arrows[k].label_box.cy - (y + h / 2)))
        arrows[key] = replace(arrows[key], label_box=Rect(x, y, w, h))
    return arrows


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """Every routed figure built into one folder."""
    root = tmp_path_factory.mktemp("route-rules")
    specs = root / "specs"
    specs.mkdir()
    for name, data in FIGURES.items():
        (specs / f"{name}.mechanism.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    bs.build([specs], root / "site", allow_missing_sources=True)  # the reference spec's notes are not ours
    return root / "site"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_each_layout_shown_breaks_no_rule_but_its_known_faults(site, context, name):
    spec = spec_from_data(FIGURES[name])
    page = context.new_page()
    page.goto((site / f"{name}.html").as_uri())
    page.wait_for_function("document.querySelectorAll('[data-mech-figure]:not([data-mech-ready])').length === 0")
    figure = bs.figures(page).nth(0)
    measured: dict[str, dict] = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        facts = figure.evaluate(ROUTES_JS)
        measured.setdefault(facts["layout"], facts)
    page.close()
    assert "narrow" in measured and "wide" in measured, sorted(measured)
    wide = diagram(spec)
    for layout, facts in measured.items():
        model = _model(spec, layout)
        assert model is not None, (name, layout)
        arrows = drawn_arrows(model, facts)
        found = faults(arrows, against_flow(spec, model, narrow=layout == "narrow"))
        counts = collections.Counter(fault.kind for fault in found)
        kept = allowed(name, layout, layout in ("narrow", "upper") and model in (wide, wide.natural))
        for kind in KINDS:
            assert counts[kind] <= kept.get(kind, 0), (name, layout, kind, [f for f in found if f.kind == kind])


def test_the_measured_rules_catch_a_label_moved_onto_another_arrow():
    """The matching is not a tautology: the serving stack's "batch slot" label, moved in the measurement onto the
    line of the arrow above it, is found crossed and nearer that arrow; its routes as drawn break no rule."""
    spec = spec_from_data(FIGURES["serving-stack"])
    model = diagram(spec)
    measured = {"routes": [{"points": arrow.points, "head": arrow.head} for arrow in model.arrows.values()],
                "labels": []}
    assert not faults(drawn_arrows(model, measured), against_flow(spec, model, narrow=False))
    pages = model.arrows["pages"]
    (x0, y0), (_, y1) = pages.points[1], pages.points[2]  # a vertical run of another arrow
    box = model.arrows["admit"].label_box
    measured["labels"] = [{"text": "batch slot", "box": [x0 - box.w / 2, (y0 + y1) / 2, box.w, box.h]}]
    kinds = {(f.key, f.kind) for f in faults(drawn_arrows(model, measured), against_flow(spec, model, narrow=False))}
    assert ("admit", "label-crossed") in kinds and ("admit", "label-nearer") in kinds, kinds
