"""The student's time: what budgets that decide grades count, whatever the neighbours do to the CPU.

A wall-clock limit punishes a submission for its neighbours: on a shared machine a process
that wants the CPU waits in the run queue while others (another grading's fork storm, each
child in its own session) take it. So every limit that decides a grade counts the
**student's time**: wall-clock time minus the time the worker waited for a CPU while it was
runnable (``/proc/PID/schedstat``, second field). Time the student's code spends computing,
sleeping or waiting for its own children is counted; time it was kept from running is not.
The worker's own alarm (worker.py) and the grader's deadlines (``Sandbox``) both use it.

Two guards close the loopholes: the CPU time of the worker and every process it started
(utime + stime in ``/proc/PID/stat``, reaped children included) also counts, so a
submission cannot starve itself with its own children to stretch its limit; and a generous
wall-clock backstop (``backstop``) ends an operation the machine is too overloaded to run:
that is a grader error ("overloaded, regrade"), never the student's failure. Where
/proc has no schedstat, the student's time is the wall-clock time (as before).
"""

from __future__ import annotations

import os
import time

from autograder.sandbox import reaper

BACKSTOP_FACTOR, BACKSTOP_EXTRA = 5.0, 30.0  # wall-clock limit of an operation allowed ``s`` student seconds
CPU_CHECK_EVERY = 0.5  # seconds between scans of the worker's process tree
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def run_queue_wait(pid: int) -> float | None:
    """Seconds ``pid`` has spent runnable but waiting for a CPU, or None when unknown."""
    try:
        return int(reaper.read_proc(f"/proc/{pid}/schedstat").split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def tree_cpu(root: int, uid: int | None = None) -> float:
    """CPU seconds (user + system) of ``root`` and its live descendants, reaped children of each included;
    with ``uid``, of every live process of that uid too (daemons that left the tree)."""
    table = reaper.process_table()
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


def backstop(seconds: float) -> float:
    """The wall-clock seconds an operation allowed ``seconds`` of student's time may take at most."""
    return seconds * BACKSTOP_FACTOR + BACKSTOP_EXTRA


class StudentClock:
    """time.monotonic() minus the time the workers of one sandbox waited for a CPU (continuous across workers)."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self._waited = 0.0  # by earlier workers
        self._seen = 0.0  # by the current worker, last read

    def follow(self, pid: int | None) -> None:
        """Count the waits of worker ``pid`` from now on (None: no worker); call before it is reaped."""
        self.now()
        self._waited += self._seen
        self.pid, self._seen = pid, 0.0

    def fast(self) -> float:
        """``now`` without reading /proc: never earlier than ``now`` (the waits only grow), so a deadline it has
        not reached, ``now`` has not either."""
        return time.monotonic() - self._waited - self._seen

    def now(self) -> float:
        if self.pid is not None:
            waited = run_queue_wait(self.pid)
            if waited is not None and waited >= self._seen:
                self._seen = waited
        return time.monotonic() - self._waited - self._seen


class Budget:
    """The limits of one operation allowed ``seconds`` of the student's time, whose deadline is ``deadline``:
    the CPU time of the worker's processes (scanned every CPU_CHECK_EVERY s of waiting, counted from the first
    scan, the time before it in full) and the wall-clock backstop."""

    def __init__(self, deadline: float, seconds: float) -> None:
        self.deadline, self.seconds = deadline, seconds
        self.wall = time.monotonic()
        self.backstop = self.wall + backstop(seconds)
        self.next_scan = self.wall + CPU_CHECK_EVERY
        self.cpu_at, self.cpu0 = -1.0, 0.0

    def check(self, pid: int, uid: int | None) -> str:
        """"overloaded" past the backstop, "cpu" when the processes used more CPU than allowed, else ""."""
        now = time.monotonic()
        if now > self.backstop:
            return "overloaded"
        if now < self.next_scan:
            return ""
        self.next_scan = now + CPU_CHECK_EVERY
        cpu = tree_cpu(pid, uid)
        if self.cpu_at < 0:
            self.cpu_at, self.cpu0 = now - self.wall, cpu
        elif cpu - self.cpu0 + self.cpu_at > self.seconds:
            return "cpu"
        return ""

    def describe(self) -> str:
        return f"{time.monotonic() - self.wall:.0f} s of wall-clock time gave the worker less than {self.seconds:g} s"
