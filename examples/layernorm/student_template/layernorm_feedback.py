"""Feedback for a numpy homework: what is wrong with a result, where, and why.

Self-contained (numpy and the standard library only): this file is copied verbatim
into the student template as ``<upload>_feedback.py`` (with the homework's tolerance and sentences
written in at its end), next to a verbatim copy of
``feedback_format.py`` (how problems are worded and drawn). Reports are markdown that
also read well as plain text in a terminal or in pytest output.

    compare(what, expected, actual)          None if equal within tolerance, else a report
    diagnose(actual, mistakes, expected=...) id of the known mistake whose output matches
    report(what, expected, actual, mistakes) "Likely mistake: ..." then compare()
    MISTAKES                                 mistake id -> one sentence: what it is, how to fix it
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

try:  # inside the autograder package
    from .feedback_format import describe, dtype_problem, excerpt, heatmap, nonfinite, shape_hint
except ImportError:  # copied next to feedback_format.py (the student template)
    from feedback_format import describe, dtype_problem, excerpt, heatmap, nonfinite, shape_hint  # type: ignore

__all__ = ["ATOL", "MISTAKES", "RTOL", "compare", "configure", "diagnose", "heatmap", "report"]

# Entry by entry, |yours - expected| <= ATOL + RTOL * |expected| (numpy.allclose). Values are
# of order 1, so this allows about 1e-5 relative error: a correct solution written with loops or
# einsum (off by ~1e-15) or computed in float32 (off by ~1e-7) passes, while every known mistake
# in MISTAKES (a missing sqrt, a wrong axis, a position off by one, ...) moves some entry by far
# more on the graded inputs (the project's tests check each one).
RTOL = 1e-5
ATOL = 1e-6


# ----------------------------------------------------------------------------
# The known mistakes: one sentence each, saying what to fix and where to look
# ----------------------------------------------------------------------------

MISTAKES: dict[str, str] = {}  # the homework's sentences (its sentences.py), set by configure()


def configure(*, rtol: float, atol: float, mistakes: Mapping[str, str]) -> None:
    """Set the homework's tolerance and known-mistake sentences (the grader does it when it loads the homework;
    the students' copy has them written in by ``autograder template``)."""
    global RTOL, ATOL
    RTOL, ATOL = float(rtol), float(atol)
    MISTAKES.clear()
    MISTAKES.update(mistakes)


# ----------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------


def compare(
    what: str,
    expected: Any,
    actual: Any,
    *,
    heatmap: bool | Collection[str] = False,
    names: Sequence[str] | None = None,
) -> str | None:
    """None if ``actual`` equals ``expected`` within RTOL/ATOL, else a markdown report.

    ``expected`` may be a tuple of arrays (e.g. (out, weights)), whose items ``names``
    names in the report, or a dict of named outputs (e.g. {"out": ..., "calls.key": 3};
    ``actual`` then needs the same keys). ``heatmap`` is True (draw one for every failing
    item with 2+ axes) or a collection of item names to draw it for.
    """
    if isinstance(expected, Mapping):
        body = _compare_named(expected, actual, heatmap)
    elif isinstance(expected, (tuple, list)):
        names = list(names) if names else [f"element {i}" for i in range(len(expected))]
        body = _compare_tuple(expected, actual, names, heatmap)
    else:
        body = _compare_array(expected, actual, heatmap=bool(heatmap))
    if not body:
        return None
    return f"**{what}** does not match the expected result.\n\n" + "\n".join(body)


def diagnose(actual: Any, mistakes: Mapping[str, Any], *, expected: Any = None) -> str | None:
    """The id of the first mistake (in ``mistakes`` order) whose stored output matches ``actual``.

    Outputs that are None, and outputs that equal ``expected`` (a mistake that happens to
    give the right answer on this input), are skipped. NaN matches NaN here, so a stored
    mistake that produces NaN is recognised. For dicts of named outputs only the names
    ``actual`` has are compared (e.g. "out" without the call counts).
    """
    for mistake_id, stored in mistakes.items():
        if stored is None:
            continue
        output = _observed(stored, actual)
        if expected is not None and _matches(output, _observed(expected, actual)):
            continue
        if _matches(actual, output):
            return mistake_id
    return None


