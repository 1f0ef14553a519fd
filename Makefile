# Two commands do everything on a fresh machine: `make demo` and `make test`.
# `make venv` (run by both) builds .venv/ with the pinned grading requirements, the TA extras
# (requirements-ta.txt) and the `autograder` command (.venv/bin/autograder, an editable install of
# this checkout: after moving the checkout, `make clean venv`). `make test` adds the test tools
# (requirements-dev.txt: ruff and torch, our test oracle); nothing else downloads torch.
# The checkout (and its venv) may be anywhere, even where the sandbox user cannot enter: the worker
# reaches the venv's runtime through its private world or a root-owned copy (sandbox/runtime.py). The
# base Python must be one the sandbox user can run without namespaces (not pyenv's under a 0700 /root):
# prefer the system's python3.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
	$$p -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null && { echo $$p; break; }; done)
VENV := .venv
PY := $(VENV)/bin/python
PIP_TORCH_ARGS ?=
# Another CPU, simulated on x86-64: numpy and OpenBLAS without AVX2/FMA/AVX-512 kernels.
OTHER_CPU := NPY_DISABLE_CPU_FEATURES="AVX2 FMA3 AVX512F AVX512CD AVX512_SKX" OPENBLAS_CORETYPE=Sandybridge

.PHONY: venv demo test test-zygote test-other-cpu lint build clean

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-ta.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-ta.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet $(PIP_TORCH_ARGS) -r requirements-dev.txt
	touch $@

demo: venv
	$(VENV)/bin/autograder demo

test: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(VENV)/bin/autograder template --check
	$(VENV)/bin/autograder regen --check
	$(PY) -m pytest -q
	@$(MAKE) --no-print-directory test-zygote
	@$(MAKE) --no-print-directory test-other-cpu

# The sandbox's own tests again, every worker forked from a zygote as in a batch (sandbox/zygotes.py);
# where the zygote cannot run (not root, no namespaces), pytest says why and stops.
test-zygote: $(VENV)/.installed-dev
	AUTOGRADER_TEST_ZYGOTE=1 $(PY) -m pytest -q -p no:cacheprovider tests/test_sandbox.py tests/test_world.py \
		tests/test_student.py tests/test_sandbox_red_team.py tests/test_hostile_findings.py tests/test_hostile_visibility.py \
		tests/test_grader_errors.py tests/test_shares.py

# The stored outputs must not be stale on another CPU (same numpy, other SIMD kernels).
test-other-cpu: venv
	@if [ "$$(uname -m)" = x86_64 ]; then \
		echo "$(OTHER_CPU) autograder regen --check"; $(OTHER_CPU) $(VENV)/bin/autograder regen --check; \
	else echo "test-other-cpu: not an x86-64 machine, nothing to simulate"; fi

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

build: venv
	$(VENV)/bin/autograder build -o dist/autograder.zip

clean:
	rm -rf $(VENV) dist .pytest_cache .ruff_cache *.egg-info
