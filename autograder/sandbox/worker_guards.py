"""Runs INSIDE the sandbox, beside worker.py: the guards around student code. The student's clock (wall-clock
minus the time this process waited for a CPU), the statement alarm on it, SIGALRM blocked while a frame is in
flight, and the imports student code may make (numpy, the standard library, the submission's own modules).
Standard library only; imported by worker.py, whose tracebacks leave this file's frames out."""

from __future__ import annotations

import _signal
import contextlib
import importlib.machinery
import os
import signal
import sys
import time
import types
from typing import Any


class StatementTimeout(BaseException):
    """Raised into student code when its time is up (`except Exception` does not catch it)."""


def student_time() -> float:
    """time.monotonic() minus the time this process waited for a CPU while runnable (/proc/self/schedstat) and
    the time it waited for the grader's answers to its callbacks (``excluded``): a neighbour that takes the CPU,
    or a grader slow to answer, does not use up this student's time limits (the grader counts the same)."""
    for fresh in (False, True):  # the file kept open (one pread, ~1 us: it runs twice per callback), else anew
        try:
            _WAITED[0] = max(_WAITED[0], int(os.pread(_schedstat(fresh), 200, 0).split()[1]) / 1e9)
            break
        except (OSError, ValueError, IndexError):  # closed or replaced by the student's code, or no fds left
            continue  # then the wait last read
    return time.monotonic() - _WAITED[0] - _EXCLUDED[0]


def _schedstat(fresh: bool) -> int:
    """A descriptor of this process's /proc/self/schedstat, opened once per process (or anew when ``fresh``). One
    another process opened (a fork's parent) is not closed here: its number may be another file's by now."""
    pid, fd = _SCHEDSTAT
    if fresh or pid != os.getpid():
        if pid == os.getpid():
            with contextlib.suppress(OSError):
                os.close(fd)
        _SCHEDSTAT[:] = [os.getpid(), os.open("/proc/self/schedstat", os.O_RDONLY)]
    return _SCHEDSTAT[1]


def excluded(seconds: float) -> None:
    """Leave ``seconds`` (a round trip to the grader, in ``student_time``) out of the student's time."""
    _EXCLUDED[0] += max(seconds, 0.0)


_WAITED = [0.0]
_EXCLUDED = [0.0]
_SCHEDSTAT = [-1, -1]  # the pid that opened it, the descriptor


class Alarm:
    """SIGALRM that raises StatementTimeout once ``seconds`` of the student's time (``student_time``) have
    passed, again every 0.2 s in case student code swallows it."""

    def __init__(self) -> None:
        self.armed = False
        self.deadline = 0.0
        signal.signal(signal.SIGALRM, self._fire)

    def _fire(self, signum: int, frame: Any) -> None:
        if not self.armed:
            return
        left = self.deadline - student_time()
        if left > 0.005:  # it waited for a CPU meanwhile: its time is not up yet
            signal.setitimer(signal.ITIMER_REAL, left, 0.2)
            return
        raise StatementTimeout

    def arm(self, seconds: float) -> None:
        self.armed = True
        self.deadline = student_time() + seconds
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.01), 0.2)

    def disarm(self) -> None:
        self.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)


class alarm_blocked:  # noqa: N801 (used as a context manager, like contextlib's)
    """No SIGALRM while a frame is half-read or half-written; a pending one fires afterwards.

    A plain class, not @contextmanager: it wraps every frame (about a thousand a grading), and
    ``_signal``'s mask call returns plain numbers (``signal``'s wrapper builds enums of them)."""

    __slots__ = ("old",)
    ALARM = frozenset({signal.SIGALRM})

    def __enter__(self) -> None:
        self.old = _signal.pthread_sigmask(signal.SIG_BLOCK, self.ALARM)

    def __exit__(self, *exc: object) -> None:
        _signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


class OnlyNumpyAndStdlib:
    """Student imports get what Gradescope has for them: numpy and the standard library.

    A module missing from ``sys.stdlib_module_names`` still loads from the standard
    library's folder (``_sysconfigdata_*``, lib-dynload), so numpy's lazy imports work.
    A meta path finder needs only ``find_spec``: ``importlib.abc`` would cost every start ~14 ms.
    """

    allowed = frozenset(sys.stdlib_module_names) | {"numpy"}  # and the submission's module, once in sys.modules
    stdlib = os.path.dirname(os.__file__) + os.sep

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname.partition(".")[0] in self.allowed or fullname.partition(".")[0] in sys.modules:
            return None
        origin = str(getattr(importlib.machinery.PathFinder.find_spec(fullname, path), "origin", None) or "")
        if origin.startswith(self.stdlib) and "-packages" not in origin:
            return None
        message = f"No module named {fullname!r} (only numpy and the Python standard library are available)"
        raise ModuleNotFoundError(message, name=fullname)


class SubmittedModules:
    """The submission's own modules beside its graded file (``from helpers import softmax``), importable as on the
    student's machine: the load request carries each one's source (read by the grader's intake), and the first
    import executes it, as student code, in a module of that name. A meta path finder ahead of the others."""

    def __init__(self, modules: list[dict]) -> None:
        self.modules = {m["name"]: m for m in modules if str(m.get("name", "")).isidentifier()}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        module = self.modules.get(fullname)
        return None if module is None else importlib.machinery.ModuleSpec(fullname, self, origin=module["filename"])

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        source = self.modules[module.__name__]
        module.__file__ = source["filename"]
        exec(compile(source["source"], source["filename"], "exec", dont_inherit=True), module.__dict__)
