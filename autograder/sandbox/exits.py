"""How a worker ended, in words for the student, and whether its death may have come from outside."""

from __future__ import annotations

import signal

# Signals the student's own code causes (a crash, a limit it ran into). Any other death by a signal may come from
# outside (an administrator, the OOM killer taking the biggest process), but is no evidence of it: a process can send
# itself any signal. So only the first such death of a grading is retried (Student._lost_once); any later one is
# the student's crash, whatever the signal.
STUDENT_SIGNALS = frozenset({signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT, signal.SIGFPE, signal.SIGILL,
                             signal.SIGSYS, signal.SIGTRAP, signal.SIGXCPU, signal.SIGXFSZ, signal.SIGPIPE})


def lost_from_outside(returncode: int | None) -> bool:
    """Whether a worker that ended with ``returncode`` may have been killed by something else than its code (not
    that it was: see STUDENT_SIGNALS)."""
    return returncode is not None and returncode < 0 and -returncode not in STUDENT_SIGNALS


def describe_exit(returncode: int, memory_mb: int, slot_mb: int = 0) -> str:
    """Why a worker ended, for a student: 'killed by signal 9: probably out of memory ...'. ``slot_mb``: the memory
    cap of all its processes together when the OOM killer was seen acting under it (its slot's group)."""
    if returncode >= 0:
        return f"exited with status {returncode}: os._exit() or exit() in native code"
    if returncode == -signal.SIGKILL and slot_mb:
        return (f"killed by signal 9: out of memory (its processes together may use {slot_mb} MB, memfds and "
                "files in /tmp included)")
    reasons = {
        signal.SIGKILL: f"probably out of memory, limit {memory_mb} MB, or the code killed its own process",
        signal.SIGSEGV: "a crash in native code (ctypes? very deep recursion?)",
        signal.SIGBUS: "a crash in native code",
        signal.SIGABRT: "often out of memory inside a native library",
        signal.SIGXCPU: "it used up its CPU time limit",
        signal.SIGXFSZ: "a file grew past its size limit",
    }
    try:
        reason = reasons.get(-returncode, signal.Signals(-returncode).name)
    except ValueError:
        reason = "an unknown signal"
    return f"killed by signal {-returncode}: {reason}"
