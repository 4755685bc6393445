"""Stage 7, build: run every stage over many specs, then write, validate or check.

:func:`execute` is the one entry point the CLI calls.  It gathers every
finding of every spec first, renders the specs that passed into memory, and
only then writes (``build``), writes nothing (``validate``) or compares with
what is on disk (``check``).  Writes go through :func:`write_file`, which is
atomic; a spec that fails leaves its previous output and manifest entry as
they were.  Output is deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import tempfile
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache, partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .config import Options
from .errors import Finding, OutputError
from .html import figure_context, render_fragment, render_page
from .layout import layout_scenario
from .load import LoadedSpec, load_spec
from .model import Source, Spec, spec_from_data
from .provenance import SourceCheck, check_sources
from .svg import prefix_for, render_scenario, svg_document
from .validate import validate

MANIFEST = "manifest.json"
SPEC_GLOB = "*.mechanism.json"


@dataclass
class SpecResult:
    """What one spec produced: findings, source checks and, if it passed, its output files.

    ``outputs`` maps a file name inside the output folder to its bytes.
    """

    loaded: LoadedSpec
    slug: str
    key: str  # the spec's path relative to the output folder: its manifest key
    findings: list[Finding] = field(default_factory=list)
    checks: list[SourceCheck] = field(default_factory=list)
    outputs: dict[str, bytes] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """True when any finding is an error."""
        return any(f.is_error for f in self.findings)


@dataclass
class Report:
    """The outcome of :func:`execute`: per-spec results plus findings about the output folder."""

    results: list[SpecResult]
    output_findings: list[Finding] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        """Every finding, spec by spec, then those about the output folder."""
        return [f for r in self.results for f in r.findings] + self.output_findings

    @property
    def failed_specs(self) -> int:
        """How many specs failed."""
        return sum(r.failed for r in self.results)

    @property
    def exit_code(self) -> int:
        """0 when nothing failed, else 1."""
        return 1 if self.failed_specs or any(f.is_error for f in self.output_findings) else 0


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when inside it, with ``/`` separators."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def manifest_key(path: Path, output: Path) -> str:
    """A spec's key in ``manifest.json``: its path relative to the output folder, where the
    manifest lives (``../mechanisms/x.mechanism.json``), so that the key does not depend on the
    working directory and always leads back to the spec."""
    return Path(os.path.relpath(path.resolve(), output.resolve())).as_posix()


def slug_for(path: Path) -> str:
    """The output name of a spec: its file name without ``.mechanism.json`` (or ``.json``)."""
    name = path.name
    for suffix in (".mechanism.json", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "mechanism"


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


def render_outputs(spec: Spec, slug: str, checks: list[SourceCheck]) -> dict[str, bytes]:
    """All output files of one valid spec, by file name: per scenario an animated and a
    poster SVG, then the standalone page and the fragment."""
    outputs: dict[str, bytes] = {}
    inline = []
    for scenario in spec.scenarios:
        svgs = render_scenario(spec, scenario, layout_scenario(spec, scenario), prefix_for(slug, scenario.id))
        outputs[f"{slug}.{scenario.id}.svg"] = svg_document(svgs.animated)
        outputs[f"{slug}.{scenario.id}.poster.svg"] = svg_document(svgs.stills[0])
        inline.append(svgs.animated)
    context = figure_context(spec, slug, inline, checks)
    outputs[f"{slug}.html"] = render_page(context).encode("utf-8")
    outputs[f"{slug}.fragment.html"] = render_fragment(context).encode("utf-8")
    return outputs


def process(path: Path, options: Options) -> SpecResult:
    """Load, validate, verify sources and (unless validating) render one spec.  Never raises for bad input."""
    loaded = load_spec(path, display_path(path))
    result = SpecResult(loaded, slug_for(path), manifest_key(path, options.output), list(loaded.findings))
    if not loaded.ok:
        return result
    findings = validate(loaded)
    # Sources are checked even when the rest of the spec has errors, so that every problem shows at once;
    # only the sources whose own entries are well formed (no finding under /sources/N).
    broken = {f.pointer.split("/")[2] for f in findings if (f.pointer or "").startswith("/sources/")}
    if any(f.pointer in ("/sources", "") and f.rule in ("type", "maxItems") for f in findings):
        sources: list[Source] = []
    else:
        sources = [Source(s["path"], s.get("sha256"), s.get("description"))
                   for i, s in enumerate(loaded.data.get("sources", [])) if str(i) not in broken]
    result.checks, source_findings = check_sources(loaded, tuple(sources), options.source_root,
                                                   allow_missing=options.allow_missing_sources)
    result.findings.extend(sorted(findings + source_findings,
                                  key=lambda f: (f.line or 0, f.column or 0, f.pointer or "", f.message)))
    if not result.failed and options.mode != "validate":
        result.outputs = render_outputs(spec_from_data(loaded.data), result.slug, result.checks)
    return result


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_bytes(results: list[SpecResult], previous: dict[str, dict]) -> bytes:
    """``manifest.json``: per spec its SHA-256, its outputs' SHA-256 and its sources' status.

    Failed specs keep their ``previous`` entry (by spec path) so their old
    output stays described.  Sorted by spec path; no timestamps.
    """
    entries = dict(previous)
    for result in results:
        if result.failed:
            continue
        entries[result.key] = {
            "spec": result.key,
            "sha256": result.loaded.sha256,
            "outputs": [{"path": name, "sha256": _digest(data)} for name, data in sorted(result.outputs.items())],
            "sources": [check.as_dict() for check in result.checks],
        }
    body = {"generator": "mechdiagram", "format": 1, "specs": [entries[k] for k in sorted(entries)]}
    # ASCII: a spec path that is not valid UTF-8 (a surrogate escape) still writes, as \u escapes.
    return (json.dumps(body, indent=2, ensure_ascii=True) + "\n").encode("ascii")


#: Largest manifest.json read back (bytes); a larger one is treated as damaged.
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


def _previous_manifest(output: Path) -> dict[str, dict]:
    path = output / MANIFEST
    try:
        if not path.is_file() or path.stat().st_size > MAX_MANIFEST_BYTES:  # a FIFO or a device would hang
            return {}
        data = json.loads(path.read_text("utf-8"))
        specs = data.get("specs", []) if isinstance(data, dict) else []
        # A hand-edited or damaged manifest: keep only entries of the shape manifest_bytes writes.
        return {entry["spec"]: entry for entry in (specs if isinstance(specs, list) else [])
                if isinstance(entry, dict) and isinstance(entry.get("spec"), str)
                and isinstance(entry.get("outputs", []), list)}
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return {}


def write_file(path: Path, data: bytes, mode: int | None = None) -> bool:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, then rename).

    ``mode`` is the new file's permission bits (default: ``0o666`` less the
    umask).  Returns False, writing nothing, when the file already holds
    exactly ``data``.  Raises :class:`OutputError` (naming the file) when it
    cannot write; an interrupted write leaves no temporary file behind.
    """
    try:
        if path.is_file() and path.read_bytes() == data:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), default_mode() if mode is None else mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from exc
        raise
    return True


