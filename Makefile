# Dungeon Guilds — two commands on a fresh machine:
#   make dashboard   serve the dashboard (Voila) on 127.0.0.1:$(PORT)
#   make test        run the whole test suite
# and a third for learners:
#   make lab         open the notebook series in JupyterLab on $(HOST):8888 (PORT=… to change)
# Each creates .venv and installs what it needs itself.

PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8866
HOST   ?= 127.0.0.1
BIN    := $(VENV)/bin

.PHONY: test dashboard install bench clean lab figures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,bench,lab]'
	touch $@

install: $(VENV)/.installed

test: $(VENV)/.installed
	$(BIN)/python -m pytest -rs --nbval-lax tests notebooks

# The dashboard alone (notebooks/dashboard.ipynb) on 127.0.0.1:$(PORT); voila.json (read from
# this directory) sets the preheated kernel, idle-kernel culling, the cell timeout and no
# tracebacks. Stop it with Ctrl-C.
dashboard: $(VENV)/.installed
	$(BIN)/voila --no-browser --Voila.ip=127.0.0.1 --port=$(PORT) --Voila.port_retries=0 \
	  notebooks/dashboard.ipynb

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
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
