"""Cross-reference rules: every name a spec uses names something it defines (see :data:`RULES`).

They read the typed :class:`~mechdiagram.spec.validate.outline.Outline`, so they run
beside the schema and report on a spec that is wrong in other ways too.
"""

from __future__ import annotations

import unicodedata

from mechdiagram.shared.model import MARKS
from mechdiagram.spec.validate.context import RuleContext, Where
from mechdiagram.spec.validate.limits import limit_messages
from mechdiagram.spec.validate.outline import Outline, OutlineScenario, Ref, TargetKind
from mechdiagram.spec.validate.wording import quote


def target_ids(ctx: RuleContext, outline: Outline) -> None:
    """Rule duplicate-target-id: target ids are unique."""
    owner: dict[str, str] = {}
    for key, target in outline.target_map.items():
        if target.id is None:
            continue
        if target.id in owner:
            ctx.add(("targets", key, "id"), f"id {quote(target.id)} is already the id of target "
                    f"{quote(owner[target.id])}; target ids must be unique", "duplicate-target-id")
        else:
            owner[target.id] = key


def target_kinds(ctx: RuleContext, outline: Outline) -> None:
    """Rule target-kind: a target of kind node has no from and to (they make it a path), and one of kind path
    without both is a box whose kind is wrong."""
    for key, target in outline.target_map.items():
        if target.path_like:
            ctx.add(("targets", key, "kind"), 'kind is "node", but the target has from and to, as a path does: '
                    'write "kind": "path", or remove from and to', "target-kind")
        elif target.node_like:
            ctx.add(("targets", key, "kind"), 'kind is "path", but the target has no from and to, as a box: '
                    'write "kind": "node", or add from and to', "target-kind")


def path_endpoints(ctx: RuleContext, outline: Outline) -> None:
    """Rule path-endpoint: a path's from and to name node targets, two different ones but in a sequence (a
    message to itself)."""
    targets = outline.target_map
    nodes = outline.keys_of("node")
    for key, target in targets.items():
        if target.kind != "path":
            continue
        for end, ref in (("from", target.source), ("to", target.dest)):
            if ref is None or ref in nodes:
                continue
            if ref in targets and targets[ref].kind != "path":
                continue  # a target of unknown kind: its kind finding says enough
            if ref in targets:
                message = f"{end} {quote(ref)} is a path; a path runs between node targets"
            else:
                hint = id_hint(outline, ref, "node") or ctx.suggest(ref, nodes, "node targets")
                message = f"{end} {quote(ref)} is not a node target{hint}"
            ctx.add(("targets", key, end), message, "path-endpoint")
        # A sequence draws a message to its own sender as a loop; other views have no way to draw it (a view the
        # schema refuses may be meant as the sequence: its finding says enough).
        if target.source is not None and target.source == target.dest and "view" not in outline.layout_keys:
            ctx.add(("targets", key, "to"), f"to {quote(target.dest)} is also the path's from; a path runs "
                    "between two different nodes", "path-endpoint")


def id_hint(outline: Outline, ref: str, kind: TargetKind | None = None) -> str | None:
    """``'; it is the id of target "kv7": write the key "kv7" instead'`` when ``ref`` is the id of a target (of
    ``kind``, the kind the place takes, when given), not a key, and the same for a target's label."""
    key = outline.key_with_id(ref, kind)
    if key is not None:
        return f"; it is the id of target {quote(key)}: write the key {quote(key)} instead"
    key = outline.key_with_label(ref, kind)
    return None if key is None else f"; it is the label of target {quote(key)}: write the key {quote(key)} instead"


def _group_hint(outline: Outline, ref: str) -> str | None:
    """The unknown-target finding's hint where ``ref`` is a group's key in a list that takes targets alone (a
    scenario's ``unselected``): its members to list instead."""
    group = outline.groups.get(ref)
    members = [key for _, key in group.members or () if outline.targets and key in outline.targets] if group else []
    if not members:
        return None
    return f"; it is a group: list its members instead ({', '.join(quote(key) for key in members)})"


