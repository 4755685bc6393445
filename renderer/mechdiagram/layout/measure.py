"""Text measurement and wrapping for the layout: widths in SVG user units (CSS px) at a font size.

Widths come from the advance widths of real fonts, measured with fonttools
(:mod:`mechdiagram.layout.text_metrics`, 1000 units per em: DejaVu Sans Bold for Latin, Greek,
Cyrillic, Hebrew and Arabic, Droid Sans Fallback for CJK; DejaVu Sans Mono Bold for the labels of targets
with ``"text": "code"``), times :data:`WIDTH_SAFETY` as a margin for readers whose font differs.

Lines break at spaces.  A word wider than its line breaks after a hyphen or a slash (prose) or after one of
:data:`CODE_BREAKS` (code), and only where a piece still cannot fit between two characters, with
:data:`CONTINUATION` at the end of the line (:func:`_split_word`); CJK text breaks between its characters as
before, with no mark.  In code every break after :data:`CODE_BREAKS` is a line's break, as a space is.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from mechdiagram.layout.text_metrics import ADVANCES, BLOCKS, MONO_RUNS

#: Font size of node labels, px.
FONT_SIZE = 14.0
#: Factor on every measured width, for fonts wider than the measured face.
WIDTH_SAFETY = 1.08
#: The advances of a code label: the monospace face's where it has the character, else the other labels' (a
#: browser takes a character the face lacks from the next font that has it).
CODE_ADVANCES: dict[str, int] = {**ADVANCES, **{chr(code): advance for low, high, advance in MONO_RUNS
                                                for code in range(low, high + 1)}}
#: Ends a line where a word too wide for any line the layout allows is broken between two characters (U+21A9
#: LEFTWARDS ARROW WITH HOOK, as editors mark a soft-wrapped line): the reader sees that the word goes on.
#: The drawing keeps it out of the text that assistive technology reads (:mod:`mechdiagram.render.svg`).
CONTINUATION = "\u21a9"
#: Characters a prose word may break after (a hyphen, U+2010 hyphen, a slash): "SYN-/ACK", "read/ write".
PROSE_BREAKS = frozenset("-\u2010/")
#: Characters a code label breaks after (and at spaces): URL and path separators, query punctuation, the
#: snake_case underscore, the dot of a member or a domain, a hyphen.
CODE_BREAKS = frozenset("/?&=_.-")


@lru_cache(maxsize=4096)
def _advance(char: str, code: bool = False) -> int:
    """One character's advance in font units (1000 per em): from the metrics table (:data:`CODE_ADVANCES` for
    ``code``), else by its block (CJK) or its Unicode properties (see :func:`text_width`)."""
    advance = (CODE_ADVANCES if code else ADVANCES).get(char)
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


def _units(text: str, code: bool = False) -> int:
    """The advance of ``text`` in font units (1000 per em): the sum of its characters' advances (no
    kerning), so the units of a line are those of its words and spaces added up; ``code`` in the monospace
    face."""
    try:  # every character in the table, the common case: summed without a Python call per character
        return sum(map((CODE_ADVANCES if code else ADVANCES).__getitem__, text))
    except KeyError:  # a character the table lacks (an isolate around author text, CJK): by its properties
        return sum(_advance(char, code) for char in text)


def _px(units: int, size: float) -> float:
    """``units`` font units as px at ``size`` px, with the safety margin."""
    return units * size / 1000 * WIDTH_SAFETY


def text_width(text: str, size: float = FONT_SIZE, code: bool = False) -> float:
    """Width in px of ``text`` at ``size`` px, bold, with the safety margin.

    Characters come from the metrics table (DejaVu Sans Bold per character for Latin, Greek,
    Cyrillic, Hebrew and Arabic; the widest advance of a CJK face per CJK block; with ``code``, DejaVu Sans
    Mono Bold where it has the character); others count as
    1 em when East Asian wide or full-width (Unicode UAX #11), 0 when combining marks, else 0.75 em.
    """
    return _px(_units(text, code), size)


#: Characters that never start a line (JIS X 4051 and W3C JLREQ line-start prohibition, the common ones):
#: closing brackets and quotes, the ideographic comma and full stop, middle dot, colon, semicolon, question and
#: exclamation marks, in full and half width.
NO_LINE_START = frozenset("、。，．・：；？！）〕］｝〉》」』】〙〗〟’”｠»ー…‥ゝゞヽヾ々,.:;?!)]}")


def _wide(char: str) -> bool:
    """Whether ``char`` is East Asian wide or full-width (UAX #11): CJK text, which breaks between any two
    characters (JIS X 4051) with no mark."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _free(before: str, after: str) -> bool:
    """Whether a line may end between ``before`` and ``after`` without :data:`CONTINUATION`: beside a CJK
    character."""
    return _wide(before) or _wide(after)


#: The fewest characters a word's piece after a break inside it may have (TeX's \\righthyphenmin).
LEAST_TAIL = 3


def segments(word: str, code: bool = False) -> list[str]:
    """``word`` cut after each place a line may break inside it: after a run of :data:`PROSE_BREAKS` (or, for
    ``code``, :data:`CODE_BREAKS`) that follows something else and comes before more ("SYN-", "ACK";
    "/callback?", "code&", "state"; "code_", "challenge").  Never inside a number ("2.5", "1,024", "SHA-256",
    "10-20": no break before a digit after a point, comma or hyphen), nor after a word's leading marks
    ("/callback", "--flag", "__init__"), nor where fewer than :data:`LEAST_TAIL` characters would follow
    ("…Sstw-cM" stays whole: a line of "cM" reads as a scrap, as typesetters' least hyphenated tail)."""
    breaks = CODE_BREAKS if code else PROSE_BREAKS
    pieces, start = [], 0
    for i in range(len(word) - LEAST_TAIL):
        char, after = word[i], word[i + 1]
        if char not in breaks or after in breaks or (after in _DIGITS and char in ".,-"):
            continue
        if all(c in breaks for c in word[start:i]):  # nothing but marks before it: they lead the piece
            continue
        pieces.append(word[start:i + 1])
        start = i + 1
    pieces.append(word[start:])
    return pieces


def _split_word(word: str, width: float, size: float, code: bool = False) -> list[str]:
    """Break a word wider than ``width``: after its break places (:func:`segments`), as few lines as they
    allow; a piece still wider than ``width`` is broken between characters (:func:`_split_chars`)."""
    pieces: list[str] = []
    current, units = "", 0
    for piece in segments(word, code):
        piece_units = _units(piece, code)
        if current and _px(units + piece_units, size) <= width:
            current, units = current + piece, units + piece_units
            continue
        if current:
            pieces.append(current)
        if _px(piece_units, size) <= width:
            current, units = piece, piece_units
        else:
            *full, current = _split_chars(piece, width, size, code)
            units = _units(current, code)
            pieces.extend(full)
    if current:
        pieces.append(current)
    return pieces


def _split_chars(word: str, width: float, size: float, code: bool = False) -> list[str]:
    """Break a word wider than ``width`` between characters: never before a combining mark, and never before a
    character of :data:`NO_LINE_START`, which takes the character before it (with the marks between them) to
    the next line instead.  A line that ends between two characters neither of them CJK (:func:`_free`) ends
    with :data:`CONTINUATION`, and is kept narrow enough to hold it."""
    pieces, current, units = [], "", 0
    mark = _units(CONTINUATION, code)
    for at, char in enumerate(word):
        advance = _advance(char, code)
        # Room for the mark too when a line ending after this character would need it.
        after = word[at + 1] if at + 1 < len(word) else ""
        end = mark if after and not _free(char, after) else 0
        if current and not unicodedata.combining(char) and _px(units + advance + end, size) > width:
            # Before a closing mark, the line ends earlier: the marks and combining marks that end it go down
            # with the character they follow, so that the new line starts with that character.
            keep = len(current)
            if char in NO_LINE_START:
                while keep and (current[keep - 1] in NO_LINE_START or unicodedata.combining(current[keep - 1])):
                    keep -= 1
                keep -= 1
            if keep <= 0:
                keep = len(current)  # nothing but marks on the line: break where the width says
            rest = current[keep:] + char
            pieces.append(current[:keep] + ("" if _free(current[keep - 1], rest[0]) else CONTINUATION))
            current = current[keep:]
            units = _units(current, code)
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


def _groups(words: list[str], brackets: bool = True) -> list[list[str]]:
    """``words`` in runs a line should not break, as typesetters keep them: a number and the unit after it
    ("92 ms", "512 ms,"), a short number that ends the text with the word before it ("fill page 7", not a last line
    "7"), and with ``brackets`` a short bracket (:func:`_bracketed`).  A run too wide for a line is broken anyway,
    between the runs it holds without its bracket (:func:`_runs`)."""
    groups: list[list[str]] = []
    inside = _bracketed(words) if brackets else set()
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


#: A run of text as :func:`_runs` measures it: its text, its width in font units, and the runs it holds.
Run = tuple[str, int, tuple[tuple[str, int, tuple[tuple[str, int], ...]], ...]]


@lru_cache(maxsize=4096)
def _runs(text: str, code: bool = False) -> tuple[Run, ...]:
    """``text``'s runs (:func:`_groups`) as ``(run, units, inner)``, ``inner`` the runs it holds without its
    bracket (``_groups(brackets=False)``), each as ``(run, units, ((word, units), ...))``: a bracket too wide for a
    line breaks between those, so that "(30 s delay)" breaks as "(30 s / delay)", never "(30 / s delay)".  Each word
    is measured once (in the monospace face for ``code``), however many widths the text is wrapped to
    (:func:`balanced_wrap` tries several)."""
    space = _units(" ", code)
    words = text.split()
    inner_runs = []
    for group in _groups(words, brackets=False):
        measured = tuple((word, _units(word, code)) for word in group)
        inner_runs.append((" ".join(group), sum(units for _, units in measured) + space * (len(group) - 1),
                           measured))
    runs: list[Run] = []
    at = 0
    for group in _groups(words):
        inner, count = [], 0
        while count < len(group):  # the runs without brackets split the runs with them: never across one
            inner.append(inner_runs[at])
            count += len(inner_runs[at][2])
            at += 1
        runs.append((" ".join(group), sum(units for _, units, _ in inner) + space * (len(inner) - 1), tuple(inner)))
    return tuple(runs)


def least_width(text: str, size: float = FONT_SIZE) -> float:
    """The width, in px, of the widest run of ``text`` that a line should not break (:func:`_groups`: a word, a
    number and its unit, a short number that ends the text with the word before it): the narrowest that
    :func:`wrap` keeps every run whole in."""
    return _px(max((units for _, units, _ in _runs(text)), default=0), size)


def wrap(text: str, width: float, size: float = FONT_SIZE, code: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` px.

    A number stays with its unit and a short number with the word before it (:func:`_groups`) where the pair
    fits a line.  Words longer than a line are broken after a hyphen or a slash (``code``: after one of
    :data:`CODE_BREAKS`), else between characters with :data:`CONTINUATION` (:func:`_split_word`).  ``code``
    measures in the monospace face, and a code word too long for a line starts on the line before it where
    its first pieces fit there.  Returns at
    least one line (``[""]`` for empty text).  Each word is measured once: a line's width is the sum
    of its words' and spaces' advances (:func:`_units`).
    """
    return list(_wrapped(text, width, size, code))


@lru_cache(maxsize=8192)
def _wrapped(text: str, width: float, size: float, code: bool = False) -> tuple[str, ...]:
    """:func:`wrap`, kept: the wide and narrow layouts and validation wrap the same labels to the same widths."""
    return _greedy(text, width, size, code)


def _greedy(text: str, width: float, size: float, code: bool = False) -> tuple[str, ...]:
    """:func:`wrap`'s lines, worked out afresh (:func:`balanced_wrap` tries widths that never recur)."""
    lines: list[str] = []
    current, current_units = "", 0
    space = _units(" ", code)
    for run, run_units, inner in _runs(text, code):
        # a run too wide alone is laid out by the runs it holds (a bracket's), and one of those too wide by its words
        pieces = [(run, run_units)] if _px(run_units, size) <= width else [
            piece for part, part_units, words in inner
            for piece in (words if _px(part_units, size) > width else ((part, part_units),))]
        for word, units in pieces:
            if current and _px(current_units + space + units, size) <= width:
                current, current_units = f"{current} {word}", current_units + space + units
                continue
            if current and code and _px(units, size) > width:  # its first pieces fill this line
                parts = segments(word, True)
                fit, fit_units = 0, current_units + space
                while fit < len(parts) - 1 and _px(fit_units + _units(parts[fit], True), size) <= width:
                    fit_units += _units(parts[fit], True)
                    fit += 1
                if fit:
                    current = f"{current} {''.join(parts[:fit])}"
                    word = "".join(parts[fit:])
                    units = _units(word, True)
            if current:
                lines.append(current)
                current, current_units = "", 0
            if _px(units, size) <= width:
                current, current_units = word, units
            else:
                *full, current = _split_word(word, width, size, code)
                current_units = _units(current, code)
                lines.extend(full)
    lines.append(current)
    return tuple(lines)


def tokens(text: str, code: bool = False) -> list[str]:
    """The pieces of ``text`` that a line never breaks inside where the layout can help it (a box grows to the
    widest, up to its bound): its words, and in ``code`` the pieces its words break into (:func:`segments`)."""
    return [piece for word in text.split() for piece in (segments(word, True) if code else (word,))]


def breaks_anywhere(word: str) -> bool:
    """Whether ``word`` holds CJK text, which breaks between its characters with no mark (:func:`_free`)."""
    return any(map(_wide, word))


def balanced_wrap(text: str, count: int, width: float, size: float = FONT_SIZE,
                  code: bool = False) -> tuple[str, ...]:
    """``text`` wrapped as narrow as ``width`` px (to 1 px) allows with at most ``count`` lines, or to ``width``
    when it needs more: lines of even length, none left with a word alone ("Decode pass / 1 of 31", not
    "Decode pass 1 of / 31").  It goes no narrower than the widest run (:func:`_groups`) that ``width`` holds, so
    that a trial never breaks a run the full width keeps ("Cache / (in memory)", not "Cache (in / memory)")."""
    runs = [_px(units, size) for _, units, _ in _runs(text, code)]
    low, high = max([0.0, *(run for run in runs if run <= width)]), width
    while high - low > 1:
        middle = (low + high) / 2
        if len(_greedy(text, middle, size, code)) <= count:
            high = middle
        else:
            low = middle
    return _greedy(text, high, size, code)


def whole_words(lines: tuple[str, ...], text: str, code: bool = False) -> bool:
    """No word of ``text`` is broken between ``lines`` (in ``code``: none broken but after one of
    :data:`CODE_BREAKS`, so no line carries :data:`CONTINUATION`)."""
    if code:
        return not any(line.endswith(CONTINUATION) for line in lines[:-1])
    return [word for line in lines for word in line.split()] == text.split()


def even_wrap(text: str, width: float, size: float = FONT_SIZE, code: bool = False) -> tuple[str, ...]:
    """``text`` wrapped to ``width`` px: one line where it fits, else as few lines as :func:`wrap` needs, of even
    length (:func:`balanced_wrap`), so that no word is left alone on the last ("paused: / no token", not
    "paused: no / token"); the greedy lines where balancing would break a word that they keep whole."""
    lines = _wrapped(text, width, size, code)
    if len(lines) < 2:
        return lines
    balanced = balanced_wrap(text, len(lines), width, size, code)
    return balanced if whole_words(balanced, text, code) or not whole_words(lines, text, code) else lines
