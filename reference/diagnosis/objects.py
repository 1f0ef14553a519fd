"""Part F's grader-side objects: the layer and the cache passed to decode_step and generate_*.

The worker gets proxies of these (``autograder.api.GraderObject``); every ``layer.query/key/value`` and ``cache``
call goes back over the protocol and runs here, so the weights never reach the student's process, the grader
counts (and records) every projection, and the grader's cache stays correct. Both are bounded, so a submission
cannot make the grader compute or store without limit.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from autograder.api import CallbackLimit, GraderObject, real_array

MAX_PROJECTIONS = 20_000  # layer.query/key/value calls per Layer (the graded cases need at most a few hundred)
MAX_CACHE_ROWS, MAX_CACHE_WIDTH = 1024, 1024  # the grader's Cache (the graded cases need about 10 rows)


class Layer(GraderObject):
    """Projections of one token at a time, computed and counted here; the worker never sees W."""

    NAME = "layer"
    METHODS: ClassVar[dict[str, int]] = {"query": 1, "key": 1, "value": 1}
    VECTOR = ("query", "key", "value")
    OFFERS = ("it offers only layer.query(x), layer.key(x) and layer.value(x), each projecting one token x of "
              "shape (D,)")

    def __init__(self, W_Q: Any, W_K: Any, W_V: Any) -> None:
        self._W = {name: np.array(W, dtype=float) for name, W in (("query", W_Q), ("key", W_K), ("value", W_V))}
        self.D = self._W["query"].shape[0]
        self.counts: dict[str, int] = {"query": 0, "key": 0, "value": 0}
        self.inputs: dict[str, list[np.ndarray]] = {"query": [], "key": [], "value": []}  # what was projected

    def held(self) -> list[np.ndarray]:
        return list(self._W.values())

    def _project(self, method: str, x: Any) -> np.ndarray:
        x = real_array(x, f"layer.{method}(x)")
        if x.shape != (self.D,):
            raise ValueError(f"layer.{method}(x) projects ONE token: x must have shape ({self.D},), got {x.shape}")
        if sum(self.counts.values()) >= MAX_PROJECTIONS:
            raise CallbackLimit(f"more than {MAX_PROJECTIONS:,} projections (`layer.query/key/value` calls) in one "
                                "call, so it was stopped; the graded cases need at most a few hundred (an endless "
                                "loop?)")
        self.counts[method] += 1
        self.inputs[method].append(x.copy())
        return x @ self._W[method]

    def query(self, x: Any) -> np.ndarray:  # x (D,) -> (d_k,), counted
        return self._project("query", x)

    def key(self, x: Any) -> np.ndarray:
        return self._project("key", x)

    def value(self, x: Any) -> np.ndarray:
        return self._project("value", x)


class Cache(GraderObject):
    """A correct KV cache with the contract's interface, passed to the student's decode_step (and served for the
    student's KVCache in a probe)."""

    NAME = "cache"
    METHODS: ClassVar[dict[str, int]] = {"append": 2}
    PROPERTIES = ("keys", "values")
    LENGTH = True
    OFFERS = ("the cache passed to decode_step has the contract's KVCache interface only: append(k, v), keys, "
              "values and len(cache)")

    def __init__(self, keys: Any = None, values: Any = None, *, rows: int = MAX_CACHE_ROWS,
                 width: int = MAX_CACHE_WIDTH) -> None:
        self.rows, self.width = rows, width  # bounds: a served cache's come from its probe (``bounded``)
        self._keys = np.zeros((0, 0)) if keys is None else np.array(keys, dtype=float).reshape(len(keys), -1)
        self._values = np.zeros((0, 0)) if values is None else np.array(values, dtype=float).reshape(len(values), -1)
        if len(self._keys) != len(self._values):
            raise ValueError("keys and values must have the same number of rows")
        self.appends = 0

    @classmethod
    def bounded(cls, bounds: Any) -> Cache:
        """A correct cache served for the student's KVCache in a probe: as many rows and as wide as the case needs."""
        return cls(rows=bounds.axis, width=bounds.axis)

    def held(self) -> list[np.ndarray]:
        return [self._keys, self._values]

    keys = property(lambda self: self._keys.copy(), doc="(len, d_k) every cached key, oldest first")
    values = property(lambda self: self._values.copy(), doc="(len, d_v) every cached value, oldest first")

    def __len__(self) -> int:
        return len(self._keys)

    def append(self, k: Any, v: Any) -> None:
        k, v = real_array(k, "cache.append(k, v): k"), real_array(v, "cache.append(k, v): v")
        if k.ndim not in (1, 2) or v.ndim not in (1, 2) or len(np.atleast_2d(k)) != len(np.atleast_2d(v)):
            raise ValueError(f"cache.append(k, v) takes k (d_k,) or (T, d_k) and v (d_v,) or (T, d_v), with as "
                             f"many rows in each; got {k.shape} and {v.shape}")
        k, v = np.atleast_2d(k), np.atleast_2d(v)  # as the contract's KVCache: (1, d_k) with (d_v,) is one token
        for name, old, new in (("k", self._keys, k), ("v", self._values, v)):
            if len(old) and old.shape[1] != new.shape[1]:
                raise ValueError(f"cache.append: {name} has width {new.shape[1]}, the cache holds {old.shape[1]}")
            if len(old) + len(new) > self.rows or new.shape[1] > self.width:
                raise ValueError(f"cache.append: this cache holds at most {self.rows} rows of width at most "
                                 f"{self.width}; the graded cases need far fewer")
        self._keys = np.concatenate([self._keys.reshape(-1, k.shape[1]), k])
        self._values = np.concatenate([self._values.reshape(-1, v.shape[1]), v])
        self.appends += 1