def report(
    what: str,
    expected: Any,
    actual: Any,
    mistakes: Mapping[str, Any] | None = None,
    *,
    heatmap: bool | Collection[str] = False,
    names: Sequence[str] | None = None,
) -> str | None:
    """compare(), preceded by the likely mistake when diagnose() recognises one (the sentence first)."""
    text = compare(what, expected, actual, heatmap=heatmap, names=names)
    if text is None or not mistakes:
        return text
    mistake_id = diagnose(actual, mistakes, expected=expected)
    if mistake_id is None:
        return text
    base = mistake_id.split(".", maxsplit=1)[0]
    return f"**Likely mistake:** {MISTAKES.get(base, base)}\n\n{text}"


# ----------------------------------------------------------------------------
# Comparing
# ----------------------------------------------------------------------------


def _observed(value: Any, actual: Any) -> Any:
    """``value`` restricted to the names ``actual`` has, when both are dicts of named outputs."""
    if isinstance(value, Mapping) and isinstance(actual, Mapping):
        return {name: value[name] for name in actual if name in value}
    return value


def _matches(actual: Any, target: Any) -> bool:
    """Equal within tolerance, NaN equal to NaN; tuples and dicts item by item (used by diagnose)."""
    if isinstance(target, Mapping):
        return (
            isinstance(actual, Mapping)
            and bool(target)
            and all(name in actual and _matches(actual[name], t) for name, t in target.items())
        )
    if isinstance(target, (tuple, list)):
        return (
            isinstance(actual, (tuple, list))
            and len(actual) == len(target)
            and all(_matches(a, t) for a, t in zip(actual, target))
        )
    if not isinstance(actual, np.ndarray) and not np.isscalar(actual):
        return False
    a, t = np.asarray(actual), np.asarray(target)
    if a.shape != t.shape or (a.dtype.kind == "b") != (t.dtype.kind == "b"):
        return False
    if t.dtype.kind == "b":
        return bool(np.array_equal(a, t))
    if not _numeric(a) or not _numeric(t):
        return False
    return bool(np.all(np.isclose(a, t, rtol=RTOL, atol=ATOL, equal_nan=True)))


def _numeric(a: np.ndarray) -> bool:
    return a.dtype.kind in "iuf"


def _compare_tuple(expected: Sequence, actual: Any, names: list[str], heatmap: Any) -> list[str]:
    listed = ", ".join(f"`{n}`" for n in names)
    shapes = {n: np.shape(e) for n, e in zip(names, expected)}
    if isinstance(actual, np.ndarray):
        like = [n for n, s in shapes.items() if s == actual.shape]
        hint = f" It has the shape of `{like[0]}`: return all of them." if like else ""
        return [f"- Expected a tuple ({listed}) but you returned one array of shape {actual.shape}.{hint}"]
    if not isinstance(actual, (tuple, list)):
        return [f"- Expected a tuple ({listed}) but you returned {describe(actual)}."]
    if len(actual) != len(expected):
        return [f"- Expected a tuple of {len(expected)} ({listed}) but yours has {len(actual)} items."]
    headers = [f"`{n}` (item {i} of the returned tuple):" for i, n in enumerate(names)]
    items = list(zip(headers, names, expected, actual))
    return _compare_items(items, shapes, heatmap)


def _compare_named(expected: Mapping, actual: Any, heatmap: Any) -> list[str]:
    listed = ", ".join(f"`{n}`" for n in expected)
    if not isinstance(actual, Mapping):
        return [f"- Expected named results ({listed}) but got {describe(actual)}."]
    missing = [f"`{n}`" for n in expected if n not in actual]
    lines = [f"- Missing: {', '.join(missing)}."] if missing else []
    items = [(f"`{n}`:", n, e, actual[n]) for n, e in expected.items() if n in actual]
    body = _compare_items(items, {n: np.shape(e) for n, e in expected.items()}, heatmap)
    return lines + ([""] if lines and body else []) + body


