"""``--help``: the top-level list shows each command's summary whole, and every command's help ends
with an example of that command."""

from __future__ import annotations

import shlex
import subprocess
import sys

import click
import pytest

from mechdiagram.cli import main
from support.cli import invoke

COMMANDS = ["build", "check", "embed", "hash", "new", "schema", "serve", "templates", "validate"]


def command(name: str) -> click.Command:
    """The command ``name`` as the group finds it (imported on first use)."""
    found = main.get_command(click.Context(main), name)
    assert found is not None, name
    return found


def test_top_level_help_shows_every_summary_whole():
    text = invoke("--help").stdout
    listing = text[text.index("Commands:"):].split("\n\n")[0].splitlines()[1:]
    assert [line.split()[0] for line in listing] == COMMANDS
    for line in listing:
        name = line.split()[0]
        summary = line.split(None, 1)[1]
        assert summary == command(name).short_help
        assert not summary.endswith("...") and summary.endswith(".")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_ends_with_an_example(command):
    text = invoke(*([command] if command else []), "--help").stdout
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()]
    examples = [p for p in paragraphs if p.startswith("Example: ")]
    assert len(examples) == 1, text
    words = shlex.split(examples[0].removeprefix("Example: "))
    assert words[0] == "mechdiagram" and (command is None or words[1] == command)
    assert paragraphs[-1] == examples[0]  # the last thing the help says


def test_the_group_lists_each_command_once_in_order_whichever_was_loaded_first():
    # A command loaded before --help (by name) must not move in the listing or appear twice.
    command("validate")
    assert main.list_commands(click.Context(main)) == COMMANDS
    assert main.get_command(click.Context(main), "nosuch") is None


def test_a_mistyped_command_is_told_the_one_meant_though_no_command_was_loaded():
    done = subprocess.run([sys.executable, "-c", "from mechdiagram.cli import run; run()", "bulid"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert "No such command 'bulid'" in done.stderr and "Did you mean 'build'?" in done.stderr, done.stderr
