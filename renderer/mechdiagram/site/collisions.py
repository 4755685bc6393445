"""Specs whose files would overwrite another's: two specs of one output name, a spec named ``index`` (the
gallery page's name), and a spec file that is itself where the build writes (a page, the manifest).

Found after every spec is judged and before anything is written: a spec refused here writes nothing, and
a spec in the manifest's place stops the run (:class:`~mechdiagram.shared.errors.UsageError`).
"""

from __future__ import annotations

from pathlib import Path

from mechdiagram.shared.config import Options
from mechdiagram.shared.errors import UsageError
from mechdiagram.shared.files import display_path
from mechdiagram.shared.findings import Finding
from mechdiagram.site.results import SpecResult

#: The output name a spec cannot have: its page would be the gallery page (``index.html``).
RESERVED_SLUG = "index"


def has_gallery(options: Options, output: Path | None = None) -> bool:
    """Whether a build of ``options`` writes the gallery page (a folder of specs, the index not turned off), or,
    given ``output``, that folder's manifest records one."""
    from mechdiagram.site.manifest import recorded_index

    return (options.index and any(path.is_dir() for path in options.specs)) or (
        output is not None and recorded_index(output) is not None)


def output_collisions(results: list[SpecResult], output: Path | None = None, gallery: bool = False) -> None:
    """Fail a spec whose files would overwrite another's: two specs of one output name, a spec named
    :data:`RESERVED_SLUG` when the run has a ``gallery`` page (a folder of specs, the index on), and
    (given the ``output`` folder a build or check uses) a spec one of whose files would land on a spec file
    (a spec kept in the output folder, such as ``out/tiny.html``)."""
    from mechdiagram.site.manifest import INDEX

    specs = {Path(r.loaded.path).resolve(): r for r in results} if output is not None else {}
    owner: dict[str, SpecResult] = {}
    for result in results:
        if gallery and result.slug == RESERVED_SLUG:
            result.refuse(Finding(
                result.loaded.display, None, f"would write its page as {INDEX}, the gallery page's name; rename "
                f"the spec (any name but {RESERVED_SLUG!r})", "output-collision"))
            continue
        over = next((name for name in sorted(result.outputs) if output is not None
                     and _real(output / name) in specs), None)
        if over is not None and output is not None:
            result.refuse(Finding(
                result.loaded.display, None, f"would write {display_path(output / over)} over the spec there: keep "
                "specs out of the output folder", "output-collision"))
            continue
        first = owner.setdefault(result.slug, result)
        if first is not result:
            result.refuse(Finding(
                result.loaded.display, None,
                f"writes the same output files ({result.slug}.*) as {first.loaded.display}; rename one of them",
                "output-collision"))


def refuse_specs_in_the_way(paths: list[Path], output: Path) -> None:
    """Raise :class:`~mechdiagram.shared.errors.UsageError` when a spec file is where the build writes ``manifest.json``
    or ``index.html``, which every run writes or compares: nothing is written."""
    from mechdiagram.site.manifest import INDEX, MANIFEST

    ours = {(output / name).resolve(): name for name in (MANIFEST, INDEX)}
    for path in paths:
        name = ours.get(path.resolve())
        if name is not None:
            raise UsageError(f"spec {display_path(path)} is where the build writes its {name}: move the spec out of "
                             f"{display_path(output)}, or build into another folder")


def _real(path: Path) -> Path | None:
    """Where ``path`` leads (:meth:`Path.resolve`), or ``None`` for a link that leads back to itself (Python 3.11
    raises ``RuntimeError`` there): no spec is there."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return None
