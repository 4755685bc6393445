"""The layout stage's own findings, on a valid spec: two nodes in one grid cell (``layout-position``, an
error), more ``layout.columns`` than the grid has columns, or too few to size them all (``layout-columns``, an
error), a path whose route or label could not be kept clear or breaks a rule of
:mod:`~mechdiagram.layout.route_rules`, and a layered graph whose narrow column is too wide for a phone (``route``,
warnings).

:func:`lay_out` is the stage's entry for the one-spec API and ``validate``: it asks the placement where each
node goes (so the rule and the drawing never disagree), then lays the figure out wide, narrow and in its middle
layout once each and hands the diagrams on to the drawing.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from msgspec import Struct

from mechdiagram.layout import Diagram, diagram, grid_cells, layout_scenario, middle_diagram
from mechdiagram.layout.geometry import Layout
from mechdiagram.layout.marks import marked_row
from mechdiagram.layout.measure import CONTINUATION
from mechdiagram.layout.route_rules import (
    FRAME_NEAR,
    KINDS,
    MAX_BACK_BENDS,
    MAX_BENDS,
    Fault,
    MessageFault,
    faults,
    frame_faults,
    message_faults,
)
from mechdiagram.layout.sequence import HEAD_MIN_WIDTH, NARROW_GAP_MIN
from mechdiagram.layout.sizes import HEAD_CLEARANCE, LABEL_REACH, NEAR, TRANSPOSED_MAX_WIDTH
from mechdiagram.shared.findings import Finding, pointer_join
from mechdiagram.shared.model import PathTarget, Spec, parse_lane_key
from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate.wording import quote


class LaidOut(Struct, frozen=True):
    """The layout of one valid spec: ``findings`` (sorted by the caller), and the ``wide``, ``narrow`` and ``middle``
    diagrams (:func:`~mechdiagram.layout.middle_diagram`, ``None`` where the spec has none), ``wide`` and ``narrow``
    ``None`` when a finding is an error (two nodes in one cell: nothing is laid out)."""

    findings: list[Finding]
    wide: Diagram | None = None
    narrow: Diagram | None = None
    middle: Diagram | None = None


def lay_out(loaded: LoadedSpec, model: Spec) -> LaidOut:
    """Lay out the valid spec ``model`` (read from ``loaded``, which locates the findings) wide, narrow and in its
    middle layout, with the layout's own findings: :func:`cell_collisions` and :func:`column_count`, and when there
    are none :func:`rows_past_the_lanes`, :func:`unclean_routes`, :func:`broken_rules`, :func:`frame_overlaps` and
    :func:`too_wide_for_a_phone` (a sequence: :func:`broken_message_rules`).  The rules are checked in every layout a
    figure may show (issue 27: an author is told, never surprised), the middle one too, and a spread wide layout's
    natural drawing (``wide.natural``: the upper middle layout); a lane grid's upper middle layout is kept only where
    it breaks none (:func:`~mechdiagram.layout._transposed`)."""
    errors = [] if model.layout.view == SEQUENCE else cell_collisions(loaded, model) + column_count(loaded, model)
    if errors:
        return LaidOut(errors)
    wide = diagram(model)
    narrow = diagram(model, narrow=True, wide=wide)
    middle = middle_diagram(model, wide=wide)
    # A spread wide layout's natural drawing before the narrow one: a lane grid whose lanes do not fit a phone keeps
    # that grid as its narrow variant, whose faults are said once, with the advice of the wide layout's cells.
    variants = [("wide", wide), *([("upper middle", wide.natural)] if wide.natural is not None else []),
                ("narrow", narrow), *([("middle", middle)] if middle is not None else [])]
    if model.layout.view == SEQUENCE:
        drawn = [(name, scenario.id, layout_scenario(model, scenario, shared))
                 for name, shared in variants for scenario in model.scenarios]
        return LaidOut([*broken_message_rules(loaded, drawn), *unshown_marks(loaded, model),
                        *too_wide_for_a_phone(loaded, narrow)], wide, narrow, middle)
    unclean = unclean_routes(loaded, wide, narrow)
    crowded = {key for key, arrow in (*wide.arrows.items(), *narrow.arrows.items()) if arrow.crowded}
    return LaidOut([*rows_past_the_lanes(loaded, model), *unclean, *broken_rules(loaded, model, variants, crowded),
                    *broken_words(loaded, model, variants), *frame_overlaps(loaded, model, variants),
                    *too_wide_for_a_phone(loaded, narrow)], wide, narrow, middle)


#: The most arrows on tracks a too-wide narrow column's warning names (their labels the widest first).
TRACKS_NAMED = 4
#: At most this many boxes, a layered graph too wide for a phone is told of the sequence view: five participants
#: with names of up to eight letters fit a 360 px phone there (:mod:`.sequence`), one more with shorter names.
SEQUENCE_HINT_BOXES = 6


def too_wide_for_a_phone(loaded: LoadedSpec, narrow: Diagram) -> list[Finding]:
    """Rule route (a warning, at ``/targets``): a layered graph's ``narrow`` column wider than
    :data:`~mechdiagram.layout.sizes.TRANSPOSED_MAX_WIDTH` (user units: 12 px text on a 360 px phone), which
    scrolls sideways in its frame there: many labelled arrows between few boxes take tracks beside the column (an
    OAuth flow of 4 boxes and 11 arrows both ways drew 688 units), as do fans of labelled arrows.  With at most
    :data:`SEQUENCE_HINT_BOXES` boxes it names the sequence view, laid out for a phone.  A lane grid that keeps its
    wide grid scrolls by design (issue 26) and is not said here.  A sequence's narrow layout wider than that (its
    lifelines as near as :data:`~mechdiagram.layout.sequence.NARROW_GAP_MIN` allows, or heads with long words: a
    DNS lookup's five participants, "example.org name server" among them, drew 426 units) names its widest head by
    its name, or, where no names would make it fit (its lifelines as near as they may be and its outer heads at their
    least width: a new user renamed six participants twice to learn it), how many participants fit."""
    if narrow.direction == "grid" or narrow.width <= TRANSPOSED_MAX_WIDTH:
        return []
    pointer = pointer_join("targets")
    line, column = loaded.locate(pointer, key=True)
    if narrow.direction == SEQUENCE and narrow.sequence is not None:
        heads = narrow.sequence
        order = {key: i for i, key in enumerate(heads.order)}
        widest = max(heads.heads.values(), key=lambda box: (box.w, -order[box.key]))
        count = len(heads.order)
        # As narrow as names could make it: its lifelines NARROW_GAP_MIN apart, its outer heads at their least width.
        least = narrow.width - max(0.0, heads.x[heads.order[-1]] - heads.x[heads.order[0]]
                                   - (count - 1) * NARROW_GAP_MIN) \
            - sum(max(0.0, (heads.heads[key].w - HEAD_MIN_WIDTH) / 2) for key in {heads.order[0], heads.order[-1]})
        if least > TRANSPOSED_MAX_WIDTH:  # no names would make it fit (a new user renamed six participants twice)
            fit = max(count - math.ceil((least - TRANSPOSED_MAX_WIDTH) / NARROW_GAP_MIN), 1)
            advice = f"no names make {count} participants fit: draw fewer participants (at most {fit} fit)"
        elif widest.w > HEAD_MIN_WIDTH:
            advice = (f"shorten the longest words of their names (the widest head is {quote(' '.join(widest.lines))}"
                      f"'s), or draw fewer participants")
        else:  # heads at their least width: only fewer participants help
            advice = "draw fewer participants"
        return [Finding(loaded.display, pointer,
                        f"the narrow layout (a phone's) is {math.ceil(narrow.width)} units wide for its "
                        f"{count} participants: it scrolls sideways on a phone, which shows "
                        f"{TRANSPOSED_MAX_WIDTH:.0f} units; {advice}", "route", "warning", line, column)]
    on_tracks = [arrow for arrow in narrow.arrows.values() if len(arrow.points) > 2]
    tracks = len(on_tracks)
    # the labelled ones, the widest label first: theirs are the labels to shorten (a new user could not tell which)
    labelled = sorted(((arrow.label_box.w, arrow.key) for arrow in on_tracks if arrow.label_box is not None),
                      key=lambda item: -item[0])
    named = ", ".join(quote(key) for _, key in labelled[:TRACKS_NAMED])
    if len(labelled) > TRACKS_NAMED:
        named += f" and {len(labelled) - TRACKS_NAMED} more"
    advice = ('messages between a few parties read as a sequence ("layout": {"view": "sequence"}), laid out for a '
              "phone's width; or draw fewer arrows" if len(narrow.boxes) <= SEQUENCE_HINT_BOXES
              else f"shorten or leave out the labels of the arrows that skip boxes ({named}), or draw fewer arrows"
              if labelled else "draw fewer arrows that skip boxes")
    return [Finding(loaded.display, pointer,
                    f"the narrow layout (a phone's) is {math.ceil(narrow.width)} units wide, {tracks} of its "
                    f"{len(narrow.arrows)} arrows on tracks beside its column of {len(narrow.boxes)} boxes: it "
                    f"scrolls sideways on a phone, which shows {TRANSPOSED_MAX_WIDTH:.0f} units; {advice}",
                    "route", "warning", line, column)]


def frame_overlaps(loaded: LoadedSpec, model: Spec, variants: Sequence[tuple[str, Diagram]]) -> list[Finding]:
    """Rule group (warnings): a group's frame that overlaps a box that is not its member, or another group's frame,
    in any of the ``variants`` (name, diagram: wide, narrow, middle; the layout keeps them apart; a
    ``layout.positions`` override may not)."""
    findings = []
    for name, drawn in variants:
        seen: list[str] = []
        for key, frame in drawn.groups.items():
            members = set(model.groups[key].members)
            others = [quote(k) for k, box in drawn.boxes.items() if k not in members and frame.overlaps(box)]
            others += [f"group {quote(k)}" for k in seen if frame.overlaps(drawn.groups[k])]
            seen.append(key)
            if others:
                pointer = pointer_join("groups", key)
                line, column = loaded.locate(pointer, key=True)
                findings.append(Finding(loaded.display, pointer, f"group {quote(key)} in the {name} layout has "
                                        f"{', '.join(others)} inside its frame: move them apart (layout.positions), "
                                        "or make them members", "group", "warning", line, column))
    return findings


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



def against_flow(model: Spec, drawn: Diagram, *, narrow: bool) -> frozenset[str]:
    """The arrows of ``drawn`` that run against its flow: to a box in an earlier rank (a layered layout's layer,
    as routed, folded or not; a lane grid's column; the ``narrow`` column's order; a lane grid's transposed narrow
    variant runs down its columns, times) than their source's."""
    if narrow and drawn.direction != "grid":
        order = sorted(drawn.cells, key=lambda key: (drawn.cells[key], key))
        rank = {key: (n,) for n, key in enumerate(order)}
    elif drawn.direction in ("down", "right"):
        return drawn.against
    else:
        axis = 0 if drawn.direction == "down" else 1
        rank = {key: (cell[axis],) for key, cell in drawn.cells.items()}
    return frozenset(p.key for p in model.paths if p.key in drawn.arrows and p.source in rank and p.dest in rank
                     and rank[p.dest] < rank[p.source])


