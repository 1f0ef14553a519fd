"""Inference from the output: what a wrong output computed, recovered in the case's terms by a fit that is exact.

The effective scale and the mask's effect, fitted from the log of the attention weights against the scores
(``log w_ij = c * s_ij + b * mask_ij + r_i``); a causal mask of shape (n_q, n_q); what RoPE did (``rotations.py``).
A name is given only when the fit is exact. Returns ``(mistake id, how it was shown)`` or None; ``how`` goes to
results.json's evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autograder.api import Case, StudentError

from ..generated import oracle
from . import masks, rotations, scales, variants
from .inference import Found, _plain_arguments


def infer(stored: Case, actual: Any, student: Any = None) -> Found:
    """The mistake the output itself shows, by a fit that is exact, or None. ``student``: for the one probe that
    settles a RoPE reading two explanations fit (``rotations.read``)."""
    with np.errstate(all="ignore"):
        try:
            if stored.function == "scaled_dot_product_attention":
                return _attention_fit(stored, actual)
            if stored.function == "causal_mask":
                return _square_mask(stored, actual)
            if stored.function == "rope":
                return rotations.read(stored, actual, _rope_probe(student, stored))
        except (ValueError, TypeError, IndexError, np.linalg.LinAlgError):
            return None
    return None


def _rope_probe(student: Any, stored: Case) -> Callable[[np.ndarray], Any] | None:
    """The student's rope on the case's x and base at other positions (one probe call, within the case's budget)."""
    named = _plain_arguments(stored) if student is not None else None
    if named is None:
        return None

    def probe(positions: np.ndarray) -> Any:
        if not scales.probe_allowed():
            raise StudentError("budget", "the case's probe calls are spent")
        return student.call(stored.function, *dict(named, positions=positions).values())

    return probe


def _attention_fit(stored: Case, actual: Any) -> Found:
    """Fit log w = c * scores + b * mask + (a constant per row) on the entries the student kept (w > 0); when no such
    fit is exact, the same with a constant per column: a softmax over the queries (softmax_wrong_axis)."""
    if not isinstance(actual, (tuple, list)) or len(actual) != 2:
        return None
    Q, K = np.asarray(stored.inputs["Q"], float), np.asarray(stored.inputs["K"], float)
    weights = np.asarray(actual[1], dtype=float)
    scores = Q @ np.swapaxes(K, -1, -2)
    if weights.shape != scores.shape or not np.isfinite(weights).all():
        return None
    mask = stored.inputs.get("mask")
    allowed = np.broadcast_to(np.asarray(mask, bool), scores.shape) if mask is not None else np.ones(scores.shape,
                                                                                                        bool)
    axis, solution = None, None
    for axis in (-1, -2):
        turn = (lambda a: a) if axis == -1 else (lambda a: np.swapaxes(a, -1, -2))
        if (solution := scales.log_fit(turn(weights), turn(scores), turn(allowed))) is not None:
            break
    if solution is None or (axis == -2 and scores.shape[-2] < 2):
        return None
    c = float(solution[0])
    b = float(solution[1]) if len(solution) > 1 else 0.0
    d_k, d_v = Q.shape[-1], np.shape(stored.inputs["V"])[-1]
    given = stored.inputs.get("scale")
    wanted = variants.asked(stored.function, stored.inputs)
    how = f"the weights are the softmax of the scores times {c:.6g} (asked: {wanted:.6g})"
    if axis == -2:
        how += ", normalised over the queries (each key's column sums to 1)"
    if len(solution) > 1 and (np.isclose(b, 1.0, rtol=1e-4) or np.isclose(b, c, rtol=1e-4)) and abs(b) > 1e-6:
        if axis == -2:
            return None
        return "mask_bool_added", how + f", plus {b:.6g} times the boolean mask"
    kept = weights > 1e-300
    inverted = mask is not None and not np.array_equal(kept, allowed) and _inverted_pattern(kept, allowed)
    scale = scales.mistake(c, wanted, given, d_k, d_v, {Q.shape[-2], K.shape[-2], *Q.shape[:-2]})
    found = tuple(m for m in ("softmax_wrong_axis" if axis == -2 else None, "mask_inverted" if inverted else None,
                              scale) if m)
    if not found:
        return None  # the scale is right and the mask hides what it should: something else is wrong
    if inverted:
        how += "; it keeps exactly the keys the mask disallows"
    return (found[0] if len(found) == 1 else found), how


def _inverted_pattern(kept: np.ndarray, allowed: np.ndarray) -> bool:
    """The weights are nonzero exactly where the mask is False, on every row that the inverted mask leaves a key."""
    rows = (~allowed).any(axis=-1)
    return bool(rows.any()) and bool(np.array_equal(kept[rows], ~allowed[rows]))


def _square_mask(stored: Case, actual: Any) -> Found:
    n_q = int(stored.inputs["n_q"])
    n_k = stored.inputs.get("n_k")
    if n_k is None or int(n_k) == n_q or not isinstance(actual, np.ndarray) or actual.shape != (n_q, n_q):
        return None
    if (read := masks.pattern(actual)) is None:
        return None
    (form, allowed), square = read, oracle.causal_mask(n_q)
    written = " written as numbers" if form else ""
    if np.array_equal(allowed, square):
        how = f"the output is causal_mask({n_q}, {n_q}){written}, of shape ({n_q}, {n_q})"
        return (("causal_ignores_n_k", *form) if form else "causal_ignores_n_k"), how
    if np.array_equal(allowed, ~square):  # the polarity inverted too
        return ("causal_ignores_n_k", "mask_inverted", *form), f"the output is ~causal_mask({n_q}, {n_q}){written}"
    return None
