"""Stage 8, CLI: ``mechdiagram build | validate | check | hash | new | schema | serve``.

Each command fills one :class:`renderer.config.Options` and calls
:func:`renderer.build.execute` (or the hash, scaffold or preview helpers).
Exit status: 0 when all is well, 1 when a spec, a source or the output
failed, 2 for a usage error (click's ``UsageError``).  Messages go to stderr;
there is no traceback.

The commands live in three modules: :mod:`.specs` (``build``, ``validate``,
``check``), :mod:`.authoring` (``hash``, ``new``, ``schema``) and
:mod:`.preview` (``serve``); :mod:`.common` holds what they share.

Start-up stays short: importing this package loads click and the command
definitions only, and a command imports the stages it runs when it runs
(``--version`` loads nothing of the pipeline; ``validate`` never loads the
drawing, the templates, the output formats or, for a valid spec, ``jsonschema``).
"""

from __future__ import annotations

import os
import signal

import click

from .. import __version__
from .authoring import hash_command, new_command, schema_command
from .common import click_error
from .preview import serve
from .specs import build, check, validate


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             epilog="Example: mechdiagram validate mechanisms")
@click.version_option(__version__, prog_name="mechdiagram")
def main() -> None:
    """Accessible, animated mechanism diagrams from JSON mechanism specs.

    SPECS are spec files or folders (searched for *.mechanism.json);
    the default is mechanisms/.  Exit status: 0 all good, 1 a spec, source or
    output failed, 2 usage error.
    """


for _command in (build, validate, check, hash_command, new_command, schema_command, serve):
    main.add_command(_command)


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


__all__ = ["click_error", "main", "run"]
