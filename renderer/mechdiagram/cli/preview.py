"""``mechdiagram serve``: the live preview (:mod:`mechdiagram.serve`), on 127.0.0.1 only, rebuilt after every
save.  watchfiles and the server are imported when the command runs."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import TYPE_CHECKING

import click

from mechdiagram.cli.common import (
    EXISTING,
    PLAYER_URL,
    SOURCE_ROOT_HELP,
    TEMPLATE_DIR,
    fill_options,
    translated,
)

if TYPE_CHECKING:
    from mechdiagram.serve import BuildEvent


def _print_build(event: BuildEvent) -> None:
    """The terminal's account of a preview build that changed something: its findings, and a line."""
    from mechdiagram.cli.report import format_finding, printable

    if not event.changed:
        return
    snapshot = event.snapshot
    for finding in snapshot.findings:
        click.echo(format_finding(finding), err=True)
    failed = sum(spec.failed for spec in snapshot.specs)
    total = len(snapshot.specs)
    message = f"{total - failed} of {total} spec(s) built in {event.ms:.0f} ms"
    if any(finding.is_error for finding in snapshot.general):  # a template or the output folder stopped it
        message = f"the build stopped after {event.ms:.0f} ms; the preview shows the last good build and why"
    elif failed:
        message += f"; {failed} failed, the preview shows their findings"
    click.echo(printable(f"mechdiagram: {message}"), err=True)


@click.command(short_help="Preview specs in a browser, rebuilt after every save.",
               epilog="Example: mechdiagram serve mechanisms --open")
@click.argument("spec", required=False, type=EXISTING)
@click.option("--port", type=click.IntRange(0, 65535), default=0,
              help="Port on 127.0.0.1 to listen on [default: a free one].")
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the default web browser.")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write every build into this folder, as build does [default: write nothing].")
@click.option("--allow-missing-sources/--no-allow-missing-sources", default=None,
              help="Report sources whose files are missing as unverified instead of failing.")
@click.option("--source-root", type=click.Path(path_type=Path), default=None,
              help=SOURCE_ROOT_HELP)
@TEMPLATE_DIR
@PLAYER_URL
@translated
def serve(spec: Path | None, port: int, open_browser: bool, output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, template_dir: Path | None, player_url: str | None) -> None:
    """Preview SPEC (a spec file or a folder of specs) in a browser, rebuilt after every save.

    Listens on 127.0.0.1 only and prints the URL; open pages reload by
    themselves, and a spec with errors shows its findings instead of its
    figure.  Nothing is written unless --output is given.  Ctrl-C stops it.
    Editing a template of --template-dir rebuilds too.
    """
    from mechdiagram.serve import PreviewServer  # watchfiles is imported by this command only
    from mechdiagram.shared.files import display_path

    options = fill_options("build", (spec,) if spec else (), output, source_root, allow_missing_sources, "text", 1,
                           template_dir=template_dir, uses_output=output is not None, player_url=player_url)
    server = PreviewServer(options, port=port, write=output is not None, on_build=_print_build)
    # Ctrl-C stops the server even when this process was started with SIGINT ignored (as a background
    # job of a non-interactive shell is): Python then installs no KeyboardInterrupt handler of its own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.start()
        shown = ", ".join(display_path(p) for p in options.specs)
        click.echo(f"mechdiagram: previewing {shown} at {server.url} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            webbrowser.open(server.url)
        server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    click.echo("mechdiagram: preview stopped", err=True)
