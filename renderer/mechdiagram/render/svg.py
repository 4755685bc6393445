"""Stage 5, SVG: draw a laid-out scenario as a self-contained SVG document.

The SVG has no script and no SMIL: it moves only through CSS ``@keyframes``
(one per step, from :class:`mechdiagram.render.timeline.Timeline`), works inside
``<img>``, and under ``prefers-reduced-motion: reduce`` shows a still poster
frame (the structure and the scenario's ``initial`` state).  Accessibility:
``role="img"`` named by ``<title>`` and described by ``<desc>`` through
``aria-labelledby``/``aria-describedby`` (WAI-ARIA 1.2, the ``img`` role),
``lang`` from the spec (WCAG 2.2 SC 3.1.1), labels as real ``<text>``.
Every id and class starts with the spec-and-scenario prefix, so several SVGs
can share a page.  Author text reaches the document only as XML text or
attribute values, escaped as ElementTree escapes them (:mod:`mechdiagram.render.markup`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import svgwrite
from msgspec import Struct, field

from mechdiagram.layout import LINE_HEIGHT, PATH_LABEL_LINE, Arrow, Box, Layout, PanelFrame, step_heading
from mechdiagram.layout.geometry import (
    LegendEntry,
    Message,
    PanelRow,
    Point,
    Rect,
    SequenceRow,
    TimeAxis,
    first_baseline,
)
from mechdiagram.layout.marks import MARK_RADIUS, cross, marked_row, message_mark
from mechdiagram.layout.measure import CONTINUATION, text_width
from mechdiagram.layout.sizes import (
    BAND_RADIUS,
    BOX_RADIUS,
    DOT_RADIUS,
    PANEL_COLUMN_GAP,
    PANEL_MARK,
    PANEL_MARK_RISE,
    PANEL_RADIUS,
    RING_RADIUS,
    TITLE_LINE_HEIGHT,
)
from mechdiagram.render import theme
from mechdiagram.render.explore import focus_shapes
from mechdiagram.render.markup import Leaf, Pieces, Shapes, Stepped, element, shell
from mechdiagram.render.paint import FONT_FAMILY, attributes
from mechdiagram.render.stylesheet import colour_sheet, motion_sheet
from mechdiagram.render.timeline import Timeline
from mechdiagram.shared.errors import RenderError
from mechdiagram.shared.locale import words_for
from mechdiagram.shared.model import Scenario, Spec

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

#: The flow dot's speed along an active route, in user units per second, unless the drawing's longest active route
#: would then take longer than the longest travel: one speed for every dot of a drawing.
TRAVEL_SPEED = 160
#: A dot's travel in ms: it starts again no sooner than the first (resting at its route's end until then, so that
#: a short route's dot does not flicker back and forth) and crosses the longest route in at most the second.
TRAVEL_MS = (800, 2400)


def fmt(value: float) -> str:
    """A coordinate at fixed precision (0.1 px) without trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def prefix_for(slug: str, scenario_id: str) -> str:
    """The prefix of every id, class and keyframes name: ``mech-`` and 10 hex digits of the SHA-256
    of spec slug and scenario id.

    Joining the readable names would be ambiguous (spec ``q`` with scenario
    ``one-request`` and spec ``q-one`` with scenario ``request``), and a class
    such as ``<prefix>-path`` could equal another scenario's prefix; a digest
    cannot.  Names below the prefix are fixed words (``-node``, ``-f3``),
    ``-n-<target id>``, or the narrow layout's ids (``-narrow-title``, ``-narrow-n-<target id>``: see
    :func:`render_scenario`), so they cannot meet either.
    """
    digest = hashlib.sha256(f"{slug}\0{scenario_id}".encode()).hexdigest()
    return f"mech-{digest[:10]}"


