#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image
# (Ubuntu 22.04, Python 3.10). Idempotent: a second run changes nothing.
#
#   AUTOGRADER_ROOT          the autograder root (default /autograder; the zip is in $ROOT/source)
#   AUTOGRADER_SETUP_PYTHON  the Python to build the venv with (default: the system's python3.10,
#                            else python3; it must be runnable by the sandbox user, so not under /root)
#   AUTOGRADER_SANDBOX_USER  the unprivileged user student code runs as (default agsandbox)
set -euo pipefail

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
VENV="$ROOT/venv"
SANDBOX_USER="${AUTOGRADER_SANDBOX_USER:-agsandbox}"

usable() { "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1; }

PY="${AUTOGRADER_SETUP_PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in /usr/bin/python3.10 /usr/bin/python3 python3.10 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && usable "$candidate"; then PY="$candidate"; break; fi
  done
fi
if [ -z "$PY" ]; then
  echo "setup.sh: no Python >= 3.10 with venv; installing it with apt"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 python3-venv python3-pip
  PY=python3
fi
echo "setup.sh: building $VENV with $("$PY" --version 2>&1) ($PY)"

# The venv is rebuilt only when the pinned requirements change.
stamp="$VENV/.requirements.sha256"
want="$(sha256sum "$SRC/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SRC/requirements.txt"
  echo "$want" > "$stamp"
else
  echo "setup.sh: $VENV is up to date"
fi
"$VENV/bin/python" -c "import numpy, pytest, nbformat, gradescope_utils; print('setup.sh: numpy', numpy.__version__, 'pytest', pytest.__version__)"
# Compiled once into the image: every grading starts in a fresh container, which would compile the engine and the
# homework's modules again.
"$VENV/bin/python" -m compileall -q "$SRC/autograder" "$SRC/homework" >/dev/null \
  || echo "setup.sh: could not precompile the engine (it still runs)"
# ... and the sandbox worker's modules as its run folder takes them (sandbox/runfolder.py: no path in their code)
(cd "$SRC" && "$VENV/bin/python" -c "from autograder.sandbox import runfolder; [runfolder.bytecode(n) for n in runfolder.MODULES]") \
  || echo "setup.sh: could not precompile the worker (it still runs)"

# Student code runs as this unprivileged user; the venv (numpy) must be readable by it,
# the autograder's source, stored outputs and results must not (run_autograder enforces that).
if [ "$(id -u)" = 0 ]; then
  if ! id "$SANDBOX_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$SANDBOX_USER"
    echo "setup.sh: created sandbox user $SANDBOX_USER"
  fi
  chmod -R a+rX "$VENV"
else
  echo "setup.sh: not root: no sandbox user (student code will run with reduced isolation)"
fi
echo "setup.sh: done"
