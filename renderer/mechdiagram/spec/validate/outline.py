"""A typed view of a spec that may not have passed the schema, for the cross-reference rules.

The rules report problems alongside the schema's findings, so they cannot wait
for a valid spec, yet they should not pick through raw dicts.  :func:`outline`
reads the parsed JSON once, keeping each part whose shape it can use and
recording as ``None`` a part of the wrong type (the schema reports that);
references keep their index in their list, so a finding can point at them.
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct, field

from mechdiagram.shared.model import Source

TargetKind = Literal["node", "path"]
#: A string entry of a list with its index: ``(2, "work0")``.
Ref = tuple[int, str]


class OutlineTarget(Struct, frozen=True):
    """A target object; ``kind`` is ``None`` unless it is ``"node"`` or ``"path"``, and also for a
    ``"node"`` with ``from`` and ``to`` (``path_like``: a path whose kind is wrong, or a node with stray
    keys; the rules treat it as neither) and for a ``"path"`` with neither (``node_like``: a box whose kind is
    wrong); other fields are ``None`` unless strings (``source`` is the spec's ``from``, ``dest`` its ``to``)."""

    key: str
    kind: TargetKind | None
    id: str | None
    source: str | None
    dest: str | None
    label: str | None
    path_like: bool = False
    node_like: bool = False


class OutlineStep(Struct, frozen=True):
    """A step object at ``index``; each list or object is ``None`` when it is missing or of another type."""

    index: int
    active: tuple[Ref, ...] | None
    active_count: int
    paths: tuple[Ref, ...] | None
    paths_count: int
    state_keys: tuple[str, ...] | None
    label_keys: tuple[str, ...] | None = None
    marks: tuple[tuple[str, object], ...] | None = None


class OutlineScenario(Struct, frozen=True):
    """A scenario object at ``index``; ``steps`` keeps its step objects, ``step_count`` counts every entry."""

    index: int
    id: str | None
    unselected: tuple[Ref, ...] | None
    initial_keys: tuple[str, ...] | None
    steps: tuple[OutlineStep, ...]
    step_count: int


class OutlineLane(Struct, frozen=True):
    """A ``layout.lanes`` entry at ``index`` naming lane ``key``; ``short`` for the string form."""

    index: int
    key: str
    short: bool


class OutlineColumn(Struct, frozen=True):
    """A ``layout.columns`` entry at ``index``: ``text`` for the string form (a header), else an object, whose
    ``span`` is ``None`` when it has none or not a number."""

    index: int
    text: bool
    label: str | None
    span: float | None


class OutlineColumns(Struct, frozen=True):
    """``layout.columns`` (``items`` its string and object entries, ``listed`` whether it is a non-empty list),
    ``layout.time`` when it is a string, and whether ``layout.unit`` is there (``unit``)."""

    items: tuple[OutlineColumn, ...] = ()
    listed: bool = False
    time: str | None = None
    unit: bool = False


class OutlineGroup(Struct, frozen=True):
    """A ``groups`` entry ``key``: its ``members`` (string entries with their index; ``None`` unless a list)."""

    key: str
    members: tuple[Ref, ...] | None


class Outline(Struct, frozen=True):
    """The parts of a spec the cross-reference rules read.

    ``targets`` holds the target objects in file order (``None`` when
    ``targets`` is not an object); ``state_labels`` the stateLabels keys
    (``None`` when not an object); ``layout_present`` whether ``layout`` is an
    object; ``sources`` every source object with a string ``path`` and string
    or missing ``sha256`` and ``description``, with its index; ``messages`` the
    ``messages`` block's string members (``None`` when there is no such object); ``view`` the layout's view
    (``None`` unless a string), ``order`` its participants (``None`` unless a list) and ``layout_keys`` the
    keys the layout object holds, in file order; ``groups`` the ``groups`` entries that are objects.
    """

    targets: dict[str, OutlineTarget] | None
    state_labels: tuple[str, ...] | None
    scenarios: tuple[OutlineScenario, ...]
    scenarios_count: int
    layout_present: bool
    lanes: tuple[OutlineLane, ...]
    lanes_listed: bool
    positions: dict[str, tuple[int, int] | None]
    sources: tuple[tuple[int, Source], ...]
    messages: dict[str, str] | None = None
    view: str | None = None
    order: tuple[Ref, ...] | None = None
    layout_keys: tuple[str, ...] = ()
    columns: OutlineColumns = field(default_factory=OutlineColumns)
    groups: dict[str, OutlineGroup] = field(default_factory=dict)

    @property
    def target_map(self) -> dict[str, OutlineTarget]:
        """``targets``, or an empty map when there is no targets object."""
        return self.targets or {}

    def key_with_id(self, ref: str, kind: TargetKind | None = None) -> str | None:
        """The key of the target (of ``kind``, when given) whose ``id`` is ``ref`` when ``ref`` is not itself a
        target key, else ``None`` (an author who wrote an id where a key belongs)."""
        if ref in self.target_map:
            return None
        return next((key for key, target in self.target_map.items()
                     if target.id == ref and kind in (None, target.kind)), None)

    def key_with_label(self, ref: str, kind: TargetKind | None = None) -> str | None:
        """The key of the first target (of ``kind``, when given) whose ``label`` is ``ref`` when ``ref`` is not
        itself a target key, else ``None`` (an author who wrote the words on a box where its key belongs)."""
        if ref in self.target_map:
            return None
        return next((key for key, target in self.target_map.items()
                     if target.label == ref and kind in (None, target.kind)), None)

    def keys_of(self, kind: TargetKind) -> list[str]:
        """Keys of the targets of ``kind``, in file order (a target of unknown kind is neither)."""
        return [key for key, target in self.target_map.items() if target.kind == kind]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _refs(value: Any) -> tuple[Ref, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple((i, item) for i, item in enumerate(value) if isinstance(item, str))


def _keys(value: Any) -> tuple[str, ...] | None:
    return tuple(value) if isinstance(value, dict) else None


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def _target(key: str, raw: dict[str, Any]) -> OutlineTarget:
    kind = raw.get("kind")
    path_like = kind == "node" and "from" in raw and "to" in raw
    node_like = kind == "path" and "from" not in raw and "to" not in raw
    return OutlineTarget(key, kind if kind in ("node", "path") and not (path_like or node_like) else None,
                         _string(raw.get("id")), _string(raw.get("from")), _string(raw.get("to")),
                         _string(raw.get("label")), path_like, node_like)


def _step(index: int, raw: dict[str, Any]) -> OutlineStep:
    return OutlineStep(index, _refs(raw.get("active")), _count(raw.get("active")), _refs(raw.get("paths")),
                       _count(raw.get("paths")), _keys(raw.get("state")), _keys(raw.get("labels")),
                       tuple(raw["marks"].items()) if isinstance(raw.get("marks"), dict) else None)


def _scenario(index: int, raw: dict[str, Any]) -> OutlineScenario:
    steps = _list(raw.get("steps"))
    return OutlineScenario(index, _string(raw.get("id")), _refs(raw.get("unselected")), _keys(raw.get("initial")),
                           tuple(_step(n, step) for n, step in enumerate(steps) if isinstance(step, dict)),
                           len(steps))


def _source(raw: Any) -> Source | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("path"), str):
        return None
    sha256, description = raw.get("sha256"), raw.get("description")
    if not (sha256 is None or isinstance(sha256, str)) or not (description is None or isinstance(description, str)):
        return None
    return Source(raw["path"], sha256, description)


def _cell(value: Any) -> tuple[int, int] | None:
    if isinstance(value, dict) and isinstance(value.get("row"), int) and isinstance(value.get("column"), int):
        return (value["row"], value["column"])
    return None


def _column(index: int, raw: Any) -> OutlineColumn | None:
    if isinstance(raw, str):
        return OutlineColumn(index, True, raw, None)
    if not isinstance(raw, dict):
        return None
    span = raw.get("span")
    number = float(span) if isinstance(span, int | float) and not isinstance(span, bool) else None
    return OutlineColumn(index, False, _string(raw.get("label")), number)


def _columns(layout: dict[str, Any]) -> OutlineColumns:
    raw = layout.get("columns")
    items = [_column(i, item) for i, item in enumerate(_list(raw))]
    return OutlineColumns(tuple(item for item in items if item is not None), bool(_list(raw)),
                          _string(layout.get("time")), "unit" in layout)


def outline(data: dict[str, Any]) -> Outline:
    """Read the typed :class:`Outline` of a parsed spec object; never raises."""
    raw_targets = data.get("targets")
    targets = ({key: _target(key, raw) for key, raw in raw_targets.items() if isinstance(raw, dict)}
               if isinstance(raw_targets, dict) else None)
    raw_scenarios = _list(data.get("scenarios"))
    layout = _object(data.get("layout"))
    raw_lanes = _list(layout.get("lanes"))
    lanes = []
    for i, item in enumerate(raw_lanes):
        key = item if isinstance(item, str) else item.get("key") if isinstance(item, dict) else None
        if isinstance(key, str):
            lanes.append(OutlineLane(i, key, isinstance(item, str)))
    raw_positions = _object(layout.get("positions"))
    raw_sources = _list(data.get("sources"))
    sources = [(i, _source(raw)) for i, raw in enumerate(raw_sources)]
    return Outline(
        targets=targets,
        state_labels=_keys(data.get("stateLabels")),
        scenarios=tuple(_scenario(s, raw) for s, raw in enumerate(raw_scenarios) if isinstance(raw, dict)),
        scenarios_count=len(raw_scenarios),
        layout_present=isinstance(data.get("layout"), dict),
        lanes=tuple(lanes),
        lanes_listed=bool(layout.get("lanes")),
        positions={key: _cell(cell) for key, cell in raw_positions.items()},
        sources=tuple((i, source) for i, source in sources if source is not None),
        messages=({key: text for key, text in data["messages"].items() if isinstance(text, str)}
                  if isinstance(data.get("messages"), dict) else None),
        view=_string(layout.get("view")),
        order=_refs(layout.get("order")),
        layout_keys=tuple(layout),
        columns=_columns(layout),
        groups={key: OutlineGroup(key, _refs(raw.get("members"))) for key, raw in _object(data.get("groups")).items()
                if isinstance(raw, dict)},
    )
