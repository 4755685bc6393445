"""``mechdiagram hash``: print files' SHA-256, or write sources' digests into a spec.

:func:`write_spec_digests` edits the spec's text in place of re-serialising
it: only the ``sha256`` values change (or are inserted after ``path``), so
formatting, key order and line endings stay as the author left them.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

from msgspec import Struct, field

from mechdiagram.shared.errors import HashError, SourcePathError
from mechdiagram.shared.files import display_path, write_file
from mechdiagram.shared.findings import Finding, pointer_join
from mechdiagram.spec.load import LoadedSpec, load_spec
from mechdiagram.spec.provenance import file_sha256, resolve_source, root_name
from mechdiagram.spec.validate import validate
from mechdiagram.spec.validate.outline import outline


def file_digests(paths: list[Path]) -> list[tuple[str, str]]:
    """``(path as shown, SHA-256 hex)`` of each file, in the order given.  Raises :class:`HashError` for a
    folder, and ``OSError`` for a file that cannot be read."""
    digests = []
    for path in paths:
        if not path.is_file():
            raise HashError(f"{display_path(path)}: not a regular file")
        digests.append((display_path(path), file_sha256(path)))
    return digests


def hash_files(paths: list[Path]) -> list[str]:
    """``"<hex>  <path>"`` lines, as ``sha256sum`` prints them; raises as :func:`file_digests`."""
    return [f"{digest}  {shown}" for shown, digest in file_digests(paths)]


def _span(loaded: LoadedSpec, pointer: str) -> tuple[int, int, int]:
    """Offsets of a member of a validated spec: value start, value end, key start."""
    span = loaded.span(pointer)
    if span is None or span[2] is None:
        raise HashError(f"{loaded.display}: cannot find {pointer} in the text; nothing written")
    return span[0], span[1], span[2]


def _replaceable_digest(finding: Finding) -> bool:
    """A malformed ``sha256`` of a source: what ``hash --write`` replaces, so it does not stop the write."""
    return finding.rule == "pattern" and re.fullmatch(r"/sources/\d+/sha256", finding.pointer or "") is not None


class DigestWrite(Struct, frozen=True):
    """What ``hash --write`` did to one spec: ``changed`` digests written, or the ``findings`` (located,
    with JSON Pointers) that kept it from writing anything."""

    display: str
    changed: int = 0
    findings: list[Finding] = field(default_factory=list)


def write_spec_digests(path: Path, root: Path) -> DigestWrite:
    """Write the current SHA-256 of every source of the spec at ``path`` into it.

    The spec must parse and pass validation (a malformed ``sha256`` is allowed:
    it is what gets replaced), and every source file must exist under ``root``;
    otherwise the result holds the findings and nothing is written.  Raises
    :class:`HashError` when a validated member cannot be found in the text, and
    :class:`~mechdiagram.shared.errors.OutputError` when the spec cannot be written.
    """
    loaded = load_spec(path, display_path(path))
    findings = loaded.findings or [f for f in validate(loaded) if not _replaceable_digest(f)]
    if findings:
        return DigestWrite(loaded.display, findings=findings)
    text = loaded.text
    edits: list[tuple[int, int, str]] = []
    newline = "\r\n" if "\r\n" in text else "\n"
    where = root_name(root)
    for index, source in outline(loaded.data).sources:
        try:
            digest = file_sha256(resolve_source(root, source.path))
        except (SourcePathError, OSError) as exc:
            status = exc.status if isinstance(exc, SourcePathError) else "unreadable"
            reason = str(exc) if isinstance(exc, SourcePathError) else f"cannot read the file: {exc.strerror or exc}"
            pointer = pointer_join("sources", index, "path")
            line, column = loaded.locate(pointer)
            findings.append(Finding(loaded.display, pointer, f"source {source.path}: {reason} ({where}); "
                                    "nothing written", f"source-{status}", line=line, column=column))
            continue
        if source.sha256 == digest:
            continue
        if source.sha256 is not None:
            start, end, _ = _span(loaded, f"/sources/{index}/sha256")
            edits.append((start, end, json.dumps(digest)))
        else:
            _, path_end, key_start = _span(loaded, f"/sources/{index}/path")
            before_key = text[text.rfind("\n", 0, key_start) + 1:key_start]
            if before_key.strip():  # the object is on one line
                insertion = f', "sha256": {json.dumps(digest)}'
            else:  # "sha256" goes on a line of its own, indented as "path" is
                insertion = f',{newline}{before_key}"sha256": {json.dumps(digest)}'
            edits.append((path_end, path_end, insertion))
    if findings:
        return DigestWrite(loaded.display, findings=findings)
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    if edits:
        # Through a symbolic link to the spec itself, keeping its permissions (the rename that makes
        # the write atomic does give it a new inode: other hard links keep the old text).
        real = path.resolve()
        if _changed_since(real, loaded.raw):  # saved by an editor while the sources were hashed: keep that edit
            return DigestWrite(loaded.display, findings=[Finding(
                loaded.display, None, "changed while its sources were hashed, so nothing was written (the edit "
                "is kept); run hash --write again", "spec-changed")])
        write_file(real, text.encode("utf-8"), mode=stat.S_IMODE(real.stat().st_mode))
    return DigestWrite(loaded.display, changed=len(edits))


def _changed_since(path: Path, raw: bytes) -> bool:
    """Whether the file at ``path`` no longer holds ``raw``, the bytes read before hashing (a file that cannot
    be read any more has changed too)."""
    try:
        return path.read_bytes() != raw
    except OSError:
        return True


__all__ = ["DigestWrite", "HashError", "hash_files", "write_spec_digests"]
