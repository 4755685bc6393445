"""Stage 8, CLI: ``mechdiagram build | validate | check | hash``.

Each command fills one :class:`renderer.config.Options` and calls
:func:`renderer.build.execute` (or the hash helpers).  Exit status: 0 when all
is well, 1 when a spec, a source or the output failed, 2 for a usage error
(click's ``UsageError``).  Messages go to stderr; there is no traceback.

Start-up stays short: a command imports the stages it runs when it runs
(``--version`` loads click and nothing of the pipeline; ``validate`` never
loads the drawing, the templates or, for a valid spec, ``jsonschema``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from . import __version__
from .errors import CommandFailedError, HashError, MechdiagramError, OutputError, UsageError

if TYPE_CHECKING:
    from .build import Progress
    from .config import Format, Mode, Options

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


def _options(mode: Mode, specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
             allow_missing: bool | None, fmt: Format, jobs: int = 0) -> Options:
    from .build import discover
    from .config import Options, project_settings
    from .files import display_path

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


@contextlib.contextmanager
def _progress(options: Options) -> Iterator[Progress | None]:
    """A progress bar on stderr while specs are built or checked, only when stderr is a terminal and the
    format is text; otherwise nothing."""
    if options.mode == "validate" or options.format != "text" or not sys.stderr.isatty():
        yield None
        return
    from .build import discover

    with click.progressbar(length=len(discover(options.specs)), label="Building", file=sys.stderr) as bar:
        yield bar.update


def _run(options: Options, done: str) -> None:
    from .build import execute
    from .findings import Finding
    from .report import emit

    try:
        with _progress(options) as progress:
            report = execute(options, progress)
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
        skipped = f"{report.skipped_specs} unchanged, skipped; " if report.skipped_specs else ""
        message = (f"{total - failed} of {total} spec(s) built into {options.output}/ "
                   f"({skipped}{len(report.written)} file(s) written, {len(report.unchanged)} unchanged"
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


_TEMPLATE_DIR = click.option(
    "--template-dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help="Folder of jinja2 templates (page.html, fragment.html, figure.html, svg.css, player.css) used "
         "before the built-in ones. Templates are trusted code: use only your own.")


@main.command()
@_common
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the SVG, HTML and manifest.json [default: output].")
@_TEMPLATE_DIR
@click.option("--force", is_flag=True, help="Render every spec, even one whose inputs are unchanged since the "
                                            "manifest was written.")
def build(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None,
          force: bool) -> None:
    """Check SPECS and write their SVG and HTML files and manifest.json.

    A spec that fails is reported and its previous output left as it was;
    the others are still built.  A spec whose bytes, sources, options,
    templates and mechdiagram version are those the manifest records, and
    whose files are in place, is skipped (--force renders it anyway).

    \b
    Example: mechdiagram build mechanisms -o output --template-dir site/templates
    """
    options = _options("build", specs, output, source_root, allow_missing_sources, fmt, jobs)
    options.template_dir, options.force = template_dir, force
    _run(options, "built")


@main.command()
@_common
def validate(specs: tuple[Path, ...], source_root: Path | None, allow_missing_sources: bool | None,
             fmt: Format, jobs: int) -> None:
    """Run every check on SPECS (schema, cross-references, sources) and write nothing."""
    _run(_options("validate", specs, None, source_root, allow_missing_sources, fmt, jobs), "valid")


@main.command()
@_common
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the committed build [default: output].")
@_TEMPLATE_DIR
def check(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None) -> None:
    """For CI: every check, and fail when the output folder differs from a fresh build.

    check never skips a spec: it renders every one and compares.  Output written
    by another mechdiagram version is reported once, as needing a rebuild.

    \b
    Example: mechdiagram check mechanisms -o output
    """
    options = _options("check", specs, output, source_root, allow_missing_sources, fmt, jobs)
    options.template_dir = template_dir
    _run(options, "valid")


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
    from .files import display_path
    from .hashing import hash_files, write_spec_digests

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
