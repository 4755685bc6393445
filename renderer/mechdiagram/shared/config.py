"""Settings of a run: command-line options over ``[tool.mechdiagram]`` in the nearest ``pyproject.toml``.

Keys read from ``[tool.mechdiagram]`` (paths relative to that file's folder):
``source-root`` (string), ``output`` (string), ``specs`` (list of strings),
``allow-missing-sources`` (boolean), ``formats`` (list of format groups, such as
``["svg", "html", "frames", "png"]``), ``index`` (boolean), ``template-dir`` (string: a
folder of templates of your own, as ``--template-dir``), ``player-url`` (string: the URL of the folder that
serves the player's files to a site's pages, as ``--player-url``) and ``dark-selectors`` and ``light-selectors``
(lists of CSS selectors of a site's own colour-mode switch, :class:`Embedding`).  All but ``source-root`` and
``allow-missing-sources`` come from the project of the working directory;
``source-root`` and ``allow-missing-sources`` from the project each spec is in
(:func:`spec_project`), so specs of different projects checked in one run each use their own.
"""

from __future__ import annotations

import os
import re
import tomllib
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct, field

from mechdiagram.shared.errors import ConfigError
from mechdiagram.shared.files import display_path

Mode = Literal["build", "validate", "check"]
Format = Literal["text", "json", "github"]


#: The colour-mode switches of the docs sites a figure follows besides the reader's ``prefers-color-scheme``, as
#: CSS selectors of an ancestor of the figure: Material for MkDocs (``data-md-color-scheme``), Furo, Docusaurus and
#: Starlight (``data-theme``), and sites that put a ``dark`` (or ``light``) class on ``<html>`` or ``<body>``.
DARK_SELECTORS = ('[data-md-color-scheme="slate"]', '[data-theme="dark"]', "html.dark", "body.dark")
LIGHT_SELECTORS = ('[data-md-color-scheme="default"]', '[data-theme="light"]', "html.light", "body.light")

#: What a selector of ``dark-selectors`` or ``light-selectors`` may hold: a compound or complex selector of
#: type, class, id, attribute and pseudo-class parts (``html[data-mode="night"] body``), never a character that
#: could end the rule or the style sheet it is written into (``{``, ``}``, ``;``, ``<``, ``&``, ``@``, ``\``).
_SELECTOR = re.compile(r"""[A-Za-z0-9_\-.#:\[\]="' >~+*(),|^$]+""")


class Embedding(Struct, frozen=True):
    """How a site embeds the HTML figure: ``player_url``, the URL of the folder its pages load the player's
    files from (``""``: the folder of the fragment's page, where the build writes them; else ending in ``/``),
    and ``dark_selectors`` and ``light_selectors``, the site's own colour-mode switches (CSS selectors of an
    ancestor of the figure), followed besides :data:`DARK_SELECTORS` and :data:`LIGHT_SELECTORS`."""

    player_url: str = ""
    dark_selectors: tuple[str, ...] = ()
    light_selectors: tuple[str, ...] = ()

    def dark(self) -> tuple[str, ...]:
        """Every selector under which the figure is dark: the built-in ones, then the site's."""
        return DARK_SELECTORS + self.dark_selectors

    def light(self) -> tuple[str, ...]:
        """Every selector under which the figure is light: the built-in ones, then the site's."""
        return LIGHT_SELECTORS + self.light_selectors


def player_url(value: str, where: str) -> str:
    """``value`` as :attr:`Embedding.player_url`: ``""`` stays, anything else ends in ``/``.  Raises
    :class:`ConfigError`, naming ``where`` (``--player-url``, or the ``pyproject.toml`` key), for a value with
    white space or a control character, or a quote or angle bracket, which no URL holds unescaped
    (RFC 3986, 2)."""
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 or c in "\"'<>`?#" or unicodedata.category(c) == "Cf"
           for c in value):
        raise ConfigError(f"{where} {value!r} is not the URL of a folder: it holds a space, a quote, an angle "
                          "bracket, a query or fragment (? #), or a control or invisible character")
    return value if not value or value.endswith("/") else value + "/"


