"""Evidence for a diagnosis beyond an exact match with a stored mistake's output.

A diagnosis is stated only with evidence: the output equals a mistake's output on the part
of it the mistake determines (``masked_rows``: the rows that are not fully masked, when only
the fill value differs; ``causal_form``: the pattern of a mask written as numbers), the
errors have the size and nothing but the size of lost precision (``low_precision``), or a
confirming probe flips the outcome: the same call, re-run on a variant input that removes
one suspected cause, gives the expected output (``probe``). An exception alone is never
evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case

MASKED = ("scaled_dot_product_attention", "multi_head_attention")
TOKEN_ARRAYS = {"X", "Q", "K", "V", "Z", "x"}  # inputs whose leading axes are batch/head axes


def matches(actual: Any, target: Any) -> bool:
    return compare.diagnose(actual, {"it": target}) == "it"


# ----------------------------------------------------------------------------
# Masks: polarity and fill, on the rows the mistake determines
# ----------------------------------------------------------------------------


def masked_rows(stored: Case, actual: Any) -> tuple[str, ...]:
    """Mask polarity and fill mistakes of SDPA / multi-head attention, judged row by row.

    With a mask of either polarity, the rows that keep at least one key are determined by
    the polarity alone; a fully masked row shows the fill: uniform weights for a large
    finite fill (-1e9, finfo.min), NaN for -inf without a guard. Returns the mistakes
    evidenced (polarity first), or () when the live rows match neither polarity.
    """
    mask = stored.inputs.get("mask")
    if stored.function not in MASKED or not isinstance(mask, np.ndarray) or mask.dtype.kind != "b":
        return ()
    expected = stored.expected
    inverted = stored.mistakes.get("mask_inverted")
    for polarity, target in (((), expected), (("mask_inverted",), inverted)):
        if target is None:
            continue
        allowed = mask if not polarity else ~mask
        live = allowed.any(axis=-1)  # (..., N_q): rows that keep a key
        if live.all() and not polarity:
            continue  # no fully masked row: an exact match is the only evidence, and diagnose() has tried it
        fill = _fill(stored.function, target, actual, live, stored.mistakes.get("mask_ignored"))
        if fill is not None:
            return (*polarity, *fill)
    return ()


def _fill(function: str, target: Any, actual: Any, live: np.ndarray, unmasked: Any) -> tuple[str, ...] | None:
    """None when ``actual`` differs from ``target`` on a live row; else what its dead rows show: NaN (-inf
    without a guard), or a finite fill: uniform weights (np.where(mask, scores, -1e9)) or the unmasked
    weights (scores + -1e9 shifts a whole row, which the softmax ignores)."""
    items = _items(target, actual)
    if items is None:
        return None
    dead = ~live
    fills: set[str] = set()
    for t, a in items:
        rows = np.broadcast_to(live, t.shape[:-1]) if t.ndim >= 1 else None
        if rows is None or not _same_rows(a, t, rows):
            return None
        if not dead.any() or _same_rows(a, t, np.broadcast_to(dead, t.shape[:-1])):
            continue
        dead_rows = a[np.broadcast_to(dead, t.shape[:-1])]
        if np.isnan(dead_rows).all():
            fills.add("softmax_nan_fully_masked")
        else:
            fills.add("mask_finite_fill")
    if function == "scaled_dot_product_attention" and len(items) == 2 and "mask_finite_fill" in fills:
        rows = np.broadcast_to(dead, items[1][0].shape[:-1])
        weights = items[1][1][rows]
        uniform = np.allclose(weights, 1.0 / weights.shape[-1])
        shifted = isinstance(unmasked, tuple) and _same_rows(items[1][1], np.asarray(unmasked[1]), rows)
        if not uniform and not shifted:
            return None  # dead rows neither uniform, unmasked nor NaN: no known fill
    return tuple(sorted(fills))


def _items(target: Any, actual: Any) -> list[tuple[np.ndarray, np.ndarray]] | None:
    if isinstance(target, tuple):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(target):
            return None
        pairs = list(zip(target, actual))
    else:
        pairs = [(target, actual)]
    out = []
    for target_item, a in pairs:
        t = np.asarray(target_item)
        if not isinstance(a, np.ndarray) or a.shape != t.shape or a.dtype.kind not in "iuf":
            return None
        out.append((t, a.astype(float)))
    return out


def _same_rows(a: np.ndarray, t: np.ndarray, rows: np.ndarray) -> bool:
    return bool(np.all(np.isclose(a[rows], t[rows], rtol=compare.RTOL, atol=compare.ATOL, equal_nan=True)))


def causal_form(stored: Case, actual: Any) -> tuple[str, ...]:
    """causal_mask returned as numbers: 0/1 (mask_float) or 0/-inf and 0/-1e9 (mask_additive), either polarity."""
    if stored.function != "causal_mask" or not isinstance(actual, np.ndarray):
        return ()
    expected = np.asarray(stored.expected)
    if actual.shape != expected.shape:
        return ()
    if actual.dtype.kind not in "iuf" or np.isnan(actual).any():
        return ()
    values = set(np.unique(actual).tolist())
    if values <= {0, 1}:
        form, allowed = "mask_float", actual != 0
    elif 0 in values and all(v < -1e3 for v in values - {0}):
        form, allowed = "mask_additive", actual == 0
    else:
        return ()
    if np.array_equal(allowed, expected):
        return (form,)
    if np.array_equal(~allowed, expected):
        return ("mask_inverted", form)
    return ()


# ----------------------------------------------------------------------------
# Precision
# ----------------------------------------------------------------------------

LOW_PRECISION = (2e-5, 3e-2)  # relative errors of float16/bfloat16 intermediates (eps 1e-3, 8e-3), a few ulps


def low_precision(expected: Any, actual: Any) -> bool:
    """Every entry within a few float16/bfloat16 ulps of the expected value, and some entries beyond the
    tolerance by more than float32 would explain: the values are right, computed in low precision."""
    items = _items(expected, actual)
    if not items:
        return False
    worst = 0.0
    for t, a in items:
        if not np.isfinite(t).all() or not np.isfinite(a).all():
            return False
        scale = np.abs(t) + np.mean(np.abs(t)) + 1e-12
        error = np.abs(a - t) / scale
        if error.max() > LOW_PRECISION[1]:
            return False
        worst = max(worst, float(error.max()))
    return worst > LOW_PRECISION[0]


# ----------------------------------------------------------------------------
# Probes: the same call on a variant input that removes one suspected cause
# ----------------------------------------------------------------------------


def probe(student: Any, stored: Case, args: list[Any], names: list[str]) -> str | None:
    """The mistake a confirming probe shows: a variant input that makes the student's output right."""
    for mistake, variant in _probes(stored, args, names):
        try:
            actual = student.call(stored.function, *variant.args)
        except StudentError:
            continue
        if matches(variant.unwrap(actual), stored.expected):
            return mistake
    return None


