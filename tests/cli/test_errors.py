"""One exception hierarchy, independent of click, turned into click errors only by the CLI."""

from __future__ import annotations

import ast
import inspect
import pickle
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from mechdiagram.cli import click_error, main
from mechdiagram.shared import errors

PACKAGE = Path(errors.__file__).resolve().parents[1]  # mechdiagram/, above shared/


def test_every_exception_of_the_package_derives_from_mechdiagram_error():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(base, ast.Name) and base.id.endswith(("Error", "Exception")) for base in node.bases):
                found.append((path.relative_to(PACKAGE).as_posix(), node.name))
    # every exception class is defined in errors.py
    assert {where for where, _ in found} == {"shared/errors.py"}, found
    classes = [cls for _, cls in inspect.getmembers(errors, inspect.isclass) if issubclass(cls, Exception)]
    assert all(issubclass(cls, errors.MechdiagramError) for cls in classes)
    assert len(classes) >= 8


def test_every_error_survives_pickling_with_its_attributes():
    """An error raised in a child process (mechdiagram.render.confined) comes back as it was raised."""
    classes = [cls for _, cls in inspect.getmembers(errors, inspect.isclass) if issubclass(cls, errors.MechdiagramError)]
    for cls in classes:
        error = cls.__new__(cls)
        errors.MechdiagramError.__init__(error, f"{cls.__name__}: out/a.html: no room")
        error.path = Path("out/a.html")
        error.add_note("a note")
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is cls and back.args == error.args and back.message == error.message, cls
        assert back.path == Path("out/a.html") and back.__notes__ == ["a note"], cls
    # errors whose __init__ takes more than the message
    assert pickle.loads(pickle.dumps(errors.SourcePathError("missing", "a.md: missing"))).status == "missing"
    assert pickle.loads(pickle.dumps(errors.FileSystemError("a: refused", Path("a")))).path == Path("a")


def test_the_package_but_the_cli_imports_no_click():
    importers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name == "click" or name.startswith("click.") for name in names):
                importers.append(path.relative_to(PACKAGE).as_posix())
    # the cli package alone (its report.py prints with click.echo and raises nothing)
    assert sorted({"cli/" if name.startswith("cli/") else name for name in importers}) == ["cli/"]
    assert {"cli/__init__.py", "cli/common.py"} <= set(importers)
    done = subprocess.run([sys.executable, "-c", "import sys, mechdiagram.shared.errors, mechdiagram.site.build, mechdiagram.spec.validate; "
                           "print('click' in sys.modules)"], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"


def test_click_errors_keep_message_and_exit_status():
    usage = click_error(errors.UsageError("no spec files"))
    assert usage.exit_code == 2 and usage.format_message() == "no spec files"
    failed = click_error(errors.OutputError("cannot write out/x.svg: Permission denied"))
    assert failed.exit_code == 1 and failed.format_message() == "cannot write out/x.svg: Permission denied"


def test_a_usage_error_shows_the_commands_own_usage(tmp_path):
    result = CliRunner().invoke(main, ["build", str(tmp_path)])
    assert result.exit_code == 2
    assert "Usage: main build [OPTIONS] [SPECS]..." in result.output
    assert "no spec files (*.mechanism.json) in" in result.output
