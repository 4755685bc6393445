"""Rules of the sequence view (``"layout": {"view": "sequence"}``) on what the spec says itself: ``layout.order``
names node targets, each once, and belongs to a sequence (rule ``layout-order``); a sequence takes none of the
grid's layout keys (rule ``sequence-layout``).

:func:`sequence_layout` reads the :class:`~mechdiagram.spec.validate.outline.Outline`.  The grid's keys a
sequence refuses are :data:`GRID_ONLY`, checked by name, so that a key the grid gains is refused by adding its
name there.
"""

from __future__ import annotations

from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.outline import Outline
from mechdiagram.spec.validate.references import id_hint
from mechdiagram.spec.validate.wording import quote

#: Layout keys that place nodes on a grid, each with what to do instead in a sequence: a sequence has no lanes
#: or cells (its participants are columns in ``order``) and no column headers (its rows are the steps).
GRID_ONLY = {
    "lanes": "the participants' order is layout.order",
    "positions": "the participants' order is layout.order",
    "columns": "a sequence's rows are its steps, numbered on the figure; say what a step stands for in its title",
}


def sequence_layout(ctx: RuleContext, outline: Outline) -> None:
    """Rules layout-order and sequence-layout (see the module docstring)."""
    sequence = outline.view == SEQUENCE
    if sequence:
        for key in outline.layout_keys:
            if key in GRID_ONLY:
                ctx.add(("layout", key), f"a sequence ({quote('view')}: {quote(SEQUENCE)}) has no {key}: "
                        f"{GRID_ONLY[key]}; remove {key}", "sequence-layout", key=True)
    if outline.order is None or (not sequence and "view" in outline.layout_keys):
        return
    if not sequence and outline.order and "view" not in outline.layout_keys:  # a wrong view: the schema's finding
        ctx.add(("layout", "order"), f"order sets the participants of a sequence; add {quote('view')}: "
                f"{quote(SEQUENCE)} to layout, or remove order", "layout-order", key=True)
        return
    nodes = outline.keys_of("node")
    unsure = {key for key, target in outline.target_map.items() if target.kind is None}
    seen: set[str] = set()
    for index, key in outline.order:
        if key in unsure:
            continue  # its kind finding says enough
        if key in seen:
            ctx.add(("layout", "order", index), f"{quote(key)} is listed more than once", "layout-order")
        elif key not in nodes:
            what = "a path" if key in outline.target_map else "not a target"
            hint = "" if key in outline.target_map else (id_hint(outline, key, "node")
                                                         or ctx.suggest(key, nodes, "node targets"))
            ctx.add(("layout", "order", index), f"{quote(key)} is {what}; order lists node targets, the "
                    f"participants{hint}", "layout-order")
        seen.add(key)
