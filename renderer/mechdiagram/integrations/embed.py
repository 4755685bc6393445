"""The ``<picture>`` a README or a plain HTML page embeds a figure with (``mechdiagram embed``).

The picture names the SVG files ``mechdiagram build`` writes to the output folder: the wide drawing in light and
dark from the window width at which its smallest text renders at 12 CSS px
(:func:`mechdiagram.render.html.readable_width`, of the window, which is all ``<picture>`` can ask), the narrow
one below it, the dark files under ``prefers-color-scheme: dark``; in a column that never gets that wide (a GitHub
README's, at most about 830 px) the narrow drawing alone.  The ``<img>`` carries the spec's ``alt``; a link under it
leads to the HTML page, which has the pause control and the transcript.
"""

from __future__ import annotations

import html
import math
import os
from pathlib import Path

from msgspec import Struct, field

from mechdiagram.api import render_spec
from mechdiagram.render.html import readable_width
from mechdiagram.shared.errors import UsageError
from mechdiagram.shared.findings import Finding

#: The link under the picture, to the figure's page (the README's words for it).
PAGE_LINK = "Step through this diagram, with a transcript"


class Picture(Struct):
    """What :func:`picture` gives: ``html`` (the markup, ending in a newline; ``""`` when the spec has errors)
    and ``findings`` (every finding of the spec)."""

    html: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no finding is an error."""
        return not any(f.is_error for f in self.findings)


def _url(path: Path, relative_to: Path) -> str:
    """``path`` relative to the folder ``relative_to``, with ``/`` separators and URL-safe (``%`` escapes)."""
    from urllib.parse import quote

    return quote(Path(os.path.relpath(path.resolve(), relative_to.resolve())).as_posix())


def picture(spec: Path, *, output: Path, relative_to: Path, scenario: str | None = None,
            column: float | None = None) -> Picture:
    """The ``<picture>`` of the spec at ``spec`` (scenario ``scenario``, default its first), naming the files a
    build writes to the folder ``output``, by URLs relative to the folder ``relative_to`` (where the page or README
    that embeds it is).  ``column`` is the widest the picture's column gets, CSS px (``None``: as wide as the
    window): when the wide drawing would not read at 12 px there, the picture has the narrow one alone.  Bad input
    never raises: an invalid spec or an unknown scenario is a finding.  Raises
    :class:`~mechdiagram.shared.errors.UsageError` for a ``column`` that is not a finite number of at least 1."""
    if column is not None and not (math.isfinite(column) and column >= 1):
        raise UsageError(f"column must be a finite width of at least 1 CSS px, not {column!r}")
    rendered = render_spec(spec)
    if not rendered.ok or rendered.figure is None:
        return Picture("", rendered.findings)
    record = rendered.figure
    ids = [s["id"] for s in record["scenarios"]]
    chosen = scenario if scenario is not None else ids[0]
    if chosen not in ids:
        line, column = rendered.loaded.locate("/scenarios")
        return Picture("", [*rendered.findings, Finding(
            rendered.loaded.display, "/scenarios", f"no scenario {chosen!r}: name one of {', '.join(ids)}",
            "unknown-scenario", line=line, column=column)])
    stem = f"{rendered.slug}.{chosen}"
    url = {kind: _url(output / f"{stem}{kind}.svg", relative_to)
           for kind in ("", ".dark", ".narrow", ".narrow.dark") if f"{stem}{kind}.svg" in rendered.files}
    # One line: a line break in the attribute would let a blank line end Markdown's HTML block inside it, and the
    # rest of the alt text would be read as Markdown (and its links as attributes of the <img>).
    alt = html.escape(" ".join(record["alt"].split()))
    lines = ["<picture>"]
    readable = math.ceil(readable_width(record.get("width", 0)))
    if ".narrow" in url and column is not None and readable > column:
        lines += [f'  <source srcset="{url[".narrow.dark"]}" media="(prefers-color-scheme: dark)">',
                  f'  <img src="{url[".narrow"]}" alt="{alt}">']
    elif ".narrow" in url:
        wide = f"(min-width: {readable}px)"
        lines += [f'  <source srcset="{url[".dark"]}" media="{wide} and (prefers-color-scheme: dark)">',
                  f'  <source srcset="{url[""]}" media="{wide}">',
                  f'  <source srcset="{url[".narrow.dark"]}" media="(prefers-color-scheme: dark)">',
                  f'  <img src="{url[".narrow"]}" alt="{alt}">']
    else:
        lines += [f'  <source srcset="{url[".dark"]}" media="(prefers-color-scheme: dark)">',
                  f'  <img src="{url[""]}" alt="{alt}">']
    page = _url(output / f"{rendered.slug}.html", relative_to)
    lines += ["</picture>", f'<p><a href="{page}">{html.escape(PAGE_LINK)}</a></p>']
    return Picture("\n".join(lines) + "\n", rendered.findings)


__all__ = ["PAGE_LINK", "Picture", "picture"]
