"""Evidence from the output about masks: polarity and fill judged on the rows a mask determines
(``masked_rows``), a causal mask written as numbers (``causal_form``), extra leading axes of length 1
(``without_extra_axes``: the output read without them); a mask read as key padding (``key_padding``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from autograder.api import Candidates, Case, call_arguments, compare, matches, quiet
from autograder.api import items as _items

from ..generated import oracle

MASKED = ("scaled_dot_product_attention", "multi_head_attention")


# ----------------------------------------------------------------------------
# Masks: polarity and fill, on the rows the mistake determines
# ----------------------------------------------------------------------------


@quiet(())
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
    if matches(actual, _unmasked(stored)):  # the answer without the mask: polarity and fill say nothing then
        return ("mask_ignored",)
    expected = stored.expected
    targets = [((), expected), (("mask_inverted",), stored.mistakes.get("mask_inverted"))]
    targets += [((m,), out) for m, out in stored.mistakes.items() if m.split(".")[0] not in FILL_MISTAKES]
    for named, target in targets:
        if target is None:
            continue
        allowed = ~mask if named == ("mask_inverted",) else mask
        live = allowed.any(axis=-1)  # (..., N_q): rows that keep a key
        if not live.any():
            continue  # no row this polarity determines: nothing to match (e.g. an all-True mask, inverted)
        if live.all() and named != ("mask_inverted",):
            continue  # no fully masked row: an exact match is the only evidence, and diagnose() has tried it
        if named and named != ("mask_inverted",) and _fill(stored.function, expected, target, live, None) is not None:
            continue  # this mistake does not change the live rows: matching them says nothing about it
        fill = _fill(stored.function, target, actual, live, stored.mistakes.get("mask_ignored"))
        if fill is not None:
            return (*named, *fill)
    return ()


def _unmasked(stored: Case) -> Any:
    """The contract's answer for the case without its mask (the oracle's)."""
    inputs = dict(call_arguments(stored.inputs))
    with np.errstate(all="ignore"):
        getattr(oracle, stored.function)(**inputs)  # a mask that does not fit the case raises: no evidence
        return getattr(oracle, stored.function)(**dict(inputs, mask=None))


# mistakes about the fully masked rows themselves (or the polarity): not matched on the live rows
FILL_MISTAKES = ("mask_inverted", "mask_finite_fill", "softmax_nan_fully_masked", "softmax_unstable")


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


def _same_rows(a: np.ndarray, t: np.ndarray, rows: np.ndarray) -> bool:
    if np.shape(a) != np.shape(t):  # e.g. the weights returned where the output belongs: not these rows
        return False
    return bool(np.all(np.isclose(a[rows], t[rows], rtol=compare.RTOL, atol=compare.ATOL, equal_nan=True)))


@quiet(())
def causal_form(stored: Case, actual: Any) -> tuple[str, ...]:
    """causal_mask returned as numbers: 0/1 (mask_float) or 0/-inf and 0/-1e9 (mask_additive), either polarity."""
    if stored.function != "causal_mask" or not isinstance(actual, np.ndarray):
        return ()
    expected = np.asarray(stored.expected)
    if actual.shape != expected.shape:
        return ()
    if actual.dtype.kind not in "iuf" or (read := pattern(actual)) is None:
        return ()
    (form,), allowed = read
    if np.array_equal(allowed, expected):
        return (form,)
    if np.array_equal(~allowed, expected):
        return ("mask_inverted", form)
    for inverted in (False, True):  # e.g. a top-left mask written as numbers: both are named
        shown = ~allowed if inverted else allowed
        found = [m for m, out in stored.mistakes.items() if _same_mask(np.asarray(out), shown)]
        if found:
            mistake = found[0] if len(found) == 1 else Candidates(found)
            return ("mask_inverted", mistake, form) if inverted else (mistake, form)
    return ()


def pattern(actual: np.ndarray) -> tuple[tuple[str, ...], np.ndarray] | None:
    """A mask's form and the keys it allows: a boolean one as it is (no form named); numbers 0/1 (mask_float, nonzero
    allows) or 0/-inf and 0/-1e9 (mask_additive, 0 allows); None for any other numbers."""
    if actual.dtype == bool:
        return (), actual
    if actual.dtype.kind not in "iuf" or np.isnan(actual).any():
        return None
    values = set(np.unique(actual).tolist())
    if values <= {0, 1}:
        return ("mask_float",), actual != 0
    if 0 in values and all(v < -1e3 for v in values - {0}):
        return ("mask_additive",), actual == 0
    return None


def _same_mask(pattern: np.ndarray, allowed: np.ndarray) -> bool:
    return pattern.dtype.kind == "b" and pattern.shape == allowed.shape and np.array_equal(allowed, pattern)


@quiet(None)
def without_extra_axes(expected: Any, actual: Any) -> Any:
    """The output with the extra leading axes of length 1 of some of its arrays removed (``_cut``), or None when it
    has none."""
    if isinstance(expected, tuple):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            return None
        parts = [_cut(e, a) for e, a in zip(expected, actual)]
        if all(p is None for p in parts) or any(p is None and np.shape(a) != np.shape(e)
                                                for p, a, e in zip(parts, actual, expected)):
            return None
        return tuple(a if p is None else p for p, a in zip(parts, actual))
    return _cut(expected, actual)


@quiet(None)
def with_last_axis_joined(expected: Any, actual: Any) -> np.ndarray | None:
    """An output array whose last axis is split into several ((..., N, d/2, 2) for (..., N, d): pairs never
    flattened back) read with them joined in order, or None when it is not one."""
    if not isinstance(actual, np.ndarray) or not isinstance(expected, np.ndarray):  # one array, not (out, weights)
        return None
    if expected.ndim < 1 or actual.ndim <= expected.ndim:
        return None
    if actual.shape[: expected.ndim - 1] != expected.shape[:-1] or actual.size != expected.size:
        return None
    return actual.reshape(expected.shape)


def _cut(expected: Any, actual: Any) -> np.ndarray | None:
    """``actual`` without the leading axes of length 1 it has past ``expected``'s number of axes (whatever the rest
    of its shape: a causal mask (1, n_q, n_q) for (n_q, n_k) is read as its (n_q, n_q) too); None without them."""
    e = np.asarray(expected)
    if not isinstance(actual, np.ndarray) or actual.ndim <= e.ndim:
        return None
    extra = actual.shape[: actual.ndim - e.ndim]
    return actual.reshape(actual.shape[len(extra):]) if all(n == 1 for n in extra) else None


# ----------------------------------------------------------------------------
# A mask read as a (batch, n_k) key-padding mask
# ----------------------------------------------------------------------------

KEY_PADDING = "with the mask's first axis read as a batch of key-padding rows (mask[:, None, None, :])"


def key_padding(function: str, mask: Any) -> np.ndarray | None:
    """``mask`` as code that reads it as a (batch, n_k) key-padding mask applies it, written as a contract mask of
    ``function``: its first axis given the head and query axes after it (``mask[:, None, None, :]`` before the (B,
    H, n_q, n_k) scores; the query axis alone for multi-head attention, whose oracle adds the head axis itself).
    None where that reading is the mask as given (a first axis of one row) or there is no such mask."""
    if function not in MASKED or not isinstance(mask, np.ndarray) or mask.ndim < 2 or mask.shape[0] < 2:
        return None
    new_axes = 1 if function == "multi_head_attention" else 2
    return mask.reshape(mask.shape[:1] + (1,) * new_axes + mask.shape[1:])


def full(mask: Any, n_q: int, n_k: int) -> np.ndarray:
    """``mask`` written out to (..., n_q, n_k), its own leading axes kept (a 1-D mask of keys gives (n_q, n_k))."""
    return np.broadcast_to(np.asarray(mask), (*np.shape(mask)[:-2], n_q, n_k))


def nan_where_fully_masked(function: str, inputs: dict[str, Any], expected: Any) -> Any:
    """``expected`` (the contract's answer on ``inputs``) with NaN on the rows whose mask leaves no key, as a softmax
    of an all -inf row gives: the weights' and the output's rows of scaled dot-product attention, the output's rows
    (tokens) of multi-head attention. ``expected`` itself when no row is fully masked."""
    mask = inputs.get("mask")
    if function not in MASKED or mask is None:
        return expected
    out = expected[0] if isinstance(expected, tuple) else expected
    rows = ~np.asarray(mask, dtype=bool).any(axis=-1)  # (..., n_q): a query that may attend to no key
    if not rows.any():
        return expected
    lead = out.shape[:-1]
    try:
        empty = np.broadcast_to(rows, np.broadcast_shapes(rows.shape, lead))
    except ValueError:
        return expected
    if empty.shape != lead:
        return expected
    nan_out = np.where(empty[..., None], np.nan, out)
    if not isinstance(expected, tuple):
        return nan_out
    weights = expected[1]
    return (nan_out, np.where(np.broadcast_to(empty, weights.shape[:-1])[..., None], np.nan, weights),
            *expected[2:])
