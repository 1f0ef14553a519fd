"""Which Python ``check-zip`` builds the venv with: a 3.10 like Gradescope's image whenever one is found.

Looked for, in order: ``$AUTOGRADER_PY310``, ``python3.10`` on PATH (a pyenv shim is resolved to
the real interpreter), ``/usr/bin/python3.10``, ``/usr/local/bin/python3.10``, pyenv's versions
(``$PYENV_ROOT`` or ``~/.pyenv``) and uv's (``~/.local/share/uv/python``); each must be 3.10 and
able to build a venv (``venv`` and ``ensurepip``).

As root, student code runs as the sandbox user, who must be able to run the venv's Python. A 3.10
under a private folder (pyenv under ``/root``, mode 700) cannot be: ``relocate`` copies it into the
check's own temporary root, readable by everyone, and points the executable's RUNPATH (where it
finds ``libpython3.10.so``) at the copy. When that is not possible the caller says so and the check
fails on the isolation it records, rather than quietly testing something else.
"""

from __future__ import annotations

import glob
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

PROBE = "import sys, venv, ensurepip; print(sys.executable); print('%d.%d' % sys.version_info[:2])"
SKIP_WHEN_COPYING = ("test", "site-packages", "idlelib", "tkinter", "turtledemo")


def candidates() -> list[str]:
    """Where a Python 3.10 may be, best first (not yet checked)."""
    home = Path(os.path.expanduser("~"))
    pyenv = Path(os.environ.get("PYENV_ROOT") or home / ".pyenv")
    found = [os.environ.get("AUTOGRADER_PY310", ""), shutil.which("python3.10") or "", "/usr/bin/python3.10",
             "/usr/local/bin/python3.10"]
    found += sorted(glob.glob(str(pyenv / "versions" / "3.10*" / "bin" / "python3.10")), reverse=True)
    found += sorted(glob.glob(str(home / ".local/share/uv/python/cpython-3.10*/bin/python3.10")), reverse=True)
    return [c for c in dict.fromkeys(found) if c]


def version_of(python: str) -> tuple[str, str] | None:
    """(real executable, "major.minor") when ``python`` runs and can build a venv, else None."""
    try:
        done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.split()
    return (lines[0], lines[1]) if done.returncode == 0 and len(lines) == 2 else None


def find_python310() -> str | None:
    """A Python 3.10 that can build a venv, preferring one everybody can run; None when there is none."""
    found = []
    for candidate in candidates():
        probed = version_of(candidate)
        if probed and probed[1] == "3.10" and probed[0] not in found:
            found.append(probed[0])
    found.sort(key=lambda python: not runnable_by_anyone(python))  # stable: the search order otherwise
    return found[0] if found else None


def runnable_by_anyone(python: str) -> bool:
    """Every folder above the real executable can be entered, and the file run, by any user."""
    path = Path(os.path.realpath(python))
    if not path.is_file() or not path.stat().st_mode & stat.S_IXOTH:
        return False
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


def relocate(python: str, destination: Path) -> str | None:
    """Copy the installation of ``python`` (a pyenv-like prefix) to ``destination``, readable by all.

    Returns the copy's executable, or None when it cannot be made to work (no standard prefix
    layout, or a RUNPATH shorter than the new one). The test suite, site-packages and GUI modules
    are left out: setup.sh's venv does not use them.
    """
    real = Path(os.path.realpath(python))
    prefix = real.parent.parent
    library = prefix / "lib"
    new_library = destination / "lib"
    if real.parent.name != "bin" or not library.is_dir():
        return None
    shutil.copytree(prefix, destination, symlinks=True, ignore=_skip)
    (destination / "lib" / f"python{_minor(real)}" / "site-packages").mkdir(exist_ok=True)
    executable = destination / "bin" / real.name
    data = executable.read_bytes()
    old = str(library).encode() + b"\0"
    if old in data:
        new = str(new_library).encode()
        if len(new) >= len(old):
            return None
        executable.write_bytes(data.replace(old, new + b"\0" * (len(old) - len(new))))
    for folder, _dirs, files in os.walk(destination):
        os.chmod(folder, 0o755)
        for name in files:
            target = Path(folder) / name
            if not target.is_symlink():
                target.chmod(target.stat().st_mode | 0o444 | (0o111 if target.stat().st_mode & 0o100 else 0))
    destination.chmod(0o755)
    probed = version_of(str(executable))
    return str(executable) if probed else None


def _skip(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name in SKIP_WHEN_COPYING and Path(folder).name.startswith("python")]


def _minor(executable: Path) -> str:
    return executable.name.removeprefix("python") or "3"


def choose(explicit: str | None, *, warn: Callable[[str], None]) -> str | None:
    """``explicit``, else a Python 3.10, else None (setup.sh's own choice), warning loudly that it is not 3.10."""
    if explicit:
        return explicit
    found = find_python310()
    if found is None:
        warn("NOT TESTING PYTHON 3.10 (Gradescope's image has 3.10): none found on PATH, in /usr/bin, pyenv or uv; "
             "setup.sh uses this machine's python3. Install a 3.10 or pass --python.")
    return found


def reachable(python: str | None, destination: Path, *, warn: Callable[[str], None]) -> str | None:
    """As root, a Python the sandbox user cannot run (under /root) is copied to ``destination``, where it can."""
    if python is None or os.geteuid() != 0 or runnable_by_anyone(python):
        return python
    try:
        copy, why = relocate(python, destination), ""
    except OSError as error:
        copy, why = None, f" ({error})"
    if copy is None:
        warn(f"the sandbox user cannot run {python} and it could not be copied{why}: student code will run as "
             "root, which fails this check; pass --python with one outside /root")
        return python
    print(f"....  python: {python} is private to root; testing a world-readable copy of it ({copy})", flush=True)
    return copy