class Variant:
    """Arguments for a probe call, and how to map its output back onto the case's expected output."""

    def __init__(self, args: list[Any], unwrap: Callable[[Any], Any] = lambda out: out) -> None:
        self.args, self.unwrap = args, unwrap


def _probes(stored: Case, args: list[Any], names: list[str]) -> Iterator[tuple[str, Variant]]:
    named = dict(zip(names, args))
    if stored.function == "multi_head_attention":
        yield from _mha_probes(named, names)
    yield from _batch_first(stored, args, names)


def _mha_probes(named: Mapping[str, Any], names: list[str]) -> Iterator[tuple[str, Variant]]:
    X, W_Q, W_K, W_V, W_O = (np.asarray(named[n]) for n in ("X", "W_Q", "W_K", "W_V", "W_O"))
    H = int(named["num_heads"])
    d_k, d_v, D = W_Q.shape[-1] // H, W_V.shape[-1] // H, X.shape[-1]
    mask = named.get("mask")

    def call(**changed: Any) -> list[Any]:
        return [changed.get(n, named[n]) for n in names]

    W_O2 = W_O
    if d_v < d_k:  # zero value columns per head (and zero W_O rows) leave the output unchanged
        pad = np.zeros((D, H, d_k - d_v))
        W_V2 = np.concatenate([W_V.reshape(D, H, d_v), pad], axis=-1).reshape(D, H * d_k)
        W_O2 = np.concatenate([W_O.reshape(H, d_v, -1), np.zeros((H, d_k - d_v, W_O.shape[-1]))], axis=1)
        yield "mha_value_width", Variant(call(W_V=W_V2, W_O=W_O2.reshape(H * d_k, -1)))
    if D < H * d_k and d_v <= d_k:  # zero features and weight rows (and value columns) change nothing; D // H = d_k
        extra = H * d_k - D
        X2 = np.concatenate([X, np.zeros((*X.shape[:-1], extra))], axis=-1)
        rows = {n: np.concatenate([W, np.zeros((extra, W.shape[-1]))]) for n, W in
                (("W_Q", W_Q), ("W_K", W_K), ("W_V", W_V))}
        if d_v < d_k:
            rows["W_V"] = np.concatenate([rows["W_V"].reshape(H * d_k, H, d_v),
                                          np.zeros((H * d_k, H, d_k - d_v))], axis=-1).reshape(H * d_k, H * d_k)
            rows["W_O"] = W_O2.reshape(H * d_k, -1)
        yield "mha_head_width_model", Variant(call(X=X2, **rows))
    if isinstance(mask, np.ndarray) and mask.ndim >= 3:  # one mask per sequence: give it the head axis
        yield "mha_mask_head_axis", Variant(call(mask=np.expand_dims(mask, -3)))


def _batch_first(stored: Case, args: list[Any], names: list[str]) -> Iterator[tuple[str, Variant]]:
    """Code written for exactly one leading (batch) axis: give it one, by adding or merging leading axes."""
    tokens = [(i, np.asarray(a)) for i, (n, a) in enumerate(zip(names, args)) if n in TOKEN_ARRAYS]
    if stored.function in ("softmax", "causal_mask", "rotation_matrix") or not tokens:
        return
    lead = tokens[0][1].shape[:-2]
    if len(lead) == 1 or any(a.shape[:-2] != lead for _, a in tokens):
        return
    variant = list(args)
    for i, a in tokens:
        variant[i] = a[None] if not lead else a.reshape(-1, *a.shape[-2:])
    mask_at = names.index("mask") if "mask" in names else None
    if mask_at is not None and isinstance(args[mask_at], np.ndarray) and args[mask_at].ndim > 2:
        mask = np.broadcast_to(args[mask_at], (*lead, *args[mask_at].shape[-2:]))
        variant[mask_at] = mask.reshape(-1, *mask.shape[-2:]) if lead else mask[None]

    def unwrap(out: Any) -> Any:
        if isinstance(out, (tuple, list)):
            return tuple(unwrap(o) for o in out)
        if not isinstance(out, np.ndarray) or out.ndim < 1:
            return out
        return out[0] if not lead else out.reshape(*lead, *out.shape[1:])

    yield "batch_first_only", Variant(variant, unwrap)
