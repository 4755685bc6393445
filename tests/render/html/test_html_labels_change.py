"""A step's ``labels`` and the panel's changed rows in words: the transcript's entry of the step says the new
text and which rows changed, as the player's live text does, in the catalogue's words of every language."""

from __future__ import annotations

import json

import pytest

from mechdiagram.shared.assets import locale_messages, locale_tags
from mechdiagram.shared.locale import FSI, PDI, fill
from support.html_doc import parse_html
from support.outputs import render
from support.specs import minimal_spec


def relabelled(language: str) -> dict:
    data = minimal_spec()
    data["language"] = language
    data["stateLabels"]["owner"] = "Owner"
    scenario = data["scenarios"][0]
    scenario["initial"]["owner"] = "nobody"
    scenario["steps"][1]["labels"] = {"a0": "first, now full"}
    return data


def isolated(message: str, **values: str) -> str:
    return fill(message, **{name: f"{FSI}{value}{PDI}" for name, value in values.items()})


@pytest.mark.parametrize("language", sorted(locale_tags()))
def test_the_transcript_and_the_live_text_say_the_new_label_and_the_changed_rows(language):
    words = locale_messages(language)
    root = parse_html(render(relabelled(language))["ref.html"].decode("utf-8"))
    steps = json.loads(root.find("mech-diagram").attrs["data-mech-player"])["scenarios"][0]["steps"]
    sentence = words["sentence"]
    said = steps[1]["announcement"]
    assert fill(sentence, text=isolated(words["labelChanged"], label="first", value="first, now full")) in said
    assert fill(sentence, text=isolated(words["stateRowChanged"], label="Stage", value="two")) in said
    assert fill(sentence, text=isolated(words["stateRow"], label="Owner", value="nobody")) in said
    assert "labelChanged" not in steps[0]["announcement"] and words["labelChanged"][:4] not in steps[0]["announcement"]
    entries = root.find("ol", "mech-steps").find_all("li")
    relabel = entries[1].find("p", "mech-relabel")
    assert [b.words() for b in relabel.find_all("bdi")] == ["first", "first, now full"]
    assert relabel.words() == fill(words["labelChanged"], label="first", value="first, now full")
    assert entries[0].find_all("p", "mech-relabel") == []
    rows = entries[1].find("dl", "mech-state").find_all("div")
    assert [row.classes for row in rows] == [["mech-changed"], []]
    mark = rows[0].find("strong", "mech-changed-mark")
    assert mark.heard() == f"({words['changedMark']})"  # the diamond is hidden from assistive technology


def test_a_spec_without_labels_says_which_rows_changed_and_no_new_label():
    """The panel's changed mark is every figure's (issue 29: the rows a step changes); a new label is a spec's with
    ``labels`` only.  The minimal spec's one row changes in each of its two steps."""
    root = parse_html(render(minimal_spec())["ref.html"].decode("utf-8"))
    steps = json.loads(root.find("mech-diagram").attrs["data-mech-player"])["scenarios"][0]["steps"]
    assert ["(changed)" in step["announcement"] for step in steps] == [True, True]
    assert len(root.find_all("strong", "mech-changed-mark")) == 2 and root.find_all("p", "mech-relabel") == []


def test_a_mark_is_named_by_the_label_its_step_shows():
    """A step that marks a box whose label a step changed names the box by its changed text, as it shows it."""
    data = minimal_spec()
    data["scenarios"][0]["steps"][0]["labels"] = {"a0": "first, renamed"}
    data["scenarios"][0]["steps"][1]["marks"] = {"a0": "done"}
    root = parse_html(render(data)["ref.html"].decode("utf-8"))
    steps = json.loads(root.find("mech-diagram").attrs["data-mech-player"])["scenarios"][0]["steps"]
    assert f"{FSI}first, renamed{PDI} (done)" in steps[1]["announcement"]
    assert f"{FSI}first{PDI} (done)" not in steps[1]["announcement"]
