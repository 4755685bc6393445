"""Stage 7, build: run every stage over many specs, then write, validate or check.

:func:`execute` is the one entry point the CLI calls.  It gathers every
finding of every spec first, renders the specs that passed into memory
(through the output formats of :mod:`mechdiagram.render.outputs`), and only then puts
files in place (``build``), writes nothing (``validate``) or compares with what is on disk
(``check``, through :mod:`mechdiagram.site.stale`).  Writes are atomic: ``build`` stages each passing spec's files
as the spec comes in (:class:`mechdiagram.site.staging.Staging`: temporary files beside
their places, written by the worker process that rendered the spec, or by threads in a serial build, and
synced by threads while the next specs render) and
renames them into place once every finding is known; a spec that fails, or
that a later collision fails, leaves its previous output and manifest entry
as they were, and an interrupted build leaves no temporary file.  Output is
deterministic: the same inputs give the same bytes.

``build`` skips a spec whose build key (:mod:`mechdiagram.site.buildkey`) is the one
the manifest records and whose recorded outputs are still in place, unless
``options.force``; ``check`` and ``validate`` never skip.  Worker processes
are started only when enough specs are left to render.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec.structs

from mechdiagram.api import render_player, render_spec
from mechdiagram.shared.config import Options, Project, outside_project, spec_project
from mechdiagram.shared.errors import MechdiagramError, WorkerError
from mechdiagram.shared.files import (
    display_named,
    display_path,
    file_digest_or_none,
    sha256_hex,
    stage_file,
)
from mechdiagram.shared.findings import Finding
from mechdiagram.site.collisions import has_gallery, output_collisions, refuse_specs_in_the_way
from mechdiagram.site.results import Report, SpecResult
from mechdiagram.site.staging import Staging, output_lock
from mechdiagram.site.writeout import plan_gallery, write_out
from mechdiagram.spec.discovery import discover, slug_for
from mechdiagram.spec.load import LoadedSpec

# The build key, the manifest, the gallery page and check's comparison are imported by the functions that
# use them: ``validate`` needs none of them (nor the output formats they load).
if TYPE_CHECKING:
    from mechdiagram.site.manifest import Entry

#: Called with the number of specs just finished (to move a progress bar on).
Progress = Callable[[int], None]

#: Called with each spec's result as it comes in (``build`` starts writing its files).
Arrived = Callable[[SpecResult], None]

#: Threads that write output files at once.
WRITE_THREADS = 8

#: Fewest specs for which worker processes pay for their start-up.
PARALLEL_THRESHOLD = 8


def manifest_key(path: Path, output: Path) -> str:
    """A spec's key in ``manifest.json``: its path relative to the output folder, where the
    manifest lives (``../mechanisms/x.mechanism.json``), so that the key does not depend on the
    working directory and always leads back to the spec."""
    return Path(os.path.relpath(path.resolve(), output.resolve())).as_posix()


def process(path: Path, options: Options, project: Project | None = None) -> SpecResult:
    """Load, validate, verify sources and (unless validating) render one spec, through
    :func:`mechdiagram.api.render_spec`.  Never raises for bad input.

    ``project`` is the spec's :func:`~mechdiagram.shared.config.spec_project` when the caller knows it already.  With
    ``options.confined`` (the preview server) a spec reached through a link out of its project is refused
    without being read (:func:`~mechdiagram.shared.config.outside_project`).
    """
    if options.confined and outside_project(path):
        shown = display_named(path)
        return SpecResult(LoadedSpec(path, shown), slug_for(path), manifest_key(path, options.output), [Finding(
            shown, None, "is a symbolic link that leads out of its project, so the preview does not read it; copy "
            "the spec into the project", "spec-outside-project")])
    rendered = render_spec(path, source_root=options.source_root, allow_missing_sources=options.allow_missing_sources,
                           template_dir=options.template_dir, render=options.mode != "validate", project=project,
                           extra_formats=options.extra_formats, embedding=options.embedding)
    return SpecResult(rendered.loaded, rendered.slug, manifest_key(path, options.output), rendered.findings,
                      rendered.checks, rendered.files, figure=rendered.figure)


def _process_all(paths: list[Path], options: Options, progress: Progress | None = None,
                 arrived: Arrived | None = None) -> list[SpecResult]:
    """:func:`process` every spec, in worker processes when there are many; results keep input order, and
    ``arrived`` is called with each as it comes in."""
    by_folder: dict[Path, Project] = {}  # specs of one folder share their project: look it up once
    projects = [by_folder[p.parent] if p.parent in by_folder else by_folder.setdefault(p.parent, spec_project(p))
                for p in paths]
    jobs = options.jobs or os.cpu_count() or 1
    done: list[SpecResult] = []
    if jobs <= 1 or len(paths) < PARALLEL_THRESHOLD:
        for path, project in zip(paths, projects, strict=True):
            done.append(process(path, options, project))
            if arrived is not None:
                arrived(done[-1])
            if progress is not None:
                progress(1)
        return done
    from mechdiagram.site import workers  # only a run with many specs to render starts worker processes

    count = min(jobs, len(paths), workers.worker_limit())
    pool = workers.start_pool(count)
    try:
        for result in pool.map(partial(_process_lean, options=options, stage=arrived is not None), paths,
                               projects, chunksize=workers.chunk_size(count, len(paths))):
            done.append(result)
            if arrived is not None:
                arrived(result)
            if progress is not None:
                progress(1)
    except workers.BrokenProcessPool as exc:  # a worker was killed (the kernel's OOM killer, kill -9)
        workers.stop(pool)
        raise WorkerError(f"a worker process ended without finishing its specs ({exc}); it may have been killed "
                          "for want of memory: build again with -j 1 to find the spec, or give the build more "
                          "memory") from None
    except BaseException:
        workers.stop(pool)
        raise
    pool.shutdown(wait=True)
    return done


def _intact(entry: Entry, output: Path) -> bool:
    """Whether every output file a manifest entry records is in the folder with the recorded bytes."""
    from mechdiagram.site.manifest import recorded_outputs  # build and check only: validate never loads the manifest

    outputs = recorded_outputs(entry)
    return bool(outputs) and all(digest is not None and file_digest_or_none(output / name) == digest
                                 for name, digest in outputs)


def _keys(paths: list[Path], options: Options) -> dict[Path, tuple[bytes, str | None]]:
    """Each spec's bytes and build key (``None`` for a file that cannot be read or is not a JSON object)."""
    from mechdiagram.site.buildkey import run_key  # build and check only: validate needs no build key

    shared = run_key(template_dir=options.template_dir, extra_formats=options.extra_formats,
                     embedding=options.embedding)
    by_folder: dict[Path, Project] = {}
    keys: dict[Path, tuple[bytes, str | None]] = {}
    for path in paths:
        if options.confined and outside_project(path):
            keys[path] = (b"", None)  # refused unread (process says so)
            continue
        try:
            raw = path.read_bytes()
            project = by_folder[path.parent] if path.parent in by_folder else by_folder.setdefault(
                path.parent, spec_project(path))
        except (OSError, MechdiagramError):
            keys[path] = (b"", None)  # load_spec and process report it
            continue
        root = options.source_root if options.source_root is not None else project.source_root
        allow = next((a for a in (options.allow_missing_sources, project.allow_missing_sources) if a is not None),
                     False)
        keys[path] = (raw, shared.spec_key(raw, root, allow))
    return keys


