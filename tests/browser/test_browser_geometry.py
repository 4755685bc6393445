"""Geometry of every built figure, measured in chromium from the DOM of its HTML page.

Every spec in ``mechanisms/``, the browser suite's generated specs and the topologies of
``tests/support/topologies.py`` (chains, cycles, fan-out and fan-in of six, opposite pairs, long skip
edges across a lane grid, 40 nodes, long and CJK labels, the ten-node serving flow) and the code labels of
``tests/data/oauth-pkce.mechanism.json`` are built into a
temporary folder.  In the page, for the first scenario at its first, middle and last step, the SVG's
boxes, route segments, arrowheads, path labels, node text, lane headers and state panel are found by
their classes and measured with ``getBBox`` (user units: the figure has no transforms) as the browser
lays out the real font: no route segment passes through a box, no label touches a box, a text or another
label, no label lies across a route, no node text overflows its box, nothing lies outside the ``viewBox``, every arrowhead meets a box
edge, and no SVG text renders below 12 CSS px at 360, 768 and 1280 px.  The geometry is checked in the layout
each of 360 and 1280 px shows: the narrow one on the phone, the wide one (or, for a figure too wide to read there,
the narrow one) on the screen.  Screenshots for a person to look at are ``make screenshots``
(``tools/screenshots.py``), not a test.

One page per figure, reused for every width, scheme and step (the machine has two cores).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechdiagram.layout.sizes import HEAD_GAP, MIN_TEXT_PX
from support.sequences import oauth_spec, sequence_spec
from support.specs import TESTS
from support.topologies import topologies

from . import browser_support as bs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDTHS = (360, 768, 1280)
#: Coordinates are written at 0.1 precision: closer than this is touching.
EPS = 0.06

#: Every figure's spec by slug: the project's own, the suite's generated ones, the topologies.
SPECS = {path.name.removesuffix(".mechanism.json"): json.loads(path.read_text("utf-8")) for path in bs.mechanism_specs()}
SPECS |= {name: make() for name, make in bs.GENERATED.items()}
SPECS |= {f"topology-{name}": data for name, data in topologies().items()}
#: Code labels ("text": "code"): identifiers in the monospace face, a box grown for a 43-character token (wide) and
#: that token broken with the continuation mark (narrow).
SPECS["oauth-pkce"] = json.loads((TESTS / "data" / "oauth-pkce.mechanism.json").read_text("utf-8"))
SPECS |= {"sequence-oauth": oauth_spec(), "sequence-6x12": sequence_spec(6, 12)}

#: In page (argument: the figure's root): the shown scene's geometry in SVG user units.
GEOMETRY_JS = r"""
(root) => {
  const scene = Array.from(root.querySelectorAll("[data-mech-scene]")).find(s => !s.hidden);
  const svg = Array.from(scene.querySelectorAll("svg")).find(s => s.getClientRects().length);  // the layout shown
  const layout = svg.closest(".mech-canvas-inner").classList.contains("mech-narrow") ? "narrow" : "wide";
  const p = svg.getAttribute("class").split(/\s+/)[0];
  const rect = el => { const b = el.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; };
  const shown = el => getComputedStyle(el).visibility === "visible" && el.getClientRects().length > 0;
  const all = (sel, within) => Array.from((within || svg).querySelectorAll(sel));
  // A box's label is in its group, or (a box some step highlights) among the labels drawn over the highlights,
  // naming the target id its group's id ends with.
  // (a box whose label a step changes: the text shown now, among its texts in the changed labels' layer)
  const labelOf = g => g.querySelector(`.${p}-label`) ||
    all(`[data-mech-box="${g.id.replace(/^.*?-n-/, "")}"]`).find(shown) ||
    svg.querySelector(`.${p}-labels [data-mech-box="${g.id.replace(/^.*?-n-/, "")}"]`);
  const nodes = all(`.${p}-nodes > g`).map(g => ({
    box: rect(g.querySelector(`.${p}-node`)), text: rect(labelOf(g)), label: labelOf(g).textContent}));
  const routes = all(`.${p}-paths .${p}-arrow`).map(g => ({
    points: (g.querySelector("path").getAttribute("d").match(/-?[\d.]+/g) || []).map(Number)
      .reduce((acc, v, i, a) => (i % 2 ? acc : acc.concat([[v, a[i + 1]]])), []),
    head: g.querySelector("polygon").getAttribute("points").trim().split(/[\s,]+/).map(Number)
      .reduce((acc, v, i, a) => (i % 2 ? acc : acc.concat([[v, a[i + 1]]])), []),
    bbox: rect(g)}));
  // The labels drawn (a sequence draws a message's label in its row's layers, one shown at a time).
  const labels = all(`.${p}-plabel:not(.${p}-tick)`).filter(shown).map(t => ({text: t.textContent, box: rect(t)}));
  const lanes = all(`.${p}-lane`).map(t => ({text: t.textContent, box: rect(t)}));
  const panel = rect(svg.querySelector(`.${p}-panel`));
  const frame = svg.querySelector("[data-mech-current]") ||
    all("[data-mech-frame]").find(f => f.dataset.mechFrame !== "0" && shown(f));
  const panelText = all(`.${p}-pkey`).concat(all("text", frame)
    .filter(t => t.closest(`.${p}-state`) || /-(ptitle|pval)\b/.test(t.getAttribute("class"))))
    // the step's values, shown by the style sheet (not a box's changed label, switched by the same rules)
    .concat(all(`.${p}-val`).filter(t => shown(t) && !t.closest(`.${p}-relabels`)))
    .map(t => ({text: t.textContent, box: rect(t)}));
  // The step's highlights: the layers whose data-mech-steps name the current step.
  const rings = frame ? all(`[data-mech-steps~="${frame.dataset.mechFrame}"] .${p}-ring`).map(rect) : [];
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  let smallest = Infinity, where = "";
  for (const text of svg.querySelectorAll("text")) {
    if (!shown(text)) continue;
    const size = parseFloat(getComputedStyle(text).fontSize) * scale;
    if (size < smallest) { smallest = size; where = text.textContent.slice(0, 30); }
  }
  const vb = svg.viewBox.baseVal;
  return {layout, viewBox: {x: vb.x, y: vb.y, w: vb.width, h: vb.height}, nodes, routes, labels, lanes, panel,
          panelText, rings, step: frame ? Number(frame.dataset.mechFrame) : 0, smallest, where};
}"""


def _overlap(a: dict, b: dict, by: float = 0.0) -> bool:
    """Interiors of two {x, y, w, h} rectangles intersect, ``a`` grown by ``by``."""
    return (a["x"] - by < b["x"] + b["w"] - EPS and b["x"] < a["x"] + a["w"] + by - EPS
            and a["y"] - by < b["y"] + b["h"] - EPS and b["y"] < a["y"] + a["h"] + by - EPS)


def _inside(inner: dict, outer: dict) -> bool:
    return (inner["x"] >= outer["x"] - EPS and inner["y"] >= outer["y"] - EPS
            and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + EPS
            and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + EPS)


def _crosses(box: dict, a: list[float], b: list[float]) -> bool:
    """The horizontal or vertical segment a-b passes through the interior of ``box``."""
    x0, y0, x1, y1 = box["x"], box["y"], box["x"] + box["w"], box["y"] + box["h"]
    if a[1] == b[1]:
        low, high = sorted((a[0], b[0]))
        return y0 + EPS < a[1] < y1 - EPS and low < x1 - EPS and x0 + EPS < high
    low, high = sorted((a[1], b[1]))
    return x0 + EPS < a[0] < x1 - EPS and low < y1 - EPS and y0 + EPS < high


def _distance_to_edge(point: list[float], box: dict) -> float:
    """How far ``point`` (outside ``box``) is from the box's nearest edge."""
    dx = max(box["x"] - point[0], point[0] - box["x"] - box["w"], 0.0)
    dy = max(box["y"] - point[1], point[1] - box["y"] - box["h"], 0.0)
    return (dx * dx + dy * dy) ** 0.5


