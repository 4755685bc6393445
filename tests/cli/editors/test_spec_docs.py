"""``docs/spec-format.md`` is generated from the schema and kept up to date."""

from __future__ import annotations

import copy
import json
import runpy
import sys

from mechdiagram.shared.assets import schema
from support.specs import ROOT

#: The developer's tool that writes docs/spec-format.md (tools/ is not part of the package).
TOOL = runpy.run_path(str(ROOT / "tools" / "spec_format.py"))
spec_format, markdown_code, markdown_text = TOOL["spec_format"], TOOL["markdown_code"], TOOL["markdown_text"]

DOC = ROOT / "docs" / "spec-format.md"


def test_committed_spec_format_is_current():
    assert DOC.read_text("utf-8") == spec_format(), (
        "docs/spec-format.md is out of date: run `python tools/spec_format.py` and commit the result")


def test_the_tool_writes_what_the_test_expects(tmp_path, monkeypatch):
    target = tmp_path / "spec-format.md"
    monkeypatch.setattr(sys, "argv", ["spec_format.py", str(target)])
    try:
        runpy.run_path(str(ROOT / "tools" / "spec_format.py"), run_name="__main__")
    except SystemExit as exc:
        assert exc.code == 0
    assert target.read_bytes() == DOC.read_bytes()


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| `")]


def test_every_property_of_the_schema_has_a_row():
    rows = _rows(spec_format())
    def count(node) -> int:  # an "if" holds conditions, not keys of their own
        if isinstance(node, dict):
            return len(node.get("properties") or {}) + sum(count(v) for k, v in node.items() if k != "if")
        if isinstance(node, list):
            return sum(count(v) for v in node)
        return 0
    assert len(rows) == count(schema())
    duration = next(row for row in rows if row.startswith("| `duration` "))
    assert duration == ("| `duration` | integer | yes |  | How long the step shows, in milliseconds: a whole number "
                        "from 334 (so the figure changes at most three times a second, WCAG 2.2 SC 2.3.1 Three "
                        "Flashes or Below Threshold) to 600000. (334 to 600000) Examples: `2000`. |")
    assert "| `sources` | array of [Source](#def-source) | no | `[]` |" in spec_format()


def test_a_schema_change_changes_the_document_with_its_text_escaped():
    changed = copy.deepcopy(schema())
    changed["$defs"]["step"]["properties"]["note"] = {
        "description": "Shown as <b>bold</b>? No: a|b, x_y and *z* stay `as | written`.",
        "type": "string", "default": "a|b", "examples": ["<i>"]}
    del changed["$defs"]["step"]["properties"]["paths"]
    text = spec_format(changed)
    assert text != spec_format()
    assert not any(row.startswith("| `paths` ") for row in _rows(text)[-10:])
    row = next(row for row in _rows(text) if row.startswith("| `note` "))
    assert row == ("| `note` | string | no | `\"a\\|b\"` | Shown as &lt;b&gt;bold&lt;/b&gt;? No: a\\|b, x\\_y and "
                   "\\*z\\* stay `as \\| written`. Examples: `\"<i>\"`. |")
    assert json.loads(json.dumps(changed)) == changed  # the change stayed JSON


def test_markdown_text_keeps_code_spans_and_escapes_the_rest():
    assert markdown_text("<desc> & [x](y) \\ a`b") == "&lt;desc&gt; &amp; \\[x\\](y) \\\\ a\\`b"
    assert markdown_text("run `a | b` now") == "run `a \\| b` now"
    assert markdown_code("x`y") == "``x`y``"
    assert markdown_code("`x") == "`` `x ``"
