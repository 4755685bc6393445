"""Rules on the spec's optional ``messages`` block, the overrides of the tool's own words
(:mod:`mechdiagram.shared.locale`): every key is a catalogue key (message-key) and every text has the
placeholders of the English message, no more and no fewer (message-placeholder); a message the catalogue writes
as a plural form (ICU MessageFormat, :func:`mechdiagram.shared.locale.plural_options`) is overridden by one with an
``other`` option (message-plural)."""

from __future__ import annotations

from mechdiagram.shared import locale
from mechdiagram.shared.assets import locale_messages
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.outline import Outline
from mechdiagram.spec.validate.wording import quote


def _listed(names: frozenset[str]) -> str:
    return ", ".join("{" + name + "}" for name in sorted(names)) or "none"


def message_overrides(ctx: RuleContext, outline: Outline) -> None:
    """Rules message-key, message-plural and message-placeholder."""
    if outline.messages is None:
        return
    english = locale_messages(locale.FALLBACK)
    valid = list(locale.keys())
    for key, text in outline.messages.items():
        if key not in english:
            ctx.add(("messages", key), f"{quote(key)} is not a message key{ctx.suggest(key, valid, 'message keys')}",
                    "message-key", key=True)
            continue
        if locale.plural_options(english[key]) is not None and locale.plural_options(text) is None:
            ctx.add(("messages", key), f"message {quote(key)} counts, so it needs a plural form such as "
                    f"{quote(english[key])}: options among zero, one, two, few, many and other, with other, "
                    "and # for the number", "message-plural")
            continue
        wanted, found = locale.placeholders(english[key]), locale.placeholders(text)
        if found != wanted:
            ctx.add(("messages", key), f"message {quote(key)} has the placeholders {_listed(found)}; it needs "
                    f"exactly {_listed(wanted)}, as {quote(english[key])}", "message-placeholder")
