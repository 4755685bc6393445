"""Stage 5, SVG: draw a laid-out scenario as a self-contained SVG document.

The SVG has no script and no SMIL: it moves only through CSS ``@keyframes``
(one per step, from :class:`renderer.timeline.Timeline`), works inside
``<img>``, and under ``prefers-reduced-motion: reduce`` shows a still poster
frame (the structure and the scenario's ``initial`` state).  Accessibility:
``role="img"`` named by ``<title>`` and described by ``<desc>`` through
``aria-labelledby``/``aria-describedby`` (WAI-ARIA 1.2, the ``img`` role),
``lang`` from the spec (WCAG 2.2 SC 3.1.1), labels as real ``<text>``.
Every id and class starts with the spec-and-scenario prefix, so several SVGs
can share a page.  Author text reaches the document only as XML text or
attribute values, escaped by ElementTree.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import jinja2
import svgwrite
from svgwrite.base import Desc, Title
from svgwrite.etree import CDATA

from . import theme
from .errors import RenderError
from .layout import LINE_HEIGHT, PATH_LABEL_LINE, Box, Layout, PanelFrame, step_heading
from .layout.sizes import FONT_SIZE, PATH_LABEL_SIZE, TITLE_SIZE
from .model import Scenario, Spec
from .templating import template
from .timeline import Timeline

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def fmt(value: float) -> str:
    """A coordinate at fixed precision (0.1 px) without trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def prefix_for(slug: str, scenario_id: str) -> str:
    """The prefix of every id, class and keyframes name: ``md-`` and 10 hex digits of the SHA-256
    of spec slug and scenario id.

    Joining the readable names would be ambiguous (spec ``q`` with scenario
    ``one-request`` and spec ``q-one`` with scenario ``request``), and a class
    such as ``<prefix>-path`` could equal another scenario's prefix; a digest
    cannot.  Names below the prefix are fixed words (``-node``, ``-f3``) or
    ``-n-<target id>``, so they cannot meet either.
    """
    digest = hashlib.sha256(f"{slug}\0{scenario_id}".encode()).hexdigest()
    return f"md-{digest[:10]}"


def _css_template() -> jinja2.Template:
    return template("svg.css")  # the one jinja2 environment (autoescape on) of every template


class _Leaf:
    """A ready-made ElementTree subtree that an svgwrite container accepts as a child (it asks its
    children only for ``get_xml()``).  Boxes and labels, most of a drawing's elements, are built this
    way: the same elements svgwrite would build, without its per-attribute bookkeeping, which took
    most of a build's time.  Attributes are written sorted, as svgwrite writes them."""

    def __init__(self, tag: str, attrib: dict[str, str], text: str | None = None) -> None:
        self.xml = ElementTree.Element(tag, dict(sorted(attrib.items())))
        self.xml.text = text

    def child(self, tag: str, attrib: dict[str, str], text: str | None = None) -> None:
        element = ElementTree.SubElement(self.xml, tag, dict(sorted(attrib.items())))
        element.text = text

    def __setitem__(self, name: str, value: str) -> None:
        self.xml.set(name, value)
        self.xml.attrib = dict(sorted(self.xml.attrib.items()))

    def get_xml(self) -> ElementTree.Element:
        return self.xml


