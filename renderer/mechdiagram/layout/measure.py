"""Text measurement and wrapping for the layout: widths in SVG user units (CSS px) at a font size.

Widths come from the advance widths of real fonts, measured with fonttools
(:mod:`mechdiagram.layout.text_metrics`, 1000 units per em: DejaVu Sans Bold for Latin, Greek,
Cyrillic, Hebrew and Arabic, Droid Sans Fallback for CJK), times
:data:`WIDTH_SAFETY` as a margin for readers whose font differs.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from mechdiagram.layout.text_metrics import ADVANCES, BLOCKS

#: Font size of node labels, px.
FONT_SIZE = 14.0
#: Factor on every measured width, for fonts wider than the measured face.
WIDTH_SAFETY = 1.08


@lru_cache(maxsize=4096)
def _advance(char: str) -> int:
    """One character's advance in font units (1000 per em): from the metrics table, else by its block
    (CJK) or its Unicode properties (see :func:`text_width`)."""
    advance = ADVANCES.get(char)
    if advance is None and ord(char) >= 0x2E80:
        advance = next((a for low, high, a in BLOCKS if low <= ord(char) <= high), None)
    if advance is None:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            advance = 0
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            advance = 1000
        else:
            advance = 750
    return advance


def _units(text: str) -> int:
    """The advance of ``text`` in font units (1000 per em): the sum of its characters' advances (no
    kerning), so the units of a line are those of its words and spaces added up."""
    try:  # every character in the table, the common case: summed without a Python call per character
        return sum(map(ADVANCES.__getitem__, text))
    except KeyError:  # a character the table lacks (an isolate around author text, CJK): by its properties
        return sum(map(_advance, text))


def _px(units: int, size: float) -> float:
    """``units`` font units as px at ``size`` px, with the safety margin."""
    return units * size / 1000 * WIDTH_SAFETY


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """Width in px of ``text`` at ``size`` px, bold, with the safety margin.

    Characters come from the metrics table (DejaVu Sans Bold per character for Latin, Greek,
    Cyrillic, Hebrew and Arabic; the widest advance of a CJK face per CJK block); others count as
    1 em when East Asian wide or full-width (Unicode UAX #11), 0 when combining marks, else 0.75 em.
    """
    return _px(_units(text), size)


#: Characters that never start a line (JIS X 4051 and W3C JLREQ line-start prohibition, the common ones):
#: closing brackets and quotes, the ideographic comma and full stop, middle dot, colon, semicolon, question and
#: exclamation marks, in full and half width.
NO_LINE_START = frozenset("、。，．・：；？！）〕］｝〉》」』】〙〗〟’”｠»ー…‥ゝゞヽヾ々,.:;?!)]}")


def _split_word(word: str, width: float, size: float) -> list[str]:
    """Break a word wider than ``width`` between characters: never before a combining mark, and never before a
    character of :data:`NO_LINE_START`, which takes the character before it (with the marks between them) to
    the next line instead."""
    pieces, current, units = [], "", 0
    for char in word:
        advance = _advance(char)
        if current and not unicodedata.combining(char) and _px(units + advance, size) > width:
            # Before a closing mark, the line ends earlier: the marks and combining marks that end it go down
            # with the character they follow, so that the new line starts with that character.
            keep = len(current)
            if char in NO_LINE_START:
                while keep and (current[keep - 1] in NO_LINE_START or unicodedata.combining(current[keep - 1])):
                    keep -= 1
                keep -= 1
            if keep <= 0:
                keep = len(current)  # nothing but marks on the line: break where the width says
            pieces.append(current[:keep])
            current = current[keep:]
            units = _units(current)
        current, units = current + char, units + advance
    if current:
        pieces.append(current)
    return pieces


#: Unit symbols a number keeps beside it on one line ("92 ms", "2 GiB"): time, data, percent.
UNITS = frozenset({"ns", "µs", "us", "ms", "s", "min", "h", "B", "kB", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB",
                   "TiB", "%"})
_DIGITS = frozenset("0123456789")


def _number(word: str) -> bool:
    """Whether ``word`` is a number as prose writes one: an optional opening bracket, an optional sign or
    comparison (``~ ≈ < > ± + -``), an ASCII digit, then digits, points and commas, and an optional ``%``
    ("(~2.5", "512", "1,024", "90%")."""
    at = 1 if word[:1] in ("(", "[") else 0
    if word[at:at + 1] in ("~", "≈", "<", ">", "±", "+", "-"):
        at += 1
    body = word[at:].removesuffix("%")
    return body[:1] in _DIGITS and all(char in _DIGITS or char in ".," for char in body)
#: Punctuation a unit may carry ("512 ms, then"): it stays with the unit.
_TRAILING = ",.;:!?)]}»”’،؛…"


def _groups(words: list[str]) -> list[list[str]]:
    """``words`` in runs a line should not break, as typesetters keep them: a number and the unit after it
    ("92 ms", "512 ms,"), and a short number that ends the text with the word before it ("fill page 7", not a last line
    "7").  A run too wide for a line is broken anyway."""
    groups: list[list[str]] = []
    inside = _bracketed(words)
    for i, word in enumerate(words):
        if groups and (i in inside or _binds(groups[-1][-1], word, i == len(words) - 1)):
            groups[-1].append(word)
        else:
            groups.append([word])
    return groups


#: Words a bracket may hold and stay on one line ("(in memory)"): a longer aside may break.
BRACKET_WORDS = 3


def _bracketed(words: list[str]) -> set[int]:
    """The indexes of the words after the first inside a short bracket ("(in memory)", "[page 7 of 8]", at most
    :data:`BRACKET_WORDS` words): each stays on the line of the word before it."""
    inside: set[int] = set()
    for i, word in enumerate(words):
        close = {"(": ")", "[": "]"}.get(word[:1])
        if close is None or close in word:
            continue
        for j in range(i + 1, min(i + BRACKET_WORDS, len(words))):
            if close in words[j]:
                inside.update(range(i + 1, j + 1))
                break
    return inside


def _binds(before: str, word: str, last: bool) -> bool:
    """Whether ``word`` stays on the line of the word ``before`` it: a unit after a number, a short number
    that ends the text (``last``), or a short number with a colon, which numbers the word before it
    ("forward 2: decode", "page 7: positions")."""
    unit = word.rstrip(_TRAILING) in UNITS and _number(before)
    numbered = word[-1:] == ":" and 1 < len(word) <= 4 and word[:-1].isdigit()
    return unit or numbered or (last and len(word) <= 3 and word.isdigit())


def keep_together(text: str) -> str:
    """``text`` with a no-break space (U+00A0) where it has a space inside a run that a line should not break
    (:func:`_groups`: "92 ms", "fill page 7", "(in memory)") or between a number and the word it counts or
    the name it numbers (:func:`_names`: prose only), for text the browser wraps (the HTML figure's prose);
    other whitespace is kept as it is."""
    parts = re.split(r"(\s+)", text)
    # parts alternate word, space, word...; a text that starts or ends with space has empty words there.
    words = [i for i in range(0, len(parts), 2) if parts[i]]
    inside = {words[k] for k in _bracketed([parts[i] for i in words])}
    for before, at in itertools.pairwise(words):
        if at in inside or _binds(parts[before], parts[at], at == words[-1]) or _names(parts[before], parts[at]):
            parts[at - 1] = "\u00a0"
    return "".join(parts)


def _names(before: str, word: str) -> bool:
    """In prose, a number stays with the word it counts ("96 prompt tokens", "8 pages") and with the name it
    numbers ("Token 32", "Page 7"): the pairs typesetters tie with a no-break space."""
    if _number(before) and before[-1:].isdigit():
        return word[:1].isalpha()
    return before[:1].isupper() and before.isalpha() and word.isdigit()


@lru_cache(maxsize=4096)
def _runs(text: str) -> tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]:
    """``text``'s runs (:func:`_groups`) as ``(run, units, ((word, units), ...))``: each word measured once,
    however many widths the text is wrapped to (:func:`balanced_wrap` tries several)."""
    space = _units(" ")
    runs = []
    for group in _groups(text.split()):
        words = tuple((word, _units(word)) for word in group)
        runs.append((" ".join(group), sum(units for _, units in words) + space * (len(group) - 1), words))
    return tuple(runs)


def least_width(text: str, size: float = FONT_SIZE) -> float:
    """The width, in px, of the widest run of ``text`` that a line should not break (:func:`_groups`: a word, a
    number and its unit, a short number that ends the text with the word before it): the narrowest that
    :func:`wrap` keeps every run whole in."""
    return _px(max((units for _, units, _ in _runs(text)), default=0), size)


def wrap(text: str, width: float, size: float = FONT_SIZE) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` px.

    A number stays with its unit and a short number with the word before it (:func:`_groups`) where the pair
    fits a line.  Words longer than a line are broken between characters.  Returns at
    least one line (``[""]`` for empty text).  Each word is measured once: a line's width is the sum
    of its words' and spaces' advances (:func:`_units`).
    """
    return list(_wrapped(text, width, size))


@lru_cache(maxsize=8192)
def _wrapped(text: str, width: float, size: float) -> tuple[str, ...]:
    """:func:`wrap`, kept: the wide and narrow layouts and validation wrap the same labels to the same widths."""
    return _greedy(text, width, size)


def _greedy(text: str, width: float, size: float) -> tuple[str, ...]:
    """:func:`wrap`'s lines, worked out afresh (:func:`balanced_wrap` tries widths that never recur)."""
    lines: list[str] = []
    current, current_units = "", 0
    space = _units(" ")
    for run, run_units, words in _runs(text):
        pieces = words if len(words) > 1 and _px(run_units, size) > width else ((run, run_units),)
        for word, units in pieces:  # a run too wide alone is laid out word by word, as any
            if current and _px(current_units + space + units, size) <= width:
                current, current_units = f"{current} {word}", current_units + space + units
                continue
            if current:
                lines.append(current)
                current, current_units = "", 0
            if _px(units, size) <= width:
                current, current_units = word, units
            else:
                *full, current = _split_word(word, width, size)
                current_units = _units(current)
                lines.extend(full)
    lines.append(current)
    return tuple(lines)


def balanced_wrap(text: str, count: int, width: float, size: float = FONT_SIZE) -> tuple[str, ...]:
    """``text`` wrapped as narrow as ``width`` px (to 1 px) allows with at most ``count`` lines, or to ``width``
    when it needs more: lines of even length, none left with a word alone ("Decode pass / 1 of 31", not
    "Decode pass 1 of / 31").  It goes no narrower than the widest run (:func:`_groups`) that ``width`` holds, so
    that a trial never breaks a run the full width keeps ("Cache / (in memory)", not "Cache (in / memory)")."""
    runs = [_px(units, size) for _, units, _ in _runs(text)]
    low, high = max([0.0, *(run for run in runs if run <= width)]), width
    while high - low > 1:
        middle = (low + high) / 2
        if len(_greedy(text, middle, size)) <= count:
            high = middle
        else:
            low = middle
    return _greedy(text, high, size)


def whole_words(lines: tuple[str, ...], text: str) -> bool:
    """No word of ``text`` is broken between ``lines``."""
    return [word for line in lines for word in line.split()] == text.split()


def even_wrap(text: str, width: float, size: float = FONT_SIZE) -> tuple[str, ...]:
    """``text`` wrapped to ``width`` px: one line where it fits, else as few lines as :func:`wrap` needs, of even
    length (:func:`balanced_wrap`), so that no word is left alone on the last ("paused: / no token", not
    "paused: no / token"); the greedy lines where balancing would break a word that they keep whole."""
    lines = _wrapped(text, width, size)
    if len(lines) < 2:
        return lines
    balanced = balanced_wrap(text, len(lines), width, size)
    return balanced if whole_words(balanced, text) or not whole_words(lines, text) else lines
