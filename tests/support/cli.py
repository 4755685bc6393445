"""Running ``mechdiagram``: in-process through click's CliRunner, or as a separate process; the line
formats of what it prints."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from mechdiagram.cli import main

#: A located finding: ``FILE:LINE:COLUMN: error|warning: /pointer: message [rule]``.
LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): "
                     r"(?P<pointer>/\S*): (?P<message>.+) \[(?P<rule>[A-Za-z-]+)\]$")
#: An error of a spec, located or not: ``FILE[:LINE:COLUMN]: error: [/pointer: ]message [rule]``.
ERROR = re.compile(r"^(?P<file>[^:]+\.mechanism\.json)(?::(?P<line>\d+):(?P<column>\d+))?: error: "
                   r"(?:(?P<pointer>/\S*): )?(?P<message>.*) \[(?P<rule>[A-Za-z-]+)\]$")
#: Any finding line, of any severity.
FINDING = re.compile(r"^.+?(?::\d+:\d+)?: (error|warning|info): .* \[[A-Za-z-]+\]$")
#: The summary line that ends every run over specs.
SUMMARY = re.compile(r"^mechdiagram: \d+ of \d+ spec\(s\) ")


def invoke(*args: str):
    """``mechdiagram ARGS`` in-process; a click exit is fine, any other exception or a traceback fails."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


def run_cli(*args: str):
    """``mechdiagram ARGS`` in-process; an exception escaping the CLI fails the test."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_subprocess(*args: str, cwd: Path, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """``mechdiagram ARGS`` as a separate process (a hang becomes a timeout, not a stuck test run);
    returns the finished process and the seconds it took."""
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", "from mechdiagram.cli import run; run()", *args], cwd=cwd,
                            capture_output=True, text=True, timeout=timeout)
    return result, time.monotonic() - start