class _Drawer:
    def __init__(self, spec: Spec, scenario: Scenario, layout: Layout, prefix: str) -> None:
        self.spec, self.scenario, self.layout, self.p = spec, scenario, layout, prefix
        width, height = fmt(layout.width), fmt(layout.height)
        # debug=False: no svgwrite validator, and elements made through this drawing inherit it.
        self.dwg = svgwrite.Drawing(size=(width, height), profile="full", debug=False)

    def cls(self, *names: str) -> str:
        return " ".join(f"{self.p}-{n}" for n in names)

    def text_block(self, lines: tuple[str, ...], x: float, y: float, cls: str,
                   line_height: float = LINE_HEIGHT) -> _Leaf:
        if len(lines) == 1:  # the common case: no <tspan>, fewer elements to write
            return _Leaf("text", {"class": cls, "x": fmt(x), "y": fmt(y)}, lines[0])
        text = _Leaf("text", {"class": cls})
        for i, line in enumerate(lines):
            text.child("tspan", {"x": fmt(x), "y": fmt(y + i * line_height)}, line)
        return text

    def box(self, box: Box, classes: tuple[str, ...], ring: bool = False, **attrs: str) -> _Leaf:
        group = _Leaf("g", {"class": self.cls(*classes), **attrs})
        if ring:
            group.child("rect", {"class": self.cls("ring"), "height": fmt(box.h + 10), "rx": "9",
                                 "width": fmt(box.w + 10), "x": fmt(box.x - 5), "y": fmt(box.y - 5)})
        group.child("rect", {"class": self.cls("node"), "height": fmt(box.h), "rx": "6", "width": fmt(box.w),
                             "x": fmt(box.x), "y": fmt(box.y)})
        group.xml.append(self.text_block(box.lines, box.cx, box.first_baseline, self.cls("label")).xml)
        return group

    def arrow(self, key: str, active: bool) -> Any:
        arrow = self.layout.arrows[key]
        dim = not active and key in self.scenario.unselected  # an unused path is drawn dimmed, as nodes are
        group = self.dwg.g(class_=self.cls("arrow", "dim") if dim else self.cls("arrow"))
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        group.add(self.dwg.path(d=route, class_=self.cls("flow" if active else "path")))
        group.add(self.dwg.polygon([(fmt(x), fmt(y)) for x, y in arrow.head],
                                          class_=self.cls("head-on" if active else "head")))
        return group

    def panel_frame(self, frame: PanelFrame) -> list[_Leaf]:
        panel = self.layout.panel
        items = [self.text_block(frame.title, panel.x + 12, panel.title_y, self.cls("ptitle"), LINE_HEIGHT + 2)]
        for row, value in zip(panel.rows, frame.values, strict=True):
            items.append(self.text_block(value, panel.value_x, row.y, self.cls("pval")))
        return items

    def frame(self, number: int, extra_class: str | None = None) -> Any:
        classes = ["frame", f"f{number}"] + ([extra_class] if extra_class else [])
        group = self.dwg.g(class_=self.cls(*classes), **{"data-md-frame": str(number), "aria-hidden": "true"})
        if number == 0:
            for item in self.panel_frame(self.layout.panel.poster):
                group.add(item)
            return group
        step = self.scenario.steps[number - 1]
        for key in step.paths:
            if key in self.layout.arrows:
                group.add(self.arrow(key, active=True))
        for key in step.active:
            if key in self.layout.boxes:
                group.add(self.box(self.layout.boxes[key], ("on",), ring=True))
        for item in self.panel_frame(self.layout.panel.steps[number - 1]):
            group.add(item)
        return group

    def css(self, still: int | None) -> str:
        timeline = Timeline.for_scenario(self.scenario)
        frames = [{"number": w.index + 1, "stops": timeline.keyframe_stops(w)} for w in timeline.windows]
        return _css_template().render(
            prefix=self.p, light=theme.LIGHT.custom_properties(), dark=theme.DARK.custom_properties(),
            sizes={"label": fmt(FONT_SIZE), "path_label": fmt(PATH_LABEL_SIZE), "title": fmt(TITLE_SIZE)},
            animated=still is None, frames=frames, total=timeline.total, still=still)

    def draw(self) -> ElementTree.Element:
        """The animated SVG as an ElementTree element: structure, poster frame and every step frame."""
        layout, p = self.layout, self.p
        width, height = fmt(layout.width), fmt(layout.height)
        dwg = self.dwg
        dwg.viewbox(0, 0, width, height)
        dwg.update({
            "class_": p, "role": "img", "lang": self.spec.language,
            "aria-labelledby": f"{p}-title", "aria-describedby": f"{p}-desc",
        })
        title, desc = Title(self.spec.title), Desc(self.spec.alt)
        title.xml.set("id", f"{p}-title")
        desc.xml.set("id", f"{p}-desc")
        dwg.elements.insert(0, desc)
        dwg.elements.insert(0, title)
        dwg.defs.add(dwg.style(self.css(None)))
        dwg.add(dwg.rect((0, 0), (width, height), class_=self.cls("bg")))
        if layout.bands:
            bands = dwg.g(class_=self.cls("bands"), **{"aria-hidden": "true"})
            for band in layout.bands:
                bands.add(dwg.rect((fmt(band.x), fmt(band.y)), (fmt(band.w), fmt(band.h)), rx="8",
                                   class_=self.cls("band")))
            dwg.add(bands)
        lanes = dwg.g(class_=self.cls("lanes"), **{"aria-hidden": "true"})
        for header in layout.lanes:
            first = header.y + (header.h - len(header.lines) * LINE_HEIGHT) / 2 + LINE_HEIGHT * 0.75
            lanes.add(self.text_block(header.lines, header.x, first, self.cls("lane")))
        dwg.add(lanes)
        paths = dwg.g(class_=self.cls("paths"), **{"aria-hidden": "true"})
        for key in layout.arrows:
            paths.add(self.arrow(key, active=False))
        dwg.add(paths)
        nodes = dwg.g(class_=self.cls("nodes"), **{"aria-hidden": "true"})
        dimmed = set(self.scenario.unselected)
        for target in self.spec.nodes:
            if target.key in layout.boxes:
                classes = ("n", "dim") if target.key in dimmed else ("n",)
                nodes.add(self.box(layout.boxes[target.key], classes, id=f"{p}-n-{target.id}"))
        dwg.add(nodes)
        panel = layout.panel
        state = dwg.g(class_=self.cls("state"), **{"aria-hidden": "true"})
        state.add(dwg.rect((fmt(panel.x), fmt(panel.y)), (fmt(panel.w), fmt(panel.h)), rx="6",
                           class_=self.cls("panel")))
        for row in panel.rows:
            state.add(self.text_block(row.label, panel.x + 12, row.y, self.cls("pkey")))
        dwg.add(state)
        dwg.add(self.frame(0, "poster"))
        for number in range(1, len(self.scenario.steps) + 1):
            dwg.add(self.frame(number))
        # On top: never hidden by a box or a step frame.
        labels = dwg.g(class_=self.cls("plabels"), **{"aria-hidden": "true"})
        for arrow in layout.arrows.values():
            if arrow.label_lines:
                label = self.text_block(arrow.label_lines, arrow.label_at[0], arrow.label_at[1], self.cls("plabel"),
                                        PATH_LABEL_LINE)
                label["text-anchor"] = arrow.label_anchor
                labels.add(label)
        dwg.add(labels)
        root: ElementTree.Element = dwg.get_xml()
        return root


