"""Code labels in the drawing: set in the monospace face (its font stack on the ``<text>``), every line of a code
label ends between tokens (after a separator, at a space) or carries the continuation mark, which is drawn in a
``<tspan>`` hidden from assistive technology; and a spec without ``text`` draws the same bytes as before."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from mechdiagram.api import render_spec
from mechdiagram.layout.measure import CODE_BREAKS, CONTINUATION, text_width
from mechdiagram.layout.sizes import PAD_X
from mechdiagram.render.theme import CODE_FONT_FAMILY, FONT_FAMILY
from support.specs import MECHANISMS, ROOT, TESTS
from support.svg import SVG_NS, local

SPEC = TESTS / "data" / "oauth-pkce.mechanism.json"


@pytest.fixture(scope="module")
def files() -> dict[str, bytes]:
    rendered = render_spec(SPEC, allow_missing_sources=True)
    assert rendered.ok, rendered.findings
    return rendered.files


def _lines(text: ET.Element) -> list[tuple[str, bool]]:
    """A ``<text>``'s lines as (text without the mark, whether the line carries the continuation mark)."""
    spans = [child for child in text if local(child.tag) == "tspan"]
    if not spans:
        return [(text.text or "", False)]
    lines = []
    for span in spans:
        marks = [child for child in span if local(child.tag) == "tspan"]
        for mark in marks:
            assert mark.text == CONTINUATION and mark.get("aria-hidden") == "true"
            assert mark.get("class", "").endswith("-cont")
        lines.append((span.text or "", bool(marks)))
    return lines


def _code_texts(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG_NS}text") if any(c.endswith("-code") for c in e.get("class", "").split())]


@pytest.mark.parametrize("variant", ["oauth-pkce.pkce.svg", "oauth-pkce.pkce.narrow.svg"])
def test_no_line_of_a_code_label_ends_inside_a_token_unless_it_carries_the_mark(files, variant):

    from mechdiagram.shared.model import spec_from_data

    spec = spec_from_data(json.loads(SPEC.read_text("utf-8")))
    labels = {t.label for t in spec.targets.values() if t.code and t.label}
    root = ET.fromstring(files[variant])
    texts = _code_texts(root)
    # Each code box (with its highlight) and each code path label (halo and text) is drawn in the monospace face.
    assert len(texts) >= len(labels) + 2
    marked = 0
    for text in texts:
        assert text.get("font-family") == CODE_FONT_FAMILY
        lines = _lines(text)
        label = next(label for label in labels if label.replace(" ", "") == "".join(t for t, _ in lines).replace(" ", ""))
        at = 0
        for number, (line, mark) in enumerate(lines):
            assert label.startswith(line, at), (label, lines)
            at += len(line)
            if number == len(lines) - 1:
                assert at == len(label) and not mark
            elif label[at] == " ":  # a break at a space
                at += 1
                assert not mark
            else:  # inside a word: after a separator, or with the mark
                assert mark or line[-1] in CODE_BREAKS, (label, lines)
                marked += mark
    # The narrow layout breaks RFC 7636's 43-character challenge, one token, with the mark; the wide one holds it.
    assert (marked > 0) == ("narrow" in variant)


def test_code_lines_fit_their_boxes_measured_in_the_monospace_face(files):
    root = ET.fromstring(files["oauth-pkce.pkce.narrow.svg"])
    code = _code_texts(root)
    # A box's rect, by its group, and by the target id that ends the group's id (a highlighted box's one label
    # is drawn over the highlights and names its box by data-mech-box).
    rect_of: dict[int, ET.Element] = {}
    by_target: dict[str, ET.Element] = {}
    for group in root.iter(f"{SVG_NS}g"):
        rects = [c for c in group if local(c.tag) == "rect"]
        for child in group:
            if rects and local(child.tag) == "text":
                rect_of[id(child)] = rects[0]
        if rects and "-n-" in (group.get("id") or ""):
            by_target[group.get("id", "").rsplit("-n-", 1)[1]] = rects[0]
    boxes = 0
    for text in code:
        rect = rect_of.get(id(text))
        if rect is None:  # (an Element with no children is falsy: no `or` here)
            rect = by_target.get(text.get("data-mech-box", ""))
        if rect is None:
            continue  # a path label
        boxes += 1
        inner = float(rect.get("width")) - 2 * PAD_X
        for line, mark in _lines(text):
            assert text_width(line + (CONTINUATION if mark else ""), code=True) <= inner + 0.05, line
    assert boxes >= 4  # the four code boxes


def test_prose_text_keeps_the_figures_font_and_a_prose_word_is_not_broken(files):
    for variant in ("oauth-pkce.pkce.svg", "oauth-pkce.pkce.narrow.svg"):
        root = ET.fromstring(files[variant])
        assert root.get("font-family") == FONT_FAMILY
        prose = [e for e in root.iter(f"{SVG_NS}text") if e not in _code_texts(root)]
        assert all(e.get("font-family") is None for e in prose)
        lines = [line for e in prose for line, _ in _lines(e)]
        # "sign in (retransmitted)": the narrow path label grows to hold the word (it was "(retransmi" / "tted)").
        assert "(retransmitted)" in lines, lines


def _without_newer_keys(path) -> bool:
    """Whether a gallery spec uses none of the keys newer than its committed output (a step's ``labels``)."""

    data = json.loads(path.read_text("utf-8"))
    return not any("labels" in step for scenario in data["scenarios"] for step in scenario["steps"])


@pytest.mark.parametrize("spec", [path for path in sorted(MECHANISMS.glob("*.mechanism.json"))
                                  if _without_newer_keys(path)], ids=lambda path: path.name)
def test_a_spec_without_text_draws_the_same_bytes_as_before(spec):
    """The gallery's specs set no ``text``, and none had a word broken: every SVG and HTML file they make is the
    committed output's (built before code labels existed).  A spec that uses a newer key (a step's ``labels``)
    draws anew until the output is rebuilt."""
    rendered = render_spec(spec, source_root=ROOT)
    assert rendered.ok, rendered.findings
    compared = 0
    for name, data in rendered.files.items():
        committed = ROOT / "output" / name
        if name.endswith((".svg", ".html")) and committed.is_file():
            assert data == committed.read_bytes(), name
            compared += 1
    assert compared >= 4


def test_a_sequences_code_message_is_set_in_the_monospace_face(tmp_path):
    """A new user's TLS handshake marked its messages ``"text": "code"``: the layout measured them in the monospace
    face, and the drawing set them in the text face.  Each of a code message's texts (label and halo) is a code text
    now; a message that is not code is not."""
    from support.sequences import oauth_spec

    data = oauth_spec()
    data["targets"]["authorize"]["text"] = "code"
    spec = tmp_path / "seq.mechanism.json"
    spec.write_text(json.dumps(data), "utf-8")
    rendered = render_spec(spec, allow_missing_sources=True)
    assert rendered.ok, rendered.findings
    name = next(n for n in rendered.files if n.endswith(".svg") and "narrow" not in n and "poster" not in n)
    root = ET.fromstring(rendered.files[name])
    coded = {"".join(t.itertext()) for t in _code_texts(root)}
    assert any("GET" in text and "/authorize" in text for text in coded), coded
    assert not any("click" in text for text in coded), coded  # "click Sign in" is not code
