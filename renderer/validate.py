"""Stage 2, validate: the JSON Schema and the cross-reference rules it cannot express.

:func:`validate` returns every finding of a parsed spec at once, each with its
JSON Pointer, line and column.  Schema findings use JSON Schema 2020-12
(``schema/mechanism.schema.json``) through ``jsonschema``, with messages
rewritten per keyword so an author can act on them.  The rules after the
schema are listed in :data:`RULES`.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

import jsonschema
from jsonschema.exceptions import ValidationError, relevance

from .errors import Finding, pointer_join
from .load import LoadedSpec

#: Most entries (``active`` plus ``paths`` items) over all steps of a spec; beyond
#: it a spec is refused rather than rendered slowly.
MAX_FRAME_ENTRIES = 20000
#: Most node drawings (nodes times scenarios: each scenario's SVG draws every node, and the HTML
#: inlines every scenario), which bounds the size of the output.
MAX_NODE_DRAWINGS = 10000
#: Most characters of node labels drawn over all scenarios (label text times scenarios).
MAX_LABEL_TEXT = 500000
#: Most steps over all scenarios of a spec.
MAX_TOTAL_STEPS = 2000

#: The cross-reference rules, by rule id, as documented in the README.
RULES = {
    "unknown-target": "every key in active, paths and unselected names a target",
    "not-a-path": "every key in paths names a target of kind path",
    "path-endpoint": "a path's from and to name node targets",
    "duplicate-target-id": "target ids are unique",
    "duplicate-scenario-id": "scenario ids are unique",
    "unknown-state-key": "state and initial keys are keys of stateLabels",
    "unknown-lane": "layout.lanes names lanes that the target keys make",
    "layout-position": "layout.positions names node targets, one per cell",
    "xml-character": "text holds only characters that XML 1.0 allows",
    "bidi-control": "text closes every direction embedding, override and isolate it opens",
    "invisible-text": "text has at least one visible character",
    "path-in-active": "active lists nodes; paths are animated through a step's paths",
    "limit": "a spec stays within the size limits",
}

_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: Characters XML 1.0 allows but discourages (section 2.2) and HTML makes parse errors: DEL, the C1
#: controls and the noncharacters.  They are refused too, so no output file holds one.
_HTML_FORBIDDEN = re.compile("[\x7f-\x9f\ufdd0-\ufdef" + "".join(
    chr(plane << 16 | 0xFFFE) + chr(plane << 16 | 0xFFFF) for plane in range(1, 17)) + "]")
_LANE_KEY = re.compile(r"^(.*?[^0-9])([0-9]+)$")

_PATTERN_WORDS = {
    "^[0-9a-f]{64}$": "64 lowercase hexadecimal digits (a SHA-256 digest)",
    "^[A-Za-z_][A-Za-z0-9_.-]*$": "a letter or '_', then letters, digits, '_', '.' or '-'",
    "^[A-Za-z][A-Za-z0-9_-]*$": "a letter, then letters, digits, '_' or '-'",
    "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$": "a BCP 47 language tag such as en or pt-BR",
    "\\S": "visible text, not only white space",
}
_SCHEMA_TYPES = {"object": "an object", "array": "an array", "string": "a string", "boolean": "a boolean",
                 "integer": "an integer", "number": "a number", "null": "null"}
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
               int: "an integer", float: "a number", type(None): "null"}


def quote(text: str, limit: int = 60) -> str:
    """Quote author text for a message: JSON-escaped (no raw control characters), shortened."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    # A lone surrogate ("\ud800" in the JSON) stays an escape: raw, it cannot be printed as UTF-8.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def _type_name(value: Any) -> str:
    # isinstance, not type(): parsed objects are a dict subclass (load._PairsDict); bool before int.
    return next((name for kind, name in _JSON_TYPES.items() if isinstance(value, kind)), type(value).__name__)


