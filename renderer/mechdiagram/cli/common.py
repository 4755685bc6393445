"""What the commands share: turning errors into click errors, the one :class:`~mechdiagram.shared.config.Options`
a command fills, the options several commands take, and running a build, check or validation.

Only click and :mod:`mechdiagram.shared.errors` are imported here at start-up; the pipeline is imported by the
function that runs it (see :mod:`mechdiagram.cli`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from mechdiagram.shared.errors import (
    CommandFailedError,
    ConfigError,
    FileSystemError,
    MechdiagramError,
    OutOfMemoryError,
    UsageError,
)

if TYPE_CHECKING:
    from mechdiagram.shared.config import Format, Mode, Options
    from mechdiagram.site.build import Progress

F = TypeVar("F", bound=Callable[..., Any])

EXISTING = click.Path(exists=True, path_type=Path)

#: The --source-root option's help, for every command that has it.
SOURCE_ROOT_HELP = ("Folder that source paths are relative to, for every spec [default: each spec's project: "
                    "source-root in the nearest pyproject.toml above it, else the folder of that pyproject.toml "
                    "or of the nearest .git, else the spec's folder].")


def click_error(exc: MechdiagramError) -> click.ClickException:
    """The click exception that prints ``exc`` the way click prints errors, with its exit status."""
    if exc.exit_code == UsageError.exit_code:
        return click.UsageError(exc.message)
    return click.ClickException(exc.message)  # exit status 1


def translated(func: F) -> F:
    """Run a command, turning a :class:`~mechdiagram.shared.errors.MechdiagramError` into a click error inside the
    command's own context (so a usage error shows that command's usage line).  Under ``--format json``
    or ``github`` the error is also reported in that format (:func:`report_error`), so that a tool
    reading stdout always gets a document or an annotation; a :class:`~mechdiagram.shared.errors.CommandFailedError`,
    whose findings were reported already, only sets the exit status and says so on stderr."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return func(*args, **kwargs)
            except OSError as exc:
                if exc.filename is None:  # not about a file: a bug, or standard output (the entry point says)
                    raise
                raise file_system_error(exc) from exc
            except MemoryError as exc:  # reported as any error, so that --format json still prints a document
                raise OutOfMemoryError() from exc
            except RuntimeError as exc:  # Python 3.11's Path.resolve() on a link that leads to itself
                if not str(exc).startswith("Symlink loop from "):
                    raise
                looped = str(exc).removeprefix("Symlink loop from ").strip("'")
                raise FileSystemError(f"cannot use {looped}: a symbolic link that leads back to itself",
                                      Path(looped)) from exc
        except MechdiagramError as exc:
            if kwargs.get("fmt") in ("json", "github") and not isinstance(exc, CommandFailedError):
                report_error(exc, kwargs["fmt"])
                raise SystemExit(exc.exit_code) from None
            raise click_error(exc) from exc
    return cast(F, wrapper)


def file_system_error(exc: OSError) -> FileSystemError:
    """The :class:`~mechdiagram.shared.errors.FileSystemError` of an ``OSError`` about a named file (a folder that
    cannot be read or searched, a full disk): "cannot use FILE: REASON"."""
    from mechdiagram.shared.files import display_path

    path = Path(os.fsdecode(exc.filename))
    return FileSystemError(f"cannot use {display_path(path)}: {exc.strerror or exc}", path)


def requested_format(args: list[str]) -> str:
    """The ``--format`` value in a command's arguments as given (``--format json``, ``--format=json``), before
    click has parsed them; ``"text"`` when there is none."""
    found = "text"
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--format" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--format="):
            found = arg.split("=", 1)[1]
    return found


class ReportingCommand(click.Command):
    """A command with ``--format``: a usage error click finds while parsing its arguments (a missing file,
    an unknown option) is reported as one ``usage`` finding when the arguments ask for ``json`` or ``github``,
    as :func:`translated` reports the errors the command raises, so that stdout holds a document then too."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """click's context for ``args``; raises :class:`click.exceptions.Exit` (status 2) once a usage error
        is reported as a finding, else the usage error itself."""
        fmt = requested_format(list(args))
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            if fmt not in ("json", "github"):
                raise
            report_error(UsageError(exc.format_message()), cast("Format", fmt))
            raise click.exceptions.Exit(exc.exit_code) from None


def report_error(exc: MechdiagramError, fmt: Format) -> None:
    """Report an error that stopped a command as one finding, in ``fmt`` (``json``: the report document,
    its summary with no spec counted; ``github``: an annotation, and the message on stderr).  The finding's
    file is the output folder or file the error names when it has one, else ``mechdiagram``; its rule is
    the error's :attr:`~mechdiagram.shared.errors.MechdiagramError.rule`."""
    from mechdiagram.cli.report import emit
    from mechdiagram.shared.files import display_path
    from mechdiagram.shared.findings import Finding

    path = getattr(exc, "path", None)  # shown as the message shows it: relative to the working folder
    finding = Finding(display_path(path) if path is not None else "mechdiagram", None, exc.message, exc.rule)
    emit([finding], summary(None, None, exc.exit_code, exc.message), fmt)


