"""Layout rules: ``layout.lanes`` names lanes the keys make (unknown-lane), and every node has a
cell of its own (layout-position).

:func:`lanes_and_positions` reads the :class:`~renderer.validate.outline.Outline`;
:func:`cell_collisions` needs a valid spec, because it asks the layout stage
itself where each node goes, so the two can never disagree.
"""

from __future__ import annotations

from ..findings import Finding, pointer_join
from ..layout import Diagram, diagram, grid_cells
from ..load import LoadedSpec
from ..model import Spec, parse_lane_key
from .context import RuleContext
from .outline import Outline
from .references import id_hint
from .wording import quote


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


def unclean_routes(loaded: LoadedSpec, model: Spec) -> tuple[list[Finding], Diagram, Diagram]:
    """Rule route (warnings): a path whose route or label could not be kept clear of the boxes and
    the other labels, in the wide layout (which a ``layout.positions`` override can cause) or in the
    narrow one, of a phone (long labels on many tracks).  Runs both layouts itself, and returns their
    diagrams, wide then narrow, for the drawing stage."""
    drawn, narrow = diagram(model), diagram(model, narrow=True)
    findings = []
    crowded = [key for key, arrow in drawn.arrows.items() if arrow.crowded]
    if crowded:  # one cause, one finding: at the first of them
        pointer = pointer_join("targets", crowded[0])
        line, column = loaded.locate(pointer, key=True)
        shown = ", ".join(quote(key) for key in crowded[:5]) + (", …" if len(crowded) > 5 else "")
        findings.append(Finding(loaded.display, pointer, f"the figure's {len(drawn.arrows)} arrows took longer to "
                                f"route than a build may: {len(crowded)} of them ({shown}) are drawn straight; split "
                                "the spec or draw fewer arrows", "route", "warning", line, column))
    for key, arrow in drawn.arrows.items():
        narrow_clean = narrow.arrows[key].clean if key in narrow.arrows else True
        if arrow.crowded or (arrow.clean and narrow_clean):
            continue
        pointer = pointer_join("targets", key)
        line, column = loaded.locate(pointer, key=True)
        if not arrow.clean:
            message = (f"path {quote(key)} has no route and label clear of the boxes and the other labels; move its "
                       "nodes apart (layout.positions) or shorten its label")
        else:
            message = (f"path {quote(key)} has no label clear of the boxes and the other labels in the narrow layout "
                       "(a phone's); shorten its label or the labels near it")
        findings.append(Finding(loaded.display, pointer, message, "route", "warning", line, column))
    return findings, drawn, narrow


def cell_collisions(loaded: LoadedSpec, model: Spec) -> list[Finding]:
    """Rule layout-position on a valid spec: two keys that name one grid cell, or a ``layout.positions``
    cell where the automatic layout already puts another node."""
    positions = model.layout.positions
    cells, _ = grid_cells(model)
    automatic: dict[tuple[int, int], str] = {}
    findings = []

    def add(pointer: str, message: str) -> None:
        line, column = loaded.locate(pointer, key=True)
        findings.append(Finding(loaded.display, pointer, message, "layout-position", line=line, column=column))

    for key, spot in cells.items():
        if key in positions:
            continue
        if spot in automatic:  # stage0 and stage00: the same lane and index
            add(pointer_join("targets", key), f"{quote(key)} falls in the same cell as {quote(automatic[spot])} "
                f"(row {spot[0]}, column {spot[1]}): their keys name the same lane and index; rename one or "
                "place it with layout.positions")
        automatic.setdefault(spot, key)
    for key, spot in positions.items():
        if spot in automatic:
            add(pointer_join("layout", "positions", key), f"{quote(key)} is placed in row {spot[0]}, column "
                f"{spot[1]}, where the automatic layout puts {quote(automatic[spot])}; choose a free cell or "
                "place both")
    return findings
