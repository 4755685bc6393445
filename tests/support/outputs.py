"""Rendering a spec in-process, without the CLI, and reading an output folder back."""

from __future__ import annotations

import hashlib
from pathlib import Path

from mechdiagram.api import render_player
from mechdiagram.render.outputs import render_outputs
from mechdiagram.shared.model import spec_from_data
from mechdiagram.spec.load import parse_text
from mechdiagram.spec.provenance import check_sources
from support.reference_spec import dumps


def build_html(data: dict, root: Path, slug: str = "ref", allow_missing: bool = True) -> dict[str, str]:
    """The ``page`` and ``fragment`` HTML of ``data``, its sources checked under ``root``."""
    spec = spec_from_data(data)
    loaded = parse_text(dumps(data).encode("utf-8"), f"{slug}.mechanism.json")
    checks, _ = check_sources(loaded, spec.sources, root, allow_missing=allow_missing)
    files = render_outputs(spec, slug, checks)
    return {"page": files[f"{slug}.html"].decode("utf-8"), "fragment": files[f"{slug}.fragment.html"].decode("utf-8")}


#: The player's files a build writes beside the fragments (mechdiagram-player.HASH.js and .css).
PLAYER_FILES = sorted(render_player())

#: What ``build`` writes for the reference spec saved as ``reference.mechanism.json``.
EXPECTED_FILES = sorted(["index.html", "manifest.json", "reference.fragment.html", "reference.html",
                         "reference.one-request.dark.svg", "reference.one-request.narrow.dark.svg",
                         "reference.one-request.narrow.svg", "reference.one-request.narrow.poster.svg",
                         "reference.one-request.narrow.poster.dark.svg", "reference.one-request.poster.dark.svg",
                         "reference.one-request.poster.svg", "reference.one-request.svg", *PLAYER_FILES])


def render(data: dict, slug: str = "ref") -> dict[str, bytes]:
    """Every output file of the valid spec ``data`` by name, its sources unchecked."""
    return render_outputs(spec_from_data(data), slug, [])


def sha(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
