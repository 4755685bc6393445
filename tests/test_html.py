"""The HTML page and fragment: figure, caption, inline SVG, controls, transcript, limitations,
sources, no network requests, a CSP whose script hash matches, and player data equal to the timeline."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser

import pytest
from support.specs import minimal_spec
from support.reference_spec import STEPS, dumps, reference_spec, write_sources

from renderer.build import render_outputs
from renderer.load import parse_text
from renderer.model import spec_from_data
from renderer.provenance import check_sources
from renderer.timeline import Timeline

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: "Node | None") -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def words(self) -> str:
        return " ".join(self.text().split())

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list["Node"]:
        return [n for n in self.iter() if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)]

    def find(self, tag: str | None = None, cls: str | None = None) -> "Node":
        found = self.find_all(tag, cls)
        assert found, (tag, cls)
        return found[0]


class TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None, f"stray </{tag}>"
        assert node is self.current, f"</{tag}> closes <{self.current.tag}> too"
        self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html: str) -> Node:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    assert builder.current is builder.root, "unclosed elements"
    return builder.root


def build_html(data: dict, tmp_path, slug: str = "ref", allow_missing: bool = True) -> dict[str, str]:
    spec = spec_from_data(data)
    loaded = parse_text(dumps(data).encode("utf-8"), f"{slug}.mechanism.json")
    checks, _ = check_sources(loaded, spec.sources, tmp_path, allow_missing=allow_missing)
    files = render_outputs(spec, slug, checks)
    return {"page": files[f"{slug}.html"].decode("utf-8"), "fragment": files[f"{slug}.fragment.html"].decode("utf-8")}


@pytest.fixture(scope="module")
def reference_data(tmp_path_factory) -> tuple[dict, dict[str, str]]:
    root = tmp_path_factory.mktemp("sources")
    data = reference_spec()
    write_sources(root, data)
    data["sources"].append({"path": "notes/not-here.md", "sha256": "2" * 64, "description": "Lost notes."})
    return data, build_html(data, root)


@pytest.fixture(scope="module", params=["page", "fragment"])
def document(request, reference_data) -> Node:
    return parse(reference_data[1][request.param])


# --- figure, caption, SVG --------------------------------------------------------------------------

def test_figure_has_caption_and_inline_svg(document):
    spec = reference_spec()
    figures = document.find_all("figure")
    assert len(figures) == 1
    figure = figures[0]
    captions = figure.find_all("figcaption")
    assert len(captions) == 1 and captions[0].text() == spec["caption"]
    assert captions[0].parent is figure
    svgs = figure.find_all("svg")
    assert len(svgs) == 1
    svg = svgs[0]
    assert svg.attrs["role"] == "img"
    assert svg.find("title").text() == spec["title"]
    assert svg.find("desc").text() == spec["alt"]
    assert svg.attrs["aria-labelledby"] == svg.find("title").attrs["id"]


def test_controls_buttons_and_position(document):
    buttons = [b.words() for b in document.find_all("button")]
    assert buttons == ["Pause animation", "Previous step", "Next step"]
    assert all(b.attrs.get("type") == "button" for b in document.find_all("button"))
    assert document.find_all("select") == []  # one scenario: no choice
    assert document.find("p", "md-position").words() == "Step 1 of 7"


def test_a_select_appears_with_two_scenarios(tmp_path):
    data = minimal_spec()
    second = json.loads(json.dumps(data["scenarios"][0]))
    second.update(id="other", title="Other way")
    second["steps"] = second["steps"][:1]
    data["scenarios"].append(second)
    for html in build_html(data, tmp_path, "tiny").values():
        root = parse(html)
        selects = root.find_all("select")
        assert len(selects) == 1
        assert [(o.attrs["value"], o.words()) for o in selects[0].find_all("option")] == [("0", "Main"),
                                                                                       ("1", "Other way")]
        label = [n for n in root.find_all("label") if n.attrs.get("for") == selects[0].attrs["id"]]
        assert len(label) == 1
        assert len(root.find("figure").find_all("svg")) == 2
        assert root.find("p", "md-position").words() == "Step 1 of 2"
        assert len(root.find_all("ol", "md-steps")) == 2


def test_transcript_lists_every_step(document):
    spec = reference_spec()
    lists = document.find_all("ol")
    assert len(lists) == 1
    items = [li for li in lists[0].children if isinstance(li, Node)]
    assert len(items) == 7 and all(li.tag == "li" for li in items)
    for item, (title, description, _, stage, artifact) in zip(items, STEPS):
        text = item.words()
        assert item.find("strong").words() == title
        assert description in text
        assert "(3 s)" in text
        pairs = [(d.find("dt").words(), d.find("dd").words()) for d in item.find("dl").find_all("div")]
        assert pairs == [("Stage", stage), ("Artifact", artifact)]
    assert spec["scenarios"][0]["title"] in document.find("section", "md-transcript").words()


def test_transcript_durations_are_in_seconds(tmp_path):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 1250
    root = parse(build_html(data, tmp_path, "tiny")["page"])
    durations = [n.words() for n in root.find_all("span", "md-duration")]
    assert durations == ["(1.25 s)", "(2 s)"]


def test_limitations_and_sources_with_status(document, reference_data):
    data = reference_data[0]
    limitations = document.find("section", "md-limitations")
    assert [li.words() for li in limitations.find_all("li")] == data["limitations"]
    sources = document.find("section", "md-sources").find_all("li")
    assert [li.find("code").words() for li in sources] == [s["path"] for s in data["sources"]]
    statuses = [li.find("span", "md-source-status").words() for li in sources]
    assert statuses == [
        "(verified: the file matches its SHA-256)",
        "(verified: the file matches its SHA-256)",
        "(not verified: no SHA-256 is declared)",
        "(not verified: the file was not available when this figure was built)",
    ]
    assert data["sources"][0]["description"] in sources[0].words()


def test_page_is_a_whole_document_and_fragment_is_not(reference_data):
    page, fragment = reference_data[1]["page"], reference_data[1]["fragment"]
    assert page.startswith("<!DOCTYPE html>")
    root = parse(page)
    html = root.find("html")
    assert html.attrs["lang"] == "en"
    assert root.find("title").words() == reference_spec()["title"]
    assert root.find("h1").words() == reference_spec()["title"]
    assert "<html" not in fragment and "<head" not in fragment and "<body" not in fragment
    assert parse(fragment).find_all("figure")


# --- no network, CSP ------------------------------------------------------------------------------

NETWORK = re.compile(r"""(?:\bsrc|\bhref|\baction|\bposter|\bdata)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


