"""Stage 6, the explorer's data: the drawing's structure as the HTML figure's keyboard and screen-reader
explorer walks it (issue 31), and the shapes its focus ring takes in each layout.

The structure is a tree in the order an ARIA ``tree`` shows it (WAI-ARIA Authoring Practices 1.2, Tree View):
in a lane grid each lane (its header's label, or its key) is an item of level 1 with its boxes at level 2; in a
layered graph and a sequence each group (the spec's ``groups``, by its label) is such an item, with its members,
and the boxes (participants) in no group are level 1.  Under each box are its arrows, out
then in, each of which leads to its other end.  Boxes come in reading order (top to bottom, then by the
direction of the drawing's lines: left to right, as the drawing is never mirrored); boxes without arrows are
not set apart, since reading order already puts them where they are seen.  A layered graph's figure shows that
tree; a lane grid's and a sequence's show an ARIA ``grid`` (Authoring Practices 1.2, Data Grid) over the same
items (:func:`grid`): a row per lane and a column per time, or a row per step and a column per participant.
Every word is a message of :mod:`mechdiagram.shared.locale` (author text isolated), counted with the language's
plural rules; what an item says of the current step (active, used) is added by the player
(``static/player.js``), from each step's ``on`` keys and :func:`step_states`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mechdiagram.layout.marks import MARK_WORDS
from mechdiagram.layout.placement import grid_cells
from mechdiagram.layout.sequence import participant_order
from mechdiagram.shared.locale import Words, fill
from mechdiagram.shared.model import PathTarget, Scenario, Spec, Step, parse_lane_key
from mechdiagram.shared.views import SEQUENCE

if TYPE_CHECKING:
    from mechdiagram.layout.geometry import Arrow, Layout, Rect

#: User units between an active box's highlight ring and the focus ring around it.
FOCUS_GAP = 4.0
#: The key under which :func:`focus_shapes` gives a sequence row's rectangle, its step's number after it (no
#: target key begins with ``#``: the schema's key pattern).
ROW_KEY = "#row"
#: The key under which :func:`focus_shapes` says whether a lane grid's lanes run across (rows, as drawn wide) or
#: down (columns, as transposed): where an empty cell's ring goes.
LANES_KEY = "#lanes"


def fmt(value: float) -> str:
    """A coordinate at fixed precision (0.1 user unit) without trailing zeros, as the drawing writes it."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _rect(rect: Rect, grow: float = 0.0) -> list[float]:
    grown = rect.grown(grow) if grow else rect
    return [float(fmt(grown.x)), float(fmt(grown.y)), float(fmt(grown.w)), float(fmt(grown.h))]


def _arrow_shape(arrow: Arrow) -> dict[str, Any]:
    shape: dict[str, Any] = {"d": "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points),
                             "h": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)}
    if arrow.label_box is not None and arrow.label_lines:
        shape["l"] = _rect(arrow.label_box, 2.0)
    return shape


def focus_shapes(layout: Layout) -> dict[str, dict[str, Any]]:
    """The focus ring of every target the drawing shows, by target key (user units of the drawing): a box's
    rectangle ``r`` ([x, y, width, height], :data:`FOCUS_GAP` outside its highlight ring); an arrow's route
    ``d`` (SVG path data), its head ``h`` (polygon points) and, when labelled, its label's rectangle ``l``.
    A message of the sequence view drawn in several rows is ringed where it is first drawn, and in each row
    under :data:`ROW_KEY`, the step's number, a slash and its key (``#row2/reply``, what the explorer's grid
    rings in that step's row); each row of the sequence view is the rectangle ``r`` under :data:`ROW_KEY` and its
    step's number (``#row2``), which the grid rings for a step's row and, across a participant's head, for one of
    its cells.  A lane grid says under :data:`LANES_KEY` whether its lanes run ``across`` (unless it has one box)."""
    shapes: dict[str, dict[str, Any]] = {key: {"r": _rect(box.ring, FOCUS_GAP)} for key, box in layout.boxes.items()}
    for key, arrow in layout.arrows.items():
        shapes[key] = _arrow_shape(arrow)
    for row in layout.rows:
        for message in row.messages:
            shapes.setdefault(message.key, _arrow_shape(message.arrow))
            shapes[f"{ROW_KEY}{row.number}/{message.key}"] = _arrow_shape(message.arrow)
        shapes[f"{ROW_KEY}{row.number}"] = {"r": _rect(row)}
    if layout.direction == "grid" and (across := _lanes_across(layout)) is not None:
        shapes[LANES_KEY] = {"across": across}
    return shapes


