"""``python -m renderer`` runs the mechdiagram CLI."""

from .cli import run

run()
