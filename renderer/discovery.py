"""Stage 0, discovery: the spec files a command works on, from the files and folders it was given, and
the output name each spec's files take.

Kept apart from :mod:`renderer.build` so that the command line can check its arguments (and
``validate`` can run) without importing the rendering stages.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

from .findings import Finding

#: The file names a folder's specs have.
SPEC_GLOB = "*.mechanism.json"


def discover(paths: list[Path], unreadable: list[Finding] | None = None) -> list[Path]:
    """Spec files from files and folders, sorted within each folder given, unique (first spelling kept).

    A folder is searched recursively for :data:`SPEC_GLOB`; symbolic links to folders are not followed
    (as :meth:`pathlib.Path.rglob` does not), and a link to a spec file counts.  A folder below a given one
    that cannot be listed (permissions) is passed over, and a ``unreadable-folder`` warning naming it is
    appended to ``unreadable`` when a list is given.  Raises nothing for bad input.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(_specs_below(path, unreadable))
        else:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def _specs_below(folder: Path, unreadable: list[Finding] | None) -> list[Path]:
    """Every spec file in ``folder`` and its subfolders, sorted by path."""
    from .files import display_path

    def passed_over(error: OSError) -> None:
        if unreadable is not None:
            where = Path(error.filename) if error.filename else folder
            unreadable.append(Finding(
                display_path(where), None,
                f"cannot read folder {display_path(where)}: {error.strerror or error}; the specs in it, "
                "if any, are left out", "unreadable-folder", severity="warning"))

    specs: list[Path] = []
    for top, _folders, names in os.walk(folder, onerror=passed_over):
        base = Path(top)
        specs.extend(base / name for name in names
                     if fnmatch.fnmatchcase(name, SPEC_GLOB) and (base / name).is_file())
    return sorted(specs)


def slug_for(path: Path) -> str:
    """The output name of a spec: its file name without ``.mechanism.json`` (or ``.json``), lower case,
    with runs of other characters than ``a-z0-9_-`` made ``-``."""
    name = path.name
    for suffix in (".mechanism.json", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "mechanism"
