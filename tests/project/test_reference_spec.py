"""The field's own spec, where the workplace provides it beside the repository (``../shared/reference``).

It must validate and render unchanged.  It is read in place, never copied into the project; where
it is absent the test is skipped, and ``tests/support/reference_spec.py`` covers the same format.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from mechdiagram.cli import main
from support.css import words
from support.specs import ROOT
from support.svg import stylesheet

REFERENCE = ROOT.parent / "shared" / "reference" / "prefill-decode.mechanism.json"

pytestmark = pytest.mark.skipif(not REFERENCE.is_file(), reason="the shared reference spec is not beside the repository")


def test_the_reference_spec_validates_and_says_its_sources_are_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(REFERENCE)])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 2 and all("[source-missing]" in line and "--allow-missing-sources" in line for line in errors)
    assert "schema" not in result.stderr and "[pattern]" not in result.stderr


def test_the_reference_spec_renders_unchanged_with_missing_sources_allowed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = REFERENCE.read_bytes()
    result = CliRunner().invoke(main, ["build", str(REFERENCE), "-o", "out", "--allow-missing-sources"])
    assert result.exit_code == 0, result.stderr
    assert REFERENCE.read_bytes() == before
    svg = (tmp_path / "out" / "prefill-decode.one-request.svg").read_text("utf-8")
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    # every step's text and highlight animation runs over the whole loop: 21 s, the last step held 1.5 times
    assert {parts[1] for parts in map(words, stylesheet(root).values("animation"))
            if len(parts) == 4 and parts[2] in ("step-end", "ease-in-out") and parts[0][-2] in "kj"} == {"22500ms"}
    boxes = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if (e.get("class") or "").endswith("-node")]
    assert len({(b.get("x"), b.get("y")) for b in boxes[:18]}) == 18
    assert len({b.get("x") for b in boxes[:18]}) == 6 and len({b.get("y") for b in boxes[:18]}) == 3
    kv5 = next(e for e in root.iter() if (e.get("id") or "").endswith("-n-mechanism-kv5"))
    box = kv5.find("{http://www.w3.org/2000/svg}rect")
    left, width = float(box.get("x")), float(box.get("width"))
    # its label is real text centred on it (in its group, or with the labels some step highlights)
    labels = [t for t in root.iter("{http://www.w3.org/2000/svg}text")
              if " ".join(s.strip() for s in t.itertext() if s.strip()) == "Release request references"]
    assert len(labels) == 1 and abs(float(labels[0].get("x") or labels[0][0].get("x")) - (left + width / 2)) <= 0.1
    page = (tmp_path / "out" / "prefill-decode.html").read_text("utf-8")
    assert "not verified: the file was not available when this figure was built" in page
