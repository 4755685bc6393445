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

import copy
import hashlib
import re
from dataclasses import dataclass, field, fields
from functools import lru_cache
from xml.etree import ElementTree

import jinja2
import svgwrite
from markupsafe import Markup
from svgwrite.base import Desc, Title
from svgwrite.etree import CDATA

from . import theme
from .errors import RenderError
from .layout import LINE_HEIGHT, PATH_LABEL_LINE, Arrow, Box, Layout, PanelFrame, step_heading
from .layout.geometry import Rect
from .locale import words_for
from .model import Scenario, Spec
from .paint import FONT_FAMILY, attributes, colour_rules
from .templating import template
from .timeline import Timeline

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

#: The flow dot's speed along an active route, in user units per second, and its bounds in ms.
TRAVEL_SPEED = 160
TRAVEL_MS = (800, 2400)


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
    cannot.  Names below the prefix are fixed words (``-node``, ``-f3``),
    ``-n-<target id>``, or the narrow layout's ids (``-narrow-title``, ``-narrow-n-<target id>``: see
    :func:`render_scenario`), so they cannot meet either.
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
    """Writes one scenario's drawing in one colour scheme: every element carries the presentation
    attributes of its roles (:mod:`renderer.paint`) and the classes the style sheet animates."""

    def __init__(self, spec: Spec, scenario: Scenario, layout: Layout, prefix: str, palette: theme.Palette,
                 ids: str) -> None:
        self.spec, self.scenario, self.layout, self.p, self.palette = spec, scenario, layout, prefix, palette
        self.ids = ids  # the prefix of every id (the class prefix, or a layout's own: see render_scenario)
        width, height = fmt(layout.width), fmt(layout.height)
        # debug=False: no svgwrite validator, and elements made through this drawing inherit it.
        self.dwg = svgwrite.Drawing(size=(width, height), profile="full", debug=False)
        self.timeline = Timeline.for_scenario(scenario)
        self.highlights = _highlights(scenario, layout)

    def cls(self, *names: str) -> str:
        return " ".join(f"{self.p}-{n}" for n in names)

    def paint(self, *roles: str) -> dict[str, str]:
        """Class and presentation attributes of an element with ``roles``."""
        return {"class": self.cls(*roles), **attributes(roles, self.palette)}

    def text_block(self, lines: tuple[str, ...], x: float, y: float, roles: tuple[str, ...],
                   line_height: float = LINE_HEIGHT) -> _Leaf:
        attrs = self.paint(*roles)
        if len(lines) == 1:  # the common case: no <tspan>, fewer elements to write
            return _Leaf("text", {**attrs, "x": fmt(x), "y": fmt(y)}, lines[0])
        text = _Leaf("text", attrs)
        for i, line in enumerate(lines):
            text.child("tspan", {"x": fmt(x), "y": fmt(y + i * line_height)}, line)
        return text

    def rect(self, rect: Rect, rx: str, *roles: str, grow: float = 0) -> dict[str, str]:
        return {**self.paint(*roles), "height": fmt(rect.h + 2 * grow), "rx": rx, "width": fmt(rect.w + 2 * grow),
                "x": fmt(rect.x - grow), "y": fmt(rect.y - grow)}

    def box(self, box: Box, group: dict[str, str], variant: str | None) -> _Leaf:
        leaf = _Leaf("g", group)
        if variant == "on":
            leaf.child("rect", self.rect(box, "9", "ring", grow=5))
        leaf.child("rect", self.rect(box, "6", *(("node", f"node-{variant}") if variant else ("node",))))
        leaf.xml.append(self.text_block(box.lines, box.cx, box.first_baseline,
                                        ("label", f"label-{variant}") if variant else ("label",)).xml)
        return leaf

    def arrow(self, arrow: Arrow, group: dict[str, str], dim: bool) -> _Leaf:
        leaf = _Leaf("g", group)
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        leaf.child("path", {**self.paint(*(("path", "path-dim") if dim else ("path",))), "d": route})
        leaf.child("polygon", {**self.paint(*(("head", "head-dim") if dim else ("head",))),
                               "points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)})
        return leaf

    def flow(self, arrow: Arrow, group: dict[str, str]) -> _Leaf:
        """An active path: a thick stroke, its arrowhead, and a dot that travels from source to destination."""
        leaf = _Leaf("g", group)
        route = "M" + " L".join(f"{fmt(x)} {fmt(y)}" for x, y in arrow.points)
        leaf.child("path", {**self.paint("flow"), "d": route})
        leaf.child("polygon", {**self.paint("head-on"),
                               "points": " ".join(f"{fmt(x)},{fmt(y)}" for x, y in arrow.head)})
        # At the origin, moved along the route by CSS offset-path; hidden where CSS does not move it.
        leaf.child("circle", {**self.paint("dot"), "r": "4", "visibility": "hidden",
                              "style": f"offset-path:path('{route}');animation-duration:{travel_ms(arrow)}ms"})
        return leaf

    def panel_frame(self, frame: PanelFrame) -> list[_Leaf]:
        panel = self.layout.panel
        if words_for(self.spec.language, self.spec.messages).direction == "rtl":
            # Right to left, centred: text-anchor "middle" means the same in every renderer, where "end"
            # under direction="rtl" is the left edge in browsers and the right one in resvg.
            title = self.text_block(frame.title, panel.x + panel.w / 2, panel.title_y, ("ptitle",), LINE_HEIGHT + 2)
            title["direction"] = "rtl"
            title["text-anchor"] = "middle"
        else:
            title = self.text_block(frame.title, panel.x + 12, panel.title_y, ("ptitle",), LINE_HEIGHT + 2)
        items = [title]
        for row, value in zip(panel.rows, frame.values, strict=True):
            items.append(self.text_block(value, panel.value_x, row.y, ("pval",)))
        return items

    def frame(self, number: int) -> _Leaf:
        """Frame 0, the poster layer (step badges and the panel before the first step), or step
        ``number``'s panel text, hidden until the style sheet or a still shows it."""
        if number == 0:
            leaf = _Leaf("g", {"class": self.cls("frame", "f0", "poster"), "data-md-frame": "0", "aria-hidden": "true"})
            for badge in self.layout.badges:
                leaf.child("rect", self.rect(badge, fmt(badge.h / 2), "badge"))
                leaf.xml.append(self.text_block((badge.text,), badge.cx, badge.y + badge.h / 2 + 4.5,
                                                ("badge-text",)).xml)
            frame = self.layout.panel.poster
        else:
            leaf = _Leaf("g", {"class": self.cls("frame", f"f{number}"), "data-md-frame": str(number),
                               "aria-hidden": "true", "visibility": "hidden"})
            frame = self.layout.panel.steps[number - 1]
        for item in self.panel_frame(frame):
            leaf.xml.append(item.xml)
        return leaf

    def highlight(self, index: int, key: str, steps: tuple[int, ...]) -> _Leaf:
        """Highlight ``index``: target ``key`` as it looks in ``steps`` (1-based), hidden until shown."""
        classes = ["hl", f"h{index}", *(f"s{k}" for k in steps)]
        group = {"aria-hidden": "true", "data-md-steps": " ".join(map(str, steps)), "visibility": "hidden"}
        if key in self.layout.boxes:
            return self.box(self.layout.boxes[key], {**group, "class": self.cls(*classes, "on")}, "on")
        return self.flow(self.layout.arrows[key], {**group, "class": self.cls(*classes, "active")})

    def css(self, inline: bool) -> str:
        """The animated style sheet; ``inline`` adds the colour rules of an SVG inlined in HTML."""
        return _style_sheet(self.p, inline, tuple(step.duration for step in self.scenario.steps),
                            tuple(steps for _, steps in self.highlights))

    def draw(self) -> ElementTree.Element:
        """The animated SVG as an ElementTree element: structure, poster layer, highlights and step frames.
        Without CSS (a non-browser renderer) it shows the poster, from its presentation attributes."""
        layout, p, ids = self.layout, self.p, self.ids
        width, height = fmt(layout.width), fmt(layout.height)
        dwg = self.dwg
        dwg.viewbox(0, 0, width, height)
        dwg.update({
            "class_": p, "role": "img", "lang": self.spec.language, "font-family": FONT_FAMILY,
            "aria-labelledby": f"{ids}-title", "aria-describedby": f"{ids}-desc",
        })
        title, desc = Title(self.spec.title), Desc(self.spec.alt)
        title.xml.set("id", f"{ids}-title")
        desc.xml.set("id", f"{ids}-desc")
        dwg.elements.insert(0, desc)
        dwg.elements.insert(0, title)
        dwg.defs.add(dwg.style(""))  # filled per variant by _Pieces
        dwg.add(_Leaf("rect", {**self.paint("bg"), "height": height, "width": width, "x": "0", "y": "0"}))
        if layout.bands:
            bands = _Leaf("g", {"class": self.cls("bands"), "aria-hidden": "true"})
            for band in layout.bands:
                bands.child("rect", self.rect(Rect(band.x, band.y, band.w, band.h), "8", "band"))
            dwg.add(bands)
        lanes = _Leaf("g", {"class": self.cls("lanes"), "aria-hidden": "true"})
        for header in layout.lanes:
            first = header.y + (header.h - len(header.lines) * LINE_HEIGHT) / 2 + LINE_HEIGHT * 0.75
            lanes.xml.append(self.text_block(header.lines, header.x, first, ("lane",)).xml)
        dwg.add(lanes)
        dimmed = set(self.scenario.unselected)
        paths = _Leaf("g", {"class": self.cls("paths"), "aria-hidden": "true"})
        for key, arrow in layout.arrows.items():
            dim = key in dimmed
            paths.xml.append(self.arrow(arrow, {"class": self.cls("arrow", "dim") if dim else self.cls("arrow")},
                                        dim).xml)
        dwg.add(paths)
        nodes = _Leaf("g", {"class": self.cls("nodes"), "aria-hidden": "true"})
        for target in self.spec.nodes:
            if target.key in layout.boxes:
                dim = target.key in dimmed
                group = {"class": self.cls("n", "dim") if dim else self.cls("n"), "id": f"{ids}-n-{target.id}"}
                nodes.xml.append(self.box(layout.boxes[target.key], group, "dim" if dim else None).xml)
        dwg.add(nodes)
        panel = layout.panel
        state = _Leaf("g", {"class": self.cls("state"), "aria-hidden": "true"})
        state.child("rect", self.rect(Rect(panel.x, panel.y, panel.w, panel.h), "6", "panel"))
        for row in panel.rows:
            state.xml.append(self.text_block(row.label, panel.x + 12, row.y, ("pkey",)).xml)
        dwg.add(state)
        for index, (key, steps) in enumerate(self.highlights):
            dwg.add(self.highlight(index, key, steps))
        dwg.add(self.frame(0))
        for number in range(1, len(self.scenario.steps) + 1):
            dwg.add(self.frame(number))
        # On top: never hidden by a box or a highlight.
        labels = _Leaf("g", {"class": self.cls("plabels"), "aria-hidden": "true"})
        for arrow in (a for a in layout.arrows.values() if a.label_lines):
            for role in ("halo", "plabel"):  # the halo first, under its label (renderer.paint)
                label = self.text_block(arrow.label_lines, arrow.label_at[0], arrow.label_at[1], (role,),
                                        PATH_LABEL_LINE)
                label["text-anchor"] = arrow.label_anchor
                labels.xml.append(label.xml)
        dwg.add(labels)
        root: ElementTree.Element = dwg.get_xml()
        return root


@lru_cache(maxsize=64)
def _style_sheet(prefix: str, inline: bool, durations: tuple[int, ...], highlights: tuple[tuple[int, ...], ...]) -> str:
    """The style sheet of a drawing with ``prefix``, steps of ``durations`` (ms) and highlights shown in
    the steps of each of ``highlights``; the wide and narrow layouts of a scenario share it."""
    timeline = Timeline.from_durations(list(durations))
    count = len(durations)
    frames = [{"number": w.index + 1, "stops": timeline.text_stops(w)} for w in timeline.windows]
    shown = [{"index": i, "steps": steps, "stops": timeline.highlight_stops([k in steps for k in range(1, count + 1)])}
             for i, steps in enumerate(highlights)]
    return _css_template().render(
        prefix=prefix, light=theme.LIGHT.custom_properties(), dark=theme.DARK.custom_properties(),
        colours=colour_rules() if inline else [], frames=frames, highlights=shown,
        steps=range(1, count + 1), total=timeline.total, ease=timeline.ease_ms,
        font=Markup(theme.FONT_FAMILY))  # our constant, with quotes that autoescaping would mangle


#: A palette of placeholders: the drawing is made and serialised once with these, and each colour
#: scheme's file is that text with the placeholders replaced.  U+0001 cannot come from a spec (the
#: validator refuses it), so author text can never look like a placeholder.
_TOKENS = theme.Palette(**{f.name: f"\x01{f.name}\x01" for f in fields(theme.Palette)})
_TOKEN = re.compile("\x01([a-z_]+)\x01")


def _coloured(text: str, palette: theme.Palette) -> str:
    """``text`` with every :data:`_TOKENS` placeholder replaced by ``palette``'s colour."""
    return _TOKEN.sub(lambda m: str(getattr(palette, m.group(1))), text)


def travel_ms(arrow: Arrow) -> int:
    """How long the flow dot takes along ``arrow``'s route, in ms: :data:`TRAVEL_SPEED` user units a
    second, within :data:`TRAVEL_MS`."""
    length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in zip(arrow.points, arrow.points[1:], strict=False))
    low, high = TRAVEL_MS
    return int(min(high, max(low, round(1000 * length / TRAVEL_SPEED, -1))))


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
            if key in layout.boxes:
                steps.setdefault(key, []).append(number)
    return [(key, tuple(dict.fromkeys(numbers))) for key, numbers in steps.items()]


def _serialize(element: ElementTree.Element) -> str:
    # encoding="unicode" writes straight to a string: faster than svgwrite's tostring().
    return ElementTree.tostring(element, encoding="unicode")


_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;",
                                    "\n": "&#10;", "\t": "&#09;"})
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _write(element: ElementTree.Element, out: list[str]) -> None:
    out.append("<" + element.tag)
    for name, value in element.items():
        out.append(f' {name}="{value.translate(_ATTRIBUTE_ESCAPES)}"')
    if element.text or len(element):
        out.append(">")
        if element.text:
            out.append(element.text.translate(_TEXT_ESCAPES))
        for child in element:
            _write(child, out)
        out.append("</" + element.tag + ">")
    else:
        out.append(" />")
    if element.tail:
        out.append(element.tail.translate(_TEXT_ESCAPES))


