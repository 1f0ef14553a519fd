"""Low precision, named only with evidence of rounding: the errors have the size of float16/bfloat16 rounding and
look like it (spread over many entries, of both signs, not proportional to the values), never a systematic factor
such as a scale of 1/sqrt(d_v) for 1/sqrt(d_k).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.suite.graded.tools import items as _items
from autograder.suite.graded.tools import quiet

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
    return worst > LOW_PRECISION[0] and rounding_like(np.concatenate(errors), np.concatenate(values))


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
