"""Hostile and odd submissions for the sandbox tests, and helpers to run them.

Each ``*.py`` here is a small submission (or notebook-cell material) that misbehaves
in one way; tests load them with ``program(snippet("name"))``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pwd
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
REFERENCE = HERE.parents[1] / "reference" / "attention.py"
SESSION_ENV = "AUTOGRADER_TEST_USER"  # this test session's base name, for the processes it starts
_session_locks: list[int] = []


def _session_base() -> str:
    """The base name of this test session's own pool of sandbox users: the first of agsbtesta, agsbtestb, ...
    that no other test session on this machine holds (root only; an flock held for this process's life), so
    that concurrent test runs (another checkout's `make test`, a TA's) never take each other's users, nor kill
    each other's processes as leftovers of a user they hold (nor run into the process limit with them). Not
    agsandbox: a batch on this machine keeps its own processes; not agsbtest: older checkouts share that one
    without a session lock."""
    given = os.environ.get(SESSION_ENV)
    if given or os.geteuid() != 0:
        return given or "agsbtest"
    from autograder.sandbox import lock

    folder = lock.lock_dir()
    for name in [f"agsbtest{letter}" for letter in "abcdefgh"]:
        fd = os.open(os.path.join(folder, f"session-{name}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        _session_locks.append(fd)
        os.environ[SESSION_ENV] = name  # the Python processes this session starts use it too
        return name
    return "agsbtesta"  # eight sessions at once: share (a user of the pool is still one grading's at a time)


TEST_USER = _session_base()


def snippet(name: str) -> str:
    """The source of ``tests/hostile/<name>.py``."""
    return (HERE / f"{name}.py").read_text()


def program(*sources: str, notes: tuple[str, ...] = ()) -> SimpleNamespace:
    """A Program like intake's: one source is attention.py, several are notebook code cells."""
    if len(sources) == 1:
        chunks = [SimpleNamespace(label="attention.py", filename="attention.py", source=sources[0], first_line=1)]
    else:
        chunks = [
            SimpleNamespace(label=f"code cell {i}", filename=f"attention.ipynb (code cell {i})", source=s, first_line=1)
            for i, s in enumerate(sources, 1)
        ]
    return SimpleNamespace(chunks=chunks, notes=list(notes))


@contextlib.contextmanager
def sandbox_user() -> Iterator[str | None]:
    """The test sandbox user, created if missing (root only; None otherwise).

    The user must be able to run the base interpreter: when an ancestor directory of it
    is closed to others (pyenv under a 0700 /root), it gets o+x (traverse
    only, no listing) while any test session on this machine needs it; the last one
    to finish restores the original modes (kept in a state file, under a lock).
    """
    if os.geteuid() != 0:
        yield None
        return
    try:
        pwd.getpwnam(TEST_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", TEST_USER],
                       check=True)
    with _traverse_state() as state:
        for folder in _closed_ancestors():
            state["modes"].setdefault(str(folder), folder.stat().st_mode)
            folder.chmod(folder.stat().st_mode | stat.S_IXOTH)
        state["sessions"].append(os.getpid())
    try:
        yield TEST_USER
    finally:
        with _traverse_state() as state:
            state["sessions"] = [p for p in state["sessions"] if p != os.getpid() and Path(f"/proc/{p}").exists()]
            if not state["sessions"]:
                for folder, mode in state.pop("modes").items():
                    Path(folder).chmod(stat.S_IMODE(mode))
                state["modes"] = {}


def _closed_ancestors() -> list[Path]:
    """Closed folders above the base interpreter (pyenv's under /root). Not above the venv or numpy: the sandbox
    reaches those wherever the checkout lives (sandbox/runtime.py), and a checkout in a 0700 folder stays so."""
    target = Path(os.path.realpath(sys.executable))
    return sorted(f for f in target.parents if not f.stat().st_mode & stat.S_IXOTH)


@contextlib.contextmanager
def _traverse_state() -> Iterator[dict]:
    """{"modes": {folder: original st_mode}, "sessions": [pids]}, read and written under a lock."""
    path = Path("/tmp/agsbtest-traverse.json")
    with open("/tmp/agsbtest-traverse.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state = json.loads(path.read_text()) if path.exists() else {"modes": {}, "sessions": []}
        yield state
        path.write_text(json.dumps(state))
