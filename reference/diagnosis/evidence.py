"""Confirming probes, and the evidence a test's other calls give.

A diagnosis is stated only with evidence: the output equals a mistake's output on the part of
it the mistake determines (``masks.py``), the errors look like lost precision (``precision.py``),
what the output sums to names the softmax's axis (``softmax_mistake``), or a confirming probe
flips the outcome: the same call, re-run on a variant input that removes one suspected cause,
gives the expected output (``probe``), or each 2-D slice alone gives it (``works_on_a_slice``).
An exception alone is never evidence.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

import numpy as np

from autograder.api import Case, StudentError, answer, compare, diagnose, matches, quiet

from . import inference
from .masks import MASKED, masked_rows

TOKEN_ARRAYS = {"X", "Q", "K", "V", "Z", "x"}  # inputs whose leading axes are batch/head axes


# ----------------------------------------------------------------------------
# Probes: the same call on a variant input that removes one suspected cause (or two, or three)
# ----------------------------------------------------------------------------

MAX_COMBINED = 3  # suspected causes removed at once
WIDTH_CAUSES = {"out_width_is_input", "mha_value_width", "mha_head_width_model"}  # what the heads' widths show
WIDTHS = WIDTH_CAUSES - {"out_width_is_input"}  # probes that make d_k = d_v or D = H * d_k
MAX_PROBES = 36  # probe calls per case


@quiet(())
def probe(student: Any, stored: Case, args: list[Any], names: list[str], original: Any = None) -> tuple[str, ...]:
    """The mistakes confirming probes show, or ().

    Each probe removes one or more suspected causes from the input (without changing the
    expected output, except the mask inversion, which tests the polarity hypothesis) and calls
    the student's function again. The smallest set of removed causes after which the output is
    right, or is a stored mistake's, or is right on the rows the mask determines, is named with
    what remains; when several sets of that size flip it, only what they all show. A probe whose output
    equals the original output flipped nothing: no evidence.
    """
    named = dict(zip(names, args))
    causes = [c for c in CAUSES if c[1](stored, named)]
    outcomes = [(frozenset(), _ruled_out(stored, named, set()), False)]  # (removed, ruled out, flipped or not)
    calls = 0
    flipped_by: dict[str, tuple] = {}  # the first combination with this cause that flipped the outcome
    for size in range(1, min(MAX_COMBINED, len(causes)) + 1):
        shown: list[tuple[tuple[str, ...], tuple[str, ...]]] = []  # each probe of this size that flipped it
        tried: list[frozenset[str]] = []
        for combo in combinations(causes, size):
            removed = frozenset(name for name, _, _ in combo)
            if len(removed) < size or ("out_width_is_input" in removed and removed & WIDTHS):
                continue  # another width probe would make d_k = d_v, which the output-width probe must keep apart
            variant = Variant(dict(named))
            for _, _, apply in combo:
                variant = apply(stored, variant)
            if calls >= MAX_PROBES:
                return _consistent(shown, tried, outcomes)
            calls += 1
            tried.append(removed)
            try:
                raw = student.call(stored.function, *(variant.named[n] for n in names))
                if (raw := answer(raw)) is None:  # ragged, huge, not arrays: not the answer
                    raise StudentError("invalid_output", "not an answer")
            except StudentError:
                outcomes.append((removed, _ruled_out(stored, variant.named, removed), False))
                continue
            actual = variant.unwrap(raw)
            if original is not None and matches(actual, original):
                continue
            rest = _explained(stored, actual, functools.partial(answered, stored.function, variant.contract, raw))
            outcomes.append((removed, _ruled_out(stored, variant.named, removed), rest is not None))
            if rest is not None:
                shown.append((tuple(dict.fromkeys(name for name, _, _ in combo)), rest))
                for name in {name for name, _, _ in combo} & set(TIE_BREAKS):
                    flipped_by.setdefault(name, combo)
        if shown:
            found = _consistent(shown, tried, outcomes)
            for name, tie_break in TIE_BREAKS.items():
                if name in found and name in flipped_by and calls < MAX_PROBES:
                    calls += 1
                    found = tie_break(student, stored, named, names, flipped_by[name], original, found)
            return found
    return ()


def _rerun(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple, instead: str,
           other: Callable[[Case, Variant], Variant]) -> bool:
    """Whether the probe ``combo`` flips the outcome with ``other`` applied in place of the removal ``instead``."""
    variant = Variant(dict(named))
    for name, _, apply in combo:
        variant = other(stored, variant) if name == instead else apply(stored, variant)
    try:
        raw = answer(student.call(stored.function, *(variant.named[n] for n in names)))
    except StudentError:
        return False
    return raw is not None and _explained(stored, variant.unwrap(raw), functools.partial(
        answered, stored.function, variant.contract, raw)) is not None


def _scale_or_width(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple,
                    original: Any, found: tuple[str, ...]) -> tuple[str, ...]:
    """Heads widened to D // H fix code split by D // H, and equally code that only scales by 1/sqrt(D) when that
    makes D // H = d_k (one head): the same probe with the queries scaled by sqrt(D / d_k) instead fixes only the
    scale. When it flips the outcome too, the heads' width was never the cause: scale_d_model is."""
    if not _rerun(student, stored, named, names, combo, "mha_head_width_model", _model_scale):
        return found
    return tuple(dict.fromkeys("scale_d_model" if m == "mha_head_width_model" else m for m in found))


