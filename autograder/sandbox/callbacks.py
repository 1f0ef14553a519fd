"""The grader-side objects student code calls back into: the ``layer`` and ``cache`` of Part F.

The worker gets proxies of these; every ``layer.query/key/value`` and ``cache`` call goes
back over the protocol and runs here, so the weights never reach the student's process,
the grader counts (and records) every projection, and the grader's cache stays correct.
Both are bounded, so a submission cannot make the grader compute or store without limit.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import numpy as np

MAX_PROJECTIONS = 20_000  # layer.query/key/value calls per Layer (the graded cases need at most a few hundred)
MAX_CACHE_ROWS, MAX_CACHE_WIDTH = 1024, 1024  # the grader's Cache (the graded cases need about 10 rows)
CACHE_INTERFACE = "the cache passed to decode_step has the contract's KVCache interface only: append(k, v), keys, " \
    "values and len(cache)"


class CallbackLimit(Exception):  # noqa: N818 - a limit reached, not a fault of the grader
    """A bound of the grader-side objects was reached; ``str(e)`` is a sentence for the student. The call that
    reached it is stopped (its worker restarted, so no reply is ever read as another request's answer)."""


class Layer:
    """Projections of one token at a time, computed and counted here; the worker never sees W."""

    def __init__(self, W_Q: Any, W_K: Any, W_V: Any) -> None:
        self._W = {name: np.array(W, dtype=float) for name, W in (("query", W_Q), ("key", W_K), ("value", W_V))}
        self.D = self._W["query"].shape[0]
        self.counts: dict[str, int] = {"query": 0, "key": 0, "value": 0}
        self.inputs: dict[str, list[np.ndarray]] = {"query": [], "key": [], "value": []}  # what was projected

    def _project(self, method: str, x: Any) -> np.ndarray:
        x = _real_array(x, f"layer.{method}(x)")
        if x.shape != (self.D,):
            raise ValueError(f"layer.{method}(x) projects ONE token: x must have shape ({self.D},), got {x.shape}")
        if sum(self.counts.values()) >= MAX_PROJECTIONS:
            raise CallbackLimit(f"more than {MAX_PROJECTIONS:,} projections (`layer.query/key/value` calls) in one "
                                "call, so it was stopped; the graded cases need at most a few hundred (an endless "
                                "loop?)")
        self.counts[method] += 1
        self.inputs[method].append(x.copy())
        return x @ self._W[method]

    query = functools.partialmethod(_project, "query")  # x (D,) -> (d_k,), counted
    key = functools.partialmethod(_project, "key")
    value = functools.partialmethod(_project, "value")

    def serve(self, method: str, args: tuple) -> Any:
        if method not in self.counts or len(args) != 1:
            raise TypeError(f"layer.{method}() is not available; use layer.query(x), layer.key(x), layer.value(x)")
        return self._project(method, args[0])


class Cache:
    """A correct KV cache with the contract's interface, passed to the student's decode_step."""

    def __init__(self, keys: Any = None, values: Any = None, *, rows: int = MAX_CACHE_ROWS,
                 width: int = MAX_CACHE_WIDTH) -> None:
        self.rows, self.width = rows, width  # bounds: a served cache's come from its probe (``Served``)
        self._keys = np.zeros((0, 0)) if keys is None else np.array(keys, dtype=float).reshape(len(keys), -1)
        self._values = np.zeros((0, 0)) if values is None else np.array(values, dtype=float).reshape(len(values), -1)
        if len(self._keys) != len(self._values):
            raise ValueError("keys and values must have the same number of rows")
        self.appends = 0

    keys = property(lambda self: self._keys.copy(), doc="(len, d_k) every cached key, oldest first")
    values = property(lambda self: self._values.copy(), doc="(len, d_v) every cached value, oldest first")

    def __len__(self) -> int:
        return len(self._keys)

    def append(self, k: Any, v: Any) -> None:
        k, v = _real_array(k, "cache.append(k, v): k"), _real_array(v, "cache.append(k, v): v")
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

    def serve(self, method: str, args: tuple) -> Any:
        if method == "append" and len(args) == 2:
            return self.append(*args)
        if method in ("keys", "values", "len") and not args:
            return len(self) if method == "len" else getattr(self, method)
        raise TypeError(f"cache.{method}() is not available: {CACHE_INTERFACE}")


MAX_SERVED = 2_000  # answers of one Served (a probe re-runs one case: the graded cases need a few dozen)
MAX_SERVED_CACHES = 64  # served KVCaches of one Served (a probe of generate_cached makes one)
MAX_NDIM = 6  # axes of an array a served stand-in takes
AXIS_FLOOR, ELEMENT_FLOOR = 16, 4096  # the least a probe's bounds allow (a tiny case still leaves room)


class Bounds:
    """What one probe needs: the longest axis and the number of elements of its arguments. Served stand-ins take
    arrays of at most ``ndim`` axes, each at most ``axis`` long, ``elements`` in all per call, and answer at most
    ``answer`` elements: the grader never computes, holds or sends more than the probed case needs."""

    def __init__(self, axis: int = 0, elements: int = 0) -> None:
        self.axis = max(2 * axis, AXIS_FLOOR)
        self.elements = max(4 * elements, ELEMENT_FLOOR)
        self.answer = self.elements * self.axis  # e.g. (n, d) queries and keys give (n, n) scores

    @classmethod
    def of(cls, values: Any) -> Bounds:
        """The bounds of a probe called with ``values`` (arrays, numbers, a Layer or Cache, nested in tuples)."""
        sizes = list(_sizes(values))
        return cls(max((axis for _, axis, _ in sizes), default=1), sum(n for _, _, n in sizes))

    def check(self, values: Any, what: str) -> None:
        """ValueError (the student's call raises it) unless every array (or list) in ``values`` is within these
        bounds."""
        sizes = list(_sizes(values))
        if any(ndim > MAX_NDIM or axis > self.axis for ndim, axis, _ in sizes):
            raise ValueError(f"{what}: an argument is larger than this case needs (at most {MAX_NDIM} axes of at "
                             f"most {self.axis})")
        if sum(n for _, _, n in sizes) > self.elements:
            raise ValueError(f"{what}: more than {self.elements:,} numbers in one call, more than this case needs")

    def check_answer(self, value: Any, what: str) -> None:
        if sum(n for _, _, n in _sizes(value)) > self.answer:
            raise ValueError(f"{what}: its answer would hold more than {self.answer:,} numbers, more than this "
                             "case needs")


class Served:
    """Correct stand-ins for some of the student's functions during one probe call (``Student.call_served``).

    ``functions`` maps each served name to the grader's own implementation (the suite's oracle); the
    worker calls back with ``(args, [[keyword, value], ...])``. "KVCache" is served as correct caches
    kept here (``Cache``). Its answers exist only for the call it is passed to: a stand-in that student
    code keeps and calls later refers to an earlier call's object and gets an error.

    Bounded like ``Layer`` and ``Cache``: ``bound`` (from the probed call's arguments, ``Student.call_served``)
    limits what each stand-in takes and answers; at most ``allowance`` answers and ``MAX_SERVED_CACHES`` caches
    (each within the bounds). Whatever fails here is raised in the student's call (``Student._callback``).
    """

    def __init__(self, functions: dict[str, Any]) -> None:
        self.functions = dict(functions)
        self.names = list(self.functions)
        self.caches: list[Cache] = []
        self.calls = 0
        self.used: dict[str, int] = {}  # answers given, by served name (a cache's methods count for KVCache)
        self.bounds = Bounds()
        self.allowance = MAX_SERVED  # answers this Served may give (``Student`` lowers it to the grading's rest)

    def bound(self, values: Any) -> None:
        """Widen the bounds to what a probe called with ``values`` needs (a stateful probe makes several calls)."""
        more = Bounds.of(values)
        self.bounds.axis, self.bounds.elements = max(self.bounds.axis, more.axis), max(self.bounds.elements,
                                                                                         more.elements)
        self.bounds.answer = max(self.bounds.answer, more.answer)

    def serve(self, method: str, args: tuple) -> Any:
        self.calls += 1
        name = method.split(".", 1)[0]
        if name in self.functions:
            self.used[name] = self.used.get(name, 0) + 1
        if self.calls > min(self.allowance, MAX_SERVED):
            raise CallbackLimit(f"more than {min(self.allowance, MAX_SERVED):,} calls of the functions served in "
                                "a probe")
        if len(args) != 2 or not isinstance(args[0], list) or not isinstance(args[1], list):
            raise TypeError("bad arguments")
        positional, keywords = args
        self.bounds.check((positional, keywords), f"{method}()")
        if method == "KVCache" and "KVCache" in self.functions:
            if len(self.caches) >= MAX_SERVED_CACHES:
                raise ValueError(f"KVCache(): at most {MAX_SERVED_CACHES} caches in one call")
            self.caches.append(Cache(rows=self.bounds.axis, width=self.bounds.axis))
            return len(self.caches) - 1
        if method.startswith("KVCache.") and positional and type(positional[0]) is int:
            index = positional[0]
            if not 0 <= index < len(self.caches):
                raise ValueError("unknown cache")
            return self.caches[index].serve(method.split(".", 1)[1], tuple(positional[1:]))
        function = self.functions.get(method)
        if function is None or not all(isinstance(kw, list) and len(kw) == 2 and isinstance(kw[0], str)
                                       for kw in keywords):
            raise TypeError(f"{method}() is not served here")
        try:
            with np.errstate(all="ignore"):
                value = function(*positional, **dict(keywords))
        except Exception as e:  # a call the contract does not allow: the student's code gets the error
            raise ValueError(f"{method}(): {type(e).__name__}: {e}") from None
        self.bounds.check_answer(value, f"{method}()")
        return value


def _sizes(value: Any, depth: int = 0) -> Iterator[tuple[int, int, int]]:
    """(axes, longest axis, numbers) of each array, list and number in ``value`` (nested in tuples, lists and
    dicts; a Layer's weights, a Cache's rows). A list counts its length as an axis, its items apart."""
    if isinstance(value, np.ndarray):
        yield value.ndim, max(value.shape, default=1), value.size
    elif isinstance(value, (tuple, list)):
        yield 1, len(value), 0
        for item in value if depth < 40 else ():
            yield from _sizes(item, depth + 1)
    elif isinstance(value, dict):
        yield from _sizes(list(value.values()), depth + 1)
    elif isinstance(value, Layer):
        yield from _sizes(list(value._W.values()))
    elif isinstance(value, Cache):
        yield from _sizes([value._keys, value._values])
    else:
        yield 0, 1, 1


def _real_array(x: Any, what: str) -> np.ndarray:
    try:
        array = np.array(x, dtype=float) if isinstance(x, (list, tuple, int, float)) else np.array(x)
    except (TypeError, ValueError):
        array = np.array(None)
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{what} must be an array of real numbers")
    return array
