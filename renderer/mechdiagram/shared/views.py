"""The views a spec may ask for in ``layout.view``, in a module of their own that imports nothing, so that the
command line can offer them (``mechdiagram new --view``) without loading the typed model."""

from __future__ import annotations

#: The sequence view (:mod:`mechdiagram.layout.sequence`): participants as columns with lifelines, a row per step.
SEQUENCE = "sequence"
#: The layered graph, which is not a ``layout.view`` value: a spec without one draws it where some node's key is not
#: ``<lane><index>`` (:attr:`mechdiagram.shared.model.Spec.lane_grid`); ``mechdiagram new --view graph`` starts one.
GRAPH = "graph"
