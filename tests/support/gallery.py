"""Reading a gallery spec's numbers and checking them against the inputs table of its notes.

A notes source has one ``## Inputs`` section holding a markdown table ``| input | key | value |``;
``read_inputs`` returns ``{key: value}``.  ``Facts`` says, for one spec, which numbers it must state
and which it may state, computed from those inputs by the formulas of the mechanism (in
``tests/project/test_gallery_numbers.py``).  ``problems`` lists every disagreement between a spec's
text and its facts:

- every arithmetic claim written into the text (``18 + 74 = 92``, ``⌈97 ÷ 16⌉ = 7``,
  ``1000 ÷ 21.4 ≈ 46.7``) must hold, to the precision of the stated number where ``≈`` is used;
- every number tagged by a unit word (``8 pages``, ``92 ms``, a ``96-token`` prompt) or naming an
  ordinal after a word (``page 7``, ``forwards 2 to 16``) must be one of the values the facts allow
  for that word;
- in ``k of n``, ``n`` must be a total the facts allow and ``k`` at most ``n``;
- every required number must appear somewhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: A number as the specs write it: ``2,048``, ``46.7``, ``2,147,483,648``.
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_EXPR = rf"⌈?\s*(?:{NUMBER})(?:\s*⌉)?(?:\s*[+−×÷/]\s*⌈?\s*(?:{NUMBER})(?:\s*⌉)?)*"
_TRAILING = re.compile(rf"({_EXPR})\s*$")
_LEADING = re.compile(rf"^\s*({_EXPR})")
_OF = re.compile(rf"\b({NUMBER}) of ({NUMBER})\b")
#: Words allowed between a number and its unit: "31 decode forwards", "127 further selections".
_ADJECTIVE = r"(?:(?:decode|prefill|further|more|cached|prompt|answer|output|visible|running|KV|idle slot)\s+)?"
#: Text fields of a spec: the last part of a pointer, or a container whose every string is text.
_TEXT_KEYS = {"title", "description", "caption", "alt", "label"}
_TEXT_CONTAINERS = {"limitations", "stateLabels", "state", "initial"}


def number(text: str) -> float:
    """``"2,048"`` -> 2048.0."""
    return float(text.replace(",", ""))


def decimals(text: str) -> int:
    """Digits after the decimal point of a written number."""
    return len(text.split(".")[1]) if "." in text else 0


def read_inputs(notes: Path) -> dict[str, float]:
    """The ``## Inputs`` table of a notes file as ``{key: value}`` (an empty section gives ``{}``)."""
    lines = notes.read_text("utf-8").splitlines()
    start = lines.index("## Inputs") + 1
    inputs: dict[str, float] = {}
    for line in lines[start:]:
        if line.startswith("#"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) == 3 and not set(cells[2]) <= {"-", " "} and cells[1] != "key":
            inputs[cells[1]] = number(cells[2])
    return inputs


def texts(spec: dict) -> Iterator[tuple[str, str]]:
    """Every text an author wrote, as ``(JSON Pointer, text)``, in file order."""
    def walk(value: object, pointer: list[str]) -> Iterator[tuple[str, str]]:
        if isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, [*pointer, str(key)])
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, [*pointer, str(index)])
        elif isinstance(value, str) and pointer and pointer[0] != "sources" and (
                pointer[-1] in _TEXT_KEYS or any(part in _TEXT_CONTAINERS for part in pointer[:-1])):
            yield "/" + "/".join(pointer), value
    yield from walk(spec, [])


def evaluate(expression: str) -> float:
    """The value of an expression of numbers, + − × ÷ / and ⌈ ⌉ (ceiling)."""
    python = re.sub(NUMBER, lambda m: repr(number(m.group(0))), expression)
    python = python.replace("⌈", "ceil(").replace("⌉", ")").replace("×", "*").replace("÷", "/").replace("−", "-")
    return float(eval(python, {"__builtins__": {}, "ceil": math.ceil}))


def is_plain(expression: str) -> bool:
    return re.fullmatch(rf"\s*(?:{NUMBER})\s*", expression) is not None


