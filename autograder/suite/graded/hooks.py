"""What the diagnosis knows of the homework: the hooks its ``diagnosis/`` package may define, with the defaults.

The engine checks every case the same way (run it, compare the output within tolerance, name a stored mistake
whose output matches). A homework's ``diagnosis/__init__.py`` may add what only it knows, as module-level names
(each optional; ``autograder.api`` documents them):

    run_case(student, case)                  -> (problem, mistakes) | None   cases the homework runs itself
                                                                              (stateful objects, callbacks)
    explain(student, case, args, names, batched, actual) -> (mistakes, how, exact)   a wrong output's evidence
    explain_error(student, case, args, names, batched, error) -> (mistakes, how) | None   a raise's evidence
    crash_properties(case, named, error)     -> [(mistake | None, assumed, how, rewrite)]   what a line of the
                                                student's that raised may have assumed (``crashes.Property``)
    answer_of(function, inputs, actual)      -> (mistakes, how) | None   which answer ``actual`` is on ``inputs``:
                                                the contract's ((), ""), or the contract's but for known mistakes
    budget()                                 a context manager bounding the fits of one case
    shape_evidence(cases, failed)            -> str | None   random-shape tests: the property the failures share
    probe_evidence(case, passes)             -> str | None   the same, from rewritten cases the student passes
    describe_object(name, parts)             -> str   how an object argument (dotted inputs) is shown in a call
    KEYWORDS                                 argument names shown as keywords in a call
    COVERS                                   mistake -> mistakes its sentence already says (not said beside it)

Without them, a failing case is explained by the stored mistakes only (and low precision).
"""

from __future__ import annotations

import contextlib
import functools
import types
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from autograder import contract
from autograder.suite.cases import Case


@functools.lru_cache(maxsize=1)
def module() -> types.ModuleType | None:
    """The homework's ``diagnosis`` package, or None."""
    return contract.HOMEWORK.optional("diagnosis")


def hook(name: str, default: Any = None) -> Any:
    """The homework's diagnosis hook ``name``, or ``default``."""
    found = module()
    return getattr(found, name, default) if found is not None else default


def run_case(student: Any, stored: Case) -> tuple[str | None, Any] | None:
    """The homework's own run of ``stored`` (None: run it as a plain call)."""
    runner = hook("run_case")
    return runner(student, stored) if runner is not None else None


def budget() -> contextlib.AbstractContextManager:
    made = hook("budget")
    return made() if made is not None else contextlib.nullcontext()


def shape_evidence(cases: Sequence[Case], failed: Collection[str]) -> str | None:
    found = hook("shape_evidence")
    return found(cases, failed) if found is not None else None


def probe_evidence(stored: Case, passes: Callable[[Case], bool]) -> str | None:
    found = hook("probe_evidence")
    return found(stored, passes) if found is not None else None


def describe_object(name: str, parts: Mapping[str, Any]) -> str:
    found = hook("describe_object")
    return found(name, parts) if found is not None else f"{name} ({', '.join(parts)})"


def keywords() -> Collection[str]:
    return hook("KEYWORDS", ())


def explain(student: Any, stored: Case, args: list[Any], names: list[str], batched: bool,
            actual: Any) -> tuple[Any, str, bool] | None:
    """The homework's explanation of a wrong output: (mistakes, how, exact); None without an ``explain`` hook."""
    found = hook("explain")
    return found(student, stored, args, names, batched, actual) if found is not None else None


def explain_error(student: Any, stored: Case, args: list[Any], names: list[str], batched: bool,
                  error: Exception) -> tuple[Any, str] | None:
    """The mistakes a raise evidences (only a probe that makes the call right is evidence), and how; or None."""
    found = hook("explain_error")
    return found(student, stored, args, names, batched, error) if found is not None else None


def crash_properties(stored: Case, named: Mapping[str, Any], error: Exception) -> list[tuple]:
    """What a line of the student's that raised on ``stored`` may have assumed, most specific first (none without
    the hook)."""
    found = hook("crash_properties")
    return list(found(stored, dict(named), error)) if found is not None else []


def answer_of(function: str, inputs: Mapping[str, Any], actual: Any) -> tuple[tuple[str, ...], str] | None:
    """Which answer ``actual`` is on ``inputs``: the contract's (((), "")), or the contract's but for the known
    mistakes given (and how it was computed: "without the mask"); None when neither (or without the hook)."""
    found = hook("answer_of")
    return found(function, dict(inputs), actual) if found is not None else None


def covers() -> Mapping[str, Collection[str]]:
    return hook("COVERS", {})