def broken_rules(loaded: LoadedSpec, model: Spec, variants: Sequence[tuple[str, Diagram]],
                 skip: set[str] | frozenset[str] = frozenset()) -> list[Finding]:
    """Rule route (warnings): every fault of :func:`~mechdiagram.layout.route_rules.faults` in each of the
    ``variants`` (name, diagram: the wide, the narrow and the middle layout), one finding per path and layout at the
    path's key, naming the layout (a layout drawn as an earlier one is, a lane grid's narrow variant that keeps the
    wide grid, is not said twice; arrows in ``skip``, drawn straight for want of time, have their own finding)."""
    findings = []
    seen: list[Diagram] = []
    for name, drawn in variants:
        if drawn in seen:  # a lane grid whose lanes do not fit a phone: the wide one's grid
            continue
        seen.append(drawn)
        by_key: dict[str, list[Fault]] = {}
        found_faults = faults(drawn.arrows, against_flow(model, drawn, narrow=name == "narrow"))
        if drawn.groups:
            found_faults += frame_faults(drawn.arrows, drawn.groups)
        for fault in found_faults:
            if fault.key not in skip:
                by_key.setdefault(fault.key, []).append(fault)
        for key, found in by_key.items():
            pointer = pointer_join("targets", key)
            line, column = loaded.locate(pointer, key=True)
            said = "; ".join(_said([f for f in found if f.kind == kind]) for kind in KINDS
                             if any(f.kind == kind for f in found))
            advice = _advice(model, drawn, key, name, all(f.kind.startswith("label") for f in found),
                             own_cells=name == "middle" and drawn.cells != variants[0][1].cells,
                             others=[f.other for f in found])
            findings.append(Finding(loaded.display, pointer, f"path {quote(key)} in the {name} layout {said}: "
                                    f"{advice}", "route", "warning", line, column))
    return findings