def _one_or_more(student: Any, stored: Case, named: dict[str, Any], names: list[str], combo: tuple, original: Any,
                 found: tuple[str, ...]) -> tuple[str, ...]:
    """A 2-D case that one added leading axis fixes: with two added axes as well, the code does not need exactly
    one. Then its output either carries an extra leading axis of length 1 (extra_leading_axes: it adds one and never
    removes it) or it fails without one (needs_leading_axis)."""
    if _lead(stored, named) != () or not _rerun(student, stored, named, names, combo, "batch_first_only", _two_axes):
        return found
    first = original[0] if isinstance(original, (tuple, list)) and original else original
    expected = stored.expected[0] if isinstance(stored.expected, tuple) else stored.expected
    extra = isinstance(first, np.ndarray) and first.ndim == np.ndim(expected) + 1 and first.shape[0] == 1
    which = "extra_leading_axes" if extra else "needs_leading_axis"
    return tuple(dict.fromkeys(which if m == "batch_first_only" else m for m in found))


def _two_axes(stored: Case, v: Variant) -> Variant:
    """A 2-D case with two leading axes of length 2 (copies of the case; the output's first entry kept)."""
    named = {name: _twice(np.asarray(a), 2) if name in TOKEN_ARRAYS else a for name, a in v.named.items()}

    def unwrap(out: Any) -> Any:
        if isinstance(out, (tuple, list)):
            return tuple(unwrap(o) for o in out)
        return out[0, 0] if isinstance(out, np.ndarray) and out.ndim >= 2 and out.shape[:2] == (2, 2) else out

    return Variant(named, lambda out: v.unwrap(unwrap(out)))


def _ruled_out(stored: Case, named: Mapping[str, Any], removed: frozenset[str] | set[str]) -> frozenset[str]:
    """The suspected causes an input rules out: those its probe removed, and for the heads' widths whatever its
    widths rule out (a probe that widens the values to d_k may also make D = H*d_v, ruling out that cause too)."""
    if not _is_mha(stored, named):
        return frozenset(removed)
    H, d_k, d_v, D = _mha_widths(named)
    widths = {name for name, holds in (("out_width_is_input", D == H * d_v), ("mha_value_width", d_k == d_v),
                                       ("mha_head_width_model", D == H * d_k)) if holds}
    return frozenset((set(removed) - WIDTH_CAUSES) | widths)


def _consistent(shown: list[tuple[tuple[str, ...], tuple[str, ...]]], tried: list[frozenset[str]],
                outcomes: list[tuple[frozenset[str], frozenset[str], bool]]) -> tuple[str, ...]:
    """What the probes show: the causes of every set of causes (among those tried) that explains every outcome (an
    input flips the outcome exactly when it rules out the whole set), with the mistakes every flipped output
    shows; when no set explains them all, only what every flipped probe shows. One form of a removal that
    flipped it suffices: another form of the same removal that did not (e.g. the mask left as it was) is no
    counter-evidence."""
    if not shown:
        return ()
    sufficed = {frozenset(removed) for removed, _ in shown}  # (another form of the same removal may have failed)
    consistent = [t for t in dict.fromkeys(tried) if all(
        (t <= out) == flipped for removed, out, flipped in outcomes if flipped or removed not in sufficed)]
    if not consistent:
        return _common([(*removed, *rest) for removed, rest in shown])
    first = next(((*removed, *rest) for removed, rest in shown if frozenset(removed) in consistent), shown[0][0])
    rests = [set(rest) for _, rest in shown]
    return tuple(m for m in dict.fromkeys(first) if all(m in t for t in consistent) or all(m in r for r in rests))