def check_geometry(g: dict) -> list[str]:
    """Every problem in one measurement of :data:`GEOMETRY_JS`, described."""
    problems = []
    boxes = [n["box"] for n in g["nodes"]]
    view = g["viewBox"]
    for n in g["nodes"]:
        if not _inside(n["text"], n["box"]):
            problems.append(f"node text {n['label']!r} overflows its box: {n['text']} in {n['box']}")
    for k, route in enumerate(g["routes"]):
        points = route["points"]
        for a, b in zip(points, points[1:], strict=False):
            if a[0] != b[0] and a[1] != b[1]:
                problems.append(f"route {k}: segment {a}-{b} is not orthogonal")
            for n in g["nodes"]:
                if _crosses(n["box"], a, b):
                    problems.append(f"route {k}: segment {a}-{b} passes through box {n['label']!r}")
        tip = route["head"][0]
        if any(_inside({"x": tip[0], "y": tip[1], "w": 0, "h": 0}, b) for b in boxes):
            problems.append(f"route {k}: arrowhead tip {tip} inside a box")
        gap = min(_distance_to_edge(tip, b) for b in boxes)
        if abs(gap - HEAD_GAP) > 0.2:
            problems.append(f"route {k}: arrowhead tip {tip} is {gap:.1f} from the nearest box edge, not {HEAD_GAP}")
        base = [(route["head"][1][i] + route["head"][2][i]) / 2 for i in (0, 1)]
        if max(abs(base[0] - points[-1][0]), abs(base[1] - points[-1][1])) > 0.1:
            problems.append(f"route {k}: the line ends at {points[-1]}, not at the arrowhead's base {base}")
        if not _inside(route["bbox"], view):
            problems.append(f"route {k} leaves the viewBox: {route['bbox']}")
    texts = [("node text " + repr(n["label"]), n["text"]) for n in g["nodes"]]
    texts += [("lane " + repr(lane["text"]), lane["box"]) for lane in g["lanes"]]
    for i, label in enumerate(g["labels"]):
        name = repr(label["text"])
        for n in g["nodes"]:
            if _overlap(label["box"], n["box"]):
                problems.append(f"path label {name} overlaps box {n['label']!r}")
        for what, box in texts:
            if _overlap(label["box"], box):
                problems.append(f"path label {name} overlaps {what}")
        for other in g["labels"][i + 1:]:
            if _overlap(label["box"], other["box"]):
                problems.append(f"path label {name} overlaps path label {other['text']!r}")
        if _overlap(label["box"], g["panel"]):
            problems.append(f"path label {name} overlaps the state panel")
        for k, route in enumerate(g["routes"]):  # its halo would hide the line where it crosses
            if any(_crosses(label["box"], a, b) for a, b in zip(route["points"], route["points"][1:], strict=False)):
                problems.append(f"path label {name} lies across route {k}")
    for what, box in [*texts, *(("path label " + repr(lab["text"]), lab["box"]) for lab in g["labels"]),
                      *(("panel text " + repr(t["text"]), t["box"]) for t in g["panelText"]),
                      *(("ring", ring) for ring in g["rings"]), ("the panel", g["panel"])]:
        if not _inside(box, view):
            problems.append(f"{what} leaves the viewBox {view}: {box}")
    for t in g["panelText"]:
        if not _inside(t["box"], g["panel"]):
            problems.append(f"panel text {t['text']!r} overflows the panel: {t['box']} in {g['panel']}")
    return problems


