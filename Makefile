# Dungeon Guilds — two commands on a fresh machine:
#   make dashboard   serve the dashboard (Voila) on $(HOST):$(PORT)
#   make test        run the whole test suite
# and a third for learners:
#   make lab         open the notebook series in JupyterLab on $(HOST):8888 (PORT=… to change)
# Each creates .venv and installs what it needs itself (make dashboard: only the dashboard's
# packages; make lab: the notebooks and JupyterLab; make test: everything).
# Also: make site (the static site in _site/, Python in each browser) and make serve-site.

PYTHON ?= python3
VENV   ?= .venv
HOST   ?= 127.0.0.1
PORT   ?= 8866
# at most this many kernels (one a student page, plus the preheated pool); beyond it a 503 page
MAX_KERNELS ?= 40
# preheated kernels that have already run the dashboard: one for each student of a class arriving
# at once (each ~100-170 MB; they count under MAX_KERNELS); 0 turns preheating off
POOL   ?= 30
# seconds a kernel whose page went away (no goodbye) lives on; empty: voila.json's (600)
CULL_IDLE ?=
# class tables (issue 26): where they are saved (empty: ~/.local/share/dungeon-guilds/tables) and how
# many may be open at once; the teacher code is printed when the server starts
TABLES_DIR ?=
MAX_TABLES ?= 30
BIN    := $(VENV)/bin

.PHONY: test dashboard install bench clean site serve-site lab figures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,bench,dashboard,lab]'
	touch $@ $(VENV)/.dashboard-installed

# the dashboard alone: no test or benchmark tools
$(VENV)/.dashboard-installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dashboard]'
	touch $@

install: $(VENV)/.installed

test: $(VENV)/.installed
	$(BIN)/python -m pytest -rs --nbval-lax tests notebooks

# The dashboard alone (notebooks/dashboard.ipynb) on $(HOST):$(PORT) — HOST=0.0.0.0 serves the
# local network (a classroom). dungeon-guilds-voila is Voila with the dashboard's page handler
# (dungeon_guilds/app/voila_app.py: kernel cap, kernels freed on tab close, no CDN); voila.json
# (read from this directory) sets idle-kernel culling (the preheated pool: POOL, above), the cell timeouts and
# no tracebacks. Stop it with Ctrl-C.
dashboard: $(VENV)/.dashboard-installed
	DUNGEON_GUILDS_MAX_KERNELS=$(MAX_KERNELS) DUNGEON_GUILDS_POOL=$(POOL) DUNGEON_GUILDS_MAX_TABLES=$(MAX_TABLES) \
	  $(if $(TABLES_DIR),DUNGEON_GUILDS_TABLES_DIR=$(TABLES_DIR)) $(BIN)/dungeon-guilds-voila --no-browser \
	  --Voila.ip=$(HOST) --port=$(PORT) --Voila.port_retries=0 \
	  $(if $(CULL_IDLE),--MappingKernelManager.cull_idle_timeout=$(CULL_IDLE)) \
	  notebooks/dashboard.ipynb

# The static site (dungeon_guilds/app/site.py): the dashboard running in each browser (Voici +
# Pyodide), built into _site/ (git-ignored; put the folder on any static host). Needs the `site`
# extra and npm (the npm package `pyodide` goes to build/site/npm/, git-ignored). The build
# tools live in their own environment, build/site/venv: JupyterLite's kernel extension in the
# main .venv would be loaded by JupyterLab (make lab) and break it there.
SITE_VENV := build/site/venv
SITE_BIN  := $(SITE_VENV)/bin

$(SITE_BIN)/python:
	$(PYTHON) -m venv $(SITE_VENV)
	$(SITE_BIN)/python -m pip install --quiet --upgrade pip

$(SITE_VENV)/.site-installed: $(SITE_BIN)/python pyproject.toml
	$(SITE_BIN)/python -m pip install --quiet -e '.[site]'
	touch $@

site: $(SITE_VENV)/.site-installed
	$(SITE_BIN)/python -m dungeon_guilds.app.site build --out _site

# serve _site/ on loopback on a free port, or on PORT=N if given; PREFIX=/dungeon-guilds/
# serves it under a sub-path as GitHub Pages does
PREFIX ?= /
serve-site: $(SITE_VENV)/.site-installed
	$(SITE_BIN)/python -m dungeon_guilds.app.site serve --dir _site --port $(if $(filter command line environment,$(origin PORT)),$(PORT),0) --prefix $(PREFIX)

# The notebook series in JupyterLab 4, opened at notebooks/00_index.ipynb, on loopback by default
# (HOST=0.0.0.0 to listen on every interface; PORT=… to change 8888). The `lab` extra is what
# binder/requirements.txt pins; binder/overrides.json (JupyterLab's settings overrides: no news
# pop-up) goes where JupyterLab reads it, <venv>/share/jupyter/lab/settings. Ctrl-C stops it.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

$(VENV)/.lab-installed: $(BIN)/python pyproject.toml binder/overrides.json
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	mkdir -p $(LAB_SETTINGS)
	cp binder/overrides.json $(LAB_SETTINGS)/overrides.json
	touch $@

lab: PORT = 8888
lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab --ServerApp.ip=$(HOST) --ServerApp.port=$(PORT) --ServerApp.port_retries=0 \
	  notebooks/00_index.ipynb

# Redraw the static copies (PNG beside the plotly JSON) of the notebooks' plotly figures that
# nbconvert and GitHub show without a kernel; kaleido draws them with Chromium (BROWSER_PATH).
figures: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[figures]'
	BROWSER_PATH=$${BROWSER_PATH:-/usr/bin/chromium} $(BIN)/python tools/notebook_figures.py

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench_all.py --json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info _site
