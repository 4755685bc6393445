"""``manifest.json``: what the output folder holds, spec by spec, and what may be retired from it.

The manifest records the mechdiagram version that wrote it and, per spec (keyed
by its path relative to the output folder), the spec's SHA-256, its build key
(:mod:`mechdiagram.site.buildkey`; only for a spec built without findings), each output
file's name and SHA-256 (and, for a picture, the rasteriser that drew it), its sources' status and
the ``figure`` record the gallery page shows; the SHA-256 of the gallery page ``index.html``
when mechdiagram wrote one; and the names and SHA-256 of the player's files (``player``), which every fragment
of the folder names.  Retirement works from those records alone: a file is
deleted only when a format could have written it for that spec
(:func:`mechdiagram.render.outputs.owned_by`) and its bytes still match the recorded digest.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mechdiagram import __version__
from mechdiagram.render.outputs import format_of, owned_by
from mechdiagram.shared.files import certainly_missing, display_path, file_digest_or_none, read_regular
from mechdiagram.shared.findings import Finding
from mechdiagram.site.results import SpecResult
from mechdiagram.spec.discovery import slug_for

MANIFEST = "manifest.json"

#: The gallery page, the one output of a whole build (mechdiagram.site.gallery writes it).
INDEX = "index.html"

#: The names of the player's files (mechdiagram.render.html.player_files): only a file of such a name that the
#: manifest records is ever retired as an earlier player's.
PLAYER_NAME = re.compile(r"mechdiagram-player\.[0-9a-f]{12}\.(?:js|css)")

#: The journal of a build putting files in place: the names and SHA-256 of the files it is about to rename
#: into the folder, written (synced) before the first rename and removed once the manifest records them.  A
#: build that was killed in between leaves it, and the next run reads it into the manifest's entries
#: (:func:`read_manifest`), so that what the killed build put in place is retired as any recorded file is.
JOURNAL = ".manifest-journal.json"

#: Largest manifest.json read back (bytes); a larger one is treated as damaged.
MAX_MANIFEST_BYTES = 64 * 1024 * 1024

#: One spec's record as read back: the JSON object :func:`manifest_bytes` wrote for it.
Entry = dict[str, Any]


def recorded_outputs(entry: Entry) -> list[tuple[str, str | None]]:
    """The (file name, SHA-256) pairs an entry records; items of another shape are skipped."""
    pairs = []
    for item in entry.get("outputs", []):
        if isinstance(item, dict) and isinstance(item.get("path"), str):
            digest = item.get("sha256")
            pairs.append((item["path"], digest if isinstance(digest, str) else None))
    return pairs


def _output_record(result: SpecResult, name: str) -> dict[str, str]:
    record = {"path": name, "sha256": result.digest(name)}
    fmt = format_of(result.slug, name)
    if fmt is not None and fmt.rasterised:
        from mechdiagram.render.raster import rasteriser  # a picture's record only: other builds never load the module

        record["rasteriser"] = rasteriser()  # so that check can name an upgrade that changed the pixels
    return record


def manifest_entries(results: Iterable[SpecResult], previous: dict[str, Entry],
                     own_templates: bool = False) -> dict[str, Entry]:
    """The manifest's entries by spec key after this run: the built specs' new entries over ``previous``;
    with ``own_templates`` (a build with ``--template-dir``) each new entry says ``"templates": "own"``, so
    that ``check`` without them can say why the HTML differs.

    Failed and skipped specs keep their ``previous`` entry so their output stays described.
    """
    entries = dict(previous)
    for result in results:
        if result.failed or result.skipped:
            continue
        entry: Entry = {"spec": result.key, "sha256": result.loaded.sha256}
        if result.build_key is not None:
            entry["build"] = result.build_key
        entry["outputs"] = [_output_record(result, name) for name in sorted(result.outputs)]
        entry["sources"] = [check.as_dict() for check in result.checks]
        if own_templates:
            entry["templates"] = "own"
        if result.figure is not None:
            entry["figure"] = result.figure
        entries[result.key] = entry
    return entries


def _records(files: dict[str, str]) -> list[dict[str, str]]:
    return [{"path": name, "sha256": files[name]} for name in sorted(files)]


def manifest_bytes(results: Iterable[SpecResult], previous: dict[str, Entry], index: str | None = None,
                   own_templates: bool = False, player: dict[str, str] | None = None) -> bytes:
    """``manifest.json``: the version, :func:`manifest_entries` sorted by spec path (``own_templates`` as
    there), ``index``, the SHA-256 of the gallery page ``index.html`` when mechdiagram wrote one, and
    ``player``, the player's files (name to SHA-256) the fragments name.  No timestamps."""
    entries = manifest_entries(results, previous, own_templates)
    body: dict[str, Any] = {"generator": "mechdiagram", "version": __version__, "format": 1}
    if index is not None:
        body["index"] = {"path": INDEX, "sha256": index}
    if player:
        body["player"] = _records(player)
    body["specs"] = [entries[k] for k in sorted(entries)]
    # ASCII: a spec path that is not valid UTF-8 (a surrogate escape) still writes, as \u escapes.
    return (json.dumps(body, indent=2, ensure_ascii=True) + "\n").encode("ascii")


