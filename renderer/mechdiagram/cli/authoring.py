"""The commands that help an author write specs: ``hash`` (SHA-256 digests, or writing them into specs),
``new`` (a small valid spec to start from) and ``schema`` (the spec JSON Schema, for editors)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mechdiagram.cli.common import (
    EXISTING,
    SOURCE_ROOT_HELP,
    ReportingCommand,
    fill_options,
    format_option,
    summary,
    translated,
)
from mechdiagram.shared.errors import HashError, MechdiagramError
from mechdiagram.shared.views import GRAPH, SEQUENCE

if TYPE_CHECKING:
    from mechdiagram.shared.config import Format
    from mechdiagram.spec.hashing import DigestWrite


def _write_digests(path: Path, source_root: Path | None) -> DigestWrite:
    """``hash --write`` of one spec; an error that stops it (the spec cannot be written) becomes its finding,
    so that the other specs are still updated."""
    from mechdiagram.shared.config import spec_project
    from mechdiagram.shared.files import display_path
    from mechdiagram.shared.findings import Finding
    from mechdiagram.spec.hashing import DigestWrite, write_spec_digests

    try:
        return write_spec_digests(path, source_root or spec_project(path).source_root)
    except MechdiagramError as exc:
        return DigestWrite(display_path(path), findings=[Finding(display_path(path), None, exc.message, "hash-write")])


@click.command("hash", cls=ReportingCommand, short_help="Print SHA-256 digests, or write them into specs.",
               epilog="Example: mechdiagram hash --write mechanisms/queue.mechanism.json")
@click.argument("files", nargs=-1, required=True, type=EXISTING)
@click.option("--write", is_flag=True,
              help="FILES are specs: write the current SHA-256 of each of their sources into them, "
                   "changing nothing else in the file.")
@click.option("--source-root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --write: folder that source paths are relative to [default: each spec's project, "
                   "as for validate].")
@format_option
@translated
def hash_command(files: tuple[Path, ...], write: bool, source_root: Path | None, fmt: Format) -> None:
    """Print the SHA-256 of FILES (as sha256sum does), or with --write fill in specs' source digests.

    --format json prints the digests as a report's "digests" (schema/report.schema.json), text and
    github as sha256sum does (there is nothing to annotate); with --write, --format applies to what
    stops a spec being updated.
    """
    from mechdiagram.cli.report import emit
    from mechdiagram.spec.hashing import file_digests

    if not write:
        try:
            digests = file_digests(list(files))
        except OSError as exc:  # unreadable (permissions), or it vanished after click checked it
            raise HashError(f"cannot read {exc.filename}: {exc.strerror or exc}") from exc
        if fmt == "json":
            emit([], summary(None, None, 0, f"{len(digests)} file(s) hashed"), "json",
                 digests=[{"file": shown, "sha256": digest} for shown, digest in digests])
            return
        for shown, digest in digests:
            click.echo(f"{digest}  {shown}")
        return
    options = fill_options("validate", files, None, source_root, None, fmt)
    results = [_write_digests(path, options.source_root) for path in files]
    failed = sum(bool(r.findings) for r in results)
    written = sum(r.changed for r in results)
    message = (f"{len(results) - failed} of {len(results)} spec(s) now hold their sources' digests; "
               f"{written} source digest(s) written"
               + (f"; {failed} not updated: a spec with an error keeps its digests until it is fixed"
                  if failed else ""))
    if fmt == "json":
        emit([f for r in results for f in r.findings], summary(len(results), failed, int(bool(failed)), message),
             "json")
    else:
        for result in results:
            if result.findings:
                emit(result.findings, {}, fmt, summary_line=False)
            else:
                click.echo(f"{result.display}: {result.changed} source digest(s) written" if result.changed
                           else f"{result.display}: source digests already current", err=True)
        emit([], {"message": message}, fmt)  # the summary line, as the other commands end
    if failed:
        raise SystemExit(1)


@click.command("new", short_help="Write a small valid spec and its pinned notes source.",
               epilog="Example: mechdiagram new queue --dir mechanisms")
@click.argument("name")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Folder for the new spec and its notes.")
@click.option("--source-root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=SOURCE_ROOT_HELP)
@click.option("--view", type=click.Choice([GRAPH, SEQUENCE]), default=None,
              help="graph: boxes and arrows the layout places in layers, two of them in a group; sequence: messages "
                   "between participants, one row per step (default: a lane grid).")
@click.option("--title", default=None,
              help="The spec's title, its figure's heading and accessible name [default: NAME's words, the first "
                   "capitalised: dns-resolution gives \"Dns resolution\"].")
@translated
def new_command(name: str, folder: Path, source_root: Path | None, view: str | None, title: str | None) -> None:
    """Write NAME.mechanism.json, a small valid spec showing every field, and NAME.notes.md, its pinned source.

    Never overwrites a file.  The spec's $schema points at the project's copy of the
    schema (mechanism.schema.json or schema/mechanism.schema.json in the spec's folder or
    a parent, up to the project's: the nearest folder with a pyproject.toml or a .git) by a
    relative path; see `mechdiagram schema -o`.
    """
    from mechdiagram.cli.scaffold import foreign_schema_file, plan_new, schema_copy_is_current, write_new
    from mechdiagram.shared.config import project_folder, project_settings, spec_project
    from mechdiagram.shared.files import display_path

    target = folder.resolve() / f"{name.removesuffix('.mechanism.json')}.mechanism.json"
    # The source root the build will use for this spec: its project's (mechdiagram.shared.config.spec_project);
    # `new` looks for a copy of the schema up to that project's folder (else the working directory's).
    if source_root is None:
        source_root = spec_project(target, check=False).source_root
    plan = plan_new(name, folder, source_root, project_folder(target) or project_settings(Path.cwd())[1], view,
                    title)
    write_new(plan)
    click.echo(f"wrote {display_path(plan.spec)} and {display_path(plan.notes)}", err=True)
    foreign = foreign_schema_file(folder, project_folder(target) or project_settings(Path.cwd())[1])
    if plan.schema_copy is None and foreign is not None:
        click.echo(f"{display_path(foreign)} is not mechdiagram's schema (its $id is not "
                   f"{plan.schema_ref}), so $schema is {plan.schema_ref}; for editor completion replace it: "
                   f"`mechdiagram schema -o {display_path(foreign)}`", err=True)
    elif plan.schema_copy is None:
        click.echo(f"no copy of the schema in this project, so $schema is {plan.schema_ref}; for editor "
                   "completion run `mechdiagram schema -o schema/` and point $schema at the file it writes", err=True)
    elif not schema_copy_is_current(plan.schema_copy):
        click.echo(f"{display_path(plan.schema_copy)} differs from this mechdiagram's schema; refresh it with "
                   f"`mechdiagram schema -o {display_path(plan.schema_copy)}`", err=True)


@click.command("schema", short_help="Print the spec JSON Schema, or write it for editors.",
               epilog="Example: mechdiagram schema -o schema/mechanism.schema.json")
@click.option("-o", "--output", type=click.Path(), default=None,
              help="Write the schema to this file instead of printing it (- prints it); into it as "
                   "mechanism.schema.json when it is a folder or ends with '/'.")
@translated
def schema_command(output: str | None) -> None:
    """Print the mechanism spec JSON Schema, or write it into your project for editors."""
    from mechdiagram.cli.scaffold import write_schema
    from mechdiagram.shared.assets import schema_text
    from mechdiagram.shared.files import display_named

    if output is None or output == "-":
        click.echo(schema_text(), nl=False)
        return
    target, changed, was_link = write_schema(Path(output), folder=output.endswith(("/", os.sep)))
    if was_link:
        click.echo(f"{display_named(target)}: warning: was a symbolic link; mechdiagram never writes "
                   "through a link, so it was replaced by a regular file (the file the link led to is unchanged)",
                   err=True)
    click.echo(f"{display_named(target)}: "
               + ("schema written" if changed else "schema already current"), err=True)


@click.command("templates", short_help="Copy the built-in templates into a folder, to make them your own.",
               epilog="Example: mechdiagram templates figure.html player.css -o site/templates")
@click.argument("names", nargs=-1)
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to copy them into (made when missing); then build with --template-dir FOLDER.")
@translated
def templates_command(names: tuple[str, ...], output: Path) -> None:
    """Copy the built-in templates NAMES (default: all of them) into a folder to edit.

    Name that folder with --template-dir (or template-dir in [tool.mechdiagram]);
    the files you keep there replace the built-in ones, the others stay.  Never
    replaces a file: when one of them is there, nothing is copied (name the others).
    Templates render in jinja2's sandbox, but decide the pages: use only your own.
    """
    from mechdiagram.cli.scaffold import write_templates
    from mechdiagram.shared.files import display_path

    written = write_templates(output, names)
    click.echo(f"wrote {', '.join(display_path(path) for path in written)}; build with --template-dir "
               f"{display_path(output)}", err=True)
