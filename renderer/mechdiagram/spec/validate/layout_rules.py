"""Layout rules on what the spec says itself: ``layout.lanes`` names lanes the keys make (unknown-lane),
no two ``layout.positions`` name one cell (layout-position), and ``layout.columns``, ``time`` and ``unit`` go
together (layout-columns).

:func:`lanes_and_positions` and :func:`columns_and_time` read the
:class:`~mechdiagram.spec.validate.outline.Outline`.  Where the layout would put each node, how many columns the
grid has, and whether it can route each path clear, is the layout stage's to say
(:mod:`mechdiagram.layout.checks`): validation never runs the layout.
"""

from __future__ import annotations

from mechdiagram.shared.model import PROPORTIONAL_TIME, parse_lane_key
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.outline import Outline, OutlineColumn
from mechdiagram.spec.validate.references import id_hint
from mechdiagram.spec.validate.wording import quote


def lanes_and_positions(ctx: RuleContext, outline: Outline) -> None:
    """Rules unknown-lane and layout-position on what the spec says itself."""
    if not outline.layout_present:
        return
    nodes = outline.keys_of("node")
    # A target of unknown kind ("box") may be meant as a node: its lane counts, so that its kind finding
    # is the only one.
    unsure = [key for key, target in outline.target_map.items() if target.kind is None]
    lanes: list[str] = []
    for key in nodes + unsure:
        parsed = parse_lane_key(key)
        if parsed and parsed[0] not in lanes:
            lanes.append(parsed[0])
    loose = [key for key in nodes if parse_lane_key(key) is None]
    if outline.lanes_listed and loose:
        ctx.add(("layout", "lanes"), f"lanes apply to a grid, where every node key is <lane><index>, but "
                f"{', '.join(quote(k) for k in loose[:5])} {'is' if len(loose) == 1 else 'are'} not; rename "
                "them or remove lanes", "unknown-lane")
    listed: set[str] = set()
    for lane in outline.lanes:
        where = ("layout", "lanes", lane.index) if lane.short else ("layout", "lanes", lane.index, "key")
        if lane.key in listed:
            ctx.add(where, f"lane {quote(lane.key)} is listed more than once", "unknown-lane")
        elif lane.key not in lanes:
            hint = _digit_hint(lane.key, nodes + unsure) or ctx.suggest(lane.key, lanes, "lanes")
            ctx.add(where, f"lane {quote(lane.key)} has no targets{hint}", "unknown-lane")
        listed.add(lane.key)
    cells: dict[tuple[int, int], str] = {}
    for key, spot in outline.positions.items():
        if key in unsure:
            continue  # its kind finding says enough
        if key not in nodes:
            what = "a path" if key in outline.target_map else "not a target"
            hint = "" if key in outline.target_map else (id_hint(outline, key, "node")
                                                         or ctx.suggest(key, nodes, "node targets"))
            ctx.add(("layout", "positions", key), f"{quote(key)} is {what}; positions place node targets{hint}",
                    "layout-position", key=True)
            continue
        if spot is None:
            continue
        if spot in cells:
            ctx.add(("layout", "positions", key), f"{quote(key)} is placed in row {spot[0]}, column {spot[1]}, "
                    f"where {quote(cells[spot])} already is", "layout-position", key=True)
        cells.setdefault(spot, key)


def _digit_hint(lane: str, keys: list[str]) -> str:
    """A hint for a listed lane whose name ends in a digit, which a key's index swallows ("app1" of "app12")."""
    if not lane[-1:].isdigit():
        return ""
    for key in keys:
        parsed = parse_lane_key(key)
        if key.startswith(lane) and parsed is not None:
            return (f"; the digits that end a key are its index, so {quote(key)} is lane {quote(parsed[0])}, index "
                    f"{parsed[1]}: end the lane's name with a letter")
    return ""


def columns_and_time(ctx: RuleContext, outline: Outline) -> None:
    """Rule layout-columns on what the spec says itself: ``layout.columns`` labels a lane grid's columns (every
    node key ``<lane><index>``); ``"time": "proportional"`` needs columns, each an object with a span, not all 0;
    a column's ``span`` needs proportional time; ``unit`` needs proportional time.  A list is written in one form:
    strings (headers) or objects (with spans, under proportional time), so a list that mixes them is told which
    form its time asks for.  How many columns the grid has is the layout's to say
    (:func:`mechdiagram.layout.checks.column_count`)."""
    columns = outline.columns
    if not outline.layout_present:
        return
    proportional = columns.time == PROPORTIONAL_TIME
    if columns.listed:
        loose = [key for key in outline.keys_of("node") if parse_lane_key(key) is None]
        if loose:
            ctx.add(("layout", "columns"), f"columns label a lane grid's columns, where every node key is "
                    f"<lane><index>, but {', '.join(quote(k) for k in loose[:5])} "
                    f"{'is' if len(loose) == 1 else 'are'} not; rename them or remove columns", "layout-columns")
            return
    if proportional and not columns.listed:
        ctx.add(("layout", "time"), f'time "{PROPORTIONAL_TIME}" sizes the columns by their spans, but layout has no '
                'columns; add them, such as "columns": [{"label": "queue", "span": 18}, {"label": "prefill", '
                '"span": 74}], or remove time', "layout-columns")
    if columns.unit and not proportional:
        ctx.add(("layout", "unit"), 'unit names the unit of the columns\' spans, which only proportional time '
                f'draws; add "time": "{PROPORTIONAL_TIME}" (with a span for every column) or remove unit',
                "layout-columns")
    mixed = {item.text for item in columns.items} == {True, False}
    for item in columns.items:
        if proportional and item.text:
            ctx.add(("layout", "columns", item.index), _no_span(item, mixed), "layout-columns")
        elif not proportional and not item.text:
            ctx.add(("layout", "columns", item.index, "span"), _span_without_time(item, mixed), "layout-columns")
    spans = [item.span for item in columns.items if not item.text]
    if proportional and spans and len(spans) == len(columns.items) and all(span == 0 for span in spans):
        ctx.add(("layout", "columns"), "every column's span is 0, so proportional time has no time to draw; give "
                "the columns the time each stands for (0 is for an instant)", "layout-columns")


def _no_span(item: OutlineColumn, mixed: bool) -> str:
    label = item.label or ""
    also = "; columns mix strings and objects, and" if mixed else ";"
    return (f"column {item.index} ({quote(label)}) has no span, which proportional time needs to size it{also} under "
            f'"time": "{PROPORTIONAL_TIME}" every column is an object: {{"label": {quote(label)}, "span": …}}')


def _span_without_time(item: OutlineColumn, mixed: bool) -> str:
    label = quote(item.label or "")
    also = "columns mix strings and objects, and " if mixed else ""
    return (f"{also}a column's span sizes it only under proportional time; add "
            f'"time": "{PROPORTIONAL_TIME}" to layout (with a span for every column), or write this column as the '
            f"header {label}")
