# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Both bootstrap .venv/ from the pinned requirements.
# The venv's Python must be one the sandbox user can run (not under /root, e.g. pyenv's), or
# student code cannot switch users when grading as root: prefer the system's python3.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
	$$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null && { echo $$p; break; }; done)
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
