"""One CPU per grading: the grader's thread and its worker run on the same CPU.

A scored call is a conversation. Each request, each reply and each callback (``layer.query(x)`` answered by the
grader) wakes the other side, and the two never compute at once: one always waits for the other's answer. On two
CPUs every such wake-up reaches a CPU that has gone idle, at the price of an inter-processor interrupt (on a
virtual machine, an exit to the hypervisor): a pipe round trip between two processes costs ~50 us across this
2-vCPU VM's CPUs and ~6 us on one. A correct submission's grading makes ~1,150 of them (304 calls, 841
callbacks), ~50 ms of its 0.4 s. On one CPU the same conversation is a context switch each way, and sharing that
CPU costs no parallelism.

Concurrent gradings are spread over the CPUs this process may use: the grading holding user number k of the
sandbox pool (``lock.py``: one user per grading at a time, the lowest free first) takes the k-th of them, modulo
their count, so gradings at once take different CPUs up to the core count. Without a pool user (not root), the
CPU the grader runs on when its first worker is ready.

The grader pins its own thread (``pin_thread``) and restores it when the sandbox closes (``restore``), so a
process that grades in-process moves freely again afterwards. The worker pins itself when it loads the student's
code (the load request's ``cpu``, worker.py): setting one's own affinity needs no privilege, while setting another
user's needs CAP_SYS_NICE, which Docker's default set lacks. Everything the student's code starts inherits it.

Grades do not depend on any of this: every budget counts the student's time (cputime.py), on whichever CPU.
Nothing is pinned where only one CPU is allowed (``taskset`` chose already, or there is one), and a refusal
leaves the scheduler free.
"""

from __future__ import annotations

import contextlib
import os
import threading


def _allowed() -> frozenset[int]:
    try:
        return frozenset(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return frozenset()


ALLOWED = _allowed()  # the CPUs this process may use (``taskset``, a container's cpuset), read when it imports
# this module, before any of its threads is pinned: a thread started by a pinned one inherits its single CPU


def cpu_for(slot: int | None) -> int | None:
    """The CPU for the grading of pool user number ``slot`` (1-based; None: no pool user), or None to leave the
    choice to the scheduler (one allowed CPU, or no affinity calls here)."""
    allowed = sorted(ALLOWED)
    if len(allowed) < 2:
        return None
    if slot is not None:
        return allowed[(slot - 1) % len(allowed)]
    here = current_cpu()
    return here if here in allowed else allowed[0]


def current_cpu() -> int | None:
    """The CPU the calling thread last ran on (``/proc/thread-self/stat``, field 39), or None."""
    try:
        with open("/proc/thread-self/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        return None


Saved = tuple[int, set[int]]  # a thread's id and the CPUs it was allowed before ``pin_thread``


def pin_thread(cpu: int) -> Saved | None:
    """Pin the calling thread to ``cpu``; what ``restore`` needs to undo it, or None when it was refused."""
    thread = threading.get_native_id()
    try:
        before = os.sched_getaffinity(thread)
        os.sched_setaffinity(thread, {cpu})
    except (AttributeError, OSError, ValueError):
        return None
    return thread, before


def restore(saved: Saved | None) -> None:
    """Give the thread pinned by ``pin_thread`` its CPUs back, from any thread of this process; nothing when that
    thread has ended (its id may be another process's by now)."""
    if saved is not None and os.path.exists(f"/proc/self/task/{saved[0]}"):
        with contextlib.suppress(OSError, ValueError):
            os.sched_setaffinity(*saved)
