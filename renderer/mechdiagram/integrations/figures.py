"""One figure of a docs page, built at the site's build time through the one-spec API and cached by digest.

The Markdown extension, the MkDocs plugin and the Sphinx extension all go through :class:`FigureBuilder`: it
renders a spec (:func:`mechdiagram.api.render_spec`), or takes it from its cache folder when neither the spec's
bytes nor its sources' bytes nor the settings changed, and gives the HTML to put where the figure goes (the
spec's fragment, or its findings), the files to write into the site's output, the findings to warn of, and
the files the figure depends on (the spec and its sources, for a watcher or an incremental build).
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import html
import json
import re
from pathlib import Path

import msgspec
from msgspec import Struct, field

from mechdiagram import __version__
from mechdiagram.api import render_player, render_spec
from mechdiagram.shared.config import Embedding, Project, enclosing_project, outside_project, spec_project
from mechdiagram.shared.errors import MechdiagramError
from mechdiagram.shared.files import display_path, write_file
from mechdiagram.shared.findings import Finding
from mechdiagram.spec.discovery import SPEC_GLOB

#: The cache folder's default, relative to the site's project folder (where ``mkdocs.yml`` or Sphinx's
#: ``conf.py`` is): beside the ``.cache/`` folders other docs plugins keep.
CACHE_DIR = Path(".cache") / "mechdiagram"

#: The version of a cache entry's layout (``figure.json`` and the files beside it): part of every key.
CACHE_FORMAT = 1

#: The name of the record of a cache entry, written after its files.
RECORD = "figure.json"


class Figure(Struct):
    """One figure as a page gets it.

    ``html`` goes where the figure goes: the spec's fragment (one ``<div>``, a block-level element) or, for a
    spec with errors, the findings (:func:`findings_html`); ``files`` the figure's output files by name, for the
    site's output folder (empty when it failed); ``findings`` every finding (errors and warnings); ``dependencies``
    the spec file and each source file that exists, resolved (a change to any makes a new figure); ``cached``
    whether it came from the cache folder.
    """

    html: str
    files: dict[str, bytes] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    dependencies: list[Path] = field(default_factory=list)
    cached: bool = False

    @property
    def ok(self) -> bool:
        """True when no finding is an error (the figure was drawn)."""
        return not any(f.is_error for f in self.findings)


class _Record(Struct):
    """A cache entry's ``figure.json``: the names of the files beside it, the fragment's name, the findings
    (warnings: an entry is kept only for a drawn figure) and the dependencies."""

    files: list[str]
    fragment: str
    findings: list[Finding]
    dependencies: list[str]


def site_project(folder: Path) -> Path:
    """The project of a site whose config file is in ``folder``: the nearest folder at or above it that holds a
    ``pyproject.toml`` or a ``.git`` (:func:`~mechdiagram.shared.config.enclosing_project`), else ``folder``;
    resolved."""
    return enclosing_project(folder) or folder.resolve()


def located(finding: Finding) -> str:
    """``finding`` as one line, as the command line reports it (:meth:`~mechdiagram.shared.findings.Finding.as_line`:
    ``FILE:LINE:COLUMN: SEVERITY: POINTER: MESSAGE [RULE]``)."""
    return finding.as_line()


def findings_html(spec: str, findings: list[Finding]) -> str:
    """The block that stands where a figure that could not be drawn would: a ``<div class="mech-findings"
    role="note">`` naming ``spec`` (as the page wrote it) and listing every finding (:func:`located`), all of it
    escaped author text."""
    items = "".join(f"<li><code>{html.escape(located(f))}</code></li>" for f in findings)
    return (f'<div class="mech-findings" role="note"><p>mechdiagram could not draw '
            f"<code>{html.escape(spec)}</code>:</p><ul>{items}</ul></div>\n")


def _finding(spec: Path, message: str, rule: str, pointer: str | None = None) -> Finding:
    return Finding(display_path(spec), pointer, message, rule)


def parse_scenario(text: str) -> str | None:
    """The scenario id of a fence's options (``scenario=ID``, or ``scenario="ID"``), or ``None`` when they name
    none.  Raises :class:`~mechdiagram.shared.errors.UsageError` for any other option."""
    from mechdiagram.shared.errors import UsageError

    scenario = None
    for word in text.split():
        match = re.fullmatch(r"""scenario=(["']?)([^"']+)\1""", word)
        if not match:
            raise UsageError(f"the mechanism fence takes only scenario=ID, not {word!r}")
        scenario = match.group(2)
    return scenario


class FigureBuilder:
    """Builds the figures of one site.

    ``embedding`` says where the site's pages load the player from and which colour-mode switch they follow
    (:class:`~mechdiagram.shared.config.Embedding`); ``cache_dir`` is the folder of cache entries (one folder a
    key, created when first needed; ``None``: no cache); ``output_dir``, when given, is the folder of the site's
    output that :meth:`write` writes the figures' and the player's files into (the one ``embedding.player_url``
    leads to); ``site`` is a folder of the site (its config file's), whose project (:func:`site_project`) holds
    every spec a page may name.
    """

    def __init__(self, *, embedding: Embedding | None = None, cache_dir: Path | None = CACHE_DIR,
                 output_dir: Path | None = None, site: Path | None = None) -> None:
        self.root = site_project(site or Path.cwd())
        self.embedding = embedding or Embedding()
        self.cache_dir = cache_dir
        self.output_dir = output_dir
        self._player: dict[str, bytes] | None = None

    def player(self) -> dict[str, bytes]:
        """The player's two files (:func:`mechdiagram.api.render_player`) for :attr:`embedding`, by name."""
        if self._player is None:
            self._player = render_player(embedding=self.embedding)
        return self._player

    def player_tags(self, player_url: str | None = None) -> str:
        """The two lines a page's ``<head>`` loads the player with, from ``player_url`` (default: the
        embedding's): its style sheet and its module."""
        url = self.embedding.player_url if player_url is None else player_url
        css, js = (next(name for name in self.player() if name.endswith(end)) for end in (".css", ".js"))
        return (f'<link rel="stylesheet" href="{html.escape(url + css)}">\n'
                f'<script type="module" src="{html.escape(url + js)}"></script>\n')

    def figure(self, spec: Path, scenario: str | None = None, *, shown: str | None = None) -> Figure:
        """The figure of the spec at ``spec``: of all its scenarios, or of scenario ``scenario`` alone.  ``shown`` is
        the spec's path as the page wrote it (for the findings block; default: ``spec``).  Never raises for bad
        input: an unreadable spec, a project setting that fails, an unknown scenario are findings."""
        shown = shown or spec.as_posix()
        # A page names a spec of the site's project, never another file: a docs change (a pull request built
        # in CI) must not publish a file's contents, or whether it exists, through the findings block.
        if (not fnmatch.fnmatchcase(spec.name, SPEC_GLOB) or outside_project(spec)
                or not spec.resolve().is_relative_to(self.root)):
            return self._failed(spec, shown, [Finding(shown, None, f"a figure's spec is a file {SPEC_GLOB} of the "
                                                      "site's project (the folder of its pyproject.toml or .git)",
                                                      "spec-path")], [])
        try:
            data = spec.read_bytes()
            project = spec_project(spec)
        except OSError as exc:
            return self._failed(spec, shown, [_finding(spec, f"cannot read the spec: {exc.strerror or exc}",
                                                       "unreadable")])
        except MechdiagramError as exc:
            return self._failed(spec, shown, [_finding(spec, exc.message, "config")])
        sources = _source_files(data, project.source_root)
        dependencies = [spec.resolve(), *(path.resolve() for path in sources if path.is_file())]
        key = self._key(data, sources, project, scenario)
        cached = self._cached(key)
        if cached is not None:
            return cached
        rendered = render_spec(spec, project=project, embedding=self.embedding, scenario=scenario)
        if not rendered.ok:
            return self._failed(spec, shown, rendered.findings, dependencies)
        files = rendered.files
        slug = rendered.slug
        figure = Figure(files[f"{slug}.fragment.html"].decode("utf-8"), files, list(rendered.findings),
                        dependencies)
        self._store(key, figure, f"{slug}.fragment.html")
        return figure

    def write(self, files: dict[str, bytes]) -> list[Path]:
        """Write ``files`` (name to bytes) into :attr:`output_dir`, each only when it is not there with these bytes
        already; the paths written.  Nothing without an output folder.  Raises
        :class:`~mechdiagram.shared.errors.OutputError` when a file cannot be written."""
        if self.output_dir is None:
            return []
        self.output_dir.mkdir(parents=True, exist_ok=True)
        return [self.output_dir / name for name, data in sorted(files.items())
                if write_file(self.output_dir / name, data)]

    def _failed(self, spec: Path, shown: str, findings: list[Finding],
                dependencies: list[Path] | None = None) -> Figure:
        return Figure(findings_html(shown, findings), {}, findings,
                      dependencies if dependencies is not None else [spec.resolve()])

    def _key(self, data: bytes, sources: list[Path], project: Project, scenario: str | None) -> str:
        """The digest that names a figure's cache entry: of the spec's bytes, each source's bytes (or its
        absence), the project's settings, the scenario, the embedding and the version of mechdiagram."""
        digests: list[list[str | None]] = []
        for path in sources:
            try:
                digests.append([path.as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()])
            except OSError:
                digests.append([path.as_posix(), None])
        parts = [CACHE_FORMAT, __version__, hashlib.sha256(data).hexdigest(), digests,
                 project.source_root.resolve().as_posix(), project.allow_missing_sources, scenario,
                 msgspec.to_builtins(self.embedding)]
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()

    def _cached(self, key: str) -> Figure | None:
        if self.cache_dir is None:
            return None
        entry = self.cache_dir / key
        try:
            record = msgspec.json.decode((entry / RECORD).read_bytes(), type=_Record)
            files = {name: (entry / name).read_bytes() for name in record.files}
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            return None
        return Figure(files[record.fragment].decode("utf-8"), files, record.findings,
                      [Path(p) for p in record.dependencies], cached=True)

    def _store(self, key: str, figure: Figure, fragment: str) -> None:
        """Keep ``figure`` under ``key``: its files, then its record (so that an entry without a record, which
        an interrupted write leaves, is never read).  A cache that cannot be written is only slower."""
        if self.cache_dir is None:
            return
        entry = self.cache_dir / key
        with contextlib.suppress(OSError, MechdiagramError):
            entry.mkdir(parents=True, exist_ok=True)
            for name, data in figure.files.items():
                write_file(entry / name, data)
            record = _Record(sorted(figure.files), fragment, figure.findings,
                             [p.as_posix() for p in figure.dependencies])
            write_file(entry / RECORD, msgspec.json.encode(record))


def _source_files(data: bytes, source_root: Path) -> list[Path]:
    """The files a spec's ``sources`` name (relative to ``source_root``), read from its bytes; none when the
    spec does not parse (its findings say why)."""
    try:
        parsed = json.loads(data)
    except ValueError:
        return []
    sources = parsed.get("sources") if isinstance(parsed, dict) else None
    return [source_root / s["path"] for s in sources or []
            if isinstance(s, dict) and isinstance(s.get("path"), str) and "\0" not in s["path"]]


__all__ = ["CACHE_DIR", "Figure", "FigureBuilder", "findings_html", "located", "parse_scenario"]
