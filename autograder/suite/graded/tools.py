"""Helpers every evidence module shares, the engine's and a homework's: ``matches`` (within tolerance, NaN as
NaN), ``quiet`` (a failure to find evidence is no evidence), ``items`` (an output's arrays beside the target's).
"""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from autograder.feedback import compare


def matches(actual: Any, target: Any) -> bool:
    return compare.diagnose(actual, {"it": target}) == "it"


def quiet(default: Any) -> Callable[[Callable], Callable]:
    """A failure to find evidence is no evidence: an unexpected error here returns ``default`` (and goes to the
    instructor's log), never an internal error in the student's test."""

    def decorate(function: Callable) -> Callable:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return function(*args, **kwargs)
            except Exception:  # the student's feedback goes on without this piece of evidence
                where = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"
                print(f"[grader] {where} failed:\n{traceback.format_exc()}", file=sys.stderr)
                return default

        return guarded

    return decorate


def items(target: Any, actual: Any) -> list[tuple[np.ndarray, np.ndarray]] | None:
    if isinstance(target, tuple):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(target):
            return None
        pairs = list(zip(target, actual))
    else:
        pairs = [(target, actual)]
    out = []
    for target_item, a in pairs:
        t = np.asarray(target_item)
        if not isinstance(a, np.ndarray) or a.shape != t.shape or a.dtype.kind not in "iuf":
            return None
        out.append((t, a.astype(float)))
    return out
