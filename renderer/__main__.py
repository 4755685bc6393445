"""``python -m renderer`` runs the mechdiagram CLI, as the console script does (:func:`renderer.entry.run`)."""

from .entry import run

run()
