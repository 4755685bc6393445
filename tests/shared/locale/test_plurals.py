"""Plural messages of the catalogue (ICU MessageFormat's plural form) and the CLDR plural rules that pick an
option: every language's counting messages, Arabic's six categories, an override's own form."""

from __future__ import annotations

import pytest

from mechdiagram.shared import locale
from mechdiagram.shared.assets import locale_messages, locale_tags

COUNTING = ("exploreNodes", "exploreArrowsOut", "exploreArrowsIn")

#: Each language's categories of 0, 1, 2, 3, 11, 100, 102 and 1000000 (CLDR 44, plurals.xml).
CATEGORIES = {
    "en": ["other", "one", "other", "other", "other", "other", "other", "other"],
    "de": ["other", "one", "other", "other", "other", "other", "other", "other"],
    "es": ["other", "one", "other", "other", "other", "other", "other", "many"],
    "fr": ["one", "one", "other", "other", "other", "other", "other", "many"],
    "ja": ["other"] * 8,
    "ar": ["zero", "one", "two", "few", "many", "other", "other", "other"],
}


@pytest.mark.parametrize("tag", sorted(CATEGORIES))
def test_the_plural_category_follows_cldr(tag):
    assert [locale.plural_category(tag, n) for n in (0, 1, 2, 3, 11, 100, 102, 1_000_000)] == CATEGORIES[tag]
    assert locale.plural_category(tag, 103) == CATEGORIES[tag][3]  # Arabic's few: 3-10 of each hundred


@pytest.mark.parametrize("tag", locale_tags())
def test_every_counting_message_is_a_plural_form_with_the_languages_categories(tag):
    for key in COUNTING:
        options = locale.plural_options(locale_messages(tag)[key])
        assert options is not None, (tag, key)
        used = {locale.plural_category(tag, n) for n in range(0, 2_000)} | {locale.plural_category(tag, 1_000_000)}
        assert used <= set(options), (tag, key)


def test_counts_are_worded_per_language():
    assert [locale.words_for("en").count("exploreArrowsOut", n) for n in (1, 3)] == ["1 arrow out", "3 arrows out"]
    assert [locale.words_for("fr").count("exploreArrowsIn", n) for n in (0, 2)] == [
        "0 flèche entrante", "2 flèches entrantes"]
    assert [locale.words_for("ar").count("exploreArrowsOut", n) for n in (1, 2, 3, 11, 100)] == [
        "سهم خارج واحد", "سهمان خارجان", "3 أسهم خارجة", "11 سهمًا خارجًا", "100 سهم خارج"]
    assert locale.words_for("ja").count("exploreNodes", 4) == "4 個のボックス"


def test_an_override_is_counted_and_a_missing_category_falls_back_to_other():
    words = locale.words_for("en", {"exploreNodes": "{n, plural, other {# cells}}"})
    assert words.count("exploreNodes", 1) == "1 cells"
    assert locale.words_for("en").count("transcript", 2) == "Transcript"  # not a plural form: as it is


@pytest.mark.parametrize("text", ["{n, plural, one {# box}}", "# boxes", "{n, plural, one {# box} other {# {x}}}",
                                  "{count, plural, other {#}}", "{n, plural, several {#} other {#}}"])
def test_what_is_not_a_plural_form(text):
    assert locale.plural_options(text) is None
