"""Low precision, named only with evidence of rounding: the errors have the size of float16/bfloat16 rounding and
look like it (spread over many entries, of both signs, not proportional to the values), never a systematic factor
such as a scale of 1/sqrt(d_v) for 1/sqrt(d_k). An output rounded to a number of decimal places (`np.round(out, 4)`)
is told from it: every entry is then a multiple of 10**-k, which float16 values are not, and it is named only when
it equals the expected output (or a stored mistake's) rounded so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.feedback import compare
from autograder.suite.graded.tools import items as _items
from autograder.suite.graded.tools import matches, quiet

# ----------------------------------------------------------------------------

LOW_PRECISION = (2e-5, 3e-2)  # relative errors of float16/bfloat16 intermediates (eps 1e-3, 8e-3), a few ulps


@quiet(False)
def low_precision(expected: Any, actual: Any) -> bool:
    """The values are right, computed in low precision: every entry within a few float16/bfloat16 ulps of the
    expected value, some beyond what float32 would explain, and the errors look like rounding, not like a
    systematic change (``rounding_like``)."""
    items = _items(expected, actual)
    if not items:
        return False
    worst, errors, values = 0.0, [], []
    for t, a in items:
        if not np.isfinite(t).all() or not np.isfinite(a).all():
            return False
        scale = np.abs(t) + np.mean(np.abs(t)) + 1e-12
        error = np.abs(a - t) / scale
        if error.max() > LOW_PRECISION[1]:
            return False
        worst = max(worst, float(error.max()))
        errors.append(((a - t) / scale).ravel())
        values.append(t.ravel())
    return worst > LOW_PRECISION[0] and rounding_like(np.concatenate(errors), np.concatenate(values)) and \
        decimals(expected, actual) is None


DECIMALS = range(2, 7)  # decimal places an output may be rounded to (past 6 the contract's tolerance absorbs it; at
# one, halves and tenths of a code's own are too common to read as rounding)
FLOAT32 = 2.5e-7  # two float32 ulps, relative: a rounded value the student's code then stored in float32
MIN_ROUNDED = 2  # entries of the expected output that rounding changes and that stay nonzero: enough to read it


@quiet(None)
def decimals(expected: Any, actual: Any) -> int | None:
    """The fewest decimal places (2 to 6) every entry of ``actual`` is rounded to, where at least MIN_ROUNDED
    entries of ``expected`` are not (and stay nonzero rounded so), or None."""
    items = _items(expected, actual)
    if not items or not all(np.isfinite(t).all() and np.isfinite(a).all() for t, a in items):
        return None
    for k in DECIMALS:
        step = 10.0 ** -k
        if all((np.abs(a - np.round(a, k)) <= 1e-3 * step + FLOAT32 * np.abs(a)).all() for _, a in items):
            changed = sum(int(((np.abs(t - np.round(t, k)) > 1e-2 * step) & (np.round(t, k) != 0)).sum())
                          for t, _ in items)
            return k if changed >= MIN_ROUNDED else None
    return None


def _rounded(value: Any, k: int) -> Any:
    if isinstance(value, tuple):
        return tuple(_rounded(v, k) for v in value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.round(value, k)
    return value


@quiet(None)
def rounded(expected: Any, actual: Any, mistakes: Any) -> tuple[tuple[str, ...], str] | None:
    """An output rounded to k decimal places (``decimals``) that equals the expected output rounded so
    ("output_rounded"), or a stored mistake's (that mistake and "output_rounded"), with how; else None. Named only
    where the homework has a sentence for it."""
    k = decimals(expected, actual) if "output_rounded" in compare.MISTAKES else None
    if k is None:
        return None
    how = f"every entry of the output is a multiple of 1e-{k}, and it equals "
    if matches(actual, _rounded(expected, k)):
        return ("output_rounded",), how + f"the expected output rounded to {k} decimal places"
    found = compare.diagnose(actual, {m: _rounded(out, k) for m, out in mistakes.items() if out is not None},
                             expected=_rounded(expected, k))
    if found is None:
        return None
    return (found, "output_rounded"), how + f"this mistake's output rounded to {k} decimal places"


def reading(expected: Any, actual: Any, mistakes: Any) -> tuple[Any, str, bool] | None:
    """What the output's precision shows, as (mistakes, how, exact): rounded to some decimal places (``rounded``),
    else computed in low precision (``low_precision``); None when neither."""
    if found := rounded(expected, actual, mistakes):
        return (*found, True)
    return LOW if low_precision(expected, actual) else None


LOW = ("low_precision", "the errors look like rounding in float16/bfloat16, not a systematic change", False)


MIN_SPREAD = 0.05  # rounding touches many entries: at least this share of them err by a tenth of the largest error


MAX_CORRELATION = 0.6  # rounding errors do not follow the values nor their sign


def rounding_like(relative: np.ndarray, values: np.ndarray) -> bool:
    """Whether relative errors look like rounding: spread over most entries, of both signs in similar numbers, and
    not following the values or their sign (a systematic factor, such as a scale of 1/sqrt(d_v) for 1/sqrt(d_k), or
    a bias away from zero, is not)."""
    big = np.abs(relative) >= 0.1 * np.abs(relative).max()
    if relative.size < 4 or big.mean() < MIN_SPREAD:
        return False
    positive = float((relative[big] > 0).mean())
    if not 0.15 <= positive <= 0.85:
        return False
    for systematic in (values - values.mean(), np.sign(values)):  # with the values, or away from (towards) zero
        if np.std(systematic) > 0 and np.std(relative) > 0:
            if abs(float(np.corrcoef(relative, systematic)[0, 1])) > MAX_CORRELATION:
                return False
    return True
