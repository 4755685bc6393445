"""``python -m renderer`` runs the mechdiagram CLI, and ends as Python does (see :func:`renderer.entry.run`)."""

from .entry import run

run(teardown=True)
