"""Rendering a spec in-process, without the CLI: the page and fragment of a spec."""

from __future__ import annotations

from pathlib import Path

from renderer.load import parse_text
from renderer.model import spec_from_data
from renderer.outputs import render_outputs
from renderer.provenance import check_sources
from support.reference_spec import dumps


def build_html(data: dict, root: Path, slug: str = "ref", allow_missing: bool = True) -> dict[str, str]:
    """The ``page`` and ``fragment`` HTML of ``data``, its sources checked under ``root``."""
    spec = spec_from_data(data)
    loaded = parse_text(dumps(data).encode("utf-8"), f"{slug}.mechanism.json")
    checks, _ = check_sources(loaded, spec.sources, root, allow_missing=allow_missing)
    files = render_outputs(spec, slug, checks)
    return {"page": files[f"{slug}.html"].decode("utf-8"), "fragment": files[f"{slug}.fragment.html"].decode("utf-8")}
