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

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import json_source_map

from .errors import Finding, pointer_join

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


class _PairsDict(dict):
    """A dict that remembers the keys its JSON object repeated."""

    duplicates: list[str]


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
    result = _PairsDict()
    duplicates = []
    for key, value in pairs:
        if key in result and key not in duplicates:
            duplicates.append(key)
        result[key] = value
    result.duplicates = duplicates
    return result


@dataclass
class LoadedSpec:
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
        return hashlib.sha256(self.raw).hexdigest()

    @property
    def ok(self) -> bool:
        """True when the file parsed to a JSON object without findings."""
        return self.data is not None and not self.findings

    @cached_property
    def _source_map(self) -> dict[str, Any]:
        # Computed only when a finding needs a place: it is a second, slower parse.
        try:
            return json_source_map.calculate(self.text)
        except Exception:  # the map is a convenience; a finding still has its pointer
            return {}

    def locate(self, pointer: str | None, *, key: bool = False) -> tuple[int | None, int | None]:
        """Return the 1-based (line, column) of the value at ``pointer``.

        With ``key=True`` the position of the member's name is returned instead
        (for an unknown or duplicate key).  Falls back to the nearest ancestor
        that can be found, and to ``(None, None)`` when the text did not parse.
        """
        if pointer is None or not self.text:
            return (None, None)
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
        smap = self._source_map
        while True:
            # json_source_map keys its entries by unescaped tokens joined with "/".
            entry = smap.get("/" + "/".join(tokens) if tokens else "")
            if entry is not None:
                loc = entry.key_start if key and entry.key_start is not None else entry.value_start
                return (loc.line + 1, loc.column + 1)
            if not tokens:
                return (None, None)
            tokens.pop()
            key = False


def _position_of_byte(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, column


def _find_specials(value: Any, path: tuple) -> list[tuple[str, tuple, str]]:
    """Walk parsed data for duplicate keys and non-finite constants."""
    found: list[tuple[str, tuple, str]] = []
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, _PairsDict):
            for dup in node.duplicates:
                found.append(("duplicate-key", where + (dup,), dup))
            stack.extend((v, where + (k,)) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, where + (i,)) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, _NonFinite):
            found.append(("non-finite-number", where, node.name))
    return found


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
        line, column = _position_of_byte(raw, exc.start)
        return fail(f"byte 0x{raw[exc.start]:02x} is not valid UTF-8; save the file as UTF-8",
                    "encoding", line, column)
    try:
        data = json.loads(spec.text, object_pairs_hook=_pairs_hook, parse_constant=_NonFinite)
    except json.JSONDecodeError as exc:
        return fail(f"invalid JSON: {exc.msg}", "json-syntax", exc.lineno, exc.colno)
    except RecursionError:
        return fail("the JSON is nested too deeply to be a mechanism spec", "json-depth")
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        return fail(f"invalid JSON: {exc}", "json-syntax")

    problems = _find_specials(data, ())
    for rule, where, name in problems:
        pointer = pointer_join(*where)
        if rule == "duplicate-key":
            line, column = spec.locate(pointer, key=True)
            message = f'duplicate key "{name}": each key may appear once in an object'
        else:
            line, column = spec.locate(pointer)
            message = f"{name} is not a JSON number; use a finite number"
        spec.findings.append(Finding(display, pointer, message, rule, line=line, column=column))
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
        raw = path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, IsADirectoryError):
            reason = "not a regular file"
        spec.findings.append(Finding(display, None, f"cannot read the spec: {reason}", "read"))
        return spec
    return parse_text(raw, display, path)