def _common(shown: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The mistakes every one of these probes shows: two probes that remove different causes and both flip the
    outcome do not tell those causes apart (e.g. when the answer they reach does not depend on what they changed)."""
    return tuple(m for m in shown[0] if all(m in other for other in shown[1:])) if shown else ()


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
    """Named arguments for a probe call, how to map its output back onto the case's expected output, and the
    contract's inputs it stands for (``contract``: the arguments themselves, except for a probe that only the
    suspected code reads as the case, e.g. a mask with an inserted head axis or inverted)."""

    def __init__(self, named: dict[str, Any], unwrap: Callable[[Any], Any] = lambda out: out,
                 contract: dict[str, Any] | None = None) -> None:
        self.named, self.unwrap = named, unwrap
        self.contract = named if contract is None else contract


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
    return _pad_input(v, extra)


def _pad_input(v: Variant, extra: int) -> Variant:
    """X with ``extra`` zero features (and zero rows of W_Q, W_K, W_V), the output unchanged."""
    named = dict(v.named)
    X = np.asarray(named["X"])
    named["X"] = np.concatenate([X, np.zeros((*X.shape[:-1], extra))], axis=-1)
    for name in ("W_Q", "W_K", "W_V"):
        W = np.asarray(named[name])
        named[name] = np.concatenate([W, np.zeros((extra, W.shape[-1]))])
    return Variant(named, v.unwrap)


def _model_scale(stored: Case, v: Variant) -> Variant:
    """The queries scaled by sqrt(D / d_k), standing for the case: code that scales the scores by 1/sqrt(D) (the
    model width) instead of 1/sqrt(d_k) then computes the case's answer. It separates that scale from heads split by
    D // H, which the width probe cannot: on one head, widening the heads to D fixes both."""
    _, d_k, _, D = _mha_widths(v.named)
    named = dict(v.named, W_Q=np.asarray(v.named["W_Q"]) * np.sqrt(D / d_k))
    return Variant(named, v.unwrap, v.contract)


def _output_width(stored: Case, v: Variant) -> Variant:
    """The input as wide as the heads' concatenation (D = H * d_v), with d_k != d_v, the output unchanged: only code
    that merges the heads back into D columns needs it (code that splits by D // H still fails on the queries)."""
    H, d_k, d_v, D = _mha_widths(v.named)
    to_v = max(d_v, -(-D // H))
    v = _widen(v, d_k + 1 if d_k == to_v else d_k, to_v)
    return _pad_input(v, H * to_v - D) if H * to_v > D else v


def _output_width_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not _is_mha(stored, named):
        return False
    H, _, d_v, D = _mha_widths(named)
    return D != H * d_v


def _model_width_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not _is_mha(stored, named):
        return False
    H, d_k, d_v, D = _mha_widths(named)
    return D != H * d_k or D != H * d_v


def _head_axis(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=np.expand_dims(v.named["mask"], -3)), v.unwrap, v.contract)


def _inverted(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=~np.asarray(v.named["mask"])), v.unwrap, v.contract)


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
    """Exactly one leading axis: added (of length 2, the case twice, so that a size read from the wrong axis is not
    1 by coincidence), or the leading axes merged into one (``with_mask``: the mask too)."""
    lead = _lead(stored, v.named)
    assert lead is not None
    named = dict(v.named)
    for name, a in v.named.items():
        if name in TOKEN_ARRAYS:
            named[name] = _twice(np.asarray(a), 1) if not lead else np.asarray(a).reshape(-1, *np.shape(a)[-2:])
    mask = v.named.get("mask")
    if isinstance(mask, np.ndarray) and mask.ndim >= 2 and (with_mask or mask.ndim > 2):
        full = np.broadcast_to(mask, (*lead, *mask.shape[-2:]))
        named["mask"] = _twice(full, 1) if not lead else full.reshape(-1, *mask.shape[-2:])
    batch = int(np.prod(lead)) if lead else 2

    def unwrap(out: Any) -> Any:
        if isinstance(out, (tuple, list)):
            return tuple(unwrap(o) for o in out)
        if not isinstance(out, np.ndarray) or out.ndim < 1 or out.shape[0] != batch:
            return out
        return out[0] if not lead else out.reshape(*lead, *out.shape[1:])

    return Variant(named, lambda out: v.unwrap(unwrap(out)))


