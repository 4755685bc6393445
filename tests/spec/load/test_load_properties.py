"""Property-based: the loader never raises, whatever the bytes; it locates every JSON Pointer of a
document at its value (and key); ``LoadedSpec.span`` cuts out exactly each value and key."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from mechdiagram.spec.load import parse_text
from support.strategies import SETTINGS, json_values, paths, plain_json

pytestmark = pytest.mark.slow  # hypothesis: hundreds of examples each


@SETTINGS
@given(st.binary(max_size=300))
def test_parse_text_never_raises_on_bytes(data):
    spec = parse_text(data, "x")
    assert spec.ok or spec.findings
    for finding in spec.findings:
        assert finding.line is None or finding.line >= 1
        assert finding.column is None or finding.column >= 1


@SETTINGS
@given(st.text(max_size=300))
def test_parse_text_never_raises_on_text(text):
    spec = parse_text(text.encode("utf-8", "surrogatepass"), "x")
    assert spec.ok or spec.findings


@SETTINGS
@given(json_values.filter(lambda v: isinstance(v, (dict, list))), st.sampled_from([None, 0, 1, 2, "\t"]),
       st.booleans())
def test_every_pointer_is_located_at_its_value(value, indent, ascii_only):
    """The locator maps every JSON Pointer of a document to the place its value starts (and keys to keys)."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assume("\ud800" not in text or ascii_only)
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return
    spec = parse_text(raw, "x")
    lines = spec.text.split("\n")
    value = json.loads(text)  # as parsed: two lone surrogates in a row decode to one character
    for path, node in paths(value):
        pointer = "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)
        line, column = spec.locate(pointer)
        rest = "\n".join([lines[line - 1][column - 1:]] + lines[line:])
        found, _ = json.JSONDecoder().raw_decode(rest)
        assert found == node or (node != node and found != found), pointer
        if path and isinstance(path[-1], str):
            line, column = spec.locate(pointer, key=True)
            key, _ = json.JSONDecoder().raw_decode(lines[line - 1][column - 1:])
            assert key == path[-1]


def _walk(value, pointer=""):
    yield pointer, value, None
    if isinstance(value, dict):
        for key, item in value.items():
            token = key.replace("~", "~0").replace("/", "~1")
            for inner in _walk(item, f"{pointer}/{token}"):
                yield inner if inner[0] != f"{pointer}/{token}" else (inner[0], inner[1], key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{pointer}/{index}")


@SETTINGS
@given(plain_json, st.sampled_from([None, 0, 2, "\t"]), st.booleans())
def test_spans_cut_out_each_value_and_key(value, indent, ascii_only):
    """``LoadedSpec.span`` (one iterative pass) gives, for every JSON Pointer, the offsets of exactly
    that value's text and of its key: the slices parse back to the same value and key.
    ``mechdiagram hash --write`` edits the text through these offsets."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    loaded = parse_text(text.encode(), "x")
    for pointer, item, key in _walk(value):
        start, end, key_start = loaded.span(pointer)
        assert json.loads(text[start:end]) == item
        if key is None:
            assert key_start is None
        else:
            assert json.decoder.scanstring(text, key_start + 1)[0] == key
