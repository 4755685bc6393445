"""Rule ``group``: the top-level ``groups`` of a spec (labelled enclosures around node targets).

What :func:`group_rules` checks, each a located finding of rule ``group``:

* a group's key is not a target's key (group and target keys share one namespace: a step's ``active`` names
  either);
* every member names a node target: not an unknown key (with the key meant suggested), not a path, and not
  another group (groups do not nest);
* a node is a member of one group at most, and is listed once in it (the schema's ``uniqueItems`` says the
  second);
* a lane grid (every node key ``<lane><index>``, no ``view``) has no groups: its lanes already group its boxes,
  in tinted bands with their names (``layout.lanes``);
* in a sequence whose ``layout.order`` lists a group's members, nothing comes between them (the heads' band
  spans the members' columns).

It reads the :class:`~mechdiagram.spec.validate.outline.Outline`, so it runs beside the schema.
"""

from __future__ import annotations

from mechdiagram.shared.model import parse_lane_key
from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.outline import Outline
from mechdiagram.spec.validate.references import id_hint
from mechdiagram.spec.validate.wording import quote

RULE = "group"


def _lane_grid(outline: Outline) -> bool:
    """Whether the spec is drawn as a lane grid: no view, and every node key a ``<lane><index>`` key."""
    nodes = outline.keys_of("node")
    return outline.view is None and bool(nodes) and all(parse_lane_key(key) is not None for key in nodes)


def group_rules(ctx: RuleContext, outline: Outline) -> None:
    """Rule ``group`` (see the module docstring)."""
    if not outline.groups:
        return
    if _lane_grid(outline):
        ctx.add(("groups",), "a lane grid has no groups: its lanes group its boxes, each lane a tinted band with its "
                "name; name the lanes in layout.lanes ({\"key\": \"kv\", \"label\": \"KV cache\"}) and remove "
                "groups, or give the nodes keys that are not <lane><index> for a layered graph", RULE, key=True)
        return
    targets = outline.target_map
    nodes = outline.keys_of("node")
    owner: dict[str, str] = {}
    for key, group in outline.groups.items():
        if key in targets:
            ctx.add(("groups", key), f"{quote(key)} is already a target's key; group and target keys share one "
                    "namespace (a step's active names either): rename the group", RULE, key=True)
        for i, ref in group.members or ():
            where = ("groups", key, "members", i)
            if ref in outline.groups:
                ctx.add(where, f"{quote(ref)} is a group; groups do not nest: list the nodes of {quote(ref)} "
                        f"in one of the two groups", RULE)
            elif ref in targets and targets[ref].kind == "path":
                ctx.add(where, f"{quote(ref)} is a path; a group's members are node targets", RULE)
            elif ref not in targets:
                hint = id_hint(outline, ref, "node") or ctx.suggest(ref, nodes, "node targets")
                ctx.add(where, f"{quote(ref)} is not a target{hint}", RULE)
            elif ref in owner and owner[ref] != key:
                ctx.add(where, f"{quote(ref)} is already a member of group {quote(owner[ref])}; a node belongs to "
                        "one group at most: remove it from one of them", RULE)
            else:
                owner.setdefault(ref, key)
    if outline.view == SEQUENCE and outline.order:
        _sequence_order(ctx, outline, owner)


def _sequence_order(ctx: RuleContext, outline: Outline, owner: dict[str, str]) -> None:
    """A group's members listed in ``layout.order`` come one after another (the band over their heads)."""
    listed = [(i, key) for i, key in outline.order or ()]
    for group in outline.groups:
        places = [n for n, (_, key) in enumerate(listed) if owner.get(key) == group]
        if len(places) < 2:
            continue
        between = [key for _, key in listed[places[0]:places[-1] + 1] if owner.get(key) != group]
        if between:
            index = listed[places[-1]][0]
            ctx.add(("layout", "order", index), f"{quote(between[0])} comes between the members of group "
                    f"{quote(group)}; list a group's members one after another, so that its band spans their "
                    "heads", RULE)
