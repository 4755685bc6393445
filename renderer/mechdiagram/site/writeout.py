"""Stage 7, build's last step: put the files of a build in place in the output folder.

Every finding is known by then.  Holding the folder's lock, :func:`write_out` removes the temporary
files that killed builds left, writes the journal (:data:`mechdiagram.site.manifest.JOURNAL`) naming what it is
about to put in place, renames the staged files (:class:`mechdiagram.site.staging.Staging`), deletes retired ones,
and writes the player's files, the gallery page and the manifest last.  No symbolic link in the folder is
followed: an output name that is one is replaced by a regular file, with a warning.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from mechdiagram.shared.config import Options
from mechdiagram.shared.errors import OutputError
from mechdiagram.shared.files import (
    display_named,
    display_path,
    file_digest_or_none,
    is_link,
    replaceable,
    sha256_hex,
    still_resolved,
    write_file,
)
from mechdiagram.shared.findings import Finding
from mechdiagram.site.collisions import has_gallery
from mechdiagram.site.results import Report, SpecResult
from mechdiagram.site.staging import Staging, output_lock, stale_temporaries

if TYPE_CHECKING:
    from mechdiagram.site.gallery import IndexPlan
    from mechdiagram.site.manifest import Entry


def plan_gallery(options: Options, output: Path, results: list[SpecResult], previous: dict[str, Entry],
           report: Report) -> IndexPlan | None:
    """The gallery page for the manifest as this run leaves it, when a folder of specs is built and
    ``--no-index`` was not given; a foreign ``index.html`` is reported (a warning) and left alone."""
    if not has_gallery(options):
        return None
    from mechdiagram.site.gallery import (  # build and check only: validate writes no gallery page
        plan_index,
        render_index,
    )
    from mechdiagram.site.manifest import manifest_entries, recorded_index

    plan = plan_index(output, render_index(manifest_entries(results, previous)), recorded_index(output))
    if plan.refused is not None:
        report.output_findings.append(plan.refused)
        return None
    return plan


def _build_outputs_current(options: Options, output: Path, results: list[SpecResult], player: dict[str, bytes]) -> bool:
    """Whether the gallery page on disk is the one this run would write (or none is to be written), and the
    player's files on disk and in the manifest are this run's."""
    from mechdiagram.site.manifest import INDEX, read_manifest, recorded_player  # build only

    digests = {name: sha256_hex(data) for name, data in player.items()}
    if recorded_player(output) != digests or any(file_digest_or_none(output / n) != d for n, d in digests.items()):
        return False
    plan = plan_gallery(options, output, results, read_manifest(output), Report(results))
    return plan is None or file_digest_or_none(output / INDEX) == sha256_hex(plan.data)


def write_out(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
           results: list[SpecResult], dropped: set[str], options: Options, staging: Staging,
           player: dict[str, bytes], kept_player: dict[str, str]) -> None:
    """Put a build's files in place in ``output`` (resolved), holding the folder's lock: stale temporary files
    removed, the journal written, the staged files of ``expected`` (name to bytes) renamed into place, the
    files of ``retiring`` deleted, the player's files (``player``, name to bytes), the gallery page and the
    manifest written (recording ``kept_player`` too, earlier player files that kept fragments may name), the
    journal removed; what was
    written, left and deleted goes into ``report``, with a warning for each output name that was a link.
    Raises :class:`~mechdiagram.shared.errors.OutputError` when a file cannot be written or deleted."""
    # The files were staged as their specs came in (written to temporary files beside their places by
    # threads, which overlap the waits for each file's sync with the rendering of the next specs); here,
    # holding the folder's lock, the journal records what is about to be put in place, the files are renamed
    # into place, retired ones deleted, and the manifest written last, once every output is in place, so that
    # it never describes files an interrupted or failed build did not write; the journal goes with it.
    from mechdiagram.site.manifest import (  # build only
        INDEX,
        JOURNAL,
        MANIFEST,
        journal_bytes,
        journal_left,
        manifest_bytes,
        read_manifest,
        recorded_index,
        recorded_player,
    )

    with output_lock(output):  # two builds into one folder must not interleave their manifests
        still_resolved(output)
        _remove_stale_temporaries(report, output)
        interrupted = journal_left(output)
        if (not expected and not retiring and not dropped and not interrupted and any(r.skipped for r in results)
                and all(r.skipped or r.failed for r in results)
                and _build_outputs_current(options, output, results, player)):
            report.unchanged.append(MANIFEST)  # a no-op rebuild: the manifest holds these entries already
            return
        names = list(expected)
        owners = {name: result.key for result in results if not result.failed for name in result.outputs}
        # Read again: another build may have written it meanwhile.  The gallery page follows it.
        recorded = read_manifest(output)
        current = {k: v for k, v in recorded.items() if k not in dropped}
        index = plan_gallery(options, output, results, current, report)
        player_digests = {**kept_player, **{name: sha256_hex(data) for name, data in player.items()}}
        leaving = {name: digest for name, digest in recorded_player(output).items() if name in retiring}
        every = [*names, *sorted(player), *([INDEX] if index is not None else []), MANIFEST, JOURNAL]
        for name in every:  # a folder or a FIFO at a name stops the build before anything is put in place
            replaceable(output / name)
        replaced = [name for name in every if is_link(output / name)]
        write_file(output / JOURNAL, journal_bytes(results, sha256_hex(index.data) if index is not None else None,
                                                   retiring, recorded, {**leaving, **player_digests}))
        changed = staging.commit([(owners[name], name, expected[name]) for name in names])
        # A link found where a worker found the file unchanged (it appeared since) is replaced by the bytes, or,
        # where only a worker had them, removed: the manifest's digest then sends the spec to be built again.
        for name in replaced:
            if name in expected and is_link(output / name):
                if sha256_hex(expected[name]) == next(r.digest(name) for r in results if r.key == owners[name]):
                    write_file(output / name, expected[name])
                else:
                    (output / name).unlink()
                    report.output_findings.append(_link_removed(output / name))
                    continue
            report.output_findings.append(_link_finding(output / name))
        # Retired files go before the manifest that forgets them, so a failure here leaves them recorded.
        for name in sorted(retiring):
            try:
                (output / name).unlink()
                report.deleted.append(name)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise OutputError(f"cannot delete {display_path(output / name)}: {exc.strerror or exc}",
                                  output / name) from exc
        for name in sorted(player):
            names.append(name)
            changed.append(write_file(output / name, player[name]))
        if index is not None:
            names.append(INDEX)
            changed.append(write_file(output / INDEX, index.data))
        digest = sha256_hex(index.data) if index is not None else recorded_index(output)
        changed.append(write_file(output / MANIFEST, manifest_bytes(results, current, digest,
                                                                    options.template_dir is not None, player_digests)))
        try:
            (output / JOURNAL).unlink()
        except OSError as exc:
            raise OutputError(f"cannot delete {display_path(output / JOURNAL)}: {exc.strerror or exc}",
                              output / JOURNAL) from exc
    for name, was_written in zip([*names, MANIFEST], changed, strict=True):
        (report.written if was_written else report.unchanged).append(name)


def _link_finding(path: Path) -> Finding:
    """The warning for an output name that was a symbolic link, which ``build`` replaced with a regular file."""
    return Finding(display_named(path), None,
                   "was a symbolic link; mechdiagram never writes through a link in its output folder, so it was "
                   "replaced by a regular file (the file the link led to is unchanged)", "output-link",
                   severity="warning")


def _link_removed(path: Path) -> Finding:
    """The error for an output name that became a link while the build ran, which ``build`` removed."""
    return Finding(display_named(path), None,
                   "became a symbolic link while the build ran; mechdiagram never writes through a link in its "
                   "output folder, so it removed the link (the file the link led to is unchanged): build again to "
                   "write it", "output-link")


def _remove_stale_temporaries(report: Report, output: Path) -> None:
    """Delete the temporary files that killed builds left in ``output``
    (:func:`~mechdiagram.site.staging.stale_temporaries`;
    the caller holds the folder's lock), with one note in ``report`` saying how many."""
    removed = 0
    for name in stale_temporaries(output):
        with contextlib.suppress(FileNotFoundError):
            (output / name).unlink()
            removed += 1
    if removed:
        report.output_findings.append(Finding(
            display_path(output), None, f"removed {removed} temporary file(s) that an interrupted build left",
            "stale-temporary", severity="info"))
