"""The commands over specs: ``build`` writes their files, ``validate`` only checks them, ``check`` (for CI)
checks them and fails when the committed output is stale.  Each fills one
:class:`~mechdiagram.shared.config.Options` and runs :func:`mechdiagram.site.build.execute`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from mechdiagram.cli.common import (
    PLAYER_URL,
    TEMPLATE_DIR,
    ReportingCommand,
    fill_options,
    picture_options,
    run_options,
    spec_options,
)

if TYPE_CHECKING:
    from mechdiagram.shared.config import Format


@click.command(cls=ReportingCommand, short_help="Check specs and write their SVG, HTML and manifest.",
               epilog="Example: mechdiagram build mechanisms -o output")
@spec_options
@picture_options
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the SVG, HTML and manifest.json [default: output].")
@TEMPLATE_DIR
@PLAYER_URL
@click.option("--force", is_flag=True, help="Render every spec, even one whose inputs are unchanged since the "
                                            "manifest was written.")
def build(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None,
          force: bool, frames: bool | None, png: bool | None, gif: bool | None, index: bool | None,
          player_url: str | None) -> None:
    """Check SPECS and write their SVG and HTML files and manifest.json.

    A spec that fails is reported and its previous output left as it was;
    the others are still built.  A spec whose bytes, sources, options,
    templates and mechdiagram version are those the manifest records, and
    whose files are in place, is skipped (--force renders it anyway).
    --frames, --png and --gif add stills and pictures; a folder of specs
    also gets index.html, the gallery page.
    """
    options = fill_options("build", specs, output, source_root, allow_missing_sources, fmt, jobs,
                           {"frames": frames, "png": png, "gif": gif}, index, template_dir, player_url=player_url)
    options.force = force
    run_options(options, "built")


@click.command(cls=ReportingCommand, short_help="Run every check on specs; write nothing.",
               epilog="Example: mechdiagram validate mechanisms --format github")
@spec_options
def validate(specs: tuple[Path, ...], source_root: Path | None, allow_missing_sources: bool | None,
             fmt: Format, jobs: int) -> None:
    """Run every check on SPECS (schema, cross-references, sources) and write nothing."""
    run_options(fill_options("validate", specs, None, source_root, allow_missing_sources, fmt, jobs), "valid")


@click.command(cls=ReportingCommand, short_help="For CI: every check, and fail when the output is stale.",
               epilog="Example: mechdiagram check mechanisms -o output --format github")
@spec_options
@picture_options
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding the committed build [default: output].")
@TEMPLATE_DIR
@PLAYER_URL
def check(specs: tuple[Path, ...], output: Path | None, source_root: Path | None,
          allow_missing_sources: bool | None, fmt: Format, jobs: int, template_dir: Path | None,
          frames: bool | None, png: bool | None, gif: bool | None, index: bool | None,
          player_url: str | None) -> None:
    """For CI: every check, and fail when the output folder differs from a fresh build.

    check never skips a spec: it renders every one and compares.  Output written
    by another mechdiagram version is reported once, as needing a rebuild.  Give
    it the format options the build had (or set them in pyproject.toml).
    """
    options = fill_options("check", specs, output, source_root, allow_missing_sources, fmt, jobs,
                           {"frames": frames, "png": png, "gif": gif}, index, template_dir, player_url=player_url)
    run_options(options, "valid")