def _selected_formats(settings: dict[str, Any], flags: dict[str, bool | None], pyproject: Path) -> frozenset[str]:
    """The optional format groups to write: ``formats`` under ``[tool.mechdiagram]`` of ``pyproject``, then
    the flags (``--png`` adds, ``--no-png`` removes).  Raises :class:`ConfigError`, naming the file, for an
    unknown group name."""
    listed = settings.get("formats", [])
    chosen: set[str] = set()
    if listed:  # only a formats setting needs the registry of formats, which loads the layout and more
        from mechdiagram.render.outputs import groups
        from mechdiagram.shared.files import display_path

        known = groups()
        unknown = [name for name in listed if name not in known]
        if unknown:
            raise ConfigError(f"{display_path(pyproject)}: [tool.mechdiagram] formats has unknown format "
                              f"{unknown[0]!r}; known formats: " + ", ".join(known))
        chosen = {name for name in listed if known[name]}
    for name, flag in flags.items():
        if flag is not None:
            chosen = chosen | {name} if flag else chosen - {name}
    return frozenset(chosen)


def _configured_templates(value: str, base: Path) -> Path:
    """``template-dir`` of ``[tool.mechdiagram]`` in ``base/pyproject.toml``: a folder inside the project, as
    shown.  Raises :class:`~mechdiagram.shared.errors.ConfigError` for an empty value, a path out of the project, or one
    that is not a folder."""
    from mechdiagram.shared.files import display_path

    shown = display_path(base / "pyproject.toml")
    folder = (base / value).resolve()
    if not value.strip() or not folder.is_relative_to(base.resolve()) or folder == base.resolve():
        raise ConfigError(f"{shown}: [tool.mechdiagram] template-dir {value!r} must name a folder inside the "
                          "project, below its pyproject.toml")
    if not folder.is_dir():
        raise ConfigError(f"{shown}: [tool.mechdiagram] template-dir {value!r} is not a folder")
    return Path(display_path(base / value))


def fill_options(mode: Mode, specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
                 allow_missing: bool | None, fmt: Format, jobs: int = 0,
                 pictures: dict[str, bool | None] | None = None, index: bool | None = None,
                 template_dir: Path | None = None, uses_output: bool = True,
                 player_url: str | None = None) -> Options:
    """The :class:`~mechdiagram.shared.config.Options` of one command: its arguments, then ``[tool.mechdiagram]`` of the
    ``pyproject.toml`` above the working directory (``specs``, ``output``, ``formats``, ``index``,
    ``template-dir``, ``player-url``, ``dark-selectors``, ``light-selectors``; ``template_dir`` and
    ``player_url``, the command line's, win over them).
    Raises :class:`~mechdiagram.shared.errors.UsageError` for a missing spec or a folder that cannot be one, or (when
    the command ``uses_output``) a template folder that holds the output folder, and
    :class:`~mechdiagram.shared.errors.ConfigError` for an unknown format group, a wrong ``template-dir``, a player URL
    that is not one or a colour-mode selector mechdiagram cannot write
    (:func:`~mechdiagram.shared.config.colour_selectors`)."""
    from mechdiagram.shared.config import Embedding, Options, colour_selectors, project_settings
    from mechdiagram.shared.config import player_url as checked_url
    from mechdiagram.shared.files import display_path
    from mechdiagram.shared.findings import Finding
    from mechdiagram.spec.discovery import discover

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
    # validate writes no file, but checks the settings build and check will read (as the pre-commit hooks rely on)
    formats = _selected_formats(settings, pictures or {}, base / "pyproject.toml")
    if mode != "validate":
        options.extra_formats = formats
    if options.extra_formats & {"png", "gif"}:
        from mechdiagram.render.raster import rasteriser

        rasteriser()  # fails early, with what to install, when the raster extra is missing
    options.template_dir = template_dir
    if template_dir is None and "template-dir" in settings and mode != "validate":  # validate renders nothing
        options.template_dir = _configured_templates(settings["template-dir"], base)
    if uses_output and options.template_dir is not None and \
            options.output.resolve().is_relative_to(options.template_dir.resolve()):
        raise UsageError(f"the template folder {display_path(options.template_dir)} holds the output folder "
                         f"{display_path(options.output)}: every build would change its own templates' key; keep "
                         "them apart")
    shown = display_path(base / "pyproject.toml")
    options.embedding = Embedding(
        checked_url(player_url, "--player-url") if player_url is not None
        else checked_url(settings.get("player-url", ""), f"{shown}: [tool.mechdiagram] player-url"),
        colour_selectors(settings.get("dark-selectors", []), f"{shown}: [tool.mechdiagram] dark-selectors"),
        colour_selectors(settings.get("light-selectors", []), f"{shown}: [tool.mechdiagram] light-selectors"))
    options.index = bool(index if index is not None else settings.get("index", True))
    options.configured_index = bool(settings.get("index", True))
    options.configured_formats = _selected_formats(settings, {}, base / "pyproject.toml")
    if options.output.exists() and not options.output.is_dir():
        raise UsageError(f"output {options.output} exists and is not a folder")
    if options.source_root is not None and not options.source_root.is_dir():
        raise UsageError(f"source root {options.source_root} is not a folder")
    missing = [str(p) for p in options.specs if not p.exists()]
    if missing:
        # Named by nobody on the command line: say where the folder came from, and how to name another.
        why = "" if specs else (f" (specs in {base / 'pyproject.toml'} [tool.mechdiagram]; name a spec or folder "
                                "to use another)" if "specs" in settings else " (the default; name a spec or folder)")
        raise UsageError(f"no such spec file or folder: {', '.join(missing)}{why}")
    unreadable: list[Finding] = []
    if not discover(options.specs, unreadable):
        passed = "".join(f"; {f.file}: {f.message}" for f in unreadable)
        raise UsageError(f"no spec files (*.mechanism.json) in {', '.join(str(p) for p in options.specs)}{passed}")
    return options


