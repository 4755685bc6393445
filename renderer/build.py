"""Stage 7, build: run every stage over many specs, then write, validate or check.

:func:`execute` is the one entry point the CLI calls.  It gathers every
finding of every spec first, renders the specs that passed into memory
(through the output formats of :mod:`renderer.outputs`), and only then writes
(``build``), writes nothing (``validate``) or compares with what is on disk
(``check``).  Writes go through :func:`renderer.files.write_file`, which is
atomic; a spec that fails leaves its previous output and manifest entry as
they were.  Output is deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from pathlib import Path

from .config import Options
from .errors import OutputError
from .files import default_mode, display_path, sha256_hex, write_file
from .findings import Finding, sorted_findings
from .gallery import IndexPlan, figure_record, plan_index, render_index
from .load import load_spec
from .manifest import (
    INDEX,
    MANIFEST,
    Entry,
    manifest_bytes,
    manifest_collisions,
    manifest_entries,
    read_manifest,
    recorded_index,
    retired,
)
from .outputs import render_outputs, selected, slug_for
from .provenance import check_sources
from .raster import rasteriser
from .results import Report, SpecResult
from .validate import check_spec

SPEC_GLOB = "*.mechanism.json"

#: Threads that write output files at once.
WRITE_THREADS = 8

#: Fewest specs for which worker processes pay for their start-up.
PARALLEL_THRESHOLD = 8


def manifest_key(path: Path, output: Path) -> str:
    """A spec's key in ``manifest.json``: its path relative to the output folder, where the
    manifest lives (``../mechanisms/x.mechanism.json``), so that the key does not depend on the
    working directory and always leads back to the spec."""
    return Path(os.path.relpath(path.resolve(), output.resolve())).as_posix()


def discover(paths: list[Path]) -> list[Path]:
    """Spec files from files and folders (folders searched recursively for :data:`SPEC_GLOB`), sorted, unique."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob(SPEC_GLOB) if p.is_file()))
        else:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def process(path: Path, options: Options) -> SpecResult:
    """Load, validate, verify sources and (unless validating) render one spec.  Never raises for bad input."""
    loaded = load_spec(path, display_path(path))
    result = SpecResult(loaded, slug_for(path), manifest_key(path, options.output), list(loaded.findings))
    if not loaded.ok:
        return result
    validation = check_spec(loaded)
    # Sources are checked even when the rest of the spec has errors, so that every problem shows at once.
    result.checks, source_findings = check_sources(
        loaded, [source for _, source in validation.sources], options.source_root,
        allow_missing=options.allow_missing_sources, indexes=[index for index, _ in validation.sources])
    result.findings.extend(sorted_findings(validation.findings + source_findings))
    if not result.failed and options.mode != "validate" and validation.spec is not None:
        result.outputs = render_outputs(validation.spec, result.slug, result.checks,
                                        selected(options.extra_formats), validation.diagram)
        result.figure = figure_record(validation.spec)
    return result


def _slug_collisions(results: list[SpecResult]) -> None:
    owner: dict[str, SpecResult] = {}
    for result in results:
        first = owner.setdefault(result.slug, result)
        if first is not result:
            result.refuse(Finding(
                result.loaded.display, None,
                f"writes the same output files ({result.slug}.*) as {first.loaded.display}; rename one of them",
                "output-collision"))


def _check_output(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
                  previous: dict[str, Entry]) -> None:
    pictures = {item.get("path"): item.get("rasteriser") for entry in previous.values()
                for item in entry.get("outputs", []) if isinstance(item, dict) and "rasteriser" in item}
    for name, data in sorted(expected.items()):
        path = output / name
        shown = display_path(path)
        if not path.is_file():
            report.output_findings.append(Finding(shown, None, "missing: run mechdiagram build", "stale-output"))
        elif path.read_bytes() != data:
            made_by = pictures.get(name)
            if isinstance(made_by, str) and made_by != rasteriser():
                message = (f"differs from a fresh build: it was rasterised by {made_by}, this build uses "
                           f"{rasteriser()}, whose pixels differ; run mechdiagram build to redraw the pictures")
            else:
                message = "differs from a fresh build: run mechdiagram build"
            report.output_findings.append(Finding(shown, None, message, "stale-output"))
    for name, reason in sorted(retiring.items()):
        if (output / name).is_file():
            report.output_findings.append(Finding(display_path(output / name), None,
                                                  f"{reason}: run mechdiagram build to delete it", "stale-output"))


