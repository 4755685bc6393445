"""The typed mechanism spec that stages after validation work on.

:func:`spec_from_data` turns a validated JSON object into a :class:`Spec`.
It assumes the data passed :mod:`mechdiagram.spec.validate`; on other data it may
raise ``KeyError`` or ``TypeError``, which is a bug in the caller.
Durations are milliseconds.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec import Struct, field


class NodeTarget(Struct, frozen=True):
    """A node: a labelled box.  ``key`` is its key in ``targets``, ``id`` its stable id; ``text`` how its label
    is set, ``"prose"`` or ``"code"`` (the monospace face, broken only between tokens)."""

    key: str
    id: str
    label: str | None = None
    text: str = "prose"

    @property
    def code(self) -> bool:
        """Whether the label is code (``"text": "code"``)."""
        return self.text == "code"

    @property
    def is_path(self) -> bool:
        """False: a box, not an arrow."""
        return False


class PathTarget(Struct, frozen=True):
    """A path: an arrow from node ``source`` (the spec's ``from``) to node ``dest`` (``to``); ``text`` how its
    label is set, as a node's."""

    key: str
    id: str
    source: str
    dest: str
    label: str | None = None
    text: str = "prose"

    @property
    def code(self) -> bool:
        """Whether the label is code (``"text": "code"``)."""
        return self.text == "code"
    style: str | None = None  # "reply": drawn dashed with an open head in the sequence view

    @property
    def is_path(self) -> bool:
        """True: an arrow, not a box."""
        return True


#: A target of a valid spec.
Target = NodeTarget | PathTarget

_LANE_KEY = re.compile(r"^(.*?[^0-9])([0-9]+)$")


def parse_lane_key(key: str) -> tuple[str, int] | None:
    """Split a grid key ``<lane><index>`` (``work0`` -> ``("work", 0)``), or ``None`` for another key.

    The lane is everything before the final run of digits and must not be empty.
    """
    match = _LANE_KEY.match(key)
    return (match.group(1), int(match.group(2))) if match else None


class Source(Struct, frozen=True):
    """A provenance source: ``path`` relative to the source root, optional ``sha256`` (hex)."""

    path: str
    sha256: str | None = None
    description: str | None = None


#: The marks a step may give a target (``marks``), in the order the legend lists them.
MARKS = ("new", "changed", "removed", "lost", "error", "waiting", "done")


class Step(Struct, frozen=True):
    """One step: ``duration`` in ms; ``state`` holds every row's value (carried forward).  ``labels`` holds the
    text of every target whose label this step or an earlier one of its scenario changed (carried forward, as
    ``state``), ``relabelled`` the keys whose text this step changes, in the order the step lists them; ``marks``
    gives targets a meaning beyond ``active`` for this step only (target key to one of :data:`MARKS`)."""

    title: str
    description: str
    duration: int
    active: tuple[str, ...]
    paths: tuple[str, ...]
    state: dict[str, str]
    labels: dict[str, str] = field(default_factory=dict)
    relabelled: tuple[str, ...] = ()
    marks: dict[str, str] = field(default_factory=dict)

    def label_of(self, target: Target) -> str | None:
        """The label ``target`` shows during this step: its changed text, else its own label."""
        return self.labels.get(target.key, target.label)


class Scenario(Struct, frozen=True):
    """A scenario: its steps in order, its ``initial`` state and the dimmed targets."""

    id: str
    title: str
    description: str
    initial: dict[str, str]
    unselected: tuple[str, ...]
    steps: tuple[Step, ...]


class Lane(Struct, frozen=True):
    """A lane override: ``key`` and optional visible ``label``."""

    key: str
    label: str | None = None


#: The value of ``layout.time`` that sizes a lane grid's columns by their spans (the schema's one value).
PROPORTIONAL_TIME = "proportional"


class Column(Struct, frozen=True):
    """A lane grid's column header: its visible ``label`` and, under proportional time, the ``span`` of time it
    stands for (in the spec's ``layout.unit``; ``0`` for an instant)."""

    label: str
    span: float | None = None


class LayoutOverrides(Struct, frozen=True):
    """The spec's optional ``layout`` block: ``view`` is ``"sequence"`` for the sequence view (else ``None``: a
    lane grid or a layered graph, by the keys), ``order`` the sequence's participants, left to right.
    ``columns`` label a lane grid's columns from the left; ``time`` is ``"proportional"`` when their spans size
    them (:attr:`proportional`), with ``unit`` the spans' unit."""

    lanes: tuple[Lane, ...] = ()
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (row, column)
    view: str | None = None
    order: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    time: str | None = None
    unit: str | None = None

    @property
    def proportional(self) -> bool:
        """Whether the columns are sized by their spans (``"time": "proportional"``)."""
        return self.time == PROPORTIONAL_TIME


class Group(Struct, frozen=True):
    """A group (the spec's top-level ``groups``): ``key`` (one namespace with the target keys), its visible
    ``label`` and its ``members``, node keys in the order listed.  The layered view draws a labelled enclosure
    around the members' boxes, the sequence view a band over their heads; a step's ``active`` may name it."""

    key: str
    label: str
    members: tuple[str, ...]


class Spec(Struct, frozen=True):
    """A whole mechanism spec.  ``targets`` and ``state_labels`` keep the file's key order; ``messages``
    holds the spec's overrides of the tool's words by message key (see :mod:`mechdiagram.shared.locale`)."""

    language: str
    title: str
    description: str
    caption: str
    alt: str
    sources: tuple[Source, ...]
    limitations: tuple[str, ...]
    targets: dict[str, Target]
    state_labels: dict[str, str]
    scenarios: tuple[Scenario, ...]
    layout: LayoutOverrides
    messages: dict[str, str] = field(default_factory=dict)
    #: The texts the steps' ``labels`` give each target they change, by key, in the order the scenarios and their
    #: steps first show them (:func:`spec_from_data` gathers them once: the layout asks for them often).
    step_labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)

    @property
    def nodes(self) -> list[NodeTarget]:
        """Node targets in file order."""
        return [t for t in self.targets.values() if isinstance(t, NodeTarget)]

    @property
    def paths(self) -> list[PathTarget]:
        """Path targets in file order."""
        return [t for t in self.targets.values() if isinstance(t, PathTarget)]

    @property
    def lane_grid(self) -> bool:
        """Whether the nodes are laid out as a lane grid: there is one at least, and every node's key is
        ``<lane><index>`` (:func:`parse_lane_key`); else a layered graph (or, with the sequence view, its
        participants)."""
        nodes = self.nodes
        return bool(nodes) and all(parse_lane_key(node.key) is not None for node in nodes)

    def texts(self, key: str) -> tuple[str, ...]:
        """Every text target ``key``'s label shows: its own label (none: ``()`` unless a step gives it one), then
        each text a step's ``labels`` gives it, in the order the scenarios and their steps first show them.  The
        layout sizes the target's box or label block for all of them."""
        label = self.targets[key].label
        changed = self.step_labels.get(key, ())
        if not changed:
            return (label,) if label else ()
        return tuple(dict.fromkeys([*([label] if label else []), *changed]))

    def group_of(self, key: str) -> str | None:
        """The key of the group node ``key`` belongs to, or ``None`` (a node is in one group at most)."""
        return next((group.key for group in self.groups.values() if key in group.members), None)


    @property
    def relabelled(self) -> frozenset[str]:
        """The keys of the targets whose label some step changes (``labels``)."""
        return frozenset(self.step_labels)


