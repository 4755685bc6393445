"""Pictures through the command line: selected by flags or ``formats``, covered by the manifest and ``check``."""

from __future__ import annotations

import json

import pytest

from mechdiagram.render import raster
from support.cli import invoke

pytestmark = pytest.mark.slow  # each build rasterises a 7-step spec


def _build(*flags: str):
    return invoke("build", "specs", "-o", "out", "--source-root", "specs", *flags)


def _check(*flags: str):
    return invoke("check", "specs", "-o", "out", "--source-root", "specs", *flags)


def test_png_flag_writes_pictures_that_the_manifest_records_with_the_rasteriser(project):
    assert _build("--png").exit_code == 0
    manifest = json.loads((project / "out" / "manifest.json").read_text("utf-8"))
    records = {item["path"]: item for item in manifest["specs"][0]["outputs"]}
    pngs = sorted(name for name in records if name.endswith(".png"))
    assert pngs == ["reference.one-request.frame-1.png", "reference.one-request.frame-2.png",
                    "reference.one-request.frame-3.png", "reference.one-request.frame-4.png",
                    "reference.one-request.frame-5.png", "reference.one-request.frame-6.png",
                    "reference.one-request.frame-7.png", "reference.one-request.poster.png"]
    assert all(records[name]["rasteriser"] == raster.rasteriser() for name in pngs)
    assert "rasteriser" not in records["reference.one-request.svg"]
    assert _check("--png").exit_code == 0


def test_check_reports_a_stale_png(project):
    assert _build("--png").exit_code == 0
    png = project / "out" / "reference.one-request.frame-2.png"
    png.write_bytes(png.read_bytes() + b"\0")
    result = _check("--png")
    assert result.exit_code == 1
    assert ("out/reference.one-request.frame-2.png: error: differs from a fresh build (output of "
            "specs/reference.mechanism.json): run mechdiagram build -o out --source-root specs --png specs/reference.mechanism.json [stale-output]") in result.stderr.splitlines()


def test_check_names_a_rasteriser_upgrade(project):
    assert _build("--png").exit_code == 0
    manifest_path = project / "out" / "manifest.json"
    manifest = json.loads(manifest_path.read_text("utf-8"))
    for item in manifest["specs"][0]["outputs"]:
        if "rasteriser" in item:
            item["rasteriser"] = "resvg-py 0.0.1, pillow 1.0.0"  # as an older build recorded it
    manifest_path.write_text(json.dumps(manifest, indent=2), "utf-8")
    png = project / "out" / "reference.one-request.poster.png"
    png.write_bytes(png.read_bytes()[:-1] + b"\1")  # the old rasteriser's pixels
    result = _check("--png")
    assert result.exit_code == 1
    line = next(line for line in result.stderr.splitlines() if line.startswith("out/reference.one-request.poster.png"))
    assert f"rasterised by resvg-py 0.0.1, pillow 1.0.0, this build uses {raster.rasteriser()}" in line
    assert "run mechdiagram build -o out --source-root specs --png specs/reference.mechanism.json to redraw the pictures" in line


def test_formats_in_pyproject_select_the_optional_formats_and_flags_win(project):
    (project / "pyproject.toml").write_text('[tool.mechdiagram]\nformats = ["svg", "html", "frames", "gif"]\n',
                                            "utf-8")
    assert _build().exit_code == 0
    names = sorted(p.name for p in (project / "out").iterdir())
    assert "reference.one-request.frame-7.svg" in names and "reference.one-request.gif" in names
    assert not [n for n in names if n.endswith(".png")]
    assert _check().exit_code == 0
    assert _build("--no-gif", "--png").exit_code == 0
    names = sorted(p.name for p in (project / "out").iterdir())
    assert "reference.one-request.gif" not in names  # retired: recorded, unchanged, no longer produced
    assert "reference.one-request.poster.png" in names and "reference.one-request.frame-1.svg" in names


def test_an_unknown_format_name_is_a_clear_error(project):
    (project / "pyproject.toml").write_text('[tool.mechdiagram]\nformats = ["svg", "jpeg"]\n', "utf-8")
    result = _build()
    assert result.exit_code == 1
    assert "[tool.mechdiagram] formats has unknown format 'jpeg'; known formats: svg, frames, png, gif, html" \
        in result.stderr
