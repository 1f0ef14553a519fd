"""The student's time: what budgets that decide grades count, whatever the neighbours do to the CPU.

A wall-clock limit punishes a submission for its neighbours: on a shared machine a process
that wants the CPU waits in the run queue while others (another grading's fork storm, each
child in its own session) take it. So every limit that decides a grade counts the
**student's time**: wall-clock time minus the time the worker waited for a CPU while it was
runnable (``/proc/PID/schedstat``, second field). Time the student's code spends computing,
sleeping or waiting for its own children is counted; time it was kept from running is not.
The worker's own alarm (worker.py) and the grader's deadlines (``Sandbox``) both use it.

Three guards keep the student from stretching its own limit. A wait is discounted only when the
student could not have caused it: while any other process of the student is alive (of the sandbox
user, or below the worker), or the worker has lowered its own priority (``deprioritized``), the
worker's waits count as the student's time (``StudentClock.charge``, checked every CPU_CHECK_EVERY s
of waiting): honest code runs in one process at the priority it was given, and a submission that
starves its worker with its own children, or yields the CPU to everyone else, gets no time for it. The CPU time of
the worker's processes also counts: the slot's cgroup's cumulative usage where there is one
(``shares.Slot.usage``: every process that ever ran in it), else utime + stime in ``/proc/PID/stat``
of the worker's processes, reaped children included (a child reaped by the kernel, its parent ignoring
SIGCHLD, is missed there, hence the first guard). Last, a generous wall-clock backstop (``backstop``)
ends an operation that has not finished: while the student had other processes it is the student's
timeout; with the worker alone at its priority, only the machine can have kept it from running, so the
machine was overloaded (a grader error, "regrade", never the student's failure). Where /proc has no schedstat, the
student's time is the wall-clock time (as before).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable

from autograder.sandbox import reaper

LOW_POLICIES = {getattr(os, "SCHED_BATCH", 3), getattr(os, "SCHED_IDLE", 5)}
BACKSTOP_FACTOR, BACKSTOP_EXTRA = 5.0, 30.0  # wall-clock limit of an operation allowed ``s`` student seconds
CPU_CHECK_EVERY = 0.5  # seconds between scans of the worker's process tree
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def run_queue_wait(pid: int) -> float | None:
    """Seconds ``pid`` has spent runnable but waiting for a CPU, or None when unknown."""
    try:
        return _wait_in(reaper.read_proc(f"/proc/{pid}/schedstat"))
    except (OSError, ValueError, IndexError):
        return None


def _wait_in(schedstat: bytes) -> float:
    """The run-queue wait in a ``schedstat`` file's text (its second field, ns), in seconds."""
    return int(schedstat.split()[1]) / 1e9


def own_wait() -> float:
    """Seconds the calling thread has spent runnable but waiting for a CPU (0 when unknown). Read twice per
    callback a student's call makes: the file stays open (one pread, ~1 us)."""
    key = (os.getpid(), threading.get_native_id())
    try:
        fd = _own.get(key)
        if fd is None:
            fd = _own.setdefault(key, os.open("/proc/thread-self/schedstat", os.O_RDONLY))
        return _wait_in(os.pread(fd, 200, 0))
    except (OSError, ValueError, IndexError):
        return 0.0


_own: dict[tuple[int, int], int] = {}  # (pid, thread) -> its schedstat, open


