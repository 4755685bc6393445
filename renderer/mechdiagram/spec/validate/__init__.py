"""Stage 2, validate: the JSON Schema and the rules it cannot express, as small rule modules.

:func:`check_spec` returns every finding of a parsed spec at once, each with
its JSON Pointer, line and column, plus what later stages need: the typed
:class:`~mechdiagram.shared.model.Spec` when the spec is valid, and the sources whose
entries are well formed (they are verified even when other parts are wrong).

Modules: :mod:`.schema` (the validators) with :mod:`.messages` (a table keyed
by keyword); :mod:`.text` (characters and direction controls);
:mod:`.references`, :mod:`.layout_rules` and :mod:`.sequence_rules` (cross-references on the typed
:mod:`.outline`); :mod:`.group_rules` (``groups``); :mod:`.message_rules` (the ``messages`` block);
:mod:`.limits`.  Rule ids are listed in :data:`RULES`.
"""

from __future__ import annotations

from msgspec import Struct

from mechdiagram.shared.findings import Finding, pointer_join, pointer_tokens, sorted_findings
from mechdiagram.shared.model import MARKS, Source, Spec, spec_from_data
from mechdiagram.shared.views import SEQUENCE
from mechdiagram.spec.load import LoadedSpec
from mechdiagram.spec.validate import references
from mechdiagram.spec.validate.context import RuleContext
from mechdiagram.spec.validate.group_rules import group_rules
from mechdiagram.spec.validate.layout_rules import columns_and_time, lanes_and_positions
from mechdiagram.spec.validate.limits import over_limits
from mechdiagram.spec.validate.message_rules import message_overrides
from mechdiagram.spec.validate.messages import missing_key
from mechdiagram.spec.validate.outline import outline
from mechdiagram.spec.validate.schema import schema_findings, schema_is_valid
from mechdiagram.spec.validate.sequence_rules import sequence_layout
from mechdiagram.spec.validate.text import text_rules

#: The rules beside the schema, by rule id, as documented in the README.
RULES = {
    "unknown-target": "every key in active, paths, marks, unselected and a step's labels names a target",
    "unknown-mark": "every value in a step's marks is new, changed, removed, lost, error, waiting or done",
    "not-a-path": "every key in paths names a target of kind path",
    "path-endpoint": "a path's from and to name node targets",
    "target-kind": "a target of kind node has no from and to, and one of kind path has them",
    "duplicate-target-id": "target ids are unique",
    "duplicate-scenario-id": "scenario ids are unique",
    "unknown-state-key": "state and initial keys are keys of stateLabels",
    "label-change": "a step's labels change targets that have a label of their own (the poster shows it), and in a "
                    "sequence only messages (paths), not participants' heads",
    "unknown-lane": "layout.lanes names lanes that the target keys make",
    "layout-position": "layout.positions names node targets, one per cell",
    "layout-order": "layout.order names node targets, each once, in a sequence (view sequence)",
    "sequence-layout": "a sequence has none of the grid's layout keys (lanes, positions, columns)",
    "layout-columns": "layout.columns labels the columns a lane grid has, at most one a column; time \"proportional\" "
                      "comes with columns that each have a span (not all 0); span and unit come with it",
    "group": "a group's key is no target's key; its members are node targets, none of them a group (groups do not "
             "nest) or a member of another group; a lane grid has no groups (its lanes group its boxes); a "
             "sequence's layout.order lists a group's members one after another",
    "xml-character": "text holds only characters that XML 1.0 allows",
    "bidi-control": "text closes every direction embedding, override and isolate it opens",
    "invisible-text": "text has at least one visible character",
    "path-in-active": "active lists nodes; paths are animated through a step's paths",
    "route": "(a warning, from the layout stage) every path has a route and a label clear of the boxes and the "
             "other labels, and keeps the routing rules, in every layout the figure shows",
    "mark": "(a warning, from the layout stage) a sequence step's mark on a message is drawn on the row of a step, "
            "that one or an earlier one, that sends the message",
    "label-word": "(a warning, from the layout stage) no layout breaks a word of a path's label of prose between its "
                  "characters",
    "message-key": "every key of messages is a key of the message catalogue",
    "message-placeholder": "every text of messages has exactly the {placeholders} of its English message",
    "message-plural": "a text of messages replacing a plural form is one (ICU MessageFormat, with an other option)",
    "limit": "a spec stays within the size limits",
}


