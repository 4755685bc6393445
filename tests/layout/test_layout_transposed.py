"""The narrow variant of a lane grid (issue 26, "a grid stays a grid on a phone"), on generated grids of 2 to 6
lanes by 3 to 20 columns with skip edges: where the lanes fit a phone side by side it is transposed (every box of
one column on one row, the lanes left to right in their order under their names, the column headers at the left
of their rows, no text under 12 CSS px in a 360 px phone's figure); where they do not it is the wide layout's grid,
never one column; and the wide layout is the same either way."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mechdiagram.layout import diagram
from mechdiagram.layout.checks import lay_out
from mechdiagram.layout.route_rules import faults
from mechdiagram.layout.sizes import MIN_TEXT_PX, NARROW_MIN_WIDTH, TRANSPOSED_MAX_WIDTH
from mechdiagram.render.html import readable_width
from mechdiagram.render.paint import SMALLEST_TEXT
from mechdiagram.shared.model import spec_from_data
from mechdiagram.spec.load import load_spec
from mechdiagram.spec.validate import check_spec
from support.specs import minimal_spec

LETTERS = "abcdefgh"
#: Short labels (a phone holds five lanes of them) and long ones (no phone holds three lanes of them).
SHORT = ("lw", "add", "sub", "nop", "or", "ld", "st")
LONG = ("detokenize the piece", "prefill 74 ms", "send the reply", "allocate a fresh page")
#: The figure on a 360 px phone: the HTML figure's width there, CSS px (TRANSPOSED_MAX_WIDTH's reasoning).
PHONE_FIGURE_PX = 321.0
DATA = Path(__file__).resolve().parents[1] / "data"


def grid(lanes: int, columns: int, *, seed: int, words: tuple[str, ...], headed: bool = True,
         names: tuple[str, ...] | None = None, timed: bool = False) -> dict:
    """A ``lanes`` by ``columns`` grid (a few cells from the fourth column on left empty), its boxes labelled from
    ``words``, with paths (where their boxes are) along a lane, skipping one or more columns (skip edges, in the
    first lane and the last), across the lanes of one column and from one lane and column to the next; columns headed ``c1``... when ``headed`` (with spans under proportional time when ``timed``)."""
    rng = random.Random(seed)
    spec = minimal_spec()
    targets: dict[str, dict] = {}
    for lane in range(lanes):
        for column in range(columns):
            if column > 2 and rng.random() < 0.15:
                continue
            targets[f"l{LETTERS[lane]}{column}"] = {"id": f"n{lane}-{column}", "kind": "node",
                                                   "label": rng.choice(words)}
    last = LETTERS[lanes - 1]
    paths = [("along", "la0", "la1"), ("skip", "la0", "la2"), ("across", "la4", "lb4"), ("turn", "lb5", "la6"),
             ("skip2", f"l{last}0", f"l{last}2"), ("long", f"l{last}3", f"l{last}7")]
    for key, source, dest in paths:
        if source in targets and dest in targets:
            targets[key] = {"id": key, "kind": "path", "from": source, "to": dest}
    layout: dict = {"lanes": [{"key": f"l{LETTERS[lane]}", "label": names[lane] if names else LETTERS[lane].upper()}
                              for lane in range(lanes)]}
    if headed:
        layout["columns"] = ([{"label": f"c{n + 1}", "span": rng.choice((0, 1, 5, 20)) if n else 5}
                              for n in range(columns)]
                             if timed else [f"c{n + 1}" for n in range(columns)])
        if timed:
            layout["time"], layout["unit"] = "proportional", "ns"
    nodes = [key for key, t in targets.items() if t["kind"] == "node"]
    spec.update({"layout": layout, "targets": targets})
    spec["scenarios"][0]["unselected"] = []
    spec["scenarios"][0]["steps"] = [
        {"title": "One", "duration": 1000, "active": nodes[:2], "paths": ["along"], "state": {"stage": "one"}},
        {"title": "Two", "duration": 1000, "active": nodes[-2:], "paths": [], "state": {"stage": "two"}}]
    return spec


#: Generated grids, (lanes, columns, seed, words, headed, timed): 2 to 6 lanes by 3 to 20 columns, short labels
#: and long ones, all with skip edges where their boxes are.
GRIDS = [(lanes, columns, seed, words, seed % 3 != 0, seed % 4 == 1)
         for seed, (lanes, columns, words) in enumerate(
             [(2, 3, SHORT), (3, 8, SHORT), (4, 12, SHORT), (5, 20, SHORT), (2, 6, SHORT), (3, 10, SHORT),
              (4, 5, SHORT), (6, 7, SHORT), (5, 9, SHORT), (2, 20, SHORT), (3, 6, LONG), (2, 20, LONG), (5, 4, LONG),
              (6, 12, SHORT), (4, 16, SHORT), (3, 3, SHORT)], start=1)]
#: Of those, the grids whose lanes fit a phone (checked: transposed); grids of six lanes and of long words do not.
FITTING = [(3, 8, 2), (4, 5, 7), (3, 3, 16)]
TOO_WIDE = [(3, 6, 11), (2, 20, 12), (5, 4, 13), (6, 12, 14), (6, 7, 8)]


def _column(key: str) -> int:
    return int(key[2:])


def _lane(key: str) -> int:
    return LETTERS.index(key[1])


@pytest.mark.parametrize(("lanes", "columns", "seed", "words", "headed", "timed"), GRIDS)
def test_a_grid_is_transposed_where_its_lanes_fit_a_phone_else_keeps_its_grid(lanes, columns, seed, words, headed,
                                                                               timed):
    data = grid(lanes, columns, seed=seed, words=words, headed=headed, timed=timed)
    spec = spec_from_data(data)
    narrow, wide = diagram(spec, narrow=True), diagram(spec)
    if (lanes, columns, seed) in FITTING:
        assert narrow != wide
    if (lanes, columns, seed) in TOO_WIDE:
        assert narrow == wide
    if narrow == wide:
        _kept(narrow, columns)
        assert diagram(spec, narrow=True, wide=wide) is wide  # drawn once: the wide layout handed on is reused
    else:
        _transposed(data, narrow, lanes, columns, headed, timed)


def _transposed(data: dict, narrow, lanes: int, columns: int, headed: bool, timed: bool) -> None:
    """The transposed narrow variant's invariants."""
    boxes = narrow.boxes
    # Every box of one column (one time) on one row, the rows in time order down the figure.
    rows: dict[int, set[tuple[float, float]]] = {}
    for key, box in boxes.items():
        rows.setdefault(_column(key), set()).add((box.y, box.h))
    assert all(len(found) == 1 for found in rows.values()), rows
    tops = [next(iter(rows[c]))[0] for c in sorted(rows)]
    assert tops == sorted(tops) and len(set(tops)) == len(tops)
    # The lanes side by side, left to right in their order, each under its name (centred over it).
    xs: dict[int, set[float]] = {}
    for key, box in boxes.items():
        xs.setdefault(_lane(key), set()).add(box.x)
    assert all(len(found) == 1 for found in xs.values())
    lefts = [next(iter(xs[lane])) for lane in sorted(xs)]
    assert lefts == sorted(lefts) and len(set(lefts)) == lanes
    assert [" ".join(h.lines) for h in narrow.lanes] == [LETTERS[lane].upper() for lane in range(lanes)]
    for header, left in zip(narrow.lanes, lefts, strict=True):
        assert header.centred and header.above and abs(header.x - left) < 0.05
        assert header.y + header.h <= min(b.y for b in boxes.values())
    # The column headers head the rows, at the left of the lanes, each on its row's middle.
    if headed:
        assert [h.lines[0] for h in narrow.columns] == [f"c{n + 1}" for n in sorted(rows)]
        for header in narrow.columns:
            y, h = next(iter(rows[header.column]))
            assert not header.centred and header.x + header.w < min(lefts)
            assert abs((header.y + header.h / 2) - (y + h / 2)) < 0.1
            if timed:
                assert header.lines[-1].endswith("ns")
    else:
        assert narrow.columns == ()
    # No text under 12 CSS px in a 360 px phone's figure; at most a phone's width.
    assert narrow.width <= TRANSPOSED_MAX_WIDTH
    assert readable_width(narrow.width) <= PHONE_FIGURE_PX
    assert SMALLEST_TEXT * PHONE_FIGURE_PX / narrow.width >= MIN_TEXT_PX
    # Its arrows are routed cleanly: no fault of the route rules, every route and label clear.
    assert set(narrow.arrows) == {key for key, t in data["targets"].items() if t["kind"] == "path"}
    assert faults(narrow.arrows, frozenset()) == []
    assert all(arrow.clean for arrow in narrow.arrows.values())


