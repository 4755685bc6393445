"""The message catalogue (renderer/mechdiagram/locales): complete in every language, chosen by the spec's language,
overridden by the spec's messages block, author text isolated."""

from __future__ import annotations

import re

import pytest

from mechdiagram.shared import locale
from mechdiagram.shared.assets import locale_messages, locale_tags
from mechdiagram.shared.locale import FSI, PDI
from support.specs import ROOT

ENGLISH = locale_messages("en")


def test_the_catalogue_has_english_and_at_least_four_more_languages_one_right_to_left():
    tags = locale_tags()
    assert "en" in tags and len(tags) >= 5
    assert [t for t in tags if locale.direction(t) == "rtl"]


@pytest.mark.parametrize("tag", locale_tags())
def test_every_language_has_every_key_with_the_same_placeholders(tag):
    messages = locale_messages(tag)
    assert list(messages) == list(ENGLISH)
    for key, text in messages.items():
        assert isinstance(text, str) and text.strip(), (tag, key)
        assert locale.placeholders(text) == locale.placeholders(ENGLISH[key]), (tag, key)


@pytest.mark.parametrize("tag", [t for t in locale_tags() if t != "en"])
def test_every_other_language_is_translated(tag):
    messages = locale_messages(tag)
    same = [key for key in ("controls", "playName", "pauseName", "stepOf", "posterTitle", "reducedMotion",
                            "transcript", "limitations", "sourceVerified") if messages[key] == ENGLISH[key]]
    assert same == []


@pytest.mark.parametrize("tag", locale_tags())
def test_a_buttons_short_word_is_part_of_its_accessible_name(tag):
    # WCAG 2.2 SC 2.5.3 Label in Name: on a narrow figure a button shows its short word, named by the long one.
    messages = locale_messages(tag)
    for short, name in (("play", "playName"), ("pause", "pauseName"), ("previous", "previousName"),
                        ("next", "nextName")):
        assert messages[short].casefold() in messages[name].casefold(), (tag, short)


@pytest.mark.parametrize(("language", "entry"), [
    ("en", "en"), ("de", "de"), ("DE", "de"), ("de-AT", "de"), ("ar-EG", "ar"), ("ja-JP", "ja"),
    ("fr-CA", "fr"), ("es-419", "es"), ("pt-BR", "en"), ("ko", "en"), ("he", "en"),
])
def test_the_entry_is_chosen_by_exact_tag_then_primary_subtag_then_english(language, entry):
    assert locale.catalogue_tag(language) == entry
    words = locale.words_for(language)
    assert words.language == entry
    assert words["controls"] == locale_messages(entry)["controls"]


def test_an_exact_tag_wins_over_its_primary_subtag(monkeypatch):
    monkeypatch.setattr(locale, "locale_tags", lambda: ("en", "pt", "pt-BR"))
    assert locale.catalogue_tag("pt-br") == "pt-BR"
    assert locale.catalogue_tag("pt-PT") == "pt"


def test_the_direction_follows_the_language():
    assert [locale.direction(t) for t in ("ar", "ar-EG", "he", "fa-IR", "en", "ja", "de")] == [
        "rtl", "rtl", "rtl", "rtl", "ltr", "ltr", "ltr"]
    assert locale.words_for("ar").direction == "rtl" and locale.words_for("he").direction == "ltr"  # English words


def test_the_specs_overrides_replace_single_messages():
    words = locale.words_for("de", {"stepOf": "Takt {n}/{total}: {title}"})
    assert words.say("stepOf", n="2", total="5", title="Start") == f"Takt 2/5: {FSI}Start{PDI}"
    assert words["transcript"] == locale_messages("de")["transcript"]


def test_author_text_is_isolated_and_numbers_are_not():
    words = locale.words_for("en")
    assert words.say("stepOf", n="3", total="12", title="تحميل") == f"Step 3 of 12: {FSI}تحميل{PDI}"
    assert words.say("posterTitle", scenario="A") == f"{FSI}A{PDI}: before the first step"
    assert words.say("stateRow", label="L", value="V") == f"{FSI}L{PDI}: {FSI}V{PDI}"
    assert words.say("duration", seconds="1.5") == "(1.5 s)"
    assert locale.words_for("ar").say("posterTitle", scenario="Prefill") == f"{FSI}Prefill{PDI}: قبل الخطوة الأولى"


def test_fill_leaves_other_braces_alone():
    assert locale.fill("{n} {x} {} {{n}}", n="1") == "1 {x} {} {1}"
    assert locale.placeholders("a {n} {total} {} {1}") == {"n", "total"}


def test_wrapped_lines_each_close_and_reopen_their_isolates():
    lines = [f"Step 1: {FSI}a very", "long", f"title{PDI} here"]
    assert locale.balance_isolates(lines) == [f"Step 1: {FSI}a very{PDI}", f"{FSI}long{PDI}", f"{FSI}title{PDI} here"]
    assert locale.balance_isolates(["plain", "text"]) == ["plain", "text"]


def test_the_readme_lists_every_key_with_its_english_text():
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("### The reader's language", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([A-Za-z]+)` \| (.*) \|$", section, re.M)
    assert dict(rows) == ENGLISH and [key for key, _ in rows] == list(ENGLISH)
