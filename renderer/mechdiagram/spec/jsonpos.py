"""Where each value of a JSON text is: character offsets by JSON Pointer (RFC 6901), for locating findings.

A second, iterative pass over text that :func:`json.loads` accepted already;
any depth works.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, cast

from mechdiagram.shared.findings import escape_pointer_token

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity")


#: ``json.decoder.scanstring`` (untyped in the stubs): the string at an offset just after its quote,
#: unescaped, and the offset after its closing quote.
_scanstring = cast(Callable[[str, int], tuple[str, int]], vars(json.decoder)["scanstring"])
#: ``match`` of patterns that match at every offset (both may match nothing), typed so.
_Matcher = Callable[[str, int], "re.Match[str]"]

#: One pointer's offsets: [value start, key start or None, value end, key end or None].
Place = list[Any]

#: Most values whose places one map records, in document order: a spec's findings are located among its first
#: values, and a value past them at its nearest recorded ancestor.  An unknown key holding two million integers
#: made a map of 1 GiB; the gallery's largest spec has 2,000 values.
MAX_PLACES = 200_000


def value_offsets(text: str, limit: int | None = None) -> dict[str, Place]:
    """Map each JSON Pointer of a parsed document to [offset of its value, offset of its key or None,
    offset just after its value, offset just after its key or None], for its first ``limit`` values
    (:data:`MAX_PLACES` when ``None``) in document order (a container before the values inside it).

    ``text`` must be JSON that :func:`json.loads` accepted (``NaN`` and
    ``Infinity`` allowed).  Iterative, so any depth works; keys are unescaped
    (``"caf\\u00e9"`` is ``café``) and pointer tokens escaped as RFC 6901 says.
    A repeated key maps to its last occurrence.
    """
    limit = MAX_PLACES if limit is None else limit
    scanstring = _scanstring
    ws = cast(_Matcher, _WHITESPACE.match)
    scalar = cast(_Matcher, _SCALAR.match)
    places: dict[str, Place] = {}
    stack: list[list[Any]] = []  # [pointer, is_object, index, place]
    pos = ws(text, 0).end()
    pointer: str = ""
    key_at: int | None = None
    key_end: int | None = None

    def read_key(at: int) -> tuple[str, int, int, int]:
        key, end = scanstring(text, at + 1)
        colon = ws(text, end).end()
        return key, at, end, ws(text, colon + 1).end()

    while True:
        entry = [pos, key_at, None, key_end]
        if len(places) < limit or pointer in places:  # a repeated key maps to its last occurrence
            places[pointer] = entry
        char = text[pos]
        if char in "{[":
            inner = ws(text, pos + 1).end()
            if text[inner] in "}]":
                pos = entry[2] = inner + 1
            else:
                is_object = char == "{"
                stack.append([pointer, is_object, 0, entry])
                if is_object:
                    key, key_at, key_end, pos = read_key(inner)
                    pointer = f"{pointer}/{escape_pointer_token(key)}"
                else:
                    pointer, key_at, key_end, pos = f"{pointer}/0", None, None, inner
                continue
        elif char == '"':
            pos = entry[2] = scanstring(text, pos + 1)[1]
        else:
            pos = entry[2] = scalar(text, pos).end()
        while True:  # after a value: close finished containers, move to the next member
            pos = ws(text, pos).end()
            if not stack:
                return places
            frame = stack[-1]
            if text[pos] == ",":
                frame[2] += 1
                nxt = ws(text, pos + 1).end()
                if frame[1]:
                    key, key_at, key_end, pos = read_key(nxt)
                    pointer = f"{frame[0]}/{escape_pointer_token(key)}"
                else:
                    pointer, key_at, key_end, pos = f"{frame[0]}/{frame[2]}", None, None, nxt
                break
            stack.pop()
            pos = frame[3][2] = pos + 1
