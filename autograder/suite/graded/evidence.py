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

import functools
import sys
import traceback
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from autograder.feedback import compare
from autograder.sandbox.student import StudentError
from autograder.suite.cases import Case
from autograder.suite.graded import inference
from autograder.suite.graded.naming import Candidates, diagnose

MASKED = ("scaled_dot_product_attention", "multi_head_attention")
TOKEN_ARRAYS = {"X", "Q", "K", "V", "Z", "x"}  # inputs whose leading axes are batch/head axes


def matches(actual: Any, target: Any) -> bool:
    return compare.diagnose(actual, {"it": target}) == "it"


def quiet(default: Any) -> Callable[[Callable], Callable]:
    """A failure to find evidence is no evidence: an unexpected error here returns ``default`` (and goes to the
    instructor's log), never an internal error in the student's test."""

    def decorate(function: Callable) -> Callable:
        @functools.wraps(function)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return function(*args, **kwargs)
            except Exception:  # the student's feedback goes on without this piece of evidence
                print(f"[grader] evidence.{function.__name__} failed:\n{traceback.format_exc()}", file=sys.stderr)
                return default

        return guarded

    return decorate


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
    expected = stored.expected
    targets = [((), expected), (("mask_inverted",), stored.mistakes.get("mask_inverted"))]
    targets += [((m,), out) for m, out in stored.mistakes.items() if m.split(".")[0] not in FILL_MISTAKES]
    for named, target in targets:
        if target is None:
            continue
        allowed = ~mask if named == ("mask_inverted",) else mask
        live = allowed.any(axis=-1)  # (..., N_q): rows that keep a key
        if live.all() and named != ("mask_inverted",):
            continue  # no fully masked row: an exact match is the only evidence, and diagnose() has tried it
        if named and named != ("mask_inverted",) and _fill(stored.function, expected, target, live, None) is not None:
            continue  # this mistake does not change the live rows: matching them says nothing about it
        fill = _fill(stored.function, target, actual, live, stored.mistakes.get("mask_ignored"))
        if fill is not None:
            return (*named, *fill)
    return ()


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


@quiet(())
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
    for inverted in (False, True):  # e.g. a top-left mask written as numbers: both are named
        shown = ~allowed if inverted else allowed
        found = [m for m, out in stored.mistakes.items() if _same_mask(np.asarray(out), shown)]
        if found:
            mistake = found[0] if len(found) == 1 else Candidates(found)
            return ("mask_inverted", mistake, form) if inverted else (mistake, form)
    return ()


def _same_mask(pattern: np.ndarray, allowed: np.ndarray) -> bool:
    return pattern.dtype.kind == "b" and pattern.shape == allowed.shape and np.array_equal(allowed, pattern)


@quiet(False)
def extra_axes(expected: Any, actual: Any) -> bool:
    """The right values with extra leading axes of length 1 (e.g. from mask[None, None]) in some output."""
    if isinstance(expected, tuple):
        return (isinstance(actual, (tuple, list)) and len(actual) == len(expected)
                and all(matches(a, e) or _squeezed(e, a) for e, a in zip(expected, actual))
                and any(_squeezed(e, a) for e, a in zip(expected, actual)))
    return _squeezed(expected, actual)


def _squeezed(expected: Any, actual: Any) -> bool:
    e = np.asarray(expected)
    if not isinstance(actual, np.ndarray) or actual.ndim <= e.ndim or actual.size != e.size:
        return False
    extra = actual.shape[: actual.ndim - e.ndim]
    return all(n == 1 for n in extra) and actual.shape[len(extra):] == e.shape and matches(actual.reshape(e.shape), e)


# ----------------------------------------------------------------------------
# Precision
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


def rounding_like(relative: np.ndarray, values: np.ndarray) -> bool:
    """Whether relative errors look like rounding: spread over most entries, of both signs in similar numbers, and
    not proportional to the values (a systematic factor, such as a scale of 1/sqrt(d_v) for 1/sqrt(d_k), is not)."""
    big = np.abs(relative) >= 0.1 * np.abs(relative).max()
    if relative.size < 4 or big.mean() < MIN_SPREAD:
        return False
    positive = float((relative[big] > 0).mean())
    if not 0.15 <= positive <= 0.85:
        return False
    centred = values - values.mean()
    if np.std(centred) > 0 and np.std(relative) > 0:
        if abs(float(np.corrcoef(relative, centred)[0, 1])) > 0.6:
            return False
    return True


# ----------------------------------------------------------------------------
# Probes: the same call on a variant input that removes one suspected cause (or two, or three)
# ----------------------------------------------------------------------------

MAX_COMBINED = 3  # suspected causes removed at once
MAX_PROBES = 24  # probe calls per case