def broken_words(loaded: LoadedSpec, model: Spec, variants: Sequence[tuple[str, Diagram]]) -> list[Finding]:
    """Rule label-word (warnings): a path label of prose whose word a layout breaks between its characters, a
    line ending with :data:`~mechdiagram.layout.measure.CONTINUATION` (a word wider than the label may grow to:
    :func:`~mechdiagram.layout.placement.label_width`), one finding per path at its label, naming the word and the
    ``variants`` (name, diagram) that break it, with what helps: a new user's "www.example.org" came out as
    "www.ex↩ample.org" in the middle layout, with no warning, and marked as code it broke at its dots."""
    findings = []
    for path in model.paths:
        if path.code:  # an identifier breaks at its dots, slashes and underscores
            continue
        words: dict[str, list[str]] = {}  # each broken word, with the layouts that break it
        seen: list[Diagram] = []
        for name, drawn in variants:
            arrow = drawn.arrows.get(path.key)
            if arrow is None or drawn in seen:
                continue
            seen.append(drawn)
            for lines in (arrow.label_lines, *(each for _, each in arrow.texts)):
                for text, after in itertools.pairwise(lines):
                    if text.endswith(CONTINUATION):
                        word = text.removesuffix(CONTINUATION).split(" ")[-1] + after.split(" ")[0]
                        names = words.setdefault(word, [])
                        names.extend([name] if name not in names else [])
        for word, names in words.items():
            pointer = pointer_join("targets", path.key, "label")
            line, column = loaded.locate(pointer)
            said = f"{names[0]} layout" if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]} layouts"
            findings.append(Finding(loaded.display, pointer, f"path {quote(path.key)}'s label breaks the word "
                                    f"{quote(word)} between its characters in the {said}: shorten the word, or "
                                    "mark the label as code (\"text\": \"code\") if it is an identifier, which breaks "
                                    "at its dots, slashes and underscores", "label-word", "warning", line, column))
    return findings


