"""A batch dies with all its gradings, and what a killed batch left in TMPDIR is removed by the next one.

A batch's processes form a chain: the main process (``batch``) starts the fork server, which forks every
grading and starts the zygote; a grading starts its worker (confine.py) or has the zygote fork it in a world
that ends when the grading's status socket closes (zygote.py). SIGTERM, SIGHUP and Ctrl-C reach the main
process, which kills its gradings (pool.py) and exits. A SIGKILL cannot be handled, so each link dies with
the one before it instead: ``PR_SET_PDEATHSIG`` (SIGKILL) in the fork server for the main process
(``in_fork_server``), in the zygote for the fork server (zygote.py), and in the worker or its world's
``unshare`` for the grading (confine.py). Each checks, once the signal is set, that its parent is still the one
it was forked by (else that parent died first and it exits at once). The main process says who it is in
``PARENT_ENV``; the fork server in ``SERVER_ENV``.

A grading dies with the fork server by SIGTERM instead (``in_grading``), which it handles (``_end_grading``):
before it exits it closes its sandboxes, which kills every process of its sandbox user. Without a private world
(no PID namespace: Docker's default capabilities), that is what ends a student's daemon (setsid and a double
fork: no longer anyone's descendant) when the batch is killed, even by SIGKILL; in a world, the world's end
does. The main process stops its gradings the same way (``pool.stop``): SIGTERM first, then SIGKILL. Should a
grading not even get there (SIGKILLed itself), the next grading of that user kills what it left, as it always
has (``Sandbox``).

``remove_stale`` (the next run, before it grades) removes the root-owned scratch a killed batch left in
TMPDIR: its ``autograder-batch-*`` and ``ag-zygote-*`` folders, whose owner process has ended (reaper.py:
``.owner``, pid and start time) or that are empty and a minute old (a removal cut short after the owner file),
and a ``pymp-*`` folder of multiprocessing holding only fork-server sockets that no process has bound any more
(/proc/net/unix). Another batch's live scratch is never touched.
"""

from __future__ import annotations

import ctypes
import os
import signal
import stat
import tempfile
import time
from pathlib import Path

from autograder.sandbox import reaper

PARENT_ENV = "AUTOGRADER_BATCH_PID"  # the main process's pid, for the fork server
SERVER_ENV = "AUTOGRADER_BATCH_SERVER"  # the fork server's pid, for its gradings
PR_SET_PDEATHSIG = 1
PREFIXES = ("autograder-batch-", "ag-zygote-")  # folders with an owner file
PYMP = "pymp-"  # multiprocessing's: the fork server's listening socket


END_SECONDS = 5  # how long a grading's cleanup may take once its batch is gone (SIGALRM's default then ends it)


def die_with(parent: int, signum: int = signal.SIGKILL) -> None:
    """Send ``signum`` to this process when ``parent`` (its parent now) ends; exit at once if it has ended
    already."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        return  # not Linux: the main process's own cleanup (SIGTERM, SIGHUP, Ctrl-C) still holds
    if os.getppid() != parent:
        os._exit(1)


def for_fork_server() -> None:
    """In the main process, before the fork server starts: say who it must die with."""
    os.environ[PARENT_ENV] = str(os.getpid())


def in_fork_server() -> None:
    """In the fork server (warm.py, at its import): die with the main process; a terminal's hangup, which
    reaches the main process's group, is the main process's to handle (it kills the gradings, then exits)."""
    if os.environ.get(PARENT_ENV) != str(os.getppid()):
        return  # imported elsewhere (the main process, a test)
    die_with(os.getppid())
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    os.environ[SERVER_ENV] = str(os.getpid())


def in_grading() -> None:
    """In a grading process, first thing: die with the fork server, by SIGTERM, closing its sandboxes first
    (``_end_grading``); SIGHUP back to its default (the fork server ignores it, and an ignored signal would stay
    ignored in every worker)."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, _end_grading)
    server = os.environ.get(SERVER_ENV, "")
    if server.isdigit():
        die_with(int(server), signal.SIGTERM)


def _end_grading(signum: int, frame: object) -> None:
    """A grading told to end (its batch is gone, or stops it): kill what its sandbox users run, daemons
    included, and remove their files, then exit at once (nothing of this grading is recorded)."""
    signal.alarm(END_SECONDS)  # should the cleanup hang, SIGALRM's default action ends the process
    try:
        from autograder.sandbox import supervisor

        supervisor.close_all()
    finally:
        os._exit(128 + signum)


def remove_stale(folder: str | None = None) -> list[str]:
    """Remove what a killed batch left in ``folder`` (default TMPDIR); the paths removed."""
    top = Path(folder or tempfile.gettempdir())
    try:
        names = os.listdir(top)
    except OSError:
        return []
    removed = []
    bound: set[str] | None = None
    for name in sorted(names):
        path = top / name
        if not name.startswith((*PREFIXES, PYMP)) or not _ours(path):
            continue
        if name.startswith(PYMP):
            bound = _bound_sockets() if bound is None else bound
            stale = bound is not None and _stale_pymp(path, bound)
        else:
            stale = reaper.owner_gone(path) or _abandoned(path)
        if stale:
            reaper.remove_tree(path)
            removed.append(str(path))
    return removed


ABANDONED_SECONDS = 60


def _abandoned(path: Path) -> bool:
    """An empty folder untouched for ``ABANDONED_SECONDS``: a removal cut short between its owner file and the
    folder itself (a folder is marked within microseconds of being made, so a fresh one is never taken)."""
    try:
        empty = not os.listdir(path)
        return empty and time.time() - os.lstat(path).st_mtime > ABANDONED_SECONDS
    except OSError:
        return False


def _ours(path: Path) -> bool:
    """A real folder (not a link) owned by this process's user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()


def _stale_pymp(path: Path, bound: set[str]) -> bool:
    """A multiprocessing folder holding only fork-server sockets (``listener-*``), none of them bound now."""
    try:
        entries = [(e.path, e.name, e.stat(follow_symlinks=False).st_mode) for e in os.scandir(path)]
    except OSError:
        return False
    sockets = [p for p, name, mode in entries if name.startswith("listener-") and stat.S_ISSOCK(mode)]
    return bool(sockets) and len(sockets) == len(entries) and not any(p in bound for p in sockets)


def _bound_sockets() -> set[str] | None:
    """The paths of every Unix socket bound in this network namespace (/proc/net/unix); None when unreadable."""
    try:
        lines = Path("/proc/net/unix").read_text().splitlines()[1:]
    except OSError:
        return None
    return {fields[7] for fields in (line.split() for line in lines) if len(fields) >= 8}