class _Drawer:
    """Writes one scenario's drawing in one colour scheme: every element carries the presentation
    attributes of its roles (:mod:`mechdiagram.render.paint`) and the classes the style sheet animates."""

    def __init__(self, spec: Spec, scenario: Scenario, layout: Layout, prefix: str, palette: theme.Palette,
                 ids: str) -> None:
        self.spec, self.scenario, self.layout, self.p, self.palette = spec, scenario, layout, prefix, palette
        self.ids = ids  # the prefix of every id (the class prefix, or a layout's own: see render_scenario)
        self.timeline = Timeline.for_scenario(scenario)
        self.highlights = _highlights(scenario, layout)
        self.row_shows = _row_shows(layout)
        #: The highlight of each box some step highlights: its one label is drawn over the highlights and changes.
        self.lit = {key: index for index, (key, _) in enumerate(self.highlights) if key in layout.boxes}
        # One speed for every dot of the drawing: along its active paths, or a sequence's messages.
        self.speed = travel_speed([*(layout.arrows[key] for key, _ in self.highlights if key in layout.arrows),
                                   *(message.arrow for row in layout.rows for message in row.messages)])
        self.values = _values(layout)
        self.relabels = _relabels(spec, scenario, layout)
        self.relabelled = frozenset(key for key, _, _, _ in self.relabels)
        #: The marks the drawing shows: ``(mark, centre, steps)`` each, then the legends: ``(entries, steps)``
        #: each, one a set of entries some steps show.
        self.marks = _marks(scenario, layout)
        self.legends = _legends(layout)
        self._paints: dict[tuple[str, ...], dict[str, str]] = {}
        self.shapes = Shapes()

    def cls(self, *names: str) -> str:
        return " ".join(f"{self.p}-{n}" for n in names)

    def paint(self, *roles: str) -> dict[str, str]:
        """Class and presentation attributes of an element with ``roles``, worked out once per drawing
        (a shared dict: copy it to add to it, as :class:`~mechdiagram.render.markup.Leaf` does)."""
        found = self._paints.get(roles)
        if found is None:
            found = self._paints[roles] = {"class": self.cls(*roles), **attributes(roles, self.palette)}
        return found

    def shape(self, tag: str, roles: tuple[str, ...], values: dict[str, str], text: str | None = None) -> str:
        """An element with the paint of ``roles`` and ``values``, as markup."""
        return self.shapes.element(tag, roles, self.paint(*roles), values, text)

    def text_block(self, lines: tuple[str, ...], x: float, y: float, roles: tuple[str, ...],
                   line_height: float = LINE_HEIGHT, extra: dict[str, str] | None = None) -> str:
        """A ``<text>`` of ``lines`` from (``x``, ``y``), one ``<tspan>`` a line when there are several;
        ``extra`` attributes override the paint's.  A line that ends with the layout's continuation mark (a word
        broken between characters) has the mark in a ``<tspan>`` of its own, hidden from assistive technology
        (``aria-hidden``), so that it is drawn but not read as part of the word."""
        if len(lines) == 1:  # the common case: no <tspan>, fewer elements to write
            return self.shape("text", roles, {"x": fmt(x), "y": fmt(y), **(extra or {})}, lines[0])
        start = self.shapes.start("text", roles, self.paint(*roles), extra or {})
        x_at = fmt(x)
        lines_in = [self.shapes.element("tspan", (), {}, {"x": x_at, "y": fmt(y + i * line_height)}, line)
                    if not line.endswith(CONTINUATION) else self.continued(line, x_at, fmt(y + i * line_height))
                    for i, line in enumerate(lines)]
        return f"{start}>{''.join(lines_in)}</text>" if lines_in else start + " />"

    def continued(self, line: str, x: str, y: str) -> str:
        """The ``<tspan>`` of a ``line`` that ends with the continuation mark, at (``x``, ``y``): the text, then
        the mark in a ``<tspan>`` of its own (class ``cont``, ``aria-hidden``)."""
        leaf = Leaf("tspan", {"x": x, "y": y}, line.removesuffix(CONTINUATION))
        leaf.add("tspan", element("tspan", {"aria-hidden": "true", "class": self.cls("cont")}, CONTINUATION))
        return leaf.markup()

    def rect(self, rect: Rect, rx: float, *roles: str) -> str:
        return self.shape("rect", roles, {"height": fmt(rect.h), "rx": fmt(rx), "width": fmt(rect.w),
                                          "x": fmt(rect.x), "y": fmt(rect.y)})

    def box(self, box: Box, group: dict[str, str], variant: str | None, label: bool = True) -> Leaf:
        """A box and, unless ``label`` is False (a box some step highlights: see :meth:`lit_labels`), its label."""
        leaf = Leaf("g", group)
        leaf.add("rect", self.rect(box, BOX_RADIUS, *(("node", f"node-{variant}") if variant else ("node",))))
        if label:
            roles: tuple[str, ...] = ("label", f"label-{variant}") if variant else ("label",)
            target = self.spec.targets.get(box.key)
            if target is not None and target.code:
                roles += ("code",)
            leaf.add("text", self.text_block(box.lines, box.cx, box.first_baseline, roles))
        return leaf

    def lit_labels(self, dimmed: set[str]) -> Stepped:
        """The labels of the boxes some step highlights, over the highlights: one text per box, whose fill and
        weight switch at the step boundary (the style sheet), where its box's highlight is half-way, never a second
        text fading in over it.  A still shows each in its step's look (bold in the active colour, or not).
        Each names its box by the target's id (``data-mech-box``), with which its box's group id ends."""
        layer = Stepped("g", {"class": self.cls("labels"), "aria-hidden": "true"})
        ids = {target.key: target.id for target in self.spec.nodes}
        for key, index in self.lit.items():
            if key in self.relabelled:  # its texts are relabel_layer's, each lit in its steps
                continue
            box, steps = self.layout.boxes[key], self.highlights[index][1]
            roles: tuple[str, ...] = ("label", "label-dim") if key in dimmed else ("label",)
            if self.spec.targets[key].code:
                roles += ("code",)
            classes = self.cls(*roles, "lit", f"l{index}", *(f"t{k}" for k in steps))
            x, y = box.cx, box.first_baseline
            extra = {"class": classes, "data-mech-box": ids[key]}
            layer.add_stepped("text", self.text_block(box.lines, x, y, roles, extra=extra),
                              self.text_block(box.lines, x, y, roles),
                              self.text_block(box.lines, x, y, (*roles, "label-on")), steps)
        return layer

    def panel_values(self) -> Stepped:
        """The state panel's values in the steps: one text per row and distinct value, shown in the steps whose row
        holds it (the style sheet switches it at the step boundaries), so that a row the step does not change
        stays as it is and no row is ever blank.  A still shows its step's values."""
        panel = self.layout.panel
        layer = Stepped("g", {"class": self.cls("values"), "aria-hidden": "true"})
        for index, (row, lines, steps, changed) in enumerate(self.values):
            x, y = panel.value_x, panel.rows[row].value_baseline
            if changed:  # the step changes it: bold in the active colour, beside the changed mark
                classes = self.cls("val", f"v{index}", *(f"t{k}" for k in steps))
                body = self.changed_mark(panel.rows[row]) + self.text_block(lines, x, y, ("pval", "pval-on"))
                layer.add_stepped("g", f'{self.shapes.start("g", (), {}, {"class": classes, "visibility": "hidden"})}>'
                                  f"{body}</g>", "", f"<g>{body}</g>", steps)
                continue
            classes = self.cls("pval", "val", f"v{index}", *(f"t{k}" for k in steps))
            hidden = {"class": classes, "visibility": "hidden"}  # until the style sheet shows it
            layer.add_stepped("text", self.text_block(lines, x, y, ("pval",), extra=hidden),
                              "", self.text_block(lines, x, y, ("pval",)), steps)
        return layer

    def changed_mark(self, row: PanelRow) -> str:
        """The state panel's changed mark of ``row``: a diamond (:data:`~mechdiagram.layout.sizes.PANEL_MARK`) in
        the gap left of its value, or, where the value is under the row's label (a stacked panel, whose values
        start near its edge), after the label's last line; drawn as a shape, not a glyph, so that every renderer
        draws it alike."""
        panel, r = self.layout.panel, PANEL_MARK
        if row.value_y is None:
            cx, cy = panel.value_x - PANEL_COLUMN_GAP / 2, row.y - PANEL_MARK_RISE
        else:
            last = row.label[-1] if row.label else ""
            # The label's measured width holds the measure's safety margin (8 %): room enough between them.
            cx = panel.label_x + text_width(last) + r + 2
            cy = row.y + (len(row.label) - 1) * LINE_HEIGHT - PANEL_MARK_RISE
            if cx + r > panel.x + panel.w - PANEL_COLUMN_GAP / 2:  # a label as wide as the panel: beside the value
                cx, cy = panel.value_x - PANEL_COLUMN_GAP / 2, row.value_baseline - PANEL_MARK_RISE
        return self.shape("path", ("pmark",), {"d": f"M{fmt(cx)} {fmt(cy - r)} L{fmt(cx + r)} {fmt(cy)} "
                                                     f"L{fmt(cx)} {fmt(cy + r)} L{fmt(cx - r)} {fmt(cy)} Z"})

    def relabel_texts(self, key: str, lines: tuple[str, ...], look: str = "") -> str:
        """The markup of target ``key``'s label drawn as ``lines`` (a text its label shows in some step):
        a node's centred in its box, a path's over its halo at its label's place; ``look`` is ``"on"`` for a
        highlighted box's label, or names the classes of its text (``"lit"``: switched as a highlighted box's
        label is, :meth:`lit_labels`)."""
        dimmed = key in self.scenario.unselected
        code = self.spec.targets[key].code
        box = self.layout.boxes.get(key)
        if box is not None:
            roles: tuple[str, ...] = ("label", "label-dim") if dimmed else ("label",)
            roles += ("code",) if code else ()
            y = first_baseline(box.y, box.h, len(lines))
            named = {"data-mech-box": self.spec.targets[key].id}  # its box, as lit_labels' texts name theirs
            if look == "on":
                return self.text_block(lines, box.cx, y, (*roles, "label-on"), extra=named)
            extra = named
            if look:
                index = self.lit[key]
                extra = {"class": self.cls(*roles, "lit", f"l{index}",
                                           *(f"t{k}" for k in self.highlights[index][1])), **named}
            return self.text_block(lines, box.cx, y, roles, extra=extra)
        arrow = self.layout.arrows[key]
        out = []
        for role in ("halo", "plabel"):  # the halo first, under its label, as in the path labels' layer
            path_roles: tuple[str, ...] = (role,)
            if role == "halo" and arrow.label_on_band:
                path_roles += ("halo-band",)
            if dimmed:
                path_roles += (f"{role}-dim",)
            if code:
                path_roles += ("code",)
            x, y = arrow.anchor_of(len(lines))
            out.append(self.text_block(lines, x, y, path_roles, PATH_LABEL_LINE, {"text-anchor": arrow.label_anchor}))
        return "".join(out)

    def relabel_layer(self) -> Stepped:
        """The labels a step changes (a step's ``labels``): one group per target and text, shown in the steps
        whose label is that text, switched at the step boundaries as the panel's values are (the style sheet's
        ``val`` rules, so that no step shows two texts or none); a highlighted box's text switches its colour
        and weight as :meth:`lit_labels`' do.  The poster's texts are the targets' own labels, in
        :meth:`frame` 0.  A still shows its step's text in its step's look."""
        layer = Stepped("g", {"class": self.cls("relabels"), "aria-hidden": "true"})
        base = len(self.values)
        for offset, (key, _, lines, steps) in enumerate(self.relabels):
            classes = self.cls("val", f"v{base + offset}", *(f"t{k}" for k in steps))
            lit = key in self.lit and key in self.layout.boxes
            body = self.relabel_texts(key, lines, "lit" if lit else "")
            start = self.shapes.start("g", (), {}, {"class": classes, "visibility": "hidden"})
            on = set(self.highlights[self.lit[key]][1]) if lit else set()
            layer.add_stepped("g", f"{start}>{body}</g>", "", self.relabel_texts(key, lines),
                              [k for k in steps if k not in on])
            if on & set(steps):
                layer.add_still("", self.relabel_texts(key, lines, "on"), [k for k in steps if k in on])
        return layer

    def arrow(self, arrow: Arrow, group: dict[str, str], dim: bool) -> Leaf:
        leaf = Leaf("g", group)
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        leaf.add("path", self.shape("path", ("path", "path-dim") if dim else ("path",), {"d": route}))
        leaf.add("polygon", self.shape("polygon", ("head", "head-dim") if dim else ("head",),
                                       {"points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)}))
        return leaf

    def flow(self, arrow: Arrow, group: dict[str, str]) -> Leaf:
        """An active path: a thick stroke, its arrowhead, and a dot that travels from source to destination."""
        leaf = Leaf("g", group)
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        leaf.add("path", self.shape("path", ("flow",), {"d": route}))
        leaf.add("polygon", self.shape("polygon", ("head-on",),
                                       {"points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)}))
        # At the origin, moved along the route by CSS offset-path; hidden where CSS does not move it.
        period, reach = travel(arrow, self.speed)
        leaf.add("circle", self.shape("circle", ("dot",), {
            "r": fmt(DOT_RADIUS), "visibility": "hidden",
            "style": f"offset-path:path('{route}');animation-duration:{period}ms;--{self.p}-reach:{fmt(reach)}px"}))
        return leaf

    def axis(self, axis: TimeAxis) -> Leaf:
        """The time axis of a proportional grid: its line (open at each break), its ticks, their labels and
        the break marks' strokes."""
        leaf = Leaf("g", {"class": self.cls("time"), "aria-hidden": "true"})
        y = fmt(axis.y)
        line = " ".join(f"M{fmt(x0)} {y} H{fmt(x1)}" for x0, x1 in axis.runs)
        ticks = " ".join(f"M{fmt(t.x)} {y} V{fmt(axis.tick_bottom)}" for t in axis.ticks)
        leaf.add("path", self.shape("path", ("path", "axis"), {"d": f"{line} {ticks}"}))
        if axis.breaks:
            strokes = " ".join(f"M{fmt(a[0])} {fmt(a[1])} L{fmt(b[0])} {fmt(b[1])}" for a, b in axis.breaks)
            leaf.add("path", self.shape("path", ("path",), {"d": strokes}))
        for tick in axis.ticks:
            if tick.text:
                extra = {"text-anchor": tick.anchor} if tick.anchor != "middle" else None
                leaf.add("text", self.text_block((tick.text,), tick.x, axis.label_y, ("plabel", "tick"), extra=extra))
        return leaf

    def panel_frame(self, frame: PanelFrame, values: bool = True) -> list[str]:
        """The heading of ``frame`` and, if ``values``, its values (the poster's: a step's are :meth:`panel_values`)."""
        panel = self.layout.panel
        if panel.rtl:
            # Right to left, centred: text-anchor "middle" means the same in every renderer, where "end"
            # under direction="rtl" is the left edge in browsers and the right one in resvg.
            title = self.text_block(frame.title, panel.title_x, frame.title_y, ("ptitle",), TITLE_LINE_HEIGHT,
                                    {"direction": "rtl", "text-anchor": "middle"})
        else:
            title = self.text_block(frame.title, panel.title_x, frame.title_y, ("ptitle",), TITLE_LINE_HEIGHT)
        items = [title]
        for row, value in zip(panel.rows, frame.values if values else (), strict=values):
            items.append(self.text_block(value, panel.value_x, row.value_baseline, ("pval",)))
        return items

    def frame(self, number: int) -> Leaf:
        """Frame 0, the poster layer (step badges and the panel before the first step), or step
        ``number``'s panel heading, hidden until the style sheet or a still shows it."""
        if number == 0:
            leaf = Leaf("g", {"class": self.cls("frame", "f0", "poster"), "data-mech-frame": "0",
                              "aria-hidden": "true"})
            for badge in self.layout.badges:
                leaf.add("rect", self.rect(badge, badge.radius, "badge"))
                leaf.add("text", self.text_block((badge.text,), badge.cx, badge.baseline, ("badge-text",)))
            for row in self.layout.rows:  # the sequence view's poster: every row, numbered
                leaf.append(self.row(row, "poster", Leaf("g", {"class": self.cls("row")})))
            for key in sorted(self.relabelled, key=list(self.spec.targets).index):  # their own labels
                target = self.layout.boxes.get(key) or self.layout.arrows[key]
                leaf.add("text", self.relabel_texts(key, target.lines if isinstance(target, Box)
                                                    else target.label_lines))
            frame = self.layout.panel.poster
        else:
            leaf = Leaf("g", {"class": self.cls("frame", f"f{number}"), "data-mech-frame": str(number),
                               "aria-hidden": "true", "visibility": "hidden"})
            frame = self.layout.panel.steps[number - 1]
        for item in self.panel_frame(frame, values=number == 0):
            leaf.add("text", item)
        return leaf

    def _highlight_group(self, index: int, steps: tuple[int, ...]) -> tuple[list[str], dict[str, str]]:
        """The classes and attributes every layer of highlight ``index`` shares: they show it in ``steps``."""
        classes = ["hl", f"h{index}", *(f"s{k}" for k in steps)]
        return classes, {"aria-hidden": "true", "data-mech-steps": " ".join(map(str, steps)), "visibility": "hidden"}

    def ring(self, index: int, key: str, steps: tuple[int, ...]) -> Leaf:
        """The ring of highlight ``index``, active box ``key``: a layer of its own under the paths, shown with the
        box's highlight, so that an arrowhead into the box is drawn over it and meets the box's edge."""
        classes, group = self._highlight_group(index, steps)
        leaf = Leaf("g", {**group, "class": self.cls(*classes, "outline")})
        leaf.add("rect", self.rect(self.layout.boxes[key].ring, RING_RADIUS, "ring"))
        return leaf

    def highlight(self, index: int, key: str, steps: tuple[int, ...]) -> Leaf:
        """Highlight ``index``: target ``key`` as it looks in ``steps`` (1-based), hidden until shown (an
        active box's ring is :meth:`ring`)."""
        classes, group = self._highlight_group(index, steps)
        if key in self.layout.boxes:
            return self.box(self.layout.boxes[key], {**group, "class": self.cls(*classes, "on")}, "on", label=False)
        if key in self.layout.groups:  # an active group: its frame in the highlight's stroke (marks: a hook here)
            leaf = Leaf("g", {**group, "class": self.cls(*classes, "on")})
            leaf.add("rect", self.rect(self.layout.groups[key], BAND_RADIUS, "group-on"))
            return leaf
        return self.flow(self.layout.arrows[key], {**group, "class": self.cls(*classes, "active")})

    def groups(self) -> Leaf:
        """The groups' enclosures (the spec's ``groups``), each a tinted frame with its label at its top left (over
        the heads in the sequence view: a band with its label centred), under the paths and the boxes."""
        leaf = Leaf("g", {"class": self.cls("groups"), "aria-hidden": "true"})
        for frame in self.layout.groups.values():
            leaf.add("rect", self.rect(frame, BAND_RADIUS, "group"))
            x, extra = (frame.cx, {"text-anchor": "middle"}) if frame.centred else (frame.label_x, None)
            leaf.add("text", self.text_block(frame.lines, x, frame.label_y, ("group-label",), PATH_LABEL_LINE, extra))
        return leaf

    def nodes(self, ids: bool = True) -> Leaf:
        """Every node's box (a participant's head in the sequence view), dashed where the scenario dims it; the
        label of a box some step highlights is :meth:`lit_labels`'.  Each box's group has an id unless ``ids``
        is False (a copy of the heads: :meth:`heads_strip`)."""
        dimmed = set(self.scenario.unselected)
        nodes = Leaf("g", {"class": self.cls("nodes"), "aria-hidden": "true"})
        for target in self.spec.nodes:
            if target.key in self.layout.boxes:
                dim = target.key in dimmed
                group = {"class": self.cls("n", "dim") if dim else self.cls("n")}
                if ids:
                    group["id"] = f"{self.ids}-n-{target.id}"
                nodes.append(self.box(self.layout.boxes[target.key], group, "dim" if dim else None,
                                      label=target.key not in self.lit and target.key not in self.relabelled))
        return nodes

    def state(self) -> Leaf:
        """The state panel's frame and row labels (the values are each frame's)."""
        panel = self.layout.panel
        state = Leaf("g", {"class": self.cls("state"), "aria-hidden": "true"})
        state.add("rect", self.rect(Rect(panel.x, panel.y, panel.w, panel.h), PANEL_RADIUS, "panel"))
        for row in panel.rows:
            state.add("text", self.text_block(row.label, panel.label_x, row.y, ("pkey",)))
        return state

    def sequence(self, add: Callable[[Leaf], None]) -> None:
        """The sequence view's layers after the background: lifelines, heads (rings under them), each row as it
        looks in the steps after its own (muted) and in its own (emphasised on a band, a dot travelling along each
        message) and the heads' highlights (the frames, the poster's holding every row, come last:
        :meth:`panel_layers`).  A row is not drawn before its step, so the picture grows with the story."""
        layout = self.layout
        dimmed = set(self.scenario.unselected)
        # Each lifeline: whole from its head to the first row, faint below it (the story has not reached there yet),
        # where each row's layers draw it whole over their row.
        first = layout.rows[0].y if layout.rows else None
        lifelines = Leaf("g", {"class": self.cls("lifelines"), "aria-hidden": "true"})
        for line in layout.lifelines:
            roles = ("lifeline", "lifeline-dim") if line.key in dimmed else ("lifeline",)
            x = fmt(line.x)
            if first is None:
                lifelines.add("path", self.shape("path", roles, {"d": f"M{x} {fmt(line.top)} L{x} {fmt(line.bottom)}"}))
                continue
            lifelines.add("path", self.shape("path", roles, {"d": f"M{x} {fmt(line.top)} L{x} {fmt(first)}"}))
            lifelines.add("path", self.shape("path", (*roles, "lifeline-ahead"),
                                             {"d": f"M{x} {fmt(first)} L{x} {fmt(line.bottom)}"}))
        add(lifelines)
        for index, (key, steps) in enumerate(self.highlights):
            if key in layout.boxes:
                add(self.ring(index, key, steps))
        add(self.nodes())
        base = len(self.highlights)
        for offset, (number, mode, steps) in enumerate(self.row_shows):
            classes, group = self._highlight_group(base + offset, steps)
            leaf = Leaf("g", {**group, "class": self.cls(*classes, "row", f"row-{mode}")})
            add(self.row(layout.rows[number - 1], mode, leaf))
        self.steps(add, dimmed)

    def heads_strip(self) -> str:
        """A sequence's heads as an SVG of their own, for the HTML figure to keep in view over its drawing while a
        long sequence scrolls (``figure.html``): the top of the drawing, from its top edge to half-way between the
        lowest head and the first row (every active head's ring and every head's mark whole within it), on the
        drawing's background, with the groups' bands, the heads, their rings and highlights (an active group's too),
        the highlighted heads' labels, the stubs of the lifelines, the marks whose discs reach into it (on heads and
        groups) and an empty group per step frame (the player marks the step shown in every drawing of a scene,
        this one too).  It has
        the drawing's class, so the drawing's style sheet (on the page) colours and animates it as it does the
        drawing's own heads; it has no ids and no name (the figure hides it from assistive technology).  The same
        width in user units as the drawing, so that both scale alike."""
        layout = self.layout
        heads = list(layout.boxes.values())
        top = min((row.y for row in layout.rows), default=max(box.bottom for box in heads))
        lowest = max(box.bottom for box in heads)
        rings = max((layout.boxes[key].ring.bottom for key in self.lit), default=0.0)
        # Every mark on a head whole (its disc and its outline), as every active head's ring.
        discs = [centre[1] + MARK_RADIUS + 2.0 for _, centre, _ in self.marks if centre[1] < top]
        height = fmt(math.ceil(max(lowest + (top - lowest) / 2, rings + 1.0, *discs)))
        width = fmt(layout.width)
        start = element("svg", {"class": self.p, "font-family": FONT_FAMILY, "height": height,
                                "viewBox": f"0 0 {width} {height}", "width": width,
                                "xmlns": "http://www.w3.org/2000/svg"}).removesuffix(" />")
        layers: list[Leaf] = [Leaf("rect", {**self.paint("bg"), "height": height, "width": width, "x": "0", "y": "0"})]
        if layout.groups:  # the groups' bands over their members' heads
            layers.append(self.groups())
        dimmed = set(self.scenario.unselected)
        stubs = Leaf("g", {"class": self.cls("lifelines")})
        for line in layout.lifelines:
            roles = ("lifeline", "lifeline-dim") if line.key in dimmed else ("lifeline",)
            stubs.add("path", self.shape("path", roles, {"d": f"M{fmt(line.x)} {fmt(line.top)} "
                                                              f"L{fmt(line.x)} {height}"}))
        layers.append(stubs)
        for index, (key, steps) in enumerate(self.highlights):
            if key in layout.boxes:
                layers.append(self.ring(index, key, steps))
        layers.append(self.nodes(ids=False))
        for index, (key, steps) in enumerate(self.highlights):
            if key in layout.boxes or key in layout.groups:
                layers.append(self.highlight(index, key, steps))
        if self.lit:
            layers.append(self.lit_labels(dimmed))
        # The marks within the strip (on heads and groups), as the drawing numbers them.
        layers += [self.mark_layer(index) for index, (_, centre, _) in enumerate(self.marks)
                   if centre[1] - MARK_RADIUS < float(height)]
        for number in range(1, len(self.scenario.steps) + 1):
            # A frame like the drawing's, so that the style sheet stops its keyframes where it stops theirs
            # (under the player, and for reduced motion).
            layers.append(Leaf("g", {"class": self.cls("frame", f"f{number}"), "data-mech-frame": str(number)}))
        return start + ">" + "".join(layer.markup() for layer in layers) + "</svg>"

    def steps(self, add: Callable[[Leaf], None], dimmed: set[str]) -> None:
        """The layers every view draws over its structure: the highlights, the labels of the highlighted boxes
        (``dimmed``: the scenario's dimmed targets) and the path labels a step changes."""
        for index, (key, steps) in enumerate(self.highlights):
            add(self.highlight(index, key, steps))
        if self.lit:
            add(self.lit_labels(dimmed))
        if self.relabels:
            add(self.relabel_layer())

    def panel_layers(self, add: Callable[[Leaf], None]) -> None:
        """The layers every view draws last: the state panel (its box and row names), the poster's and each step's
        frame (the step badges and the panel's heading) and the panel's values.  Last, so that a panel the HTML
        player holds over the drawing's foot (``--mech-hold-y``, a phone's tall column) covers what it is over."""
        add(self.state())
        add(self.frame(0))
        for number in range(1, len(self.scenario.steps) + 1):
            add(self.frame(number))
        add(self.panel_values())

    def row(self, row: SequenceRow, mode: str, leaf: Leaf) -> Leaf:
        """Step ``row.number``'s row into ``leaf``: ``mode`` ``"current"`` (its own step: on a band, the lifelines
        over it, bold labels, thick lines, a travelling dot), ``"earlier"`` (a later step's: muted, its number
        unframed) or ``"poster"`` (every row at once, numbered in badges)."""
        dimmed = set(self.scenario.unselected)
        current = mode == "current"
        if current:
            leaf.add("rect", self.rect(row, 0, "band"))
        # The lifelines over the row, whole (under the band, the structure's are faint): the last row's down to
        # their ends.
        bottom = self.layout.lifelines[0].bottom if row.number == len(self.layout.rows) else row.bottom
        for dim in (False, True):
            runs = " ".join(f"M{fmt(line.x)} {fmt(row.y)} V{fmt(bottom)}" for line in self.layout.lifelines
                            if (line.key in dimmed) == dim)
            if runs:
                leaf.add("path", self.shape("path", ("lifeline", "lifeline-dim") if dim else ("lifeline",),
                                            {"d": runs}))
        # The labels' backgrounds hide the lifelines; the activation bars go over them, and each label's text over
        # its halo over the bars, so that a bar stays whole and the words stay readable.
        for message in row.messages:
            if message.arrow.label_box is not None and message.arrow.label_lines:
                leaf.add("rect", self.rect(message.arrow.label_box, 0, "band" if current else "bg"))
        for bar in row.bars:
            leaf.add("rect", self.rect(bar, 0, *(("bar", "bar-on") if current else ("bar",))))
        for message in row.messages:
            self.message(leaf, message, current, message.key in dimmed)
        for message in row.messages:
            self.message_label(leaf, message, current, message.key in dimmed)
        badge = row.badge
        if badge is not None:
            if mode == "earlier":
                leaf.add("text", self.text_block((badge.text,), badge.cx, badge.baseline, ("rownum",)))
            else:
                leaf.add("rect", self.rect(badge, badge.radius, "badge"))
                leaf.add("text", self.text_block((badge.text,), badge.cx, badge.baseline, ("badge-text",)))
        return leaf

    def message(self, leaf: Leaf, message: Message, current: bool, dim: bool) -> None:
        """One message into ``leaf``: its line (dashed for a reply), its head (open for a reply) and, in its own step,
        the dot that travels along it (left out of stills); its label is :meth:`message_label`."""
        arrow = message.arrow
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        line: tuple[str, ...] = ("flow",) if current else ("path", "path-dim") if dim else ("path",)
        leaf.add("path", self.shape("path", (*line, "reply") if message.reply else line, {"d": route}))
        if message.lost:  # its cross, in the lost mark's colour in its own step
            leaf.add("path", self.shape("path", ("mk-cross", "mk-cross-lost") if current else ("mk-cross",),
                                        {"d": cross(arrow.points[-1])}))
        elif message.reply:
            tip, left, right = arrow.head
            head: tuple[str, ...] = ("open", "open-on") if current else ("open", "open-dim") if dim else ("open",)
            leaf.add("polyline", self.shape("polyline", head, {
                "points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in (left, tip, right))}))
        else:
            closed = ("head-on",) if current else ("head", "head-dim") if dim else ("head",)
            leaf.add("polygon", self.shape("polygon", closed,
                                           {"points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)}))
        if current:
            period, reach = travel(arrow, self.speed)
            leaf.add("circle", self.shape("circle", ("dot",), {
                "r": fmt(DOT_RADIUS), "visibility": "hidden",
                "style": f"offset-path:path('{route}');animation-duration:{period}ms;--{self.p}-reach:{fmt(reach)}px"}))

    def message_label(self, leaf: Leaf, message: Message, current: bool, dim: bool) -> None:
        """A message's label into ``leaf``, over its halo (the row's band colour in its own step), a ``code`` label's
        in the monospace face."""
        arrow = message.arrow
        if not arrow.label_lines:
            return
        halo: tuple[str, ...] = ("halo", "halo-on") if current else ("halo", "halo-dim") if dim else ("halo",)
        text: tuple[str, ...] = ("plabel", "plabel-on") if current else ("plabel", "plabel-dim") if dim else ("plabel",)
        # a code label in the monospace face, as the layout measured it (a new user's TLS handshake came out in the
        # text face, its widths the monospace's)
        code: tuple[str, ...] = ("code",) if self.spec.targets[message.key].code else ()
        for roles in (halo + code, text + code):
            leaf.add("text", self.text_block(arrow.label_lines, arrow.label_at[0], arrow.label_at[1], roles,
                                             PATH_LABEL_LINE, {"text-anchor": arrow.label_anchor}))

    def mark_disc(self, mark: str, centre: Point) -> list[tuple[str, str]]:
        """A mark's disc at ``centre`` in its colour, ringed in the background's, and its symbol on it (elements as
        markup, with their tags): the symbol tells the marks apart without their colours (WCAG 2.2 SC 1.4.1)."""
        x, y = centre
        disc = self.shape("circle", (f"mk-{mark}",), {"cx": fmt(x), "cy": fmt(y), "r": fmt(MARK_RADIUS)})
        # Tagged "disc", not "circle": a still leaves out a layer's circles (the moving dot), never a mark's disc.
        return [("disc", disc), ("path", self.shape("path", ("mk-sym",), {"d": mark_symbol(mark, centre)}))]

    @property
    def marks_base(self) -> int:
        """The highlight number of the first mark: after the targets' highlights and the sequence's rows."""
        return len(self.highlights) + len(self.row_shows)

    def mark_layer(self, index: int) -> Leaf:
        """Mark ``index`` of :attr:`marks` as a highlight of its own, shown in its steps (the drawing's, and the
        same in a heads strip, which the drawing's style sheet animates alike)."""
        mark, centre, steps = self.marks[index]
        classes, group = self._highlight_group(self.marks_base + index, steps)
        leaf = Leaf("g", {**group, "class": self.cls(*classes, "mark"), "data-mech-mark": mark})
        for tag, markup in self.mark_disc(mark, centre):
            leaf.add(tag, markup)
        return leaf

    def marked(self, add: Callable[[Leaf], None]) -> None:
        """The marks, each a highlight of its own shown in its steps (over everything, so none hides it), then the
        legend, shown in every step that shows a mark: never in the poster."""
        for index in range(len(self.marks)):
            add(self.mark_layer(index))
        for offset, (entries, steps) in enumerate(self.legends, start=self.marks_base + len(self.marks)):
            classes, group = self._highlight_group(offset, steps)
            leaf = Leaf("g", {**group, "class": self.cls(*classes, "legend")})
            for entry in entries:
                for tag, markup in self.mark_disc(entry.mark, (entry.cx, entry.cy)):
                    leaf.add(tag, markup)
                leaf.add("text", self.text_block((entry.text,), entry.text_x, entry.baseline, ("legend",),
                                                 extra={"text-anchor": "middle"}))
            add(leaf)

    def css(self, inline: bool) -> str:
        """The animated style sheet; ``inline`` puts the colour rules of an SVG inlined in HTML before it.
        The sheets are rendered from templates (:mod:`mechdiagram.render.stylesheet`)."""
        dimmed = set(self.scenario.unselected)
        marked = (*(steps for _, _, steps in self.marks), *(steps for _, steps in self.legends))
        motion = motion_sheet(self.p, tuple(step.duration for step in self.scenario.steps),
                              (*(steps for _, steps in self.highlights), *(steps for _, _, steps in self.row_shows),
                               *marked),
                              tuple((index, "muted" if key in dimmed else "text") for key, index in self.lit.items()),
                              (*(steps for _, _, steps, _ in self.values),
                               *(steps for _, _, _, steps in self.relabels)))
        changes = any(changed for _, _, _, changed in self.values)
        return colour_sheet(self.p, bool(self.layout.rows), changes, bool(self.layout.groups),
                            bool(self.marks)) + motion if inline else motion

    def draw(self) -> Pieces:
        """The animated SVG, layer by layer: structure, highlights, path labels, marks, then the state panel, the
        poster layer and the step frames.
        Without CSS (a non-browser renderer) it shows the poster, from its presentation attributes."""
        layout, p, ids = self.layout, self.p, self.ids
        width, height = fmt(layout.width), fmt(layout.height)
        # The <svg> element from svgwrite (debug=False: no validator); its layers are built as markup.
        dwg = svgwrite.Drawing(size=(width, height), profile="full", debug=False)
        dwg.viewbox(0, 0, width, height)
        dwg.update({
            "class_": p, "role": "img", "lang": self.spec.language, "font-family": FONT_FAMILY,
            "aria-labelledby": f"{ids}-title", "aria-describedby": f"{ids}-desc",
        })
        layers = [Leaf("title", {"id": f"{ids}-title"}, self.spec.title),
                  Leaf("desc", {"id": f"{ids}-desc"}, self.spec.alt),
                  Leaf("defs", {})]  # the style sheet, filled per variant by Pieces
        add = layers.append
        add(Leaf("rect", {**self.paint("bg"), "height": height, "width": width, "x": "0", "y": "0"}))
        if layout.bands:
            bands = Leaf("g", {"class": self.cls("bands"), "aria-hidden": "true"})
            for band in layout.bands:
                bands.add("rect", self.rect(Rect(band.x, band.y, band.w, band.h), BAND_RADIUS, "band"))
            add(bands)
        if layout.groups:
            add(self.groups())
        if layout.lifelines:
            self.sequence(add)
            self.marked(add)
            self.panel_layers(add)
            return self.finish(dwg, layers)
        lanes = Leaf("g", {"class": self.cls("lanes"), "aria-hidden": "true"})
        for header in layout.lanes:
            lanes.add("text", self.text_block(header.lines, header.anchor_x, header.first_baseline, ("lane",),
                                              extra={"text-anchor": "middle"} if header.centred else None))
        add(lanes)
        if layout.columns:
            columns = Leaf("g", {"class": self.cls("columns"), "aria-hidden": "true"})
            for column in layout.columns:
                columns.add("text", self.text_block(column.lines, column.anchor_x, column.first_baseline,
                                                    ("lane", "colhead"),
                                                    extra=None if column.centred else {"text-anchor": "start"}))
            add(columns)
        if layout.axis is not None:
            add(self.axis(layout.axis))
        for index, (key, steps) in enumerate(self.highlights):
            if key in layout.boxes:
                add(self.ring(index, key, steps))
        dimmed = set(self.scenario.unselected)
        paths = Leaf("g", {"class": self.cls("paths"), "aria-hidden": "true"})
        for key, arrow in layout.arrows.items():
            dim = key in dimmed
            paths.append(self.arrow(arrow, {"class": self.cls("arrow", "dim") if dim else self.cls("arrow")}, dim))
        add(paths)
        add(self.nodes())
        self.steps(add, dimmed)
        # Over the drawing: never hidden by a box or a highlight.
        labels = Leaf("g", {"class": self.cls("plabels"), "aria-hidden": "true"})
        for key, arrow in ((k, a) for k, a in layout.arrows.items() if a.label_lines and k not in self.relabelled):
            for role in ("halo", "plabel"):  # the halo first, under its label (mechdiagram.render.paint)
                roles: tuple[str, ...] = (role,)
                if role == "halo" and arrow.label_on_band:
                    roles += ("halo-band",)
                if key in dimmed:
                    roles += (f"{role}-dim",)  # a dashed path's label: italic
                if self.spec.targets[key].code:
                    roles += ("code",)
                labels.add("text", self.text_block(arrow.label_lines, arrow.label_at[0], arrow.label_at[1],
                                                   roles, PATH_LABEL_LINE, {"text-anchor": arrow.label_anchor}))
        add(labels)
        self.marked(add)
        self.panel_layers(add)
        return self.finish(dwg, layers)

    def lane_strip(self) -> tuple[str, float]:
        """The lane names of a lane grid whose names stand in a column at its left, as a second ``<svg>`` that
        the HTML figure holds at its frame's left edge while the drawing scrolls under it (issue 26: scrolled,
        the grid's rows had no names): the page's colour, the bands' left ends and the names, in the drawing's
        classes (so the page's colour scheme colours them as the drawing), from the drawing's left edge to the
        right of the name column, from its top to the foot of the bands; ``""`` for any other drawing.  Hidden
        from assistive technology: the drawing names the lanes already.  Colour placeholders as :meth:`draw`'s.
        With the strip's width, in user units (0 for none)."""
        layout = self.layout
        heads = [h for h in layout.lanes if not h.above]
        if not heads or layout.lifelines:
            return "", 0.0
        right = max(h.x + h.w for h in heads)
        # Down to the lanes' bands' foot: the axis and the state panel under the grid stay uncovered.
        width = fmt(right)
        height = fmt(math.ceil(max([b.y + b.h for b in layout.bands] + [h.y + h.h for h in heads])))
        root = Leaf("svg", {"xmlns": "http://www.w3.org/2000/svg", "class": self.p, "viewBox": f"0 0 {width} {height}",
                            "aria-hidden": "true", "focusable": "false", "font-family": FONT_FAMILY})
        root.add("rect", element("rect", {**self.paint("bg"), "height": height, "width": width, "x": "0", "y": "0"}))
        for band in layout.bands:
            root.add("rect", self.rect(Rect(band.x, band.y, band.w, band.h), BAND_RADIUS, "band"))
        for header in heads:
            root.add("text", self.text_block(header.lines, header.x, header.first_baseline, ("lane",)))
        return root.markup(), right

    def finish(self, dwg: svgwrite.Drawing, layers: list[Leaf]) -> Pieces:
        """The drawing's pieces: the ``<svg>`` element of ``dwg`` around ``layers``."""
        root = dwg.get_xml()
        # svgwrite declares the XLink and XML Events namespaces, which no element here uses; inline in HTML
        # xmlns:ev is not allowed (the Nu HTML Checker's error), so neither is written.
        for unused in ("xmlns:xlink", "xmlns:ev"):
            del root.attrib[unused]
        return Pieces(*shell(root), layers)


#: A palette of placeholders: the drawing is made and serialised once with these, and each colour
#: scheme's file is that text with the placeholders replaced.  U+0001 cannot come from a spec (the
#: validator refuses it), so author text can never look like a placeholder.
_TOKENS = theme.Palette(**{name: f"\x01{name}\x01" for name in theme.Palette.__struct_fields__})
#: The colours of a drawing inlined in HTML, in its motion sheet: the custom properties its colour rules set
#: (``svg-colours.css``), so that what moves follows the page's colour scheme as the rest does.
_CUSTOM = theme.Palette(**{name: f"var({prop})" for name, (prop, _) in zip(
    theme.Palette.__struct_fields__, theme.LIGHT.custom_properties(), strict=True)})


def _colouring(palette: theme.Palette) -> Callable[[str], str]:
    """A function that replaces every :data:`_TOKENS` placeholder of a text with ``palette``'s colour.
    The text is split at the placeholders' U+0001: the pieces between them are text, each one inside
    is a field name."""
    colours = _colours(palette)

    def colour(text: str) -> str:
        if "\x01" not in text:
            return text
        parts = text.split("\x01")
        parts[1::2] = [colours[name] for name in parts[1::2]]
        return "".join(parts)

    return colour


@lru_cache(maxsize=8)
def _colours(palette: theme.Palette) -> dict[str, str]:
    """``palette``'s colours by field name, and the marks' that go with it
    (:func:`~mechdiagram.render.theme.mark_colours`)."""
    return {**{name: str(getattr(palette, name)) for name in theme.Palette.__struct_fields__},
            **theme.mark_colours(palette)}


def route_length(arrow: Arrow) -> float:
    """The length of ``arrow``'s route in user units (its segments are horizontal or vertical)."""
    return sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in zip(arrow.points, arrow.points[1:], strict=False))


def travel_speed(routes: list[Arrow]) -> float:
    """The speed of every flow dot of a drawing whose active routes are ``routes``, in user units a second:
    :data:`TRAVEL_SPEED`, or faster when the longest route would take more than the longest travel
    (:data:`TRAVEL_MS`)."""
    longest = max((route_length(arrow) for arrow in routes), default=0.0)
    return max(float(TRAVEL_SPEED), 1000 * longest / TRAVEL_MS[1])


def travel(arrow: Arrow, speed: float) -> tuple[int, float]:
    """The flow dot's period along ``arrow``'s route at ``speed`` units a second, in ms (the time the route takes,
    at least the shortest travel of :data:`TRAVEL_MS`, rounded up to 10 ms), and the path it covers in that time,
    in user units (at least the route's length: past its end the dot rests there)."""
    period = max(TRAVEL_MS[0], math.ceil(1000 * route_length(arrow) / speed / 10) * 10)
    return period, speed * period / 1000


def _values(layout: Layout) -> list[tuple[int, tuple[str, ...], tuple[int, ...], bool]]:
    """The state panel's values in the steps: ``(row index, lines, steps, changed)`` for each row and each
    distinct value of it, in the order the steps first show them, with the steps (1-based) whose row holds that
    value; a value in a step that changes it (from the step before, or the poster's for step 1) is an entry of its
    own, ``changed``, drawn with the changed mark (issue 29: the panel says which rows a step changed)."""
    found: dict[tuple[int, tuple[str, ...], bool], list[int]] = {}
    before = layout.panel.poster.values
    for number, frame in enumerate(layout.panel.steps, start=1):
        for row, lines in enumerate(frame.values):
            found.setdefault((row, lines, lines != before[row]), []).append(number)
        before = frame.values
    return [(row, lines, tuple(steps), changed) for (row, lines, changed), steps in found.items()]


def _relabels(spec: Spec, scenario: Scenario,
              layout: Layout) -> list[tuple[str, str, tuple[str, ...], tuple[int, ...]]]:
    """The labels a step changes (a step's ``labels``), in the steps: ``(target key, text, lines, steps)`` for
    each target of the drawing whose label some step of the spec changes and each text its label shows in this
    scenario, in target order, then the order the steps first show them, with the steps (1-based) that show it.
    The lines are the layout's (:attr:`~mechdiagram.layout.geometry.Box.texts`)."""
    found: dict[tuple[str, str], list[int]] = {}
    drawn = [(key, layout.boxes.get(key) or layout.arrows.get(key)) for key in spec.targets if key in spec.relabelled]
    for key, target in drawn:
        if target is None or not target.texts:
            continue
        for number, step in enumerate(scenario.steps, start=1):
            found.setdefault((key, step.label_of(spec.targets[key]) or ""), []).append(number)
    return [(key, text, (layout.boxes.get(key) or layout.arrows[key]).lines_of(text), tuple(steps))
            for (key, text), steps in found.items()]


def _highlights(scenario: Scenario, layout: Layout) -> list[tuple[str, tuple[int, ...]]]:
    """Every target some step highlights, paths first (drawn under boxes), each with its steps (1-based),
    in the order the steps first highlight them."""
    steps: dict[str, list[int]] = {}
    for number, step in enumerate(scenario.steps, start=1):
        for key in step.paths:
            if key in layout.arrows:
                steps.setdefault(key, []).append(number)
    for number, step in enumerate(scenario.steps, start=1):
        for key in step.active:
            if key in layout.boxes or key in layout.groups:
                steps.setdefault(key, []).append(number)
    return [(key, tuple(dict.fromkeys(numbers))) for key, numbers in steps.items()]


#: Each mark's symbol on its disc, as SVG path data for a disc centred at (0, 0) of radius MARK_RADIUS (8): a plus
#: (new), a delta (changed), a minus (removed), a cross (lost), an exclamation mark (error), a clock's hands (waiting)
#: and a tick (done).  Drawn as strokes, not glyphs, so every renderer draws them alike without a font.
MARK_SYMBOLS: dict[str, tuple[tuple[str, float, float], ...]] = {
    "new": (("M", -4, 0), ("H", 4, 0), ("M", 0, -4), ("V", 0, 4)),
    "changed": (("M", 0, -4), ("L", 4.2, 3.2), ("H", -4.2, 0), ("Z", 0, 0)),
    "removed": (("M", -4.5, 0), ("H", 4.5, 0)),
    "lost": (("M", -3.5, -3.5), ("L", 3.5, 3.5), ("M", 3.5, -3.5), ("L", -3.5, 3.5)),
    "error": (("M", 0, -4.5), ("V", 0, 0.8), ("M", 0, 3.8), ("V", 0, 4)),
    "waiting": (("M", 0, -4.5), ("V", 0, 0), ("H", 3.5, 0)),
    "done": (("M", -4, 0.2), ("L", -1.2, 3), ("L", 4, -3)),
}


def mark_symbol(mark: str, centre: Point) -> str:
    """The path data of ``mark``'s symbol (:data:`MARK_SYMBOLS`) on a disc at ``centre``."""
    x, y = centre
    parts = []
    for command, dx, dy in MARK_SYMBOLS[mark]:
        if command == "Z":
            parts.append("Z")
        elif command == "H":
            parts.append(f"H{fmt(x + dx)}")
        elif command == "V":
            parts.append(f"V{fmt(y + dy)}")
        else:
            parts.append(f"{command}{fmt(x + dx)} {fmt(y + dy)}")
    return " ".join(parts)


def _marks(scenario: Scenario, layout: Layout) -> list[tuple[str, Point, tuple[int, ...]]]:
    """The marks the drawing shows, ``(mark, centre, steps)`` each: one for each target and mark, in the order the
    steps first give them, with the steps (1-based) that give it.  A box's and a path's centre is the layout's
    (:attr:`~mechdiagram.layout.geometry.Layout.marks`); a message's (sequence view) is on its row
    (:func:`~mechdiagram.layout.marks.marked_row`: the step's own, or the latest earlier one that sends it), so each
    step's is one of its own; a lost message's mark in its own step is its cross (drawn with its row), not a disc."""
    found: dict[tuple[str, str, Point], list[int]] = {}
    rows = {row.number: {message.key: message for message in row.messages} for row in layout.rows}
    for number, step in enumerate(scenario.steps, start=1):
        for key, mark in step.marks.items():
            row = marked_row(scenario, number, key) if rows else None
            message = rows.get(row, {}).get(key) if row is not None else None
            if message is not None:
                if not (message.lost and row == number):  # a lost message's own mark is its cross
                    found.setdefault((key, mark, message_mark(message)), []).append(number)
            elif key in layout.marks:
                found.setdefault((key, mark, layout.marks[key]), []).append(number)
    return [(mark, centre, tuple(steps)) for (_, mark, centre), steps in found.items()]


def _legends(layout: Layout) -> list[tuple[tuple[LegendEntry, ...], tuple[int, ...]]]:
    """The legends the drawing shows: each distinct set of entries of :attr:`Legend.steps` (a step's, the marks
    the drawing shows in it: none in a step that shows no mark), with the steps (1-based) that show it, in the
    order of their first step."""
    if layout.legend is None:
        return []
    found: dict[tuple[LegendEntry, ...], list[int]] = {}
    for number, entries in enumerate(layout.legend.steps, start=1):
        if entries:
            found.setdefault(entries, []).append(number)
    return [(entries, tuple(steps)) for entries, steps in found.items()]


def _row_shows(layout: Layout) -> list[tuple[int, str, tuple[int, ...]]]:
    """The sequence view's row layers, each a highlight: ``(step number, mode, steps that show it)``, the row as
    it looks in its own step (``"current"``) and, for every row but the last, in the steps after it
    (``"earlier"``).  No layer shows a row before its step."""
    count = len(layout.rows)
    shows: list[tuple[int, str, tuple[int, ...]]] = []
    for row in layout.rows:
        shows.append((row.number, "current", (row.number,)))
        if row.number < count:
            shows.append((row.number, "earlier", tuple(range(row.number + 1, count + 1))))
    return shows


def still_names(spec: Spec, scenario: Scenario, still: int) -> tuple[str, str]:
    """The ``<title>`` and ``<desc>`` of still frame ``still`` (1-based step): the spec's title and
    alt text, each followed by the step (its heading, and its description in ``<desc>``)."""
    heading = step_heading(scenario, still - 1, words_for(spec.language, spec.messages))
    return (f"{spec.title} ({heading})",
            f"{spec.alt} {heading}. {scenario.steps[still - 1].description}")


class ScenarioSvgs(Struct, frozen=True):
    """One scenario's SVG documents as strings.

    ``animated`` and ``dark`` are the files (light and dark colours, each fixed, so that an ``<img>``
    looks the same on any page; ``<picture>`` chooses between them), ``inline`` the form the HTML
    figure inlines (its colours follow the page), with its style sheet ``inline_css``, and
    ``inline_bare`` the same without its style sheet (for a second layout inlined beside one whose
    ``inline_css`` is the same); ``heads`` a sequence's heads strip for the HTML figure (``""`` for the other
    views, or without ``inline``: :meth:`_Drawer.heads_strip`, coloured by the inline drawing's style sheet);
    ``stills`` and ``dark_stills`` the still frames by number (0 the poster, K step K).  ``width`` is the
    drawing's natural width in user units; ``focus`` the explorer's focus ring of each target
    (:func:`~mechdiagram.render.explore.focus_shapes`).
    """

    animated: str
    stills: dict[int, str]
    width: float = 0.0
    inline: str = ""
    dark: str = ""
    dark_stills: dict[int, str] = field(default_factory=dict)
    inline_css: str = ""
    inline_bare: str = ""
    strip: str = ""  # the lane names the HTML figure holds in view (_Drawer.lane_strip), in light colours
    strip_width: float = 0.0  # its width, user units
    focus: dict[str, dict[str, Any]] = field(default_factory=dict)
    heads: str = ""


def render_scenario(spec: Spec, scenario: Scenario, layout: Layout, prefix: str,
                    stills: tuple[int, ...] = (0,), inline: bool = True, variant: str = "") -> ScenarioSvgs:
    """Draw one scenario once and serialise it in each colour scheme: animated, inline (unless
    ``inline`` is False) and as each still.

    ``prefix`` comes from :func:`prefix_for`; ``stills`` are frame numbers,
    0 for the poster and K for step K (1-based).  ``variant`` names a second layout of the same
    scenario (``"narrow"``): its classes and keyframes keep ``prefix`` (the two layouts share one style
    sheet), its ids become ``<prefix>-<variant>-…``, so that the HTML figure can inline both layouts
    without two elements of one id.  Raises :class:`~mechdiagram.shared.errors.RenderError` for a
    frame number the scenario does not have.  The strings have no XML
    declaration (see :func:`svg_document`).
    """
    bad = [k for k in stills if not 0 <= k <= len(scenario.steps)]
    if bad:
        raise RenderError(f"scenario {scenario.id} has no frame {bad[0]}; frames are 0 to {len(scenario.steps)}")
    drawer = _Drawer(spec, scenario, layout, prefix, _TOKENS, f"{prefix}-{variant}" if variant else prefix)
    pieces = drawer.draw()
    light, dark = pieces.coloured(_colouring(theme.LIGHT)), pieces.coloured(_colouring(theme.DARK))
    css = drawer.css(inline=False)  # its colours are placeholders: each file's, or the page's custom properties
    inline_css = _colouring(_CUSTOM)(drawer.css(inline=True)) if inline else ""
    names = {k: still_names(spec, scenario, k) if k else ("", "") for k in stills}
    return ScenarioSvgs(light.animated(_colouring(theme.LIGHT)(css)), {k: light.still(k, names[k]) for k in stills},
                        layout.width, light.animated(inline_css) if inline else "",
                        dark.animated(_colouring(theme.DARK)(css)), {k: dark.still(k, names[k]) for k in stills},
                        inline_css, light.animated(None) if inline else "",
                        *((_colouring(theme.LIGHT)(strip[0]), strip[1]) if inline and (strip := drawer.lane_strip())[0]
                          else ("", 0.0)), focus_shapes(layout),
                        _colouring(theme.LIGHT)(drawer.heads_strip()) if inline and layout.lifelines else "")


def svg_document(svg: str) -> bytes:
    """The standalone file form of an SVG string from :func:`render_scenario`: UTF-8, with declaration."""
    return (XML_DECLARATION + svg + "\n").encode("utf-8")


__all__ = ["ScenarioSvgs", "fmt", "prefix_for", "render_scenario", "still_names", "svg_document"]