@quiet(())
def probe(student: Any, stored: Case, args: list[Any], names: list[str], original: Any = None) -> tuple[str, ...]:
    """The mistakes confirming probes show, or ().

    Each probe removes one or more suspected causes from the input (without changing the
    expected output, except the mask inversion, which tests the polarity hypothesis) and calls
    the student's function again. The smallest set of removed causes after which the output is
    right, or is a stored mistake's, or is right on the rows the mask determines, is named with
    what remains. A probe whose output equals the original output flipped nothing: no evidence.
    """
    named = dict(zip(names, args))
    causes = [c for c in CAUSES if c[1](stored, named)]
    calls = 0
    for size in range(1, min(MAX_COMBINED, len(causes)) + 1):
        for combo in combinations(causes, size):
            if len({name for name, _, _ in combo}) < size:
                continue
            variant = Variant(dict(named))
            for _, _, apply in combo:
                variant = apply(stored, variant)
            if calls >= MAX_PROBES:
                return ()
            calls += 1
            try:
                raw = student.call(stored.function, *(variant.named[n] for n in names))
            except StudentError:
                continue
            actual = variant.unwrap(raw)
            if original is not None and matches(actual, original):
                continue
            rest = _explained(stored, actual, functools.partial(answered, stored.function, variant.named, raw))
            if rest is not None:
                return tuple(dict.fromkeys((*(name for name, _, _ in combo), *rest)))
    return ()


def _explained(stored: Case, actual: Any, other: Callable[[], tuple[str, ...] | None] = lambda: None
               ) -> tuple[str, ...] | None:
    """() when right; the stored mistake it matches; the contract's answer for another mask or scale (``other``);
    the fill shown on its dead rows; else None."""
    if matches(actual, stored.expected):
        return ()
    live = {m: out for m, out in stored.mistakes.items() if out is not None and not matches(out, stored.expected)}
    found = diagnose(actual, live, stored.expected)  # PREFERRED first: NaN in all -inf rows is the missing guard
    if found:
        return (found,) if isinstance(found, str) else (found[0],)
    if shown := other():
        return shown
    return masked_rows(stored, actual) or None


def answered(function: str, named: Mapping[str, Any], raw: Any) -> tuple[str, ...] | None:
    """The mistakes whose contract answer ``raw`` is on these inputs (its own causal mask, the mask or the scale
    ignored: inference._target), or None."""
    found = inference.answer_for(function, dict(named), raw)
    return found[0] if found and found[0] else None


class Variant:
    """Named arguments for a probe call, and how to map its output back onto the case's expected output."""

    def __init__(self, named: dict[str, Any], unwrap: Callable[[Any], Any] = lambda out: out) -> None:
        self.named, self.unwrap = named, unwrap


def _mha_widths(named: Mapping[str, Any]) -> tuple[int, int, int, int]:
    H = int(named["num_heads"])
    return H, np.shape(named["W_Q"])[-1] // H, np.shape(named["W_V"])[-1] // H, np.shape(named["X"])[-1]


def _is_mha(stored: Case, named: Mapping[str, Any]) -> bool:
    return stored.function == "multi_head_attention"


def _value_width(stored: Case, v: Variant) -> Variant:
    """Heads of one width for Q, K and V (the larger of d_k and d_v), the output unchanged."""
    _, d_k, d_v, _ = _mha_widths(v.named)
    return _widen(v, max(d_k, d_v), max(d_k, d_v))


def _widen(v: Variant, to_qk: int, to_v: int) -> Variant:
    """Wider heads, the output unchanged: zero query/key columns, the query scaled by sqrt(to_qk / d_k) so that
    the scaled scores stay; zero value columns and the matching zero rows of W_O."""
    named = dict(v.named)
    H, d_k, d_v, _ = _mha_widths(named)
    if to_qk > d_k:
        named["W_Q"] = _pad_heads(np.asarray(named["W_Q"]) * np.sqrt(to_qk / d_k), H, d_k, to_qk)
        named["W_K"] = _pad_heads(np.asarray(named["W_K"]), H, d_k, to_qk)
    if to_v > d_v:
        W_O = np.asarray(named["W_O"])
        named["W_V"] = _pad_heads(np.asarray(named["W_V"]), H, d_v, to_v)
        named["W_O"] = np.concatenate([W_O.reshape(H, d_v, -1), np.zeros((H, to_v - d_v, W_O.shape[-1]))],
                                      axis=1).reshape(H * to_v, -1)
    return Variant(named, v.unwrap)


def _pad_heads(W: np.ndarray, H: int, width: int, to: int) -> np.ndarray:
    D = W.shape[0]
    return np.concatenate([W.reshape(D, H, width), np.zeros((D, H, to - width))], axis=-1).reshape(D, H * to)


