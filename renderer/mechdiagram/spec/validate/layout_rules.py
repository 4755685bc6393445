"""Layout rules on what the spec says itself: ``layout.lanes`` names lanes the keys make (unknown-lane),
and no two ``layout.positions`` name one cell (layout-position).

:func:`lanes_and_positions` reads the :class:`~mechdiagram.spec.validate.outline.Outline`.  Where the layout would
put each node, and whether it can route each path clear, is the layout stage's to say
(:mod:`mechdiagram.layout.checks`): validation never runs the layout.
"""

from __future__ import annotations

from mechdiagram.shared.model import parse_lane_key
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.outline import Outline
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
