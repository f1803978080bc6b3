# The two commands every newcomer needs:  make run   and   make test
VENV    ?= .venv
PY      := $(VENV)/bin/python
PYTHON  ?= python3
ARGS    ?=

.PHONY: run test test-long sysdeps lint bench clean

run: $(VENV)/.installed
	$(VENV)/bin/companion serve $(ARGS)

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

sysdeps:
	bash scripts/ensure-sysdeps.sh

test: $(VENV)/.test-installed sysdeps
	$(PY) -m pytest -q -m "not long" $(PYTEST_ARGS)

# the reader's held-out cases that each draw and learn a whole stand-in set of dice (8 to 11 minutes)
test-long: $(VENV)/.test-installed
	$(PY) -m pytest -q -m long $(PYTEST_ARGS)

lint: $(VENV)/.test-installed
	$(VENV)/bin/ruff check companion vision hardware web tests bench

bench: $(VENV)/.installed
	$(PY) bench/herald.py

clean:
	rm -rf $(VENV) build *.egg-info
