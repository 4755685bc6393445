"""Stage 8, CLI: ``mechdiagram build | validate | check | hash``.

Each command fills one :class:`renderer.config.Options` and calls
:func:`renderer.build.execute` (or the hash helpers).  Exit status: 0 when all
is well, 1 when a spec, a source or the output failed, 2 for a usage error
(click's ``UsageError``).  Messages go to stderr; there is no traceback.
"""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from . import __version__
from .build import discover, execute
from .config import Format, Mode, Options, project_settings
from .errors import CommandFailedError, ConfigError, HashError, MechdiagramError, OutputError, UsageError
from .files import display_path
from .findings import Finding
from .hashing import hash_files, write_spec_digests
from .outputs import groups
from .raster import rasteriser
from .report import emit

F = TypeVar("F", bound=Callable[..., Any])

_EXISTING = click.Path(exists=True, path_type=Path)


def click_error(exc: MechdiagramError) -> click.ClickException:
    """The click exception that prints ``exc`` the way click prints errors, with its exit status."""
    if exc.exit_code == UsageError.exit_code:
        return click.UsageError(exc.message)
    return click.ClickException(exc.message)  # exit status 1


def _translated(func: F) -> F:
    """Run a command, turning a :class:`~renderer.errors.MechdiagramError` into a click error inside the
    command's own context (so a usage error shows that command's usage line)."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MechdiagramError as exc:
            raise click_error(exc) from exc
    return cast(F, wrapper)


def _selected_formats(settings: dict[str, Any], flags: dict[str, bool | None]) -> frozenset[str]:
    """The optional format groups to write: ``formats`` under ``[tool.mechdiagram]``, then the flags
    (``--png`` adds, ``--no-png`` removes).  Raises :class:`ConfigError` for an unknown group name."""
    known = groups()
    listed = settings.get("formats", [])
    unknown = [name for name in listed if name not in known]
    if unknown:
        raise ConfigError(f"[tool.mechdiagram] formats has unknown format {unknown[0]!r}; known formats: "
                          + ", ".join(known))
    chosen = {name for name in listed if known[name]}
    for name, flag in flags.items():
        if flag is not None:
            chosen = chosen | {name} if flag else chosen - {name}
    return frozenset(chosen)


def _options(mode: Mode, specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
             allow_missing: bool | None, fmt: Format, jobs: int = 0,
             pictures: dict[str, bool | None] | None = None, index: bool | None = None) -> Options:
    settings, base = project_settings(Path.cwd())

    def rel(value: str) -> Path:
        return Path(display_path(base / value))

    options = Options(mode=mode, format=fmt, jobs=jobs)
    if specs:
        options.specs = list(specs)
    elif "specs" in settings:
        options.specs = [rel(s) for s in settings["specs"]]
    if output is not None:
        options.output = output
    elif "output" in settings:
        options.output = rel(settings["output"])
    if source_root is not None:
        options.source_root = source_root
    elif "source-root" in settings:
        options.source_root = rel(settings["source-root"])
    options.allow_missing_sources = bool(allow_missing if allow_missing is not None
                                         else settings.get("allow-missing-sources", False))
    options.extra_formats = _selected_formats(settings, pictures or {})
    if options.extra_formats & {"png", "gif"}:
        rasteriser()  # fails early, with what to install, when the raster extra is missing
    options.index = bool(index if index is not None else settings.get("index", True))
    if options.output.exists() and not options.output.is_dir():
        raise UsageError(f"output {options.output} exists and is not a folder")
    if not options.source_root.is_dir():
        raise UsageError(f"source root {options.source_root} is not a folder")
    missing = [str(p) for p in options.specs if not p.exists()]
    if missing:
        raise UsageError(f"no such spec file or folder: {', '.join(missing)}")
    if not discover(options.specs):
        raise UsageError(f"no spec files (*.mechanism.json) in {', '.join(str(p) for p in options.specs)}")
    return options


def _common(func: F) -> F:
    func = click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Worker processes for many specs; 0 means one per CPU core.")(func)
    func = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                        help="text: one line per finding on stderr; json: one JSON document on stdout.")(func)
    func = click.option("--allow-missing-sources/--no-allow-missing-sources", default=None,
                        help="Report sources whose files are missing as unverified instead of failing. "
                             "A file that is present and differs still fails.")(func)
    func = click.option("--source-root", type=click.Path(path_type=Path), default=None,
                        help="Folder that source paths are relative to [default: source-root in "
                             "pyproject.toml, else the current folder].")(func)
    func = click.argument("specs", nargs=-1, type=_EXISTING)(func)
    return _translated(func)


def _pictures(func: F) -> F:
    """The output options of ``build`` and ``check``: the optional formats and the gallery page."""
    func = click.option("--index/--no-index", "index", default=None,
                        help="Write index.html, the gallery page, when building a folder of specs "
                             "[default: on; index in pyproject.toml]. A foreign index.html is never overwritten.")(func)
    func = click.option("--gif/--no-gif", default=None,
                        help="Also write NAME.SCENARIO.gif, each step held for its duration (raster extra).")(func)
    func = click.option("--png/--no-png", default=None,
                        help="Also write a PNG beside each still: the poster and every step (raster extra).")(func)
    return click.option("--frames/--no-frames", default=None,
                        help="Also write NAME.SCENARIO.frame-K.svg, a still of each step K.")(func)


def _run(options: Options, done: str) -> None:
    try:
        report = execute(options)
    except OutputError as exc:
        if options.format != "json":
            raise
        # Tools reading --format json get the failure as JSON too, not as a line of text.
        finding = Finding(str(options.output), None, exc.message, "output-write")
        emit([finding], {"specs": None, "failed": None, "stale": 0, "exit": 1, "message": exc.message},
             "json")
        raise SystemExit(1) from None
    total, failed = len(report.results), report.failed_specs
    if options.mode == "build":
        message = (f"{total - failed} of {total} spec(s) built into {options.output}/ "
                   f"({len(report.written)} file(s) written, {len(report.unchanged)} unchanged"
                   + (f", {len(report.deleted)} retired file(s) deleted" if report.deleted else "") + ")")
    else:
        message = f"{total - failed} of {total} spec(s) {done}"
    if failed:
        message += f"; {failed} failed" + (", their previous output left unchanged" if options.mode == "build" else "")
    stale = [f for f in report.output_findings if f.is_error]
    if stale:
        message += f"; {len(stale)} output file(s) stale"
    elif options.mode == "check" and not failed:
        message += f"; {options.output}/ is up to date"
    summary = {"specs": total, "failed": failed, "stale": len(stale), "exit": report.exit_code, "message": message}
    emit(report.findings, summary, options.format)
    if report.exit_code:
        raise SystemExit(report.exit_code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mechdiagram")
def main() -> None:
    """Accessible, animated mechanism diagrams from JSON mechanism specs.

    SPECS are spec files or folders (searched for *.mechanism.json);
    the default is mechanisms/.  Exit status: 0 all good, 1 a spec, source or
    output failed, 2 usage error.
    """


@main.command()
@_common
@_pictures
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the SVG, HTML and manifest.json [default: output].")
def build(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, frames: bool | None, png: bool | None,
          gif: bool | None, index: bool | None) -> None:
    """Check SPECS and write their SVG and HTML files and manifest.json.

    A spec that fails is reported and its previous output left as it was;
    the others are still built.  --frames, --png and --gif add stills and
    pictures; a folder of specs also gets index.html, the gallery page.

    Example: mechdiagram build mechanisms -o output --frames --png
    """
    _run(_options("build", specs, output, source_root, allow_missing_sources, fmt, jobs,
                  {"frames": frames, "png": png, "gif": gif}, index), "built")


@main.command()
@_common
def validate(specs: tuple[Path, ...], source_root: Path | None, allow_missing_sources: bool | None,
             fmt: Format, jobs: int) -> None:
    """Run every check on SPECS (schema, cross-references, sources) and write nothing."""
    _run(_options("validate", specs, None, source_root, allow_missing_sources, fmt, jobs), "valid")


@main.command()
@_common
@_pictures
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the committed build [default: output].")
def check(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, frames: bool | None, png: bool | None,
          gif: bool | None, index: bool | None) -> None:
    """For CI: every check, and fail when the output folder differs from a fresh build.

    Give it the format options the build had (or set them in pyproject.toml).

    Example: mechdiagram check mechanisms -o output --frames --png
    """
    _run(_options("check", specs, output, source_root, allow_missing_sources, fmt, jobs,
                  {"frames": frames, "png": png, "gif": gif}, index), "valid")


@main.command("hash")
@click.argument("files", nargs=-1, required=True, type=_EXISTING)
@click.option("--write", is_flag=True,
              help="FILES are specs: write the current SHA-256 of each of their sources into them, "
                   "changing nothing else in the file.")
@click.option("--source-root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --write: folder that source paths are relative to.")
@_translated
def hash_command(files: tuple[Path, ...], write: bool, source_root: Path | None) -> None:
    """Print the SHA-256 of FILES (as sha256sum does), or with --write fill in specs' source digests."""
    if not write:
        try:
            lines = hash_files(list(files))
        except OSError as exc:  # unreadable (permissions), or it vanished after click checked it
            raise HashError(f"cannot read {exc.filename}: {exc.strerror or exc}") from exc
        for line in lines:
            click.echo(line)
        return
    options = _options("validate", files, None, source_root, None, "text")
    failed = 0
    for path in files:
        try:
            changed = write_spec_digests(path, options.source_root)
        except MechdiagramError as exc:
            click.echo(exc.message, err=True)
            failed += 1
            continue
        click.echo(f"{display_path(path)}: {changed} source digest(s) written" if changed
                   else f"{display_path(path)}: source digests already current", err=True)
    if failed:
        raise CommandFailedError(f"{failed} spec(s) not updated")


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run() -> None:
    """Console entry point: :func:`main`, with an unexpected exception reported in one line.

    Set ``MECHDIAGRAM_DEBUG=1`` to see the traceback instead.
    """
    # SIGTERM (a CI job cancelled, `timeout`) unwinds like Ctrl-C, so no temporary file is left behind.
    signal.signal(signal.SIGTERM, _terminate)
    try:
        main(standalone_mode=True)
    except Exception as exc:  # a bug in mechdiagram, not in the input
        if os.environ.get("MECHDIAGRAM_DEBUG"):
            raise
        click.echo(f"mechdiagram: internal error ({type(exc).__name__}: {exc}); please report it, "
                   "with MECHDIAGRAM_DEBUG=1 for details", err=True)
        raise SystemExit(1) from None


if __name__ == "__main__":  # pragma: no cover
    run()