def _skipping(model: Spec, drawn: Diagram, keys: Sequence[str]) -> str:
    """Of the paths ``keys`` (a faulty one and those its faults name), those that skip boxes in the phone's column
    ``drawn`` (one box under another, ``cells`` rows), in words: ``"a" skips 2 boxes, "b" 1``; ``""`` for none, and
    for a narrow variant that is not one column (a lane grid's, transposed or kept; a break-it review found a
    diagonal arrow between lanes said to skip a box) (a new user's warning said "draw fewer arrows that skip boxes
    here" and named none)."""
    if any(column for _, column in drawn.cells.values()):
        return ""
    skips = []
    for key in dict.fromkeys(keys):
        path = model.targets.get(key)
        if isinstance(path, PathTarget) and path.source in drawn.cells and path.dest in drawn.cells:
            count = abs(drawn.cells[path.source][0] - drawn.cells[path.dest][0]) - 1
            if count > 0:
                skips.append((quote(key), count))
    return ", ".join(f"{name} skips {count} {'box' if count == 1 else 'boxes'}" if i == 0 else f"{name} {count}"
                     for i, (name, count) in enumerate(skips))


def _advice(model: Spec, drawn: Diagram, key: str, variant: str, labels_only: bool, own_cells: bool = False,
            others: Sequence[str] = ()) -> str:
    """What the author of ``model`` can do about path ``key``'s faults in the ``variant`` layout ``drawn``: in
    the wide layout (and a middle one of its cells), move its boxes, named with the cells they are in now
    (``layout.positions`` takes a row and a column by target key); the phone's column (narrow) places its boxes
    itself, ``layout.positions`` being the wide layout's, and so does a middle layout drawn from the graph's own
    layering, down the page or folded into rows (``own_cells``), so there only shorter labels and fewer arrows that
    skip boxes help, named with how many boxes each skips in the phone's column (:func:`_skipping`, of the path and
    the ``others`` its faults name)."""
    path = model.targets[key]
    assert isinstance(path, PathTarget)
    skipping = _skipping(model, drawn, [key, *others]) if variant == "narrow" and not labels_only else ""
    what = "shorten its label" if labels_only else \
        f"draw fewer arrows that skip boxes here{f' ({skipping})' if skipping else ''}, or shorten their labels"
    if variant == "narrow":
        return f"the phone's column places its boxes itself (layout.positions is the wide layout's): {what}"
    if own_cells:
        return f"the middle layout places its boxes itself (layout.positions is the wide layout's): {what}"
    ends = " or ".join(f"{quote(end)} (now row {drawn.cells[end][0]}, column {drawn.cells[end][1]})"
                       for end in (path.source, path.dest))
    # A box layout.positions does not list is placed anew, without the folding these cells may come from.
    listed = "listing the other boxes at their cells too"
    if labels_only:
        return f"shorten its label, or move {ends} apart in layout.positions, {listed}"
    (r0, c0), (r1, c1) = drawn.cells[path.source], drawn.cells[path.dest]
    between = "" if abs(r0 - r1) + abs(c0 - c1) <= 1 else " or the boxes between them"  # neighbours: none between
    return f"move {ends}{between} in layout.positions, {listed}; or draw fewer arrows here"


