"""What the gallery page and a site show of one figure beside its files: the ``figure`` record the one-spec
API makes from a valid spec and the manifest keeps (plain author text, escaped where it is written)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from mechdiagram.layout import Diagram, canvas_width
from mechdiagram.shared.model import Spec


class FigureRecord(TypedDict):
    """What the gallery page shows of one spec, as the manifest keeps it (plain author text; made by
    :func:`figure_record`)."""

    title: str
    caption: str
    alt: str
    language: str
    scenarios: list[dict[str, str]]  # [{"id": ..., "title": ...}] in spec order
    width: NotRequired[int]  # the wide drawing's width, user units (absent from records of earlier releases)


def figure_record(spec: Spec, wide: Diagram) -> FigureRecord:
    """The manifest's ``figure`` record of a valid spec laid out as ``wide`` (its wide layout)."""
    return {"title": spec.title, "caption": spec.caption, "alt": spec.alt, "language": spec.language,
            "scenarios": [{"id": s.id, "title": s.title} for s in spec.scenarios], "width": canvas_width(wide)}