def _serialize_plain(element: ElementTree.Element) -> str:
    """:func:`_serialize` for a subtree of plain (namespace-free) tags and string attributes, as the
    drawing's layers are: the same characters, escaped the same way, several times faster.  A subtree
    holding CDATA (the style sheet) goes through :func:`_serialize`."""
    out: list[str] = []
    _write(element, out)
    return "".join(out)


class _Pieces:
    """The drawing serialised child by child, so that the animated SVG, its inline form and its still
    frames share every piece they have in common: only the style sheet and the layers differ."""

    _MARK = "\ue000"  # a private-use character that author text cannot bring: XML-valid, never drawn

    def __init__(self, root: ElementTree.Element) -> None:
        shell = ElementTree.Element(root.tag, root.attrib)
        shell.text = self._MARK
        self.open, self.close = _serialize(shell).split(self._MARK)
        self.children = list(root)
        self.parts = [_serialize(child) if child.tag == "defs" else _serialize_plain(child) for child in self.children]

    @staticmethod
    def _style(css: str) -> str:
        defs = ElementTree.Element("defs")
        ElementTree.SubElement(defs, "style").append(CDATA(css))
        return _serialize(defs)

    def animated(self, css: str | None) -> str:
        """Every layer, with style sheet ``css`` (``None``: no style sheet, for an SVG that shares one inlined
        beside it)."""
        style = self._style(css) if css is not None else ""
        return "".join([self.open, *(style if c.tag == "defs" else part for c, part in zip(
            self.children, self.parts, strict=True)), self.close])

    def still(self, number: int, names: tuple[str, str] = ("", "")) -> str:
        """Still ``number`` (0 the poster, K step K) from presentation attributes alone: the layers of
        other frames left out, the kept ones made visible, no style sheet and no moving dot; a step's
        still takes ``names`` as its ``<title>`` and ``<desc>`` (:func:`still_names`)."""
        out = [self.open]
        for child, part in zip(self.children, self.parts, strict=True):
            frame, steps = child.get("data-md-frame"), child.get("data-md-steps")
            if child.tag == "defs":
                continue
            if (frame is not None and frame != str(number)) or (steps is not None and str(number) not in steps.split()):
                continue
            if number and child.tag in ("title", "desc"):  # a step's still names its step
                named = ElementTree.Element(child.tag, child.attrib)
                named.text = names[0] if child.tag == "title" else names[1]
                part = _serialize_plain(named)
            elif child.get("visibility") == "hidden":
                shown = copy.deepcopy(child)
                del shown.attrib["visibility"]
                for dot in [e for e in shown if e.tag == "circle"]:
                    shown.remove(dot)
                part = _serialize_plain(shown)
            out.append(part)
        out.append(self.close)
        return "".join(out)



