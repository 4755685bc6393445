"""Regenerate ``renderer/data/text-metrics.json`` from a TrueType font.

The layout measures label text with these advance widths (in 1/1000 em) to
wrap labels inside their boxes.  The committed table comes from DejaVu Sans
Bold, a wide sans-serif face, so that text measured with it also fits when a
reader's browser picks a narrower font.  Usage::

    python tools/font_metrics.py /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf

Needs ``fonttools`` (a development tool only; the package does not use it).
"""

import json
import sys
from pathlib import Path

from fontTools.ttLib import TTFont


def main(font_path: str) -> None:
    font = TTFont(font_path)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    units = font["head"].unitsPerEm
    widths = {}
    for code in range(0x20, 0x250):
        glyph = cmap.get(code)
        if glyph is not None:
            widths[chr(code)] = round(hmtx[glyph][0] * 1000 / units)
    out = Path(__file__).resolve().parent.parent / "renderer" / "data" / "text-metrics.json"
    payload = {"font": Path(font_path).stem, "unitsPerEm": 1000, "advance": widths}
    out.write_text(json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