def _run_specs(paths: list[Path], options: Options, previous: dict[str, Entry],
               progress: Progress | None, arrived: Arrived | None = None) -> list[SpecResult]:
    """Every spec's result in input order: skipped ones (``build`` only) from their key, the rest processed
    (``arrived`` is called with each of those as it comes in)."""
    if options.mode == "validate":
        return _process_all(paths, options, progress)
    from mechdiagram.site.manifest import version_finding  # build and check only: validate skips nothing

    keys = _keys(paths, options)
    skipped: dict[Path, SpecResult] = {}
    # A manifest of another version records keys made another way: nothing of it is trusted.
    if options.mode == "build" and not options.force and version_finding(options.output) is None:
        real_output, cwd = options.output.resolve(), Path.cwd().resolve()
        for path in paths:
            raw, key = keys[path]
            real = path.resolve()
            spec_key = Path(os.path.relpath(real, real_output)).as_posix()  # as manifest_key(), resolving once
            entry = previous.get(spec_key)
            if key is not None and entry is not None and entry.get("build") == key and _intact(entry, options.output):
                skipped[path] = SpecResult(LoadedSpec(path, display_path(path, real=real, cwd=cwd), raw=raw),
                                           slug_for(path), spec_key, build_key=key, skipped=True)
        if progress is not None and skipped:
            progress(len(skipped))
    processed = iter(_process_all([p for p in paths if p not in skipped], options, progress, arrived))
    results = [skipped[path] if path in skipped else next(processed) for path in paths]
    for path, result in zip(paths, results, strict=True):
        # A spec with findings (warnings) gets no key, so it is rendered each time and its warnings shown.
        if not result.skipped and not result.findings:
            result.build_key = keys[path][1]
    return results


def _process_lean(path: Path, project: Project, options: Options, stage: bool = False) -> SpecResult:
    """:func:`process` in a worker: the parsed document and its text stay behind (the findings are
    located already), so that less travels back to the parent process, and the outputs' digests, which
    the manifest and the gallery page record, are computed here, beside the other workers.  With
    ``stage`` (a build), a spec that passed has its files staged here too
    (:func:`~mechdiagram.shared.files.stage_file`), and only their temporary names travel back
    (:attr:`~mechdiagram.site.results.SpecResult.staged`)."""
    result = process(path, options, project)
    result.loaded = result.loaded.lean()
    for name in result.outputs:
        result.digest(name)
    if stage and not result.failed:
        result.staged = {name: stage_file(options.output / name, data) for name, data in result.outputs.items()}
        result.outputs = dict.fromkeys(result.outputs, b"")
    return result


