"""Stage 3, provenance: check each declared source's SHA-256 against its file.

A source's ``path`` is resolved under a *source root* directory.  It must be
relative, must not climb out of the root with ``..``, and must not reach out
of it through a symbolic link; it must name a regular file, which is hashed in
chunks (``hashlib.file_digest``), never read whole.  A source without
``sha256`` is *unpinned*, never *verified*.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

from msgspec import Struct

from mechdiagram.shared.errors import SourcePathError, SourceStatus
from mechdiagram.shared.findings import Finding, Severity, pointer_join
from mechdiagram.shared.model import Source
from mechdiagram.spec.load import LoadedSpec

Status = SourceStatus

#: Statuses that make a spec fail.  ``missing`` becomes ``unverified`` with --allow-missing-sources.
FAILING = frozenset({"mismatch", "missing", "refused", "unreadable"})

_CHUNK = 1 << 16

#: Largest source whose line endings are converted and hashed again to explain a wrong SHA-256 (64 MiB): a
#: checkout's line endings change text files, and a 3 GiB file took 27 s to hash twice more for the hint.
MAX_LINE_ENDING_HINT_BYTES = 64 * 1024 * 1024


class SourceCheck(Struct, frozen=True):
    """The verification result of one source.

    ``status`` is one of ``verified`` (digest matches), ``unpinned`` (no
    ``sha256`` declared; the file, if present, is not checked), ``unverified``
    (file missing, allowed by ``--allow-missing-sources``), ``mismatch``,
    ``missing``, ``refused`` (path outside the source root) or ``unreadable``.
    ``actual`` is the file's hex digest when it could be read.
    """

    index: int
    path: str
    status: Status
    expected: str | None
    actual: str | None
    message: str

    @property
    def failed(self) -> bool:
        """True when this result makes the spec fail."""
        return self.status in FAILING

    def as_dict(self) -> dict[str, object]:
        """The manifest's record of this source."""
        return {"path": self.path, "status": self.status, "sha256": self.expected}


def inside(folder: str | Path, path: str | Path) -> bool:
    """Whether the real path of ``path`` lies in the real path of ``folder`` (links followed): a source under
    its root, a template in a site's template folder."""
    root = os.path.realpath(folder)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


def linked_folders(folder: Path) -> list[Path]:
    """``folder`` and every folder below it, through links to folders as jinja2's loader follows them, each
    real folder once (a link loop ends) and none that a link leads out of ``folder`` to: the folders of a
    site's templates, for the build key and the preview's watcher.  ``[]`` when ``folder`` is not one."""
    if not folder.is_dir():
        return []
    folders: list[Path] = []
    seen: set[str] = set()
    for top, dirs, _ in os.walk(folder, followlinks=True):
        real = os.path.realpath(top)
        if real in seen or not inside(folder, real):
            dirs[:] = []
            continue
        seen.add(real)
        dirs.sort()
        folders.append(Path(top))
    return folders