@contextlib.contextmanager
def _output_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock (flock) on the output folder itself; no lock file is left behind.
    Where flock does not exist (Windows), builds are not serialised."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise OutputError(f"cannot open {display_path(folder)}: {exc.strerror or exc}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent process, which reports it once, and end quietly on SIGTERM
    (not through the parent's handler, which would print a traceback from each); workers write nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _process_all(paths: list[Path], options: Options) -> list[SpecResult]:
    """:func:`process` every spec, in worker processes when there are many; results keep input order."""
    jobs = options.jobs or os.cpu_count() or 1
    if jobs <= 1 or len(paths) < PARALLEL_THRESHOLD:
        return [process(path, options) for path in paths]
    with ProcessPoolExecutor(max_workers=min(jobs, len(paths)), initializer=_ignore_interrupts) as pool:
        return list(pool.map(partial(_process_lean, options=options), paths,
                             chunksize=max(1, len(paths) // (jobs * 8))))


def _process_lean(path: Path, options: Options) -> SpecResult:
    """:func:`process` in a worker: the parsed document and its text stay behind (the findings are
    located already), so that less travels back to the parent process."""
    result = process(path, options)
    result.loaded = result.loaded.lean()
    return result


def _index(options: Options, output: Path, results: list[SpecResult], previous: dict[str, Entry],
           report: Report) -> IndexPlan | None:
    """The gallery page for the manifest as this run leaves it, when a folder of specs is built and
    ``--no-index`` was not given; a foreign ``index.html`` is reported (a warning) and left alone."""
    if not options.index or not any(path.is_dir() for path in options.specs):
        return None
    plan = plan_index(output, render_index(manifest_entries(results, previous)), recorded_index(output))
    if plan.refused is not None:
        report.output_findings.append(plan.refused)
        return None
    return plan


def _write(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
           results: list[SpecResult], dropped: set[str], options: Options) -> None:
    # Writing is I/O-bound (each file is synced before its rename): threads overlap the waits.
    # The manifest goes last, and only once every output is in place, so that it never
    # describes files an interrupted or failed build did not write.
    names = list(expected)
    default_mode()  # before the threads start
    with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
        changed = list(pool.map(lambda name: write_file(output / name, expected[name]), names))
    # Retired files go before the manifest that forgets them, so a failure here leaves them recorded.
    for name in sorted(retiring):
        try:
            (output / name).unlink()
            report.deleted.append(name)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise OutputError(f"cannot delete {display_path(output / name)}: {exc.strerror or exc}") from exc
    with _output_lock(output):  # two builds into one folder must not interleave their manifests
        # Read again: another build may have written it meanwhile.  The gallery page follows it.
        current = {k: v for k, v in read_manifest(output).items() if k not in dropped}
        index = _index(options, output, results, current, report)
        if index is not None:
            names.append(INDEX)
            changed.append(write_file(output / INDEX, index.data))
        digest = sha256_hex(index.data) if index is not None else recorded_index(output)
        changed.append(write_file(output / MANIFEST, manifest_bytes(results, current, digest)))
    for name, was_written in zip([*names, MANIFEST], changed, strict=True):
        (report.written if was_written else report.unchanged).append(name)


def execute(options: Options) -> Report:
    """Run one command over ``options.specs``; see the module docstring.

    Returns a :class:`~renderer.results.Report` whose ``exit_code`` is 0 or 1.
    Raises :class:`~renderer.errors.OutputError` only when an output file
    cannot be written or deleted.
    """
    results = _process_all(discover(options.specs), options)
    _slug_collisions(results)
    report = Report(results)
    if options.mode == "validate":
        return report
    output = options.output
    previous = read_manifest(output)
    manifest_collisions(results, previous, output)
    retiring, dropped = retired(results, previous, output)
    expected: dict[str, bytes] = {}
    for result in results:
        if not result.failed:
            expected.update(result.outputs)
    if options.mode == "check":
        kept = {k: v for k, v in previous.items() if k not in dropped}
        index = _index(options, output, results, kept, report)
        if index is not None:
            expected[INDEX] = index.data
        expected[MANIFEST] = manifest_bytes(results, kept,
                                            sha256_hex(index.data) if index is not None else recorded_index(output))
        _check_output(report, output, expected, retiring, previous)
        return report
    _write(report, output, expected, retiring, results, dropped, options)
    return report