def _balanced(selector: str) -> bool:
    """Whether every bracket and quote of ``selector`` closes, in order, and no comma stands outside brackets (a
    selector list, which would take the rules :func:`colour_selectors` writes out of their ``:where()``)."""
    closing = {"(": ")", "[": "]"}
    open_: list[str] = []
    quote = ""
    for c in selector:
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in closing:
            open_.append(closing[c])
        elif c in ")]":
            if not open_ or open_.pop() != c:
                return False
        elif c == "," and not open_:
            return False
    return not open_ and not quote


def colour_selectors(values: list[str], where: str) -> tuple[str, ...]:
    """``values`` as selectors of :class:`Embedding`.  Raises :class:`ConfigError`, naming ``where`` (the
    ``pyproject.toml`` key), for an empty selector, one with a character outside :data:`_SELECTOR` (ASCII), or one
    whose brackets or quotes do not close, or that is a list (a comma outside brackets: give each its own item)."""
    for value in values:
        if not value.strip() or not _SELECTOR.fullmatch(value) or not _balanced(value):
            raise ConfigError(f"{where} {value!r} is not a selector mechdiagram can write: use one selector an item, "
                              "of ASCII type, class, id, attribute and pseudo-class selectors and combinators "
                              "(html[data-mode=\"night\"] body), its brackets and quotes closed, without { } ; < & @ "
                              "or a backslash")
    return tuple(value.strip() for value in values)