def resolve_source(root: Path, relpath: str) -> Path:
    """Resolve ``relpath`` under ``root`` and return the real path of a regular file.

    Raises :class:`SourcePathError` when the path is absolute (POSIX or
    Windows form), ends with ``/`` or ``/.`` (a folder's form), climbs out of ``root`` with ``..``,
    leaves ``root`` through a symbolic link, does not exist, is not a regular file (a directory, FIFO
    or device) or cannot be examined.
    """
    if relpath.startswith(("/", "\\")) or PureWindowsPath(relpath).drive or PurePosixPath(relpath).is_absolute():
        raise SourcePathError("refused", "the path is absolute; give it relative to the source root")
    if relpath.replace("\\", "/").endswith(("/", "/.")):
        # "notes.md/" names a folder called notes.md: the path of a file ends with its name
        raise SourcePathError("refused", "the path ends with '/' or '/.', as a folder's does; give the file's path "
                              "under the source root")
    parts = PurePosixPath(relpath.replace("\\", "/")).parts
    depth = 0
    for part in parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            raise SourcePathError("refused", "the path climbs out of the source root with '..'")
    try:
        real_root = root.resolve()
    except (RuntimeError, OSError) as exc:  # the source root itself a loop of symbolic links
        raise SourcePathError("unreadable", "the source root is a loop of symbolic links") from exc
    candidate = real_root.joinpath(*parts)
    if not os.path.lexists(candidate):
        raise SourcePathError("missing", "no such file under the source root")
    try:
        real = candidate.resolve()
    except RuntimeError as exc:  # Python < 3.13 raises RuntimeError for a symbolic link loop
        raise SourcePathError("unreadable", "the path is a loop of symbolic links") from exc
    except OSError as exc:  # ELOOP on Python >= 3.13, or a folder on the way that cannot be searched
        looped = exc.errno == errno.ELOOP
        reason = "the path is a loop of symbolic links" if looped else f"cannot examine the file: {exc.strerror}"
        raise SourcePathError("unreadable", reason) from exc
    if real != real_root and real_root not in real.parents:
        raise SourcePathError("refused", "the path leads out of the source root through a symbolic link")
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise SourcePathError("missing" if isinstance(exc, FileNotFoundError) else "unreadable",
                              f"cannot examine the file: {exc.strerror}") from exc
    if stat.S_ISDIR(mode):
        raise SourcePathError("unreadable", "the path is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise SourcePathError("unreadable", "the path is not a regular file (a FIFO, socket or device)")
    return real


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes, streamed in chunks.  Raises ``OSError``, also for a non-regular file."""
    # O_NONBLOCK: should the path have become a FIFO since it was examined, opening it does not wait
    # for a writer; the fstat below then refuses it.  Reading a regular file is unaffected.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
    except BaseException:
        os.close(fd)
        raise

    with open(fd, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _line_ending_digests(path: Path) -> dict[str, str]:
    """Digests of the file with CRLF made LF, and with LF made CRLF (streamed)."""
    to_lf, to_crlf = hashlib.sha256(), hashlib.sha256()
    pending_cr = False
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            if pending_cr:
                chunk = b"\r" + chunk
            pending_cr = chunk.endswith(b"\r")
            if pending_cr:
                chunk = chunk[:-1]
            lf = chunk.replace(b"\r\n", b"\n")
            to_lf.update(lf)
            to_crlf.update(lf.replace(b"\n", b"\r\n"))
    if pending_cr:
        to_lf.update(b"\r")
        to_crlf.update(b"\r")
    return {"LF": to_lf.hexdigest(), "CRLF": to_crlf.hexdigest()}


def root_name(root: Path) -> str:
    """How messages name a source root: ``the current folder``, or its path."""
    return "the current folder" if str(root) in ("", ".") else root.as_posix()


def check_source(index: int, source: Source, root: Path, *, allow_missing: bool = False) -> SourceCheck:
    """Verify one source under ``root``; never raises.  See :class:`SourceCheck`."""
    def result(status: Status, message: str, actual: str | None = None) -> SourceCheck:
        return SourceCheck(index, source.path, status, source.sha256, actual, message)

    where = root_name(root)
    try:
        real = resolve_source(root, source.path)
    except SourcePathError as exc:
        if exc.status == "missing" and (allow_missing or source.sha256 is None):
            if source.sha256 is None:
                return result("unpinned", f"source {source.path} has no sha256 and was not found under the "
                              f"source root ({where})")
            return result("unverified", f"source {source.path} was not found under the source root ({where}), "
                          "so it is not verified")
        if exc.status == "missing":
            return result("missing", f"source {source.path}: no such file under the source root ({where}); check the "
                          "path, or set --source-root (or source-root in pyproject.toml), or pass "
                          "--allow-missing-sources to render without verifying it")
        return result(exc.status, f"source {source.path}: {exc}" + (f" ({where})" if exc.status == "refused" else ""))
    if source.sha256 is None:
        return result("unpinned", f"source {source.path} has no sha256, so it is not verified; pin it with "
                      "mechdiagram hash --write SPEC")
    try:
        actual = file_sha256(real)
    except OSError as exc:
        return result("unreadable", f"source {source.path}: cannot read the file: {exc.strerror}")
    if actual == source.sha256:
        return result("verified", f"source {source.path} matches its SHA-256", actual)
    message = f"source {source.path} does not match its SHA-256: expected {source.sha256}, found {actual}"
    try:
        hinted = real.stat().st_size <= MAX_LINE_ENDING_HINT_BYTES
    except OSError:
        hinted = False
    for ending, digest in (_line_ending_digests(real) if hinted else {}).items():
        if digest == source.sha256:
            message += (f"; the file matches once its line endings are converted to {ending}, so a checkout "
                        "changed them (set the file to -text in .gitattributes, or rehash with "
                        "mechdiagram hash --write)")
            break
    else:
        message += "; if the file changed on purpose, record its new digest with mechdiagram hash --write"
    return result("mismatch", message, actual)


def check_sources(spec: LoadedSpec, sources: Sequence[Source], root: Path, *, allow_missing: bool = False,
                  indexes: Sequence[int] | None = None) -> tuple[list[SourceCheck], list[Finding]]:
    """Verify every source of a spec; return the results and their findings.

    ``indexes`` are the sources' places in the spec's ``sources`` array (default: 0, 1, ...), for a
    spec some of whose entries were left out as malformed.  Failures (see :data:`FAILING`) are error
    findings; unpinned and unverified sources are warnings.  Each finding points at ``/sources/N/path``.
    """
    places = list(indexes) if indexes is not None else list(range(len(sources)))
    checks = [check_source(i, s, root, allow_missing=allow_missing) for i, s in zip(places, sources, strict=True)]
    findings = []
    for check in checks:
        if check.status == "verified":
            continue
        pointer = pointer_join("sources", check.index, "sha256" if check.status == "mismatch" else "path")
        line, column = spec.locate(pointer)
        severity: Severity = "error" if check.failed else "warning"
        rule = f"source-{check.status}"
        findings.append(Finding(spec.display, pointer, check.message, rule, severity, line, column))
    return checks, findings
