"""Colour schemes of the figure, one per ``prefers-color-scheme``: the one palette of the SVG, the
player's style sheet and the standalone page; the drawing's font and the HTML figure's sizes.

Each value reaches the output as a CSS custom property (``--mech-*`` on the SVG, ``--mech-ui-*`` on the
HTML figure) that an embedding page may override; the README's "Styling" lists them.

Pairs are chosen to meet WCAG 2.2 SC 1.4.3 (text at least 4.5:1) and SC 1.4.11
(borders, arrows and the active-state indicator at least 3:1); the test suite
measures them on the rendered output.  The active state also differs from the
normal one in shape (a double outline and bold label), not in colour alone
(SC 1.4.1).
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import asdict


class Palette(Struct, frozen=True):
    """One colour scheme; every field is a CSS ``#rrggbb`` colour."""

    bg: str
    text: str
    muted: str
    node_fill: str
    node_stroke: str
    active_fill: str
    active_text: str
    active_stroke: str
    dim_stroke: str
    path: str
    active_path: str
    panel_fill: str
    lane_fill: str

    def custom_properties(self) -> list[tuple[str, str]]:
        """``[("--mech-bg", "#ffffff"), ...]`` in field order."""
        return [(f"--mech-{name.replace('_', '-')}", value) for name, value in asdict(self).items()]


LIGHT = Palette(
    bg="#ffffff", text="#1f2328", muted="#57606a", node_fill="#f6f8fa", node_stroke="#6e7781",
    active_fill="#0b4a8b", active_text="#ffffff", active_stroke="#0b4a8b", dim_stroke="#6e7781",
    path="#57606a", active_path="#0b4a8b", panel_fill="#f6f8fa", lane_fill="#f0f4f8",
)
DARK = Palette(
    bg="#0d1117", text="#e6edf3", muted="#9198a1", node_fill="#1c2128", node_stroke="#8b949e",
    active_fill="#79c0ff", active_text="#0d1117", active_stroke="#79c0ff", dim_stroke="#6e7681",
    path="#9198a1", active_path="#79c0ff", panel_fill="#161b22", lane_fill="#1c2433",
)


#: The drawing's font stack (``--mech-font``).  Boxes are sized with DejaVu Sans Bold's advance widths
#: (:mod:`mechdiagram.layout.measure`), so a wider font can overflow them.
FONT_FAMILY = '"DejaVu Sans",Verdana,"Segoe UI",system-ui,sans-serif'
#: The font stack of a code label (``"text": "code"``): DejaVu Sans Mono first, the face its boxes are sized with
#: (shipped with the package, as DejaVu Sans is); the faces after it are monospaced and no wider (0.6 em or less).
CODE_FONT_FAMILY = '"DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono",monospace'

#: The space between the edge of the standalone page and its content, and inside the HTML figure's edge:
#: 1rem, down to .5rem on a phone (2.5 % of the viewport's width), where every pixel goes to the drawing.
EDGE_SPACE = "clamp(.5rem,2.5vw,1rem)"

#: The longest line of prose: the figure's caption and the standalone page's summary under its heading
#: (about 70 characters, within the 45 to 75 that typographers give a comfortable line).
MEASURE = "70ch"

#: The HTML figure's sizes, as (custom property, default): its largest width, its corners, its padding, the
#: longest line of its prose, and how far below the top of the view a sequence's heads strip sticks (a site with a
#: fixed header sets its height).
#: The HTML figure's largest width, in rem of 16 CSS px.
MAX_WIDTH_REM = 80

UI_SIZES = (("--mech-ui-max-width", f"{MAX_WIDTH_REM}rem"), ("--mech-ui-radius", "8px"),
            ("--mech-ui-padding", EDGE_SPACE), ("--mech-ui-measure", MEASURE), ("--mech-heads-top", "0px"))


#: The colour of each mark (a step's ``marks``) in the light and the dark scheme, as (light, dark).  Each is at
#: least 4.5:1 against its scheme's background (SC 1.4.11 asks 3:1 of graphics) and carries its symbol in the
#: background's colour at the same contrast; the symbol, not the colour, tells the marks apart (SC 1.4.1).
MARK_COLOURS: dict[str, tuple[str, str]] = {
    "new": ("#1a7f37", "#3fb950"),
    "changed": ("#9a6700", "#d29922"),
    "removed": ("#6e7781", "#9198a1"),
    "lost": ("#bc4c00", "#f0883e"),
    "error": ("#cf222e", "#ff7b72"),
    "waiting": ("#8250df", "#d2a8ff"),
    "done": ("#1b7c83", "#39c5cf"),
}


def mark_field(mark: str) -> str:
    """The colour field name of ``mark`` (``mark_new``): a placeholder the drawing's colouring fills in, as it
    fills a :class:`Palette` field's."""
    return f"mark_{mark}"


def mark_colours(palette: Palette) -> dict[str, str]:
    """The mark colours that go with ``palette``, by field name (:func:`mark_field`): the dark ones with
    :data:`DARK`, the light ones with any other."""
    dark = palette == DARK
    return {mark_field(mark): pair[1] if dark else pair[0] for mark, pair in MARK_COLOURS.items()}
