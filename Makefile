# Dungeon Guilds — two commands on a fresh machine:
#   make dashboard   serve the dashboard (Voila) on 127.0.0.1:$(PORT)
#   make test        run the whole test suite
# Each creates .venv and installs what it needs itself.

PYTHON ?= python3
VENV   ?= .venv
PORT   ?= 8866
BIN    := $(VENV)/bin

.PHONY: test dashboard install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks,bench]'
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

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/bench_all.py --json

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
