"""Stage 7, check: what differs between the output folder and a fresh build, as ``stale-output`` findings.

:func:`mechdiagram.site.build.execute` renders every spec in ``check`` mode and hands the bytes a fresh build would
write
here; nothing is written.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from mechdiagram.render.outputs import format_of
from mechdiagram.render.raster import rasteriser
from mechdiagram.shared.config import Options
from mechdiagram.shared.files import display_named, display_path, is_link, read_regular
from mechdiagram.shared.findings import Finding
from mechdiagram.site.manifest import INDEX, JOURNAL, PLAYER_NAME, Entry, journal_left
from mechdiagram.site.results import Report
from mechdiagram.site.staging import stale_temporaries


def stale_outputs(report: Report, output: Path, expected: dict[str, bytes], retiring: dict[str, str],
                  previous: dict[str, Entry], options: Options) -> None:
    """``check``'s comparison: a ``stale-output`` finding in ``report`` for each file of ``expected`` (name to the
    bytes a fresh build writes) that is missing from ``output`` or differs, naming the spec that owns it (or the
    gallery page, the player's files, or the manifest) and the command that rebuilds it
    (:func:`rebuild_command`: that spec alone, or the check's specs for the others), and one for each file of
    ``retiring`` (name to why it goes) still there.  A picture drawn by another rasteriser than this build's
    (recorded in ``previous``, the manifest's entries) says so, as does a file built with templates of the
    author's own (``--template-dir``) when this check has none."""
    owners = {name: result.loaded.display for result in report.results if not result.failed
              for name in result.outputs}
    pictures = {item.get("path"): item.get("rasteriser") for entry in previous.values()
                for item in entry.get("outputs", []) if isinstance(item, dict) and "rasteriser" in item}
    # Files a build with templates of the author's own wrote, where this check has none.
    templated = set() if options.template_dir is not None else {
        item.get("path") for entry in previous.values() if entry.get("templates") == "own"
        for item in entry.get("outputs", []) if isinstance(item, dict)}
    every = rebuild_command(options)
    for name, data in sorted(expected.items()):
        rebuild = rebuild_command(options, [owners[name]]) if name in owners else every
        path = output / name
        shown = display_path(path)
        spec = (f"output of {owners[name]}" if name in owners
                else "the gallery page of the specs" if name == INDEX
                else "the player of the fragments" if PLAYER_NAME.fullmatch(name) else "the manifest of the specs")
        on_disk = read_regular(path)  # never through a link
        if is_link(path):
            shown = display_named(path)
            report.output_findings.append(Finding(
                shown, None, f"is a symbolic link ({spec}), which build never writes through: run {rebuild} to "
                "replace it with a regular file", "stale-output"))
        elif on_disk is None:
            report.output_findings.append(Finding(shown, None, f"missing ({spec}): run {rebuild}",
                                                  "stale-output"))
        elif on_disk != data:
            made_by = pictures.get(name)
            if isinstance(made_by, str) and made_by != rasteriser():
                message = (f"differs from a fresh build ({spec}): it was rasterised by {made_by}, this build uses "
                           f"{rasteriser()}, whose pixels differ; run {rebuild} to redraw the pictures")
            elif name in templated:
                message = (f"differs from a fresh build ({spec}): it was built with templates of your own "
                           "(--template-dir), which this check was not given; give check the same --template-dir "
                           f"(or set template-dir in [tool.mechdiagram]), or run {rebuild} to build it with the "
                           "built-in templates")
            else:
                message = f"differs from a fresh build ({spec}): run {rebuild}"
            report.output_findings.append(Finding(shown, None, message, "stale-output"))
    for name, reason in sorted(retiring.items()):
        if (output / name).is_file():
            fmt = format_of(name.split(".", 1)[0], name)
            group = fmt.group_name() if fmt is not None and fmt.optional else None
            if group is not None and group not in options.extra_formats | options.configured_formats:
                # A picture or still a build with --png (or --frames, --gif) wrote, checked without the flag
                # (not turned off against the project's formats): deleting it is seldom what the author wants,
                # so the flag is named first.
                message = (f"{reason} without --{group}, which wrote it: give check the same --{group} (or "
                           f"formats = [\"{group}\"] in [tool.mechdiagram]), or run {every} to delete it")
            else:
                message = f"{reason}: run {every} to delete it"
            report.output_findings.append(Finding(display_path(output / name), None, message, "stale-output"))
    _interrupted(report, output, every)


#: Most temporary files one ``check`` finding names (the rest are counted).
NAMED_TEMPORARIES = 3


def _interrupted(report: Report, output: Path, every: str) -> None:
    """``stale-output`` findings for what a killed build left in ``output``: its journal (files it may have put
    in place that the manifest does not record) and temporary files no build will rename."""
    if journal_left(output):
        report.output_findings.append(Finding(
            display_named(output / JOURNAL), None,
            f"an interrupted build left its journal (files the manifest does not record yet): run {every}",
            "stale-output"))
    stale = stale_temporaries(output)
    if stale:
        named = ", ".join(stale[:NAMED_TEMPORARIES]) + (f" and {len(stale) - NAMED_TEMPORARIES} more"
                                                         if len(stale) > NAMED_TEMPORARIES else "")
        report.output_findings.append(Finding(
            display_path(output), None, f"{len(stale)} temporary file(s) that an interrupted build left ({named}): "
            f"run {every} to remove them", "stale-output"))


def rebuild_command(options: Options, specs: list[str] | None = None) -> str:
    """The ``build`` command line that writes what ``check`` with ``options`` compares: ``specs`` (shown paths;
    default the check's own, left out where they are the default), the output folder where it is not the
    default, the options given that change what is built, and every optional format and the gallery page
    where the command line chose otherwise than the project (``mechdiagram build x.mechanism.json -o site
    --png``).  Specs go last, after ``--`` when one looks like an option."""
    from mechdiagram.render.outputs import groups

    words = ["mechdiagram", "build"]
    if options.output.resolve() != Options().output.resolve():
        words += ["-o", display_path(options.output)]
    if options.source_root is not None:
        words += ["--source-root", display_path(options.source_root)]
    if options.allow_missing_sources is not None:
        words.append("--allow-missing-sources" if options.allow_missing_sources else "--no-allow-missing-sources")
    if options.template_dir is not None:
        words += ["--template-dir", display_path(options.template_dir)]
    if options.index != options.configured_index:
        words.append("--index" if options.index else "--no-index")
    for name in sorted(name for name, optional in groups().items() if optional):
        if (name in options.extra_formats) != (name in options.configured_formats):
            words.append(f"--{name}" if name in options.extra_formats else f"--no-{name}")
    if specs is None:
        specs = [display_path(path) for path in options.specs] if options.specs != Options().specs else []
    if any(spec.startswith("-") for spec in specs):
        words.append("--")
    return shlex.join(words + specs)
