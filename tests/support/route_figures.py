"""The figures the route rules (issue 27) are measured on, and the faults each may keep: the gallery, the reference
spec, the topologies of :mod:`support.topologies` and :mod:`support.edge_topologies`.  Shared by the rules' test on
the layout (``tests/layout/test_route_rules_figures.py``) and their measurement in chromium
(``tests/browser/test_browser_route_rules.py``)."""

from __future__ import annotations

import json

from support.edge_topologies import edge_topologies
from support.reference_spec import reference_spec
from support.specs import MECHANISMS
from support.topologies import topologies

#: The layouts of a figure, as the HTML figure names them (``mech-wide`` ...): the wide one, the phone's, the
#: middle and upper middle ones (issue 26).
LAYOUTS = ("wide", "narrow", "middle", "upper")


def route_figures() -> dict[str, dict]:
    """Every figure's spec by name."""
    figures = topologies() | edge_topologies() | {"reference": reference_spec()}
    figures |= {p.name.removesuffix(".mechanism.json"): json.loads(p.read_text("utf-8"))
                for p in sorted(MECHANISMS.glob("*.mechanism.json"))}
    return figures


#: The faults left, by (figure, layout): crossings of dense graphs (the narrow column's tracks cross where their
#: spans interleave), an arrow of a lane grid from one lane to another around a box between (three bends) and a skip
#: within a lane whose sides both boxes' other arrows take (three).  A lane grid too wide to transpose keeps its wide
#: grid as its narrow variant, and the wide entry's allowance.  ``validate`` warns about each (rule ``route``).
KNOWN: dict[tuple[str, str], dict[str, int]] = {
    ("forty", "narrow"): {"crossing": 5},  # 242 in layer-by-layer order, before its column was depth first
    ("grid-skips", "wide"): {"crossing": 1, "bends": 1},
    ("lanes-with-skips", "wide"): {"crossing": 1, "bends": 2},
    ("serving-stack", "narrow"): {"crossing": 2},
}


def allowed(name: str, layout: str, same_as_wide: bool) -> dict[str, int]:
    """The faults of each kind that ``name``'s ``layout`` may keep: :data:`KNOWN`'s, or the wide layout's where
    that layout is the wide one's drawing (``same_as_wide``: a lane grid too wide to transpose, whose narrow variant
    is its wide grid; the upper middle one of a spread wide one, its natural drawing)."""
    return KNOWN.get((name, "wide" if same_as_wide else layout), {})
