"""Hostile author text: markup, entities, quotes, CDATA and raw-text terminators, emoji, combining
marks, right-to-left and CJK text, a 500-character word; and a spec with it in every text field."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mechdiagram.cli import main
from support.specs import minimal_spec

WORD = "W" * 500
HOSTILE = ('<script>alert(1)</script> &amp; &lt; &#60; "double" \'single\' `tick` ]]> </script> </style> '
           '<!-- comment --> <![CDATA[x]]> <img src=x onerror=alert(2)> {{ jinja }} {% raw %} ${x} '
           '\U0001F600\U0001F469\u200d\U0001F469\u200d\U0001F467 e\u0301\u0308 '
           '\u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd \u6f22\u5b57\u304b\u306a ')
SHORT = HOSTILE + WORD[:500 - len(HOSTILE)]   # fields limited to 500 characters
LONG = HOSTILE + WORD                           # the 500-character word itself, in the long fields
#: The parts that must come back verbatim from the parsed output.
PROBES = ["<script>alert(1)</script>", "&amp;", "&lt;", '"double"', "'single'", "]]>", "</script>", "</style>",
          "<!-- comment -->", "<img src=x onerror=alert(2)>", "{{ jinja }}", "\U0001F469\u200d\U0001F469",
          "e\u0301\u0308", "\u0645\u0631\u062d\u0628\u0627", "\u05e9\u05dc\u05d5\u05dd", "\u6f22\u5b57\u304b\u306a"]
#: The output files of one scenario, for the two scenarios of a filled spec.
SVG_FILES = ["s0.svg", "s0.poster.svg", "s1.svg", "s1.poster.svg"]
SOURCE_PATH = "notes/<b>&amp;\"'.md"


def fill(spec: dict, short: str, long: str) -> dict:
    """Put text into every text field: title, description, caption, alt, limitations, sources,
    labels of nodes, paths, lanes and state rows, state values, scenario and step titles and descriptions."""
    spec["title"], spec["description"], spec["caption"], spec["alt"] = short, long, long, long
    spec["limitations"] = [long, short]
    spec["sources"] = [{"path": SOURCE_PATH, "description": long}]
    for target in spec["targets"].values():
        target["label"] = short
    spec["stateLabels"] = {"stage": short, "other": short}
    spec["layout"] = {"lanes": [{"key": "a", "label": short}, {"key": "b", "label": short}]}
    spec["scenarios"].append(json.loads(json.dumps(spec["scenarios"][0])))
    for number, scenario in enumerate(spec["scenarios"]):
        scenario["id"] = f"s{number}"
        scenario["title"], scenario["description"] = short, long
        scenario["initial"] = {"stage": long[:1000], "other": short}
        for step in scenario["steps"]:
            step["title"], step["description"] = short, long
            step["state"] = {"stage": long[:1000], "other": short}
    return spec


def build_filled(tmp_path: Path, folder_name: str, short: str, long: str) -> Path:
    """Build the minimal spec filled with ``short`` and ``long`` as ``spec.mechanism.json`` in its own
    folder (every build shares the slug, so ids and classes agree); return the output folder."""
    folder = tmp_path / folder_name
    folder.mkdir()
    spec = fill(minimal_spec(), short, long)
    (folder / "spec.mechanism.json").write_text(json.dumps(spec, ensure_ascii=False, indent=1), "utf-8")
    result = CliRunner().invoke(main, ["build", "--allow-missing-sources", "--source-root", str(folder),
                                       "-o", str(folder / "out"), str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return folder / "out"
