"""CSS parsed with tinycss2, so that tests assert on rules and values instead of matching minified text.

:func:`parse_css` reads a style sheet into a :class:`Stylesheet`:

- ``rules``: every style rule, as a :class:`Rule` (its selector text, its declarations as
  ``{property: value}``, and the at-rules around it), also those inside ``@media`` and ``@supports``;
- ``keyframes``: every ``@keyframes`` block by name, as ``[(offset in percent, {property: value})]``;
- ``media``: the rules of every ``@media`` block, by its condition;
- ``at_rules``: the keyword of every at-rule met (``media``, ``keyframes``, ``import`` ...);
- ``urls``: every URL the sheet names (``url(...)`` in a value, or an ``@import``);
- ``errors``: what tinycss2 could not parse (tests expect none).

Values are tinycss2's serialisation of the declaration's tokens, without surrounding white space
(``animation:a  1s`` gives ``{"animation": "a  1s"}``); :func:`words` splits one into its parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import tinycss2

#: At-rules whose block holds style rules (descended into); ``@keyframes`` is read separately.
GROUPING = {"media", "supports", "layer", "container", "document", "scope"}
KEYFRAMES = {"keyframes", "-webkit-keyframes"}


@dataclass(frozen=True)
class Rule:
    selector: str
    declarations: dict[str, str]
    #: The enclosing at-rules, outermost first, as written: ``("@media (prefers-reduced-motion:reduce)",)``.
    within: tuple[str, ...] = ()
    #: Class names used anywhere in the selector (``.a .b:not(.c)`` gives ``("a", "b", "c")``).
    classes: tuple[str, ...] = ()

    @property
    def at(self) -> str | None:
        """The innermost enclosing at-rule, or None at the top level."""
        return self.within[-1] if self.within else None

    @property
    def selectors(self) -> tuple[str, ...]:
        """The selectors of a selector list, one by one."""
        return tuple(part.strip() for part in _split_commas(self.selector))


@dataclass
class Stylesheet:
    rules: list[Rule] = field(default_factory=list)
    keyframes: dict[str, list[tuple[float, dict[str, str]]]] = field(default_factory=dict)
    media: dict[str, list[Rule]] = field(default_factory=dict)
    at_rules: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def rules_for(self, selector: str, *, at: str | object | None = ...) -> list[Rule]:
        """Rules whose selector (or one selector of whose list) is ``selector``; with ``at``, only those
        directly inside that at-rule (None: at the top level)."""
        wanted = _normal(selector)
        return [rule for rule in self.rules if wanted in {_normal(s) for s in rule.selectors}
                and (at is ... or _normal_at(rule.at) == _normal_at(at))]

    def media_rules(self, condition: str) -> list[Rule]:
        """The rules of the ``@media`` block(s) with this condition (white space is not significant)."""
        wanted = "".join(condition.split())
        return [rule for key, rules in self.media.items() if "".join(key.split()) == wanted for rule in rules]

    def values(self, prop: str) -> list[str]:
        """Every value given to ``prop``, in any rule, in order."""
        return [rule.declarations[prop] for rule in self.rules if prop in rule.declarations]


def words(value: str) -> list[str]:
    """A declaration value split into its space-separated parts, with tinycss2's tokenizer (so that a
    quoted string or a function with spaces stays one part)."""
    parts, current = [], []
    for token in tinycss2.parse_component_value_list(value):
        if token.type == "whitespace":
            if current:
                parts.append("".join(current))
                current = []
        elif token.type != "comment":
            current.append(token.serialize())
    if current:
        parts.append("".join(current))
    return parts


def parse_css(text: str) -> Stylesheet:
    sheet = Stylesheet()
    _read_rules(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True), (), sheet)
    return sheet


def _read_rules(nodes, within: tuple[str, ...], sheet: Stylesheet) -> None:
    for node in nodes:
        if node.type == "error":
            sheet.errors.append(f"{node.kind}: {node.message}")
        elif node.type == "qualified-rule":
            selector = _text(node.prelude)
            sheet.rules.append(Rule(selector, _declarations(node.content, sheet), within,
                                    tuple(_classes(node.prelude))))
        elif node.type == "at-rule":
            keyword = node.lower_at_keyword
            sheet.at_rules.append(keyword)
            prelude = _text(node.prelude)
            if keyword == "import":
                sheet.urls.extend(_urls(node.prelude, strings=True))
            if keyword in KEYFRAMES:
                sheet.keyframes[prelude] = _keyframes(node.content or [], sheet)
            elif keyword in GROUPING and node.content is not None:
                at = f"@{keyword} {prelude}".strip()
                before = len(sheet.rules)
                _read_rules(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True),
                            within + (at,), sheet)
                if keyword == "media":
                    sheet.media.setdefault(prelude, []).extend(
                        rule for rule in sheet.rules[before:] if rule.within == within + (at,))


def _keyframes(content, sheet: Stylesheet) -> list[tuple[float, dict[str, str]]]:
    stops = []
    for node in tinycss2.parse_rule_list(content, skip_comments=True, skip_whitespace=True):
        if node.type == "error":
            sheet.errors.append(f"{node.kind}: {node.message}")
            continue
        declarations = _declarations(node.content, sheet)
        for token in node.prelude:
            if token.type == "percentage":
                stops.append((float(token.value), declarations))
            elif token.type == "ident" and token.lower_value in ("from", "to"):
                stops.append((0.0 if token.lower_value == "from" else 100.0, declarations))
            elif token.type not in ("whitespace", "literal"):
                sheet.errors.append(f"keyframe selector {token.serialize()!r}")
    return stops


def _declarations(content, sheet: Stylesheet) -> dict[str, str]:
    declarations = {}
    for node in tinycss2.parse_declaration_list(content or [], skip_comments=True, skip_whitespace=True):
        if node.type == "declaration":
            sheet.urls.extend(_urls(node.value))
            value = tinycss2.serialize(node.value).strip()
            declarations[node.lower_name] = value + (" !important" if node.important else "")
        elif node.type == "error":
            sheet.errors.append(f"{node.kind}: {node.message}")
        else:  # a nested rule: not used by this project
            sheet.errors.append(f"unexpected {node.type} in a declaration block")
    return declarations


def _text(tokens) -> str:
    """Tokens as text, each run of white space as one space."""
    return "".join(" " if token.type == "whitespace" else token.serialize() for token in tokens).strip()


def _urls(tokens, *, strings: bool = False):
    """URLs in tokens: ``url(x)``, ``url("x")`` (and, with ``strings``, any string, as ``@import "x"``)."""
    for token in tokens:
        if token.type == "url" or (strings and token.type == "string"):
            yield token.value
        elif token.type == "function" and token.lower_name == "url":
            yield from (arg.value for arg in token.arguments if arg.type == "string")
        elif token.type == "function":
            yield from _urls(token.arguments, strings=strings)
        elif token.type in ("() block", "[] block", "{} block"):
            yield from _urls(token.content, strings=strings)


def _classes(tokens):
    previous = None
    for token in tokens:
        if token.type == "ident" and previous is not None and previous.type == "literal" and previous.value == ".":
            yield token.value
        if getattr(token, "arguments", None) is not None:
            yield from _classes(token.arguments)
        elif getattr(token, "content", None) is not None and token.type in ("[] block", "() block"):
            yield from _classes(token.content)
        previous = token


def _split_commas(selector: str) -> list[str]:
    parts, current = [], []
    for token in tinycss2.parse_component_value_list(selector):
        if token.type == "literal" and token.value == ",":
            parts.append(_text(current))
            current = []
        else:
            current.append(token)
    parts.append(_text(current))
    return parts


def _normal(selector: str) -> str:
    return _text(tinycss2.parse_component_value_list(selector))


def _normal_at(at) -> str | None:
    return None if at is None else "".join(at.split())