def _kept(narrow, columns: int) -> None:
    """The kept grid's invariants: the wide layout's, scrolling in its frame, never one column."""
    xs = {box.x for box in narrow.boxes.values()}
    assert len(xs) == len({_column(key) for key in narrow.boxes})
    for column in {_column(key) for key in narrow.boxes}:  # a column's boxes one above another, lanes top to bottom
        under = sorted((box.y, _lane(key)) for key, box in narrow.boxes.items() if _column(key) == column)
        assert [lane for _, lane in under] == sorted(lane for _, lane in under)
        assert len({narrow.boxes[key].x for key in narrow.boxes if _column(key) == column}) == 1
    if narrow.columns:  # headers kept over the columns
        assert [h.column for h in narrow.columns] == list(range(len(xs)))


def test_the_widest_phone_fit_is_tried_after_the_narrowest():
    three = spec_from_data(grid(3, 3, seed=16, words=SHORT))
    five = spec_from_data(grid(4, 5, seed=7, words=SHORT))
    assert diagram(three, narrow=True).width <= NARROW_MIN_WIDTH  # a 320 px screen holds it
    assert NARROW_MIN_WIDTH < diagram(five, narrow=True).width <= TRANSPOSED_MAX_WIDTH  # a 360 px phone does
    pipeline = check_spec(load_spec(DATA / "cpu-pipeline.mechanism.json")).spec
    assert pipeline is not None
    assert NARROW_MIN_WIDTH < diagram(pipeline, narrow=True).width <= TRANSPOSED_MAX_WIDTH


