"""Text is never markup: whatever an author writes in a text field reaches the SVG and HTML as text.

Every text field of a spec is filled with hostile text (markup, entities, quotes, CDATA and raw-text
terminators, emoji, combining marks, right-to-left and CJK text, a 500-character word).  The output
must parse (SVG as XML, HTML with html.parser) and hold exactly the elements and attributes that a
spec with plain text gives, while the hostile text comes back intact as text.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.specs import minimal_spec
from renderer.cli import main

SVG = "{http://www.w3.org/2000/svg}"
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


def fill(spec: dict, short: str, long: str) -> dict:
    """Put text into every text field: title, description, caption, alt, limitations, sources,
    labels of nodes, paths, lanes and state rows, state values, scenario and step titles and descriptions."""
    spec["title"], spec["description"], spec["caption"], spec["alt"] = short, long, long, long
    spec["limitations"] = [long, short]
    spec["sources"] = [{"path": "notes/<b>&amp;\"'.md", "description": long}]
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


def build(tmp_path: Path, folder_name: str, spec: dict) -> Path:
    """Build ``spec.mechanism.json`` in its own folder: both builds share the slug, so ids and classes agree."""
    folder = tmp_path / folder_name
    folder.mkdir()
    (folder / "spec.mechanism.json").write_text(json.dumps(spec, ensure_ascii=False, indent=1), "utf-8")
    result = CliRunner().invoke(main, ["build", "--allow-missing-sources", "--source-root", str(folder),
                                       "-o", str(folder / "out"), str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return folder / "out"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("markup")
    hostile = build(tmp, "hostile", fill(minimal_spec(), SHORT, LONG))
    # Plain text long enough to wrap too, so both builds draw multi-line labels.
    plain = build(tmp, "plain", fill(minimal_spec(), ("plain words " * 42)[:500], "plain words " * 60))
    return hostile, plain


def svg_inventory(root: ET.Element) -> Counter:
    """Elements and their attribute names.  A label's line count varies with its length, so tspan
    elements and the x/y a one-line text carries itself are set aside (checked separately)."""
    counts: Counter = Counter()
    for element in root.iter():
        if element.tag == SVG + "tspan":
            continue
        names = set(element.attrib) - ({"x", "y"} if element.tag == SVG + "text" else set())
        counts[(element.tag, frozenset(names))] += 1
    return counts


class Inventory(HTMLParser):
    """Element/attribute inventory of an HTML document, its text, and the content of raw-text elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.counts: Counter = Counter()
        self.text: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.raw: dict[str, list[str]] = {"script": [], "style": []}
        self._open: list[str] = []

    def handle_starttag(self, tag, attrs):
        self._record(tag, attrs)
        self._open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._record(tag, attrs)

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def _record(self, tag, attrs):
        names = {name for name, _ in attrs} - ({"x", "y"} if tag == "text" else set())
        if tag != "tspan":
            self.counts[(tag, frozenset(names))] += 1
        self.attributes.extend((tag, name, value) for name, value in attrs)

    def handle_data(self, data):
        if self._open and self._open[-1] in self.raw:
            self.raw[self._open[-1]].append(data)
        else:
            self.text.append(data)


def parse_html(path: Path) -> Inventory:
    inventory = Inventory()
    inventory.feed(path.read_text("utf-8"))
    inventory.close()
    return inventory


SVG_FILES = ["s0.svg", "s0.poster.svg", "s1.svg", "s1.poster.svg"]


@pytest.mark.parametrize("name", SVG_FILES)
def test_svg_is_xml_with_only_our_elements(outputs, name):
    hostile, plain = outputs
    root = ET.parse(hostile / f"spec.{name}").getroot()
    reference = ET.parse(plain / f"spec.{name}").getroot()
    assert svg_inventory(root) == svg_inventory(reference)
    tags = {element.tag for element in root.iter()}
    assert SVG + "script" not in tags and SVG + "foreignObject" not in tags
    assert tags <= {element.tag for element in reference.iter()}
    assert [e for e in root.iter() if any(a.startswith("on") for a in e.attrib)] == []
    assert len(root.findall(f".//{SVG}style")) == 1


@pytest.mark.parametrize("name", SVG_FILES)
def test_svg_text_comes_back_verbatim(outputs, name):
    hostile, _ = outputs
    root = ET.parse(hostile / f"spec.{name}").getroot()
    assert root.find(f"{SVG}title").text == SHORT
    assert root.find(f"{SVG}desc").text == LONG
    text = "".join(root.itertext())
    for probe in PROBES:
        assert probe in text, probe
    style = root.find(f".//{SVG}style").text
    assert "alert" not in style and "script" not in style and "W" * 50 not in style


@pytest.mark.parametrize("name", ["html", "fragment.html"])
def test_html_has_only_our_elements_and_attributes(outputs, name):
    hostile, plain = outputs
    page, reference = parse_html(hostile / f"spec.{name}"), parse_html(plain / f"spec.{name}")
    assert page.counts == reference.counts
    assert {n for _, n, _ in page.attributes} == {n for _, n, _ in reference.attributes}
    assert not [a for a in page.attributes if a[1].startswith("on")]
    assert not [a for a in page.attributes if (a[2] or "").strip().lower().startswith("javascript:")]
    assert len(page.raw["script"]) == len(reference.raw["script"])
    assert len(page.raw["style"]) == len(reference.raw["style"])


@pytest.mark.parametrize("name", ["html", "fragment.html"])
def test_html_text_comes_back_verbatim(outputs, name):
    hostile, _ = outputs
    page = parse_html(hostile / f"spec.{name}")
    text = "".join(page.text)
    for probe in PROBES + [WORD]:
        assert probe in text, probe
    attributes = [v for _, _, v in page.attributes if v]
    if name == "html":
        assert SHORT in text  # <title>, <h1>
        assert LONG in attributes  # <meta name="description">
    # The player's data is JSON inside <script type="application/json">: it parses and holds the text.
    data = json.loads(next(s for s in page.raw["script"] if s.lstrip().startswith("{")))
    assert data["scenarios"][0]["title"] == SHORT
    assert data["scenarios"][1]["steps"][1]["state"][0] == [SHORT, LONG[:1000]]
    # Nothing the author wrote appears raw where a browser would read markup.
    raw = (hostile / f"spec.{name}").read_text("utf-8")
    for dangerous in ("<script>alert", "<img src=x", "<!-- comment -->", "<![CDATA[x"):
        assert dangerous not in raw


def test_source_path_is_text_too(outputs):
    hostile, _ = outputs
    page = parse_html(hostile / "spec.html")
    assert "notes/<b>&amp;\"'.md" in "".join(page.text)
    assert ("b", frozenset()) not in page.counts


def test_player_and_style_are_unchanged_by_author_text(outputs):
    """The player script and style sheets are byte-identical between the hostile and the plain build."""
    hostile, plain = outputs
    for name in ("html", "fragment.html"):
        page, reference = parse_html(hostile / f"spec.{name}"), parse_html(plain / f"spec.{name}")
        scripts = [s for s in page.raw["script"] if not s.lstrip().startswith("{")]
        assert scripts == [s for s in reference.raw["script"] if not s.lstrip().startswith("{")]
        assert page.raw["style"] == reference.raw["style"]
