"""The style guide's limit: no hand-written module of the package is past 400 lines.  The two generated
modules (the schema compiled into checks, the font metrics table) say so in their docstrings and are
remade by their tools, never edited."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "renderer"
LIMIT = 400


def _generated(path: Path) -> bool:
    return "do not edit" in path.read_text("utf-8").split('"""', 2)[1]


def test_no_hand_written_module_is_past_400_lines():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50
    generated = [p.relative_to(PACKAGE).as_posix() for p in modules if _generated(p)]
    assert generated == ["text_metrics.py"]
    long = {p.relative_to(PACKAGE).as_posix(): n for p in modules if not _generated(p)
            if (n := len(p.read_text("utf-8").splitlines())) > LIMIT}
    assert long == {}