def test_the_pipeline_spec_is_transposed_and_validates_without_route_warnings():
    loaded = load_spec(DATA / "cpu-pipeline.mechanism.json")
    spec = check_spec(loaded).spec
    assert spec is not None
    laid = lay_out(loaded, spec)
    assert laid.findings == []
    assert laid.narrow is not None and laid.wide is not None and laid.narrow != laid.wide
    # The stall's cycle: all five stages on one row, IF to WB left to right.
    row = sorted((laid.narrow.boxes[key].x, key) for key in ("if4", "id4", "ex4", "mem4"))
    assert [key for _, key in row] == ["if4", "id4", "ex4", "mem4"]
    assert len({laid.narrow.boxes[key].y for key in ("if4", "id4", "ex4", "mem4")}) == 1
    assert laid.narrow.bottom < 1000  # not a 3,456-unit column


@pytest.mark.parametrize("name", ["batching", "chunked-prefill", "kv-cache-bytes", "latency-ledger", "prefill-decode",
                                  "prefill-vs-decode"])
def test_every_gallery_grid_with_a_middle_layout_has_an_upper_one_that_breaks_no_rule(name):
    """Issue 26: between the middle layout's reach (85 % of a figure up to 977 px) and the wide grid's 12 px width
    (1,058 to 1,214 px) the gallery's grids scrolled in their frame; each has an upper middle layout, the grid
    transposed in UPPER_WIDTH, wider than the middle one, with no route fault.  An arrow to a later row leaves its
    box's bottom and enters the other's top (prefill-vs-decode's fed-back arrow took three bends out of a side, and
    the grid had no upper layout)."""
    from mechdiagram.layout import middle_diagram
    from mechdiagram.layout.checks import against_flow
    from mechdiagram.layout.sizes import UPPER_WIDTH
    from support.specs import MECHANISMS

    spec = spec_from_data(json.loads((MECHANISMS / f"{name}.mechanism.json").read_text("utf-8")))
    middle, upper = middle_diagram(spec), middle_diagram(spec, UPPER_WIDTH)
    assert middle is not None and upper is not None and middle.width < upper.width <= UPPER_WIDTH
    assert not faults(upper.arrows, against_flow(spec, upper, narrow=True))
    for path in spec.paths:
        source, dest = upper.boxes[path.source], upper.boxes[path.dest]
        if dest.y >= source.bottom:  # a later row
            (x0, y0), *_ = upper.arrows[path.key].points
            tip = upper.arrows[path.key].head[0]
            # out of the bottom, its head's tip at the top (within the unit it keeps off the box's stroke)
            assert y0 == source.bottom and abs(tip[1] - dest.y) <= 1, (path.key, upper.arrows[path.key].points)
