# Two entry points for a fresh machine: `make run` (set up, start the app) and `make test` (set up, run every test);
# `make test-fast` leaves out the slow and the browser tests (-m "not slow and not e2e"). Both lint with ruff and check
# the type hints of the layers without kernels with mypy (pyproject.toml says which) before the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast setup browser bench

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

# Two pytest-xdist workers, a test file each at a time (its module fixtures set up once): the suite waits on Dask
# workers and a browser much of the time, so two streams fill the two cores a CI machine has.
test: setup browser
	$(PY) -m ruff check engine app bench tests
	$(PY) -m mypy
	$(PY) -m pytest -n 2 --dist loadfile

test-fast: setup
	$(PY) -m ruff check engine app bench tests
	$(PY) -m mypy
	$(PY) -m pytest -m "not slow and not e2e"

# Every benchmark at its default size (the long runs: bench/meta.py --experiment, bench/learned.py --full).
bench: setup
	for script in engine_speed korf100 api_latency bounds classic meta learned rectout; do $(PY) bench/$$script.py || exit 1; done