def _lanes_across(layout: Layout) -> bool | None:
    """Whether a lane grid's lanes run across in ``layout`` (as rows), from two boxes of one column in two lanes
    (one above the other when they do), else two boxes of one lane; ``None`` with one box alone."""
    placed = [(cell, layout.boxes[key]) for key, cell in sorted(layout.cells.items()) if key in layout.boxes]
    first_in_column: dict[int, tuple[int, Rect]] = {}
    for (lane, column), box in placed:
        lane_seen, other = first_in_column.setdefault(column, (lane, box))
        if lane_seen != lane:
            return abs(other.y - box.y) > abs(other.x - box.x)
    first_in_lane: dict[int, Rect] = {}
    for (lane, _), box in placed:
        other = first_in_lane.setdefault(lane, box)
        if other is not box:
            return abs(other.x - box.x) > abs(other.y - box.y)
    return None


def _lanes(spec: Spec) -> dict[str, str] | None:
    """Each node's lane name in a lane grid (the lane's header, else its key), or ``None`` in another view."""
    if spec.layout.view is not None:
        return None
    _, labels = grid_cells(spec, positions=False)
    if not labels:
        return None
    lane_keys: list[str] = []
    for node in spec.nodes:
        parsed = parse_lane_key(node.key)
        if parsed is not None and parsed[0] not in lane_keys:
            lane_keys.append(parsed[0])
    ordered = [lane.key for lane in spec.layout.lanes] + [k for k in lane_keys
                                                          if k not in {lane.key for lane in spec.layout.lanes}]
    names = {key: labels[i] or key for i, key in enumerate(ordered) if i < len(labels)}
    return {node.key: names[lane] for node in spec.nodes
            if (parsed := parse_lane_key(node.key)) is not None and (lane := parsed[0]) in names}


def _label(spec: Spec, key: str) -> str:
    target = spec.targets[key]
    return target.label or target.id


def _join(words: Words, parts: list[str]) -> str:
    """``parts`` joined by the catalogue's ``exploreJoin`` ("{first}, {rest}"), first to last."""
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = fill(words["exploreJoin"], first=part, rest=text)
    return text


def _arrow_lists(spec: Spec, words: Words, outs: list[PathTarget], ins: list[PathTarget]) -> list[str]:
    """What a box says of its arrows: "2 arrows out: batch slot to Model forward, ..." then the arrows in (each
    list left out when empty), counted with the language's plural rules."""
    say = words.say

    def listed(count_key: str, entries: list[str]) -> str:
        return fill(words["exploreList"], text=words.count(count_key, len(entries)), list=_join(words, entries))

    lists = []
    if outs:
        lists.append(listed("exploreArrowsOut", [
            say("exploreOutTo", label=p.label, dest=_label(spec, p.dest)) if p.label
            else say("exploreOutToBare", dest=_label(spec, p.dest)) for p in outs]))
    if ins:
        lists.append(listed("exploreArrowsIn", [
            say("exploreInFrom", label=p.label, source=_label(spec, p.source)) if p.label
            else say("exploreInFromBare", source=_label(spec, p.source)) for p in ins]))
    return lists


def step_states(step: Step, words: Words) -> dict[str, list[str]]:
    """What a stop says of a target in ``step`` beyond active or used, by target key: the text the step's
    ``labels`` give it, then its mark's word (the catalogue's ``markNew``...), in the reader's language."""
    states: dict[str, list[str]] = {}
    for key, text in step.labels.items():
        states.setdefault(key, []).append(text)
    for key, mark in step.marks.items():
        states.setdefault(key, []).append(words[MARK_WORDS[mark]])
    return states


