"""The typed mechanism spec that stages after validation work on.

:func:`spec_from_data` turns a validated JSON object into a :class:`Spec`.
It assumes the data passed :mod:`renderer.validate`; on other data it may
raise ``KeyError`` or ``TypeError``, which is a bug in the caller.
Durations are milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Target:
    """A node (``kind == "node"``: a labelled box) or a path (an arrow ``source -> dest``)."""

    key: str
    id: str
    kind: str
    label: str | None = None
    source: str | None = None  # the path's "from" node key
    dest: str | None = None  # the path's "to" node key

    @property
    def is_path(self) -> bool:
        """True for arrows, False for boxes."""
        return self.kind == "path"


@dataclass(frozen=True)
class Source:
    """A provenance source: ``path`` relative to the source root, optional ``sha256`` (hex)."""

    path: str
    sha256: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Step:
    """One step: ``duration`` in ms; ``state`` holds every row's value (carried forward)."""

    title: str
    description: str
    duration: int
    active: tuple[str, ...]
    paths: tuple[str, ...]
    state: dict[str, str]


@dataclass(frozen=True)
class Scenario:
    """A scenario: its steps in order, its ``initial`` state and the dimmed targets."""

    id: str
    title: str
    description: str
    initial: dict[str, str]
    unselected: tuple[str, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Lane:
    """A lane override: ``key`` and optional visible ``label``."""

    key: str
    label: str | None = None


@dataclass(frozen=True)
class LayoutOverrides:
    """The spec's optional ``layout`` block."""

    lanes: tuple[Lane, ...] = ()
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (row, column)


@dataclass(frozen=True)
class Spec:
    """A whole mechanism spec.  ``targets`` and ``state_labels`` keep the file's key order."""

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

    @property
    def nodes(self) -> list[Target]:
        """Node targets in file order."""
        return [t for t in self.targets.values() if not t.is_path]

    @property
    def paths(self) -> list[Target]:
        """Path targets in file order."""
        return [t for t in self.targets.values() if t.is_path]


def _steps(raw_steps: list[dict[str, Any]], initial: dict[str, str], labels: dict[str, str]) -> tuple[Step, ...]:
    current = {key: initial.get(key, "") for key in labels}
    steps = []
    for raw in raw_steps:
        current = {**current, **raw.get("state", {})}
        steps.append(Step(
            title=raw["title"],
            description=raw.get("description", ""),
            duration=raw["duration"],
            active=tuple(raw.get("active", [])),
            paths=tuple(raw.get("paths", [])),
            state=dict(current),
        ))
    return tuple(steps)


def spec_from_data(data: dict[str, Any]) -> Spec:
    """Build a :class:`Spec` from a validated spec object."""
    labels = dict(data["stateLabels"])
    targets = {
        key: Target(key=key, id=raw["id"], kind=raw["kind"], label=raw.get("label"),
                    source=raw.get("from"), dest=raw.get("to"))
        for key, raw in data["targets"].items()
    }
    scenarios = []
    for raw in data["scenarios"]:
        initial = {key: raw.get("initial", {}).get(key, "") for key in labels}
        scenarios.append(Scenario(
            id=raw["id"], title=raw["title"], description=raw.get("description", ""),
            initial=initial, unselected=tuple(raw.get("unselected", [])),
            steps=_steps(raw["steps"], initial, labels),
        ))
    layout = data.get("layout", {})
    lanes = tuple(Lane(item) if isinstance(item, str) else Lane(item["key"], item.get("label"))
                  for item in layout.get("lanes", []))
    positions = {key: (cell["row"], cell["column"]) for key, cell in layout.get("positions", {}).items()}
    return Spec(
        language=data["language"], title=data["title"], description=data["description"],
        caption=data["caption"], alt=data["alt"],
        sources=tuple(Source(s["path"], s.get("sha256"), s.get("description")) for s in data.get("sources", [])),
        limitations=tuple(data.get("limitations", [])),
        targets=targets, state_labels=labels, scenarios=tuple(scenarios),
        layout=LayoutOverrides(lanes=lanes, positions=positions),
    )