def _unknown_refs(ctx: RuleContext, outline: Outline, base: Where, refs: tuple[Ref, ...] | None,
                  kind: TargetKind | None = None, groups: bool = False) -> None:
    """Rule unknown-target for a list of target keys (active: of ``kind`` node, or a group's key with
    ``groups``; unselected: any target)."""
    if refs is None or outline.targets is None:
        return  # without a targets object every reference would be reported; the schema finding says it all
    valid = list(outline.targets) + (list(outline.groups) if groups else [])
    for i, ref in refs:
        if ref not in valid:
            hint = _group_hint(outline, ref) or id_hint(outline, ref, kind) or ctx.suggest(ref, valid, "targets")
            ctx.add(base + (i,), f"{quote(ref)} is not a target{hint}", "unknown-target")


def _state_keys(ctx: RuleContext, outline: Outline, base: Where, keys: tuple[str, ...] | None) -> None:
    """Rule unknown-state-key: state and initial keys are keys of stateLabels."""
    if keys is None or outline.state_labels is None:
        return  # without a stateLabels object every key would be reported; the schema finding says it all
    labels = list(outline.state_labels)
    for key in keys:
        if key not in labels:
            ctx.add(base + (key,), f"{quote(key)} is not a stateLabels key"
                    f"{ctx.suggest(key, labels, 'stateLabels keys')}", "unknown-state-key", key=True)


def _scenario_ids(ctx: RuleContext, outline: Outline) -> None:
    """Rule duplicate-scenario-id: scenario ids are unique, ignoring case (they name files)."""
    seen: dict[str, OutlineScenario] = {}
    for scenario in outline.scenarios:
        if scenario.id is None:
            continue
        folded = scenario.id.lower()  # Main and main collide on many file systems
        first = seen.get(folded)
        if first is None:
            seen[folded] = scenario
            continue
        same = "is already" if first.id == scenario.id else "differs only in case from"
        ctx.add(("scenarios", scenario.index, "id"), f"scenario id {quote(scenario.id)} {same} the id of scenario "
                f"{first.index + 1} (/scenarios/{first.index}); scenario ids must be unique, ignoring case",
                "duplicate-scenario-id")


def _step_paths(ctx: RuleContext, outline: Outline, base: Where, refs: tuple[Ref, ...] | None) -> None:
    """Rules not-a-path and unknown-target for a step's paths."""
    if refs is None or outline.targets is None:
        return
    targets = outline.targets
    paths = outline.keys_of("path")
    for i, ref in refs:
        if ref in paths:
            continue
        if ref in targets and targets[ref].kind != "node":
            continue  # a target of unknown kind: its kind finding says enough
        if ref in targets:
            ctx.add(base + ("paths", i), f"{quote(ref)} is a node; paths lists path targets"
                    f"{ctx.suggest(ref, paths, 'path targets')}", "not-a-path")
        else:
            hint = id_hint(outline, ref, "path") or ctx.suggest(ref, paths, "path targets")
            ctx.add(base + ("paths", i), f"{quote(ref)} is not a target{hint}", "unknown-target")


def _label_keys(ctx: RuleContext, outline: Outline, base: Where, keys: tuple[str, ...] | None) -> None:
    """Rules unknown-target and label-change for a step's ``labels``: each key names a target (a node or a path)
    that has a ``label`` of its own, which the poster shows before any step changes it (a group's label does not
    change: label-change says so)."""
    if keys is None or outline.targets is None:
        return  # without a targets object every key would be reported; the schema finding says it all
    valid = list(outline.targets)
    for key in keys:
        target = outline.target_map.get(key)
        if target is None and key in outline.groups:
            instead = ("a message's label (a path target)" if outline.view == "sequence"
                       else "a member's label")
            ctx.add(base + (key,), f"{quote(key)} is a group, whose label stays as its \"groups\" entry gives it; "
                    f"labels change targets: change {instead}, or say the new value in the state panel",
                    "label-change", key=True)
        elif target is None:
            hint = id_hint(outline, key) or ctx.suggest(key, valid, "targets")
            ctx.add(base + (key,), f"{quote(key)} is not a target{hint}", "unknown-target", key=True)
        elif target.label is None:
            ctx.add(base + (key,), f"target {quote(key)} has no label to change: give it a \"label\", the text "
                    "it shows before the step that changes it (the poster shows it)", "label-change", key=True)
        elif target.kind == "node" and outline.view == "sequence":
            ctx.add(base + (key,), f"{quote(key)} is a participant, whose head every row shares; in a sequence, "
                    "labels change messages (path targets) from the step's row on: change a message's label, or "
                    "say the new value in the state panel", "label-change", key=True)


