"""File-name patterns of the output formats (:mod:`mechdiagram.render.outputs`): ``{slug}.{scenario}.frame-{step}.svg``.

A pattern is dot-separated pieces, each a literal or a literal around one placeholder: ``{slug}`` (the
spec's output name), ``{scenario}`` (a scenario id) or ``{step}`` (a step number, from 1).  None of the
three holds a dot, so a file name is read against a pattern piece by piece, with no regular expression
to compile (twelve of them cost every build 1 ms).
"""

from __future__ import annotations

#: The characters of a scenario id after its first, an ASCII letter (``^[A-Za-z][A-Za-z0-9_-]*$``, as the schema
#: allows them): ``{scenario}`` in a pattern.
_SCENARIO_TAIL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _fills(placeholder: str, text: str, slug: str) -> bool:
    """Whether ``text`` is what ``{placeholder}`` of a file-name pattern stands for: the spec's ``slug``, a
    scenario id, or a step number (from 1, no leading zero)."""
    if placeholder == "slug":
        return text == slug
    if placeholder == "scenario":
        return text[:1].isascii() and text[:1].isalpha() and _SCENARIO_TAIL.issuperset(text[1:])
    return text.isascii() and text.isdigit() and text[0] != "0"  # "step"


def _piece_matches(piece: str, text: str, slug: str) -> bool:
    """Whether the dot-free ``text`` fits the dot-free ``piece`` of a pattern: a literal, or a literal before
    and after one placeholder (``frame-{step}``)."""
    head, brace, rest = piece.partition("{")
    if not brace:
        return text == piece
    name, _, tail = rest.partition("}")
    return (len(text) > len(head) + len(tail) and text.startswith(head) and text.endswith(tail)
            and _fills(name, text[len(head):len(text) - len(tail)], slug))


def matches(pattern: str, name: str, slug: str) -> bool:
    """Whether file ``name`` (no folder) fits ``pattern`` for the spec named ``slug``, piece by piece."""
    pieces, parts = pattern.split("."), name.split(".")
    return len(pieces) == len(parts) and all(_piece_matches(p, t, slug) for p, t in zip(pieces, parts, strict=True))


def readable(pattern: str) -> bool:
    """Whether :func:`matches` can read ``pattern``: it starts with ``{slug}.`` and each dot-separated piece is
    a literal or holds one known placeholder."""
    pieces = pattern.split(".")
    return len(pieces) > 1 and pieces[0] == "{slug}" and all(_readable_piece(piece) for piece in pieces)


def _readable_piece(piece: str) -> bool:
    """Whether one dot-separated ``piece`` is a literal, or a literal around one known placeholder."""
    if "{" not in piece and "}" not in piece:
        return True
    _, _, rest = piece.partition("{")
    name, close, tail = rest.partition("}")
    return bool(close) and name in ("slug", "scenario", "step") and "{" not in tail and "}" not in tail
