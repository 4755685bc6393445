"""Text rules over every string of a spec, keys included: XML-valid characters (xml-character),
closed direction controls (bidi-control) and something visible (invisible-text).

Sources: XML 1.0 section 2.2 (allowed and discouraged characters), the HTML
standard's parse errors for controls and noncharacters, Unicode UAX #9
(explicit directional embeddings, overrides and isolates).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from mechdiagram.shared.charsets import BIDI_CONTROLS, HTML_FORBIDDEN, XML_FORBIDDEN
from mechdiagram.spec.validate.context import RuleContext, Where
from mechdiagram.spec.validate.wording import quote

_BLANKS = frozenset("\u2800\u3164\uffa0\u115f\u1160\u180e")  # blank symbols that are not white space
_BIDI_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, closed by PDF U+202C
_BIDI_ISOLATES = "\u2066\u2067\u2068"  # LRI RLI FSI, closed by PDI U+2069
#: Any character one of the three rules looks for: most strings have none, and are looked at once.
_SUSPECT = XML_FORBIDDEN | HTML_FORBIDDEN | BIDI_CONTROLS


def _first(text: str, characters: frozenset[str]) -> str | None:
    return next((char for char in text if char in characters), None)


def strings(value: Any, path: Where = ()) -> Iterator[tuple[Where, str, bool]]:
    """Every string in parsed JSON with its path, in document order; the flag says it is an object key.
    Iterative, holding one iterator per level of nesting (a list of two million items is not copied)."""
    if isinstance(value, str):
        yield path, value, False
    if not isinstance(value, (dict, list)):
        return
    stack: list[tuple[bool, Where, Iterator[tuple[Any, Any]]]] = [(isinstance(value, dict), path, _members(value))]
    while stack:
        is_object, where, members = stack[-1]
        for key, child in members:
            here = (*where, key)
            if is_object:
                yield here, key, True
            if isinstance(child, str):
                yield here, child, False
            elif isinstance(child, (dict, list)):
                stack.append((isinstance(child, dict), here, _members(child)))
                break
        else:
            stack.pop()


def _members(node: dict[str, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    """An object's (key, value) pairs or a list's (index, item) pairs, in order."""
    return iter(node.items()) if isinstance(node, dict) else enumerate(node)


def visible(char: str) -> bool:
    """Whether a character draws something: not white space, a format or combining character, or a blank."""
    return not (char.isspace() or char in _BLANKS or unicodedata.category(char) in ("Cf", "Mn", "Me", "Cc", "Zs"))


def unclosed_bidi(text: str) -> str | None:
    """The first explicit directional formatting character of ``text`` left open (Unicode UAX #9), or None."""
    left = open_bidi(text)
    return left[0] if left else None


def open_bidi(text: str) -> list[str]:
    """The explicit directional formatting characters of ``text`` left open (Unicode UAX #9), first opened
    first: an embedding or override is closed by U+202C while it is the innermost, an isolate by U+2069
    (which closes what it holds as well)."""
    if BIDI_CONTROLS.isdisjoint(text):
        return []
    stack: list[str] = []
    for char in text:
        if char in _BIDI_EMBEDDINGS or char in _BIDI_ISOLATES:
            stack.append(char)
        elif char == "\u202c" and stack and stack[-1] in _BIDI_EMBEDDINGS:
            stack.pop()
        elif char == "\u2069" and any(c in _BIDI_ISOLATES for c in stack):  # a PDI with no open isolate is ignored
            while stack.pop() not in _BIDI_ISOLATES:
                pass
    return stack


def text_rules(ctx: RuleContext, data: Any) -> None:
    """Rules invisible-text, xml-character and bidi-control: at most one finding per string."""
    for path, text, is_key in strings(data):
        what = "key" if is_key else "text"
        if not is_key and text.strip() and not any(visible(char) for char in text):
            ctx.add(path, f"text {quote(text)} has no visible character (only spaces, format characters or "
                    "blank symbols); write visible text", "invisible-text")
            continue
        if _SUSPECT.isdisjoint(text):
            continue
        char = _first(text, XML_FORBIDDEN)
        if char is not None:
            kind = "a control character" if ord(char) < 0x20 else "a character"
            ctx.add(path, f"{what} {quote(text)} contains U+{ord(char):04X}, {kind} that XML 1.0 does not allow "
                    "in SVG or HTML; remove it", "xml-character", key=is_key)
            continue
        char = _first(text, HTML_FORBIDDEN)
        if char is not None:
            kind = "a control character" if ord(char) <= 0x9F else "a noncharacter"
            ctx.add(path, f"{what} {quote(text)} contains U+{ord(char):04X}, {kind} that XML 1.0 discourages and "
                    "HTML does not allow; remove it", "xml-character", key=is_key)
            continue
        left = open_bidi(text)
        if left:
            # An embedding or override is closed by POP DIRECTIONAL FORMATTING, an isolate by POP DIRECTIONAL
            # ISOLATE (UAX #9, X6a and X7), innermost first; a closer with nothing open is ignored, and harmless.
            closers = [("U+2069 POP DIRECTIONAL ISOLATE" if char in _BIDI_ISOLATES
                        else "U+202C POP DIRECTIONAL FORMATTING") for char in reversed(left)]
            advice = closers[0] if len(closers) == 1 else ", then ".join(closers) + ", in that order,"
            ctx.add(path, f"{what} {quote(text)} opens U+{ord(left[0]):04X} {unicodedata.name(left[0])} without "
                    "closing it, which would reverse the text after it in the figure and player; close it "
                    f"({advice} at the end) or remove it", "bidi-control", key=is_key)
