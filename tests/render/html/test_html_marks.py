"""Marks in words: the transcript and the player's announcement name each mark of a step ("page 7 (new)") from the
message catalogue, in all six languages, and a spec's ``messages`` overrides the words; the legend uses the same
words."""

from __future__ import annotations

import html
import json
import re
from xml.etree import ElementTree

import pytest

from mechdiagram.shared.assets import locale_messages, locale_tags
from mechdiagram.shared.locale import FSI, PDI
from mechdiagram.shared.model import MARKS
from support.outputs import render
from support.specs import minimal_spec

SVG = "{http://www.w3.org/2000/svg}"
KEYS = {mark: f"mark{mark.capitalize()}" for mark in MARKS}


def marked(language: str) -> dict:
    data = minimal_spec()
    data["language"] = language
    data["scenarios"][0]["steps"][1]["marks"] = {"a1": "new", "ab": "lost"}
    return data


def _transcript_marks(page: str) -> list[str]:
    return re.findall(r'<p class="mech-marks">([^<]*)</p>', page)


def test_every_language_names_every_mark():
    assert set(locale_tags()) == {"en", "de", "es", "fr", "ja", "ar"}
    for tag in locale_tags():
        words = locale_messages(tag)
        names = [words[KEYS[mark]] for mark in MARKS]
        assert all(names) and len(set(names)) == len(MARKS), tag
        assert "{label}" in words["marked"] and "{mark}" in words["marked"], tag


@pytest.mark.parametrize("tag", ["en", "de", "es", "fr", "ja", "ar"])
def test_the_transcript_names_a_steps_marks_in_the_spec_language(tag):
    files = render(marked(tag), "tiny")
    page = files["tiny.html"].decode()
    words = locale_messages(tag)
    said = [words["marked"].replace("{label}", f"{FSI}{label}{PDI}").replace("{mark}", words[KEYS[mark]])
            for label, mark in (("second", "new"), ("flow", "lost"))]
    assert _transcript_marks(page) == [", ".join(said)]
    # the player announces them with the step (its data: JSON in an attribute, HTML-escaped)
    raw = re.search(r"data-mech-player='([^']*)'", page).group(1)
    data = json.loads(html.unescape(raw))
    announcement = data["scenarios"][0]["steps"][1]["announcement"]
    assert all(text in announcement for text in said)
    assert not any(text in data["scenarios"][0]["steps"][0]["announcement"] for text in said)
    legend = ElementTree.fromstring(files["tiny.main.frame-2.svg"] if "tiny.main.frame-2.svg" in files
                                    else files["tiny.main.svg"])
    texts = [t.text for g in legend.iter(f"{SVG}g") if g.get("class", "").endswith("-legend")
             for t in g.iter(f"{SVG}text")]
    assert texts == [words["markNew"], words["markLost"]]


def test_a_spec_overrides_the_words_of_marks():
    data = marked("en")
    data["messages"] = {"markNew": "fresh", "marked": "{label} is {mark}"}
    files = render(data, "tiny")
    page = files["tiny.html"].decode()
    assert _transcript_marks(page) == [f"{FSI}second{PDI} is fresh, {FSI}flow{PDI} is lost"]
    root = ElementTree.fromstring(files["tiny.main.svg"])
    texts = [t.text for g in root.iter(f"{SVG}g") if g.get("class", "").endswith("-legend") for t in g.iter(f"{SVG}text")]
    assert texts == ["fresh", "lost"]


def test_a_spec_without_marks_has_no_words_for_them():
    page = render(minimal_spec(), "tiny")["tiny.html"].decode()
    assert "mech-marks" not in page