def structure(spec: Spec, scenario: Scenario, shapes: dict[str, dict[str, Any]], words: Words) -> dict[str, Any]:
    """The explorer's tree for ``scenario``, drawn with ``shapes`` (:func:`focus_shapes` of its wide layout: the
    targets it shows and where).  ``items`` lists the tree's items in order, each a dict: ``kind`` (``"group"``
    a lane or a group, ``"node"``, ``"arrow"``), ``key`` (the target's key; the name of a lane or a group),
    ``level`` (from 1),
    ``parent`` (an item's index, -1 at level 1), ``head`` (what it says first: its label and lane, or for an
    arrow its label and ends) and ``tail`` (what it says after its state in the current step: a box's arrows;
    a lane's number of boxes), and for an arrow ``far``, the index of the item of the box it leads to.
    ``name`` is the tree's accessible name."""
    say = words.say
    nodes = [n for n in spec.nodes if n.key in shapes and "r" in shapes[n.key]]
    paths: list[PathTarget] = [p for p in spec.paths if p.key in shapes and "d" in shapes[p.key]
                               and p.source in shapes and p.dest in shapes]
    nodes.sort(key=lambda n: (round(shapes[n.key]["r"][1]), shapes[n.key]["r"][0]))
    # The item above each box: its lane in a lane grid, else its group (a box in no group has none).
    above = _lanes(spec)
    if above is None:
        above = {member: group.label for group in spec.groups.values() for member in group.members}
    # A lane's or group's boxes together, where its first box is in reading order; other boxes where they are.
    first: dict[str, int] = {}
    for index, node in enumerate(nodes):
        first.setdefault(above.get(node.key, node.key), index)
    order = {node.key: index for index, node in enumerate(nodes)}
    nodes.sort(key=lambda n: (first[above.get(n.key, n.key)], order[n.key]))

    def arrow_name(path: PathTarget) -> str:
        ends = {"source": _label(spec, path.source), "dest": _label(spec, path.dest)}
        return say("exploreArrow", label=path.label, **ends) if path.label else say("exploreArrowBare", **ends)

    items: list[dict[str, Any]] = []
    node_index: dict[str, int] = {}
    pending: list[tuple[int, str]] = []  # (arrow item, the key of the box it leads to)
    group_index: dict[str, int] = {}
    for node in nodes:
        parent, level = -1, 1
        group = above.get(node.key)
        if group is not None:
            if group not in group_index:
                count = sum(1 for n in nodes if above.get(n.key) == group)
                group_index[group] = len(items)
                items.append({"kind": "group", "key": group, "level": 1, "parent": -1,
                              "head": say("exploreGroup", group=group),
                              "tail": words.count("exploreNodes", count)})
            parent, level = group_index[group], 2
        label = _label(spec, node.key)
        outs = [p for p in paths if p.source == node.key]
        ins = [p for p in paths if p.dest == node.key and p.source != node.key]
        tail = _arrow_lists(spec, words, outs, ins)
        node_index[node.key] = len(items)
        items.append({"kind": "node", "key": node.key, "level": level, "parent": parent,
                      "head": say("exploreNodeIn", label=label, group=group) if group else say("exploreNode",
                                                                                              label=label),
                      "tail": _join(words, tail) if tail else words["exploreNoArrows"]})
        me = node_index[node.key]
        for path, far in [(p, p.dest) for p in outs] + [(p, p.source) for p in ins]:
            pending.append((len(items), far))
            items.append({"kind": "arrow", "key": path.key, "level": level + 1, "parent": me,
                          "head": arrow_name(path), "tail": "", "far": -1})
    for index, far in pending:
        items[index]["far"] = node_index[far]
    return {"name": words["exploreName"], "items": items}


def grid(spec: Spec, scenario: Scenario, explore: dict[str, Any], words: Words) -> dict[str, Any] | None:
    """The explorer's ARIA ``grid`` (WAI-ARIA Authoring Practices 1.2, Data Grid) over a lane grid
    (:func:`lane_grid`) or a sequence (:func:`sequence_grid`), made from ``explore``, the :func:`structure` of
    ``scenario``; ``None`` for a layered graph, which keeps the tree.

    Both are one shape: ``name`` the grid's accessible name; ``columns``, left to right, each ``{"head"`` (what
    its header says), ``"item"`` (the index in ``explore["items"]`` of the box the header stands for, focusable,
    or -1)``}``; ``rows``, top to bottom, each ``{"head"``, ``"item"`` (the item of its row header, focusable:
    a lane, the level above its boxes), ``"step"`` (the index of the step the row stands for, or -1)``,
    "cells"}``, one cell a column: ``{"item"`` (the box it holds, or -1), ``"key"`` (the box's or participant's
    key, "" for none), ``"arrows"`` (the arrow items Enter goes into, in order), ``"name"`` (what it says when
    the step does not change it, else "": the player names it from its item)``}``.  Empty cells are kept and
    focusable, as the pattern makes every cell focusable, so that Up and Down keep their column."""
    return lane_grid(spec, explore, words) or sequence_grid(spec, scenario, explore, words)