def broken_message_rules(loaded: LoadedSpec, drawn: list[tuple[str, str, Layout]]) -> list[Finding]:
    """Rule route (warnings) on a sequence: every fault of
    :func:`~mechdiagram.layout.route_rules.message_faults` among the messages of each ``(variant, scenario id,
    layout)`` of ``drawn`` (wide and narrow, every scenario), one finding per path and variant at the path's key,
    naming the variant, the scenario and the step that draws it."""
    findings = []
    for variant in dict.fromkeys(name for name, _, _ in drawn):
        by_key: dict[str, tuple[str, list[MessageFault]]] = {}
        for name, scenario, layout in drawn:
            if name != variant:
                continue
            for fault in message_faults(layout):
                by_key.setdefault(fault.fault.key, (scenario, []))[1].append(fault)
        for key, (scenario, found) in by_key.items():
            pointer = pointer_join("targets", key)
            line, column = loaded.locate(pointer, key=True)
            kinds = [f.fault for f in found]
            said = "; ".join(_said([f for f in kinds if f.kind == kind]) for kind in KINDS
                             if any(f.kind == kind for f in kinds))
            step = min(f.step for f in found if f.fault.key == key)
            findings.append(Finding(loaded.display, pointer, f"message {quote(key)} in the {variant} layout "
                                    f"(scenario {quote(scenario)}, step {step}) {said}: shorten its label or the "
                                    "labels of the messages next to it, or give it a step of its own", "route",
                                    "warning", line, column))
    return findings


