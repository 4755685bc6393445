"""Browser test suite (chromium through playwright).  A package, so that its conftest is imported as
``browser.conftest`` and does not replace ``tests/conftest.py`` as the module ``conftest``."""
