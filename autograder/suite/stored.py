"""Is a stored case file still what the reference produces? Exact on structure, within a few ulps on floats.

``regen`` writes the stored outputs on one machine; another CPU (other SIMD kernels in numpy
or OpenBLAS, for example without AVX2/FMA) computes the same floating values up to the last
bits. So ``regen --check`` cannot compare bytes. ``differences`` compares two case files:

* exactly: the case ids and their order, each case's function, seed and description, the
  input names, the stored mistake ids, the structure of every input and output (array,
  number, tuple, dict and their keys), every shape and dtype, every integer and boolean
  value, which entries are NaN or infinite;
* within ``|a - b| <= REL * max(1, |b|)`` (``REL`` = 1e-12, thousands of ulps of a value of
  order 1 and a million times below the grading tolerance): the finite floating values of
  inputs, expected and mistake outputs. Most inputs are drawn from a seeded generator and
  come out bit for bit everywhere, but some are computed (a RoPE decode case's cached keys
  are rotated by the reference: numpy's AVX-512 sin/cos differ from its AVX2 ones in the
  last bit), and a changed seed or generator moves a drawn value by far more than REL.

``manifest_differences`` compares two manifests the same way, ignoring the two fields that
record which bytes were written and by which numpy (``sha256``, ``numpy``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from autograder.feedback import compare
from autograder.suite.cases import Case

REL = 1e-12
WRITER_FIELDS = ("sha256", "numpy")  # manifest fields that describe the bytes written, not the cases
MAX_REPORTED = 5


def differences(stored: Mapping[str, Case], fresh: Mapping[str, Case], *, rel: float = REL) -> list[str]:
    """Why ``stored`` is not ``fresh`` (at most a few reasons); [] when it is, up to float rounding."""
    found: list[str] = []
    if list(stored) != list(fresh):
        missing, extra = sorted(set(fresh) - set(stored)), sorted(set(stored) - set(fresh))
        found.append(f"case ids differ (missing {missing[:3]}, unexpected {extra[:3]}, or another order)")
        return found
    for case_id, old in stored.items():
        new = fresh[case_id]
        for field in ("function", "seed", "description"):
            if getattr(old, field) != getattr(new, field):
                found.append(f"{case_id}: stored {field} {getattr(old, field)!r}, regenerated {getattr(new, field)!r}")
        found += _value_differences(f"{case_id}/input", old.inputs, new.inputs, rel=rel)
        found += _value_differences(f"{case_id}/expected", old.expected, new.expected, rel=rel)
        found += _value_differences(f"{case_id}/mistake", old.mistakes, new.mistakes, rel=rel)
        if len(found) >= MAX_REPORTED:
            break
    return found[:MAX_REPORTED]


def manifest_differences(stored: Mapping[str, Any], fresh: Mapping[str, Any]) -> list[str]:
    """The manifest fields that differ, apart from ``WRITER_FIELDS``."""
    keys = (set(stored) | set(fresh)) - set(WRITER_FIELDS)
    return [f"manifest field {key!r} differs" for key in sorted(keys) if stored.get(key) != fresh.get(key)]


def largest_relative_difference(stored: Mapping[str, Case], fresh: Mapping[str, Case]) -> float:
    """max |a - b| / max(1, |b|) over the floating inputs and outputs of two files that ``differences`` calls equal."""
    largest = 0.0
    for case_id, old in stored.items():
        new = fresh[case_id]
        for a, b in zip(_floats((old.inputs, old.expected, old.mistakes)),
                        _floats((new.inputs, new.expected, new.mistakes))):
            if a.size:
                finite = np.isfinite(b)
                gap = np.abs(a[finite] - b[finite]) / np.maximum(1.0, np.abs(b[finite]))
                largest = max(largest, float(gap.max(initial=0.0)))
    return largest


def same_values(a: Any, b: Any, *, rel: float = REL) -> bool:
    """Two values (arrays, numbers, tuples, dicts) equal as ``differences`` judges them: up to float rounding."""
    return not _value_differences("", a, b, rel=rel)


def same_output(a: Any, b: Any) -> bool:
    """Equal within feedback's tolerance (NaN equals NaN); tuples and dicts item by item."""
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return isinstance(a, Mapping) and isinstance(b, Mapping) and a.keys() == b.keys() and all(
            same_output(a[k], b[k]) for k in a
        )
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (
            isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
            and all(same_output(x, y) for x, y in zip(a, b))
        )
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a is b or a == b
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape or (x.dtype.kind == "b") != (y.dtype.kind == "b"):
        return False
    if x.dtype.kind not in "biuf" or y.dtype.kind not in "biuf":
        return False
    return bool(np.allclose(x, y, rtol=compare.RTOL, atol=compare.ATOL, equal_nan=True))


def _value_differences(where: str, a: Any, b: Any, *, rel: float) -> list[str]:
    if type(a) is not type(b) and not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        return [f"{where}: stored {type(a).__name__}, regenerated {type(b).__name__}"]
    if isinstance(a, Mapping):
        if list(a) != list(b):
            return [f"{where}: stored keys {list(a)}, regenerated {list(b)}"]
        return [d for key in a for d in _value_differences(f"{where}/{key}", a[key], b[key], rel=rel)]
    if isinstance(a, tuple):
        if len(a) != len(b):
            return [f"{where}: stored {len(a)} items, regenerated {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _value_differences(f"{where}/{i}", x, y, rel=rel)]
    if isinstance(a, np.ndarray):
        return _array_differences(where, a, b, rel=rel)
    if isinstance(a, float):
        return _array_differences(where, np.array(a), np.array(b), rel=rel)
    return [] if a == b else [f"{where}: stored {a!r}, regenerated {b!r}"]


def _array_differences(where: str, a: np.ndarray, b: np.ndarray, *, rel: float) -> list[str]:
    if a.dtype != b.dtype or a.shape != b.shape:
        return [f"{where}: stored {a.dtype}{list(a.shape)}, regenerated {b.dtype}{list(b.shape)}"]
    if a.dtype.kind != "f" or rel == 0.0:
        same = np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        if same and a.dtype.kind == "f":  # bit for bit: -0.0 is not 0.0
            same = bool(np.array_equal(np.signbit(a), np.signbit(b)))
        return [] if same else [f"{where}: values differ"]
    finite = np.isfinite(b)
    if not np.array_equal(np.isfinite(a), finite) or not np.array_equal(a[~finite], b[~finite], equal_nan=True):
        return [f"{where}: NaN or infinite entries differ"]
    gap = np.abs(a[finite].astype(np.float64) - b[finite]) / np.maximum(1.0, np.abs(b[finite].astype(np.float64)))
    worst = float(gap.max(initial=0.0))
    return [] if worst <= rel else [f"{where}: values differ by {worst:.1e} (relative)"]


def _floats(value: Any) -> list[np.ndarray]:
    if isinstance(value, Mapping):
        return [x for item in value.values() for x in _floats(item)]
    if isinstance(value, tuple):
        return [x for item in value for x in _floats(item)]
    if isinstance(value, float):
        return [np.array([value])]
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return [value.ravel()]
    return []
