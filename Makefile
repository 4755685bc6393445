# Two entry points for a fresh machine (see README.md):
#   make gallery   set up .venv and build mechanisms/ into output/
#   make test      set up .venv (with the test extras) and chromium, then lint, type-check and run
#                  every test (CI runs this through .ci/run)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: venv setup setup-test gallery test lint test-fast bench bench-formats screenshots

# setuptools builds in build/lib and keeps what it finds there: a module since deleted or renamed
# would be installed again, so each install starts from an empty build/lib.
venv:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	rm -rf build/lib build/bdist.*

setup: venv
	$(BIN)/python -m pip install --quiet .

setup-test: venv
	$(BIN)/python -m pip install --quiet '.[test]'

gallery: setup
	$(BIN)/mechdiagram build mechanisms -o output

lint: setup-test
	$(BIN)/ruff check .
	$(BIN)/mypy
	PYTHONPATH=renderer $(BIN)/lint-imports

# The Nu HTML Checker (vnu-jar from the npm registry) that the markup tests run over the built pages.
NU_DIR := build/nu
NU_JAR := $(NU_DIR)/node_modules/vnu-jar/build/dist/vnu.jar

# Every test, a test file to a worker, one worker per core (pytest-xdist): module-scoped browsers and
# sites stay shared within a file.
test: setup-test lint
	./scripts/install-browser
	./scripts/install-checker $(NU_DIR)
	MECHDIAGRAM_NU_JAR=$(NU_JAR) $(BIN)/python -m pytest -p no:cacheprovider -n auto --dist loadfile

# Everything but the tests marked slow (browsers, property tests, subprocesses, the wheel).
test-fast: setup-test
	$(BIN)/python -m pytest -p no:cacheprovider -m 'not slow'

bench: setup
	$(BIN)/python bench/bench_build.py
	$(BIN)/python bench/bench_serve.py
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_noop.py
	$(BIN)/python bench/bench_limits.py
	$(BIN)/python bench/bench_sequence.py

# The cost of each output format (SVG and HTML, frames, PNG, GIF); PNG and GIF need the raster extra.
bench-formats: venv
	$(BIN)/python -m pip install --quiet '.[raster]'
	$(BIN)/python bench/bench_formats.py

# Screenshots of the gallery for people to look at (360, 768 and 1280 px, light and dark, first, middle and
# last step) in build/screenshots/; not part of `make test`.  SPECS=path/to/specs for others.
SPECS ?= mechanisms
screenshots: setup-test
	./scripts/install-browser
	$(BIN)/python tools/screenshots.py $(SPECS) -o build/screenshots