def _counts(g: dict) -> tuple[int, int, int]:
    return len(g["nodes"]), len(g["routes"]), len(g["labels"])


def _counts_of(spec: dict, step: int) -> tuple[int, int, int]:
    """Boxes, routes and path labels the spec should draw at step ``step``: a sequence routes no arrows, and its
    labels are those of the messages of the rows drawn so far (its step's and the ones before)."""
    targets = spec["targets"].values()
    nodes = sum(t["kind"] == "node" for t in targets)
    if spec.get("layout", {}).get("view") == "sequence":
        listed = [key for s in spec["scenarios"][0]["steps"][:step] for key in s["paths"]]
        return nodes, 0, sum(bool(spec["targets"][key].get("label")) for key in listed)
    paths = [t for t in targets if t["kind"] == "path" and t["from"] != t["to"]]
    return (nodes, len(paths), sum(bool(t.get("label")) for t in paths))


@pytest.fixture(scope="module")
def gallery(tmp_path_factory) -> Path:
    """Every figure built into one folder: mechanisms/, the suite's generated specs, the topologies."""
    root = tmp_path_factory.mktemp("geometry")
    specs = root / "specs"
    specs.mkdir()
    own = set(bs.mechanism_slugs())
    for slug, data in SPECS.items():
        if slug not in own:
            (specs / f"{slug}.mechanism.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    out = root / "site"
    bs.build(bs.mechanism_specs() + [specs], out)
    return out


def _button(page, cls: str, name: str):
    """The player's Previous or Next button, by class or, failing that, by accessible name."""
    by_class = page.locator(f".{cls}")
    return by_class.first if by_class.count() else page.get_by_role("button", name=name).first


def _go(page, step: int, current: int) -> int:
    """Click Next or Previous until step ``step`` (1-based) shows; returns it as read from ``data-mech-current``."""
    for _ in range(abs(step - current)):
        _button(page, "mech-next" if step > current else "mech-prev",
                "Next step" if step > current else "Previous step").click()
    return int(bs.figures(page).nth(0).evaluate(
        "root => Number((root.querySelector('[data-mech-scene]:not([hidden]) [data-mech-current]') || "
        "{dataset: {mechFrame: 0}}).dataset.mechFrame)"))


@pytest.mark.parametrize("slug", sorted(SPECS))
def test_geometry_and_text_sizes(gallery, context, slug):
    steps = len(SPECS[slug]["scenarios"][0]["steps"])
    stops = {"first": 1, "middle": (steps + 1) // 2, "last": steps}
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((gallery / f"{slug}.html").as_uri())
    page.wait_for_function("document.querySelectorAll('[data-mech-figure]:not([data-mech-ready])').length === 0")
    # The geometry does not depend on the colour scheme (one drawing, two sets of colours: the contrast tests
    # measure both), so it is measured in the light one, without motion.
    page.emulate_media(color_scheme="light", reduced_motion="reduce")
    figure = bs.figures(page).nth(0)
    problems: list[str] = []
    smallest: dict[int, float] = {}
    layouts: dict[int, str] = {}
    current = _go(page, 1, 1) or 1
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, step in stops.items():
            current = _go(page, step, current)
            assert current == step, (slug, width, name)
            geometry = figure.evaluate(GEOMETRY_JS)
            smallest[width] = min(smallest.get(width, float("inf")), geometry["smallest"])
            layouts[width] = geometry["layout"]
            # the geometry of each layout, checked at a width that shows it
            if width in (360, 1280):
                assert _counts(geometry) == _counts_of(SPECS[slug], step), slug
                assert len(geometry["rings"]) == len(SPECS[slug]["scenarios"][0]["steps"][step - 1]["active"])
                problems += [f"{geometry['layout']} layout, step {step}: {p}" for p in check_geometry(geometry)]
    page.close()
    assert not errors, errors
    assert not problems, f"{slug}:\n" + "\n".join(dict.fromkeys(problems))
    assert layouts[360] == "narrow", layouts  # a phone shows the narrow layout
    for width in WIDTHS:
        assert smallest[width] >= MIN_TEXT_PX - 0.01, (slug, width, layouts[width], smallest[width])


def test_the_checks_catch_what_they_claim_to():
    """The geometry checks fail on a route through a box, a label across a route, overlapping labels,
    overflowing text, a head away from every edge and a label outside the viewBox."""
    box = {"x": 0, "y": 0, "w": 100, "h": 50}
    other = {"x": 200, "y": 0, "w": 100, "h": 50}
    tip = 200 - HEAD_GAP  # the arrowhead (10 long) into box b, as the layout leaves it
    clean = {"viewBox": {"x": 0, "y": 0, "w": 400, "h": 200}, "panel": {"x": 0, "y": 150, "w": 300, "h": 40},
             "nodes": [{"box": box, "text": {"x": 10, "y": 15, "w": 80, "h": 15}, "label": "a"},
                       {"box": other, "text": {"x": 210, "y": 15, "w": 80, "h": 15}, "label": "b"}],
             "routes": [{"points": [[100, 25], [tip - 10, 25]], "head": [[tip, 25], [tip - 10, 20], [tip - 10, 30]],
                         "bbox": {"x": 100, "y": 20, "w": tip - 100, "h": 10}}],
             "labels": [{"text": "go", "box": {"x": 130, "y": 5, "w": 20, "h": 15}}],
             "lanes": [], "panelText": [{"text": "Stage", "box": {"x": 10, "y": 160, "w": 40, "h": 15}}],
             "rings": []}
    assert check_geometry(clean) == []
    broken = json.loads(json.dumps(clean))
    broken["routes"][0]["points"] = [[100, 25], [150, 25], [150, 100], [250, 100], [250, 25], [183, 25]]
    broken["routes"][0]["head"] = [[tip - 4, 25], [tip - 14, 20], [tip - 14, 30]]  # 4 short of the edge
    broken["routes"][0]["points"][-1] = [tip - 16, 25]  # and the line 2 short of its base
    broken["nodes"][0]["text"]["w"] = 120
    broken["labels"].append({"text": "again", "box": {"x": 140, "y": 10, "w": 300, "h": 15}})
    broken["routes"][0]["points"][1:1] = [[140, 25], [140, 12], [160, 12], [160, 25]]
    found = "\n".join(check_geometry(broken))
    for needle in ("lies across route 0", "passes through box 'b'", "from the nearest box edge",
                   "not at the arrowhead's base", "overflows its box", "overlaps path label", "overlaps box 'b'", "leaves the viewBox"):
        assert needle in found, (needle, found)