class Options(Struct):
    """One command's settings, filled by the CLI and read by :func:`mechdiagram.site.build.execute`.

    ``specs`` are files or folders (folders are searched for ``*.mechanism.json``);
    ``output`` the folder that receives the SVG, HTML and ``manifest.json``;
    ``source_root`` the folder that source paths are relative to, for every spec
    (``None``: each spec's project decides, see :func:`spec_project`);
    ``allow_missing_sources`` likewise (``None``: the spec's project decides, else no);
    ``template_dir`` a folder of
    jinja2 templates found before the package's own (``None``: the package's alone); ``force``
    makes ``build`` render every spec, even one whose build key is unchanged; ``confined`` (the preview
    server's) refuses, unread, a spec file reached through a symbolic link that leads out of its project
    (:func:`outside_project`); ``embedding`` how a site embeds the figure (:class:`Embedding`).
    """

    mode: Mode = "build"
    specs: list[Path] = field(default_factory=lambda: [Path("mechanisms")])
    output: Path = Path("output")
    source_root: Path | None = None
    allow_missing_sources: bool | None = None
    format: Format = "text"
    jobs: int = 0  # worker processes; 0 means one per CPU core, 1 means no worker processes
    template_dir: Path | None = None
    force: bool = False
    extra_formats: frozenset[str] = frozenset()  # optional format groups to write: "frames", "png", "gif"
    index: bool = True  # write index.html when a folder of specs is built (mechdiagram.site.gallery)
    configured_formats: frozenset[str] = frozenset()  # the optional groups [tool.mechdiagram] formats selects
    configured_index: bool = True  # and its index (what a command line without flags builds)
    confined: bool = False  # serve: a spec reached through a link out of its project is refused, unread
    embedding: Embedding = field(default_factory=Embedding)  # player-url, dark- and light-selectors


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` or one of its parents, or ``None``."""
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


class Project(Struct, frozen=True):
    """Where a spec's sources are found: ``source_root``, the folder its source paths are relative to
    (as :func:`mechdiagram.shared.files.display_path` would show it), and ``allow_missing_sources`` of its
    ``[tool.mechdiagram]`` table (``None`` when not set)."""

    source_root: Path
    allow_missing_sources: bool | None


def project_folder(spec: Path) -> Path | None:
    """The folder of the project of the spec file at ``spec`` (which need not exist yet): the nearest folder
    above it that holds a ``pyproject.toml`` or a ``.git``, resolved; ``None`` when there is none."""
    return enclosing_project(spec.resolve().parent)


def enclosing_project(folder: Path) -> Path | None:
    """The project ``folder`` belongs to: the nearest of ``folder`` (resolved) and the folders above it that holds a
    ``pyproject.toml`` or a ``.git``; ``None`` when there is none."""
    folder = folder.resolve()
    return next((f for f in [folder, *folder.parents] if (f / "pyproject.toml").is_file() or (f / ".git").exists()),
                None)


def outside_project(spec: Path) -> bool:
    """Whether the spec file at ``spec`` is reached through a symbolic link (the file's or a folder's) that leads
    out of the project it is found in: the nearest folder that holds a ``pyproject.toml`` or a ``.git``, looking
    up from the deepest folder of the path as named that is reached through no link (a link's target folder,
    with a project marker of its own, is not this project), else that folder.  A cloned repository's committed
    link to a file of the user's (``x.mechanism.json -> ~/.ssh/id_ed25519``) is such a spec."""
    named = Path(os.path.abspath(spec))
    linkless = Path(named.anchor)
    for part in named.parent.parts[1:]:
        if (linkless / part).is_symlink():
            break
        linkless = linkless / part
    home = next((f for f in [linkless, *linkless.parents]
                 if (f / "pyproject.toml").is_file() or (f / ".git").exists()), linkless)
    return not spec.resolve().is_relative_to(home.resolve())


def spec_project(spec: Path, *, check: bool = True) -> Project:
    """The project of the spec file at ``spec``: the nearest folder above it that holds a
    ``pyproject.toml`` or a ``.git``, or else the spec's own folder.

    Its source root is ``source-root`` under ``[tool.mechdiagram]`` of that ``pyproject.toml``
    (relative to its folder) when set, else the project folder.  Raises :class:`ConfigError` as
    :func:`project_settings` does, and (unless ``check`` is False, for a spec not yet written) when
    that source root is not a folder.
    """
    home = project_folder(spec)
    if home is None:
        return Project(Path(display_path(spec.resolve().parent)), None)
    settings, base = project_settings(home) if (home / "pyproject.toml").is_file() else ({}, home)
    root = base / settings["source-root"] if "source-root" in settings else base
    if check and "source-root" in settings and not root.is_dir():
        raise ConfigError(f"{display_path(home / 'pyproject.toml')}: [tool.mechdiagram] source-root "
                          f"{settings['source-root']} is not a folder")
    allow = settings.get("allow-missing-sources")
    return Project(Path(display_path(root.resolve())), allow if isinstance(allow, bool) else None)


def project_settings(start: Path) -> tuple[dict[str, Any], Path]:
    """``[tool.mechdiagram]`` of the nearest ``pyproject.toml`` and that file's folder.

    Returns ``({}, start)`` when there is none.  Raises :class:`ConfigError`
    for a file that is not valid TOML or a table with unknown or mistyped keys.
    """

    path = find_pyproject(start)
    if path is None:
        return {}, start
    try:
        stamp = path.stat()
    except OSError as exc:
        raise ConfigError(f"{display_path(path)}: cannot read [tool.mechdiagram]: {exc}") from exc
    # Every spec asks for its project's table: parse each file once while it stays the same.
    table = _read_table(path.resolve(), stamp.st_mtime_ns, stamp.st_size, display_path(path))
    return dict(table), path.parent


@lru_cache(maxsize=32)
def _read_table(path: Path, mtime_ns: int, size: int, shown: str) -> dict[str, Any]:
    """``[tool.mechdiagram]`` of the file at ``path`` as of ``mtime_ns`` and ``size``, checked (see
    :func:`project_settings`); ``shown`` names the file in errors."""
    try:
        tool = tomllib.loads(path.read_text("utf-8")).get("tool", {})
        table = tool.get("mechdiagram", {}) if isinstance(tool, dict) else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{shown}: cannot read [tool.mechdiagram]: {exc}") from exc
    if not isinstance(table, dict):
        raise ConfigError(f"{shown}: [tool.mechdiagram] must be a table")
    expected: dict[str, type] = {"source-root": str, "output": str, "specs": list, "allow-missing-sources": bool,
                                 "formats": list, "index": bool, "template-dir": str, "player-url": str,
                                 "dark-selectors": list, "light-selectors": list}
    for key, value in table.items():
        if key not in expected:
            raise ConfigError(f"{shown}: [tool.mechdiagram] has unknown key {key!r}; known keys: "
                              + ", ".join(expected))
        if not isinstance(value, expected[key]):
            raise ConfigError(f"{shown}: [tool.mechdiagram] {key} must be a {expected[key].__name__}")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{shown}: [tool.mechdiagram] {key} must be a list of strings")
        texts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        if any("\0" in text for text in texts):
            raise ConfigError(f"{shown}: [tool.mechdiagram] {key} holds a NUL character")
    return table