def format_option(func: F) -> F:
    """The ``--format text|json|github`` option."""
    return click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text",
                        show_default=True,
                        help="text: one line per finding on stderr; json: one JSON document on stdout "
                             "(schema/report.schema.json); github: GitHub Actions annotations on stdout.")(func)


def spec_options(func: F) -> F:
    """The arguments and options of ``build``, ``validate`` and ``check``: SPECS, the source root, missing
    sources, the report format and the worker count."""
    func = click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Worker processes for many specs; 0 means one per CPU core (at most 4 per core "
                             "are started).")(func)
    func = format_option(func)
    func = click.option("--allow-missing-sources/--no-allow-missing-sources", default=None,
                        help="Report sources whose files are missing as unverified instead of failing. "
                             "A file that is present and differs still fails.")(func)
    func = click.option("--source-root", type=click.Path(path_type=Path), default=None,
                        help=SOURCE_ROOT_HELP)(func)
    func = click.argument("specs", nargs=-1, type=EXISTING)(func)
    return translated(func)


def picture_options(func: F) -> F:
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


#: The ``--template-dir`` option of ``build``, ``check`` and ``serve``.
TEMPLATE_DIR = click.option(
    "--template-dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help="Folder of jinja2 templates used before the built-in ones (mechdiagram templates -o FOLDER copies "
         "them there to start from). They render in jinja2's sandbox, but decide the pages: use only your own.")


#: The ``--player-url`` option of ``build``, ``check`` and ``serve``.
PLAYER_URL = click.option(
    "--player-url", default=None, metavar="URL",
    help="URL of the folder the fragments load the player from (its mechdiagram-player.HASH.js and .css, which "
         "build writes to the output folder) [default: the fragment's page's folder; player-url in pyproject.toml].")


def summary(specs: int | None, failed: int | None, exit_code: int, message: str, stale: int = 0) -> dict[str, object]:
    """The ``summary`` of a report (``schema/report.schema.json``)."""
    return {"specs": specs, "failed": failed, "stale": stale, "exit": exit_code, "message": message}


@contextlib.contextmanager
def _progress(options: Options) -> Iterator[Progress | None]:
    """A progress bar on stderr while specs are built or checked, only when stderr is a terminal and the
    format is text; otherwise nothing."""
    if options.mode == "validate" or options.format != "text" or not sys.stderr.isatty():
        yield None
        return
    from mechdiagram.spec.discovery import discover

    with click.progressbar(length=len(discover(options.specs)), label="Building", file=sys.stderr) as bar:
        yield bar.update


def run_options(options: Options, done: str) -> None:
    """Run a build, check or validation and report it: the findings, then one summary line (``done`` names
    what a passing spec is: ``"built"``, ``"valid"``).  Raises ``SystemExit`` with the report's exit status
    when it is not 0."""
    from mechdiagram.cli.report import emit
    from mechdiagram.site.build import execute

    with _progress(options) as progress:  # a write that fails is reported by translated()
        report = execute(options, progress)
    total, failed = len(report.results), report.failed_specs
    if options.mode == "build":
        skipped = report.skipped_specs
        done_in = (f"up to date in {options.output}/ ({total - failed - skipped} built, {skipped} skipped as unchanged "
                   "since their last build, --force rebuilds them; " if skipped else f"built into {options.output}/ (")
        # A no-op rebuild compares only the manifest (and the gallery page): "1 unchanged" read as if one of the
        # gallery's files were, so it says that nothing was written.
        files = ("no file written" if skipped and not report.written and not report.deleted
                 else f"{len(report.written)} file(s) written, {len(report.unchanged)} unchanged")
        message = (f"{total - failed} of {total} spec(s) {done_in}{files}"
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
    emit(report.findings, summary(total, failed, report.exit_code, message, len(stale)), options.format)
    if report.exit_code:
        raise SystemExit(report.exit_code)
