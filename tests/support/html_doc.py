"""HTML parsed as a browser parses it (html5lib), for assertions on elements, attributes and text.

:func:`parse_html` gives the root :class:`Node` of a page (a text starting with ``<!DOCTYPE``) or of a
fragment (anything else, parsed as the content of a ``<div>``).  With ``strict`` (the default) the
text must also be well-formed: html5lib reports no parse error, and every element that is not void
is closed by its own end tag, in order (HTML would let ``</li>`` or ``</p>`` be left out; this
project writes them).

A node offers lookups (:meth:`Node.find_all` by tag, class and attributes; :meth:`Node.by_id`), its
text, and the inventories the markup tests compare: :func:`inventory` (elements with their attribute
names), :func:`attributes` (every attribute), :func:`text_content` (the text outside ``script`` and
``style``) and :func:`raw_text` (the content of ``script`` or ``style`` elements).

Tags are local names (``svg``, ``tspan``: an SVG element inside HTML is in the SVG namespace, see
:attr:`Node.namespace`); attribute names are as written (``viewBox``, ``xlink:href``, ``xmlns``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import html5lib
from html5lib.constants import namespaces, tokenTypes, voidElements

_NAMESPACES = {namespaces["html"]: "html", namespaces["svg"]: "svg", namespaces["mathml"]: "math"}
_ATTRIBUTE_PREFIXES = {namespaces["xlink"]: "xlink", namespaces["xml"]: "xml", namespaces["xmlns"]: "xmlns"}
_START, _END = tokenTypes["StartTag"], tokenTypes["EndTag"]
RAW_TEXT = ("script", "style")


class Node:
    """One element of the parsed document (or its root, whose tag is ``#document``)."""

    def __init__(self, element: ET.Element, parent: Node | None, cache: dict[int, Node]) -> None:
        self.element, self.parent, self._cache = element, parent, cache
        namespace, _, name = element.tag[1:].partition("}") if element.tag.startswith("{") else \
            (namespaces["html"], "", element.tag)
        self.tag = name
        self.namespace = _NAMESPACES.get(namespace, namespace)
        self.attrs: dict[str, str] = {_attribute_name(k): v for k, v in element.attrib.items()}

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    @property
    def children(self) -> list[Node]:
        """The child elements (not text, not comments)."""
        return [self._wrap(child) for child in self.element if isinstance(child.tag, str)]

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        """All the text inside the element, as written (entities decoded)."""
        return "".join(self.element.itertext())

    def words(self) -> str:
        """The text with each run of white space as one space, stripped."""
        return " ".join(self.text().split())

    def heard(self) -> str:
        """What a screen reader reads of the element: its words without ``aria-hidden="true"`` parts."""
        def walk(element) -> str:
            if element.get("aria-hidden") == "true":
                return element.tail or ""
            inner = (element.text or "") + "".join(walk(child) for child in element)
            return inner + (element.tail or "") if element is not self.element else inner
        return " ".join(walk(self.element).split())

    def iter(self):
        """This node and every element below it, in document order."""
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None,
                 attrs: dict[str, str | None] | None = None) -> list[Node]:
        """Elements (this one included) with this tag, this class, and these attributes (a value of
        None: the attribute is present, with any value)."""
        found = []
        for node in self.iter():
            if node.tag.startswith("#") or (tag is not None and node.tag != tag):
                continue
            if cls is not None and cls not in node.classes:
                continue
            if attrs and any(name not in node.attrs or (value is not None and node.attrs[name] != value)
                             for name, value in attrs.items()):
                continue
            found.append(node)
        return found

    def find(self, tag: str | None = None, cls: str | None = None,
             attrs: dict[str, str | None] | None = None) -> Node:
        """The first of :meth:`find_all`; fails when there is none."""
        found = self.find_all(tag, cls, attrs)
        assert found, (tag, cls, attrs)
        return found[0]

    def by_id(self, id_: str) -> Node:
        """The only element with this id."""
        found = self.find_all(attrs={"id": id_})
        assert len(found) == 1, (id_, found)
        return found[0]

    def _wrap(self, element: ET.Element) -> Node:
        node = self._cache.get(id(element))
        if node is None:
            node = self._cache[id(element)] = Node(element, self, self._cache)
        return node


