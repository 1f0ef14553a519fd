"""The one guard for every value the grader reads from student code (issue 28): ``answer`` and ``oddity``.

What comes back from the worker is plain (protocol.py), but can still be anything of that: a ragged list, a tuple of
the wrong length, NaN, an array of a million entries. A probe or a fit reads it through ``answer`` ("not the
answer": None); ``oddity`` says what is odd about it, for the student (``Student._odd``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.sandbox import protocol

MAX_ANSWER = 1_000_000  # entries of one value the grader reads (the graded cases have at most a few thousand)


def answer(value: Any, like: Any = None, *, finite: bool = False) -> Any:
    """``value`` as the grader reads an answer: an ndarray of real numbers, or a tuple of them (a list of arrays
    stands for a tuple); None when it is not one. With ``like`` (an expected answer): None unless it has the same
    structure and shapes. ``finite``: None when an entry is NaN or infinite."""
    if isinstance(value, np.ndarray):
        array = value
        if type(array) is not np.ndarray or array.dtype.kind not in protocol.REAL_KINDS or array.size > MAX_ANSWER:
            return None
        if like is not None and (not isinstance(like, np.ndarray) or np.shape(like) != array.shape):
            return None
        if finite and array.dtype.kind == "f" and not np.isfinite(array).all():
            return None
        return array
    if isinstance(value, (tuple, list)) and value and all(isinstance(item, np.ndarray) for item in value):
        if like is not None and (not isinstance(like, tuple) or len(like) != len(value)):
            return None
        items = [answer(item, None if like is None else like[i], finite=finite) for i, item in enumerate(value)]
        return None if any(item is None for item in items) else tuple(items)
    return None


def oddity(value: Any) -> str:
    """What is odd about a value a student's function returned, in words ("" when nothing is): anything but real
    arrays of finite numbers of a reasonable size, or a tuple of them."""
    if isinstance(value, tuple) and value and all(isinstance(item, np.ndarray) for item in value):
        return next((f"{odd} (item {i} of a tuple)" for i, item in enumerate(value) if (odd := oddity(item))), "")
    if isinstance(value, np.ndarray):
        if type(value) is not np.ndarray:
            return f"an array of type {type(value).__name__}"
        if value.size > MAX_ANSWER:
            return f"an array of {value.size:,} numbers"
        if value.dtype.kind not in protocol.REAL_KINDS:
            return f"an array of dtype {value.dtype}"
        if value.dtype.kind == "f" and not np.isfinite(value).all():
            return "an array holding NaN or infinite values"
        return ""
    if isinstance(value, list):
        return "a list (ragged, or of other values than arrays)" if not answer(value) else "a list of arrays"
    if isinstance(value, tuple):
        return "a tuple holding something else than arrays" if value else "an empty tuple"
    return "None" if value is None else f"a {type(value).__name__}"