def _shown(value: Any) -> str:
    """A JSON value for a message: strings quoted once, other values as JSON, both shortened."""
    if isinstance(value, str):
        return quote(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


#: Comparisons one :func:`validate` may spend on "did you mean" guesses; past it, suggestions
#: list the valid names without guessing, so thousands of bad references cannot take minutes.
SUGGESTION_BUDGET = 200_000
_suggestion_budget = [SUGGESTION_BUDGET]


def suggest(word: str, choices: list[str], noun: str = "keys") -> str:
    """Return ``"; did you mean "x"?"`` or a list of the valid ``choices``."""
    close: list[str] = []
    if _suggestion_budget[0] >= len(choices):
        _suggestion_budget[0] -= len(choices)
        close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {quote(close[0])}?"
    if not choices:
        return f"; there are no {noun}"
    shown = ", ".join(choices[:12]) + (f", … ({len(choices)} in all)" if len(choices) > 12 else "")
    return f"; valid {noun}: {shown}"


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The mechanism spec JSON Schema (package data), parsed."""
    try:
        folder = resources.files("renderer.schema")
    except ModuleNotFoundError:  # an editable install of a source checkout: schema/ beside renderer/
        folder = resources.files("renderer").joinpath("..", "schema")
    return json.loads(folder.joinpath("mechanism.schema.json").read_text("utf-8"))


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every local ``$ref`` to ``#/$defs/...`` replaced by its target.

    In 2020-12 a ``$ref`` beside other keywords applies both, so merging the
    target with its siblings keeps the meaning; the schema has no recursive
    definitions.  Validation then skips reference lookups, about twice as fast.
    """
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    merged: dict[str, Any] = {}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        merged.update(_inline_refs(defs[ref[len("#/$defs/"):]], defs))
    for key, value in node.items():
        if key not in ("$ref", "$defs") or (key == "$ref" and not ref.startswith("#/$defs/")):
            merged[key] = _inline_refs(value, defs)
    return merged


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262 semantics for a final ``$`` (end of string only).

    JSON Schema patterns are ECMA-262 regular expressions; Python's ``re``
    also lets ``$`` match before a final newline, which would accept ``"id\n"``.
    """
    if not validator.is_type(instance, "string"):
        return
    ecma = pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    if not re.search(ecma, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    full = schema()
    ecma = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})
    return ecma(_inline_refs(full, full.get("$defs", {})))


@lru_cache(maxsize=1)
def _fast_validator() -> Any:
    """jsonschema-rs's validator for the yes/no answer, or ``None`` where it is not installed.

    It answers a valid spec about a hundred times faster than ``jsonschema``,
    which is still what explains an invalid one (its errors carry the paths
    and keywords the messages are made from).  The test suite checks that the
    two agree.
    """
    try:
        import jsonschema_rs
    except ImportError:  # no wheel for this platform: jsonschema alone is correct, only slower
        return None
    return jsonschema_rs.Draft202012Validator(schema())


def schema_is_valid(data: Any) -> bool | None:
    """The fast validator's verdict on ``data``, or ``None`` when it is not available."""
    fast = _fast_validator()
    if fast is None:
        return None
    try:
        return fast.is_valid(data)
    except (UnicodeError, ValueError, TypeError, OverflowError):  # e.g. a lone surrogate: let jsonschema explain
        return None


def _leaf(error: ValidationError) -> ValidationError:
    """For oneOf/anyOf, the most relevant branch's error (the descent of jsonschema's best_match)."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        if all(any(sub.validator == "type" and not sub.path for sub in branch) for branch in branches.values()):
            return error  # no branch takes a value of this type: the message names the types that would do
        # min, as best_match descends: prefers the branch whose type matches the instance.
        error = min(error.context, key=relevance)
    return error


def _schema_findings(spec: LoadedSpec) -> Iterator[Finding]:
    if schema_is_valid(spec.data):
        return
    required_seen: dict[tuple, int] = {}  # jsonschema reports each missing key of an object as its own error
    for error in _validator().iter_errors(spec.data):
        error = _leaf(error)
        path = list(error.absolute_path)
        pointer = pointer_join(*path)
        keyword, expected, value = error.validator, error.validator_value, error.instance
        if not path:
            field = "the spec"
        elif isinstance(path[-1], int) and len(path) > 1:  # an array item: "lanes[0]", not "0"
            field = f"{path[-2]}[{path[-1]}]"
        else:
            field = str(path[-1])
        on_key = False
        if keyword == "additionalProperties" and isinstance(value, dict):
            allowed = list(error.schema.get("properties", {}))
            for key in [k for k in value if k not in allowed]:
                key_pointer = pointer_join(*path, key)
                line, column = spec.locate(key_pointer, key=True)
                if allowed:
                    message = f"unknown key {quote(key)}{suggest(key, allowed)}"
                else:
                    message = f"unknown key {quote(key)}"
                yield Finding(spec.display, key_pointer, message, keyword, line=line, column=column)
            continue
        if keyword == "required":
            missing = [k for k in expected if isinstance(value, dict) and k not in value]
            nth = required_seen.get((pointer, tuple(error.schema_path)), 0)
            required_seen[(pointer, tuple(error.schema_path))] = nth + 1
            message = f"missing required key {quote(missing[nth] if nth < len(missing) else str(expected))}"
        elif keyword in ("oneOf", "anyOf"):
            kinds = [sub.validator_value for sub in error.context if sub.validator == "type" and not sub.path]
            names = {"object": "an object", "array": "an array", "string": "a string", "boolean": "a boolean",
                     "integer": "an integer", "number": "a number", "null": "null"}
            message = f"{field} must be {' or '.join(names.get(k, str(k)) for k in kinds)}, not {_type_name(value)}"
        elif keyword == "type":
            message = f"{field} must be {_SCHEMA_TYPES.get(expected, expected)}, not {_type_name(value)}"
            if expected == "integer" and isinstance(value, float):
                message = f"{field} must be a whole number, not {value!r}"
        elif keyword == "const":
            message = f"{field} must be {json.dumps(expected)}, not {_shown(value)}"
        elif keyword == "enum":
            message = f"{field} must be one of {', '.join(json.dumps(e) for e in expected)}, not {_shown(value)}"
        elif keyword == "pattern":
            words = _PATTERN_WORDS.get(expected, f"the pattern {expected}")
            if "propertyNames" in error.schema_path:
                on_key = True
                pointer = pointer_join(*path, value)
                message = f"key {quote(value)} must be {words}"
            else:
                message = f"{field} must be {words}, not {quote(str(value))}"
        elif keyword in ("minimum", "maximum") and field == "duration":
            if keyword == "minimum":
                message = (f"duration must be at least {expected} ms, not {value}: a step shorter than that "
                           "changes the figure more than three times a second (WCAG 2.2 SC 2.3.1)")
            else:
                message = f"duration must be at most {expected} ms (10 minutes), not {value}"
        elif keyword in ("minimum", "maximum"):
            message = f"{field} must be {'at least' if keyword == 'minimum' else 'at most'} {expected}, not {value}"
        elif keyword == "minLength":
            message = f"{field} must not be empty"
        elif keyword == "maxLength":
            if "propertyNames" in error.schema_path:
                on_key = True
                pointer = pointer_join(*path, value)
            message = f"{field} is {len(value)} characters long; the limit is {expected}"
        elif keyword in ("maxItems", "maxProperties"):
            message = f"{field} has {len(value)} entries; the limit is {expected}"
        elif keyword in ("minItems", "minProperties"):
            message = f"{field} must have at least {expected} {'entry' if expected == 1 else 'entries'}"
        elif keyword == "uniqueItems":
            seen: set[str] = set()
            dup = next((v for v in value if (json.dumps(v) in seen) or seen.add(json.dumps(v))), None)
            message = f"{field} lists {quote(str(dup))} more than once"
        else:
            message = error.message
        line, column = spec.locate(pointer, key=on_key)
        yield Finding(spec.display, pointer, message, keyword, line=line, column=column)


def _strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str, bool]]:
    """Every string in the data with its path; the flag says it is an object key."""
    stack = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            yield where, node, False
        elif isinstance(node, dict):
            for k, v in reversed(list(node.items())):
                yield where + (k,), k, True
                stack.append((v, where + (k,)))
        elif isinstance(node, list):
            stack.extend((v, where + (i,)) for i, v in reversed(list(enumerate(node))))


_BLANKS = frozenset("\u2800\u3164\uffa0\u115f\u1160\u180e")  # blank symbols that are not white space


def _visible(char: str) -> bool:
    """Whether a character draws something: not white space, a format or combining character, or a blank."""
    return not (char.isspace() or char in _BLANKS or unicodedata.category(char) in ("Cf", "Mn", "Me", "Cc", "Zs"))


_BIDI_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, closed by PDF U+202C
_BIDI_ISOLATES = "\u2066\u2067\u2068"  # LRI RLI FSI, closed by PDI U+2069


_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _unclosed_bidi(text: str) -> str | None:
    """The first explicit directional formatting character of ``text`` left open (Unicode UAX #9), or None."""
    if not _BIDI_CONTROLS.search(text):
        return None
    stack: list[str] = []
    for char in text:
        if char in _BIDI_EMBEDDINGS or char in _BIDI_ISOLATES:
            stack.append(char)
        elif char == "\u202c" and stack and stack[-1] in _BIDI_EMBEDDINGS:
            stack.pop()
        elif char == "\u2069" and any(c in _BIDI_ISOLATES for c in stack):  # a PDI with no open isolate is ignored
            while stack.pop() not in _BIDI_ISOLATES:
                pass
    return stack[0] if stack else None


class _Rules:
    """Collects the cross-reference findings of one spec (see :data:`RULES`)."""

    def __init__(self, spec: LoadedSpec) -> None:
        self.spec = spec
        self.findings: list[Finding] = []

    def add(self, path: tuple, message: str, rule: str, *, key: bool = False) -> None:
        pointer = pointer_join(*path)
        line, column = self.spec.locate(pointer, key=key)
        self.findings.append(Finding(self.spec.display, pointer, message, rule, line=line, column=column))

    def run(self) -> list[Finding]:
        data = self.spec.data
        self.has_targets = isinstance(data.get("targets"), dict)
        self.text()
        targets = data.get("targets") if isinstance(data.get("targets"), dict) else {}
        targets = {k: v for k, v in targets.items() if isinstance(v, dict)}
        labels = data.get("stateLabels") if isinstance(data.get("stateLabels"), dict) else {}
        self.kinds = {k: v.get("kind") for k, v in targets.items()}
        nodes = [k for k, v in targets.items() if v.get("kind") == "node"]  # an unknown kind is neither
        paths = [k for k, v in targets.items() if v.get("kind") == "path"]
        self.target_ids(targets)
        self.path_endpoints(targets, nodes)
        scenarios = data.get("scenarios") if isinstance(data.get("scenarios"), list) else []
        self.scenarios(scenarios, list(targets), paths, list(labels))
        layout = data.get("layout")
        if isinstance(layout, dict):
            self.layout(layout, nodes, targets)
        return self.findings

    def text(self) -> None:
        for path, text, is_key in _strings(self.spec.data):
            if not is_key and text.strip() and not any(_visible(char) for char in text):
                self.add(path, f"text {quote(text)} has no visible character (only spaces, format characters or "
                         "blank symbols); write visible text", "invisible-text")
                continue
            bad = _XML_FORBIDDEN.search(text)
            if bad:
                char = bad.group()
                what = "a control character" if ord(char) < 0x20 else "a character"
                self.add(path, f"{'key' if is_key else 'text'} {quote(text)} contains U+{ord(char):04X}, "
                         f"{what} that XML 1.0 does not allow in SVG or HTML; remove it", "xml-character", key=is_key)
                continue
            bad = _HTML_FORBIDDEN.search(text)
            if bad:
                char = bad.group()
                what = "a control character" if ord(char) <= 0x9F else "a noncharacter"
                self.add(path, f"{'key' if is_key else 'text'} {quote(text)} contains U+{ord(char):04X}, "
                         f"{what} that XML 1.0 discourages and HTML does not allow; remove it", "xml-character",
                         key=is_key)
                continue
            unclosed = _unclosed_bidi(text)
            if unclosed:
                self.add(path, f"{'key' if is_key else 'text'} {quote(text)} opens U+{ord(unclosed):04X} "
                         f"{unicodedata.name(unclosed)} without closing it, which would reverse the text after it "
                         "in the figure and player; close it (U+202C or U+2069) or remove it", "bidi-control",
                         key=is_key)

    def target_ids(self, targets: dict[str, dict]) -> None:
        owner: dict[str, str] = {}
        for key, target in targets.items():
            tid = target.get("id")
            if not isinstance(tid, str):
                continue
            if tid in owner:
                self.add(("targets", key, "id"), f"id {quote(tid)} is already the id of target {quote(owner[tid])}; "
                         "target ids must be unique", "duplicate-target-id")
            else:
                owner[tid] = key

    def path_endpoints(self, targets: dict[str, dict], nodes: list[str]) -> None:
        for key, target in targets.items():
            if target.get("kind") != "path":
                continue
            for end in ("from", "to"):
                ref = target.get(end)
                if not isinstance(ref, str) or ref in nodes:
                    continue
                if ref in targets and targets[ref].get("kind") != "path":
                    continue  # a target of unknown kind: its kind finding says enough
                if ref in targets:
                    message = f"{end} {quote(ref)} is a path; a path runs between node targets"
                else:
                    message = f"{end} {quote(ref)} is not a node target{suggest(ref, nodes, 'node targets')}"
                self.add(("targets", key, end), message, "path-endpoint")
            if isinstance(target.get("from"), str) and target.get("from") == target.get("to"):
                self.add(("targets", key, "to"), f"to {quote(target['to'])} is also the path's from; a path runs "
                         "between two different nodes", "path-endpoint")

    def refs(self, base: tuple, keys: Any, valid: list[str], rule_noun: str) -> None:
        if not isinstance(keys, list) or not self.has_targets:
            return  # without a targets object every reference would be reported; the schema finding says it all
        for i, ref in enumerate(keys):
            if isinstance(ref, str) and ref not in valid:
                self.add(base + (i,), f"{quote(ref)} is not a target{suggest(ref, valid, rule_noun)}", "unknown-target")

    def scenarios(self, scenarios: list, targets: list[str], paths: list[str], labels: list[str]) -> None:
        seen: dict[str, int] = {}
        total_steps = 0
        entries = 0
        for s, scenario in enumerate(scenarios):
            if not isinstance(scenario, dict):
                continue
            sid = scenario.get("id")
            if isinstance(sid, str):
                folded = sid.lower()  # scenario ids name files: Main and main collide on many file systems
                if folded in seen:
                    first = seen[folded]
                    same = "is already" if scenarios[first].get("id") == sid else "differs only in case from"
                    self.add(("scenarios", s, "id"), f"scenario id {quote(sid)} {same} the id of scenario "
                             f"{first + 1} (/scenarios/{first}); scenario ids must be unique, ignoring case",
                             "duplicate-scenario-id")
                else:
                    seen[folded] = s
            self.refs(("scenarios", s, "unselected"), scenario.get("unselected"), targets, "targets")
            self.state_keys(("scenarios", s, "initial"), scenario.get("initial"), labels)
            steps = scenario.get("steps") if isinstance(scenario.get("steps"), list) else []
            total_steps += len(steps)
            for n, step in enumerate(steps):
                if not isinstance(step, dict):
                    continue
                base = ("scenarios", s, "steps", n)
                self.refs(base + ("active",), step.get("active"), targets, "targets")
                for i, ref in enumerate(step.get("active") if isinstance(step.get("active"), list) else []):
                    if isinstance(ref, str) and self.kinds.get(ref) == "path":
                        self.add(base + ("active", i), f"{quote(ref)} is a path; active lists nodes to highlight, "
                                 "paths lists the paths to animate: move it to paths", "path-in-active")
                listed = step.get("paths")
                if isinstance(listed, list) and self.has_targets:
                    for i, ref in enumerate(listed):
                        if not isinstance(ref, str) or ref in paths:
                            continue
                        if ref in targets and self.kinds.get(ref) != "node":
                            continue  # a target of unknown kind: its kind finding says enough
                        if ref in targets:
                            message = f"{quote(ref)} is a node; paths lists path targets{suggest(ref, paths, 'path targets')}"
                            self.add(base + ("paths", i), message, "not-a-path")
                        else:
                            self.add(base + ("paths", i), f"{quote(ref)} is not a target{suggest(ref, paths, 'path targets')}",
                                     "unknown-target")
                self.state_keys(base + ("state",), step.get("state"), labels)
                entries += sum(len(step.get(k)) for k in ("active", "paths") if isinstance(step.get(k), list))
        for message in _limit_messages(total_steps, entries):
            self.add(("scenarios",), message, "limit")

    def state_keys(self, base: tuple, values: Any, labels: list[str]) -> None:
        if not isinstance(values, dict) or not isinstance(self.spec.data.get("stateLabels"), dict):
            return  # without a stateLabels object every key would be reported; the schema finding says it all
        for key in values:
            if key not in labels:
                self.add(base + (key,), f"{quote(key)} is not a stateLabels key{suggest(key, labels, 'stateLabels keys')}",
                         "unknown-state-key", key=True)

    def layout(self, layout: dict, nodes: list[str], targets: dict[str, dict]) -> None:
        lanes: list[str] = []
        for key in nodes:
            match = _LANE_KEY.match(key)
            if match and match.group(1) not in lanes:
                lanes.append(match.group(1))
        loose = [key for key in nodes if not _LANE_KEY.match(key)]
        if layout.get("lanes") and loose:
            self.add(("layout", "lanes"), f"lanes apply to a grid, where every node key is <lane><index>, but "
                     f"{', '.join(quote(k) for k in loose[:5])} {'is' if len(loose) == 1 else 'are'} not; rename "
                     "them or remove lanes", "unknown-lane")
        listed: set[str] = set()
        for i, item in enumerate(layout.get("lanes", []) if isinstance(layout.get("lanes"), list) else []):
            key = item if isinstance(item, str) else item.get("key") if isinstance(item, dict) else None
            if not isinstance(key, str):
                continue
            where = ("layout", "lanes", i) if isinstance(item, str) else ("layout", "lanes", i, "key")
            if key in listed:
                self.add(where, f"lane {quote(key)} is listed more than once", "unknown-lane")
            elif key not in lanes:
                self.add(where, f"lane {quote(key)} has no targets{suggest(key, lanes, 'lanes')}", "unknown-lane")
            listed.add(key)
        positions = layout.get("positions") if isinstance(layout.get("positions"), dict) else {}
        cells: dict[tuple, str] = {}
        for key, cell in positions.items():
            if key not in nodes:
                what = "a path" if key in targets else "not a target"
                self.add(("layout", "positions", key), f"{quote(key)} is {what}; positions place node targets"
                         + (suggest(key, nodes, "node targets") if key not in targets else ""), "layout-position", key=True)
                continue
            if isinstance(cell, dict) and isinstance(cell.get("row"), int) and isinstance(cell.get("column"), int):
                spot = (cell["row"], cell["column"])
                if spot in cells:
                    self.add(("layout", "positions", key), f"{quote(key)} is placed in row {spot[0]}, column {spot[1]}, "
                             f"where {quote(cells[spot])} already is", "layout-position", key=True)
                cells.setdefault(spot, key)


def _auto_cell_collisions(spec: LoadedSpec) -> list[Finding]:
    """``layout.positions`` cells where the automatic layout already puts another node (rule layout-position)."""
    from .layout import grid_cells
    from .model import spec_from_data

    model = spec_from_data(spec.data)
    positions = model.layout.positions
    cells, _ = grid_cells(model)
    automatic: dict[tuple[int, int], str] = {}
    findings = []
    for key, spot in cells.items():
        if key in positions:
            continue
        if spot in automatic:  # stage0 and stage00: the same lane and index
            pointer = pointer_join("targets", key)
            line, column = spec.locate(pointer, key=True)
            findings.append(Finding(spec.display, pointer,
                                    f"{quote(key)} falls in the same cell as {quote(automatic[spot])} (row {spot[0]}, "
                                    f"column {spot[1]}): their keys name the same lane and index; rename one or "
                                    "place it with layout.positions", "layout-position", line=line, column=column))
        automatic.setdefault(spot, key)
    for key, spot in positions.items():
        if spot in automatic:
            pointer = pointer_join("layout", "positions", key)
            line, column = spec.locate(pointer, key=True)
            findings.append(Finding(spec.display, pointer,
                                    f"{quote(key)} is placed in row {spot[0]}, column {spot[1]}, where the automatic "
                                    f"layout puts {quote(automatic[spot])}; choose a free cell or place both",
                                    "layout-position", line=line, column=column))
    return findings


def _limit_messages(total_steps: int, entries: int, drawings: int = 0, label_text: int = 0) -> list[str]:
    messages = []
    if drawings > MAX_NODE_DRAWINGS:
        messages.append(f"the scenarios draw {drawings} nodes in all (nodes times scenarios); the limit is "
                        f"{MAX_NODE_DRAWINGS}: split the spec")
    if label_text > MAX_LABEL_TEXT:
        messages.append(f"the scenarios draw {label_text} characters of node labels in all (label text times "
                        f"scenarios); the limit is {MAX_LABEL_TEXT}: shorten the labels or split the spec")
    if total_steps > MAX_TOTAL_STEPS:
        messages.append(f"the scenarios have {total_steps} steps in all; the limit is {MAX_TOTAL_STEPS}")
    if entries > MAX_FRAME_ENTRIES:
        messages.append(f"the steps list {entries} active targets and paths in all; the limit is {MAX_FRAME_ENTRIES}")
    return messages


def _over_limits(spec: LoadedSpec) -> list[Finding]:
    """The size limits (rule ``limit``), counted before the schema runs so that an oversized spec is refused at once."""
    scenarios = spec.data.get("scenarios")
    steps = [step for scenario in (scenarios if isinstance(scenarios, list) else [])
             if isinstance(scenario, dict) and isinstance(scenario.get("steps"), list)
             for step in scenario["steps"] if isinstance(step, dict)]
    entries = sum(len(step[k]) for step in steps for k in ("active", "paths") if isinstance(step.get(k), list))
    targets = spec.data.get("targets")
    nodes = [t for t in targets.values() if isinstance(t, dict)] if isinstance(targets, dict) else []
    count = len(scenarios) if isinstance(scenarios, list) else 0
    label_text = sum(len(t["label"]) for t in nodes if isinstance(t.get("label"), str))
    messages = _limit_messages(len(steps), entries, len(nodes) * count, label_text * count)
    if not messages:
        return []
    line, column = spec.locate("/scenarios")
    return [Finding(spec.display, "/scenarios", message, "limit", line=line, column=column) for message in messages]


def validate(spec: LoadedSpec) -> list[Finding]:
    """Return all schema and cross-reference findings of a parsed spec.

    ``spec.data`` must be a dict (a spec that parsed).  Findings are sorted by
    line, column and JSON Pointer; an empty list means the spec is valid.
    """
    _suggestion_budget[0] = SUGGESTION_BUDGET
    over = _over_limits(spec)
    if over:  # the other checks would take long on a spec this size, and it is refused anyway
        return over
    findings = list(_schema_findings(spec)) + _Rules(spec).run()
    if not findings:  # needs a valid spec: it runs the layout's own placement rules
        findings = _auto_cell_collisions(spec)
    # A target's kind fails both the enum of kinds and the const of the shape chosen by if/then/else;
    # the enum says all there is to say.
    enums = {f.pointer for f in findings if f.rule == "enum"}
    findings = [f for f in findings if not (f.rule == "const" and f.pointer in enums)]
    # An empty text fails minLength and the visible-text pattern; "must not be empty" says it.
    empties = {f.pointer for f in findings if f.rule == "minLength"}
    findings = [f for f in findings if not (f.rule == "pattern" and f.pointer in empties)]
    unique = {(f.pointer, f.message): f for f in findings}
    return sorted(unique.values(), key=lambda f: (f.line or 0, f.column or 0, f.pointer or "", f.message))