class Validation(Struct, frozen=True):
    """What validating one spec found.

    ``findings`` are sorted (:attr:`~mechdiagram.shared.findings.Finding.sort_key`);
    ``spec`` is the typed model, ``None`` when any finding is an error;
    ``sources`` are the sources to verify, with their index in ``sources``: those whose entries have no finding.
    The layout's own findings (two nodes in one cell, routes not kept clear) are the layout stage's
    (:mod:`mechdiagram.layout.checks`), which runs on the valid spec after validation.
    """

    findings: list[Finding]
    spec: Spec | None
    sources: tuple[tuple[int, Source], ...]


def _sources_to_check(loaded: LoadedSpec, findings: list[Finding]) -> tuple[tuple[int, Source], ...]:
    if any(f.pointer in ("/sources", "") and f.rule in ("type", "maxItems") for f in findings):
        return ()
    broken = set()
    for finding in findings:
        tokens = pointer_tokens(finding.pointer or "")
        if len(tokens) > 1 and tokens[0] == "sources":
            broken.add(tokens[1])
    return tuple((index, source) for index, source in outline(loaded.data).sources if str(index) not in broken)


def _findings(loaded: LoadedSpec) -> list[Finding]:
    over = over_limits(loaded)
    if over:  # the other checks would take long on a spec this size, and it is refused anyway
        return over
    ctx = RuleContext(loaded)
    shape = outline(loaded.data)
    findings = list(schema_findings(loaded, ctx.suggest))
    text_rules(ctx, loaded.data)
    references.target_ids(ctx, shape)
    references.target_kinds(ctx, shape)
    references.path_endpoints(ctx, shape)
    references.scenarios(ctx, shape)
    if shape.view != SEQUENCE:  # a sequence's lanes and positions have one finding: sequence_layout's
        lanes_and_positions(ctx, shape)
        columns_and_time(ctx, shape)
    sequence_layout(ctx, shape)
    group_rules(ctx, shape)
    message_overrides(ctx, shape)
    findings += ctx.findings
    # A target's kind fails both the enum of kinds and the const of the shape chosen by if/then/else;
    # the enum says all there is to say.
    enums = {f.pointer for f in findings if f.rule == "enum"}
    findings = [f for f in findings if not (f.rule == "const" and f.pointer in enums)]
    # A step's unknown mark fails the schema's enum too; unknown-mark says it, with a suggestion (or counts it past
    # its rule's cap).
    unknown_marks = {pointer_join("scenarios", scenario.index, "steps", step.index, "marks", key)
                     for scenario in shape.scenarios for step in scenario.steps for key, mark in step.marks or ()
                     if isinstance(mark, str) and mark not in MARKS}
    findings = [f for f in findings if not (f.rule == "enum" and f.pointer in unknown_marks)]
    # An empty text fails minLength and the visible-text pattern; "must not be empty" says it.
    empties = {f.pointer for f in findings if f.rule == "minLength"}
    findings = [f for f in findings if not (f.rule == "pattern" and f.pointer in empties)]
    # A node with from and to: its kind finding says it all, not the schema's unknown keys from and to.
    ends = {pointer_join("targets", key, end) for key, target in shape.target_map.items() if target.path_like
            for end in ("from", "to")}
    findings = [f for f in findings if not (f.rule == "additionalProperties" and f.pointer in ends)]
    # A path with neither from nor to: its kind finding says it all, not the schema's two missing keys.
    boxes = {pointer_join("targets", key) for key, target in shape.target_map.items() if target.node_like}
    ends_missing = (missing_key("from"), missing_key("to"))
    findings = [f for f in findings if not (f.rule == "required" and f.pointer in boxes and f.message in ends_missing)]
    # A reference that is no key at all ("get key"): the unknown-target finding, which names the key meant,
    # says it; the schema's key pattern adds nothing.
    references_ = {f.pointer for f in findings if f.rule in ("unknown-target", "not-a-path", "path-endpoint")}
    findings = [f for f in findings if not (f.rule == "pattern" and f.pointer in references_)]
    # A lane key the schema refuses ("9lane") cannot name a lane; the pattern says why.
    malformed = {f.pointer for f in findings if f.rule == "pattern"}
    findings = [f for f in findings if not (f.rule == "unknown-lane" and f.pointer in malformed)]
    return list({(f.pointer, f.message): f for f in findings}.values()) + ctx.omitted()


def check_spec(loaded: LoadedSpec) -> Validation:
    """Validate a parsed spec (``loaded.data`` must be a dict: a spec that parsed); see the module docstring."""
    findings = _findings(loaded)
    model = spec_from_data(loaded.data) if not findings else None
    return Validation(sorted_findings(findings), model, _sources_to_check(loaded, findings))


def validate(loaded: LoadedSpec) -> list[Finding]:
    """All schema and rule findings of a parsed spec, sorted; an empty list means it is valid."""
    return check_spec(loaded).findings


__all__ = ["RULES", "Validation", "check_spec", "schema_is_valid", "validate"]
