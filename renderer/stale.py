"""Stage 7, check: what differs between the output folder and a fresh build, as ``stale-output`` findings.

:func:`renderer.build.execute` renders every spec in ``check`` mode and hands the bytes a fresh build would write
here; nothing is written.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from .config import Options
from .files import display_path
from .findings import Finding
from .manifest import INDEX, Entry
from .raster import rasteriser
from .results import Report


def stale_outputs(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
                  previous: dict[str, Entry], rebuild: str = "mechdiagram build") -> None:
    """``check``'s comparison: a ``stale-output`` finding in ``report`` for each file of ``expected`` (name to the
    bytes a fresh build writes) that is missing from ``output`` or differs, naming the spec that owns it (or the
    gallery page, or the manifest) and ``rebuild``, the command that rebuilds them, and one for each file of
    ``retiring`` (name to why it goes) still there.  A picture drawn by another rasteriser than this build's
    (recorded in ``previous``, the manifest's entries) says so."""
    owners = {name: result.loaded.display for result in report.results if not result.failed
              for name in result.outputs}
    pictures = {item.get("path"): item.get("rasteriser") for entry in previous.values()
                for item in entry.get("outputs", []) if isinstance(item, dict) and "rasteriser" in item}
    for name, data in sorted(expected.items()):
        path = output / name
        shown = display_path(path)
        spec = (f"output of {owners[name]}" if name in owners
                else "the gallery page of the specs" if name == INDEX else "the manifest of the specs")
        if not path.is_file():
            report.output_findings.append(Finding(shown, None, f"missing ({spec}): run {rebuild}",
                                                  "stale-output"))
        elif path.read_bytes() != data:
            made_by = pictures.get(name)
            if isinstance(made_by, str) and made_by != rasteriser():
                message = (f"differs from a fresh build ({spec}): it was rasterised by {made_by}, this build uses "
                           f"{rasteriser()}, whose pixels differ; run {rebuild} to redraw the pictures")
            else:
                message = f"differs from a fresh build ({spec}): run {rebuild}"
            report.output_findings.append(Finding(shown, None, message, "stale-output"))
    for name, reason in sorted(retiring.items()):
        if (output / name).is_file():
            report.output_findings.append(Finding(display_path(output / name), None,
                                                  f"{reason}: run {rebuild} to delete it", "stale-output"))


def rebuild_command(options: Options) -> str:
    """The ``build`` command line that writes what ``check`` with ``options`` compares: its specs and output
    folder where they are not the defaults, the options given that change what is built, and the optional
    formats (``mechdiagram build spec.mechanism.json -o site --png``)."""
    words = ["mechdiagram", "build"]
    if options.specs != Options().specs:
        words += [display_path(path) for path in options.specs]
    if options.output != Options().output:
        words += ["-o", display_path(options.output)]
    if options.source_root is not None:
        words += ["--source-root", display_path(options.source_root)]
    if options.allow_missing_sources is not None:
        words.append("--allow-missing-sources" if options.allow_missing_sources else "--no-allow-missing-sources")
    if options.template_dir is not None:
        words += ["--template-dir", display_path(options.template_dir)]
    if not options.index:
        words.append("--no-index")
    words += [f"--{name}" for name in sorted(options.extra_formats)]
    return shlex.join(words)
