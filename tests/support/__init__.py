"""Helpers shared by every test folder: ``from support.specs import minimal_spec``.

``tests/`` is on ``sys.path`` (``tests/conftest.py`` puts it there), so ``support`` is importable from
any folder below it.  Fixtures are not here but in ``tests/conftest.py``.

- :mod:`support.specs`: the minimal spec, repository paths, finding positions in a spec's text.
- :mod:`support.reference_spec`: a spec in the reference format, generated in code.
- :mod:`support.cli`: running ``mechdiagram`` in-process and as a subprocess; the finding line formats.
- :mod:`support.html_doc`: HTML parsed as a browser does (html5lib), with lookups and inventories.
- :mod:`support.css`: CSS parsed (tinycss2) into rules, declarations, ``@media`` blocks and keyframes.
- :mod:`support.svg`: SVG (ElementTree) lookups and the parsed style sheet of an SVG.
- :mod:`support.hostile`: hostile author text and the build of a spec filled with it.
- :mod:`support.strategies`: hypothesis strategies for bad and valid specs.
- :mod:`support.outputs`: the page and fragment of a spec, rendered in-process.
- :mod:`support.serve`: requests to a preview server (any target, any Host), its reload event stream, bounded waits.
"""
