"""SVG markup for the drawing stage (:mod:`mechdiagram.render.svg`): elements written straight as text, and a
drawing kept as serialised layers, so that its variants (animated, inline, still frames) share them.

Elements are written exactly as ``ElementTree.tostring(element, encoding="unicode")`` writes a
namespace-free element: attributes in the order given (callers give them sorted by name, as svgwrite
writes them), values escaped ``& < > "`` with CR, LF and TAB as character references; text escaped
``& < >``; an element with neither text nor children as ``<tag ... />``.  Author text reaches the
document only as text or attribute values through these escapes.  Building the text directly, instead
of ElementTree elements serialised afterwards, takes a third of the time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from xml.etree import ElementTree

from svgwrite.etree import CDATA

_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;",
                                    "\n": "&#10;", "\t": "&#09;"})
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE_SPECIAL = re.compile('[&<>"\r\n\t]')
_TEXT_SPECIAL = re.compile("[&<>]")

#: Where content goes in a serialised shell: a private-use character that author text cannot bring,
#: XML-valid, never drawn.
_MARK = "\ue000"


def _value(value: str) -> str:
    """An attribute value escaped (most need nothing: looking is three times faster than translating)."""
    return value.translate(_ATTRIBUTE_ESCAPES) if _ATTRIBUTE_SPECIAL.search(value) else value


def _text(text: str) -> str:
    """Text content escaped."""
    return text.translate(_TEXT_ESCAPES) if _TEXT_SPECIAL.search(text) else text


def _start(tag: str, attrib: dict[str, str]) -> str:
    """``<tag`` and its attributes, sorted by name, escaped."""
    return "<" + tag + "".join([f' {name}="{_value(attrib[name])}"' for name in sorted(attrib)])


def element(tag: str, attrib: dict[str, str], text: str | None = None) -> str:
    """One element without children, as markup: ``<tag a="…">text</tag>``, or ``<tag a="…" />`` without text."""
    if text:
        return f"{_start(tag, attrib)}>{_text(text)}</{tag}>"
    return _start(tag, attrib) + " />"


class Leaf:
    """An element whose children are kept as markup, each with its tag: boxes, labels and the layers
    of a drawing.  Attributes stay a dict until :meth:`markup` (a label's anchor is set after it is
    built); ``attrib`` is copied, so a shared dict is never changed."""

    __slots__ = ("attrib", "children", "tag", "text")

    def __init__(self, tag: str, attrib: dict[str, str], text: str | None = None) -> None:
        self.tag, self.attrib, self.text = tag, dict(attrib), text
        self.children: list[tuple[str, str]] = []

    def add(self, tag: str, markup: str) -> None:
        """Append a child already written as markup (by :func:`element` or :meth:`Shapes.element`)."""
        self.children.append((tag, markup))

    def append(self, leaf: Leaf) -> None:
        """Append ``leaf``, serialised as it is now."""
        self.children.append((leaf.tag, leaf.markup()))

    def __setitem__(self, name: str, value: str) -> None:
        self.attrib[name] = value

    def get(self, name: str) -> str | None:
        """The attribute ``name``, or ``None``."""
        return self.attrib.get(name)

    def markup(self, *, still: bool = False) -> str:
        """The element as markup; ``still`` leaves out its ``visibility`` attribute and its ``circle``
        children (a still frame shows the layer, without the dot that moves along a route)."""
        attrib = {k: v for k, v in self.attrib.items() if k != "visibility"} if still else self.attrib
        body = [markup for tag, markup in self.children if not (still and tag == "circle")]
        if self.text or body:
            text = _text(self.text) if self.text else ""
            return f"{_start(self.tag, attrib)}>{text}{''.join(body)}</{self.tag}>"
        return _start(self.tag, attrib) + " />"


class Stepped(Leaf):
    """A layer whose children a still frame writes as that frame's step has them: each child has its markup in
    the animated drawing and one for the stills of its steps and one for the others (``""``: left out)."""

    __slots__ = ("stills",)

    def __init__(self, tag: str, attrib: dict[str, str]) -> None:
        super().__init__(tag, attrib)
        self.stills: list[tuple[str, str, frozenset[int]]] = []

    def add_stepped(self, tag: str, markup: str, off: str, on: str, steps: Iterable[int]) -> None:
        """Append a child: ``markup`` animated, ``on`` in the stills of ``steps`` (1-based), ``off`` in the others."""
        self.add(tag, markup)
        self.stills.append((off, on, frozenset(steps)))

    def add_still(self, off: str, on: str, steps: Iterable[int]) -> None:
        """A still's markup alone, with none in the animated drawing: ``on`` in the stills of ``steps``, ``off`` in
        the others (a child whose look a still shows in some of its steps, :meth:`add_stepped` in the rest)."""
        self.stills.append((off, on, frozenset(steps)))

    def still_markup(self, number: int) -> str:
        """The layer in still ``number`` (0 the poster)."""
        body = "".join([on if number in steps else off for off, on, steps in self.stills])
        return f"{_start(self.tag, self.attrib)}>{body}</{self.tag}>" if body else ""


class Shapes:
    """Elements of one drawing written from compiled start tags.  For each kind of element (its tag, its
    fixed attributes, a role's paint, and the names of its own values) the attributes are sorted and the
    fixed ones escaped once, leaving a format string that each element fills with its escaped values:
    the same markup as :func:`element`, without sorting and escaping the paint of every box again."""

    def __init__(self) -> None:
        self._starts: dict[tuple[str, tuple[str, ...], tuple[str, ...]], tuple[str, tuple[str, ...]]] = {}

    def element(self, tag: str, kind: tuple[str, ...], fixed: dict[str, str], values: dict[str, str],
                text: str | None = None) -> str:
        """``element(tag, {**fixed, **values}, text)``; ``fixed`` must be the same whenever ``kind`` is."""
        start = self.start(tag, kind, fixed, values)
        if text:
            return f"{start}>{_text(text)}</{tag}>"
        return start + " />"

    def start(self, tag: str, kind: tuple[str, ...], fixed: dict[str, str], values: dict[str, str]) -> str:
        """The start tag of :meth:`element` without its closing ``>`` (an element with children closes it)."""
        key = (tag, kind, tuple(values))
        compiled = self._starts.get(key)
        if compiled is None:
            compiled = self._starts[key] = _compile(tag, fixed, values)
        return compiled[0].format(*[_value(values[name]) for name in compiled[1]])


def _compile(tag: str, fixed: dict[str, str], values: dict[str, str]) -> tuple[str, tuple[str, ...]]:
    """A start tag with ``{}`` for each of ``values`` (a value overrides a fixed attribute of its name), and
    the names of the values in the order their places come."""
    merged = {**fixed, **values}
    parts, names = [], []
    for name in sorted(merged):
        if name in values:
            parts.append(f' {name}="{{}}"')
            names.append(name)
        else:
            parts.append(f' {name}="{_value(merged[name])}"'.replace("{", "{{").replace("}", "}}"))
    return "<" + tag + "".join(parts), tuple(names)


def shell(root: ElementTree.Element) -> tuple[str, str]:
    """The start and end tags of ``root`` (the svgwrite drawing's ``<svg>``, namespaces included), as
    ElementTree writes them."""
    empty = ElementTree.Element(root.tag, root.attrib)
    empty.text = _MARK
    start, end = ElementTree.tostring(empty, encoding="unicode").split(_MARK)
    return start, end


def _style_shell() -> tuple[str, str]:
    defs = ElementTree.Element("defs")
    ElementTree.SubElement(defs, "style").append(CDATA(_MARK))
    start, end = ElementTree.tostring(defs, encoding="unicode").split(_MARK)
    return start, end


_STYLE = _style_shell()


class Pieces:
    """A drawing serialised layer by layer: ``start`` and ``end`` of its ``<svg>`` and its ``layers``
    (``<title>``, ``<desc>``, the ``<defs>`` that holds the style sheet, then the drawing's groups).
    The animated SVG, its inline form and its still frames share every layer they have in common:
    only the style sheet and the layers shown differ."""

    def __init__(self, start: str, end: str, layers: Iterable[Leaf]) -> None:
        self.start, self.end = start, end
        self.layers = list(layers)
        self.parts = ["" if layer.tag == "defs" else layer.markup() for layer in self.layers]
        self._colour: Callable[[str], str] = str  # applied to a layer a still writes afresh

    def coloured(self, colour: Callable[[str], str]) -> Pieces:
        """These pieces with ``colour`` applied to every layer (a colour scheme put in for placeholders),
        and to each layer a still writes afresh; the layers are coloured once for all the files of a
        colour scheme."""
        copy = Pieces(self.start, self.end, ())
        copy.layers, copy.parts, copy._colour = self.layers, [colour(part) for part in self.parts], colour
        return copy

    def animated(self, css: str | None) -> str:
        """Every layer, with style sheet ``css`` (written as CDATA, as svgwrite writes it); ``None``: no style
        sheet, for an SVG inlined beside another that carries the same one."""
        style = _STYLE[0] + css + _STYLE[1] if css is not None else ""
        return "".join([self.start, *(style if layer.tag == "defs" else part
                                      for layer, part in zip(self.layers, self.parts, strict=True)), self.end])

    def still(self, number: int, names: tuple[str, str] = ("", "")) -> str:
        """Still ``number`` (0 the poster, K step K) from presentation attributes alone: the layers of
        other frames left out, the kept ones made visible, no style sheet and no moving dot; a step's
        still takes ``names`` as its ``<title>`` and ``<desc>``."""
        out = [self.start]
        for layer, part in zip(self.layers, self.parts, strict=True):
            frame, steps = layer.get("data-mech-frame"), layer.get("data-mech-steps")
            if layer.tag == "defs":
                continue
            if (frame is not None and frame != str(number)) or (steps is not None and str(number) not in steps.split()):
                continue
            if isinstance(layer, Stepped):
                part = self._colour(layer.still_markup(number))
            elif number and layer.tag in ("title", "desc"):  # a step's still names its step
                part = element(layer.tag, layer.attrib, names[0] if layer.tag == "title" else names[1])
            elif layer.get("visibility") == "hidden":
                part = self._colour(layer.markup(still=True))
            out.append(part)
        out.append(self.end)
        return "".join(out)


__all__ = ["Leaf", "Pieces", "Shapes", "Stepped", "element", "shell"]
