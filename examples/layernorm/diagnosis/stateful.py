"""Part C: RunningStats, run in the worker through the engine's Remote API (``student.new``).

The case is ``stats = RunningStats(num_features[, eps=...])``, then ``stats.update(batch)`` for each batch, with
``count``, ``mean`` and ``var`` read and compared after every update, then ``stats.normalize(x)``. The first
difference is reported; the updates go on, so that the whole history names a stored mistake when it is one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.api import Case, StudentError, case_header, compare, diagnose, error_mistake, error_text, type_mistake

ATTRIBUTES = ("count", "mean", "var")


def describe(stored: Case) -> str:
    """```stats = RunningStats(3)`, then update(x) with x of shapes (5, 3), (2, 3), then `stats.normalize(x)` ...``"""
    inputs = stored.inputs
    made = f"stats = RunningStats({inputs['num_features']}" + (f", eps={inputs['eps']:g}" if "eps" in inputs else "")
    shapes = ", ".join(str(np.shape(batch)) for batch in inputs["batches"])
    return (f"`{made})`, then `stats.update(batch)` with batches of shapes {shapes}, then `stats.normalize(x)` "
            f"with x of shape {np.shape(inputs['x'])}")


def run_running_stats(student: Any, stored: Case) -> tuple[str | None, Any]:
    """(None, None) when every update and the normalisation match, else (feedback, the mistake or None)."""
    inputs, expected = stored.inputs, stored.expected
    header = case_header(stored, describe(stored))
    options = {"eps": inputs["eps"]} if "eps" in inputs else {}
    seen: dict[str, list[Any]] = {name: [] for name in ATTRIBUTES}
    problem: str | None = None
    normalized: Any = None
    try:
        stats = student.new("RunningStats", inputs["num_features"], **options)
        for i, batch in enumerate(inputs["batches"]):
            stats.call("update", batch)
            for name in ATTRIBUTES:
                value = stats.get(name)
                seen[name].append(value)
                if problem is None:
                    problem = compare.compare(f"stats.{name} after update number {i + 1}", expected[name][i], value)
        normalized = stats.call("normalize", inputs["x"])
        if problem is None:
            problem = compare.compare("stats.normalize(x) after the last update", expected["normalized"], normalized)
    except StudentError as error:
        if problem is None:
            return f"{header}\n\n{error_text('RunningStats', error)}", error_mistake(error)
        return f"{header}\n\n{problem}", None  # it failed first, then raised on a later call
    if problem is None:
        return None, None
    return f"{header}\n\n{problem}", _mistake(stored, seen, normalized)


def _mistake(stored: Case, seen: dict[str, list[Any]], normalized: Any) -> Any:
    """A list where an array is due; else the stored mistake whose whole history (count, mean and var after every
    update, then normalize) matches."""
    for name, values in seen.items():
        if found := next((m for e, v in zip(stored.expected[name], values) if (m := type_mistake(e, v))), None):
            return found
    try:
        observed = {name: np.array(values, dtype=float) for name, values in seen.items()}
    except (TypeError, ValueError):  # ragged or non-numeric attributes: no stored mistake looks like that
        return None
    observed["normalized"] = normalized
    return diagnose(observed, stored.mistakes, stored.expected)