def _model_width(stored: Case, v: Variant) -> Variant:
    """Heads of width D // H, the output unchanged: D padded with zero features (and zero weight rows) up to
    H * d_k, or the heads widened to D / H (values too when they already have the queries' width)."""
    named = dict(v.named)
    H, d_k, d_v, D = _mha_widths(named)
    if D % H == 0 and D // H > d_k:
        return _widen(v, D // H, D // H if d_v == d_k else d_v)
    extra = H * d_k - D
    if extra <= 0:
        return v  # nothing to change: the probe repeats the call, which flips nothing
    X = np.asarray(named["X"])
    named["X"] = np.concatenate([X, np.zeros((*X.shape[:-1], extra))], axis=-1)
    for name in ("W_Q", "W_K", "W_V"):
        W = np.asarray(named[name])
        named[name] = np.concatenate([W, np.zeros((extra, W.shape[-1]))])
    return Variant(named, v.unwrap)


def _model_width_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not _is_mha(stored, named):
        return False
    H, d_k, d_v, D = _mha_widths(named)
    return D != H * d_k or D != H * d_v


def _head_axis(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=np.expand_dims(v.named["mask"], -3)), v.unwrap)


def _inverted(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=~np.asarray(v.named["mask"])), v.unwrap)


def _has_bool_mask(stored: Case, named: Mapping[str, Any]) -> bool:
    mask = named.get("mask")
    return stored.function in MASKED and isinstance(mask, np.ndarray) and mask.dtype.kind == "b"


def _lead(stored: Case, named: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The common leading axes of the token arrays, or None when the batch-first probe does not apply."""
    tokens = [np.asarray(a) for n, a in named.items() if n in TOKEN_ARRAYS]
    if stored.function in ("softmax", "causal_mask", "rotation_matrix") or not tokens:
        return None
    lead = tokens[0].shape[:-2]
    return None if len(lead) == 1 or any(a.shape[:-2] != lead for a in tokens) else lead


def _batch_first(stored: Case, v: Variant, *, with_mask: bool = False) -> Variant:
    """Exactly one leading axis: added, or the leading axes merged into one (``with_mask``: the mask too)."""
    lead = _lead(stored, v.named)
    assert lead is not None
    named = dict(v.named)
    for name, a in v.named.items():
        if name in TOKEN_ARRAYS:
            named[name] = np.asarray(a)[None] if not lead else np.asarray(a).reshape(-1, *np.shape(a)[-2:])
    mask = v.named.get("mask")
    if isinstance(mask, np.ndarray) and mask.ndim >= 2 and (with_mask or mask.ndim > 2):
        full = np.broadcast_to(mask, (*lead, *mask.shape[-2:]))
        named["mask"] = full[None] if not lead else full.reshape(-1, *mask.shape[-2:])

    def unwrap(out: Any) -> Any:
        if isinstance(out, (tuple, list)):
            return tuple(unwrap(o) for o in out)
        if not isinstance(out, np.ndarray) or out.ndim < 1 or (lead and out.shape[0] != int(np.prod(lead))):
            return out
        return out[0] if not lead else out.reshape(*lead, *out.shape[1:])

    return Variant(named, lambda out: v.unwrap(unwrap(out)))


def _scores_shape(stored: Case, named: Mapping[str, Any]) -> tuple[int, ...]:
    if stored.function == "multi_head_attention":
        X = np.shape(named["X"])
        return (*X[:-2], int(named["num_heads"]), X[-2], X[-2])
    Q, K = np.shape(named["Q"]), np.shape(named["K"])
    return (*np.broadcast_shapes(Q[:-2], K[:-2]), Q[-2], K[-2])


def _mask_broadcasts(stored: Case, named: Mapping[str, Any]) -> bool:
    """The mask is smaller than the scores (it is broadcast): writing it out in full is a probe."""
    return np.shape(named["mask"]) != _scores_shape(stored, named)[-np.ndim(named["mask"]):] or np.ndim(
        named["mask"]) < len(_scores_shape(stored, named)) - (stored.function == "multi_head_attention")


def _full_mask(stored: Case, v: Variant) -> Variant:
    """The mask written out to the scores' full shape (the head axis of multi-head attention left out)."""
    shape = _scores_shape(stored, v.named)
    if stored.function == "multi_head_attention":
        shape = (*shape[:-3], *shape[-2:])
    return Variant(dict(v.named, mask=np.broadcast_to(np.asarray(v.named["mask"]), shape).copy()), v.unwrap)


# (mistake named when removing this cause confirms it, applies to (case, arguments), remove it); applied in this order
CAUSES: list[tuple[str, Callable[[Case, Mapping[str, Any]], bool], Callable[[Case, Variant], Variant]]] = [
    ("mha_value_width", lambda c, n: _is_mha(c, n) and _mha_widths(n)[1] != _mha_widths(n)[2], _value_width),
    ("mha_head_width_model", _model_width_applies, _model_width),
    ("mask_full_shape", lambda c, n: _has_bool_mask(c, n) and _mask_broadcasts(c, n), _full_mask),
    ("batch_first_only", lambda c, n: _lead(c, n) is not None, _batch_first),
    ("batch_first_only", lambda c, n: _lead(c, n) is not None and np.ndim(n.get("mask")) == 2,
     functools.partial(_batch_first, with_mask=True)),
    ("mha_mask_head_axis", lambda c, n: _is_mha(c, n) and np.ndim(n.get("mask")) >= 3, _head_axis),
    ("mask_inverted", _has_bool_mask, _inverted),
]