def claims(text: str) -> Iterator[tuple[str, str, str]]:
    """Arithmetic claims in ``text``: ``(left, sign, right)`` around each ``=`` or ``≈``."""
    parts = re.split(r"([=≈])", text)
    for i in range(1, len(parts) - 1, 2):
        left, right = _TRAILING.search(parts[i - 1]), _LEADING.search(parts[i + 1])
        if left and right and not (is_plain(left.group(1)) and is_plain(right.group(1))):
            yield left.group(1).strip(), parts[i], right.group(1).strip()


def false_claims(text: str) -> list[str]:
    """The arithmetic claims in ``text`` that do not hold (``≈``: to the stated number's precision)."""
    found = []
    for left, sign, right in claims(text):
        plain = right if is_plain(right) else left if is_plain(left) else None
        if plain is None:
            holds = math.isclose(evaluate(left), evaluate(right), rel_tol=1e-12)
        else:
            holds = close(plain, evaluate(left if plain is right else right), approximate=sign == "≈")
        if not holds:
            found.append(f"{left} {sign} {right} does not hold")
    return found


def close(stated: str, value: float, approximate: bool = True) -> bool:
    """Whether ``value`` written to ``stated``'s precision is ``stated`` (exactly, when not approximate)."""
    if not approximate:
        return math.isclose(number(stated), value, rel_tol=1e-12, abs_tol=1e-9)
    return abs(number(stated) - value) <= 0.5 * 10 ** -decimals(stated) + 1e-9


@dataclass
class Facts:
    """What one spec may and must state, computed from its inputs.

    ``before``: unit word -> values a number written before it may have (``8 pages``);
    ``after``: word -> values a number written after it may have (``page 7``, ``forwards 2 to 16``);
    ``totals``: values ``n`` of ``k of n`` may have; ``required``: numbers the spec must state somewhere.
    """

    before: dict[str, set[float]] = field(default_factory=dict)
    after: dict[str, set[float]] = field(default_factory=dict)
    totals: set[float] = field(default_factory=set)
    required: set[float] = field(default_factory=set)


def stated(text: str, facts: Facts) -> Iterator[tuple[str, str, str]]:
    """Numbers in ``text`` that ``facts`` has a word for: ``("before" or "after", word, number)``.

    Words are regular expressions; the longest word before a number wins (``tokens per second``
    over ``tokens``).  A number followed by an operator belongs to an arithmetic claim instead.
    """
    taken: set[int] = set()
    for word in sorted(facts.before, key=len, reverse=True):
        for match in re.finditer(rf"({NUMBER})(?:-|\s+){_ADJECTIVE}(?:{word})\b", text):
            if match.start(1) not in taken:
                taken.add(match.start(1))
                yield "before", word, match.group(1)
    for word in facts.after:
        pattern = rf"(?<!\w)(?:{word})\s+({NUMBER})(?:\s*(?:to|–)\s*({NUMBER}))?(?!\s*[+−×÷/]|\d|,\d)"
        for match in re.finditer(pattern, text, re.IGNORECASE):
            yield from (("after", word, value) for value in match.groups() if value is not None)


def problems(spec: dict, facts: Facts) -> list[str]:
    """Every disagreement between ``spec``'s text and ``facts``, one message each (empty when it agrees)."""
    found: list[str] = []
    seen: list[str] = []
    for pointer, text in texts(spec):
        seen.extend(re.findall(NUMBER, text))
        found.extend(f"{pointer}: {claim}" for claim in false_claims(text))
        for where, word, value in stated(text, facts):
            allowed = (facts.before if where == "before" else facts.after)[word]
            if not any(close(value, v) for v in allowed):
                found.append(f"{pointer}: {value} ({where} {word!r}) is none of {sorted(allowed)}")
        for k, n in _OF.findall(text):
            if not any(close(n, v) for v in facts.totals) or number(k) > number(n):
                found.append(f"{pointer}: {k} of {n} disagrees with the totals {sorted(facts.totals)}")
    for value in sorted(facts.required):
        if not any(close(text, value) for text in seen):
            found.append(f"the spec never states {value:g}")
    return found
