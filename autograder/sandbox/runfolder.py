"""The worker's run folder: its modules, their bytecode, and the command line that starts it.

``Sandbox`` makes one folder per grading, root-owned and readable by the sandbox user, and
``populate`` copies ``worker.py`` (with ``worker_guards.py`` and ``worker_proxies.py``), ``protocol.py`` and
``seccomp.py`` into it. When the worker runs the
grader's own interpreter, their ``__pycache__`` files come too: compiled once per grader process (a batch's
fork server does it for every fork) and written as unchecked hash-based pycs (PEP 552), which
the interpreter loads without reading the sources' dates. A worker start then compiles nothing
(~11 ms of its CPU). A worker given another interpreter (``Sandbox(python=...)``) looks for its own
cache tag, finds none, and compiles the sources as before; check-zip runs the whole grader in its
Python 3.10, which writes bytecode of its own.

The worker is imported as a module by a one-line ``-c`` program (``argv``), run by the interpreter
as the sandbox user can reach it (runtime.py: the grader's venv, or a root-owned copy of it when the
checkout is out of that user's reach): a script run by its path is always compiled. The bytecode
names no folder (nothing of the checkout's path reaches the sandbox); tracebacks name the copies in
the run folder, as the import system sets the code's file names to the source it found next to the
pyc.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import marshal
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("worker", "worker_guards", "worker_proxies", "protocol", "seccomp")
BOOT = ("import sys; sys.path.insert(0, {folder!r}); import {module}; del sys.path[0]; "
        "sys.exit({module}.main(sys.argv))")


def populate(folder: Path, python: str, modules: tuple[str, ...] = MODULES) -> list[str]:
    """Copy the worker's modules (or ``modules`` of this folder: zygotes.py) and, for this interpreter, their
    bytecode into ``folder``, readable by all; every file written, for the worker's private world to show."""
    files = []
    for name in modules:
        shutil.copyfile(HERE / f"{name}.py", folder / f"{name}.py")
        files.append(folder / f"{name}.py")
    if os.path.realpath(python) == os.path.realpath(sys.executable) and sys.implementation.cache_tag:
        (folder / "__pycache__").mkdir()
        (folder / "__pycache__").chmod(0o755)  # whatever the umask (a batch's is 077)
        for name in modules:
            path = folder / "__pycache__" / f"{name}.{sys.implementation.cache_tag}.pyc"
            path.write_bytes(bytecode(name))
            files.append(path)
    for path in files:
        path.chmod(0o644)
    return [str(path) for path in files]


@functools.cache
def bytecode(name: str) -> bytes:
    """The unchecked hash-based pyc of module ``name`` (PEP 552: magic, flags 0b01, source hash, marshalled code).

    Kept beside the module's own bytecode (``__pycache__/NAME.runfolder.TAG.pyc``) for the next grading process,
    which takes it when its header holds this interpreter's magic and the source's hash (~15 ms of a grading's
    critical path otherwise: ``autograder run`` grades one submission per process); compiled and written (when
    the checkout is writable: an image's or a TA's) otherwise."""
    source = (HERE / f"{name}.py").read_bytes()
    header = importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little") + importlib.util.source_hash(source)
    cached = HERE / "__pycache__" / cached_name(name)
    with contextlib.suppress(OSError):
        pyc = cached.read_bytes()
        if pyc[:16] == header:
            return pyc
    code = compile(source, f"{name}.py", "exec", dont_inherit=True)  # no path of the checkout in the sandbox
    pyc = header + marshal.dumps(code)  # flags 0b01: hash-based, never checked against the source
    with contextlib.suppress(OSError):
        cached.parent.mkdir(exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        partial.write_bytes(pyc)
        partial.replace(cached)  # whole or not at all, whatever runs beside it
    return pyc


def cached_name(name: str) -> str:
    """The file name under ``__pycache__`` of ``bytecode(name)``, beside the module's own pyc."""
    return f"{name}.runfolder.{sys.implementation.cache_tag}.pyc"


def argv(python: str, folder: Path, read_fd: int, write_fd: int) -> list[str]:
    """The worker's command line: isolated mode, no bytecode written, unbuffered output; ``sys.argv`` is
    ``["-c", READ_FD, WRITE_FD]``. The interpreter is ``python`` as the sandbox user can reach it (runtime.py)."""
    from autograder.sandbox import runtime

    boot = BOOT.format(folder=str(folder), module="worker")
    return [runtime.interpreter(python), "-I", "-B", "-u", "-c", boot, str(read_fd), str(write_fd)]


def environment(home: str) -> dict[str, str]:
    """The worker's whole environment: ``home`` as HOME and TMPDIR, a minimal PATH, UTF-8, one BLAS thread."""
    return {"HOME": home, "TMPDIR": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
