"""The text metrics module is what ``tools/font_metrics.py`` writes from the fonts it names."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mechdiagram.layout import text_metrics
from mechdiagram.layout.measure import text_width

ROOT = Path(__file__).resolve().parents[2]
FONTS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
         Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
         Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"))


def test_the_metrics_module_is_the_tables_the_tool_writes(tmp_path):
    """Run the tool on a copy of the repository's tools/ and renderer/mechdiagram/layout/text_metrics.py; with the Debian
    fonts (fonts-dejavu-core, fonts-droid-fallback) and fonttools it writes the committed module again."""
    if importlib.util.find_spec("fontTools") is None or not all(font.is_file() for font in FONTS):
        pytest.skip("fonttools or the Debian fonts are not installed")
    (tmp_path / "tools").mkdir()
    (tmp_path / "renderer" / "mechdiagram" / "layout").mkdir(parents=True)
    shutil.copy(ROOT / "tools" / "font_metrics.py", tmp_path / "tools")
    subprocess.run([sys.executable, str(tmp_path / "tools" / "font_metrics.py"), *map(str, FONTS)], check=True,
                   timeout=120)
    written = (tmp_path / "renderer" / "mechdiagram" / "layout" / "text_metrics.py").read_text("utf-8")
    assert written == (ROOT / "renderer" / "mechdiagram" / "layout" / "text_metrics.py").read_text("utf-8")


def test_the_tables_measure_latin_arabic_and_cjk():
    assert text_metrics.UNITS_PER_EM == 1000
    assert text_metrics.ADVANCES["m"] > text_metrics.ADVANCES["i"] > 0
    assert "\u0628" in text_metrics.ADVANCES  # Arabic beh, isolated form measured
    assert any(low <= ord("字") <= high for low, high, _ in text_metrics.BLOCKS)
    # 14 px DejaVu Sans Bold "m" (1042/1000 em) times the 1.08 safety factor
    assert text_width("m", 14.0) == pytest.approx(text_metrics.ADVANCES["m"] / 1000 * 14.0 * 1.08, rel=1e-6)


def test_keep_together_joins_the_runs_that_wrapping_keeps_and_nothing_else():
    from mechdiagram.layout.measure import keep_together

    assert keep_together("queue 18 ms, prefill 74 ms") == "queue 18\u00a0ms, prefill 74\u00a0ms"
    assert keep_together("fill page 7") == "fill page\u00a07"
    assert keep_together(" 2 GiB\nand ms ") == " 2\u00a0GiB\nand ms "  # "and ms": no number before the unit
    # In prose a number also keeps the word it counts and the name it numbers ("8 pages", "Token 32"):
    assert keep_together("page 7 of 9 pages") == "page 7\u00a0of 9\u00a0pages"  # "7" does not end the text
    assert keep_together("fill Token 32 now") == "fill Token\u00a032\u00a0now"
    assert keep_together("2 × layers") == "2 × layers"
    assert keep_together("7") == "7" and keep_together("") == ""


def test_a_short_bracket_stays_on_one_line_in_boxes_and_prose():
    """A new user's "Cache (in memory)" came out as "Cache (in / memory)": the balancing tried widths narrower
    than the bracket, which the box's full width holds whole."""
    from mechdiagram.layout.measure import _groups, keep_together
    from mechdiagram.layout.placement import box_lines

    assert box_lines("Cache (in memory)") == ("Cache", "(in memory)")
    assert keep_together("Cache (in memory) here") == "Cache (in\u00a0memory) here"
    # At most BRACKET_WORDS words: a longer aside may break anywhere.
    assert _groups(["a", "(b", "c", "d)", "e", "(f", "g", "h", "i)", "j"]) == [["a"], ["(b", "c", "d)"], ["e"], ["(f"], ["g"], ["h"],
                                                          ["i)"], ["j"]]


def test_a_bracket_too_wide_for_a_line_breaks_between_its_runs_not_inside_one():
    """A new user's "Retry queue (30 s delay)" came out as "queue (30 / s delay)" in a middle layout's box: the
    bracket, too wide for the line, was broken word by word, between a number and its unit.  It breaks between the
    runs it holds ("(30 s" and "delay)"); one too wide alone still breaks between its words."""
    from mechdiagram.layout.measure import _runs, text_width, wrap

    text = "Retry queue (30 s delay)"
    width = text_width("queue (30", 14.0) + 1  # the old second line fits: the bracket does not
    assert text_width("(30 s delay)", 14.0) > width
    lines = wrap(text, width, 14.0)
    assert "(30 s" in lines and not any(line.endswith("(30") for line in lines)
    assert " ".join(lines) == text
    assert [inner[0] for inner in _runs(text)[2][2]] == ["(30 s", "delay)"]
    assert wrap("x (30 s)", text_width("(30", 14.0) + 1, 14.0) == ["x", "(30", "s)"]  # "(30 s)" too wide: its words


@pytest.mark.parametrize(("word", "number"), [
    ("512", True), ("(~2.5", True), ("1,024", True), ("90%", True), ("[≈3", True), ("-7.", True), ("±0", True),
    ("", False), ("%", False), ("(", False), ("~", False), ("a1", False), ("1a", False), ("1%%", False),
    ("((1", False), ("+-1", False), ("٣", False), ("1 2", False),
])
def test_a_number_as_prose_writes_one(word, number):
    from mechdiagram.layout.measure import _number

    assert _number(word) is number


def test_a_number_with_a_colon_stays_with_the_word_it_numbers():
    from mechdiagram.layout.measure import keep_together
    from mechdiagram.layout.placement import box_lines

    assert box_lines("forward 1: prefill") == ("forward 1:", "prefill")  # not "forward / 1: prefill"
    assert box_lines("page 7: positions 97–112") == ("page 7:", "positions", "97–112")
    assert keep_together("then step 3: done") == "then step\u00a03: done"
    assert keep_together("ratio 16:9 or 1:") == "ratio 16:9 or\u00a01:" and keep_together("at 10000: x") == "at 10000: x"