def still_names(spec: Spec, scenario: Scenario, still: int) -> tuple[str, str]:
    """The ``<title>`` and ``<desc>`` of still frame ``still`` (1-based step): the spec's title and
    alt text, each followed by the step (its heading, and its description in ``<desc>``)."""
    heading = step_heading(scenario, still - 1, words_for(spec.language, spec.messages))
    return (f"{spec.title} ({heading})",
            f"{spec.alt} {heading}. {scenario.steps[still - 1].description}")


@dataclass(frozen=True)
class ScenarioSvgs:
    """One scenario's SVG documents as strings.

    ``animated`` and ``dark`` are the files (light and dark colours, each fixed, so that an ``<img>``
    looks the same on any page; ``<picture>`` chooses between them), ``inline`` the form the HTML
    figure inlines (its colours follow the page), with its style sheet ``inline_css``, and
    ``inline_bare`` the same without its style sheet (for a second layout inlined beside one whose
    ``inline_css`` is the same); ``stills`` and ``dark_stills`` the still frames by number (0 the
    poster, K step K).  ``width`` is the drawing's natural width in user units.
    """

    animated: str
    stills: dict[int, str]
    width: float = 0.0
    inline: str = ""
    dark: str = ""
    dark_stills: dict[int, str] = field(default_factory=dict)
    inline_css: str = ""
    inline_bare: str = ""