def render_all(options: Options, unreadable: list[Finding] | None = None) -> list[SpecResult]:
    """Every spec of ``options.specs`` loaded, checked and (unless validating) rendered into memory, in
    discovery order, writing nothing and skipping nothing; two specs with one output name both fail.
    A folder that cannot be read gets its ``unreadable-folder`` warning in ``unreadable`` when a list is given.
    The preview server (:mod:`mechdiagram.serve`) starts here.  Never raises for bad input."""
    results = _process_all(discover(options.specs, unreadable), options)
    output_collisions(results, gallery=has_gallery(options))
    return results


def execute(options: Options, progress: Progress | None = None) -> Report:
    """Run one command over ``options.specs``; see the module docstring.

    ``progress`` is called with the number of specs finished, as they finish (a progress bar).
    Returns a :class:`~mechdiagram.site.results.Report` whose ``exit_code`` is 0 or 1.
    Raises :class:`~mechdiagram.shared.errors.OutputError` only when an output file
    cannot be written or deleted, and :class:`~mechdiagram.shared.errors.TemplateError` when a template of
    ``options.template_dir`` fails.
    """
    # The output folder is resolved once: it may be a link itself (to a web root), but inside it no link is
    # followed, and a link swapped in for it (or a folder above it) during the build stops the writes there
    # (mechdiagram.shared.files.still_resolved).
    options = msgspec.structs.replace(options, output=options.output.resolve())
    output = options.output
    if options.mode != "build":
        return _execute(options, progress, None)
    staging = Staging(output, WRITE_THREADS)
    try:
        return _execute(options, progress, staging)
    finally:
        staging.close()  # whatever was staged and not put in place (a failed spec, an error) goes


def _execute(options: Options, progress: Progress | None, staging: Staging | None) -> Report:
    """:func:`execute`; a ``build`` stages each spec's files as the spec comes in."""
    output = options.output
    previous: dict[str, Entry] = {}
    if options.mode != "validate":  # validate reads no manifest
        from mechdiagram.site.manifest import read_manifest

        previous = read_manifest(output)
    unreadable: list[Finding] = []
    paths = discover(options.specs, unreadable)
    if options.mode != "validate":
        refuse_specs_in_the_way(paths, output)
    results = _run_specs(paths, options, previous, progress, partial(_stage, staging) if staging is not None else None)
    if options.mode == "validate":  # validate writes nothing, and knows not which flags a build will have
        output_collisions(results)
    else:
        output_collisions(results, output, gallery=has_gallery(options, output))
    report = Report(results)
    report.output_findings.extend(unreadable)
    if options.mode == "validate":
        return report
    # What build and check do with the results; validate is done without loading it.
    from mechdiagram.site.manifest import (
        INDEX,
        MANIFEST,
        earlier_player,
        manifest_bytes,
        manifest_collisions,
        recorded_index,
        retired,
        version_finding,
    )

    manifest_collisions(results, previous, output)
    retiring, dropped = retired(results, previous, output)
    # The player's files, which every fragment of the folder names: one copy, written with the gallery page.
    player = render_player(template_dir=options.template_dir, embedding=options.embedding)
    retired_files, kept_player = earlier_player(player, output, results, previous, dropped)
    retiring.update(retired_files)
    player_records = {**kept_player, **{name: sha256_hex(data) for name, data in player.items()}}
    expected: dict[str, bytes] = {}
    for result in results:
        if not result.failed:
            expected.update(result.outputs)
    if options.mode == "check":
        other_version = version_finding(output)
        if other_version is not None:  # every file would differ: one finding says why
            report.output_findings.append(other_version)
            return report
        kept = {k: v for k, v in previous.items() if k not in dropped}
        index = plan_gallery(options, output, results, kept, report)
        if index is not None:
            expected[INDEX] = index.data
        expected.update(player)
        expected[MANIFEST] = manifest_bytes(results, kept,
                                            sha256_hex(index.data) if index is not None else recorded_index(output),
                                            options.template_dir is not None,
                                            player_records)
        from mechdiagram.site.stale import stale_outputs  # check only (and shlex, for its hint): build compares nothing

        with output_lock(output, create=False):  # not while a build is putting its files in place
            stale_outputs(report, output, expected, retiring, previous, options)
        return report
    if staging is not None:  # build
        write_out(report, output, expected, retiring, results, dropped, options, staging, player, kept_player)
    return report


def _stage(staging: Staging, result: SpecResult) -> None:
    """Start writing the files of a spec that passed (a later collision may still fail it: its files are
    then not put in place)."""
    if result.failed:
        return
    for name, data in result.outputs.items():
        if name in result.staged:
            staging.adopt(result.key, name, result.staged[name])
        else:
            staging.stage(result.key, name, data)
