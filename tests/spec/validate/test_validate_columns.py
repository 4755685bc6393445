"""Rule layout-columns: ``layout.columns`` heads a lane grid's columns, no more than it has; ``"time":
"proportional"`` comes with columns that each have a span (not all 0); a span and ``unit`` come with it.  Each
finding is located (JSON Pointer, line and column) and says what to write instead."""

from __future__ import annotations

import json

import pytest

from mechdiagram.layout.checks import lay_out
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import RULES, check_spec
from support.grids import grid_spec, pipeline_spec
from support.specs import minimal_spec, position

TIMED = [{"label": "queue", "span": 18}, {"label": "prefill", "span": 74}]


def _found(layout: dict, data: dict | None = None) -> tuple[str, list[tuple[str, str, str, int, int]]]:
    """The spec's text and what the author is told: validation's findings, then on a valid spec the layout's."""
    data = data or minimal_spec()
    data["layout"] = layout
    text = json.dumps(data, indent=2)
    loaded = parse_text(text.encode("utf-8"), "x.json")
    validation = check_spec(loaded)
    found = validation.findings + (lay_out(loaded, validation.spec).findings if validation.spec else [])
    return text, [(f.pointer, f.rule, f.message, f.line, f.column) for f in found]


@pytest.mark.parametrize("layout", [
    {"columns": ["cycle 1", "cycle 2"]},
    {"columns": ["cycle 1"]},  # fewer than the grid has: the rest have no header
    {"columns": TIMED, "time": "proportional"},
    {"columns": TIMED, "time": "proportional", "unit": "ms"},
    {"columns": [{"label": "token 1", "span": 0}, {"label": "gap", "span": 46.73}], "time": "proportional"},
    {"lanes": ["b", "a"], "columns": ["x", "y"], "positions": {"a1": {"row": 0, "column": 1}, "b1": {"row": 1,
                                                                                                    "column": 1}}},
])
def test_headed_and_proportional_grids_are_valid(layout):
    assert _found(layout)[1] == []


def test_the_generated_grids_are_valid():
    for data in (pipeline_spec(), grid_spec(4, 7, seed=1), grid_spec(3, 4, seed=2, spans=[1, 0, 3, 9])):
        assert _found(data["layout"], data)[1] == []


def _one(layout: dict, needle: str, skip: int = 0) -> tuple[str, str, tuple[int, int]]:
    """The one finding of ``layout``: pointer, message and whether it is ``skip`` characters after the first
    ``needle`` of the text (a finding is located at the value its pointer names)."""
    text, found = _found(layout)
    assert len(found) == 1, found
    pointer, rule, message, line, column = found[0]
    assert rule == "layout-columns"
    at_line, at_column = position(text, needle)
    return pointer, message, (line, column) == (at_line, at_column + skip) and (line, column)


def test_more_columns_than_the_grid_has():
    pointer, message, where = _one({"columns": ["c0", "c1", "c2", "c3"]}, '"c2"')
    assert pointer == "/layout/columns/2" and where
    assert message.startswith("the grid has 2 columns") and "columns lists 4" in message
    assert 'remove the 2 from column 2 on' in message and '"a2"' in message  # what to do, and a key that would do it


def test_positions_give_the_grid_more_columns():
    layout = {"columns": ["c0", "c1", "c2"], "positions": {"b1": {"row": 1, "column": 2}}}
    assert _found(layout)[1] == []


def test_time_without_columns():
    pointer, message, where = _one({"time": "proportional"}, '"proportional"')
    assert pointer == "/layout/time" and where
    assert 'add them, such as "columns": [{"label": "queue", "span": 18}' in message and "or remove time" in message


def test_unit_without_proportional_time():
    pointer, message, where = _one({"columns": ["c0", "c1"], "unit": "ms"}, '"ms"')
    assert pointer == "/layout/unit" and where
    assert 'add "time": "proportional"' in message and "or remove unit" in message


def test_a_span_without_proportional_time():
    text, found = _found({"columns": TIMED})
    assert [f[0] for f in found] == ["/layout/columns/0/span", "/layout/columns/1/span"]
    pointer, _, message, line, column = found[0]
    assert (line, column) == position(text, "18")
    assert 'add "time": "proportional" to layout' in message and 'write this column as the header "queue"' in message


def test_a_header_under_proportional_time():
    layout = {"columns": ["queue", "prefill"], "time": "proportional"}
    text, found = _found(layout)
    assert [(f[0], f[1]) for f in found] == [("/layout/columns/0", "layout-columns"),
                                             ("/layout/columns/1", "layout-columns")]
    assert (found[0][3], found[0][4]) == position(text, '"queue"')
    assert '{"label": "queue", "span": …}' in found[0][2]


@pytest.mark.parametrize("layout, pointer, first, second", [
    ({"columns": ["queue", {"label": "prefill", "span": 74}], "time": "proportional"}, "/layout/columns/0",
     "has no span", "columns mix strings and objects"),
    ({"columns": ["queue", {"label": "prefill", "span": 74}]}, "/layout/columns/1/span",
     "columns mix strings and objects", 'write this column as the header "prefill"'),
])
def test_a_list_that_mixes_strings_and_objects_is_told_which_form(layout, pointer, first, second):
    text, found = _found(layout)
    assert len(found) == 1, found
    assert found[0][0] == pointer and first in found[0][2] and second in found[0][2]


def test_every_span_zero():
    layout = {"columns": [{"label": "a", "span": 0}, {"label": "b", "span": 0}], "time": "proportional"}
    pointer, message, where = _one(layout, '"columns": [', len('"columns": '))
    assert pointer == "/layout/columns" and where and "every column's span is 0" in message


def test_proportional_time_needs_a_span_for_every_column():
    layout = {"columns": [{"label": "queue", "span": 18}], "time": "proportional"}
    pointer, message, where = _one(layout, '"columns": [', len('"columns": '))
    assert pointer == "/layout/columns" and where
    assert "the grid has 2 columns" in message and "add 1 more" in message


def test_columns_of_a_spec_that_is_no_lane_grid():
    data = minimal_spec()
    data["targets"]["queue"] = data["targets"].pop("a0")
    for step in data["scenarios"][0]["steps"]:
        step["active"] = ["queue" if key == "a0" else key for key in step["active"]]
    data["targets"]["ab"]["from"] = "queue"
    text, found = _found({"columns": ["c0"]}, data)
    assert [(f[0], f[1]) for f in found] == [("/layout/columns", "layout-columns")]
    assert '"queue" is not; rename them or remove columns' in found[0][2]


@pytest.mark.parametrize("layout, pointer, rule", [
    ({"time": "even"}, "/layout/time", "enum"),
    ({"columns": [{"label": "queue"}], "time": "proportional"}, "/layout/columns/0", "required"),
    ({"columns": [{"label": "queue", "span": -1}], "time": "proportional"}, "/layout/columns/0/span", "minimum"),
    ({"columns": [{"label": "queue", "spam": 1, "span": 1}], "time": "proportional"}, "/layout/columns/0/spam",
     "additionalProperties"),
    ({"columns": []}, "/layout/columns", "minItems"),
    ({"columns": ["x", 3]}, "/layout/columns/1", "oneOf"),
    ({"columns": ["x"], "time": "proportional", "unit": "milliseconds of wall-clock time"}, "/layout/unit",
     "maxLength"),
])
def test_the_schema_refuses_malformed_keys(layout, pointer, rule):
    assert (pointer, rule) in [(f[0], f[1]) for f in _found(layout)[1]]


def test_the_rule_is_documented():
    assert "layout-columns" in RULES