def _compare_items(items: list[tuple[str, str, Any, Any]], shapes: Mapping, heatmap: Any) -> list[str]:
    """Compare (header, name, expected, actual) items; each failing one gets its header and report."""
    lines: list[str] = []
    for header, name, e, a in items:
        others = {n: s for n, s in shapes.items() if n != name}
        draw = heatmap is True or (not isinstance(heatmap, bool) and name in heatmap)
        body = _compare_array(e, a, heatmap=draw, others=others)
        if body:
            lines += [*([""] if lines else []), header, *body]
    return lines


def _compare_array(expected: Any, actual: Any, *, heatmap: bool, others: Mapping | None = None) -> list[str]:
    e = np.asarray(expected)
    if not isinstance(actual, np.ndarray):
        if e.ndim == 0 and np.isscalar(actual) and not isinstance(actual, str):
            actual = np.asarray(actual)  # a plain number where a scalar is expected is fine
        else:
            return [_type_problem(e, actual)]
    a = actual
    lines = []
    if a.shape != e.shape:
        lines.append(f"- Shape: expected {e.shape}, yours is {a.shape}.{shape_hint(e.shape, a.shape, others)}")
    problem = dtype_problem(e, a)
    if problem:
        lines.append(problem)
    if lines:
        return lines
    bad = a != e if e.dtype.kind == "b" else ~np.isclose(a, e, rtol=RTOL, atol=ATOL)
    if not bad.any():  # (a NaN or inf where a number is expected is never close: nonfinite() finds none here)
        return []
    if e.dtype.kind != "b":
        lines += nonfinite(e, a)
    return lines + _value_report(e, a, bad, draw=heatmap)


def _type_problem(e: np.ndarray, actual: Any) -> str:
    text = f"- Expected a numpy array of shape {e.shape}, but you returned {describe(actual)}."
    if isinstance(actual, (tuple, list)):
        same = [i for i, item in enumerate(actual) if isinstance(item, np.ndarray) and item.shape == e.shape]
        if same and len(actual) > 1:
            return text + f" Item {same[0]} has the expected shape: return only that array."
        try:
            converted = np.asarray(actual, dtype=float)
        except (TypeError, ValueError):
            return text
        if _matches(converted, e):
            return text + " Its values are right: return np.array(...) of it."
    return text


def _index(idx: Any) -> tuple[int, ...]:
    return tuple(int(i) for i in idx)


def _value_report(e: np.ndarray, a: np.ndarray, bad: np.ndarray, draw: bool) -> list[str]:
    """Mismatch count, worst absolute and relative errors, an excerpt and optionally a heatmap."""
    if e.ndim == 0:
        return [f"- Expected {_number(e)}, yours is {_number(a)}."]
    count, total = int(bad.sum()), bad.size
    tolerance = f" by more than the tolerance (|yours - expected| > {ATOL:g} + {RTOL:g}·|expected|)"
    how = "" if e.dtype.kind == "b" else tolerance
    lines = [f"- {count} of {total} entries differ ({100 * count / total:.1f}%){how}; shape {e.shape} is right."]
    center = _index(np.argwhere(bad)[0])
    if e.dtype.kind == "b":
        lines.append(f"- First difference at index {center}: expected {bool(e[center])}, yours {bool(a[center])}.")
    else:
        with np.errstate(all="ignore"):
            finite = bad & np.isfinite(a) & np.isfinite(e)
            err = np.where(finite, np.abs(a.astype(float) - e), -1.0)
            rel = np.where(finite & (e != 0), err / np.abs(np.where(e == 0, 1, e)), -1.0)
        if finite.any():
            center = _index(np.unravel_index(np.argmax(err), err.shape))
            lines.append(f"- Largest absolute error {err[center]:.3g} at index {center}: {_pair(e, a, center)}.")
        at = _index(np.unravel_index(np.argmax(rel), rel.shape))
        if rel[at] >= 0 and (at != center or not finite.any()):
            lines.append(f"- Largest relative error {rel[at]:.3g} at index {at}: {_pair(e, a, at)}.")
    if e.ndim:
        lines += ["", excerpt(e, a, bad, center)]
    if draw and e.ndim >= 2 and e.dtype.kind != "b":
        lines += ["", heatmap(e, a, center)]
    return lines


