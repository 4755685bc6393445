"""One build of the served specs, held in memory: what the preview server answers from.

A :class:`Snapshot` is immutable and replaced whole after each rebuild, so a
request sees every file of one build or of the next, never a mix or half a
file.  Building goes through :func:`mechdiagram.site.build.render_all` (nothing is
written) or, when the author asked for an output folder, through
:func:`mechdiagram.site.build.execute` (which writes there as ``build`` does).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import msgspec.structs
from msgspec import Struct

from mechdiagram.api import render_player
from mechdiagram.render.outputs import Fragment
from mechdiagram.shared.config import Options, spec_project
from mechdiagram.shared.errors import MechdiagramError
from mechdiagram.shared.files import display_path
from mechdiagram.shared.findings import Finding
from mechdiagram.site.build import execute, render_all
from mechdiagram.site.results import SpecResult
from mechdiagram.spec.discovery import SPEC_GLOB

#: Rule of the finding that stands for a build that stopped (an output folder that cannot be written).
BUILD_STOPPED = "build-stopped"


class SpecPreview(Struct, frozen=True):
    """One spec as the preview shows it.

    ``slug`` is its output name (``NAME`` of ``NAME.html``); ``display`` its path as the author sees it;
    ``findings`` every finding about it, in report order; ``files`` the names of the files it built
    (empty when it failed); ``fragment`` the name of its embeddable fragment, which the preview
    inlines, or ``None`` when it failed.
    """

    slug: str
    display: str
    findings: tuple[Finding, ...]
    files: tuple[str, ...]
    fragment: str | None

    @property
    def failed(self) -> bool:
        """True when any finding is an error (the preview shows the findings instead of the figure)."""
        return any(f.is_error for f in self.findings)


class Snapshot(Struct, frozen=True):
    """Everything one build produced.

    ``generation`` counts the builds whose result differed from the one before (starting at 1);
    ``specs`` are in discovery order; ``files`` maps every built file name to its bytes (the allow-list
    of what the server serves); ``general`` holds findings about the build as a whole; ``sources`` are
    the resolved source files the specs declare (watched besides the specs); ``player`` the names of the
    player's files among ``files``.
    """

    generation: int
    specs: tuple[SpecPreview, ...]
    files: Mapping[str, bytes]
    general: tuple[Finding, ...] = ()
    sources: frozenset[Path] = frozenset()
    session: str = ""  # the serving process's, set by PreviewState: a page of an earlier server reloads at once
    spec_files: frozenset[Path] = frozenset()  # the spec files this build read, resolved
    player: tuple[str, ...] = ()  # the player's files among ``files`` (module, style sheet) the fragments name

    @property
    def findings(self) -> list[Finding]:
        """Every finding, spec by spec, then those about the build as a whole."""
        return [f for spec in self.specs for f in spec.findings] + list(self.general)

    @property
    def fingerprint(self) -> str:
        """A digest of everything a page shows: equal fingerprints need no reload."""
        digest = hashlib.sha256()
        for name in sorted(self.files):
            digest.update(name.encode() + b"\0" + hashlib.sha256(self.files[name]).digest())
        for finding in self.findings:
            digest.update(repr(finding).encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def spec(self, slug: str) -> SpecPreview | None:
        """The spec whose output name is ``slug``, or ``None``."""
        return next((spec for spec in self.specs if spec.slug == slug), None)

    def numbered(self, generation: int, session: str = "") -> Snapshot:
        """This snapshot with another ``generation`` (and ``session``)."""
        return msgspec.structs.replace(self, generation=generation, session=session)


def _preview(result: SpecResult) -> SpecPreview:
    fragment = Fragment.file_name(result.slug)
    failed = result.failed
    return SpecPreview(slug=result.slug, display=result.loaded.display, findings=tuple(result.findings),
                       files=() if failed else tuple(result.outputs),
                       fragment=None if failed or fragment not in result.outputs else fragment)


def build_snapshot(options: Options, write: bool, generation: int = 1) -> Snapshot:
    """Build ``options.specs`` into a snapshot numbered ``generation``.

    With ``write``, the outputs are also written to ``options.output`` exactly as ``mechdiagram build``
    writes them; otherwise nothing is written anywhere.  Never raises for bad input; an output folder
    that cannot be written becomes a finding of rule :data:`BUILD_STOPPED` in ``general``.
    """
    general: list[Finding] = []  # about the build as a whole: an unreadable folder, the output folder's findings
    if write:
        try:
            # force: a spec the build key would skip still renders, so that the preview shows it (a skipped
            # spec has no outputs in memory); files whose bytes are unchanged are still not rewritten.
            report = execute(msgspec.structs.replace(options, mode="build", force=True))
            results = report.results
            general.extend(report.output_findings)
        except MechdiagramError as exc:  # the output folder: report it, and still preview in memory
            general.append(Finding(display_path(options.output), None, exc.message, BUILD_STOPPED))
            results = render_all(msgspec.structs.replace(options, mode="build"), general)
    else:
        results = render_all(msgspec.structs.replace(options, mode="build"), general)
    files: dict[str, bytes] = {}
    for result in results:
        if not result.failed:
            files.update(result.outputs)
    player = render_player(template_dir=options.template_dir, embedding=options.embedding)
    files.update(player)
    def root_of(result: SpecResult) -> Path:  # the source root this spec's sources were checked under
        chosen = options.source_root or spec_project(Path(result.loaded.path)).source_root
        return chosen.resolve()

    sources = frozenset(path for result in results for root in [root_of(result)] for check in result.checks
                        if check.status != "refused"
                        for path in [(root / check.path).resolve()] if path.is_relative_to(root))
    return Snapshot(generation, tuple(_preview(r) for r in results), MappingProxyType(files),
                    tuple(general), sources, spec_files=frozenset(Path(r.loaded.path).resolve() for r in results),
                    player=tuple(sorted(player)))


def watch_roots(specs: list[Path], sources: frozenset[Path]) -> list[Path]:
    """The folders to watch, each on its own (not recursively), for ``specs`` (files or folders) and the
    resolved ``sources``: each spec folder given and every folder below it, and the folder of each file
    (editors save by replacing a file, which a watch on the file itself would lose).  Watching exactly
    these keeps a source at the top of a project from watching all of it (``.venv``, ``.git``).  Sorted."""
    folders: set[Path] = set()
    for path in specs:
        if path.is_dir():
            resolved = path.resolve()
            folders.add(resolved)
            folders.update(p for p in resolved.rglob("*") if p.is_dir())
        else:
            folders.add(path.resolve().parent)
    folders |= {source.parent for source in sources}
    return sorted(f for f in folders if f.is_dir())


def is_relevant(path: Path, specs: list[Path], sources: frozenset[Path], deleted: bool = False) -> bool:
    """Whether a change to ``path`` (resolved) can change the preview or what is watched: a spec file
    given, a file named like a spec or a folder inside a spec folder given (anything ``deleted`` there,
    which may have been a folder), or a declared source."""
    if path in sources:
        return True
    for spec in specs:
        resolved = spec.resolve()
        if spec.is_dir():
            if path.is_relative_to(resolved) and (deleted or path.name.endswith(SPEC_GLOB[1:])
                                                or path.is_dir()):
                return True
        elif path == resolved:
            return True
    return False
