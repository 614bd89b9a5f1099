# Dungeon Guilds — two commands on a fresh machine:
#   make dashboard   serve the dashboard (Voila) on $(HOST):$(PORT)
#   make test        run the whole test suite (JOBS=2 processes at once; JOBS=1: one)
# and a third for learners:
#   make lab         open the notebook series (your own copy, in $(LAB_DIR)/) in JupyterLab on $(HOST):8888
# Each creates .venv and installs what it needs itself (make dashboard: only the dashboard's
# packages; make lab: the notebooks and JupyterLab; make test: everything).
# Also: make site (the static site in _site/, Python in each browser) and make serve-site.

PYTHON ?= python3
VENV   ?= .venv
HOST   ?= 127.0.0.1
PORT   ?= 8866
# at most this many kernels (one a student page, plus the preheated pool); beyond it a 503 page;
# empty: 40, or the class size + 10
MAX_KERNELS ?=
# preheated kernels that have already run the dashboard: one for each student of a class arriving
# at once (each ~100-170 MB; they count under MAX_KERNELS); 0 turns preheating off. A few suit
# one teacher trying it; POOL=30 (or CLASS=30) for a class of 30
CLASS  ?= 3
POOL   ?= $(CLASS)
# seconds a kernel whose page went away (no goodbye) lives on; empty: voila.json's (600)
CULL_IDLE ?=
# class tables (issue 26): where they are saved (empty: ~/.local/share/dungeon-guilds/tables) and how
# many may be open at once; the teacher code is printed when the server starts
TABLES_DIR ?=
MAX_TABLES ?= 30
BIN    := $(VENV)/bin

.PHONY: test dashboard install bench clean site serve-site lab figures mutation

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,bench,dashboard,lab]'
	touch $@ $(VENV)/.dashboard-installed

# the dashboard alone: no test or benchmark tools (pip shows what it fetches: a minute or two
# the first time)
$(VENV)/.dashboard-installed: $(BIN)/python pyproject.toml
	@echo "Installing the dashboard's packages into $(VENV) (first time only: a minute or two) ..."
	$(BIN)/python -m pip install --progress-bar on -e '.[dashboard]' 2>&1 | grep -E --line-buffered '^(Collecting|Installing|Successfully|ERROR)' || true
	@$(BIN)/python -c 'import voila, ipywidgets, plotly, pandas, dungeon_guilds' 2>/dev/null \
	  || { echo "The install did not finish: see pip's ERROR lines above (network? disk space?)"; exit 1; }
	touch $@

install: $(VENV)/.installed

# the 30 slowest tests are listed at the end (CI's log shows where its time goes), then the
# total time. JOBS test processes (pytest-xdist; JOBS=1: one, as before): each module runs whole
# on one of them, every module on the dashboard's test server on the same one, the longest first
# (tests/conftest.py); docs/architecture.md ("Tests") has the times.
JOBS ?= 2
test: $(VENV)/.installed
	@start=$$(date +%s); \
	$(BIN)/python -m pytest -rs --durations=30 --nbval-lax $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS) --dist loadgroup) tests notebooks; \
	status=$$?; echo "make test: $$(( $$(date +%s) - start )) s in all ($(JOBS) test processes)"; exit $$status

# The dashboard alone (notebooks/dashboard.ipynb) on $(HOST):$(PORT) — HOST=0.0.0.0 serves the
# local network (a classroom) — by `dungeon-guilds dashboard`, the command a pip-installed package
# has too (dungeon_guilds/app/commands.py): Voila with the dashboard's page handler
# (dungeon_guilds/app/voila_app.py: kernel cap, kernels freed on tab close, no CDN) and voila.json
# (idle-kernel culling, the cell timeouts, no tracebacks); the preheated pool: POOL, above. It
# prints one line when ready (and the address students type). Stop it with Ctrl-C.
# the class tables' settings reach the server through its environment (empty TABLES_DIR: the default)
dashboard: export DUNGEON_GUILDS_MAX_TABLES = $(MAX_TABLES)
dashboard: export DUNGEON_GUILDS_TABLES_DIR = $(TABLES_DIR)
dashboard: $(VENV)/.dashboard-installed
	$(BIN)/dungeon-guilds dashboard --host $(HOST) --port $(PORT) --class $(POOL) \
	  $(if $(MAX_KERNELS),--max-kernels $(MAX_KERNELS)) $(if $(CULL_IDLE),--cull-idle $(CULL_IDLE))

