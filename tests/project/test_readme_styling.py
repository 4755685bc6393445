"""README's "Styling" documents every custom property the output declares, with the defaults of
renderer/mechdiagram/render/theme.py."""

from __future__ import annotations

import re

from mechdiagram.api import render_player, render_spec
from mechdiagram.render import theme
from support.specs import MECHANISMS, ROOT


def _table() -> dict[str, tuple[str, str]]:
    section = (ROOT / "README.md").read_text("utf-8").split("### Styling", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(--mech-[a-z-]+)` \| [^|]+ \| `([^`]+)` \| (?:`([^`]+)`|same) \|$", section, re.M)
    return {name: (light, dark or light) for name, light, dark in rows}


def _declared() -> set[str]:
    files = render_spec(MECHANISMS / "prefill-decode.mechanism.json", source_root=ROOT).files
    css = files["prefill-decode.fragment.html"].decode("utf-8")  # the drawing's
    css += b"".join(render_player().values()).decode("utf-8")  # the player's style sheet
    return set(re.findall(r"[{;](--mech-[a-z-]+):", css))


def test_every_declared_custom_property_is_documented_with_its_defaults():
    table = _table()
    declared = _declared()
    assert declared and declared == set(table)
    for name, light in theme.LIGHT.custom_properties():
        dark = dict(theme.DARK.custom_properties())[name]
        assert table[name] == (light, dark), name
    assert table["--mech-font"] == (theme.FONT_FAMILY, theme.FONT_FAMILY)
    for name, value in theme.UI_SIZES:
        assert table[name] == (value, value)
    assert {"--mech-ui-accent", "--mech-ui-focus", "--mech-ui-bg"} <= set(table)