def render_scenario(spec: Spec, scenario: Scenario, layout: Layout, prefix: str,
                    stills: tuple[int, ...] = (0,), inline: bool = True, variant: str = "") -> ScenarioSvgs:
    """Draw one scenario once and serialise it in each colour scheme: animated, inline (unless
    ``inline`` is False) and as each still.

    ``prefix`` comes from :func:`prefix_for`; ``stills`` are frame numbers,
    0 for the poster and K for step K (1-based).  ``variant`` names a second layout of the same
    scenario (``"narrow"``): its classes and keyframes keep ``prefix`` (the two layouts share one style
    sheet), its ids become ``<prefix>-<variant>-…``, so that the HTML figure can inline both layouts
    without two elements of one id.  Raises :class:`~renderer.errors.RenderError` for a
    frame number the scenario does not have.  The strings have no XML
    declaration (see :func:`svg_document`).
    """
    bad = [k for k in stills if not 0 <= k <= len(scenario.steps)]
    if bad:
        raise RenderError(f"scenario {scenario.id} has no frame {bad[0]}; frames are 0 to {len(scenario.steps)}")
    drawer = _Drawer(spec, scenario, layout, prefix, _TOKENS, f"{prefix}-{variant}" if variant else prefix)
    pieces = _Pieces(drawer.draw())
    animated = pieces.animated(drawer.css(inline=False))
    names = {k: still_names(spec, scenario, k) if k else ("", "") for k in stills}
    drawn = {k: pieces.still(k, names[k]) for k in stills}
    css = drawer.css(inline=True) if inline else ""
    return ScenarioSvgs(_coloured(animated, theme.LIGHT), {k: _coloured(s, theme.LIGHT) for k, s in drawn.items()},
                        layout.width, _coloured(pieces.animated(css), theme.LIGHT) if inline else "",
                        _coloured(animated, theme.DARK), {k: _coloured(s, theme.DARK) for k, s in drawn.items()},
                        css, _coloured(pieces.animated(None), theme.LIGHT) if inline else "")


def svg_document(svg: str) -> bytes:
    """The standalone file form of an SVG string from :func:`render_scenario`: UTF-8, with declaration."""
    return (XML_DECLARATION + svg + "\n").encode("utf-8")


__all__ = ["ScenarioSvgs", "fmt", "prefix_for", "render_scenario", "still_names", "svg_document"]
