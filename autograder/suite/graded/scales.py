"""What scale an attention used: named from a fitted value, or fitted to the output itself.

* ``mistake`` names a fitted effective scale ``c`` (the factor the scores are multiplied by before the
  softmax) in the case's terms: 1/sqrt(d_v), none, 1/d_k, sqrt(d_k), 1/sqrt of another dimension, the model
  width, the default scale instead of the given one; else ``scale_other``.
* ``fit`` finds, for an attention function whose weights the output does not show (multi-head attention, or a
  rewritten probe call), the scale at which the contract's answer (computed by the oracle) equals the output:
  a 1-D search on log scale, then an exact comparison. A scale is named only when the contract's answer at
  that scale matches the output within the tolerance and the asked-for scale does not.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.suite.graded import oracle
from autograder.suite.graded.masks import matches

SCALE_RTOL = 1e-4  # a fitted scale is this close to a named one (they differ by far more; a -1e9 fill costs digits)
RATIOS = np.geomspace(1e-3, 1e3, 31)  # fitted scale / asked-for scale: the coarse grid
REFINE = 36  # golden-section steps between grid neighbours: a relative precision of about 1e-8


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


def asked(function: str, inputs: dict[str, Any]) -> float:
    """The scale the contract applies on these inputs."""
    if function == "multi_head_attention":
        return 1 / np.sqrt(np.shape(inputs["W_Q"])[-1] // int(inputs["num_heads"]))
    given = inputs.get("scale")
    return float(given) if given is not None else 1 / np.sqrt(np.shape(inputs["Q"])[-1])


def named_for(function: str, inputs: dict[str, Any], c: float) -> str | None:
    """``mistake`` for a scale fitted on these inputs."""
    if function == "multi_head_attention":
        X, H = np.shape(inputs["X"]), int(inputs["num_heads"])
        d_k, d_v = np.shape(inputs["W_Q"])[-1] // H, np.shape(inputs["W_V"])[-1] // H
        return mistake(c, asked(function, inputs), None, d_k, d_v, {X[-2], *X[:-2]}, {X[-1], H * d_k},
                       {X[-1] / H, X[-1] // H})
    Q, K = np.shape(inputs["Q"]), np.shape(inputs["K"])
    return mistake(c, asked(function, inputs), inputs.get("scale"), Q[-1], np.shape(inputs["V"])[-1],
                   {Q[-2], K[-2], *Q[:-2]})


def with_scale(function: str, inputs: dict[str, Any], c: float) -> dict[str, Any]:
    """Inputs whose contract answer is attention with scores scaled by ``c``: the scale argument, or for multi-head
    attention the query weights multiplied by c * sqrt(d_k)."""
    if function == "multi_head_attention":
        return dict(inputs, W_Q=np.asarray(inputs["W_Q"]) * (c / asked(function, inputs)))
    return dict(inputs, scale=c)


def fit(function: str, inputs: dict[str, Any], actual: Any) -> float | None:
    """The scale at which the contract's answer on ``inputs`` equals ``actual``, or None when none does."""
    flat = _flat(actual)
    if flat is None or not np.isfinite(flat).all():
        return None
    base = asked(function, inputs)

    def error(ratio: float) -> float:
        try:
            with np.errstate(all="ignore"):
                expected = _flat(getattr(oracle, function)(**with_scale(function, inputs, base * ratio)))
        except (ValueError, TypeError, IndexError):  # no answer on these inputs (e.g. shapes that do not broadcast)
            return np.inf
        if expected is None or expected.shape != flat.shape or not np.isfinite(expected).all():
            return np.inf
        return float(np.abs(expected - flat).max())

    errors = [error(r) for r in RATIOS]
    best = int(np.argmin(errors))
    if not np.isfinite(errors[best]):
        return None
    lo, hi = np.log(RATIOS[max(best - 1, 0)]), np.log(RATIOS[min(best + 1, len(RATIOS) - 1)])
    golden = (np.sqrt(5) - 1) / 2
    a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
    fa, fb = error(np.exp(a)), error(np.exp(b))
    for _ in range(REFINE):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - golden * (hi - lo)
            fa = error(np.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + golden * (hi - lo)
            fb = error(np.exp(b))
    c = base * float(np.exp((lo + hi) / 2))
    with np.errstate(all="ignore"):
        answer = getattr(oracle, function)(**with_scale(function, inputs, c))
    return c if matches(actual, answer) else None


def _flat(output: Any) -> np.ndarray | None:
    parts = output if isinstance(output, (tuple, list)) else (output,)
    try:
        arrays = [np.asarray(p, dtype=float).ravel() for p in parts]
    except (TypeError, ValueError):
        return None
    return np.concatenate(arrays) if arrays else None