def _document(output: Path, name: str = MANIFEST) -> Any:
    """The parsed ``output/manifest.json`` (or the :data:`JOURNAL`), or ``None`` when it is missing, damaged,
    too large, or a symbolic link (never followed in the output folder)."""
    path = output / name
    try:
        if path.lstat().st_size > MAX_MANIFEST_BYTES:
            return None
    except OSError:
        return None
    data = read_regular(path)  # not a FIFO or a device, which would hang, nor a link
    try:
        return None if data is None else json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None


def journal_bytes(results: Iterable[SpecResult], index: str | None, retiring: Iterable[str],
                  previous: dict[str, Entry], player: dict[str, str] | None = None) -> bytes:
    """The :data:`JOURNAL` of a build about to put the files of ``results`` in place (those that passed and were
    rendered): each spec's key with its output files' names and SHA-256, and ``index``, the SHA-256 of the gallery
    page it is about to write (``None``: none), and ``player``, the player's files (name to SHA-256) it is about to
    write and those it is about to retire.  The files of ``retiring`` that ``previous`` (the folder's entries,
    an earlier journal folded in) records join their spec's entry: a build stopped before it deleted them leaves
    them recorded, where an earlier interrupted build's journal, which this one replaces, may have been their only
    record."""
    outputs: dict[str, dict[str, str | None]] = {}
    for r in results:
        if not r.failed and not r.skipped and r.outputs:
            outputs.setdefault(r.key, {}).update((name, r.digest(name)) for name in r.outputs)
    leaving = set(retiring)
    for key, entry in previous.items():
        for name, digest in recorded_outputs(entry):
            if name in leaving and digest is not None:
                outputs.setdefault(key, {}).setdefault(name, digest)
    specs = [{"spec": key, "outputs": [{"path": name, "sha256": files[name]} for name in sorted(files)]}
             for key, files in sorted(outputs.items())]
    body: dict[str, Any] = {"generator": "mechdiagram", "version": __version__, "specs": specs}
    if index is not None:
        body["index"] = {"path": INDEX, "sha256": index}
    if player:
        body["player"] = _records(player)
    return (json.dumps(body, indent=2, ensure_ascii=True) + "\n").encode("ascii")


def journal_left(output: Path) -> bool:
    """Whether an interrupted build left its :data:`JOURNAL` in ``output`` (a link there counts too)."""
    return os.path.lexists(output / JOURNAL)


