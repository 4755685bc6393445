"""The reader's language: the tool's own words from the message catalogue, chosen by the spec's language.

The catalogue is package data, one JSON file per language under ``renderer/mechdiagram/locales`` (read by
:mod:`mechdiagram.shared.assets`), every file with the same keys and the same ``{name}`` placeholders as
``en.json``.  :func:`words_for` picks the entry by the spec's exact BCP 47 tag, then its primary
subtag, then English, and lays the spec's optional ``messages`` block over it.

Author text inside the tool's phrases is always isolated: :func:`isolate` wraps it in U+2068 FIRST
STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE (Unicode UAX #9) for SVG text and plain-text
strings; the HTML templates use ``<bdi>``.  The SVG's own right-to-left lines carry ``direction="rtl"``
(:mod:`mechdiagram.render.svg`): WebKit's SVG text ignores a right-to-left isolate character, but not that.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from msgspec import Struct

from mechdiagram.shared.assets import locale_messages, locale_tags

#: The entry used when no catalogue entry matches the spec's language.
FALLBACK = "en"

#: Primary language subtags written right to left (the HTML dir attribute follows the spec's language).
RTL_LANGUAGES = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "ks", "ku", "ps", "sd", "syr", "ug", "ur", "yi"})

FSI, PDI = "\u2068", "\u2069"

_PLACEHOLDER = re.compile(r"\{([A-Za-z]+)\}")

#: Placeholders that stand for author text, always filled in isolated; the others (``n``, ``total``,
#: ``seconds``, ``text``) take numbers or the tool's own words.
AUTHOR_PLACEHOLDERS = frozenset({"title", "scenario", "label", "value", "group", "source", "dest"})

#: A message that depends on a count, in ICU MessageFormat's plural form with ``#`` for the number:
#: ``{n, plural, one {# arrow out} other {# arrows out}}`` (its options need no ``{placeholder}`` of their own).
_PLURAL = re.compile(r"^\{n, plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}$")
_PLURAL_OPTION = re.compile(r"(zero|one|two|few|many|other)\s*\{([^{}]*)\}")


def plural_category(language: str, n: int) -> str:
    """The CLDR plural category (Unicode CLDR 44, ``plurals.xml``, integer operands only) of the count ``n``
    in ``language`` (a catalogue tag): ``zero``, ``one``, ``two``, ``few``, ``many`` or ``other``.  Languages
    without a rule here take English's."""
    lang = primary(language)
    if lang == "ja":
        return "other"
    if lang == "ar":
        if n in (0, 1, 2):
            return ("zero", "one", "two")[n]
        return "few" if 3 <= n % 100 <= 10 else "many" if 11 <= n % 100 <= 99 else "other"
    if lang == "fr":
        return "one" if n in (0, 1) else "many" if n and n % 1_000_000 == 0 else "other"
    if lang == "es":
        return "one" if n == 1 else "many" if n and n % 1_000_000 == 0 else "other"
    return "one" if n == 1 else "other"


def plural_options(text: str) -> dict[str, str] | None:
    """The options of a plural message (:data:`_PLURAL`) by category, or ``None`` when ``text`` is not one or
    has no ``other`` option."""
    match = _PLURAL.match(text.strip())
    if match is None:
        return None
    options = dict(_PLURAL_OPTION.findall(match.group(1)))
    return options if "other" in options else None


def primary(tag: str) -> str:
    """The primary language subtag of a BCP 47 tag, lower case (``"pt-BR"`` -> ``"pt"``)."""
    return tag.split("-")[0].lower()


def direction(tag: str) -> str:
    """``"rtl"`` for a language written right to left, else ``"ltr"``."""
    return "rtl" if primary(tag) in RTL_LANGUAGES else "ltr"


def catalogue_tag(language: str) -> str:
    """The catalogue entry for a spec's ``language``: the exact tag (ignoring case), else its primary
    subtag, else :data:`FALLBACK`."""
    tags = {tag.lower(): tag for tag in locale_tags()}
    return tags.get(language.lower()) or tags.get(primary(language)) or FALLBACK


def keys() -> tuple[str, ...]:
    """Every message key, in the order of the English entry."""
    return tuple(locale_messages(FALLBACK))


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` placeholders of a message (other braces are plain text)."""
    return frozenset(_PLACEHOLDER.findall(text))


def isolate(text: str) -> str:
    """Author text as a bidi isolate (FSI ... PDI), for SVG text and plain-text strings."""
    return FSI + text + PDI


def fill(message: str, **values: str) -> str:
    """``message`` with each ``{name}`` replaced by ``values[name]`` as it is (a name not given stays)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), message)


def balance_isolates(lines: list[str]) -> list[str]:
    """Wrapped lines of one isolated phrase, each closing the isolates it opens and reopening those an
    earlier line left open, so every SVG ``<tspan>`` line is balanced on its own."""
    out: list[str] = []
    carried = ""
    for line in lines:
        text = carried + line
        open_: list[str] = []
        for char in text:
            if char == FSI:
                open_.append(char)
            elif char == PDI and open_:
                open_.pop()
        out.append(text + PDI * len(open_))
        carried = "".join(open_)
    return out


class Words(Struct, frozen=True):
    """The tool's words for one spec: ``language`` the catalogue entry used (a tag of
    :func:`~mechdiagram.shared.assets.locale_tags`), ``direction`` its writing direction, ``messages`` every key's
    text (the entry with the spec's overrides laid over it)."""

    language: str
    direction: str
    messages: Mapping[str, str]

    def __getitem__(self, key: str) -> str:
        return self.messages[key]

    def say(self, key: str, **values: str) -> str:
        """Message ``key`` filled in, author text (:data:`AUTHOR_PLACEHOLDERS`) as isolates: plain text,
        for SVG text, JSON and attributes."""
        return fill(self.messages[key], **{name: isolate(value) if name in AUTHOR_PLACEHOLDERS else value
                                            for name, value in values.items()})

    def count(self, key: str, n: int) -> str:
        """Plural message ``key`` (:func:`plural_options`) for the count ``n``: the option of ``n``'s category
        in the words' language (:func:`plural_category`), else ``other``, with ``#`` replaced by ``n``.
        A message that is not a plural form is returned as it is."""
        options = plural_options(self.messages[key])
        if options is None:
            return self.messages[key]
        return options.get(plural_category(self.language, n), options["other"]).replace("#", str(n))


def words_for(language: str, overrides: Mapping[str, str] | None = None) -> Words:
    """The tool's words for a spec in ``language`` (BCP 47) with its ``messages`` block ``overrides``
    (keys of :func:`keys`, already validated)."""
    tag = catalogue_tag(language)
    messages = {**locale_messages(tag), **(overrides or {})}
    return Words(tag, direction(tag), messages)
