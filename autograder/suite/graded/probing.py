"""One probe budget per graded test: every call the diagnosis makes of the student's code, of any kind, is counted.

A graded test's scored calls run the stored cases; everything its diagnosis then runs of the student's code (the
homework's probe and crash searches on rewritten inputs, the served "Check first" probes, a second call to test
for shared state) is a probe. Probes reach the student only through ``probing(student)``, which charges each
call (``call``, ``call_served``, ``new``, and the methods, attributes and ``len`` of an object a probe made) to
the test's one budget of ``PROBE_CALLS``. So the worst a failing test costs is its cases' scored calls plus
``PROBE_CALLS``, whatever the searches inside try, and a test's score never depends on the budget (a scored call
is never charged).

Once the budget is spent, every further probe call raises ``ProbeBudgetError`` (a ``StudentError``: "not the
answer" to a probe) and the test is marked ``spent``: its feedback then names no likely mistake, since a search
cut short may have read a refused probe as a failing one (evidence *against* a cause is no evidence then).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from autograder.sandbox.student import StudentError

PROBE_CALLS = 512  # calls of the student's code by one graded test's diagnosis, every probe of every case together


class ProbeBudgetError(StudentError):
    """A probe refused: the test's probe budget is spent (nothing of the student's ran)."""

    def __init__(self, what: str, calls: int, of: str = "this test's") -> None:
        super().__init__("budget", f"{what} (a probe): {of} {calls} probe calls are spent")


class _Budget:
    def __init__(self, calls: int) -> None:
        self.calls, self.used, self.spent = calls, 0, False


_budget: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("probe_budget", default=None)


@contextlib.contextmanager
def per_test(calls: int | None = None) -> Iterator[None]:
    """One graded test's probe budget (``graded`` opens it around the test body); ``PROBE_CALLS`` by default."""
    token = _budget.set(_Budget(PROBE_CALLS if calls is None else calls))
    try:
        yield
    finally:
        _budget.reset(token)


def used() -> int:
    """Probe calls charged to the current test so far (0 outside a test)."""
    found = _budget.get()
    return found.used if found is not None else 0


def spent() -> bool:
    """Whether the current test refused a probe for its budget."""
    found = _budget.get()
    return found is not None and found.spent


def charge(what: str) -> None:
    """Count one probe call of the current test; ProbeBudgetError when none is left (no limit outside a test)."""
    found = _budget.get()
    if found is None:
        return
    if found.used >= found.calls:
        found.spent = True
        raise ProbeBudgetError(what, found.calls)
    found.used += 1


class Probing:
    """The student as a probe sees it: the same calls, each charged to the test's probe budget."""

    def __init__(self, student: Any) -> None:
        self.unwrapped = student

    def call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        charge(name)
        return self.unwrapped.call(name, *args, **kwargs)

    def call_served(self, served: Any, name: str, /, *args: Any, **kwargs: Any) -> Any:
        charge(name)
        return self.unwrapped.call_served(served, name, *args, **kwargs)

    def new(self, class_name: str, /, *args: Any, **kwargs: Any) -> Any:
        charge(class_name)
        return _ProbedObject(self.unwrapped.new(class_name, *args, **kwargs))

    def __getattr__(self, name: str) -> Any:  # has, discard, functions, ...: no call of the student's code
        return getattr(self.unwrapped, name)


class _ProbedObject:
    """An object a probe made in the worker: its methods, attributes and len are probe calls too."""

    def __init__(self, remote: Any) -> None:
        self.unwrapped = remote

    def call(self, method: str, /, *args: Any, **kwargs: Any) -> Any:
        charge(method)
        return self.unwrapped.call(method, *args, **kwargs)

    def get(self, attr: str) -> Any:
        charge(attr)
        return self.unwrapped.get(attr)

    def len(self) -> int:
        charge("len")
        return self.unwrapped.len()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.unwrapped, name)


def probing(student: Any) -> Any:
    """``student`` with every call charged to the current test's probe budget (the same object if it is already)."""
    return student if isinstance(student, Probing) else Probing(student)
