"""Stage 0, discovery: the spec files a command works on, from the files and folders it was given, and
the output name each spec's files take.

Kept apart from :mod:`mechdiagram.site.build` so that the command line can check its arguments (and
``validate`` can run) without importing the rendering stages.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
from pathlib import Path

from mechdiagram.shared.files import display_path
from mechdiagram.shared.findings import Finding

#: The file names a folder's specs have.
SPEC_GLOB = "*.mechanism.json"


def discover(paths: list[Path], unreadable: list[Finding] | None = None) -> list[Path]:
    """Spec files from files and folders, sorted within each folder given, unique (first spelling kept).

    A folder is searched recursively for :data:`SPEC_GLOB`; symbolic links to folders are not followed
    (as :meth:`pathlib.Path.rglob` does not), and a link to a spec file counts.  A folder below a given one
    that cannot be listed or searched (permissions) is passed over, and one ``unreadable-folder`` warning
    naming it is appended to ``unreadable`` when a list is given.  Raises nothing for bad input.
    """
    found: list[Path] = []
    passed: dict[str, Finding] = {}
    for path in paths:
        if path.is_dir():
            found.extend(_specs_below(path, passed))
        else:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    if unreadable is not None:
        unreadable.extend(passed.values())
    return list(unique.values())


def _specs_below(folder: Path, passed: dict[str, Finding]) -> list[Path]:
    """Every spec file in ``folder`` and its subfolders, sorted by path; a folder that cannot be read gets
    its warning in ``passed``, by its resolved path (a folder given twice is named once)."""
    def passed_over(error: OSError, where: Path) -> None:
        real = os.path.realpath(where)
        passed.setdefault(real, Finding(
            display_path(where), None,
            f"cannot read this folder ({error.strerror or error}); the specs in it, if any, are left out",
            "unreadable-folder", severity="warning"))

    specs: list[Path] = []
    for top, _folders, names in os.walk(folder, onerror=lambda e: passed_over(e, Path(e.filename or folder))):
        base = Path(top)
        for name in names:
            if not fnmatch.fnmatchcase(name, SPEC_GLOB):
                continue
            try:
                regular = stat.S_ISREG(os.stat(base / name).st_mode)
            except (FileNotFoundError, NotADirectoryError):  # a broken link
                continue
            except OSError as exc:  # listed, but not searchable
                passed_over(exc, base)
                continue
            if regular:
                specs.append(base / name)
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
