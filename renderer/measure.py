"""Text measurement and wrapping for the layout: widths in SVG user units (CSS px) at a font size.

Widths come from the advance widths of real fonts, measured with fonttools
(``data/text-metrics.json``, 1000 units per em: DejaVu Sans Bold for Latin, Greek,
Cyrillic, Hebrew and Arabic, Droid Sans Fallback for CJK), times
:data:`WIDTH_SAFETY` as a margin for readers whose font differs.
"""

from __future__ import annotations

import unicodedata

from .assets import text_advances, text_blocks

#: Font size of node labels, px.
FONT_SIZE = 14.0
#: Factor on every measured width, for fonts wider than the measured face.
WIDTH_SAFETY = 1.08


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """Width in px of ``text`` at ``size`` px, bold, with the safety margin.

    Characters come from the metrics table (DejaVu Sans Bold per character for Latin, Greek,
    Cyrillic, Hebrew and Arabic; the widest advance of a CJK face per CJK block); others count as
    1 em when East Asian wide or full-width (Unicode UAX #11), 0 when combining marks, else 0.75 em.
    """
    table = text_advances()
    units = 0
    for char in text:
        advance = table.get(char)
        if advance is None and ord(char) >= 0x2E80:
            advance = next((a for low, high, a in text_blocks() if low <= ord(char) <= high), None)
        if advance is None:
            if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
                advance = 0
            elif unicodedata.east_asian_width(char) in ("W", "F"):
                advance = 1000
            else:
                advance = 750
        units += advance
    return units * size / 1000 * WIDTH_SAFETY


def _split_word(word: str, width: float, size: float) -> list[str]:
    """Break a word wider than ``width`` between characters (never before a combining mark)."""
    pieces, current = [], ""
    for char in word:
        if current and not unicodedata.combining(char) and text_width(current + char, size) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def wrap(text: str, width: float, size: float = FONT_SIZE) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` px.

    Words longer than a line are broken between characters.  Returns at
    least one line (``[""]`` for empty text).
    """
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
            current = ""
        if text_width(word, size) <= width:
            current = word
        else:
            *full, current = _split_word(word, width, size)
            lines.extend(full)
    lines.append(current)
    return lines
