"""The inputs a confirming probe (``evidence.probe``) calls the student's function with: the case rewritten so that
one suspected cause no longer matters (heads' widths, the mask written out, one leading axis, the mask's polarity),
each with how to map the probe's output back onto the case and the contract's inputs it stands for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from autograder.api import Case

from .masks import MASKED
from .shapes import divisible_widths, model_to

TOKEN_ARRAYS = {"X", "Q", "K", "V", "Z", "x"}  # inputs whose leading axes are batch/head axes


class Variant:
    """Named arguments for a probe call, how to map its output back onto the case's expected output, and the
    contract's inputs it stands for (``contract``: the arguments themselves, except for a probe that only the
    suspected code reads as the case, e.g. a mask with an inserted head axis or inverted)."""

    def __init__(self, named: dict[str, Any], unwrap: Callable[[Any], Any] = lambda out: out,
                 contract: dict[str, Any] | None = None) -> None:
        self.named, self.unwrap = named, unwrap
        self.contract = named if contract is None else contract


def mha_widths(named: Mapping[str, Any]) -> tuple[int, int, int, int]:
    H = int(named["num_heads"])
    return H, np.shape(named["W_Q"])[-1] // H, np.shape(named["W_V"])[-1] // H, np.shape(named["X"])[-1]


def is_mha(stored: Case, named: Mapping[str, Any]) -> bool:
    return stored.function == "multi_head_attention"


def value_width(stored: Case, v: Variant) -> Variant:
    """Heads of one width for Q, K and V (the larger of d_k and d_v), the output unchanged."""
    _, d_k, d_v, _ = mha_widths(v.named)
    return _widen(v, max(d_k, d_v), max(d_k, d_v))


def _widen(v: Variant, to_qk: int, to_v: int) -> Variant:
    """Wider heads, the output unchanged: zero query/key columns, the query scaled by sqrt(to_qk / d_k) so that
    the scaled scores stay; zero value columns and the matching zero rows of W_O."""
    named = dict(v.named)
    H, d_k, d_v, _ = mha_widths(named)
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


def model_width(stored: Case, v: Variant) -> Variant:
    """Heads of width D // H, the output unchanged: D padded with zero features (and zero weight rows) up to
    H * d_k, or the heads widened to D / H (values too when they already have the queries' width)."""
    named = dict(v.named)
    H, d_k, d_v, D = mha_widths(named)
    if D % H == 0 and D // H > d_k:
        return _widen(v, D // H, D // H if d_v == d_k else d_v)
    extra = H * d_k - D
    if extra <= 0:
        return v  # nothing to change: the probe repeats the call, which flips nothing
    return _pad_input(v, extra)


def _pad_input(v: Variant, extra: int) -> Variant:
    """X with ``extra`` zero features (and zero rows of W_Q, W_K, W_V), the output unchanged."""
    return Variant(model_to(dict(v.named), np.shape(v.named["X"])[-1] + extra), v.unwrap)


def divisible(stored: Case, v: Variant, *, control: bool = False) -> Variant:
    """X zero-padded to a width num_heads divides but no equality of widths holds at (``shapes.divisible_widths``),
    the output unchanged: only code that needs D % num_heads == 0 and nothing more passes. ``control``: to the
    next width past it that num_heads does not divide (code that passes there too needs a wider input)."""
    wide, undivided = divisible_widths(v.named)
    return _pad_input(v, (undivided if control else wide) - mha_widths(v.named)[3])


def divisible_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not is_mha(stored, named):
        return False
    H, _, _, D = mha_widths(named)
    return D % H != 0


def past_model_width(d_k: int, D: int) -> int:
    """A head width that heads split by D // H never have, for a control: the least multiple of D, at least 2D, wider
    than d_k. At one head D = H * d_k makes d_k a multiple of D; a control at another multiple tells code that needs
    d_k = D / H from code whose own check needs only a multiple of D (a QK-norm's group size taken from D)."""
    return D * max(2, d_k // D + 1)


def wider_than_model(stored: Case, v: Variant) -> Variant:
    """The queries' and keys' heads widened (``past_model_width``), the output unchanged: code split by D // H still
    fails; code that a D = H * d_k probe fixed for another reason passes here too."""
    _, d_k, d_v, D = mha_widths(v.named)
    return _widen(v, past_model_width(d_k, D), d_v)


def model_scale(stored: Case, v: Variant) -> Variant:
    """The queries scaled by sqrt(D / d_k), standing for the case: code that scales the scores by 1/sqrt(D) (the
    model width) instead of 1/sqrt(d_k) then computes the case's answer. It separates that scale from heads split by
    D // H, which the width probe cannot: on one head, widening the heads to D fixes both."""
    _, d_k, _, D = mha_widths(v.named)
    named = dict(v.named, W_Q=np.asarray(v.named["W_Q"]) * np.sqrt(D / d_k))
    return Variant(named, v.unwrap, v.contract)


def output_width(stored: Case, v: Variant) -> Variant:
    """The input as wide as the heads' concatenation (D = H * d_v), with d_k != d_v, the output unchanged: only code
    that merges the heads back into D columns needs it (code that splits by D // H still fails on the queries)."""
    H, d_k, d_v, D = mha_widths(v.named)
    to_v = max(d_v, -(-D // H))
    v = _widen(v, d_k + 1 if d_k == to_v else d_k, to_v)
    return _pad_input(v, H * to_v - D) if H * to_v > D else v


def output_width_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not is_mha(stored, named):
        return False
    H, _, d_v, D = mha_widths(named)
    return D != H * d_v


def model_width_applies(stored: Case, named: Mapping[str, Any]) -> bool:
    if not is_mha(stored, named):
        return False
    H, d_k, d_v, D = mha_widths(named)
    return D != H * d_k or D != H * d_v


def head_axis(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=np.expand_dims(v.named["mask"], -3)), v.unwrap, v.contract)


def inverted(stored: Case, v: Variant) -> Variant:
    return Variant(dict(v.named, mask=~np.asarray(v.named["mask"])), v.unwrap, v.contract)


def has_bool_mask(stored: Case, named: Mapping[str, Any]) -> bool:
    mask = named.get("mask")
    return stored.function in MASKED and isinstance(mask, np.ndarray) and mask.dtype.kind == "b"


def batch_lead(stored: Case, named: Mapping[str, Any]) -> tuple[int, ...] | None:
    """The common leading axes of the token arrays, or None when the batch-first probe does not apply."""
    tokens = [np.asarray(a) for n, a in named.items() if n in TOKEN_ARRAYS]
    if stored.function in ("softmax", "causal_mask", "rotation_matrix") or not tokens:
        return None
    lead = tokens[0].shape[:-2]
    return None if len(lead) == 1 or any(a.shape[:-2] != lead for a in tokens) else lead


def batch_first(stored: Case, v: Variant, *, with_mask: bool = False) -> Variant:
    """Exactly one leading axis: added (of length 2, the case twice, so that a size read from the wrong axis is not
    1 by coincidence), or the leading axes merged into one (``with_mask``: the mask too)."""
    lead = batch_lead(stored, v.named)
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


def mask_broadcasts(stored: Case, named: Mapping[str, Any]) -> bool:
    """The mask is smaller than the scores (it is broadcast): writing it out in full is a probe."""
    return np.shape(named["mask"]) != _scores_shape(stored, named)[-np.ndim(named["mask"]):] or np.ndim(
        named["mask"]) < len(_scores_shape(stored, named)) - (stored.function == "multi_head_attention")


def full_mask(stored: Case, v: Variant) -> Variant:
    """The mask written out to the scores' full shape (the head axis of multi-head attention left out)."""
    shape = _scores_shape(stored, v.named)
    if stored.function == "multi_head_attention":
        shape = (*shape[:-3], *shape[-2:])
    return Variant(dict(v.named, mask=np.broadcast_to(np.asarray(v.named["mask"]), shape).copy()), v.unwrap)


def two_axes(stored: Case, v: Variant, mask_axes: int = 0) -> Variant:
    """A 2-D case with two leading axes of length 2 (copies of the case; the output's first entry kept), and
    ``mask_axes`` such axes on a 2-D mask (the batch's, 1, or the whole lead, 2; 0: the mask as it was)."""
    named = {name: _twice(np.asarray(a), 2) if name in TOKEN_ARRAYS else a for name, a in v.named.items()}
    mask = v.named.get("mask")
    if mask_axes and isinstance(mask, np.ndarray) and mask.ndim == 2:
        named["mask"] = _twice(mask, mask_axes)

    def unwrap(out: Any) -> Any:
        if isinstance(out, (tuple, list)):
            return tuple(unwrap(o) for o in out)
        return out[0, 0] if isinstance(out, np.ndarray) and out.ndim >= 2 and out.shape[:2] == (2, 2) else out

    return Variant(named, lambda out: v.unwrap(unwrap(out)))