def _twice(a: np.ndarray, k: int) -> np.ndarray:
    """``a`` with ``k`` new leading axes of length 2 (copies of it)."""
    return np.broadcast_to(a, (*(2,) * k, *a.shape)).copy()


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


# a named cause -> a probe more that tells it from another cause the same probe removes (one call of MAX_PROBES each)
TIE_BREAKS: dict[str, Callable[..., tuple[str, ...]]] = {"mha_head_width_model": _scale_or_width,
                                                         "batch_first_only": _one_or_more}

# (mistake named when removing this cause confirms it, applies to (case, arguments), remove it); applied in this order
CAUSES: list[tuple[str, Callable[[Case, Mapping[str, Any]], bool], Callable[[Case, Variant], Variant]]] = [
    ("out_width_is_input", _output_width_applies, _output_width),
    ("mha_value_width", lambda c, n: _is_mha(c, n) and _mha_widths(n)[1] != _mha_widths(n)[2], _value_width),
    ("mha_head_width_model", _model_width_applies, _model_width),
    ("mask_full_shape", lambda c, n: _has_bool_mask(c, n) and np.ndim(n["mask"]) >= 2 and _mask_broadcasts(c, n),
     _full_mask),
    ("batch_first_only", lambda c, n: _lead(c, n) is not None, _batch_first),
    ("batch_first_only", lambda c, n: _lead(c, n) is not None and np.ndim(n.get("mask")) == 2,
     functools.partial(_batch_first, with_mask=True)),
    ("mha_mask_head_axis", lambda c, n: _is_mha(c, n) and np.ndim(n.get("mask")) >= 3, _head_axis),
    ("mask_inverted", _has_bool_mask, _inverted),
]


def softmax_mistake(actual: Any, stored: Case) -> str | None:
    """Name a softmax mistake by what the output sums to: the whole array, or slices along another axis."""
    expected = np.asarray(stored.expected)
    if not isinstance(actual, np.ndarray) or actual.shape != expected.shape or not np.isfinite(actual).all():
        return None
    axis = stored.inputs.get("axis", -1) % expected.ndim
    if actual.ndim and expected.size > expected.shape[axis] and np.isclose(actual.sum(), 1.0):
        return "softmax_global_sum"
    live = np.isfinite(np.asarray(stored.inputs["Z"])).all()  # -inf entries leave slices that sum to 0
    for other in range(actual.ndim):
        if other != axis and live and np.allclose(actual.sum(axis=other), 1.0):
            return "softmax_ignores_axis" if other == actual.ndim - 1 else "softmax_wrong_axis"
    return None


MAX_SLICES = 12


def works_on_a_slice(student: Any, stored: Case, args: list[Any]) -> bool:
    """Whether the student's function is right on every 2-D slice of the case (batch axes dropped one by one).

    Right on each slice but wrong on the whole: the batch axes are not supported.
    """
    first = stored.expected[0] if isinstance(stored.expected, tuple) else stored.expected
    lead = np.shape(first)[:-2]
    if not lead or int(np.prod(lead)) > MAX_SLICES:
        return False

    def cut(value: Any, index: tuple[int, ...]) -> Any:
        if isinstance(value, tuple):
            return tuple(cut(v, index) for v in value)
        if not isinstance(value, np.ndarray) or value.ndim <= 2:
            return value
        own = value.shape[:-2]
        return value[tuple(0 if n == 1 else i for n, i in zip(own, index[len(index) - len(own):]))]

    for index in np.ndindex(*lead):
        try:
            actual = student.call(stored.function, *(cut(a, index) for a in args))
        except StudentError:
            return False
        if compare.compare("slice", cut(stored.expected, index), actual) is not None:
            return False
    return True
