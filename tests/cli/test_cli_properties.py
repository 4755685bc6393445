"""Property-based: for any input, the CLI ends in findings (exit 1) or in well-formed output (exit 0).

Inputs are random bytes and text, random JSON, near-JSON (a valid spec's text with random edits),
mutated specs (keys deleted, values replaced by random JSON, text replaced by control characters,
markup or lone surrogates, references pointed at random names) and specs built to be valid.  No
exception may escape ``mechdiagram.cli.main`` (CliRunner with ``catch_exceptions=False``), every finding
line must have the ``FILE[:LINE:COLUMN]: error: ... [rule]`` form, and when the exit status is 0 every
SVG parses as XML and no HTML holds an element or attribute the plain build does not (HTML parsed
with html5lib, :mod:`support.html_doc`).
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from mechdiagram.cli import main
from mechdiagram.render.outputs import formats
from support.cli import FINDING, SUMMARY
from support.html_doc import attributes, parse_html, tags
from support.specs import minimal_spec
from support.strategies import SETTINGS, json_values, mutated_specs, valid_specs

pytestmark = pytest.mark.slow  # hypothesis: hundreds of builds


def _html_inventory(text: str) -> tuple[set[str], set[str], int]:
    """Tags, attribute names and the number of ``script`` elements of a page or fragment (the player module's:
    the player's data is an attribute)."""
    root = parse_html(text, strict=False)
    return tags(root), {name for _, name, _ in attributes(root)}, len(root.find_all("script"))


def _run(data: bytes, fmt: str = "text"):
    """Build ``data`` as a spec in a fresh folder; check the outcome; return (exit code, output folder files)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        spec = root / "fuzz.mechanism.json"
        spec.write_bytes(data)
        result = CliRunner().invoke(main, ["build", "--allow-missing-sources", "--source-root", folder, "-o",
                                           str(root / "out"), "--format", fmt, str(spec)], catch_exceptions=False)
        assert result.exit_code in (0, 1), result.output
        if fmt == "json":
            document = json.loads(result.stdout)
            assert document["summary"]["exit"] == result.exit_code
            errors = [f for f in document["findings"] if f["severity"] == "error"]
            for finding in document["findings"]:
                assert isinstance(finding["message"], str) and finding["message"]
                assert finding["line"] is None or finding["line"] >= 1
        else:
            lines = result.stderr.splitlines()
            assert lines and SUMMARY.match(lines[-1]), result.stderr
            for line in lines[:-1]:
                assert FINDING.match(line), line
            errors = [line for line in lines[:-1] if ": error: " in line]
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]", result.output)
        out = root / "out"
        produced = {p.name: p.read_bytes() for p in out.iterdir()} if out.is_dir() else {}
        if result.exit_code == 1:
            assert errors
            assert not [name for name in produced if name.startswith("fuzz.")]
        else:
            assert not errors
            _check_outputs(produced)
        return result.exit_code, produced


_BASELINE: dict[str, set[str]] = {}


def _baseline() -> dict[str, set[str]]:
    """Tags and attributes of the plain build (two scenarios, so the scenario picker is included, the second
    leaving a path unused; a grid wide enough for the middle and upper middle layouts), in a
    left-to-right and a right-to-left language (whose panel headings carry a direction)."""
    if not _BASELINE:
        spec = minimal_spec()
        spec["scenarios"].append(dict(copy.deepcopy(spec["scenarios"][0]), id="other", unselected=["ab"]))
        for step in spec["scenarios"][1]["steps"]:  # a path the scenario does not use: dashed, its label italic
            step["paths"] = []
        spec["layout"] = {"lanes": [{"key": "a", "label": "A"}, "b"]}
        spec["sources"] = [{"path": "x.md", "description": "d"}]
        spec["targets"]["a0"]["label"] = "a label long enough to wrap over several lines of its box"
        # wide enough for a middle and an upper middle layout (data-mech-middle-from, data-mech-upper-from)
        for key in ("a2", "b2", "a3", "b3", "a4", "b4", "a5", "b5", "a6", "b6"):
            spec["targets"][key] = {"id": f"t-{key}", "kind": "node", "label": f"box {key} of the grid"}
        tags: set[str] = set()
        attributes: set[str] = set()
        for language in ("en", "ar"):
            _, produced = _run(json.dumps(dict(spec, language=language)).encode())
            for name in ("fuzz.html", "fuzz.fragment.html"):  # the fragment's links to the player's files too
                page_tags, page_attributes, _ = _html_inventory(produced[name].decode())
                tags |= page_tags
                attributes |= page_attributes
        _BASELINE.update(tags=tags, attributes=attributes)
    return _BASELINE


def _check_outputs(produced: dict[str, bytes]) -> None:
    svgs = [name for name in produced if name.endswith(".svg")]
    assert svgs
    for name in svgs:
        root = ET.fromstring(produced[name])
        assert not [e for e in root.iter() if e.tag.endswith("}script") or any(a.startswith("on") for a in e.attrib)]
    json.loads(produced["manifest.json"])
    if _BASELINE:
        for name in ("fuzz.html", "fuzz.fragment.html"):
            page_tags, page_attributes, scripts = _html_inventory(produced[name].decode("utf-8"))
            assert page_tags <= _BASELINE["tags"], page_tags - _BASELINE["tags"]
            assert page_attributes <= _BASELINE["attributes"]
            assert scripts == 1  # the player module: inline in the page, named by the fragment


def test_the_plain_spec_builds():
    assert _baseline()["tags"] >= {"figure", "svg", "script", "select", "tspan"}


@SETTINGS
@given(mutated_specs(), st.sampled_from(["text", "json"]), st.booleans())
def test_mutated_specs_give_findings_or_good_output(spec, fmt, ascii_only):
    _baseline()
    try:
        data = json.dumps(spec, ensure_ascii=ascii_only, indent=2).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate cannot be written raw; the escaped form is tried instead
        data = json.dumps(spec, ensure_ascii=True, indent=2).encode("utf-8")
    _run(data, fmt)


@SETTINGS
@given(json_values, st.sampled_from(["text", "json"]))
def test_random_json_is_refused_cleanly(value, fmt):
    code, _ = _run(json.dumps(value).encode(), fmt)
    assert code == 1


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes_are_refused_cleanly(data):
    code, _ = _run(data)
    assert code == 1


@SETTINGS
@given(st.data())
def test_near_json_is_refused_or_built_cleanly(data):
    """A valid spec's text with a few random edits: deleted ranges, inserted characters, swapped bytes."""
    text = bytearray(json.dumps(minimal_spec(), indent=2).encode())
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text) - 1))
        edit = data.draw(st.sampled_from(["delete", "insert", "replace"]))
        if edit == "delete":
            del text[at:at + data.draw(st.integers(1, 20))]
        else:
            chunk = data.draw(st.one_of(st.binary(min_size=1, max_size=4),
                                        st.sampled_from([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"NaN",
                                                         b"1e999", b"\xef\xbb\xbf", b"\\ud800", b"\\u0007"])))
            text[at:at + (len(chunk) if edit == "replace" else 0)] = chunk
        if not text:
            break
    _run(bytes(text))


@SETTINGS
@given(valid_specs())
def test_generated_valid_specs_render_well_formed_output(spec):
    _baseline()
    code, produced = _run(json.dumps(spec, ensure_ascii=False).encode("utf-8"))
    assert code == 0
    svg_formats = [fmt for fmt in formats() if not fmt.optional and fmt.pattern.endswith(".svg")]
    assert len([n for n in produced if n.endswith(".svg")]) == len(svg_formats) * len(spec["scenarios"])