#: Words an author may reach for in place of a mark, and the mark that means it (the unknown-mark rule's
#: suggestion when the word is not a misspelling of a mark).
MARK_SYNONYMS = {"added": "new", "created": "new", "inserted": "new", "allocated": "new",
                 "updated": "changed", "modified": "changed", "edited": "changed", "dirty": "changed",
                 "written": "changed", "touched": "changed",
                 "deleted": "removed", "freed": "removed", "evicted": "removed",
                 "dropped": "lost", "missing": "lost",
                 "failed": "error", "failure": "error", "crashed": "error", "invalid": "error",
                 "blocked": "waiting", "idle": "waiting", "pending": "waiting", "queued": "waiting",
                 "finished": "done", "complete": "done", "completed": "done", "ok": "done", "passed": "done",
                 "succeeded": "done", "success": "done", "committed": "done"}


def _mark_hint(ctx: RuleContext, mark: str) -> str:
    """The unknown-mark finding's suggestion: the mark ``mark`` is or means (:data:`MARK_SYNONYMS`) in any case
    and compatibility form (NFKC: a ligature is its letters), else the closest mark by spelling, else the list of
    marks."""
    word = unicodedata.normalize("NFKC", mark).strip().casefold()
    meant = word if word in MARKS else MARK_SYNONYMS.get(word)
    if meant is not None:
        return f"; did you mean {quote(meant)}?"
    return ctx.suggest(mark, list(MARKS), "marks")


def _step_marks(ctx: RuleContext, outline: Outline, base: Where, marks: tuple[tuple[str, object], ...] | None) -> None:
    """Rules unknown-target (a key of a step's marks that is no target and no group) and unknown-mark (a mark that
    is none of :data:`~mechdiagram.shared.model.MARKS`), each with a suggestion (:func:`_mark_hint`); a finding
    points at the key or the value."""
    if marks is None:
        return
    valid = list(dict.fromkeys([*(outline.targets or ()), *outline.groups]))  # a group key may clash with a target's
    for key, mark in marks:
        if outline.targets is not None and key not in outline.targets and key not in outline.groups:
            hint = id_hint(outline, key) or ctx.suggest(key, valid, "targets")
            ctx.add(base + ("marks", key), f"{quote(key)} is not a target{hint}", "unknown-target", key=True)
        if isinstance(mark, str) and mark not in MARKS:
            ctx.add(base + ("marks", key), f"{quote(mark)} is not a mark{_mark_hint(ctx, mark)}", "unknown-mark")


def scenarios(ctx: RuleContext, outline: Outline) -> None:
    """Rules duplicate-scenario-id, unknown-target, path-in-active, not-a-path, unknown-state-key, label-change
    and unknown-mark over every scenario, then the step and entry limits."""
    _scenario_ids(ctx, outline)
    total_steps = entries = 0
    for scenario in outline.scenarios:
        s = scenario.index
        _unknown_refs(ctx, outline, ("scenarios", s, "unselected"), scenario.unselected)
        _state_keys(ctx, outline, ("scenarios", s, "initial"), scenario.initial_keys)
        total_steps += scenario.step_count
        for step in scenario.steps:
            base: Where = ("scenarios", s, "steps", step.index)
            _unknown_refs(ctx, outline, base + ("active",), step.active, "node", groups=True)
            for i, ref in step.active or ():
                if ref in outline.target_map and outline.target_map[ref].kind == "path":
                    ctx.add(base + ("active", i), f"{quote(ref)} is a path; active lists nodes to highlight, "
                            "paths lists the paths to animate: move it to paths", "path-in-active")
            _step_paths(ctx, outline, base, step.paths)
            _state_keys(ctx, outline, base + ("state",), step.state_keys)
            _label_keys(ctx, outline, base + ("labels",), step.label_keys)
            _step_marks(ctx, outline, base, step.marks)
            entries += step.active_count + step.paths_count
    for message in limit_messages(total_steps, entries):
        ctx.add(("scenarios",), message, "limit")