def _steps(raw_steps: list[dict[str, Any]], initial: dict[str, str], labels: dict[str, str],
           targets: dict[str, Target]) -> tuple[Step, ...]:
    current = {key: initial.get(key, "") for key in labels}
    texts: dict[str, str] = {}  # the changed labels, carried forward from step to step
    steps = []
    for raw in raw_steps:
        current = {**current, **raw.get("state", {})}
        changes = raw.get("labels", {})
        relabelled = tuple(key for key, text in changes.items() if texts.get(key, targets[key].label) != text)
        texts = {**texts, **changes}
        steps.append(Step(
            title=raw["title"],
            description=raw.get("description", ""),
            duration=raw["duration"],
            active=tuple(raw.get("active", [])),
            paths=tuple(raw.get("paths", [])),
            state=dict(current),
            labels=dict(texts),
            relabelled=relabelled,
            marks=dict(raw.get("marks", {})),
        ))
    return tuple(steps)


def spec_from_data(data: dict[str, Any]) -> Spec:
    """Build a :class:`Spec` from a validated spec object."""
    labels = dict(data["stateLabels"])
    targets: dict[str, Target] = {
        key: PathTarget(key, raw["id"], raw["from"], raw["to"], raw.get("label"), raw.get("text", "prose"),
                        raw.get("style"))
        if raw["kind"] == "path" else NodeTarget(key, raw["id"], raw.get("label"), raw.get("text", "prose"))
        for key, raw in data["targets"].items()
    }
    scenarios = []
    for raw in data["scenarios"]:
        initial = {key: raw.get("initial", {}).get(key, "") for key in labels}
        scenarios.append(Scenario(
            id=raw["id"], title=raw["title"], description=raw.get("description", ""),
            initial=initial, unselected=tuple(raw.get("unselected", [])),
            steps=_steps(raw["steps"], initial, labels, targets),
        ))
    step_labels: dict[str, dict[str, None]] = {}
    for raw in data["scenarios"]:
        for step in raw["steps"]:
            for key, text in step.get("labels", {}).items():
                step_labels.setdefault(key, {})[text] = None
    layout = data.get("layout", {})
    lanes = tuple(Lane(item) if isinstance(item, str) else Lane(item["key"], item.get("label"))
                  for item in layout.get("lanes", []))
    positions = {key: (cell["row"], cell["column"]) for key, cell in layout.get("positions", {}).items()}
    columns = tuple(Column(item) if isinstance(item, str)
                    else Column(item["label"], float(item["span"]) if "span" in item else None)
                    for item in layout.get("columns", []))
    return Spec(
        language=data["language"], title=data["title"], description=data["description"],
        caption=data["caption"], alt=data["alt"],
        sources=tuple(Source(s["path"], s.get("sha256"), s.get("description")) for s in data.get("sources", [])),
        limitations=tuple(data.get("limitations", [])),
        targets=targets, state_labels=labels, scenarios=tuple(scenarios),
        layout=LayoutOverrides(lanes=lanes, positions=positions, view=layout.get("view"),
                               order=tuple(layout.get("order", [])), columns=columns, time=layout.get("time"),
                               unit=layout.get("unit")),
        messages=dict(data.get("messages", {})),
        step_labels={key: tuple(texts) for key, texts in step_labels.items()},
        groups={key: Group(key, raw["label"], tuple(raw["members"])) for key, raw in data.get("groups", {}).items()},
    )
