# Two entry points for a fresh machine: `make run` (set up, start the app) and `make test` (set up, run every test);
# `make test-fast` leaves out the slow and the browser tests (-m "not slow and not e2e"). Both check the JavaScript
# first (`make js-check`), with node and npm from the machine (node 20 or later).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test test-fast setup browser bench js-setup js-check js-format

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed

# The JavaScript's tools, at the versions package-lock.json pins (npm ci installs exactly those, into node_modules/).
node_modules/.installed: package.json package-lock.json
	@node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null || \
		{ echo "The JavaScript's checks need node 20 or later and npm on the PATH."; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

js-setup: node_modules/.installed

# Biome lints app/static/js and tests/js for faults (biome.json names the rules) and checks that every file is as its
# formatter writes it; node's own test runner runs the unit tests of the modules that need no browser (tests/js/).
js-check: js-setup
	node_modules/.bin/biome ci --colors=off .
	node --test tests/js/

# Rewrites every .js file as the formatter writes it (what js-check's format check asks for).
js-format: js-setup
	node_modules/.bin/biome format --write .

# Playwright drives the system Chromium (its own browser download does not work on these machines).
browser:
	@sh scripts/ensure-chromium.sh

run: setup
	$(PY) -m app

# Two pytest-xdist workers, a test file each at a time (its module fixtures set up once): the suite waits on Dask
# workers and a browser much of the time, so two streams fill the two cores a CI machine has.
test: setup browser js-check
	$(PY) -m ruff check engine app bench tests
	$(PY) -m pytest -n 2 --dist loadfile

test-fast: setup js-check
	$(PY) -m ruff check engine app bench tests
	$(PY) -m pytest -m "not slow and not e2e"

# Every benchmark at its default size (the long runs: bench/meta.py --experiment, bench/learned.py --full).
bench: setup
	for script in engine_speed korf100 api_latency bounds classic meta learned rectout; do $(PY) bench/$$script.py || exit 1; done
