"""Column headers and proportional time of lane grids, measured on the drawn SVG of every variant: the wide
animated drawing, its poster and step stills, the dark files, the narrow layout and the SVGs the HTML figure
inlines.  Headers sit centred over their columns (in the narrow layout, from the left edge of each box they
head, just above it); under proportional time each column's slot on the axis is its span at one scale, or the
axis has a break mark in it; and a spec without the keys draws what it drew before."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mechdiagram.api import render_spec
from mechdiagram.layout.columns import format_time, slot_widths
from mechdiagram.layout.measure import text_width
from mechdiagram.layout.sizes import LINE_HEIGHT
from mechdiagram.render.outputs import render_outputs, selected
from mechdiagram.shared.model import spec_from_data
from support.grids import CYCLES, pipeline_spec
from support.grids import grid_spec as make_grid
from support.specs import MECHANISMS, ROOT
from support.svg import SVG_NS, words

#: Generated headed grids (lanes, columns, seed) and proportional ones (lanes, spans, seed): 2 to 6 lanes, 3 to
#: 12 columns, spans with instants, one very long column, equal spans and spans a hundred times apart.
HEADED = [(2, 3, 1), (3, 6, 2), (4, 9, 3), (6, 12, 4), (5, 5, 5)]
TIMED = [(2, [18, 74, 0, 46.73, 1355.14, 46.73], 6), (3, [1, 1, 1, 1], 7), (4, [5, 1, 0, 40, 12, 300, 7], 8),
         (2, [100, 1, 100], 9), (6, [2.5, 7.5, 10, 30, 0.5, 1, 4, 8, 16, 32, 64, 128], 10), (3, [0, 3, 0], 11)]


def _specs() -> dict[str, dict]:
    found = {"pipeline": pipeline_spec()}
    found |= {f"headed-{lanes}x{columns}": make_grid(lanes, columns, seed=seed) for lanes, columns, seed in HEADED}
    found |= {f"timed-{lanes}x{len(spans)}-{seed}": make_grid(lanes, len(spans), seed=seed, spans=spans)
              for lanes, spans, seed in TIMED}
    return found


SPECS = _specs()


def _files(data: dict) -> dict[str, bytes]:
    return render_outputs(spec_from_data(data), "grid", [], selected(("frames",)))


@pytest.fixture(scope="module", params=sorted(SPECS))
def drawn(request) -> tuple[dict, dict[str, ET.Element]]:
    """A generated grid and each of its drawings by name: the files, and the inline ``wide``, ``narrow`` and (where
    the grid has them) ``middle`` and ``upper`` SVGs of the HTML figure (the first scenario's)."""
    data = SPECS[request.param]
    files = _files(data)
    svgs = {name: ET.fromstring(content) for name, content in files.items() if name.endswith(".svg")}
    page = files["grid.html"].decode("utf-8")
    inline = re.findall(r'<div class="mech-canvas-inner mech-(\w+)"[^>]*>\s*(?:<div class="mech-held">\s*)?'
                        r'(<svg\b.*?</svg>)', page, re.S)
    assert [name for name, _ in inline].count("wide") == [name for name, _ in inline].count("narrow") == len(
        data["scenarios"])
    for name, svg in inline:
        svgs.setdefault(f"html-{name}", ET.fromstring(svg))
    return data, svgs


def _prefix(root: ET.Element) -> str:
    return root.get("class").split()[0]


def _elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _boxes(data: dict, root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each node's box as drawn (x, y, w, h), found by its group's id."""
    ids = {target["id"]: key for key, target in data["targets"].items() if target["kind"] == "node"}
    found = {}
    for group in root.iter(f"{SVG_NS}g"):
        match = re.fullmatch(r"mech-[0-9a-f]{10}(?:-narrow|-middle|-upper)?-n-(.+)", group.get("id") or "")
        if match and match.group(1) in ids:
            rect = group.find(f"{SVG_NS}rect")
            found[ids[match.group(1)]] = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
    return found


def _headers(root: ET.Element) -> list[tuple[str, float, float, str]]:
    """Every column header as drawn: its text, its x and first baseline, and its text-anchor."""
    found = []
    for text in _elements(root, f"{_prefix(root)}-colhead"):
        first = text.find(f"{SVG_NS}tspan")
        y = float(text.get("y") if first is None else first.get("y"))
        x = float(text.get("x") if first is None else first.get("x"))
        found.append((words(text), x, y, text.get("text-anchor")))
    return found


def _column_of(key: str) -> int:
    return int(re.search(r"(\d+)$", key).group(1))


def _grid_columns(data: dict) -> list[int]:
    """The grid's column indexes, left to right (the distinct indexes of the node keys)."""
    return sorted({_column_of(key) for key, t in data["targets"].items() if t["kind"] == "node"})


def _label(data: dict, column: int) -> str:
    item = data["layout"]["columns"][column]
    return item if isinstance(item, str) else item["label"]


def test_every_wide_drawing_heads_each_column_with_its_label_centred_over_it(drawn):
    data, svgs = drawn
    order = _grid_columns(data)
    wide = [name for name in svgs if not any(other in name for other in ("narrow", "middle", "upper"))]
    assert len(wide) >= 6  # animated, dark, poster light and dark, a still of each step, and the HTML's
    for name in wide:
        root = svgs[name]
        boxes = _boxes(data, root)
        headers = _headers(root)
        assert [text for text, *_ in headers] == [" ".join(_label(data, c).split()) for c in range(len(order))], name
        bands = [float(rect.get("y")) for rect in _elements(root, f"{_prefix(root)}-band")]
        top = min([y for _, y, _, _ in boxes.values()] + bands)
        extents = []
        for element in _elements(root, f"{_prefix(root)}-colhead"):
            spans = element.findall(f"{SVG_NS}tspan")
            lines = [(t.text, float(t.get("x")), float(t.get("y"))) for t in spans] or \
                [(element.text, float(element.get("x")), float(element.get("y")))]
            half = max(text_width(text) for text, _, _ in lines) / 2
            extents.append((lines[0][1] - half, lines[0][1] + half, lines[-1][2]))
        for (_, right, _), (left, _, _) in zip(extents, extents[1:]):
            assert right <= left, (name, right, left)  # neighbouring headers never run into each other
        for column, (_, x, _, anchor) in enumerate(headers):
            assert anchor == "middle", name
            centres = {round(bx + bw / 2, 1) for key, (bx, _, bw, _) in boxes.items()
                       if order.index(_column_of(key)) == column}
            assert centres and all(abs(x - centre) <= 0.1 for centre in centres), (name, column, x, centres)
            # over the grid: its last line's descenders above the bands and the boxes
            assert extents[column][2] + 5 < top, (name, column)


def test_the_narrow_layout_heads_each_row_or_column_with_its_label(drawn):
    """The narrow layout is the grid transposed (issue 26: each column's label at the left of its row, from its
    left edge, on the row of its boxes) or, where the lanes do not fit a phone, the wide layout's grid (each label
    centred over its column); never a column of boxes each under its own header.  The middle layout (the HTML
    figure's, from about 600 px) and the upper middle one (from about 740 px) are the grid transposed, or the upper
    middle one the natural grid of a wide one spread to fill a wide screen (each label centred over its column)."""
    data, svgs = drawn
    order = _grid_columns(data)
    labels = [" ".join(_label(data, c).split()) for c in range(len(order))]
    for name in (n for n in svgs if "narrow" in n or "middle" in n or "upper" in n):
        root = svgs[name]
        headers = _headers(root)
        boxes = _boxes(data, root)
        if all(anchor == "middle" for *_, anchor in headers):  # the grid kept
            assert [text for text, *_ in headers] == labels, name
            for column, (_, x, _, _) in enumerate(headers):
                centres = {round(bx + bw / 2, 1) for key, (bx, _, bw, _) in boxes.items()
                           if order.index(_column_of(key)) == column}
                assert centres and all(abs(x - centre) <= 0.1 for centre in centres), (name, column)
            continue
        # Transposed: under proportional time a row's label ends with the times it begins and ends.
        assert len(headers) == len(labels)
        for (text, *_), label in zip(headers, labels, strict=True):
            assert text == label or (text.startswith(f"{label} ") and "proportional" in str(data["layout"])), name
        for key, (bx, by, _, bh) in boxes.items():
            _, x, y, anchor = headers[order.index(_column_of(key))]
            assert anchor == "start" and x < bx and by < y < by + bh + LINE_HEIGHT, (name, key)


def _axis(root: ET.Element) -> tuple[list[float], list[float], list[str]]:
    """The drawn axis: its ticks' x, its break marks' stroke xs and its labels."""
    group = _elements(root, f"{_prefix(root)}-time")
    assert len(group) == 1
    paths = group[0].findall(f"{SVG_NS}path")
    ticks = [float(x) for x in re.findall(r"M(-?[\d.]+) [\d.]+ V", paths[0].get("d"))]
    strokes = [float(x) for x in re.findall(r"M(-?[\d.]+) [\d.]+ L", paths[1].get("d"))] if len(paths) > 1 else []
    labels = [words(text) for text in group[0].findall(f"{SVG_NS}text")]
    return ticks, strokes, labels


@pytest.mark.parametrize("name", [name for name in sorted(SPECS) if name.startswith("timed")])
def test_a_proportional_columns_slot_is_its_span_at_one_scale_or_has_a_break_mark(name):
    data = SPECS[name]
    spans = [item["span"] for item in data["layout"]["columns"]]
    files = _files(data)
    checked = 0
    for file_name in (n for n in files if n.endswith(".svg") and "narrow" not in n):
        root = ET.fromstring(files[file_name])
        ticks, strokes, labels = _axis(root)
        assert len(ticks) == len(spans) + 1
        slots = [b - a for a, b in zip(ticks, ticks[1:])]
        broken = [any(a < x < b for x in strokes) for a, b in zip(ticks, ticks[1:])]
        assert not any(broken[i] is False and spans[i] == 0 for i in range(len(spans)))  # an instant is broken
        scales = [slot / span for slot, span, cut in zip(slots, spans, broken) if not cut]
        assert scales, file_name  # one column at least is drawn to scale
        assert max(scales) <= 1.1 * min(scales), (file_name, scales)  # every to-scale slot within 10 %
        boxes = _boxes(data, root)
        order = _grid_columns(data)
        for key, (bx, _, bw, _) in boxes.items():  # each box inside its column's slot
            column = order.index(_column_of(key))
            assert ticks[column] - 0.1 <= bx and bx + bw <= ticks[column + 1] + 0.1, (file_name, key)
        assert labels[-1] == f"{format_time(sum(spans))} ms"
        checked += 1
    assert checked >= 6
    # the narrow layout has no axis when it is transposed (its rows' labels give the times), else it is the wide one's
    narrow = ET.fromstring(files[next(n for n in files if n.endswith(".narrow.svg"))])
    wide = ET.fromstring(files[next(n for n in files if n.endswith(".svg") and ".narrow." not in n
                                    and ".dark." not in n and ".poster." not in n and "frame" not in n)])
    transposed = any(e.get("text-anchor") == "start" for e in _elements(narrow, f"{_prefix(narrow)}-colhead"))
    if transposed:
        assert not _elements(narrow, f"{_prefix(narrow)}-time")
    else:
        assert _axis(narrow) == _axis(wide)


def test_the_pipeline_has_its_cycle_numbers_over_its_columns():
    data = pipeline_spec()
    root = ET.fromstring(_files(data)["grid.load-use.svg"])
    headers = _headers(root)
    assert [text for text, *_ in headers] == [f"cycle {n}" for n in range(1, CYCLES + 1)]
    boxes = _boxes(data, root)
    for key, (bx, _, bw, _) in boxes.items():
        header = headers[_column_of(key)]
        assert abs(header[1] - (bx + bw / 2)) <= 0.1, key
    assert len({round(x, 1) for _, x, _, _ in headers}) == CYCLES  # one header a column, left to right
    assert [x for _, x, _, _ in headers] == sorted(x for _, x, _, _ in headers)


def test_slot_widths_draw_the_most_columns_to_scale():
    """The ledger's case: the gaps and the prefill to scale, the queue (too short for its boxes), the instant and
    the 29 folded gaps (too long for the room) not."""
    widths, to_scale = slot_widths([18, 74, 0, 46.73, 1355.14, 46.73], [150, 150, 150, 160, 150, 150])
    assert to_scale == (False, True, False, True, False, True)
    assert widths[1] / 74 == pytest.approx(widths[3] / 46.73, rel=0.01) == pytest.approx(widths[5] / 46.73, rel=0.01)
    assert widths[0] == 150 and widths[2] == 150  # short columns keep what their boxes need
    assert widths[4] == widths[1]  # the long one as wide as the widest to scale
    assert widths[3] == 160  # the scale is the least that fits the gap columns' boxes
    # equal spans: every column to scale, as wide as the widest need
    assert slot_widths([1, 1, 1], [100, 120, 90]) == ((120.0, 120.0, 120.0), (True, True, True))


def test_axis_times_are_rounded_to_one_decimal():
    assert [format_time(t) for t in (0, 92, 138.7289, 1540.598, 0.04, 2.5)] == ["0", "92", "138.7", "1540.6", "0",
                                                                               "2.5"]


def _committed_gallery() -> list[Path]:
    """The gallery's specs without the newer keys (a lane grid's columns, a step's labels)."""
    def plain(data: dict) -> bool:
        return "columns" not in data.get("layout", {}) and not any(
            "labels" in step for scenario in data["scenarios"] for step in scenario["steps"])
    return [path for path in sorted(MECHANISMS.glob("*.mechanism.json"))
            if plain(json.loads(path.read_text("utf-8")))]


@pytest.mark.parametrize("path", _committed_gallery(), ids=lambda p: p.name.removesuffix(".mechanism.json"))
def test_a_spec_without_columns_draws_the_committed_gallery_bytes(path):
    """A spec without the new keys draws every file of the committed gallery byte for byte."""
    rendered = render_spec(path, source_root=ROOT)
    assert rendered.ok
    output = ROOT / "output"
    assert rendered.files
    for name, content in rendered.files.items():
        assert content == (output / name).read_bytes(), name

