"""Pictures for places that take no SVG: PNG stills and the animated GIF, made without a browser.

SVG goes to PNG through resvg (the ``resvg-py`` wheel), with only the fonts the
package ships (``renderer/mechdiagram/fonts``: DejaVu Sans and DejaVu Sans Mono, regular and bold) and no
system font, so the pixels do not depend on the machine; the GIF is assembled by
Pillow.  Both are the ``raster`` extra, pinned to one version each: their names
and versions (:func:`rasteriser`) go into the manifest beside every picture, so
that ``check`` can tell a rasteriser upgrade from a stale build.  Sizes are
CSS px at scale 1 (one pixel per SVG user unit).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
from functools import lru_cache
from importlib import resources

from mechdiagram.render import theme
from mechdiagram.shared.errors import RasterError

#: The font files the rasteriser may use (package data under ``renderer/mechdiagram/fonts``).
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")
#: The family every generic or unknown family falls back to, but ``monospace``.
FONT_FAMILY = "DejaVu Sans"
#: The family of the generic ``monospace`` (the end of a code label's font stack).
MONO_FAMILY = "DejaVu Sans Mono"
#: The PyPI distributions that make pictures, in the order :func:`rasteriser` names them.
DISTRIBUTIONS = ("resvg-py", "pillow")
#: How to get them.
INSTALL_HINT = ("install the raster extra: pip install '.[raster]' in a clone of mechdiagram, "
                "or pip install 'mechdiagram[raster]' from a package index that has it")

_CUSTOM_PROPERTY = re.compile(r"var\((--mech-[a-z-]+)\)")
_KEEP = contextlib.ExitStack()  # keeps the font files extracted for the life of the process (zip installs)


def rasteriser() -> str:
    """The names and versions of the rasteriser, as the manifest records them: ``"resvg-py 0.5.0, pillow 13.0.0"``.
    Raises :class:`~mechdiagram.shared.errors.RasterError` when the ``raster`` extra is not installed."""
    return _rasteriser()


@lru_cache(maxsize=1)
def _rasteriser() -> str:
    from importlib import metadata  # 15 ms to import: only builds that write pictures or check them pay it

    try:
        return ", ".join(f"{name} {metadata.version(name)}" for name in DISTRIBUTIONS)
    except metadata.PackageNotFoundError as exc:
        raise RasterError(f"PNG and GIF output need {exc.name}: {INSTALL_HINT}") from exc


@lru_cache(maxsize=1)
def fonts_digest() -> str:
    """SHA-256 (hex) over the shipped fonts the pictures are drawn with (``renderer/mechdiagram/fonts``), for the
    build key
    of the picture formats."""
    digest = hashlib.sha256()
    folder = resources.files("mechdiagram").joinpath("fonts")
    for name in FONT_FILES:
        data = folder.joinpath(name).read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _font_paths() -> list[str]:
    folder = resources.files("mechdiagram").joinpath("fonts")
    return [str(_KEEP.enter_context(resources.as_file(folder.joinpath(name)))) for name in FONT_FILES]


def flat_colours(svg: str) -> str:
    """``svg`` with every ``var(--mech-…)`` replaced by its light-scheme colour
    (:data:`mechdiagram.render.theme.LIGHT`): resvg does not read CSS custom properties.  A drawing that carries
    its colours as presentation attributes passes unchanged."""
    values = dict(theme.LIGHT.custom_properties())
    return _CUSTOM_PROPERTY.sub(lambda match: values.get(match.group(1), match.group(0)), svg)


def rasterise(svg: str) -> bytes:
    """The PNG of an SVG document or element string, one pixel per user unit, in the light scheme.

    Deterministic: the same SVG and rasteriser version give the same bytes
    on any machine.  Raises :class:`~mechdiagram.shared.errors.RasterError` when the
    ``raster`` extra is missing or resvg refuses the drawing.
    """
    rasteriser()
    import resvg_py

    try:
        data = resvg_py.svg_to_bytes(
            svg_string=flat_colours(svg), skip_system_fonts=True, font_files=_font_paths(),
            font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY, serif_family=FONT_FAMILY,
            monospace_family=MONO_FAMILY, cursive_family=FONT_FAMILY, fantasy_family=FONT_FAMILY)
    except ValueError as exc:
        raise RasterError(f"the rasteriser refused a drawing: {exc}") from exc
    return bytes(data)


def gif_delay_ms(duration: int) -> int:
    """A step's ``duration`` (ms) as a GIF delay: GIF counts centiseconds, so the duration is rounded to
    the nearest 10 ms, halves up (334 ms is held for 330 ms, 335 ms for 340 ms)."""
    return (duration + 5) // 10 * 10


def gif(pngs: list[bytes], durations: list[int]) -> bytes:
    """An animated GIF of ``pngs`` (one PNG a step, all the same size), frame K held for
    ``gif_delay_ms(durations[K])`` and the whole looping forever.

    Each frame gets its own 256-colour palette (median cut, no dithering), so
    the bytes depend only on the pixels.  Pillow merges a frame identical to the
    one before it into one frame held for both durations.  Raises
    :class:`~mechdiagram.shared.errors.RasterError` without the ``raster`` extra.
    """
    rasteriser()
    from PIL import Image

    frames = [Image.open(io.BytesIO(data)).convert("RGB").quantize(
        colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for data in pngs]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                   duration=[gif_delay_ms(d) for d in durations], loop=0)
    return out.getvalue()
