"""Stage 7, check: what differs between the output folder and a fresh build, as ``stale-output`` findings.

:func:`renderer.build.execute` renders every spec in ``check`` mode and hands the bytes a fresh build would write
here; nothing is written.
"""

from __future__ import annotations

from pathlib import Path

from .files import display_path
from .findings import Finding
from .manifest import INDEX, Entry
from .raster import rasteriser
from .results import Report


def stale_outputs(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
                  previous: dict[str, Entry]) -> None:
    """``check``'s comparison: a ``stale-output`` finding in ``report`` for each file of ``expected`` (name to the
    bytes a fresh build writes) that is missing from ``output`` or differs, naming the spec that owns it (or the
    gallery page, or the manifest) and the command that rebuilds the folder, and one for each file of
    ``retiring`` (name to why it goes) still there.  A picture drawn by another rasteriser than this build's
    (recorded in ``previous``, the manifest's entries) says so."""
    owners = {name: result.loaded.display for result in report.results if not result.failed
              for name in result.outputs}
    pictures = {item.get("path"): item.get("rasteriser") for entry in previous.values()
                for item in entry.get("outputs", []) if isinstance(item, dict) and "rasteriser" in item}
    # The command that rebuilds this folder: the one check was given, not the default output/.
    rebuild = "mechdiagram build" + ("" if output == Path("output") else f" -o {display_path(output)}")
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
