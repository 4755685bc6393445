# Two entry points for a fresh machine (see README.md):
#   make gallery   set up .venv and build mechanisms/ into output/
#   make test      set up .venv and chromium, then run every test (CI runs this)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup gallery test bench

setup:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet '.[test]'

gallery: setup
	$(BIN)/mechdiagram build mechanisms -o output

test: setup
	./scripts/install-browser
	$(BIN)/python -m pytest -p no:cacheprovider

bench: setup
	$(BIN)/python bench/bench_build.py
