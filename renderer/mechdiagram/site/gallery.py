"""The gallery page, ``index.html``: every figure of the output folder with its poster, title, caption and files.

It is the one output of a whole build rather than of a spec: ``build`` writes it
after every spec, when it builds a folder of specs, from the manifest's entries
(so it also lists specs this run did not build, or that failed and kept their
previous output).  Each entry's ``figure`` record (:func:`mechdiagram.render.figure.figure_record`)
carries what the page shows.  The manifest records the page's SHA-256; an
``index.html`` whose bytes it does not record was not written by mechdiagram
and is never overwritten (:func:`plan_index`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypedDict

from msgspec import Struct

from mechdiagram.render import theme
from mechdiagram.render.html import readable_width
from mechdiagram.render.outputs import format_of, formats
from mechdiagram.render.svg import fmt as number
from mechdiagram.shared.files import display_path, read_regular, sha256_hex
from mechdiagram.shared.findings import Finding
from mechdiagram.site.manifest import INDEX
from mechdiagram.spec.discovery import slug_for

#: The gallery's heading and document title (the page's own words are English).
INDEX_TITLE = "Figures"


class LinkContext(TypedDict):
    """One file of a figure: its name (relative to index.html) and what it is."""

    href: str
    label: str


class GalleryFigure(TypedDict):
    """One figure on the gallery page."""

    id: str
    title: str
    caption: str
    alt: str
    language: str
    poster: str | None  # file name of the first scenario's poster SVG
    poster_dark: str | None  # and of its dark colours, for prefers-color-scheme: dark
    narrow: str | None  # the same scenario's narrow poster, the thumbnail on a card too narrow for the poster
    narrow_dark: str | None  # and of its dark colours
    narrow_below: str | None  # the card width (CSS px, as written) below which the narrow poster is shown
    page: str | None  # file name of the standalone HTML page
    links: list[LinkContext]


def _figure(key: str, entry: dict[str, Any]) -> GalleryFigure | None:
    record = entry.get("figure")
    names = [item["path"] for item in entry.get("outputs", [])
             if isinstance(item, dict) and isinstance(item.get("path"), str)]
    if not isinstance(record, dict) or not all(isinstance(record.get(k), str)
                                               for k in ("title", "caption", "alt", "language")):
        return None  # an entry written before the gallery existed, or hand-edited
    slug = slug_for(Path(key))
    scenarios = [s.get("id") for s in record.get("scenarios", []) if isinstance(s, dict)]
    posters = [f"{slug}.{sid}.poster.svg" for sid in scenarios if f"{slug}.{sid}.poster.svg" in names]
    dark = posters[0].removesuffix(".svg") + ".dark.svg" if posters else None
    narrow = posters[0].removesuffix(".poster.svg") + ".narrow.poster.svg" if posters else None
    narrow_dark = narrow.removesuffix(".svg") + ".dark.svg" if narrow else None
    width = record.get("width")
    # the narrow thumbnail's switch, from the wide drawing's width (absent from records of earlier releases)
    below = number(readable_width(width)) if type(width) is int and width > 0 and narrow in names else None
    rank = {fmt.name: (fmt.group_name() != "html", i) for i, fmt in enumerate(formats())}  # pages first
    owned = sorted((rank[fmt.name], name, fmt.summary) for name in names if (fmt := format_of(slug, name)))
    links: list[LinkContext] = [{"href": name, "label": summary} for _, name, summary in owned]
    return {"id": f"mech-gallery-{slug}", "title": record["title"], "caption": record["caption"],
            "alt": record["alt"], "language": record["language"], "poster": posters[0] if posters else None,
            "poster_dark": dark if dark in names else None,
            "narrow": narrow if below else None, "narrow_dark": narrow_dark if below and narrow_dark in names else None,
            "narrow_below": below,
            "page": f"{slug}.html" if f"{slug}.html" in names else None, "links": links}


def render_index(entries: dict[str, dict[str, Any]]) -> bytes:
    """``index.html`` (UTF-8) for manifest ``entries`` by spec key, figures in key order."""
    figures = [f for f in (_figure(key, entries[key]) for key in sorted(entries)) if f is not None]
    colours = {"light": theme.LIGHT, "dark": theme.DARK}
    from mechdiagram.render.templating import (
        template,  # jinja2: loaded by a build that writes the page, not by validate
    )

    return template("index.html").render(title=INDEX_TITLE, figures=figures, colours=colours).encode("utf-8")


class IndexPlan(Struct, frozen=True):
    """What to do with ``index.html``: write ``data``, or leave a foreign file alone (``refused``, a warning)."""

    data: bytes
    refused: Finding | None = None


def plan_index(output: Path, data: bytes, recorded: str | None) -> IndexPlan:
    """Write ``data`` as ``output/index.html`` unless a file is there whose bytes are neither ``data`` nor
    those the manifest recorded (SHA-256 ``recorded``): that file is someone else's, and stays."""
    path = output / INDEX
    if os.path.lexists(path) and not os.path.islink(path):  # a link is replaced, never followed (build warns)
        on_disk = read_regular(path)
        current = None if on_disk is None else sha256_hex(on_disk)
        if current not in (recorded, sha256_hex(data)) or current is None:
            return IndexPlan(data, Finding(
                display_path(path), None,
                "was not written by mechdiagram (manifest.json does not record its bytes), so it is left as it is; "
                "move it away or pass --no-index", "index-foreign", severity="warning"))
    return IndexPlan(data)
