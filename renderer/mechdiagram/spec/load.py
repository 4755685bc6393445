"""Stage 1, load: read a spec file and parse its JSON, locating every problem.

:func:`load_spec` never raises for bad input; it returns a :class:`LoadedSpec`
whose ``findings`` say what is wrong, each with line and column (1-based) and,
where the problem has a place in the document, a JSON Pointer (RFC 6901).
Rules of this stage: the file is at most :data:`MAX_SPEC_BYTES`, encoded as
UTF-8 without a byte-order mark (RFC 8259 section 8.1), holds exactly one JSON
value without duplicate object keys (RFC 8259 section 4 says names SHOULD be
unique; we require it) or the non-standard constants ``NaN`` and ``Infinity``,
and that value is an object.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from functools import cached_property
from pathlib import Path
from typing import Any

from msgspec import Struct, field

from mechdiagram.shared.files import sha256_hex
from mechdiagram.shared.findings import MAX_PER_RULE, Finding, Where, more_finding, pointer_join
from mechdiagram.spec.jsonpos import Place, value_offsets

#: Largest spec file accepted, in bytes (4 MiB).
MAX_SPEC_BYTES = 4 * 1024 * 1024

_BOMS = {
    b"\xef\xbb\xbf": "UTF-8",
    b"\xff\xfe": "UTF-16 (little-endian)",
    b"\xfe\xff": "UTF-16 (big-endian)",
}


class _NonFinite:
    """Stands in for ``NaN``/``Infinity`` during parsing so it can be located."""

    def __init__(self, name: str) -> None:
        self.name = name


class _OutOfRange:
    """Stands in for a number literal too large to be a spec value (``1e400``, a 5000-digit integer)."""

    def __init__(self, text: str) -> None:
        self.text = text


#: Deepest nesting of arrays and objects accepted; a valid spec needs 6 levels.  Deeper data would
#: only reach code that recurses (jsonschema, json.dumps) with nothing to gain.
MAX_NESTING = 32

#: Longest integer literal accepted, in digits; no spec value comes near it.
MAX_INTEGER_DIGITS = 30


def _parse_int(text: str) -> int | _OutOfRange:
    # Checked before int(): Python refuses literals over 4300 digits with an error about its own limits.
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        return _OutOfRange(text)
    return int(text)


def _parse_float(text: str) -> int | float | _OutOfRange:
    value = float(text)
    if not math.isfinite(value):  # 1e400 overflows to infinity
        return _OutOfRange(text)
    # JSON Schema counts 1000.0 as an integer; make it one, so later stages never see a float there.
    if value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


class _PairsDict(dict[str, Any]):
    """A dict that remembers the keys its JSON object repeated."""

    duplicates: list[str]


def _pairs_hook(pairs: list[tuple[str, Any]]) -> _PairsDict:
    result = _PairsDict()
    duplicates: dict[str, None] = {}  # in order of first repetition; a dict, so that each test is O(1)
    for key, value in pairs:
        if key in result:
            duplicates[key] = None
        result[key] = value
    result.duplicates = list(duplicates)
    return result


class LoadedSpec(Struct, dict=True):
    """A spec file as read: ``raw`` bytes, decoded ``text``, parsed ``data``.

    ``display`` is the path as shown to users; ``sha256`` the hex SHA-256 of
    ``raw``.  ``data`` is ``None`` when the file did not parse, in which case
    ``findings`` holds the reason.  :meth:`locate` maps a JSON Pointer to a
    1-based (line, column).
    """

    path: Path
    display: str
    raw: bytes = b""
    text: str = ""
    data: Any = None
    findings: list[Finding] = field(default_factory=list)

    @property
    def sha256(self) -> str:
        """Hex SHA-256 of the file's bytes."""
        return sha256_hex(self.raw)

    def lean(self) -> LoadedSpec:
        """A copy without the parsed ``data`` and ``text`` (and so without their position maps), for results
        that travel between processes once their findings are located: ``sha256`` and ``display`` stay."""
        return LoadedSpec(path=self.path, display=self.display, raw=self.raw, findings=list(self.findings))

    @property
    def ok(self) -> bool:
        """True when the file parsed to a JSON object without findings."""
        return self.data is not None and not self.findings

    @cached_property
    def _offsets(self) -> dict[str, Place]:
        # Computed only when a finding needs a place: a second pass over the text, linear and iterative.
        try:
            return value_offsets(self.text)
        except Exception:  # the map is a convenience; a finding still has its pointer
            return {}

    @cached_property
    def _line_starts(self) -> list[int]:
        # A line ends at CR LF, LF or a lone CR, as editors count lines (JSON allows all three as white space).
        return [0] + [m.end() for m in re.finditer("\r\n|\r|\n", self.text)]

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) of a character offset in ``text``; columns count characters."""
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def span(self, pointer: str) -> tuple[int, int, int | None] | None:
        """Character offsets in ``text`` of the value at ``pointer``: (start, end, key start or None).

        ``None`` when the pointer is not in the document.  ``mechdiagram hash
        --write`` edits the text at these offsets.
        """
        entry = self._offsets.get(pointer)
        return None if entry is None else (entry[0], entry[2], entry[1])

    def locate(self, pointer: str | None, *, key: bool = False) -> tuple[int | None, int | None]:
        """Return the 1-based (line, column) of the value at ``pointer``.

        With ``key=True`` the position of the member's name is returned instead
        (for an unknown or duplicate key).  Falls back to the nearest ancestor
        that can be found, and to ``(None, None)`` when the text did not parse.
        """
        if pointer is None or not self.text:
            return (None, None)
        offsets = self._offsets
        while True:
            entry = offsets.get(pointer)
            if entry is not None:
                value_at, key_at = entry[0], entry[1]
                return self.position(key_at if key and key_at is not None else value_at)
            if not pointer:
                return (None, None)
            pointer = pointer[: pointer.rindex("/")]
            key = False


def _position_of_byte(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


#: Parsed values that are never a finding of :func:`_find_specials` (exact types: the stand-ins are not).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _find_specials(value: Any, path: Where) -> list[tuple[str, Where, str]]:
    """Walk parsed data for duplicate keys, non-finite constants, numbers out of range and deep nesting."""
    found: list[tuple[str, Where, str]] = []
    stack: list[tuple[Any, Where]] = [(value, path)]
    too_deep = False
    while stack:
        node, where = stack.pop()
        if isinstance(node, (dict, list)) and len(where) >= MAX_NESTING:
            if not too_deep:  # once: the first place is enough to act on
                found.append(("json-depth", where, ""))
                too_deep = True
            continue
        # Plain strings, numbers, booleans and nulls, most of a spec, can hold nothing to find: not walked.
        if isinstance(node, _PairsDict):
            for dup in node.duplicates:
                found.append(("duplicate-key", where + (dup,), dup))
            stack.extend((v, where + (k,)) for k, v in reversed(node.items()) if type(v) not in _PLAIN)
        elif isinstance(node, list):
            # Indexes counted down, not enumerate() made a list: a list of two million items costs no copy.
            stack.extend((node[i], where + (i,)) for i in range(len(node) - 1, -1, -1) if type(node[i]) not in _PLAIN)
        elif isinstance(node, _NonFinite):
            found.append(("non-finite-number", where, node.name))
        elif isinstance(node, _OutOfRange):
            found.append(("number-range", where, node.text))
    return found


def _syntax_message(exc: json.JSONDecodeError) -> tuple[str, int]:
    """The json module's message, reworded where it names a position it does not show, and the
    character offset to report (the comma itself for a trailing comma)."""
    message = _syntax_text(exc)
    if message.startswith("a comma before"):
        return message, len(exc.doc[:exc.pos].rstrip()) - 1
    if message.startswith("a comma is missing"):  # where the comma goes: right after the value before
        return message, len(exc.doc[:exc.pos].rstrip())
    return message, exc.pos


def _syntax_text(exc: json.JSONDecodeError) -> str:
    if exc.msg.startswith("Invalid control character"):
        char = exc.doc[exc.pos] if exc.pos < len(exc.doc) else ""
        if char in "\r\n":
            return 'a line ends inside a string; close the string with " (write a line break as \\n)'
        return f"control character U+{ord(char):04X} inside a string; remove it"
    if exc.msg.startswith("Unterminated string"):
        return 'the string starting here is never closed with "'
    if exc.msg == "Extra data":
        return "more text after the end of the top-level JSON value"
    here = exc.doc[exc.pos] if exc.pos < len(exc.doc) else ""
    before = exc.doc[:exc.pos].rstrip()
    if exc.msg.startswith(("Expecting property name", "Expecting value")) and before.endswith(",") and here in "]}":
        return f"a comma before {here!r}: JSON allows no trailing comma; remove the comma"
    if here == "/" and exc.doc[exc.pos:exc.pos + 2] in ("//", "/*"):
        return "a comment: JSON has no comments; remove it (put notes in a description)"
    if here == "'":
        return "a string in single quotes: JSON strings use double quotes"
    if exc.msg.startswith("Expecting ',' delimiter"):
        if here == '"' or here in "{[" or here.isalnum() or here == "-":
            return "a comma is missing after this value, before the next member or item; add one"
        return "a comma or a closing bracket is missing here"
    if exc.msg.startswith("Expecting ':' delimiter"):
        return 'a colon is missing after the key; write "key": value'
    word = re.match(r"[A-Za-z_][A-Za-z0-9_-]*", exc.doc[exc.pos:])
    if exc.msg.startswith("Expecting property name"):
        hint = f' ("{word.group()}")' if word else ""
        return f"a key must be a string in double quotes{hint}"
    if exc.msg.startswith("Expecting value"):
        if not before:
            return "a mechanism spec is a JSON object, starting with {"
        if word and word.group() in ("True", "False", "None", "TRUE", "FALSE", "NULL", "Null"):
            return f"{word.group()}: JSON writes true, false and null in lower case"
        if word:
            return f'text without quotes: a JSON string is in double quotes ("{word.group()}")'
        return "a value is missing here: a string, a number, true, false, null, an object or an array"
    return exc.msg


def parse_text(raw: bytes, display: str, path: Path | None = None) -> LoadedSpec:
    """Decode and parse spec bytes; see the module docstring for the rules.

    Returns a :class:`LoadedSpec`; never raises for bad input.
    """
    spec = LoadedSpec(path=path or Path(display), display=display, raw=raw)

    def fail(message: str, rule: str, line: int | None = 1, column: int | None = 1,
             pointer: str | None = None) -> LoadedSpec:
        spec.findings.append(Finding(display, pointer, message, rule, line=line, column=column))
        return spec

    if not raw.strip():
        return fail("the file is empty; a mechanism spec is a JSON object", "empty-file")
    for bom, name in _BOMS.items():
        if raw.startswith(bom):
            return fail(f"the file starts with a {name} byte-order mark; save it as UTF-8 without a BOM",
                        "byte-order-mark")
    try:
        spec.text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return fail(f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8",
                    "encoding", *_position_of_byte(raw, exc.start))
    try:
        data = json.loads(spec.text, object_pairs_hook=_pairs_hook, parse_constant=_NonFinite,
                          parse_int=_parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        message, offset = _syntax_message(exc)
        return fail(f"invalid JSON: {message}", "json-syntax", *spec.position(offset))
    except RecursionError:
        return fail("the JSON is nested too deeply to be a mechanism spec", "json-depth")
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        return fail(f"invalid JSON: {exc}", "json-syntax")

    problems = _find_specials(data, ())
    line: int | None
    column: int | None
    counts: dict[str, int] = {}
    for rule, where, name in problems:
        counts[rule] = counts.get(rule, 0) + 1
        if counts[rule] > MAX_PER_RULE:  # counted, not located: a million NaNs make one "more" finding
            continue
        pointer = pointer_join(*where)
        if rule == "duplicate-key":
            line, column = spec.locate(pointer, key=True)
            message = f'duplicate key "{name}": each key may appear once in an object'
        elif rule == "json-depth":
            line, column = spec.locate(pointer)
            message = (f"arrays and objects are nested more than {MAX_NESTING} levels deep here; "
                       "a mechanism spec needs far fewer")
        elif rule == "number-range":
            line, column = spec.locate(pointer)
            shown = name if len(name) <= 24 else f"{name[:12]}…{name[-4:]} ({len(name)} characters)"
            message = f"the number {shown} is too large for a mechanism spec"
        else:
            line, column = spec.locate(pointer)
            message = f"{name} is not a JSON number; use a finite number"
        spec.findings.append(Finding(display, pointer, message, rule, line=line, column=column))
    spec.findings += [more_finding(display, rule, count - MAX_PER_RULE) for rule, count in counts.items()
                      if count > MAX_PER_RULE]
    if spec.findings:
        return spec
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(data), "a number")
        return fail(f"the top level must be a JSON object, not {kind}", "type", pointer="")
    spec.data = data
    return spec


def load_spec(path: Path, display: str | None = None) -> LoadedSpec:
    """Read and parse the spec file at ``path``.

    ``display`` is how the path is shown in findings (default: ``str(path)``).
    Returns a :class:`LoadedSpec`; an unreadable, oversized or non-regular
    file gives a finding, not an exception.
    """
    display = display if display is not None else str(path)
    spec = LoadedSpec(path=path, display=display)
    try:
        stat = path.stat()
        if not path.is_file():
            raise IsADirectoryError(f"{display} is not a regular file")
        if stat.st_size > MAX_SPEC_BYTES:
            spec.findings.append(Finding(
                display, None,
                f"the file is {stat.st_size} bytes; the limit for a spec is {MAX_SPEC_BYTES} bytes (4 MiB)",
                "limit-file-size"))
            return spec
        with path.open("rb") as handle:  # bounded: the file may have grown since stat()
            raw = handle.read(MAX_SPEC_BYTES + 1)
        if len(raw) > MAX_SPEC_BYTES:
            spec.findings.append(Finding(
                display, None, f"the file is over {MAX_SPEC_BYTES} bytes; the limit for a spec is "
                f"{MAX_SPEC_BYTES} bytes (4 MiB)", "limit-file-size"))
            return spec
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, IsADirectoryError):
            reason = "not a regular file"
        spec.findings.append(Finding(display, None, f"cannot read the spec: {reason}", "read"))
        return spec
    return parse_text(raw, display, path)
