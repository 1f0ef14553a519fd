"""The attention homework's case specs (dev-time only: ``autograder regen`` runs them; never shipped).

``graded.py`` (hidden and visible graded tests, with ``random.py``'s random shapes and ``variants.py``'s more
spellings of known mistakes) and ``public.py`` (the students' public tests). ``run`` makes Part F's cases: the
solution's ``AttentionLayer`` and ``KVCache`` from the dotted inputs (``layer.W_Q``, ``cache.keys``...), and a
KVCache appended to token by token.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

from autograder.devapi import call_arguments


def run(function: str, implementation: Callable, inputs: Mapping[str, Any], solution: ModuleType) -> Any:
    """Part F's cases (a dict of named outputs: ``autograder.suite.cases``), else NotImplemented (a plain call)."""
    if function == "KVCache":
        cache, lengths = implementation(), []
        for k, v in zip(inputs["k"], inputs["v"]):
            cache.append(k, v)
            lengths.append(len(cache))
        return {"keys": cache.keys, "values": cache.values, "lengths": np.array(lengths, dtype=np.int64)}
    named = call_arguments(inputs)
    if not any(name in ("layer", "cache") for name, _ in named):
        return NotImplemented
    args, layer, cache = [], None, None
    for name, value in named:
        if name == "layer":
            layer = solution.AttentionLayer(value["W_Q"], value["W_K"], value["W_V"])
            args.append(layer)
        elif name == "cache":
            cache = solution.KVCache()
            if len(value["keys"]):
                cache.append(value["keys"], value["values"])
            args.append(cache)
        else:
            args.append(value)
    output = {"out": implementation(*args)}
    if cache is not None:
        output.update({"cache.keys": cache.keys, "cache.values": cache.values})
    output.update({f"calls.{kind}": count for kind, count in layer.calls.items()})
    return output
