# nesim developer commands. `make demo` sets everything up and runs the main job;
# `make test` runs the fast test suite. Both create .venv on first use.

PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: venv test test-all demo bench report clean

venv: $(STAMP)

# Create the virtual environment only when its interpreter is missing.
$(VPY):
	$(PY) -m venv $(VENV)

# (Re-)install whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check --upgrade pip
	$(VPY) -m pip install --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# The fast suite runs on every core (pytest-xdist): each worker compiles what it first needs
# from Numba's on-disk cache or, on a cold cache, compiles it itself.
TEST_WORKERS ?= auto

test: venv
	$(VPY) -m pytest -q -m "not slow" -n $(TEST_WORKERS) $(PYTEST_ARGS)

test-all: venv
	$(VPY) -m pytest -q $(PYTEST_ARGS)

# The main job on a small default: a sweep of the three games at 2-4 players (experiments/sweeps/demo.toml)
# into reports/demo-data/, and its report in reports/demo.html.
demo: venv
	$(VENV)/bin/nesim sweep experiments/sweeps/demo.toml --out reports/demo-data --jobs 2 --force
	$(VENV)/bin/nesim report reports/demo-data --out reports/demo.html
	$(VENV)/bin/nesim replay reports/demo-data 0 | tail -5

# Games per second and ns per decision of the kernel on the games simulate plays, beside the
# reference engine; `make bench AGAINST=../other-checkout` times this kernel against another one's
# instead, the two taking turns in one run.
bench: venv
	$(VENV)/bin/nesim bench $(if $(AGAINST),--against $(AGAINST))

report: venv
	$(VENV)/bin/nesim report reports/demo-data --out reports/demo.html

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
