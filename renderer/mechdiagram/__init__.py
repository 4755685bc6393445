"""mechdiagram: accessible, animated mechanism diagrams from JSON mechanism specs.

The package is a pipeline, a folder per stage, each importing only the stages before it (an import-linter
contract in ``pyproject.toml``): :mod:`mechdiagram.shared` (the vocabulary), :mod:`mechdiagram.spec` (load,
validate, provenance), :mod:`mechdiagram.layout`, :mod:`mechdiagram.render`, the one-spec API
:mod:`mechdiagram.api` that composes them, :mod:`mechdiagram.site` (the output folder),
:mod:`mechdiagram.integrations` (a docs site's build: Python-Markdown, MkDocs, Sphinx; ``embed``),
:mod:`mechdiagram.serve` and the click CLI in :mod:`mechdiagram.cli`.
"""

__version__ = "0.1.0"
