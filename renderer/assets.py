"""Package data, read through :mod:`importlib.resources`: the schema, templates' neighbours, the
player's JS and CSS, the text metrics and the message catalogue.  Nothing is read from the working directory."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any


def _schema_folder() -> Traversable:
    try:
        return resources.files("renderer.schema")
    except ModuleNotFoundError:  # an editable install of a source checkout: schema/ beside renderer/
        return resources.files("renderer").joinpath("..", "schema")


@lru_cache(maxsize=1)
def schema_text() -> str:
    """The text of the mechanism spec JSON Schema, ``mechanism.schema.json``."""
    return _schema_folder().joinpath("mechanism.schema.json").read_text("utf-8")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The mechanism spec JSON Schema, parsed (a shared object: do not change it)."""
    parsed: dict[str, Any] = json.loads(schema_text())
    return parsed


@cache
def static_text(name: str) -> str:
    """A file under ``renderer/static`` (the player's JS and CSS)."""
    return resources.files("renderer").joinpath("static", name).read_text("utf-8")


@lru_cache(maxsize=1)
def text_advances() -> dict[str, int]:
    """Advance widths per character, in font units of 1000 per em (``data/text-metrics.json``)."""
    text = resources.files("renderer").joinpath("data", "text-metrics.json").read_text("utf-8")
    advances: dict[str, int] = json.loads(text)["advance"]
    return advances


def _locale_folder() -> Traversable:
    return resources.files("renderer").joinpath("locales")


@lru_cache(maxsize=1)
def locale_tags() -> tuple[str, ...]:
    """The language tags of the message catalogue (``renderer/locales/<tag>.json``), sorted."""
    return tuple(sorted(entry.name.removesuffix(".json") for entry in _locale_folder().iterdir()
                        if entry.name.endswith(".json")))


@cache
def locale_messages(tag: str) -> dict[str, str]:
    """The catalogue entry of language ``tag`` (one of :func:`locale_tags`): message key -> text
    (a shared object: do not change it)."""
    messages: dict[str, str] = json.loads(_locale_folder().joinpath(f"{tag}.json").read_text("utf-8"))
    return messages
