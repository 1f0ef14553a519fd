"""Several mistakes at once, read off one output of multi-head or scaled dot-product attention.

The contract's attention with its knobs turned, each combination at the contract's scale or at the scale fitted
to the output (``scales.fit``, named by ``scales.named_for``):

* multi-head attention (``multi_head``): the queries' and keys' heads of width d_k, or D // H (mha_head_width_model);
  their roles as given, or swapped (swapped_qk); each head's queries and keys rotated by a RoPE of the code's own at
  positions 0..N-1, base 10000, in interleaved pairs or in halves (mha_applies_rope), or not; the mask given,
  ignored, or a causal one of the code's own; num_heads heads, or one head over the full width (heads_not_split); W_O
  applied or not (no_output_projection); with any leading axis of length 1 the code added and kept
  (extra_leading_axes); on a batch of sequences (B, N, D), the input read tokens first, (N, B, D), its first two axes
  swapped and its output swapped back (mha_tokens_first), with the mask as that layout meets it;
* scaled dot-product attention (``attention``): the mask given, ignored, read as a (batch, n_k) key-padding mask
  (mask_key_padding, in multi-head attention too), or a causal one of the code's own,
  bottom-right or top-left aligned (causal_top_left); the scale given, or the default one in its place
  (scale_argument_ignored); the two outputs returned in the contract's order or the other (outputs_swapped); the
  weights laid out as the contract lays them out, transposed to (..., n_k, n_q) (weights_transposed), or reshaped to
  that shape (weights_reshaped); on a batch of sequences (B, N, d), its inputs read tokens first, (N, B, d)
  (sdpa_tokens_first), as multi-head attention's may be.

Nothing of the student's runs again: every candidate is the oracle's, on the case's own inputs.

A combination is named only when it reproduces the output exactly; NaN on whole rows only where its mask leaves a
row with no key (softmax_nan_fully_masked: the softmax of an all -inf row). When several do and name different
mistakes, only the mistakes they all share are named (none when they share none): two explanations of one
output are never picked between.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import numpy as np

from autograder.api import Case, matches

from ..generated import oracle
from . import inference, masks, scales

Found = tuple[Any, str] | None


def combined(stored: Case, actual: Any) -> Found:
    """The mistakes whose combination alone reproduces ``actual`` on this case (multi-head or scaled dot-product
    attention), or None."""
    named = inference._plain_arguments(stored)
    return None if named is None else on_inputs(stored.function, named, actual, stored.expected)


def on_inputs(function: str, named: dict[str, Any], actual: Any, expected: Any = None) -> Found:
    """The same on the arguments ``named`` (a case's, or a probe's rewritten ones), whose contract answer is
    ``expected`` (the oracle's when not given)."""
    if function not in ("multi_head_attention", "scaled_dot_product_attention"):
        return None
    if expected is None:
        try:
            with np.errstate(all="ignore"):
                expected = getattr(oracle, function)(**named)
        except (ValueError, IndexError, TypeError):
            return None
    if function == "multi_head_attention":
        return _multi_head(named, np.ndim(expected), actual)
    return _attention(named, np.shape(expected[1])[:-2], actual)


def multi_head(stored: Case, actual: Any) -> Found:
    """The mistakes whose combination alone reproduces ``actual`` on this multi-head case, or None."""
    named = inference._plain_arguments(stored) if stored.function == "multi_head_attention" else None
    return None if named is None else _multi_head(named, np.ndim(stored.expected), actual)


def _multi_head(named: dict[str, Any], ndim: int, actual: Any) -> Found:
    if not isinstance(actual, np.ndarray) or not _readable(actual):
        return None
    extra: tuple[str, ...] = ()
    while actual.ndim > ndim and actual.shape[0] == 1:  # a leading axis of its own, kept
        actual, extra = actual[0], ("extra_leading_axes",)
    H, n = int(named["num_heads"]), np.shape(named["X"])[-2]
    masks_ = _masks("multi_head_attention", named.get("mask"), n, n)
    heads = [((), "", H)] + ([(("heads_not_split",), "as one head over the full width", 1)] if H > 1 else [])
    width = np.shape(named["W_V"])[-1]
    projections = [((), "", named["W_O"]), (("no_output_projection",), "without W_O", np.eye(width))]
    candidates = []
    for (m0, h0, qk), (m4, h4, rotary), (m1, h1, one), (m2, h2, heads_), (m3, h3, W_O) in product(
            _queries_and_keys(named), ROTARY, masks_, heads, projections):
        if m0 or m1 or m2 or m3 or m4:
            how = ", ".join(h for h in (h0, h4, h2, h1, h3) if h)
            inputs = dict(named, **qk, mask=one, num_heads=heads_, W_O=W_O)
            candidates.append(((*m0, *m4, *m2, *m3, *m1), how, {**inputs, ROTATED: rotary} if rotary else inputs,
                               actual))
    if np.ndim(named["X"]) == 3 and actual.ndim == 3 and np.shape(named["X"])[0] > 1:  # read tokens first, (N,
        # B, D): the batch's sequences are the tokens a token attends over (with more leading axes, the swap only
        # reorders the batch; with one sequence, each token attends to itself alone, as other readings may have it);
        # its mask as the code meets it: given, ignored, or a causal one of its own over those B "tokens"
        tokens_first, B = dict(named, X=np.swapaxes(named["X"], 0, 1)), np.shape(named["X"])[0]
        for (m1, h1, one), (m2, h2, heads_), (m3, h3, W_O) in product(
                _masks("multi_head_attention", named.get("mask"), B, B), heads, projections):
            how = ", ".join(h for h in (TOKENS_FIRST, h2, h1, h3) if h)
            candidates.append((("mha_tokens_first", *m2, *m3, *m1), how,
                               dict(tokens_first, mask=one, num_heads=heads_, W_O=W_O), np.swapaxes(actual, 0, 1)))
    return _named(_hits("multi_head_attention", named, candidates, extra))


TOKENS_FIRST = "on X read as (N, B, D), its first two axes swapped (and its output swapped back)"


ROTATED = "rotary"  # a multi-head candidate's key: the RoPE layout its heads' queries and keys are rotated in
ROTARY: list[tuple[tuple[str, ...], str, str | None]] = [
    ((), "", None),
    (("mha_applies_rope",), "with RoPE on each head's queries and keys (interleaved pairs)", "pairs"),
    (("mha_applies_rope",), "with RoPE on each head's queries and keys (halves, rotate_half)", "halves")]


def _rotated_heads(X: Any, W_Q: Any, W_K: Any, W_V: Any, W_O: Any, num_heads: int, mask: Any = None,
                   rotary: str = "pairs") -> np.ndarray:
    """The contract's multi-head attention with each head's queries and keys rotated by RoPE (the oracle's, base
    10000) at positions 0..N-1 before the scores: coordinate pairs (2i, 2i + 1), or (i, i + d/2) for "halves"."""
    def split(M: np.ndarray) -> np.ndarray:  # (..., N, H*d) -> (..., H, N, d)
        return np.swapaxes(M.reshape(*M.shape[:-1], num_heads, -1), -2, -3)

    def rotate(M: np.ndarray) -> np.ndarray:
        d = M.shape[-1]
        if d % 2:
            raise ValueError("RoPE needs an even head width")
        order = np.arange(d).reshape(2, d // 2).T.ravel() if rotary == "halves" else np.arange(d)
        out = np.empty(M.shape)
        out[..., order] = oracle.rope(M[..., order], np.arange(M.shape[-2], dtype=float))
        return out

    Q, K, V = (split(np.asarray(X) @ W) for W in (W_Q, W_K, W_V))
    if mask is not None:  # shared by every head, as the contract's
        n = np.shape(X)[-2]
        mask = masks.full(mask, n, n)[..., None, :, :]
    heads, _ = oracle.scaled_dot_product_attention(rotate(Q), rotate(K), V, mask=mask)
    concat = np.swapaxes(heads, -2, -3)
    return concat.reshape(*concat.shape[:-2], -1) @ W_O


def _queries_and_keys(named: dict[str, Any]) -> list[tuple[tuple[str, ...], str, dict[str, Any]]]:
    """(mistakes, how, W_Q and W_K) of the queries' and keys' projections a multi-head code may use: the given ones;
    heads of width D // H (head h takes columns [h * D // H, (h + 1) * D // H) of W_Q and W_K) where that is narrower
    than d_k; each of these with the roles of Q and K swapped (softmax(K Q^T): the scores of self-attention with
    W_Q and W_K exchanged)."""
    W_Q, W_K, H, D = named["W_Q"], named["W_K"], int(named["num_heads"]), np.shape(named["X"])[-1]
    found: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [((), "", {})]
    cut = H * (D // H)
    if 0 < cut < np.shape(W_Q)[-1] and np.shape(W_Q) == np.shape(W_K):
        found.append((("mha_head_width_model",), "with heads of width D // num_heads",
                      {"W_Q": W_Q[..., :cut], "W_K": W_K[..., :cut]}))
    if np.shape(W_Q) == np.shape(W_K):
        found += [((*m, "swapped_qk"), ", ".join(h for h in (how, "with the roles of Q and K swapped") if h),
                   {"W_Q": qk.get("W_K", W_K), "W_K": qk.get("W_Q", W_Q)}) for m, how, qk in list(found)]
    return found


def attention(stored: Case, actual: Any) -> Found:
    """The mistakes whose combination alone reproduces ``actual`` (out, weights) on this scaled dot-product case, or
    None (a single mistake is ``inference.answered``'s; this names it too, and the weights' layout)."""
    named = inference._plain_arguments(stored) if stored.function == "scaled_dot_product_attention" else None
    return None if named is None else _attention(named, np.shape(stored.expected[1])[:-2], actual)


def _attention(named: dict[str, Any], lead: tuple[int, ...], actual: Any) -> Found:
    if not isinstance(actual, tuple) or len(actual) != 2:
        return None
    out, weights = actual
    if not all(isinstance(a, np.ndarray) and a.dtype.kind == "f" and _readable(a) for a in actual):
        return None
    n_q, n_k = np.shape(named["Q"])[-2], np.shape(named["K"])[-2]
    scale, masks_ = named.get("scale"), _masks("scaled_dot_product_attention", named.get("mask"), n_q, n_k)
    if n_q != n_k:
        masks_.append((("always_causal", "causal_top_left"), "with a causal mask of its own aligned top-left",
                      np.tril(np.ones((n_q, n_k), dtype=bool))))
    given = [((), "", scale)] + ([(("scale_argument_ignored",), "with the default scale", None)] * (scale is not None))
    layouts: list[tuple[tuple[str, ...], str, Any]] = []
    for m0, h0, (out_, weights_) in [((), "", (out, weights)),
                                     (("outputs_swapped",), "its two outputs returned in the other order",
                                      (weights, out))]:
        layouts.append((m0, h0, (out_, weights_)))
        if weights_.shape == (*lead, n_k, n_q):  # back to (..., n_q, n_k): the transpose, or the entries in order
            layouts.append(((*m0, "weights_transposed"), ", ".join(h for h in (h0, "its weights transposed") if h),
                            (out_, np.swapaxes(weights_, -1, -2))))
            if n_q != n_k:
                layouts.append(((*m0, "weights_reshaped"), ", ".join(h for h in (h0, "its weights reshaped") if h),
                                (out_, weights_.reshape(*lead, n_q, n_k))))
    candidates = [((*m1, *m2, *m3), ", ".join(h for h in (h1, h2, h3) if h), dict(named, mask=one, scale=scale_),
                   back)
                  for (m1, h1, one), (m2, h2, scale_), (m3, h3, back) in product(masks_, given, layouts)
                  if m1 or m2 or m3]
    B = np.shape(named["Q"])[0]
    if np.ndim(named["Q"]) == 3 and out.ndim == 3 and B > 1:  # read tokens first, (N, B, d), as multi-head
        # attention may be (``_multi_head``): each token attends over the batch, its weights (N, B, B)
        swapped = {n: np.swapaxes(named[n], 0, 1) for n in ("Q", "K", "V")}
        candidates += [(("sdpa_tokens_first", *m1, *m2), ", ".join(h for h in (SDPA_TOKENS_FIRST, h1, h2) if h),
                        dict(named, **swapped, mask=one, scale=scale_), (np.swapaxes(out, 0, 1), weights))
                       for (m1, h1, one), (m2, h2, scale_) in product(
                           _masks("scaled_dot_product_attention", named.get("mask"), B, B), given)]
    return _named(_hits("scaled_dot_product_attention", named, candidates))


SDPA_TOKENS_FIRST = "on Q, K and V read as (N, B, d), their first two axes swapped (and the output swapped back)"


def _masks(function: str, mask: Any, n_q: int, n_k: int) -> list[tuple[tuple[str, ...], str, Any]]:
    """(mistakes, how, mask) of the masks a code may apply instead of ``mask``: it, none, it read as a (batch, n_k)
    key-padding mask (``masks.key_padding``), a causal one of its own."""
    masks_: list[tuple[tuple[str, ...], str, Any]] = [((), "", mask)]
    if mask is not None:
        masks_.append((("mask_ignored",), "without the mask", None))
    if (padding := masks.key_padding(function, mask)) is not None:
        masks_.append((("mask_key_padding",), masks.KEY_PADDING, padding))
    masks_.append((("always_causal",), "with a causal mask of its own", oracle.causal_mask(n_q, n_k)))
    return masks_


def _hits(function: str, named: dict[str, Any], candidates: list, extra: tuple[str, ...] = ()) -> list:
    """(mistakes, how) of every candidate (mistakes, how, inputs, the output as that candidate reads it) whose
    oracle answer, at the contract's or a fitted scale, is that output; a fitted scale is named against the case's
    own arguments ``named``."""
    hits: list[tuple[tuple[str, ...], str]] = []
    with scales.budget(fits=len(candidates), probes=0):  # the oracle's own attention: no call of the student's
        for mistakes, how, inputs, actual in candidates:
            try:
                with np.errstate(all="ignore"):
                    expected = (_rotated_heads if ROTATED in inputs else getattr(oracle, function))(**inputs)
            except (ValueError, IndexError):
                continue
            if np.shape(expected[0] if isinstance(expected, tuple) else expected) != np.shape(
                    actual[0] if isinstance(actual, tuple) else actual):
                continue
            if matches(actual, expected):
                hits.append(((*mistakes, *extra), how))
            elif not np.isfinite(scales.flat_output(actual)).all():  # NaN: only on this candidate's fully masked rows
                if matches(actual, masks.nan_where_fully_masked(function, inputs, expected)):
                    hits.append(((*mistakes, "softmax_nan_fully_masked", *extra),
                                 f"{how}, NaN on its fully masked rows".lstrip(", ")))
            elif "scale_argument_ignored" in mistakes or ROTATED in inputs:  # a scale of its own: the given
                continue  # scale's fit says which; a rotary candidate is read at the contract's scale only
            elif (c := scales.fit(function, inputs, actual)) is not None:
                # named against the case's own heads and widths (one head over the full width may scale by
                # 1/sqrt(d_k) of the case all the same); "another constant" beside other mistakes says little, and
                # may be two readings of one value (on one head, 1/sqrt(D) is also 1/sqrt(D / H)): not named then
                scale = scales.named_for(function, named, c)
                scale = (scale,) if scale and not (scale == "scale_other" and mistakes) else ()
                hits.append(((*mistakes, *scale, *extra), f"{how}, its scores scaled by {c:.6g}".lstrip(", ")))
    return hits


def _readable(a: np.ndarray) -> bool:
    """Finite, or NaN on whole rows at most (a fully masked row's softmax of -inf), some rows finite."""
    finite = np.isfinite(a)
    if finite.all():
        return True
    return a.ndim >= 1 and not np.isinf(a).any() and bool(finite.any()) and bool(
        (finite.all(axis=-1) | ~finite.any(axis=-1)).all())


def _named(hits: list) -> Found:
    """The mistakes every hit shares (two explanations of one output are never picked between), or None."""
    if not hits:
        return None
    shared = [m for m in hits[0][0] if all(m in other for other, _ in hits[1:])]
    if not shared:
        return None
    hows = "; or ".join(how for _, how in hits)
    return (shared[0] if len(shared) == 1 else tuple(shared)), f"{MATCHED}{hows}"


MATCHED = "the output equals the contract's answer "
