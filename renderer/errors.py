"""Findings and exceptions shared by every pipeline stage.

A *finding* is one problem (or note) about one file, located by a JSON Pointer
(RFC 6901) and, where the text is available, a 1-based line and column.
Stages collect findings instead of raising, so that every problem of a file is
reported at once; exceptions are kept for conditions that stop a whole command.
All exceptions are rooted in :class:`click.ClickException`, so the CLI prints a
one-line message and never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import click

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True)
class Finding:
    """One problem or note about one file.

    ``file`` is the path as the user should see it; ``pointer`` a JSON Pointer
    into the spec (``""`` for the whole document, ``None`` when the problem has
    no place in the JSON, such as a file that does not parse); ``line`` and
    ``column`` are 1-based and ``None`` when unknown.  ``rule`` is a short,
    stable identifier (a JSON Schema keyword such as ``additionalProperties``,
    or one of ours such as ``unknown-target``) for tools that filter findings.
    """

    file: str
    pointer: str | None
    message: str
    rule: str
    severity: Severity = "error"
    line: int | None = None
    column: int | None = None

    @property
    def is_error(self) -> bool:
        """True for findings that make a command fail (exit status 1)."""
        return self.severity == "error"

    def as_dict(self) -> dict[str, object]:
        """The finding as the JSON object that ``--format json`` prints."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }


class MechdiagramError(click.ClickException):
    """Base of every error that stops a mechdiagram command (exit status 1)."""

    exit_code = 1


class FindingsError(MechdiagramError):
    """Raised when a command ends with error findings; they were printed already."""

    def __init__(self, summary: str) -> None:
        super().__init__(summary)


class OutputError(MechdiagramError):
    """Raised when an output file cannot be written (the message names it)."""


def escape_pointer_token(token: str | int) -> str:
    """Escape one reference token for a JSON Pointer (RFC 6901 section 3)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_join(*tokens: str | int) -> str:
    """Build a JSON Pointer from unescaped tokens: ``("a", 0) -> "/a/0"``."""
    return "".join("/" + escape_pointer_token(t) for t in tokens)
