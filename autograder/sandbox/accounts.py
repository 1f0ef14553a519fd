"""Can the sandbox user run the grader's Python, and can it read the grader's files?

``user_can_run`` answers for the interpreter the worker execs (runtime.py: the grader's venv, or a
root-owned copy of it where the sandbox user cannot reach the checkout) from permission bits where
they decide it (the grader's own Python and numpy: every parent directory searchable, every file
readable by the account's uid, gid or "other"; in a private world only from each bound folder
down), else by starting that Python once as the user (cached per process; forks of a batch
inherit the answer). The answer is '' (yes), 'readable' (yes, but it can also read this package,
so stored answers may be in reach) or why not.

``sandbox_user_problem`` is the check ``grade`` and ``batch`` make as root before any student code runs:
the pool's base user exists (made here when missing, like setup.sh makes it) and can run the grader's
Python; else student code would run as root, and the answer says which command fixes it.

``exposed`` is the check ``grade`` and ``batch`` make before any student code runs when the
worker gets no private world (namespace.py): what of the checkout, the export and OUTDIR the
sandbox user could read by the permission bits. ``exposure`` words the refusal.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from autograder.sandbox import lock, runtime

DEFAULT_USER = "agsandbox"  # the base name of the pool of sandbox users (lock.py)
USER_ENV = "AUTOGRADER_SANDBOX_USER"  # another base name
_PACKAGE = Path(__file__).resolve().parents[1]  # the autograder package
CHECKOUT_PRIVATE = ("reference", "autograder", "tests")  # what of the checkout student code must not read
ALLOW_FLAG = "--allow-exposed"
_probes: dict[tuple[str, int], str] = {}  # (python, uid) -> "" | "readable" | why the user cannot run it


def user_can_run(python: str, account: pwd.struct_passwd) -> str:
    """Can ``account`` run ``python`` with numpy? '' yes, 'readable' yes and it can read this package, else why not.

    ``python`` as the worker runs it (``runtime.interpreter``: the grader's venv, or a root-owned copy of it
    where the sandbox user cannot reach the checkout). Told by permission bits where they decide it, else by
    starting that Python as the user (cached)."""
    python = runtime.interpreter(python)
    problem = _access(python, account)
    return _probe(python, account) if problem is None else problem


def sandbox_user_problem(base: str, python: str | None = None) -> str:
    """As root: '' when student code can run as ``base``'s pool (its base user exists, created here when missing,
    and can run ``python``, default this interpreter), else why not and the command that fixes it."""
    python = python or sys.executable
    if not lock.ensure_user(base):
        return (f"the sandbox user `{base}` does not exist and could not be created (useradd failed or is missing). "
                f"Create it with `useradd --system --no-create-home --shell /usr/sbin/nologin {base}`, or set "
                f"{USER_ENV} to an existing unprivileged user")
    problem = user_can_run(python, pwd.getpwnam(base))
    if problem in ("", "readable"):
        return ""
    return (f"the sandbox user `{base}` cannot run {python} ({problem}). Use a Python it can read and execute: "
            "a venv made from /usr/bin/python3 in a checkout outside /root (`make clean venv` there)")


def _access(python: str, account: pwd.struct_passwd) -> str | None:
    """``_probe``'s answer from permission bits alone, without starting a process; None when unsure.

    Decides only for the grader's own Python and numpy (``sys.executable``) or a copy of them
    (``runtime.needed``): the files must be readable (the interpreter executable), and every directory
    on the way searchable, by the account's uid, gid or "other"; in the worker's private world, where
    the folders above each bound one are the world's own (namespace.py), only from that folder down.
    ACLs are not looked at: a start that fails anyway is reported.
    """
    from autograder.sandbox import namespace

    needed = runtime.needed(python)
    if needed is None:
        return None
    roots = namespace.view(python)[0] if namespace.unavailable() == "" else None
    for path, mode in needed:
        if not runtime.may(account, path, mode, roots):
            where = " in the worker's private world" if roots is not None else ""
            return f"PermissionError: {path} is not {_WORDS[mode]} by uid {account.pw_uid}{where}"
    return "readable" if runtime.may(account, str(_PACKAGE / "runner.py"), os.R_OK) else ""


_WORDS = {os.R_OK: "readable", os.R_OK | os.X_OK: "executable", os.X_OK: "searchable"}


def _probe(python: str, account: pwd.struct_passwd) -> str:
    """Can ``account`` run ``python`` with numpy? '' yes, 'readable' yes and it can read this package, else why not."""
    key = (python, account.pw_uid)
    check = "import numpy, os, sys; sys.exit(3 if os.access(sys.argv[1], os.R_OK | os.X_OK) else 0)"
    for _ in range(2):  # once more if a signal killed the probe
        if not _probes.get(key, "status -").startswith("status -"):
            break
        try:
            result = subprocess.run(
                [python, "-I", "-c", check, str(_PACKAGE)], user=account.pw_uid, group=account.pw_gid,
                extra_groups=[], cwd="/", env={"PATH": "/usr/bin:/bin", "OPENBLAS_NUM_THREADS": "1"},
                stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False,
            )
        except (OSError, subprocess.SubprocessError) as e:
            _probes[key] = f"{type(e).__name__}: {e}"
            break
        lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
        outcome = {0: "", 3: "readable"}.get(result.returncode)
        _probes[key] = outcome if outcome is not None else (lines[-1] if lines else f"status {result.returncode}")
    return _probes[key]


def checkout_paths() -> list[Path]:
    """The parts of this checkout that hold answers and the grader: reference/, autograder/, tests/."""
    top = _PACKAGE.parent
    return [top / name for name in CHECKOUT_PRIVATE if (top / name).exists()]


def exposed(account: pwd.struct_passwd, paths: Iterable[Path], *, most: int = 5, seconds: float = 10.0) -> list[str]:
    """What ``account`` could read under ``paths`` by the permission bits (uid, gid, other): a directory it
    can list, a file it can open. The first ``most`` found, [] when none (ACLs are not looked at)."""
    found: list[str] = []
    deadline = time.monotonic() + seconds
    for given in paths:
        top = Path(os.path.abspath(given))
        if not top.exists() or not all(runtime.allowed(account, os.stat(p), os.X_OK) for p in top.parents):
            continue
        todo = [str(top)]
        while todo and len(found) < most and time.monotonic() < deadline:
            path = todo.pop()
            try:
                info = os.stat(path, follow_symlinks=False)
            except OSError:
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                if runtime.allowed(account, info, os.R_OK):
                    found.append(path)
                if runtime.allowed(account, info, os.X_OK):
                    with os.scandir(path) as listing:
                        todo += [entry.path for entry in listing]
            elif not os.path.islink(path) and runtime.allowed(account, info, os.R_OK):
                found.append(path)
    return found[:most]


def refusal(user: str, paths: Iterable[Path], *, allowed: bool = False) -> str:
    """Why student code must not run here ('' when it may): as root, with no private world for the worker,
    ``user`` could read part of this checkout or of ``paths`` (the export, OUTDIR). With ``allowed``
    (--allow-exposed), the same said as a warning."""
    from autograder.sandbox import namespace

    why = namespace.unavailable()
    if os.geteuid() != 0 or not why:
        return ""
    try:
        account = pwd.getpwnam(user)
    except KeyError:
        return ""  # no user switch at all: the sandbox says so (isolation reduced)
    found = exposed(account, [*checkout_paths(), *paths])
    return exposure(user, found, why, allowed=allowed) if found else ""


def exposure(user: str, found: list[str], why: str, *, allowed: bool = False) -> str:
    """The refusal (or, ``allowed``, the warning), for the console and report.html."""
    shown = ", ".join(found[:3]) + (" ..." if len(found) > 3 else "")
    risk = (f"the sandbox user `{user}` can read {shown}, and the worker gets no private world here ({why}), "
            "so a submission could read answers, the export or other students' results")
    if allowed:
        return f"Student code ran although {risk} ({ALLOW_FLAG})."
    return (f"Student code was not run: {risk}. Make them private (chmod -R go-rwx on each), or rerun with "
            f"{ALLOW_FLAG} only if you trust every submission.")