def unshown_marks(loaded: LoadedSpec, model: Spec) -> list[Finding]:
    """Rule mark (a warning) on a sequence: a step's mark on a message that neither that step nor any step before
    it sends, so that no row draws it (:func:`~mechdiagram.layout.marks.marked_row`; a mark on a message an
    earlier step sends is drawn on that step's row).  One finding per mark, at its key in the step's ``marks``."""
    findings = []
    for s, scenario in enumerate(model.scenarios):
        for n, step in enumerate(scenario.steps):
            for key in step.marks:
                if not isinstance(model.targets.get(key), PathTarget) or marked_row(scenario, n + 1, key) is not None:
                    continue
                pointer = pointer_join("scenarios", s, "steps", n, "marks", key)
                line, column = loaded.locate(pointer, key=True)
                findings.append(Finding(loaded.display, pointer, f"message {quote(key)} is sent by no step up to "
                                        f"this one (step {n + 1} of scenario {quote(scenario.id)}), so its mark is "
                                        "not drawn: mark it in a step that sends it (its paths) or in a later one",
                                        "mark", "warning", line, column))
    return findings


def _said(found: list[Fault]) -> str:
    """Faults of one kind in words, after "path X in the wide layout"."""
    fault = found[0]
    names = [quote(f.other) for f in found]
    other = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    if fault.kind == "junction":
        gaps = [f for f in found if f.value]
        if len(gaps) == len(found):
            return (f"runs on one line with {other}, {min(f.value for f in gaps):g} units from its end (keep "
                    f"{NEAR:g} units between them: they read as one line)")
        return f"meets {other} where neither crosses the other (they read as one line)"
    if fault.kind == "head":
        return (f"passes {min(f.value for f in found):g} units from the head of {other} (keep "
                f"{HEAD_CLEARANCE:g} units away)")
    if fault.kind == "parallel":
        return f"runs {min(f.value for f in found):g} units beside {other} (keep {NEAR:g} units apart)"
    if fault.kind == "crossing":
        return f"crosses {other}"
    if fault.kind == "bends":
        return (f"bends {int(fault.value)} times (at most {MAX_BENDS}, or {MAX_BACK_BENDS} for an arrow back "
                "against the flow)")
    if fault.kind == "label-far":
        return f"has its label {fault.value:g} units from its arrow (at most {LABEL_REACH:g})"
    if fault.kind == "label-nearer":
        return f"has its label nearer {other} than its own arrow"
    groups = other  # the group's key, quoted
    if fault.kind == "frame-along":
        return (f"runs {min(f.value for f in found):g} units along the frame of group {groups} (keep "
                f"{FRAME_NEAR:g} units away)")
    if fault.kind == "frame-label":
        return f"crosses the label of group {groups}"
    if fault.kind == "frame-weave":
        return f"crosses the frame of group {groups} {int(max(f.value for f in found))} times"
    if fault.kind == "label-frame":
        return f"has its label on the frame of group {groups}"
    if all(f.other == f.key for f in found):  # its own line: the label sits on a bend of its own arrow
        return "has its label crossed by its own line"
    return f"has its label crossed by the line of {other}"


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
            message = (f"path {quote(key)} in the wide layout has no route and label clear of the boxes, the groups' "
                       "frames and the other labels; move its nodes apart (layout.positions) or shorten its label")
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
