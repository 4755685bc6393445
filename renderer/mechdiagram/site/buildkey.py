"""The build key: one SHA-256 over everything that decides a spec's output files.

``build`` records a spec's key in ``manifest.json`` and skips the spec when the
key is unchanged and its recorded outputs are still in place.  The key covers
the spec's bytes, each source's status and digest (as :func:`resolve_source`
finds it under the source root), the options that change output
(``--allow-missing-sources``, the files of ``--template-dir``, ``--player-url`` and the colour-mode
selectors), the package
data (templates, player, text metrics, schema), the registered output formats
with what each names in :meth:`~mechdiagram.render.outputs.OutputFormat.key_parts` (a
rasteriser's version and fonts), and the mechdiagram version.  No absolute path
goes into it, so a committed manifest does not depend on where it was built.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

from mechdiagram import __version__
from mechdiagram.render.outputs import formats
from mechdiagram.shared.assets import package_data
from mechdiagram.shared.config import Embedding
from mechdiagram.shared.errors import SourcePathError
from mechdiagram.spec.provenance import file_sha256, inside, linked_folders, resolve_source


def _folder_files(folder: Path) -> list[tuple[str, str]]:
    """(relative name, SHA-256) of every file under ``folder``, sorted, through symbolic links to folders as
    jinja2's loader follows them (each real folder once, so a link loop ends), but none that leads out of the
    folder: the templates cannot use those (:class:`mechdiagram.render.templating`'s loader refuses them)."""
    return sorted((path.relative_to(folder).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest())
                  for top in linked_folders(folder) for path in top.iterdir()
                  if path.is_file() and inside(folder, path))


class RunKey(Struct, frozen=True):
    """The part of every spec's build key that one run shares: a hex SHA-256 in :attr:`digest`."""

    digest: str

    def spec_key(self, raw: bytes, source_root: Path, allow_missing_sources: bool) -> str | None:
        """The build key of a spec whose file holds ``raw`` and whose sources resolve under ``source_root``
        (hex SHA-256), or ``None`` when the file is not a JSON object (it fails anyway, and is never
        skipped).  Never raises for bad input."""
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict):
            return None
        sources = data.get("sources")
        parts: list[Any] = [self.digest, hashlib.sha256(raw).hexdigest(), allow_missing_sources]
        for source in sources if isinstance(sources, list) else []:
            path = source.get("path") if isinstance(source, dict) else None
            parts.append([path, _source_state(source_root, path) if isinstance(path, str) else None])
        return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()


def _source_state(root: Path, relpath: str) -> str:
    try:
        return "sha256:" + file_sha256(resolve_source(root, relpath))
    except SourcePathError as exc:
        return f"{exc.status}: {exc.message}"
    except (OSError, ValueError) as exc:
        return f"unreadable: {type(exc).__name__}"


def run_key(*, template_dir: Path | None, extra_formats: Collection[str] = (),
            embedding: Embedding | None = None) -> RunKey:
    """What every spec's key shares in one run (see the module docstring), ``embedding`` (the player's URL and
    the colour-mode selectors, which the HTML figure writes) among it.  Raises ``OSError`` when a file of
    ``template_dir`` cannot be read."""
    data = hashlib.sha256()
    for name, body in package_data():
        data.update(f"{name}\0{len(body)}\0".encode())
        data.update(body)
    parts = {
        "mechdiagram": __version__,
        "package-data": data.hexdigest(),
        # Only the formats this run writes: an optional one (a rasteriser's version) cannot change the key of
        # a build that does not ask for it, whether or not its extra is installed.
        "formats": [[fmt.name, fmt.pattern, fmt.key_parts()] for fmt in formats()
                    if not fmt.optional or fmt.group_name() in extra_formats],
        "templates": _folder_files(template_dir) if template_dir is not None else None,
        "extra-formats": sorted(extra_formats),
        "embedding": msgspec.to_builtins(embedding or Embedding()),
    }
    return RunKey(hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest())
