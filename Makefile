# Two entry points for a fresh machine: `make run` (set up, start the app) and `make test` (set up, run every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test setup browser bench

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed

# Playwright drives the system Chromium (its own browser download does not work on these machines).
browser:
	@sh scripts/ensure-chromium.sh

run: setup
	$(PY) -m app

test: setup browser
	$(PY) -m pytest

bench: setup
	$(PY) bench/run_all.py
