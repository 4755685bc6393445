"""``extensions = ["mechdiagram.sphinx"]``: the name Sphinx users give the extension of
:mod:`mechdiagram.integrations.sphinx`, which this module re-exports (it imports Sphinx: the ``sphinx`` extra)."""

from mechdiagram.integrations.sphinx import MechanismDirective, setup

__all__ = ["MechanismDirective", "setup"]