# The static site (dungeon_guilds/app/site.py): the dashboard running in each browser (Voici +
# Pyodide), built into _site/ (git-ignored; put the folder on any static host). Needs the tools
# of dungeon_guilds/app/site_tools/requirements.txt (package data: `dungeon-guilds site DIR`
# builds the same from a pip install) and npm (the npm package `pyodide` goes to build/site/npm/). The build
# tools live in their own environment, build/site/venv: JupyterLite's kernel extension in the
# main .venv would be loaded by JupyterLab (make lab) and break it there.
SITE_VENV := build/site/venv
SITE_BIN  := $(SITE_VENV)/bin

$(SITE_BIN)/python:
	$(PYTHON) -m venv $(SITE_VENV)
	$(SITE_BIN)/python -m pip install --quiet --upgrade pip

$(SITE_VENV)/.site-installed: $(SITE_BIN)/python pyproject.toml dungeon_guilds/app/site_tools/requirements.txt
	$(SITE_BIN)/python -m pip install --quiet -r dungeon_guilds/app/site_tools/requirements.txt -e .
	touch $@

site: $(SITE_VENV)/.site-installed
	$(SITE_BIN)/python -m dungeon_guilds.app.site build --out _site

# serve _site/ on loopback on a free port, or on PORT=N if given; PREFIX=/dungeon-guilds/
# serves it under a sub-path as GitHub Pages does
PREFIX ?= /
serve-site: $(SITE_VENV)/.site-installed
	$(SITE_BIN)/python -m dungeon_guilds.app.site serve --dir _site --port $(if $(filter command line environment,$(origin PORT)),$(PORT),0) --prefix $(PREFIX)

# The notebook series in JupyterLab 4, opened at the index of the learner's own copy, LAB_DIR
# (git-ignored: opening a notebook never changes the tracked files, so `git pull` stays clean;
# `dungeon-guilds lab` copies what is new and keeps the notebooks the learner changed), on
# loopback by default (HOST=0.0.0.0 to listen on every interface; PORT=… to change 8888); as
# root it passes --allow-root. The `lab` extra is what binder/requirements.txt pins;
# binder/overrides.json (JupyterLab's settings overrides: no news pop-up) goes where JupyterLab
# reads it, <venv>/share/jupyter/lab/settings. Ctrl-C stops it.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings
LAB_DIR ?= dungeon-guilds-notebooks

$(VENV)/.lab-installed: $(BIN)/python pyproject.toml binder/overrides.json
	@echo "Installing the notebooks' packages and JupyterLab into $(VENV) (first time only: a few minutes) ..."
	$(BIN)/python -m pip install --progress-bar on -e '.[lab]' 2>&1 | grep -E --line-buffered '^(Collecting|Installing|Successfully|ERROR)' || true
	@$(BIN)/python -c 'import jupyterlab, ipywidgets, plotly, pandas, dungeon_guilds' 2>/dev/null \
	  || { echo "The install did not finish: see pip's ERROR lines above (network? disk space?)"; exit 1; }
	mkdir -p $(LAB_SETTINGS)
	cp binder/overrides.json $(LAB_SETTINGS)/overrides.json
	touch $@

lab: PORT = 8888
lab: $(VENV)/.lab-installed
	$(BIN)/dungeon-guilds lab $(LAB_DIR) --host $(HOST) --port $(PORT)

# Redraw the static copies (PNG beside the plotly JSON) of the notebooks' plotly figures that
# nbconvert and GitHub show without a kernel; kaleido draws them with Chromium (BROWSER_PATH).
figures: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[figures]'
	BROWSER_PATH=$${BROWSER_PATH:-/usr/bin/chromium} $(BIN)/python tools/notebook_figures.py

# Mutation testing of the ten rule modules (issue 54, item 3; tools/mutation.py, configured in
# pyproject.toml's [tool.mutmut]): mutmut, one module and one mutant at a time at the lowest CPU
# priority, then the score per module (killed / (mutants - equivalent)). Hours for all ten on
# two cores: MODULES="payout scoring" runs some. Not in CI; docs/architecture.md has the scores.
MODULES ?=
mutation: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[mutation]'
	nice -n 19 $(BIN)/python tools/mutation.py $(MODULES)

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench_all.py --json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info _site
