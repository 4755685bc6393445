"""What the preview server answers, by URL path: its own pages (rendered from templates, with the
reload script), the built files of the current snapshot, and nothing else.

:func:`resolve` maps a request path to a :class:`Response` or ``None`` (404).  Built files are looked
up by exact name in the snapshot, which is the allow-list: no request path reaches the file system,
so ``..``, absolute, encoded and symlinked paths have nothing to lead to.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import unquote

import msgspec.structs
from markupsafe import Markup
from msgspec import Struct

from mechdiagram.render import theme
from mechdiagram.render.templating import template
from mechdiagram.serve.snapshot import Snapshot, SpecPreview
from mechdiagram.shared.assets import static_text
from mechdiagram.shared.findings import Finding

#: The server's own paths; authors' files never start with ``/__mechdiagram/``.
URLS = {"reload": "/__mechdiagram/reload.js", "css": "/__mechdiagram/preview.css", "events": "/__mechdiagram/events"}

#: Where a spec's preview lives: ``/preview/SLUG``.
PREVIEW_PREFIX = "/preview/"

#: Media types by file-name ending, for built files and our own.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".gif": "image/gif",
    ".json": "application/json",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}

#: The policy of the server's own pages: scripts, styles and event streams from the server only (the player
#: module among them), and on a spec's preview the inlined fragment's style attributes and drawings' style
#: sheets.  Built files are served as they are, with the policy they carry.
OWN_PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'{inline}; connect-src 'self'; "
                "img-src 'self' data:; base-uri 'none'; form-action 'none'")


class Response(Struct, frozen=True):
    """A whole response: ``status`` (200, 302, or 404 for a spec's preview that is not there),
    ``content_type``, ``body`` bytes, and for a redirect its ``location``; ``csp`` is a
    Content-Security-Policy header value or ``None``."""

    status: int
    content_type: str
    body: bytes
    location: str | None = None
    csp: str | None = None


def content_type(name: str) -> str:
    """The media type for a file ``name`` (``application/octet-stream`` for an ending not listed)."""
    return next((kind for ending, kind in CONTENT_TYPES.items() if name.endswith(ending)),
                "application/octet-stream")


def _status(spec: SpecPreview) -> str:
    errors = sum(f.is_error for f in spec.findings)
    warnings = len(spec.findings) - errors
    parts = [f"{errors} error(s)"] if errors else ["built"]
    if warnings:
        parts.append(f"{warnings} other finding(s)")
    return ", ".join(parts)


def _finding(finding: Finding) -> dict[str, Any]:
    place = finding.file + (f":{finding.line}:{finding.column or 1}" if finding.line is not None else "")
    return {"place": place, "severity": finding.severity, "pointer": finding.pointer, "message": finding.message,
            "rule": finding.rule}


def _spec(spec: SpecPreview, snapshot: Snapshot | None = None) -> dict[str, Any]:
    fragment = None
    if snapshot is not None and spec.fragment is not None:
        fragment = Markup(snapshot.files[spec.fragment].decode("utf-8"))  # our own output, escaped when built
    return {"display": spec.display, "url": PREVIEW_PREFIX + spec.slug, "status": _status(spec),
            "failed": spec.failed, "findings": [_finding(f) for f in spec.findings], "files": list(spec.files),
            "fragment": fragment}


def _page(name: str, snapshot: Snapshot, figure: bool = False, **context: Any) -> Response:
    text = template(name).render(urls=URLS, generation=snapshot.generation, session=snapshot.session,
                                 general=[_finding(f) for f in snapshot.general], **context)
    csp = OWN_PAGE_CSP.format(inline=" 'unsafe-inline'" if figure else "")
    return Response(200, CONTENT_TYPES[".html"], text.encode("utf-8"), csp=csp)


@cache
def _css() -> bytes:
    return template("serve.css").render(light=theme.LIGHT, dark=theme.DARK).encode("utf-8")


def resolve(path: str, snapshot: Snapshot, single: bool) -> Response | None:
    """The response for a request ``path`` (the request target without its query), or ``None`` for 404.

    ``/`` is the index of the specs, or with ``single`` a redirect to the one spec's preview;
    ``/preview/SLUG`` a spec's preview (its findings, and its figure: the built fragment; while no spec has
    that name, a 404 page that reloads once one does);
    ``/NAME`` a built file of the snapshot, byte for byte as ``build`` writes it (the player's files also as
    ``/preview/NAME``, where the fragment of a preview finds them at the default player URL).
    """
    try:
        name = unquote(path, errors="strict")
    except UnicodeDecodeError:  # %-escapes that are not UTF-8 name nothing we serve
        return None
    if name == "/":
        if single and len(snapshot.specs) == 1:
            return Response(302, CONTENT_TYPES[".html"], b"", location=PREVIEW_PREFIX + snapshot.specs[0].slug)
        return _page("serve_index.html", snapshot, specs=[_spec(s) for s in snapshot.specs])
    if name == URLS["reload"]:
        return Response(200, CONTENT_TYPES[".js"], static_text("reload.js").encode("utf-8"))
    if name == URLS["css"]:
        return Response(200, CONTENT_TYPES[".css"], _css())
    if name.startswith(PREVIEW_PREFIX) and name[len(PREVIEW_PREFIX):] in snapshot.player:
        name = "/" + name[len(PREVIEW_PREFIX):]  # the player, where a fragment inlined in a preview finds it
    if name.startswith(PREVIEW_PREFIX):
        slug = name[len(PREVIEW_PREFIX):]
        spec = snapshot.spec(slug)
        if spec is None:  # renamed or deleted: a page that reloads once the spec is back
            missing = _page("serve_missing.html", snapshot, slug=slug, index=not single)
            return msgspec.structs.replace(missing, status=404)
        return _page("serve_spec.html", snapshot, figure=spec.fragment is not None, spec=_spec(spec, snapshot),
                     index=not single, player=[PREVIEW_PREFIX + name for name in snapshot.player])
    body = snapshot.files.get(name[1:]) if name.startswith("/") else None
    if body is None:
        return None
    return Response(200, content_type(name), body)