def _under(items: list[dict[str, Any]], box: int) -> list[int]:
    return [index for index, item in enumerate(items) if item["kind"] == "arrow" and item["parent"] == box]


def lane_grid(spec: Spec, explore: dict[str, Any], words: Words) -> dict[str, Any] | None:
    """A lane grid's explorer grid (the shape :func:`grid` gives): a row per lane in the tree's order headed by
    the lane's item, a cell per column holding the box in that lane and column with its arrows (what a cell says
    follows the step: the player names it from the box's item), or an empty cell (the catalogue's
    ``exploreEmpty``); the column headers are ``layout.columns`` labels where given (author text, isolated), else
    the catalogue's ``exploreColumn`` ("Column 2"), not focusable.  ``None`` in another view."""
    if _lanes(spec) is None:
        return None
    # The keys' lanes and columns, as the narrow and middle layouts draw them (layout.positions moves a box in the
    # wide one only: the grid then follows its key, and the box's own ring still shows where it is drawn).
    cells, _ = grid_cells(spec, positions=False)
    width = max(column for _, column in cells.values()) + 1
    labelled = [column.label for column in spec.layout.columns]
    columns = [{"head": words.say("exploreGroup", group=labelled[c]) if c < len(labelled) and labelled[c]
                else words.say("exploreColumn", n=str(c + 1)), "item": -1} for c in range(width)]
    items = explore["items"]
    rows: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if item["kind"] == "group":
            rows.append({"head": item["head"], "item": index, "step": -1,
                         "cells": [{"item": -1, "key": "", "arrows": [], "name": words["exploreEmpty"]}
                                   for _ in range(width)]})
        elif item["kind"] == "node" and item["parent"] >= 0 and item["key"] in cells:
            rows[-1]["cells"][cells[item["key"]][1]] = {"item": index, "key": item["key"],
                                                        "arrows": _under(items, index), "name": ""}
    return {"name": words["exploreGridName"], "columns": columns, "rows": rows}


def sequence_grid(spec: Spec, scenario: Scenario, explore: dict[str, Any], words: Words) -> dict[str, Any] | None:
    """A sequence's explorer grid (the shape :func:`grid` gives): a column per participant the tree shows, left
    to right as the sequence draws them (:func:`~mechdiagram.layout.sequence.participant_order`), whose header
    is the participant's box item (focusable: the level above its cells, saying its arrows and its state in the
    current step); a row per step of ``scenario``, headed by the catalogue's ``stepTab`` ("Step 2: Reply"); a
    cell per participant and step saying what it does in that step (fixed, since the row is the step): its
    label, active or not, what the step's labels and marks say of it (:func:`step_states`), and the messages it
    sends and receives in that step, which are the arrow items Enter goes into.  ``None`` in another view."""
    if spec.layout.view != SEQUENCE:
        return None
    items = explore["items"]
    box_of = {item["key"]: index for index, item in enumerate(items) if item["kind"] == "node"}
    order = [key for key in participant_order(spec) if key in box_of]
    columns = [{"head": words.say("exploreNode", label=_label(spec, key)), "item": box_of[key]} for key in order]
    paths = {path.key: path for path in spec.paths}
    rows: list[dict[str, Any]] = []
    # Each participant's arrow items by path key: the ones a cell's messages lead into.
    arrows = {key: {items[index]["key"]: index for index in _under(items, box_of[key])} for key in order}
    for number, step in enumerate(scenario.steps, start=1):
        states = step_states(step, words)
        cells = []
        for key in order:
            under = arrows[key]
            sent = [paths[p] for p in step.paths if p in under and paths[p].source == key]
            received = [paths[p] for p in step.paths if p in under and paths[p].dest == key and paths[p].source != key]
            lists = _arrow_lists(spec, words, sent, received)
            parts = [words.say("exploreNode", label=_label(spec, key)),
                     words["exploreActive" if key in step.active else "exploreInactive"], *states.get(key, []),
                     _join(words, lists) if lists else words["exploreNoArrows"]]
            cells.append({"item": -1, "key": key, "arrows": [under[p.key] for p in sent + received],
                          "name": _join(words, parts)})
        rows.append({"head": words.say("stepTab", n=str(number), title=step.title), "item": -1,
                     "step": number - 1, "cells": cells})
    return {"name": words["exploreGridName"], "columns": columns, "rows": rows}
