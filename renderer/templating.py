"""The one jinja2 environment for every template (HTML and the SVG style sheet): package loader,
autoescaping always on, undefined names an error."""

from __future__ import annotations

from functools import lru_cache

import jinja2


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
    return env


def template(name: str) -> jinja2.Template:
    """The template ``name`` (``page.html``, ``fragment.html``, ``svg.css``)."""
    return environment().get_template(name)
