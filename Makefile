# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Both bootstrap .venv/ from the pinned requirements.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: venv demo test lint build clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

demo: venv
	$(PY) -m autograder demo

test: venv
	$(PY) -m ruff check .
	$(PY) -m autograder template --check
	$(PY) -m autograder regen --check
	$(PY) -m pytest -q

lint: venv
	$(PY) -m ruff check .

build: venv
	$(PY) -m autograder build -o dist/autograder.zip

clean:
	rm -rf $(VENV) dist .pytest_cache .ruff_cache
