"""What scale an attention used: named from a fitted value, or fitted to the output itself.

* ``mistake`` names a fitted effective scale ``c`` (the factor the scores are multiplied by before the
  softmax) in the case's terms: 1/sqrt(d_v), none, 1/d_k, sqrt(d_k), 1/sqrt of another dimension, the model
  width, the default scale instead of the given one; else ``scale_other``.
* ``fit`` finds, for an attention function whose weights the output does not show (multi-head attention, or a
  rewritten probe call), the scale at which the contract's answer equals the output: grids of scales, each finer
  around the best of the last, evaluated at once (``variants.attend``), then an exact comparison with the
  oracle's answer at that scale. A scale is named only when the contract's answer at
  that scale matches the output within the tolerance and the asked-for scale does not.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from autograder.api import ProbeBudgetError, compare, matches

from ..generated import oracle
from . import variants

SCALE_RTOL = 1e-4  # a fitted scale is this close to a named one (they differ by far more; a -1e9 fill costs digits)
RATIOS = np.geomspace(1e-3, 1e3, 31)  # fitted scale / asked-for scale: the first grid
CONVERGING = 0.5  # two grids finer, the best error is at least halved (an output at some scale: about 200x), or none
FITS_PER_CASE = 12  # fits tried for one failing case (each a few grids of the attention)
ROUNDS = 7  # grids, each 15 times finer around the best point of the last: a relative precision of about 1e-7


def mistake(c: float, wanted: float, given: Any, d_k: int, d_v: int, dims: set[int], model: set[int] = frozenset(),
            per_head: set[float] = frozenset()) -> str | None:
    """The mistake a fitted effective scale ``c`` shows, or None when it is the one asked for.

    ``dims``: the case's other dimensions (token counts, batch sizes); ``model``: the model widths of multi-head
    attention (D, H*d_k); ``per_head``: the model width over the heads (D / H, D // H), which has no sentence of
    its own. A value that two mistakes give alike names neither: scale_other."""
    if np.isclose(c, wanted, rtol=SCALE_RTOL):
        return None
    if given is not None and np.isclose(c, 1 / np.sqrt(d_k), rtol=SCALE_RTOL):
        return "scale_argument_ignored"
    named = [("no_scale", 1.0), ("sqrt_missing", 1 / d_k), ("scale_inverted", np.sqrt(d_k))]
    if d_v != d_k:
        named.insert(0, ("scale_d_v", 1 / np.sqrt(d_v)))
    named += [("scale_d_model", 1 / np.sqrt(n)) for n in model if n not in (0, d_k)]
    named += [("scale_other", 1 / np.sqrt(n)) for n in per_head if n not in (0, d_k)]
    named += [("scale_wrong_dim", 1 / np.sqrt(n)) for n in dims if n not in (0, d_k)]
    found = {m for m, value in named if np.isclose(c, value, rtol=SCALE_RTOL)}
    return found.pop() if len(found) == 1 else "scale_other"  # two readings of one value: neither is shown


def named_for(function: str, inputs: dict[str, Any], c: float) -> str | None:
    """``mistake`` for a scale fitted on these inputs, where no probe tells a constant of the code's own from what it
    equals: a token count or batch size (small integers, 1/sqrt(4) = 0.5) is no reading then (scale_other)."""
    if function == "multi_head_attention":
        X, H = np.shape(inputs["X"]), int(inputs["num_heads"])
        d_k, d_v = np.shape(inputs["W_Q"])[-1] // H, np.shape(inputs["W_V"])[-1] // H
        return mistake(c, variants.asked(function, inputs), None, d_k, d_v, set(), {X[-1], H * d_k},
                       {X[-1] / H, X[-1] // H})
    Q = np.shape(inputs["Q"])
    return mistake(c, variants.asked(function, inputs), inputs.get("scale"), Q[-1], np.shape(inputs["V"])[-1], set())


def with_scale(function: str, inputs: dict[str, Any], c: float) -> dict[str, Any]:
    """Inputs whose contract answer is attention with scores scaled by ``c``: the scale argument, or for multi-head
    attention the query weights multiplied by c * sqrt(d_k)."""
    if function == "multi_head_attention":
        return dict(inputs, W_Q=np.asarray(inputs["W_Q"]) * (c / variants.asked(function, inputs)))
    return dict(inputs, scale=c)


_left: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("fits_left", default=None)
_probes: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("probes_left", default=None)
PROBES_PER_CASE = 24  # probe calls of the probe search and the crash search together, for one failing case


@contextlib.contextmanager
def budget(fits: int = FITS_PER_CASE, probes: int = PROBES_PER_CASE) -> Iterator[None]:
    """At most ``fits`` fits and ``probes`` calls of the probe and crash searches within this block (one failing
    case's diagnosis): a wrong output tried against many answers costs a bounded time."""
    token, calls = _left.set([fits]), _probes.set([probes])
    try:
        yield
    finally:
        _left.reset(token)
        _probes.reset(calls)


def probe_allowed() -> bool:
    """Whether one more probe call fits the case's budget (it is then counted); True outside a budget."""
    left = _probes.get()
    if left is None:
        return True
    if left[0] <= 0:
        return False
    left[0] -= 1
    return True


def charged(rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A crash search's rewriting that charges its probe call to the case's budget (``probe_allowed``): refused, it
    raises ProbeBudgetError (the search cannot tell this property, which is not "it does not apply")."""
    def charging(named: dict[str, Any]) -> dict[str, Any]:
        inputs = rewrite(named)
        if not probe_allowed():
            raise ProbeBudgetError("the crash search", PROBES_PER_CASE, "the case's")
        return inputs

    return charging


def fit(function: str, inputs: dict[str, Any], actual: Any) -> float | None:
    """The scale at which the contract's answer on ``inputs`` equals ``actual``, or None when none does (or when
    the case's ``budget`` is spent)."""
    flat = flat_output(actual)
    if flat is None or not np.isfinite(flat).all():
        return None
    left = _left.get()
    if left is not None:
        if left[0] <= 0:
            return None
        left[0] -= 1
    base, lo, hi = variants.asked(function, inputs), np.log(RATIOS[0]), np.log(RATIOS[-1])
    best_errors: list[float] = []
    for _ in range(ROUNDS):  # a grid of scales, then a finer one around the best, ...
        ratios = np.exp(np.linspace(lo, hi, len(RATIOS)))
        try:
            with np.errstate(all="ignore"):
                outputs = variants.attend(function, inputs, base * ratios, mask=inputs.get("mask"))
        except (ValueError, TypeError, IndexError):  # no answer on these inputs (e.g. shapes that do not broadcast)
            return None
        stacked = _stacked(outputs, len(ratios))
        if stacked is None or stacked.shape[1] != flat.size:
            return None
        errors = np.where(np.isfinite(stacked).all(axis=1), np.abs(stacked - flat).max(axis=1), np.inf)
        best = int(np.argmin(errors))
        if not np.isfinite(errors[best]):
            return None
        if np.all(np.abs(stacked[best] - flat) <= compare.ATOL + compare.RTOL * np.abs(stacked[best])):
            break  # within the tolerance: confirmed by the oracle below
        if len(best_errors) >= 2 and errors[best] > CONVERGING * best_errors[-2]:
            return None  # two finer grids came no closer: what is left is no scale's doing
        best_errors.append(float(errors[best]))
        lo, hi = np.log(ratios[max(best - 1, 0)]), np.log(ratios[min(best + 1, len(ratios) - 1)])
    c = base * float(ratios[best])
    try:
        with np.errstate(all="ignore"):
            if not matches(actual, getattr(oracle, function)(**with_scale(function, inputs, c))):
                return None
            harder = getattr(oracle, function)(**with_scale(function, inputs, SATURATED * c))
    except (ValueError, TypeError, IndexError):
        return None
    # the answer SATURATED times sharper is the same: the softmax is one-hot there, so the fit shows no scale, and
    # every reading whose attention picks the same keys fits as well (a token that attends only to itself is one
    # causal, one-head attention by a coincidence of which key scores highest): no fit
    return None if matches(actual, harder) else c


SATURATED = 4.0  # how much sharper the scores are made to tell a fitted scale from a one-hot softmax


def _stacked(outputs: Any, n: int) -> np.ndarray | None:
    """One row per scale: every output of the attention at that scale, flattened."""
    parts = outputs if isinstance(outputs, tuple) else (outputs,)
    if any(np.shape(p)[:1] != (n,) for p in parts):
        return None
    return np.concatenate([np.asarray(p, dtype=float).reshape(n, -1) for p in parts], axis=1)


def flat_output(output: Any) -> np.ndarray | None:
    parts = output if isinstance(output, (tuple, list)) else (output,)
    try:
        arrays = [np.asarray(p, dtype=float).ravel() for p in parts]
    except (TypeError, ValueError):
        return None
    return np.concatenate(arrays) if arrays else None


FIT_TOLERANCE = 1e-6  # largest residual of log-weights left by an exact fit


def log_fit(weights: np.ndarray, scores: np.ndarray, allowed: np.ndarray) -> np.ndarray | None:
    """(c, b) or (c,) with log w = c * scores + b * allowed + a constant per row (the last axis), exact on every entry
    kept (w > 0) of rows keeping two or more; None when no such fit is exact."""
    rows_c, rows_b, rows_y = [], [], []
    for index in np.ndindex(*scores.shape[:-1]):
        w, s, m = weights[index], scores[index], allowed[index].astype(float)
        keep = w > 1e-300
        if keep.sum() < 2:
            continue
        y, s, m = np.log(w[keep]), s[keep], m[keep]
        rows_y.append(y - y.mean())
        rows_c.append(s - s.mean())
        rows_b.append(m - m.mean())
    if not rows_y:
        return None
    y, cs, bs = np.concatenate(rows_y), np.concatenate(rows_c), np.concatenate(rows_b)
    columns = [cs] + ([bs] if np.abs(bs).max() > 0 else [])
    A = np.stack(columns, axis=1)
    solution, *_ = np.linalg.lstsq(A, y, rcond=None)
    if np.abs(A @ solution - y).max() > FIT_TOLERANCE * max(1.0, np.abs(y).max()):
        return None
    return solution
