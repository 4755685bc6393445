"""``mechdiagram embed``: print the ``<picture>`` a README or a plain HTML page embeds a figure with
(:func:`mechdiagram.integrations.embed.picture`)."""

from __future__ import annotations

from pathlib import Path

import click

from mechdiagram.cli.common import translated


def finite(context: click.Context, parameter: click.Parameter, value: float | None) -> float | None:
    """``value`` when it is a number (click's float type also takes ``nan``); else a usage error naming the option."""
    if value is not None and value != value:
        raise click.BadParameter("not a number: give a width in CSS px, such as 830", context, parameter)
    return value


@click.command("embed", short_help="Print the <picture> that embeds a figure in a README or a page.",
               epilog="Example: mechdiagram embed mechanisms/queue.mechanism.json --relative-to .")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The folder `build` writes the SVGs to [default: output under [tool.mechdiagram], else output].")
@click.option("--relative-to", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="The folder of the page or README: the paths are relative to it.")
@click.option("--scenario", default=None, help="The scenario's id [default: the spec's first].")
@click.option("--column", type=click.FloatRange(min=1, max=100_000), default=None, callback=finite,
              help="The widest the picture's column gets, in CSS px (a GitHub README: 830): a wide drawing that "
                   "would not read at 12 px there is left out [default: as wide as the window].")
@translated
def embed_command(spec: Path, output: Path | None, relative_to: Path, scenario: str | None,
                  column: float | None) -> None:
    """Print the <picture> of SPEC: the wide drawing from the window width at which its text reads at 12 px, the
    narrow one below (alone with --column narrower than that), each in light and dark, the spec's alt text on the
    <img>, and a link to the HTML figure.

    The paths name the files `mechdiagram build` writes to the output folder; build first.  A spec with errors
    prints its findings (stderr) and exits 1.
    """
    from mechdiagram.cli.report import emit
    from mechdiagram.integrations.embed import picture
    from mechdiagram.shared.config import project_settings
    from mechdiagram.shared.files import display_path

    if output is None:
        settings, base = project_settings(Path.cwd())
        output = Path(display_path(base / settings["output"])) if "output" in settings else Path("output")
    made = picture(spec, output=output, relative_to=relative_to, scenario=scenario, column=column)
    if not made.ok:
        emit(made.findings, {"message": "no picture: the spec has errors"}, "text")
        raise SystemExit(1)
    click.echo(made.html, nl=False)
