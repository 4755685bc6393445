"""The schema's editor annotations (title, default, examples) are right, and change no verdict."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from mechdiagram.spec.load import parse_text
from mechdiagram.spec.validate import validate
from support.specs import MECHANISMS, ROOT, TESTS

SCHEMA = json.loads((ROOT / "schema" / "mechanism.schema.json").read_text("utf-8"))
ANNOTATIONS = ("title", "default", "examples")


def _annotated(node, where="#"):
    """(pointer, subschema) of every subschema with a default or examples."""
    if isinstance(node, dict):
        if "default" in node or "examples" in node:
            yield where, node
        for key, value in node.items():
            yield from _annotated(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _annotated(value, f"{where}/{i}")


def _validator(sub: dict) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**sub, "$defs": SCHEMA["$defs"]})


def test_every_default_and_example_is_valid_where_it_stands():
    annotated = list(_annotated(SCHEMA))
    assert len(annotated) >= 15
    for pointer, sub in annotated:
        values = ([sub["default"]] if "default" in sub else []) + sub.get("examples", [])
        assert values, pointer
        for value in values:
            errors = list(_validator(sub).iter_errors(value))
            assert errors == [], f"{pointer}: {value!r}: {errors[0].message}"
    # The check can fail: a default that breaks its own subschema is caught.
    assert list(_validator({"type": "array", "maxItems": 1}).iter_errors([1, 2]))


def test_definitions_have_titles_and_optional_lists_default_to_empty():
    assert all(isinstance(d.get("title"), str) and d["title"] for d in SCHEMA["$defs"].values())
    optional_lists = {"sources": SCHEMA["properties"]["sources"],
                      "limitations": SCHEMA["properties"]["limitations"],
                      "unselected": SCHEMA["$defs"]["scenario"]["properties"]["unselected"],
                      "active": SCHEMA["$defs"]["step"]["properties"]["active"],
                      "paths": SCHEMA["$defs"]["step"]["properties"]["paths"]}
    for name, sub in optional_lists.items():
        assert sub["default"] == [], name
    assert SCHEMA["$defs"]["step"]["properties"]["duration"]["examples"] == [2000]


def _strip(node):
    if isinstance(node, dict):
        # An annotation's value is never an object, except a default or an example: a key named
        # "title" whose value is an object is the spec's own title property.
        return {k: _strip(v) for k, v in node.items()
                if not (k in ANNOTATIONS and (k != "title" or not isinstance(v, dict)))}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


#: The negative corpus's specs that parse (the others never reach the schema) and the project's own.
SPECS = [p for p in sorted((TESTS / "spec" / "validate" / "cases" / "negative").glob("*.mechanism.json"))
         if not p.name.startswith("parse-")] + sorted(MECHANISMS.glob("*.mechanism.json"))


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_annotations_change_no_schema_verdict(spec):
    """The schema without its annotations gives every corpus spec the same errors as with them."""
    loaded = parse_text(spec.read_bytes(), spec.name)
    assert loaded.findings == []
    stripped = _strip(copy.deepcopy(SCHEMA))
    assert "examples" not in json.dumps(stripped) and "default" not in json.dumps(stripped)
    assert "title" in stripped["properties"]  # the spec's own "title" key stays
    def errors(schema):
        return sorted((list(e.absolute_path), e.validator) for e in jsonschema.Draft202012Validator(schema)
                      .iter_errors(loaded.data))
    assert errors(SCHEMA) == errors(stripped)
    if spec.parent == MECHANISMS:
        assert validate(loaded) == []
