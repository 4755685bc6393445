"""Stage 8, CLI: ``mechdiagram build | validate | check | hash | new | schema | serve``.

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
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from . import __version__
from .assets import schema_text
from .build import discover, execute
from .config import Format, Mode, Options, project_settings, spec_project
from .errors import CommandFailedError, ConfigError, HashError, MechdiagramError, OutputError, UsageError
from .files import display_path
from .findings import Finding
from .hashing import DigestWrite, hash_files, write_spec_digests
from .outputs import groups
from .raster import rasteriser
from .report import emit, format_finding, printable
from .scaffold import plan_new, schema_copy_is_current, write_new, write_schema

if TYPE_CHECKING:
    from .build import Progress
    from .serve import BuildEvent

F = TypeVar("F", bound=Callable[..., Any])

_EXISTING = click.Path(exists=True, path_type=Path)

#: The --source-root option's help, for every command that has it.
SOURCE_ROOT_HELP = ("Folder that source paths are relative to, for every spec [default: each spec's project: "
                    "source-root in the nearest pyproject.toml above it, else the folder of that pyproject.toml "
                    "or of the nearest .git, else the spec's folder].")


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
    # source-root and allow-missing-sources of pyproject.toml come from each spec's own project.
    options.source_root = source_root
    options.allow_missing_sources = allow_missing
    options.extra_formats = _selected_formats(settings, pictures or {})
    if options.extra_formats & {"png", "gif"}:
        rasteriser()  # fails early, with what to install, when the raster extra is missing
    options.index = bool(index if index is not None else settings.get("index", True))
    if options.output.exists() and not options.output.is_dir():
        raise UsageError(f"output {options.output} exists and is not a folder")
    if options.source_root is not None and not options.source_root.is_dir():
        raise UsageError(f"source root {options.source_root} is not a folder")
    missing = [str(p) for p in options.specs if not p.exists()]
    if missing:
        raise UsageError(f"no such spec file or folder: {', '.join(missing)}")
    if not discover(options.specs):
        raise UsageError(f"no spec files (*.mechanism.json) in {', '.join(str(p) for p in options.specs)}")
    return options


def _format_option(func: F) -> F:
    return click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
                        show_default=True,
                        help="text: one line per finding on stderr; json: one JSON document on stdout "
                             "(schema/report.schema.json); github: GitHub Actions annotations on stdout.")(func)


def _common(func: F) -> F:
    func = click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Worker processes for many specs; 0 means one per CPU core.")(func)
    func = _format_option(func)
    func = click.option("--allow-missing-sources/--no-allow-missing-sources", default=None,
                        help="Report sources whose files are missing as unverified instead of failing. "
                             "A file that is present and differs still fails.")(func)
    func = click.option("--source-root", type=click.Path(path_type=Path), default=None,
                        help=SOURCE_ROOT_HELP)(func)
    func = click.argument("specs", nargs=-1, type=_EXISTING)(func)
    return _translated(func)


def _summary(specs: int | None, failed: int | None, exit_code: int, message: str, stale: int = 0) -> dict[str, object]:
    """The ``summary`` of a report (``schema/report.schema.json``)."""
    return {"specs": specs, "failed": failed, "stale": stale, "exit": exit_code, "message": message}


@contextlib.contextmanager
def _progress(options: Options) -> Iterator[Progress | None]:
    """A progress bar on stderr while specs are built or checked, only when stderr is a terminal and the
    format is text; otherwise nothing."""
    if options.mode == "validate" or options.format != "text" or not sys.stderr.isatty():
        yield None
        return

    with click.progressbar(length=len(discover(options.specs)), label="Building", file=sys.stderr) as bar:
        yield bar.update


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
        emit([finding], _summary(None, None, 1, exc.message), "json")
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
    emit(report.findings, _summary(total, failed, report.exit_code, message, len(stale)), options.format)
    if report.exit_code:
        raise SystemExit(report.exit_code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="Example: mechdiagram validate mechanisms")
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


@main.command(short_help="Check specs and write their SVG, HTML and manifest.",
              epilog="Example: mechdiagram build mechanisms -o output")
@_common
@_pictures
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the SVG, HTML and manifest.json [default: output].")
@_TEMPLATE_DIR
@click.option("--force", is_flag=True, help="Render every spec, even one whose inputs are unchanged since the "
                                            "manifest was written.")
def build(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None,
          force: bool, frames: bool | None, png: bool | None, gif: bool | None, index: bool | None) -> None:
    """Check SPECS and write their SVG and HTML files and manifest.json.

    A spec that fails is reported and its previous output left as it was;
    the others are still built.  A spec whose bytes, sources, options,
    templates and mechdiagram version are those the manifest records, and
    whose files are in place, is skipped (--force renders it anyway).
    --frames, --png and --gif add stills and pictures; a folder of specs
    also gets index.html, the gallery page.
    """
    options = _options("build", specs, output, source_root, allow_missing_sources, fmt, jobs,
                       {"frames": frames, "png": png, "gif": gif}, index)
    options.template_dir, options.force = template_dir, force
    _run(options, "built")


@main.command(short_help="Run every check on specs; write nothing.",
              epilog="Example: mechdiagram validate mechanisms --format github")
@_common
def validate(specs: tuple[Path, ...], source_root: Path | None, allow_missing_sources: bool | None,
             fmt: Format, jobs: int) -> None:
    """Run every check on SPECS (schema, cross-references, sources) and write nothing."""
    _run(_options("validate", specs, None, source_root, allow_missing_sources, fmt, jobs), "valid")


@main.command(short_help="For CI: every check, and fail when the output is stale.",
              epilog="Example: mechdiagram check mechanisms -o output --format github")
@_common
@_pictures
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the committed build [default: output].")
@_TEMPLATE_DIR
def check(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None,
          frames: bool | None, png: bool | None, gif: bool | None, index: bool | None) -> None:
    """For CI: every check, and fail when the output folder differs from a fresh build.

    check never skips a spec: it renders every one and compares.  Output written
    by another mechdiagram version is reported once, as needing a rebuild.  Give
    it the format options the build had (or set them in pyproject.toml).
    """
    options = _options("check", specs, output, source_root, allow_missing_sources, fmt, jobs,
                       {"frames": frames, "png": png, "gif": gif}, index)
    options.template_dir = template_dir
    _run(options, "valid")


def _write_digests(path: Path, source_root: Path | None) -> DigestWrite:
    """``hash --write`` of one spec; an error that stops it (the spec cannot be written) becomes its finding,
    so that the other specs are still updated."""
    try:
        return write_spec_digests(path, source_root or spec_project(path).source_root)
    except MechdiagramError as exc:
        return DigestWrite(display_path(path), findings=[Finding(display_path(path), None, exc.message, "hash-write")])


@main.command("hash", short_help="Print SHA-256 digests, or write them into specs.",
              epilog="Example: mechdiagram hash --write mechanisms/queue.mechanism.json")
@click.argument("files", nargs=-1, required=True, type=_EXISTING)
@click.option("--write", is_flag=True,
              help="FILES are specs: write the current SHA-256 of each of their sources into them, "
                   "changing nothing else in the file.")
@click.option("--source-root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --write: folder that source paths are relative to [default: each spec's project, "
                   "as for validate].")
@_format_option
@_translated
def hash_command(files: tuple[Path, ...], write: bool, source_root: Path | None, fmt: Format) -> None:
    """Print the SHA-256 of FILES (as sha256sum does), or with --write fill in specs' source digests.

    With --write, --format applies to what stops a spec being updated.
    """
    if not write:
        try:
            lines = hash_files(list(files))
        except OSError as exc:  # unreadable (permissions), or it vanished after click checked it
            raise HashError(f"cannot read {exc.filename}: {exc.strerror or exc}") from exc
        for line in lines:
            click.echo(line)
        return
    options = _options("validate", files, None, source_root, None, fmt)
    results = [_write_digests(path, options.source_root) for path in files]
    failed = sum(bool(r.findings) for r in results)
    if fmt == "json":
        written = sum(r.changed for r in results)
        message = (f"{len(results) - failed} of {len(results)} spec(s) current; {written} source digest(s) written"
                   + (f"; {failed} not updated" if failed else ""))
        emit([f for r in results for f in r.findings], _summary(len(results), failed, int(bool(failed)), message),
             "json")
        if failed:
            raise SystemExit(1)
        return
    for result in results:
        if result.findings:
            emit(result.findings, {}, fmt, summary_line=False)
        else:
            click.echo(f"{result.display}: {result.changed} source digest(s) written" if result.changed
                       else f"{result.display}: source digests already current", err=True)
    if failed:
        raise CommandFailedError(f"{failed} spec(s) not updated")


@main.command("new", short_help="Write a small valid spec and its pinned notes source.",
              epilog="Example: mechdiagram new queue --dir mechanisms")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder for the new spec and its notes.")
@click.option("--source-root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=SOURCE_ROOT_HELP)
@_translated
def new_command(name: str, folder: Path, source_root: Path | None) -> None:
    """Write NAME.mechanism.json, a small valid spec showing every field, and NAME.notes.md, its pinned source.

    Never overwrites a file.  The spec's $schema points at the project's copy of the
    schema (mechanism.schema.json or schema/mechanism.schema.json in the spec's folder or
    a parent, up to the project's) by a relative path; see `mechdiagram schema -o`.
    """
    # The source root the build will use for this spec: its project's (renderer.config.spec_project).
    _, base = project_settings(Path.cwd())  # how far up `new` looks for a copy of the schema
    if source_root is None:
        source_root = spec_project(folder.resolve() / f"{name.removesuffix('.mechanism.json')}.mechanism.json",
                                   check=False).source_root
    plan = plan_new(name, folder, source_root, base)
    write_new(plan)
    click.echo(f"wrote {display_path(plan.spec)} and {display_path(plan.notes)}", err=True)
    if plan.schema_copy is None:
        click.echo(f"no copy of the schema in this project, so $schema is {plan.schema_ref}; for editor "
                   "completion run `mechdiagram schema -o schema/` and point $schema at the file it writes", err=True)
    elif not schema_copy_is_current(plan.schema_copy):
        click.echo(f"{display_path(plan.schema_copy)} differs from this mechdiagram's schema; refresh it with "
                   f"`mechdiagram schema -o {display_path(plan.schema_copy)}`", err=True)


@main.command("schema", short_help="Print the spec JSON Schema, or write it for editors.",
              epilog="Example: mechdiagram schema -o schema/mechanism.schema.json")
@click.option("-o", "--output", type=click.Path(), default=None,
              help="Write the schema to this file instead of printing it; into it as mechanism.schema.json "
                   "when it is a folder or ends with '/'.")
@_translated
def schema_command(output: str | None) -> None:
    """Print the mechanism spec JSON Schema, or write it into your project for editors."""
    if output is None:
        click.echo(schema_text(), nl=False)
        return
    target, changed = write_schema(Path(output), folder=output.endswith(("/", os.sep)))
    click.echo(f"{display_path(target)}: " + ("schema written" if changed else "schema already current"), err=True)
def _print_build(event: BuildEvent) -> None:
    """The terminal's account of a preview build that changed something: its findings, and a line."""
    if not event.changed:
        return
    snapshot = event.snapshot
    for finding in snapshot.findings:
        click.echo(format_finding(finding), err=True)
    failed = sum(spec.failed for spec in snapshot.specs)
    total = len(snapshot.specs)
    message = f"{total - failed} of {total} spec(s) built in {event.ms:.0f} ms"
    if failed:
        message += f"; {failed} failed, the preview shows their findings"
    click.echo(printable(f"mechdiagram: {message}"), err=True)


@main.command(short_help="Preview specs in a browser, rebuilt after every save.",
              epilog="Example: mechdiagram serve mechanisms --open")
@click.argument("spec", required=False, type=_EXISTING)
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 to listen on [default: a free one].")
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the default web browser.")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write every build into this folder, as build does [default: write nothing].")
@click.option("--allow-missing-sources/--no-allow-missing-sources", default=None,
              help="Report sources whose files are missing as unverified instead of failing.")
@click.option("--source-root", type=click.Path(path_type=Path), default=None,
              help=SOURCE_ROOT_HELP)
@_translated
def serve(spec: Path | None, port: int, open_browser: bool, output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None) -> None:
    """Preview SPEC (a spec file or a folder of specs) in a browser, rebuilt after every save.

    Listens on 127.0.0.1 only and prints the URL; open pages reload by
    themselves, and a spec with errors shows its findings instead of its
    figure.  Nothing is written unless --output is given.  Ctrl-C stops it.
    """
    from .serve import PreviewServer  # watchfiles is imported by this command only

    options = _options("build", (spec,) if spec else (), output, source_root, allow_missing_sources, "text", 1)
    server = PreviewServer(options, port=port, write=output is not None, on_build=_print_build)
    # Ctrl-C stops the server even when this process was started with SIGINT ignored (as a background
    # job of a non-interactive shell is): Python then installs no KeyboardInterrupt handler of its own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.start()
        shown = ", ".join(display_path(p) for p in options.specs)
        click.echo(f"mechdiagram: previewing {shown} at {server.url} (Ctrl-C to stop)")
        if open_browser:
            webbrowser.open(server.url)
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    click.echo("mechdiagram: preview stopped", err=True)


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
