"""Printing findings: one line each on stderr (``text``), one JSON document on stdout (``json``), or
GitHub Actions workflow commands on stdout (``github``).

Text lines have the form ``FILE:LINE:COLUMN: SEVERITY: POINTER: MESSAGE [RULE]``,
which editors and CI annotators parse; parts that are unknown are left out.
The JSON document is described by ``schema/report.schema.json``
(:data:`REPORT_VERSION`).  A ``github`` line is
``::error file=FILE,line=LINE,col=COLUMN,title=RULE::POINTER: MESSAGE``
(``::warning`` for a warning, ``::notice`` for a note), escaped as GitHub
documents; the summary line goes to stderr as in ``text``.
"""

from __future__ import annotations

import json

import click

from mechdiagram.shared.charsets import UNPRINTABLE, UNPRINTABLE_JSON, escaped
from mechdiagram.shared.findings import Finding, capped


def printable(text: str, characters: frozenset[str] = UNPRINTABLE) -> str:
    """``text`` with every character of ``characters`` (:data:`~mechdiagram.shared.charsets.UNPRINTABLE`) replaced by
    its ``\\uXXXX`` escape."""
    return escaped(text, characters)


def format_finding(finding: Finding) -> str:
    """One finding as a text line (:meth:`~mechdiagram.shared.findings.Finding.as_line`)."""
    return finding.as_line()


#: The ``version`` of the ``--format json`` document (``schema/report.schema.json``).
REPORT_VERSION = 1

#: Workflow command names by severity.
_GITHUB_COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _github_data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """A workflow command's property value: escaped as its message is, and also ``:`` and ``,``."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(finding: Finding) -> str:
    """One finding as a GitHub Actions workflow command (see the module docstring)."""
    properties = [("file", finding.file)]
    if finding.line is not None:
        properties += [("line", str(finding.line)), ("col", str(finding.column or 1))]
    properties.append(("title", finding.rule))
    listed = ",".join(f"{name}={_github_property(value)}" for name, value in properties)
    pointer = f"{finding.pointer}: " if finding.pointer else ""
    return printable(f"::{_GITHUB_COMMANDS[finding.severity]} {listed}::{_github_data(pointer + finding.message)}")


def report_document(findings: list[Finding], summary: dict[str, object],
                    digests: list[dict[str, str]] | None = None) -> dict[str, object]:
    """The ``--format json`` document (``schema/report.schema.json``): version, findings and ``summary``
    (``specs``, ``failed``, ``stale``, ``exit``, ``message``), and ``digests`` (``file``, ``sha256``) when given
    (``hash`` without ``--write``)."""
    document: dict[str, object] = {"version": REPORT_VERSION, "findings": [f.as_dict() for f in findings],
                                   "summary": summary}
    if digests is not None:
        document["digests"] = digests
    return document


def emit(findings: list[Finding], summary: dict[str, object], fmt: str, *, summary_line: bool = True,
         digests: list[dict[str, str]] | None = None) -> None:
    """Print ``findings`` and a one-line ``summary["message"]`` in format ``fmt`` (``text``, ``json`` or
    ``github``); ``summary_line=False`` leaves the line out (text and github).  ``digests`` go into the JSON
    document only (:func:`report_document`)."""
    findings = capped(findings)  # also findings no render_spec gathered (hash, the output folder's)
    if fmt == "json":
        document = report_document(findings, summary, digests)
        # Outside strings the document is ASCII, so escaping these characters keeps it valid JSON.
        click.echo(printable(json.dumps(document, indent=2, ensure_ascii=False), UNPRINTABLE_JSON))
        return
    for finding in findings:
        if fmt == "github":
            click.echo(format_github(finding))
        else:
            click.echo(format_finding(finding), err=True)
    if summary_line:
        click.echo(printable(f"mechdiagram: {summary['message']}"), err=True)
