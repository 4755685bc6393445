"""PNG stills and the animated GIF: sizes, determinism, delays, the shipped fonts, a missing extra."""

from __future__ import annotations

import io
import struct
from importlib import metadata

import pytest
from PIL import Image

from mechdiagram.layout import layout_scenario
from mechdiagram.render import raster
from mechdiagram.render.outputs import render_outputs, selected
from mechdiagram.shared.errors import RasterError
from mechdiagram.shared.model import spec_from_data
from support.specs import minimal_spec


def _pictures(data: dict) -> dict[str, bytes]:
    return render_outputs(spec_from_data(data), "tiny", [], selected({"png", "gif"}))


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_png_beside_each_still_one_pixel_per_user_unit():
    data = minimal_spec()
    files = _pictures(data)
    assert sorted(name for name in files if name.endswith(".png")) == [
        "tiny.main.frame-1.png", "tiny.main.frame-2.png", "tiny.main.poster.png"]
    spec = spec_from_data(data)
    layout = layout_scenario(spec, spec.scenarios[0])
    for name in ("tiny.main.poster.png", "tiny.main.frame-1.png", "tiny.main.frame-2.png"):
        assert _png_size(files[name]) == (round(layout.width), round(layout.height))
    # the steps differ from the poster and from each other
    assert len({files[n] for n in ("tiny.main.poster.png", "tiny.main.frame-1.png", "tiny.main.frame-2.png")}) == 3


def test_pictures_are_byte_identical_across_builds():
    first, second = _pictures(minimal_spec()), _pictures(minimal_spec())
    pictures = [name for name in first if name.endswith((".png", ".gif"))]
    assert len(pictures) == 4
    assert all(first[name] == second[name] for name in pictures)


def test_the_png_is_drawn_in_the_light_scheme_with_the_palette_colours():
    png = _pictures(minimal_spec())["tiny.main.frame-1.png"]
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = {f"#{r:02x}{g:02x}{b:02x}" for _, (r, g, b) in image.getcolors(1 << 20)}
    from mechdiagram.render import theme
    assert theme.LIGHT.bg in colours and theme.LIGHT.active_fill in colours  # step 1 highlights a box
    assert theme.DARK.bg not in colours


def test_gif_holds_each_step_for_its_duration_and_loops():
    data = minimal_spec()
    steps = data["scenarios"][0]["steps"]
    steps[0]["duration"], steps[1]["duration"] = 334, 2345
    steps.append(dict(steps[0], title="Three", duration=1005, active=["b0"]))
    gif = Image.open(io.BytesIO(_pictures(data)["tiny.main.gif"]))
    assert gif.n_frames == 3
    delays = []
    for k in range(gif.n_frames):
        gif.seek(k)
        delays.append(gif.info["duration"])
    assert delays == [raster.gif_delay_ms(d) for d in (334, 2345, 1005)] == [330, 2350, 1010]
    assert gif.info["loop"] == 0


@pytest.mark.parametrize(("ms", "delay"), [(334, 330), (335, 340), (1000, 1000), (600000, 600000)])
def test_gif_delays_round_to_the_nearest_centisecond(ms, delay):
    assert raster.gif_delay_ms(ms) == delay


def test_only_the_shipped_fonts_are_used():
    def text(family: str) -> str:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><rect width="120" height="30" '
                f'fill="#fff"/><text x="4" y="20" font-family="{family}" font-size="16">Kerning AVA</text></svg>')
    # a family the machine may have (Liberation Sans) falls back to the shipped DejaVu Sans
    assert raster.rasterise(text("Liberation Sans")) == raster.rasterise(text("DejaVu Sans"))
    assert raster.rasterise(text("serif")) == raster.rasterise(text("DejaVu Sans"))
    assert raster.rasterise(text("DejaVu Sans")) != raster.rasterise(text("DejaVu Sans").replace("AVA", "AVB"))


def test_a_code_label_is_drawn_in_the_shipped_monospace_face():
    """The code labels' font stack (``CODE_FONT_FAMILY``) resolves to the shipped DejaVu Sans Mono, as does the
    generic ``monospace``: "iiii" is as wide as "WWWW" there, as the layout measures it."""
    from mechdiagram.render.theme import CODE_FONT_FAMILY

    def ink(family: str, word: str) -> int:
        """How many columns of the picture of ``word`` in ``family`` have ink."""
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30"><rect width="120" height="30" '
               f'fill="#fff"/><text x="4" y="20" font-family=\'{family}\' font-size="16">{word}</text></svg>')
        image = Image.open(io.BytesIO(raster.rasterise(svg))).convert("L")
        return sum(any(image.getpixel((x, y)) < 128 for y in range(30)) for x in range(120))

    assert raster.rasterise(f"<svg xmlns='http://www.w3.org/2000/svg' width='60' height='20'><text y='15' "
                            f"font-family='{CODE_FONT_FAMILY}'>a_b</text></svg>") == \
        raster.rasterise("<svg xmlns='http://www.w3.org/2000/svg' width='60' height='20'><text y='15' "
                         "font-family='DejaVu Sans Mono'>a_b</text></svg>")
    # Monospaced: an "i" has serifs as wide as its cell allows, so four of them ink nearly as many columns as four
    # "W" (38 and 30 columns at 16 px); in DejaVu Sans 58 and 7.
    assert abs(ink(CODE_FONT_FAMILY, "WWWW") - ink(CODE_FONT_FAMILY, "iiii")) < 10
    assert ink("DejaVu Sans", "WWWW") - ink("DejaVu Sans", "iiii") > 30


def test_custom_properties_resolve_to_the_light_palette():
    from mechdiagram.render import theme
    assert raster.flat_colours("fill:var(--mech-bg);stroke:var(--mech-unknown)") == \
        f"fill:{theme.LIGHT.bg};stroke:var(--mech-unknown)"


def test_the_manifest_names_the_pinned_rasteriser():
    assert raster.rasteriser() == f"resvg-py {metadata.version('resvg-py')}, pillow {metadata.version('pillow')}"


def test_without_the_raster_extra_the_message_says_what_to_install(monkeypatch):
    real = metadata.version

    def version(name: str) -> str:
        if name == "resvg-py":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    raster._rasteriser.cache_clear()
    try:
        with pytest.raises(RasterError, match=r"need resvg-py: install the raster extra: pip install '\.\[raster\]' in a clone of mechdiagram, or pip install 'mechdiagram\[raster\]' from a package index that has it"):
            raster.rasteriser()
    finally:
        raster._rasteriser.cache_clear()
