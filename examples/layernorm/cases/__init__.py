"""The layernorm homework's case specs (dev-time only: ``autograder regen`` runs them; never shipped).

``graded.py`` (the graded tests' cases) and ``public.py`` (the students' public tests). ``run`` makes Part C's
cases: ``stats = RunningStats(num_features[, eps])``, then ``stats.update(batch)`` for each of the case's
``batches``, recording ``count``, ``mean`` and ``var`` after every update, and finally ``stats.normalize(x)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np


def run(function: str, implementation: Callable, inputs: Mapping[str, Any], solution: ModuleType) -> Any:
    """RunningStats's cases (a dict of named outputs), else NotImplemented (a plain call)."""
    if function != "RunningStats":
        return NotImplemented
    options = {"eps": inputs["eps"]} if "eps" in inputs else {}
    stats = implementation(inputs["num_features"], **options)
    count, mean, var = [], [], []
    for batch in inputs["batches"]:
        stats.update(batch)
        count.append(stats.count)
        mean.append(np.array(stats.mean, dtype=float))
        var.append(np.array(stats.var, dtype=float))
    return {"count": np.array(count, dtype=np.int64), "mean": np.stack(mean), "var": np.stack(var),
            "normalized": np.asarray(stats.normalize(inputs["x"]), dtype=float)}
