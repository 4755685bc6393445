"""What the HTML may run and fetch: no network requests (markup, style sheets, script), a Content
Security Policy whose script hash matches, player data equal to the timeline, author text escaped."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest

from mechdiagram.render.timeline import Timeline
from mechdiagram.shared.model import spec_from_data
from support.css import parse_css
from support.html_doc import Node, parse_html, raw_text
from support.outputs import build_html
from support.reference_spec import STEPS, reference_spec
from support.specs import minimal_spec


@pytest.fixture(scope="module", params=["page", "fragment"])
def document(request, reference_html) -> Node:
    return parse_html(reference_html[1][request.param])


# --- no network, CSP ------------------------------------------------------------------------------

NETWORK = re.compile(r"""(?:\bsrc|\bhref|\baction|\bposter|\bdata)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


@pytest.mark.parametrize("kind", ["page", "fragment"])
def test_no_network_requests(reference_html, kind):
    html = reference_html[1][kind]
    assert not NETWORK.search(html)
    assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", html, re.I)
    assert "@import" not in html
    root = parse_html(html)
    assert root.find_all("img") == [] and root.find_all("iframe") == []
    links = [(link.attrs["rel"], link.attrs["href"]) for link in root.find_all("link")]
    sources = [(script.attrs.get("type"), script.attrs["src"]) for script in root.find_all("script")
               if "src" in script.attrs]
    if kind == "page":  # the player inline
        assert links == [] and sources == []
    else:  # the player's two files, beside the fragment (the default player URL)
        assert [rel for rel, _ in links] == ["stylesheet"] and [type_ for type_, _ in sources] == ["module"]
        assert re.fullmatch(r"mechdiagram-player\.[0-9a-f]{12}\.css", links[0][1])
        assert re.fullmatch(r"mechdiagram-player\.[0-9a-f]{12}\.js", sources[0][1])
    assert not re.search(r"\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|import\(", html)
    # every style sheet, of the page and of the inline SVG, parsed: no @import, no URL
    sheets = [parse_css(css) for css in raw_text(root, "style")]
    assert len(sheets) == (2 if kind == "page" else 1)  # the fragment has the drawing's alone
    for sheet in sheets:
        assert sheet.errors == []
        assert "import" not in sheet.at_rules and sheet.urls == []
    # the check itself can fail
    assert NETWORK.search('<img src="https://example.com/x.png">')
    assert NETWORK.search("<script src=//cdn.example.com/x.js>")
    assert parse_css("@import url(//x.example/a.css);.a{background:url(https://x.example/b.png)}").urls == [
        "//x.example/a.css", "https://x.example/b.png"]


def test_csp_meta_and_script_hash(reference_html):
    root = parse_html(reference_html[1]["page"])
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
    assert executable[0].attrs.get("type") == "module"
    # no data block, which a site that re-runs a swapped-in page's scripts would run as code: an attribute
    assert [s.attrs.get("type") for s in root.find_all("script")] == ["module"]
    assert "scenarios" in json.loads(root.find("mech-diagram").attrs["data-mech-player"])


# --- player data ---------------------------------------------------------------------------------

def _player_data(root: Node) -> dict:
    figures = root.find_all("mech-diagram")
    assert len(figures) == 1
    return json.loads(figures[0].attrs["data-mech-player"])


def test_player_data_equals_the_timeline(document):
    data = _player_data(document)
    spec = spec_from_data(reference_spec())
    timeline = Timeline.for_scenario(spec.scenarios[0])
    (scenario,) = data["scenarios"]
    assert scenario["id"] == "one-request"
    assert [{"start": s["start"], "duration": s["duration"]} for s in scenario["steps"]] == timeline.as_json()
    assert [s["start"] for s in scenario["steps"]] == [0, 3000, 6000, 9000, 12000, 15000, 18000]
    assert [s["duration"] for s in scenario["steps"]] == [3000] * 6 + [4500]  # the loop holds the last step 1.5 times
    assert scenario["ease"] == 250
    announced = [s["announcement"] for s in scenario["steps"]]
    assert [a.split(". ")[0] for a in announced] == [f"Step {i} of 7: \u2068{step[0]}\u2069"
                                                     for i, step in enumerate(STEPS, 1)]
    assert data["words"] == {"reducedMotion": "Paused because your system asks for reduced motion: "
                                              "press Play animation to play.",
                             # what the explorer's items say of the step, and how its phrases join
                             "exploreActive": "active in this step", "exploreInactive": "not active in this step",
                             "exploreUsed": "used in this step", "exploreUnused": "not used in this step",
                             "exploreJoin": "{first}, {rest}"}


def test_player_data_with_unequal_durations_and_markup_in_text(tmp_path):
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["duration"] = 4321
    data["scenarios"][0]["steps"][1]["title"] = "</script><script>alert(1)</script>"
    html = build_html(data, tmp_path, "tiny")["page"]
    assert "</script><script>alert(1)" not in html
    root = parse_html(html)
    player = _player_data(root)
    steps = player["scenarios"][0]["steps"]
    assert [(s["start"], s["duration"]) for s in steps] == [(0, 4321), (4321, 3000)]  # 2000 ms held 1.5 times
    assert steps[1]["announcement"].startswith("Step 2 of 2: \u2068</script><script>alert(1)</script>\u2069.")


def test_author_text_is_escaped_everywhere(tmp_path):
    data = minimal_spec()
    data["caption"] = "<img src=x onerror=alert(1)> & more"
    data["limitations"] = ["<b>not bold</b>"]
    html = build_html(data, tmp_path, "tiny")["page"]
    assert "<img" not in html and "<b>" not in html
    root = parse_html(html)
    assert root.find("figcaption").text() == "<img src=x onerror=alert(1)> & more"
    assert root.find("section", "mech-limitations").find("li").text() == "<b>not bold</b>"