def _fold(entries: dict[str, Entry], output: Path) -> dict[str, Entry]:
    """``entries`` with what a :data:`JOURNAL` left in ``output`` records added: each journalled spec's files
    join its entry (a name both record keeps the digest its file on disk has, where that is the journal's),
    and the entry loses its build key, so that the spec is rendered again and any file it no longer writes is
    retired."""
    journal = _document(output, JOURNAL)
    specs = journal.get("specs") if isinstance(journal, dict) else None
    if not isinstance(specs, list):
        return entries
    folded = dict(entries)
    for item in specs:  # items of another shape than journal_bytes writes (a damaged or crafted journal) are passed
        if not (isinstance(item, dict) and isinstance(item.get("spec"), str) and "\0" not in item["spec"]
                and isinstance(item.get("outputs"), list)):
            continue
        key = item["spec"]
        entry: Entry = dict(folded.get(key, {"spec": key, "outputs": []}))
        records = {r["path"]: r for r in entry.get("outputs", [])
                   if isinstance(r, dict) and isinstance(r.get("path"), str)}
        for name, digest in recorded_outputs(item):
            if digest is None:
                continue
            if name not in records or (records[name].get("sha256") != digest
                                       and file_digest_or_none(output / name) == digest):
                records[name] = {"path": name, "sha256": digest}
        entry["outputs"] = [records[name] for name in sorted(records)]
        entry.pop("build", None)
        folded[key] = entry
    return folded


def version_finding(output: Path) -> Finding | None:
    """A finding when ``output/manifest.json`` was written by another mechdiagram version ("built by 0.1.0,
    this is 0.2.0: rebuild"), else ``None`` (also when there is no readable manifest)."""
    data = _document(output)
    if not isinstance(data, dict):
        return None
    written = data.get("version")
    if written == __version__:
        return None
    shown = f"built by {written}" if isinstance(written, str) else "built by a version that did not record itself"
    return Finding(display_path(output / MANIFEST), None,
                   f"{_short(shown)}, this is {__version__}: rebuild with mechdiagram build", "stale-output")


def _short(text: str) -> str:
    """``text`` cut to 80 characters (a hand-edited version string cannot flood the report)."""
    return text if len(text) <= 80 else text[:79] + "…"


def read_manifest(output: Path) -> dict[str, Entry]:
    """The entries of ``output/manifest.json`` by spec key; ``{}`` when it is missing, damaged or too large.
    Entries of another shape than :func:`manifest_bytes` writes (a hand edit) are dropped.  What the
    :data:`JOURNAL` of an interrupted build records is folded in (:func:`_fold`)."""
    data = _document(output)
    try:
        specs = data.get("specs", []) if isinstance(data, dict) else []
        entries = {entry["spec"]: entry for entry in (specs if isinstance(specs, list) else [])
                   if isinstance(entry, dict) and isinstance(entry.get("spec"), str) and "\0" not in entry["spec"]
                   and isinstance(entry.get("outputs", []), list)}
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        entries = {}
    return _fold(entries, output)


def recorded_index(output: Path) -> str | None:
    """The SHA-256 that ``output/manifest.json`` records for ``index.html``, or ``None``; where an interrupted
    build's :data:`JOURNAL` records the bytes the page has now, that digest."""
    recorded = _index_digest(_document(output))
    journalled = _index_digest(_document(output, JOURNAL))
    if journalled is not None and journalled != recorded and file_digest_or_none(output / INDEX) == journalled:
        return journalled  # an interrupted build wrote the gallery page its journal records
    return recorded


def recorded_player(output: Path) -> dict[str, str]:
    """The player's files (name to SHA-256) that ``output/manifest.json`` records, with those an interrupted
    build's :data:`JOURNAL` records (a name both record keeps the digest its file on disk has, where that is the
    journal's).  Records of another shape, or of a name that is not a player file's (:data:`PLAYER_NAME`), are
    passed."""
    files = _player_digests(_document(output))
    for name, digest in _player_digests(_document(output, JOURNAL)).items():
        if name not in files or (files[name] != digest and file_digest_or_none(output / name) == digest):
            files[name] = digest
    return files


