"""Sets of characters the text rules refuse and the reports escape, as sets of one-character strings.

A set, not a regular expression: ``set.isdisjoint(text)`` answers "none of them?" as fast as a search, and
a set of a few thousand characters is made in a fraction of the time ``re`` takes to compile a character
class of non-ASCII ranges (about half a millisecond each, paid by every command at start-up).

Sources: XML 1.0 section 2.2 (allowed and discouraged characters), the HTML standard's parse errors for
controls and noncharacters, Unicode UAX #9 (explicit directional embeddings, overrides and isolates).
"""

from __future__ import annotations

from functools import cache


def code_points(*ranges: tuple[int, int]) -> frozenset[str]:
    """The characters of the inclusive code point ranges ``(first, last)``."""
    return frozenset(chr(c) for first, last in ranges for c in range(first, last + 1))


#: Characters XML 1.0 does not allow: C0 controls but tab, LF and CR; lone surrogates; U+FFFE and U+FFFF.
XML_FORBIDDEN = code_points((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0xD800, 0xDFFF), (0xFFFE, 0xFFFF))

#: Characters XML 1.0 allows but discourages (section 2.2) and HTML makes parse errors: DEL, the C1
#: controls and the noncharacters (U+FDD0 to U+FDEF, and the last two of each supplementary plane).
HTML_FORBIDDEN = code_points((0x7F, 0x9F), (0xFDD0, 0xFDEF),
                             *((plane << 16 | 0xFFFE, plane << 16 | 0xFFFF) for plane in range(1, 17)))

#: Explicit directional embeddings and overrides (LRE RLE PDF LRO RLO) and isolates (LRI RLI FSI PDI).
BIDI_CONTROLS = code_points((0x202A, 0x202E), (0x2066, 0x2069))

#: Line and paragraph separators, and the byte order mark (invisible, and no character of a line).
SEPARATORS = frozenset("\u2028\u2029\ufeff")

#: Every character a report prints as a ``\\uXXXX`` escape, never raw: the controls, DEL and lone
#: surrogates (a terminal acts on ESC and CSI, and a surrogate cannot be written as UTF-8), the
#: separators (one finding, one line), the directional controls (they reorder what a reader sees) and the
#: noncharacters.
UNPRINTABLE = XML_FORBIDDEN | HTML_FORBIDDEN | BIDI_CONTROLS | SEPARATORS | code_points((0x09, 0x0A), (0x0D, 0x0D))

#: The same for a JSON document, whose strings ``json.dumps`` already escapes the C0 controls in (and
#: whose line breaks between members must stay).
UNPRINTABLE_JSON = UNPRINTABLE - code_points((0x00, 0x1F))


def _escape(char: str) -> str:
    """``\\u`` and four hexadecimal digits; a character past U+FFFF as its UTF-16 surrogate pair, as JSON
    writes one (``\\ud83f\\udffe`` for U+1FFFE), so that a JSON document stays one."""
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


@cache
def _table(characters: frozenset[str]) -> dict[int, str]:
    return {ord(char): _escape(char) for char in characters}


def escaped(text: str, characters: frozenset[str]) -> str:
    """``text`` with each of ``characters`` replaced by its escape: ``\\u`` and four hexadecimal digits, and a
    character past U+FFFF as its surrogate pair (``\\ud83f\\udffe``), as JSON writes them."""
    if characters.isdisjoint(text):
        return text
    return text.translate(_table(characters))
