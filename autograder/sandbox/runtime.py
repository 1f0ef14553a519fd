"""What the worker runs (an interpreter, its standard library, numpy), in the sandbox user's reach wherever
the checkout lives.

The grader's venv usually sits in the checkout. Cloned into a folder the sandbox user cannot traverse
(root's home, a 0750 home, ``mktemp -d``), that venv's interpreter and numpy are out of the user's reach
on the host. Two ways serve them anyway:

- In a private world (namespace.py) the folders above each bound one are the world's own (0755): only
  the permission bits from the bound folder down count (``reachable``), so the venv serves as it is.
- Otherwise (no namespaces, or a venv whose own files are private, as a umask of 077 makes them),
  ``interpreter`` gives a root-owned copy readable by all: a venv of its own (``pyvenv.cfg``,
  ``bin/python`` -> the base interpreter, numpy's distribution with its bytecode in its site-packages)
  in ``/var/lib/autograder/runtime/KEY`` (else the 0755 folder ``/tmp/ag-runtime-KEY``), KEY a hash of
  what it holds (the files' names, sizes and dates, the base interpreter). It is built beside its place
  and renamed into it, so a grading finds a whole copy or none; one per machine and numpy build (~75 MB).

The base interpreter (``pyvenv.cfg``'s home) must be in reach itself: ``/usr/bin/python3`` is; pyenv's
under a 0700 ``/root`` is in a private world only (the README says what to do without one).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pwd
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from autograder.sandbox import namespace

PACKAGES = ("numpy",)  # the distributions worker.py and protocol.py import beyond the standard library
HOMES = ("/var/lib/autograder/runtime", "/tmp")  # where a copy is made: the first that is root's alone
PREFIX = "ag-runtime-"
LAYOUT = "1"  # part of the key: a change to what a copy holds makes new copies
OTHER = SimpleNamespace(pw_name="other", pw_uid=-1, pw_gid=-1)  # anyone but a file's owner and group (as a pwd entry)
_chosen: dict[tuple[str, str], str] = {}  # (python, no world's reason) -> what the worker execs (cached)
_copies: dict[str, str] = {}  # interpreter of a copy -> its site-packages


def interpreter(python: str) -> str:
    """The interpreter the worker execs for ``python``: itself, or (as root, for the grader's own venv when the
    sandbox user could not reach it: see the module's docstring) the root-owned copy's. Falls back to ``python``
    when no copy can be made (``accounts.user_can_run`` then says why the user cannot run it)."""
    if os.geteuid() != 0 or not _own_venv(python):
        return python
    key = (python, namespace.unavailable())  # the answer differs with and without a private world
    if key not in _chosen:
        chosen = python
        if not reachable(python):
            with contextlib.suppress(OSError):
                chosen = _copy()
        _chosen[key] = chosen
        if chosen != python:  # a world shows the copy wherever it shows ``python`` (a zygote's workers included)
            namespace.INSTEAD[key] = chosen
    return _chosen[key]


def _own_venv(python: str) -> bool:
    """Whether ``python`` is the grader's own interpreter (``sys.executable``), and it runs in a venv."""
    return sys.prefix != sys.base_prefix and os.path.abspath(python) == os.path.abspath(sys.executable)


def needed(python: str) -> list[tuple[str, int]] | None:
    """(real path, access) of what the worker opens of ``python``'s runtime: the interpreter, pyvenv.cfg, the
    standard library and numpy. None for an interpreter other than the grader's own or a copy of it."""
    if python in _copies:
        site, prefix = _copies[python], os.path.dirname(os.path.dirname(python))
        numpy_init = os.path.join(site, "numpy", "__init__.py")
    elif os.path.abspath(python) == os.path.abspath(sys.executable):
        spec = importlib.util.find_spec("numpy")  # where it is, without importing it (grade's own process)
        prefix, numpy_init = sys.prefix, (spec.origin if spec and spec.origin else "")
    else:
        return None
    paths = [(python, os.R_OK | os.X_OK), (numpy_init, os.R_OK), (os.__file__, os.R_OK),
             (os.path.join(prefix, "pyvenv.cfg"), os.R_OK)]
    folder = os.path.realpath(os.path.dirname(os.path.abspath(python)))  # the worker execs it from there
    return [(os.path.realpath(path), mode) for path, mode in paths if os.path.exists(path)] + [(folder, os.X_OK)]


def reachable(python: str, account: Any = OTHER) -> bool:
    """Whether ``account`` (default: anyone) can open all ``needed`` of ``python`` by the permission bits: in
    the private world when there is one (only the bits from each bound folder down), else on the host."""
    wanted = needed(python)
    roots = namespace.view(python)[0] if namespace.unavailable() == "" else None
    return wanted is not None and all(may(account, path, mode, roots) for path, mode in wanted)


def _copy() -> str:
    """The interpreter of the root-owned copy of this venv's runtime (made when missing). Raises OSError."""
    import importlib.metadata

    tops: dict[str, Path] = {}  # top-level name in site-packages -> its path
    for name in PACKAGES:
        dist = importlib.metadata.distribution(name)
        for entry in dist.files or ():
            if entry.parts and entry.parts[0] != "..":
                tops[entry.parts[0]] = Path(str(dist.locate_file(entry.parts[0])))
    base = os.path.realpath(getattr(sys, "_base_executable", "") or os.path.join(sys.base_prefix, "bin", "python3"))
    key = _key(base, tops)
    lib = f"lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
    problems = []
    for home in HOMES:
        try:
            folder = _place(home, key, lambda build: _fill(build, base, lib, tops))
        except OSError as e:
            problems.append(f"{home}: {e}")
            continue
        python = os.path.join(folder, "bin", "python")
        _copies[python] = os.path.join(folder, lib)
        if reachable(python):
            return python
        problems.append(f"{folder} is not readable by all")
    raise OSError("; ".join(problems))


def _key(base: str, tops: dict[str, Path]) -> str:
    """A hash of what a copy holds: every file's name, size and date, and the base interpreter."""
    digest = hashlib.sha256(f"{LAYOUT}\n{base}\n{sys.version}\n".encode())
    for top in sorted(tops.values()):
        found = [top] if not top.is_dir() else sorted(p for p in top.rglob("*") if not p.is_dir())
        for path in found:
            info = path.lstat()
            digest.update(f"{path.relative_to(top.parent)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def _place(home: str, key: str, fill) -> str:
    """The folder of the copy ``key`` in ``home``, made by ``fill`` in a folder beside it, renamed into place."""
    if home == "/tmp":  # sticky: no one else can rename or remove root's entries there
        final = os.path.join(home, PREFIX + key)
    else:
        _root_folder(home)
        final = os.path.join(home, key)
    for _ in range(3):
        if _sound(final):
            return final
        if os.path.lexists(final):  # not root's, or writable by others: never used, removed
            _remove(final)
        build = tempfile.mkdtemp(prefix=".build-" + PREFIX, dir=home)
        try:
            fill(build)
            os.chmod(build, 0o755)
            os.rename(build, final)  # fails when another grading placed its copy first: that one serves
        except OSError:
            if not _sound(final):
                raise
        finally:
            if os.path.lexists(build):
                _remove(build)
    if not _sound(final):
        raise OSError(f"{final} could not be made root's alone")
    return final


def _root_folder(path: str) -> None:
    """Make ``path`` (0755) and its missing parents; OSError unless it and every folder above it are root's alone."""
    if not os.path.isdir(path):
        _root_folder(os.path.dirname(path))
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o755)
        os.chmod(path, 0o755)
    if not _sound(path):
        raise OSError(f"{path} is not a folder only root can write")
    for folder in Path(path).parents:  # root's; writable by others only if sticky (/tmp): root's entries stay
        info = folder.lstat()
        if info.st_uid != 0 or (info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX):
            raise OSError(f"{folder} is not a folder only root can change")


def _sound(path: str) -> bool:
    """A real folder (no link), owned by root, that no one else can write."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return os.path.isdir(path) and not os.path.islink(path) and info.st_uid == 0 and not info.st_mode & 0o022


def _remove(path: str) -> None:
    if os.path.islink(path) or not os.path.isdir(path):
        with contextlib.suppress(OSError):
            os.unlink(path)
    else:
        shutil.rmtree(path, ignore_errors=True)


def _fill(build: str, base: str, lib: str, tops: dict[str, Path]) -> None:
    """A venv in ``build``: pyvenv.cfg, bin/python -> ``base``, ``tops`` (with their bytecode) in ``lib``."""
    version = ".".join(map(str, sys.version_info[:3]))
    Path(build, "pyvenv.cfg").write_text(f"home = {os.path.dirname(base)}\ninclude-system-site-packages = false\n"
                                         f"version = {version}\n")
    os.makedirs(os.path.join(build, "bin"))
    os.symlink(base, os.path.join(build, "bin", "python"))
    site = os.path.join(build, lib)
    os.makedirs(site)
    for name, top in tops.items():
        if top.is_dir():  # dates kept (copy2): the bytecode stays valid for its sources
            shutil.copytree(top, os.path.join(site, name), symlinks=True, copy_function=shutil.copy2)
        else:
            shutil.copy2(top, os.path.join(site, name))
    for folder, _, files in os.walk(build):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755 if os.stat(path).st_mode & 0o100 else 0o644)


def may(account: pwd.struct_passwd, path: str, mode: int, roots: Iterable[str] | None = None) -> bool:
    """Whether ``account`` may open ``path`` with ``mode`` by the permission bits on it and its parents. With
    ``roots`` (the folders a private world binds), only the parents from the bound folder holding ``path`` down
    count (the world's folders above it are 0755); False when none holds it."""
    try:
        parents = list(Path(path).parents)
        if roots is not None:
            holding = [root for root in roots if _inside(path, root)]
            if not holding:
                return False
            top = max(holding, key=len)
            parents = [p for p in parents if _inside(str(p), top)]
        return all(allowed(account, os.stat(p), os.X_OK) for p in parents) and allowed(account, os.stat(path), mode)
    except OSError:
        return False


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def allowed(account: pwd.struct_passwd, info: os.stat_result, want: int) -> bool:
    """Whether ``account`` (its uid, else its gid, else "other") has ``want`` (os.R_OK...) by ``info``'s mode."""
    shift = 6 if info.st_uid == account.pw_uid else 3 if info.st_gid == account.pw_gid else 0
    bits = (info.st_mode >> shift) & 0o7
    return all(bits & bit for flag, bit in ((os.R_OK, 4), (os.W_OK, 2), (os.X_OK, 1)) if want & flag)
