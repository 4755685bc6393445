"""A lane grid's names held in view in the HTML figure (issue 26): each layout whose lane names stand in a column
at its left carries a copy of that column (page-coloured, with the bands' ends and the names) beside its SVG, hidden
from assistive technology, as wide a share of the layout as the column is of the drawing; the SVG files carry no
copy, a transposed layout (its names head its columns) and a drawing without lanes have none."""

from __future__ import annotations

import math
import re

from mechdiagram.layout import diagram
from mechdiagram.render.outputs import render_outputs
from mechdiagram.shared.model import spec_from_data
from support.grids import grid_spec
from support.specs import minimal_spec

STRIP = re.compile(r'<div class="mech-lane-names" style="width:([\d.]+)%">(<svg\b.*?</svg>)</div>', re.S)


def _strips(data: dict) -> tuple[dict[str, bytes], list[tuple[float, str]]]:
    files = render_outputs(spec_from_data(data), "grid", [])
    page = files["grid.html"].decode("utf-8")
    return files, [(float(share), svg) for share, svg in STRIP.findall(page)]


def test_a_grid_that_keeps_its_grid_holds_its_names_in_both_layouts():
    data = grid_spec(4, 10, seed=3)  # long labels: its lanes do not fit a phone
    spec = spec_from_data(data)
    assert diagram(spec, narrow=True) == diagram(spec)
    files, strips = _strips(data)
    assert len(strips) == 2  # the wide layout and the narrow one
    names = [lane["label"] for lane in data["layout"]["lanes"]]
    wide = diagram(spec)
    right = max(h.x + h.w for h in wide.lanes)
    for share, svg in strips:
        assert 'aria-hidden="true"' in svg.split(">", 1)[0] and 'role="img"' not in svg
        assert re.findall(r">([^<>]+)</text>", svg) == names
        assert abs(share - 100 * right / math.ceil(wide.width)) < 0.001  # the canvas is whole units wide
        assert f'viewBox="0 0 {right:g} ' in svg
    for name, content in files.items():
        if name.endswith(".svg"):
            assert b"mech-lane-names" not in content and content.count(b"<svg") == 1, name


def test_a_transposed_grid_holds_none_in_its_narrow_layout():
    data = grid_spec(2, 4, seed=1)
    for target in data["targets"].values():
        if target["kind"] == "node":
            target["label"] = "step"
    spec = spec_from_data(data)
    narrow = diagram(spec, narrow=True)
    assert narrow != diagram(spec) and all(h.centred for h in narrow.lanes)
    _, strips = _strips(data)
    assert len(strips) == 1  # the wide layout's


def test_a_drawing_without_lanes_holds_none():
    _, strips = _strips(minimal_spec())
    assert strips == []
