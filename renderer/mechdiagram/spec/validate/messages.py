"""Schema error messages an author can act on, from a table keyed by JSON Schema keyword.

Each entry of :data:`MESSAGES` turns one ``jsonschema`` error (seen through an
:class:`ErrorView`) into a :class:`Message`; a keyword without an entry keeps
``jsonschema``'s own message.  ``additionalProperties`` is not here: it gives
one finding per unknown key (:func:`mechdiagram.spec.validate.schema.schema_findings`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from msgspec import Struct

from mechdiagram.shared.assets import schema
from mechdiagram.shared.findings import pointer_join
from mechdiagram.spec.validate.wording import SCHEMA_TYPES, quote, shown, type_name

#: What a ``pattern`` of the schema asks for, in words.
PATTERN_WORDS = {
    "^[0-9a-f]{64}$": "64 lowercase hexadecimal digits (a SHA-256 digest)",  # SHA256_PATTERN
    "^[A-Za-z_][A-Za-z0-9_.-]*$": "a letter or '_', then letters, digits, '_', '.' or '-'",
    "^[A-Za-z][A-Za-z0-9_-]*$": "a letter, then letters, digits, '_' or '-'",
    "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$": "a BCP 47 language tag such as en or pt-BR",
    "\\S": "visible text, not only white space",
}


class ErrorView(Struct, frozen=True):
    """One ``jsonschema`` error: the failing ``keyword``, its schema value ``expected``, the instance
    ``value`` at ``path`` (whose last part, as a message names it, is ``field``), and its subschema errors."""

    keyword: str
    expected: Any
    value: Any
    path: list[str | int]
    field: str
    schema_path: list[str | int]
    context: list[Any]
    fallback: str

    @property
    def pointer(self) -> str:
        """JSON Pointer of the instance."""
        return pointer_join(*self.path)

    @property
    def on_property_name(self) -> bool:
        """True when the error is about an object key (``propertyNames``), not a value."""
        return "propertyNames" in self.schema_path


class Message(Struct, frozen=True):
    """A finding's text and place: ``pointer`` and whether it points at the member's name (``on_key``);
    ``missing`` is the key a ``required`` message names."""

    text: str
    pointer: str
    on_key: bool = False
    missing: str | None = None


class RequiredCounter:
    """``jsonschema`` reports each missing key of an object as its own ``required`` error; this counts
    them per object and schema place, so each names a different key."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, tuple[str | int, ...]], int] = {}

    def next(self, view: ErrorView) -> int:
        """How many ``required`` errors of this object and schema place came before this one."""
        where = (view.pointer, tuple(view.schema_path))
        nth = self.seen.get(where, 0)
        self.seen[where] = nth + 1
        return nth


def _plain(view: ErrorView, text: str) -> Message:
    return Message(text, view.pointer)


def missing_key(key: str) -> str:
    """The text of a ``required`` finding for ``key`` (other rules drop it beside a finding that says more)."""
    return f"missing required key {quote(key)}"


def _required(view: ErrorView, counter: RequiredCounter) -> Message:
    missing = [k for k in view.expected if isinstance(view.value, dict) and k not in view.value]
    nth = counter.next(view)
    key = missing[nth] if nth < len(missing) else str(view.expected)
    return Message(missing_key(key), view.pointer, missing=key)


def _one_of(view: ErrorView) -> Message:
    kinds = [sub.validator_value for sub in view.context if sub.validator == "type" and not sub.path]
    wanted = " or ".join(SCHEMA_TYPES.get(k, str(k)) for k in kinds)
    return _plain(view, f"{view.field} must be {wanted}, not {type_name(view.value)}")


def _quoted_number(value: Any, expected: Any) -> bool:
    """True for a string that holds what an ``integer`` or ``number`` would be (``"3000"``)."""
    if expected not in ("integer", "number") or not isinstance(value, str):
        return False
    try:
        number = json.loads(value)
    except ValueError:
        return False
    if expected == "integer":
        return isinstance(number, int) and not isinstance(number, bool)
    return isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number)


#: A duration written with its unit: ``"3s"``, ``"2.5 s"``, ``"800ms"``.
_WITH_UNIT = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s)\s*")


def _milliseconds(value: Any) -> int | None:
    """The whole milliseconds a string with a unit means (``"3s"`` → 3000, ``"1.005s"`` → 1005) when that is
    a duration the schema allows (``$defs/step/properties/duration``), else None."""
    found = _WITH_UNIT.fullmatch(value) if isinstance(value, str) and len(value) <= 32 else None
    if found is None:
        return None

    amount = Decimal(found.group(1)) * (1000 if found.group(2) == "s" else 1)
    bounds = schema()["$defs"]["step"]["properties"]["duration"]
    if amount != amount.to_integral_value() or not bounds["minimum"] <= amount <= bounds["maximum"]:
        return None
    return int(amount)


