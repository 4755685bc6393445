"""Printing findings: one line each on stderr (``text``), or one JSON document on stdout (``json``).

Text lines have the form ``FILE:LINE:COLUMN: SEVERITY: POINTER: MESSAGE [RULE]``,
which editors and CI annotators parse; parts that are unknown are left out.
"""

from __future__ import annotations

import json

import click

from .errors import Finding


def format_finding(finding: Finding) -> str:
    """One finding as a text line (see the module docstring)."""
    place = finding.file
    if finding.line is not None:
        place += f":{finding.line}:{finding.column or 1}"
    pointer = f"{finding.pointer}: " if finding.pointer else ""
    return f"{place}: {finding.severity}: {pointer}{finding.message} [{finding.rule}]"


def emit(findings: list[Finding], summary: dict[str, object], fmt: str) -> None:
    """Print ``findings`` and a one-line ``summary["message"]`` in format ``fmt``."""
    if fmt == "json":
        document = {"findings": [f.as_dict() for f in findings], "summary": summary}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    for finding in findings:
        click.echo(format_finding(finding), err=True)
    click.echo(f"mechdiagram: {summary['message']}", err=True)
