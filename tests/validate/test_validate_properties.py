"""The compiled checks say "valid" exactly when jsonschema finds no error: on generated specs and JSON
(property-based) and on every spec of the negative corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from renderer.load import load_spec
from renderer.validate.schema import explaining_validator as _validator
from renderer.validate.schema import schema_is_valid
from support.strategies import SETTINGS, plain_json, valid_specs

CASES = Path(__file__).resolve().parent / "cases" / "negative"


@pytest.mark.slow  # hypothesis
@SETTINGS
@given(st.one_of(valid_specs(), plain_json))
def test_fast_schema_check_agrees_with_jsonschema(value):
    """The compiled checks say "valid" exactly when jsonschema finds no error."""
    verdict = schema_is_valid(value)
    assert verdict == (not any(True for _ in _validator().iter_errors(value)))


def test_fast_schema_check_agrees_on_the_negative_corpus():
    cases = sorted(CASES.glob("*.mechanism.json"))
    assert cases
    for case in cases:
        loaded = load_spec(case)
        if loaded.data is None:  # did not parse
            continue
        verdict = schema_is_valid(loaded.data)
        assert verdict == (not any(True for _ in _validator().iter_errors(loaded.data))), case.name