def _pair(e: np.ndarray, a: np.ndarray, at: tuple) -> str:
    return f"expected {_number(e[at])}, yours {_number(a[at])}"


def _number(x: Any) -> str:
    value = np.asarray(x).item()
    return str(value) if isinstance(value, (bool, int)) else f"{value:.8g}"


# The grader's own copy takes the tolerance and sentences of the homework it has loaded (a student's copy, under
# another name, has them written below instead).
if __name__ == "autograder.feedback.compare" and "autograder.homework" in sys.modules:
    sys.modules["autograder.homework"].configure_feedback(sys.modules[__name__])


# ----------------------------------------------------------------------------
# This homework's tolerance and known-mistake sentences: written here by `autograder template` from the
# homework's homework.py (TOLERANCE) and sentences.py (SENTENCES).
# ----------------------------------------------------------------------------

RTOL = 1e-06
ATOL = 1e-07
MISTAKES.update(
    {'ln_wrong_axis': 'You normalised over the first axis (across rows) instead of the last: each row is '
                      'normalised over its own D features, so take the mean and variance with axis=-1, '
                      'keepdims=True.',
     'ln_eps_outside_sqrt': 'You added eps to the standard deviation, sqrt(var) + eps: eps goes inside the square '
                            'root, (x - mean) / sqrt(var + eps).',
     'ln_unbiased_variance': 'You used the unbiased variance (dividing by D - 1, ddof=1): layer norm uses the '
                             'biased variance of the row, the mean of (x - mean)**2 over its D features.',
     'ln_gamma_beta_swapped': 'gamma and beta are swapped: gamma scales the normalised rows and beta is added, '
                              'gamma * x_hat + beta.',
     'relu_minimum': 'Your relu keeps the negative entries and zeroes the positive ones: relu(x) = max(x, 0).',
     'ff_no_activation': 'Your feed_forward has no activation between its two layers: apply relu to x @ W1 + b1 '
                         'before the second layer.',
     'ff_activation_on_output': 'Your feed_forward applies relu to its output too: only the hidden layer is '
                                'activated, the output is relu(x @ W1 + b1) @ W2 + b2.',
     'ff_bias_after_activation': 'You added b1 after the relu: the hidden layer is relu(x @ W1 + b1), its bias '
                                 'inside the activation.',
     'block_no_residual': 'Your pre_norm_block forgot the residual: return x + feed_forward(layer_norm(x, ...), '
                          "...), the input itself added to the network's output.",
     'block_post_norm': 'You normalised after the residual (post-norm, layer_norm(x + feed_forward(x))): a '
                        'pre-norm block normalises the input first, x + feed_forward(layer_norm(x)).',
     'block_residual_normalized': 'Your residual adds the normalised input: the skip connection carries x itself, '
                                  'x + feed_forward(layer_norm(x)).',
     'stats_last_batch_only': "Your RunningStats keeps only the last batch's statistics: merge each batch with "
                              'everything seen before, so the result is as if every row had come in one batch.',
     'stats_mean_of_means': "You averaged the batches' means (and variances) with equal weights: weight each batch "
                            'by its number of rows.',
     'stats_variance_not_merged': "Your variance averages the batches' variances but forgets the spread between "
                                  'their means: add delta**2 * count * n / (count + n), with delta the difference '
                                  'of the means (Chan et al.).',
     'stats_unbiased_variance': 'Your running variance is the unbiased one (1/(count - 1)): keep the biased '
                                'variance, 1/count, of every row seen.',
     'modified_input': 'You changed an input array in place: compute into new arrays instead (x = x - mean, not x '
                       '-= mean).',
     'returned_list': 'A result (or attribute) of yours is a Python list where a numpy array is due: build it with '
                      'numpy operations, or np.array(...) of it.',
     'low_precision': 'Your values are right to about 3 digits only: compute in float64, not float16 or float32.'}
)