def _type(view: ErrorView) -> Message:
    if view.expected == "integer" and isinstance(view.value, float):
        return _plain(view, f"{view.field} must be a whole number, not {view.value!r}")
    text = f"{view.field} must be {SCHEMA_TYPES.get(view.expected, view.expected)}, not {type_name(view.value)}"
    if _quoted_number(view.value, view.expected):
        text += f"; write {view.value.strip()} without the quotes"
    elif view.expected == "integer" and view.field == "duration" and _milliseconds(view.value) is not None:
        text += f"; durations are milliseconds: write {_milliseconds(view.value)}"
    elif view.expected == "string" and isinstance(view.value, int) and not isinstance(view.value, bool):
        text += f'; write "{view.value}" in quotes'  # a state value, a label: text, even when it is a number
    elif view.expected == "string" and isinstance(view.value, float):
        text += "; write it in quotes, as you want it shown"  # the digits as written: 1.10 parses as 1.1
    return _plain(view, text)


#: The pattern of a SHA-256 digest in the schema.
SHA256_PATTERN = "^[0-9a-f]{64}$"


def _digest_fault(value: str) -> str:
    """What is wrong with a string that should be a SHA-256 digest, for a value too long to read at a glance."""
    if len(value) != 64:
        return f"this one has {len(value)} characters"
    if all(c in "0123456789abcdefABCDEF" for c in value):
        return "this one has uppercase letters"
    bad = next(c for c in value if c not in "0123456789abcdef")
    return f"this one has {quote(bad)}, which is not a hexadecimal digit"


def _pattern(view: ErrorView) -> Message:
    words = PATTERN_WORDS.get(view.expected, f"the pattern {view.expected}")
    if view.on_property_name:
        return Message(f"key {quote(view.value)} must be {words}", pointer_join(*view.path, view.value), True)
    if view.expected == SHA256_PATTERN and isinstance(view.value, str):
        return _plain(view, f"{view.field} must be {words}; {_digest_fault(view.value)}")
    return _plain(view, f"{view.field} must be {words}, not {quote(str(view.value))}")


def _bound(view: ErrorView) -> Message:
    least = view.keyword == "minimum"
    if view.field == "duration" and least:
        return _plain(view, f"duration must be at least {view.expected} ms, not {view.value}: a step shorter than "
                            "that changes the figure more than three times a second (WCAG 2.2 SC 2.3.1)")
    if view.field == "duration":
        return _plain(view, f"duration must be at most {view.expected} ms (10 minutes), not {view.value}")
    return _plain(view, f"{view.field} must be {'at least' if least else 'at most'} {view.expected}, not {view.value}")


def _max_length(view: ErrorView) -> Message:
    text = f"{view.field} is {len(view.value)} characters long; the limit is {view.expected}"
    if view.on_property_name:
        return Message(text, pointer_join(*view.path, view.value), True)
    return _plain(view, text)


def _too_many(view: ErrorView) -> Message:
    return _plain(view, f"{view.field} has {len(view.value)} entries; the limit is {view.expected}")


def _min_items(view: ErrorView) -> Message:
    noun = "entry" if view.expected == 1 else "entries"
    return _plain(view, f"{view.field} must have at least {view.expected} {noun}")


def _unique(view: ErrorView) -> Message:
    seen: set[str] = set()
    duplicate = None
    for item in view.value:
        text = json.dumps(item)
        if text in seen:
            duplicate = item
            break
        seen.add(text)
    return _plain(view, f"{view.field} lists {quote(str(duplicate))} more than once")


#: Message makers by JSON Schema keyword.
MESSAGES: dict[str, Callable[[ErrorView], Message]] = {
    "oneOf": _one_of,
    "anyOf": _one_of,
    "type": _type,
    "const": lambda v: _plain(v, f"{v.field} must be {json.dumps(v.expected)}, not {shown(v.value)}"),
    "enum": lambda v: _plain(v, f"{v.field} must be one of {', '.join(json.dumps(e) for e in v.expected)}, "
                                f"not {shown(v.value)}"),
    "pattern": _pattern,
    "minimum": _bound,
    "maximum": _bound,
    "minLength": lambda v: _plain(v, f"{v.field} must not be empty"),
    "maxLength": _max_length,
    "maxItems": _too_many,
    "maxProperties": _too_many,
    "minItems": _min_items,
    "minProperties": _min_items,
    "uniqueItems": _unique,
}


def message_for(view: ErrorView, required: RequiredCounter) -> Message:
    """The :class:`Message` for one error: from :data:`MESSAGES`, ``required`` counted per object,
    else ``jsonschema``'s own text."""
    if view.keyword == "required":
        return _required(view, required)
    maker = MESSAGES.get(view.keyword)
    return maker(view) if maker else _plain(view, view.fallback)
