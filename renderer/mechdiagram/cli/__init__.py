"""Stage 8, CLI: ``mechdiagram build | validate | check | hash | new | schema | templates | serve | embed``.

Each command fills one :class:`mechdiagram.shared.config.Options` and calls
:func:`mechdiagram.site.build.execute` (or the hash, scaffold or preview helpers).
Exit status: 0 when all is well, 1 when a spec, a source or the output
failed, 2 for a usage error (click's ``UsageError``).  Messages go to stderr;
there is no traceback.

The commands live in four modules: :mod:`.specs` (``build``, ``validate``,
``check``), :mod:`.authoring` (``hash``, ``new``, ``schema``, ``templates``) and
:mod:`.preview` (``serve``), and :mod:`.embedding` (``embed``); :mod:`.common` holds what they share.

Start-up stays short: importing this package loads click and :mod:`.common`
only; a command's definition is imported when it is named (:class:`LazyGroup`), and a command
imports the stages it runs when it runs
(``--version`` loads nothing of the pipeline; ``validate`` never loads the
drawing, the templates, the output formats or, for a valid spec, ``jsonschema``).
"""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys
from typing import NoReturn

import click

from mechdiagram import __version__
from mechdiagram.cli.common import click_error
from mechdiagram.shared.errors import OutOfMemoryError

#: Each command by name, as ``module:attribute`` in this package; a command's module is imported when the
#: command runs (or ``--help`` lists it), so ``validate`` never loads ``serve``'s definitions.
COMMANDS = {
    "build": "specs:build",
    "validate": "specs:validate",
    "check": "specs:check",
    "hash": "authoring:hash_command",
    "new": "authoring:new_command",
    "schema": "authoring:schema_command",
    "templates": "authoring:templates_command",
    "serve": "preview:serve",
    "embed": "embedding:embed_command",
}


class LazyGroup(click.Group):
    """A group whose commands (:data:`COMMANDS`) are imported on first use: click's documented pattern
    for lazily loading subcommands."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, sorted, as ``--help`` lists them."""
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        """The command ``args`` names, and its arguments; for a name that is no command ("bulid"), every command
        is loaded first, so that click's "Did you mean 'build'?" has them all to choose from."""
        if args and args[0] not in COMMANDS:
            for name in COMMANDS:
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command called ``cmd_name``, imported now if it is one of :data:`COMMANDS`; else ``None``."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attribute = COMMANDS[cmd_name].split(":")
            command = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog="Example: mechdiagram validate mechanisms")
@click.version_option(__version__, prog_name="mechdiagram")
def main() -> None:
    """Accessible, animated mechanism diagrams from JSON mechanism specs.

    SPECS are spec files or folders (searched for *.mechanism.json);
    the default is mechanisms/.  Exit status: 0 all good, 1 a spec, source or
    output failed, 2 usage error.
    """


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
    except OSError as exc:
        # A write to a full or closed standard output (a report, a digest, click's --help): file errors of
        # ours name their file and are reported by the commands.
        if exc.filename is not None or exc.errno not in STREAM_ERRORS:
            _internal_error(exc)
        _discard_stdout()
        click.echo(f"Error: cannot write to standard output: {exc.strerror or exc}", err=True)
        raise SystemExit(1) from None
    except MemoryError:  # outside a command (a command reports OutOfMemoryError as any error, in its format)
        click.echo(f"mechdiagram: {OutOfMemoryError().message}", err=True)
        raise SystemExit(1) from None
    except Exception as exc:  # a bug in mechdiagram, not in the input
        _internal_error(exc)


#: ``errno`` values of a write to a stream that has no room or no reader: a full disk behind ``>``, a closed pipe.
STREAM_ERRORS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, errno.EDQUOT})


def _discard_stdout() -> None:
    """Point standard output at :data:`os.devnull`, so that what is still buffered for it cannot fail again when
    the interpreter flushes it on exit (exit status 120); the standard library's note on SIGPIPE does the same."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _internal_error(exc: Exception) -> NoReturn:
    """Report a bug of mechdiagram in one line (the traceback with ``MECHDIAGRAM_DEBUG=1``); exit status 1."""
    if os.environ.get("MECHDIAGRAM_DEBUG"):
        raise exc
    click.echo(f"mechdiagram: internal error ({type(exc).__name__}: {exc}); please report it, "
               "with MECHDIAGRAM_DEBUG=1 for details", err=True)
    raise SystemExit(1) from None


__all__ = ["click_error", "main", "run"]
