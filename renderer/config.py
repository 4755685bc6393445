"""Settings of a run: command-line options over ``[tool.mechdiagram]`` in the nearest ``pyproject.toml``.

Keys read from ``[tool.mechdiagram]`` (paths relative to that file's folder):
``source-root`` (string), ``output`` (string), ``specs`` (list of strings),
``allow-missing-sources`` (boolean), ``formats`` (list of format groups, such as
``["svg", "html", "frames", "png"]``) and ``index`` (boolean).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .errors import ConfigError

Mode = Literal["build", "validate", "check"]
Format = Literal["text", "json"]


@dataclass
class Options:
    """One command's settings, filled by the CLI and read by :func:`renderer.build.execute`.

    ``specs`` are files or folders (folders are searched for ``*.mechanism.json``);
    ``output`` the folder that receives the SVG, HTML and ``manifest.json``;
    ``source_root`` the folder that source paths are relative to.
    """

    mode: Mode = "build"
    specs: list[Path] = field(default_factory=lambda: [Path("mechanisms")])
    output: Path = Path("output")
    source_root: Path = Path(".")
    allow_missing_sources: bool = False
    format: Format = "text"
    jobs: int = 0  # worker processes; 0 means one per CPU core, 1 means no worker processes
    extra_formats: frozenset[str] = frozenset()  # optional format groups to write: "frames", "png", "gif"
    index: bool = True  # write index.html when a folder of specs is built (renderer.gallery)


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or one of its parents, or ``None``."""
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def project_settings(start: Path) -> tuple[dict[str, Any], Path]:
    """``[tool.mechdiagram]`` of the nearest ``pyproject.toml`` and that file's folder.

    Returns ``({}, start)`` when there is none.  Raises :class:`ConfigError`
    for a file that is not valid TOML or a table with unknown or mistyped keys.
    """
    path = find_pyproject(start)
    if path is None:
        return {}, start
    try:
        tool = tomllib.loads(path.read_text("utf-8")).get("tool", {})
        table = tool.get("mechdiagram", {}) if isinstance(tool, dict) else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path.name}: cannot read [tool.mechdiagram]: {exc}") from exc
    if not isinstance(table, dict):
        raise ConfigError(f"{path.name}: [tool.mechdiagram] must be a table")
    expected: dict[str, type] = {"source-root": str, "output": str, "specs": list, "allow-missing-sources": bool,
                                 "formats": list, "index": bool}
    for key, value in table.items():
        if key not in expected:
            raise ConfigError(f"{path.name}: [tool.mechdiagram] has unknown key {key!r}; known keys: "
                              + ", ".join(expected))
        if not isinstance(value, expected[key]):
            raise ConfigError(f"{path.name}: [tool.mechdiagram] {key} must be a {expected[key].__name__}")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{path.name}: [tool.mechdiagram] {key} must be a list of strings")
        texts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        if any("\0" in text for text in texts):
            raise ConfigError(f"{path.name}: [tool.mechdiagram] {key} holds a NUL character")
    return table, path.parent