def _serialize(element: ElementTree.Element) -> str:
    # encoding="unicode" writes straight to a string: faster than svgwrite's tostring().
    return ElementTree.tostring(element, encoding="unicode")


class _Pieces:
    """The drawing serialised child by child, so that the animated SVG and its still frames share
    every piece they have in common: only the style sheet and the step frames differ."""

    _MARK = "\ue000"  # a private-use character that author text cannot bring: XML-valid, never drawn

    def __init__(self, root: ElementTree.Element) -> None:
        shell = ElementTree.Element(root.tag, root.attrib)
        shell.text = self._MARK
        self.open, self.close = _serialize(shell).split(self._MARK)
        self.root = root
        self.children = list(root)
        self.parts = [_serialize(child) for child in self.children]

    def join(self, keep: set[str] | None = None, replace: dict[str, str] | None = None) -> str:
        """The SVG with the frames numbered in ``keep`` (all when None) and, by tag, the children in
        ``replace`` (``defs``, ``title``, ``desc``) serialised otherwise."""
        out = [self.open]
        replace = replace or {}
        for child, part in zip(self.children, self.parts, strict=True):
            frame = child.get("data-md-frame")
            if frame is not None and keep is not None and frame not in keep:
                continue
            out.append(replace.get(child.tag, part))
        out.append(self.close)
        return "".join(out)

    def still(self, drawer: _Drawer, still: int) -> str:
        """Still frame ``still`` (0 the poster): other step frames and the keyframes left out; a step's
        still adds the step to its ``<title>`` and ``<desc>`` (:func:`still_names`)."""
        defs = self.root.find("defs")
        style = defs.find("style") if defs is not None else None
        if defs is None or style is None:
            raise RenderError("the drawing has no style sheet to replace")
        content = list(style)
        style[:] = [CDATA(drawer.css(still))]
        try:
            replace = {"defs": _serialize(defs)}
        finally:
            style[:] = content
        if still:
            title, desc = still_names(drawer.spec, drawer.scenario, still)
            for child in self.children:
                if child.tag in ("title", "desc"):
                    named = ElementTree.Element(child.tag, child.attrib)
                    named.text = title if child.tag == "title" else desc
                    replace[child.tag] = _serialize(named)
        return self.join({"0", str(still)}, replace)


def still_names(spec: Spec, scenario: Scenario, still: int) -> tuple[str, str]:
    """The ``<title>`` and ``<desc>`` of still frame ``still`` (1-based step): the spec's title and
    alt text, each followed by the step (its heading, and its description in ``<desc>``)."""
    heading = step_heading(scenario, still - 1)
    return (f"{spec.title} ({heading})",
            f"{spec.alt} {heading}. {scenario.steps[still - 1].description}")


@dataclass(frozen=True)
class ScenarioSvgs:
    """One scenario's SVG elements as strings: ``animated``, and ``stills`` by frame (0 the poster, K step K)."""

    animated: str
    stills: dict[int, str]
    width: float = 0.0  # the drawing's natural width, in user units (CSS px at scale 1)


def render_scenario(spec: Spec, scenario: Scenario, layout: Layout, prefix: str,
                    stills: tuple[int, ...] = (0,)) -> ScenarioSvgs:
    """Draw one scenario once and serialise it animated and as each requested still frame.

    ``prefix`` comes from :func:`prefix_for`; ``stills`` are frame numbers,
    0 for the poster and K for step K (1-based).  Raises :class:`~renderer.errors.RenderError` for a
    frame number the scenario does not have.  The strings have no XML
    declaration (see :func:`svg_document`).
    """
    bad = [k for k in stills if not 0 <= k <= len(scenario.steps)]
    if bad:
        raise RenderError(f"scenario {scenario.id} has no frame {bad[0]}; frames are 0 to {len(scenario.steps)}")
    drawer = _Drawer(spec, scenario, layout, prefix)
    pieces = _Pieces(drawer.draw())
    return ScenarioSvgs(pieces.join(), {k: pieces.still(drawer, k) for k in stills}, layout.width)


def svg_document(svg: str) -> bytes:
    """The standalone file form of an SVG string from :func:`render_scenario`: UTF-8, with declaration."""
    return (XML_DECLARATION + svg + "\n").encode("utf-8")


__all__ = ["ScenarioSvgs", "fmt", "prefix_for", "render_scenario", "still_names", "svg_document"]
