"""The one jinja2 environment for every template (HTML and the SVG style sheet): package loader,
autoescaping always on, undefined names an error."""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from markupsafe import Markup

#: Characters that Markdown would take as markup outside a code span, and HTML's three.
_MARKDOWN_SPECIAL = re.compile(r"([\\*_\[\]|`])")
_HTML_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The shared environment; templates are package data under ``renderer/templates``."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("renderer", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["zip"] = zip
    env.filters["markdown_text"] = markdown_text
    env.filters["markdown_code"] = markdown_code
    return env


def markdown_code(text: str) -> Markup:
    """``text`` as a Markdown code span that also survives a table cell (``|`` escaped)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markup(f"{fence}{pad}{text.replace('|', chr(92) + '|')}{pad}{fence}")


def markdown_text(text: str) -> Markup:
    """Plain ``text`` as Markdown that shows it as written, for a paragraph or a table cell.

    Pairs of backticks stay code spans; elsewhere ``< > &`` become HTML entities and Markdown's
    markup characters (``\\ * _ [ ] | `` and a lone backtick) are backslash-escaped.
    """
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append(str(markdown_code(part[1:-1])))
        else:
            part = _MARKDOWN_SPECIAL.sub(r"\\\1", part)
            out.append("".join(_HTML_SPECIAL.get(c, c) for c in part))
    return Markup("".join(out))


def template(name: str) -> jinja2.Template:
    """The template ``name`` (``page.html``, ``fragment.html``, ``svg.css``)."""
    return environment().get_template(name)
