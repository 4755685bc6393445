"""The layout stage's own findings, on a valid spec: two nodes in one grid cell (``layout-position``, an
error), more ``layout.columns`` than the grid has columns, or too few to size them all (``layout-columns``, an
error), and a path whose route or label could not be kept clear (``route``, a warning).

:func:`lay_out` is the stage's entry for the one-spec API and ``validate``: it asks the placement where each
node goes (so the rule and the drawing never disagree), then lays the figure out wide and narrow once each
and hands both diagrams on to the drawing.
"""

from __future__ import annotations

from msgspec import Struct

from mechdiagram.layout import Diagram, diagram, grid_cells
from mechdiagram.shared.findings import Finding, pointer_join
from mechdiagram.shared.model import Spec, parse_lane_key
from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate.wording import quote


class LaidOut(Struct, frozen=True):
    """The layout of one valid spec: ``findings`` (sorted by the caller), and the ``wide`` and ``narrow``
    diagrams, ``None`` when a finding is an error (two nodes in one cell: nothing is laid out)."""

    findings: list[Finding]
    wide: Diagram | None = None
    narrow: Diagram | None = None


def lay_out(loaded: LoadedSpec, model: Spec) -> LaidOut:
    """Lay out the valid spec ``model`` (read from ``loaded``, which locates the findings) wide and narrow, with
    the layout's own findings: :func:`cell_collisions` and :func:`column_count`, and when there are none
    :func:`rows_past_the_lanes` and :func:`unclean_routes`."""
    errors = [] if model.layout.view == SEQUENCE else cell_collisions(loaded, model) + column_count(loaded, model)
    if errors:
        return LaidOut(errors)
    wide, narrow = diagram(model), diagram(model, narrow=True)
    return LaidOut([*rows_past_the_lanes(loaded, model), *unclean_routes(loaded, wide, narrow)], wide, narrow)


def rows_past_the_lanes(loaded: LoadedSpec, model: Spec) -> list[Finding]:
    """Rule layout-position (warnings) on a lane grid: a ``layout.positions`` row below the last lane, which
    draws every row between as an empty, unnamed lane (a grid's rows are its lanes)."""
    if not model.layout.positions:
        return []
    cells, lanes = grid_cells(model, positions=False)
    if not lanes:
        return []  # a layered layout: its rows are the author's to choose
    last = len(lanes) - 1
    findings = []
    for key, (row, _) in model.layout.positions.items():
        if key not in cells or row <= last:
            continue
        drawn = (f"rows {last + 1} to {row} are drawn as lanes with no name, all but the last empty" if row > last + 1
                 else f"{quote(key)} is drawn in a lane with no name")
        pointer = pointer_join("layout", "positions", key, "row")
        line, column = loaded.locate(pointer)
        findings.append(Finding(loaded.display, pointer, f"row {row} is below the grid's last lane (row {last}), so "
                                f"{drawn}; give a row from 0 to {last}, or add the lane to layout.lanes",
                                "layout-position", "warning", line, column))
    return findings


def unclean_routes(loaded: LoadedSpec, drawn: Diagram, narrow: Diagram) -> list[Finding]:
    """Rule route (warnings): a path whose route or label could not be kept clear of the boxes and
    the other labels, in the wide layout ``drawn`` (which a ``layout.positions`` override can cause) or in the
    ``narrow`` one, of a phone (long labels on many tracks)."""
    findings = []
    crowded = [key for key, arrow in drawn.arrows.items()
               if arrow.crowded or (key in narrow.arrows and narrow.arrows[key].crowded)]
    if crowded:  # one cause, one finding: at the first of them
        pointer = pointer_join("targets", crowded[0])
        line, column = loaded.locate(pointer, key=True)
        shown = ", ".join(quote(key) for key in crowded[:5]) + (", …" if len(crowded) > 5 else "")
        findings.append(Finding(loaded.display, pointer, f"the figure's {len(drawn.arrows)} arrows took longer to "
                                f"route and label than a build may: {len(crowded)} of them ({shown}) are drawn "
                                "straight or labelled where they may cross other arrows; split the spec or draw "
                                "fewer arrows", "route", "warning", line, column))
    for key, arrow in drawn.arrows.items():
        narrow_clean = narrow.arrows[key].clean if key in narrow.arrows else True
        if key in crowded or (arrow.clean and narrow_clean):
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
    return findings


def column_count(loaded: LoadedSpec, model: Spec) -> list[Finding]:
    """Rule layout-columns on a valid spec: ``layout.columns`` lists no more columns than the grid has (its columns
    are those of :func:`~mechdiagram.layout.placement.grid_cells`, ``layout.positions`` included), and under
    proportional time no fewer (every column needs its span).  The forms of the list are the spec stage's
    (:func:`mechdiagram.spec.validate.layout_rules.columns_and_time`)."""
    listed = len(model.layout.columns)
    cells, lanes = grid_cells(model)
    if not listed or not lanes:
        return []
    count = max(column for _, column in cells.values()) + 1
    if listed > count:
        pointer = pointer_join("layout", "columns", count)
    elif listed < count and model.layout.proportional:
        pointer = pointer_join("layout", "columns")
    else:
        return []
    line, column = loaded.locate(pointer)
    has = f"the grid has {count} column{'s' if count != 1 else ''} (0 to {count - 1}, from the <lane><index> keys " \
          "and layout.positions)"
    if listed > count:
        message = (f"{has}, but columns lists {listed}: remove the {listed - count} from column {count} on, or add "
                   f"nodes in those columns (a key such as {quote(_example_key(model))} adds column {count})")
    else:
        message = (f"{has}, but columns lists {listed}: proportional time needs the span of every column; add "
                   f"{count - listed} more")
    return [Finding(loaded.display, pointer, message, "layout-columns", line=line, column=column)]


def _example_key(model: Spec) -> str:
    """A key that adds a column to the grid: the first lane's name and the index after the largest."""
    parsed = [p for p in (parse_lane_key(node.key) for node in model.nodes) if p is not None]
    return f"{parsed[0][0]}{max(index for _, index in parsed) + 1}"


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
