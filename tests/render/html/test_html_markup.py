"""Text is never markup in the HTML: with hostile text in every field of a spec (:mod:`support.hostile`),
the page and fragment hold exactly the elements and attributes that a spec with plain text gives (as
html5lib parses them), the hostile text comes back intact as text, and the player and style sheets
are byte-identical."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support.hostile import LONG, PROBES, SHORT, SOURCE_PATH, WORD
from support.html_doc import attributes, inventory, parse_html, raw_text, text_content


def parse(path: Path):
    return parse_html(path.read_text("utf-8"))


@pytest.mark.parametrize("name", ["html", "fragment.html"])
def test_html_has_only_our_elements_and_attributes(hostile_outputs, name):
    hostile, plain = hostile_outputs
    page, reference = parse(hostile / f"spec.{name}"), parse(plain / f"spec.{name}")
    assert inventory(page) == inventory(reference)
    found = attributes(page)
    assert {n for _, n, _ in found} == {n for _, n, _ in attributes(reference)}
    assert not [a for a in found if a[1].startswith("on")]
    assert not [a for a in found if (a[2] or "").strip().lower().startswith("javascript:")]
    assert len(raw_text(page, "script")) == len(raw_text(reference, "script"))
    assert len(raw_text(page, "style")) == len(raw_text(reference, "style"))


@pytest.mark.parametrize("name", ["html", "fragment.html"])
def test_html_text_comes_back_verbatim(hostile_outputs, name):
    hostile, _ = hostile_outputs
    page = parse(hostile / f"spec.{name}")
    text = text_content(page)
    for probe in PROBES + [WORD]:
        assert probe in text, probe
    values = [v for _, _, v in attributes(page) if v]
    if name == "html":
        assert SHORT in text  # <title>, <h1>
        assert LONG in values  # <meta name="description">
    # The player's data is JSON in an attribute of the figure: it parses and holds the text.
    data = json.loads(next(v for tag, n, v in attributes(page) if (tag, n) == ("mech-diagram", "data-mech-player")))
    assert f"\u2068{SHORT}\u2069: \u2068{LONG[:1000]}\u2069." in data["scenarios"][1]["steps"][1]["announcement"]
    # Nothing the author wrote appears raw where a browser would read markup.
    raw = (hostile / f"spec.{name}").read_text("utf-8")
    for dangerous in ("<script>alert", "<img src=x", "<!-- comment -->", "<![CDATA[x"):
        assert dangerous not in raw


def test_source_path_is_text_too(hostile_outputs):
    hostile, _ = hostile_outputs
    page = parse(hostile / "spec.html")
    assert SOURCE_PATH in text_content(page)
    assert ("b", frozenset()) not in inventory(page)


#: The figure width at which a scene switches layouts, in its markup: a number the drawing's width decides.
BREAKPOINT = re.compile(r'(?<=data-mech-wide-from=")[0-9]+(?:\.[0-9])?(?=")')


def test_player_and_style_are_unchanged_by_author_text(hostile_outputs):
    """The player (module and style sheet, inlined in the page, named by the fragment) is byte-identical between
    the hostile and the plain build, and so are the drawings' style sheets: author text reaches neither.  Only
    the layout switch, an attribute of the figure's markup, follows the drawing's width (longer text, wider
    boxes)."""
    hostile, plain = hostile_outputs
    for name in ("html", "fragment.html"):
        page, reference = parse(hostile / f"spec.{name}"), parse(plain / f"spec.{name}")
        assert raw_text(page, "script") == raw_text(reference, "script")
        assert raw_text(page, "style") == raw_text(reference, "style")
        player = [(tag, n, v) for tag, n, v in attributes(page) if n in ("src", "href")]
        assert player == [(tag, n, v) for tag, n, v in attributes(reference) if n in ("src", "href")]
        assert len(player) == (0 if name == "html" else 2)
        assert BREAKPOINT.findall((hostile / f"spec.{name}").read_text("utf-8")) != []
    assert raw_text(parse(hostile / "spec.html"), "script")[0].startswith("/* mechdiagram step player")
