"""Package data, read through :mod:`importlib.resources`: the schema, templates' neighbours, the
player's JS and CSS and the message catalogue (the text metrics are a module, :mod:`mechdiagram.layout.text_metrics`).
Nothing is read from the working directory."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


def _files(package: str) -> Traversable:
    """:func:`importlib.resources.files` of ``package``, imported when first asked for: importing it costs
    5 ms (it brings :mod:`tempfile`, and that :mod:`shutil` and :mod:`random`), which a command that reads
    no package data (``validate`` of a spec with no message overrides) need not pay."""
    return resources.files(package)


def _schema_folder() -> Traversable:
    try:
        return _files("mechdiagram.schema")
    except ModuleNotFoundError:  # an editable install of a source checkout: schema/ beside renderer/
        return _files("mechdiagram").joinpath("..", "..", "schema")


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
    """A file under ``renderer/mechdiagram/static`` (the player's JS and CSS)."""
    return _files("mechdiagram").joinpath("static", name).read_text("utf-8")


#: The templates a site may replace with its own (``--template-dir``, ``mechdiagram templates``), under
#: ``renderer/mechdiagram/templates``: the standalone page, the fragment, the figure both put in, the player's style
#: sheet, the drawing's motion and the colour rules of an SVG inlined in HTML.
SITE_TEMPLATES = ("page.html", "fragment.html", "figure.html", "player.css", "svg.css", "svg-colours.css")


def template_bytes(name: str) -> bytes:
    """The bytes of the package template ``name`` (one of :data:`SITE_TEMPLATES`, or another file under
    ``renderer/mechdiagram/templates``).  Raises ``OSError`` when there is none."""
    return _files("mechdiagram").joinpath("templates", name).read_bytes()


#: Package data folders whose files decide what a build writes (see :func:`package_data`).
_OUTPUT_DATA = ("templates", "static", "locales")


def _walk(folder: Traversable, prefix: str) -> list[tuple[str, bytes]]:
    files: list[tuple[str, bytes]] = []
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        name = f"{prefix}/{item.name}"
        if item.is_dir():
            if item.name != "__pycache__":
                files.extend(_walk(item, name))
        elif not item.name.endswith((".py", ".pyc")):
            files.append((name, item.read_bytes()))
    return files


@lru_cache(maxsize=1)
def package_data() -> tuple[tuple[str, bytes], ...]:
    """Every package data file that decides output (templates, player, the message catalogue, text metrics,
    the schema), as sorted ``(name, bytes)`` pairs; the build key hashes them.  (The fonts decide the
    pictures alone: the picture formats add them, :func:`mechdiagram.render.raster.fonts_digest`.)"""
    files: list[tuple[str, bytes]] = []
    for name in _OUTPUT_DATA:
        files.extend(_walk(_files("mechdiagram").joinpath(name), name))
    files.append(("schema/mechanism.schema.json", schema_text().encode("utf-8")))
    # The text metrics are a module (it loads without importlib.resources), but data all the same.
    files.append(("layout/text_metrics.py", _files("mechdiagram").joinpath("layout", "text_metrics.py").read_bytes()))
    return tuple(files)


def _locale_folder() -> Traversable:
    return _files("mechdiagram").joinpath("locales")


@lru_cache(maxsize=1)
def locale_tags() -> tuple[str, ...]:
    """The language tags of the message catalogue (``renderer/mechdiagram/locales/<tag>.json``), sorted."""
    return tuple(sorted(entry.name.removesuffix(".json") for entry in _locale_folder().iterdir()
                        if entry.name.endswith(".json")))


@cache
def locale_messages(tag: str) -> dict[str, str]:
    """The catalogue entry of language ``tag`` (one of :func:`locale_tags`): message key -> text
    (a shared object: do not change it)."""
    messages: dict[str, str] = json.loads(_locale_folder().joinpath(f"{tag}.json").read_text("utf-8"))
    return messages