@pytest.mark.parametrize("kind", ["page", "fragment"])
def test_no_network_requests(reference_data, kind):
    html = reference_data[1][kind]
    assert not NETWORK.search(html)
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", html, re.I)
    assert "@import" not in html
    root = parse(html)
    assert root.find_all("link") == [] and root.find_all("img") == [] and root.find_all("iframe") == []
    for script in root.find_all("script"):
        assert "src" not in script.attrs
    assert not re.search(r"\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|import\(", html)
    # the check itself can fail
    assert NETWORK.search('<img src="https://example.com/x.png">')
    assert NETWORK.search("<script src=//cdn.example.com/x.js>")


def test_csp_meta_and_script_hash(reference_data):
    root = parse(reference_data[1]["page"])
    metas = [m for m in root.find_all("meta") if (m.attrs.get("http-equiv") or "").lower() == "content-security-policy"]
    assert len(metas) == 1
    assert metas[0].parent.tag == "head"
    policy = dict(d.strip().split(None, 1) for d in metas[0].attrs["content"].split(";") if d.strip())
    assert policy["default-src"] == "'none'"
    hashes = re.findall(r"'sha256-([A-Za-z0-9+/=]+)'", policy["script-src"])
    executable = [s for s in root.find_all("script")
                  if (s.attrs.get("type") or "text/javascript") in ("text/javascript", "module")]
    assert len(executable) == 1
    for script in executable:
        digest = base64.b64encode(hashlib.sha256(script.text().encode("utf-8")).digest()).decode("ascii")
        assert digest in hashes
    assert "'unsafe-inline'" not in policy["script-src"]
    # the data block is not executable, so it needs no hash
    data_blocks = [s for s in root.find_all("script") if s.attrs.get("type") == "application/json"]
    assert len(data_blocks) == 1


# --- player data ---------------------------------------------------------------------------------

def _player_data(root: Node) -> dict:
    block = [s for s in root.find_all("script") if s.attrs.get("type") == "application/json"]
    assert len(block) == 1
    return json.loads(block[0].text())


def test_player_data_equals_the_timeline(document):
    data = _player_data(document)
    spec = spec_from_data(reference_spec())
    timeline = Timeline.for_scenario(spec.scenarios[0])
    (scenario,) = data["scenarios"]
    assert scenario["id"] == "one-request"
    assert [{"start": s["start"], "duration": s["duration"]} for s in scenario["steps"]] == timeline.as_json()
    assert [s["start"] for s in scenario["steps"]] == [0, 3000, 6000, 9000, 12000, 15000, 18000]
    assert [s["duration"] for s in scenario["steps"]] == [3000] * 7
    assert [s["title"] for s in scenario["steps"]] == [step[0] for step in STEPS]
    assert scenario["steps"][6]["heading"] == "Step 7 of 7: Finish and release"


def test_player_data_with_unequal_durations_and_markup_in_text(tmp_path):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 4321
    data["scenarios"][0]["steps"][1]["title"] = "</script><script>alert(1)</script>"
    html = build_html(data, tmp_path, "tiny")["page"]
    assert "</script><script>alert(1)" not in html
    root = parse(html)
    player = _player_data(root)
    steps = player["scenarios"][0]["steps"]
    assert [(s["start"], s["duration"]) for s in steps] == [(0, 4321), (4321, 2000)]
    assert steps[1]["title"] == "</script><script>alert(1)</script>"


def test_author_text_is_escaped_everywhere(tmp_path):
    data = minimal_spec()
    data["caption"] = "<img src=x onerror=alert(1)> & more"
    data["limitations"] = ["<b>not bold</b>"]
    html = build_html(data, tmp_path, "tiny")["page"]
    assert "<img" not in html and "<b>" not in html
    root = parse(html)
    assert root.find("figcaption").text() == "<img src=x onerror=alert(1)> & more"
    assert root.find("section", "md-limitations").find("li").text() == "<b>not bold</b>"


def test_non_english_spec_keeps_english_controls_marked(tmp_path):
    data = minimal_spec()
    data["language"] = "de"
    root = parse(build_html(data, tmp_path, "tiny")["page"])
    assert root.find("html").attrs["lang"] == "de"
    assert root.find("div", "md-controls").attrs.get("lang") == "en"


def test_right_to_left_languages_set_the_direction_and_english_controls_stay_ltr():
    from renderer.html import figure_context, render_page

    from support.specs import minimal_spec
    from renderer.model import spec_from_data

    data = minimal_spec()
    data["language"] = "ar"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="ar" dir="rtl">' in page
    assert 'data-md-figure lang="ar" dir="rtl"' in page
    assert 'aria-label="Animation controls" hidden lang="en" dir="ltr"' in page
    data["language"] = "en-GB"
    page = render_page(figure_context(spec_from_data(data), "tiny", ["<svg></svg>"], []))
    assert '<html lang="en-GB" dir="ltr">' in page
