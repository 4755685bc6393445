"""The views a spec may ask for in ``layout.view``, in a module of their own that imports nothing, so that the
command line can offer them (``mechdiagram new --view``) without loading the typed model."""

from __future__ import annotations

#: The sequence view (:mod:`mechdiagram.layout.sequence`): participants as columns with lifelines, a row per step.
SEQUENCE = "sequence"