def _player_digests(data: Any) -> dict[str, str]:
    items = data.get("player") if isinstance(data, dict) else None
    return {item["path"]: item["sha256"] for item in (items if isinstance(items, list) else [])
            if isinstance(item, dict) and isinstance(item.get("path"), str) and PLAYER_NAME.fullmatch(item["path"])
            and isinstance(item.get("sha256"), str)}


def earlier_player(player: dict[str, bytes], output: Path, results: Iterable[SpecResult], previous: dict[str, Entry],
                   dropped: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The player's files the folder holds from an earlier build (:func:`recorded_player`) that ``player``, this
    build's, no longer has: those to retire, with the reason (only files whose bytes still match the recorded
    digest), and those to keep recorded, with their SHA-256.  While the manifest keeps an entry of a spec this run
    did not render (one it was not given, or one that failed: its fragment, left as it was, may name an earlier
    player), none is retired: a build of every spec retires them."""
    rendered = {r.key for r in results if not r.failed}
    earlier = {name: digest for name, digest in recorded_player(output).items() if name not in player}
    if any(key not in rendered and key not in dropped for key in previous):
        return {}, earlier
    return ({name: "an earlier player's file, which no fragment names any more" for name, digest in earlier.items()
             if file_digest_or_none(output / name) == digest}, {})


def _index_digest(data: Any) -> str | None:
    index = data.get("index") if isinstance(data, dict) else None
    digest = index.get("sha256") if isinstance(index, dict) else None
    return digest if isinstance(digest, str) else None


def spec_shown(output: Path, key: str) -> str:
    """A manifest key (relative to the output folder) as a path from the working directory."""
    return display_path(Path(os.path.normpath(output / key)))


def retired(results: list[SpecResult], previous: dict[str, Entry], output: Path) -> tuple[dict[str, str], set[str]]:
    """Output files that no spec produces any more, with the reason, and the manifest entries to drop.

    A file is retired when the previous manifest lists it for a spec that now
    produces other files (a scenario was renamed), or for a spec whose file no
    longer exists (keys are relative to the output folder, so this does not
    depend on where the command runs).  Only names a format writes for that
    spec whose bytes still match the digest the manifest recorded are retired:
    a file someone edited, or named in a hand-edited manifest, is never deleted.
    """
    produced = {r.key: r for r in results if not r.failed}
    new_names = {name for r in produced.values() for name in r.outputs}
    for result in produced.values():  # a skipped spec keeps every file it recorded
        if result.skipped and result.key in previous:
            new_names.update(name for name, _ in recorded_outputs(previous[result.key]))
    files: dict[str, str] = {}
    dropped: set[str] = set()
    for key, entry in previous.items():
        if key in produced and produced[key].skipped:
            continue
        if key in produced:
            reason = f"no longer produced by {spec_shown(output, key)}"
        elif certainly_missing(output / key):
            reason = f"its spec {spec_shown(output, key)} no longer exists"
            dropped.add(key)
        else:
            continue  # a spec not built this time, or one that failed: its output stays
        slug = slug_for(Path(key))
        for name, digest in recorded_outputs(entry):
            if (name not in new_names and name == Path(name).name and owned_by(slug, name)
                    and digest is not None and file_digest_or_none(output / name) == digest):
                files[name] = reason
    return files, dropped


def manifest_collisions(results: list[SpecResult], previous: dict[str, Entry], output: Path) -> None:
    """Fail a spec whose output names the manifest records for another spec that still exists
    (two folders with an ``x.mechanism.json`` each, built into one output folder by two runs)."""
    owners: dict[str, str] = {}
    for key, entry in previous.items():
        for name, _ in recorded_outputs(entry):
            owners.setdefault(name, key)
    for result in results:
        if result.failed:
            continue
        for name in sorted(result.outputs):
            other = owners.get(name)
            if other is not None and other != result.key and not certainly_missing(output / other):
                result.refuse(Finding(
                    result.loaded.display, None,
                    f"writes {name}, which {MANIFEST} records as the output of {spec_shown(output, other)}; "
                    "rename one of the specs", "output-collision"))
                break
