"""Regenerate ``renderer/data/text-metrics.json`` from TrueType fonts.

The layout measures label text with these advance widths (in 1/1000 em) to wrap labels inside their
boxes.  The table holds, per character, the advance of DejaVu Sans Bold (Debian ``fonts-dejavu-core``,
the first face of the figures' font stack; a wide face, so that text measured with it also fits when a
reader's browser picks a narrower one) for Latin, Greek, Cyrillic, Hebrew and Arabic, and, per block,
the widest advance of Droid Sans Fallback (Debian ``fonts-droid-fallback``, a CJK face) for the CJK
blocks.  Arabic is measured in its isolated forms, which are never narrower than the joined ones.
Usage::

    python tools/font_metrics.py /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \\
        /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf

Needs ``fonttools`` (a development tool only; the package does not use it).
"""

import json
import sys
from pathlib import Path

from fontTools.ttLib import TTFont

#: Code point ranges measured character by character from the first font.
CHARACTERS = [(0x20, 0x24F), (0x370, 0x4FF), (0x590, 0x6FF), (0x2000, 0x206F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)]
#: Blocks measured as one width (the widest advance in the block) from the CJK font.
BLOCKS = [(0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x31FF), (0x3400, 0x4DBF),
          (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFF60)]


def _advances(path: str) -> tuple[dict[int, str], object, int, str]:
    font = TTFont(path)
    return font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm, Path(path).stem


def main(latin_path: str, cjk_path: str) -> None:
    cmap, hmtx, units, name = _advances(latin_path)
    widths = {}
    for low, high in CHARACTERS:
        for code in range(low, high + 1):
            glyph = cmap.get(code)
            if glyph is not None and hmtx[glyph][0] > 0:
                widths[chr(code)] = round(hmtx[glyph][0] * 1000 / units)
    cjk_cmap, cjk_hmtx, cjk_units, cjk_name = _advances(cjk_path)
    blocks = []
    for low, high in BLOCKS:
        found = [cjk_hmtx[cjk_cmap[c]][0] for c in range(low, high + 1) if c in cjk_cmap]
        if found:
            blocks.append([low, high, round(max(found) * 1000 / cjk_units)])
    out = Path(__file__).resolve().parent.parent / "renderer" / "data" / "text-metrics.json"
    payload = {"font": name, "blockFont": cjk_name, "unitsPerEm": 1000, "advance": widths, "blocks": blocks}
    out.write_text(json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
