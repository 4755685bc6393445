"""``python -m mechdiagram`` runs the mechdiagram CLI, as the console script does (:func:`mechdiagram.entry.run`)."""

from mechdiagram.entry import run

run()