def tree_cpu(root: int, uid: int | None = None, table: dict[int, dict] | None = None) -> float:
    """CPU seconds (user + system) of ``root`` and its live descendants, reaped children of each included;
    with ``uid``, of every live process of that uid too (daemons that left the tree). ``table``: a
    ``reaper.process_table()`` just read (default: read one)."""
    table = reaper.process_table() if table is None else table
    pids = {root} | reaper.descendants(table, root)
    if uid is not None:
        pids |= {p for p, info in table.items() if uid in info["uids"]}
    total = 0
    for pid in pids:
        try:
            fields = reaper.read_proc(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        except (OSError, ValueError, IndexError):
            continue
    return total / _TICK


def others(table: dict[int, dict], worker: int | None, uid: int | None) -> bool:
    """Whether the student has a live process besides ``worker``: of ``uid`` (the sandbox user's: every one is
    the student's), or without a uid below the worker."""
    if worker is None:
        return False
    if uid is not None:
        return any(uid in info["uids"] and info["state"] not in "ZX" for pid, info in table.items() if pid != worker)
    return any(table[pid]["state"] not in "ZX" for pid in reaper.descendants(table, worker))


def deprioritized(pid: int | None) -> bool:
    """Whether process ``pid`` runs at a lower priority than this one: a higher nice value (of the process or of its
    session's autogroup) or the batch or idle scheduling policy. Anyone may lower their own priority; then the
    waits of a worker alone are its own doing too."""
    if pid is None:
        return False
    try:
        fields = reaper.read_proc(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
        nice, policy = int(fields[16]), int(fields[38])
        group = reaper.read_proc(f"/proc/{pid}/autogroup").split(b"nice")[-1].split()
        autogroup_nice = int(group[0]) if group else 0
    except (OSError, ValueError, IndexError):
        return False
    return nice > os.getpriority(os.PRIO_PROCESS, 0) or autogroup_nice > 0 or policy in LOW_POLICIES


def backstop(seconds: float) -> float:
    """The wall-clock seconds an operation allowed ``seconds`` of student's time may take at most."""
    return seconds * BACKSTOP_FACTOR + BACKSTOP_EXTRA


class StudentClock:
    """time.monotonic() minus the time the workers of one sandbox waited for a CPU (continuous across workers)."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self._file = -1  # the followed worker's schedstat, kept open (one pread a reading; bound to that process:
        # once it is reaped, reads fail and never reach a later process given the same pid)
        self._waited = 0.0  # by earlier workers
        self._seen = 0.0  # by the current worker, last read
        self._charged = 0.0  # waits that count as the student's time all the same (``charge``)
        self._mark = 0.0  # the waits (``_waited + _seen``) at the last ``mark`` or ``charge``

    def follow(self, pid: int | None) -> None:
        """Count the waits of worker ``pid`` from now on (None: no worker); call before it is reaped."""
        self.now()
        self._waited += self._seen
        self.pid, self._seen = pid, 0.0
        if self._file >= 0:
            os.close(self._file)
        self._file = -1
        if pid is not None:
            with contextlib.suppress(OSError):
                self._file = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)

    def fast(self) -> float:
        """``now`` without reading /proc: never earlier than ``now`` (the waits only grow), so a deadline it has
        not reached, ``now`` has not either."""
        return time.monotonic() - self._waited - self._seen + self._charged

    def now(self) -> float:
        if self.pid is not None:
            waited = self._read()
            if waited is not None and waited >= self._seen:
                self._seen = waited
        return time.monotonic() - self._waited - self._seen + self._charged

    def _read(self) -> float | None:
        """The followed worker's wait for a CPU (``run_queue_wait``), through its file kept open."""
        if self._file < 0:
            return run_queue_wait(self.pid) if self.pid is not None else None
        try:
            return _wait_in(os.pread(self._file, 200, 0))
        except (OSError, ValueError, IndexError):
            return None

    def exclude(self, seconds: float) -> None:
        """Leave ``seconds`` out of the student's time from now on: the grader's own time answering a callback,
        which the worker spends waiting (the worker leaves the same round trip out of its own clock)."""
        self._charged -= max(seconds, 0.0)

    def mark(self) -> None:
        """An operation starts (just after a ``now``): ``charge`` counts the waits from here."""
        self._mark = self._waited + self._seen

    def charge(self, competing: bool) -> None:
        """The waits since the last ``mark`` or ``charge`` are the student's time after all when ``competing``
        (other processes of the student were alive: they may have caused them)."""
        self.now()
        waits = self._waited + self._seen
        if competing:
            self._charged += waits - self._mark
        self._mark = waits


class Budget:
    """The limits of one operation allowed ``seconds`` of the student's time, whose deadline is ``deadline``,
    checked every CPU_CHECK_EVERY s of waiting: the student's other processes (``StudentClock.charge``), the
    CPU time of the worker's processes (counted from the first check, the time before it in full) and the
    wall-clock backstop."""

    def __init__(self, deadline: float, seconds: float) -> None:
        self.deadline, self.seconds = deadline, seconds
        self.wall = time.monotonic()
        self.backstop = self.wall + backstop(seconds)
        self.next_scan = self.wall + CPU_CHECK_EVERY
        self.cpu_at, self.cpu0 = -1.0, 0.0
        self.competed = False  # the student had other processes at some check

    def check(self, pid: int, worker: int | None, uid: int | None, clock: StudentClock,
              usage: Callable[[], float | None] | None = None) -> str:
        """"overloaded" past the backstop with the worker alone, "cpu" past it otherwise or when the processes
        used more CPU than allowed, else "". ``pid``: the process the grader started (the worker, or the
        launcher of its world); ``usage``: the slot's CPU time (``shares.cpu_seconds``) where it is counted."""
        now = time.monotonic()
        if now < self.next_scan and now <= self.backstop:
            return ""
        self.next_scan = now + CPU_CHECK_EVERY
        table = reaper.process_table()
        competing = others(table, worker, uid) or deprioritized(worker)
        self.competed |= competing
        clock.charge(competing)
        if now > self.backstop:
            return "cpu" if self.competed else "overloaded"
        cpu = usage() if usage is not None else None
        cpu = tree_cpu(pid, uid, table) if cpu is None else cpu
        if self.cpu_at < 0:
            self.cpu_at, self.cpu0 = now - self.wall, cpu
        elif cpu - self.cpu0 + self.cpu_at > self.seconds:
            return "cpu"
        return ""

    def describe(self) -> str:
        return f"{time.monotonic() - self.wall:.0f} s of wall-clock time gave the worker less than {self.seconds:g} s"
