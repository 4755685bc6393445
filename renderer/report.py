"""Printing findings: one line each on stderr (``text``), or one JSON document on stdout (``json``).

Text lines have the form ``FILE:LINE:COLUMN: SEVERITY: POINTER: MESSAGE [RULE]``,
which editors and CI annotators parse; parts that are unknown are left out.
"""

from __future__ import annotations

import json
import re

import click

from .findings import Finding

#: Characters never printed raw: C0 and C1 controls and DEL (a terminal acts on ESC and CSI), line
#: separators (one finding, one line), bidirectional overrides and isolates (they reorder what a
#: reader sees), lone surrogates (not encodable as UTF-8), noncharacters and the invisible U+FEFF.
#: Each is printed as a \\uXXXX escape.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                          "\ud800-\udfff\ufdd0-\ufdef\ufeff\ufffe\uffff]")


#: The same for a JSON document, whose strings json.dumps already escapes C0 controls in.
_UNPRINTABLE_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                               "\ud800-\udfff\ufdd0-\ufdef\ufeff\ufffe\uffff]")


def printable(text: str, pattern: re.Pattern[str] = _UNPRINTABLE) -> str:
    """``text`` with every character of :data:`_UNPRINTABLE` replaced by its ``\\uXXXX`` escape."""
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def format_finding(finding: Finding) -> str:
    """One finding as a text line (see the module docstring); author text cannot break the line."""
    place = finding.file
    if finding.line is not None:
        place += f":{finding.line}:{finding.column or 1}"
    pointer = f"{finding.pointer}: " if finding.pointer else ""
    return printable(f"{place}: {finding.severity}: {pointer}{finding.message} [{finding.rule}]")


def emit(findings: list[Finding], summary: dict[str, object], fmt: str) -> None:
    """Print ``findings`` and a one-line ``summary["message"]`` in format ``fmt``."""
    if fmt == "json":
        document = {"findings": [f.as_dict() for f in findings], "summary": summary}
        # Outside strings the document is ASCII, so escaping these characters keeps it valid JSON.
        click.echo(printable(json.dumps(document, indent=2, ensure_ascii=False), _UNPRINTABLE_JSON))
        return
    for finding in findings:
        click.echo(format_finding(finding), err=True)
    click.echo(printable(f"mechdiagram: {summary['message']}"), err=True)
