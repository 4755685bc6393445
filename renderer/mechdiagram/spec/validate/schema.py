"""The JSON Schema half of validation: the validators and the findings their errors become.

JSON Schema 2020-12 (``schema/mechanism.schema.json``, package data), checked by ``jsonschema``'s
Draft 2020-12 validator; its errors carry the paths and keywords the messages are made from.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, relevance

from mechdiagram.shared.assets import schema
from mechdiagram.shared.findings import Finding, pointer_join
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate.messages import ErrorView, RequiredCounter, message_for
from mechdiagram.spec.validate.wording import Suggester, quote


def inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every local ``$ref`` to ``#/$defs/...`` replaced by its target.

    In 2020-12 a ``$ref`` beside other keywords applies both, so merging the
    target with its siblings keeps the meaning; the schema has no recursive
    definitions.  Validation then skips reference lookups, about twice as fast.
    """
    if isinstance(node, list):
        return [inline_refs(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    merged: dict[str, Any] = {}
    ref = node.get("$ref")
    local = isinstance(ref, str) and ref.startswith("#/$defs/")
    if isinstance(ref, str) and local:
        merged.update(inline_refs(defs[ref[len("#/$defs/"):]], defs))
    for key, value in node.items():
        if key not in ("$ref", "$defs") or (key == "$ref" and not local):
            merged[key] = inline_refs(value, defs)
    return merged


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262 semantics for a final ``$`` (end of string only).

    JSON Schema patterns are ECMA-262 regular expressions; Python's ``re``
    also lets ``$`` match before a final newline, which would accept ``"id\\n"``.
    """
    if not validator.is_type(instance, "string"):
        return
    ecma = pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    if not re.search(ecma, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def explaining_validator() -> Any:
    """The ``jsonschema`` Draft 2020-12 validator (ECMA-262 patterns, ``$ref`` inlined) that checks a spec and
    explains its failures."""
    full = schema()
    ecma = jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # untyped in types-jsonschema
        jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})
    return ecma(inline_refs(full, full.get("$defs", {})))


def schema_is_valid(data: Any) -> bool:
    """Whether ``data`` (parsed JSON) satisfies the schema."""
    return bool(explaining_validator().is_valid(data))


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


def _field_name(path: list[str | int]) -> str:
    if not path:
        return "the spec"
    if isinstance(path[-1], int) and len(path) > 1:  # an array item: "lanes[0]", not "0"
        return f"{path[-2]}[{path[-1]}]"
    return str(path[-1])


def _unknown_keys(spec: LoadedSpec, error: ValidationError, instance: dict[str, Any], path: list[str | int],
                  suggest: Suggester, answered: set[tuple[str, str]]) -> Iterator[Finding]:
    """additionalProperties: one finding per unknown key, at the key, with the nearest known key.

    A key that is close to a required key the object lacks is that key mistyped: its finding says so,
    and ``(pointer of the object, required key)`` goes into ``answered`` so that no ``required``
    finding repeats it.
    """
    subschema = error.schema if isinstance(error.schema, dict) else {}
    allowed = list(subschema.get("properties", {}))
    lacking = [k for k in subschema.get("required", []) if k not in instance]
    for key in [k for k in instance if k not in allowed]:
        key_pointer = pointer_join(*path, key)
        line, column = spec.locate(key_pointer, key=True)
        meant = difflib.get_close_matches(key, lacking, n=1, cutoff=0.6)
        if meant:
            lacking.remove(meant[0])
            answered.add((pointer_join(*path), meant[0]))
            name = quote(meant[0])
            message = f"unknown key {quote(key)}; did you mean {name}? {name} is required and missing"
        elif key in ("from", "to") and len(path) == 2 and path[0] == "targets" and instance.get("kind") == "node":
            message = (f"unknown key {quote(key)}: a target of kind \"node\" is a box; from and to belong to a "
                       "target of kind \"path\"")
        elif allowed:
            message = f"unknown key {quote(key)}{suggest(key, allowed)}"
        else:
            message = f"unknown key {quote(key)}"
        yield Finding(spec.display, key_pointer, message, "additionalProperties", line=line, column=column)


#: Most schema errors explained for one spec: past it, the schema check stops, and one finding (rule ``more``)
#: says so (a 4 MiB spec of two million wrong list items took 260 s and 1.8 GB to explain in full).
MAX_SCHEMA_ERRORS = 1000


def schema_findings(spec: LoadedSpec, suggest: Suggester) -> list[Finding]:
    """Every schema error of ``spec.data`` as a located finding whose rule is the failing keyword, up to
    :data:`MAX_SCHEMA_ERRORS` errors; then a finding of rule ``more`` says that the check stopped there.

    A mistyped required key gives one finding (the unknown key, naming the required one), not two.
    """
    if schema_is_valid(spec.data):
        return []
    required = RequiredCounter()
    findings: list[Finding] = []
    missing: list[tuple[Finding, str]] = []
    answered: set[tuple[str, str]] = set()
    for seen, error in enumerate(explaining_validator().iter_errors(spec.data)):
        if seen == MAX_SCHEMA_ERRORS:
            findings.append(Finding(spec.display, None, f"the schema check stopped after {MAX_SCHEMA_ERRORS} "
                                    "errors; fix those and validate again", "more"))
            break
        error = _leaf(error)
        path = list(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            findings.extend(_unknown_keys(spec, error, error.instance, path, suggest, answered))
            continue
        view = ErrorView(keyword=str(error.validator), expected=error.validator_value, value=error.instance,
                         path=path, field=_field_name(path), schema_path=list(error.schema_path),
                         context=list(error.context or ()), fallback=error.message)
        said = message_for(view, required)
        line, column = spec.locate(said.pointer, key=said.on_key)
        finding = Finding(spec.display, said.pointer, said.text, view.keyword, line=line, column=column)
        if said.missing is not None:
            missing.append((finding, said.missing))
        else:
            findings.append(finding)
    return findings + [f for f, key in missing if (f.pointer or "", key) not in answered]