@lru_cache(maxsize=1)
def default_mode() -> int:
    """Permission bits of new output files: ``0o666`` less the process umask (read once: reading it
    means setting it, which must not happen while threads create files)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _slug_collisions(results: list[SpecResult]) -> None:
    owner: dict[str, SpecResult] = {}
    for result in results:
        first = owner.setdefault(result.slug, result)
        if first is not result:
            result.findings.append(Finding(
                result.loaded.display, None,
                f"writes the same output files ({result.slug}.*) as {first.loaded.display}; rename one of them",
                "output-collision"))
            result.outputs = {}


def _retired(results: list[SpecResult], previous: dict[str, dict], options: Options) -> tuple[dict[str, str], set[str]]:
    """Output files that no spec produces any more, with the reason, and the manifest entries to drop.

    A file is retired when the previous manifest lists it for a spec that now
    produces other files (a scenario was renamed), or for a spec whose file no
    longer exists (keys are relative to the output folder, so this does not
    depend on where the command runs).  Only names that spec could have written (``<slug>.*.svg``,
    ``<slug>.html``...) whose bytes still match the digest the manifest recorded
    are retired: a file someone edited, or named in a hand-edited manifest, is
    never deleted.
    """
    produced = {r.key: r for r in results if not r.failed}
    new_names = {name for r in produced.values() for name in r.outputs}
    files: dict[str, str] = {}
    dropped: set[str] = set()
    for key, entry in previous.items():
        if key in produced:
            reason = f"no longer produced by {_spec_shown(options, key)}"
        elif not (options.output / key).exists():
            reason = f"its spec {_spec_shown(options, key)} no longer exists"
            dropped.add(key)
        else:
            continue  # a spec not built this time, or one that failed: its output stays
        slug = slug_for(Path(key))
        for item in entry.get("outputs", []):
            name = item.get("path") if isinstance(item, dict) else None
            digest = item.get("sha256") if isinstance(item, dict) else None
            if (isinstance(name, str) and name not in new_names and _written_by(slug, name)
                    and _file_digest(options.output / name) == digest):
                files[name] = reason
    return files, dropped


def _spec_shown(options: Options, key: str) -> str:
    """A manifest key (relative to the output folder) as a path from the working directory."""
    return display_path(Path(os.path.normpath(options.output / key)))


def _written_by(slug: str, name: str) -> bool:
    """Whether ``name`` is a file name the spec with ``slug`` writes."""
    return name == Path(name).name and (name in (f"{slug}.html", f"{slug}.fragment.html")
                                        or (name.startswith(f"{slug}.") and name.endswith(".svg")))


def _file_digest(path: Path) -> str | None:
    try:
        return _digest(path.read_bytes()) if path.is_file() else None
    except OSError:
        return None


def _manifest_collisions(results: list[SpecResult], previous: dict[str, dict], options: Options) -> None:
    """Fail a spec whose output names the manifest records for another spec that still exists
    (two folders with an ``x.mechanism.json`` each, built into one output folder by two runs)."""
    owners: dict[str, str] = {}
    for key, entry in previous.items():
        for item in entry.get("outputs", []):
            if isinstance(item, dict) and isinstance(item.get("path"), str):
                owners.setdefault(item["path"], key)
    for result in results:
        if result.failed:
            continue
        for name in sorted(result.outputs):
            other = owners.get(name)
            if other is not None and other != result.key and (options.output / other).exists():
                result.findings.append(Finding(
                    result.loaded.display, None,
                    f"writes {name}, which {MANIFEST} records as the output of {_spec_shown(options, other)}; "
                    "rename one of the specs",
                    "output-collision"))
                result.outputs = {}
                break


def _check_output(report: Report, options: Options, expected: dict[str, bytes], retired: dict[str, str]) -> None:
    out = options.output
    for name, data in sorted(expected.items()):
        path = out / name
        shown = display_path(path)
        if not path.is_file():
            report.output_findings.append(Finding(shown, None, "missing: run mechdiagram build", "stale-output"))
        elif path.read_bytes() != data:
            report.output_findings.append(Finding(shown, None, "differs from a fresh build: run mechdiagram build",
                                                  "stale-output"))
    for name, reason in sorted(retired.items()):
        if (out / name).is_file():
            report.output_findings.append(Finding(display_path(out / name), None,
                                                  f"{reason}: run mechdiagram build to delete it", "stale-output"))


#: Threads that write output files at once.
WRITE_THREADS = 8

#: Fewest specs for which worker processes pay for their start-up.
PARALLEL_THRESHOLD = 8


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
    result.loaded.data = None
    result.loaded.text = ""
    result.loaded.__dict__.pop("_offsets", None)
    result.loaded.__dict__.pop("_line_starts", None)
    return result


def execute(options: Options) -> Report:
    """Run one command over ``options.specs``; see the module docstring.

    Returns a :class:`Report` whose ``exit_code`` is 0 or 1.  Raises
    :class:`OutputError` only when an output file cannot be written.
    """
    results = _process_all(discover(options.specs), options)
    _slug_collisions(results)
    report = Report(results)
    if options.mode == "validate":
        return report
    previous = _previous_manifest(options.output)
    _manifest_collisions(results, previous, options)
    retired, dropped = _retired(results, previous, options)
    expected: dict[str, bytes] = {}
    for result in results:
        if not result.failed:
            expected.update(result.outputs)
    expected[MANIFEST] = manifest_bytes(results, {k: v for k, v in previous.items() if k not in dropped})
    if options.mode == "check":
        _check_output(report, options, expected, retired)
        return report
    # Writing is I/O-bound (each file is synced before its rename): threads overlap the waits.
    # The manifest goes last, and only once every output is in place, so that it never
    # describes files an interrupted or failed build did not write.
    names = [name for name in expected if name != MANIFEST]
    default_mode()  # before the threads start
    with ThreadPoolExecutor(max_workers=WRITE_THREADS) as pool:
        changed = list(pool.map(lambda name: write_file(options.output / name, expected[name]), names))
    # Retired files go before the manifest that forgets them, so a failure here leaves them recorded.
    for name in sorted(retired):
        try:
            (options.output / name).unlink()
            report.deleted.append(name)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise OutputError(f"cannot delete {display_path(options.output / name)}: {exc.strerror or exc}") from exc
    with _output_lock(options.output):  # two builds into one folder must not interleave their manifests
        current = _previous_manifest(options.output)  # another build may have written it meanwhile
        manifest = manifest_bytes(results, {k: v for k, v in current.items() if k not in dropped})
        changed.append(write_file(options.output / MANIFEST, manifest))
    for name, was_written in zip(names + [MANIFEST], changed):
        (report.written if was_written else report.unchanged).append(name)
    return report
