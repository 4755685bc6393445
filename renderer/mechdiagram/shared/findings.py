"""Findings: what every stage reports about a file instead of raising.

A *finding* is one problem (or note) about one file, located by a JSON Pointer
(RFC 6901) and, where the text is available, a 1-based line and column.
Stages collect findings so that every problem of a file is reported at once;
exceptions (:mod:`mechdiagram.shared.errors`) are kept for conditions that stop a whole
command.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from msgspec import Struct

from mechdiagram.shared.charsets import UNPRINTABLE, escaped

Severity = Literal["error", "warning", "info"]

#: A place in parsed JSON as unescaped JSON Pointer tokens: ``("targets", "work0", "id")``.
Where = tuple[str | int, ...]


class Finding(Struct, frozen=True):
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

    @property
    def sort_key(self) -> tuple[int, int, str, str]:
        """The order findings of one file are reported in: line, column, JSON Pointer, message."""
        return (self.line or 0, self.column or 0, self.pointer or "", self.message)

    def as_line(self) -> str:
        """The finding as one text line, ``FILE:LINE:COLUMN: SEVERITY: POINTER: MESSAGE [RULE]`` (the parts that are
        unknown left out), as ``--format text`` prints it and editors parse it; author text cannot break the line
        (:data:`~mechdiagram.shared.charsets.UNPRINTABLE` escaped)."""
        place = self.file
        if self.line is not None:
            place += f":{self.line}:{self.column or 1}"
        pointer = f"{self.pointer}: " if self.pointer else ""
        return escaped(f"{place}: {self.severity}: {pointer}{self.message} [{self.rule}]", UNPRINTABLE)

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


#: Most findings of one rule in one file that a run reports: past it, one more finding (rule ``more``) says how
#: many were left out, so that a spec of two million wrong list items prints a page, not 300 MB.
MAX_PER_RULE = 100


def capped(findings: Iterable[Finding], limit: int = MAX_PER_RULE) -> list[Finding]:
    """``findings`` (in report order) with at most ``limit`` of each (file, rule, severity); after the last
    one kept of each that had more, a finding of rule ``more`` with that severity says how many of that rule
    were left out.  Every output format shows it as it shows any finding."""
    kept: list[Finding] = []
    counts: dict[tuple[str, str, Severity], int] = {}
    last: dict[tuple[str, str, Severity], int] = {}
    for finding in findings:
        key = (finding.file, finding.rule, finding.severity)
        counts[key] = counts.get(key, 0) + 1
        if counts[key] <= limit:
            kept.append(finding)
            last[key] = len(kept) - 1
    more = {last[key]: (key, count - limit) for key, count in counts.items() if count > limit}
    out: list[Finding] = []
    for index, finding in enumerate(kept):
        out.append(finding)
        if index in more:
            (file, rule, severity), left = more[index]
            out.append(more_finding(file, rule, left, limit, severity))
    return out


def more_finding(file: str, rule: str, left: int, limit: int = MAX_PER_RULE, severity: Severity = "error") -> Finding:
    """The finding (rule ``more``) that says ``left`` findings of ``rule`` in ``file`` were left out after the
    first ``limit``."""
    return Finding(file, None, f"{left} more finding(s) of rule {rule} not shown (the first {limit} are); fix "
                   "those and run again", "more", severity)


def sorted_findings(findings: Iterable[Finding]) -> list[Finding]:
    """``findings`` in report order (:attr:`Finding.sort_key`)."""
    return sorted(findings, key=lambda finding: finding.sort_key)


def escape_pointer_token(token: str | int) -> str:
    """Escape one reference token for a JSON Pointer (RFC 6901 section 3)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_join(*tokens: str | int) -> str:
    """Build a JSON Pointer from unescaped tokens: ``("a", 0) -> "/a/0"``."""
    return "".join("/" + escape_pointer_token(t) for t in tokens)


def pointer_tokens(pointer: str) -> list[str]:
    """The unescaped reference tokens of a JSON Pointer (RFC 6901 section 4): ``"/a~1b/0" -> ["a/b", "0"]``.

    Raises :class:`ValueError` for text that is not a JSON Pointer (non-empty
    and not starting with ``/``); pointers that stages build never are.
    """
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON Pointer: {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]