def parse_html(text: str | bytes, *, strict: bool = True) -> Node:
    """The document (or fragment) as a tree of :class:`Node`; see the module docstring."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    parser = _Parser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)
    if text.lstrip()[:9].lower() == "<!doctype":
        top = [parser.parse(text)]
        leading = None
    else:
        fragment = parser.parseFragment(text, container="div")
        top, leading = list(fragment), fragment.text
    if strict:
        assert parser.errors == [], f"HTML parse errors: {parser.errors[:10]}"
        assert parser.unbalanced == [], f"elements not closed by their own end tag: {parser.unbalanced[:10]}"
    root = ET.Element("#document")
    root.text = leading
    root.extend(top)
    return Node(root, None, {})


def inventory(root: Node) -> Counter:
    """Each kind of element with the set of its attribute names, counted.  A label's line count varies
    with its length, so ``tspan`` elements and the ``x``/``y`` that a one-line ``text`` carries itself
    are set aside."""
    counts: Counter = Counter()
    for node in root.iter():
        if node.tag.startswith("#") or node.tag == "tspan":
            continue
        names = set(node.attrs) - ({"x", "y"} if node.tag == "text" else set())
        counts[(node.tag, frozenset(names))] += 1
    return counts


def attributes(root: Node) -> list[tuple[str, str, str]]:
    """Every attribute of every element as (tag, name, value), in document order."""
    return [(node.tag, name, value) for node in root.iter() if not node.tag.startswith("#")
            for name, value in node.attrs.items()]


def tags(root: Node) -> set[str]:
    return {node.tag for node in root.iter() if not node.tag.startswith("#")}


def text_content(root: Node) -> str:
    """The document's text, without the content of ``script`` and ``style`` elements."""
    parts: list[str] = []

    def walk(element: ET.Element) -> None:
        local = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else None
        if local in RAW_TEXT:
            return
        if isinstance(element.tag, str) and element.text:
            parts.append(element.text)
        for child in element:
            walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(root.element)
    return "".join(parts)


def raw_text(root: Node, tag: str) -> list[str]:
    """The content of every non-empty ``script`` or ``style`` element (HTML or SVG), in order."""
    return [node.text() for node in root.find_all(tag) if node.text()]


def _attribute_name(name: str) -> str:
    if not name.startswith("{"):
        return name
    namespace, _, local = name[1:].partition("}")
    prefix = _ATTRIBUTE_PREFIXES.get(namespace)
    if prefix == "xmlns":
        return "xmlns" if local == "xmlns" else f"xmlns:{local}"
    return f"{prefix}:{local}" if prefix else local


class _Parser(html5lib.HTMLParser):
    """html5lib's parser, also checking that the tag tokens it reads are balanced."""

    def mainLoop(self):  # noqa: N802  (overrides html5lib.html5parser.HTMLParser.mainLoop)
        self.unbalanced: list[str] = []
        self._open: list[str] = []
        self.tokenizer = _Tap(self.tokenizer, self._token)
        super().mainLoop()
        self.unbalanced.extend(f"<{name}> never closed" for name in reversed(self._open))

    def _token(self, token: dict) -> None:
        if token["type"] == _START:
            if not token.get("selfClosing") and token["name"] not in voidElements:
                self._open.append(token["name"])
        elif token["type"] == _END:
            if self._open and self._open[-1] == token["name"]:
                self._open.pop()
            elif token["name"] in self._open:
                self.unbalanced.append(f"</{token['name']}> closes <{self._open[-1]}> too")
                del self._open[len(self._open) - 1 - self._open[::-1].index(token["name"]):]
            else:
                self.unbalanced.append(f"stray </{token['name']}>")


class _Tap:
    """The tokenizer, with every token it yields shown to ``sink`` first (the parser sets the
    tokenizer's state, so attributes are passed through)."""

    def __init__(self, tokenizer, sink) -> None:
        object.__setattr__(self, "_tokenizer", tokenizer)
        object.__setattr__(self, "_sink", sink)

    def __iter__(self):
        for token in self._tokenizer:
            self._sink(token)
            yield token

    def __getattr__(self, name):
        return getattr(self._tokenizer, name)

    def __setattr__(self, name, value):
        setattr(self._tokenizer, name, value)
