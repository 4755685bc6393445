"""The JSON Schema document itself: valid draft 2020-12, an id, a description for every property."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from support.specs import ROOT

SCHEMA_FILE = ROOT / "schema" / "mechanism.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text("utf-8"))


def test_schema_is_valid_draft_2020_12():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)  # raises SchemaError when invalid
    # check_schema really checks: a broken copy is refused.
    broken = copy.deepcopy(SCHEMA)
    broken["properties"]["version"]["type"] = "whole number"
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.Draft202012Validator.check_schema(broken)


def test_schema_has_an_id():
    assert isinstance(SCHEMA.get("$id"), str)
    assert SCHEMA["$id"].strip()
    assert SCHEMA["$id"] == "urn:mechdiagram:schema:mechanism:v1"


def _undescribed(node, where="#") -> list[str]:
    """JSON Pointers of every entry under a ``properties`` keyword that has no ``description``."""
    missing = []
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            if not (isinstance(sub, dict) and isinstance(sub.get("description"), str) and sub["description"].strip()):
                missing.append(f"{where}/properties/{name}")
        for key, value in node.items():
            missing.extend(_undescribed(value, f"{where}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            missing.extend(_undescribed(value, f"{where}/{i}"))
    return missing


def test_every_property_has_a_description():
    assert _undescribed(SCHEMA) == []
    # Properties are found everywhere, including $defs and nested oneOf branches.
    count = json.dumps(SCHEMA).count('"properties"')
    assert count >= 10
    assert _undescribed({"$defs": {"x": {"oneOf": [{"properties": {"a": {"type": "string"}}}]}}}) == [
        "#/$defs/x/oneOf/0/properties/a"]
