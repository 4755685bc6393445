"""``python -m renderer`` runs the mechdiagram CLI."""

from .entry import run

run()
