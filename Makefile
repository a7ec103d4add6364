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

# The main job on a small default: each game at 2, 3 and 4 players with greedy against random,
# into reports/demo-data/, and one report of all of it in reports/demo.html.
DEMO_GAMES ?= 10000
DEMO_SIM = $(VENV)/bin/nesim simulate --games $(DEMO_GAMES) --seed 1 --jobs 2 --force --quiet
demo: venv
	@for g in progress mecenat glory; do \
	  echo "simulating $$g ($(DEMO_GAMES) games each at 2, 3 and 4 players)"; \
	  $(DEMO_SIM) --game $$g --players 2 --strategies greedy,random --out reports/demo-data/$$g-2p || exit 2; \
	  $(DEMO_SIM) --game $$g --players 3 --strategies greedy,random,random --out reports/demo-data/$$g-3p || exit 2; \
	  $(DEMO_SIM) --game $$g --players 4 --strategies greedy,greedy,random,random --out reports/demo-data/$$g-4p || exit 2; \
	done
	$(VENV)/bin/nesim report reports/demo-data/* --out reports/demo.html
	$(VENV)/bin/nesim replay reports/demo-data/glory-4p 0 | tail -6

bench: venv
	$(VENV)/bin/nesim bench

report: venv
	$(VENV)/bin/nesim report reports/demo-data/* --out reports/demo.html

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
