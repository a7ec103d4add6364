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

test: venv
	$(VPY) -m pytest -q -m "not slow" $(PYTEST_ARGS)

test-all: venv
	$(VPY) -m pytest -q $(PYTEST_ARGS)

# A modest simulation of each game into reports/demo-data/ (the report arrives with #7).
DEMO_GAMES ?= 20000
demo: venv
	$(VENV)/bin/nesim simulate --game progress --players 2 --games $(DEMO_GAMES) --seed 1 --jobs 2 --force --out reports/demo-data/progress-2p
	$(VENV)/bin/nesim simulate --game mecenat --players 3 --games $(DEMO_GAMES) --seed 1 --jobs 2 --force --out reports/demo-data/mecenat-3p
	$(VENV)/bin/nesim simulate --game glory --players 4 --games $(DEMO_GAMES) --seed 1 --jobs 2 --force --out reports/demo-data/glory-4p
	$(VENV)/bin/nesim replay reports/demo-data/glory-4p 0 | tail -6

bench: venv
	$(VENV)/bin/nesim bench

report:
	@echo "make report: reports arrive with the report issue; nothing to do yet."

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
