"""Provenance, one source at a time: ``check_source`` compares a source's SHA-256 with its file under
the source root, and refuses paths that leave the root (``..``, absolute paths, symbolic links);
odd files (folders, loops, FIFOs, unreadable files) give clear errors without hanging."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from mechdiagram.shared.model import Source
from mechdiagram.spec.provenance import check_source

CONTENT = b"notes about the mechanism\n"  # docs/notes.md of the source_root fixture
DIGEST = hashlib.sha256(CONTENT).hexdigest()
OTHER = hashlib.sha256(b"something else").hexdigest()
PLACEHOLDER = "0" * 64


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def check(root: Path, path: str, sha256: str | None = PLACEHOLDER, **kw):
    return check_source(0, Source(path, sha256), root, **kw)


def test_verified(source_root):
    check = check_source(0, Source("docs/notes.md", DIGEST), source_root)
    assert (check.status, check.expected, check.actual) == ("verified", DIGEST, DIGEST)
    assert not check.failed
    assert check.message == "source docs/notes.md matches its SHA-256"


def test_mismatch_names_expected_and_actual_digest(source_root):
    check = check_source(0, Source("docs/notes.md", OTHER), source_root)
    assert check.status == "mismatch"
    assert check.failed
    assert check.message == (f"source docs/notes.md does not match its SHA-256: expected {OTHER}, found {DIGEST}; "
                             "if the file changed on purpose, record its new digest with mechdiagram hash --write")


def test_missing_is_an_error(source_root):
    check = check_source(0, Source("docs/gone.md", DIGEST), source_root)
    assert check.status == "missing"
    assert check.failed
    assert check.message == (f"source docs/gone.md: no such file under the source root ({source_root.as_posix()}); "
                             "check the path, or set --source-root (or source-root in pyproject.toml), or pass "
                             "--allow-missing-sources to render without verifying it")


def test_missing_but_allowed_is_unverified(source_root):
    check = check_source(0, Source("docs/gone.md", DIGEST), source_root, allow_missing=True)
    assert check.status == "unverified"
    assert not check.failed
    assert check.message == (f"source docs/gone.md was not found under the source root ({source_root.as_posix()}), "
                             "so it is not verified")


def test_allow_missing_does_not_excuse_a_mismatch(source_root):
    check = check_source(0, Source("docs/notes.md", OTHER), source_root, allow_missing=True)
    assert check.status == "mismatch"


@pytest.mark.parametrize("path", ["docs/notes.md", "docs/gone.md"], ids=["present", "absent"])
def test_unpinned_is_never_verified(source_root, path):
    check = check_source(0, Source(path), source_root)
    assert check.status == "unpinned"
    assert not check.failed
    assert check.actual is None


# --- paths that leave the source root ------------------------------------------------------------

@pytest.mark.parametrize("path", ["../outside.md", "docs/../../outside.md", "./../outside.md", "..\\outside.md",
                                  "../outside/secret.txt", "notes/../../outside/secret.txt", "..", "./../x",
                                  "notes/../notes/../../x", "notes\\..\\..\\outside\\secret.txt"])
def test_dotdot_escaping_the_root_is_refused(source_root, path):
    assert (source_root / ".." / "outside.md").is_file()  # the file exists: refusing is not "missing"
    result = check(source_root, path, DIGEST)
    assert (result.status, result.failed) == ("refused", True)
    assert result.message == f"source {path}: the path climbs out of the source root with '..' ({source_root.as_posix()})"


@pytest.mark.parametrize("path, content", [("docs/../docs/notes.md", CONTENT), ("notes/../notes/a.md", b"notes\n")])
def test_dotdot_that_stays_inside_the_root_is_fine(source_root, path, content):
    assert check(source_root, path, sha(content)).status == "verified"


RESOLVED = "<docs/notes.md, resolved>"  # an absolute POSIX path of a file that exists, made in the test


@pytest.mark.parametrize("path", [RESOLVED, "C:\\docs\\notes.md", "\\docs\\notes.md", "/etc/passwd",
                                  "//server/share/x", "\\\\server\\share\\x", "C:\\x.md", "c:/x.md", "C:x.md",
                                  "\\notes\\a.md"])
def test_absolute_path_is_refused(source_root, path):
    if path == RESOLVED:
        path = str((source_root / "docs" / "notes.md").resolve())
    result = check(source_root, path, DIGEST)
    assert (result.status, result.failed) == ("refused", True)
    assert result.message == f"source {path}: the path is absolute; give it relative to the source root ({source_root.as_posix()})"


@pytest.mark.parametrize("path", ["docs/notes.md/", "docs/notes.md/.", "docs\\notes.md\\"])
def test_a_path_in_a_folders_form_is_refused_even_when_the_file_is_there(source_root, path):
    result = check(source_root, path, sha(CONTENT))
    assert (result.status, result.failed) == ("refused", True)
    assert result.message == (f"source {path}: the path ends with '/' or '/.', as a folder's does; give the file's path "
                              f"under the source root ({source_root.as_posix()})")


def test_symlink_leading_outside_the_root_is_refused(source_root):
    root = source_root
    (root / "link.txt").symlink_to(root.parent / "outside" / "secret.txt")
    (root / "docs" / "link.md").symlink_to(root.parent / "outside.md")
    (root / "dirlink").symlink_to(root.parent / "outside", target_is_directory=True)
    (root / "up").symlink_to(root.parent)  # a folder outside: the root's parent
    (root / "notes" / "up").symlink_to(Path(".."))  # inside: root itself
    (root / "notes" / "upup").symlink_to(Path("../.."))  # outside
    secret = sha(b"secret\n")
    for path, digest in (("link.txt", secret), ("docs/link.md", DIGEST), ("dirlink/secret.txt", secret),
                         ("up/outside.md", DIGEST), ("notes/upup/outside/secret.txt", secret)):
        result = check(root, path, digest)
        assert (result.status, result.failed) == ("refused", True), path
        assert result.message == f"source {path}: the path leads out of the source root through a symbolic link ({source_root.as_posix()})"
        assert result.actual is None  # the file outside was never read
    assert check(root, "notes/up/notes/a.md", sha(b"notes\n")).status == "verified"


def test_symlink_inside_the_root_is_followed(source_root):
    (source_root / "alias.md").symlink_to(source_root / "notes" / "a.md")
    assert check(source_root, "alias.md", hashlib.sha256(b"notes\n").hexdigest()).status == "verified"


def test_symlink_loop_is_a_clear_error(source_root):
    (source_root / "loop").symlink_to(source_root / "loop")
    (source_root / "ping").symlink_to(source_root / "pong")
    (source_root / "pong").symlink_to(source_root / "ping")
    for path in ("loop", "ping"):
        result = check(source_root, path)
        assert (result.status, result.failed) == ("unreadable", True)
        assert result.message == f"source {path}: the path is a loop of symbolic links"


def test_dangling_symlink_is_missing(source_root):
    (source_root / "dangling").symlink_to(source_root / "nowhere")
    assert check(source_root, "dangling").status == "missing"


# --- odd files ------------------------------------------------------------------------------------

def test_directory_is_a_clear_error(source_root):
    result = check(source_root, "notes")
    assert (result.status, result.failed) == ("unreadable", True)
    assert result.message == "source notes: the path is a directory, not a file"
    assert check(source_root, ".").status == "unreadable"


def test_fifo_is_a_clear_error_and_does_not_hang(source_root):
    os.mkfifo(source_root / "pipe")
    result = check(source_root, "pipe")
    assert (result.status, result.failed) == ("unreadable", True)
    assert "not a regular file (a FIFO, socket or device)" in result.message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a chmod 000 file anyway; see the test below")
def test_unreadable_file_chmod_000(source_root):
    target = source_root / "notes" / "a.md"
    target.chmod(0)
    try:
        result = check(source_root, "notes/a.md")
    finally:
        target.chmod(0o644)
    assert (result.status, result.failed) == ("unreadable", True)
    assert "Permission denied" in result.message


def test_unreadable_file_simulated(source_root, deny_open):
    """What chmod 000 does for anyone but root: open() fails with EACCES."""
    deny_open("a.md")
    result = check(source_root, "notes/a.md")
    assert (result.status, result.failed) == ("unreadable", True)
    assert result.message == "source notes/a.md: cannot read the file: Permission denied"
