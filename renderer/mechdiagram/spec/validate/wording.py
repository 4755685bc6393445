"""How validation messages show author text, and the "did you mean" suggester of one run."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

#: Names of JSON types as messages say them, by the Python type :mod:`json` parses them to.
_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (dict, "an object"), (list, "an array"), (str, "a string"), (bool, "a boolean"),
    (int, "an integer"), (float, "a number"), (type(None), "null"),
)

#: Names of JSON Schema ``type`` values as messages say them.
SCHEMA_TYPES = {"object": "an object", "array": "an array", "string": "a string", "boolean": "a boolean",
                "integer": "an integer", "number": "a number", "null": "null"}


def quote(text: str, limit: int = 60) -> str:
    """Quote author text for a message: JSON-escaped (no raw control characters), shortened to ``limit``."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    # A lone surrogate ("\ud800" in the JSON) stays an escape: raw, it cannot be printed as UTF-8.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def type_name(value: Any) -> str:
    """The JSON type of a parsed value as a message says it (``"an object"``)."""
    # isinstance, not type(): parsed objects are a dict subclass (load._PairsDict); bool before int.
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), type(value).__name__)


def shown(value: Any) -> str:
    """A JSON value for a message: strings quoted once, other values as JSON, both shortened."""
    if isinstance(value, str):
        return quote(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


#: Comparisons one validation run may spend on "did you mean" guesses; past it, suggestions
#: list the valid names without guessing, so thousands of bad references cannot take minutes.
SUGGESTION_BUDGET = 200_000


def _listed(name: str) -> str:
    """A valid name as a list of them shows it: plain, unless it holds a space, a comma, a quote or a
    character that does not print (a line break), when it is quoted as :func:`quote` does."""
    return name if name.isprintable() and not any(c in name for c in ' ,"') else quote(name, 40)


class Suggester:
    """Suggests the nearest valid name for a misspelt one, within a budget of comparisons.

    Each validation run makes its own, so runs in threads (a preview server) never share a budget.
    """

    def __init__(self, budget: int = SUGGESTION_BUDGET) -> None:
        self.budget = budget

    def __call__(self, word: str, choices: Sequence[str], noun: str = "keys") -> str:
        """``'; did you mean "x"?'``, or a list of the valid ``choices`` (at most 12 shown)."""
        close: list[str] = []
        if self.budget >= len(choices):
            self.budget -= len(choices)

            close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
        if close:
            return f"; did you mean {quote(close[0])}?"
        if not choices:
            return f"; there are no {noun}"
        listed = ", ".join(map(_listed, choices[:12])) + (f", … ({len(choices)} in all)" if len(choices) > 12 else "")
        return f"; valid {noun}: {listed}"
