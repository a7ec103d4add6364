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

demo: venv
	$(VENV)/bin/nesim play --game progress --players 2 --seed 1
	$(VENV)/bin/nesim play --game mecenat --players 3 --seed 1
	$(VENV)/bin/nesim play --game glory --players 4 --seed 1

bench: venv
	$(VENV)/bin/nesim bench

report:
	@echo "make report: reports arrive with the report issue; nothing to do yet."

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
