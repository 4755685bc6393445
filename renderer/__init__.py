"""mechdiagram: accessible, animated mechanism diagrams from JSON mechanism specs.

The package is a pipeline, one module per stage: :mod:`~renderer.load`,
:mod:`~renderer.validate`, :mod:`~renderer.provenance`,
:mod:`~renderer.layout`, :mod:`~renderer.svg`, :mod:`~renderer.html`,
:mod:`~renderer.build` and the click CLI in :mod:`~renderer.cli`.
"""

__version__ = "0.1.0"
